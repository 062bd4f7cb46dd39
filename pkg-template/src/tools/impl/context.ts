// What every tool module is: a name, a toolset, its description, and a
// `run` over a small context. The context is one call's view of the runner
// (the hosts as that call may use them, the language, the limits) plus the
// state the runner shares between calls (the plan session, the gathering
// of applies), so a tool holds no state of its own and any registry (the
// runner, editkit-mcp, a SiYuan plugin) runs the same implementation.

import type { FileEditSession } from '../../files.js';
import type { Lang, SiyuanHost } from '../../types.js';
import { describeTool, toolSpec } from '../definitions.js';
import type { Spec, ToolDescription, ToolName, Toolset } from '../definitions.js';
import type { FileHost, ToolResult, ToolRunnerOptions } from '../types.js';
import type { Args } from '../validate.js';

/** One tool call's view of the runner: what a tool module may use. */
export interface ToolContext {
  /**
   * The file host as this call sees it: writes refused once the call is
   * cancelled, and each write reported to the call's `onWrite` (the
   * progress an MCP client sees). Throws when the runner has no files host.
   */
  files(): FileHost;
  /** The SiYuan host, guarded and reported as `files()` is. */
  siyuan(): SiyuanHost;
  /**
   * Says how many more writes the call is about to make (the `total` of
   * its write events); optional for contexts made outside the runner.
   */
  expectWrites?(count: number): void;
  /** The language of the result texts. */
  readonly lang: Lang;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT`. */
  readonly timeoutMs: number;
  /** Who plans and applies file edits. */
  readonly owner: string;
  /** Asks an LLM to fix an `edit` whose old_string matched nowhere (undefined: no correction). */
  readonly corrector: ToolRunnerOptions['corrector'];
  /** The plan registry every call of the runner shares (created on first use). */
  plans(): FileEditSession;
  /** The key of `path`'s lock: the host's `lockKey`, else the path as given. */
  lockKey(path: string): string;
  /**
   * Runs `apply` (the apply of plan `hunkId` to `path`) under the path's
   * lock, after the applies to that path gathered in the same tick whose
   * plans were made before it (SPEC §7).
   */
  inCreationOrder(
    path: string,
    hunkId: string,
    apply: () => Promise<ToolResult>,
  ): Promise<ToolResult>;
}

/** One editkit tool: its definition and its implementation. */
export interface ToolModule<N extends ToolName = ToolName> {
  readonly name: N;
  readonly toolset: Toolset;
  /** The tool as a registry lists it, in `lang` (name, title, schemas, hints). */
  describe(lang: Lang): ToolDescription;
  /**
   * Runs one call whose arguments the registry checked against the
   * tool's schema; refusals are results, a thrown error is worded by the
   * registry.
   */
  run(ctx: ToolContext, args: Args): Promise<ToolResult>;
}

/**
 * The module of tool `name`, its toolset and description read from the
 * tool's definition when asked: defining a tool looks nothing up, so a
 * bundle that uses no tool can drop the modules and the definitions.
 */
export function defineTool<N extends ToolName>(
  name: N,
  run: (ctx: ToolContext, args: Args) => Promise<ToolResult>,
): ToolModule<N> {
  // Frozen: every registry shares the one module.
  return Object.freeze({
    name,
    get toolset(): Toolset {
      return specOf(name).toolset;
    },
    describe: (lang: Lang) => describeTool(specOf(name), lang),
    run,
  });
}

function specOf(name: ToolName): Spec {
  const spec = toolSpec(name);
  // Every name of TOOL_NAMES has a definition (tools.test.mjs holds them together).
  if (!spec) throw new Error(`no definition for tool ${name}`);
  return spec;
}

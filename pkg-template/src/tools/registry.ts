// A registry's view of the tools: for each tool module a host serves, its
// description in one language and a `call` that runs it as the runner
// does. What a host that registers tools one by one needs (editkit-mcp's
// list, a SiYuan plugin's `siyuan.mcp.registerTool`).

import type { Lang } from '../types.js';
import { GUIDES } from './guides.js';
import type { ToolDescription, Toolset } from './definitions.js';
import type { ToolModule } from './impl/context.js';
import type { RunOptions, ToolResult, ToolRunnerOptions } from './types.js';

/** One tool as a registry registers it: its description, and the call that runs it. */
export interface RegisteredTool extends ToolDescription {
  /**
   * Runs the tool: the result `runner.runDetailed(name, args, call)` gives
   * (never rejects for tool errors; bad arguments are a result too).
   */
  call(args: unknown, call?: RunOptions): Promise<ToolResult>;
}

/** The tools a registry registers, and the guide for its instructions. */
export interface ToolRegistry {
  tools: RegisteredTool[];
  /** The toolset guide(s) for the system prompt or a server's instructions. */
  guide: string;
}

/** Which tools a registry lists, and in which language. */
export interface ToolRegistryView {
  /** Default: the runner's language. */
  lang?: Lang;
  /** Default: the toolsets the runner has hosts for (both when it has none). */
  toolsets?: Toolset[];
}

/** `createToolRegistry`'s options: the runner's, and which toolsets to list. */
export interface ToolRegistryOptions extends ToolRunnerOptions {
  /** Default: the toolsets given hosts (both when none is given). */
  toolsets?: Toolset[];
}

/** The toolsets `value` names, in the order given (undefined when it is no list). */
export function readToolsets(value: unknown): Toolset[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter((t): t is Toolset => t === 'siyuan' || t === 'files');
}

/**
 * The registry of `modules` in `toolsets`, each call run by `run` (the
 * runner's runDetailed). The guide joins the toolsets' guides in the order
 * the tool definitions do.
 */
export function registryOf(
  modules: readonly ToolModule[],
  lang: Lang,
  toolsets: readonly Toolset[],
  run: (name: string, args: unknown, call?: RunOptions) => Promise<ToolResult>,
): ToolRegistry {
  const tools = modules
    .filter((m) => toolsets.includes(m.toolset))
    .map((m): RegisteredTool => {
      const name = m.name;
      return { ...m.describe(lang), call: (args, call) => run(name, args, call) };
    });
  return { tools, guide: toolsets.map((t) => GUIDES[t][lang]).join('\n\n') };
}

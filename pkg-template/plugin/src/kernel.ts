// editkit's SiYuan kernel plugin (SPEC §13): SiYuan v3.7 evaluates this
// file (bundled as kernel.js) in goja inside the kernel and gives it the
// `siyuan` global. It registers editkit's SiYuan tools on the kernel's MCP
// server — the one SiYuan's agent uses, and that any MCP client of
// SiYuan's /mcp sees as `plugin__editkit__<tool>` — with the names,
// schemas and descriptions of the package's tool registry, and runs them
// with the package's engine, TypeScript layer and SiYuan adapter, over
// `siyuan.client.fetch` instead of HTTP with a token.
import { builtInCore } from './runtime.js';
import { initSync } from '../../src/loader.js';
import { createSiyuanHost, kernelRequest } from '../../src/siyuan/adapter.js';
import type { KernelRequestOptions } from '../../src/siyuan/adapter.js';
import { createToolRegistry } from '../../src/tools/index.js';
import type { RegisteredTool, ToolRegistry } from '../../src/tools/index.js';
import type { Lang } from '../../src/types.js';

/** The parts of SiYuan's `siyuan` global this plugin uses (kernel/plugin/). */
interface SiyuanGlobal {
  plugin: {
    name: string;
    i18n?: Record<string, unknown>;
    /** Sealed, not frozen: the plugin binds its hooks. */
    lifecycle: Record<'onload' | 'onrunning' | 'onunload', (() => void) | null>;
  };
  logger: {
    info(...args: unknown[]): void;
    warn(...args: unknown[]): void;
    error(...args: unknown[]): void;
  };
  storage: { get(path: string): Promise<{ text(): Promise<string> }> };
  client: { fetch: NonNullable<KernelRequestOptions['fetch']> };
  mcp: {
    registerTool(
      name: string,
      config: {
        title: string;
        description: string;
        inputSchema: unknown;
        readOnly: boolean;
      },
      handler: (args: unknown) => Promise<PluginToolAnswer>,
    ): Promise<unknown>;
  };
}
declare const siyuan: SiyuanGlobal;

/** What a user may set in the plugin's storage, `settings.json`. */
export interface PluginSettings {
  /** Milliseconds a kernel request may take before HOST_TIMEOUT (default 30,000). */
  timeoutMs?: number;
}

initSync(builtInCore() as Parameters<typeof initSync>[0]);

/** The workspace's language: the i18n file SiYuan picked for it. */
const lang: Lang = siyuan.plugin.i18n?.editkitLang === 'zh' ? 'zh' : 'en';

/** The tools over the kernel this plugin runs in, with the user's settings. */
function registryWith(settings: PluginSettings): ToolRegistry {
  // siyuan.client.fetch takes a path on the kernel and adds the plugin's
  // own token, so the base URL is empty and no token is sent.
  const request = kernelRequest({ baseUrl: '', fetch: siyuan.client.fetch, lang });
  return createToolRegistry({
    siyuan: createSiyuanHost({ request }),
    lang,
    toolsets: ['siyuan'],
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
  });
}

async function readSettings(): Promise<PluginSettings> {
  let text: string;
  try {
    text = await (await siyuan.storage.get('settings.json')).text();
  } catch {
    return {}; // No settings file: the defaults.
  }
  try {
    const parsed = JSON.parse(text) as { timeoutMs?: unknown };
    const ms = parsed.timeoutMs;
    return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? { timeoutMs: ms } : {};
  } catch (e) {
    siyuan.logger.warn(`editkit: settings.json is not JSON, the defaults apply: ${String(e)}`);
    return {};
  }
}

// The tools are registered while the file loads (SiYuan lists what is
// registered then); a call waits for the settings.
const described = registryWith({});
const ready: Promise<ToolRegistry> = readSettings().then((s) =>
  s.timeoutMs === undefined ? described : registryWith(s),
);

/** What a handler resolves to: SiYuan sends it as the result's JSON text. */
export type PluginToolAnswer = { text: string } | { isError: true; code: string; text: string };

/**
 * Runs a tool; its answer is the runner's agent text (what was done, the
 * diff, the undo; for a refusal its code, what went wrong and what to do
 * next), in an object. SiYuan v3.7.3 settles a handler's promise through
 * Go callbacks that goja wraps by reflection (kernel/plugin/sandbox.go,
 * invokeFunction), which first convert the settled value to the Go type
 * `goja.FunctionCall`: a string cannot be converted, the conversion throws
 * inside the promise reaction and the call never answers (seen on the
 * live kernel: the MCP client timed out while the edit was made); an
 * object converts, to an empty call, so a rejection reaches the client as
 * "promise rejected: <nil>" whatever it carried. So every answer
 * fulfils, with an object, and a refusal says so in it (`isError`, the
 * code), since the MCP result cannot be flagged from here.
 */
async function handle(tool: RegisteredTool, args: unknown): Promise<PluginToolAnswer> {
  const started = Date.now();
  let answer: PluginToolAnswer;
  try {
    const registry = await ready;
    const current = registry.tools.find((t) => t.name === tool.name) ?? tool;
    const result = await current.call(args ?? {});
    answer = result.isError
      ? { isError: true, code: result.code, text: result.text }
      : { text: result.text };
  } catch (e) {
    // The runner answers every refusal itself; what reaches here is a
    // fault (of the plugin or the runtime). It is still an answer: a
    // rejection would reach the agent as "promise rejected: <nil>".
    const text = `${lang === 'zh' ? '错误' : 'Error'} [INTERNAL_ERROR]: ${e instanceof Error ? e.message : String(e)}`;
    answer = { isError: true, code: 'INTERNAL_ERROR', text };
  }
  siyuan.logger.info(
    `editkit: ${tool.name} answered in ${Date.now() - started} ms${'code' in answer ? ` (${answer.code})` : ''}`,
  );
  return answer;
}

/**
 * Registers every tool; says in SiYuan's log which were refused (SiYuan
 * itself logs nothing when it refuses one, it only rejects the promise).
 */
async function registerAll(): Promise<void> {
  const outcomes = await Promise.all(
    described.tools.map((tool) =>
      siyuan.mcp
        .registerTool(
          tool.name,
          {
            title: tool.title,
            description: tool.description,
            inputSchema: tool.inputSchema,
            readOnly: tool.readOnlyHint,
          },
          (args) => handle(tool, args),
        )
        .then(
          () => undefined,
          (e: unknown) => `${tool.name}: ${e instanceof Error ? e.message : String(e)}`,
        ),
    ),
  );
  const refused = outcomes.filter((o): o is string => o !== undefined);
  const registered = described.tools.length - refused.length;
  siyuan.logger.info(`editkit ${EDITKIT_VERSION}: ${registered} tools registered`);
  for (const why of refused) siyuan.logger.error(`editkit: SiYuan refused the tool ${why}`);
}

// SiYuan calls the hooks after this file runs and before the plugin stops,
// and logs an error line for each that is not a function. There is
// nothing to do in them: SiYuan unregisters the tools itself.
siyuan.plugin.lifecycle.onload = () => {};
siyuan.plugin.lifecycle.onrunning = () => {};
siyuan.plugin.lifecycle.onunload = () => {};
void registerAll();

declare const EDITKIT_VERSION: string;

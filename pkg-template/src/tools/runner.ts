// Executes agent tool calls and returns the text the agent should see.
// Refusals become readable text (with the error code and what to do next),
// never exceptions: an agent reads the result and corrects itself.
//
// The runner is a registry over the tool modules (impl/), which hold each
// tool's behaviour: it checks a call's arguments against the tool's
// schema, hands the module one call's context (the hosts through the
// call's scope, and the state calls share: the plan session, the
// gathering of applies), and words what comes back.

import { EditkitError, readOptions } from '../errors.js';
import { FileEditSession, withPathLock } from '../files.js';
import { timeoutOf } from '../timeout.js';
import type { Lang, SiyuanHost } from '../types.js';
import { readLang, toolDefinitions, toolSpec } from './definitions.js';
import type {
  Spec,
  ToolDefinitionsOf,
  ToolDefinitionsOptions,
  ToolFormat,
  ToolName,
  Toolset,
} from './definitions.js';
import type { ToolContext } from './impl/context.js';
import { TOOL_MODULES, toolModule } from './impl/index.js';
import { argProblemText, listOf, say } from './messages.js';
import {
  CallScope,
  Cancelled,
  cancelledResult,
  FILE_WRITES,
  readRunOptions,
  SIYUAN_WRITES,
} from './call-scope.js';
import { readToolsets, registryOf } from './registry.js';
import type { ToolRegistry, ToolRegistryOptions, ToolRegistryView } from './registry.js';
import { errorResult, MissingHost } from './results.js';
import type { FileHost, RunOptions, ToolResult, ToolRunnerOptions } from './types.js';
import { checkArgs, parseArgs } from './validate.js';
import type { ArgProblem, Args } from './validate.js';

export interface ToolRunner {
  /**
   * Runs one tool call; resolves to the text for the agent (never rejects
   * for tool errors). Any string is taken as a name: an unknown one is
   * answered with the tools there are.
   */
  run(name: ToolName | (string & {}), args: unknown, call?: RunOptions): Promise<string>;
  /** Runs one tool call; resolves to the text, the error flag and the data (never rejects for tool errors). */
  runDetailed(
    name: ToolName | (string & {}),
    args: unknown,
    call?: RunOptions,
  ): Promise<ToolResult>;
  /** The definitions of the tools this runner can execute. */
  definitions<F extends ToolFormat = 'json-schema'>(
    opts?: ToolDefinitionsOptions<F> | Lang,
  ): ToolDefinitionsOf<F>;
  /**
   * The tools this runner can execute, one entry per tool to register
   * (name, title, description, schemas, hints) with a `call` that runs it
   * here: what an MCP server or a plugin's tool registry needs.
   */
  registry(view?: ToolRegistryView): ToolRegistry;
}

/** What every call of a runner shares: a tool context but for the call's hosts. */
type SharedContext = Omit<ToolContext, 'files' | 'siyuan'>;

export function createToolRunner(runnerOptions: ToolRunnerOptions = {}): ToolRunner {
  const options = readRunnerOptions(runnerOptions);
  const lang: Lang = options.lang === 'zh' ? 'zh' : 'en';
  const shared = sharedContext(options, lang);
  /**
   * One call's context: the tools reach the hosts through `scope`, which
   * guards the writes of a call that may be cancelled; the state shared
   * by calls stays outside.
   */
  const contextFor = (scope: CallScope): ToolContext => ({
    ...shared,
    files: () => scope.host(configured(options, 'files'), FILE_WRITES, 'files'),
    siyuan: () => scope.host(configured(options, 'siyuan'), SIYUAN_WRITES, 'siyuan'),
    expectWrites: (count) => scope.expectWrites(count),
  });

  async function runDetailed(name: string, raw: unknown, call?: RunOptions): Promise<ToolResult> {
    const unknown = () =>
      unknownTool(
        typeof name === 'string' ? name : String(typeof name),
        TOOL_MODULES.filter((m) => served(options)?.includes(m.toolset) ?? true).map((m) => m.name),
        lang,
      );
    const spec = typeof name === 'string' ? toolSpec(name) : undefined;
    if (!spec) return unknown();
    const checked = checkCall(spec, raw, lang);
    if (checked.refusal) return checked.refusal;
    const scope = new CallScope(readRunOptions(call));
    if (scope.cancelled()) return cancelledResult(lang);
    const tool = toolModule(spec.name);
    if (!tool) return unknown();
    let result: ToolResult;
    try {
      result = await tool.run(contextFor(scope), checked.args);
    } catch (e) {
      if (e instanceof Cancelled) return cancelledResult(lang);
      result = errorResult(e, lang);
    }
    return finishCall(scope, result, lang);
  }

  return {
    async run(name, args, call) {
      return (await runDetailed(name, args, call)).text;
    },
    runDetailed,
    definitions<F extends ToolFormat = 'json-schema'>(
      defOptions?: ToolDefinitionsOptions<F> | Lang,
    ): ToolDefinitionsOf<F> {
      const opts = (
        typeof defOptions === 'string'
          ? { lang: readLang(defOptions) }
          : readOptions(defOptions, ['lang', 'format', 'toolsets'] as const, 'options')
      ) as ToolDefinitionsOptions<F>;
      return toolDefinitions<F>({
        ...opts,
        // An option given as undefined keeps the runner's language.
        lang: opts?.lang ?? lang,
        toolsets: opts?.toolsets ?? served(options),
      });
    },
    registry(view?: ToolRegistryView): ToolRegistry {
      const opts = readOptions(view, ['lang', 'toolsets'] as const, 'options');
      // As definitions() reads them: an unset option keeps the runner's.
      const listed: Lang = opts.lang === undefined ? lang : opts.lang === 'zh' ? 'zh' : 'en';
      const toolsets = readToolsets(opts.toolsets) ?? served(options) ?? ['siyuan', 'files'];
      return registryOf(TOOL_MODULES, listed, toolsets, runDetailed);
    },
  };
}

/**
 * The tools of the hosts given, ready to register one by one (a SiYuan
 * plugin's `siyuan.mcp.registerTool`): `createToolRunner(options)`'s
 * `registry({ toolsets })`, so every call runs as the runner runs it.
 */
export function createToolRegistry(options: ToolRegistryOptions = {}): ToolRegistry {
  const { toolsets, ...runnerOptions } = readOptions(
    options,
    [...RUNNER_OPTIONS, 'toolsets'] as const,
    'options',
  );
  return createToolRunner(runnerOptions as ToolRunnerOptions).registry({
    toolsets: readToolsets(toolsets),
  });
}

const RUNNER_OPTIONS = [
  'siyuan',
  'files',
  'session',
  'owner',
  'lang',
  'timeoutMs',
  'corrector',
] as const;

/** The runner's options as given, the corrector checked (it is called much later, mid-edit). */
function readRunnerOptions(runnerOptions: ToolRunnerOptions): ToolRunnerOptions {
  const options = readOptions(runnerOptions, RUNNER_OPTIONS, 'options') as ToolRunnerOptions;
  if (options.corrector !== undefined && typeof options.corrector !== 'function') {
    throw new EditkitError({
      code: 'INVALID_ARGUMENT',
      message: 'createToolRunner: corrector must be a function (request) => Promise<string>',
      subject: 'corrector',
    });
  }
  return options;
}

/** The host `which` the runner was given; MissingHost (worded as the call's error) when none. */
function configured(options: ToolRunnerOptions, which: 'files'): FileHost;
function configured(options: ToolRunnerOptions, which: 'siyuan'): SiyuanHost;
function configured(options: ToolRunnerOptions, which: 'files' | 'siyuan'): object {
  const host = options[which];
  if (!host) throw new MissingHost(which);
  return host;
}

/** The toolsets this runner's hosts serve; undefined (every toolset) when it has none. */
function served(options: ToolRunnerOptions): Toolset[] | undefined {
  const toolsets: Toolset[] = [];
  if (options.siyuan) toolsets.push('siyuan');
  if (options.files) toolsets.push('files');
  return toolsets.length ? toolsets : undefined;
}

/** The state a runner's calls share, and its settings, as the tool modules see them. */
function sharedContext(options: ToolRunnerOptions, lang: Lang): SharedContext {
  let session = options.session instanceof FileEditSession ? options.session : undefined;
  const plans = (): FileEditSession => (session ??= new FileEditSession());
  const lockKey = (path: string): string => {
    const host = options.files;
    if (host && typeof host.lockKey === 'function') {
      try {
        const key: unknown = host.lockKey(path);
        if (typeof key === 'string') return key;
      } catch {
        // The call itself reports the path's problem.
      }
    }
    return path;
  };
  return {
    lang,
    timeoutMs: timeoutOf(options),
    owner: typeof options.owner === 'string' && options.owner ? options.owner : 'agent',
    corrector: options.corrector,
    plans,
    lockKey,
    inCreationOrder: applyGathering(plans, lockKey),
  };
}

/**
 * Applies that reach one path within one tick (an agent's parallel tool
 * calls) land in the order their plans were made (SPEC §7), each
 * relocating over the ones before it: they are gathered until the next
 * macrotask, sorted by the session, then queued on the path's lock in
 * that order.
 */
function applyGathering(
  plans: () => FileEditSession,
  lockKey: (path: string) => string,
): ToolContext['inCreationOrder'] {
  const gathering = new Map<string, { hunkId: string; start: () => void }[]>();
  return (path, hunkId, apply) =>
    new Promise((resolve, reject) => {
      let batch = gathering.get(path);
      if (!batch) {
        const waiting: { hunkId: string; start: () => void }[] = [];
        batch = waiting;
        gathering.set(path, waiting);
        setTimeout(() => {
          gathering.delete(path);
          let order: string[];
          try {
            order = plans().applyOrder(waiting.map((w) => w.hunkId));
          } catch {
            // Never leave a call waiting: fall back to the order of arrival
            // (each apply then reports its own error).
            order = waiting.map((w) => w.hunkId);
          }
          const rank = (w: { hunkId: string }) => order.indexOf(w.hunkId);
          // Array sort is stable: the same id twice keeps its call order.
          for (const w of [...waiting].sort((x, y) => rank(x) - rank(y))) w.start();
        }, 0);
      }
      batch.push({
        hunkId,
        start: () => void withPathLock(lockKey(path), apply).then(resolve, reject),
      });
    });
}

/** A call's arguments checked against the tool's schema, or the refusal saying what is wrong. */
function checkCall(
  spec: Spec,
  raw: unknown,
  lang: Lang,
): { args: Args; refusal?: undefined } | { refusal: ToolResult } {
  let checked: { args: Args; problems: ArgProblem[] };
  try {
    const parsed = parseArgs(raw);
    if ('problem' in parsed) return { refusal: badArguments(spec.name, [parsed.problem], lang) };
    checked = checkArgs(spec, parsed.args);
  } catch (e) {
    // A Proxy or a getter that throws: not arguments a model sends.
    const detail = e instanceof Error ? e.message : String(e);
    return { refusal: badArguments(spec.name, [{ kind: 'unreadable', detail }], lang) };
  }
  if (checked.problems.length) return { refusal: badArguments(spec.name, checked.problems, lang) };
  return { args: checked.args };
}

/**
 * A call's result once its scope has its say: cancelled when a write was
 * refused, with the undo of the files it wrote, marked when it was
 * cancelled too late to stop.
 */
function finishCall(scope: CallScope, result: ToolResult, lang: Lang): ToolResult {
  // A refused write surfaces however the core reported it (a host error).
  if (scope.refusedAWrite()) return cancelledResult(lang);
  // The files it wrote, put back by one apply_diff (never a reason to
  // fail a call whose writes are done).
  let undo: string | undefined;
  try {
    undo = scope.undo();
  } catch {
    undo = undefined;
  }
  if (undo && typeof result.data === 'object' && result.data !== null)
    result = { ...result, data: { ...(result.data as object), undo } } as ToolResult;
  return scope.lateCancel() ? { ...result, cancelledLate: true } : result;
}

const runners = new WeakMap<object, ToolRunner>();

/**
 * Runs one tool call with `host` (the runner options); the plan registry
 * lives as long as `host` does, so prepare and apply calls may use it
 * across turns.
 */
export function runTool(
  name: ToolName | (string & {}),
  args: unknown,
  host: ToolRunnerOptions,
): Promise<string> {
  if (typeof host !== 'object' || host === null) {
    return Promise.reject(
      new EditkitError({
        code: 'INVALID_ARGUMENT',
        message: 'runTool(name, args, host): host must be an object of runner options',
        subject: 'host',
      }),
    );
  }
  let runner = runners.get(host);
  if (!runner) {
    runner = createToolRunner(host);
    runners.set(host, runner);
  }
  return runner.run(name, args);
}

/** The refusal of a call whose arguments do not fit the tool's schema: every problem once, then the parameters. */
function badArguments(tool: string, problems: ArgProblem[], lang: Lang): ToolResult {
  const spec = toolSpec(tool);
  // Each missing field counts: "Missing arguments (a, b)" is two problems.
  const count = problems.reduce((n, p) => n + (p.kind === 'missing' ? p.fields.length : 1), 0);
  const head = say('badArguments', lang, tool, String(count));
  const lines = [say('errorLine', lang, 'INVALID_ARGUMENT', head)];
  for (const p of problems) lines.push(`- ${argProblemText(p, lang)}`);
  if (spec) {
    const params = Object.entries(spec.params).map(([n, p]) => (p.required ? `${n}*` : n));
    lines.push(`→ ${say('argParameters', lang, tool, listOf(params, lang))}`);
  }
  return {
    text: lines.join('\n'),
    isError: true,
    code: 'INVALID_ARGUMENT',
    data: { code: 'INVALID_ARGUMENT', tool, problems },
  };
}

// Lists the tools this runner implements (its modules; toolDefinitions names the same set, tools.test.mjs checks).
function unknownTool(name: string, implemented: string[], lang: Lang): ToolResult {
  const why = say('unknownTool', lang, name, listOf(implemented, lang));
  return {
    text: say('errorLine', lang, 'INVALID_ARGUMENT', why),
    isError: true,
    code: 'INVALID_ARGUMENT',
    data: { code: 'INVALID_ARGUMENT', tool: name },
  };
}

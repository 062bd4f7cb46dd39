// Executes agent tool calls and returns the text the agent should see.
// Refusals become readable text (with the error code and what to do next),
// never exceptions: an agent reads the result and corrects itself.

import { applyBlockDiff, unifiedDiff } from '../api.js';
import {
  appendContent,
  createNewDoc,
  formatBlockInfo,
  getBlockContent,
  getBlockInfo,
} from '../content.js';
import { EditkitError, isEditkitError, readOptions } from '../errors.js';
import { HostTimeoutError, settleWithin, timeoutOf } from '../timeout.js';
import {
  checkNewFile,
  checkOverwrite,
  FileEditSession,
  formatFileView,
  withPathLock,
} from '../files.js';
import { applySearchReplace } from '../matcher.js';
import type { ApplyReport, Lang, SiyuanHost } from '../types.js';
import { readLang, toolDefinitions } from './definitions.js';
import { listOf, say } from './messages.js';
import type { ToolDefinitions, ToolDefinitionsOptions, ToolFormat } from './definitions.js';

/** File I/O for the file tools. */
export interface FileHost {
  /** The file's text, or `null` when it does not exist. */
  readFile(path: string): Promise<string | null> | string | null;
  writeFile(path: string, content: string): Promise<unknown> | unknown;
  /** Whether the path exists and is a file (default: derived from readFile). */
  exists?(
    path: string,
  ):
    | Promise<boolean | { exists: boolean; isFile: boolean }>
    | boolean
    | { exists: boolean; isFile: boolean };
}

export interface ToolRunnerOptions {
  /** SiYuan host callbacks (e.g. `createSiyuanHost({ request })`) for the SiYuan tools. */
  siyuan?: SiyuanHost;
  /** File callbacks for the file tools. */
  files?: FileHost;
  /** The plan registry (one per agent process); created when absent. */
  session?: FileEditSession;
  /** Who plans and applies file edits (default `agent`). */
  owner?: string;
  lang?: Lang;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000; SPEC §3.7 rule 11). */
  timeoutMs?: number;
}

export interface ToolRunner {
  /** Runs one tool call; resolves to the text for the agent (never rejects for tool errors). */
  run(name: string, args: unknown): Promise<string>;
  /** The definitions of the tools this runner can execute. */
  definitions<F extends ToolFormat>(opts?: ToolDefinitionsOptions<F> | Lang): ToolDefinitions;
}

type Args = Record<string, unknown>;

const s = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
const b = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);

export function createToolRunner(runnerOptions: ToolRunnerOptions = {}): ToolRunner {
  const options = readOptions(
    runnerOptions,
    ['siyuan', 'files', 'session', 'owner', 'lang', 'timeoutMs'] as const,
    'options',
  ) as ToolRunnerOptions;
  const lang: Lang = options.lang === 'zh' ? 'zh' : 'en';
  const timeoutMs = timeoutOf(options);
  const owner = typeof options.owner === 'string' && options.owner ? options.owner : 'agent';
  let session = options.session instanceof FileEditSession ? options.session : undefined;
  const files = (): FileHost => {
    if (!options.files) throw missing('files');
    return options.files;
  };
  const siyuan = (): SiyuanHost => {
    if (!options.siyuan) throw missing('siyuan');
    return options.siyuan;
  };
  const plans = (): FileEditSession => (session ??= new FileEditSession());

  // Applies that reach one path within one tick (an agent's parallel tool
  // calls) land in the order their plans were made (SPEC §7), each
  // relocating over the ones before it: they are gathered until the next
  // macrotask, sorted by the session, then queued on the path's lock in
  // that order.
  const gathering = new Map<string, { hunkId: string; start: () => void }[]>();
  const inCreationOrder = (
    path: string,
    hunkId: string,
    apply: () => Promise<string>,
  ): Promise<string> =>
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
      batch.push({ hunkId, start: () => void withPathLock(path, apply).then(resolve, reject) });
    });

  const read = async (path: string): Promise<string | null> => {
    const host = files();
    if (typeof host.readFile !== 'function') throw capabilityMissing('files.readFile', lang);
    const text: unknown = await hostCall(
      `files.readFile(${JSON.stringify(path)})`,
      () => host.readFile(path),
      timeoutMs,
    );
    if (text === undefined || text === null) return null;
    if (typeof text !== 'string')
      throw hostError(
        `files.readFile(${JSON.stringify(path)}) returned ${describeValue(text)}; expected the file's text, or null when it does not exist`,
      );
    return text;
  };
  const write = async (path: string, content: string): Promise<void> => {
    const host = files();
    if (typeof host.writeFile !== 'function') throw capabilityMissing('files.writeFile', lang);
    await hostCall(
      `files.writeFile(${JSON.stringify(path)})`,
      () => host.writeFile(path, content),
      timeoutMs,
    );
  };
  /** Refuses up front (before any plan is used up) when the host cannot write. */
  const writable = (): void => {
    if (typeof files().writeFile !== 'function') throw capabilityMissing('files.writeFile', lang);
  };
  const exists = async (path: string): Promise<{ exists: boolean; isFile: boolean }> => {
    const host = files();
    if (host.exists) {
      const exists = host.exists;
      const r: unknown = await hostCall(
        `files.exists(${JSON.stringify(path)})`,
        () => exists.call(host, path),
        timeoutMs,
      );
      if (typeof r === 'boolean') return { exists: r, isFile: r };
      if (
        typeof r === 'object' &&
        r !== null &&
        typeof (r as { exists?: unknown }).exists === 'boolean'
      ) {
        const o = r as { exists: boolean; isFile?: unknown };
        return { exists: o.exists, isFile: typeof o.isFile === 'boolean' ? o.isFile : o.exists };
      }
      throw hostError(
        `files.exists(${JSON.stringify(path)}) returned ${describeValue(r)}; expected a boolean or { exists, isFile }`,
      );
    }
    const text = await read(path);
    return { exists: text !== null, isFile: text !== null };
  };

  const tools: Record<string, (a: Args) => Promise<string>> = {
    async getBlockInfo(a) {
      const info = await getBlockInfo({ ids: s(a.ids) }, siyuan(), { lang, timeoutMs });
      return formatBlockInfo(info, { lang });
    },
    async getBlockContent(a) {
      const slice = s(a.slice);
      const args = {
        blockId: s(a.blockId),
        showId: a.showId === true,
        showSubStructure: a.showSubStructure === true,
        ...(slice ? { slice } : {}),
      };
      return (await getBlockContent(args, siyuan(), { lang, timeoutMs })).text;
    },
    async appendContent(a) {
      const targetType = s(a.targetType) as 'dailynote' | 'document' | 'block';
      const r = await appendContent(
        { markdown: s(a.markdown), targetType, target: s(a.target) },
        siyuan(),
        { lang, timeoutMs },
      );
      return r.summary;
    },
    async createNewDoc(a) {
      const location = s(a.location) as 'siblings' | 'children' | 'parent';
      const r = await createNewDoc(
        {
          title: s(a.title),
          anchorDocumentId: s(a.anchorDocumentId),
          location,
          markdown: s(a.markdown),
        },
        siyuan(),
        { lang, timeoutMs },
      );
      return r.summary;
    },
    async applyBlockDiff(a) {
      const report = await applyBlockDiff(s(a.diff), siyuan(), {
        dryRun: b(a.dryRun, false),
        atomic: b(a.atomic, true),
        lang,
        timeoutMs,
      });
      return formatApplyReport(report, lang);
    },
    async read_file(a) {
      const path = s(a.path);
      const content = await read(path);
      if (content === null) return fileMissing(path, lang);
      const maxLines = typeof a.max_lines === 'number' && a.max_lines > 0 ? a.max_lines : undefined;
      return formatFileView({
        path,
        content,
        range: s(a.range) || undefined,
        maxLines,
        showLineNumbers: b(a.show_line_numbers, true),
        lang,
      }).text;
    },
    async create_new_file(a) {
      const path = s(a.path);
      writable();
      return withPathLock(path, async () => {
        const state = await exists(path);
        const check = checkNewFile({
          path,
          exists: state.exists,
          isFile: state.isFile,
          newContent: s(a.content),
          lang,
        });
        await write(path, check.content);
        return check.text;
      });
    },
    async overwrite_entire_file(a) {
      const path = s(a.path);
      writable();
      return withPathLock(path, async () => {
        const content = await read(path);
        if (content === null) return fileMissing(path, lang);
        const check = checkOverwrite({
          path,
          content,
          newContent: s(a.content),
          knownOldTotalLines: a.known_old_total_lines as number,
          knownOldTotalBytes: a.known_old_total_bytes as number,
          contentFormat: s(a.content_format) || undefined,
          lang,
        });
        await write(path, check.content);
        return check.text;
      });
    },
    // Plans are made under the path's lock too: a file read mid-write is
    // never planned against, and a revision (existing_hunk_id) cannot
    // slip between an apply and its consume.
    async prepare_file_range_edit(a) {
      const path = s(a.path);
      return withPathLock(path, async () => {
        const plan = plans().prepareRangeEdit({
          path,
          content: await read(path),
          range: s(a.range),
          newText: s(a.content),
          owner,
          existingHunkId: s(a.existing_hunk_id),
          lang,
        });
        return plan.text;
      });
    },
    async prepare_file_append(a) {
      const path = s(a.path);
      return withPathLock(path, async () => {
        const plan = plans().prepareAppend({
          path,
          content: await read(path),
          newText: s(a.content),
          create: b(a.create, false),
          owner,
          existingHunkId: s(a.existing_hunk_id),
          lang,
        });
        return plan.text;
      });
    },
    async prepare_file_insert_after(a) {
      return insert('after', a);
    },
    async prepare_file_insert_before(a) {
      return insert('before', a);
    },
    async prepare_file_block_replace(a) {
      const path = s(a.path);
      return withPathLock(path, async () => {
        const plan = plans().prepareBlockReplace({
          path,
          content: await read(path),
          startAnchor: s(a.start_anchor),
          endAnchor: s(a.end_anchor),
          newText: s(a.content),
          match: (s(a.match) || 'contains') as 'contains',
          includeAnchors: b(a.include_anchors, true),
          requireUnique: b(a.require_unique, true),
          strict: b(a.strict, true),
          occurrence: a.occurrence as number | string | undefined,
          owner,
          existingHunkId: s(a.existing_hunk_id),
          lang,
        });
        return plan.text;
      });
    },
    async apply_file_modification(a) {
      const hunkId = s(a.hunk_id);
      const pending = plans()
        .pending()
        .find((p) => p.hunkId === hunkId);
      if (!pending) {
        // Let the session word the refusal (unknown, expired or already applied).
        return plans().apply({ hunkId, owner, content: null, lang }).text;
      }
      writable();
      return inCreationOrder(pending.path, hunkId, async () => {
        const content = await read(pending.path);
        // The plan is consumed only once the write landed: a failed write
        // leaves it live, so the agent can simply apply it again.
        const r = plans().apply({ hunkId, owner, content, lang, deferConsume: true });
        if (r.changed) {
          try {
            await write(pending.path, r.content);
          } catch (e) {
            // A failed write may still have landed (a timeout after the
            // write): the agent checks before applying again.
            return `${errorText(e, lang)}\n${say('writeFailed', lang, pending.path, hunkId)}`;
          }
        }
        if (r.contextMatch !== 'rejected') plans().consume(hunkId);
        return r.text;
      });
    },
    async edit_file_search_replace(a) {
      const path = s(a.path);
      writable();
      return withPathLock(path, async () => {
        const content = await read(path);
        if (content === null) return fileMissing(path, lang);
        const r = applySearchReplace(content, s(a.search_replace), {
          atomic: b(a.atomic, true),
          lang,
        });
        if (r.content === content) return r.summary;
        await write(path, r.content);
        return `${r.summary}\n\n\`\`\`diff\n${unifiedDiff(content, r.content, { oldName: path, newName: path }).trimEnd()}\n\`\`\``;
      });
    },
  };

  async function insert(where: 'after' | 'before', a: Args): Promise<string> {
    const path = s(a.path);
    return withPathLock(path, async () => {
      const opts = {
        path,
        content: await read(path),
        anchor: s(a.anchor),
        match: (s(a.match) || 'contains') as 'contains',
        occurrence: a.occurrence as number | string | undefined,
        newText: s(a.content),
        owner,
        existingHunkId: s(a.existing_hunk_id),
        lang,
      };
      return (
        where === 'after' ? plans().prepareInsertAfter(opts) : plans().prepareInsertBefore(opts)
      ).text;
    });
  }

  return {
    async run(name, args) {
      const tool =
        typeof name === 'string' && Object.prototype.hasOwnProperty.call(tools, name)
          ? tools[name]
          : undefined;
      if (!tool)
        return unknownTool(
          typeof name === 'string' ? name : String(typeof name),
          Object.keys(tools),
          lang,
        );
      const a: Args =
        typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Args) : {};
      try {
        return await tool(a);
      } catch (e) {
        return errorText(e, lang);
      }
    },
    definitions(defOptions) {
      const opts = (
        typeof defOptions === 'string'
          ? { lang: readLang(defOptions) }
          : readOptions(defOptions, ['lang', 'format', 'toolsets'] as const, 'options')
      ) as ToolDefinitionsOptions;
      const toolsets: ('siyuan' | 'files')[] = [];
      if (options.siyuan) toolsets.push('siyuan');
      if (options.files) toolsets.push('files');
      return toolDefinitions({
        lang,
        ...opts,
        toolsets: opts?.toolsets ?? (toolsets.length ? toolsets : undefined),
      } as ToolDefinitionsOptions<'json-schema'>);
    },
  };
}

const runners = new WeakMap<object, ToolRunner>();

/**
 * Runs one tool call with `host` (the runner options); the plan registry
 * lives as long as `host` does, so prepare and apply calls may use it
 * across turns.
 */
export function runTool(name: string, args: unknown, host: ToolRunnerOptions): Promise<string> {
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

/** Runs a host callback; a throw or rejection becomes HOST_ERROR naming the callback (original error as cause). */
async function hostCall<T>(what: string, fn: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  try {
    return await settleWithin(fn, timeoutMs, what);
  } catch (e) {
    if (isEditkitError(e)) throw e;
    if (e instanceof HostTimeoutError)
      throw new EditkitError(
        {
          code: 'HOST_TIMEOUT',
          message: `${what} did not answer within ${timeoutMs} ms`,
          subject: 'files',
        },
        { cause: e },
      );
    const message = e instanceof Error ? e.message : describeValue(e);
    throw new EditkitError(
      { code: 'HOST_ERROR', message: `${what} failed: ${message}`, subject: 'files' },
      { cause: e },
    );
  }
}

function capabilityMissing(callback: string, lang: Lang): EditkitError {
  return new EditkitError({
    code: 'HOST_CAPABILITY_MISSING',
    subject: callback,
    message: say('callbackMissing', lang, callback),
  });
}

function hostError(message: string): EditkitError {
  return new EditkitError({ code: 'HOST_ERROR', message, subject: 'files' });
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

class MissingHost extends Error {
  constructor(readonly which: 'files' | 'siyuan') {
    super(which);
  }
}
function missing(which: 'files' | 'siyuan'): MissingHost {
  return new MissingHost(which);
}

function errorText(e: unknown, lang: Lang): string {
  if (e instanceof MissingHost) {
    const why = say(e.which === 'files' ? 'filesHostMissing' : 'siyuanHostMissing', lang);
    return say('errorLine', lang, 'HOST_CAPABILITY_MISSING', why);
  }
  if (isEditkitError(e)) {
    if (e.yaml) return e.yaml;
    const lines = [say('errorLine', lang, e.code, e.message)];
    for (const inner of e.errors ?? [])
      lines.push(
        `- ${inner.message}${inner.suggestions?.length ? `\n  → ${inner.suggestions.join('\n  → ')}` : ''}`,
      );
    for (const tip of e.suggestions ?? []) lines.push(`→ ${tip}`);
    return lines.join('\n');
  }
  const message = e instanceof Error ? e.message : String(e);
  return say('errorLine', lang, 'HOST_ERROR', message);
}

// Lists the tools this runner implements (toolDefinitions names the same set; tools.test.mjs checks).
function unknownTool(name: string, implemented: string[], lang: Lang): string {
  const why = say('unknownTool', lang, name, listOf(implemented, lang));
  return say('errorLine', lang, 'INVALID_ARGUMENT', why);
}

function fileMissing(path: string, lang: Lang): string {
  return say('fileMissing', lang, path);
}

/** The text an agent reads after applyBlockDiff. */
export function formatApplyReport(report: ApplyReport, lang: Lang): string {
  try {
    return formatReport(report, lang);
  } catch (e) {
    if (isEditkitError(e)) throw e;
    throw new EditkitError(
      {
        code: 'INVALID_ARGUMENT',
        message: 'formatApplyReport: expected the report applyBlockDiff returned',
        subject: 'report',
      },
      { cause: e },
    );
  }
}

function formatReport(report: ApplyReport, lang: Lang): string {
  if (
    typeof report !== 'object' ||
    report === null ||
    !Array.isArray(report.results) ||
    !Array.isArray(report.plan)
  ) {
    throw new EditkitError({
      code: 'INVALID_ARGUMENT',
      message: 'formatApplyReport: expected the report applyBlockDiff returned',
      subject: 'report',
    });
  }
  const out: string[] = [(report.ok ? '✅ ' : '❌ ') + report.summary];
  for (const r of report.results) {
    if (r.error) {
      out.push('', `❌ Hunk #${r.hunkIndex} [${r.blockId}] ${r.error.code}`, r.error.message);
      for (const tip of r.error.suggestions ?? []) out.push(`  → ${tip}`);
    }
  }
  if (report.dryRun) {
    for (const p of report.plan) {
      out.push(
        '',
        `${say('planHeading', lang)} #${p.hunkIndexes.join(',')} ${p.kind} ${p.blockId}${p.strategy ? ` (${p.strategy})` : ''}`,
        '```diff',
        p.diff.trimEnd(),
        '```',
      );
    }
  } else {
    const created = report.results.filter((r) => r.newBlockIds.length > 0);
    for (const r of created)
      out.push(`${say('newBlocks', lang)} (hunk #${r.hunkIndex}): ${r.newBlockIds.join(', ')}`);
  }
  for (const w of report.warnings) out.push(`⚠ ${w.code}: ${w.message}`);
  if (report.undo) out.push('', say('undoHeading', lang), '```', report.undo, '```');
  return out.join('\n');
}

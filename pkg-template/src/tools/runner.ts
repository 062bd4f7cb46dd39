// Executes agent tool calls and returns the text the agent should see.
// Refusals become readable text (with the error code and what to do next),
// never exceptions: an agent reads the result and corrects itself.

import { text as checkedText } from '../boundary.js';
import { applyBlockDiff, unifiedDiff } from '../api.js';
import { patchPaths, planPatch, planUnifiedDiff } from '../patches.js';
import { writePlan } from '../patch-writes.js';
import {
  appendContent,
  createNewDoc,
  formatBlockInfo,
  getBlockContent,
  getBlockInfo,
} from '../content.js';
import { EditkitError, isEditkitError, readOptions } from '../errors.js';
import { timeoutOf } from '../timeout.js';
import { describeValue, hostCall, readFileText } from '../host-call.js';
import {
  checkNewFile,
  checkOverwrite,
  FileEditSession,
  formatFileView,
  withPathLock,
} from '../files.js';
import {
  applyEdits,
  planEditSnippet,
  applySearchReplace,
  replaceText,
  replaceTextWithCorrection,
} from '../matcher.js';
import type {
  ApplyReport,
  CorrectionRequest,
  EditkitErrorData,
  EditSnippetResult,
  ErrorCode,
  FileApplyResult,
  Lang,
  Match,
  MatchMode,
  PatchApplyResult,
  ReplaceResult,
  SearchReplaceReport,
  SiyuanHost,
} from '../types.js';
import { readLang, TOOL_NAMES, toolDefinitions, toolSpec } from './definitions.js';
import type {
  ToolDefinitionsOf,
  ToolDefinitionsOptions,
  ToolFormat,
  ToolName,
  Toolset,
} from './definitions.js';
import { argProblemText, listOf, say } from './messages.js';
import {
  CallScope,
  Cancelled,
  cancelledResult,
  FILE_WRITES,
  readRunOptions,
  SIYUAN_WRITES,
} from './call-scope.js';
import { checkArgs, parseArgs } from './validate.js';
import type { ArgProblem, Args } from './validate.js';

/** File I/O for the file tools. */
export interface FileHost {
  /** The file's text, or `null` when it does not exist. */
  readFile(path: string): Promise<string | null> | string | null;
  writeFile(path: string, content: string): Promise<unknown> | unknown;
  /**
   * One key per file however its path is spelt, so two calls naming the
   * same file wait for each other (default: the path as given).
   */
  lockKey?(path: string): string;
  /** Removes a file: needed only by apply_patch / apply_diff for deletions and renames. */
  deleteFile?(path: string): Promise<unknown> | unknown;
  /**
   * The names in the folder `path`, a folder's name ending in `/`; `null`
   * when `path` is not a folder. Optional: with it, the text editor's
   * `view` of a folder lists it (two levels deep, hidden names left out).
   */
  listDirectory?(path: string): Promise<string[] | null> | string[] | null;
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
  /** File callbacks for the file tools (e.g. `createNodeFileHost({ root })`). */
  files?: FileHost;
  /** The plan registry (one per agent process); created when absent. */
  session?: FileEditSession;
  /** Who plans and applies file edits (default `agent`). */
  owner?: string;
  lang?: Lang;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000; SPEC §3.7 rule 11). */
  timeoutMs?: number;
  /**
   * Asks an LLM to fix an `edit` whose old_string matched nowhere (seed
   * 002's self-correction); resolves to the model's answer.
   */
  corrector?: (request: CorrectionRequest) => Promise<string> | string;
}

/** The fields of every tool call's outcome. */
interface ToolResultBase {
  /** The text for the agent. */
  text: string;
  /** Structured result: the core function's result, or the error's data. */
  data?: unknown;
  /** The call's signal was aborted after its first write: the call was completed, not cancelled. */
  cancelledLate?: boolean;
}

/** A tool call that did what it was asked. */
export interface ToolSuccess extends ToolResultBase {
  isError: false;
  code?: never;
}

/** A tool call refused or failed (nothing, or not everything, was done). */
export interface ToolFailure extends ToolResultBase {
  isError: true;
  /** Why: the refusal's code (for a partial failure, the first failure's). */
  code: ErrorCode;
}

/** A tool call's outcome, for hosts that set an error flag (MCP, tool-call loops): a union on `isError`. */
export type ToolResult = ToolSuccess | ToolFailure;

/** What one call may be given besides its arguments (an MCP server's request, a loop's abort). */
export interface RunOptions {
  /**
   * Cancels the call: aborted before its first write, the call writes
   * nothing and resolves to a `CANCELLED` result (code `HOST_ERROR`,
   * `data.cancelled: true`); aborted later, the call completes what it
   * began (an apply is never left half-written by a cancellation) and its
   * result has `cancelledLate: true`.
   */
  signal?: AbortSignal;
  /** Called after each write the call makes (a file written or deleted, a block written). */
  onWrite?: (write: WriteEvent) => void;
}

/** One write made by a tool call. */
export interface WriteEvent {
  /** Writes made so far by this call, this one included. */
  count: number;
  /** The host callback that wrote (`files.writeFile`, `siyuan.updateBlock`, …). */
  callback: string;
  /** The file path or the block id written, when the callback names one. */
  target?: string;
}

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
}

/** What a tool returns: its text alone (a success), or the whole result. */
type Done = string | ToolResult;

const s = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
const b = (v: unknown, fallback: boolean): boolean => (typeof v === 'boolean' ? v : fallback);
/** The most entries a folder's view lists (a node_modules two levels deep runs to thousands). */
const DIRECTORY_ENTRIES = 1000;
/** A count where 0 (and absence) means "unset", as the schemas say. */
const count = (v: unknown): number | undefined => (typeof v === 'number' && v > 0 ? v : undefined);
/** `mode`: "" means unset (the matcher's default). */
const modeOf = (v: unknown): MatchMode | undefined => (s(v) || undefined) as MatchMode | undefined;
/**
 * Markdown and plain-text files are prose: their edits run the matcher's
 * prose tier (`MatchOptions.prose`), which forgives the slips models make
 * when they quote prose and writes the file's own form back.
 */
export const isProsePath = (path: string): boolean => /\.(md|markdown|txt)$/i.test(path);
/** `occurrence`: 1-based or "last"; 0 and "" mean unset. */
const occurrenceOf = (v: unknown): number | string | undefined =>
  v === 0 || v === '' || v === undefined ? undefined : (v as number | string);

export function createToolRunner(runnerOptions: ToolRunnerOptions = {}): ToolRunner {
  const options = readOptions(
    runnerOptions,
    ['siyuan', 'files', 'session', 'owner', 'lang', 'timeoutMs', 'corrector'] as const,
    'options',
  ) as ToolRunnerOptions;
  if (options.corrector !== undefined && typeof options.corrector !== 'function') {
    throw new EditkitError({
      code: 'INVALID_ARGUMENT',
      message: 'createToolRunner: corrector must be a function (request) => Promise<string>',
      subject: 'corrector',
    });
  }
  const lang: Lang = options.lang === 'zh' ? 'zh' : 'en';
  const timeoutMs = timeoutOf(options);
  const owner = typeof options.owner === 'string' && options.owner ? options.owner : 'agent';
  let session = options.session instanceof FileEditSession ? options.session : undefined;
  const configuredFiles = (): FileHost => {
    if (!options.files) throw missing('files');
    return options.files;
  };
  const configuredSiyuan = (): SiyuanHost => {
    if (!options.siyuan) throw missing('siyuan');
    return options.siyuan;
  };
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

  // Applies that reach one path within one tick (an agent's parallel tool
  // calls) land in the order their plans were made (SPEC §7), each
  // relocating over the ones before it: they are gathered until the next
  // macrotask, sorted by the session, then queued on the path's lock in
  // that order.
  const gathering = new Map<string, { hunkId: string; start: () => void }[]>();
  const inCreationOrder = (
    path: string,
    hunkId: string,
    apply: () => Promise<ToolResult>,
  ): Promise<ToolResult> =>
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

  /**
   * The tools of one call: they reach the hosts through `scope`, which
   * guards the writes of a call that may be cancelled. The state shared by
   * calls (the plan session, the gathering of applies) stays outside.
   */
  function toolsFor(scope: CallScope) {
    const files = (): FileHost => scope.host(configuredFiles(), FILE_WRITES, 'files');
    const siyuan = (): SiyuanHost => scope.host(configuredSiyuan(), SIYUAN_WRITES, 'siyuan');
    return callTools(files, siyuan);
  }

  function callTools(files: () => FileHost, siyuan: () => SiyuanHost) {
    const read = async (path: string): Promise<string | null> => {
      const host = files();
      if (typeof host.readFile !== 'function') throw capabilityMissing('files.readFile', lang);
      return readFileText((p) => host.readFile(p), path, timeoutMs);
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

    const tools: Record<string, (a: Args) => Promise<Done>> = {
      async getBlockInfo(a) {
        // One id, several comma-separated, or a list (the schema checked which).
        const ids = Array.isArray(a.ids) ? a.ids.map(s) : s(a.ids);
        const info = await getBlockInfo({ ids }, siyuan(), { lang, timeoutMs });
        return { text: formatBlockInfo(info, { lang }), isError: false, data: info };
      },
      async getBlockContent(a) {
        // Only what the agent gave: the core applies seed 000's coupling
        // (showId defaults to showSubStructure; a slice turns both on).
        const args: {
          blockId: string;
          showId?: boolean;
          showSubStructure?: boolean;
          slice?: string;
        } = { blockId: s(a.blockId) };
        if (typeof a.showId === 'boolean') args.showId = a.showId;
        if (typeof a.showSubStructure === 'boolean') args.showSubStructure = a.showSubStructure;
        if (s(a.slice)) args.slice = s(a.slice);
        const r = await getBlockContent(args, siyuan(), { lang, timeoutMs });
        return { text: r.text, isError: false, data: r };
      },
      async appendContent(a) {
        const targetType = s(a.targetType) as 'dailynote' | 'document' | 'block';
        const r = await appendContent(
          { markdown: s(a.markdown), targetType, target: s(a.target) },
          siyuan(),
          { lang, timeoutMs },
        );
        return { text: r.summary, isError: false, data: r };
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
        return { text: r.summary, isError: false, data: r };
      },
      async applyBlockDiff(a) {
        const report = await applyBlockDiff(s(a.diff), siyuan(), {
          dryRun: b(a.dryRun, false),
          atomic: b(a.atomic, true),
          lang,
          timeoutMs,
        });
        // A diff that stopped before planning is the call's error, worded as errors are.
        if (report.error) throw new EditkitError(report.error);
        // Every failed edit carries its error; a report that is not ok
        // without one (writes not all done) says WRITE_FAILED.
        const failed = report.results.find((r) => r.error)?.error;
        const rolledBack = report.rollback?.errors?.[0];
        return outcome(
          formatApplyReport(report, lang),
          report,
          report.ok ? undefined : (failed?.code ?? rolledBack?.code ?? 'WRITE_FAILED'),
        );
      },
      async read_file(a) {
        const path = s(a.path);
        const content = await read(path);
        if (content === null) return fileMissing(path, lang);
        const view = formatFileView({
          path,
          content,
          range: s(a.range) || undefined,
          maxLines: count(a.max_lines),
          showLineNumbers: b(a.show_line_numbers, true),
          lang,
        });
        return { text: view.text, isError: false, data: view };
      },
      async create_new_file(a) {
        return createFile(s(a.path), s(a.content), false);
      },
      async overwrite_entire_file(a) {
        const path = s(a.path);
        writable();
        return withPathLock(lockKey(path), async () => {
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
          return { text: check.text, isError: false, data: { path, overwritten: true } };
        });
      },
      // Plans are made under the path's lock too: a file read mid-write is
      // never planned against, and a revision (existing_hunk_id) cannot
      // slip between an apply and its consume.
      async prepare_file_range_edit(a) {
        const path = s(a.path);
        return withPathLock(lockKey(path), async () => {
          const plan = plans().prepareRangeEdit({
            path,
            content: await read(path),
            range: s(a.range),
            newText: s(a.content),
            owner,
            existingHunkId: s(a.existing_hunk_id),
            lang,
          });
          return { text: plan.text, isError: false, data: plan };
        });
      },
      async prepare_file_append(a) {
        const path = s(a.path);
        return withPathLock(lockKey(path), async () => {
          const plan = plans().prepareAppend({
            path,
            content: await read(path),
            newText: s(a.content),
            create: b(a.create, false),
            owner,
            existingHunkId: s(a.existing_hunk_id),
            lang,
          });
          return { text: plan.text, isError: false, data: plan };
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
        return withPathLock(lockKey(path), async () => {
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
            occurrence: occurrenceOf(a.occurrence),
            owner,
            existingHunkId: s(a.existing_hunk_id),
            lang,
          });
          return { text: plan.text, isError: false, data: plan };
        });
      },
      async apply_file_modification(a) {
        const hunkId = s(a.hunk_id);
        const pending = plans()
          .pending()
          .find((p) => p.hunkId === hunkId);
        if (!pending) {
          // Let the session word the refusal (unknown, expired or already applied).
          const r = plans().apply({ hunkId, owner, content: null, lang });
          return outcome(r.text, r, rejectionCode(r) ?? 'HUNK_NOT_FOUND');
        }
        writable();
        return inCreationOrder(pending.path, hunkId, async (): Promise<ToolResult> => {
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
              const failed = errorResult(e, lang);
              return {
                ...failed,
                text: `${failed.text}\n${say('writeFailed', lang, pending.path, hunkId)}`,
              };
            }
          }
          const code = rejectionCode(r);
          if (code === undefined) plans().consume(hunkId);
          return outcome(r.text, r, code);
        });
      },
      async edit(a) {
        const path = s(a.path);
        const oldString = s(a.old_string);
        const newString = s(a.new_string);
        writable();
        return withPathLock(lockKey(path), async (): Promise<Done> => {
          const content = await read(path);
          if (content === null) {
            if (oldString !== '') return fileMissing(path, lang);
            // Seed 002: an empty old_string on a missing file creates it.
            await write(path, newString);
            return {
              text: say('editCreated', lang, path),
              isError: false,
              data: { path, created: true },
            };
          }
          const matchOptions = {
            mode: modeOf(a.mode),
            prose: isProsePath(path),
            replaceAll: b(a.replace_all, false),
            expectedReplacements: count(a.expected_replacements),
            lang,
          };
          const corrector = options.corrector;
          let r: ReplaceResult;
          try {
            r = corrector
              ? await replaceTextWithCorrection(content, oldString, newString, {
                  ...matchOptions,
                  instruction: s(a.instruction),
                  timeoutMs,
                  corrector: (request) =>
                    hostCall('corrector', () => corrector(request), timeoutMs, 'corrector'),
                })
              : replaceText(content, oldString, newString, matchOptions);
          } catch (e) {
            const refused = errorResult(e, lang);
            return { ...refused, text: inToolWords(refused.text) };
          }
          await write(path, r.content);
          const where = places(r.matches, lang);
          const text = [
            say('edited', lang, path, String(r.occurrences), where, r.strategy),
            diffBlock(path, content, r.content),
          ].join('\n\n');
          return {
            text,
            isError: false,
            data: { path, strategy: r.strategy, occurrences: r.occurrences, matches: r.matches },
          };
        });
      },
      async str_replace_based_edit_tool(a) {
        const command = s(a.command);
        const path = s(a.path);
        const needs = (field: string): ToolResult =>
          invalidArgument(field, say('commandNeeds', lang, command, field), lang);
        switch (command) {
          case 'view': {
            const listed = await viewDirectory(path, a.view_range !== undefined);
            if (listed) return listed;
            const r = Array.isArray(a.view_range) ? (a.view_range as number[]) : undefined;
            const range = r ? `${r[0]}~${r[1] === -1 ? '' : r[1]}` : '';
            return tools.read_file!({ path, range });
          }
          case 'create':
            if (typeof a.file_text !== 'string') return needs('file_text');
            // The reference writes file_text byte for byte (no final newline added).
            return createFile(path, a.file_text, true);
          case 'str_replace':
            if (!s(a.old_str)) return needs('old_str');
            return tools.edit!({ path, old_string: s(a.old_str), new_string: s(a.new_str) });
          default: {
            if (typeof a.insert_line !== 'number') return needs('insert_line');
            // Anthropic's native text_editor_20250728 sends the text as
            // `insert_text`; the custom schema (and older versions) as `new_str`.
            const inserted = typeof a.insert_text === 'string' ? a.insert_text : a.new_str;
            if (typeof inserted !== 'string') return needs('new_str');
            return insertLines(path, a.insert_line, inserted);
          }
        }
      },
      async edit_snippet(a) {
        const path = s(a.path);
        writable();
        return withPathLock(lockKey(path), async (): Promise<Done> => {
          const content = await read(path);
          if (content === null) return fileMissing(path, lang);
          let placed: EditSnippetResult;
          try {
            placed = planEditSnippet(content, s(a.snippet), { lang, path });
          } catch (e) {
            return errorResult(e, lang);
          }
          await write(path, placed.content);
          const where = placed.regions
            .map((r) => say('snippetRegion', lang, String(r.startLine), String(r.endLine)))
            .join(', ');
          return {
            text: [
              say('snippetPlaced', lang, path, String(placed.regions.length), where),
              diffBlock(path, content, placed.content),
            ].join('\n\n'),
            isError: false,
            data: { path, regions: placed.regions },
          };
        });
      },
      async multi_edit(a) {
        const path = s(a.path);
        const edits = (a.edits as Args[]).map((e) => ({
          oldString: s(e.old_string),
          newString: s(e.new_string),
          replaceAll: b(e.replace_all, false),
        }));
        writable();
        return withPathLock(lockKey(path), async () => {
          const content = await read(path);
          if (content === null) return fileMissing(path, lang);
          const r = applyEdits(content, edits, {
            atomic: true,
            mode: modeOf(a.mode),
            prose: isProsePath(path),
            lang,
          });
          const result = await searchReplaceResult(path, content, r, 'editLine');
          return { ...result, text: inToolWords(result.text) };
        });
      },
      async apply_patch(a) {
        return patchTool('codex', s(a.patch), b(a.atomic, true));
      },
      async apply_diff(a) {
        return patchTool('unified', s(a.diff), b(a.atomic, true));
      },
      async edit_file_search_replace(a) {
        const path = s(a.path);
        writable();
        return withPathLock(lockKey(path), async () => {
          const content = await read(path);
          if (content === null) return fileMissing(path, lang);
          const r = applySearchReplace(content, s(a.search_replace), {
            atomic: b(a.atomic, true),
            prose: isProsePath(path),
            lang,
          });
          return searchReplaceResult(path, content, r, 'blockLine');
        });
      },
    };

    /** Writes a search/replace outcome (when anything changed) and words it: summary, each edit's place and strategy, the diff. */
    async function searchReplaceResult(
      path: string,
      content: string,
      r: SearchReplaceReport,
      line: 'editLine' | 'blockLine',
    ): Promise<ToolResult> {
      // What stopped the whole text is the call's error, worded as errors are.
      if (r.error) throw new EditkitError(r.error);
      const changed = r.content !== content;
      if (changed) await write(path, r.content);
      const lines = [r.summary];
      // Where each edit landed, when any did (an atomic failure lands none).
      for (const block of changed ? r.results : []) {
        if (block.ok && block.strategy)
          lines.push(
            say(line, lang, String(block.index), places(block.matches, lang), block.strategy),
          );
      }
      if (changed) lines.push('', diffBlock(path, content, r.content));
      // Every block that did not apply carries the matcher's refusal.
      const failed = r.results.find((x) => !x.ok)?.error;
      return outcome(
        lines.join('\n'),
        { path, ok: r.ok, applied: r.applied, failed: r.failed, results: r.results },
        r.ok ? undefined : (failed?.code ?? 'NOT_FOUND'),
      );
    }

    /**
     * apply_patch / apply_diff: every file the patch names is read under its
     * path's lock (taken in one sorted order, so two patches never wait on
     * each other), planned and written by applyPatch, and worded with each
     * hunk's place and the diffs.
     */
    /** A new file; `asGiven`: its text exactly as given, else with a final newline added. */
    async function createFile(path: string, content: string, asGiven: boolean): Promise<Done> {
      writable();
      return withPathLock(lockKey(path), async () => {
        const state = await exists(path);
        const check = checkNewFile({
          path,
          exists: state.exists,
          isFile: state.isFile,
          newContent: content,
          asGiven,
          lang,
        });
        await write(path, check.content);
        return { text: check.text, isError: false, data: { path, created: true } };
      });
    }

    /**
     * The text editor's `view` of a folder, as Anthropic's reference tool
     * lists one: the folder, then each entry and (for a folder) its own
     * entries, hidden names left out; `null` when `path` is not a folder or
     * the host cannot list folders.
     */
    async function viewDirectory(path: string, ranged: boolean): Promise<Done | null> {
      const host = files();
      const list = host.listDirectory;
      if (typeof list !== 'function') return null;
      const names = (folder: string) =>
        hostCall(
          `files.listDirectory(${JSON.stringify(folder)})`,
          () => list.call(host, folder),
          timeoutMs,
        ).then((r: unknown) => {
          if (r === null) return null;
          if (Array.isArray(r) && r.every((n) => typeof n === 'string')) return r as string[];
          throw hostError(
            `files.listDirectory(${JSON.stringify(folder)}) returned ${describeValue(r)}; expected an array of names or null`,
          );
        });
      const top = await names(path);
      if (top === null) return null;
      if (ranged) return invalidArgument('view_range', say('directoryRange', lang, path), lang);
      const base = path.replace(/\/+$/, '') || path;
      const under = (folder: string, name: string) =>
        `${folder.endsWith('/') ? folder : `${folder}/`}${name.replace(/\/$/, '')}`;
      const visible = (name: string) => name !== '' && name !== '/' && !name.startsWith('.');
      const entries: string[] = [];
      for (const name of top.filter(visible)) {
        const entry = under(base, name);
        entries.push(entry);
        if (!name.endsWith('/')) continue;
        for (const inner of ((await names(entry)) ?? []).filter(visible))
          entries.push(under(entry, inner));
      }
      const shown = entries.slice(0, DIRECTORY_ENTRIES);
      const more = entries.length - shown.length;
      const lines = [say('directoryListing', lang, path), base, ...shown];
      if (more > 0) lines.push(say('directoryMore', lang, String(more)));
      return {
        text: `${lines.join('\n')}\n`,
        isError: false,
        data: { path, entries: shown, more },
      };
    }

    /**
     * The text editor's `insert`: `text`'s lines after line `after` (0: at
     * the top), with the file's own line ending, never past its end.
     */
    async function insertLines(path: string, after: number, text: string): Promise<Done> {
      writable();
      // Checked before anything is written (a lone surrogate has no UTF-8).
      checkedText(text, 'insert_text', lang);
      return withPathLock(lockKey(path), async (): Promise<Done> => {
        const content = await read(path);
        if (content === null) return fileMissing(path, lang);
        // Where each line starts; the file's bytes elsewhere stay as they are.
        const starts = [0];
        for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1))
          starts.push(i + 1);
        const finalBreak = content === '' || content.endsWith('\n');
        const count = finalBreak ? starts.length - 1 : starts.length;
        if (after > count) {
          const message = say('insertPastEnd', lang, String(after), path, String(count));
          return invalidArgument('insert_line', message, lang);
        }
        const added = text.replace(/\r?\n$/, '').split(/\r?\n/);
        // New lines end as the line above them does (the first line's way
        // at the top), else as most of the file's lines.
        const neighbour = starts[Math.max(after, 1)] ?? 0;
        const ending =
          neighbour > 0
            ? content[neighbour - 2] === '\r'
              ? '\r\n'
              : '\n'
            : content.includes('\r\n')
              ? '\r\n'
              : '\n';
        const block = added.join(ending);
        // The file keeps its final newline, or its lack of one.
        const next =
          after < count
            ? content.slice(0, starts[after]) + block + ending + content.slice(starts[after])
            : finalBreak
              ? content + block + ending
              : content + ending + block;
        await write(path, next);
        return {
          text: [
            say('inserted', lang, String(added.length), path, String(after)),
            diffBlock(path, content, next),
          ].join('\n\n'),
          isError: false,
          data: { path, inserted: added.length, after },
        };
      });
    }

    async function patchTool(
      format: 'codex' | 'unified',
      text: string,
      atomic: boolean,
    ): Promise<Done> {
      writable();
      const paths = patchPaths(text, { format, lang });
      // One lock key per path, asked once (a host's lockKey may touch the
      // file system).
      const byKey = new Map<string, string[]>();
      for (const p of paths) {
        const key = lockKey(p);
        byKey.set(key, [...(byKey.get(key) ?? []), p]);
      }
      const keys = [...byKey.keys()].sort();
      // Two spellings of one file (`a.txt`, `./a.txt`) would each be planned
      // from the same text, and the second write would undo the first.
      const same = [...byKey.values()].find((ps) => ps.length > 1);
      if (same) {
        const message = say('samePathTwice', lang, same.join(', '));
        return {
          text: say('errorLine', lang, 'INVALID_PATCH', message),
          isError: true,
          code: 'INVALID_PATCH',
          data: { code: 'INVALID_PATCH', message, subject: 'patch' },
        };
      }
      const run = async (): Promise<ToolResult> => {
        // Each file read once, then planned over those texts (the paths
        // above were the patch's one parse before planning).
        const before = new Map<string, string | null>();
        const contents: Record<string, string> = {};
        for (const p of paths) {
          const t = await read(p);
          before.set(p, t);
          if (t !== null) contents[p] = t;
        }
        const plan = format === 'codex' ? planPatch : planUnifiedDiff;
        const report = plan(contents, text, { atomic, lang });
        const host = files();
        const r = await writePlan(
          {
            writeFile: (p, content) => host.writeFile(p, content),
            ...(typeof host.deleteFile === 'function'
              ? { deleteFile: (p: string) => host.deleteFile!(p) }
              : {}),
          },
          report,
          contents,
          lang,
          timeoutMs,
        );
        return patchResult(r, before);
      };
      const locked = keys.reduceRight<() => Promise<ToolResult>>(
        (inner, key) => () => withPathLock(key, inner),
        run,
      );
      return locked();
    }

    /** A patch outcome in words: the summary, where each hunk went, the diffs. */
    function patchResult(r: PatchApplyResult, before: Map<string, string | null>): ToolResult {
      const lines = [r.summary];
      const written = r.files.filter((f) => f.write && !r.error);
      for (const f of written) {
        for (const h of f.hunks) {
          if (h.strategy && h.startLine !== undefined)
            lines.push(
              say(
                'hunkLine',
                lang,
                f.path,
                String(h.index),
                `${h.startLine}–${h.endLine}`,
                h.strategy,
              ),
            );
          else if (h.ok) lines.push(say('hunkAppended', lang, f.path, String(h.index)));
        }
      }
      for (const f of written) {
        if (f.op === 'delete' || !f.changed) continue;
        lines.push('', diffBlock(f.moveTo ?? f.path, before.get(f.path) ?? '', f.content ?? ''));
      }
      // A failed write (`r.error`), else the first refused file's error.
      const failed = r.files.find((f) => f.error)?.error;
      return outcome(
        lines.join('\n'),
        r,
        r.ok ? undefined : (r.error?.code ?? failed?.code ?? 'INVALID_PATCH'),
      );
    }

    async function insert(where: 'after' | 'before', a: Args): Promise<Done> {
      const path = s(a.path);
      return withPathLock(lockKey(path), async () => {
        const opts = {
          path,
          content: await read(path),
          anchor: s(a.anchor),
          match: (s(a.match) || 'contains') as 'contains',
          occurrence: occurrenceOf(a.occurrence),
          newText: s(a.content),
          owner,
          existingHunkId: s(a.existing_hunk_id),
          lang,
        };
        const plan =
          where === 'after' ? plans().prepareInsertAfter(opts) : plans().prepareInsertBefore(opts);
        return { text: plan.text, isError: false, data: plan };
      });
    }

    return tools;
  }

  /** The toolsets this runner's hosts serve; undefined (every toolset) when it has none. */
  function served(): Toolset[] | undefined {
    const toolsets: Toolset[] = [];
    if (options.siyuan) toolsets.push('siyuan');
    if (options.files) toolsets.push('files');
    return toolsets.length ? toolsets : undefined;
  }

  async function runDetailed(name: string, raw: unknown, call?: RunOptions): Promise<ToolResult> {
    const unknown = () =>
      unknownTool(
        typeof name === 'string' ? name : String(typeof name),
        TOOL_NAMES.filter((n) => {
          const toolset = toolSpec(n)?.toolset;
          return toolset !== undefined && (served()?.includes(toolset) ?? true);
        }),
        lang,
      );
    const spec = typeof name === 'string' ? toolSpec(name) : undefined;
    if (!spec) return unknown();
    let checked: { args: Args; problems: ArgProblem[] };
    try {
      const parsed = parseArgs(raw);
      if ('problem' in parsed) return badArguments(spec.name, [parsed.problem], lang);
      checked = checkArgs(spec, parsed.args);
    } catch (e) {
      // A Proxy or a getter that throws: not arguments a model sends.
      const detail = e instanceof Error ? e.message : String(e);
      return badArguments(spec.name, [{ kind: 'unreadable', detail }], lang);
    }
    if (checked.problems.length) return badArguments(spec.name, checked.problems, lang);
    const scope = new CallScope(readRunOptions(call));
    if (scope.cancelled()) return cancelledResult(lang);
    const tool = toolsFor(scope)[spec.name];
    if (!tool) return unknown();
    let result: ToolResult;
    try {
      const done = await tool(checked.args);
      result = typeof done === 'string' ? { text: done, isError: false } : done;
    } catch (e) {
      if (e instanceof Cancelled) return cancelledResult(lang);
      result = errorResult(e, lang);
    }
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
        toolsets: opts?.toolsets ?? served(),
      });
    },
  };
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

/**
 * A result whose error flag follows `code`: a success without one, a
 * failure with it (a failure always says why).
 */
function outcome(text: string, data: unknown, code: ErrorCode | undefined): ToolResult {
  return code === undefined ? { text, isError: false, data } : { text, isError: true, code, data };
}

/**
 * The code of a refused file apply: its reason where that is an error
 * code (`AMBIGUOUS_MATCH`), `CONTENT_MISMATCH` for `CONTENT_CHANGED` (the
 * planned lines no longer stand in the file); undefined when it applied.
 */
function rejectionCode(r: FileApplyResult): ErrorCode | undefined {
  if (r.status !== 'rejected') return undefined;
  return r.reason === 'AMBIGUOUS_MATCH' ? 'AMBIGUOUS_MATCH' : 'CONTENT_MISMATCH';
}

/** HOST_CAPABILITY_MISSING for a files callback a tool needs. */
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

class MissingHost extends Error {
  constructor(readonly which: 'files' | 'siyuan') {
    super(which);
  }
}
function missing(which: 'files' | 'siyuan'): MissingHost {
  return new MissingHost(which);
}

/** A tool argument the call cannot run with, as the agent's result (nothing was done). */
function invalidArgument(subject: string, message: string, lang: Lang): ToolResult {
  return {
    text: say('errorLine', lang, 'INVALID_ARGUMENT', message),
    isError: true,
    code: 'INVALID_ARGUMENT',
    data: { code: 'INVALID_ARGUMENT', subject, message },
  };
}

/** A thrown error as the agent's result: the code, the message and each next step once. */
function errorResult(e: unknown, lang: Lang): ToolResult {
  if (e instanceof MissingHost) {
    const why = say(e.which === 'files' ? 'filesHostMissing' : 'siyuanHostMissing', lang);
    return {
      text: say('errorLine', lang, 'HOST_CAPABILITY_MISSING', why),
      isError: true,
      code: 'HOST_CAPABILITY_MISSING',
      data: { code: 'HOST_CAPABILITY_MISSING', message: why, subject: e.which },
    };
  }
  if (isEditkitError(e)) {
    const data = e.toJSON();
    if (e.yaml) return { text: e.yaml, isError: true, code: e.code, data };
    return { text: errorLines(data, lang).join('\n'), isError: true, code: e.code, data };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    text: say('errorLine', lang, 'HOST_ERROR', message),
    isError: true,
    code: 'HOST_ERROR',
    data: { code: 'HOST_ERROR', message },
  };
}

/**
 * An error in lines, each fact once: when the error lists its problems
 * (`errors`), its message's first line heads them and the list is not
 * repeated; a next step already said is not said again.
 */
function errorLines(e: EditkitErrorData, lang: Lang): string[] {
  const nested = e.errors ?? [];
  const head = nested.length ? (e.message.split('\n')[0] ?? e.message) : e.message;
  const lines = [say('errorLine', lang, e.code, head)];
  const said = new Set<string>();
  const fresh = (tip: string) => {
    if (said.has(tip) || lines.some((l) => l.includes(tip))) return false;
    said.add(tip);
    return true;
  };
  for (const inner of nested) {
    lines.push(`- ${inner.message}`);
    for (const tip of inner.suggestions ?? []) if (fresh(tip)) lines.push(`  → ${tip}`);
  }
  for (const tip of e.suggestions ?? []) if (fresh(tip)) lines.push(`→ ${tip}`);
  return lines;
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

// Lists the tools this runner implements (toolDefinitions names the same set; tools.test.mjs checks).
function unknownTool(name: string, implemented: string[], lang: Lang): ToolResult {
  const why = say('unknownTool', lang, name, listOf(implemented, lang));
  return {
    text: say('errorLine', lang, 'INVALID_ARGUMENT', why),
    isError: true,
    code: 'INVALID_ARGUMENT',
    data: { code: 'INVALID_ARGUMENT', tool: name },
  };
}

function fileMissing(path: string, lang: Lang): ToolResult {
  return {
    text: say('fileMissing', lang, yamlQuote(path)),
    isError: true,
    code: 'FILE_NOT_FOUND',
    data: { code: 'FILE_NOT_FOUND', path },
  };
}

/** A YAML scalar for any string: single-quoted, or JSON-style double-quoted when it holds control characters. */
function yamlQuote(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(value)) return JSON.stringify(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Where matches are, as "line 3" or "lines 3, 8" (with the column when two share a line). */
function places(matches: Match[], lang: Lang): string {
  const shared = (m: Match) => matches.some((o) => o !== m && o.startLine === m.startLine);
  const words = matches.map((m) =>
    say(shared(m) ? 'lineColumn' : 'lineOnly', lang, String(m.startLine), String(m.startColumn)),
  );
  return say(words.length === 1 ? 'atLine' : 'atLines', lang, listOf(words, lang));
}

/**
 * The matcher's texts name the library's options (`replaceAll`); the edit
 * tools' fields spell them in snake_case, so their texts do too.
 */
function inToolWords(text: string): string {
  const names: Record<string, string> = {
    replaceAll: 'replace_all',
    expectedReplacements: 'expected_replacements',
    oldString: 'old_string',
    newString: 'new_string',
  };
  return text.replace(
    /\b(replaceAll|expectedReplacements|oldString|newString)\b/g,
    (name) => names[name] ?? name,
  );
}

function diffBlock(path: string, before: string, after: string): string {
  const diff = unifiedDiff(before, after, { oldName: path, newName: path }).trimEnd();
  return `\`\`\`diff\n${diff}\n\`\`\``;
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
      out.push('', `❌ Hunk #${r.hunkIndex} [${r.blockId}] ${r.error.code}`);
      // The message, then each next step it does not already say.
      const [, ...rest] = errorLines(r.error, lang);
      out.push(r.error.message, ...rest.map((l) => (l.startsWith('→') ? `  ${l}` : l)));
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

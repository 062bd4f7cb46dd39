// Patches in the formats agents write (codex `*** Begin Patch`, unified
// diffs), placed by the core's safe strategies. Planning is pure; applying
// reads the named files through the host, plans, then writes in order and,
// when a write fails, puts back what it had written.

import * as glue from 'editkit-glue';
import { call, json, langOf, options, text } from './boundary.js';
import { isCallError, jsError, readOptions } from './errors.js';
import type { EditkitError } from './errors.js';
import { hostCall, readFileText } from './host-call.js';
import { planEditSnippet } from './matcher.js';
import { writePlan } from './patch-writes.js';
import { timeoutOf } from './timeout.js';
import type {
  ApplyPatchOperation,
  ApplyPatchOperationResult,
  EditSnippetApplyOptions,
  EditSnippetApplyResult,
  Lang,
  PatchApplyOptions,
  PatchApplyResult,
  PatchFileHost,
  PatchOptions,
  PatchReport,
} from './types.js';

type Format = 'codex' | 'unified';

/**
 * The paths a patch names (sources and rename targets), which a host reads
 * before planning; throws `INVALID_PATCH` for a malformed patch.
 */
export function patchPaths(
  patchText: string,
  opts?: { format?: 'codex' | 'unified'; lang?: Lang },
): string[] {
  const lang = langOf(opts);
  const o = readOptions(opts, ['format'] as const, 'options');
  const format: Format = o.format === 'unified' ? 'unified' : 'codex';
  const t = text(patchText, 'patch', lang);
  return call(lang, () => glue.patchPaths(t, format, JSON.stringify({ lang })));
}

function plan(
  contents: Record<string, string>,
  patchText: string,
  format: Format,
  opts: PatchOptions | undefined,
): PatchReport {
  const lang = langOf(opts);
  const t = text(patchText, 'patch', lang);
  const files = json(contents, 'contents', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.planPatch(files, t, format, o));
}

/**
 * Plans a codex patch over `contents` (path → text; a path that is not a
 * key does not exist), without I/O: per file, the text to write or the
 * refusal with its hunk and line. Throws `INVALID_PATCH` for a malformed
 * patch.
 */
export function planPatch(
  contents: Record<string, string>,
  patchText: string,
  opts?: PatchOptions,
): PatchReport {
  return plan(contents, patchText, 'codex', opts);
}

/** Plans a unified diff over `contents`, as `planPatch` does. */
export function planUnifiedDiff(
  contents: Record<string, string>,
  diffText: string,
  opts?: PatchOptions,
): PatchReport {
  return plan(contents, diffText, 'unified', opts);
}

/**
 * Applies a codex patch through the host's file callbacks: reads every file
 * it names, plans, and writes only when every hunk of every file applies
 * (unless `atomic: false`). Every failure is in the result (`ok: false`,
 * the summary, each file's error, and `error` for what stopped the whole
 * patch: `INVALID_PATCH`, `PATH_OUTSIDE_ROOT`, a read that failed, a write
 * that failed); it rejects only for a wrong call (`INVALID_ARGUMENT`, a
 * host without a callback the patch needs: `HOST_CAPABILITY_MISSING`).
 */
export function applyPatch(
  files: PatchFileHost,
  patchText: string,
  opts?: PatchApplyOptions,
): Promise<PatchApplyResult> {
  return apply(files, patchText, 'codex', opts);
}

/** Applies a unified diff through the host's file callbacks, as `applyPatch` does. */
export function applyUnifiedDiff(
  files: PatchFileHost,
  diffText: string,
  opts?: PatchApplyOptions,
): Promise<PatchApplyResult> {
  return apply(files, diffText, 'unified', opts);
}

/**
 * Places an edit snippet in the file `path` through the host's file
 * callbacks (`planEditSnippet` on its text) and writes the result: the
 * file's text, with the snippet's parts, and where they went. Throws what
 * `planEditSnippet` throws (nothing is written), `FILE_NOT_FOUND` for a
 * missing file, and `HOST_ERROR` / `HOST_TIMEOUT` for a failing callback.
 */
export async function applyEditSnippet(
  files: PatchFileHost,
  path: string,
  snippet: string,
  opts?: EditSnippetApplyOptions,
): Promise<EditSnippetApplyResult> {
  const lang = langOf(opts);
  const o = readOptions(opts, ['timeoutMs', 'language'] as const, 'options');
  const timeoutMs = timeoutOf({ timeoutMs: o.timeoutMs });
  const host = fileCallbacks(files, lang);
  const writeFile = host.writeFile;
  if (typeof writeFile !== 'function') throw notAFileHost(lang);
  const p = text(path, 'path', lang);
  const current = await readFileText(host.readFile, p, timeoutMs);
  if (current === null) {
    throw jsError('FILE_NOT_FOUND', 'snippetFileMissing', lang, [p], { subject: 'path' });
  }
  const placed = planEditSnippet(current, snippet, {
    lang,
    path: p,
    // Checked by planEditSnippet (a string, or INVALID_ARGUMENT).
    language: o.language as string | undefined,
  });
  await hostCall(
    `files.writeFile(${JSON.stringify(p)})`,
    () => writeFile(p, placed.content),
    timeoutMs,
  );
  return { path: p, ...placed };
}

/**
 * One operation of OpenAI's `apply_patch` tool (an `apply_patch_call`'s
 * `operation`), as a codex envelope: `create_file` becomes `*** Add File`
 * (its diff's lines are the `+` lines), `update_file` an `*** Update File`
 * with its diff's hunks, `delete_file` a `*** Delete File`. Placed by the
 * same planner, so its hunks get the same safety: formatting slips
 * forgiven, ambiguity refused, nothing written unless it applies.
 */
export function patchOfOperation(operation: ApplyPatchOperation): string {
  // null and undefined read as no fields: refused below by their type.
  const o = readOptions(operation, ['type', 'path', 'diff'] as const, 'operation');
  const path = typeof o.path === 'string' ? o.path : '';
  const diff = typeof o.diff === 'string' ? o.diff.replace(/\r?\n$/, '') : '';
  const body = diff ? `${diff}\n` : '';
  switch (o.type) {
    case 'create_file':
      return `*** Begin Patch\n*** Add File: ${path}\n${body}*** End Patch`;
    case 'update_file':
      return `*** Begin Patch\n*** Update File: ${path}\n${body}*** End Patch`;
    case 'delete_file':
      return `*** Begin Patch\n*** Delete File: ${path}\n*** End Patch`;
    default:
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['operation.type', '"create_file", "update_file" or "delete_file"'],
        { subject: 'operation.type' },
      );
  }
}

/**
 * Runs one `apply_patch_call` operation over the host's files and gives
 * what the `apply_patch_call_output` item carries: `status` (`completed` or
 * `failed`) and `output` (the summary the model reads), with the report.
 */
export async function applyPatchOperation(
  files: PatchFileHost,
  operation: ApplyPatchOperation,
  opts?: PatchApplyOptions,
): Promise<ApplyPatchOperationResult> {
  const report = await applyPatch(files, patchOfOperation(operation), opts);
  return { status: report.ok ? 'completed' : 'failed', output: report.summary, report };
}

function notAFileHost(lang: Lang) {
  return jsError(
    'INVALID_ARGUMENT',
    'invalidArgument',
    lang,
    ['files', 'expected an object with readFile and writeFile'],
    { subject: 'files' },
  );
}

/**
 * The host's file callbacks, each read once (a getter that throws, or a
 * Proxy, is INVALID_ARGUMENT, never a stray error) and bound to the host;
 * `readFile` is required.
 */
function fileCallbacks(files: PatchFileHost, lang: Lang): PatchFileHost {
  const cb = readOptions(
    files,
    ['readFile', 'writeFile', 'deleteFile', 'setMode'] as const,
    'files',
  );
  if (typeof cb.readFile !== 'function') throw notAFileHost(lang);
  const bound = (f: unknown) =>
    typeof f === 'function'
      ? (...args: unknown[]) => (f as Function).apply(files, args)
      : undefined;
  return {
    readFile: bound(cb.readFile) as PatchFileHost['readFile'],
    writeFile: bound(cb.writeFile) as PatchFileHost['writeFile'],
    deleteFile: bound(cb.deleteFile) as PatchFileHost['deleteFile'],
    setMode: bound(cb.setMode) as PatchFileHost['setMode'],
  };
}

async function apply(
  host: PatchFileHost,
  patchText: string,
  format: Format,
  opts: PatchApplyOptions | undefined,
): Promise<PatchApplyResult> {
  const lang = langOf(opts);
  // Read once, through readOptions: a getter that throws (or a Proxy) is
  // INVALID_ARGUMENT, never a stray error.
  const o = readOptions(opts, ['atomic', 'mode', 'fuzzFactor', 'timeoutMs'] as const, 'options');
  const timeoutMs = timeoutOf({ timeoutMs: o.timeoutMs });
  const planOptions = {
    atomic: o.atomic,
    mode: o.mode,
    fuzzFactor: o.fuzzFactor,
    lang,
  } as PatchOptions;
  host = fileCallbacks(host, lang);
  const contents: Record<string, string> = {};
  let report: PatchReport;
  try {
    const paths = patchPaths(patchText, { format, lang });
    for (const path of paths) {
      const t = await readFileText(host.readFile, path, timeoutMs);
      if (t !== null) contents[path] = t;
    }
    report = plan(contents, patchText, format, planOptions);
  } catch (e) {
    // One failure channel: whatever the patch or the files make fail (a
    // malformed patch, a path outside the root, a read that fails) is the
    // result, as a hunk that does not place is; only a wrong call rejects.
    if (isCallError(e)) throw e;
    // The error itself (its `cause`, a host's own error, stays).
    const error = e as EditkitError;
    return {
      ok: false,
      applied: 0,
      failed: 0,
      files: [],
      summary: error.message,
      written: [],
      error,
    };
  }
  return writePlan(host, report, contents, lang, timeoutMs);
}

// The public functions: argument checks at the boundary, then the core.

import * as glue from 'editkit-glue';
import {
  call,
  callAsync,
  HostContext,
  langOf,
  options,
  text,
  timeoutOf,
  wrapHost,
} from './boundary.js';
import { isCallError } from './errors.js';
import { inTurn } from './turns.js';
import type { EditkitError } from './errors.js';
import type {
  ApplyOptions,
  ApplyReport,
  FormatOptions,
  FormatReport,
  ParseReport,
  SiyuanHost,
} from './types.js';

/** The version of the wasm core. */
export function version(): string {
  return call('en', () => glue.version());
}

/**
 * Checks a block diff's format and lists every problem with its line and
 * fixes. Never throws for a bad diff (for live editor feedback).
 */
export function validateBlockDiffFormat(diff: string, opts?: FormatOptions): FormatReport {
  const lang = langOf(opts);
  const d = text(diff, 'diff', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.validateBlockDiffFormat(d, o));
}

/**
 * The top-level blocks the SiYuan kernel will make of `markdown` (its Lute,
 * with the kernel's settings: no setext headings, no indented code; IAL
 * lines, embeds, `<div>`/`<iframe>`/`<video>`/`<audio>` and tables start
 * blocks), each without surrounding blank lines. editkit splits every
 * replacement this way because the kernel's `updateBlock` keeps only the
 * first block; a test holds it to Lute itself.
 */
export function splitBlocks(markdown: string): string[] {
  const md = text(markdown, 'markdown', 'en');
  return call('en', () => glue.splitBlocks(md));
}

/** Parses a block diff into hunks and edits; throws `INVALID_DIFF_FORMAT`. */
export function parseBlockDiff(diff: string, opts?: FormatOptions): ParseReport {
  const lang = langOf(opts);
  const d = text(diff, 'diff', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.parseBlockDiff(d, o));
}

/**
 * Checks a block diff against the host's blocks and (unless `dryRun`)
 * applies it. Per-edit outcomes, the plan and the `undo` diff are in the
 * report; throws only for a malformed diff, a host that lacks a needed
 * callback, or a failed read before anything was written.
 */
export async function applyBlockDiff(
  diff: string,
  host: SiyuanHost,
  opts?: ApplyOptions,
): Promise<ApplyReport> {
  const lang = langOf(opts);
  const d = text(diff, 'diff', lang);
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  const h = wrapHost(host, lang, ctx, timeoutOf(opts));
  // The time part of the ids editkit gives new blocks: the local clock, as
  // the kernel's own ids use it.
  const withStamp = withIdStamp(o);
  try {
    const apply = () =>
      callAsync<ApplyReport>(lang, ctx, () => glue.applyBlockDiff(d, h, withStamp));
    // A dry run writes nothing: it needs no turn.
    const dry = (opts as { dryRun?: unknown } | undefined)?.dryRun === true;
    return await (dry ? apply() : inTurn(host, apply));
  } catch (e) {
    // One failure channel: a malformed diff or a kernel that could not be
    // read is the report's `error`, as a refused edit is its result's;
    // only a wrong call rejects.
    if (isCallError(e)) throw e;
    // The error itself (its `cause`, a host's own error, stays).
    const error = e as EditkitError;
    return {
      ok: false,
      dryRun: (opts as { dryRun?: unknown } | undefined)?.dryRun === true,
      summary: error.message,
      results: [],
      plan: [],
      warnings: [],
      error,
    };
  }
}

/** A unified diff of two texts (`""` when equal), the same the reports carry. */
export function unifiedDiff(
  oldText: string,
  newText: string,
  opts?: { oldName?: string; newName?: string; context?: number },
): string {
  const a = text(oldText, 'oldText', 'en');
  const b = text(newText, 'newText', 'en');
  const o = options(opts, 'options', 'en');
  return call('en', () => glue.unifiedDiff(a, b, o));
}

/** Adds `idStamp` (local `YYYYMMDDHHMMSS`) to the options JSON the core receives. */
function withIdStamp(o: string): string {
  const d = new Date();
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const idStamp = `${p(d.getFullYear(), 4)}${p(d.getMonth() + 1)}${p(d.getDate())}${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
  const parsed = JSON.parse(o) as Record<string, unknown>;
  return JSON.stringify({ idStamp, ...parsed });
}

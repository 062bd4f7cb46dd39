// The public functions: argument checks at the boundary, then the core.

import * as glue from 'editkit-glue';
import { call, callAsync, HostContext, langOf, options, text, wrapHost } from './boundary.js';
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
  const h = wrapHost(host, lang, ctx);
  return callAsync(lang, ctx, () => glue.applyBlockDiff(d, h, o));
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

/**
 * @internal Makes the wasm instance trap, to test the recovery path: the
 * call throws `INTERNAL_ERROR` and the next call works. Not for callers.
 */
export function __trapForTests(): void {
  call('en', () => glue.__trapForTests());
}

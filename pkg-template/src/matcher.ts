// The matcher: find and replace text that survives a model's formatting
// slips, and never edits the wrong place.

import * as glue from 'editkit-glue';
import { call, callAsync, check, HostContext, json, langOf, options, text } from './boundary.js';
import { isCallError, jsError, readOptions } from './errors.js';
import type { EditkitError } from './errors.js';
import { fastExact, fastExactCount, resetFastExactCount } from './exact-fast.js';
import { isReady } from './loader.js';
import { HostTimeoutError, isTimeout, settleWithin, timeoutOf } from './timeout.js';
import type {
  CorrectionErrorCode,
  CorrectionOptions,
  EditSnippetOptions,
  EditSnippetResult,
  EditSpec,
  FindErrorCode,
  FindFailureCode,
  FindOptions,
  FindResult,
  MatcherStats,
  ReplaceErrorCode,
  ReplaceOptions,
  ReplaceResult,
  SearchReplaceOptions,
  SearchReplaceReport,
} from './types.js';

/**
 * Where `search` is in `content`, by the first strategy that finds it.
 * Never throws for "not found": the answer is a union on `found`, and
 * `found: false` carries `code` (a {@link FindFailureCode}) and `message`.
 *
 * @throws {EditkitError<FindErrorCode>} an empty search, a bad option or argument.
 */
export function findMatch(content: string, search: string, opts?: FindOptions): FindResult {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  const s = text(search, 'search', lang);
  // Before the wasm is loaded, every call says so the same way (the
  // loader's error), whatever the search. Options the fast path reads are
  // plain values; anything else is checked by `options` below.
  const scanned = isReady() ? fastExact(c, s, opts) : { absent: false };
  if ('answer' in scanned) return scanned.answer;
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.findMatch(c, s, o, scanned.absent));
}

/**
 * Replaces `search` with `replace`; throws `NOT_FOUND`, `AMBIGUOUS`,
 * `ALREADY_APPLIED`, … when it refuses (every code: {@link ReplaceErrorCode}).
 *
 * @throws {EditkitError<ReplaceErrorCode>} the matcher's refusal, or a bad option or argument.
 */
export function replaceText(
  content: string,
  search: string,
  replace: string,
  opts?: ReplaceOptions,
): ReplaceResult {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  const s = text(search, 'search', lang);
  const r = text(replace, 'replace', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.replaceText(c, s, r, o));
}

/**
 * Places an edit snippet (the changed parts of a file, the rest written as
 * `// ... existing code ...`-style markers) in `content`: each part goes
 * where its lines that are in the file stand in the same order, close
 * together (a repeated `}` is placed by the lines around it); the elided
 * parts are kept byte for byte. `path` or `language` picks the comment
 * syntax markers are written in. Throws `AMBIGUOUS` (two places tie, their
 * lines named), `NOT_FOUND`, `NO_CHANGE` (the snippet changes nothing) or
 * `INVALID_ARGUMENT` (a comment that reads like a marker but is not one)
 * when it refuses; nothing is guessed.
 */
export function planEditSnippet(
  content: string,
  snippet: string,
  opts?: EditSnippetOptions,
): EditSnippetResult {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  const s = text(snippet, 'snippet', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.planEditSnippet(c, s, o));
}

/** Applies `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE` blocks in order. */
export function applySearchReplace(
  content: string,
  blocks: string,
  opts?: SearchReplaceOptions,
): SearchReplaceReport {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  const t = text(blocks, 'text', lang);
  const o = options(opts, 'options', lang);
  return reported(c, () => call(lang, () => glue.applySearchReplace(c, t, o)));
}

/**
 * One failure channel for the functions that apply many edits: what stops
 * the whole text (malformed blocks, a malformed edit) is the report's
 * `error`, as a block that does not place is its result's; only a wrong
 * call throws.
 */
function reported(content: string, run: () => SearchReplaceReport): SearchReplaceReport {
  try {
    return run();
  } catch (e) {
    if (isCallError(e)) throw e;
    // The error itself (its `cause`, a host's own error, stays).
    const error = e as EditkitError;
    return {
      content,
      ok: false,
      applied: 0,
      failed: 0,
      results: [],
      summary: error.message,
      error,
    };
  }
}

/** Applies `{ oldString, newString, replaceAll? }` edits in order. */
export function applyEdits(
  content: string,
  edits: EditSpec[],
  opts?: SearchReplaceOptions,
): SearchReplaceReport {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  if (!Array.isArray(edits)) {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, ['edits', 'expected an array'], {
      subject: 'edits',
    });
  }
  const e = json(edits, 'edits', lang);
  const o = options(opts, 'options', lang);
  // Each edit's field names, for the core to refuse a missing or misspelt
  // newString by name (SPEC §6.8).
  const fields = JSON.stringify(
    edits.map((edit) => (edit !== null && typeof edit === 'object' ? Object.keys(edit) : [])),
  );
  return reported(c, () => call(lang, () => glue.applyEdits(c, e, o, fields)));
}

/**
 * `replaceText`, and when it fails, asks `corrector` (an LLM) once to fix
 * the search; the corrected edit must then match with exact or safe
 * strategies, else the original error is thrown.
 *
 * @throws {EditkitError<CorrectionErrorCode>} a refusal, the corrector's failure or timeout.
 */
export async function replaceTextWithCorrection(
  content: string,
  search: string,
  replace: string,
  opts: CorrectionOptions,
): Promise<ReplaceResult> {
  const lang = langOf(opts);
  const c = text(content, 'content', lang);
  const s = text(search, 'search', lang);
  const r = text(replace, 'replace', lang);
  const corrector = readOptions(opts, ['corrector'] as const, 'options').corrector;
  if (typeof corrector !== 'function') {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      ['corrector', 'expected a function (request) => Promise<string>'],
      { subject: 'corrector' },
    );
  }
  // JSON leaves the corrector function out of the options text.
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  // SPEC §3.7 rule 11: a corrector that never settles ends the call with
  // HOST_TIMEOUT after `timeoutMs` (default 30 s) instead of hanging it.
  const timeoutMs = timeoutOf(opts);
  const guarded = async (request: string): Promise<string> => {
    try {
      const answer = await settleWithin(
        () => (corrector as (req: unknown) => unknown)(JSON.parse(request)),
        timeoutMs,
        'corrector',
      );
      check(answer, 'corrector() answer', lang);
      if (typeof answer !== 'string')
        throw new Error("the corrector must resolve to the model's answer as a string");
      return answer;
    } catch (e) {
      ctx.errors.push(e);
      // A timeout (ours, or a caller's wrapper saying HOST_TIMEOUT) reaches
      // the core marked as one, so the call fails with HOST_TIMEOUT.
      if (isTimeout(e) && !(e instanceof HostTimeoutError))
        throw new HostTimeoutError('corrector', timeoutMs);
      throw e instanceof Error ? e : new Error(String(e));
    }
  };
  return callAsync(lang, ctx, () => glue.replaceTextWithCorrection(c, s, r, o, guarded));
}

/** How matches were made since the last reset (per strategy, per correction outcome). */
export function stats(): MatcherStats {
  const counts = call<MatcherStats>('en', () => glue.stats());
  counts.strategies.exact += fastExactCount();
  return counts;
}

export function resetStats(): void {
  call('en', () => glue.resetStats());
  resetFastExactCount();
}

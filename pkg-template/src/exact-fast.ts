// An exact match found once, answered before anything crosses into wasm.
//
// Most of an agent's searches are in the file byte for byte, and V8's
// `indexOf` is the fastest scan there is: findMatch asks it first
// (BENCHMARKS §1 case a). The answer is the one the wasm matcher gives —
// the same fields with the same numbers (tests/node/exact-fast.test.mjs
// compares the two on random texts) — and whatever this path cannot be
// sure of goes to wasm: a BOM, options beyond the mode, the language and
// `prose`, a search found twice or not at all, a text so large the work
// budget decides. A search not there at all is said so to wasm, whose
// exact strategy then skips its own scan (charging its budget the same).

import type { FindResult } from './types.js';

/** The UTF-16 offsets of every `\n` of the last content seen (one slot:
 * an agent searches one file several times). */
let lastContent: string | undefined;
let lastNewlines: number[] = [];

/** Exact answers given here, added to `stats().strategies.exact`. */
let answered = 0;

export function fastExactCount(): number {
  return answered;
}

export function resetFastExactCount(): void {
  answered = 0;
}

const MODES = new Set([undefined, 'exact', 'safe', 'fuzzy']);
const LANGS = new Set([undefined, 'en', 'zh']);
const KEYS = new Set(['mode', 'lang', 'prose']);

/** Whether the options leave the exact strategy's answer as it is with no
 * options at all: `undefined`, or a plain object of a valid mode, language
 * and `prose` only. Anything else (or a getter that throws) is left to the
 * full path, which checks and reports it. */
export function plainOptions(opts: unknown): boolean {
  if (opts === undefined || opts === null) return true;
  try {
    if (typeof opts !== 'object' || Object.getPrototypeOf(opts) !== Object.prototype) return false;
    const o = opts as Record<string, unknown>;
    for (const k in o) if (!KEYS.has(k)) return false;
    return (
      MODES.has(o.mode as string | undefined) &&
      LANGS.has(o.lang as string | undefined) &&
      (o.prose === undefined || typeof o.prose === 'boolean')
    );
  } catch {
    return false;
  }
}

/** Whether `search` occurs in `content` again after `at` (overlapping
 * included). A long search is looked for by its head first: a short
 * needle's scan starts sooner, and each of a few hits is checked in full;
 * past those, the whole search is scanned for. */
function foundAgain(content: string, search: string, at: number): boolean {
  if (search.length < 64) return content.indexOf(search, at + 1) !== -1;
  const head = search.slice(0, 32);
  let p = at;
  for (let hits = 0; hits < 8; hits++) {
    p = content.indexOf(head, p + 1);
    if (p === -1) return false;
    if (content.startsWith(search, p)) return true;
  }
  return content.indexOf(search, p + 1) !== -1;
}

function newlines(content: string): number[] {
  if (content === lastContent) return lastNewlines;
  const out: number[] = [];
  for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1)) out.push(i);
  lastContent = content;
  lastNewlines = out;
  return out;
}

/** How many of the ascending `offsets` are below `at`. */
function countBelow(offsets: number[], at: number): number {
  let [lo, hi] = [0, offsets.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((offsets[mid] ?? at) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function newlinesIn(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

// The matcher's work budget (DEFAULT_WORK_BUDGET) counts UTF-8 bytes: the
// exact scan pays the content's and, per occurrence, twice the search's.
// Three bytes per UTF-16 unit at most.
const BUDGET = 100_000_000;

/** What the scan learnt: the wasm matcher's answer when `search` is in
 * `content` exactly once; else whether it is not there at all (wasm's
 * exact strategy then need not scan again), or nothing known. */
export type FastExact = { answer: FindResult } | { absent: boolean };

export function fastExact(content: string, search: string, opts: unknown): FastExact {
  if (search === '' || search.charCodeAt(0) === 0xfeff || content.charCodeAt(0) === 0xfeff) {
    return { absent: false };
  }
  if (3 * (content.length + 2 * search.length) > BUDGET || !plainOptions(opts)) {
    return { absent: false };
  }
  const at = content.indexOf(search);
  if (at === -1) return { absent: true };
  if (foundAgain(content, search, at)) return { absent: false };
  const table = newlines(content);
  const before = countBelow(table, at);
  const lineStart = (table[before - 1] ?? -1) + 1;
  const startLine = before + 1;
  answered++;
  const answer: FindResult = {
    found: true,
    strategy: 'exact',
    matches: [
      {
        strategy: 'exact',
        start: at,
        end: at + search.length,
        startLine,
        endLine: startLine + newlinesIn(search, search.length - 1),
        startColumn: at - lineStart + 1,
        text: search,
        score: 1,
      },
    ],
    tried: ['exact'],
    budgetExhausted: false,
  };
  return { answer };
}

// findMatch answers an exact, unique search in JS before anything crosses
// into wasm (pkg-template/src/exact-fast.ts). Its answer must be the wasm
// matcher's, field for field: here both are asked on random texts (CJK,
// emoji, CRLF, lone CR, BOM, repeated lines), the wasm one through an
// option the fast path leaves to wasm (`expectedReplacements: 1`, which
// changes nothing but the wording of a refusal for several places). A
// search not there at all exercises the other half: wasm told that the
// JS scan found nothing gives the report it gives when it scans itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, rng } from './support.mjs';

const PIECES = [
  'a',
  'b',
  'x = 1',
  '中文',
  '😀',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '}',
  '\uFEFF',
  'é',
  'e\u0301',
];

function text(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

const wasmAnswer = (content, search, opts) =>
  ek.findMatch(content, search, { ...opts, expectedReplacements: 1 });

test('the fast exact answer is the wasm answer, field for field', () => {
  const r = rng(7);
  let fast = 0;
  for (let i = 0; i < 3000; i++) {
    const content = (r() < 0.1 ? '\uFEFF' : '') + text(r, 5 + Math.floor(r() * 60));
    const from = Math.floor(r() * content.length);
    const to = from + 1 + Math.floor(r() * 12);
    // Mostly a piece of the content (found once, twice, or split in a
    // surrogate pair: then not well-formed, refused either way).
    let search = r() < 0.8 ? content.slice(from, to) : text(r, 3);
    if (!search.isWellFormed() || search.replace(/^\uFEFF/, '') === '') search = 'a';
    const opts = [{}, { mode: 'safe' }, { mode: 'fuzzy', lang: 'zh' }, { prose: true }][i % 4];
    const before = ek.stats().strategies.exact;
    const got = ek.findMatch(content, search, opts);
    const want = wasmAnswer(content, search, opts);
    const about = JSON.stringify({ content, search, opts });
    if (want.code === 'MATCH_COUNT_MISMATCH') {
      // Found several times: the count option words the refusal its own
      // way; the places are the same.
      assert.equal(got.code, 'AMBIGUOUS', about);
      assert.deepEqual(got.matches, want.matches, about);
    } else {
      assert.deepEqual(got, want, about);
    }
    if (got.strategy === 'exact' && got.found) {
      // Counted once, by whichever path answered.
      assert.equal(ek.stats().strategies.exact, before + 2);
      fast++;
    }
  }
  assert.ok(fast > 500, `${fast} exact answers compared`);
});

test('a second search in the same content reads the kept line table, and another content its own', () => {
  const a = 'one\ntwo\nthree\n';
  const b = 'x\n\n\ny three\n';
  for (const [content, search] of [
    [a, 'three'],
    [a, 'two\nth'],
    [b, 'three'],
    [a, 'o\nt'],
    [b, '\ny'],
  ]) {
    assert.deepEqual(ek.findMatch(content, search), wasmAnswer(content, search, {}));
  }
  const m = ek.findMatch(b, 'three').matches[0];
  assert.deepEqual([m.startLine, m.endLine, m.startColumn, m.start], [4, 4, 3, 6]);
});

test('what the fast path leaves to wasm is still answered there', () => {
  // Found twice: ambiguous, with both places.
  const twice = ek.findMatch('a = 1\na = 1\n', 'a = 1');
  assert.equal(twice.code, 'AMBIGUOUS');
  // Options it does not read: a line hint picks one of the two.
  const hinted = ek.findMatch('a = 1\na = 1\n', 'a = 1', { lineHint: 2 });
  assert.equal(hinted.matches[0]?.startLine ?? hinted.code, 2);
  // A bad mode is still an error.
  assert.throws(() => ek.findMatch('a', 'a', { mode: 'loose' }), { code: 'INVALID_ARGUMENT' });
  // A search starting with a BOM is matched without it.
  assert.equal(ek.findMatch('x\nab\n', '\uFEFFab').matches[0].startLine, 2);
});

test('a long search whose head repeats is found once or twice as wasm finds it', () => {
  const line = (n) =>
    `export function handler(request: Request, context: Context) { return ${n} }\n`;
  const distinct = Array.from({ length: 30 }, (_, n) => line(n)).join('');
  const repeating = Array.from({ length: 30 }, (_, n) => line(n % 15)).join('');
  // Once: the head is on every line, the whole search on one place.
  const once = line(3) + line(4) + line(5).slice(0, 40);
  assert.deepEqual(ek.findMatch(distinct, once), wasmAnswer(distinct, once, {}));
  assert.equal(ek.findMatch(distinct, once).matches[0].startLine, 4);
  // Twice, the second time after more than eight lines with its head; and
  // overlapping, in a run of identical lines.
  for (const [text, search] of [
    [repeating, line(1) + line(2)],
    [line(7).repeat(4), line(7).repeat(3)],
  ]) {
    const got = ek.findMatch(text, search);
    assert.equal(got.code, 'AMBIGUOUS');
    assert.deepEqual(got.matches, wasmAnswer(text, search, {}).matches);
  }
});

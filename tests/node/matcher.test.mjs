import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, repo, rng } from './support.mjs';

const FILE =
  'function total(items) {\r\n    let sum = 0;\r\n    for (const item of items) {\r\n        sum += item.price;\r\n    }\r\n    return sum;\r\n}\r\n';

test('findMatch names the strategy, the lines and UTF-16 offsets; not found is a value', () => {
  const r = ek.findMatch(FILE, 'for (const item of items) {\n    sum += item.price;\n}', {});
  assert.equal(r.found, true);
  assert.equal(r.strategy, 'indentation');
  assert.deepEqual([r.matches[0].startLine, r.matches[0].endLine], [3, 5]);
  const cjk = '中文😀\nneedle\n';
  const m = ek.findMatch(cjk, 'needle').matches[0];
  assert.equal(cjk.slice(m.start, m.end), 'needle', 'offsets are JS string indices');
  const miss = ek.findMatch(FILE, 'while (true) {}');
  assert.equal(miss.found, false);
  assert.equal(miss.code, 'NOT_FOUND');
  assert.ok(miss.tried.length >= 8);
});

test('replaceText keeps CRLF and the file’s indentation; refusals are typed errors', () => {
  const r = ek.replaceText(FILE, 'sum += item.price;', 'sum += item.price * item.count;');
  assert.equal(r.content, FILE.replace('sum += item.price;', 'sum += item.price * item.count;'));
  assert.throws(
    () => ek.replaceText('x\nfoo()\n  foo()\n', 'foo()', 'bar()'),
    (e) => e.code === 'AMBIGUOUS' && e.candidates.length === 2,
  );
  // Nothing similar in the file: NOT_FOUND lists the strategies tried and names no closest region.
  assert.throws(
    () => ek.replaceText(FILE, 'nothing like this', 'x'),
    (e) => {
      assert.equal(e.code, 'NOT_FOUND');
      assert.match(
        e.message,
        /^Could not find the search text \(mode safe\)\.\nStrategies tried: exact, line_endings, /,
      );
      assert.doesNotMatch(e.message, /closest/i);
      assert.equal(e.line, undefined);
      return true;
    },
  );
  // A near miss: the message and the error's fields point at the closest region.
  assert.throws(
    () => ek.replaceText(FILE, 'for (const item of itemz) {', 'x'),
    (e) => {
      assert.equal(e.code, 'NOT_FOUND');
      assert.match(
        e.message,
        /\nClosest region: line 3 \(88% similar\):\n--- search\n\+\+\+ content\n/,
      );
      assert.equal(e.line, 3);
      assert.equal(e.actual, '    for (const item of items) {');
      assert.equal(e.expected, 'for (const item of itemz) {');
      return true;
    },
  );
  assert.equal(
    ek.replaceText('a $& b', '$&', '$1$$').content,
    'a $1$$ b',
    'replacement is literal',
  );
  assert.throws(
    () => ek.replaceText(FILE, '', 'x'),
    (e) => e.code === 'EMPTY_SEARCH',
  );
});

test('replaceText with prose: true writes a slipped prose edit in the file’s own form, CRLF kept', () => {
  const note = '- **必须**先备份，再升级到 v3。\r\n- 然后重启 SiYuan。\r\n';
  const search = '* __必须__先备份,再升级到v3.\n* 然后重启SiYuan.';
  const replace = '* __必须__先备份,再升级到v3.\n* 然后重启SiYuan.\n* 最后检查"同步"状态.';
  assert.throws(
    () => ek.replaceText(note, search, replace),
    (e) => e.code === 'NOT_FOUND',
  );
  const r = ek.replaceText(note, search, replace, { prose: true });
  assert.equal(r.strategy, 'prose');
  assert.equal(
    r.content,
    '- **必须**先备份，再升级到 v3。\r\n- 然后重启 SiYuan。\r\n- 最后检查"同步"状态。\r\n',
  );
  assert.equal(ek.stats().strategies.prose >= 1, true);
});

test('applySearchReplace: atomic by default, seed-003 summaries, format errors with their line', () => {
  const ok = ek.applySearchReplace(
    'a\nb\nc\n',
    '<<<<<<<SEARCH\na\n=======\nA\n>>>>>>>REPLACE\n<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE',
  );
  assert.equal(ok.content, 'A\nb\nC\n');
  assert.equal(ok.summary, 'Edit completed: 2/2 blocks applied successfully.');
  const half =
    '<<<<<<< SEARCH\na\n=======\nA\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nzzz\n=======\nZ\n>>>>>>> REPLACE';
  const atomic = ek.applySearchReplace('a\nb\n', half);
  assert.equal(atomic.content, 'a\nb\n');
  assert.equal(atomic.ok, false);
  const partial = ek.applySearchReplace('a\nb\n', half, { atomic: false });
  assert.equal(partial.content, 'A\nb\n');
  assert.match(partial.summary, /^Edit partially completed: 1\/2 blocks applied/);
  // Malformed blocks are the report's error (one failure channel), the content unchanged.
  const malformed = ek.applySearchReplace('a', '<<<<<<< SEARCH\na\n>>>>>>> REPLACE');
  assert.equal(malformed.ok, false);
  assert.equal(malformed.content, 'a');
  assert.deepEqual(malformed.results, []);
  assert.ok(ek.isEditkitError(malformed.error) && typeof malformed.error.line === 'number');
  assert.equal(malformed.summary, malformed.error.message);
  const edits = ek.applyEdits('one two two', [
    { oldString: 'one', newString: '1' },
    { oldString: 'two', newString: '2', replaceAll: true },
  ]);
  assert.equal(edits.content, '1 2 2');
});

test('replaceTextWithCorrection asks the corrector once, caches, and counts outcomes', async () => {
  ek.resetStats();
  const file = 'const greeting = "hello";\n';
  let calls = 0;
  const corrector = async (request) => {
    calls++;
    assert.match(request.user, /greting/);
    return 'Sure! ```json\n{"search": "const greeting = \\"hello\\";", "replace": "const greeting = \\"hi\\";", "explanation": "typo"}\n```';
  };
  const r = await ek.replaceTextWithCorrection(
    file,
    'const greting = "hello";',
    'const greeting = "hi";',
    { corrector, instruction: 'say hi' },
  );
  assert.equal(r.content, 'const greeting = "hi";\n');
  await ek.replaceTextWithCorrection(file, 'const greting = "hello";', 'const greeting = "hi";', {
    corrector,
    instruction: 'say hi',
  });
  assert.equal(calls, 1, 'the second identical request is answered from the cache');
  const noChange = async () => '{"noChangesRequired": true, "explanation": "already says hi"}';
  await assert.rejects(
    ek.replaceTextWithCorrection(file, 'const greting = "hey";', 'x', { corrector: noChange }),
    (e) => e.code === 'CORRECTOR_NO_CHANGE',
  );
  const broken = async () => {
    throw new Error('LLM offline');
  };
  // A corrector that fails is a HOST_ERROR carrying the original refusal.
  await assert.rejects(
    ek.replaceTextWithCorrection(file, 'nope nope nope', 'x', { corrector: broken }),
    (e) => {
      assert.equal(e.code, 'HOST_ERROR');
      assert.equal(e.subject, 'corrector');
      assert.equal(e.errors[0].code, 'NOT_FOUND');
      assert.equal(e.cause.message, 'LLM offline');
      return true;
    },
  );
  const s = ek.stats();
  assert.equal(s.corrections.success, 2, 'the cached answer also succeeded');
  assert.equal(s.corrections.cacheHits, 1);
  assert.equal(s.corrections.noChange, 1);
  await assert.rejects(
    ek.replaceTextWithCorrection(file, 'a', 'b', {}),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  // One options object holds both the match options and `instruction`.
  let seen;
  const spy = async (request) => {
    seen = request;
    return '{"noChangesRequired": true, "explanation": "无需修改"}';
  };
  const options = { corrector: spy, instruction: '改成 hey 😀', lang: 'zh', mode: 'fuzzy' };
  await assert.rejects(
    ek.replaceTextWithCorrection(file, 'const greting = "hey";', 'x', options),
    (e) => e.code === 'CORRECTOR_NO_CHANGE' && e.message === '纠错器判断无需修改：无需修改',
  );
  assert.equal(seen.instruction, '改成 hey 😀');
  for (const bad of [{ instruction: 42 }, { mode: 'guess' }, { lineHint: 1.5 }]) {
    await assert.rejects(
      ek.replaceTextWithCorrection(file, 'a', 'b', { corrector: spy, ...bad }),
      (e) => e.code === 'INVALID_ARGUMENT' && e.message.includes('options'),
      JSON.stringify(bad),
    );
  }
});

test('hostile arguments to the matcher are typed errors and the module keeps working', () => {
  for (const bad of [undefined, null, 1, {}, 'lone \udfff']) {
    assert.throws(
      () => ek.findMatch(bad, 'x'),
      (e) => ['INVALID_ARGUMENT', 'INVALID_TEXT'].includes(e.code),
    );
    assert.throws(
      () => ek.replaceText('x', bad, 'y'),
      (e) => ['INVALID_ARGUMENT', 'INVALID_TEXT'].includes(e.code),
    );
  }
  assert.throws(
    () => ek.findMatch('x', 'x', { mode: 'reckless' }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(
    () => ek.applyEdits('x', 'not an array'),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  const big = 'line\n'.repeat(200_000);
  assert.equal(ek.findMatch(big, 'no such line here').found, false);
  assert.equal(ek.findMatch('abc', 'b').found, true);
});

test('exact search in the wasm build finds what indexOf finds, at every offset (the v128 needle scan)', () => {
  // A small alphabet makes the scan's rare-byte candidates frequent, so
  // both the sixteen-position loop and the tails are used.
  const rand = rng(7);
  const alphabet = 'ab{}( \n';
  const text = (n) => Array.from({ length: n }, () => alphabet[Math.floor(rand() * 7)]).join('');
  /** Non-overlapping occurrences, left to right (what replaceAll places). */
  const all = (hay, needle) => {
    const out = [];
    for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + needle.length))
      out.push(i);
    return out;
  };
  let checked = 0;
  for (const size of [0, 1, 15, 16, 17, 31, 33, 64, 257, 4099]) {
    const hay = text(size);
    for (let k = 0; k < 40; k++) {
      const len = 1 + Math.floor(rand() * 24);
      // Half taken from the content (present, often several times), half random.
      const start = Math.floor(rand() * Math.max(1, size - len));
      const needle = k % 2 === 0 && size >= len ? hay.slice(start, start + len) : text(len);
      if (!needle.trim()) continue;
      const expected = all(hay, needle);
      const r = ek.findMatch(hay, needle, { mode: 'exact', replaceAll: true });
      const got = r.found && r.strategy === 'exact' ? r.matches.map((m) => m.start) : [];
      assert.deepEqual(got, expected, `size ${size}, needle ${JSON.stringify(needle)}`);
      checked++;
    }
  }
  assert.ok(checked > 300, `${checked} searches`);
});

/**
 * Generated files for the native-vs-wasm tables, built exactly as
 * tests/suite/matcher.rs `generated` builds them: 60 files of `lines`
 * lines, each line `min + rnd(spread)` atoms (then `wrap`), and a search
 * of `take` lines from each, edited by `edit`. A 32-bit LCG; `Math.imul`
 * is the wrapping product.
 */
function generated({ seed, atoms, lines: count, min, spread, wrap, take, edit }) {
  const rnd = (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  const cases = [];
  for (let k = 0; k < 60; k++) {
    const lines = [];
    for (let l = 0; l < count; l++) {
      const n = min + rnd(spread);
      let line = '';
      for (let a = 0; a < n; a++) line += atoms[rnd(atoms.length)];
      lines.push(wrap(line));
    }
    const at = rnd(count - take);
    const search = lines
      .slice(at, at + take)
      .map(edit)
      .join('\n');
    cases.push([`${lines.join('\n')}\n`, search]);
  }
  return cases;
}

// The cases of tests/suite/matcher.rs `closest_cases`, rebuilt with the
// same 32-bit LCG (Math.imul for the wrapping product).
function closestCases() {
  const ATOMS = [
    'foo',
    'bar_baz',
    '(',
    ')',
    '{',
    '}',
    '[',
    ']',
    '<',
    '>',
    ':',
    '=',
    ',',
    ';',
    ' ',
    '  ',
    '\t',
    '.',
    '"q"',
    "'s'",
    '+',
    '-',
    '*',
    '/',
    '|',
    '\\',
    '@',
    '#',
    'x1',
    'Y_2',
    '0x7f',
    '\u000b',
    '\u000c',
  ];
  return generated({
    seed: 12345,
    atoms: ATOMS,
    lines: 24,
    min: 1,
    spread: 30,
    wrap: (l) => l,
    take: 4,
    edit: (l, i) => (i === 1 ? `${l} zz` : l),
  });
}

test('the closest region of a refusal, and where fuzzy mode lands, are the native ones (v128 word and whitespace masks)', () => {
  const want = JSON.parse(
    readFileSync(join(repo, 'tests', 'data', 'closest-regions.json'), 'utf8'),
  ).refusals;
  const cases = closestCases();
  assert.equal(cases.length, want.length);
  cases.forEach(([content, search], i) => {
    const r = ek.findMatch(content, search);
    assert.equal(r.found, false, `case ${i}`);
    const [startLine, endLine, similarity, fuzzyFound, fuzzyLines] = want[i];
    assert.deepEqual([r.closest.startLine, r.closest.endLine], [startLine, endLine], `case ${i}`);
    assert.ok(Math.abs(r.closest.similarity - similarity) < 1e-9, `case ${i}`);
    // Fuzzy mode compares lines by their fold hashes (v128 whitespace masks).
    const f = ek.findMatch(content, search, { mode: 'fuzzy' });
    const at = f.matches[0] ?? f.closest;
    assert.deepEqual(
      [f.found, at ? [at.startLine, at.endLine] : [0, 0]],
      [fuzzyFound, fuzzyLines],
      `case ${i} fuzzy`,
    );
  });
});

test('offsets and lines in the wasm build match JS around every sixteen-byte edge (v128 newline count and ASCII check)', () => {
  let seed = 11;
  const rand = () => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Newlines, ASCII, a 3-byte CJK character and a 4-byte emoji (two UTF-16
  // units): the UTF-16 offset and the line of a match depend on every one.
  const alphabet = ['a', 'b', '{', ' ', '\n', '中', '😀', 'é'];
  let checked = 0;
  for (const size of [1, 15, 16, 17, 31, 32, 33, 47, 64, 200, 1031]) {
    for (let k = 0; k < 12; k++) {
      const parts = Array.from(
        { length: size },
        () => alphabet[Math.floor(rand() * alphabet.length)],
      );
      const needle = `<<needle ${k}>>`;
      parts.splice(Math.floor(rand() * (size + 1)), 0, needle);
      const hay = parts.join('');
      const r = ek.findMatch(hay, needle, { mode: 'exact' });
      const at = hay.indexOf(needle);
      assert.equal(r.found, true);
      assert.equal(r.matches[0].start, at, `size ${size}`);
      assert.equal(r.matches[0].startLine, hay.slice(0, at).split('\n').length, `size ${size}`);
      checked++;
    }
  }
  assert.ok(checked >= 130);
});

// The cases of tests/suite/matcher.rs `whitespace_cases`, rebuilt the same
// way: lines of 16–64 bytes whose fold hashes (v128 whitespace masks in
// the wasm build) find a search whose whitespace was changed.
function whitespaceCases() {
  const ATOMS = [
    'foo(',
    'x1 ',
    'Y_2;',
    '(',
    ')',
    '=',
    ';',
    '.',
    ' ',
    '  ',
    '\t',
    'ab.',
    '0x7f,',
    '#',
  ];
  return generated({
    seed: 777,
    atoms: ATOMS,
    lines: 20,
    min: 8,
    spread: 12,
    wrap: (l) => `w${l}w`,
    take: 3,
    edit: (l) => l.replaceAll('\t', '  ').replaceAll('   ', ' '),
  });
}

test('a search whose whitespace changed is found where native finds it (v128 whitespace masks of the fold hash)', () => {
  const want = JSON.parse(
    readFileSync(join(repo, 'tests', 'data', 'closest-regions.json'), 'utf8'),
  ).whitespace;
  const cases = whitespaceCases();
  assert.equal(cases.length, want.length);
  cases.forEach(([content, search], i) => {
    const r = ek.findMatch(content, search);
    assert.deepEqual(
      [r.found, r.strategy ?? null, r.matches[0]?.startLine ?? 0],
      want[i],
      `case ${i}`,
    );
  });
});

test('the content kept from the previous call is used only for that same string', () => {
  // Two files of the same length (and the same first and last bytes), then
  // a string built anew with the first file's text: each call answers for
  // the text it was given.
  const one = 'alpha\nneedle one\nomega\n';
  const two = 'alpha\nneedle two\nomega\n';
  const rebuilt = ['alpha', 'needle one', 'omega', ''].join('\n');
  assert.equal(ek.findMatch(one, 'needle one').found, true);
  assert.equal(ek.findMatch(two, 'needle one').found, false);
  assert.equal(ek.findMatch(two, 'needle two').matches[0].startLine, 2);
  assert.equal(ek.findMatch(rebuilt, 'needle one').found, true);
  assert.equal(ek.replaceText(one, 'needle one', 'thread').content, 'alpha\nthread\nomega\n');
  assert.equal(ek.replaceText(two, 'needle two', 'pin').content, 'alpha\npin\nomega\n');
  // A lone surrogate in a later call is still refused before it crosses.
  assert.throws(
    () => ek.findMatch('\ud800' + one.slice(1), 'x'),
    (e) => e.code === 'INVALID_TEXT',
  );
  assert.equal(ek.findMatch(one, 'omega').matches[0].startLine, 3);
});

test('an EditkitError prints and serialises only the fields that are set', async () => {
  const { inspect } = await import('node:util');
  let error;
  try {
    ek.replaceText('abc', 'zzz', 'y');
  } catch (e) {
    error = e;
  }
  assert.equal(error.code, 'NOT_FOUND');
  assert.deepEqual(
    Object.entries(error).filter(([, v]) => v === undefined),
    [],
  );
  assert.doesNotMatch(inspect(error), /: undefined/);
  assert.deepEqual(Object.keys(error.toJSON()).sort(), [
    'code',
    'expected',
    'message',
    'suggestions',
  ]);
});

test('an EditkitError keeps reason and blockIds (the core sets them) and prints no field it lacks', async () => {
  const { inspect } = await import('node:util');
  const data = {
    code: 'HUNK_NOT_FOUND',
    message: 'The plan expired.',
    reason: 'expired',
    blockIds: ['20240614083000-a1b2c3d'],
  };
  const error = new ek.EditkitError(data);
  assert.equal(error.reason, 'expired');
  assert.deepEqual(error.blockIds, ['20240614083000-a1b2c3d']);
  assert.deepEqual(error.toJSON(), data);
  assert.deepEqual(Object.keys(error).sort(), ['blockIds', 'code', 'name', 'reason']);
  assert.doesNotMatch(inspect(error), /: undefined/);
  // Without them, neither is a key.
  const plain = new ek.EditkitError({ code: 'NOT_FOUND', message: 'x' });
  assert.equal('reason' in plain, false);
  assert.equal('blockIds' in plain, false);
});

test('findMatch answers a union on found: found → strategy, no failure fields; not found → code and message', () => {
  const content = 'alpha\nbeta\ngamma\nbeta\n';
  const FAILURES = ['NOT_FOUND', 'AMBIGUOUS', 'MATCH_COUNT_MISMATCH', 'TOO_MANY_MATCHES'];
  const found = [
    ek.findMatch(content, 'alpha'), // the JS fast path
    ek.findMatch(content, '  gamma  '), // the wasm matcher
    ek.findMatch(content, 'beta', { replaceAll: true }),
    ek.findMatch(content, 'beta', { lineHint: 4 }),
  ];
  for (const r of found) {
    assert.equal(r.found, true);
    assert.equal(typeof r.strategy, 'string');
    assert.ok(r.matches.length > 0);
    for (const absent of ['code', 'message', 'closest']) assert.equal(absent in r, false, absent);
  }
  const missed = [
    ek.findMatch(content, 'delta\nepsilon'),
    ek.findMatch(content, 'beta'),
    ek.findMatch(content, 'beta', { expectedReplacements: 3 }),
  ];
  assert.deepEqual(
    missed.map((r) => r.code),
    ['NOT_FOUND', 'AMBIGUOUS', 'MATCH_COUNT_MISMATCH'],
  );
  for (const r of missed) {
    assert.equal(r.found, false);
    assert.ok(FAILURES.includes(r.code), r.code);
    assert.equal(typeof r.message, 'string');
    assert.ok(r.message.length > 0);
  }
  // Nothing matched: no strategy and no matches; the wrong count: both.
  assert.equal('strategy' in missed[0], false);
  assert.deepEqual(missed[0].matches, []);
  assert.equal(missed[1].strategy, 'exact');
  assert.equal(missed[1].matches.length, 2);
});

test('a search/replace block result is a union on ok: applied → strategy; failed → the matcher’s refusal, nothing replaced', () => {
  const MATCH_CODES = [
    'NOT_FOUND',
    'AMBIGUOUS',
    'MATCH_COUNT_MISMATCH',
    'TOO_MANY_MATCHES',
    'EMPTY_SEARCH',
    'NO_CHANGE',
    'ALREADY_APPLIED',
    'REPLACEMENT_NOT_MAPPABLE',
  ];
  const block = (s, r) => `<<<<<<< SEARCH\n${s}\n=======\n${r}\n>>>>>>> REPLACE\n`;
  const report = ek.applySearchReplace(
    'alpha\nbeta\ngamma\nbeta\nomega\n',
    block('alpha', 'A') + block('zzz', 'y') + block('beta', 'B') + block('gamma', 'gamma'),
    { atomic: false },
  );
  const [applied, ...failed] = report.results;
  assert.equal(applied.ok, true);
  assert.equal(applied.strategy, 'exact');
  assert.equal('error' in applied, false);
  assert.deepEqual(
    failed.map((b) => b.error.code),
    ['NOT_FOUND', 'AMBIGUOUS', 'NO_CHANGE'],
  );
  for (const b of failed) {
    assert.equal(b.ok, false);
    assert.equal('strategy' in b, false);
    assert.equal(b.occurrences, 0);
    assert.deepEqual(b.matches, []);
    assert.ok(MATCH_CODES.includes(b.error.code));
  }
  const edits = ek.applyEdits('a\nb\n', [{ oldString: 'c', newString: 'd' }]);
  assert.equal(edits.results[0].ok, false);
  assert.equal('line' in edits.results[0], false);
  assert.ok(MATCH_CODES.includes(edits.results[0].error.code));
});

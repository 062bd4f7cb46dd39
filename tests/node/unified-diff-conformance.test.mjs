// jsdiff's applyPatch cases (test/patch/apply.js of kpdecker/jsdiff),
// transcribed as data in tests/data/unified-diff-conformance.json: each
// case's old text, diff and jsdiff's expected text (or `false`, a refusal),
// with editkit's recorded answer through applyUnifiedDiff over an in-memory
// host and the outcome (agree, safe_refusal, differ, not_applicable). Every
// case with an input is run and must give its recorded answer exactly (the
// not_applicable ones too, so no recorded answer goes stale), and the
// outcome counts are asserted, so any change in editkit shows up here.
// docs/patches.md (## Conformance) lists the differences.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, repo } from './support.mjs';

const CASES = JSON.parse(
  readFileSync(join(repo, 'tests', 'data', 'unified-diff-conformance.json'), 'utf8'),
);

const COUNTS = { agree: 64, safe_refusal: 2, differ: 4, not_applicable: 6 };

/** An in-memory host, as in patches.test.mjs: path → text, null for a missing file. */
function memoryHost(files) {
  const map = new Map(Object.entries(files));
  return {
    map,
    readFile: async (p) => map.get(p) ?? null,
    writeFile: async (p, c) => {
      map.set(p, c);
    },
    deleteFile: async (p) => {
      map.delete(p);
    },
  };
}

/**
 * Runs a case through applyUnifiedDiff. A single-file case (`old` a string)
 * puts the text at the diff's first path and answers the one file left
 * (after a rename, the new one); a multi-file case answers every file.
 * A refusal answers its code (a thrown one, INVALID_PATCH, too).
 */
async function runEditkit(c) {
  const single = typeof c.old === 'string';
  const files = single ? { [ek.patchPaths(c.diff, { format: 'unified' })[0]]: c.old } : c.old;
  const host = memoryHost(files);
  let r;
  try {
    r = await ek.applyUnifiedDiff(host, c.diff, c.options);
  } catch (e) {
    return { ok: false, code: e.code };
  }
  if (!r.ok) return { ok: false, code: (r.files.find((f) => f.error)?.error ?? r.error).code };
  const out = Object.fromEntries(host.map);
  if (!single) return { ok: true, content: out };
  assert.equal(host.map.size, 1, 'one file left');
  return { ok: true, content: Object.values(out)[0] };
}

/** The outcome a case's two answers make (a not_applicable case keeps its own). */
function outcomeOf(c) {
  if (c.outcome === 'not_applicable') return 'not_applicable';
  const e = c.editkit;
  if (c.jsdiff === false) return e.ok ? 'differ' : 'agree';
  if (!e.ok) return 'safe_refusal';
  return JSON.stringify(e.content) === JSON.stringify(c.jsdiff) ? 'agree' : 'differ';
}

test('the table: unique ids, each outcome what its answers make, a note for every difference', () => {
  const ids = CASES.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  for (const c of CASES) {
    assert.match(c.from, /^jsdiff: \S/, c.id);
    if ('old' in c) {
      assert.equal(typeof c.diff, 'string', c.id);
      assert.equal(typeof c.editkit?.ok, 'boolean', c.id);
      assert.ok(c.jsdiff === false || c.jsdiff !== undefined, c.id);
    } else {
      assert.equal(c.outcome, 'not_applicable', `${c.id}: only a not_applicable case has no input`);
    }
    assert.equal(c.outcome, outcomeOf(c), c.id);
    if (c.outcome !== 'agree') assert.ok(c.note?.length > 20, `${c.id}: a note says why`);
  }
});

test('the counts: agree, safe refusals, differ, not applicable', () => {
  const counts = { agree: 0, safe_refusal: 0, differ: 0, not_applicable: 0 };
  for (const c of CASES) counts[c.outcome] += 1;
  assert.deepEqual(counts, COUNTS);
  assert.ok(CASES.filter((c) => c.outcome !== 'not_applicable').length >= 40);
});

for (const c of CASES.filter((c) => 'old' in c)) {
  test(`${c.outcome}: ${c.id}`, async () => {
    assert.deepEqual(await runEditkit(c), c.editkit);
  });
}

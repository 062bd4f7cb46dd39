// The results typed as discriminated unions (types.ts) hold at runtime:
// each variant has the fields its type promises and none it rules out.
// tests/types/result-types.ts holds the types; this holds the values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixtureHost } from './support.mjs';

const P = '20240614083000-a1b2c3d';
const WRITES = [
  'updateBlock',
  'deleteBlock',
  'insertBlock',
  'prependBlock',
  'appendBlock',
  'updateBlocks',
  'insertBlocks',
  'prependBlocks',
  'appendBlocks',
];

/** The host's callbacks, every write from the `from`-th on throwing. */
function failingFrom(host, from) {
  let n = 0;
  const out = {};
  for (const [k, v] of Object.entries(host)) if (typeof v === 'function') out[k] = v.bind(host);
  for (const k of WRITES) {
    const write = out[k];
    if (!write) continue;
    out[k] = (...args) => {
      n++;
      if (n >= from) throw new Error('disk full');
      return write(...args);
    };
  }
  return out;
}

const DIFF = `@@${P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE\n\n@@AFTER:${P}@@\n新段落`;

test('RollbackReport is a union on ok: ok → no errors; not ok → the errors, always', async () => {
  const reverted = fixtureHost();
  reverted.failWriteAt(2);
  const good = await ek.applyBlockDiff(DIFF, reverted);
  assert.equal(good.ok, false);
  assert.equal(good.rollback.ok, true);
  assert.equal('errors' in good.rollback, false);
  assert.equal(typeof good.rollback.reverted, 'number');
  // Every write from the second on fails: the rollback's own write too.
  const stuck = await ek.applyBlockDiff(DIFF, failingFrom(fixtureHost(), 2));
  assert.equal(stuck.ok, false);
  assert.equal(stuck.rollback.ok, false);
  assert.ok(stuck.rollback.errors.length > 0);
  assert.equal(typeof stuck.rollback.errors[0].code, 'string');
  // A report that is ok has no rollback.
  const fine = await ek.applyBlockDiff(DIFF, fixtureHost());
  assert.equal(fine.ok, true);
  assert.equal('rollback' in fine, false);
});

test('patch hunks and files are unions on ok: placed → lines; failed → the error, nothing to write', () => {
  const contents = { 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'x\n', 'c.txt': 'c\n' };
  const patch = [
    '*** Begin Patch',
    '*** Update File: a.txt',
    '@@',
    ' one',
    '-two',
    '+TWO',
    '*** Update File: b.txt',
    '@@',
    '-nothing here',
    '+y',
    '*** Add File: c.txt',
    '+again',
    '*** Delete File: none.txt',
    '*** End Patch',
  ].join('\n');
  const report = ek.planPatch(contents, patch, { atomic: false });
  const [a, b, added, deleted] = report.files;
  // Placed: start and end lines, no error.
  assert.equal(a.ok, true);
  assert.equal(a.write, true);
  assert.equal(typeof a.content, 'string');
  assert.equal('error' in a, false);
  const [h] = a.hunks;
  assert.equal(h.ok, true);
  assert.equal(h.startLine, 1);
  assert.equal(h.endLine, 2);
  assert.equal('error' in h, false);
  // A hunk that is not placed, a file that exists, a file that does not:
  // each refused with its error, never written, no content, no change.
  for (const f of [b, added, deleted]) {
    assert.equal(f.ok, false, f.path);
    assert.equal(f.write, false, f.path);
    assert.equal(f.changed, false, f.path);
    assert.equal('content' in f, false, f.path);
    assert.equal(typeof f.error.code, 'string', f.path);
  }
  assert.deepEqual(
    [b.error.code, added.error.code, deleted.error.code],
    ['NOT_FOUND', 'FILE_EXISTS', 'FILE_NOT_FOUND'],
  );
  const [missed] = b.hunks;
  assert.equal(missed.ok, false);
  for (const absent of ['strategy', 'startLine', 'endLine'])
    assert.equal(absent in missed, false, absent);
  assert.equal(missed.error.code, 'NOT_FOUND');
});

test('a file apply is a union on status: ok → line counts, no reason; rejected → reason, unchanged', () => {
  const session = new ek.FileEditSession();
  const plan = session.prepareRangeEdit({
    path: 'a.txt',
    content: 'one\ntwo\nthree\n',
    range: '2',
    newText: 'TWO',
  });
  const rejected = session.apply({ hunkId: plan.hunkId, content: 'zero\nx\ny\n' });
  assert.equal(rejected.status, 'rejected');
  assert.equal(rejected.contextMatch, 'rejected');
  assert.equal(rejected.reason, 'CONTENT_CHANGED');
  assert.equal(rejected.changed, false);
  assert.equal(rejected.content, 'zero\nx\ny\n');
  for (const absent of ['lines', 'normalized']) assert.equal(absent in rejected, false, absent);
  const ok = session.apply({ hunkId: plan.hunkId, content: 'one\ntwo\nthree\n' });
  assert.equal(ok.status, 'ok');
  assert.notEqual(ok.contextMatch, 'rejected');
  assert.equal('reason' in ok, false);
  assert.deepEqual(ok.lines, { old: 1, new: 1, delta: 0 });
  assert.equal(typeof ok.normalized.fileEofHasNewline, 'boolean');
});

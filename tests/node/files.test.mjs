import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek } from './support.mjs';

function session(start = 1_000) {
  let t = start;
  const s = new ek.FileEditSession({ now: () => t, randomId: () => 'test' });
  return { s, tick: (ms) => (t += ms) };
}

test('plan → apply: exact, then fuzz after an edit above, then a retry is HUNK_NOT_FOUND', () => {
  const { s } = session();
  const v1 = 'alpha\nbeta\ngamma\n';
  const plan = s.prepareRangeEdit({
    path: 'a.txt',
    content: v1,
    range: '2',
    newText: 'BETA',
    owner: 'me',
  });
  assert.equal(plan.hunkId, 'test-1');
  assert.match(plan.yaml, /^hunk_id: 'test-1'$/m);
  assert.match(plan.diff, /^-beta$/m);
  const exact = s.apply({ hunkId: plan.hunkId, owner: 'me', content: v1 });
  assert.equal(exact.contextMatch, 'exact');
  assert.equal(exact.content, 'alpha\nBETA\ngamma\n');
  assert.throws(
    () => s.apply({ hunkId: plan.hunkId, owner: 'me', content: exact.content }),
    (e) => e.code === 'HUNK_NOT_FOUND' && /status: error/.test(e.yaml),
  );

  const plan2 = s.prepareRangeEdit({
    path: 'a.txt',
    content: exact.content,
    range: '3',
    newText: 'GAMMA',
    owner: 'me',
  });
  const shifted = 'zero\r\n' + exact.content.replace(/\n/g, '\r\n');
  const fuzz = s.apply({ hunkId: plan2.hunkId, owner: 'me', content: shifted });
  assert.equal(fuzz.contextMatch, 'fuzz');
  assert.equal(fuzz.content, 'zero\r\nalpha\r\nBETA\r\nGAMMA\r\n');
  assert.match(fuzz.evidence.fileDigestBefore, /^fnv1a64:[0-9a-f]{16}$/);
});

test('deferConsume keeps a plan live until consume(), so a failed write can be retried', () => {
  const { s } = session();
  const v1 = 'alpha\nbeta\n';
  const plan = s.prepareRangeEdit({
    path: 'a.txt',
    content: v1,
    range: '2',
    newText: 'BETA',
    owner: 'me',
  });
  const opts = { hunkId: plan.hunkId, owner: 'me', content: v1, deferConsume: true };
  assert.equal(s.apply(opts).content, 'alpha\nBETA\n');
  // (the write failed) the plan is still there and applies the same way
  assert.deepEqual(
    s.pending().map((p) => p.hunkId),
    [plan.hunkId],
  );
  assert.equal(s.apply(opts).content, 'alpha\nBETA\n');
  assert.equal(s.consume(plan.hunkId), true);
  assert.equal(s.consume(plan.hunkId), false);
  assert.deepEqual(s.pending(), []);
  assert.throws(
    () => s.apply(opts),
    (e) => e.code === 'HUNK_NOT_FOUND',
  );
  assert.throws(
    () => s.consume(42),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
});

test('a rejected apply returns the current text unchanged and keeps the plan', () => {
  const { s } = session();
  const plan = s.prepareRangeEdit({
    path: 'b.txt',
    content: 'a\nb\nc\n',
    range: '2',
    newText: 'B',
    owner: 'me',
  });
  const changed = 'a\nX\nc\n';
  const r = s.apply({ hunkId: plan.hunkId, owner: 'me', content: changed });
  assert.equal(r.contextMatch, 'rejected');
  assert.equal(r.reason, 'CONTENT_CHANGED');
  assert.equal(r.changed, false);
  assert.equal(r.content, changed);
  assert.equal(s.pending('b.txt').length, 1);
});

test('ownership and expiry follow the injected clock', () => {
  const { s, tick } = session();
  const plan = s.prepareAppend({ path: 'c.txt', content: 'x\n', newText: 'y', owner: 'me' });
  assert.throws(
    () => s.apply({ hunkId: plan.hunkId, owner: 'other', content: 'x\n' }),
    (e) => e.code === 'WRONG_OWNER',
  );
  tick(s.ttlMs + 1);
  assert.throws(
    () => s.apply({ hunkId: plan.hunkId, owner: 'me', content: 'x\n' }),
    (e) => e.code === 'HUNK_NOT_FOUND' && e.reason === 'expired',
  );
});

test('insert anchors: ambiguity needs an occurrence', () => {
  const { s } = session();
  const content = 'fn a() {}\nfn b() {}\n';
  assert.throws(
    () =>
      s.prepareInsertAfter({ path: 'd.rs', content, anchor: 'fn ', newText: '// x', owner: 'me' }),
    (e) => e.code === 'ANCHOR_AMBIGUOUS' && e.yaml.includes('status: error'),
  );
  const plan = s.prepareInsertAfter({
    path: 'd.rs',
    content,
    anchor: 'fn ',
    occurrence: 'last',
    newText: '// after b',
    owner: 'me',
  });
  assert.equal(
    s.apply({ hunkId: plan.hunkId, owner: 'me', content }).content,
    'fn a() {}\nfn b() {}\n// after b\n',
  );
});

test('withPathLock serialises read → apply → write per path, in call order', async () => {
  const { s } = session();
  let file = '1\n2\n3\n';
  const p1 = s.prepareRangeEdit({
    path: 'e.txt',
    content: file,
    range: '1',
    newText: 'one',
    owner: 'me',
  });
  const p2 = s.prepareRangeEdit({
    path: 'e.txt',
    content: file,
    range: '3',
    newText: 'three',
    owner: 'me',
  });
  const order = [];
  const applyLater = (plan, delay) =>
    ek.withPathLock('e.txt', async () => {
      const before = file;
      await new Promise((r) => setTimeout(r, delay));
      const r = s.apply({ hunkId: plan.hunkId, owner: 'me', content: before });
      file = r.content;
      order.push(plan.hunkId);
    });
  await Promise.all(
    s
      .applyOrder([p2.hunkId, p1.hunkId])
      .map((id, i) => applyLater(id === p1.hunkId ? p1 : p2, 10 - i * 5)),
  );
  assert.deepEqual(order, [p1.hunkId, p2.hunkId]);
  assert.equal(file, 'one\n2\nthree\n');
});

test('free functions: overwrite guard, new file, file view', () => {
  assert.throws(
    () =>
      ek.checkOverwrite({
        path: 'f',
        content: 'a\n',
        newContent: 'b\n',
        knownOldTotalLines: 5,
        knownOldTotalBytes: 2,
      }),
    (e) => e.code === 'SNAPSHOT_MISMATCH',
  );
  const patch = '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
  // The snapshot an agent saw comes from formatFileView.
  const seen = ek.formatFileView({ path: 'f', content: 'a\n' });
  const snapshot = { knownOldTotalLines: seen.totalLines, knownOldTotalBytes: seen.sizeBytes };
  assert.throws(
    () => ek.checkOverwrite({ path: 'f', content: 'a\n', newContent: patch, ...snapshot }),
    (e) => e.code === 'SUSPICIOUS_DIFF',
  );
  const ok = ek.checkOverwrite({
    path: 'f',
    content: 'a\n',
    newContent: patch,
    ...snapshot,
    contentFormat: 'diff',
  });
  assert.equal(ok.content, patch);
  assert.throws(
    () => ek.checkNewFile({ path: 'g', exists: true, isFile: true, newContent: 'x' }),
    (e) => e.code === 'FILE_EXISTS',
  );
  assert.equal(ek.checkNewFile({ path: 'g', exists: false, newContent: 'x' }).content, 'x\n');
  const view = ek.formatFileView({ path: 'h', content: '中文\n😀\n', showLineNumbers: true });
  assert.match(view.yaml, /^total_lines: 2$/m);
  assert.equal(view.sizeBytes, 12);
});

test('hostile arguments to the planner are typed errors', () => {
  const { s } = session();
  assert.throws(
    () => s.prepareRangeEdit(null),
    (e) => ek.isEditkitError(e),
  );
  assert.throws(
    () =>
      s.prepareRangeEdit({
        get path() {
          throw new Error('x');
        },
      }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(
    () => s.prepareRangeEdit({ path: 'x', content: 'a\ud800', range: '1', newText: 'b' }),
    (e) => e.code === 'INVALID_TEXT',
  );
  assert.throws(
    () => new ek.FileEditSession({ now: () => NaN }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(
    () => s.apply('nope'),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  // Still works afterwards.
  const plan = s.prepareAppend({ path: 'z', content: '', newText: 'ok', owner: 'me' });
  assert.equal(s.apply({ hunkId: plan.hunkId, owner: 'me', content: '' }).content, 'ok\n');
});

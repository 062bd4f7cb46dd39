// SiYuan at kernel speed: the kernel requests one apply makes, counted on
// the double's request log (counts, never times). With the kernel's batch
// endpoints an apply of n SEARCH/REPLACE hunks on n blocks of one document
// makes a constant number of requests (BENCHMARKS §3: at most 8 for any
// n ≤ 100); block by block, and on a kernel without the batch endpoints,
// the count grows with n. Both paths write the same note.
import assert from 'node:assert/strict';
import { createKernel, ek, kernelTest, Lute, testing } from './kernel-support.mjs';

const BOX = '20240801000000-boxreqs';
const DOC = '20240801000000-docreqs';
const id = (n) => `20240801000000-p${String(n).padStart(6, '0')}`;

/** A document of `n` paragraphs, and a diff with one SEARCH/REPLACE hunk on each. */
async function setup(n, path) {
  const blocks = Array.from({ length: n }, (_, i) => `第 ${i} 段，原来的文字。\n{: id="${id(i)}"}`);
  const double = await createKernel({
    documents: [{ id: DOC, title: 'requests', box: BOX, hpath: '/requests', blocks }],
    notebooks: [{ id: BOX, name: 'requests' }],
    lute: Lute,
    batchEndpoints: path !== 'fallback',
  });
  const host = ek.createSiyuanHost({
    request: double.request,
    lute: Lute,
    batch: path !== 'block',
  });
  const diff = Array.from(
    { length: n },
    (_, i) => `@@${id(i)}@@\n<<<<<<< SEARCH\n原来的文字\n=======\n新的文字\n>>>>>>> REPLACE`,
  ).join('\n\n');
  return { double, host, diff };
}

/** Requests per apply, by path and n (the figures bench/node/bench.mjs prints). */
const EXPECTED = {
  // flush, SQL rows, kramdown (1), flush + re-check (1), batchUpdateBlock, flush, SQL verify
  batch: { 1: 8, 3: 8, 10: 8, 100: 8 },
  // flush, SQL rows, kramdown (1), flush + re-check (1), updateBlock ×n, flush, SQL verify
  block: { 1: 8, 3: 10, 10: 17, 100: 107 },
  // a kernel without the batch endpoints: kramdown in one request, the
  // batch update answered 404 once, then one updateBlock per block
  fallback: { 1: 9, 3: 11, 10: 18, 100: 108 },
};

for (const path of ['batch', 'block', 'fallback']) {
  kernelTest(
    `an apply of n SEARCH/REPLACE hunks makes ${path === 'batch' ? 'at most 8' : 'the counted'} kernel requests (${path})`,
    async () => {
      for (const n of [1, 3, 10, 100]) {
        const { double, host, diff } = await setup(n, path);
        const report = await ek.applyBlockDiff(diff, host);
        assert.equal(
          report.ok,
          true,
          `${path} n=${n}: ${report.summary} ${JSON.stringify(report.results.filter((r) => r.error))}`,
        );
        const requests = double.calls.length;
        assert.equal(
          requests,
          EXPECTED[path][n],
          `${path} n=${n}: ${double.calls.map((c) => c.path).join(', ')}`,
        );
        if (path === 'batch') assert.ok(requests <= 8);
        await host.flushTransaction();
        for (let i = 0; i < n; i++)
          assert.equal(
            (await double.block(id(i))).markdown,
            `第 ${i} 段，新的文字。`,
            `${path} n=${n}`,
          );
      }
    },
  );
}

kernelTest(
  'the batch update is one kernel transaction: a failure in it writes none of the blocks, and the rollback has nothing to undo',
  async () => {
    const { double, host, diff } = await setup(10, 'batch');
    double.failNextTransaction('/api/block/batchUpdateBlock');
    const report = await ek.applyBlockDiff(diff, host);
    assert.equal(report.ok, false);
    assert.ok(report.results.every((r) => r.error?.code === 'WRITE_VERIFY_FAILED'));
    assert.equal(report.rollback?.ok, true, report.summary);
    await host.flushTransaction();
    for (let i = 0; i < 10; i++)
      assert.equal((await double.block(id(i))).markdown, `第 ${i} 段，原来的文字。`);
  },
);

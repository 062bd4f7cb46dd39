// Cold start of the web build in headless Chromium (BENCHMARKS.md §4):
// fetch + compile + instantiate + first call, from localhost, each run in a
// fresh browser context (empty cache). Prints the median of 7 runs, next
// to an in-run baseline: fetch + WebAssembly.compile of the same bytes
// alone (also in fresh contexts), the floor any loader of this module pays.
//   node bench/browser/cold-start.mjs     (after scripts/build.sh)
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const server = await serve(0);
// COLD_START_BEFORE: the dist/ folder of an earlier build, timed in the same
// run (its own server, the same page) for a before/after line.
const beforeDist = process.env.COLD_START_BEFORE;
const beforeServer = beforeDist ? await serve(0, '127.0.0.1', { pkg: beforeDist }) : undefined;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: FLAGS,
});
const times = [];
const baseline = [];
const parts = [];
const beforeTimes = [];
const beforeBaseline = [];
const run = async (query, at = server) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${at.url}cold-start.html${query}`);
  await page.waitForSelector('body[data-ok="true"]', { state: 'attached', timeout: 20000 });
  const d = await page.evaluate(() => ({ ...document.body.dataset }));
  await context.close();
  return d;
};
try {
  for (let i = 0; i < 7; i++) {
    // Interleaved, so both see the same machine load.
    baseline.push(Number((await run('?baseline')).coldStartMs));
    const d = await run('');
    times.push(Number(d.coldStartMs));
    if (beforeServer) {
      beforeBaseline.push(Number((await run('?baseline', beforeServer)).coldStartMs));
      beforeTimes.push(Number((await run('', beforeServer)).coldStartMs));
    }
    parts.push(
      `import ${Number(d.importMs).toFixed(0)} + init ${Number(d.initMs).toFixed(0)} + call ${Number(d.firstCallMs).toFixed(0)}`,
    );
  }
} finally {
  await browser.close();
  await server.close();
  await beforeServer?.close();
}
times.sort((a, b) => a - b);
baseline.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const floor = baseline[Math.floor(baseline.length / 2)];
console.log(`  runs (ms): ${parts.join('; ')}`);
console.log(
  `cold start in headless Chromium (fetch + compile + instantiate + first call): median ${median.toFixed(1)} ms of ${times.map((t) => t.toFixed(0)).join(', ')} — target ≤ 50 ms: ${median <= 50 ? 'holds' : 'MISSED'}`,
);
console.log(
  `  baseline, fetch + WebAssembly.compile of the same bytes alone: median ${floor.toFixed(1)} ms; editkit's loader and first call add ${(median - floor).toFixed(1)} ms (${(median / floor).toFixed(2)}× the floor)`,
);
if (beforeServer) {
  const middle = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const [then, thenFloor] = [middle(beforeTimes), middle(beforeBaseline)];
  console.log(
    `  before (${beforeDist}), same run: median ${then.toFixed(1)} ms on a floor of ${thenFloor.toFixed(1)} ms; now / before ${(median / then).toFixed(2)}×`,
  );
}

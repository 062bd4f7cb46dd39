// Cold start of the web build in headless Chromium (BENCHMARKS.md §4):
// fetch + compile + instantiate + first call, from localhost, each run in a
// fresh browser context (empty cache). Prints the median of 7 runs.
//   node bench/browser/cold-start.mjs     (after scripts/build.sh)
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const server = await serve(0);
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: FLAGS });
const times = [];
const parts = [];
try {
  for (let i = 0; i < 7; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}cold-start.html`);
    await page.waitForSelector('body[data-ok="true"]', { state: 'attached', timeout: 20000 });
    const d = await page.evaluate(() => ({ ...document.body.dataset }));
    times.push(Number(d.coldStartMs));
    parts.push(`import ${Number(d.importMs).toFixed(0)} + init ${Number(d.initMs).toFixed(0)} + call ${Number(d.firstCallMs).toFixed(0)}`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`  runs (ms): ${parts.join('; ')}`);
console.log(`cold start in headless Chromium (fetch + compile + instantiate + first call): median ${median.toFixed(1)} ms of ${times.map((t) => t.toFixed(0)).join(', ')} — target ≤ 50 ms: ${median <= 50 ? 'holds' : 'MISSED'}`);

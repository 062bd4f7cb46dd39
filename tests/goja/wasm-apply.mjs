// The wasm figure beside the goja bench (bench/main.go): the median time
// of `runs` applies of an n-hunk block diff through the package (the
// WebAssembly core, the same TypeScript layer and adapter) over the
// kernel double at `url`, the one the goja run uses. Prints { ms }.
//   node tests/goja/wasm-apply.mjs <url> <n> <runs> <first text index>
import { ek } from '../node/support.mjs';

const [url, n, runs, from] = process.argv.slice(2);
const host = ek.createSiyuanHost({ request: ek.kernelRequest({ baseUrl: url }) });
const id = (i) => `20240801000000-p${String(i).padStart(6, '0')}`;
const times = [];
for (let k = Number(from); k < Number(from) + Number(runs); k++) {
  const diff = Array.from(
    { length: Number(n) },
    (_, i) => `@@${id(i)}@@\n<<<<<<< SEARCH\n文字 ${k}\n=======\n文字 ${k + 1}\n>>>>>>> REPLACE`,
  ).join('\n\n');
  const t = performance.now();
  const report = await ek.applyBlockDiff(diff, host);
  times.push(performance.now() - t);
  if (!report.ok) throw new Error(report.summary);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ ms: times[Math.floor(times.length / 2)] }));

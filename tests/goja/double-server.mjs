// The kernel double over HTTP on loopback, for the goja harness
// (sandbox.go's siyuan.client.fetch): every /api/… request is answered by
// `createKernelDouble` over the four fixture documents, as the real kernel
// answers it. Prints `listening <port>` when ready. The harness's levers:
//   GET  /__double/kramdown?id=…  → { kramdown }: a block's stored Markdown
//   POST /__double/hold { path, ms } → the next request to `path` is
//                                      answered `ms` later (a stalled kernel)
//   GET  /__double/calls          → { calls: [path, …] }: the requests served
//   POST /__double/fail { path, status, body } → the next request to
//                                      `path` is answered `status` with `body`
// With EDITKIT_BENCH_BLOCKS=n the double also holds the bench's document
// (20240801000000-docbench): n paragraphs `第 i 段，文字 0。`, ids
// 20240801000000-p000000…
//   node tests/goja/double-server.mjs
import { createServer } from 'node:http';
import { BOX, fixtureDouble } from '../node/kernel-support.mjs';

const benchBlocks = Number(process.env.EDITKIT_BENCH_BLOCKS ?? 0);
const benchId = (i) => `20240801000000-p${String(i).padStart(6, '0')}`;
const double = await fixtureDouble(
  benchBlocks > 0
    ? {
        documents: [
          {
            id: '20240801000000-docbench',
            title: 'bench',
            box: BOX,
            hpath: '/bench',
            blocks: Array.from(
              { length: benchBlocks },
              (_, i) => `第 ${i} 段，文字 0。\n{: id="${benchId(i)}"}`,
            ),
          },
        ],
      }
    : {},
);
const holds = new Map();
const failures = new Map();

async function answer(method, path, query, body) {
  if (path === '/__double/kramdown') return { kramdown: double.kramdown(query.get('id') ?? '') };
  if (path === '/__double/calls') return { calls: double.calls.map((c) => c.path) };
  if (path === '/__double/fail') {
    failures.set(body.path, { status: body.status, body: body.body });
    return { failing: body.path };
  }
  if (path === '/__double/hold') {
    holds.set(body.path, body.ms);
    return { held: body.path };
  }
  if (method !== 'POST' || !path.startsWith('/api/'))
    return { code: 404, msg: `no ${method} ${path}`, data: null };
  const ms = holds.get(path);
  if (ms !== undefined) {
    holds.delete(path);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
  return double.request(path, body);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = Buffer.concat(chunks).toString('utf8');
    const failure = failures.get(url.pathname);
    if (failure) {
      failures.delete(url.pathname);
      res.writeHead(failure.status, { 'Content-Type': 'text/plain' });
      res.end(failure.body);
      return;
    }
    let reply;
    try {
      reply = await answer(
        req.method,
        url.pathname,
        url.searchParams,
        text ? JSON.parse(text) : {},
      );
    } catch (e) {
      reply = { code: -1, msg: String(e?.message ?? e), data: null };
    }
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(reply));
  });
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
// The harness ends this process by closing its stdin.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

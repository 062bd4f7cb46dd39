// A static server for the demo: www/ at /, the built package (pkg/dist) at
// /pkg/, vditor's lute.min.js at /vendor/lute/. Localhost only; no network access needed.
//   node scripts/serve.mjs [port]        (default 8080, or $PORT)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MOUNTS = [
  ['/pkg/', join(root, 'pkg', 'dist')],
  // Lute (SiYuan's Markdown engine) for the in-memory kernel double.
  ['/vendor/lute/', join(root, 'node_modules', 'vditor', 'dist', 'js', 'lute')],
  ['/', join(root, 'www')],
];
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

async function resolve(urlPath) {
  const path = decodeURIComponent(urlPath.split('?')[0]);
  for (const [prefix, dir] of MOUNTS) {
    if (!path.startsWith(prefix)) continue;
    let file = normalize(join(dir, path.slice(prefix.length)));
    if (!file.startsWith(dir + sep) && file !== dir) return null;
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
      return file;
    } catch {
      return null;
    }
  }
  return null;
}

/** Starts the server; resolves to { url, close }. Port 0 picks a free one. */
export function serve(port = 8080, host = '127.0.0.1') {
  const server = createServer(async (req, res) => {
    const file = await resolve(req.url ?? '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(await readFile(file));
  });
  return new Promise((ok) => {
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({ url: `http://${host}:${actual}/`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await serve(port);
  console.log(`editkit demo: ${url}  (Ctrl+C to stop)`);
}

// A static server for the demo: www/ at /, the built package (pkg/dist) at
// /pkg/, vditor's lute.min.js at /vendor/lute/, and — when the shared
// fixtures sit next to the repo (../shared/fixtures/siyuan/) — those
// documents, read-only, at /fixtures/siyuan/ (the demo's sample notebook;
// they are served in place, never copied into the repo). Localhost only; no
// network access needed. GET and HEAD only. /demo-config.json says whether
// the fixtures are served.
//   node scripts/serve.mjs [port]        (default 8080, or $PORT)
import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the shared SiYuan fixtures live when the repo sits next to them. */
export const DEFAULT_FIXTURES = join(root, '..', 'shared', 'fixtures', 'siyuan');

function mounts(fixtures, pkg) {
  return [
    ['/pkg/', pkg ?? join(root, 'pkg', 'dist')],
    // Lute (SiYuan's Markdown engine) for the in-memory kernel double.
    ['/vendor/lute/', join(root, 'node_modules', 'vditor', 'dist', 'js', 'lute')],
    ...(fixtures && existsSync(fixtures) ? [['/fixtures/siyuan/', fixtures]] : []),
    ['/', join(root, 'www')],
  ];
}
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
};

async function resolve(urlPath, table) {
  let path;
  try {
    path = decodeURIComponent(urlPath.split('?')[0]);
  } catch {
    return null;
  }
  for (const [prefix, dir] of table) {
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

/**
 * Starts the server; resolves to { url, close }. Port 0 picks a free one.
 * `options.fixtures`: the folder served at /fixtures/siyuan/ (default
 * ../shared/fixtures/siyuan; null or a missing folder serves none, and the
 * demo falls back to its built-in notebook). `options.pkg`: the dist folder
 * served at /pkg/ (default pkg/dist; the cold-start bench serves an earlier
 * build beside it).
 */
export function serve(port = 8080, host = '127.0.0.1', options = {}) {
  const fixtures = options.fixtures === undefined ? DEFAULT_FIXTURES : options.fixtures;
  const table = mounts(fixtures, options.pkg);
  // What the page may load, so it never probes for a file that is not
  // there (a 404 would be a console error on every load).
  const config = JSON.stringify({ fixtures: Boolean(fixtures && existsSync(fixtures)) });
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { 'content-type': 'text/plain', allow: 'GET, HEAD' }).end('read-only');
      return;
    }
    if ((req.url ?? '').split('?')[0] === '/demo-config.json') {
      res.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : config);
      return;
    }
    const file = await resolve(req.url ?? '/', table);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : await readFile(file));
  });
  return new Promise((ok) => {
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      ok({
        url: `http://${host}:${actual}/`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const port = Number(process.argv[2] ?? process.env.PORT ?? 8080);
  const { url } = await serve(port);
  console.log(`editkit demo: ${url}  (Ctrl+C to stop)`);
}

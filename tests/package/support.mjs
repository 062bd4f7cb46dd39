// Shared by the bundler suites: the packed package installed into scratch
// projects (as package.test.mjs does), and a built browser bundle served by
// node:http and run in Node (run-bundle.mjs), so a test sees the bundle
// fetch the wasm from the URL it computed.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
  });

/** A scratch folder with the packed package; `remove()` when done. */
export function packPackage(prefix) {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const name = npm(['pack', join(repo, 'pkg'), '--pack-destination', work], work)
    .trim()
    .split('\n')
    .pop();
  const tarball = join(work, name);
  return {
    work,
    remove: () => rmSync(work, { recursive: true, force: true }),
    /** A project with the tarball, `deps` and `files`, installed (from the npm cache when it can). */
    project(dirName, files, deps = {}) {
      const dir = join(work, dirName);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: dirName,
          private: true,
          version: '0.0.0',
          dependencies: { editkit: `file:${tarball}`, ...deps },
        }),
      );
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), text);
      }
      npm(['install', '--prefer-offline'], dir);
      return dir;
    },
  };
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};

/**
 * Serves `root` over HTTP on 127.0.0.1 as a static host does (a 404 for a
 * missing file); `requests` lists what was asked for.
 */
export async function serve(root) {
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push(path);
    const file = normalize(join(root, path === '/' ? 'index.html' : path));
    if (!file.startsWith(root + sep) || !existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    requests,
    close: () => new Promise((ok) => server.close(ok)),
  };
}

/**
 * Serves `root` and runs the bundle at `path` in a Node child process as a
 * page would (`kind` 'module': an ES module whose import.meta.url is its
 * http URL; 'script': a classic script), until the app calls
 * `globalThis.report(result)`. Returns { result, fetched, requests }.
 */
export async function runBundle(root, path, kind) {
  const server = await serve(root);
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--experimental-vm-modules',
        '--no-warnings',
        join(repo, 'tests', 'package', 'run-bundle.mjs'),
        server.base + path,
        kind,
      ],
      { encoding: 'utf8', timeout: 20_000 },
    ).catch((e) => {
      // The end of its stderr: the error (a minified line of the bundle before it).
      throw new Error(`${path} failed: ${String(e.stderr).slice(-3000)}`);
    });
    assert.ok(stdout.trim(), 'the app reported no result');
    return { ...JSON.parse(stdout.trim().split('\n').pop()), requests: server.requests };
  } finally {
    await server.close();
  }
}

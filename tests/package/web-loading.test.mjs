// The browser build's loader against what servers answer where the wasm
// should be (issue 34): a dev server's fallback page, other bytes, a 404.
// pkg/dist/web.js runs in Node (fetch, Response and WebAssembly are there);
// a node:http server plays the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repo } from './support.mjs';

const dist = join(repo, 'pkg', 'dist');
const PAGE =
  '<!doctype html>\n<html><head><script type="module" src="/main.js"></script></head></html>';

async function server() {
  const answers = {
    // Vite's dev server: index.html, text/html, 200, for any missing file.
    '/node_modules/.vite/deps/editkit_bg.wasm': [200, 'text/html', PAGE],
    // A page served with no useful type (seen by its first byte).
    '/sniffed.wasm': [200, 'application/octet-stream', `\ufeff\n  ${PAGE}`],
    '/error.json': [200, 'application/json', '{"error":"no such file"}'],
    '/empty.wasm': [200, 'application/octet-stream', ''],
    '/missing.wasm': [404, 'text/plain', 'Not Found'],
    '/editkit_bg.wasm': [200, 'application/wasm', readFileSync(join(dist, 'editkit_bg.wasm'))],
  };
  const s = createServer((req, res) => {
    const [status, type, body] = answers[req.url] ?? [500, 'text/plain', 'unexpected'];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  return { base: `http://127.0.0.1:${s.address().port}`, close: () => s.close() };
}

/** init's rejection as plain data. */
async function initError(ek, module_or_path) {
  try {
    await ek.default({ module_or_path });
  } catch (e) {
    assert.ok(ek.isEditkitError(e), String(e));
    return { code: e.code, subject: e.subject, message: e.message, cause: String(e.cause) };
  }
  assert.fail(`init loaded ${module_or_path}`);
}

for (const entry of ['web.js', 'web-external.js']) {
  test(`${entry}: a page, other bytes or a 404 where the wasm should be: INVALID_ARGUMENT saying what to do`, async () => {
    const ek = await import(pathToFileURL(join(dist, entry)).href);
    const { base, close } = await server();
    try {
      const page = await initError(ek, `${base}/node_modules/.vite/deps/editkit_bg.wasm`);
      assert.equal(page.code, 'INVALID_ARGUMENT');
      assert.equal(page.subject, 'module_or_path');
      assert.match(
        page.message,
        /^init: could not load the wasm module from "http:[^"]+": http:\S+\/editkit_bg\.wasm answered with an HTML page \(content-type text\/html\) instead of the wasm\. A page where the wasm should be is usually a dev server's fallback \(its index\.html\) for a file it does not have; /,
      );
      // What to do: the Vite line, the other bundlers' recipes, SiYuan's copy step.
      assert.match(
        page.message,
        /with Vite, `import wasmUrl from "editkit\/editkit_bg\.wasm\?url"; await init\(\{ module_or_path: wasmUrl \}\)`/,
      );
      assert.match(page.message, /editkit's README \("With a bundler"\) has the config/);
      assert.match(page.message, /optimizeDeps: \{ exclude: \['editkit'\] \}/);
      assert.match(page.message, /\/plugins\/<plugin name>\/editkit_bg\.wasm/);
      assert.doesNotMatch(page.message, /magic word/);
      assert.match(page.cause, /^Error: http:\S+ answered with an HTML page/);

      const sniffed = await initError(ek, `${base}/sniffed.wasm`);
      assert.match(
        sniffed.message,
        /answered with an HTML page \("<!doctype html>.*…"\) instead of the wasm\. A page where the wasm should be is usually a dev server's fallback/,
      );

      const json = await initError(ek, `${base}/error.json`);
      assert.match(
        json.message,
        /answered with bytes that are not a wasm module \(they begin 7b 22 65 72, "\{"error":"no such file"\}…", where a wasm module begins 00 61 73 6d\) instead of the wasm\. Check that the URL serves editkit_bg\.wasm/,
      );
      const empty = await initError(ek, `${base}/empty.wasm`);
      assert.match(empty.message, /answered with an empty body instead of the wasm/);

      const missing = await initError(ek, `${base}/missing.wasm`);
      assert.match(
        missing.message,
        /HTTP 404 Not Found fetching http:\S+\/missing\.wasm\. editkit_bg\.wasm is not at that URL\. .*import wasmUrl from "editkit\/editkit_bg\.wasm\?url"/,
      );

      // A Response handed over: the same check.
      const response = await initError(
        ek,
        fetch(`${base}/node_modules/.vite/deps/editkit_bg.wasm`),
      );
      assert.match(response.message, /^init: could not load the wasm module from a Promise: /);
      assert.match(response.message, /answered with an HTML page/);

      // Nothing was left half-loaded: the wasm itself loads.
      await ek.default({ module_or_path: `${base}/editkit_bg.wasm` });
      assert.equal(ek.findMatch('a\nb', 'b').matches[0].startLine, 2);
    } finally {
      close();
    }
  });
}

test('web.js has the literal bundlers emit as an asset; web-external.js has no import.meta at all', () => {
  const web = readFileSync(join(dist, 'web.js'), 'utf8');
  const external = readFileSync(join(dist, 'web-external.js'), 'utf8');
  assert.match(web, /new URL\("editkit_bg\.wasm",import\.meta\.url\)/);
  // Neither the literal (Vite's library mode would inline it) nor any other
  // import.meta: a SiYuan plugin is a CommonJS bundle, which has none (Vite 8
  // warns on every such build; esbuild leaves it empty).
  assert.doesNotMatch(external, /import\.meta/);
});

test('web-external.js: a bare init() rejects, saying the URL is needed and how to pass it', async () => {
  // A module instance of its own (the test above loaded the wasm in its one).
  const ek = await import(`${pathToFileURL(join(dist, 'web-external.js')).href}?bare`);
  const e = await ek.default().then(
    () => assert.fail('init() loaded'),
    (e) => e,
  );
  assert.ok(ek.isEditkitError(e), String(e));
  assert.equal(e.code, 'INVALID_ARGUMENT');
  assert.equal(e.subject, 'module_or_path');
  assert.match(
    e.message,
    /^init: editkit\/web-external does not locate the wasm by itself .*pass the URL the wasm is served at/,
  );
  assert.match(e.message, /\/plugins\/<plugin name>\/editkit_bg\.wasm/);
  // Nothing was left half-loaded: the bytes load.
  await ek.default({ module_or_path: readFileSync(join(dist, 'editkit_bg.wasm')) });
  assert.equal(ek.findMatch('a\nb', 'b').matches[0].startLine, 2);
});

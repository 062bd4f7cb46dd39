// The Node build finds its wasm next to itself, whatever globals exist.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'pkg', 'dist');

test('the ESM build loads under `node -e`, where a global __dirname names the working folder', () => {
  // node -e defines __dirname = "." as a global; the ESM build must use import.meta.url.
  const url = pathToFileURL(join(pkg, 'node.js')).href;
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      `import(${JSON.stringify(url)}).then((ek) => console.log(typeof __dirname, ek.findMatch('a\\nb', 'b').matches[0].startLine))`,
    ],
    { cwd: tmpdir(), encoding: 'utf8' },
  );
  assert.equal(out.trim(), 'string 2');
});

test('the CJS build loads with require from another folder', () => {
  const out = execFileSync(
    process.execPath,
    [
      '-e',
      `console.log(require(${JSON.stringify(join(pkg, 'node.cjs'))}).findMatch('a\\nb', 'b').matches[0].startLine)`,
    ],
    { cwd: tmpdir(), encoding: 'utf8' },
  );
  assert.equal(out.trim(), '2');
});

test('the browser build names createNodeFileHost (for bundler-resolution typings) and refuses it with the way out', async () => {
  const web = await import(pathToFileURL(join(pkg, 'web.js')).href);
  for (const [lang, said] of [
    [
      'en',
      /^createNodeFileHost needs Node \(node:fs\), and this is the browser build of editkit\./,
    ],
    ['zh', /^createNodeFileHost 需要 Node（node:fs），而这是 editkit 的浏览器构建。/],
  ]) {
    assert.throws(
      () => web.createNodeFileHost({ root: '.', lang }),
      (e) =>
        web.isEditkitError(e) &&
        e.code === 'HOST_CAPABILITY_MISSING' &&
        e.subject === 'createNodeFileHost' &&
        said.test(e.message),
    );
  }
});

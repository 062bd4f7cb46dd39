// The SiYuan plugin's core (the wasm2js build of target/plugin/, with the
// plugin's glue and pkg-template/plugin/src/runtime.ts) in Node, where
// what goja cannot show is observable: the memory growing under the
// glue's views in an engine whose ArrayBuffers have `detached` (ES2024;
// goja has none yet), the UTF-8 stand-ins over Buffer, and a trap in the
// core followed by the glue's reset. The goja harness (tests/goja) runs
// the built kernel.js itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repo } from './support.mjs';

// An engine with ArrayBuffer.prototype.detached, whose old buffers stay
// whole when wasm2js grows its memory, and no TextEncoder/TextDecoder (as
// goja): the stand-ins over Buffer are the ones used.
Object.defineProperty(ArrayBuffer.prototype, 'detached', {
  configurable: true,
  get: () => false,
});
delete globalThis.TextEncoder;
delete globalThis.TextDecoder;

const dir = mkdtempSync(join(tmpdir(), 'editkit-plugin-core-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
const entry = join(dir, 'entry.ts');
writeFileSync(
  entry,
  [
    `export { builtInCore } from ${JSON.stringify(join(repo, 'pkg-template/plugin/src/runtime.ts'))};`,
    `export { initSync } from ${JSON.stringify(join(repo, 'pkg-template/src/loader.ts'))};`,
    `export { findMatch, unifiedDiff } from ${JSON.stringify(join(repo, 'pkg-template/src/index.ts'))};`,
    `export * as glue from 'editkit-glue';`,
  ].join('\n'),
);
await build({
  entryPoints: [entry],
  outfile: join(dir, 'core.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  logLevel: 'warning',
  alias: {
    'editkit-glue': join(repo, 'target/plugin/bindgen/editkit.plugin.js'),
    'editkit-asm': join(repo, 'target/plugin/editkit-asm.js'),
  },
});
const core = await import(join(dir, 'core.mjs'));

// The instances the loader makes, to read their memory.
const instances = [];
const Instance = globalThis.WebAssembly.Instance;
globalThis.WebAssembly.Instance = function (module, imports) {
  const made = new Instance(module, imports);
  instances.push(made);
  return made;
};
core.initSync(core.builtInCore());
const memory = () => instances.at(-1).exports.memory.buffer.byteLength;

test('the JavaScript core grows its memory under the glue and every answer stays right', () => {
  const start = memory();
  const line = (i) => `第 ${i} 行：长文字🐛 and some text\r\n`;
  const content = '\uFEFF' + Array.from({ length: 60_000 }, (_, i) => line(i)).join('');
  assert.ok(content.length > 1_800_000);
  const found = core.findMatch(content, line(59_999).trimEnd());
  assert.equal(found.matches.length, 1);
  assert.equal(found.matches[0].startLine, 60_000);
  assert.ok(memory() > start + 4_000_000, `memory ${start} → ${memory()}`);
  // A second call after the growth reads and writes the new buffer.
  assert.equal(core.findMatch(content, line(7).trimEnd()).matches[0].startLine, 8);
  assert.equal(
    core.unifiedDiff('\uFEFFa 🐛\n', '\uFEFFb 🐛\n', { oldName: 'x', newName: 'x' }),
    '--- x\n+++ x\n@@ -1 +1 @@\n-\uFEFFa 🐛\n+\uFEFFb 🐛\n',
  );
});

test('a trap in the JavaScript core is a WebAssembly.RuntimeError, and the reset makes a working instance', () => {
  const before = instances.length;
  // An allocation of nearly 4 GB: the allocator aborts (`unreachable`).
  assert.throws(
    () => instances.at(-1).exports.__wbindgen_export(0xfffffff0, 1),
    (e) => e instanceof globalThis.WebAssembly.RuntimeError && e.message === 'unreachable',
  );
  core.glue.__wbg_reset_state();
  assert.equal(instances.length, before + 1);
  assert.equal(core.findMatch('一 🐛\n二\n', '二').matches[0].startLine, 2);
});

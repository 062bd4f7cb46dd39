// Assembles pkg/ (the npm package) from the wasm-bindgen output in
// target/bindgen/ and the TypeScript layer in pkg-template/src/.
//   node pkg-template/build.mjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { patchGlue, reportAsyncFailures } from './glue.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const template = join(root, 'pkg-template');
// EDITKIT_BINDGEN and EDITKIT_PKG_OUT assemble another wasm-bindgen output
// into another folder (scripts/size-grid.sh: one per build variant); such a
// variant is the JS and the wasm only (no declarations, no test build).
const variant = process.env.EDITKIT_PKG_OUT !== undefined;
const bindgen = process.env.EDITKIT_BINDGEN ?? join(root, 'target', 'bindgen');
const out = process.env.EDITKIT_PKG_OUT ?? join(root, 'pkg');
const dist = join(out, 'dist');
const generatedGlue = join(bindgen, 'editkit.js');
const glue = join(bindgen, 'editkit.fast.js');
const wasm = join(bindgen, 'editkit_bg.opt.wasm');

writeFileSync(glue, patchGlue(readFileSync(generatedGlue, 'utf8'), generatedGlue));

rmSync(out, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  alias: { 'editkit-glue': glue },
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
};
// The browser entry is minified (names kept, for stack traces): a page
// that loads it unbundled parses 114 KB instead of 171 KB, which is most
// of the loader's share of the cold start (docs/PERFORMANCE.md, cut 7).
// Twice (web.ts says why): web.js with the literal
// `new URL('editkit_bg.wasm', import.meta.url)` that bundlers turn into an
// emitted asset, and web-external.js with no import.meta at all, for bundles
// that serve the wasm themselves (a SiYuan plugin, a CommonJS bundle: Vite's
// library mode would inline the wasm, and CommonJS has no import.meta).
for (const [file, asset] of [
  ['web.js', true],
  ['web-external.js', false],
]) {
  await build({
    ...common,
    entryPoints: [join(template, 'src/web.ts')],
    outfile: join(dist, file),
    format: 'esm',
    platform: 'neutral',
    minify: true,
    keepNames: true,
    define: { EDITKIT_WASM_ASSET: String(asset) },
  });
}
await build({
  ...common,
  entryPoints: [join(template, 'src/node.ts')],
  outfile: join(dist, 'node.js'),
  format: 'esm',
  platform: 'node',
});
await build({
  ...common,
  entryPoints: [join(template, 'src/node.ts')],
  outfile: join(dist, 'node.cjs'),
  format: 'cjs',
  platform: 'node',
  // The CJS build locates the wasm with __dirname; the glue's default
  // `new URL(…, import.meta.url)` path is only used by the web build.
  logOverride: { 'empty-import-meta': 'silent' },
});
await build({
  ...common,
  entryPoints: [join(template, 'src/testing/index.ts')],
  outfile: join(dist, 'testing.js'),
  format: 'esm',
  platform: 'neutral',
});
await build({
  ...common,
  entryPoints: [join(template, 'src/testing/index.ts')],
  outfile: join(dist, 'testing.cjs'),
  format: 'cjs',
  platform: 'neutral',
});
copyFileSync(wasm, join(dist, 'editkit_bg.wasm'));
if (variant) {
  console.log(`${out} assembled (variant of ${bindgen})`);
  process.exit(0);
}

// The test build (not in the package, SPEC §12): the Node entry plus the
// trap hook the recovery test needs, over the wasm built with
// `--features test-hooks` (scripts/build.sh).
const testBuild = join(root, 'target', 'test-build');
const testGlueGenerated = join(root, 'target', 'bindgen-test', 'editkit.js');
const testGlue = join(root, 'target', 'bindgen-test', 'editkit.reporting.js');
writeFileSync(
  testGlue,
  reportAsyncFailures(readFileSync(testGlueGenerated, 'utf8'), testGlueGenerated),
);
mkdirSync(testBuild, { recursive: true });
await build({
  ...common,
  alias: { 'editkit-glue': testGlue },
  entryPoints: [join(root, 'tests', 'build', 'node-with-hooks.ts')],
  outfile: join(testBuild, 'node.js'),
  format: 'esm',
  platform: 'node',
});
copyFileSync(
  join(root, 'target', 'bindgen-test', 'editkit_bg.wasm'),
  join(testBuild, 'editkit_bg.wasm'),
);

execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(template, 'tsconfig.json')], {
  stdio: 'inherit',
});

// The same declarations for `require` (TypeScript's CommonJS consumers: a
// .cts file, or node16 resolution in a "type": "commonjs" project): a copy
// in a folder whose package.json says commonjs, so TypeScript reads them
// as CommonJS instead of refusing an ES module (TS1479).
const typesCjs = join(dist, 'types-cjs');
cpSync(join(dist, 'types'), typesCjs, { recursive: true });
writeFileSync(join(typesCjs, 'package.json'), '{ "type": "commonjs" }\n');

const cargo = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1] ?? '0.0.0';
const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
pkg.version = version;
writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
copyFileSync(join(template, 'README.md'), join(out, 'README.md'));
console.log(`pkg/ assembled: editkit@${version}`);

// editkit-mcp, beside it (its own package: the MCP SDK is its dependency,
// not editkit's).
await import('./mcp/build.mjs');

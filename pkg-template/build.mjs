// Assembles pkg/ (the npm package) from the wasm-bindgen output in
// target/bindgen/ and the TypeScript layer in pkg-template/src/.
//   node pkg-template/build.mjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const template = join(root, 'pkg-template');
const out = join(root, 'pkg');
const dist = join(out, 'dist');
const glue = join(root, 'target', 'bindgen', 'editkit.js');
const wasm = join(root, 'target', 'bindgen', 'editkit_bg.opt.wasm');

rmSync(out, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const common = {
  bundle: true,
  alias: { 'editkit-glue': glue },
  target: 'es2020',
  logLevel: 'warning',
  legalComments: 'none',
};
await build({ ...common, entryPoints: [join(template, 'src/web.ts')], outfile: join(dist, 'web.js'), format: 'esm', platform: 'neutral' });
await build({ ...common, entryPoints: [join(template, 'src/node.ts')], outfile: join(dist, 'node.js'), format: 'esm', platform: 'node' });
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
await build({ ...common, entryPoints: [join(template, 'src/testing/index.ts')], outfile: join(dist, 'testing.js'), format: 'esm', platform: 'neutral' });
await build({ ...common, entryPoints: [join(template, 'src/testing/index.ts')], outfile: join(dist, 'testing.cjs'), format: 'cjs', platform: 'neutral' });
copyFileSync(wasm, join(dist, 'editkit_bg.wasm'));

execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(template, 'tsconfig.json')], { stdio: 'inherit' });

const cargo = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1] ?? '0.0.0';
const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8'));
pkg.version = version;
writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
copyFileSync(join(template, 'README.md'), join(out, 'README.md'));
console.log(`pkg/ assembled: editkit@${version}`);

// Assembles pkg-plugin/ (the SiYuan plugin `editkit`, SPEC §13) beside
// pkg/ and pkg-mcp/, and packs pkg-plugin/package.zip, the archive
// SiYuan's bazaar installs. Run by scripts/build.sh after the wasm2js build
// of the core (target/plugin/):
//   node pkg-template/plugin/build.mjs
import { build } from 'esbuild';
import { zipSync } from 'fflate';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { patchGlue, startIfThere, viewsFollowGrownBuffers } from '../glue.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const target = join(root, 'target', 'plugin');
const out = join(root, 'pkg-plugin');

// The glue wasm-bindgen made for this build (heap-held JS values, no
// externref table), with the package's patches and two of its own.
const generatedGlue = join(target, 'bindgen', 'editkit.js');
const glue = join(target, 'bindgen', 'editkit.plugin.js');
writeFileSync(
  glue,
  startIfThere(
    viewsFollowGrownBuffers(
      patchGlue(readFileSync(generatedGlue, 'utf8'), generatedGlue),
      generatedGlue,
    ),
    generatedGlue,
  ),
);

// wasm2js writes an ES module that instantiates the core when it is
// imported, with the glue's module as its import. The loader instantiates
// (and after a trap re-instantiates) through `WebAssembly.Instance`, so the
// module becomes a function of the imports (plugin/src/runtime.ts).
const asmSource = join(target, 'editkit_bg.asm.js');
const asm = join(target, 'editkit-asm.js');
writeFileSync(asm, asmModule(readFileSync(asmSource, 'utf8'), asmSource));

function asmModule(text, file) {
  const fail = (what) => {
    throw new Error(`wasm2js output changed: ${file} ${what} (plugin/build.mjs)`);
  };
  const tail = text.indexOf('\nvar retasmFunc = asmFunc(');
  if (tail < 0) fail('no longer instantiates with `var retasmFunc = asmFunc(`');
  const names = [...text.slice(tail).matchAll(/^export var (\w+) = retasmFunc\.\1;$/gm)].map(
    (m) => m[1],
  );
  if (!names.includes('memory')) fail('exports no memory');
  // A trap (a Rust panic: `unreachable`) is a RuntimeError, as in WebAssembly.
  const trap = "function wasm2js_trap() { throw new Error('abort'); }";
  const body = text.slice(0, tail).replace(/^import \* as [\w$]+ from '[^']+';$/gm, '');
  if (body.split(trap).length !== 2) fail(`has no single \`${trap}\``);
  return [
    body.replace(
      trap,
      "function wasm2js_trap() { throw new WebAssembly.RuntimeError('unreachable'); }",
    ),
    'export function instantiate(imports) {',
    '  return asmFunc(imports);',
    '}',
    `export const EXPORT_NAMES = ${JSON.stringify(names)};`,
    '',
  ].join('\n');
}

const cargo = readFileSync(join(root, 'Cargo.toml'), 'utf8');
const version = /^version\s*=\s*"([^"]+)"/m.exec(cargo)?.[1] ?? '0.0.0';

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'i18n'), { recursive: true });
// goja runs a script, not a module: one IIFE. Minified, since goja
// compiles the whole text at load (docs/siyuan-plugin.md has the times).
await build({
  bundle: true,
  entryPoints: [join(here, 'src', 'kernel.ts')],
  outfile: join(out, 'kernel.js'),
  alias: { 'editkit-glue': glue, 'editkit-asm': asm },
  format: 'iife',
  platform: 'neutral',
  target: 'es2017',
  minify: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  define: { EDITKIT_VERSION: JSON.stringify(version) },
  banner: { js: `// editkit ${version}: safe block edits for SiYuan's agent (MIT).` },
});

const manifest = JSON.parse(readFileSync(join(here, 'plugin.json'), 'utf8'));
manifest.version = version;
writeFileSync(join(out, 'plugin.json'), JSON.stringify(manifest, null, 2) + '\n');
// The plugin's files as they are in pkg-template/plugin/, beside the two
// written above.
const COPIED = [
  'icon.png',
  'README.md',
  'README_zh_CN.md',
  'index.js',
  'i18n/en.json',
  'i18n/zh-CN.json',
];
for (const file of COPIED) copyFileSync(join(here, file), join(out, file));

// The bazaar's package.zip holds the plugin's files at its root.
const files = {};
for (const file of ['plugin.json', 'kernel.js', ...COPIED])
  files[file] = readFileSync(join(out, file));
writeFileSync(join(out, 'package.zip'), zipSync(files, { level: 9, mtime: new Date(2026, 0, 1) }));
const size = (name) => readFileSync(join(out, name)).length;
console.log(
  `pkg-plugin/ assembled: editkit ${version}, kernel.js ${size('kernel.js')} bytes, package.zip ${size('package.zip')} bytes`,
);

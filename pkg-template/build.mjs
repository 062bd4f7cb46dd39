// Assembles pkg/ (the npm package) from the wasm-bindgen output in
// target/bindgen/ and the TypeScript layer in pkg-template/src/.
//   node pkg-template/build.mjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

// wasm-bindgen copies ASCII strings into wasm memory with a JavaScript
// loop, one char at a time, before falling back to TextEncoder.encodeInto:
// ~1 ms for a 400 KB file, 30 times what encodeInto alone takes. Every
// editkit call passes whole files, so the glue encodes with encodeInto
// directly (same bytes, same allocation protocol). The build stops if the
// generated code no longer has the expected shape.
const ASCII_LOOP = `    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;`;
// (No realloc of a zero-size block: the allocator's realloc requires a
// non-empty old block, as the original code's control flow ensured.)
const ENCODE_INTO = `    // editkit: encodeInto for the whole string (see pkg-template/build.mjs).
    const len = arg.length * 3;
    let ptr = malloc(len, 1) >>> 0;
    if (len === 0) {
        WASM_VECTOR_LEN = 0;
        return ptr;
    }
    const ret = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
    if (ret.written !== len) ptr = realloc(ptr, len, ret.written, 1) >>> 0;
    WASM_VECTOR_LEN = ret.written;
    return ptr;`;
const generated = readFileSync(generatedGlue, 'utf8');
if (!generated.includes(ASCII_LOOP)) {
  throw new Error(
    'wasm-bindgen glue changed: passStringToWasm0 no longer has the ASCII loop build.mjs replaces',
  );
}

// An async export's future is polled from a microtask (js-sys queues each
// poll with queueMicrotask) and woken from a host promise's `then`
// callback, outside the stack of the JS call that started it. A trap there
// was an uncaught exception (it ends a Node process) and left the call's
// promise pending forever. The glue runs those callbacks through
// `editkitReporting`: what one throws goes to the handler the TS layer
// installs (boundary.ts: the instance is replaced and the calls in flight
// reject with INTERNAL_ERROR); a callback of an instance already replaced
// (a host that answers after the trap) is dropped, its call rejected
// already. The build stops if the glue no longer has the expected shape.
const REPORTED_CALLBACKS = [
  ['queueMicrotask(arg0);', 'queueMicrotask(editkitReporting(arg0));'],
  [
    'const ret = arg0.then(arg1, arg2);',
    'const ret = arg0.then(editkitReporting(arg1), editkitReporting(arg2));',
  ],
  ['const ret = arg0.then(arg1);', 'const ret = arg0.then(editkitReporting(arg1));'],
];
const REPORTING = `
// editkit: callbacks that poll or wake a future report what they throw
// (see pkg-template/build.mjs); boundary.ts installs the handler.
let editkitAsyncFailure = (e) => {
    throw e;
};
export function __editkitOnAsyncFailure(handler) {
    editkitAsyncFailure = handler;
}
function editkitReporting(callback) {
    if (typeof callback !== 'function') return callback;
    const instance = __wbg_instance_id;
    return (...args) => {
        try {
            return callback(...args);
        } catch (e) {
            if (instance === __wbg_instance_id) editkitAsyncFailure(e);
        }
    };
}
`;
function reportAsyncFailures(text, file) {
  for (const [from, to] of REPORTED_CALLBACKS) {
    const found = text.split(from).length - 1;
    if (found !== 1)
      throw new Error(
        `wasm-bindgen glue changed: ${file} has ${found} of \`${from}\`, build.mjs wraps exactly one`,
      );
    text = text.replace(from, to);
  }
  if (!text.includes('let __wbg_instance_id'))
    throw new Error(`wasm-bindgen glue changed: ${file} has no __wbg_instance_id`);
  return text + REPORTING;
}
writeFileSync(glue, reportAsyncFailures(generated.replace(ASCII_LOOP, ENCODE_INTO), generatedGlue));

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
// emitted asset, and web-external.js without it, for bundles that serve the
// wasm themselves (a SiYuan plugin: Vite's library mode would inline it).
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

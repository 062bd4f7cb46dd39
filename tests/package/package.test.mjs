// The npm package as a consumer gets it: `npm pack`, install the tarball
// into scratch projects, and use it from Node ESM, Node CJS, and a Vite
// build of a SiYuan-plugin-shaped bundle (CommonJS, `siyuan` external, the
// wasm fetched from /plugins/<name>/editkit_bg.wasm as a plugin does).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  mkdtempSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
  copyFileSync,
  existsSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'editkit-package-'));
let tarball;
// Each scratch project installs the package and its peers (~115 MB in all).
after(() => rmSync(work, { recursive: true, force: true }));

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
  });

before(() => {
  const name = npm(['pack', join(repo, 'pkg'), '--pack-destination', work], work)
    .trim()
    .split('\n')
    .pop();
  tarball = join(work, name);
});

function project(name, files, deps = {}) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name,
      private: true,
      version: '0.0.0',
      dependencies: { editkit: `file:${tarball}`, ...deps },
    }),
  );
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  npm(['install'], dir);
  return dir;
}

const LUTE_PATH = join(repo, 'node_modules', 'vditor', 'dist', 'js', 'lute', 'lute.min.js');

const DIFF =
  '@@20250101000000-para001@@\n<<<<<<< SEARCH\nhello\n=======\nhello, world\n>>>>>>> REPLACE';

test('the tarball holds the built package and nothing else', () => {
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  assert.ok(listing.includes('package/dist/editkit_bg.wasm'));
  assert.ok(listing.includes('package/dist/node.cjs'));
  assert.ok(listing.includes('package/dist/types/web.d.ts'));
  // CommonJS declarations for require (a folder that says "type": "commonjs").
  assert.ok(listing.includes('package/dist/types-cjs/node.d.ts'));
  assert.ok(listing.includes('package/dist/types-cjs/package.json'));
  // No test hook in the shipped code or wasm (SPEC §12).
  const wasmExports = WebAssembly.Module.exports(
    new WebAssembly.Module(readFileSync(join(repo, 'pkg', 'dist', 'editkit_bg.wasm'))),
  ).map((e) => e.name);
  assert.ok(wasmExports.includes('applyBlockDiff'));
  assert.deepEqual(
    wasmExports.filter((n) => /trap/i.test(n)),
    [],
  );
  for (const file of [
    'web.js',
    'web-external.js',
    'node.js',
    'node.cjs',
    'testing.js',
    'testing.cjs',
  ])
    assert.doesNotMatch(
      readFileSync(join(repo, 'pkg', 'dist', file), 'utf8'),
      /trapForTests/,
      file,
    );
  assert.ok(
    listing.every(
      (f) =>
        f === 'package/package.json' || f === 'package/README.md' || f.startsWith('package/dist/'),
    ),
    listing.join('\n'),
  );
});

test('Node ESM: import and call a real tool', () => {
  const dir = project('esm-app', {
    'index.mjs': `
      import { readFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      import { applyBlockDiff, validateBlockDiffFormat, isEditkitError, version } from 'editkit';
      import { createMemoryHost, loadLute } from 'editkit/testing';
      // The in-memory kernel parses with SiYuan's Lute (vditor's lute.min.js).
      const lute = loadLute(readFileSync(${JSON.stringify(LUTE_PATH)}, 'utf8'), createRequire(import.meta.url));
      const host = createMemoryHost({ lute, documents: [{ id: '20250101000000-doc0001', title: 'T', box: '20250101000000-box0001', hpath: '/T',
        blocks: [{ id: '20250101000000-para001', markdown: 'hello' }] }] });
      const report = await applyBlockDiff(${JSON.stringify(DIFF)}, host);
      let code;
      try { validateBlockDiffFormat(42); } catch (e) { code = isEditkitError(e) && e.code; }
      console.log(JSON.stringify({ version: version(), ok: report.ok, text: host.block('20250101000000-para001').markdown, code }));
    `,
  });
  const out = JSON.parse(execFileSync('node', ['index.mjs'], { cwd: dir, encoding: 'utf8' }));
  assert.deepEqual(out, {
    version: out.version,
    ok: true,
    text: 'hello, world',
    code: 'INVALID_ARGUMENT',
  });
});

test('the SiYuan plugin template’s own versions (Vite 5, vite-plugin-static-copy 1): the README’s target puts the wasm in dist/', () => {
  const dir = project(
    'siyuan-plugin-template-versions',
    {
      'src/index.js': `
        import init from 'editkit/web-external';
        export default async function onload(name) { await init({ module_or_path: '/plugins/' + name + '/editkit_bg.wasm' }); }
      `,
      'vite.config.mjs': `
        import { viteStaticCopy } from 'vite-plugin-static-copy';
        export default {
          plugins: [
            viteStaticCopy({
              targets: [{ src: './node_modules/editkit/dist/editkit_bg.wasm', dest: './' }],
            }),
          ],
          build: {
            outDir: 'dist',
            emptyOutDir: true,
            lib: { entry: 'src/index.js', formats: ['cjs'], fileName: () => 'index.js' },
            rollupOptions: { external: ['siyuan'] },
          },
        };
      `,
    },
    { vite: '5.4.9', 'vite-plugin-static-copy': '1.0.6' },
  );
  execFileSync(join(dir, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.deepEqual(readdirSync(join(dir, 'dist')).sort(), ['editkit_bg.wasm', 'index.js']);
  assert.deepEqual(
    readFileSync(join(dir, 'dist', 'editkit_bg.wasm')),
    readFileSync(join(dir, 'node_modules', 'editkit', 'dist', 'editkit_bg.wasm')),
  );
});

test('Node CJS: require and call a real tool', () => {
  const dir = project('cjs-app', {
    'index.cjs': `
      const { FileEditSession, formatFileView } = require('editkit');
      const s = new FileEditSession({ now: () => 1000 });
      const plan = s.prepareRangeEdit({ path: 'a.txt', content: 'a\\nb\\n', range: '2', newText: 'B', owner: 'me' });
      const applied = s.apply({ hunkId: plan.hunkId, owner: 'me', content: 'a\\nb\\n' });
      console.log(JSON.stringify({ content: applied.content, match: applied.contextMatch, lines: formatFileView({ content: 'x\\n' }).totalLines }));
    `,
  });
  const out = JSON.parse(execFileSync('node', ['index.cjs'], { cwd: dir, encoding: 'utf8' }));
  assert.deepEqual(out, { content: 'a\nB\n', match: 'exact', lines: 1 });
});

// The build section both plugin recipes share: a CommonJS library with
// `siyuan` external, as SiYuan loads plugins.
const PLUGIN_BUILD = `{
  outDir: 'dist',
  emptyOutDir: true,
  minify: true,
  lib: { entry: 'src/index.js', formats: ['cjs'], fileName: () => 'index.js' },
  rollupOptions: { external: ['siyuan'], output: { exports: 'default' } },
}`;

test('Vite: a SiYuan-plugin-shaped CommonJS bundle loads the wasm by URL and runs a tool', async () => {
  const dir = project(
    'siyuan-plugin',
    {
      'src/index.js': `
        import { Plugin } from 'siyuan';
        import init, { applyBlockDiff, createSiyuanHost } from 'editkit/web-external';
        export default class EditkitDemoPlugin extends Plugin {
          async onload() {
            await init({ module_or_path: '/plugins/' + this.name + '/editkit_bg.wasm' });
            this.host = createSiyuanHost({ request: this.request });
          }
          edit(diff) {
            return applyBlockDiff(diff, this.host, { dryRun: true });
          }
        }
      `,
      // The package README's two recipes for the plugin template's
      // vite.config: a vite-plugin-static-copy target, or a small plugin
      // that emits the wasm. Either puts it next to index.js.
      'vite.config.js': `
        import { viteStaticCopy } from 'vite-plugin-static-copy';
        export default {
          plugins: [
            viteStaticCopy({
              targets: [
                { src: './node_modules/editkit/dist/editkit_bg.wasm', dest: './', rename: { stripBase: true } },
              ],
            }),
          ],
          build: ${PLUGIN_BUILD},
        };
      `,
      'vite.emit.config.js': `
        import { readFileSync } from 'node:fs';
        import { createRequire } from 'node:module';

        const editkitWasm = {
          name: 'editkit-wasm',
          generateBundle() {
            this.emitFile({
              type: 'asset',
              fileName: 'editkit_bg.wasm',
              source: readFileSync(createRequire(import.meta.url).resolve('editkit/editkit_bg.wasm')),
            });
          },
        };
        export default {
          plugins: [editkitWasm],
          build: ${PLUGIN_BUILD},
        };
      `,
    },
    { vite: '7.3.8', 'vite-plugin-static-copy': '4.1.1' },
  );
  // Each recipe's build puts the wasm next to index.js, where the plugin fetches it.
  for (const config of ['vite.config.js', 'vite.emit.config.js']) {
    execFileSync(
      join(dir, 'node_modules', '.bin', 'vite'),
      ['build', '--config', config, '--logLevel', 'error'],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.deepEqual(
      readdirSync(join(dir, 'dist')).sort(),
      ['editkit_bg.wasm', 'index.js'],
      config,
    );
    assert.deepEqual(
      readFileSync(join(dir, 'dist', 'editkit_bg.wasm')),
      readFileSync(join(dir, 'node_modules', 'editkit', 'dist', 'editkit_bg.wasm')),
      config,
    );
  }
  const bundle = readFileSync(join(dir, 'dist', 'index.js'), 'utf8');
  assert.doesNotMatch(bundle, /require\(["']editkit["']\)/, 'editkit is bundled in');
  assert.match(bundle, /require\(["']siyuan["']\)/, 'siyuan stays external');
  assert.doesNotMatch(
    bundle,
    /data:application\/wasm/,
    'the wasm is fetched by URL, not inlined into the bundle',
  );
  assert.ok(bundle.length < 150_000, `bundle is ${bundle.length} bytes`);

  // Evaluate it the way SiYuan does: a CommonJS function with the app's
  // `siyuan` module, and fetch('/plugins/<name>/…') served by the app.
  const fetched = [];
  const fakeFetch = async (url) => {
    fetched.push(String(url));
    const file = join(dir, 'dist', String(url).replace(/^\/plugins\/editkit-demo\//, ''));
    return new Response(readFileSync(file), { headers: { 'content-type': 'application/wasm' } });
  };
  class Plugin {
    constructor() {
      this.name = 'editkit-demo';
    }
  }
  const requests = [];
  const module = { exports: {} };
  const run = new Function('require', 'module', 'exports', 'fetch', bundle);
  run(
    (id) => (id === 'siyuan' ? { Plugin } : assert.fail(`unexpected require(${id})`)),
    module,
    module.exports,
    fakeFetch,
  );
  const PluginClass = module.exports.default ?? module.exports;
  const plugin = new PluginClass();
  plugin.request = async (path, body) => {
    requests.push(path);
    if (path === '/api/query/sql')
      return {
        code: 0,
        msg: '',
        data: [
          {
            id: '20250101000000-para001',
            type: 'p',
            markdown: 'hello',
            parent_id: '',
            root_id: '20250101000000-doc0001',
          },
        ],
      };
    if (path === '/api/block/getBlockKramdowns')
      return {
        code: 0,
        msg: '',
        data: Object.fromEntries(
          body.ids.map((id) => [id, `hello\n{: id="${id}" updated="20250101000000"}`]),
        ),
      };
    return { code: 0, msg: '', data: null };
  };
  // Without the copy step, the 404 says what to add.
  const missing = { exports: {} };
  new Function('require', 'module', 'exports', 'fetch', bundle)(
    () => ({ Plugin }),
    missing,
    missing.exports,
    async (url) => new Response('not found', { status: 404, statusText: 'Not Found', url }),
  );
  const Unshipped = missing.exports.default ?? missing.exports;
  await assert.rejects(new Unshipped().onload(), (e) => {
    assert.equal(e.code, 'INVALID_ARGUMENT');
    assert.match(e.message, /HTTP 404 Not Found/);
    assert.match(
      e.message,
      /in a SiYuan plugin, the build must copy node_modules\/editkit\/dist\/editkit_bg\.wasm into the plugin's dist\/ \(editkit's README, "In a SiYuan plugin", has the vite\.config lines\)/,
    );
    return true;
  });
  await plugin.onload();
  assert.deepEqual(fetched, ['/plugins/editkit-demo/editkit_bg.wasm']);
  const report = await plugin.edit(DIFF);
  assert.equal(report.ok, true, report.summary);
  assert.equal(report.plan[0].newMarkdown, 'hello, world');
  // Fresh reads (SPEC §3.7 rule 1): a flush, the rows, the tree's kramdown.
  assert.deepEqual(requests, [
    '/api/sqlite/flushTransaction',
    '/api/query/sql',
    '/api/block/getBlockKramdowns',
  ]);
});

test('TypeScript: the published declarations have no `any` and a typed consumer compiles', () => {
  const dir = project('ts-app', {
    'index.ts': `
      import { applyBlockDiff, findMatch, isEditkitError, toolDefinitions, type ApplyReport, type ErrorCode, type SiyuanHost } from 'editkit';
      const host: SiyuanHost = { getBlocks: async (ids) => ids.map(() => null) };
      async function run(): Promise<ApplyReport> {
        return applyBlockDiff('@@DELETE:20250101000000-para001@@', host, { dryRun: true, lang: 'zh' });
      }
      const r = findMatch('abc', 'b', { mode: 'safe' });
      const line: number | undefined = r.matches[0]?.startLine;
      const code: ErrorCode = 'BLOCK_NOT_FOUND';
      const tools = toolDefinitions({ format: 'anthropic' }).tools.map((t) => ('input_schema' in t ? t.input_schema.type : t.type));
      try { run(); } catch (e) { if (isEditkitError(e)) { const c: ErrorCode = e.code; void c; } }
      void line; void code; void tools;
    `,
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        skipLibCheck: false,
        types: [],
      },
      files: ['index.ts'],
    }),
  });
  const types = join(dir, 'node_modules', 'editkit', 'dist', 'types');
  const files = readdirSync(types, { recursive: true })
    .filter((f) => String(f).endsWith('.d.ts'))
    .map(String);
  assert.ok(files.includes('web.d.ts') && files.includes('node.d.ts'), files.join(', '));
  for (const file of files) {
    const text = readFileSync(join(types, file), 'utf8');
    const code = stripComments(text);
    assert.doesNotMatch(
      code,
      ANY,
      `${file} exposes any: ${code.match(new RegExp(`.*${ANY.source}.*`))?.[0]}`,
    );
    // Self-contained: every module a declaration names is shipped (relative).
    for (const spec of moduleSpecifiers(code))
      assert.ok(
        spec.startsWith('./') || spec.startsWith('../'),
        `${file} refers to unshipped module '${spec}'`,
      );
    assert.doesNotMatch(code, /__trapForTests|editkit-glue/, `${file} exposes an internal name`);
  }
  tsc(['-p', dir]);
});

/** Runs tsc; a failure shows its diagnostics (tsc prints them on stdout). */
function tsc(args) {
  try {
    return execFileSync(join(repo, 'node_modules', '.bin', 'tsc'), args, { encoding: 'utf8' });
  } catch (e) {
    assert.fail(`tsc ${args.join(' ')} failed:\n${e.stdout}${e.stderr}`);
  }
}

// Comments may say "any"; code may not (`: any`, `any>`, `=> any`, `any[]`, `| any`, …).
const ANY = /\bany\b/;
const stripComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
const moduleSpecifiers = (code) =>
  [
    ...code.matchAll(
      /\bfrom\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]|reference\s+(?:types|path)=['"]([^'"]+)['"]/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]);

test('the any and module checks catch what they are meant to', () => {
  for (const bad of [
    'x: any;',
    'Promise<any>',
    'Record<string, any>',
    '(a: string) => any',
    'any[]',
    'string | any',
    'f(x: unknown): any',
  ])
    assert.match(stripComments(bad), ANY, bad);
  for (const fine of [
    '/** any of these */ x: unknown;',
    '// any\nx: string;',
    'company: string;',
    'anything: number;',
  ])
    assert.doesNotMatch(stripComments(fine), ANY, fine);
  assert.deepEqual(
    moduleSpecifiers(
      `import type { A } from 'editkit-glue';\nexport * from './index.js';\ntype B = import("node:fs").Stats;`,
    ),
    ['editkit-glue', './index.js', 'node:fs'],
  );
});

test('TypeScript: a strict bundler-resolution consumer of the browser entry compiles', () => {
  const dir = project('ts-bundler-app', {
    'src/main.ts': `
      import init, { initSync, applyBlockDiff, toolDefinitions, createToolRunner, createNodeFileHost, type InitInput, type SyncInitInput, type ApplyReport, type ToolRunner, type NodeFileHost } from 'editkit';
      import initWeb, { validateBlockDiffFormat, type InitInput as WebInitInput } from 'editkit/web';
      import { createMemoryHost } from 'editkit/testing';
      import * as everything from 'editkit';
      const sources: InitInput[] = [new URL('https://example.com/editkit_bg.wasm'), '/plugins/demo/editkit_bg.wasm', new Uint8Array(8)];
      const same: WebInitInput = sources[0]!;
      const bytes: SyncInitInput = new ArrayBuffer(8);
      export async function start(): Promise<ApplyReport> {
        await init({ module_or_path: sources[1]! });
        await initWeb({ module_or_path: Promise.resolve(same) });
        initSync({ module: bytes });
        const host = createMemoryHost({ documents: [] });
        return applyBlockDiff('@@DELETE:20250101000000-para001@@', host, { dryRun: true });
      }
      const zh = toolDefinitions('zh').tools.map((t) => t.parameters.type);
      const anthropic = toolDefinitions({ lang: 'en', format: 'anthropic' }).tools.map((t) => ('input_schema' in t ? t.input_schema : t.type));
      const runner: ToolRunner = createToolRunner({ lang: 'zh' });
      const valid: boolean = validateBlockDiffFormat('x', { lang: 'en' }).valid;
      // A Node project with bundler resolution reads these typings too (TS2614 before).
      const onDisk = (root: string): NodeFileHost => createNodeFileHost({ root });
      void zh; void anthropic; void runner; void valid; void onDisk;
      // @ts-expect-error initSync needs { module }
      initSync({ module_or_path: bytes });
      // @ts-expect-error internal test hooks are not in the public typings
      everything.__trapForTests();
    `,
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'ESNext',
        moduleResolution: 'bundler',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        skipLibCheck: false,
        types: [],
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
      },
      include: ['src'],
    }),
  });
  // Compiles (tsc exits non-zero on any error), and the bundler resolution picked the browser typings, not the Node ones.
  const trace = tsc(['-p', dir, '--traceResolution']);
  assert.match(
    trace,
    /Module name 'editkit' was successfully resolved to '[^']*\/node_modules\/editkit\/dist\/types\/web\.d\.ts'/,
  );
  assert.match(
    trace,
    /Module name 'editkit\/web' was successfully resolved to '[^']*\/node_modules\/editkit\/dist\/types\/web\.d\.ts'/,
  );
});

test('TypeScript: every entry resolves under moduleResolution node, node16 (ESM, CJS .ts and .cts) and bundler', () => {
  const uses = `
      void applyBlockDiff; void createKernelDouble; void validateBlockDiffFormat;
      const k: KernelDouble | undefined = undefined; void k;`;
  const dir = project('ts-resolution', {
    // moduleResolution "node" (the SiYuan plugin sample's): no `exports`, typesVersions.
    'node10/main.ts': `
      import { applyBlockDiff } from 'editkit';
      import { createKernelDouble, type KernelDouble } from 'editkit/testing';
      import { validateBlockDiffFormat } from 'editkit/web';
      import initExternal from 'editkit/web-external'; // the SiYuan plugin sample's resolution
      // The root is the browser build's types under "node"; Node-only names come from editkit/node.
      import { createNodeFileHost, initSync } from 'editkit/node';
      initSync();
      void createNodeFileHost; void initExternal;${uses}`,
    // node16, an ES module.
    'node16/esm.mts': `
      import init, { applyBlockDiff, createNodeFileHost, type InitInput } from 'editkit';
      import { createKernelDouble, type KernelDouble } from 'editkit/testing';
      import { validateBlockDiffFormat } from 'editkit/web';
      // The Node build takes the browser build's init arguments (isomorphic code).
      const where: InitInput = new URL('file:///opt/editkit_bg.wasm');
      await init({ module_or_path: where });
      void createNodeFileHost;${uses}`,
    // node16, CommonJS: a .cts file and a .ts file in a "type": "commonjs" package.
    // (editkit/web is an ES module for browsers and bundlers: not here.)
    'node16/cjs.cts': `
      import { applyBlockDiff, initSync, validateBlockDiffFormat } from 'editkit';
      import { createKernelDouble } from 'editkit/testing';
      import type { KernelDouble } from 'editkit/testing';
      initSync();${uses}`,
    'node16/plain.ts': `
      import { applyBlockDiff, validateBlockDiffFormat } from 'editkit';
      import { createNodeFileHost } from 'editkit/node';
      void createNodeFileHost;
      import { createKernelDouble } from 'editkit/testing';
      import type { KernelDouble } from 'editkit/testing';${uses}`,
    'bundler/main.ts': `
      import init, { applyBlockDiff } from 'editkit';
      import { createKernelDouble, type KernelDouble } from 'editkit/testing';
      import { validateBlockDiffFormat } from 'editkit/web';
      import initExternal from 'editkit/web-external';
      await init({ module_or_path: '/plugins/demo/editkit_bg.wasm' });
      await initExternal({ module_or_path: '/plugins/demo/editkit_bg.wasm' });${uses}`,
  });
  const base = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    skipLibCheck: false,
    types: [],
  };
  const configs = {
    node10: { module: 'commonjs', moduleResolution: 'node' },
    node16: { module: 'node16', moduleResolution: 'node16' },
    bundler: { module: 'ESNext', moduleResolution: 'bundler' },
  };
  for (const [name, options] of Object.entries(configs)) {
    const file = join(dir, `tsconfig.${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({ compilerOptions: { ...base, ...options }, include: [`${name}/*`] }),
    );
    const trace = tsc(['-p', file, '--traceResolution']);
    if (name === 'node16') {
      // require gets the CommonJS declarations, import the ESM ones.
      assert.match(
        trace,
        /'editkit' was successfully resolved to '[^']*\/dist\/types-cjs\/node\.d\.ts'/,
      );
      assert.match(
        trace,
        /'editkit' was successfully resolved to '[^']*\/dist\/types\/node\.d\.ts'/,
      );
      assert.match(
        trace,
        /'editkit\/testing' was successfully resolved to '[^']*\/dist\/types-cjs\/testing\/index\.d\.ts'/,
      );
    }
  }
});

test('the kernel double: without vditor an EditkitError says what to install; with it, the README recipe works', () => {
  const doc = `{ id: '20250101000000-doc0001', title: 'T', box: '20250101000000-box0001', hpath: '/T', blocks: [{ id: '20250101000000-para001', markdown: 'hello' }] }`;
  const without = project('double-without-vditor', {
    'index.mjs': `
      import { createKernelDouble } from 'editkit/testing';
      import { isEditkitError } from 'editkit';
      try {
        createKernelDouble({ documents: [${doc}] });
        console.log(JSON.stringify({ ok: true }));
      } catch (e) {
        console.log(JSON.stringify({ editkit: isEditkitError(e), code: e.code, message: e.message }));
      }
    `,
  });
  const out = JSON.parse(execFileSync('node', ['index.mjs'], { cwd: without, encoding: 'utf8' }));
  assert.equal(out.editkit, true, JSON.stringify(out));
  assert.equal(out.code, 'INVALID_ARGUMENT');
  assert.match(out.message, /npm install vditor/);
  // vditor is an optional peer: declared, not installed for you.
  const manifest = JSON.parse(
    readFileSync(join(without, 'node_modules', 'editkit', 'package.json'), 'utf8'),
  );
  assert.equal(manifest.peerDependenciesMeta.vditor.optional, true);
  assert.equal(existsSync(join(without, 'node_modules', 'vditor')), false);

  const withVditor = project(
    'double-with-vditor',
    {
      'index.cjs': `
        // The package README's recipe, verbatim.
        const { readFileSync } = require('node:fs');
        const { createKernelDouble, createMemoryHost, loadLute } = require('editkit/testing');
        const { applyBlockDiff } = require('editkit');
        const lute = loadLute(readFileSync(require.resolve('vditor/dist/js/lute/lute.min.js'), 'utf8'), require);
        const double = createKernelDouble({ lute, documents: [${doc}] });
        const host = createMemoryHost({ lute, documents: [${doc}] });
        applyBlockDiff('@@20250101000000-para001@@\\n<<<<<<< SEARCH\\nhello\\n=======\\nhello, world\\n>>>>>>> REPLACE', host).then((r) =>
          console.log(JSON.stringify({ ok: r.ok, text: host.block('20250101000000-para001').markdown, kramdown: double.kramdown('20250101000000-para001') })),
        );
      `,
    },
    { vditor: '4.0.0' },
  );
  const done = JSON.parse(
    execFileSync('node', ['index.cjs'], { cwd: withVditor, encoding: 'utf8' }),
  );
  assert.deepEqual({ ok: done.ok, text: done.text }, { ok: true, text: 'hello, world' });
  assert.match(done.kramdown, /^hello\n\{: id="20250101000000-para001"/);
});

test('a bundled Node app: no wasm next to the bundle is a clear error until initSync or init loads it', () => {
  const dir = project('bundled-node', {
    'app.mjs': `
      import { readFileSync } from 'node:fs';
      import init, { findMatch, initSync, isEditkitError } from 'editkit';
      const wasm = process.env.EDITKIT_WASM;
      async function main() {
        let before;
        try { findMatch('abc', 'b'); } catch (e) { before = { editkit: isEditkitError(e), code: e.code, message: e.message }; }
        if (process.argv[2] === 'sync') initSync({ module: readFileSync(wasm) });
        else await init({ module_or_path: wasm });
        // Loaded: initSync() and init() without arguments are no-ops, as in the package.
        initSync();
        await init();
        console.log(JSON.stringify({ before, found: findMatch('abc', 'b').found }));
      }
      main();
    `,
  });
  const esbuild = join(repo, 'node_modules', '.bin', 'esbuild');
  mkdirSync(join(dir, 'out'));
  for (const format of ['esm', 'cjs']) {
    const outfile = join(dir, 'out', format === 'esm' ? 'app.mjs' : 'app.cjs');
    execFileSync(
      esbuild,
      [
        'app.mjs',
        '--bundle',
        '--platform=node',
        `--format=${format}`,
        `--outfile=${outfile}`,
        '--log-level=error',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
  }
  const wasm = join(dir, 'node_modules', 'editkit', 'dist', 'editkit_bg.wasm');
  for (const [file, how] of [
    ['app.mjs', 'sync'],
    ['app.mjs', 'async'],
    ['app.cjs', 'sync'],
    ['app.cjs', 'async'],
  ]) {
    const out = JSON.parse(
      execFileSync('node', [join(dir, 'out', file), how], {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, EDITKIT_WASM: wasm },
      }),
    );
    assert.equal(out.found, true, `${file} ${how}`);
    assert.equal(out.before.editkit, true);
    assert.equal(out.before.code, 'INTERNAL_ERROR');
    assert.match(out.before.message, /editkit_bg\.wasm was not found next to this module/);
    assert.match(out.before.message, /initSync\(\{ module: readFileSync\(pathToWasm\) \}\)/);
  }
  // A file next to the bundle that is not editkit's wasm: said as such, not "not found".
  writeFileSync(join(dir, 'out', 'editkit_bg.wasm'), 'not a wasm module');
  const broken = JSON.parse(
    execFileSync('node', [join(dir, 'out', 'app.mjs'), 'sync'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, EDITKIT_WASM: wasm },
    }),
  );
  assert.equal(broken.found, true);
  assert.equal(broken.before.code, 'INTERNAL_ERROR');
  assert.match(
    broken.before.message,
    /editkit_bg\.wasm is there but could not be loaded \(.*\); it may be damaged or from another editkit version/,
  );
});

test('the README’s browser snippet: a Vite 7 app loads the wasm through `?url` and runs in Chromium', async () => {
  const dir = project(
    'vite-browser-app',
    {
      'index.html':
        '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module" src="/main.js"></script>',
      // The README's browser snippet, verbatim.
      'main.js': `
        import init, { findMatch, validateBlockDiffFormat } from 'editkit';
        import wasmUrl from 'editkit/editkit_bg.wasm?url';

        await init({ module_or_path: wasmUrl });
        const problems = validateBlockDiffFormat('@@x', { lang: 'zh' }).errors.length;
        document.body.dataset.result = JSON.stringify({ found: findMatch('abc', 'b').found, problems });
      `,
    },
    { vite: '7.3.8' },
  );
  execFileSync(join(dir, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'error'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const assets = readdirSync(join(dir, 'dist', 'assets'));
  assert.ok(
    assets.some((f) => /^editkit_bg-.*\.wasm$/.test(f)),
    `the wasm is an asset: ${assets}`,
  );
  const { createServer } = await import('node:http');
  const { chromium } = await import('playwright-core');
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const file = join(dir, 'dist', req.url === '/' ? 'index.html' : req.url.split('?')[0]);
    if (!existsSync(file)) return res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': types[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream',
    });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const page = await browser.newPage();
    const consoleErrors = [];
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => document.body.dataset.result, null, { timeout: 20000 });
    const result = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    assert.deepEqual(result, { found: true, problems: 1 });
    assert.deepEqual(consoleErrors, []);
  } finally {
    await browser.close();
    server.close();
  }
});

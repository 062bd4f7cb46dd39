// Every TypeScript and JavaScript example of README.md and
// pkg-template/README.md, executed (readme-snippets.test.mjs type-checks
// them; this runs them). Each snippet is taken from the README as it is,
// compiled with esbuild (TypeScript: types stripped, nothing else changed)
// and run in a scratch folder whose node_modules has the built packages as
// `editkit`, in a working directory holding the files the snippet names.
// The table (EXAMPLES) may wrap a fragment into a module or append a line
// that reports what the example did; the checks look at files, the kernel
// double's blocks and requests, and what was fetched.
//
// What a snippet leaves to its reader is supplied the least contrived way:
// - `declare const x` / `declare function f`: esbuild erases the
//   declaration, so the name is read from the global object, where the
//   entry's `globals` (or its `before` code) puts a value.
// - SiYuan: the snippets read `process.env.SIYUAN_URL`, as a user pointing
//   them at another kernel would; here it is the kernel double
//   (`editkit/testing` createKernelDouble) served over loopback by this
//   test, which then looks at the double's blocks and requests.
// - The SiYuan front-end plugin runs with a stub of the `siyuan` module
//   (Plugin, fetchSyncPost) and a page's fetch (relative URLs resolved
//   against the kernel's origin, which also serves the plugin's wasm).
// - The OpenAI loop runs against a fake Chat Completions server on loopback
//   (OPENAI_BASE_URL, read by the SDK itself) that asks for one tool call.
// - Browser snippets are bundled by esbuild for the browser (Vite's `?url`
//   import stood in for by esbuild's file loader, which gives the same kind
//   of URL) and run as a page would in Node (tests/package/run-bundle.mjs);
//   the esbuild recipe is built with its own command's options, and
//   webpack's bare `init()` gets the wasm where webpack would emit it.
// - The bundled Node app is bundled (esbuild --platform=node) into out/,
//   with the wasm in the assets/ folder the example reads.
// - Config fragments (vite.config, webpack.config) are evaluated and what
//   they do is checked: the static-copy target names a file that exists, the
//   emit plugin emits the package's wasm (from a monorepo layout, editkit
//   hoisted to the root), webpack's assetFilter leaves out the wasm. Vite
//   and webpack themselves build these recipes in tests/package/.
// COMPILE_ONLY lists what is not run, with the reason (today: nothing).
// pkg-template/mcp/README.md is type-checked only (its own suite runs the
// server).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { build, transform } from 'esbuild';
import { Lute, readmeSnippets, repo, testing } from './support.mjs';
import { runBundle } from '../package/support.mjs';

const READMES = ['README.md', 'pkg-template/README.md'];
const WASM = join(repo, 'pkg', 'dist', 'editkit_bg.wasm');
const scratch = join(repo, 'target', 'readme-run');
const sha = (bytes) => createHash('sha256').update(bytes).digest('hex');

// ---------------------------------------------------------------------------
// The SiYuan side: a kernel double behind a loopback server that is also the
// app's origin (it serves /plugins/<name>/editkit_bg.wasm), and a fake
// OpenAI Chat Completions endpoint.

const BOX = '20260108164554-box0001';
const DOC = '20260108164554-doc0001';
const BLOCK = '20260108164554-m5ar6vb';
const newDouble = () =>
  testing.createKernelDouble({
    lute: Lute,
    documents: [
      {
        id: DOC,
        title: 'Notes',
        box: BOX,
        hpath: '/Notes',
        blocks: [{ id: BLOCK, markdown: 'Hello World' }],
      },
    ],
  });
const HELLO_DIFF = `@@${BLOCK}@@
<<<<<<< SEARCH
Hello World
=======
你好世界
>>>>>>> REPLACE`;

let server;
let base;
const state = { double: undefined, openai: [] };

/** The fake model: asks for one `edit` call, then answers in words. */
function chatCompletion(request) {
  state.openai.push(request);
  const toolAnswered = request.messages.some((m) => m.role === 'tool');
  const message = toolAnswered
    ? { role: 'assistant', content: 'Renamed foo to bar.', refusal: null }
    : {
        role: 'assistant',
        content: null,
        refusal: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: {
              name: 'edit',
              arguments: JSON.stringify({
                path: 'src/app.ts',
                old_string: 'export const foo = 1;',
                new_string: 'export const bar = 1;',
              }),
            },
          },
        ],
      };
  return {
    id: `chatcmpl-${state.openai.length}`,
    object: 'chat.completion',
    created: 0,
    model: request.model,
    choices: [
      {
        index: 0,
        message,
        finish_reason: toolAnswered ? 'stop' : 'tool_calls',
        logprobs: null,
      },
    ],
  };
}

before(async () => {
  server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = new URL(req.url, 'http://x').pathname;
    if (/^\/plugins\/[^/]+\/editkit_bg\.wasm$/.test(path)) {
      res.writeHead(200, { 'content-type': 'application/wasm' }).end(readFileSync(WASM));
    } else if (path.startsWith('/api/')) {
      const answer = await state.double.request(path, body ? JSON.parse(body) : {});
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } else if (path === '/v1/chat/completions') {
      const answer = chatCompletion(JSON.parse(body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${server.address().port}`;
  rmSync(scratch, { recursive: true, force: true });
});
after(() => server?.close());

// What SiYuan's app gives a front-end plugin, for the plugin example:
// `siyuan`'s Plugin (its name) and fetchSyncPost (a POST to the kernel).
const SIYUAN_STUB = `
export class Plugin {
  constructor(options = {}) {
    this.name = options.name ?? 'editkit-demo';
  }
}
export async function fetchSyncPost(url, data) {
  const response = await fetch(url, { method: 'POST', body: JSON.stringify(data ?? {}) });
  return response.json();
}
`;
// A page's fetch: a relative URL is the app's origin (the kernel's).
const PAGE_FETCH = `
const networkFetch = globalThis.fetch;
globalThis.fetch = (input, init) =>
  networkFetch(typeof input === 'string' ? new URL(input, process.env.SIYUAN_URL) : input, init);
`;

// ---------------------------------------------------------------------------
// The examples, each found by README, heading and a piece of its text.
//   mode: 'node' (default; an ES module run by Node), 'cjs', 'node-bundle'
//         (esbuild --platform=node into out/, the wasm elsewhere), 'page'
//         (a browser bundle run as a page)
//   files: what the working directory holds; globals: the declared values;
//   before / after: code around the import of the example (after sets
//   `result`); append: code added to the example's module (it sees its
//   names); check(result, run): the assertions.

const SIYUAN_NODE = {
  globals: { diff: HELLO_DIFF },
  check(result, run) {
    const writes = state.double.calls.filter((c) => /Block$/.test(c.path)).map((c) => c.path);
    assert.deepEqual(writes, ['/api/block/batchUpdateBlock', '/api/block/batchUpdateBlock']);
    assert.equal(state.double.block(BLOCK).markdown, 'Hello World', 'the undo restored it');
    return run;
  },
};

const EXAMPLES = [
  {
    readme: 'README.md',
    heading: 'Using it',
    has: 'report.plan[i].diff',
    ...SIYUAN_NODE,
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In a SiYuan plugin',
    has: 'class MyAgentPlugin',
    node_modules: { siyuan: SIYUAN_STUB },
    before: PAGE_FETCH,
    after: `
      const plugin = new snippet.default({ name: 'editkit-demo' });
      await plugin.onload();
      result = {
        tools: plugin.tools.tools.map((t) => t.function.name),
        guide: typeof plugin.tools.guide,
        text: await plugin.onToolCall('getBlockContent', { blockId: '${BLOCK}' }),
      };`,
    check(result) {
      assert.deepEqual(result.tools, [
        'getBlockInfo',
        'getBlockContent',
        'appendContent',
        'createNewDoc',
        'applyBlockDiff',
      ]);
      assert.equal(result.guide, 'string');
      assert.match(result.text, /Hello World/);
      assert.ok(state.double.calls.length > 0, 'the kernel was asked');
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In a SiYuan plugin',
    has: 'viteStaticCopy({',
    // The fragment, as a value: an array of plugins with the factory stubbed.
    wrap: (code) => `export default [\n${code}\n];`,
    before: `globalThis.viteStaticCopy = (options) => ({ name: 'static-copy', options });`,
    after: `result = snippet.default[0].options.targets.map((t) => t.src);`,
    check(result, run) {
      assert.equal(result.length, 1);
      // Relative to the Vite project, editkit installed in it.
      assert.deepEqual(readFileSync(join(run.dir, result[0])), readFileSync(WASM));
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In a SiYuan plugin',
    has: "name: 'editkit-wasm'",
    // A monorepo: the plugin in packages/plugin, editkit hoisted to the root.
    layout: 'hoisted',
    append: 'export { editkitWasm };',
    after: `
      const { createHash } = await import('node:crypto');
      const emitted = [];
      snippet.editkitWasm.generateBundle.call({ emitFile: (file) => emitted.push(file) });
      result = emitted.map(({ type, fileName, source }) => ({
        type,
        fileName,
        sha: createHash('sha256').update(source).digest('hex'),
      }));`,
    check(result, run) {
      assert.ok(!existsSync(join(run.dir, 'node_modules', 'editkit')), 'editkit is hoisted');
      assert.deepEqual(result, [
        { type: 'asset', fileName: 'editkit_bg.wasm', sha: sha(readFileSync(WASM)) },
      ]);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In a SiYuan plugin',
    has: 'createToolRegistry',
    before: `
      const { kernelRequest } = await import('editkit');
      globalThis.request = kernelRequest({ baseUrl: process.env.SIYUAN_URL });
      globalThis.wasm = new URL('/plugins/editkit-demo/editkit_bg.wasm', process.env.SIYUAN_URL);
      globalThis.registered = [];
      globalThis.registerTool = (name, meta, handler) => registered.push({ name, meta, handler });`,
    after: `
      const info = registered.find((t) => t.name === 'getBlockInfo');
      result = {
        names: registered.map((t) => t.name),
        readOnly: registered.map((t) => t.meta.readOnly),
        answer: await info.handler({ ids: ['${BLOCK}'] }),
      };`,
    check(result) {
      assert.deepEqual(result.names, [
        'getBlockInfo',
        'getBlockContent',
        'appendContent',
        'createNewDoc',
        'applyBlockDiff',
      ]);
      assert.deepEqual(result.readOnly, [true, true, false, false, false]);
      assert.equal(result.answer.isError, false, result.answer.text);
      assert.match(result.answer.text, new RegExp(BLOCK));
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In Node (ESM or CommonJS)',
    has: 'const plan = await applyBlockDiff(diff, host, { dryRun: true });',
    ...SIYUAN_NODE,
    globals: {},
    check(result, run) {
      SIYUAN_NODE.check(result, run);
      assert.match(run.stdout, /^Dry run: all 1 edit\(s\) passed the check/m);
      assert.match(run.stdout, /^\+你好世界$/m);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In Node (ESM or CommonJS)',
    has: 'prepareInsertAfter',
    files: {
      'src/app.ts': [
        'export function sum(items: number[]): number {',
        '  let total = 0;',
        '  for (const n of items) total += n;',
        '  return total;',
        '}',
        '',
      ].join('\n'),
      'notes.md': '# Release\n\n## Done\n- tests\n\n## Next\n- docs\n',
    },
    check(result, run) {
      assert.match(run.file('src/app.ts'), /^ {2}return total \* 2;$/m);
      assert.equal(
        run.file('notes.md'),
        '# Release\n\n## Done\n- shipped\n- tests\n\n## Next\n- docs\n',
      );
      assert.match(run.stdout, /^exact /);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In Node (ESM or CommonJS)',
    has: 'applyPatch(files, patchText)',
    files: { 'hello.txt': 'Hello\nWorld\n', 'todo.md': '# Todo\n- write\n' },
    globals: {
      patchText:
        '*** Begin Patch\n*** Update File: hello.txt\n@@\n Hello\n-World\n+editkit\n*** End Patch\n',
      diffText: '--- a/todo.md\n+++ b/todo.md\n@@ -1,2 +1,2 @@\n # Todo\n-- write\n+- ship\n',
    },
    check(result, run) {
      assert.equal(run.file('hello.txt'), 'Hello\neditkit\n');
      assert.equal(run.file('todo.md'), '# Todo\n- ship\n');
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'In Node (ESM or CommonJS)',
    has: 'initSync({ module: readFileSync(',
    // Bundled into out/ (the Node build then finds no wasm next to itself);
    // the app ships the wasm in assets/.
    mode: 'node-bundle',
    files: { 'assets/editkit_bg.wasm': () => readFileSync(WASM) },
    append: `import { findMatch as readmeFindMatch } from 'editkit';
globalThis.readmeResult = readmeFindMatch('a\\nb', 'b').matches[0].startLine;`,
    after: 'result = globalThis.readmeResult;',
    check(result, run) {
      assert.equal(result, 2);
      assert.deepEqual(
        readdirSync(join(run.dir, 'out')),
        ['app.mjs'],
        'no wasm next to the bundle',
      );
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'Agents',
    has: "import OpenAI from 'openai';",
    node_modules: { openai: join(repo, 'node_modules', 'openai') },
    files: { 'src/app.ts': 'export const foo = 1;\n' },
    check(result, run) {
      assert.equal(run.file('src/app.ts'), 'export const bar = 1;\n');
      assert.equal(state.openai.length, 2, 'one tool call, then the answer');
      const [first, second] = state.openai;
      assert.ok(first.tools.some((t) => t.function.name === 'edit'));
      assert.equal(first.messages[0].role, 'system');
      const tool = second.messages.find((m) => m.role === 'tool');
      assert.equal(tool.tool_call_id, 'call_1');
      assert.match(tool.content, /src\/app\.ts/);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'With a bundler',
    has: "import wasmUrl from 'editkit/editkit_bg.wasm?url';\ndeclare const text",
    mode: 'page',
    globals: { text: '@@x' },
    append: 'globalThis.report?.({ errors: validateBlockDiffFormat(text).errors.length });',
    check(result, run) {
      assert.ok(result.errors > 0, 'the diff has errors');
      assert.match(run.requests.at(-1), /^\/editkit_bg-\w+\.wasm$/);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'With a bundler',
    has: 'module.exports = {',
    mode: 'cjs',
    after: `
      const { assetFilter } = snippet.default.performance;
      result = { wasm: assetFilter('1a2b.wasm'), js: assetFilter('main.js') };`,
    check(result) {
      assert.deepEqual(result, { wasm: false, js: true });
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'With a bundler',
    has: '// src/index.js',
    // esbuild stands in for webpack (tests/package runs webpack itself): the
    // wasm goes where webpack emits it, the URL web.js computes.
    mode: 'page',
    files: { 'dist/editkit_bg.wasm': () => readFileSync(WASM) },
    append: "globalThis.report?.({ found: findMatch('abc', 'b').found });",
    check(result, run) {
      assert.deepEqual(result, { found: true });
      assert.equal(run.requests.at(-1), '/editkit_bg.wasm');
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'With a bundler',
    has: "import wasmUrl from 'editkit/editkit_bg.wasm'; //",
    // The README's command: esbuild --bundle --format=esm --loader:.wasm=file.
    mode: 'page',
    esbuild: { publicPath: undefined },
    append: `import { findMatch as readmeFindMatch } from 'editkit';
globalThis.report?.({ found: readmeFindMatch('abc', 'b').found });`,
    check(result, run) {
      assert.deepEqual(result, { found: true });
      assert.match(run.requests.at(-1), /^\/editkit_bg-\w+\.wasm$/);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'With a bundler',
    has: 'const wasm = fetch(wasmUrl);',
    mode: 'page',
    append: "globalThis.report?.({ found: findMatch('abc', 'b').found });",
    check(result, run) {
      assert.deepEqual(result, { found: true });
      assert.match(run.requests.at(-1), /^\/editkit_bg-\w+\.wasm$/);
    },
  },
  {
    readme: 'pkg-template/README.md',
    heading: 'Testing against an in-memory SiYuan',
    has: "require('editkit/testing')",
    mode: 'cjs',
    node_modules: { vditor: join(repo, 'node_modules', 'vditor') },
    append: 'module.exports = { host };',
    after: `result = await snippet.default.host.getBlocks(['20250101000000-para001']);`,
    check(result) {
      assert.equal(result.length, 1);
      assert.equal(result[0].markdown, 'hello');
    },
  },
];

/** Examples that are type-checked but not run: { readme, heading, has, why }. */
const COMPILE_ONLY = [];

// ---------------------------------------------------------------------------
// Running one example.

/** Vite's `?url` import, stood in for: the file as an emitted asset, its URL. */
const viteUrl = {
  name: 'vite-url',
  setup(b) {
    b.onResolve({ filter: /\?url$/ }, async (args) => {
      const target = await b.resolve(args.path.slice(0, -'?url'.length), {
        kind: args.kind,
        resolveDir: args.resolveDir,
      });
      return { path: target.path, namespace: 'vite-url' };
    });
    b.onLoad({ filter: /.*/, namespace: 'vite-url' }, (args) => ({
      contents: readFileSync(args.path),
      loader: 'file',
    }));
  },
};

function link(target, path) {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path, 'dir');
}

async function runExample(example, snippet, index) {
  const name = `${index}-${example.heading.replace(/\W+/g, '-').toLowerCase()}`;
  const project = join(scratch, name);
  // The working directory; in the hoisted layout a package of a monorepo.
  const dir = example.layout === 'hoisted' ? join(project, 'packages', 'plugin') : project;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(project, 'package.json'), '{ "type": "module", "private": true }\n');
  if (dir !== project) writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  link(join(repo, 'pkg'), join(project, 'node_modules', 'editkit'));
  for (const [pkg, source] of Object.entries(example.node_modules ?? {})) {
    if (source.startsWith('/')) {
      link(source, join(project, 'node_modules', pkg));
    } else {
      mkdirSync(join(project, 'node_modules', pkg), { recursive: true });
      writeFileSync(join(project, 'node_modules', pkg, 'index.js'), source);
      writeFileSync(
        join(project, 'node_modules', pkg, 'package.json'),
        JSON.stringify({ name: pkg, type: 'module', main: 'index.js' }),
      );
    }
  }
  for (const [file, content] of Object.entries(example.files ?? {})) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), typeof content === 'function' ? content() : content);
  }

  let code = snippet.code;
  if (example.wrap) code = example.wrap(code);
  if (example.append) code += `\n${example.append}\n`;
  const globals = Object.entries(example.globals ?? {})
    .map(([k, v]) => `globalThis[${JSON.stringify(k)}] = ${JSON.stringify(v)};`)
    .join('\n');
  const run = {
    dir,
    file: (path) => readFileSync(join(dir, path), 'utf8'),
  };

  if (example.mode === 'page') {
    const source = join(dir, `main.${snippet.lang}`);
    writeFileSync(source, code);
    await build({
      entryPoints: [source],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      outfile: join(dir, 'dist', 'main.js'),
      loader: { '.wasm': 'file' },
      publicPath: '/',
      banner: { js: globals },
      plugins: [viteUrl],
      logLevel: 'error',
      ...example.esbuild,
    });
    const page = await runBundle(join(dir, 'dist'), '/main.js', 'module');
    return example.check(page.result, { ...run, requests: page.requests });
  }

  const ext = example.mode === 'cjs' ? 'cjs' : 'mjs';
  if (example.mode === 'node-bundle') {
    const source = join(dir, `app.${snippet.lang}`);
    writeFileSync(source, code);
    await build({
      entryPoints: [source],
      bundle: true,
      format: 'esm',
      platform: 'node',
      outfile: join(dir, 'out', 'app.mjs'),
      logLevel: 'error',
    });
  } else {
    const js = await transform(code, {
      loader: snippet.lang,
      format: example.mode === 'cjs' ? 'cjs' : 'esm',
      target: 'es2022',
    });
    writeFileSync(join(dir, `snippet.${ext}`), js.code);
  }
  const entry = example.mode === 'node-bundle' ? './out/app.mjs' : `./snippet.${ext}`;
  writeFileSync(
    join(dir, 'main.mjs'),
    `${globals}\n${example.before ?? ''}\nconst snippet = await import('${entry}');\nlet result;\n${example.after ?? ''}\nprocess.stdout.write('\\nREADME-RESULT ' + JSON.stringify(result ?? null) + '\\n');\n`,
  );
  const env = {
    ...process.env,
    SIYUAN_URL: base,
    OPENAI_BASE_URL: `${base}/v1`,
    OPENAI_API_KEY: 'sk-readme-test',
  };
  delete env.SIYUAN_TOKEN;
  const { stdout } = await promisify(execFile)(process.execPath, ['main.mjs'], {
    cwd: dir,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  }).catch((e) => {
    throw new Error(`${snippet.where} failed:\n${e.stdout}\n${e.stderr}`);
  });
  const marker = stdout.lastIndexOf('\nREADME-RESULT ');
  assert.ok(marker >= 0, `${snippet.where} printed no result:\n${stdout}`);
  const result = JSON.parse(stdout.slice(marker + '\nREADME-RESULT '.length));
  return example.check(result, { ...run, stdout: stdout.slice(0, marker).replace(/^\n/, '') });
}

// ---------------------------------------------------------------------------

const found = READMES.flatMap((readme) =>
  readmeSnippets(readFileSync(join(repo, readme), 'utf8'), ['ts', 'js']).map((s) => ({
    ...s,
    readme,
    where: `${readme}:${s.line} (${s.heading})`,
  })),
);
const matches = (entry, s) =>
  entry.readme === s.readme && entry.heading === s.heading && s.code.includes(entry.has);

test('every TS/JS example of the READMEs is run here or listed as compile-only, once', () => {
  for (const s of found) {
    const n = [...EXAMPLES, ...COMPILE_ONLY].filter((e) => matches(e, s)).length;
    assert.equal(n, 1, `${s.where}: ${n} table entries`);
  }
  for (const e of [...EXAMPLES, ...COMPILE_ONLY]) {
    const n = found.filter((s) => matches(e, s)).length;
    assert.equal(n, 1, `${e.readme} "${e.heading}" "${e.has}" matches ${n} examples`);
  }
  for (const e of COMPILE_ONLY) assert.ok(e.why, 'a compile-only example says why');
});

EXAMPLES.forEach((example, index) => {
  const snippet = found.find((s) => matches(example, s));
  test(`runs ${snippet?.where ?? `${example.readme} "${example.heading}"`}`, async () => {
    assert.ok(snippet, 'the example is in the README');
    state.double = newDouble();
    state.openai = [];
    await runExample(example, snippet, index);
  });
});

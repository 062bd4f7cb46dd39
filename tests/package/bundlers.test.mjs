// The package README's bundler recipes ("With a bundler"), each built from
// its exact config into a small app from the packed package: no warnings
// (webpack's "Critical dependency" above all), the wasm emitted next to the
// JS, and the built bundle run in Node against a local server until it has
// fetched that file, loaded it and called editkit (support.mjs, runBundle).
// Then Vite's library mode, which the SiYuan plugin recipe is about: it
// inlines the wasm of `editkit` and not that of `editkit/web-external`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packPackage, repo, runBundle } from './support.mjs';

let pack;
before(() => {
  pack = packPackage('editkit-bundlers-');
});
after(() => pack?.remove());

const VITE = '7.3.8';
const WEBPACK = { webpack: '5.113.0', 'webpack-cli': '7.3.1' };

/** Runs a build; its whole output (stdout and stderr), which must hold no warning. */
function build(command, args, cwd) {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  const output = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, `${command} ${args.join(' ')} failed:\n${output}`);
  return output;
}

const wasmOf = (dir) =>
  readFileSync(join(dir, 'node_modules', 'editkit', 'dist', 'editkit_bg.wasm'));

/** The one .wasm file under `dir` (as a path relative to it), identical to the package's. */
function emittedWasm(dir, out, pattern) {
  const files = readdirSync(join(dir, out), { recursive: true }).map(String);
  const wasm = files.filter((f) => f.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `one wasm in ${out}: ${files.join(', ')}`);
  assert.match(wasm[0], pattern);
  assert.deepEqual(readFileSync(join(dir, out, wasm[0])), wasmOf(dir), 'the package’s wasm');
  return wasm[0];
}

// What each app does after the recipe's lines: hands its result to the runner.
const REPORT = `globalThis.report?.({ found: findMatch('abc', 'b').found });`;

test('Vite 7: the README recipe (`?url`) and a bare init() in `vite build`; the dev server’s page for a bare init() is named', async () => {
  const dir = pack.project(
    'vite-app',
    {
      'index.html': '<!doctype html><script type="module" src="/main.js"></script>',
      // The README's Vite recipe.
      'main.js': `
        import init, { findMatch, validateBlockDiffFormat } from 'editkit';
        import wasmUrl from 'editkit/editkit_bg.wasm?url';

        await init({ module_or_path: wasmUrl });
        validateBlockDiffFormat('@@x', { lang: 'zh' }).errors;
        ${REPORT}
      `,
      'bare/index.html': '<!doctype html><script type="module" src="/main.js"></script>',
      'bare/main.js': `
        import init, { findMatch } from 'editkit';

        await init();
        ${REPORT}
      `,
      // The dev server: the URL a bare init() computes in its pre-bundled
      // editkit, and in editkit itself once optimizeDeps excludes it.
      'dev.mjs': `
        import { createServer } from 'vite';
        import init from 'editkit/web';
        const out = {};
        for (const exclude of [false, true]) {
          const server = await createServer({
            root: 'bare', configFile: false, logLevel: 'error', server: { port: 0, strictPort: false },
            optimizeDeps: exclude ? { exclude: ['editkit'] } : {},
          });
          await server.listen();
          try {
            const base = server.resolvedUrls.local[0];
            const main = await (await fetch(base + 'main.js')).text();
            const editkit = new URL(/from\\s*"([^"]*)"/.exec(main)[1], base);
            const code = await (await fetch(editkit)).text();
            const wasm = new URL(/new URL\\("([^"]+)", import\\.meta\\.url\\)/.exec(code)[1], editkit);
            const answer = await fetch(wasm);
            const result = { module: editkit.pathname, type: answer.headers.get('content-type') };
            try { await init({ module_or_path: wasm }); result.loaded = true; }
            catch (e) { result.code = e.code; result.message = e.message; }
            out[exclude ? 'excluded' : 'preBundled'] = result;
          } finally {
            await server.close();
          }
        }
        console.log(JSON.stringify(out));
      `,
    },
    { vite: VITE },
  );
  const vite = join(dir, 'node_modules', '.bin', 'vite');
  assert.equal(build(vite, ['build', '--logLevel', 'warn'], dir), '');
  assert.equal(build(vite, ['build', 'bare', '--logLevel', 'warn'], dir), '');
  for (const root of ['.', 'bare']) {
    const out = join(dir, root, 'dist');
    const wasm = emittedWasm(dir, join(root, 'dist'), /^assets\/editkit_bg-[\w-]+\.wasm$/);
    const js = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js'));
    assert.equal(js.length, 1, js.join(', '));
    const run = await runBundle(out, `/assets/${js[0]}`, 'module');
    assert.deepEqual(run.result, { found: true }, root);
    assert.deepEqual(run.requests, [`/assets/${js[0]}`, `/${wasm}`], root);
  }

  const dev = JSON.parse(execFileSync('node', ['dev.mjs'], { cwd: dir, encoding: 'utf8' }));
  // Pre-bundled: no wasm next to it, and the fallback page where it should be.
  assert.match(dev.preBundled.module, /\/node_modules\/\.vite\/deps\/editkit\.js$/);
  assert.equal(dev.preBundled.type, 'text/html');
  assert.equal(dev.preBundled.code, 'INVALID_ARGUMENT');
  assert.match(dev.preBundled.message, /answered with an HTML page \(content-type text\/html\)/);
  assert.match(dev.preBundled.message, /import wasmUrl from "editkit\/editkit_bg\.wasm\?url"/);
  assert.match(dev.preBundled.message, /optimizeDeps: \{ exclude: \['editkit'\] \}/);
  // Excluded, as the README says: the wasm is served and loads.
  assert.match(dev.excluded.module, /\/node_modules\/editkit\/dist\/web\.js$/);
  assert.equal(dev.excluded.type, 'application/wasm');
  assert.equal(dev.excluded.loaded, true, dev.excluded.message);
});

test('webpack 5: the README config, a bare init(); the wasm is an asset, no warning (and none from editkit/web-external)', async () => {
  const dir = pack.project(
    'webpack-app',
    {
      // The README's webpack recipe.
      'webpack.config.js': `
        module.exports = {
          mode: 'production',
          entry: './src/index.js',
          performance: { assetFilter: (file) => !file.endsWith('.wasm') },
        };
      `,
      'src/index.js': `
        import init, { findMatch } from 'editkit';

        await init();
        ${REPORT}
      `,
      // A bundle that serves the wasm itself (a SiYuan plugin built with webpack).
      'webpack.external.config.js': `
        module.exports = {
          mode: 'production',
          entry: './src/external.js',
          output: { path: __dirname + '/dist-external', library: { type: 'commonjs2' } },
        };
      `,
      'src/external.js': `
        import init from 'editkit/web-external';
        export default (name) => init({ module_or_path: '/plugins/' + name + '/editkit_bg.wasm' });
      `,
    },
    WEBPACK,
  );
  const output = build(join(dir, 'node_modules', '.bin', 'webpack'), ['--no-color'], dir);
  assert.match(output, /compiled successfully/);
  assert.doesNotMatch(output, /WARNING|Critical dependency|warning/i);
  const wasm = emittedWasm(dir, 'dist', /^[0-9a-f]+\.wasm$/);
  const run = await runBundle(join(dir, 'dist'), '/main.js', 'script');
  assert.deepEqual(run.result, { found: true });
  assert.deepEqual(run.requests, ['/main.js', `/${wasm}`]);

  const external = build(
    join(dir, 'node_modules', '.bin', 'webpack'),
    ['--no-color', '--config', 'webpack.external.config.js'],
    dir,
  );
  assert.match(external, /compiled successfully/);
  assert.doesNotMatch(external, /WARNING|Critical dependency|warning/i);
  assert.deepEqual(readdirSync(join(dir, 'dist-external')), ['main.js'], 'no wasm emitted');
});

test('esbuild: the README command (file loader, ESM) puts the wasm next to the bundle and init finds it', async () => {
  const dir = pack.project('esbuild-app', {
    // The README's esbuild recipe.
    'src/main.js': `
      import init, { findMatch } from 'editkit';
      import wasmUrl from 'editkit/editkit_bg.wasm'; // "./editkit_bg-<hash>.wasm"

      await init({ module_or_path: new URL(wasmUrl, import.meta.url) });
      ${REPORT}
    `,
  });
  const output = build(
    join(repo, 'node_modules', '.bin', 'esbuild'),
    [
      'src/main.js',
      '--bundle',
      '--format=esm',
      '--outdir=dist',
      '--loader:.wasm=file',
      '--log-level=warning',
    ],
    dir,
  );
  assert.equal(output, '');
  const wasm = emittedWasm(dir, 'dist', /^editkit_bg-\w+\.wasm$/);
  const run = await runBundle(join(dir, 'dist'), '/main.js', 'module');
  assert.deepEqual(run.result, { found: true });
  assert.deepEqual(run.requests, ['/main.js', `/${wasm}`]);
});

test('Vite 7 library mode (a SiYuan plugin’s build): `editkit` inlines the wasm, `editkit/web-external` does not', () => {
  const entry = (from) => `
    import init, { findMatch } from '${from}';
    export default async function onload(name) {
      await init({ module_or_path: '/plugins/' + name + '/editkit_bg.wasm' });
      return findMatch('abc', 'b').found;
    }
  `;
  const dir = pack.project(
    'vite-library',
    {
      'src/default.js': entry('editkit'),
      'src/external.js': entry('editkit/web-external'),
      'vite.config.js': `
        export default {
          build: {
            outDir: 'dist/' + process.env.ENTRY,
            emptyOutDir: true,
            minify: true,
            lib: { entry: 'src/' + process.env.ENTRY + '.js', formats: ['cjs'], fileName: () => 'index.js' },
            rollupOptions: { external: ['siyuan'] },
          },
        };
      `,
    },
    { vite: VITE },
  );
  const vite = join(dir, 'node_modules', '.bin', 'vite');
  const size = {};
  for (const name of ['default', 'external']) {
    const r = spawnSync(vite, ['build', '--logLevel', 'warn'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ENTRY: name },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readdirSync(join(dir, 'dist', name)), ['index.js'], name);
    const bundle = readFileSync(join(dir, 'dist', name, 'index.js'), 'utf8');
    size[name] = statSync(join(dir, 'dist', name, 'index.js')).size;
    assert.equal(/data:application\/wasm;base64,/.test(bundle), name === 'default', name);
  }
  // The wasm as base64 (1.1 MB × 4/3) in the one, ~120 KB of JS in the other.
  assert.ok(size.default > (wasmOf(dir).length * 4) / 3, JSON.stringify(size));
  assert.ok(size.external < 150_000, JSON.stringify(size));
});

// Browser and bundler entry: load the wasm with `await init()` first.
//   import init, { applyBlockDiff } from 'editkit';
//   await init();                                  // next to this file (bundlers)
//   await init({ module_or_path: '/plugins/x/editkit_bg.wasm' });   // a URL
//   await init({ module_or_path: await fetch(url) });               // a Response
//   await init({ module_or_path: fetch(url) });  // a pending one: start it
//                                                // before importing this module
//                                                // and the downloads overlap
//   initSync({ module: bytes });                                    // bytes or a Module
import { EditkitError } from './errors.js';
import { initSync, initWith } from './loader.js';
import type { NodeFileHost, NodeFileHostOptions } from './node-files.js';
import type { InitInput, LoaderPlatform } from './loader.js';

// Declared in loader.ts, not re-exported from the glue's typings:
// `editkit-glue` is a build alias (see glue.d.ts) that the package does not
// ship, so the published .d.ts must not name it.
export type { InitInput, SyncInitInput } from './loader.js';
export * from './index.js';
export { initSync };
export type { NodeFileHost, NodeFileHostOptions } from './node-files.js';

const NODE_ONLY = {
  en: 'createNodeFileHost needs Node (node:fs), and this is the browser build of editkit. In Node, `editkit` resolves to the Node build, which has it; in a browser, give the tools a files host of your own ({ readFile, writeFile }).',
  zh: 'createNodeFileHost 需要 Node（node:fs），而这是 editkit 的浏览器构建。在 Node 中 `editkit` 解析为含有它的 Node 构建；在浏览器中请为工具提供自己的文件访问（{ readFile, writeFile }）。',
} as const;

/**
 * Node only: the browser build has no file system, so this throws
 * `HOST_CAPABILITY_MISSING`. It is declared here too because TypeScript's
 * `moduleResolution: "bundler"` reads these typings for `editkit` even in
 * a project that runs on Node (where the Node build, which has it, loads).
 */
export function createNodeFileHost(options: NodeFileHostOptions): NodeFileHost {
  const lang = (options as { lang?: unknown } | undefined)?.lang === 'zh' ? 'zh' : 'en';
  throw new EditkitError({
    code: 'HOST_CAPABILITY_MISSING',
    message: NODE_ONLY[lang],
    subject: 'createNodeFileHost',
  });
}

// This file is built twice (pkg-template/build.mjs defines the constant):
// - dist/web.js (`editkit`, `editkit/web`): the literal
//   `new URL('editkit_bg.wasm', import.meta.url)`, which webpack 5 and Vite's
//   app builds see: they emit the wasm as an asset and rewrite the URL, so a
//   bare `init()` finds it. Vite's library mode inlines it instead (a 1.5 MB
//   base64 data URL in the bundle).
// - dist/web-external.js (`editkit/web-external`): no `import.meta` at all
//   (the branch below is dropped), so no bundler emits or inlines anything,
//   and a CommonJS bundle (a SiYuan plugin: Vite's library mode with
//   `formats: ['cjs']`) gets no `import.meta`, which CommonJS has not (Vite 8
//   warns on every such build, and the value would be empty). For bundles
//   that serve the wasm themselves and pass its URL; a bare `init()` rejects
//   saying so.
declare const EDITKIT_WASM_ASSET: boolean;

function wasmNextToModule(): URL {
  if (EDITKIT_WASM_ASSET) return new URL('editkit_bg.wasm', import.meta.url);
  throw new EditkitError({
    code: 'INVALID_ARGUMENT',
    message: `init: editkit/web-external does not locate the wasm by itself (it is for bundles that serve the wasm themselves); pass the URL the wasm is served at, its bytes or a Response: ${PASS_THE_URL}`,
    subject: 'module_or_path',
  });
}

// How to give init the wasm's URL, for the messages below.
const PASS_THE_URL =
  'with Vite, `import wasmUrl from "editkit/editkit_bg.wasm?url"; await init({ module_or_path: wasmUrl })`; webpack 5 emits the wasm for a bare `init()` by itself; for esbuild and others, editkit\'s README ("With a bundler") has the config; in a SiYuan plugin, the build must copy node_modules/editkit/dist/editkit_bg.wasm into the plugin\'s dist/ (editkit\'s README, "In a SiYuan plugin", has the vite.config lines) and the plugin must `await init({ module_or_path: "/plugins/<plugin name>/editkit_bg.wasm" })`.';

const WEB: LoaderPlatform = {
  defaultSource: wasmNextToModule,
  hint: (answer) =>
    answer === 404
      ? `editkit_bg.wasm is not at that URL. Serve node_modules/editkit/dist/editkit_bg.wasm there and pass its URL: ${PASS_THE_URL}`
      : answer === 'page'
        ? `A page where the wasm should be is usually a dev server's fallback (its index.html) for a file it does not have; Vite's dev server answers a bare \`init()\` so, because it runs a pre-bundled copy of editkit with no wasm next to it. Pass the wasm's URL: ${PASS_THE_URL} (With Vite, a bare \`init()\` also works once vite.config has \`optimizeDeps: { exclude: ['editkit'] }\`.)`
        : 'Check that the URL serves editkit_bg.wasm (node_modules/editkit/dist/editkit_bg.wasm).',
};

/**
 * Loads and instantiates the wasm module (idempotent). Without an argument
 * it fetches `editkit_bg.wasm` next to this module (webpack 5 and Vite app
 * builds emit it as an asset and point there); otherwise pass its URL
 * (Vite: `import url from 'editkit/editkit_bg.wasm?url'`).
 * `editkit/web-external` needs the argument: without one it rejects with
 * `INVALID_ARGUMENT` saying how to pass the URL.
 *
 * Rejects with `EditkitError` `INVALID_ARGUMENT` (subject `module_or_path`,
 * the loader's error as `cause`) when the argument is not
 * `{ module_or_path }` or the wasm cannot be fetched, compiled or
 * instantiated from it (a 404, an HTML page such as a dev server's
 * fallback, bytes that are not editkit's wasm, …). A failed init leaves
 * nothing half-loaded: init may be called again.
 */
export default function init(input?: {
  module_or_path?: InitInput | Promise<InitInput>;
}): Promise<void> {
  return initWith(WEB, input);
}

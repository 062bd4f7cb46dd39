// Browser and bundler entry: load the wasm with `await init()` first.
//   import init, { applyBlockDiff } from 'editkit';
//   await init();                                  // next to this file (bundlers)
//   await init({ module_or_path: '/plugins/x/editkit_bg.wasm' });   // a URL
//   await init({ module_or_path: await fetch(url) });               // a Response
//   await init({ module_or_path: fetch(url) });  // a pending one: start it
//                                                // before importing this module
//                                                // and the downloads overlap
//   initSync({ module: bytes });                                    // bytes or a Module
import { initSync, initWith } from './loader.js';
import type { InitInput, LoaderPlatform } from './loader.js';

// Declared in loader.ts, not re-exported from the glue's typings:
// `editkit-glue` is a build alias (see glue.d.ts) that the package does not
// ship, so the published .d.ts must not name it.
export type { InitInput, SyncInitInput } from './loader.js';
export * from './index.js';
export { initSync };

// Built at run time, not written as a literal: bundlers that see
// `new URL('x.wasm', import.meta.url)` inline the whole wasm into the bundle
// (Vite's library mode as a base64 data URL), which a SiYuan plugin that
// fetches its own copy does not want.
const WASM_FILE = ['editkit_bg', 'wasm'].join('.');

const WEB: LoaderPlatform = {
  defaultSource: () => new URL(WASM_FILE, import.meta.url),
  hint: (status) =>
    status === 404
      ? 'editkit_bg.wasm is not at that URL. Serve node_modules/editkit/dist/editkit_bg.wasm there and pass its URL: with Vite, `import wasmUrl from "editkit/editkit_bg.wasm?url"; await init({ module_or_path: wasmUrl })`; in a SiYuan plugin, the build must copy node_modules/editkit/dist/editkit_bg.wasm into the plugin\'s dist/ (editkit\'s README, "In a SiYuan plugin", has the vite.config lines) and the plugin must `await init({ module_or_path: "/plugins/<plugin name>/editkit_bg.wasm" })`.'
      : 'Check that the URL serves editkit_bg.wasm.',
};

/**
 * Loads and instantiates the wasm module (idempotent). Without an argument
 * it fetches `editkit_bg.wasm` next to this module; bundlers: pass the URL
 * (Vite: `import url from 'editkit/editkit_bg.wasm?url'`).
 *
 * Rejects with `EditkitError` `INVALID_ARGUMENT` (subject `module_or_path`,
 * the loader's error as `cause`) when the argument is not
 * `{ module_or_path }` or the wasm cannot be fetched, compiled or
 * instantiated from it (a 404, bytes that are not editkit's wasm, …). A
 * failed init leaves nothing half-loaded: init may be called again.
 */
export default function init(input?: {
  module_or_path?: InitInput | Promise<InitInput>;
}): Promise<void> {
  return initWith(WEB, input);
}

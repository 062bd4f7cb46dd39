// Browser and bundler entry: load the wasm with `await init()` first.
//   import init, { applyBlockDiff } from 'editkit';
//   await init();                                  // next to this file (bundlers)
//   await init({ module_or_path: '/plugins/x/editkit_bg.wasm' });   // a URL
//   await init({ module_or_path: await fetch(url) });               // a Response
//   initSync({ module: bytes });                                    // bytes or a Module
import initGlue, { initSync as initSyncGlue } from 'editkit-glue';
import type { InitInput } from 'editkit-glue';

export type { InitInput };
export * from './index.js';

// Built at run time, not written as a literal: bundlers that see
// `new URL('x.wasm', import.meta.url)` inline the whole wasm into the bundle
// (Vite's library mode as a base64 data URL), which a SiYuan plugin that
// fetches its own copy does not want.
const WASM_FILE = ['editkit_bg', 'wasm'].join('.');

/**
 * Loads and instantiates the wasm module (idempotent). Without an argument
 * it fetches `editkit_bg.wasm` next to this module; bundlers: pass the URL
 * (Vite: `import url from 'editkit/editkit_bg.wasm?url'`).
 */
export default async function init(input?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<void> {
  const source = input?.module_or_path ?? new URL(WASM_FILE, import.meta.url);
  await initGlue({ module_or_path: source });
}

/** Instantiates the wasm module synchronously from bytes or a compiled module. */
export function initSync(input: { module: BufferSource | WebAssembly.Module }): void {
  initSyncGlue(input);
}

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

/** Loads and instantiates the wasm module (idempotent). */
export default async function init(input?: { module_or_path?: InitInput | Promise<InitInput> }): Promise<void> {
  const source = input?.module_or_path;
  await initGlue(source === undefined ? undefined : { module_or_path: source });
}

/** Instantiates the wasm module synchronously from bytes or a compiled module. */
export function initSync(input: { module: BufferSource | WebAssembly.Module }): void {
  initSyncGlue(input);
}

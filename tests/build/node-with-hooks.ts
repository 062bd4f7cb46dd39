// A test build of the Node entry (never shipped, SPEC §12): the package's
// own entry plus the hook that makes the wasm instance trap, so the
// recovery path (INTERNAL_ERROR, then a fresh instance) can be tested.
// pkg-template/build.mjs bundles it into target/test-build/node.js next to
// the same editkit_bg.wasm the package ships.
import * as glue from 'editkit-glue';
import { call, callAsync, HostContext, wrapHost } from '../../pkg-template/src/boundary.js';

export * from '../../pkg-template/src/node.js';
export { default } from '../../pkg-template/src/node.js';

/** Makes the wasm instance trap: the call throws INTERNAL_ERROR and the next call works. */
export function trapForTests(): void {
  call('en', () => glue.__trapForTests());
}

/**
 * Traps inside an async call once the host's `getBlocks` has answered (the
 * poll runs in a microtask): the call rejects with INTERNAL_ERROR and the
 * next call works.
 */
export function trapAfterHostForTests(host: unknown): Promise<unknown> {
  const ctx = new HostContext();
  return callAsync('en', ctx, () => glue.__trapAfterHostForTests(wrapHost(host, 'en', ctx)));
}

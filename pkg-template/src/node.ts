// Node entry (ESM and CJS builds): the wasm is read next to this file and
// instantiated at import, so no `init` call is needed. A bundle that left
// editkit_bg.wasm behind loads it with `initSync({ module: bytes })` or
// `await init({ module_or_path: path })` instead; until then every call
// says so.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { initSync as loadInitSync, initWith, isReady } from './loader.js';
import type { InitInput, LoaderPlatform, SyncInitInput } from './loader.js';
import { setNotLoadedHint } from './boundary.js';
import { jsError } from './errors.js';

declare const __dirname: string | undefined;

const WASM_FILE = 'editkit_bg.wasm';

function here(): string {
  // ESM bundles have import.meta.url (esbuild empties import.meta in the CJS
  // bundle, which has __dirname). import.meta.url goes first: a global
  // __dirname (node -e / --eval, Electron renderers with node integration)
  // names some other folder.
  const url: unknown = import.meta.url;
  if (typeof url === 'string' && url) return dirname(fileURLToPath(url));
  if (typeof __dirname === 'string') return __dirname;
  throw new Error('editkit: cannot locate editkit_bg.wasm (no import.meta.url or __dirname)');
}

/** The bytes of editkit_bg.wasm next to this module (throws when it is not there). */
function wasmNextToModule(): Uint8Array {
  return readFileSync(join(here(), WASM_FILE));
}

const NODE: LoaderPlatform = {
  defaultSource: wasmNextToModule,
  readLocal(source) {
    if (source instanceof URL) return source.protocol === 'file:' ? readFile(source) : undefined;
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !source.startsWith('file:')
      ? undefined
      : readFile(source.startsWith('file:') ? new URL(source) : source);
  },
};

// Instantiated at import when the wasm is next to this file (the package as
// installed). A bundle elsewhere (no file) is told how to load it; a file
// that is there but does not load (damaged, another version) says so, with
// the loader's error as the cause.
let wasmPath = '';
try {
  wasmPath = join(here(), WASM_FILE);
  loadInitSync({ module: wasmNextToModule() });
} catch (e) {
  const missing = (e as { code?: unknown } | null)?.code === 'ENOENT';
  setNotLoadedHint(wasmPath || WASM_FILE, missing ? undefined : e);
}

export * from './index.js';
export { createNodeFileHost } from './node-files.js';
export type { NodeFileHost, NodeFileHostOptions } from './node-files.js';
export type { InitInput, SyncInitInput } from './loader.js';

/**
 * Loads the wasm (idempotent). The Node build loads itself at import; this
 * matters only for a bundle that left editkit_bg.wasm behind:
 * `module_or_path` is then a file path, a `file:` URL, an http(s) URL, the
 * bytes or a compiled module. Same signature as the browser build's, so
 * isomorphic code compiles and runs in both.
 */
export default function init(input?: {
  module_or_path?: InitInput | Promise<InitInput>;
}): Promise<void> {
  return initWith(NODE, input);
}

/**
 * Instantiates the wasm from bytes or a compiled module (idempotent). The
 * Node build is usually ready at import; then, as after any successful
 * `init`, `initSync()` with no argument is a no-op. Without an argument and
 * not loaded, it reads editkit_bg.wasm next to this module again.
 */
export function initSync(input?: { module: SyncInitInput }): void {
  if (input !== undefined) return loadInitSync(input);
  if (isReady()) return;
  let bytes: Uint8Array;
  try {
    bytes = wasmNextToModule();
  } catch (e) {
    throw jsError(
      'INVALID_ARGUMENT',
      'notInitialisedNode',
      'en',
      [wasmPath || WASM_FILE],
      { subject: 'module' },
      e,
    );
  }
  loadInitSync({ module: bytes });
}

// Node entry (ESM and CJS builds): the wasm is read next to this file and
// instantiated at import, so no `init` call is needed. A bundle that left
// editkit_bg.wasm behind loads it with `initSync({ module: bytes })` or
// `await init({ module_or_path: path })` instead; until then every call
// says so.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { initSync as initSyncGlue } from 'editkit-glue';
import { initSync as loadInitSync, initWith, markReady } from './loader.js';
import type { InitInput, LoaderPlatform, SyncInitInput } from './loader.js';
import { setNotLoadedHint } from './boundary.js';

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

const NODE: LoaderPlatform = {
  defaultSource: () => readFileSync(join(here(), WASM_FILE)),
  readLocal(source) {
    if (source instanceof URL) return source.protocol === 'file:' ? readFile(source) : undefined;
    return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !source.startsWith('file:')
      ? undefined
      : readFile(source.startsWith('file:') ? new URL(source) : source);
  },
};

// Instantiated at import when the wasm is next to this file (the package as
// installed); a bundle elsewhere is told how to load it.
let wasmPath = '';
let loadedAtImport = false;
try {
  wasmPath = join(here(), WASM_FILE);
  initSyncGlue({ module: readFileSync(wasmPath) });
  markReady();
  loadedAtImport = true;
} catch {
  setNotLoadedHint(wasmPath || WASM_FILE);
}

export * from './index.js';
export { createNodeFileHost } from './node-files.js';
export type { NodeFileHost, NodeFileHostOptions } from './node-files.js';
export { serveMcp, MCP_PROTOCOL_VERSIONS } from './mcp/server.js';
export type { McpInput, McpOutput, McpServerOptions } from './mcp/server.js';
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
 * Node build is usually ready at import, and then `initSync()` with no
 * argument is a no-op, as it always was.
 */
export function initSync(input?: { module: SyncInitInput }): void {
  if (input === undefined && loadedAtImport) return;
  loadInitSync(input as { module: SyncInitInput });
}

// Node entry (ESM and CJS builds): the wasm is read next to this file and
// instantiated at import, so no `init` call is needed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { initSync as initSyncGlue } from 'editkit-glue';
import { markLoaded } from './boundary.js';

declare const __dirname: string | undefined;

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

initSyncGlue({ module: readFileSync(join(here(), 'editkit_bg.wasm')) });
markLoaded();

export * from './index.js';
export { createNodeFileHost } from './node-files.js';
export type { NodeFileHost, NodeFileHostOptions } from './node-files.js';
export { serveMcp, MCP_PROTOCOL_VERSIONS } from './mcp/server.js';
export type { McpInput, McpOutput, McpServerOptions } from './mcp/server.js';

/** Present for symmetry with the web build; the Node build is ready at import. */
export default async function init(): Promise<void> {}

/** Present for symmetry with the web build; the Node build is ready at import. */
export function initSync(): void {}

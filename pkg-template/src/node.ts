// Node entry (ESM and CJS builds): the wasm is read next to this file and
// instantiated at import, so no `init` call is needed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { initSync as initSyncGlue } from 'editkit-glue';

declare const __dirname: string | undefined;

function here(): string {
  // CJS bundles define __dirname; ESM bundles have import.meta.url.
  if (typeof __dirname === 'string') return __dirname;
  return dirname(fileURLToPath(import.meta.url));
}

initSyncGlue({ module: readFileSync(join(here(), 'editkit_bg.wasm')) });

export * from './index.js';

/** Present for symmetry with the web build; the Node build is ready at import. */
export default async function init(): Promise<void> {}

/** Present for symmetry with the web build; the Node build is ready at import. */
export function initSync(): void {}

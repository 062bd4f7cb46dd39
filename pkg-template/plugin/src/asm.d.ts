// The wasm2js build of the core (pkg-template/plugin/build.mjs wraps it as
// this module, aliased `editkit-asm`).
declare module 'editkit-asm' {
  /** Instantiates the core with the glue's imports; answers its exports. */
  export function instantiate(imports: unknown): Record<string, unknown>;
  /** The names the wasm module exports (`memory` first). */
  export const EXPORT_NAMES: readonly string[];
}

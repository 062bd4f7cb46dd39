// What the engine needs from a JavaScript runtime and SiYuan's kernel
// plugins lack: they run in goja, which has no WebAssembly, no
// TextEncoder/TextDecoder and no queueMicrotask. Imported before anything
// else in kernel.ts, because the glue makes its TextDecoder when it loads.
//
// - WebAssembly: the core is the same crate compiled to JavaScript
//   (wasm2js, `editkit-asm`). The loader and the glue are the package's
//   own; they reach the core through the four entries they use
//   (`Module`, `Module.exports`, `Instance`, `RuntimeError`), so a trap in
//   the core is a `WebAssembly.RuntimeError` here too and the instance is
//   replaced as in the package (boundary.ts).
// - Text: strings cross into the core's memory as UTF-8. goja_nodejs'
//   Buffer converts in Go, which an interpreted loop cannot match on whole
//   documents; neither adds or removes a byte order mark.
import { EXPORT_NAMES, instantiate } from 'editkit-asm';

interface GoBuffer extends Uint8Array {
  toString(encoding?: 'utf8'): string;
}
interface BufferStatics {
  from(text: string, encoding: 'utf8'): GoBuffer;
  from(buffer: ArrayBufferLike, byteOffset: number, length: number): GoBuffer;
}

const global = globalThis as Record<string, unknown>;

function buffers(): BufferStatics {
  const statics = global.Buffer as BufferStatics | undefined;
  if (typeof statics?.from !== 'function')
    throw new Error('editkit: this runtime has neither TextEncoder nor Buffer');
  return statics;
}

/** `new TextEncoder()`, over Buffer: UTF-8, lone surrogates as U+FFFD. */
class BufferTextEncoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    return buffers().from(String(text), 'utf8');
  }
  /**
   * Writes as many whole characters as fit, as the standard one does (the
   * glue always gives room for the whole text; the loop is for a view too
   * short).
   */
  encodeInto(text: string, into: Uint8Array): { read: number; written: number } {
    const bytes = this.encode(text);
    if (bytes.length <= into.length) {
      into.set(bytes);
      return { read: text.length, written: bytes.length };
    }
    let read = 0;
    let written = 0;
    for (const char of text) {
      const encoded = this.encode(char);
      if (written + encoded.length > into.length) break;
      into.set(encoded, written);
      written += encoded.length;
      read += char.length;
    }
    return { read, written };
  }
}

/**
 * `new TextDecoder('utf-8')`, over Buffer. A byte order mark is kept (the
 * glue asks for `ignoreBOM`); malformed bytes become U+FFFD, as without
 * `fatal` (the core writes well-formed UTF-8 only). Other encodings are
 * refused, as an engine refuses a label it does not know.
 */
class BufferTextDecoder {
  readonly encoding = 'utf-8';
  constructor(label = 'utf-8') {
    if (!/^\s*(utf-?8|unicode-1-1-utf-8)\s*$/i.test(String(label)))
      throw new RangeError(`editkit: this runtime decodes UTF-8 only, not ${String(label)}`);
  }
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (input === undefined) return '';
    const bytes = ArrayBuffer.isView(input)
      ? new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
      : new Uint8Array(input);
    if (bytes.length === 0) return '';
    return buffers().from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  }
}

/** The compiled module: editkit's JavaScript core has nothing to compile. */
class AsmModule {
  constructor(source?: unknown) {
    // Bytes (a wasm module handed to initSync) cannot be compiled here.
    if (source !== undefined)
      throw new TypeError('editkit: this runtime has no WebAssembly; only the built-in core loads');
  }
  static exports(_module: AsmModule): { name: string; kind: string }[] {
    return EXPORT_NAMES.map((name) => ({ name, kind: name === 'memory' ? 'memory' : 'function' }));
  }
}

class AsmInstance {
  readonly exports: Record<string, unknown>;
  constructor(module: unknown, imports: unknown) {
    if (!(module instanceof AsmModule)) throw new TypeError('editkit: not the built-in core');
    this.exports = instantiate(imports);
  }
}

/** What the core throws when it traps (`unreachable`: a Rust panic). */
class AsmRuntimeError extends Error {
  override name = 'RuntimeError';
}

/** Installs what is missing; a runtime that has the real thing keeps it. */
function installRuntime(): void {
  if (typeof global.TextEncoder !== 'function') global.TextEncoder = BufferTextEncoder;
  if (typeof global.TextDecoder !== 'function') global.TextDecoder = BufferTextDecoder;
  if (typeof global.queueMicrotask !== 'function')
    global.queueMicrotask = (task: () => void) => void Promise.resolve().then(task);
  // The JavaScript core always stands in for WebAssembly here, even in a
  // runtime that has it (Node, where tests/node/plugin-core.test.mjs runs
  // the plugin's core): what is tested is what goja runs.
  global.WebAssembly = {
    Module: AsmModule,
    Instance: AsmInstance,
    RuntimeError: AsmRuntimeError,
  };
}

/** The argument `initSync` takes for the built-in core. */
export function builtInCore(): { module: unknown } {
  return { module: new AsmModule() };
}

installRuntime();

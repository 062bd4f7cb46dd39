// Loading the wasm, shared by the browser and the Node entries: init
// (async, from a URL, a Response, bytes or a compiled module) and initSync
// (bytes or a module). Each entry says where the wasm is by default.
import initGlue, { initSync as initSyncGlue } from 'editkit-glue';
import { describe as message, markLoaded } from './boundary.js';
import { EditkitError } from './errors.js';

/** What `init({ module_or_path })` loads the wasm from: a URL, a `fetch` Response, the bytes, or a compiled module. */
export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
/** What `initSync({ module })` instantiates: the wasm bytes or a compiled module. */
export type SyncInitInput = BufferSource | WebAssembly.Module;

/** How an entry finds the wasm when `init()` is given no `module_or_path`, and reads paths. */
export interface LoaderPlatform {
  /** The default source (a URL next to the module, or bytes read from disk). */
  defaultSource(): unknown;
  /** Reads a local path or `file:` URL (Node), or undefined to fetch it. */
  readLocal?(source: string | URL): Promise<Uint8Array> | undefined;
  /**
   * Added to a failed fetch's message: where the wasm must be, and how to put
   * it there. `answer` is the HTTP error status, `'page'` for an HTML page
   * (a dev server's fallback for a missing file), or `'not-wasm'` for other
   * bytes that are not a wasm module.
   */
  hint?(answer: number | 'page' | 'not-wasm'): string;
}

/** @internal Whether the wasm is instantiated. */
export function isReady(): boolean {
  return ready;
}

/** @internal `init` of an entry: loads from `module_or_path`, else from the platform's default. */
export async function initWith(
  platform: LoaderPlatform,
  input?: {
    module_or_path?: InitInput | Promise<InitInput>;
  },
): Promise<void> {
  const options = loaderOptions(input, 'module_or_path', 'init');
  if (ready) return;
  loading ??= load(platform, options.module_or_path).finally(() => {
    loading = undefined;
  });
  return loading;
}

/**
 * Instantiates the wasm module synchronously from bytes or a compiled module
 * (idempotent). Throws `EditkitError` `INVALID_ARGUMENT` (subject `module`,
 * the WebAssembly error as `cause`) when the argument is not `{ module }` or
 * the module cannot be compiled or instantiated, or is not editkit's.
 */
export function initSync(input: { module: SyncInitInput }): void {
  const options = loaderOptions(input, 'module', 'initSync');
  if (ready) return;
  const source = options.module;
  let module: WebAssembly.Module;
  if (source instanceof WebAssembly.Module) {
    module = source;
  } else if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    try {
      module = new WebAssembly.Module(source as BufferSource);
    } catch (e) {
      throw loadError(
        'initSync',
        'module',
        `could not compile the wasm module from ${describeSource(source)}: ${message(e)}`,
        e,
      );
    }
  } else {
    throw loadError(
      'initSync',
      'module',
      `expected { module } with the wasm bytes (ArrayBuffer or a typed array) or a WebAssembly.Module, got ${describeSource(source)}`,
    );
  }
  checkModule(module, 'initSync', 'module');
  try {
    initSyncGlue({ module });
  } catch (e) {
    throw loadError(
      'initSync',
      'module',
      `could not instantiate the wasm module: ${message(e)}`,
      e,
    );
  }
  ready = true;
  markLoaded();
}

let ready = false;
let loading: Promise<void> | undefined;

// Exports every editkit_bg.wasm has. A foreign module that instantiated
// would leave the glue holding its exports (and later init calls no-ops),
// so modules are checked before the glue sees them.
// (Not `__wbindgen_start`: only a build with reference types has it, and
// the kernel plugin's build has none.)
const REQUIRED_EXPORTS = [
  'memory',
  'version',
  'validateBlockDiffFormat',
  'applyBlockDiff',
  'findMatch',
  'fileeditsessioncore_new',
];

function checkModule(module: WebAssembly.Module, fn: string, subject: string): void {
  const names = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = REQUIRED_EXPORTS.filter((n) => !names.has(n));
  if (missing.length > 0) {
    throw loadError(
      fn,
      subject,
      `this wasm module is not editkit's (it lacks ${missing.join(', ')}); load the editkit_bg.wasm shipped with this version of the package`,
    );
  }
}

/** Fetches (when given a URL) and compiles the module, checks it, then hands it to the glue. */
async function load(platform: LoaderPlatform, given: unknown): Promise<void> {
  let source: unknown = given;
  try {
    source ??= platform.defaultSource();
  } catch (e) {
    // An entry that has no default (editkit/web-external) says why itself.
    if (e instanceof EditkitError) throw e;
    throw loadError(
      'init',
      'module_or_path',
      'no module_or_path was given and editkit_bg.wasm could not be located next to this module; pass init({ module_or_path })',
      e,
    );
  }
  const what = describeSource(source);
  let module: WebAssembly.Module;
  try {
    let value: unknown = await source;
    const local =
      typeof value === 'string' || value instanceof URL ? platform.readLocal?.(value) : undefined;
    if (local) value = await local;
    if (
      typeof value === 'string' ||
      value instanceof URL ||
      (typeof Request === 'function' && value instanceof Request)
    ) {
      value = await fetch(value as RequestInfo | URL);
    }
    if (typeof Response === 'function' && value instanceof Response) {
      if (!value.ok)
        throw new Error(
          `HTTP ${value.status}${value.statusText ? ` ${value.statusText}` : ''} fetching ${value.url || 'the module'}${platform.hint ? `. ${platform.hint(value.status)}` : ''}`,
        );
      const type = (value.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
      // A page where the wasm should be (a dev server's fallback for a file
      // it does not have): said as such before the body is read.
      if (type === 'text/html' || type === 'application/xhtml+xml')
        throw notWasmAnswer(platform, value, 'page', `an HTML page (content-type ${type})`);
      if (typeof WebAssembly.compileStreaming === 'function' && type === 'application/wasm') {
        module = await WebAssembly.compileStreaming(value);
      } else {
        const bytes = await value.arrayBuffer();
        const answer = notWasm(new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 64)));
        if (answer) throw notWasmAnswer(platform, value, answer[0], answer[1]);
        module = await WebAssembly.compile(bytes);
      }
    } else if (value instanceof WebAssembly.Module) {
      module = value;
    } else if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
      module = await WebAssembly.compile(value as BufferSource);
    } else {
      throw loadError(
        'init',
        'module_or_path',
        `expected module_or_path to be a URL, a Response, the wasm bytes or a WebAssembly.Module, got ${describeSource(value)}`,
      );
    }
  } catch (e) {
    if (e instanceof EditkitError) throw e;
    throw loadError(
      'init',
      'module_or_path',
      `could not load the wasm module from ${what}: ${message(e)}`,
      e,
    );
  }
  checkModule(module, 'init', 'module_or_path');
  try {
    await initGlue({ module_or_path: module });
  } catch (e) {
    throw loadError(
      'init',
      'module_or_path',
      `could not instantiate the wasm module from ${what}: ${message(e)}`,
      e,
    );
  }
  ready = true;
  markLoaded();
}

const WASM_MAGIC = [0x00, 0x61, 0x73, 0x6d]; // "\0asm"

/**
 * What a fetched body that is not a wasm module is (`'page'`: it begins
 * with `<`, after any BOM and white space; else `'not-wasm'`) and how to
 * say it, or undefined when it begins with the wasm magic (compiling it
 * then says what else is wrong).
 */
function notWasm(head: Uint8Array): ['page' | 'not-wasm', string] | undefined {
  if (head.length >= 4 && WASM_MAGIC.every((b, i) => head[i] === b)) return undefined;
  if (head.length === 0) return ['not-wasm', 'an empty body'];
  let start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (start < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[start] as number)) start++;
  const text = Array.from(head.subarray(start, start + 24), (b) =>
    b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.',
  ).join('');
  return head[start] === 0x3c
    ? ['page', `an HTML page ("${text}…")`]
    : [
        'not-wasm',
        `bytes that are not a wasm module (they begin ${Array.from(head.subarray(0, 4), (b) =>
          b.toString(16).padStart(2, '0'),
        ).join(' ')}, "${text}…", where a wasm module begins 00 61 73 6d)`,
      ];
}

function notWasmAnswer(
  platform: LoaderPlatform,
  response: Response,
  answer: 'page' | 'not-wasm',
  what: string,
): Error {
  return new Error(
    `${response.url || 'the server'} answered with ${what} instead of the wasm. ${platform.hint ? platform.hint(answer) : 'Check that the URL serves editkit_bg.wasm.'}`,
  );
}

function loaderOptions<K extends string>(
  input: unknown,
  key: K,
  fn: string,
): Partial<Record<K, unknown>> {
  if (input === undefined || input === null) {
    if (fn === 'init') return {};
  } else if (typeof input === 'object' && !Array.isArray(input)) {
    const proto: unknown = Object.getPrototypeOf(input);
    // A plain object; a URL, Response or bytes passed directly is the old
    // wasm-bindgen calling form, which editkit does not take.
    if (proto === Object.prototype || proto === null) {
      try {
        return { [key]: (input as Record<string, unknown>)[key] } as Partial<Record<K, unknown>>;
      } catch (e) {
        throw loadError(fn, key, `${fn} options.${key} could not be read`, e);
      }
    }
  }
  throw loadError(fn, key, `${fn}(options): expected { ${key} }, got ${describeSource(input)}`);
}

function loadError(fn: string, subject: string, detail: string, cause?: unknown): EditkitError {
  const text = detail.startsWith(fn) ? detail : `${fn}: ${detail}`;
  return new EditkitError(
    { code: 'INVALID_ARGUMENT', message: text, subject },
    cause === undefined ? undefined : { cause },
  );
}

function describeSource(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof URL === 'function' && value instanceof URL) return value.href;
  if (typeof Response === 'function' && value instanceof Response)
    return `a Response (${value.status}${value.url ? ` ${value.url}` : ''})`;
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value))
    return `${(value as ArrayBuffer).byteLength} bytes`;
  if (typeof value === 'object') {
    const proto: unknown = Object.getPrototypeOf(value);
    const name =
      typeof proto === 'object' && proto !== null
        ? (proto as { constructor?: { name?: unknown } }).constructor?.name
        : undefined;
    return typeof name === 'string' && name
      ? `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`
      : 'an object';
  }
  return typeof value;
}

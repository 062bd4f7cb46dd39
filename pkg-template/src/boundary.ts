// Everything that crosses into wasm goes through here: texts go as
// strings, checked for lone surrogates (wasm-bindgen would turn them into
// U+FFFD); every other value goes as JSON text, read here first (so a
// getter that throws fails here, not inside wasm); answers come back as
// JSON; thrown values become `EditkitError`; a trapped module is restarted
// so the next call works.

import * as glue from 'editkit-glue';
import { EditkitError, isEditkitError, jsError } from './errors.js';
import { resetFastExactCount } from './exact-fast.js';
import { DEFAULT_TIMEOUT_MS, isTimeout, settleWithin, timeoutOf } from './timeout.js';
import type { EditkitErrorData, Lang } from './types.js';

const MAX_DEPTH = 32;

function langOf(options: unknown): Lang {
  try {
    const lang = (options as { lang?: unknown } | null | undefined)?.lang;
    return lang === 'zh' ? 'zh' : 'en';
  } catch {
    return 'en';
  }
}

function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof native === 'function') return native.call(s);
  // Without String.prototype.isWellFormed (goja, SiYuan's kernel plugins;
  // engines before 2023): encodeURIComponent throws a URIError on a lone
  // surrogate in every engine (ECMA-262 Encode). A surrogate regex is no
  // test there: goja matches `[\uD800-\uDBFF](?![\uDC00-\uDFFF])` on a
  // well-formed pair, so every emoji read as broken text.
  try {
    encodeURIComponent(s);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks `value` before it crosses into wasm: strings well-formed, every
 * property readable, bounded depth. Throws `EditkitError`, naming the
 * value's path (`getBlocks() answer[3].markdown`). The path is kept as a
 * list and spelt out only for the error: building each element's name up
 * front cost more than the check itself on a 100,000-id child list.
 */
export function check(value: unknown, name: string, lang: Lang): void {
  const path: (string | number)[] = [];
  const at = () => name + path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
  const walk = (v: unknown, depth: number): void => {
    if (typeof v === 'string') {
      if (!isWellFormed(v))
        throw jsError('INVALID_TEXT', 'invalidText', lang, [at()], { subject: at() });
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (depth > MAX_DEPTH) {
      throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [at(), 'nested too deeply'], {
        subject: at(),
      });
    }
    // Each value is read before its key joins the path: a getter that
    // throws is reported at the object that has it.
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        path.push(i);
        walk(item, depth + 1);
        path.pop();
      }
      return;
    }
    for (const key of Object.keys(v)) {
      const item = (v as Record<string, unknown>)[key];
      path.push(key);
      walk(item, depth + 1);
      path.pop();
    }
  };
  try {
    walk(value, 0);
  } catch (e) {
    if (isEditkitError(e)) throw e;
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      [at(), `could not be read (${describe(e)})`],
      { subject: at() },
      e,
    );
  }
}

/** `value` checked and encoded as the JSON text the wasm side reads. */
export function json(value: unknown, name: string, lang: Lang): string {
  check(value, name, lang);
  try {
    return JSON.stringify(value ?? null);
  } catch (e) {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      [name, `could not be encoded (${describe(e)})`],
      { subject: name },
      e,
    );
  }
}

/** A required string argument. */
export function text(value: unknown, name: string, lang: Lang): string {
  if (typeof value !== 'string') {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      [name, `expected a string, got ${typeName(value)}`],
      {
        subject: name,
      },
    );
  }
  check(value, name, lang);
  return value;
}

/** An optional options object, as JSON text. */
export function options(value: unknown, name: string, lang: Lang): string {
  if (value === undefined || value === null) return '{}';
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      [name, `expected an object, got ${typeName(value)}`],
      {
        subject: name,
      },
    );
  }
  return json(value, name, lang);
}

/** A required argument object, as JSON text. */
export function object(value: unknown, name: string, lang: Lang): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [name, 'expected an object'], {
      subject: name,
    });
  }
  return json(value, name, lang);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/** A thrown value's message, whatever was thrown. */
export function describe(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return String(e);
  } catch {
    return 'an unprintable value';
  }
}

/** Errors raised by host callbacks during one call, to attach as `cause`. */
export class HostContext {
  readonly errors: unknown[] = [];
}

let loaded = false;

/** @internal The entry has instantiated the wasm (node.ts at import, web.ts in init/initSync). */
export function markLoaded(): void {
  loaded = true;
}

// Where the Node build looked for the wasm when it did not load at import,
// and why when the file was there: the not-initialised error then says
// what to do.
let missingWasmPath: string | undefined;
let importFailure: unknown;

/** @internal node.ts: the wasm at `path` was missing (no `failure`) or did not load. */
export function setNotLoadedHint(path: string, failure?: unknown): void {
  missingWasmPath = path;
  importFailure = failure;
}

/**
 * The async calls in flight, by the function that rejects each. A future
 * is polled from a microtask and woken from promise callbacks, outside the
 * stack of the call that started it; the glue hands what those callbacks
 * throw to `replaceInstance` (pkg-template/build.mjs).
 */
const inFlight = new Set<(thrown: unknown) => void>();

/** What an async call in flight rejects with when its instance trapped. */
class AsyncTrap {
  constructor(readonly thrown: unknown) {}
}

/**
 * Replaces a trapped instance, once, and rejects every async call in
 * flight with INTERNAL_ERROR: their futures lived in the instance that
 * trapped (whether a poll or a synchronous call trapped), so they would
 * otherwise never settle. The rejections wait one microtask: a call whose
 * future finished in the same batch of polls before the trap has its
 * answer queued already, and keeps it (its writes happened; its report and
 * undo must not be lost).
 */
function replaceInstance(thrown: unknown): void {
  try {
    glue.__wbg_reset_state();
  } catch {
    // The next call re-initialises or reports again.
  }
  // The new instance's counters start at zero; so do the JS layer's.
  resetFastExactCount();
  const rejecters = [...inFlight];
  queueMicrotask(() => {
    for (const reject of rejecters) if (inFlight.delete(reject)) reject(new AsyncTrap(thrown));
  });
}

glue.__editkitOnAsyncFailure(replaceInstance);

function fromWasm(thrown: unknown, lang: Lang, ctx?: HostContext): EditkitError {
  if (isEditkitError(thrown)) return thrown;
  if (thrown instanceof AsyncTrap) {
    // The instance was replaced when the trap was reported.
    const cause = thrown.thrown;
    const message = cause instanceof Error ? cause.message : String(cause);
    return jsError('INTERNAL_ERROR', 'internal', lang, [message], {}, cause);
  }
  if (!loaded) {
    // The glue has no instance yet: say what to do, not "internal error".
    if (missingWasmPath === undefined)
      return jsError('INTERNAL_ERROR', 'notInitialised', lang, [], { subject: 'init' }, thrown);
    if (importFailure === undefined)
      return jsError(
        'INTERNAL_ERROR',
        'notInitialisedNode',
        lang,
        [missingWasmPath],
        { subject: 'init' },
        thrown,
      );
    return jsError(
      'INTERNAL_ERROR',
      'notInitialisedBroken',
      lang,
      [missingWasmPath, describe(importFailure)],
      { subject: 'init' },
      importFailure,
    );
  }
  if (typeof WebAssembly !== 'undefined' && thrown instanceof WebAssembly.RuntimeError) {
    replaceInstance(thrown);
    return jsError('INTERNAL_ERROR', 'internal', lang, [thrown.message], {}, thrown);
  }
  if (typeof thrown === 'string' && thrown.startsWith('{')) {
    try {
      thrown = JSON.parse(thrown) as unknown;
    } catch {
      // Not editkit's JSON: reported below.
    }
  }
  if (
    typeof thrown === 'object' &&
    thrown !== null &&
    typeof (thrown as { code?: unknown }).code === 'string'
  ) {
    const data = thrown as EditkitErrorData;
    const cause =
      (data.code === 'HOST_ERROR' || data.code === 'HOST_TIMEOUT') && ctx && ctx.errors.length > 0
        ? ctx.errors[ctx.errors.length - 1]
        : undefined;
    return new EditkitError(data, cause === undefined ? undefined : { cause });
  }
  return jsError('INTERNAL_ERROR', 'internal', lang, [describe(thrown)], {}, thrown);
}

/** The value of an export's JSON answer. */
function decode<T>(answer: unknown): T {
  return (typeof answer === 'string' ? JSON.parse(answer) : answer) as T;
}

/** Runs a synchronous export. */
export function call<T>(lang: Lang, fn: () => unknown): T {
  let answer: unknown;
  try {
    answer = fn();
  } catch (e) {
    throw fromWasm(e, lang);
  }
  return decode<T>(answer);
}

/** Runs an async export. */
export async function callAsync<T>(
  lang: Lang,
  ctx: HostContext,
  fn: () => Promise<unknown>,
): Promise<T> {
  let answer: unknown;
  try {
    answer = await new Promise<unknown>((resolve, reject) => {
      // A synchronous throw of fn rejects this promise before it is in flight.
      const running = fn();
      inFlight.add(reject);
      running.then(
        (value) => {
          inFlight.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          inFlight.delete(reject);
          reject(error);
        },
      );
    });
  } catch (e) {
    throw fromWasm(e, lang, ctx);
  }
  return decode<T>(answer);
}

/**
 * Wraps a host object for one call: each callback's answer is checked and
 * handed to wasm as JSON text, and what it throws is recorded (it becomes
 * the `cause` of the `HOST_ERROR`). Only callbacks the host has are
 * present, so the core's capability checks see the same host.
 */
export function wrapHost(
  host: unknown,
  lang: Lang,
  ctx: HostContext,
  timeoutMs: number = DEFAULT_TIMEOUT_MS,
): Record<string, unknown> {
  const wrapped: Record<string, unknown> = {};
  if (typeof host !== 'object' || host === null) return wrapped;
  for (const name of HOST_CALLBACKS) {
    let f: unknown;
    try {
      f = (host as Record<string, unknown>)[name];
    } catch (e) {
      ctx.errors.push(e);
      continue;
    }
    if (typeof f !== 'function') continue;
    wrapped[name] = async (...args: unknown[]) => {
      let result: unknown;
      try {
        result = await settleWithin(
          () => (f as (...a: unknown[]) => unknown).apply(host, args),
          timeoutMs,
          name,
        );
      } catch (e) {
        ctx.errors.push(e);
        const error = new Error(describe(e));
        // The core reads `timeout` to report HOST_TIMEOUT and to treat a
        // write as an unknown outcome (SPEC §3.7 rules 3 and 11).
        if (isTimeout(e)) (error as Error & { timeout?: boolean }).timeout = true;
        throw error;
      }
      try {
        return json(result, `${name}() result`, lang);
      } catch (e) {
        ctx.errors.push(e);
        throw new Error(describe(e));
      }
    };
  }
  return wrapped;
}

export { DEFAULT_TIMEOUT_MS, settleWithin, timeoutOf };

/** The SiYuan host callbacks that change notes (the tool runner guards them per call). */
export const SIYUAN_WRITE_CALLBACKS = [
  'updateBlock',
  'deleteBlock',
  'insertBlock',
  'prependBlock',
  'appendBlock',
  'updateBlocks',
  'insertBlocks',
  'prependBlocks',
  'appendBlocks',
  'flushTransaction',
  'createDoc',
  'createDailyNote',
] as const;

const HOST_CALLBACKS = [
  'getBlocks',
  'getChildBlocks',
  'getKramdown',
  ...SIYUAN_WRITE_CALLBACKS,
  'getBreadcrumb',
  'getDocHeadings',
  'getReferencedIds',
  'splitMarkdown',
  'getKernelVersion',
] as const;

export { langOf };

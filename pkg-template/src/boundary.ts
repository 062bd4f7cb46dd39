// Everything that crosses into wasm goes through here: arguments are
// copied into plain data (a getter that throws cannot fire inside wasm),
// strings are checked for lone surrogates (wasm-bindgen would turn them
// into U+FFFD), thrown values become `EditkitError`, and a trapped module is
// restarted so the next call works.

import * as glue from 'editkit-glue';
import { EditkitError, isEditkitError, jsError } from './errors.js';
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
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

/**
 * A plain-data copy of `value` (strings, numbers, booleans, null, arrays,
 * plain objects), with every string checked. Functions are dropped unless
 * `keepFunctions`. Throws `EditkitError` for bad text or unreadable values.
 */
export function plain(value: unknown, name: string, lang: Lang, depth = 0): unknown {
  if (typeof value === 'string') {
    if (!isWellFormed(value)) throw jsError('INVALID_TEXT', 'invalidText', lang, [name], { subject: name });
    return value;
  }
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object' || depth > MAX_DEPTH) {
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [name, 'nested too deeply'], { subject: name });
  }
  try {
    if (Array.isArray(value)) {
      return value.map((v, i) => plain(v, `${name}[${i}]`, lang, depth + 1));
    }
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const v = plain((value as Record<string, unknown>)[key], `${name}.${key}`, lang, depth + 1);
      if (v !== undefined) out[key] = v;
    }
    return out;
  } catch (e) {
    if (isEditkitError(e)) throw e;
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [name, `could not be read (${describe(e)})`], { subject: name }, e);
  }
}

/** A required string argument. */
export function text(value: unknown, name: string, lang: Lang): string {
  if (typeof value !== 'string') {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [name, `expected a string, got ${typeName(value)}`], {
      subject: name,
    });
  }
  return plain(value, name, lang) as string;
}

/** An optional options object. */
export function options(value: unknown, name: string, lang: Lang): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, [name, `expected an object, got ${typeName(value)}`], {
      subject: name,
    });
  }
  return plain(value, name, lang) as Record<string, unknown>;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function describe(e: unknown): string {
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

function fromWasm(thrown: unknown, lang: Lang, ctx?: HostContext): EditkitError {
  if (isEditkitError(thrown)) return thrown;
  if (typeof WebAssembly !== 'undefined' && thrown instanceof WebAssembly.RuntimeError) {
    try {
      glue.__wbg_reset_state();
    } catch {
      // The next call re-initialises or reports again.
    }
    return jsError('INTERNAL_ERROR', 'internal', lang, [thrown.message], {}, thrown);
  }
  if (typeof thrown === 'object' && thrown !== null && typeof (thrown as { code?: unknown }).code === 'string') {
    const data = thrown as EditkitErrorData;
    const cause = data.code === 'HOST_ERROR' && ctx && ctx.errors.length > 0 ? ctx.errors[ctx.errors.length - 1] : undefined;
    return new EditkitError(data, cause === undefined ? undefined : { cause });
  }
  return jsError('INTERNAL_ERROR', 'internal', lang, [describe(thrown)], {}, thrown);
}

/** Runs a synchronous export. */
export function call<T>(lang: Lang, fn: () => unknown): T {
  try {
    return fn() as T;
  } catch (e) {
    throw fromWasm(e, lang);
  }
}

/** Runs an async export. */
export async function callAsync<T>(lang: Lang, ctx: HostContext, fn: () => Promise<unknown>): Promise<T> {
  try {
    return (await fn()) as T;
  } catch (e) {
    throw fromWasm(e, lang, ctx);
  }
}

/**
 * Wraps a host object for one call: each callback's result is copied into
 * plain, checked data, and what it throws is recorded (it becomes the
 * `cause` of the `HOST_ERROR`). Only callbacks the host has are present, so
 * the core's capability checks see the same host.
 */
export function wrapHost(host: unknown, lang: Lang, ctx: HostContext): Record<string, unknown> {
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
        result = await (f as (...a: unknown[]) => unknown).apply(host, args);
      } catch (e) {
        ctx.errors.push(e);
        throw new Error(describe(e));
      }
      try {
        return plain(result, `${name}() result`, lang);
      } catch (e) {
        ctx.errors.push(e);
        throw new Error(describe(e));
      }
    };
  }
  return wrapped;
}

const HOST_CALLBACKS = [
  'getBlocks',
  'getChildBlocks',
  'getKramdown',
  'updateBlock',
  'deleteBlock',
  'insertBlock',
  'prependBlock',
  'appendBlock',
  'flushTransaction',
  'getBreadcrumb',
  'createDoc',
  'createDailyNote',
  'getDocHeadings',
] as const;

export { langOf };

// Time limits on host callbacks and kernel requests (SPEC §3.7 rule 11): a
// callback that never settles ends the call with HOST_TIMEOUT instead of
// hanging it forever. No wasm here: the SiYuan adapter uses it too.

import { isEditkitError } from './errors.js';

/** The default of every `timeoutMs` (SPEC §3.7 rule 11). */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** A host callback that did not settle in time. */
export class HostTimeoutError extends Error {
  readonly timeout = true;
  constructor(name: string, ms: number) {
    super(`${name} did not settle within ${ms} ms`);
    this.name = 'HostTimeoutError';
  }
}

export function isTimeout(e: unknown): boolean {
  return (
    e instanceof HostTimeoutError ||
    (isEditkitError(e) && e.code === 'HOST_TIMEOUT') ||
    (typeof e === 'object' && e !== null && (e as { timeout?: unknown }).timeout === true)
  );
}

/** Runs `f`, failing with `HostTimeoutError` if it has not settled after `ms`. */
export async function settleWithin<T>(f: () => T, ms: number, name: string): Promise<Awaited<T>> {
  if (!Number.isFinite(ms) || ms <= 0) return await f();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HostTimeoutError(name, ms)), ms);
  });
  try {
    return await Promise.race([Promise.resolve().then(f), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** `timeoutMs` of an options object: a positive number, else the default. */
export function timeoutOf(opts: unknown): number {
  const v =
    typeof opts === 'object' && opts !== null
      ? (opts as { timeoutMs?: unknown }).timeoutMs
      : undefined;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : DEFAULT_TIMEOUT_MS;
}

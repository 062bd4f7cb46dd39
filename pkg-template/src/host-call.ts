// Calling a host callback: within its time limit, and with whatever it
// throws turned into HOST_TIMEOUT or HOST_ERROR naming the callback (the
// original error as cause).

import { EditkitError, isEditkitError } from './errors.js';
import { HostTimeoutError, settleWithin } from './timeout.js';

/** Runs a host callback; a throw or rejection becomes HOST_ERROR naming the callback (original error as cause). */
export async function hostCall<T>(
  what: string,
  fn: () => T | Promise<T>,
  timeoutMs: number,
  subject = 'files',
): Promise<T> {
  try {
    return await settleWithin(fn, timeoutMs, what);
  } catch (e) {
    if (isEditkitError(e)) throw e;
    if (e instanceof HostTimeoutError)
      throw new EditkitError(
        { code: 'HOST_TIMEOUT', message: `${what} did not answer within ${timeoutMs} ms`, subject },
        { cause: e },
      );
    const message = e instanceof Error ? e.message : describeValue(e);
    throw new EditkitError(
      { code: 'HOST_ERROR', message: `${what} failed: ${message}`, subject },
      { cause: e },
    );
  }
}

/** A short description of a value a callback returned or threw. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

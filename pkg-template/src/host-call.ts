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

/**
 * A host's `readFile(path)` within its time limit: the file's text, or
 * `null` when it does not exist; any other answer is HOST_ERROR saying
 * what came back.
 */
export async function readFileText(
  readFile: (path: string) => unknown,
  path: string,
  timeoutMs: number,
): Promise<string | null> {
  const what = `files.readFile(${JSON.stringify(path)})`;
  const text: unknown = await hostCall(what, () => readFile(path), timeoutMs);
  if (text === undefined || text === null) return null;
  if (typeof text !== 'string')
    throw new EditkitError({
      code: 'HOST_ERROR',
      subject: 'files',
      message: `${what} returned ${describeValue(text)}; expected the file's text, or null when it does not exist`,
    });
  return text;
}

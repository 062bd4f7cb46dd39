// One tool call's view of the hosts: the writes of a call that may be
// cancelled are guarded, and each write is reported. A call cancelled
// before its first write writes nothing; one cancelled later completes
// (an apply is never left half-written by a cancellation).

import { unifiedDiff } from '../api.js';
import { SAME_HOST } from '../turns.js';
import { SIYUAN_WRITE_CALLBACKS } from '../boundary.js';
import type { Lang } from '../types.js';
import { say } from './messages.js';
import type { RunOptions, ToolResult, WriteEvent } from './types.js';

/** The file host callbacks that change files. */
export const FILE_WRITES: ReadonlySet<string> = new Set(['writeFile', 'deleteFile']);

/** The SiYuan host callbacks that change notes. */
export const SIYUAN_WRITES: ReadonlySet<string> = new Set(SIYUAN_WRITE_CALLBACKS);

/** Thrown by a guarded write when the call was cancelled before any write. */
export class Cancelled extends Error {
  constructor() {
    super('the call was cancelled before its first write');
    this.name = 'Cancelled';
  }
}

/** The call options as given, keeping only what has the right type. */
export function readRunOptions(call: unknown): RunOptions {
  if (typeof call !== 'object' || call === null) return {};
  const { signal, onWrite } = call as Record<string, unknown>;
  const out: RunOptions = {};
  if (typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal) out.signal = signal;
  if (typeof onWrite === 'function') out.onWrite = onWrite as RunOptions['onWrite'];
  return out;
}

export class CallScope {
  /** Writes begun (a write counts from its start: one begun is never taken back). */
  private begun = 0;
  private done = 0;
  /** The writes the call said it makes in all (see expectWrites). */
  private expected: number | undefined;
  /** A write was refused because the call was cancelled. */
  private refused = false;
  private readonly views = new WeakMap<object, object>();
  /** Each file's text before the call's first write to it (`null`: it did not exist), as read. */
  private readonly before = new Map<string, string | null>();
  /** Each file the call wrote, and its text after (`null`: deleted), in the order written. */
  private readonly after = new Map<string, string | null>();

  constructor(private readonly call: RunOptions) {}

  /**
   * A unified diff that `apply_diff` applies to put back every file this
   * call wrote (created ones deleted, deleted ones restored); undefined
   * when it wrote none, or wrote one it had not read first.
   */
  undo(): string | undefined {
    if (!this.after.size) return undefined;
    const parts: string[] = [];
    for (const [path, now] of this.after) {
      if (!this.before.has(path)) return undefined;
      const then = this.before.get(path) ?? null;
      // No undo rather than one that could miss: a path a diff header
      // cannot carry as it is (a header's path ends at whitespace), or a
      // text with a lone CR, which a unified diff does not keep apart from
      // its line's end.
      if (/[\s"\\]/.test(path) || LONE_CR.test(now ?? '') || LONE_CR.test(then ?? ''))
        return undefined;
      if (now === then) continue;
      const diff = unifiedDiff(now ?? '', then ?? '', {
        oldName: now === null ? '/dev/null' : `a/${path}`,
        newName: then === null ? '/dev/null' : `b/${path}`,
      });
      if (diff) parts.push(diff.endsWith('\n') ? diff : `${diff}\n`);
    }
    return parts.length ? parts.join('') : undefined;
  }

  private saw(path: unknown, text: unknown): void {
    if (typeof path !== 'string' || this.before.has(path) || this.after.has(path)) return;
    if (typeof text === 'string' || text === null) this.before.set(path, text);
  }

  /** The call is about to make `count` more writes: the `total` its write events carry. */
  expectWrites(count: number): void {
    if (Number.isInteger(count) && count >= 0) this.expected = this.begun + count;
  }

  cancelled(): boolean {
    return this.call.signal?.aborted === true;
  }

  /** The call was cancelled before its first write and a write was refused. */
  refusedAWrite(): boolean {
    return this.refused && this.begun === 0;
  }

  /** The call was cancelled after it had begun writing. */
  lateCancel(): boolean {
    return this.begun > 0 && this.cancelled();
  }

  /** `host` as this call sees it: its `writes` guarded and reported. */
  host<T extends object>(host: T, writes: ReadonlySet<string>, name: 'files' | 'siyuan'): T {
    // The files host is always watched (for the call's undo).
    const files = name === 'files';
    if (!files && !this.call.signal && !this.call.onWrite) return host;
    const known = this.views.get(host);
    if (known) return known as T;
    // The view's target is an empty object, not the host: a Proxy may not
    // answer for a frozen host's read-only method with a function of its
    // own. Reads go to the host; methods run with the host as `this`.
    const target = host;
    const view = new Proxy(Object.create(null) as object, {
      has: (_, key) => key in target,
      get: (_, key) => {
        // The view is this host: applies through either take turns.
        if (key === SAME_HOST) return (target as { [SAME_HOST]?: object })[SAME_HOST] ?? target;
        const value: unknown = Reflect.get(target, key, target);
        if (typeof key !== 'string' || typeof value !== 'function') return value;
        const method = value as (...args: unknown[]) => unknown;
        if (files && key === 'readFile')
          return (path: unknown) => then(method.call(target, path), (t) => this.saw(path, t));
        if (files && key === 'exists')
          return (path: unknown) =>
            then(method.call(target, path), (r) => {
              const exists =
                typeof r === 'boolean' ? r : (r as { exists?: unknown } | null)?.exists;
              if (exists === false) this.saw(path, null);
            });
        if (!writes.has(key)) return method.bind(target);
        return (...args: unknown[]) =>
          this.write(
            `${name}.${key}`,
            args,
            () => method.apply(target, args),
            () => {
              if (files && typeof args[0] === 'string')
                this.after.set(args[0], key === 'deleteFile' ? null : String(args[1]));
            },
          );
      },
    });
    this.views.set(host, view);
    return view as T;
  }

  /** Runs a write (refused once cancelled); when it is done, `wrote`, then the listener. */
  private write(callback: string, args: unknown[], run: () => unknown, wrote: () => void): unknown {
    if (this.begun === 0 && this.cancelled()) {
      this.refused = true;
      throw new Cancelled();
    }
    this.begun++;
    // A write past the announced ones (a rollback's, after a write that
    // failed) has no total.
    const total =
      this.expected !== undefined && this.begun <= this.expected ? this.expected : undefined;
    return then(run(), () => {
      wrote();
      this.done++;
      const event: WriteEvent = { count: this.done, callback };
      if (total !== undefined) event.total = total;
      if (typeof args[0] === 'string') event.target = args[0];
      try {
        this.call.onWrite?.(event);
      } catch {
        // A listener's failure is not the write's.
      }
    });
  }
}

/** A carriage return that does not start a CRLF. */
const LONE_CR = /\r(?!\n)/;

/** Runs `fn` on `value` (awaited when it is a promise) and gives `value` back. */
function then(value: unknown, fn: (v: unknown) => void): unknown {
  if (typeof (value as { then?: unknown } | null)?.then === 'function')
    return (value as Promise<unknown>).then((v) => {
      fn(v);
      return v;
    });
  fn(value);
  return value;
}

/** The result of a call cancelled before it wrote anything. */
export function cancelledResult(lang: Lang): ToolResult {
  const message = say('cancelled', lang);
  return {
    text: say('errorLine', lang, 'HOST_ERROR', message),
    isError: true,
    code: 'HOST_ERROR',
    data: { code: 'HOST_ERROR', message, cancelled: true },
  };
}

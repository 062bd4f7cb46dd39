// The kernel's transaction queue (KERNEL-FACTS §2, §10; kernel notes §10).
// Every write endpoint but `deleteBlock` queues its transaction and waits
// for the queue (`FlushTxQueue`) before answering; `deleteBlock` answers as
// soon as the transaction is queued. The double runs a queued delete at the
// start of the next transaction (any write, `flushTransaction`,
// `setBlockAttrs`, an editor change) or when the clock has moved 50 ms (the
// queue's tick) past it; reads in between still see the block. Each
// transaction runs as one (`KernelState.transaction`): all or nothing.

import type { KernelState } from './state.js';
import { ReloadUi, TxFailure } from './writes.js';
import type { PreparedWrite } from './writes.js';

/** The queue's tick (`FlushTxQueue` sleeps 50 ms, `transaction.go:59-64`). */
export const TX_TICK_MS = 50;

interface Queued {
  path: string;
  write: PreparedWrite;
  failure: string | undefined;
  due: number;
}

export class TxQueue {
  /** Errors of failed transactions (the kernel's `util.PushTxErr`). */
  readonly errors: string[] = [];

  constructor(private readonly k: KernelState) {}
  private readonly failures: { path?: string; msg: string }[] = [];
  private readonly pending: Queued[] = [];

  /** The next transaction to `path` (any, when omitted) fails in the queue. */
  failNext(path: string | undefined, msg: string): void {
    this.failures.push({ path, msg });
  }

  private take(path: string): string | undefined {
    const i = this.failures.findIndex((f) => f.path === undefined || f.path === path);
    if (i < 0) return undefined;
    return this.failures.splice(i, 1)[0]!.msg;
  }

  /** Runs a write's transaction after every queued one: its answer. */
  perform(path: string, write: PreparedWrite): unknown {
    const failure = this.take(path);
    this.runAll();
    return this.run(path, write, failure);
  }

  /** Queues a transaction without running it (`deleteBlock`). */
  enqueue(path: string, write: PreparedWrite): void {
    this.pending.push({ path, write, failure: this.take(path), due: this.k.clock + TX_TICK_MS });
  }

  /** Runs every queued transaction (a flush). */
  runAll(): void {
    while (this.pending.length > 0) {
      const t = this.pending.shift()!;
      this.run(t.path, t.write, t.failure);
    }
  }

  /** Runs the queued transactions whose tick has come. */
  runDue(now: number): void {
    while (this.pending.length > 0 && this.pending[0]!.due <= now) {
      const t = this.pending.shift()!;
      this.run(t.path, t.write, t.failure);
    }
  }

  private run(path: string, write: PreparedWrite, failure: string | undefined): unknown {
    if (failure !== undefined) {
      this.errors.push(`${path}: ${failure}`);
      write.onFail?.();
      return write.failed();
    }
    try {
      this.k.transaction(() => write.commit());
      return write.done();
    } catch (e) {
      if (!(e instanceof TxFailure)) throw e;
      if (e instanceof ReloadUi) this.k.uiReloads.push(path);
      else this.errors.push(`${path}: ${e.message}`);
      return write.failed();
    }
  }
}

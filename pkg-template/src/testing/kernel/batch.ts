// The batch write endpoints of kernel v3.7.3 (`kernel/api/router.go`
// 225-259, `block_op.go` 602-1120; kernel notes §9):
//
// - `batchInsertBlock {blocks: [{data, dataType, parentID?, previousID?,
//   nextID?}]}`, `batchPrependBlock` / `batchAppendBlock {blocks: [{data,
//   dataType, parentID}]}`: every block is checked first (its ids, its
//   markdown, a parent-only placement's container); one failed check
//   refuses the whole request (`code -1`, or `code 0, data null` for a
//   Lute panic) before anything is queued. Then one transaction per block,
//   in order, each resolving its anchor when it runs (an anchor an earlier
//   block of the batch created is found); a transaction that fails leaves
//   the others committed and answers its op with an empty id. The answer
//   is the list of transactions, one per block.
// - `batchUpdateBlock {blocks: [{id, data, dataType}]}`: checked the same
//   way, then ONE transaction of all the updates, answered as one
//   transaction whose `doOperations` hold an op per block; when it fails,
//   none of its updates is applied.
// - all four wait for the queue (`FlushTxQueue`) before answering.
// - there is no `batchDeleteBlock`.

import { KernelFailure } from './model.js';
import { insertBlock, intoBlock } from './inserts.js';
import type { InsertArgs } from './inserts.js';
import { parseMarkdown } from './parse.js';
import type { TxQueue } from './queue.js';
import type { KernelState } from './state.js';
import { answer, checkContainerParent, updateBlock } from './writes.js';
import type { PreparedWrite } from './writes.js';

type Body = Record<string, unknown>;
type Item = Record<string, unknown>;

/** Reads an argument the way the kernel's handler does; a helper of endpoints.ts. */
export interface Args {
  markdownArg(body: Body): string;
  needId(body: Body, key: string): string;
  optId(body: Body, key: string): string;
  blocks(body: Body): Item[];
}

/** The transactions' answers as one list (each write answers `[tx]`). */
function transactions(answers: unknown[]): unknown[] {
  return answers.flatMap((a) => (Array.isArray(a) ? a : []));
}

/** `batchInsertBlock`. */
export function batchInsert(k: KernelState, queue: TxQueue, args: Args, body: Body): unknown {
  const items: InsertArgs[] = args.blocks(body).map((b) => ({
    md: args.markdownArg(b),
    parentID: args.optId(b, 'parentID'),
    previousID: args.optId(b, 'previousID'),
    nextID: args.optId(b, 'nextID'),
  }));
  for (const a of items) {
    parseMarkdown(k, a.md);
    if (a.parentID && !a.previousID && !a.nextID) checkContainerParent(k, a.parentID);
  }
  const path = '/api/block/batchInsertBlock';
  return transactions(
    items.map((a) =>
      queue.perform(
        path,
        atTxTime(() => insertBlock(k, a)),
      ),
    ),
  );
}

/** `batchPrependBlock` / `batchAppendBlock`. */
export function batchInto(
  k: KernelState,
  queue: TxQueue,
  args: Args,
  body: Body,
  first: boolean,
): unknown {
  const items = args.blocks(body).map((b) => ({
    md: args.markdownArg(b),
    parentID: args.needId(b, 'parentID'),
  }));
  for (const a of items) {
    checkContainerParent(k, a.parentID);
    parseMarkdown(k, a.md);
  }
  const path = first ? '/api/block/batchPrependBlock' : '/api/block/batchAppendBlock';
  return transactions(
    items.map((a) =>
      queue.perform(
        path,
        atTxTime(() => intoBlock(k, a.parentID, a.md, first)),
      ),
    ),
  );
}

/** `batchUpdateBlock`: one transaction of every update. */
export function batchUpdate(k: KernelState, queue: TxQueue, args: Args, body: Body): unknown {
  const writes = args
    .blocks(body)
    .map((b) => updateBlock(k, args.needId(b, 'id'), args.markdownArg(b)));
  const ops = writes
    .flatMap((w) => transactions([w.done()]))
    .flatMap((tx) => {
      const d = (tx as { doOperations?: unknown[] }).doOperations;
      return Array.isArray(d) ? (d as Record<string, unknown>[]) : [];
    });
  const all: PreparedWrite = {
    // A failure of the transaction applies none of its updates. (One that
    // fails while it runs, after others were applied, is not emulated: no
    // update the double checked can fail that way.)
    commit() {
      for (const w of writes) w.commit();
    },
    done: () => answer(ops),
    failed: () => answer(ops),
  };
  return queue.perform('/api/block/batchUpdateBlock', all);
}

/**
 * A write prepared when its transaction runs, as the kernel resolves a
 * batch block's anchor then: a check that fails at that point is a failed
 * transaction (an empty op id), not a refused request.
 */
function atTxTime(prepare: () => PreparedWrite): PreparedWrite {
  let w: PreparedWrite | undefined;
  let refused: unknown;
  const get = (): PreparedWrite | undefined => {
    if (w === undefined && refused === undefined) {
      try {
        w = prepare();
      } catch (e) {
        if (!(e instanceof KernelFailure)) throw e;
        refused = answer([{ action: 'insert', data: null, id: '', retData: null }]);
      }
    }
    return w;
  };
  return {
    commit() {
      get()?.commit();
    },
    done: () => get()?.done() ?? refused,
    failed: () => get()?.failed() ?? refused,
    onFail() {
      get()?.onFail?.();
    },
  };
}

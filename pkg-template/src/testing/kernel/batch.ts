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
//   way, against the state before the batch (an unknown id: `get block
//   failed: tree not found`, nothing queued), then ONE transaction of all
//   the updates, answered as one transaction whose `doOperations` hold the
//   ops of every block as if applied. An update whose block an earlier one
//   re-IDed or deleted fails inside the transaction (`performTx` →
//   `tx.rollback()`, `transaction.go:411-414`): no tree is written, while
//   the earlier updates' side effects outside the trees stay (state.ts
//   `transaction`): their database rows removed, their new ids in the
//   block-id table (found by `checkBlockExist`, read as `""`), a document
//   item's old children out of it until that document is saved again.
//   Confirmed live on v3.7.3 (report C §3).
// - all four wait for the queue (`FlushTxQueue`) before answering.
// - there is no `batchDeleteBlock`.

import { KernelFailure } from './model.js';
import { insertBlock, intoBlock } from './inserts.js';
import type { InsertArgs } from './inserts.js';
import { parseMarkdown } from './parse.js';
import type { TxQueue } from './queue.js';
import type { KernelState } from './state.js';
import { answer, checkContainerParent, operation, updateBlock } from './writes.js';
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
    // One transaction: a failing update rolls every one back (queue.ts).
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
        refused = answer([operation('insert', null, '')]);
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

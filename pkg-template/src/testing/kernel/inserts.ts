// `/api/block/insertBlock`, `prependBlock` and `appendBlock` (KERNEL-FACTS
// §4, §9–§11; kernel notes §7–§10): `doInsert0`, `doPrependInsert` and
// `doAppendInsert` of `model/transaction.go`. The op id is filled only when
// the transaction commits; a failure (queued, an anchor or parent the load
// does not have) answers code 0 with `id: ""`.

import { stripCopyAttrs } from './av.js';
import type { DNode } from './model.js';
import { parseMarkdown } from './parse.js';
import type { KernelState } from './state.js';
import { answer, checkContainerParent, insertAt, operation, TxFailure, txNode } from './writes.js';
import type { PreparedWrite } from './writes.js';
import { KernelFailure } from './model.js';

function newItem(k: KernelState, list: DNode, child: DNode): DNode {
  const li: DNode = {
    id: k.newId(),
    type: 'i',
    subtype: list.subtype,
    attrs: new Map([['updated', k.stamp()]]),
    children: [child],
    parent: list,
    body: '',
    content: '',
  };
  if (list.subtype === 't') {
    li.task = ' ';
    li.taskAt = 0;
  }
  child.parent = li;
  return li;
}

/** The nodes appended/prepended into a container (list rules of §4). */
function intoContainer(k: KernelState, parent: DNode, top: DNode[]): DNode[] {
  const placed: DNode[] = [];
  for (const n of top) {
    if (parent.type === 'l') {
      // List markdown moves its items in; any other block gets a new item.
      if (n.type === 'l') {
        for (const li of n.children) li.subtype = parent.subtype;
        placed.push(...n.children);
      } else placed.push(newItem(k, parent, n));
    } else placed.push(n);
  }
  return placed;
}

export interface InsertArgs {
  md: string;
  parentID: string;
  previousID: string;
  nextID: string;
}

/** `doInsert0` with `parentID` only (notes §7). */
function intoParent(k: KernelState, parent: DNode, inserted: DNode, remains: DNode[]): void {
  if (parent.type === 's') {
    // After the layout marker; further blocks are dropped (`transaction.go:1412-1414`).
    insertAt(k, parent, 0, [inserted]);
  } else if (parent.type === 'i' && parent.task !== undefined) {
    // After the checkbox: `marker.InsertAfter` for the first block, then for
    // each further one → marker, last, …, second, first.
    insertAt(k, parent, parent.taskAt ?? 0, [...remains].reverse().concat(inserted));
  } else {
    insertAt(k, parent, 0, [inserted, ...remains]);
  }
}

/** `doInsert0` next to an anchor: nextID before it, previousID after it (after a folded heading's section). */
function besideAnchor(k: KernelState, a: InsertArgs, anchor: DNode, top: DNode[]): DNode {
  let node = anchor;
  if (!a.nextID && node.type === 'h' && node.attrs.get('fold') === '1') {
    const section = k.tree.headingSection(node);
    if (section.length > 0) node = section[section.length - 1]!;
  }
  // List markdown next to a list item contributes its first item only;
  // any other block goes straight into the list (no wrapping).
  let inserted = top[0]!;
  if (inserted.type === 'l' && node.parent?.type === 'l' && inserted.children.length > 0)
    inserted = inserted.children[0]!;
  const parent = node.parent;
  if (!parent) throw new TxFailure(`block not found: ${node.id}`);
  const at = parent.children.indexOf(node) + (a.nextID ? 0 : 1);
  insertAt(k, parent, at, [inserted, ...top.slice(1)]);
  return inserted;
}

/** `/api/block/insertBlock`: nextID wins over previousID over parentID (KERNEL-FACTS §4). */
export function insertBlock(k: KernelState, a: InsertArgs): PreparedWrite {
  if (a.parentID && !a.previousID && !a.nextID) checkContainerParent(k, a.parentID);
  const anchorId = a.nextID || a.previousID || a.parentID;
  if (!anchorId) throw new KernelFailure(-1, 'one of previousID, nextID, parentID is required');
  const { top, dom } = parseMarkdown(k, a.md);
  const op = operation('insert', dom, '', a);
  return {
    done: () => answer([op]),
    failed: () => answer([{ ...op, id: '' }]),
    commit() {
      const anchor = txNode(k, anchorId);
      let inserted: DNode;
      if (a.nextID || a.previousID) {
        if (anchor.type === 'd') throw new TxFailure(`block not found: ${anchorId}`);
        inserted = besideAnchor(k, a, anchor, top);
      } else {
        inserted = top[0]!;
        intoParent(k, anchor, inserted, top.slice(1));
      }
      // A copy loses its database binding and flashcard decks (§9, notes §8).
      stripCopyAttrs(inserted);
      op.id = inserted.id;
      op.parentID = inserted.parent?.id ?? '';
    },
  };
}

/**
 * `/api/block/prependBlock` / `appendBlock` into a container (KERNEL-FACTS
 * §4, §9). `CheckContainerParent` reads the block tree: a container the
 * last load dropped passes it, and the transaction then fails.
 */
export function intoBlock(
  k: KernelState,
  parentID: string,
  md: string,
  first: boolean,
): PreparedWrite {
  checkContainerParent(k, parentID);
  const { top, dom } = parseMarkdown(k, md);
  const action = first ? 'prependInsert' : 'appendInsert';
  // The kernel reports the parsed top-level block (for list markdown moved
  // into a list, the list that was never inserted).
  const ops = top.map((n) => operation(action, dom, n.id, { parentID }));
  return {
    done: () => answer(ops),
    failed: () => answer([operation(action, dom, '', { parentID })]),
    commit() {
      const live = txNode(k, parentID);
      const placed = intoContainer(k, live, top);
      const previous = first ? '' : (live.children[live.children.length - 1]?.id ?? '');
      for (const op of ops) op.previousID = previous;
      insertAt(k, live, first ? 0 : live.children.length, placed);
      // KERNEL-FACTS §4: `prependBlock` into a task item puts the blocks
      // before the checkbox node (`doPrependInsert` PrependChild).
      if (first && live.taskAt !== undefined) live.taskAt += placed.length;
    },
  };
}

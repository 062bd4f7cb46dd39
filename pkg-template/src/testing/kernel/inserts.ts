// `/api/block/insertBlock`, `prependBlock` and `appendBlock` (KERNEL-FACTS
// §4, §9–§11; kernel notes §7–§10): `doInsert0`, `doPrependInsert` and
// `doAppendInsert` of `model/transaction.go`. The op id is filled only when
// the transaction commits; a failure (queued, an anchor or parent the load
// does not have) answers code 0 with `id: ""`. An anchor the block-id table
// does not have at all makes the kernel reload every open window instead
// (`util.ReloadUI`): no `txerr`, the same answer (confirmed live on v3.7.3).

import { stripCopyAttrs } from './av.js';
import type { DNode } from './model.js';
import { parseMarkdown } from './parse.js';
import type { KernelState } from './state.js';
import {
  answer,
  blockNotFound,
  checkContainerParent,
  insertAt,
  operation,
  ReloadUi,
  txNode,
  written,
  wrote,
} from './writes.js';
import type { PreparedWrite } from './writes.js';

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
  if (!parent) throw blockNotFound(node.id);
  const at = parent.children.indexOf(node) + (a.nextID ? 0 : 1);
  insertAt(k, parent, at, [inserted, ...top.slice(1)]);
  return inserted;
}

/**
 * `/api/block/insertBlock`: nextID wins over previousID over parentID
 * (KERNEL-FACTS §4). `doInsert` (`transaction.go:1288-1330`) finds the
 * document through the first of parentID, previousID, nextID the block-id
 * table has — none (no anchor given at all, or only ids it does not have):
 * the UI reloads and nothing is inserted; then the anchor by priority in
 * that document — missing (a stale row): the transaction fails. The answer
 * echoes previousID and nextID; on success it names the block and its
 * parent.
 */
export function insertBlock(k: KernelState, a: InsertArgs): PreparedWrite {
  if (a.parentID && !a.previousID && !a.nextID) checkContainerParent(k, a.parentID);
  const anchorId = a.nextID || a.previousID || a.parentID;
  const { top, dom } = parseMarkdown(k, a.md);
  const op = operation('insert', dom, '', a);
  return {
    done: () => answer([op]),
    failed: () => answer([{ ...op, id: '' }]),
    commit() {
      if (![a.parentID, a.previousID, a.nextID].some((id) => id && k.tree.known.has(id)))
        throw new ReloadUi();
      const anchor = txNode(k, anchorId);
      written(k, top, false);
      let inserted: DNode;
      if (a.nextID || a.previousID) {
        if (anchor.type === 'd') throw blockNotFound(anchorId);
        inserted = besideAnchor(k, a, anchor, top);
      } else {
        inserted = top[0]!;
        intoParent(k, anchor, inserted, top.slice(1));
      }
      // A copy loses its database binding and flashcard decks (§9, notes §8).
      stripCopyAttrs(inserted);
      op.id = inserted.id;
      op.parentID = inserted.parent?.id ?? '';
      wrote(k, inserted);
    },
  };
}

/**
 * `/api/block/prependBlock` / `appendBlock` into a container (KERNEL-FACTS
 * §4, §9). `CheckContainerParent` reads the block tree: a container the
 * last load dropped passes it, and the transaction then fails; one no
 * longer in the block tree when the transaction runs (a queued delete)
 * reloads the UI. Answered as ONE operation whatever the markdown holds
 * (`transaction.go:818-825`, `928-935`; confirmed live on v3.7.3): action
 * `insert`, the first parsed block's id, its parent after the insertion
 * and its previous sibling — for list markdown moved into a list, the
 * parsed list, never inserted: `parentID` and `previousID` empty. A failed
 * one keeps its action (`appendInsert`, `prependInsert`), id empty.
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
  const op = operation(action, dom, '', { parentID });
  return {
    done: () => answer([op]),
    failed: () => answer([operation(action, dom, '', { parentID })]),
    commit() {
      if (!k.tree.known.has(parentID)) throw new ReloadUi();
      const live = txNode(k, parentID);
      written(k, top, false);
      const placed = intoContainer(k, live, top);
      insertAt(k, live, first ? 0 : live.children.length, placed);
      // KERNEL-FACTS §4: `prependBlock` into a task item puts the blocks
      // before the checkbox node (`doPrependInsert` PrependChild).
      if (first && live.taskAt !== undefined) live.taskAt += placed.length;
      const reported = top[0]!;
      const siblings = reported.parent?.children ?? [];
      op.action = 'insert';
      op.id = reported.id;
      op.parentID = reported.parent?.id ?? '';
      op.previousID = siblings[siblings.indexOf(reported) - 1]?.id ?? '';
      for (const n of top) wrote(k, n);
    },
  };
}

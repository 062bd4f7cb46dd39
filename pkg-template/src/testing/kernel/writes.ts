// The write endpoints of `/api/block/*` as the kernel performs them
// (KERNEL-FACTS §2–§5). Each write is prepared (argument checks, Lute's
// parse, the answer) and then committed to the tree; a transaction that
// fails in the kernel's queue is answered `code 0` all the same and simply
// not committed (§2), which is what `failNextTransaction` emulates.

import { CONTAINERS, KernelFailure } from './model.js';
import type { DNode } from './model.js';
import { parseMarkdown } from './parse.js';
import type { KernelState } from './state.js';

/** A prepared write: the answer's `data`, and the change to make. */
export interface PreparedWrite {
  data: unknown;
  commit(): void;
}

/** Kernel messages (treenode.CheckContainerParent, util.InvalidIDPattern, …). */
export const MSG = {
  invalidId: 'invalid ID argument',
  parentNotFound: (id: string) => `parent block not found: ${id}`,
  headingLeaf: (id: string) =>
    `heading [${id}] is a leaf block and cannot have children; to place a block below this heading, pass previousID=<heading id> or previousID=<last block below the heading> instead of parentID`,
  leaf: (id: string, type: string) =>
    `block [${id}] type "${type}" is a leaf block and cannot have children; use previousID to place the block as its sibling instead`,
  notFound: 'block not found',
};

/** `treenode.CheckContainerParent` (v3.7.0): d, b, l, i, s and callout take children. */
export function checkContainerParent(k: KernelState, parentID: string): DNode {
  const p = k.tree.find(parentID);
  if (!p) throw new KernelFailure(-1, MSG.parentNotFound(parentID));
  if (CONTAINERS.has(p.type)) return p;
  if (p.type === 'h') throw new KernelFailure(-1, MSG.headingLeaf(parentID));
  throw new KernelFailure(-1, MSG.leaf(parentID, p.type));
}

function operation(
  action: string,
  dom: string | null,
  id: string,
  extra: Partial<Record<'parentID' | 'previousID' | 'nextID', string>> = {},
): Record<string, unknown> {
  return {
    action,
    data: dom,
    id,
    parentID: extra.parentID ?? '',
    previousID: extra.previousID ?? '',
    nextID: extra.nextID ?? '',
    retData: null,
  };
}

/** A write's answer: `[{timestamp, doOperations, undoOperations}]`. */
function answer(k: KernelState, ops: Record<string, unknown>[]): unknown[] {
  return [{ timestamp: k.clock, doOperations: ops, undoOperations: null }];
}

function insertAt(k: KernelState, parent: DNode, index: number, list: DNode[]): void {
  parent.children.splice(index, 0, ...list);
  for (const n of list) {
    n.parent = parent;
    k.tree.register(n);
  }
  k.touch(parent);
}

function remove(k: KernelState, n: DNode): void {
  const parent = n.parent;
  if (!parent) return;
  const at = parent.children.indexOf(n);
  parent.children.splice(at, 1);
  // The checkbox keeps standing before the block it stood before.
  if (parent.taskAt !== undefined && at < parent.taskAt) parent.taskAt -= 1;
  k.tree.unregister(n);
  k.touch(parent);
}

function emptyParagraph(k: KernelState): DNode {
  return {
    id: k.newId(),
    type: 'p',
    subtype: '',
    attrs: new Map([['updated', k.stamp()]]),
    children: [],
    parent: null,
    body: '',
    content: '',
  };
}

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

/** `/api/block/updateBlock` (KERNEL-FACTS §3). */
export function updateBlock(k: KernelState, id: string, md: string): PreparedWrite {
  const target = k.tree.find(id);
  if (!target) throw new KernelFailure(-1, `get block failed: ${MSG.notFound}`);
  const { top, dom } = parseMarkdown(k, md);
  if (target.type === 'd') {
    // A document: all its children are replaced (N deletes + 1 insert).
    const ops = target.children.map((c) => operation('delete', null, c.id));
    ops.push(operation('appendInsert', dom, top[0]?.id ?? '', { parentID: id }));
    return {
      data: answer(k, ops),
      commit() {
        for (const c of [...target.children]) remove(k, c);
        insertAt(k, target, 0, intoContainer(k, target, top));
      },
    };
  }
  // Only the first block is kept; a list item takes the first item of list
  // markdown (the list and its IAL are dropped) and anything else goes
  // straight into the list in the item's place.
  let first = top[0]!;
  if (target.type === 'i' && first.type === 'l' && first.children.length > 0)
    first = first.children[0]!;
  return {
    data: answer(k, [operation('update', dom, id)]),
    commit() {
      const live = k.tree.find(id);
      const parent = live?.parent;
      if (!live || !parent) return;
      k.tree.unregister(live);
      first.id = id;
      first.parent = parent;
      parent.children[parent.children.indexOf(live)] = first;
      k.tree.register(first);
      k.touch(first);
    },
  };
}

/** `/api/block/deleteBlock` (KERNEL-FACTS §4). */
export function deleteBlock(k: KernelState, id: string): PreparedWrite {
  const target = k.tree.find(id);
  const data = answer(k, [operation('delete', null, id)]);
  if (!target) return { data, commit() {} }; // queued; an unknown id changes nothing
  if (target.type === 'd')
    throw new KernelFailure(
      -1,
      'the kernel double does not delete documents with deleteBlock (use removeDoc)',
    );
  return {
    data,
    commit() {
      const live = k.tree.find(id);
      const parent = live?.parent;
      if (!live || !parent) return;
      remove(k, live);
      // An emptied list item keeps an empty paragraph.
      if (parent.type === 'i' && parent.children.length === 0)
        insertAt(k, parent, 0, [emptyParagraph(k)]);
    },
  };
}

export interface InsertArgs {
  md: string;
  parentID: string;
  previousID: string;
  nextID: string;
}

/** `/api/block/insertBlock`: nextID wins over previousID over parentID (KERNEL-FACTS §4). */
export function insertBlock(k: KernelState, a: InsertArgs): PreparedWrite {
  if (a.parentID && !a.previousID && !a.nextID) checkContainerParent(k, a.parentID);
  const anchorId = a.nextID || a.previousID || a.parentID;
  if (!anchorId) throw new KernelFailure(-1, 'one of previousID, nextID, parentID is required');
  const { top, dom } = parseMarkdown(k, a.md);
  const anchor0 = k.tree.find(anchorId);
  const extra = { parentID: a.parentID, previousID: a.previousID, nextID: a.nextID };
  if (!anchor0 || (anchor0.type === 'd' && !a.parentID)) {
    // doInsert: no block tree for the anchor → logged, nothing inserted, code 0.
    return { data: answer(k, [operation('insert', dom, '', extra)]), commit() {} };
  }
  let anchor = anchor0;
  // doInsert0: the first block is the inserted node; every later top-level
  // block is inserted after it as is ("remains").
  let inserted = top[0]!;
  const remains = top.slice(1);
  if (a.nextID || a.previousID) {
    if (a.previousID && anchor.type === 'h' && anchor.attrs.get('fold') === '1') {
      const section = k.tree.headingSection(anchor);
      if (section.length > 0) anchor = section[section.length - 1]!;
    }
    // List markdown next to a list item contributes its first item only;
    // any other block goes straight into the list (no wrapping).
    if (inserted.type === 'l' && anchor.parent?.type === 'l' && inserted.children.length > 0)
      inserted = inserted.children[0]!;
  }
  // A copy loses its database binding and flashcard attributes.
  for (const key of [...inserted.attrs.keys()])
    if (
      key === 'custom-avs' ||
      key === 'av-names' ||
      key.startsWith('custom-sy-av-s-text') ||
      key === 'custom-riff-decks'
    )
      inserted.attrs.delete(key);
  const nodes = [inserted, ...remains];
  // The answer names the inserted node only.
  return {
    data: answer(k, [operation('insert', dom, inserted.id, extra)]),
    commit() {
      const live = k.tree.find(anchor.id) ?? anchor;
      if (a.nextID || a.previousID) {
        const parent = live.parent;
        if (!parent) return;
        const at = parent.children.indexOf(live) + (a.nextID ? 0 : 1);
        insertAt(k, parent, at, nodes);
        return;
      }
      // parentID only, a container: first child (after a super block's
      // layout marker; in a task item, after its checkbox, which then
      // belongs to the new first block).
      // (doInsert0 inserts after the checkbox node: `taskAt` stays 0.)
      insertAt(k, live, 0, nodes);
    },
  };
}

/** `/api/block/prependBlock` / `appendBlock` into a container (KERNEL-FACTS §4). */
export function intoBlock(
  k: KernelState,
  parentID: string,
  md: string,
  first: boolean,
): PreparedWrite {
  const parent = checkContainerParent(k, parentID);
  const { top, dom } = parseMarkdown(k, md);
  const placed = intoContainer(k, parent, top);
  const previous = first ? '' : (parent.children[parent.children.length - 1]?.id ?? '');
  // The kernel reports the parsed top-level block (for list markdown moved
  // into a list, the list that was never inserted).
  const ops = top.map((n) =>
    operation(first ? 'prependInsert' : 'appendInsert', dom, n.id, {
      parentID,
      previousID: previous,
    }),
  );
  return {
    data: answer(k, ops),
    commit() {
      const live = k.tree.find(parentID) ?? parent;
      insertAt(k, live, first ? 0 : live.children.length, placed);
      // KERNEL-FACTS §4: `prependBlock` into a task item puts the blocks
      // before the checkbox node (`doPrependInsert` PrependChild).
      if (first && live.taskAt !== undefined) live.taskAt += placed.length;
    },
  };
}

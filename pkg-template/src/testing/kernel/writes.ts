// The write endpoints of `/api/block/*` as the kernel performs them
// (KERNEL-FACTS §2–§5, §9–§11). Each write is prepared (argument checks,
// Lute's parse) when the request arrives and committed as a transaction
// (queue.ts): the commit loads the document (load.ts), finds its nodes
// again, changes the tree and saves. A transaction that fails — queued
// failure, a node the load no longer has — is answered `code 0` all the
// same (§2) and changes nothing; an insert's answer then carries an empty id
// (§10). Inserts, prepends and appends are in inserts.ts.
//
// Not emulated (report B §4b–§4c): an update of an HTML block dropping its
// blank lines (`transaction.go:1654-1665`) and updates removing blank inline
// math (`1586-1592`). Markdown cannot carry either (a blank line ends an
// HTML block, Lute does not read `$ $` as math): only `dataType: "dom"`
// writes reach them, and the double takes markdown only.

import { cachedAnchors, degradeRefs } from './anchors.js';
import { setNodeAttrs } from './attrs.js';
import { subtreeIds, unbind, unbindRemoved } from './av.js';
import { loadFor } from './load.js';
import { CONTAINERS, KernelFailure } from './model.js';
import type { DNode } from './model.js';
import { parseMarkdown } from './parse.js';
import type { KernelState } from './state.js';

/** A prepared write: its change and its answers. */
export interface PreparedWrite {
  /** Loads the document, changes and saves it; throws `TxFailure` where the kernel's transaction fails. */
  commit(): void;
  /** The answer after the transaction committed. */
  done(): unknown;
  /** The answer after it failed (an insert's op keeps an empty id). */
  failed(): unknown;
  /** What a failed transaction leaves behind anyway (a delete's database rows). */
  onFail?(): void;
}

/** The kernel's transaction failed (`TxErr`): rolled back, pushed to the UI, answered code 0. */
export class TxFailure extends Error {}

/**
 * The kernel found none of an insert's anchors in the block-id table and
 * reloaded every open window (`util.ReloadUI`, `util/websocket.go:223-225`):
 * nothing inserted, no `txerr`; the double counts it in `uiReloads`.
 */
export class ReloadUi extends TxFailure {
  constructor() {
    super('reloadui');
  }
}

/**
 * `TxErrCodeBlockNotFound` as `flushTx` words it for the UI's `txerr`
 * (`transaction.go:113-135`).
 */
export function blockNotFound(id: string): TxFailure {
  return new TxFailure(`Transaction failed: block not found [${id}]`);
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
  /** `GetBlock` of an id the block-id table does not have (`block_op.go:866-872`). */
  treeNotFound: 'get block failed: tree not found',
  /** `GetBlock` of an id the table has but the loaded document does not (stale). */
  staleBlock: 'get block failed: block not found',
};

/**
 * `treenode.CheckContainerParent` (v3.7.0): d, b, l, i, s and callout take
 * children. It reads the block tree, not the document: an id a load dropped
 * (or an update re-IDed) still passes (KERNEL-FACTS §9) and answers null.
 */
export function checkContainerParent(k: KernelState, parentID: string): DNode | null {
  const p = k.tree.known.has(parentID) ? k.tree.find(parentID) : undefined;
  if (!p) {
    if (k.tree.isStale(parentID)) return null;
    throw new KernelFailure(-1, MSG.parentNotFound(parentID));
  }
  if (CONTAINERS.has(p.type)) return p;
  if (p.type === 'h') throw new KernelFailure(-1, MSG.headingLeaf(parentID));
  throw new KernelFailure(-1, MSG.leaf(parentID, p.type));
}

/** The node a transaction works on, after its load; else the transaction fails. */
export function txNode(k: KernelState, id: string): DNode {
  const n = loadFor(k, id);
  if (!n) throw blockNotFound(id);
  return n;
}

/** The block a write's transaction wrote (kernel `tx.nodes`: its dynamic anchors' defs, anchors.ts). */
export function wrote(k: KernelState, n: DNode): void {
  k.tx?.nodes.push(n);
}

/**
 * One operation of a write's answer: the kernel's `model.Operation` with
 * its 29 keys in order, zero values but for the ones given (confirmed live
 * on v3.7.3).
 */
export function operation(
  action: string,
  dom: unknown,
  id: string,
  extra: Partial<Record<'parentID' | 'previousID' | 'nextID', string>> = {},
): Record<string, unknown> {
  return {
    action,
    data: dom,
    id,
    rootID: '',
    parentID: extra.parentID ?? '',
    previousID: extra.previousID ?? '',
    nextID: extra.nextID ?? '',
    retData: null,
    blockIDs: null,
    blockID: '',
    deckID: '',
    avID: '',
    srcIDs: null,
    srcs: null,
    isDetached: false,
    name: '',
    type: '',
    format: '',
    keyID: '',
    rowID: '',
    isTwoWay: false,
    backRelationKeyID: '',
    removeDest: false,
    layout: '',
    groupID: '',
    targetGroupID: '',
    viewID: '',
    ignoreDefaultFill: false,
    context: null,
  };
}

/** A write's answer: `[{timestamp, doOperations, undoOperations}]`; API transactions carry timestamp 0 (KERNEL-FACTS §12). */
export function answer(ops: Record<string, unknown>[]): unknown[] {
  return [{ timestamp: 0, doOperations: ops, undoOperations: null }];
}

export function insertAt(k: KernelState, parent: DNode, index: number, list: DNode[]): void {
  parent.children.splice(index, 0, ...list);
  // The checkbox keeps standing before the block it stood before.
  if (parent.taskAt !== undefined && index < parent.taskAt) parent.taskAt += list.length;
  for (const n of list) {
    n.parent = parent;
    k.tree.register(n);
  }
  k.touch(parent);
}

export function remove(k: KernelState, n: DNode): void {
  const parent = n.parent;
  if (!parent) return;
  const at = parent.children.indexOf(n);
  parent.children.splice(at, 1);
  if (parent.taskAt !== undefined && at < parent.taskAt) parent.taskAt -= 1;
  k.tree.unregister(n);
  k.touch(parent);
}

export function emptyParagraph(k: KernelState): DNode {
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

function linkParents(n: DNode): void {
  for (const c of n.children) {
    c.parent = n;
    linkParents(c);
  }
}

function foldedHeadings(n: DNode, out: DNode[] = []): DNode[] {
  if (n.type === 'h' && n.attrs.get('fold') === '1') out.push(n);
  for (const c of n.children) foldedHeadings(c, out);
  return out;
}

/**
 * `treenode.MoveFoldHeading` (KERNEL-FACTS §11, notes §6), when a container
 * is updated: each heading of the old container with `fold="1"` hides its
 * section (the following siblings up to the next heading of its level or
 * higher); a heading of the new markdown with `fold="1"` and the same id
 * gets the old section moved in right after it — before what the markdown
 * itself put there, so restated blocks appear twice with the same id.
 */
function moveFoldHeadings(k: KernelState, fresh: DNode, old: DNode): void {
  if (!CONTAINERS.has(old.type)) return;
  const sections = new Map<string, DNode[]>();
  for (const h of foldedHeadings(old)) sections.set(h.id, k.tree.headingSection(h));
  linkParents(fresh);
  for (const h of foldedHeadings(fresh)) {
    const moved = sections.get(h.id);
    const parent = h.parent;
    if (!moved || !parent) continue;
    for (const n of moved) {
      const from = n.parent?.children;
      if (from) from.splice(from.indexOf(n), 1);
    }
    const at = parent.children.indexOf(h) + 1;
    parent.children.splice(at, 0, ...moved);
    if (parent.taskAt !== undefined && at < parent.taskAt) parent.taskAt += moved.length;
    for (const n of moved) n.parent = parent;
  }
}

/**
 * `/api/block/updateBlock` of a document: every child goes, the markdown is
 * appended. Answered (confirmed live on v3.7.3) as one `delete` per child
 * with `data: {createEmptyParagraph: false}`, in document order, then one
 * `insert` of the first new block with `parentID` the document.
 */
function updateDocument(k: KernelState, doc: DNode, top: DNode[], dom: string): PreparedWrite {
  const ops = doc.children.map((c) => operation('delete', { createEmptyParagraph: false }, c.id));
  ops.push(operation('insert', dom, top[0]?.id ?? '', { parentID: doc.id }));
  const data = answer(ops);
  return {
    done: () => data,
    failed: () => data,
    commit() {
      const live = txNode(k, doc.id);
      for (const c of [...live.children]) {
        remove(k, c);
        // `doDelete` → `RemoveBlockTreesByIDs` (`transaction.go:1060-1063`).
        for (const id of subtreeIds(c)) k.tree.known.delete(id);
        unbind(k.databases, c, true);
      }
      written(k, top, true);
      insertAt(k, live, 0, top);
      for (const n of top) wrote(k, n);
    },
  };
}

/**
 * What `doUpdate` / `doInsert0` / `doAppendInsert` / `doPrependInsert` do to
 * the written subtree before it enters the tree: refs to a block the
 * block-id table does not have lose their id (all four,
 * `degradeCrossBoundaryBlockRefs`, `transaction.go:1798-1827`), and on
 * update a dynamic anchor takes the text the kernel last refreshed for its
 * block (`transaction.go:1598-1606`). anchors.ts.
 */
export function written(k: KernelState, top: DNode[], update: boolean): void {
  degradeRefs(k, top);
  if (update) cachedAnchors(k, top);
}

/** `/api/block/updateBlock` (KERNEL-FACTS §3, §11). */
export function updateBlock(k: KernelState, id: string, md: string): PreparedWrite {
  // `dataBlockDOM` (the parse) comes before `GetBlock` (`block_op.go:849-872`).
  const { top, dom } = parseMarkdown(k, md, { api: true, passes: 2 });
  const target = loadFor(k, id);
  if (!target)
    throw new KernelFailure(-1, k.tree.known.has(id) ? MSG.staleBlock : MSG.treeNotFound);
  if (target.type === 'd') return updateDocument(k, target, top, dom);
  // Only the first block is kept; a list item takes the first item of list
  // markdown (the list and its IAL are dropped) and anything else goes
  // straight into the list in the item's place.
  let first = top[0]!;
  if (target.type === 'i' && first.type === 'l' && first.children.length > 0)
    first = first.children[0]!;
  // The handler gives the kept block the target's id before it renders the
  // op's DOM (`block_op.go:899-907`).
  const data = answer([operation('update', dom.split(first.id).join(id), id)]);
  return {
    done: () => data,
    failed: () => data,
    commit() {
      const live = txNode(k, id);
      const parent = live.parent;
      if (!parent) throw blockNotFound(id);
      k.tree.unregister(live);
      first.id = id;
      written(k, [first], true);
      moveFoldHeadings(k, first, live);
      // Blocks of the old subtree the new one does not have leave their databases (§3).
      unbindRemoved(k.databases, live, subtreeIds(first));
      first.parent = parent;
      parent.children[parent.children.indexOf(live)] = first;
      k.tree.register(first);
      k.touch(first);
      wrote(k, first);
    },
  };
}

/**
 * `/api/block/deleteBlock` (KERNEL-FACTS §4, §9, §10): the block and its
 * subtree leave the tree, the block tree and every database they are in
 * (`syncDelete2AvBlock`, saved at once: not undone when the transaction
 * fails). An emptied list item gets an empty paragraph — not a task item,
 * whose checkbox is still its first child (notes §7). An unknown id
 * changes nothing. The answer does not wait for the transaction (queue.ts).
 */
export function deleteBlock(k: KernelState, id: string): PreparedWrite {
  if (k.tree.find(id)?.type === 'd')
    throw new KernelFailure(
      -1,
      'the kernel double does not delete documents with deleteBlock (use removeDoc)',
    );
  const data = answer([operation('delete', null, id)]);
  return {
    done: () => data,
    failed: () => data,
    onFail() {
      const live = loadFor(k, id);
      if (live) unbind(k.databases, live, true);
    },
    commit() {
      const live = loadFor(k, id);
      const parent = live?.parent;
      if (!live || !parent) return;
      remove(k, live);
      for (const x of subtreeIds(live)) k.tree.known.delete(x);
      unbind(k.databases, live, true);
      if (parent.type === 'i' && parent.children.length === 0 && parent.task === undefined)
        insertAt(k, parent, 0, [emptyParagraph(k)]);
    },
  };
}

/**
 * `/api/attr/setBlockAttrs` after its argument checks (`model.SetBlockAttrs`,
 * notes §4): load, change, save (no transaction). A `custom-avs` it sets
 * adds no database row (confirmed live on v3.7.3: a row is made by
 * `/api/av/addAttributeViewBlocks`, av.ts).
 */
export function setBlockAttrs(
  k: KernelState,
  id: string,
  nameValues: Record<string, string>,
): void {
  const n = loadFor(k, id);
  if (!n)
    throw new KernelFailure(
      -1,
      k.tree.known.has(id) ? `Content block with id [${id}] not found` : 'tree not found',
    );
  setNodeAttrs(k.rand, n, nameValues);
  k.touch(n);
}

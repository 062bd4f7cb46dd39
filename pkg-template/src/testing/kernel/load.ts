// Loading a document, as the kernel does before it serves any read or write
// of a block (KERNEL-FACTS §9; kernel notes §1): `filesys.LoadTreeWithFix`
// parses the `.sy` with `siyuan-note/dataparser`, which repairs the tree as
// it goes. A running kernel serves the file from its cache, so the repair
// happens in memory at every load and is written only when a transaction
// (or `setBlockAttrs`) saves the document.
//
// The double's tree is the saved file; a load repairs it in place. Dropping
// emptied containers is the same at every load, so doing it once is the
// same as doing it each time; the random ids are not: a node the repair
// re-IDs is "volatile" and gets a new random id at every load until a save
// (`KernelState.touch`) makes the id it has then stick.

import { CONTAINERS } from './model.js';
import type { DNode } from './model.js';
import { invalidate } from './render.js';
import type { Random } from './random.js';
import type { Tree } from './tree.js';

/** What a document's next load has to do. */
export interface LoadState {
  /** Saved since the last load: walk it for emptied containers and duplicate ids. */
  dirty: boolean;
  /** Nodes the repair gave a random id that no save has kept yet. */
  volatile: Set<DNode>;
}

/** A fresh random id (`ast.NewNodeID()`), unused in the tree. */
/**
 * What loading needs of the kernel's state (state.ts's KernelState, which
 * calls it): declared here so this module does not import the state's.
 */
export interface LoadContext {
  readonly tree: Tree;
  readonly rand: Random;
  readonly loads: Map<string, LoadState>;
  /** The transaction running, whose documents are loaded already. */
  readonly tx: { readonly loaded: ReadonlyMap<string, unknown> } | null;
  stamp(): string;
  remember(doc: DNode, load: LoadState): void;
}

function randomId(k: LoadContext): string {
  let id: string;
  do id = k.rand.nodeId(k.stamp());
  while (k.tree.has(id));
  return id;
}

function renew(k: LoadContext, n: DNode): void {
  k.tree.rename(n, randomId(k));
  invalidate(n);
}

/**
 * dataparser `sy.go:124-143`: a list without items, a list item without
 * children (a task item's checkbox is a child: it survives), a blockquote or
 * super block without blocks is dropped — repeatedly up the tree (notes §1:
 * the kernel needs one more load per level; the double drops them at once).
 * Callouts are not dropped. The dropped ids stay in the block tree (stale).
 */
function emptied(n: DNode): boolean {
  if (n.children.length > 0) return false;
  if (n.type === 'i') return n.task === undefined;
  return n.type === 'l' || n.type === 'b' || n.type === 's';
}

function dropEmptied(k: LoadContext, n: DNode): void {
  if (!CONTAINERS.has(n.type)) return;
  for (const c of [...n.children]) {
    dropEmptied(k, c);
    if (!emptied(c)) continue;
    const at = n.children.indexOf(c);
    n.children.splice(at, 1);
    if (n.taskAt !== undefined && at < n.taskAt) n.taskAt -= 1;
    k.tree.unregister(c);
    invalidate(n);
  }
}

/**
 * dataparser `sy.go:78-98`: an empty document gets a new empty paragraph
 * at load (volatile: a new id at every load until a save); kernel
 * `filesys/tree.go:405-410` `prepareWriteTree`: a document saved without a
 * block gets one before it is written (kept: confirmed live on v3.7.3, a
 * delete of a document's last block leaves one empty paragraph whose id
 * every later read gives).
 */
export function fillEmpty(k: LoadContext, doc: DNode, st?: LoadState): void {
  if (doc.children.length > 0) return;
  const id = randomId(k);
  const p: DNode = {
    id,
    type: 'p',
    subtype: '',
    attrs: new Map([['updated', id.slice(0, 14)]]),
    children: [],
    parent: doc,
    body: '',
    content: '',
  };
  doc.children.push(p);
  doc.attrs.set('updated', id.slice(0, 14));
  k.tree.register(p, st === undefined);
  invalidate(p);
  st?.volatile.add(p);
}

/**
 * dataparser `sy.go:206-213`: one id map per document, filled in pre-order
 * (parent before children, the document itself not in it); the first
 * occurrence keeps its id, every later one gets a random id.
 */
function reIdDuplicates(k: LoadContext, doc: DNode, st: LoadState): void {
  const seen = new Set<string>();
  const walk = (n: DNode): void => {
    for (const c of n.children) {
      if (seen.has(c.id)) {
        renew(k, c);
        st.volatile.add(c);
      }
      seen.add(c.id);
      walk(c);
    }
  };
  walk(doc);
}

export function loadState(k: LoadContext, docId: string): LoadState {
  let st = k.loads.get(docId);
  if (!st) k.loads.set(docId, (st = { dirty: true, volatile: new Set() }));
  return st;
}

/** Loads a document: re-IDs what is volatile, then repairs what was saved since the last load. */
export function loadDocument(k: LoadContext, doc: DNode): void {
  const st = loadState(k, doc.id);
  for (const n of [...st.volatile]) {
    if (k.tree.rootOf(n) === doc) renew(k, n);
    else st.volatile.delete(n);
  }
  if (!st.dirty) return;
  st.dirty = false;
  dropEmptied(k, doc);
  fillEmpty(k, doc, st);
  reIdDuplicates(k, doc, st);
}

/**
 * Loads the document a block lives in; the block as the load left it
 * (undefined if it is gone). The kernel finds the document through the
 * block-id table: a block whose id left the table (a failed batch's
 * deletes, state.ts) is not found until its document is saved again; a
 * node the last load re-IDed is. In a transaction a document is loaded
 * once (the kernel keeps it in `tx.trees`) and remembered as saved first.
 */
export function loadFor(k: LoadContext, id: string): DNode | undefined {
  const n = k.tree.find(id);
  if (!n) return undefined;
  const root = k.tree.rootOf(n);
  if (root.type === 'd' && k.tree.docs.get(root.id) === root) {
    const st = loadState(k, root.id);
    if (!k.tree.known.has(id) && !st.volatile.has(n)) return undefined;
    if (!k.tx?.loaded.has(root.id)) {
      k.remember(root, st);
      loadDocument(k, root);
    }
  }
  return k.tree.find(id);
}

/** A save: the ids the last load gave stick and enter the block tree. */
export function saved(k: LoadContext, docId: string): void {
  const st = loadState(k, docId);
  for (const n of st.volatile) k.tree.known.add(n.id);
  st.volatile.clear();
  st.dirty = true;
}

// The double's block tree: documents, lookups by id, and the kernel's
// structural rules (heading parents and sections).
//
// KERNEL-FACTS §5: ids written in an IAL are trusted, so two blocks can
// share an id until the next load re-IDs the later one (load.ts); a lookup
// by id finds the first in document order, which is the node a
// `deleteBlock(id)` or an `updateBlock(id, …)` hits.
//
// KERNEL-FACTS §9: the kernel's block tree (`id → document`) is another
// table: a save upserts every id of the document and only a delete removes
// ids (`treenode/blocktree.go:705-728`, `transaction.go:1060-1062`). `known`
// is that table, so an id whose block a load dropped, or an update re-IDed,
// is still "known" (stale): `CheckContainerParent` passes for it.

import { CONTAINERS, headingLevel } from './model.js';
import type { DNode } from './model.js';

export class Tree {
  /** Documents by id, in creation order. */
  readonly docs = new Map<string, DNode>();
  private readonly byId = new Map<string, DNode[]>();
  /** The kernel's block tree: every id saved, until deleted. */
  readonly known = new Set<string>();

  /** In the block tree, but no block has it now (dropped at load, re-IDed by an update). */
  isStale(id: string): boolean {
    return this.known.has(id) && !this.has(id);
  }

  /** The block with this id (the first in document order when duplicated). */
  find(id: string): DNode | undefined {
    const list = this.byId.get(id);
    if (!list || list.length === 0) return undefined;
    if (list.length === 1) return list[0];
    let best: DNode | undefined;
    let bestKey: number[] | undefined;
    for (const n of list) {
      const key = this.position(n);
      if (!bestKey || compareKeys(key, bestKey) < 0) {
        best = n;
        bestKey = key;
      }
    }
    return best;
  }

  /** Every block with this id (more than one after a duplicate was written). */
  all(id: string): DNode[] {
    return [...(this.byId.get(id) ?? [])];
  }

  has(id: string): boolean {
    return (this.byId.get(id)?.length ?? 0) > 0;
  }

  /** Registers a node and its descendants under their ids (`persist`: and in the block tree). */
  register(n: DNode, persist = true): void {
    const list = this.byId.get(n.id);
    if (list) {
      if (!list.includes(n)) list.push(n);
    } else this.byId.set(n.id, [n]);
    if (persist) this.known.add(n.id);
    for (const c of n.children) {
      c.parent = n;
      this.register(c, persist);
    }
  }

  /** Gives one node another id (a load's re-ID: not in the block tree until saved). */
  rename(n: DNode, id: string): void {
    const list = this.byId.get(n.id);
    const i = list?.indexOf(n) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
    if (list && list.length === 0) this.byId.delete(n.id);
    n.id = id;
    const next = this.byId.get(id);
    if (next) next.push(n);
    else this.byId.set(id, [n]);
  }

  unregister(n: DNode): void {
    const list = this.byId.get(n.id);
    if (list) {
      const i = list.indexOf(n);
      if (i >= 0) list.splice(i, 1);
      if (list.length === 0) this.byId.delete(n.id);
    }
    for (const c of n.children) this.unregister(c);
  }

  addDocument(d: DNode): void {
    this.docs.set(d.id, d);
    this.register(d);
  }

  rootOf(n: DNode): DNode {
    let r = n;
    while (r.parent) r = r.parent;
    return r;
  }

  /** Document order key: the document's creation index, then child indexes. */
  private position(n: DNode): number[] {
    const path: number[] = [];
    let x: DNode = n;
    while (x.parent) {
      path.unshift(x.parent.children.indexOf(x));
      x = x.parent;
    }
    path.unshift([...this.docs.keys()].indexOf(x.id));
    return path;
  }

  /** `treenode.HeadingParent`: a block after a heading has it as parent. */
  headingParent(n: DNode): DNode | null {
    const parent = n.parent;
    if (!parent) return null;
    const own = n.type === 'h' ? headingLevel(n) : 16;
    const siblings = parent.children;
    for (let i = siblings.indexOf(n) - 1; i >= 0; i--) {
      const s = siblings[i]!;
      if (s.type === 'h' && headingLevel(s) < own) return s;
    }
    return parent;
  }

  /** The blocks under a heading up to the next heading of its level or higher. */
  headingSection(h: DNode): DNode[] {
    const siblings = h.parent?.children ?? [];
    const level = headingLevel(h);
    const out: DNode[] = [];
    for (const s of siblings.slice(siblings.indexOf(h) + 1)) {
      if (s.type === 'h' && headingLevel(s) <= level) break;
      out.push(s);
    }
    return out;
  }

  /** Children as `getChildBlocks` lists them (a heading's section). */
  childrenOf(n: DNode): DNode[] {
    if (n.type === 'h') return this.headingSection(n);
    return CONTAINERS.has(n.type) ? n.children : [];
  }

  /** Every block of a document, pre-order (the document excluded). */
  blocksOf(doc: DNode): DNode[] {
    const out: DNode[] = [];
    const walk = (n: DNode): void => {
      for (const c of n.children) {
        out.push(c);
        walk(c);
      }
    };
    walk(doc);
    return out;
  }
}

function compareKeys(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}

// Attribute views (databases) and flashcards, as far as a block's text can
// lose them (KERNEL-FACTS §3, §9; kernel notes §8). A block belongs to a
// database when the database's block-key column lists it; the block's
// `custom-avs` attribute names the databases (comma-separated). The double
// keeps each database's block-key column only; the cells of its other
// columns are not modelled.

import type { DNode } from './model.js';
import type { Tree } from './tree.js';

export type Databases = Map<string, Set<string>>;

/** The database ids a block's `custom-avs` names. */
export function avIdsOf(n: DNode): string[] {
  return (n.attrs.get('custom-avs') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * Adds a block to each database its `custom-avs` names: the double's start
 * only (`boot`: the documents it is given seed the databases their blocks
 * name; the kernel's truth is the database file, which the double does not
 * have). Setting `custom-avs` adds no row (confirmed live on v3.7.3).
 */
export function bind(dbs: Databases, n: DNode): void {
  for (const av of avIdsOf(n)) {
    let rows = dbs.get(av);
    if (!rows) dbs.set(av, (rows = new Set()));
    rows.add(n.id);
  }
}

/** What database rows need of the kernel's state (state.ts's KernelState). */
export interface DatabaseContext {
  readonly databases: Databases;
  readonly tree: Tree;
  touch(n: DNode | null): void;
}

/**
 * `/api/av/addAttributeViewBlocks` (`model/attribute_view.go:4100-4187`):
 * the sources are taken in reverse and each new one is appended to the
 * block-key column; `bindBlockAv0` writes the database into the block's
 * `custom-avs` at once (comma-joined with those it names) and saves the
 * document (no transaction). A block already a row is only re-bound.
 */
export function addRows(k: DatabaseContext, avId: string, blockIds: string[]): void {
  let rows = k.databases.get(avId);
  if (!rows) k.databases.set(avId, (rows = new Set()));
  for (const id of [...blockIds].reverse()) {
    const n = k.tree.find(id);
    if (!n) continue;
    rows.add(id);
    const avs = avIdsOf(n);
    if (!avs.includes(avId)) n.attrs.set('custom-avs', [...avs, avId].join(','));
    k.touch(n);
  }
}

/** Every database membership of the blocks of a subtree. */
export function bindTree(dbs: Databases, n: DNode): void {
  bind(dbs, n);
  for (const c of n.children) bindTree(dbs, c);
}

/**
 * `syncDelete2AttributeView` (`transaction.go:1223-1261`): removes a deleted
 * block — and, with `descendants`, every block below it — from the
 * block-key column of each database it names. The database file is saved at
 * once: a transaction that fails afterwards does not bring the rows back.
 */
export function unbind(dbs: Databases, n: DNode, descendants: boolean): void {
  for (const av of avIdsOf(n)) dbs.get(av)?.delete(n.id);
  if (descendants) for (const c of n.children) unbind(dbs, c, true);
}

/**
 * `doInsert0` (`transaction.go:1461-1467`): a copy loses its database
 * binding and its flashcard decks — on the first top-level inserted block
 * only (not its descendants, not further blocks).
 */
export function stripCopyAttrs(n: DNode): void {
  for (const key of [...n.attrs.keys()])
    if (
      key === 'custom-avs' ||
      key === 'av-names' ||
      key.startsWith('custom-sy-av-s-text') ||
      key === 'custom-riff-decks'
    )
      n.attrs.delete(key);
}

/** Ids of the blocks of a subtree (pre-order). */
export function subtreeIds(n: DNode, out: Set<string> = new Set()): Set<string> {
  out.add(n.id);
  for (const c of n.children) subtreeIds(c, out);
  return out;
}

/**
 * `getRemovedNodes` + `syncDelete2AvBlock` on update (`transaction.go:1667-1670`,
 * KERNEL-FACTS §3): every block of the old subtree whose id the new subtree
 * does not have leaves its databases.
 */
export function unbindRemoved(dbs: Databases, old: DNode, kept: Set<string>): void {
  const walk = (n: DNode): void => {
    if (!kept.has(n.id)) unbind(dbs, n, false);
    n.children.forEach(walk);
  };
  walk(old);
}

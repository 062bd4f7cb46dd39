// Block references the kernel rewrites on its own (KERNEL-FACTS §12, §13;
// confirmed live on v3.7.3, report B §4):
//
// - every write path (`doUpdate`, `doInsert0`, `doAppendInsert`,
//   `doPrependInsert`) cuts the id out of a ref to a block the block-id
//   table does not have (`degradeCrossBoundaryBlockRefs`,
//   `transaction.go:1798-1827`, with `IsBlockRefCrossingBoundary` failing
//   closed, `model/crypto.go:1456-1486`): `((X 'a'))`, `((X "a"))` →
//   `(( 'a'))`; a ref to a block of the written subtree itself stays;
// - a transaction's commit refreshes the dynamic anchors (`((id 'text'))`)
//   of the blocks that reference what it wrote (`refreshDynamicRefTexts`,
//   `push_reload.go:283-372`), found through the refs the kernel knows —
//   the double reads its SQL view's `refs` table, which lags until a flush
//   (the kernel's ref cache is not modelled; live, a ref written and not
//   yet flushed was not refreshed) — and remembers each new anchor text in
//   a process-wide cache (`treenode.DynamicRefTexts`);
// - `updateBlock` / `batchUpdateBlock` (`doUpdate` only,
//   `transaction.go:1598-1606`) give a dynamic ref of the written subtree
//   the cached text of its block when there is one: the text of the last
//   refresh, which can be stale (live: `'乙'` while the block read `丙`).
//   Inserts, appends and prepends never do.

import { loadFor } from './load.js';
import { CONTAINERS, runes } from './model.js';
import type { DNode } from './model.js';
import { contentFromBody } from './parse.js';
import { contentOf, firstLeaf } from './render.js';
import type { LoadContext } from './load.js';
import type { ParseContext } from './parse.js';
import type { Row } from './sql.js';

const ID = '\\d{14}-[0-9a-z]{7}';
/** A block ref span: `((id))`, `((id "static"))`, `((id 'dynamic'))`. */
const REF = new RegExp(`\\(\\((${ID})(?:\\s+(?:"([^"]*)"|'([^']*)'))?\\)\\)`, 'g');
/** A dynamic ref (`TextMarkBlockRefSubtype` `d`). */
const DYNAMIC = new RegExp(`\\(\\((${ID}) '([^']*)'\\)\\)`, 'g');
/** Blocks whose text holds refs. */
const INLINE = new Set(['p', 'h', 't']);
/** `Conf.Editor.BlockRefDynamicAnchorTextMaxLen` (default 96, `conf/editor.go:87`). */
const ANCHOR_MAX = 96;

function eachNode(top: DNode[], f: (n: DNode) => void): void {
  const walk = (n: DNode): void => {
    f(n);
    n.children.forEach(walk);
  };
  top.forEach(walk);
}

/**
 * What the anchor texts need of the kernel's state (state.ts's
 * KernelState, which calls them): the loading and parsing contexts, the
 * dynamic anchor texts, the refs table, and marking a node changed.
 */
export interface AnchorContext extends LoadContext, ParseContext {
  readonly dynamicRefTexts: Map<string, string>;
  refRows(): Row[];
  touch(n: DNode | null): void;
}

/** `degradeCrossBoundaryBlockRefs` over a written subtree, before it enters the tree. */
export function degradeRefs(k: AnchorContext, top: DNode[]): void {
  const local = new Set<string>();
  eachNode(top, (n) => local.add(n.id));
  eachNode(top, (n) => {
    if (!INLINE.has(n.type) || !n.body.includes('((')) return;
    const body = n.body.replace(REF, (whole, id: string, dq?: string, sq?: string) => {
      if (local.has(id) || k.tree.known.has(id)) return whole;
      return `(( '${(dq ?? sq ?? id).trim()}'))`;
    });
    if (body !== n.body) {
      n.body = body;
      n.row = undefined;
    }
  });
}

/** `doUpdate`: each dynamic ref of the written subtree takes its block's cached anchor text. */
export function cachedAnchors(k: AnchorContext, top: DNode[]): void {
  if (k.dynamicRefTexts.size === 0) return;
  eachNode(top, (n) => {
    if (!INLINE.has(n.type) || !n.body.includes('((')) return;
    const body = n.body.replace(DYNAMIC, (whole, id: string) => {
      const text = k.dynamicRefTexts.get(id);
      return text === undefined ? whole : `((${id} '${text}'))`;
    });
    if (body !== n.body) {
      n.body = body;
      n.content = contentFromBody(k, n);
      n.row = undefined;
    }
  });
}

/** `getNodeRefText` (`model/blockinfo.go:319-385`): the anchor text a block gives its dynamic refs. */
function refText(n: DNode): string {
  const name = n.attrs.get('name');
  if (name && name.trim() !== '') return name.trim();
  const fixed: Record<string, string> = {
    query_embed: 'Query Embed Block...',
    iframe: 'IFrame...',
    tb: 'Thematic Break...',
    video: 'Video...',
    audio: 'Audio...',
    av: 'Database...',
  };
  if (fixed[n.type]) return fixed[n.type]!;
  const leaf = n.type !== 'd' && CONTAINERS.has(n.type) ? firstLeaf(n) : n;
  let text = leaf ? contentOf(leaf).replace(/\n/g, '') : '';
  if (runes(text) > ANCHOR_MAX) text = `${[...text].slice(0, ANCHOR_MAX).join('')}...`;
  return text.trim();
}

/**
 * `getRefsCacheByDefNode` (`transaction.go:2262-2310`): the blocks holding
 * refs to a written block, to the containers it is the first leaf of, and
 * to the blocks inside it; the blocks they name.
 */
function holders(k: AnchorContext, defs: Map<string, DNode>): Set<string> {
  const refs = k.refRows();
  const out = new Set<string>();
  const look = (n: DNode): boolean => {
    let found = false;
    for (const r of refs) {
      if (r.def_block_id !== n.id) continue;
      out.add(String(r.block_id));
      found = true;
    }
    return found;
  };
  for (const d of [...defs.values()]) {
    look(d);
    const parent = d.parent;
    if (parent && parent.type !== 'd' && CONTAINERS.has(parent.type) && firstLeaf(parent) === d) {
      for (let p: DNode | null = parent; p && p.type !== 'd'; p = p.parent)
        if (look(p)) defs.set(p.id, p);
    }
    if (d.type !== 'd' && CONTAINERS.has(d.type))
      eachNode(d.children, (x) => {
        if (look(x)) defs.set(x.id, x);
      });
  }
  return out;
}

/**
 * `refreshDynamicRefTexts` after a transaction committed: up to 7 rounds
 * (a refreshed block is itself a written block for the next round).
 */
export function refreshAnchors(k: AnchorContext, nodes: DNode[]): void {
  let defs = new Map<string, DNode>();
  for (const n of nodes) if (k.tree.rootOf(n).type === 'd') defs.set(n.id, n);
  for (let round = 0; round < 7 && defs.size > 0; round++) {
    const next = new Map<string, DNode>();
    for (const id of holders(k, defs)) {
      const holder = loadFor(k, id);
      if (!holder || !INLINE.has(holder.type)) continue;
      const body = holder.body.replace(DYNAMIC, (whole, defId: string, text: string) => {
        const def = defs.get(defId);
        if (!def) return whole;
        const fresh = refText(def) || defId;
        if (text.trim() === fresh) return whole;
        k.dynamicRefTexts.set(defId, fresh);
        return `((${defId} '${fresh}'))`;
      });
      if (body === holder.body) continue;
      holder.body = body;
      holder.content = contentFromBody(k, holder);
      k.touch(holder);
      next.set(holder.id, holder);
    }
    defs = next;
  }
}

// The read endpoints that see the block tree, not the SQL view
// (KERNEL-FACTS §1, §8, §11): child lists, kramdown, attributes,
// breadcrumbs, outlines. Each loads the document first (load.ts).

import type { BreadcrumbEntry } from '../../types.js';
import { blockAttrs, pairsOf, shuffledIal } from './attrs.js';
import { loadFor } from './load.js';
import { TYPE_NAMES } from './model.js';
import type { DNode } from './model.js';
import { contentOf, goTrimSpace, render, rowOf } from './render.js';
import type { KernelState } from './state.js';

/**
 * `/api/block/getChildBlocks` (notes §11): `[{id, type, subType?,
 * content?, markdown?}]`, empty strings omitted, no U+200B; a heading's
 * section, a container's blocks; a leaf or an unknown id → `[]`.
 */
export function childBlocks(k: KernelState, id: string): Record<string, unknown>[] {
  const n = loadFor(k, id);
  if (!n) return [];
  return k.tree.childrenOf(n).map((c) => {
    const row = rowOf(k, c);
    const out: Record<string, unknown> = { id: c.id, type: c.type };
    if (c.subtype) out.subType = c.subtype;
    if (row.content) out.content = row.content;
    if (row.markdown) out.markdown = row.markdown;
    return out;
  });
}

/**
 * A block's kramdown as a load gives it: KERNEL-FACTS §11, notes §1–§2:
 * every block's IAL lists its pairs (`id` and `updated` too) in a fresh
 * random order at every read. The read rewrites HTML blocks and embeds
 * (`addBlockIALNodes`, render.ts) and, with `paragraphBeginningSpace` on,
 * puts two U+3000 before a document's top-level paragraphs; then Lute's
 * `strings.TrimSpace` of the whole output (`lute.go:307`) takes them off
 * the first block again — and off a block read by its own id, which is
 * always first: a paragraph stored with leading U+3000 reads back without
 * them by id, with them in its document (confirmed live on v3.7.3).
 */
function loadedKramdown(k: KernelState, n: DNode): string {
  const kramdown = render(n, (x) => shuffledIal(k.rand, pairsOf(x)), {
    rewrite: true,
    beginningSpace: k.settings.paragraphBeginningSpace,
  });
  return goTrimSpace(kramdown);
}

/** `/api/block/getBlockKramdown`: `{id, kramdown}`; unknown id → `""`. */
export function blockKramdown(k: KernelState, id: string): { id: string; kramdown: string } {
  const n = loadFor(k, id);
  return { id, kramdown: n ? loadedKramdown(k, n) : '' };
}

/**
 * `/api/block/getBlockKramdowns` (notes §9): `{id: kramdown}`; an id whose
 * document cannot be loaded (not in the block tree) gets no key, an id the
 * block tree still has but the document does not (stale) gets `""`.
 */
export function blockKramdowns(k: KernelState, ids: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const id of ids) {
    const n = loadFor(k, id);
    if (n) out[id] = loadedKramdown(k, n);
    else if (k.tree.known.has(id)) out[id] = '';
  }
  return out;
}

/** `/api/attr/getBlockAttrs` (`sql.GetBlockAttrs`): the attributes as an object; unknown id → `{}`. */
export function getBlockAttrs(k: KernelState, id: string): Record<string, string> {
  const n = loadFor(k, id);
  return n ? blockAttrs(n) : {};
}

/** An entry of `/api/outline/getDocOutline`. */
interface OutlineItem {
  id: string;
  box: string;
  name: string;
  hPath: string;
  type: 'outline';
  /** A nested entry's heading text (its `name` is `""`). */
  content?: string;
  nodeType: string;
  subType: string;
  depth: number;
  count: number;
  blocks: OutlineItem[];
}

/** The outline: headings nested by level, in document order, leaving out
 * headings inside blockquotes and callouts (KERNEL-FACTS §8). */
export function outline(k: KernelState, doc: DNode): OutlineItem[] {
  const headings: DNode[] = [];
  const walk = (n: DNode): void => {
    for (const c of n.children) {
      if (c.type === 'b' || c.type === 'callout') continue;
      if (c.type === 'h') headings.push(c);
      walk(c);
    }
  };
  walk(doc);
  const root: OutlineItem[] = [];
  const stack: { level: number; item: OutlineItem }[] = [];
  for (const h of headings) {
    const level = Number(h.subtype.slice(1)) || 1;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
    // A top-level entry names its heading in `name`; a nested one (a
    // block entry) has `name: ""` and the text in `content` (live v3.7.3).
    const text = contentOf(h).trim();
    const nested = stack.length > 0;
    const item: OutlineItem = {
      id: h.id,
      box: doc.doc?.box ?? '',
      name: nested ? '' : text,
      ...(nested ? { content: text } : {}),
      hPath: doc.doc?.hpath ?? '',
      type: 'outline',
      nodeType: 'NodeHeading',
      subType: h.subtype,
      depth: stack.length,
      count: 0,
      blocks: [],
    };
    const parent = stack[stack.length - 1]?.item;
    if (parent) {
      parent.blocks.push(item);
      parent.count = parent.blocks.length;
    } else {
      root.push(item);
    }
    stack.push({ level, item });
  }
  return root;
}

/** `/api/block/getBlockBreadcrumb`; unknown id → `[]` (code 0). */
export function breadcrumb(k: KernelState, target: DNode): BreadcrumbEntry[] {
  const items: BreadcrumbEntry[] = [];
  const nameOf = (n: DNode): string => {
    if (n === target) return '';
    if (n.type === 'd')
      return `${k.notebooks.get(n.doc?.box ?? '')?.name ?? ''}${n.doc?.hpath ?? ''}`;
    if (n.type === 'i') {
      const f = n.children[0];
      return f ? contentOf(f).trim() : '';
    }
    return contentOf(n).trim();
  };
  const add = (n: DNode): void => {
    const onlyParagraphOfItem =
      n.type === 'p' && n.parent?.type === 'i' && n.parent.children.length === 1;
    if (onlyParagraphOfItem) return;
    items.push({
      id: n.id,
      name: nameOf(n),
      type: TYPE_NAMES[n.type] ?? 'NodeParagraph',
      subType: n.subtype,
      children: null,
    });
  };
  add(target);
  let n: DNode = target;
  while (n.parent) {
    const hp = k.tree.headingParent(n);
    if (hp && hp !== n.parent) {
      add(hp);
      n = hp;
      continue;
    }
    n = n.parent;
    if (n.type === 'd' || n.type === 'i') add(n);
  }
  return items.reverse();
}

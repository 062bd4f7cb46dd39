// The kernel double's data model: block nodes, the kernel's type codes and
// weights, and small helpers shared by its modules.

import type { Block } from '../../types.js';

/** One block of the double's tree. */
export interface DNode {
  id: string;
  type: string;
  subtype: string;
  /** IAL attributes except `id`, in insertion order, values as written (entity-escaped). */
  attrs: Map<string, string>;
  /** Where `id` stands among the attributes (KERNEL-FACTS §8: IAL keys keep their order); default first. */
  idAt?: number;
  children: DNode[];
  parent: DNode | null;
  /** Leaves: the markdown (no IAL). */
  body: string;
  /** Leaves: the `content` column. */
  content: string;
  /** Task list items: the checkbox (` `, `x`, `X`). */
  task?: string;
  /**
   * Task list items: the index of the child the checkbox stands before.
   * KERNEL-FACTS §4: the checkbox is a node of its own, the item's first;
   * `prependBlock` puts a block before it, `insertBlock` by parent after it.
   */
  taskAt?: number;
  /** Ordered lists: first number and delimiter. */
  start?: number;
  delim?: string;
  /** Super blocks: `row` / `col`. */
  layout?: string;
  /** Callouts: the `[!TYPE]` line's type. */
  calloutType?: string;
  /** Callouts: the title after `[!TYPE]` (Lute's `callout-title`), if any. */
  calloutTitle?: string;
  /** Documents: where it lives. */
  doc?: { box: string; path: string; hpath: string };
  /** The last computed row (its `parent_id` is recomputed on read). */
  row?: Block;
}

export const CONTAINERS = new Set(['d', 'b', 'l', 'i', 's', 'callout']);
export const ID_RE = /^\d{14}-[0-9a-z]{7}$/;

/** Lute's DOM `data-type` → the kernel's `blocks.type`. */
export const NODE_TYPES: Record<string, string> = {
  NodeDocument: 'd',
  NodeHeading: 'h',
  NodeList: 'l',
  NodeListItem: 'i',
  NodeCodeBlock: 'c',
  NodeMathBlock: 'm',
  NodeTable: 't',
  NodeBlockquote: 'b',
  NodeSuperBlock: 's',
  NodeParagraph: 'p',
  NodeHTMLBlock: 'html',
  NodeBlockQueryEmbed: 'query_embed',
  NodeAttributeView: 'av',
  NodeIFrame: 'iframe',
  NodeWidget: 'widget',
  NodeThematicBreak: 'tb',
  NodeVideo: 'video',
  NodeAudio: 'audio',
  NodeCallout: 'callout',
};
export const TYPE_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(NODE_TYPES).map(([k, v]) => [v, k]),
);

/** `sort` column: a type weight (KERNEL-FACTS §8: callouts 20). */
export const SORT: Record<string, number> = {
  d: 0,
  h: 5,
  p: 10,
  c: 10,
  m: 10,
  t: 10,
  html: 10,
  l: 20,
  i: 20,
  b: 20,
  callout: 20,
  s: 30,
  av: 30,
};

/** A failure the kernel answers with a non-zero code. */
export class KernelFailure extends Error {
  constructor(
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

export function runes(s: string): number {
  return [...s].length;
}

export function headingLevel(n: DNode): number {
  const k = Number(n.subtype.slice(1));
  return n.type === 'h' && k >= 1 && k <= 6 ? k : 0;
}

/** Row keys sorted, as Go encodes a map (KERNEL-FACTS §7). */
export function sortKeys<T extends object>(row: T): T {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(row).sort()) out[k] = (row as Record<string, unknown>)[k];
  return out as T;
}

export function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0').slice(0, 7);
}

/** `YYYYMMDDHHMMSS` of a date, in local time (the kernel's clock) or UTC. */
export function stampOf(d: Date, utc = false): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const [y, mo, day, h, mi, s] = utc
    ? [
        d.getUTCFullYear(),
        d.getUTCMonth() + 1,
        d.getUTCDate(),
        d.getUTCHours(),
        d.getUTCMinutes(),
        d.getUTCSeconds(),
      ]
    : [
        d.getFullYear(),
        d.getMonth() + 1,
        d.getDate(),
        d.getHours(),
        d.getMinutes(),
        d.getSeconds(),
      ];
  return `${p(y, 4)}${p(mo)}${p(day)}${p(h)}${p(mi)}${p(s)}`;
}

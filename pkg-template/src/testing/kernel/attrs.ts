// Block attributes (IALs) as the kernel keeps them: the whitelist an API
// write goes through, the random order a load gives them, and
// `/api/attr/setBlockAttrs` / `getBlockAttrs`.

import { decodeEntities } from '../../siyuan/block-dom.js';
import { KernelFailure } from './model.js';
import type { DNode } from './model.js';
import type { Random } from './random.js';

export type Pairs = [string, string][];

/**
 * KERNEL-FACTS §10, kernel notes §3: an API write goes markdown → DOM →
 * `BlockDOM2Tree`, whose `setBlockIAL` (Lute `protyle.go:2172-2304`) copies
 * only these keys, in this order, skipping empty values; then every
 * `custom-*` key (from a Go map: random order); then `colgroup` for tables.
 */
export const API_IAL_KEYS = [
  'id',
  'caption',
  'icon',
  'refcount',
  'av-names',
  'bookmark',
  'style',
  'name',
  'memo',
  'alias',
  'fold',
  'heading-fold',
  'parent-fold',
  'updated',
  'linewrap',
  'ligatures',
  'linenumber',
  'breadcrumb',
  'data-export-md',
  'data-export-html',
] as const;

/** A node's attribute pairs in their stored order, `id` where it stands. */
export function pairsOf(n: DNode): Pairs {
  const pairs: Pairs = [...n.attrs];
  pairs.splice(Math.min(n.idAt ?? 0, pairs.length), 0, ['id', n.id]);
  return pairs;
}

export function ialText(pairs: Pairs): string {
  return `{: ${pairs.map(([k, v]) => `${k}="${v}"`).join(' ')}}`;
}

/** The pairs of an IAL text (`{: k="v" …}`). */
export function parsePairs(ial: string): Pairs {
  const out: Pairs = [];
  for (const m of ial.matchAll(/([^\s={}:]+)="([^"]*)"/g)) out.push([m[1]!, m[2]!]);
  return out;
}

/**
 * Every `{: …}` of a text with its pairs sorted by key: compares kramdown or
 * `ial` columns as sets of attributes (KERNEL-FACTS §11: the order is not
 * stable between reads).
 */
export function canonicalIal(text: string): string {
  return text.replace(/\{:((?:\s+[^\s={}:]+="[^"]*")*)\s*\}/g, (_, body: string) =>
    ialText(parsePairs(body).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  );
}

/** KERNEL-FACTS §11, notes §1: every load rebuilds an IAL from a Go map. */
export function shuffledIal(rand: Random, pairs: Pairs): string {
  return ialText(rand.shuffle(pairs));
}

/**
 * The attributes an API write keeps (notes §3), from the block DOM's
 * attributes: the whitelist in order, then `custom-*` in random order, then
 * `colgroup` (tables). Names are lower-cased as the HTML tokenizer does.
 */
export function whitelisted(
  rand: Random,
  domAttrs: Pairs,
  colgroup: string | undefined,
): Map<string, string> {
  const dom = new Map<string, string>();
  for (const [k, v] of domAttrs) dom.set(k.toLowerCase(), v);
  const out = new Map<string, string>();
  for (const key of API_IAL_KEYS) {
    const v = dom.get(key);
    if (key !== 'id' && v !== undefined && v !== '') out.set(key, v);
  }
  const custom = [...dom].filter(([k]) => k.startsWith('custom-'));
  for (const [k, v] of rand.shuffle(custom)) out.set(k, v);
  if (colgroup !== undefined) out.set('colgroup', colgroup);
  return out;
}

const ATTR_NAME_MSG =
  'The attribute name can only contain lowercase English letters, digits, and hyphens, and must start with a lowercase English letter';

/** `isValidAttrName` (kernel `model/blockial.go:409-451`). */
export function isValidAttrName(name: string): boolean {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) return false;
  if (!name.startsWith('custom-')) return true;
  return /^[a-z]/.test(name.slice('custom-'.length));
}

/** `html.EscapeAttrVal` (Lute). */
function escapeAttrVal(v: string): string {
  return v
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '_esc_newline_')
    .replace(/\{/g, '&#123;')
    .replace(/\}/g, '&#125;');
}

/** `tags`: split on commas, trimmed, duplicates removed. */
function cleanTags(value: string): string {
  const tags = [
    ...new Set(
      value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ];
  return tags.join(',');
}

/**
 * `setNodeAttrs0` (kernel `model/blockial.go:332-407`, notes §4): values
 * cleaned of control characters and trimmed; names lower-cased and
 * validated; `data-task` refused; `""` removes; the IAL is rebuilt from a
 * map (random order). All or nothing: an error leaves the block as it was.
 */
export function setNodeAttrs(rand: Random, n: DNode, nameValues: Record<string, string>): void {
  const attrs = new Map(n.attrs);
  for (const [name, raw] of Object.entries(nameValues)) {
    let value = raw.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '').trim();
    const lower = name.toLowerCase();
    if (!isValidAttrName(lower)) throw new KernelFailure(-1, `${ATTR_NAME_MSG} [${n.id}]`);
    if (lower === 'data-task')
      throw new KernelFailure(
        -1,
        'setting or removing [data-task] attribute is not allowed via this interface. Please use "/api/block/updateTaskListItemMarker" or "/api/block/batchUpdateTaskListItemMarker" to update the task list item marker',
      );
    if (lower === 'tags') value = cleanTags(value);
    // The node's id is not changed by its IAL (a load restores it, notes §1).
    if (lower === 'id') continue;
    if (value === '') {
      if (name !== lower && attrs.has(name)) attrs.delete(name);
      else attrs.delete(lower);
    } else {
      attrs.delete(name);
      attrs.set(lower, escapeAttrVal(value));
    }
  }
  const order = rand.shuffle(['id', ...attrs.keys()]);
  n.idAt = order.indexOf('id');
  n.attrs = new Map(order.filter((k) => k !== 'id').map((k) => [k, attrs.get(k)!]));
}

/** `/api/attr/getBlockAttrs`: the IAL as a map, values unescaped (keys sorted, as Go encodes a map). */
export function blockAttrs(n: DNode): Record<string, string> {
  const out: Record<string, string> = {};
  const pairs = pairsOf(n).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [k, v] of pairs) {
    out[k] = decodeEntities(
      v
        .replace(/_esc_newline_/g, '\n')
        .replace(/&#123;/g, '{')
        .replace(/&#125;/g, '}'),
    );
  }
  return out;
}

// An in-memory SiYuan kernel: serves the kernel HTTP endpoints editkit's
// adapter calls (`request(path, body) → {code, msg, data}`) from a block
// tree held in memory, so `createSiyuanHost` — and editkit through it — can
// be tested end to end without SiYuan.
//
// What it follows (kernel v3.7.3):
// - Markdown → blocks with Lute (SiYuan's engine, configured like the
//   kernel's `util.NewLute()`): `Md2BlockDOM` splits and types the blocks,
//   `BlockDOM2StdMd` gives the `markdown` column, `BlockDOM2Content` the
//   `content` of leaves;
// - block tree rules: `parent_id` by `treenode.HeadingParent`, heading
//   sections for `getChildBlocks`, `content` by `nodeStaticContent`
//   (containers emit one space; table cells space-separated), `fcontent`,
//   `length`, `sort` weights;
// - write semantics of `/api/block/*` and `model/transaction.go`: container
//   check of append/prepend/insert-by-parent (`CheckContainerParent`
//   messages), `updateBlock` keeping only the first block and only the IAL
//   the markdown carries (plus `id` and a new `updated`), list items on
//   append/prepend into a list (list markdown moves its items, other blocks
//   are wrapped in a new item), list markdown inserted next to a list item
//   contributing only its first item, empty list items getting an empty
//   paragraph, write answers `[{doOperations: [{action, data, id, parentID,
//   previousID, nextID}]}]` with the block DOM as `data`;
// - `/api/query/sql`: the statements editkit and its users emit (`SELECT
//   <cols> FROM blocks [WHERE col = '…' | col IN (…) [AND …]] [ORDER BY …]
//   [LIMIT n]`), the implicit `LIMIT 64`, rows in index order (not the
//   order of an `IN` list), keys sorted as Go encodes a map;
// - an asynchronous SQL index: writes reach `/api/query/sql` only after
//   `/api/sqlite/flushTransaction` or `sqlLag` further requests; the tree
//   endpoints (getChildBlocks, getBlockKramdown, breadcrumbs) see them at
//   once, as in the kernel.
// See docs/KERNEL-DOUBLE.md for what it does not emulate.

import type { Block, BreadcrumbEntry, KernelResponse } from '../types.js';
import {
  attr,
  childBlocks,
  decodeEntities,
  findAll,
  parseDom,
  textOf,
} from '../siyuan/block-dom.js';
import type { DomElement } from '../siyuan/block-dom.js';
import { kernelLute } from './lute.js';
import type { LuteEngine, LuteNamespace } from './lute.js';
import type { FixtureDocument, MarkdownDocument, TreeNode } from './memory-host.js';

/** A notebook the double knows. */
export interface KernelNotebook {
  id: string;
  name: string;
}

export interface KernelDoubleOptions {
  /** Documents as the shared fixtures ship them (rows, tree, kramdown). */
  fixtures?: FixtureDocument[];
  /** Documents given as markdown blocks (parsed with Lute). */
  documents?: MarkdownDocument[];
  /** Document rows without a body (e.g. the parents in `notebook-index.json`): loaded as empty documents unless already loaded. */
  documentRows?: Block[];
  /** Notebooks (default: those named by the fixtures, else one per `box` seen). */
  notebooks?: KernelNotebook[];
  /** Lute: the `Lute` global of `lute.min.js` or an engine; default `globalThis.Lute`. Needed for every write and for `documents`. */
  lute?: LuteNamespace | LuteEngine;
  /** Clock for new ids, `updated` stamps and the daily note (default: 2099-01-01 UTC). */
  now?: () => Date;
  /** Requests a write stays invisible to `/api/query/sql` unless flushed (default 1; 0 = at once; `Infinity` = only a flush). */
  sqlLag?: number;
}

/** A recorded request. */
export interface KernelCall {
  path: string;
  body: Record<string, unknown>;
  response: KernelResponse;
}

export interface KernelDouble {
  /** Serves one kernel API request (the body and the answer are JSON-copied, as over HTTP). */
  request(path: string, body?: Record<string, unknown>): Promise<KernelResponse>;
  /** Every request served, in order. */
  readonly calls: KernelCall[];
  /** Makes the SQL index catch up with every write (what `/api/sqlite/flushTransaction` does). */
  flush(): void;
  /** Changes how many requests a write stays invisible to SQL. */
  setSqlLag(lag: number): void;
  /** Answers the next request to `path` with this error code (once). */
  failNext(path: string, code?: number, msg?: string): void;
  /** The kramdown of a block now (tree view), or null. */
  kramdown(id: string): string | null;
  /** The row of a block computed from the tree now, or undefined. */
  block(id: string): Block | undefined;
  /** The row `/api/query/sql` would return now, or undefined. */
  indexedBlock(id: string): Block | undefined;
  /** (id, type, markdown) of every block of a document, pre-order. */
  snapshot(docId: string): { id: string; type: string; markdown: string }[];
  /** Ids of every document. */
  documentIds(): string[];
}

/** An entry of `/api/outline/getDocOutline`. */
interface OutlineItem {
  id: string;
  box: string;
  name: string;
  hPath: string;
  type: 'outline';
  nodeType: string;
  subType: string;
  depth: number;
  count: number;
  blocks: OutlineItem[];
}

interface DNode {
  id: string;
  type: string;
  subtype: string;
  /** IAL attributes except `id`, values as written (entity-escaped). */
  attrs: Map<string, string>;
  children: DNode[];
  parent: DNode | null;
  /** Leaves: the markdown (no IAL). */
  body: string;
  /** Leaves: the `content` column. */
  content: string;
  /** List items: task marker (` `, `x`, `X`) or undefined. */
  task?: string;
  /** Ordered lists: first number and delimiter. */
  start?: number;
  delim?: string;
  /** Super blocks: `row` / `col`. */
  layout?: string;
  /** Callouts: the `[!TYPE]` line's type. */
  calloutType?: string;
  /** Documents: where it lives. */
  doc?: { box: string; path: string; hpath: string };
  /** The last computed row (its `parent_id` is recomputed on read). */
  row?: Block;
}

const CONTAINERS = new Set(['d', 'b', 'l', 'i', 's', 'callout']);
const ID_RE = /^\d{14}-[0-9a-z]{7}$/;
const NODE_TYPES: Record<string, string> = {
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
const TYPE_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries(NODE_TYPES).map(([k, v]) => [v, k]),
);
const SORT: Record<string, number> = {
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
  s: 30,
  av: 30,
};

/** Kernel messages (treenode.CheckContainerParent, util.InvalidIDPattern, …). */
const MSG = {
  invalidId: 'invalid ID argument',
  parentNotFound: (id: string) => `parent block not found: ${id}`,
  headingLeaf: (id: string) =>
    `heading [${id}] is a leaf block and cannot have children; to place a block below this heading, pass previousID=<heading id> or previousID=<last block below the heading> instead of parentID`,
  leaf: (id: string, type: string) =>
    `block [${id}] type "${type}" is a leaf block and cannot have children; use previousID to place the block as its sibling instead`,
  notFound: 'block not found',
};

class KernelFailure extends Error {
  constructor(
    readonly code: number,
    msg: string,
  ) {
    super(msg);
  }
}

function runes(s: string): number {
  return [...s].length;
}

function headingLevel(n: DNode): number {
  const k = Number(n.subtype.slice(1));
  return n.type === 'h' && k >= 1 && k <= 6 ? k : 0;
}

function parseIalPairs(ial: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of ial.matchAll(/([^\s={}:]+)="([^"]*)"/g)) out.push([m[1]!, m[2]!]);
  return out;
}

function sortKeys(row: Record<string, unknown>): Block {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(row).sort()) out[k] = row[k];
  return out as Block;
}

function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0').slice(0, 7);
}

export function createKernelDouble(options: KernelDoubleOptions = {}): KernelDouble {
  const now = options.now ?? (() => new Date(Date.UTC(2099, 0, 1)));
  let sqlLag = options.sqlLag ?? 1;
  let engine: LuteEngine | undefined;
  const luteSource = options.lute ?? (globalThis as { Lute?: LuteNamespace }).Lute;

  const nodes = new Map<string, DNode>();
  const docs = new Map<string, DNode>();
  const notebooks = new Map<string, string>();
  for (const nb of options.notebooks ?? []) notebooks.set(nb.id, nb.name);
  const calls: KernelCall[] = [];
  const failures = new Map<string, { code: number; msg: string }>();

  // The SQL index: a snapshot of rows, by document, in index order.
  const index = new Map<string, Block>();
  const indexedByDoc = new Map<string, string[]>();
  let requestSeq = 0;
  const pending: { docId: string; seq: number }[] = [];
  let counter = 0;

  function lute(): LuteEngine {
    if (!engine) {
      if (!luteSource) {
        throw new Error(
          'createKernelDouble: Lute is needed to parse Markdown: pass { lute } (the Lute global of vditor/dist/js/lute/lute.min.js, see loadLute)',
        );
      }
      engine = kernelLute(luteSource);
    }
    return engine;
  }

  function luteCall<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      throw new KernelFailure(
        -1,
        `data block DOM failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  const stamp = (): string => {
    const d = now();
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  };
  const newId = (): string => {
    let id: string;
    do {
      counter += 1;
      id = `${stamp()}-${counter.toString(36).padStart(7, '0')}`;
    } while (nodes.has(id));
    return id;
  };

  // -------------------------------------------------------------------------
  // Tree helpers

  function rootOf(n: DNode): DNode {
    let r = n;
    while (r.parent) r = r.parent;
    return r;
  }

  function register(n: DNode): void {
    nodes.set(n.id, n);
    for (const c of n.children) {
      c.parent = n;
      register(c);
    }
  }

  function unregister(n: DNode): void {
    nodes.delete(n.id);
    for (const c of n.children) unregister(c);
  }

  /** Marks a node and its ancestors changed (their rows are recomputed) and queues its document for indexing. */
  function touch(n: DNode | null): void {
    for (let p = n; p; p = p.parent) p.row = undefined;
    if (n) {
      const root = rootOf(n);
      if (root.type === 'd') pending.push({ docId: root.id, seq: requestSeq });
    }
  }

  function headingParent(n: DNode): DNode | null {
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

  function headingSection(h: DNode): DNode[] {
    const siblings = h.parent?.children ?? [];
    const level = headingLevel(h);
    const out: DNode[] = [];
    for (const s of siblings.slice(siblings.indexOf(h) + 1)) {
      if (s.type === 'h' && headingLevel(s) <= level) break;
      out.push(s);
    }
    return out;
  }

  function ial(n: DNode): string {
    const pairs: [string, string][] = [['id', n.id], ...n.attrs];
    pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{: ${pairs.map(([k, v]) => `${k}="${v}"`).join(' ')}}`;
  }

  // -------------------------------------------------------------------------
  // Rendering: kramdown (md mode) and the markdown column

  function indent(text: string, pad: string): string {
    return text
      .split('\n')
      .map((l) => (l === '' ? '' : pad + l))
      .join('\n');
  }

  function itemMarker(li: DNode): string {
    const list = li.parent;
    if (list && list.subtype === 'o') {
      const n = (list.start ?? 1) + list.children.indexOf(li);
      return `${n}${list.delim ?? '.'} `;
    }
    return '- ';
  }

  function renderItem(li: DNode, withIal: boolean): string {
    const marker = itemMarker(li);
    const pad = ' '.repeat(marker.length);
    const task = li.task !== undefined ? `[${li.task}] ` : '';
    const parts = li.children.map((c) => render(c, withIal));
    const first = parts[0] ?? '';
    const [head = '', ...rest] = first.split('\n');
    let out = `${marker}${withIal ? ial(li) : ''}${task}${head}`;
    if (rest.length > 0) out += `\n${indent(rest.join('\n'), pad)}`;
    for (const p of parts.slice(1)) out += `\n\n${indent(p, pad)}`;
    return out;
  }

  function quote(parts: string[]): string {
    return parts
      .map((p) =>
        p
          .split('\n')
          .map((l) => (l === '' ? '>' : `> ${l}`))
          .join('\n'),
      )
      .join('\n>\n');
  }

  /** Kramdown (`withIal`) or the markdown column (without). */
  function render(n: DNode, withIal: boolean): string {
    const tail = withIal ? `\n${ial(n)}` : '';
    switch (n.type) {
      case 'd':
        return (
          n.children.map((c) => render(c, withIal)).join('\n\n') + (withIal ? `\n\n${ial(n)}` : '')
        );
      case 'l':
        return n.children.map((c) => renderItem(c, withIal)).join('\n') + tail;
      case 'i':
        return renderItem(n, withIal); // its IAL sits after the marker
      case 'b':
        return quote(n.children.map((c) => render(c, withIal))) + tail;
      case 'callout': {
        const head = `[!${n.calloutType ?? 'NOTE'}]`;
        return (
          quote([head, ...n.children.map((c) => render(c, withIal))]).replace('\n>\n', '\n') + tail
        );
      }
      case 's':
        return `{{{${n.layout ?? 'row'}\n${n.children.map((c) => `${render(c, withIal)}\n\n`).join('')}}}}${tail}`;
      default:
        return n.body + tail;
    }
  }

  function kramdownOf(n: DNode): string {
    return render(n, true);
  }

  /** The `markdown` column: Lute's standard Markdown of the block's kramdown (super blocks keep `{{{…}}}`, as the kernel does). */
  function markdownOf(n: DNode): string {
    if (n.type === 'd') return '';
    if (!CONTAINERS.has(n.type)) return n.body;
    if (n.type === 's') return render(n, false);
    const k = kramdownOf(n);
    return luteCall(() => lute().BlockDOM2StdMd(lute().Md2BlockDOM(k))).replace(/\n+$/, '');
  }

  function contentOf(n: DNode): string {
    if (n.type === 'd') return n.attrs.get('title') ?? '';
    if (!CONTAINERS.has(n.type)) return n.content;
    // nodeStaticContent: a container writes one space unless the last write was one.
    let buf = '';
    let lastSpace = false;
    const walk = (x: DNode): void => {
      if (CONTAINERS.has(x.type)) {
        if (!lastSpace) {
          buf += ' ';
          lastSpace = true;
        }
        if (x.type === 'callout') buf += `${x.calloutType ?? 'NOTE'} `;
        x.children.forEach(walk);
        return;
      }
      buf += x.content;
      lastSpace = false;
    };
    walk(n);
    return buf;
  }

  function firstLeaf(n: DNode): DNode | undefined {
    for (const c of n.children) {
      if (!CONTAINERS.has(c.type)) return c;
      const f = firstLeaf(c);
      if (f) return f;
    }
    return undefined;
  }

  function computeRow(n: DNode): Block {
    const root = rootOf(n);
    const doc = root.doc ?? { box: '', path: '', hpath: '' };
    const dec = (k: string) => decodeEntities(n.attrs.get(k) ?? '');
    const content = contentOf(n);
    const fcontent =
      n.type === 'd'
        ? content
        : CONTAINERS.has(n.type)
          ? firstLeaf(n)
            ? contentOf(firstLeaf(n)!)
            : ''
          : '';
    const markdown = markdownOf(n);
    const parent = headingParent(n);
    return sortKeys({
      alias: dec('alias'),
      box: doc.box,
      content,
      created: n.id.slice(0, 14),
      fcontent,
      hash: shortHash(`${doc.box}${doc.path}${kramdownOf(n)}${parent?.id ?? ''}`),
      hpath: doc.hpath,
      ial: ial(n),
      id: n.id,
      length: runes(n.type === 'd' || CONTAINERS.has(n.type) ? fcontent : content),
      markdown,
      memo: dec('memo'),
      name: dec('name'),
      parent_id: parent?.id ?? '',
      path: doc.path,
      root_id: root.id,
      sort: SORT[n.type] ?? 100,
      subtype: n.subtype,
      tag: '',
      type: n.type,
      updated: n.attrs.get('updated') ?? n.id.slice(0, 14),
    });
  }

  /** The block's row now (cached until the block or a descendant changes). */
  function rowOf(n: DNode): Block {
    if (!n.row) n.row = computeRow(n);
    return { ...n.row, parent_id: headingParent(n)?.id ?? '' };
  }

  // -------------------------------------------------------------------------
  // The SQL index

  function indexDoc(docId: string): void {
    for (const id of indexedByDoc.get(docId) ?? []) index.delete(id);
    const root = docs.get(docId);
    const ids: string[] = [];
    if (root && nodes.get(docId) === root) {
      const walk = (n: DNode): void => {
        index.set(n.id, rowOf(n));
        ids.push(n.id);
        n.children.forEach(walk);
      };
      walk(root);
    }
    indexedByDoc.set(docId, ids);
  }

  function catchUp(all: boolean): void {
    const due = new Set<string>();
    for (let i = pending.length - 1; i >= 0; i--) {
      const p = pending[i]!;
      if (all || requestSeq - p.seq > sqlLag) {
        due.add(p.docId);
        pending.splice(i, 1);
      }
    }
    // A document with a write still pending keeps its old rows (no partial view).
    for (const p of pending) due.delete(p.docId);
    for (const docId of due) indexDoc(docId);
  }

  // -------------------------------------------------------------------------
  // Markdown → nodes (Lute)

  /** Parses markdown into top-level nodes with fresh ids, except ids the markdown's IAL names (kept when free). */
  function parse(
    markdown: string,
    reusable: Set<string> = new Set(),
  ): { top: DNode[]; dom: string } {
    let dom = luteCall(() => lute().Md2BlockDOM(markdown));
    if (dom.trim() === '') {
      // dataBlockDOM: an empty string becomes one empty paragraph.
      dom = luteCall(() => lute().Md2BlockDOM(`{: id="${newId()}"}`));
      if (dom.trim() === '')
        dom = `<div data-node-id="${newId()}" data-type="NodeParagraph" class="p"><div contenteditable="true" spellcheck="false"></div><div class="protyle-attr" contenteditable="false">\u200b</div></div>`;
    }
    const forest = parseDom(dom);
    const renames = new Map<string, string>();
    const stampNow = stamp();
    const taken = new Set<string>();
    const build = (el: DomElement): DNode => {
      const luteId = attr(el, 'data-node-id') ?? '';
      const named = ID_RE.test(luteId) && markdown.includes(`id="${luteId}"`);
      let id = luteId;
      if (!named || taken.has(luteId) || (nodes.has(luteId) && !reusable.has(luteId))) {
        id = newId();
        while (taken.has(id)) id = newId();
        renames.set(luteId, id);
      }
      taken.add(id);
      const type = NODE_TYPES[attr(el, 'data-type') ?? ''] ?? 'p';
      const n: DNode = {
        id,
        type,
        subtype:
          type === 'h' || type === 'l' || type === 'i' ? (attr(el, 'data-subtype') ?? '') : '',
        attrs: new Map(),
        children: [],
        parent: null,
        body: '',
        content: '',
      };
      for (const [k, v] of el.attrs) {
        if (
          k.startsWith('data-') ||
          k === 'class' ||
          k === 'contenteditable' ||
          k === 'spellcheck' ||
          k === 'draggable'
        )
          continue;
        n.attrs.set(k, v);
      }
      // Lute stamps `updated` with its own clock; keep the one the markdown's
      // IAL gives, otherwise use the double's clock.
      const given = named
        ? new RegExp(`\\{:[^}\\n]*\\bid="${luteId}"[^}\\n]*\\}`).exec(markdown)?.[0]
        : undefined;
      if (!given || !/\bupdated="/.test(given)) n.attrs.set('updated', stampNow);
      if (CONTAINERS.has(type)) {
        n.children = childBlocks(el.children).map(build);
        if (type === 'i') {
          const task = attr(el, 'data-task');
          if (n.subtype === 't' || task !== undefined)
            n.task = task === undefined || task === '' ? ' ' : task;
        }
        if (type === 'l' && n.subtype === 'o') {
          const firstLi = childBlocks(el.children)[0];
          const mm = firstLi ? /^(\d+)([.)])/.exec(attr(firstLi, 'data-marker') ?? '') : null;
          n.start = mm ? Number(mm[1]) : 1;
          n.delim = mm ? mm[2] : '.';
        }
        if (type === 's') n.layout = attr(el, 'data-sb-layout') ?? 'row';
        if (type === 'callout') n.calloutType = attr(el, 'data-subtype') ?? 'NOTE';
      } else {
        const html = dom.slice(el.start, el.end);
        n.body = luteCall(() => lute().BlockDOM2StdMd(html)).replace(/\n+$/, '');
        n.content = leafContent(type, el, html);
      }
      return n;
    };
    const top = childBlocks(forest).map(build);
    for (const [from, to] of renames) dom = dom.split(from).join(to);
    return { top, dom };
  }

  function leafContent(type: string, el: DomElement, html: string): string {
    switch (type) {
      case 't': {
        let buf = '';
        for (const cell of findAll(el.children, (e) => e.tag === 'th' || e.tag === 'td')) {
          if (buf.length > 0 && !buf.endsWith(' ')) buf += ' ';
          buf += textOf(cell.children);
        }
        return buf;
      }
      case 'tb':
      case 'query_embed':
      case 'iframe':
      case 'widget':
      case 'av':
        return '';
      case 'video':
      case 'audio':
        return `${attr(findAll(el.children, (e) => e.tag === type)[0] ?? el, 'src') ?? ''} `;
      default:
        // Protyle's DOM puts zero-width spaces around inline code; the kernel's tree has none.
        return luteCall(() => lute().BlockDOM2Content(html)).replace(/\u200b/g, '');
    }
  }

  // -------------------------------------------------------------------------
  // Loading

  function noteBox(box: string, name?: string): void {
    if (box && !notebooks.has(box)) notebooks.set(box, name ?? box);
  }

  function newDocNode(row: {
    id: string;
    box: string;
    path: string;
    hpath: string;
    ial?: string;
    title?: string;
  }): DNode {
    const attrs = new Map<string, string>();
    for (const [k, v] of parseIalPairs(row.ial ?? '')) if (k !== 'id') attrs.set(k, v);
    if (!attrs.has('title')) attrs.set('title', row.title ?? row.hpath.split('/').pop() ?? '');
    if (!attrs.has('type')) attrs.set('type', 'doc');
    if (!attrs.has('updated')) attrs.set('updated', row.id.slice(0, 14));
    const d: DNode = {
      id: row.id,
      type: 'd',
      subtype: '',
      attrs,
      children: [],
      parent: null,
      body: '',
      content: '',
      doc: { box: row.box, path: row.path, hpath: row.hpath },
    };
    docs.set(d.id, d);
    nodes.set(d.id, d);
    noteBox(row.box);
    return d;
  }

  function loadFixture(f: FixtureDocument): void {
    const fx = f as FixtureDocument & { notebook?: KernelNotebook };
    if (fx.notebook) noteBox(fx.notebook.id, fx.notebook.name);
    const docRow = f.document;
    const d = newDocNode({
      id: docRow.id,
      box: docRow.box ?? '',
      path: docRow.path ?? `/${docRow.id}.sy`,
      hpath: docRow.hpath ?? '',
      ial: docRow.ial ?? '',
    });
    const rows = new Map(f.blocks.map((b) => [b.id, b]));
    const kram = f.api?.getBlockKramdown ?? {};
    const build = (t: TreeNode & { subtype?: string }, parent: DNode): DNode => {
      const row = rows.get(t.id);
      const n: DNode = {
        id: t.id,
        type: t.type,
        subtype: t.subtype ?? row?.subtype ?? '',
        attrs: new Map(),
        children: [],
        parent,
        body: '',
        content: row?.content ?? '',
      };
      for (const [k, v] of parseIalPairs(row?.ial ?? '')) if (k !== 'id') n.attrs.set(k, v);
      const k = kram[t.id] ?? '';
      const firstLine = k.split('\n')[0] ?? '';
      if (CONTAINERS.has(t.type)) {
        n.children = t.children.map((c) => build(c, n));
        if (t.type === 'i') {
          const task = /^(?:[-*+]|\d+[.)]) (?:\{:[^}]*\})?\[([ xX])\] /.exec(firstLine);
          if (task) n.task = task[1];
        }
        if (t.type === 'l' && n.subtype === 'o') {
          const m = /^(\d+)([.)]) /.exec(firstLine);
          n.start = m ? Number(m[1]) : 1;
          n.delim = m ? m[2] : '.';
        }
        if (t.type === 's') n.layout = /^\{\{\{(\w+)/.exec(firstLine)?.[1] ?? 'row';
        if (t.type === 'callout') n.calloutType = /\[!(\w+)\]/.exec(firstLine)?.[1] ?? 'NOTE';
      } else {
        n.body = k.includes('\n{:') ? k.slice(0, k.lastIndexOf('\n{:')) : (row?.markdown ?? '');
      }
      if (row) n.row = sortKeys({ ...row });
      nodes.set(n.id, n);
      return n;
    };
    d.children = f.tree.children.map((c) => build(c, d));
    d.row = sortKeys({ ...docRow });
    indexDoc(d.id);
  }

  function loadMarkdownDocument(m: MarkdownDocument): void {
    const d = newDocNode({
      id: m.id,
      box: m.box,
      path: m.path ?? `/${m.id}.sy`,
      hpath: m.hpath,
      title: m.title,
    });
    const md = m.blocks
      .map((b) => (typeof b === 'string' ? b : `${b.markdown}\n{: id="${b.id}"}`))
      .join('\n\n');
    if (md.trim() !== '') {
      const { top } = parse(md);
      d.children = top;
      register(d);
    }
    indexDoc(d.id);
  }

  for (const f of options.fixtures ?? []) loadFixture(f);
  for (const m of options.documents ?? []) loadMarkdownDocument(m);
  for (const r of options.documentRows ?? []) {
    if (nodes.has(r.id) || r.type !== 'd') continue;
    const d = newDocNode({
      id: r.id,
      box: r.box ?? '',
      path: r.path ?? `/${r.id}.sy`,
      hpath: r.hpath ?? '',
      ial: r.ial ?? '',
    });
    indexDoc(d.id);
  }

  // -------------------------------------------------------------------------
  // Endpoints

  function need(body: Record<string, unknown>, key: string): string {
    const v = body[key];
    if (typeof v !== 'string') throw new KernelFailure(-1, `missing string argument [${key}]`);
    return v;
  }

  function needId(body: Record<string, unknown>, key: string): string {
    const v = need(body, key);
    if (!ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
    return v;
  }

  function optId(body: Record<string, unknown>, key: string): string {
    const v = body[key];
    if (v === undefined || v === null || v === '') return '';
    if (typeof v !== 'string' || !ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
    return v;
  }

  function markdownArg(body: Record<string, unknown>): string {
    const dataType = body.dataType;
    if (dataType !== 'markdown')
      throw new KernelFailure(
        -1,
        `the kernel double accepts dataType "markdown" only (got ${JSON.stringify(dataType)})`,
      );
    return need(body, 'data');
  }

  function checkContainerParent(parentID: string): DNode {
    const p = nodes.get(parentID);
    if (!p) throw new KernelFailure(-1, MSG.parentNotFound(parentID));
    if (CONTAINERS.has(p.type)) return p;
    if (p.type === 'h') throw new KernelFailure(-1, MSG.headingLeaf(parentID));
    throw new KernelFailure(-1, MSG.leaf(parentID, p.type));
  }

  function op(
    action: string,
    dom: string,
    node: DNode | undefined,
    extra: Partial<Record<'parentID' | 'previousID' | 'nextID', string>> = {},
  ): unknown[] {
    return [
      {
        timestamp: 0,
        doOperations: [
          {
            action,
            data: dom,
            id: node?.id ?? '',
            parentID: extra.parentID ?? node?.parent?.id ?? '',
            previousID: extra.previousID ?? '',
            nextID: extra.nextID ?? '',
            retData: null,
          },
        ],
        undoOperations: null,
      },
    ];
  }

  function insertAt(parent: DNode, index: number, list: DNode[]): void {
    parent.children.splice(index, 0, ...list);
    for (const n of list) {
      n.parent = parent;
      register(n);
    }
    touch(parent);
  }

  function newItem(list: DNode, child: DNode): DNode {
    const li: DNode = {
      id: newId(),
      type: 'i',
      subtype: list.subtype,
      attrs: new Map([['updated', stamp()]]),
      children: [child],
      parent: list,
      body: '',
      content: '',
    };
    if (list.subtype === 't') li.task = ' ';
    child.parent = li;
    return li;
  }

  /** appendInsert / prependInsert into a container (after `checkContainerParent`). */
  function containerInsert(parent: DNode, top: DNode[], first: boolean): DNode | undefined {
    const head = top[0];
    const placed: DNode[] = [];
    for (const n of top) {
      if (parent.type === 'l') {
        if (n.type === 'l') {
          for (const li of n.children) li.subtype = parent.subtype;
          placed.push(...n.children);
        } else placed.push(newItem(parent, n));
      } else placed.push(n);
    }
    insertAt(parent, first ? 0 : parent.children.length, placed);
    return head;
  }

  const handlers: Record<string, (body: Record<string, unknown>) => unknown> = {
    '/api/query/sql': (body) => runSql(need(body, 'stmt')),

    '/api/sqlite/flushTransaction': () => {
      catchUp(true);
      return null;
    },

    '/api/block/getChildBlocks': (body) => {
      const n = nodes.get(needId(body, 'id'));
      if (!n) return null;
      const kids = n.type === 'h' ? headingSection(n) : CONTAINERS.has(n.type) ? n.children : [];
      return kids.map((c) => {
        const row = rowOf(c);
        const out: Record<string, unknown> = { id: c.id, type: c.type };
        if (c.subtype) out.subType = c.subtype;
        if (row.content) out.content = row.content;
        if (row.markdown) out.markdown = row.markdown;
        return out;
      });
    },

    '/api/block/getBlockKramdown': (body) => {
      const id = needId(body, 'id');
      const mode = body.mode ?? 'md';
      if (mode !== 'md' && mode !== 'textmark') throw new KernelFailure(-1, 'Invalid mode');
      const n = nodes.get(id);
      return { id, kramdown: n ? kramdownOf(n) : '' };
    },

    '/api/outline/getDocOutline': (body) => {
      const doc = nodes.get(needId(body, 'id'));
      if (!doc || doc.type !== 'd') throw new KernelFailure(-1, MSG.notFound);
      return outline(doc);
    },
    '/api/block/getBlockBreadcrumb': (body) => {
      const n = nodes.get(needId(body, 'id'));
      if (!n) throw new KernelFailure(-1, MSG.notFound);
      return breadcrumb(n);
    },

    '/api/filetree/getHPathByID': (body) => {
      const n = nodes.get(needId(body, 'id'));
      if (!n) throw new KernelFailure(-1, MSG.notFound);
      return rootOf(n).doc?.hpath ?? '';
    },

    '/api/filetree/getIDsByHPath': (body) => {
      const path = need(body, 'path');
      const box = need(body, 'notebook');
      return [...docs.values()]
        .filter((d) => d.doc?.box === box && d.doc.hpath === path)
        .map((d) => d.id);
    },

    '/api/block/updateBlock': (body) => {
      const id = needId(body, 'id');
      const md = markdownArg(body);
      const target = nodes.get(id);
      if (!target) throw new KernelFailure(-1, `get block failed: ${MSG.notFound}`);
      const reusable = new Set<string>();
      const collect = (n: DNode): void => {
        reusable.add(n.id);
        n.children.forEach(collect);
      };
      collect(target);
      const { top, dom } = parse(md, reusable);
      if (target.type === 'd') {
        for (const c of target.children) unregister(c);
        target.children = [];
        containerInsert(target, top, false);
        return op('appendInsert', dom, top[0], { parentID: id });
      }
      let first = top[0]!;
      if (
        (target.type === 'i' || target.parent?.type === 'l') &&
        first.type === 'l' &&
        first.children.length > 0
      )
        first = first.children[0]!;
      unregister(target);
      const parent = target.parent!;
      first.id = id;
      first.parent = parent;
      parent.children[parent.children.indexOf(target)] = first;
      register(first);
      touch(first);
      return op('update', dom, first, { parentID: '' });
    },

    '/api/block/deleteBlock': (body) => {
      const id = needId(body, 'id');
      const target = nodes.get(id);
      if (!target) return op('delete', '', undefined); // the kernel ignores an unknown id
      if (target.type === 'd')
        throw new KernelFailure(
          -1,
          'the kernel double does not delete documents with deleteBlock (use removeDoc)',
        );
      const parent = target.parent!;
      parent.children.splice(parent.children.indexOf(target), 1);
      unregister(target);
      if (parent.type === 'i' && parent.children.length === 0) {
        const p: DNode = {
          id: newId(),
          type: 'p',
          subtype: '',
          attrs: new Map([['updated', stamp()]]),
          children: [],
          parent,
          body: '',
          content: '',
        };
        insertAt(parent, 0, [p]);
      }
      touch(parent);
      return [
        {
          timestamp: 0,
          doOperations: [
            {
              action: 'delete',
              data: null,
              id,
              parentID: '',
              previousID: '',
              nextID: '',
              retData: null,
            },
          ],
          undoOperations: null,
        },
      ];
    },

    '/api/block/insertBlock': (body) => {
      const md = markdownArg(body);
      const parentID = optId(body, 'parentID');
      const previousID = optId(body, 'previousID');
      const nextID = optId(body, 'nextID');
      if (parentID && !previousID && !nextID) checkContainerParent(parentID);
      const anchorId = nextID || previousID || parentID;
      if (!anchorId) throw new KernelFailure(-1, 'one of previousID, nextID, parentID is required');
      let anchor = nodes.get(anchorId);
      const { top, dom } = parse(md);
      if (!anchor || (anchor.type === 'd' && !parentID)) {
        // doInsert: no block tree for the anchor → logged, nothing inserted, code 0.
        return op('insert', dom, undefined, { parentID, previousID, nextID });
      }
      let inserted = top[0]!;
      const remains = top.slice(1);
      if (nextID || previousID) {
        if (previousID && anchor.type === 'h' && anchor.attrs.get('fold') === '1') {
          const section = headingSection(anchor);
          if (section.length > 0) anchor = section[section.length - 1]!;
        }
        if (inserted.type === 'l' && anchor.parent?.type === 'l' && inserted.children.length > 0)
          inserted = inserted.children[0]!;
        const parent = anchor.parent!;
        const at = parent.children.indexOf(anchor) + (nextID ? 0 : 1);
        insertAt(parent, at, [inserted, ...remains]);
        return op('insert', dom, inserted, { previousID, nextID });
      }
      // parentID only, a container: first child (after a super block's layout marker).
      insertAt(anchor, 0, [inserted, ...remains]);
      return op('insert', dom, inserted, { parentID });
    },

    '/api/block/prependBlock': (body) => {
      const md = markdownArg(body);
      const parent = checkContainerParent(needId(body, 'parentID'));
      const { top, dom } = parse(md);
      const head = containerInsert(parent, top, true);
      return op('insert', dom, head);
    },

    '/api/block/appendBlock': (body) => {
      const md = markdownArg(body);
      const parent = checkContainerParent(needId(body, 'parentID'));
      const { top, dom } = parse(md);
      const head = containerInsert(parent, top, false);
      const prev = head?.parent?.children[head.parent.children.indexOf(head) - 1];
      return op('insert', dom, head, { previousID: prev?.id ?? '' });
    },

    '/api/filetree/createDocWithMd': (body) => {
      const box = needId(body, 'notebook');
      if (!notebooks.has(box)) throw new KernelFailure(-1, `notebook [${box}] not found`);
      let hpath = need(body, 'path').trim();
      if (!hpath.startsWith('/')) hpath = `/${hpath}`;
      const md = typeof body.markdown === 'string' ? body.markdown : '';
      const parentID = optId(body, 'parentID');
      const wanted = optId(body, 'id');
      let parentDoc: DNode | undefined;
      if (parentID) {
        parentDoc = docs.get(parentID);
        if (!parentDoc) throw new KernelFailure(-1, `parent document [${parentID}] not found`);
      } else {
        parentDoc = ensureDocPath(box, hpath.split('/').slice(1, -1));
      }
      const title = hpath.split('/').pop() || 'Untitled';
      const d = createDoc(
        box,
        parentDoc,
        title,
        wanted && !nodes.has(wanted) ? wanted : newId(),
        hpath,
      );
      fillDoc(d, md);
      return d.id;
    },

    '/api/filetree/createDailyNote': (body) => {
      const box = needId(body, 'notebook');
      if (!notebooks.has(box)) throw new KernelFailure(-1, `notebook [${box}] not found`);
      const t = now();
      const p = (n: number, w = 2) => String(n).padStart(w, '0');
      const y = p(t.getUTCFullYear(), 4);
      const mo = p(t.getUTCMonth() + 1);
      const day = p(t.getUTCDate());
      const hpath = `/daily note/${y}/${mo}/${y}-${mo}-${day}`;
      const key = `custom-dailynote-${y}${mo}${day}`;
      const existing = [...docs.values()].find(
        (d) => d.doc?.box === box && (d.doc.hpath === hpath || d.attrs.has(key)),
      );
      if (existing) return { id: existing.id };
      const parentDoc = ensureDocPath(box, ['daily note', y, mo]);
      const d = createDoc(box, parentDoc, `${y}-${mo}-${day}`, newId(), hpath);
      d.attrs.set(key, `${y}${mo}${day}`);
      fillDoc(d, '');
      return { id: d.id };
    },
  };

  function createDoc(
    box: string,
    parentDoc: DNode | undefined,
    title: string,
    id: string,
    hpath: string,
  ): DNode {
    const dir = parentDoc?.doc ? parentDoc.doc.path.replace(/\.sy$/, '') : '';
    const d = newDocNode({ id, box, path: `${dir}/${id}.sy`, hpath, title });
    d.attrs.set('updated', stamp());
    return d;
  }

  function fillDoc(d: DNode, md: string): void {
    const { top } = parse(md);
    containerInsert(d, top, false);
    touch(d);
  }

  /** The document at each prefix of `segments` (created empty where missing); the last one. */
  function ensureDocPath(box: string, segments: string[]): DNode | undefined {
    let parent: DNode | undefined;
    let hpath = '';
    for (const seg of segments) {
      hpath += `/${seg}`;
      let d = [...docs.values()].find((x) => x.doc?.box === box && x.doc.hpath === hpath);
      if (!d) {
        d = createDoc(box, parent, seg, newId(), hpath);
        fillDoc(d, '');
      }
      parent = d;
    }
    return parent;
  }

  /** The kernel's outline: headings nested by level, in document order
   * (headings inside containers included). */
  function outline(doc: DNode): OutlineItem[] {
    const headings: DNode[] = [];
    const walk = (n: DNode): void => {
      for (const c of n.children) {
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
      const item: OutlineItem = {
        id: h.id,
        box: doc.doc?.box ?? '',
        name: contentOf(h).trim(),
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

  function breadcrumb(target: DNode): BreadcrumbEntry[] {
    const items: BreadcrumbEntry[] = [];
    const nameOf = (n: DNode): string => {
      if (n === target) return '';
      if (n.type === 'd') return `${notebooks.get(n.doc?.box ?? '') ?? ''}${n.doc?.hpath ?? ''}`;
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
      const hp = headingParent(n);
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

  // -------------------------------------------------------------------------
  // SQL

  function runSql(stmt: string): Block[] {
    const q = parseSelect(stmt);
    let rows = [...index.values()].filter((r) => q.where.every((w) => w(r)));
    if (q.order) {
      const { col, desc } = q.order;
      rows = rows.slice().sort((a, b) => {
        const x = a[col] as string | number;
        const y = b[col] as string | number;
        return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
      });
    }
    rows = rows.slice(0, q.limit ?? 64);
    return rows.map((r) => {
      if (q.cols === '*') return { ...r };
      const out: Record<string, unknown> = {};
      for (const c of [...q.cols].sort()) out[c] = r[c];
      return out as Block;
    });
  }

  function request(path: string, body: Record<string, unknown> = {}): Promise<KernelResponse> {
    requestSeq += 1;
    const copy = JSON.parse(JSON.stringify(body ?? {})) as Record<string, unknown>;
    let response: KernelResponse;
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      response = { code: failure.code, msg: failure.msg, data: null };
    } else {
      catchUp(false);
      const handler = handlers[path];
      try {
        if (!handler) throw new KernelFailure(404, `the kernel double does not serve ${path}`);
        const data = handler(copy);
        response = { code: 0, msg: '', data: data === undefined ? null : data };
      } catch (e) {
        if (e instanceof KernelFailure) response = { code: e.code, msg: e.message, data: null };
        else throw e;
      }
    }
    const answer = JSON.parse(JSON.stringify(response)) as KernelResponse;
    calls.push({ path, body: copy, response: answer });
    return Promise.resolve(JSON.parse(JSON.stringify(answer)) as KernelResponse);
  }

  return {
    request,
    calls,
    flush: () => catchUp(true),
    setSqlLag(lag) {
      sqlLag = lag;
    },
    failNext(path, code = -1, msg = 'simulated kernel failure') {
      failures.set(path, { code, msg });
    },
    kramdown: (id) => {
      const n = nodes.get(id);
      return n ? kramdownOf(n) : null;
    },
    block: (id) => {
      const n = nodes.get(id);
      return n ? rowOf(n) : undefined;
    },
    indexedBlock: (id) => {
      const r = index.get(id);
      return r ? { ...r } : undefined;
    },
    snapshot(docId) {
      const out: { id: string; type: string; markdown: string }[] = [];
      const walk = (n: DNode): void => {
        for (const c of n.children) {
          out.push({ id: c.id, type: c.type, markdown: rowOf(c).markdown ?? '' });
          walk(c);
        }
      };
      const d = docs.get(docId);
      if (d) walk(d);
      return out;
    },
    documentIds: () => [...docs.keys()],
  };
}

// ---------------------------------------------------------------------------
// A small SELECT parser: `SELECT cols FROM blocks [WHERE …] [ORDER BY col [ASC|DESC]] [LIMIT n]`.

interface Select {
  cols: '*' | string[];
  where: ((row: Block) => boolean)[];
  order?: { col: string; desc: boolean };
  limit?: number;
}

const COLUMNS = new Set([
  'alias',
  'box',
  'content',
  'created',
  'fcontent',
  'hash',
  'hpath',
  'ial',
  'id',
  'length',
  'markdown',
  'memo',
  'name',
  'parent_id',
  'path',
  'root_id',
  'sort',
  'subtype',
  'tag',
  'type',
  'updated',
]);

function parseSelect(stmt: string): Select {
  const tokens: string[] = [];
  const re = /\s*(?:('(?:[^']|'')*')|(\d+)|([A-Za-z_][\w.]*)|(\*|,|\(|\)|=|;|!=|<>|<=|>=|<|>))/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while (pos < stmt.length && (m = re.exec(stmt)) !== null) {
    tokens.push(m[0].trim());
    pos = re.lastIndex;
    if (stmt.slice(pos).trim() === '') break;
  }
  if (stmt.slice(pos).trim() !== '')
    throw new KernelFailure(
      -1,
      `the kernel double cannot read this statement near "${stmt.slice(pos, pos + 20)}"`,
    );
  let i = 0;
  const peek = (): string => (tokens[i] ?? '').toLowerCase();
  const next = (): string => tokens[i++] ?? '';
  const expect = (kw: string): void => {
    if (peek() !== kw)
      throw new KernelFailure(-1, `the kernel double expected ${kw.toUpperCase()} in: ${stmt}`);
    i++;
  };
  const column = (): string => {
    const c = next()
      .toLowerCase()
      .replace(/^blocks\./, '');
    if (!COLUMNS.has(c)) throw new KernelFailure(-1, `no such column: ${c}`);
    return c;
  };
  const literal = (): string | number => {
    const t = next();
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d+$/.test(t)) return Number(t);
    throw new KernelFailure(-1, `the kernel double expected a literal, got "${t}" in: ${stmt}`);
  };
  expect('select');
  let cols: Select['cols'];
  if (peek() === '*') {
    i++;
    cols = '*';
  } else {
    cols = [column()];
    while (peek() === ',') {
      i++;
      cols.push(column());
    }
  }
  expect('from');
  expect('blocks');
  const where: Select['where'] = [];
  if (peek() === 'where') {
    i++;
    for (;;) {
      const col = column();
      const opTok = peek();
      if (opTok === 'in') {
        i++;
        expect('(');
        const values = new Set<string | number>([literal()]);
        while (peek() === ',') {
          i++;
          values.add(literal());
        }
        expect(')');
        where.push((r) => values.has(r[col] as string | number));
      } else if (opTok === 'like') {
        i++;
        const v = String(literal());
        const rx = new RegExp(
          `^${v
            .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
            .replace(/%/g, '.*')
            .replace(/_/g, '.')}$`,
          's',
        );
        where.push((r) => rx.test(String(r[col] ?? '')));
      } else if (['=', '!=', '<>'].includes(opTok)) {
        i++;
        const v = literal();
        where.push(opTok === '=' ? (r) => r[col] === v : (r) => r[col] !== v);
      } else {
        throw new KernelFailure(
          -1,
          `the kernel double supports =, !=, IN and LIKE only, in: ${stmt}`,
        );
      }
      if (peek() !== 'and') break;
      i++;
    }
  }
  let order: Select['order'];
  if (peek() === 'order') {
    i++;
    expect('by');
    const col = column();
    let desc = false;
    if (peek() === 'asc' || peek() === 'desc') desc = next().toLowerCase() === 'desc';
    order = { col, desc };
  }
  let limit: number | undefined;
  if (peek() === 'limit') {
    i++;
    const v = literal();
    if (typeof v !== 'number') throw new KernelFailure(-1, `LIMIT needs a number in: ${stmt}`);
    limit = v;
  }
  if (peek() === ';') i++;
  if (i < tokens.length)
    throw new KernelFailure(
      -1,
      `the kernel double cannot read "${tokens.slice(i).join(' ')}" in: ${stmt}`,
    );
  return { cols, where, order, limit };
}

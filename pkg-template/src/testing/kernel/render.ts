// What the double serves of a block: its kramdown (the tree view,
// `getBlockKramdown`), its `markdown` column (Lute's standard Markdown of
// the kramdown), its `content` (`nodeStaticContent`), and its whole row.

import type { Block } from '../../types.js';
import { decodeEntities } from '../../siyuan/block-dom.js';
import { isEditkitError } from '../../errors.js';
import type { LuteEngine } from '../lute.js';
import { ialText, pairsOf } from './attrs.js';
import { stripZwsp } from './format.js';
import { CONTAINERS, KernelFailure, runes, shortHash, SORT, sortKeys } from './model.js';
import type { DNode } from './model.js';
import type { Tree } from './tree.js';

/** `{: k="v" …}`: the attributes in their stored order, `id` where it stands. */
export function ialOf(n: DNode): string {
  return ialText(pairsOf(n));
}

/** Writes a block's IAL; `null` renders without IALs. */
export type IalWriter = ((n: DNode) => string) | null;

/** How a read endpoint changes the stored text (reads.ts). */
export interface ReadOptions {
  /**
   * `addBlockIALNodes` (`model/template.go:576-609`, on every block of the
   * loaded tree before `getBlockKramdown(s)` renders it): an HTML block is
   * trimmed, `<div>\n` put before it unless it starts with `<div>` and
   * `\n</div>` after it unless it ends with `</div>` (two independent
   * tests); an embed's query has its newlines turned into spaces.
   */
  rewrite: boolean;
  /**
   * `conf.export.paragraphBeginningSpace` (Lute
   * `protyle_export_md_renderer.go:1518-1523`): two U+3000 before each
   * paragraph whose parent is the document, unless it holds only an image.
   */
  beginningSpace: boolean;
}

/** Go's `unicode.IsSpace`: what `strings.TrimSpace` trims. */
const GO_SPACE =
  '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const GO_TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

/** Go's `strings.TrimSpace` (Unicode white space, not U+200B or U+FEFF). */
export function goTrimSpace(s: string): string {
  return s.replace(GO_TRIM, '');
}

/** An HTML block's or an embed's text as `addBlockIALNodes` leaves it for a kramdown read. */
function readBody(n: DNode): string {
  if (n.type === 'query_embed') return n.body.replace(/\n/g, ' ');
  if (n.type !== 'html') return n.body;
  let body = goTrimSpace(n.body);
  if (!body.startsWith('<div>')) body = `<div>\n${body}`;
  if (!body.endsWith('</div>')) body = `${body}\n</div>`;
  return body;
}

/** A paragraph holding only an image (and the U+200B beside it). */
function imageOnly(n: DNode): boolean {
  return /^\u200b?!\[[^\]]*\]\([^)]*\)\u200b?$/.test(n.body);
}

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

function renderItem(li: DNode, ial: IalWriter, read?: ReadOptions): string {
  const marker = itemMarker(li);
  const pad = ' '.repeat(marker.length);
  // The checkbox is written before the child it stands before (the first,
  // unless a block was prepended before it; alone when the item has no
  // block left, KERNEL-FACTS §11).
  const parts = li.children.map((c, i) => {
    const text = render(c, ial, read);
    return li.task !== undefined && i === (li.taskAt ?? 0) ? `[${li.task}] ${text}` : text;
  });
  if (li.task !== undefined && (li.taskAt ?? 0) >= li.children.length) parts.push(`[${li.task}] `);
  const first = parts[0] ?? '';
  const [head = '', ...rest] = first.split('\n');
  let out = `${marker}${ial ? ial(li) : ''}${head}`;
  if (rest.length > 0) out += `\n${indent(rest.join('\n'), pad)}`;
  for (const p of parts.slice(1)) out += `\n\n${indent(p, pad)}`;
  return out;
}

/**
 * A blockquote's (or callout's) lines. As the kernel writes kramdown (live
 * on v3.7.3): a nested quote's marker follows without a space (`>>`), and
 * with IALs a `>` line closes the last child before the quote's own IAL.
 */
function quote(parts: string[], withIal: boolean): string {
  const body = parts
    .map((p) =>
      p
        .split('\n')
        .map((l) => (l === '' ? '>' : l.startsWith('>') ? `>${l}` : `> ${l}`))
        .join('\n'),
    )
    .join('\n>\n');
  return withIal ? `${body}\n>` : body;
}

/** Kramdown (with each block's IAL as `ial` writes it) or the same without IALs. */
export function render(n: DNode, ial: IalWriter, read?: ReadOptions): string {
  const tail = ial ? `\n${ial(n)}` : '';
  const kids = () => n.children.map((c) => render(c, ial, read));
  switch (n.type) {
    case 'd': {
      const parts = kids();
      if (read?.beginningSpace)
        n.children.forEach((c, i) => {
          if (i > 0 && c.type === 'p' && !imageOnly(c)) parts[i] = `\u3000\u3000${parts[i]}`;
        });
      return parts.join('\n\n') + (ial ? `\n\n${ial(n)}` : '');
    }
    case 'l':
      return n.children.map((c) => renderItem(c, ial, read)).join('\n') + tail;
    case 'i':
      return renderItem(n, ial, read); // its IAL sits after the marker
    case 'b':
      return quote(kids(), !!ial) + tail;
    case 'callout': {
      const title = n.calloutTitle ? ` ${n.calloutTitle}` : '';
      const head = `[!${n.calloutType ?? 'NOTE'}]${title}`;
      return quote([head, ...kids()], !!ial).replace('\n>\n', '\n') + tail;
    }
    case 's':
      return `{{{${n.layout ?? 'row'}\n${kids()
        .map((c) => `${c}\n\n`)
        .join('')}}}}${tail}`;
    default:
      // An empty paragraph is an empty line and its IAL: read by its own id,
      // Lute's TrimSpace leaves the IAL alone (reads.ts; live on v3.7.3).
      return (read?.rewrite ? readBody(n) : n.body) + tail;
  }
}

/** Kramdown with each IAL in its stored order (rows' hashes, the test lever `double.kramdown`). */
export function kramdownOf(n: DNode): string {
  return render(n, ialOf);
}

export interface Renderer {
  tree: Tree;
  lute(): LuteEngine;
}

export function luteCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    // A missing Lute is the caller's setup, not the kernel's answer.
    if (isEditkitError(e)) throw e;
    throw new KernelFailure(
      -1,
      `data block DOM failed: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}

/**
 * The `markdown` column: Lute's standard Markdown of the block's kramdown
 * (super blocks keep `{{{…}}}`, as the kernel does), without U+200B
 * (`sql/database.go:965-968`, KERNEL-FACTS §6).
 */
export function markdownOf(r: Renderer, n: DNode): string {
  if (n.type === 'd') return '';
  // `ExportNodeStdMd` ends with `strings.TrimSpace` (Lute `lute.go:307`):
  // a paragraph stored with leading U+3000 has none in this column
  // (confirmed live on v3.7.3) while `content` keeps them.
  if (!CONTAINERS.has(n.type)) return goTrimSpace(stripZwsp(n.body));
  if (n.type === 's') return goTrimSpace(stripZwsp(render(n, null)));
  const k = kramdownOf(n);
  return goTrimSpace(
    stripZwsp(luteCall(() => r.lute().BlockDOM2StdMd(r.lute().Md2BlockDOM(k))).replace(/\n+$/, '')),
  );
}

export function contentOf(n: DNode): string {
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

/** The first block of `n` that is not a container (depth first). */
export function firstLeaf(n: DNode): DNode | undefined {
  for (const c of n.children) {
    if (!CONTAINERS.has(c.type)) return c;
    const f = firstLeaf(c);
    if (f) return f;
  }
  return undefined;
}

function computeRow(r: Renderer, n: DNode): Block {
  const root = r.tree.rootOf(n);
  const doc = root.doc ?? { box: '', path: '', hpath: '' };
  const dec = (k: string) => decodeEntities(n.attrs.get(k) ?? '');
  const content = contentOf(n);
  const leaf = CONTAINERS.has(n.type) ? firstLeaf(n) : undefined;
  const fcontent = n.type === 'd' ? content : leaf ? contentOf(leaf) : '';
  const markdown = markdownOf(r, n);
  const parent = r.tree.headingParent(n);
  return sortKeys({
    alias: dec('alias'),
    box: doc.box,
    content,
    created: n.id.slice(0, 14),
    fcontent,
    hash: shortHash(`${doc.box}${doc.path}${kramdownOf(n)}${parent?.id ?? ''}`),
    hpath: doc.hpath,
    ial: ialOf(n),
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
  } as Block);
}

/** The block's row now (cached until the block or a descendant changes). */
export function rowOf(r: Renderer, n: DNode): Block {
  if (!n.row) n.row = computeRow(r, n);
  // The heading parent can change without the block (a heading inserted
  // above it): its id, and so the row's hash, are read now.
  const parent = r.tree.headingParent(n)?.id ?? '';
  if (parent === n.row.parent_id) return { ...n.row };
  const root = r.tree.rootOf(n);
  const doc = root.doc ?? { box: '', path: '', hpath: '' };
  const hash = shortHash(`${doc.box}${doc.path}${kramdownOf(n)}${parent}`);
  return { ...n.row, parent_id: parent, hash };
}

/** Marks a node and its ancestors changed (their rows are recomputed). */
export function invalidate(n: DNode | null): void {
  for (let p = n; p; p = p.parent) p.row = undefined;
}

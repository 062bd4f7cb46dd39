// Markdown → blocks, with Lute configured like the kernel (KERNEL-FACTS §6:
// no setext headings, no indented code; HTML blocks, IAL lines, embeds and
// tables start blocks).
//
// KERNEL-FACTS §5: Lute takes a block's id from its IAL as is. An id the
// markdown writes is kept even when another block has it (a duplicate the
// next load re-IDs); a malformed one makes Lute fail, which the kernel
// answers with code -1, and a short one makes Lute panic (§10). Blocks
// without an IAL id get a new id from the double's clock.

import { attr, childBlocks, findAll, parseDom, textOf } from '../../siyuan/block-dom.js';
import type { DomElement } from '../../siyuan/block-dom.js';
import type { LuteEngine } from '../lute.js';
import { parsePairs, whitelisted } from './attrs.js';
import { unescapeHtml } from './entities.js';
import { addZwsp, unpadTable } from './format.js';
import { CONTAINERS, ID_RE, KernelFailure, NODE_TYPES } from './model.js';
import type { DNode } from './model.js';
import type { Random } from './random.js';
import { luteCall } from './render.js';

export interface ParseContext {
  lute(): LuteEngine;
  newId(): string;
  stamp(): string;
  readonly rand: Random;
  readonly settings: { luteDecodesHtmlEntities: boolean };
}

/**
 * A panic inside a handler: the kernel's `model.Recover` swallows it and the
 * deferred `c.JSON` answers `{code: 0, msg: "", data: null}` (notes, general
 * pattern), with nothing written.
 */
export class KernelPanic extends Error {}

/** Every `id="…"` the markdown's IALs write. */
export function ialIds(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/\{:[^}\n]*?\bid="([^"]*)"[^}\n]*\}/g)) out.push(m[1]!);
  return out;
}

function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}

/**
 * KERNEL-FACTS §10, notes §10: an IAL id shorter than 14 bytes in an IAL
 * without `updated` makes Lute's `finalParseBlockIAL` slice `id[:14]` and
 * panic; with `updated`, or 14 bytes or more, the id pattern check answers
 * code -1.
 */
function checkIalIds(markdown: string, api: boolean): void {
  const ials = [...markdown.matchAll(/\{:[^}\n]*\}/g)].map((m) => new Map(parsePairs(m[0])));
  if (api) {
    for (const pairs of ials) {
      const id = pairs.get('id');
      if (id && utf8Length(id) < 14 && !pairs.has('updated'))
        throw new KernelPanic(
          `runtime error: slice bounds out of range [:14] with length ${id.length}`,
        );
    }
  }
  for (const id of ialIds(markdown)) {
    if (!ID_RE.test(id))
      throw new KernelFailure(-1, `data block DOM failed: found invalid ID [${id}]`);
  }
}

export interface ParseOptions {
  /**
   * An API (or editor) write: the IAL whitelist applies (notes §3) and the
   * stored text keeps zero-width spaces after code and kbd spans (notes §2).
   * Off for documents the double is given to start with.
   */
  api: boolean;
  /**
   * How many times the write path turns the block DOM into a tree (default
   * 1): inserts, appends, prepends and `createDocWithMd` once
   * (`doInsert0`, `doAppendInsert`, `doPrependInsert`, `model/file.go:2130`),
   * `updateBlock` and `batchUpdateBlock` twice (the handler's
   * `BlockDOM2Tree`, `block_op.go:859`/`1046`, then `doUpdate`,
   * `transaction.go:1565`). With v3.7.3's Lute each pass decodes an HTML
   * block's entities once more (confirmed live: `&amp;amp;` is stored as
   * `&amp;` by an insert, as `&` by an update, HTML blocks inside a written
   * container too); paragraph text is decoded once by the Markdown parse on
   * every path.
   */
  passes?: number;
}

/** Parses markdown into top-level nodes (and the block DOM, ids as kept). */
export function parseMarkdown(
  ctx: ParseContext,
  markdown: string,
  opts: ParseOptions = { api: true },
): { top: DNode[]; dom: string } {
  checkIalIds(markdown, opts.api);
  let dom = luteCall(() => ctx.lute().Md2BlockDOM(markdown));
  if (dom.trim() === '') {
    // dataBlockDOM: an empty string becomes one empty paragraph.
    const id = ctx.newId();
    dom = `<div data-node-id="${id}" data-type="NodeParagraph" class="p" updated="${ctx.stamp()}"><div contenteditable="true" spellcheck="false"></div><div class="protyle-attr" contenteditable="false">\u200b</div></div>`;
  }
  const b = new Builder(ctx, markdown, dom, opts);
  const top = childBlocks(parseDom(dom)).map((el) => b.build(el));
  for (const [from, to] of b.renames) dom = dom.split(from).join(to);
  return { top, dom };
}

const NOT_ATTRS = new Set(['class', 'contenteditable', 'spellcheck', 'draggable']);

/** The block DOM's elements → the double's nodes. */
class Builder {
  readonly named: Set<string>;
  readonly renames = new Map<string, string>();
  private readonly stampNow: string;

  constructor(
    private readonly ctx: ParseContext,
    private readonly markdown: string,
    private readonly dom: string,
    private readonly opts: ParseOptions,
  ) {
    this.named = new Set(ialIds(markdown));
    this.stampNow = ctx.stamp();
  }

  build(el: DomElement): DNode {
    const luteId = attr(el, 'data-node-id') ?? '';
    const named = this.named.has(luteId);
    const id = named ? luteId : this.ctx.newId();
    if (!named) this.renames.set(luteId, id);
    const type = NODE_TYPES[attr(el, 'data-type') ?? ''] ?? 'p';
    const n: DNode = {
      id,
      type,
      subtype: type === 'h' || type === 'l' || type === 'i' ? (attr(el, 'data-subtype') ?? '') : '',
      attrs: this.attrsOf(el, type, named, luteId),
      children: [],
      parent: null,
      body: '',
      content: '',
    };
    if (!this.opts.api && named) this.keepWrittenOrder(n, luteId);
    if (CONTAINERS.has(type)) this.container(n, el);
    else this.leaf(n, el);
    return n;
  }

  /**
   * The block's attributes. `updated` (KERNEL-FACTS §10, notes §10): a
   * restated `updated` is kept; an IAL that restates an id without one gets
   * the id's time (Lute writes `id[:14]`); a block without an IAL id gets
   * the double's clock unless its IAL gives `updated`.
   */
  private attrsOf(
    el: DomElement,
    type: string,
    named: boolean,
    luteId: string,
  ): Map<string, string> {
    const domAttrs = el.attrs.filter(([k]) => !k.startsWith('data-') && !NOT_ATTRS.has(k));
    const attrs = whitelisted(this.ctx.rand, domAttrs, type === 't' ? colgroupOf(el) : undefined);
    if (!this.opts.api && named) {
      // A document the double is given keeps every key its IALs write (a
      // .sy file holds what setBlockAttrs wrote too); keys Lute's DOM adds
      // on its own (an iframe's `loading`) are not in a .sy file.
      const written = new Set(parsePairs(this.givenIal(luteId) ?? '').map(([k]) => k));
      for (const [k, v] of domAttrs) if (written.has(k) && !attrs.has(k)) attrs.set(k, v);
    }
    const updated = attrs.get('updated');
    if (!named && (updated === undefined || updated === luteId.slice(0, 14)))
      attrs.set('updated', this.stampNow);
    return attrs;
  }

  /** The IAL the given markdown writes for the block with this id. */
  private givenIal(luteId: string): string | undefined {
    return new RegExp(`\\{:[^}\\n]*\\bid="${luteId}"[^}\\n]*\\}`).exec(this.markdown)?.[0];
  }

  /** Documents the double is given keep their IAL keys in the order written. */
  private keepWrittenOrder(n: DNode, luteId: string): void {
    const given = this.givenIal(luteId);
    if (!given) return;
    const pairs = parsePairs(given);
    const sorted = new Map<string, string>();
    for (const [key] of pairs) if (n.attrs.has(key)) sorted.set(key, n.attrs.get(key)!);
    for (const [key, v] of n.attrs) if (!sorted.has(key)) sorted.set(key, v);
    n.attrs = sorted;
    n.idAt = Math.max(
      0,
      pairs.findIndex(([key]) => key === 'id'),
    );
  }

  private container(n: DNode, el: DomElement): void {
    n.children = childBlocks(el.children).map((c) => this.build(c));
    if (n.type === 'i') {
      const task = attr(el, 'data-task');
      if (n.subtype === 't' || task !== undefined) {
        n.task = task === undefined || task === '' ? ' ' : task;
        n.taskAt = 0;
      }
    }
    if (n.type === 'l' && n.subtype === 'o') {
      const firstLi = childBlocks(el.children)[0];
      const mm = firstLi ? /^(\d+)([.)])/.exec(attr(firstLi, 'data-marker') ?? '') : null;
      n.start = mm ? Number(mm[1]) : 1;
      n.delim = mm ? mm[2] : '.';
    }
    if (n.type === 's') n.layout = attr(el, 'data-sb-layout') ?? 'row';
    if (n.type === 'callout') {
      // notes §11: a callout's subtype is its callout type.
      n.calloutType = attr(el, 'data-subtype') ?? 'NOTE';
      n.subtype = n.calloutType;
      // Lute's DOM always shows a title (the type's name by default) and an
      // icon; its markdown writes them only for a title of the author's.
      const part = (name: string): string => {
        const span = findAll(el.children, (e) => (attr(e, 'class') ?? '').includes(name))[0];
        return span ? textOf(span.children).trim() : '';
      };
      const title = part('callout-title');
      const type = n.calloutType;
      const defaultTitle = type.charAt(0) + type.slice(1).toLowerCase();
      if (title !== '' && title !== defaultTitle) {
        const icon = part('callout-icon');
        n.calloutTitle = icon === '' ? title : `${icon} ${title}`;
      }
    }
  }

  private leaf(n: DNode, el: DomElement): void {
    const html = this.dom.slice(el.start, el.end);
    let body = luteCall(() => this.ctx.lute().BlockDOM2StdMd(html)).replace(/\n+$/, '');
    if (n.type === 't') body = unpadTable(body);
    if (this.opts.api && (n.type === 'p' || n.type === 'h' || n.type === 't')) body = addZwsp(body);
    if (n.type === 'html' && this.opts.api && this.ctx.settings.luteDecodesHtmlEntities)
      for (let i = 0; i < (this.opts.passes ?? 1); i++) body = unescapeHtml(body);
    n.body = body;
    // An HTML block's `content` is its HTML (`nodeStaticContent` writes the
    // tokens, `sql/block.go:316`).
    n.content =
      n.type === 'html' ? body.replace(/\u200b/g, '') : leafContent(this.ctx, n.type, el, html);
  }
}

/** A table's `colgroup`: its `<col>` styles joined by `|` (Lute `protyle.go:2286-2300`). */
function colgroupOf(el: DomElement): string | undefined {
  const group = findAll(el.children, (e) => e.tag === 'colgroup')[0];
  if (!group) return undefined;
  const cols = group.children.filter((c): c is DomElement => typeof c !== 'string');
  return cols.map((c) => attr(c, 'style') ?? '').join('|');
}

/** A leaf's `content` again, from its (rewritten) text: anchors.ts. */
export function contentFromBody(ctx: ParseContext, n: DNode): string {
  const dom = luteCall(() => ctx.lute().Md2BlockDOM(n.body));
  const el = childBlocks(parseDom(dom))[0];
  if (!el) return n.content;
  return leafContent(ctx, n.type, el, dom.slice(el.start, el.end));
}

function leafContent(ctx: ParseContext, type: string, el: DomElement, html: string): string {
  switch (type) {
    case 't': {
      let buf = '';
      for (const cell of findAll(el.children, (e) => e.tag === 'th' || e.tag === 'td')) {
        if (buf.length > 0 && !buf.endsWith(' ')) buf += ' ';
        buf += textOf(cell.children);
      }
      return buf.replace(/\u200b/g, '');
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
      // The index removes every zero-width space (`sql/database.go:965-968`).
      return luteCall(() => ctx.lute().BlockDOM2Content(html)).replace(/\u200b/g, '');
  }
}

// Markdown → blocks, with Lute configured like the kernel (KERNEL-FACTS §6:
// no setext headings, no indented code; HTML blocks, IAL lines, embeds and
// tables start blocks).
//
// KERNEL-FACTS §5: Lute takes a block's id from its IAL as is. An id the
// markdown writes is kept even when another block has it (a duplicate the
// kernel repairs only later); a malformed one makes Lute fail, which the
// kernel answers with code -1. Blocks without an IAL id get a new id from
// the double's clock.

import { attr, childBlocks, findAll, parseDom, textOf } from '../../siyuan/block-dom.js';
import type { DomElement } from '../../siyuan/block-dom.js';
import type { LuteEngine } from '../lute.js';
import { CONTAINERS, ID_RE, KernelFailure, NODE_TYPES, parseIalPairs } from './model.js';
import type { DNode } from './model.js';
import { luteCall } from './render.js';

export interface ParseContext {
  lute(): LuteEngine;
  newId(): string;
  stamp(): string;
}

/** Every `id="…"` the markdown's IALs write. */
export function ialIds(markdown: string): string[] {
  const out: string[] = [];
  for (const m of markdown.matchAll(/\{:[^}\n]*?\bid="([^"]*)"[^}\n]*\}/g)) out.push(m[1]!);
  return out;
}

/** Parses markdown into top-level nodes (and the block DOM, ids as kept). */
export function parseMarkdown(ctx: ParseContext, markdown: string): { top: DNode[]; dom: string } {
  for (const id of ialIds(markdown)) {
    if (!ID_RE.test(id))
      throw new KernelFailure(-1, `data block DOM failed: found invalid ID [${id}]`);
  }
  let dom = luteCall(() => ctx.lute().Md2BlockDOM(markdown));
  if (dom.trim() === '') {
    // dataBlockDOM: an empty string becomes one empty paragraph.
    const id = ctx.newId();
    dom = `<div data-node-id="${id}" data-type="NodeParagraph" class="p" updated="${ctx.stamp()}"><div contenteditable="true" spellcheck="false"></div><div class="protyle-attr" contenteditable="false">\u200b</div></div>`;
  }
  const named = new Set(ialIds(markdown));
  const renames = new Map<string, string>();
  const stampNow = ctx.stamp();
  const build = (el: DomElement): DNode => {
    const luteId = attr(el, 'data-node-id') ?? '';
    let id = luteId;
    if (!named.has(luteId)) {
      id = ctx.newId();
      renames.set(luteId, id);
    }
    const type = NODE_TYPES[attr(el, 'data-type') ?? ''] ?? 'p';
    const n: DNode = {
      id,
      type,
      subtype: type === 'h' || type === 'l' || type === 'i' ? (attr(el, 'data-subtype') ?? '') : '',
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
    // Lute stamps `updated` with its own clock (or the id's time); keep the
    // one the markdown's IAL gives, otherwise the double's clock.
    const given = named.has(luteId)
      ? new RegExp(`\\{:[^}\\n]*\\bid="${luteId}"[^}\\n]*\\}`).exec(markdown)?.[0]
      : undefined;
    if (!given || !/\bupdated="/.test(given)) n.attrs.set('updated', stampNow);
    if (given) {
      // IAL keys keep the order the markdown wrote them in (KERNEL-FACTS §8).
      const pairs = parseIalPairs(given);
      const order = pairs.map(([key]) => key).filter((key) => key !== 'id');
      const sorted = new Map<string, string>();
      for (const key of order) if (n.attrs.has(key)) sorted.set(key, n.attrs.get(key)!);
      for (const [key, v] of n.attrs) if (!sorted.has(key)) sorted.set(key, v);
      n.attrs = sorted;
      n.idAt = Math.max(
        0,
        pairs.findIndex(([key]) => key === 'id'),
      );
    }
    if (CONTAINERS.has(type)) {
      n.children = childBlocks(el.children).map(build);
      if (type === 'i') {
        const task = attr(el, 'data-task');
        if (n.subtype === 't' || task !== undefined) {
          n.task = task === undefined || task === '' ? ' ' : task;
          n.taskAt = 0;
        }
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
      n.body = luteCall(() => ctx.lute().BlockDOM2StdMd(html)).replace(/\n+$/, '');
      n.content = leafContent(ctx, type, el, html);
    }
    return n;
  };
  const top = childBlocks(parseDom(dom)).map(build);
  for (const [from, to] of renames) dom = dom.split(from).join(to);
  return { top, dom };
}

function leafContent(ctx: ParseContext, type: string, el: DomElement, html: string): string {
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
      return luteCall(() => ctx.lute().BlockDOM2Content(html)).replace(/\u200b/g, '');
  }
}

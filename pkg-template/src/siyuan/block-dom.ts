// A small reader for the block DOM that Lute (`Md2BlockDOM`) and the kernel
// (`data` of a write's `doOperations`) produce: well-formed HTML where every
// block is an element carrying `data-node-id` and `data-type`. Text is
// HTML-escaped by Lute, so `<` only ever starts a tag. This is not a
// general HTML parser; it reads what Lute writes.

/** An element of the block DOM, with its place in the source string. */
export interface DomElement {
  tag: string;
  /** Attributes in source order; values as written (still entity-escaped). */
  attrs: [string, string][];
  children: DomNode[];
  /** Offsets of the element's outer HTML in the parsed string. */
  start: number;
  end: number;
}

export type DomNode = DomElement | string;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Parses Lute's block DOM into a forest of elements and text. */
export function parseDom(html: string): DomNode[] {
  const root: DomElement = { tag: '#root', attrs: [], children: [], start: 0, end: html.length };
  const stack: DomElement[] = [root];
  const tagRe =
    /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tagRe.exec(html)) !== null) {
    const top = stack[stack.length - 1]!;
    if (m.index > last) top.children.push(html.slice(last, m.index));
    last = tagRe.lastIndex;
    const [, closing, rawTag, rawAttrs, selfClosing] = m;
    const tag = rawTag!.toLowerCase();
    if (closing) {
      // Close the nearest open element with this tag (tolerates stray closers).
      for (let i = stack.length - 1; i > 0; i--) {
        if (stack[i]!.tag === tag) {
          for (let j = stack.length - 1; j >= i; j--) stack[j]!.end = tagRe.lastIndex;
          stack.length = i;
          break;
        }
      }
      continue;
    }
    const el: DomElement = {
      tag,
      attrs: parseAttrs(rawAttrs ?? ''),
      children: [],
      start: m.index,
      end: tagRe.lastIndex,
    };
    top.children.push(el);
    if (!selfClosing && !VOID.has(tag)) stack.push(el);
  }
  if (last < html.length) stack[stack.length - 1]!.children.push(html.slice(last));
  for (let j = stack.length - 1; j > 0; j--) stack[j]!.end = html.length;
  return root.children;
}

function parseAttrs(raw: string): [string, string][] {
  const out: [string, string][] = [];
  const re = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw)) !== null) out.push([m[1]!, m[2] ?? m[3] ?? m[4] ?? '']);
  return out;
}

export function attr(el: DomElement, name: string): string | undefined {
  for (const [k, v] of el.attrs) if (k === name) return v;
  return undefined;
}

/** True for an element that is a SiYuan block. */
export function isBlock(node: DomNode): boolean {
  return (
    typeof node !== 'string' &&
    attr(node, 'data-node-id') !== undefined &&
    attr(node, 'data-type') !== undefined
  );
}

/** The nearest block elements below `nodes` (not descending into blocks). */
export function childBlocks(nodes: DomNode[]): DomElement[] {
  const out: DomElement[] = [];
  const walk = (list: DomNode[]): void => {
    for (const n of list) {
      if (typeof n === 'string') continue;
      if (isBlock(n)) out.push(n);
      else walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

/** The text of a subtree with tags removed and entities decoded. */
export function textOf(nodes: DomNode[]): string {
  let s = '';
  const walk = (list: DomNode[]): void => {
    for (const n of list) {
      if (typeof n === 'string') s += n;
      else walk(n.children);
    }
  };
  walk(nodes);
  return decodeEntities(s);
}

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|quot|amp|lt|gt|apos|nbsp);/g, (whole, e: string) => {
    switch (e) {
      case 'quot':
        return '"';
      case 'amp':
        return '&';
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'apos':
        return "'";
      case 'nbsp':
        return '\u00a0';
      default: {
        const code = e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code >= 0 && code <= 0x10ffff
          ? String.fromCodePoint(code)
          : whole;
      }
    }
  });
}

/** Every element of a subtree (pre-order) that satisfies `pred`. */
export function findAll(nodes: DomNode[], pred: (el: DomElement) => boolean): DomElement[] {
  const out: DomElement[] = [];
  const walk = (list: DomNode[]): void => {
    for (const n of list) {
      if (typeof n === 'string') continue;
      if (pred(n)) out.push(n);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

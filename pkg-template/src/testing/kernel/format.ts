// How the kernel's Lute writes a block's text back (kernel v3.7.3, Lute
// v1.7.7-0.20260714082546), where vditor's Lute, which the double parses
// with, writes it differently: tables are not padded and their delimiter
// row counts what the stored tree holds; U+200B stays around inline code,
// `<kbd>` and tags only where the kramdown exporter keeps it.
// Confirmed against a live v3.7.3 kernel (docs/KERNEL-DOUBLE.md, §6).

const ZWSP = '\u200b';
const PUNCT = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';

/** Lute `lex.BytesShowLength`: a code point below U+007F counts 1, any other 2 (CJK, emoji, é, U+200B). */
export function showLen(s: string): number {
  let n = 0;
  for (const ch of s) n += (ch.codePointAt(0) ?? 0) < 0x7f ? 1 : 2;
  return n;
}

type Item =
  | { k: 'text'; s: string }
  | { k: 'span'; zw: boolean; text: string; src: string }
  | { k: 'img'; alt: string; src: string; srcText: string }
  | { k: 'esc'; ch: string }
  | { k: 'br' };

const wrapsZw = (inner: string): boolean =>
  /^\u200b*(`+)[\s\S]*?\1\u200b*$/.test(inner) || /^\u200b*<kbd>[\s\S]*<\/kbd>\u200b*$/.test(inner);
const plain = (inner: string): string =>
  inner
    .replace(/\u200b/g, '')
    .replace(/^(`+) ?([\s\S]*?) ?\1$/, '$2')
    .replace(/<\/?kbd>/g, '');

/**
 * The inline nodes Lute's Markdown of one block stands for: text, text marks
 * (`zw`: a code span, `<kbd>`, `#tag#`, or a mark wrapping exactly one of
 * them — `parse.ContainTextMark(node, "code", "kbd", "tag")`), images,
 * backslash escapes, `<br />`. U+200B of the input is dropped: it is
 * recomputed.
 */
function items(md: string): Item[] {
  const out: Item[] = [];
  let text = '';
  const push = (it: Item): void => {
    if (text !== '') out.push({ k: 'text', s: text });
    text = '';
    out.push(it);
  };
  let i = 0;
  while (i < md.length) {
    const rest = md.slice(i);
    let m: RegExpExecArray | null;
    if (rest[0] === ZWSP) {
      i++;
      continue;
    }
    if (rest[0] === '\\' && rest.length > 1 && PUNCT.includes(rest[1]!)) {
      push({ k: 'esc', ch: rest[1]! });
      i += 2;
      continue;
    }
    if ((m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest))) {
      push({ k: 'span', zw: true, text: plain(m[0]), src: m[0] });
    } else if ((m = /^<kbd>([\s\S]*?)<\/kbd>/.exec(rest))) {
      push({ k: 'span', zw: true, text: m[1]!, src: m[0] });
    } else if ((m = /^<br\s*\/?>/.exec(rest))) {
      push({ k: 'br' });
    } else if ((m = /^!\[((?:[^\]\\]|\\.)*)\]\(([^)\s]*)(?:\s+"[^"]*")?\)/.exec(rest))) {
      push({ k: 'img', alt: m[1]!, src: m[2]!, srcText: m[0] });
    } else if ((m = /^\[((?:[^\]\\]|\\.)*)\]\(([^)]*)\)/.exec(rest))) {
      push({ k: 'span', zw: wrapsZw(m[1]!), text: plain(m[1]!), src: m[0] });
    } else if ((m = /^\(\(\d{14}-[0-9a-z]{7}(?: (?:"([^"]*)"|'([^']*)'))?\)\)/.exec(rest))) {
      push({ k: 'span', zw: false, text: m[1] ?? m[2] ?? 'x', src: m[0] });
    } else if ((m = /^\$(?!\s)([^$\n]*?[^\s$])\$/.exec(rest)) || (m = /^\$([^$\s])\$/.exec(rest))) {
      push({ k: 'span', zw: false, text: '', src: m[0] }); // inline math: Text() is ""
    } else if ((m = /^#([^#\s\u200b][^#\n]*?)#/.exec(rest)) && !/\s$/.test(m[1]!)) {
      push({ k: 'span', zw: true, text: m[1]!, src: m[0] });
    } else if (
      (m = /^(\*\*|__|~~|==)(?=\S)([\s\S]*?\S)\1/.exec(rest)) ||
      (m = /^(\*|_)(?=[^\s*_])([\s\S]*?[^\s*_])\1(?!\1)/.exec(rest)) ||
      (m = /^<(u|sup|sub|s|mark|em|strong|span)\b[^>]*>([\s\S]*?)<\/\1>/.exec(rest))
    ) {
      push({ k: 'span', zw: wrapsZw(m[2]!), text: plain(m[2]!), src: m[0] });
    } else {
      text += rest[0];
      i++;
      continue;
    }
    i += m[0].length;
  }
  if (text !== '') out.push({ k: 'text', s: text });
  return out;
}

const textOf = (it: Item): string =>
  it.k === 'text'
    ? it.s
    : it.k === 'span'
      ? it.text
      : it.k === 'img'
        ? it.alt
        : it.k === 'esc'
          ? it.ch
          : '';

/**
 * The U+200B an API write stores around inline nodes (Lute ProtyleRenderer,
 * markdown → DOM): before a code/kbd/tag mark that is first or follows a soft
 * break (protyle_renderer.go:285-290), after every one (:316-323); before an
 * image that is first (or, in a cell, second), after an image that is last
 * or followed by an image (:1375-1378, :1486-1490).
 */
function treeZwsp(its: Item[], cell: boolean): { zb: number[]; za: number[] } {
  const zb = its.map(() => 0);
  const za = its.map(() => 0);
  its.forEach((it, i) => {
    const prev = its[i - 1];
    const next = its[i + 1];
    if (it.k === 'span' && it.zw) {
      if (!prev || (prev.k === 'text' && prev.s.endsWith('\n'))) zb[i] = 1;
      za[i] = 1;
    }
    if (it.k === 'img') {
      if (!prev || (cell && i === 1)) zb[i] = 1;
      if (!next || next.k === 'img') za[i] = 1;
    }
  });
  return { zb, za };
}

/**
 * A table cell's width (`renderTable`, protyle_export_md_renderer.go:1248-1252:
 * `TokenLen()` of the stored cell): 2 for the cell node's own "td"/"th", the
 * text (`showLen`), 2 per stored U+200B, 4 + the character for a backslash
 * escape (node "span"), 2 for `<br />` ("br"), 4 + alt + src for an image;
 * text marks (code, kbd, tag, strong, em, links, math, refs…) count 0.
 */
export function cellWidth(cell: string): number {
  const its = items(cell);
  const { zb, za } = treeZwsp(its, true);
  let w = 2;
  its.forEach((it, i) => {
    w += 2 * (zb[i]! + za[i]!);
    if (it.k === 'text') w += showLen(it.s);
    else if (it.k === 'esc') w += 4 + showLen(it.ch);
    else if (it.k === 'br') w += 2;
    else if (it.k === 'img') w += 4 + showLen(it.alt) + showLen(it.src);
  });
  return w;
}

/**
 * Inline Markdown as the kramdown shows it after an API write: the stored
 * U+200B (treeZwsp) go through `renderText` (protyle_export_md_renderer.go:
 * 1570-1611): a text run loses its leading U+200B when nothing with text
 * follows it in its parent (end, inline math, image without alt, `<br />` in
 * a cell), the first run of the block loses one; a run that is just U+200B
 * next to an image goes. Plus one U+200B between two adjacent text marks
 * (:283) and inside a mark that wraps code (`**​`x`​**`, :440-452).
 */
function inline(md: string, cell: boolean): string {
  const its = items(md);
  const { zb, za } = treeZwsp(its, cell);
  type Node = { k: 'run'; s: string } | Item;
  const nodes: Node[] = [];
  const addText = (s: string): void => {
    const last = nodes[nodes.length - 1];
    if (last && last.k === 'run') last.s += s;
    else nodes.push({ k: 'run', s });
  };
  its.forEach((it, i) => {
    if (zb[i]) addText(ZWSP);
    if (it.k === 'text') addText(it.s);
    else nodes.push(it);
    if (za[i]) addText(ZWSP);
  });
  let out = '';
  nodes.forEach((n, i) => {
    const next = nodes[i + 1];
    if (n.k === 'run') {
      let s = n.s;
      const nextText = next ? (next.k === 'run' ? next.s : textOf(next)) : '';
      while (s.startsWith(ZWSP) && nextText === '') s = s.slice(1);
      if (i === 0 && s.startsWith(ZWSP)) s = s.slice(1);
      const prev = nodes[i - 1];
      if (s === ZWSP && ((prev && prev.k === 'img') || (next && next.k === 'img'))) s = '';
      out += s;
      return;
    }
    let src =
      n.k === 'span' ? n.src : n.k === 'img' ? n.srcText : n.k === 'esc' ? `\\${n.ch}` : '<br />';
    if (n.k === 'span' && n.zw && !/^(`|<kbd>|#|\[)/.test(src)) {
      src = src
        .replace(/\u200b/g, '')
        .replace(/^(\*\*|__|~~|==|\*|_|<[^>]+>)([\s\S]*)(\1|<\/[^>]+>)$/, `$1${ZWSP}$2${ZWSP}$3`);
    }
    out += src;
    if (n.k === 'span' && next && next.k === 'span') out += ZWSP;
  });
  return out;
}

/** `sql/database.go:965-968`: the index removes every U+200B. */
export function stripZwsp(text: string): string {
  return text.replace(/\u200b/g, '');
}

/** A table row's cells: split on unescaped pipes, trimmed. */
function cells(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  return s.split(/(?<!\\)\|/).map((c) => c.trim());
}

/** 0 none, 1 left, 2 center, 3 right (Lute's `TableCellAlign`). */
function alignOf(delimiter: string): number {
  const left = delimiter.startsWith(':');
  const right = delimiter.endsWith(':') && delimiter.length > 1;
  return left && right ? 2 : left ? 1 : right ? 3 : 0;
}

/** The delimiter cell for a column (`protyle_export_md_renderer.go:1162-1205`, ProtyleWYSIWYG). */
function delimiterCell(align: number, width: number): string {
  const dashes = (n: number) => '-'.repeat(Math.max(0, n));
  switch (align) {
    case 1:
      return `| :-${dashes(width - 2)}`;
    case 2:
      return `| :-${dashes(width - 3)}: `;
    case 3:
      return `| -${dashes(width - 2)}: `;
    default:
      return `| -${dashes(width - 1)}`;
  }
}

const isTable = (md: string): boolean => {
  const lines = md.split('\n');
  return (
    lines.length >= 2 &&
    /^\s*\|/.test(lines[0]!) &&
    /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/.test(lines[1]!)
  );
};

/**
 * The kernel's table (kramdown; `stripZwsp` of it is the `markdown`
 * column): rows `|a|bb|` (cells trimmed, missing cells empty, extra cells
 * dropped), cells' inline Markdown as `inline` writes it, delimiter cells
 * sized by `cellWidth` (max over the column, header included).
 */
export function unpadTable(md: string): string {
  const lines = md.split('\n').filter((l) => l.trim() !== '');
  if (lines.length < 2) return md;
  const head = cells(lines[0]!);
  const aligns = cells(lines[1]!).map(alignOf);
  const body = lines.slice(2).map((l) => {
    const row = cells(l).slice(0, head.length);
    while (row.length < head.length) row.push('');
    return row;
  });
  const widths = head.map((_, col) =>
    Math.max(...[head, ...body].map((row) => cellWidth(row[col] ?? ''))),
  );
  const row = (r: string[]) => `|${r.map((c) => inline(c, true)).join('|')}|`;
  const delimiter = `${head.map((_, col) => delimiterCell(aligns[col] ?? 0, widths[col]!)).join('')}|`;
  return [row(head), delimiter, ...body.map(row)].join('\n');
}

/**
 * The U+200B an API write leaves in a paragraph's, heading's or table's
 * kramdown (see `inline`). Idempotent; the input's own U+200B are recomputed.
 */
export function addZwsp(text: string): string {
  if (isTable(text)) return unpadTable(text);
  const h = /^(#{1,6} )([\s\S]*)$/.exec(text);
  return h ? h[1]! + inline(h[2]!, false) : inline(text, false);
}

// How the kernel's Lute writes a block's text back (kernel notes §2), where
// vditor's Lute, which the double parses with, writes it differently:
// tables are not padded, and zero-width spaces stay after inline code and
// `<kbd>` spans.

const ZWSP = '\u200b';

/**
 * KERNEL-FACTS §6, notes §2: the Protyle DOM an API write goes through
 * puts a U+200B after every code and kbd span, and the stored text keeps
 * it. Pessimistic reading: the kramdown keeps one after each span that has
 * more text after it on its line (the SQL `markdown` and `content` columns
 * never do: `stripZwsp`).
 */
export function addZwsp(text: string): string {
  const span = /(?<!\\)(`+)(?:[^`\n]|[^`\n][^\n]*?[^`\n])\1(?!`)|<kbd>[^\n]*?<\/kbd>/g;
  return text.replace(span, (m: string, _ticks: string, offset: number, whole: string) => {
    const rest = whole.slice(offset + m.length);
    const lineRest = rest.split('\n', 1)[0] ?? '';
    return lineRest !== '' && !lineRest.startsWith(ZWSP) ? m + ZWSP : m;
  });
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

/** Lute's `TokenLen` of a cell: the text outside inline spans, ASCII 1, other characters 2. */
export function cellWidth(cell: string): number {
  const plain = cell
    .replace(/(?<!\\)(`+)[\s\S]*?[^`]\1(?!`)/g, '')
    .replace(/<(kbd|sup|sub|u|mark|s)>[\s\S]*?<\/\1>/g, '')
    .replace(/!?\[[^\]]*\]\([^)]*\)/g, '')
    .replace(/\(\([^)]*\)\)/g, '')
    .replace(/(\*\*|__|~~|==|\*|_|\$|#)(?=\S)[\s\S]*?\S\1/g, '')
    .replace(/\\([|\\`*_~])/g, '$1');
  let width = 0;
  for (const ch of plain) width += (ch.codePointAt(0) ?? 0) < 0x7f ? 1 : 2;
  return width;
}

/** 0 none, 1 left, 2 center, 3 right (Lute's `TableCellAlign`). */
function alignOf(delimiter: string): number {
  const left = delimiter.startsWith(':');
  const right = delimiter.endsWith(':') && delimiter.length > 1;
  return left && right ? 2 : left ? 1 : right ? 3 : 0;
}

/** The delimiter cell for a column (`protyle_export_md_renderer.go:1162-1205`). */
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

/**
 * KERNEL-FACTS §6, notes §2: with ProtyleWYSIWYG the kernel writes table
 * cells without padding or spaces (`|a|bb|`), and only the delimiter row is
 * padded with hyphens to the column's width (`| ---| ---|`). `md` is a
 * GFM table in any padding; the answer is the kernel's form.
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
  const row = (r: string[]) => `|${r.join('|')}|`;
  const delimiter = `${head.map((_, col) => delimiterCell(aligns[col] ?? 0, widths[col]!)).join('')}|`;
  return [row(head), delimiter, ...body.map(row)].join('\n');
}

// The `refs` table as the kernel fills it when it indexes a document
// (KERNEL-FACTS §7, §11; kernel notes §5: `sql/database.go:500-616`,
// `treenode/node.go:72-137`).

import type { Block } from '../../types.js';
import { CONTAINERS } from './model.js';
import type { Row } from './sql.js';

const ID = '\\d{14}-[0-9a-z]{7}';
const INLINE_BLOCKS = new Set(['p', 'h', 't']);

/** A block reference span: `((id "text"))`, `((id 'text'))` or `((id))`. */
export interface BlockRef {
  id: string;
  text: string;
  markdown: string;
}

/** The block references of a leaf block's markdown, in order. */
export function blockRefs(markdown: string): BlockRef[] {
  const re = new RegExp(`\\(\\((${ID})(?:\\s+(?:"([^"]*)"|'([^']*)'))?\\)\\)`, 'g');
  return [...markdown.matchAll(re)].map((m) => ({
    id: m[1]!,
    text: m[2] ?? m[3] ?? '',
    markdown: m[0],
  }));
}

/**
 * `GetEmbedBlockRefID`: an embed counts only when its statement is a SELECT
 * whose whole WHERE (parentheses allowed) is one `=` comparison of a column
 * named `id` (any qualifier) with a string literal of the id form, in
 * single or double quotes. ORDER BY / LIMIT do not matter; `AND`, `IN`,
 * `LIKE`… give no ref.
 */
export function embedRefId(markdown: string): string | undefined {
  const m = /^\{\{([\s\S]*)\}\}$/.exec(markdown.trim());
  if (!m) return undefined;
  const stmt = m[1]!.trim();
  if (!/^select\b/i.test(stmt)) return undefined;
  const where = /\bwhere\b([\s\S]*?)(?:\border\s+by\b|\blimit\b|\bgroup\s+by\b|$)/i.exec(stmt);
  if (!where) return undefined;
  let expr = where[1]!.trim();
  while (expr.startsWith('(') && expr.endsWith(')')) expr = expr.slice(1, -1).trim();
  const cmp = new RegExp(`^(?:[A-Za-z_]\\w*\\.)?id\\s*=\\s*(['"])(${ID})\\1$`, 'i').exec(expr);
  return cmp?.[2];
}

/** Where a referenced block sits (the block tree's row for it). */
export type DefLookup = (id: string) => { parent: string; root: string; path: string } | undefined;

/**
 * The refs rows of one indexed document: one row per distinct
 * (def_block_id, block_id), block_id the leaf block holding the reference
 * (for an embed, the embed block); `siyuan://blocks/<id>` links never.
 */
export function refsOf(rows: Block[], def: DefLookup, newId: () => string): Row[] {
  const out: Row[] = [];
  const seen = new Set<string>();
  const add = (row: Block, defId: string, content: string, markdown: string, type: string) => {
    const key = `${defId}\u0000${row.id}`;
    if (seen.has(key)) return;
    seen.add(key);
    const target = def(defId);
    out.push({
      id: newId(),
      def_block_id: defId,
      def_block_parent_id: target?.parent ?? '',
      def_block_root_id: target?.root ?? '',
      def_block_path: target?.path ?? '',
      block_id: row.id,
      root_id: row.root_id,
      box: row.box,
      path: row.path,
      content,
      markdown,
      type,
    });
  };
  for (const row of rows) {
    if (row.type === 'd' || CONTAINERS.has(row.type)) continue;
    const md = String(row.markdown ?? '');
    if (row.type === 'query_embed') {
      const id = embedRefId(md);
      if (id) add(row, id, '', '', 'query_embed');
      continue;
    }
    // Only blocks with inline content hold reference spans (not code, math or HTML).
    if (!INLINE_BLOCKS.has(row.type)) continue;
    for (const r of blockRefs(md)) add(row, r.id, r.text, r.markdown, 'textmark');
  }
  return out;
}

// `/api/query/sql` over the double's SQL view (KERNEL-FACTS §7): the
// `blocks` and `refs` tables, the statements editkit and its users emit
// (`SELECT [DISTINCT] <cols> FROM blocks|refs [WHERE col = '…' | col != …
// | col IN (…) | col LIKE '…' [AND …]] [ORDER BY col [ASC|DESC]] [LIMIT
// n]`), the implicit `LIMIT` (the user's search limit, 64 by default) on a
// statement without one, rows in index order (not the order of an `IN`
// list), keys sorted as Go encodes a map, and errors answered with code 1.

import { KernelFailure } from './model.js';

export type Row = Record<string, unknown>;

interface Select {
  distinct: boolean;
  cols: '*' | string[];
  table: string;
  where: ((row: Row) => boolean)[];
  order?: { col: string; desc: boolean };
  limit?: number;
}

const COLUMNS: Record<string, Set<string>> = {
  blocks: new Set([
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
  ]),
  refs: new Set([
    'id',
    'def_block_id',
    'def_block_parent_id',
    'def_block_root_id',
    'def_block_path',
    'block_id',
    'root_id',
    'box',
    'path',
    'content',
    'markdown',
    'type',
  ]),
};

function sqlError(msg: string): KernelFailure {
  return new KernelFailure(1, msg);
}

/** Runs one statement over the tables; `limit` is the implicit LIMIT. */
export function runSql(stmt: string, tables: Record<string, Row[]>, limit: number): Row[] {
  const q = parseSelect(stmt);
  let rows = (tables[q.table] ?? []).filter((r) => q.where.every((w) => w(r)));
  if (q.order) {
    const { col, desc } = q.order;
    rows = rows.slice().sort((a, b) => {
      const x = a[col] as string | number;
      const y = b[col] as string | number;
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
    });
  }
  let out = rows.map((r) => {
    if (q.cols === '*') return { ...r };
    const o: Row = {};
    for (const c of [...q.cols].sort()) o[c] = r[c];
    return o;
  });
  if (q.distinct) {
    const seen = new Set<string>();
    out = out.filter((r) => {
      const key = JSON.stringify(r);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  return out.slice(0, q.limit ?? limit);
}

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
    throw sqlError(
      `the kernel double cannot read this statement near "${stmt.slice(pos, pos + 20)}"`,
    );
  let i = 0;
  const peek = (): string => (tokens[i] ?? '').toLowerCase();
  const next = (): string => tokens[i++] ?? '';
  const expect = (kw: string): void => {
    if (peek() !== kw)
      throw sqlError(`near "${tokens[i] ?? ''}": syntax error (expected ${kw.toUpperCase()})`);
    i++;
  };
  let table = 'blocks';
  const column = (): string => {
    const c = next()
      .toLowerCase()
      .replace(/^(blocks|refs)\./, '');
    return c;
  };
  const literal = (): string | number => {
    const t = next();
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d+$/.test(t)) return Number(t);
    throw sqlError(`near "${t}": syntax error (expected a literal)`);
  };
  expect('select');
  let distinct = false;
  if (peek() === 'distinct') {
    i++;
    distinct = true;
  }
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
  table = next().toLowerCase();
  const known = COLUMNS[table];
  if (!known) throw sqlError(`no such table: ${table}`);
  const check = (c: string): string => {
    if (!known.has(c)) throw sqlError(`no such column: ${c}`);
    return c;
  };
  if (cols !== '*') cols = cols.map(check);
  const where: Select['where'] = [];
  if (peek() === 'where') {
    i++;
    for (;;) {
      const col = check(column());
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
        throw sqlError(`the kernel double supports =, !=, IN and LIKE only, in: ${stmt}`);
      }
      if (peek() !== 'and') break;
      i++;
    }
  }
  let order: Select['order'];
  if (peek() === 'order') {
    i++;
    expect('by');
    const col = check(column());
    let desc = false;
    if (peek() === 'asc' || peek() === 'desc') desc = next().toLowerCase() === 'desc';
    order = { col, desc };
  }
  let limit: number | undefined;
  if (peek() === 'limit') {
    i++;
    const v = literal();
    if (typeof v !== 'number') throw sqlError(`LIMIT needs a number in: ${stmt}`);
    limit = v;
  }
  if (peek() === ';') i++;
  if (i < tokens.length) throw sqlError(`near "${tokens.slice(i).join(' ')}": syntax error`);
  return { distinct, cols, table, where, order, limit };
}

// `/api/query/sql` over the double's SQL view (KERNEL-FACTS §7, §13): the
// `blocks` and `refs` tables, the statements editkit and its users emit
// (`SELECT [DISTINCT] <cols> FROM blocks|refs [WHERE col = '…' | col != …
// | col IN (…) | col LIKE '…' [AND …]] [ORDER BY col [ASC|DESC]] [LIMIT
// n]`, and the one statement of editkit's `getReferencedIds`, below), the
// implicit `LIMIT` (the user's search limit, 64 by default) on a statement
// without one, rows in index order (not the order of an `IN` list), keys
// sorted as Go encodes a map, and errors answered with code 1.
//
// One statement per request (`api/sql.go:55-91`, `sql/stmt_validate.go`,
// `sql/block_query.go:350-431`; confirmed live on v3.7.3, report D §1):
// without `mode` (or `mode: "readonly"`, which also wants a SELECT or WITH)
// a second statement is refused (`code -1`, "SQL statement is not
// single"; trailing `;`, and a `;` followed only by blanks and comments,
// are allowed); `mode: "multiple"` is not checked, and the kernel then runs
// the FIRST statement only (rqlite's `ParseStatement` reads one and the
// rest is never parsed); another mode is refused (`-1 "unknown [mode]"`).

import { KernelFailure, sortKeys } from './model.js';

export type Row = Record<string, unknown>;

interface Select {
  /** Names no column has: SQLite reads a double-quoted one as a string (see `check`). */
  strings: Set<string>;
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

/** Go's `unicode.IsSpace` for one character. */
const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/**
 * Where each top-level `;` of a statement stands (outside '…', "…",
 * `…`, […], -- and /* *\/), as `containsMultipleStatements` scans it.
 */
function semicolons(stmt: string): number[] {
  const out: number[] = [];
  const chars = [...stmt];
  let quote = '';
  let line = false;
  let block = false;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    const next = chars[i + 1] ?? '';
    if (line) {
      if (ch === '\n') line = false;
    } else if (block) {
      if (ch === '*' && next === '/') {
        block = false;
        i++;
      }
    } else if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '[') quote = ']';
    else if (ch === '-' && next === '-') {
      line = true;
      i++;
    } else if (ch === '/' && next === '*') {
      block = true;
      i++;
    } else if (ch === ';') out.push(i);
  }
  return out;
}

/** Blanks and SQL comments only (`tailIsOnlyWhitespaceOrSQLComments`). */
function blankTail(tail: string): boolean {
  return (
    tail
      .replace(/--[^\n]*(\n|$)/g, ' ')
      .replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ')
      .split('')
      .filter((c) => !SPACE.test(c)).length === 0
  );
}

/** `containsMultipleStatements` (`sql/stmt_validate.go:67-151`). */
export function multipleStatements(stmt: string): boolean {
  let s = stmt.trim();
  while (s.endsWith(';')) s = s.replace(/;+$/, '').trim();
  const chars = [...s];
  return semicolons(s).some((i) => !blankTail(chars.slice(i + 1).join('')));
}

/** `isReadonlyQueryStatement`: after leading comments, SELECT or WITH. */
function readonlyQuery(stmt: string): boolean {
  let s = stmt.trim();
  for (;;) {
    if (s.startsWith('--')) {
      const end = s.indexOf('\n');
      if (end < 0) return false;
      s = s.slice(end + 1).trim();
    } else if (s.startsWith('/*')) {
      const end = s.indexOf('*/', 2);
      if (end < 0) return false;
      s = s.slice(end + 2).trim();
    } else break;
  }
  const kw = /^\p{L}*/u.exec(s)![0].toUpperCase();
  return kw === 'SELECT' || kw === 'WITH';
}

/** The first statement of a text (what rqlite's `ParseStatement` reads). */
function firstStatement(stmt: string): string {
  const at = semicolons(stmt)[0];
  return at === undefined ? stmt : [...stmt].slice(0, at).join('');
}

/** `/api/query/sql {stmt, mode?}`: its argument checks, then the first statement's rows. */
export function querySql(
  body: Record<string, unknown>,
  tables: Record<string, Row[]>,
  limit: number,
): Row[] {
  const stmtArg = body.stmt;
  if (stmtArg === undefined || stmtArg === null)
    throw new KernelFailure(-1, 'Field [stmt] is required');
  if (typeof stmtArg !== 'string')
    throw new KernelFailure(-1, 'Field [stmt] should be of type [String]');
  const stmt = stmtArg.trim();
  if (stmt === '') throw new KernelFailure(-1, 'Field [stmt] must not be empty');
  const mode = body.mode ?? '';
  if (typeof mode !== 'string')
    throw new KernelFailure(-1, 'Field [mode] should be of type [String]');
  if (mode === '' || mode === 'readonly') {
    if (multipleStatements(stmt)) throw new KernelFailure(-1, 'SQL statement is not single');
    if (mode === 'readonly' && !readonlyQuery(stmt))
      throw new KernelFailure(-1, 'SQL statement is not a read-only query');
  } else if (mode !== 'multiple') throw new KernelFailure(-1, 'unknown [mode]');
  return runSql(firstStatement(stmt).trim(), tables, limit);
}

/** Runs one statement over the tables; `limit` is the implicit LIMIT. */
export function runSql(stmt: string, tables: Record<string, Row[]>, limit: number): Row[] {
  const referenced = referencedIds(stmt, tables);
  if (referenced) return referenced;
  const literal = literalSelect(stmt);
  if (literal) return [literal];
  const q = parseSelect(stmt);
  const withStrings = (r: Row): Row => {
    const o: Row = { ...r };
    for (const name of q.strings) o[name] = name;
    return o;
  };
  let rows = (tables[q.table] ?? [])
    .map((r) => (q.strings.size > 0 ? withStrings(r) : r))
    .filter((r) => q.where.every((w) => w(r)));
  if (q.order) {
    const { col, desc } = q.order;
    rows = rows.slice().sort((a, b) => {
      const x = a[col] as string | number;
      const y = b[col] as string | number;
      return (x < y ? -1 : x > y ? 1 : 0) * (desc ? -1 : 1);
    });
  }
  let out = rows.map((r) => {
    if (q.cols === '*') {
      const o: Row = { ...r };
      for (const name of q.strings) delete o[name];
      return o;
    }
    const o: Row = {};
    // A string's result column is named as the statement writes it: `"nope"`.
    const key = (c: string) => (q.strings.has(c) ? `"${c}"` : c);
    for (const c of [...q.cols].sort((a, b) => (key(a) < key(b) ? -1 : 1))) o[key(c)] = r[c];
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

/** `SELECT 'a' AS x, 1 AS y`: one row of literals (no FROM). */
function literalSelect(stmt: string): Row | undefined {
  const item = String.raw`\s*(?:'((?:[^']|'')*)'|(-?\d+))\s+AS\s+([A-Za-z_]\w*)\s*`;
  if (!new RegExp(String.raw`^SELECT${item}(?:,${item})*;?\s*$`, 'i').test(stmt)) return undefined;
  const row: Row = {};
  for (const m of stmt.slice(6).matchAll(new RegExp(item, 'gi')))
    row[m[3]!] = m[1] !== undefined ? m[1].replace(/''/g, "'") : Number(m[2]);
  return sortKeys(row);
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
  // The kernel runs rqlite's re-serialisation of the statement, every
  // identifier in double quotes (`block_query.go:384-390`), and SQLite
  // reads a double-quoted name no column has as a string literal: no
  // error (confirmed live on v3.7.3: `SELECT nope FROM blocks` answers
  // rows `{"\"nope\"": "nope"}`).
  const strings = new Set<string>();
  const check = (c: string): string => {
    if (!known.has(c)) strings.add(c);
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
  return { strings, distinct, cols, table, where, order, limit };
}

// editkit's `getReferencedIds` (report D §4): one statement, a UNION of a
// sentinel row, the refs table and a scan of the blocks holding links,
// embeds or callout-title spans crossed with `json_each` of the ids. The
// double reads exactly this shape (whitespace free), over its SQL view as
// it is (stale rows included); the rows come back as SQLite's UNION gives
// them: distinct, sorted by id, the '' sentinel first. A JSON literal
// `json_each` cannot read is a runtime error: the kernel answers `code 0,
// data []` (it never checks `rows.Err()`, `block_query.go:412-429`).
const REFERENCED_SHAPE =
  "SELECT '' AS id UNION SELECT r.def_block_id AS id FROM refs AS r WHERE r.def_block_id IN (\u0001) AND r.block_id != r.def_block_id UNION SELECT q.value AS id FROM (SELECT id, type, CASE WHEN type = 'callout' THEN substr(markdown, 1, instr(markdown || char(10), char(10))) ELSE markdown END AS md FROM blocks WHERE type NOT IN ('d', 'l', 'i', 'b', 's') AND (instr(markdown, 'siyuan://blocks/') > 0 OR type = 'query_embed' OR (type = 'callout' AND instr(markdown, 'data-id=') > 0))) AS b CROSS JOIN json_each('\u0002') AS q WHERE b.id != q.value AND (instr(b.md, 'siyuan://blocks/' || q.value) > 0 OR (b.type = 'query_embed' AND instr(b.md, q.value) > 0) OR (b.type = 'callout' AND instr(b.md, 'data-id=\"' || q.value || '\"') > 0)) LIMIT \u0003";

const REFERENCED = new RegExp(
  `^${REFERENCED_SHAPE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/ +/g, '\\s*')
    .replace('\u0001', "((?:\\s*'[^']*'\\s*,?)*)")
    .replace('\u0002', "((?:[^']|'')*)")
    .replace('\u0003', '(\\d+)')}\\s*;?$`,
  'i',
);

function referencedIds(stmt: string, tables: Record<string, Row[]>): Row[] | undefined {
  const m = REFERENCED.exec(stmt);
  if (!m) return undefined;
  const listed = new Set([...m[1]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!));
  let ids: unknown;
  try {
    ids = JSON.parse(m[2]!.replace(/''/g, "'"));
  } catch {
    return [];
  }
  if (!Array.isArray(ids)) return [];
  const values = ids.map((v) => String(v));
  const found = new Set<string>(['']);
  for (const r of tables.refs ?? []) {
    const def = String(r.def_block_id);
    if (listed.has(def) && r.block_id !== r.def_block_id) found.add(def);
  }
  for (const b of tables.blocks ?? []) {
    const type = String(b.type);
    const markdown = String(b.markdown ?? '');
    if (['d', 'l', 'i', 'b', 's'].includes(type)) continue;
    const callout = type === 'callout';
    if (
      !markdown.includes('siyuan://blocks/') &&
      type !== 'query_embed' &&
      !(callout && markdown.includes('data-id='))
    )
      continue;
    const cut = `${markdown}\n`.indexOf('\n');
    const md = callout ? markdown.slice(0, cut + 1) : markdown;
    for (const q of values) {
      if (b.id === q) continue;
      if (
        md.includes(`siyuan://blocks/${q}`) ||
        (type === 'query_embed' && md.includes(q)) ||
        (callout && md.includes(`data-id="${q}"`))
      )
        found.add(q);
    }
  }
  const sorted = [...found].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.slice(0, Number(m[3])).map((id) => ({ id }));
}

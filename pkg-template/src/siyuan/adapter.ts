// The SiYuan kernel adapter: every host callback editkit uses, implemented
// over the kernel HTTP API (v3.7.3) through a `request(path, body)` function.
//
// Kernel facts this file respects:
// - every endpoint answers `{code, msg, data}`; a non-zero code is an error
//   (thrown as `SiyuanApiError`, never turned into success);
// - `/api/query/sql` appends `LIMIT 64` to a statement without one, so every
//   statement here states its LIMIT and batches are chunked (≤ 64 ids);
// - the SQL index is updated asynchronously: SQL reads that follow a write
//   made through this host flush it first (`flush: "auto"`), and the core
//   calls `flushTransaction()` before its verify read;
// - a write answers `[{doOperations: [{id, …}]}]`: new block ids come from
//   there (see `insertedIds` for the list cases);
// - ids are checked against the kernel's strict pattern before they reach
//   SQL or a request; nothing else is ever interpolated into SQL;
// - every request runs under `timeoutMs` (default 30 s): a kernel that
//   never answers fails the call with `HOST_TIMEOUT` (SPEC §3.7 rule 11);
// - with Lute at hand (the app's `window.Lute` inside SiYuan, or the
//   `lute` option) the host splits markdown exactly as the kernel will
//   (`splitMarkdown`, SPEC §3.7 rule 6).

import type {
  Block,
  Lang,
  BreadcrumbEntry,
  ChildBlock,
  CreateDailyNoteArgs,
  CreateDocArgs,
  InsertAnchor,
  KernelRequest,
  KernelResponse,
  SiyuanHostOptions,
  SiyuanKernelHost,
} from '../types.js';
import { attr, childBlocks, parseDom } from './block-dom.js';
import { EditkitError, fillTemplate, readOptions } from '../errors.js';
import { DEFAULT_TIMEOUT_MS, settleWithin } from '../timeout.js';
import { kernelLute } from './lute.js';
import type { LuteEngine, LuteNamespace } from './lute.js';

/** The kernel's block id pattern (`ast.IsNodeIDPattern`). */
export const BLOCK_ID_PATTERN = /^\d{14}-[0-9a-z]{7}$/;

/** The kernel's own cap on rows of a statement without LIMIT. */
export const KERNEL_SQL_DEFAULT_LIMIT = 64;

/** Ids per reference statement: about 53 bytes each, no per-id expression depth. */
const REFERENCE_CHUNK = 1000;

/**
 * The one statement that tells which of `ids` (checked kernel ids) another
 * block refers to, as rows `{id}` plus a sentinel row `{id: ""}`:
 *
 * - the refs table: `((id …))` block refs and embeds whose query is
 *   exactly `id = '…'` (a block referring to itself aside);
 * - the leaves (containers aside: their markdown holds their children's)
 *   whose text names the id in a `siyuan://blocks/<id>` link, an embed
 *   block whose query names it, or a callout whose title line holds a ref
 *   span to it — none of which the refs table lists (KERNEL-FACTS §11).
 *
 * Checked live on v3.7.3 (5–18 ms for 300 ids). A bare mention in code or
 * text is not a reference; an embed naming the id in any position is.
 */
export function referencedIdsSql(ids: readonly string[]): string {
  const quoted = ids.map((id) => `'${id}'`).join(', ');
  const json = JSON.stringify(ids);
  return (
    "SELECT '' AS id" +
    ` UNION SELECT r.def_block_id AS id FROM refs AS r WHERE r.def_block_id IN (${quoted}) AND r.block_id != r.def_block_id` +
    ' UNION SELECT q.value AS id FROM (SELECT id, type,' +
    " CASE WHEN type = 'callout' THEN substr(markdown, 1, instr(markdown || char(10), char(10))) ELSE markdown END AS md" +
    " FROM blocks WHERE type NOT IN ('d', 'l', 'i', 'b', 's')" +
    " AND (instr(markdown, 'siyuan://blocks/') > 0 OR type = 'query_embed' OR (type = 'callout' AND instr(markdown, 'data-id=') > 0))) AS b" +
    ` CROSS JOIN json_each('${json}') AS q` +
    " WHERE b.id != q.value AND (instr(b.md, 'siyuan://blocks/' || q.value) > 0" +
    " OR (b.type = 'query_embed' AND instr(b.md, q.value) > 0)" +
    ` OR (b.type = 'callout' AND instr(b.md, 'data-id="' || q.value || '"') > 0)) LIMIT ${ids.length + 1}`
  );
}

/**
 * Rows a block may have in the blocks table: copies of it stay there after
 * an index that inserts without deleting (see `fetchRows`). A statement's
 * LIMIT allows this many per id.
 */
const ROW_COPIES = 4;

/** Ids per SQL statement by default: each statement states its own LIMIT. */
const SQL_IDS_PER_STATEMENT = 256;
const MAX_SQL_IDS_PER_STATEMENT = 1000;

/** A kernel older than an endpoint answers 404 (the double: code 404; HTTP: a non-JSON 404 page). */
function missingEndpoint(e: unknown): boolean {
  return e instanceof SiyuanApiError && (e.kernelCode === 404 || /HTTP 404/.test(e.msg));
}

/** A kernel answer with a non-zero `code` (or no `{code, msg, data}` at all). */
export class SiyuanApiError extends EditkitError {
  /** The kernel's `code` (non-zero); `NaN` when the answer was malformed. */
  readonly kernelCode: number;
  /** The kernel's `msg`. */
  readonly msg: string;
  /** The endpoint, e.g. `/api/block/appendBlock`. */
  readonly path: string;

  constructor(path: string, kernelCode: number, msg: string) {
    super({
      code: 'HOST_ERROR',
      // A malformed answer has no code to show (its msg says what came).
      message: Number.isNaN(kernelCode)
        ? `SiYuan kernel ${path} failed: ${msg}`
        : `SiYuan kernel ${path} failed (code ${kernelCode}): ${msg}`,
      subject: path,
    });
    this.name = 'SiyuanApiError';
    this.kernelCode = kernelCode;
    this.msg = msg;
    this.path = path;
  }
}

/** Every misuse of the adapter is an `EditkitError` too (`INVALID_ARGUMENT`). */
function invalid(subject: string, message: string): EditkitError {
  return new EditkitError({ code: 'INVALID_ARGUMENT', message, subject });
}

/** Whether `id` has the kernel's block id form. */
export function isBlockId(id: unknown): id is string {
  return typeof id === 'string' && BLOCK_ID_PATTERN.test(id);
}

function checkId(id: unknown, what = 'block id'): string {
  if (!isBlockId(id)) {
    throw invalid(
      'adapter',
      `invalid SiYuan ${what} ${JSON.stringify(id)}: expected 14 digits, "-", 7 lowercase letters or digits`,
    );
  }
  return id;
}

function checkIds(ids: unknown): string[] {
  if (!Array.isArray(ids)) throw invalid('adapter', 'ids must be an array of block ids');
  return ids.map((id) => checkId(id));
}

/** Options of `kernelRequest`. */
export interface KernelRequestOptions {
  /** The kernel's address, e.g. `http://127.0.0.1:6806`. */
  baseUrl: string;
  /** The API token (Settings → About); sent as `Authorization: Token …`. */
  token?: string;
  /** Language of the errors it throws when the kernel cannot be reached (default `en`). */
  lang?: Lang;
  /** A `fetch` implementation (default: the global one). */
  fetch?: (
    url: string,
    init: { method: string; headers: Record<string, string>; body: string },
  ) => Promise<{
    ok: boolean;
    status: number;
    json(): Promise<unknown>;
    text(): Promise<string>;
  }>;
}

/** What `kernelRequest` says when the kernel is not reached or answers amiss. */
const KERNEL_TEXTS = {
  unreachable: {
    en: 'the SiYuan kernel at {0} did not answer ({1}): is SiYuan running, and is the URL right?',
    zh: '思源内核 {0} 没有应答（{1}）：思源是否正在运行？地址是否正确？',
  },
  refused: { en: 'connection refused', zh: '连接被拒绝' },
  noHost: { en: 'the host name does not resolve', zh: '主机名无法解析' },
  timedOut: { en: 'the connection timed out', zh: '连接超时' },
  reset: { en: 'the connection was closed', zh: '连接被关闭' },
  unreachableHost: { en: 'the host is unreachable', zh: '主机不可达' },
  badUrl: { en: 'not a URL fetch can use', zh: '不是可用的 URL' },
  unauthorized: {
    en: '{0} answered HTTP {1}: the API token is wrong or missing (SiYuan: Settings → About → API token)',
    zh: '{0} 应答 HTTP {1}：API token 错误或缺失（思源：设置 → 关于 → API token）',
  },
  notJson: {
    en: '{0} answered HTTP {1}, not with a kernel answer ({2}): is it SiYuan, and is the URL right?',
    zh: '{0} 应答 HTTP {1}，但不是思源内核的应答（{2}）：它是思源吗？地址是否正确？',
  },
} satisfies Record<string, Record<Lang, string>>;

/** Why a `fetch` rejected, from its cause's code (Node's undici: `cause.code`). */
function connectFailure(e: unknown): keyof typeof KERNEL_TEXTS | undefined {
  const codes: unknown[] = [];
  for (let c: unknown = e, depth = 0; c && depth < 4; depth++) {
    codes.push((c as { code?: unknown }).code);
    c = (c as { cause?: unknown }).cause;
  }
  for (const code of codes) {
    switch (code) {
      case 'ECONNREFUSED':
        return 'refused';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'noHost';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
        return 'timedOut';
      case 'ECONNRESET':
      case 'EPIPE':
      case 'UND_ERR_SOCKET':
        return 'reset';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'unreachableHost';
      case 'ERR_INVALID_URL':
        return 'badUrl';
    }
  }
  return undefined;
}

/** The message of the error at the end of `e`'s causes (undici's "fetch failed" says nothing; its cause may: "bad port"). */
function innermostMessage(e: unknown): string {
  let message = e instanceof Error ? e.message : String(e);
  for (let c = (e as { cause?: unknown } | null)?.cause, depth = 0; c && depth < 4; depth++) {
    if (c instanceof Error && c.message) message = c.message;
    c = (c as { cause?: unknown }).cause;
  }
  return message;
}

/**
 * A `request(path, body)` for Node and other non-plugin hosts: POSTs JSON to
 * `baseUrl + path` with the token and resolves to the parsed answer. A
 * kernel that cannot be reached, or an answer that is not the kernel's,
 * fails with `HOST_ERROR` naming `baseUrl` and saying whether anything
 * answered there.
 */
export function kernelRequest(options: KernelRequestOptions): KernelRequest {
  const o = readOptions(options, ['baseUrl', 'token', 'fetch', 'lang'] as const, 'options');
  const lang: Lang = o.lang === 'zh' ? 'zh' : 'en';
  const say = (key: keyof typeof KERNEL_TEXTS, ...args: string[]) =>
    fillTemplate(KERNEL_TEXTS[key][lang], args);
  if (typeof o.baseUrl !== 'string')
    throw invalid('adapter', 'kernelRequest: options.baseUrl must be a string');
  const base = o.baseUrl.replace(/\/+$/, '');
  // The kernel as the messages name it: its URL, or, with paths on the
  // kernel itself (a kernel plugin's siyuan.client.fetch), no address.
  const where = base || (lang === 'zh' ? '（本机内核）' : '(this kernel)');
  const token = typeof o.token === 'string' ? o.token : undefined;
  const doFetch = (o.fetch ??
    (globalThis as { fetch?: KernelRequestOptions['fetch'] })
      .fetch) as KernelRequestOptions['fetch'];
  if (typeof doFetch !== 'function')
    throw invalid('adapter', 'kernelRequest: no fetch available; pass { fetch }');
  return async (path, body) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = `Token ${token}`;
    let res: Awaited<ReturnType<NonNullable<KernelRequestOptions['fetch']>>>;
    let text: string;
    try {
      res = await doFetch(base + path, {
        method: 'POST',
        headers,
        body: JSON.stringify(body ?? {}),
      });
      text = await res.text();
    } catch (e) {
      // Nothing answered: say where it was asked, and what to check.
      const why = connectFailure(e);
      const detail = why ? say(why) : innermostMessage(e);
      throw new EditkitError(
        { code: 'HOST_ERROR', message: say('unreachable', where, detail), subject: path },
        { cause: e },
      );
    }
    // The kernel refuses a missing or wrong token with 401 (its JSON body
    // says only "Auth failed").
    if (res.status === 401 || res.status === 403)
      throw new SiyuanApiError(path, Number.NaN, say('unauthorized', where, String(res.status)));
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // "HTTP 404" stays in the words: an older kernel's missing endpoint.
      const flat = text.replace(/\s+/g, ' ').trim();
      const start = flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
      throw new SiyuanApiError(
        path,
        Number.NaN,
        say('notJson', where, String(res.status), start ? JSON.stringify(start) : '—'),
      );
    }
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An insert's anchor: exactly one of previousID, nextID, parentID, a block id. */
function anchorOf(anchor: unknown): ['previousID' | 'nextID' | 'parentID', string] {
  if (!isRecord(anchor))
    throw invalid('adapter', 'insertBlock: anchor must be {previousID} | {nextID} | {parentID}');
  const keys = (['previousID', 'nextID', 'parentID'] as const).filter(
    (k) => anchor[k] !== undefined,
  );
  if (keys.length !== 1)
    throw invalid(
      'adapter',
      'insertBlock: the anchor must name exactly one of previousID, nextID, parentID',
    );
  const key = keys[0]!;
  return [key, checkId(anchor[key], key)];
}

/** The items of a batch call, each checked by `read`. */
function itemsOf<I, T>(items: unknown, read: (item: I) => T): T[] {
  if (!Array.isArray(items)) throw invalid('adapter', 'a batch call takes an array of items');
  return items.map((item) => {
    if (!isRecord(item)) throw invalid('adapter', 'each item of a batch call is an object');
    return read(item as I);
  });
}

/** The one-block insert's "no id" answer: in a batch, an item not inserted (`[]`). */
function emptyAnswer(e: unknown): boolean {
  return e instanceof SiyuanApiError && e.kernelCode === 0;
}

/** One write operation as the kernel echoes it in `doOperations`. */
interface Operation {
  action?: string;
  id?: string;
  data?: unknown;
  parentID?: string;
  previousID?: string;
  nextID?: string;
}

/** Implements every editkit host callback over the kernel API. */
export function createSiyuanHost(options: SiyuanHostOptions): SiyuanKernelHost {
  const o = readOptions(
    options,
    ['request', 'flush', 'batchSize', 'timeoutMs', 'lute', 'batch'] as const,
    'options',
  );
  if (typeof o.request !== 'function')
    throw invalid('adapter', 'createSiyuanHost: options.request must be a function');
  const request = o.request as KernelRequest;
  const flushMode = (o.flush ?? 'auto') as NonNullable<SiyuanHostOptions['flush']>;
  const size =
    typeof o.batchSize === 'number' && Number.isFinite(o.batchSize)
      ? o.batchSize
      : SQL_IDS_PER_STATEMENT;
  const batch = Math.max(1, Math.min(MAX_SQL_IDS_PER_STATEMENT, Math.floor(size)));
  /** The kernel serves the batch endpoints (until one answers 404: an older kernel). */
  const batched = { reads: true, writes: o.batch !== false };
  const timeoutMs =
    typeof o.timeoutMs === 'number' && Number.isFinite(o.timeoutMs) && o.timeoutMs > 0
      ? o.timeoutMs
      : DEFAULT_TIMEOUT_MS;
  const lute = luteOf(o.lute ?? (globalThis as { Lute?: unknown }).Lute);
  /** A write went out since the last flush. */
  let unflushed = false;
  /** Block types seen in rows this host fetched (for the list cases of append/prepend). */
  const typeCache = new Map<string, string>();

  async function call<T = unknown>(path: string, body: Record<string, unknown>): Promise<T> {
    let answer: unknown;
    try {
      answer = await settleWithin(() => request(path, body), timeoutMs, path);
    } catch (e) {
      if ((e as { timeout?: unknown }).timeout === true)
        throw new EditkitError({
          code: 'HOST_TIMEOUT',
          message: `SiYuan kernel ${path} did not answer within ${timeoutMs} ms`,
          subject: path,
        });
      throw e;
    }
    if (!isRecord(answer) || typeof answer.code !== 'number') {
      throw new SiyuanApiError(path, Number.NaN, 'the answer is not {code, msg, data}');
    }
    const res = answer as unknown as KernelResponse<T>;
    if (res.code !== 0)
      throw new SiyuanApiError(
        path,
        res.code,
        typeof res.msg === 'string' ? res.msg : String(res.msg),
      );
    return res.data;
  }

  async function flush(): Promise<void> {
    await call('/api/sqlite/flushTransaction', {});
    unflushed = false;
  }

  /** Flushes before a SQL read when the mode asks; says whether it did. */
  async function beforeSql(): Promise<boolean> {
    if (flushMode === 'always' || (flushMode === 'auto' && unflushed)) {
      await flush();
      return true;
    }
    return false;
  }

  async function write(path: string, body: Record<string, unknown>): Promise<unknown> {
    unflushed = true;
    return call(path, body);
  }

  /**
   * Rows of `ids` (validated, unique), in chunks that state their LIMIT.
   * The blocks table can hold a block more than once: a document made by
   * `createDocWithMd`, or reloaded with a repair, is indexed by an insert
   * that deletes nothing (kernel `sql/upsert.go` `indexTree`; seen live on
   * v3.7.3: every block of a new document twice), and the copies stay until
   * the block's text changes. So a chunk's LIMIT leaves room for copies,
   * the first row of an id is kept, and ids a full answer left out are
   * asked for again on their own.
   *
   * A block another writer made (the editor, another plugin, a document
   * just created) is in the tree at once but in the blocks table only
   * after the kernel's next SQL flush, up to ~3 s later (KERNEL-FACTS §1;
   * seen live: getBlockContent of a paragraph 1.5 s old answered
   * BLOCK_NOT_FOUND). So ids not found are asked for once more after a
   * flush, unless the read flushed already or the mode is `never`.
   */
  async function fetchRows(ids: string[]): Promise<Map<string, Block>> {
    const found = new Map<string, Block>();
    const unique = [...new Set(ids)];
    if (unique.length === 0) return found;
    const flushed = await beforeSql();
    const select = async (chunk: string[], limit: number): Promise<number> => {
      const stmt = `SELECT * FROM blocks WHERE id IN (${chunk.map((id) => `'${id}'`).join(', ')}) LIMIT ${limit}`;
      const rows = await call<unknown>('/api/query/sql', { stmt });
      if (rows === null || rows === undefined) return 0;
      if (!Array.isArray(rows))
        throw new SiyuanApiError('/api/query/sql', Number.NaN, 'data is not an array of rows');
      for (const row of rows) {
        if (isRecord(row) && typeof row.id === 'string' && !found.has(row.id)) {
          found.set(row.id, row as Block);
          if (typeof row.type === 'string') typeCache.set(row.id, row.type);
        }
      }
      return rows.length;
    };
    const selectAll = async (wanted: string[]): Promise<void> => {
      for (let i = 0; i < wanted.length; i += batch) {
        const chunk = wanted.slice(i, i + batch);
        const limit = chunk.length * ROW_COPIES;
        if ((await select(chunk, limit)) < limit) continue;
        for (const id of chunk) if (!found.has(id)) await select([id], ROW_COPIES);
      }
    };
    await selectAll(unique);
    const missing = unique.filter((id) => !found.has(id));
    if (missing.length > 0 && !flushed && flushMode !== 'never') {
      await flush();
      await selectAll(missing);
    }
    return found;
  }

  async function blockType(id: string): Promise<string | undefined> {
    const cached = typeCache.get(id);
    if (cached !== undefined) return cached;
    return (await fetchRows([id])).get(id)?.type;
  }

  /** The ids a write created, from its `doOperations`. */
  function operations(data: unknown): Operation[] {
    const ops: Operation[] = [];
    for (const tx of Array.isArray(data) ? data : []) {
      if (!isRecord(tx) || !Array.isArray(tx.doOperations)) continue;
      for (const op of tx.doOperations) if (isRecord(op)) ops.push(op as Operation);
    }
    return ops;
  }

  /**
   * New block ids of an insert. The kernel reports the first inserted node's
   * id. Appending or prepending list markdown into a list moves the parsed
   * list's items into the target list, so the reported id is the id of a
   * list that was never inserted: the items' ids, read from the operation's
   * block DOM, are what was created.
   */
  async function insertedIds(path: string, data: unknown, intoParent?: string): Promise<string[]> {
    const ids = await idsOf(operations(data), intoParent);
    if (ids.length === 0) {
      throw new SiyuanApiError(
        path,
        0,
        'the kernel reported no inserted block (doOperations carries no id); the anchor may not exist',
      );
    }
    return ids;
  }

  /** The ids the operations of one insert transaction created (`[]`: none). */
  async function idsOf(ops: Operation[], intoParent?: string): Promise<string[]> {
    const ids: string[] = [];
    for (const op of ops) {
      if (typeof op.id !== 'string' || op.id === '') continue;
      let done = false;
      if (intoParent !== undefined && typeof op.data === 'string') {
        const top = childBlocks(parseDom(op.data));
        const first = top[0];
        if (
          first &&
          attr(first, 'data-node-id') === op.id &&
          attr(first, 'data-type') === 'NodeList' &&
          (await blockType(intoParent)) === 'l'
        ) {
          const items = childBlocks(first.children).filter(
            (el) => attr(el, 'data-type') === 'NodeListItem',
          );
          for (const li of items) {
            const liId = attr(li, 'data-node-id');
            if (liId) ids.push(liId);
          }
          done = items.length > 0;
        }
      }
      if (!done) ids.push(op.id);
    }
    return ids;
  }

  /**
   * One batch write: the batch endpoint when the kernel has it, else (an
   * older kernel answered 404; remembered) `each` item through the
   * one-block endpoint. Returns the transactions the kernel answered.
   */
  async function batchWrite<T>(
    path: string,
    items: T[],
    body: (item: T) => Record<string, unknown>,
    each: (item: T) => Promise<unknown>,
  ): Promise<unknown[] | undefined> {
    if (batched.writes) {
      try {
        const data = await write(path, { blocks: items.map(body) });
        return Array.isArray(data) ? data : [];
      } catch (e) {
        if (!missingEndpoint(e)) throw e;
        batched.writes = false;
      }
    }
    for (const item of items) await each(item);
    return undefined;
  }

  /** Per item, the ids an insert batch created (`[]` where the kernel inserted nothing). */
  async function batchIds<T>(
    path: string,
    items: T[],
    body: (item: T) => Record<string, unknown>,
    one: (item: T) => Promise<string[]>,
    parentOf: (item: T) => string | undefined,
  ): Promise<string[][]> {
    const fallback: string[][] = [];
    const txs = await batchWrite(path, items, body, async (item) => {
      fallback.push(
        await one(item).catch((e: unknown) => (emptyAnswer(e) ? [] : Promise.reject(e))),
      );
    });
    if (txs === undefined) return fallback;
    const out: string[][] = [];
    for (const [i, item] of items.entries()) {
      const tx = txs[i];
      const ops = isRecord(tx) && Array.isArray(tx.doOperations) ? tx.doOperations : [];
      out.push(await idsOf(ops.filter(isRecord) as Operation[], parentOf(item)));
    }
    return out;
  }

  async function updateOne(id: unknown, markdown: unknown): Promise<void> {
    checkId(id);
    await write('/api/block/updateBlock', { dataType: 'markdown', data: String(markdown), id });
  }

  async function insertOne(markdown: unknown, anchor: unknown): Promise<string[]> {
    const [key, target] = anchorOf(anchor);
    const data = await write('/api/block/insertBlock', {
      dataType: 'markdown',
      data: String(markdown),
      [key]: target,
    });
    return insertedIds('/api/block/insertBlock', data);
  }

  async function intoOne(path: string, parentID: unknown, markdown: unknown): Promise<string[]> {
    checkId(parentID, 'parentID');
    const data = await write(path, { dataType: 'markdown', data: String(markdown), parentID });
    return insertedIds(path, data, parentID as string);
  }

  /** The batch writes (the kernel's batch endpoints, one request each). */
  function batchCallbacks(): Pick<
    SiyuanKernelHost,
    'updateBlocks' | 'insertBlocks' | 'prependBlocks' | 'appendBlocks'
  > {
    type Into = { parentID: string; markdown: string };
    const into = (path: string, one: string) => async (items: Into[]) => {
      const list = itemsOf<Into, Into>(items, (i) => ({
        parentID: checkId(i.parentID, 'parentID'),
        markdown: String(i.markdown),
      }));
      return batchIds(
        path,
        list,
        (i) => ({ dataType: 'markdown', data: i.markdown, parentID: i.parentID }),
        (i) => intoOne(one, i.parentID, i.markdown),
        (i) => i.parentID,
      );
    };
    return {
      async updateBlocks(items) {
        type Update = { id: string; markdown: string };
        const list = itemsOf<Update, Update>(items, (i) => ({
          id: checkId(i.id),
          markdown: String(i.markdown),
        }));
        if (list.length === 0) return;
        await batchWrite(
          '/api/block/batchUpdateBlock',
          list,
          (i) => ({ id: i.id, dataType: 'markdown', data: i.markdown }),
          (i) => updateOne(i.id, i.markdown),
        );
      },
      async insertBlocks(items) {
        type Insert = { markdown: string; anchor: InsertAnchor };
        const list = itemsOf<Insert, { markdown: string; anchor: ReturnType<typeof anchorOf> }>(
          items,
          (i) => ({ markdown: String(i.markdown), anchor: anchorOf(i.anchor) }),
        );
        return batchIds(
          '/api/block/batchInsertBlock',
          list,
          (i) => ({ dataType: 'markdown', data: i.markdown, [i.anchor[0]]: i.anchor[1] }),
          (i) => insertOne(i.markdown, { [i.anchor[0]]: i.anchor[1] }),
          () => undefined,
        );
      },
      prependBlocks: into('/api/block/batchPrependBlock', '/api/block/prependBlock'),
      appendBlocks: into('/api/block/batchAppendBlock', '/api/block/appendBlock'),
    };
  }

  let version: Promise<string> | undefined;
  const host: SiyuanKernelHost = {
    request,

    async getBlocks(ids) {
      const valid = checkIds(ids);
      const rows = await fetchRows(valid);
      return valid.map((id) => rows.get(id) ?? null);
    },

    // One statement per request: `/api/query/sql` runs only the first
    // statement of a request, `mode: "multiple"` included (KERNEL-FACTS
    // §13; confirmed live on v3.7.3). The statement (`referencedIdsSql`)
    // asks the refs table for block refs and exact-id embeds, and the
    // leaves that hold a `siyuan://blocks/` link, an embed query or a
    // callout title for the rest, which the refs table never lists (§11).
    async getReferencedIds(ids) {
      const valid = [...new Set(checkIds(ids))];
      const found = new Set<string>();
      if (valid.length === 0) return [];
      await beforeSql();
      for (let i = 0; i < valid.length; i += REFERENCE_CHUNK) {
        const chunk = valid.slice(i, i + REFERENCE_CHUNK);
        const rows = await call<unknown>('/api/query/sql', { stmt: referencedIdsSql(chunk) });
        const answered = Array.isArray(rows) ? rows.filter(isRecord) : [];
        // The kernel answers a statement that fails while it runs with
        // `code 0` and no rows: the sentinel row says it ran.
        if (!answered.some((row) => row.id === ''))
          throw new SiyuanApiError(
            '/api/query/sql',
            Number.NaN,
            'the reference query did not run (no sentinel row): cannot tell which blocks are referenced',
          );
        for (const row of answered)
          if (typeof row.id === 'string' && chunk.includes(row.id)) found.add(row.id);
      }
      return [...found];
    },

    async getKernelVersion() {
      // A running kernel's version does not change: asked once per host
      // (again after a failed ask).
      if (!version) {
        version = call<unknown>('/api/system/version', {}).then((v) => {
          if (typeof v !== 'string')
            throw new SiyuanApiError('/api/system/version', Number.NaN, 'data is not a version');
          return v;
        });
        version.catch(() => {
          version = undefined;
        });
      }
      return version;
    },

    async getChildBlocks(ids) {
      const valid = checkIds(ids);
      const out: ChildBlock[][] = [];
      for (const id of valid) {
        const data = await call<unknown>('/api/block/getChildBlocks', { id });
        out.push(Array.isArray(data) ? (data.filter(isRecord) as unknown as ChildBlock[]) : []);
      }
      return out;
    },

    async getKramdown(ids) {
      const valid = checkIds(ids);
      if (batched.reads && valid.length > 0) {
        try {
          // One request (`getBlockKramdowns`, v3.5.3+): `{id: kramdown}`.
          const data = await call<unknown>('/api/block/getBlockKramdowns', {
            ids: valid,
            mode: 'md',
          });
          const map = isRecord(data) ? data : {};
          return valid.map((id) => {
            const k = map[id];
            return typeof k === 'string' && k !== '' ? k : null;
          });
        } catch (e) {
          if (!missingEndpoint(e)) throw e;
          batched.reads = false;
        }
      }
      const out: (string | null)[] = [];
      for (const id of valid) {
        const data = await call<unknown>('/api/block/getBlockKramdown', { id, mode: 'md' });
        const k = isRecord(data) && typeof data.kramdown === 'string' ? data.kramdown : '';
        // The kernel answers an empty kramdown for an id it does not know.
        out.push(k === '' ? null : k);
      }
      return out;
    },

    async updateBlock(id, markdown) {
      await updateOne(id, markdown);
    },

    async deleteBlock(id) {
      checkId(id);
      await write('/api/block/deleteBlock', { id });
    },

    async insertBlock(markdown, anchor: InsertAnchor) {
      return insertOne(markdown, anchor);
    },

    async prependBlock(parentID, markdown) {
      return intoOne('/api/block/prependBlock', parentID, markdown);
    },

    async appendBlock(parentID, markdown) {
      return intoOne('/api/block/appendBlock', parentID, markdown);
    },

    async flushTransaction() {
      await flush();
    },

    ...(o.batch === false ? {} : batchCallbacks()),

    async getBreadcrumb(ids) {
      const valid = checkIds(ids);
      const out: BreadcrumbEntry[][] = [];
      for (const id of valid) {
        try {
          // The kernel answers code 0 and `[]` for an unknown id (KERNEL-FACTS §8).
          const data = await call<unknown>('/api/block/getBlockBreadcrumb', {
            id,
            excludeTypes: [],
          });
          out.push(
            Array.isArray(data) ? (data.filter(isRecord) as unknown as BreadcrumbEntry[]) : [],
          );
        } catch (e) {
          // Older kernels answered code -1 "block not found".
          if (e instanceof SiyuanApiError && /not found/i.test(e.msg)) out.push([]);
          else throw e;
        }
      }
      return out;
    },

    async getDocHeadings(docIds) {
      const valid = checkIds(docIds);
      const out: Block[][] = [];
      for (const id of valid) {
        const data = await call<unknown>('/api/outline/getDocOutline', { id });
        const rows: Block[] = [];
        // Pre-order over the nested outline is document order.
        const walk = (items: unknown): void => {
          if (!Array.isArray(items)) return;
          for (const item of items) {
            if (!isRecord(item) || !isBlockId(item.id)) continue;
            const subtype = typeof item.subType === 'string' ? item.subType : '';
            // A nested entry's `name` is "" and its text is `content`
            // (live v3.7.3): the first of the two that says something.
            const name =
              [item.name, item.content].find(
                (v): v is string => typeof v === 'string' && v !== '',
              ) ?? '';
            const level = Number(subtype.slice(1)) || 1;
            rows.push({
              id: item.id,
              type: 'h',
              subtype,
              content: name,
              markdown: `${'#'.repeat(level)} ${name}`,
              root_id: id,
            });
            walk(item.blocks ?? item.children);
          }
        };
        walk(data);
        out.push(rows);
      }
      return out;
    },

    async createDoc(args: CreateDocArgs) {
      if (!isRecord(args))
        throw invalid('adapter', 'createDoc: expected { notebook, path, markdown, parentID? }');
      const notebook = checkId(args.notebook, 'notebook id');
      const path = String(args.path ?? '');
      if (!path.startsWith('/'))
        throw invalid(
          'adapter',
          `createDoc: path must be a human-readable path starting with "/", got ${JSON.stringify(path)}`,
        );
      const body: Record<string, unknown> = {
        notebook,
        path,
        markdown: String(args.markdown ?? ''),
      };
      if (args.parentID !== undefined && args.parentID !== '')
        body.parentID = checkId(args.parentID, 'parentID');
      const data = await write('/api/filetree/createDocWithMd', body);
      if (!isBlockId(data))
        throw new SiyuanApiError(
          '/api/filetree/createDocWithMd',
          0,
          `expected the new document id, got ${JSON.stringify(data)}`,
        );
      return data;
    },

    async createDailyNote(args: CreateDailyNoteArgs) {
      if (!isRecord(args)) throw invalid('adapter', 'createDailyNote: expected { notebook }');
      const notebook = checkId(args.notebook, 'notebook id');
      const data = await write('/api/filetree/createDailyNote', { notebook });
      const id = isRecord(data) ? data.id : data;
      if (!isBlockId(id))
        throw new SiyuanApiError(
          '/api/filetree/createDailyNote',
          0,
          `expected {id} of the daily note, got ${JSON.stringify(data)}`,
        );
      return id;
    },
  };
  if (lute) {
    host.splitMarkdown = async (markdown: string) => splitWithLute(lute, String(markdown));
  }
  return host;
}

/** A Lute engine configured like the kernel's, from a `Lute` global or an engine. */
function luteOf(value: unknown): LuteEngine | undefined {
  if (typeof value !== 'object' && typeof value !== 'function') return undefined;
  if (value === null) return undefined;
  const v = value as { New?: unknown; Md2BlockDOM?: unknown };
  if (typeof v.New !== 'function' && typeof v.Md2BlockDOM !== 'function') return undefined;
  try {
    return kernelLute(value as LuteNamespace | LuteEngine);
  } catch {
    return undefined;
  }
}

/** The top-level blocks of markdown as Lute reads them, each in Lute's standard Markdown. */
function splitWithLute(lute: LuteEngine, markdown: string): string[] {
  const dom = lute.Md2BlockDOM(markdown);
  return childBlocks(parseDom(dom)).map((el) =>
    lute.BlockDOM2StdMd(dom.slice(el.start, el.end)).replace(/\n+$/, ''),
  );
}

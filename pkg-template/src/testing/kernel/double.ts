// An in-memory SiYuan kernel that behaves like the real one where editkit's
// safety depends on it: `shared/KERNEL-FACTS.md` is its specification (the
// section each behaviour follows is named where it is implemented). It
// serves the kernel HTTP endpoints (`request(path, body) → {code, msg,
// data}`) so `createSiyuanHost` — and editkit through it — is tested end to
// end without SiYuan, and it gives tests the levers of the real world: a
// clock the SQL view lags behind, a concurrent editor, write transactions
// that fail after answering `code 0`.
//
// What it does not emulate is listed in docs/KERNEL-DOUBLE.md.

import type { Block, KernelResponse } from '../../types.js';
import type { LuteEngine, LuteNamespace } from '../lute.js';
import {
  createDailyNote,
  createDocWithMd,
  loadDocumentRow,
  loadFixture,
  loadMarkdownDocument,
} from './filetree.js';
import type { FixtureDocument, MarkdownDocument } from './filetree.js';
import { ID_RE, KernelFailure } from './model.js';
import { blockKramdown, breadcrumb, childBlocks, outline } from './reads.js';
import { kramdownOf, rowOf } from './render.js';
import { runSql } from './sql.js';
import { KernelState } from './state.js';
import type { KernelNotebook } from './state.js';
import { deleteBlock, insertBlock, intoBlock, MSG, updateBlock } from './writes.js';
import type { PreparedWrite } from './writes.js';

export type { KernelNotebook } from './state.js';

export interface KernelDoubleOptions {
  /** Documents as the shared fixtures ship them (rows, tree, kramdown). */
  fixtures?: FixtureDocument[];
  /** Documents given as markdown blocks (parsed with Lute). */
  documents?: MarkdownDocument[];
  /** Document rows without a body (e.g. the parents in `notebook-index.json`): loaded as empty documents unless already loaded. */
  documentRows?: Block[];
  /** Notebooks (default: those named by the fixtures, else one per `box` seen). */
  notebooks?: KernelNotebook[];
  /** Lute: the `Lute` global of `lute.min.js` or an engine; default `globalThis.Lute`. Needed for every write and for `documents`. */
  lute?: LuteNamespace | LuteEngine;
  /** Where the double's clock starts (default 2099-01-01T00:00:00Z). It moves only with `clock.advance`. */
  now?: () => Date;
  /** The SQL flush timer's interval in ms (default 3,000, the kernel's `SQLFlushInterval`; KERNEL-FACTS §1). */
  sqlLagMs?: number;
  /** The user's search limit: the implicit `LIMIT` of a statement without one (default 64; KERNEL-FACTS §7). */
  searchLimit?: number;
  /** Dates and ids in UTC (default true, so tests read the same on every machine; the kernel uses local time). */
  utc?: boolean;
  /**
   * Seeds the double's randomness (default 1): attribute order on every
   * read and indexing, `custom-*` order on writes, the ids a load gives
   * duplicates (KERNEL-FACTS §9, §11). The same seed replays the same run.
   */
  seed?: number;
}

/** A recorded request. */
export interface KernelCall {
  path: string;
  body: Record<string, unknown>;
  response: KernelResponse;
}

/** A change made as the SiYuan editor or another plugin would: straight to the tree, no request recorded. */
export interface KernelEditor {
  updateBlock(id: string, markdown: string): void;
  insertBlock(
    markdown: string,
    anchor: { previousID?: string; nextID?: string; parentID?: string },
  ): string[];
  deleteBlock(id: string): void;
  /** Sets (or, with `""`, removes) attributes of a block, as `/api/attr/setBlockAttrs` does. */
  setAttrs(id: string, attrs: Record<string, string>): void;
}

export interface KernelDouble {
  /** The seed of the double's randomness. */
  readonly seed: number;
  /** Serves one kernel API request (the body and the answer are JSON-copied, as over HTTP). */
  request(path: string, body?: Record<string, unknown>): Promise<KernelResponse>;
  /** Every request served, in order. */
  readonly calls: KernelCall[];
  /** The double's clock: the SQL view catches up when it passes the next 3-second tick. */
  readonly clock: { now(): Date; advance(ms: number): void };
  /** A concurrent writer (the user typing in the editor). */
  readonly editor: KernelEditor;
  /** Makes the SQL view catch up with every write (what `/api/sqlite/flushTransaction` does). */
  flush(): void;
  /** Answers the next request to `path` with this non-zero code (an argument check failing, once). */
  failNext(path: string, code?: number, msg?: string): void;
  /** The next write transaction to `path` (any write when omitted) fails in the kernel's queue: answered `code 0`, not applied (KERNEL-FACTS §2). */
  failNextTransaction(path?: string, msg?: string): void;
  /** Errors of failed transactions (what the kernel pushes to the UI, `util.PushTxErr`). */
  readonly txErrors: string[];
  /** The kramdown of a block now (tree view), or null. */
  kramdown(id: string): string | null;
  /** The row of a block computed from the tree now, or undefined. */
  block(id: string): Block | undefined;
  /** The row `/api/query/sql` would return now, or undefined. */
  indexedBlock(id: string): Block | undefined;
  /** (id, type, markdown) of every block of a document, pre-order. */
  snapshot(docId: string): { id: string; type: string; markdown: string }[];
  /** Ids of a document's top-level blocks, in order. */
  topLevel(docId: string): string[];
  /** How many blocks carry this id (more than one after a duplicate was written, KERNEL-FACTS §5). */
  countId(id: string): number;
  /** Ids of every document. */
  documentIds(): string[];
}

const WRITES = new Set([
  '/api/block/updateBlock',
  '/api/block/insertBlock',
  '/api/block/prependBlock',
  '/api/block/appendBlock',
  '/api/block/deleteBlock',
]);

export function createKernelDouble(options: KernelDoubleOptions = {}): KernelDouble {
  const start = options.now?.() ?? new Date(Date.UTC(2099, 0, 1));
  const seed = options.seed ?? 1;
  const k = new KernelState(
    options.lute ?? (globalThis as { Lute?: LuteNamespace }).Lute,
    start,
    options.sqlLagMs ?? 3000,
    options.searchLimit ?? 64,
    options.utc ?? true,
    seed,
  );
  for (const nb of options.notebooks ?? []) k.notebooks.set(nb.id, { ...nb });
  const calls: KernelCall[] = [];
  const failures = new Map<string, { code: number; msg: string }>();
  const txFailures: { path?: string; msg: string }[] = [];
  const txErrors: string[] = [];

  for (const f of options.fixtures ?? []) loadFixture(k, f);
  for (const m of options.documents ?? []) loadMarkdownDocument(k, m);
  for (const r of options.documentRows ?? []) loadDocumentRow(k, r);

  function need(body: Record<string, unknown>, key: string): string {
    const v = body[key];
    if (typeof v !== 'string') throw new KernelFailure(-1, `missing string argument [${key}]`);
    return v;
  }

  function needId(body: Record<string, unknown>, key: string): string {
    const v = need(body, key);
    if (!ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
    return v;
  }

  function optId(body: Record<string, unknown>, key: string): string {
    const v = body[key];
    if (v === undefined || v === null || v === '') return '';
    if (typeof v !== 'string' || !ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
    return v;
  }

  function markdownArg(body: Record<string, unknown>): string {
    const dataType = body.dataType;
    if (dataType !== 'markdown')
      throw new KernelFailure(
        -1,
        `the kernel double accepts dataType "markdown" only (got ${JSON.stringify(dataType)})`,
      );
    return need(body, 'data');
  }

  /** Commits a prepared write unless a queued failure was asked for. */
  function transact(path: string, write: PreparedWrite): unknown {
    const i = txFailures.findIndex((f) => f.path === undefined || f.path === path);
    if (i >= 0) {
      const [failure] = txFailures.splice(i, 1);
      txErrors.push(`${path}: ${failure!.msg}`);
      return write.data;
    }
    write.commit();
    return write.data;
  }

  const handlers: Record<string, (body: Record<string, unknown>) => unknown> = {
    '/api/query/sql': (body) => {
      const stmt = need(body, 'stmt');
      const statements = stmt
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
      if (statements.length > 1 && body.mode !== 'multiple')
        throw new KernelFailure(1, 'only one statement is allowed unless mode is "multiple"');
      const tables = k.tables();
      return statements.flatMap((s) => runSql(s, tables, k.searchLimit));
    },

    '/api/sqlite/flushTransaction': () => {
      k.catchUp(true);
      return null;
    },

    '/api/block/getChildBlocks': (body) => childBlocks(k, needId(body, 'id')),

    '/api/block/getBlockKramdown': (body) => {
      const id = needId(body, 'id');
      const mode = body.mode ?? 'md';
      if (mode !== 'md' && mode !== 'textmark') throw new KernelFailure(-1, 'Invalid mode');
      return blockKramdown(k, id);
    },

    '/api/outline/getDocOutline': (body) => {
      const doc = k.tree.find(needId(body, 'id'));
      if (!doc || doc.type !== 'd') return [];
      return outline(k, doc);
    },

    '/api/block/getBlockBreadcrumb': (body) => {
      const n = k.tree.find(needId(body, 'id'));
      return n ? breadcrumb(k, n) : [];
    },

    '/api/filetree/getHPathByID': (body) => {
      const n = k.tree.find(needId(body, 'id'));
      if (!n) throw new KernelFailure(-1, MSG.notFound);
      return k.tree.rootOf(n).doc?.hpath ?? '';
    },

    '/api/filetree/getIDsByHPath': (body) => {
      const path = need(body, 'path');
      const box = need(body, 'notebook');
      return [...k.tree.docs.values()]
        .filter((d) => d.doc?.box === box && d.doc.hpath === path)
        .map((d) => d.id);
    },

    '/api/block/updateBlock': (body) => {
      const id = needId(body, 'id');
      return transact('/api/block/updateBlock', updateBlock(k, id, markdownArg(body)));
    },

    '/api/block/deleteBlock': (body) =>
      transact('/api/block/deleteBlock', deleteBlock(k, needId(body, 'id'))),

    '/api/block/insertBlock': (body) =>
      transact(
        '/api/block/insertBlock',
        insertBlock(k, {
          md: markdownArg(body),
          parentID: optId(body, 'parentID'),
          previousID: optId(body, 'previousID'),
          nextID: optId(body, 'nextID'),
        }),
      ),

    '/api/block/prependBlock': (body) =>
      transact(
        '/api/block/prependBlock',
        intoBlock(k, needId(body, 'parentID'), markdownArg(body), true),
      ),

    '/api/block/appendBlock': (body) =>
      transact(
        '/api/block/appendBlock',
        intoBlock(k, needId(body, 'parentID'), markdownArg(body), false),
      ),

    '/api/filetree/createDocWithMd': (body) =>
      createDocWithMd(k, body, needId(body, 'notebook'), optId(body, 'id') || undefined),

    '/api/filetree/createDailyNote': (body) => createDailyNote(k, needId(body, 'notebook')),
  };

  function request(path: string, body: Record<string, unknown> = {}): Promise<KernelResponse> {
    const copy = JSON.parse(JSON.stringify(body ?? {})) as Record<string, unknown>;
    let response: KernelResponse;
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      response = { code: failure.code, msg: failure.msg, data: null };
    } else {
      k.catchUp(false);
      const handler = handlers[path];
      try {
        if (!handler) throw new KernelFailure(404, `the kernel double does not serve ${path}`);
        const data = handler(copy);
        response = { code: 0, msg: '', data: data === undefined ? null : data };
      } catch (e) {
        if (e instanceof KernelFailure) response = { code: e.code, msg: e.message, data: null };
        else throw e;
      }
    }
    const answer = JSON.parse(JSON.stringify(response)) as KernelResponse;
    calls.push({ path, body: copy, response: answer });
    return Promise.resolve(JSON.parse(JSON.stringify(answer)) as KernelResponse);
  }

  const editor: KernelEditor = {
    updateBlock(id, markdown) {
      updateBlock(k, id, markdown).commit();
    },
    insertBlock(markdown, anchor) {
      const w = insertBlock(k, {
        md: markdown,
        parentID: anchor.parentID ?? '',
        previousID: anchor.previousID ?? '',
        nextID: anchor.nextID ?? '',
      });
      w.commit();
      const tx = (w.data as { doOperations: { id: string }[] }[])[0];
      return (tx?.doOperations ?? []).map((op) => op.id);
    },
    deleteBlock(id) {
      deleteBlock(k, id).commit();
    },
    setAttrs(id, attrs) {
      const n = k.tree.find(id);
      if (!n) throw new Error(`setAttrs: no block ${id}`);
      for (const [key, v] of Object.entries(attrs)) {
        if (v === '') n.attrs.delete(key);
        else n.attrs.set(key, v);
      }
      n.attrs.set('updated', k.stamp());
      k.touch(n);
    },
  };

  return {
    seed,
    request,
    calls,
    clock: {
      now: () => k.now(),
      advance(ms) {
        k.clock += ms;
        k.catchUp(false);
      },
    },
    editor,
    flush: () => k.catchUp(true),
    failNext(path, code = -1, msg = 'simulated kernel failure') {
      failures.set(path, { code, msg });
    },
    failNextTransaction(path, msg = 'simulated transaction failure') {
      if (path !== undefined && !WRITES.has(path))
        throw new Error(`failNextTransaction: ${path} is not a write endpoint`);
      txFailures.push({ path, msg });
    },
    txErrors,
    kramdown: (id) => {
      const n = k.tree.find(id);
      return n ? kramdownOf(n) : null;
    },
    block: (id) => {
      const n = k.tree.find(id);
      return n ? rowOf(k, n) : undefined;
    },
    indexedBlock: (id) => k.indexedRow(id),
    snapshot(docId) {
      const d = k.tree.docs.get(docId);
      if (!d) return [];
      return k.tree.blocksOf(d).map((c) => ({
        id: c.id,
        type: c.type,
        markdown: rowOf(k, c).markdown ?? '',
      }));
    },
    topLevel: (docId) => (k.tree.docs.get(docId)?.children ?? []).map((c) => c.id),
    countId: (id) => k.tree.all(id).length,
    documentIds: () => [...k.tree.docs.keys()],
  };
}

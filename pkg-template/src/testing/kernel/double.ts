// An in-memory SiYuan kernel that behaves like the real one where editkit's
// safety depends on it: `shared/KERNEL-FACTS.md` is its specification (the
// section each behaviour follows is named where it is implemented). It
// serves the kernel HTTP endpoints (`request(path, body) → {code, msg,
// data}`) so `createSiyuanHost` — and editkit through it — is tested end to
// end without SiYuan, and it gives tests the levers of the real world: a
// clock the SQL view lags behind, a concurrent editor, write transactions
// that fail after answering `code 0`.
//
// It is pessimistic (KERNEL-FACTS revision 3): where the kernel is random
// (attribute order, the ids a load gives duplicates) it draws from a seeded
// PRNG, every read or write loads the document with the kernel's repairs
// (load.ts), and `deleteBlock` answers before its transaction runs
// (queue.ts), so that a test passes only when the engine is safe under
// every such behaviour. What it does not emulate is listed in
// docs/KERNEL-DOUBLE.md.

import type { Block, KernelResponse } from '../../types.js';
import type { LuteEngine, LuteNamespace } from '../lute.js';
import { blockAttrs } from './attrs.js';
import { addRows, bindTree } from './av.js';
import { endpoints, serve } from './endpoints.js';
import type { Body } from './endpoints.js';
import { loadDocumentRow, loadFixture, loadMarkdownDocument } from './filetree.js';
import type { FixtureDocument, MarkdownDocument } from './filetree.js';
import { insertBlock, intoBlock } from './inserts.js';
import { loadDocument, loadFor, saved } from './load.js';
import { TxQueue } from './queue.js';
import { goTrimSpace, kramdownOf, rowOf } from './render.js';
import { KernelState } from './state.js';
import type { KernelNotebook } from './state.js';
import { deleteBlock, TxFailure, updateBlock } from './writes.js';
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
  /**
   * `conf.export.paragraphBeginningSpace` (default false): a document's
   * kramdown read gets two U+3000 before each top-level paragraph but its
   * first block (reads.ts). `/api/setting/setExport` changes it.
   */
  paragraphBeginningSpace?: boolean;
  /**
   * The kernel's Lute decodes an HTML block's entities once more at every
   * DOM → tree pass (default true: v3.7.3, Lute fa5fee40; false:
   * v3.7.4-alpha.1, Lute a361448d, which stores them as written). parse.ts.
   */
  luteDecodesHtmlEntities?: boolean;
  /**
   * Serve the batch write endpoints of v3.7 (`batchUpdateBlock`,
   * `batchInsertBlock`, `batchPrependBlock`, `batchAppendBlock`; default
   * true). `false` is a kernel older than them: they answer 404.
   */
  batchEndpoints?: boolean;
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
  /** Sets (or, with `""`, removes) attributes of a block, as `/api/attr/setBlockAttrs` does (a `custom-avs` makes no database row). */
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
  /** The next write transaction to `path` (any write when omitted) fails in the kernel's queue: answered `code 0`, not applied (KERNEL-FACTS §2); a queued `deleteBlock` fails when it runs. */
  failNextTransaction(path?: string, msg?: string): void;
  /** Errors of failed transactions (what the kernel pushes to the UI as `txerr`, `util.PushTxErr`): `<request path>: <message>`. */
  readonly txErrors: string[];
  /**
   * The request paths that made the kernel reload every open window (the
   * websocket's `reloadui`, `util.ReloadUI`): an insert none of whose
   * anchors the block-id table has (KERNEL-FACTS §13; a stale anchor is a
   * `txErrors` entry instead).
   */
  readonly uiReloads: string[];
  /** The kramdown of a block now (tree view, each IAL in its stored order — the endpoint's is random — trimmed as the endpoint's; no read rewrite), or null. Side-effect free: no load. */
  kramdown(id: string): string | null;
  /** A block's attributes now (`id` and `updated` included), or undefined: compare attributes as a set. */
  attrs(id: string): Record<string, string> | undefined;
  /** The blocks a database (attribute view) lists in its block-key column (KERNEL-FACTS §9), in its order. */
  databaseRows(avId: string): string[];
  /**
   * Makes the blocks rows of a database, as a user does (confirmed live on
   * v3.7.3, report C §1: a database block appended to the first block's
   * document unless the database exists, `/api/av/renderAttributeView`,
   * `/api/av/addAttributeViewBlocks`): each block gets `custom-avs` at once
   * (saved, no transaction); the rows are listed in the reverse order of
   * `blockIds` after those already there. `/api/attr/setBlockAttrs` makes
   * no row. Returns the database block's id ("" when the database existed).
   */
  addDatabaseRows(avId: string, blockIds: string[]): string;
  /** The row of a block computed from the tree now, or undefined. */
  block(id: string): Block | undefined;
  /** The row `/api/query/sql` would return now, or undefined. */
  indexedBlock(id: string): Block | undefined;
  /** (id, type, markdown) of every block of a document, pre-order. */
  snapshot(docId: string): { id: string; type: string; markdown: string }[];
  /** Ids of a document's top-level blocks, in order. */
  topLevel(docId: string): string[];
  /**
   * How many rows the SQL `blocks` table has for this id after a flush (the
   * lever flushes, as the live harness does): two after a duplicate id was
   * written (KERNEL-FACTS §5); one for a folded section's restated copy
   * until a later save re-IDs it (§11); see `snapshot` for the tree.
   */
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
  '/api/block/batchUpdateBlock',
  '/api/block/batchInsertBlock',
  '/api/block/batchPrependBlock',
  '/api/block/batchAppendBlock',
]);

/** The documents as the kernel finds them at start: loaded once with repair, persisted, indexed. */
function boot(k: KernelState): void {
  for (const doc of k.tree.docs.values()) {
    loadDocument(k, doc);
    saved(k, doc.id);
    bindTree(k.databases, doc);
    k.indexDoc(doc.id);
  }
}

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
    {
      paragraphBeginningSpace: options.paragraphBeginningSpace ?? false,
      luteDecodesHtmlEntities: options.luteDecodesHtmlEntities ?? true,
    },
  );
  for (const nb of options.notebooks ?? []) k.notebooks.set(nb.id, { ...nb });
  const calls: KernelCall[] = [];
  const failures = new Map<string, { code: number; msg: string }>();
  const queue = new TxQueue(k);

  for (const f of options.fixtures ?? []) loadFixture(k, f);
  for (const m of options.documents ?? []) loadMarkdownDocument(k, m);
  for (const r of options.documentRows ?? []) loadDocumentRow(k, r);
  boot(k);

  const handlers = endpoints(k, queue, options.batchEndpoints ?? true);

  function request(path: string, body: Body = {}): Promise<KernelResponse> {
    const copy = JSON.parse(JSON.stringify(body ?? {})) as Body;
    let response: KernelResponse;
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      response = { code: failure.code, msg: failure.msg, data: null };
    } else {
      k.catchUp(false);
      response = serve(handlers, path, copy);
    }
    const answer = JSON.parse(JSON.stringify(response)) as KernelResponse;
    calls.push({ path, body: copy, response: answer });
    return Promise.resolve(JSON.parse(JSON.stringify(answer)) as KernelResponse);
  }

  return {
    seed,
    request,
    calls,
    clock: {
      now: () => k.now(),
      advance(ms) {
        k.clock += ms;
        queue.runDue(k.clock);
        k.catchUp(false);
      },
    },
    editor: editorOf(k, queue),
    flush() {
      queue.runAll();
      k.catchUp(true);
    },
    failNext(path, code = -1, msg = 'simulated kernel failure') {
      failures.set(path, { code, msg });
    },
    failNextTransaction(path, msg = 'simulated transaction failure') {
      if (path !== undefined && !WRITES.has(path))
        throw new Error(`failNextTransaction: ${path} is not a write endpoint`);
      queue.failNext(path, msg);
    },
    txErrors: queue.errors,
    uiReloads: k.uiReloads,
    addDatabaseRows(avId, blockIds) {
      queue.runAll();
      let dbBlock = '';
      if (!k.databases.has(avId)) {
        const first = blockIds.map((id) => k.tree.find(id)).find((n) => n !== undefined);
        const doc = first ? k.tree.rootOf(first) : undefined;
        if (doc?.type === 'd') {
          const md = `<div data-type="NodeAttributeView" data-av-id="${avId}" data-av-type="table"></div>`;
          const w = commitNow(k, queue, intoBlock(k, doc.id, md, false));
          const tx = (w.done() as { doOperations: { id: string }[] }[])[0];
          dbBlock = tx?.doOperations[0]?.id ?? '';
        }
      }
      addRows(k, avId, blockIds);
      return dbBlock;
    },
    countId(id) {
      queue.runAll();
      k.catchUp(true);
      return (k.tables().blocks ?? []).filter((r) => r.id === id).length;
    },
    ...levers(k),
  };
}

/** Commits an editor change at once (it is a transaction too: queued ones run first). */
function commitNow(k: KernelState, queue: TxQueue, w: PreparedWrite): PreparedWrite {
  queue.runAll();
  try {
    k.transaction(() => w.commit());
  } catch (e) {
    if (e instanceof TxFailure) throw new Error(`editor: ${e.message}`);
    throw e;
  }
  return w;
}

function editorOf(k: KernelState, queue: TxQueue): KernelEditor {
  return {
    updateBlock(id, markdown) {
      commitNow(k, queue, updateBlock(k, id, markdown));
    },
    insertBlock(markdown, anchor) {
      const w = insertBlock(k, {
        md: markdown,
        parentID: anchor.parentID ?? '',
        previousID: anchor.previousID ?? '',
        nextID: anchor.nextID ?? '',
      });
      commitNow(k, queue, w);
      const tx = (w.done() as { doOperations: { id: string }[] }[])[0];
      return (tx?.doOperations ?? []).map((op) => op.id);
    },
    deleteBlock(id) {
      commitNow(k, queue, deleteBlock(k, id));
    },
    setAttrs(id, attrs) {
      queue.runAll();
      const n = loadFor(k, id);
      if (!n) throw new Error(`setAttrs: no block ${id}`);
      for (const [key, v] of Object.entries(attrs)) {
        if (v === '') n.attrs.delete(key);
        else n.attrs.set(key, v);
      }
      n.attrs.set('updated', k.stamp());
      k.touch(n);
    },
  };
}

/** The test levers that read the double's state (no load, no randomness). */
function levers(k: KernelState) {
  return {
    kramdown: (id: string) => {
      const n = k.tree.find(id);
      return n ? goTrimSpace(kramdownOf(n)) : null;
    },
    attrs: (id: string) => {
      const n = k.tree.find(id);
      return n ? blockAttrs(n) : undefined;
    },
    databaseRows: (avId: string) => [...(k.databases.get(avId) ?? [])],
    block: (id: string) => {
      const n = k.tree.find(id);
      return n ? rowOf(k, n) : undefined;
    },
    indexedBlock: (id: string) => k.indexedRow(id),
    snapshot(docId: string) {
      const d = k.tree.docs.get(docId);
      if (!d) return [];
      return k.tree.blocksOf(d).map((c) => ({
        id: c.id,
        type: c.type,
        markdown: rowOf(k, c).markdown ?? '',
      }));
    },
    topLevel: (docId: string) => (k.tree.docs.get(docId)?.children ?? []).map((c) => c.id),
    documentIds: () => [...k.tree.docs.keys()],
  };
}

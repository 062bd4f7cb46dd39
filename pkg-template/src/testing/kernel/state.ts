// The double's state shared by its endpoint modules: the tree, the clock,
// id generation, Lute, and the SQL view that lags the tree.
//
// KERNEL-FACTS §1: edits reach the block tree at once (the kernel's ~50 ms
// transaction queue is not modelled) but reach the SQL `blocks` table only
// when the SQL flush timer fires (every 3,000 ms) or when
// `/api/sqlite/flushTransaction` is called. The double's clock is the
// test's: it moves only when the test moves it, so a read without a flush
// sees the old rows until the test lets time pass.

import type { Block } from '../../types.js';
import { EditkitError } from '../../errors.js';
import { kernelLute } from '../lute.js';
import type { LuteEngine, LuteNamespace } from '../lute.js';
import { parsePairs, shuffledIal } from './attrs.js';
import { refreshAnchors } from './anchors.js';
import type { Databases } from './av.js';
import { fillEmpty, saved } from './load.js';
import type { LoadState } from './load.js';
import { stampOf } from './model.js';
import type { DNode } from './model.js';
import type { ParseContext } from './parse.js';
import { Random } from './random.js';
import { refsOf } from './refs.js';
import { invalidate, rowOf } from './render.js';
import type { Renderer } from './render.js';
import type { Row } from './sql.js';
import { Tree } from './tree.js';

/** A notebook the double knows. */
export interface KernelNotebook {
  id: string;
  name: string;
  /**
   * The notebook's daily-note save path (a Go template; `{{now | date
   * "2006-01-02"}}` style placeholders). Default: SiYuan's
   * `/daily note/{{now | date "2006/01"}}/{{now | date "2006-01-02"}}`.
   */
  dailyNoteSavePath?: string;
  /** Markdown a new daily note starts with (the daily-note template's content). */
  dailyNoteTemplate?: string;
}

/**
 * The kernel settings the double reads (`conf.json`; `/api/system/getConf`,
 * `/api/setting/setExport`).
 */
export interface KernelSettings {
  /** `conf.export.paragraphBeginningSpace` (default false; reads.ts). */
  paragraphBeginningSpace: boolean;
  /**
   * Whether the kernel's Lute decodes an HTML block's entities once more at
   * every DOM → tree pass: true for v3.7.3 (Lute fa5fee40, `protyle.go`
   * `genASTByBlockDOM`: `html.UnescapeHTMLStr` of the already decoded
   * `data-content`), false for v3.7.4-alpha.1 (Lute a361448d drops that
   * call). parse.ts.
   */
  luteDecodesHtmlEntities: boolean;
}

/**
 * A transaction while it runs (kernel `model.Transaction`): the documents it
 * loaded — each once, as the kernel keeps `tx.trees` — as they were saved
 * before it, the documents it changed, and the blocks it wrote (`tx.nodes`,
 * whose dynamic anchors are refreshed at commit: anchors.ts).
 */
export interface Transaction {
  loaded: Map<string, DocSnapshot>;
  touched: Set<string>;
  nodes: DNode[];
}

/** A document as saved, to put back when its transaction rolls back. */
interface DocSnapshot {
  doc: DNode;
  load: { dirty: boolean; volatile: DNode[] };
}

export const DEFAULT_DAILY_NOTE_PATH =
  '/daily note/{{now | date "2006/01"}}/{{now | date "2006-01-02"}}';

export class KernelState implements Renderer, ParseContext {
  readonly tree = new Tree();
  readonly notebooks = new Map<string, KernelNotebook>();
  /** Milliseconds since the epoch, moved by the test. */
  clock: number;
  private readonly clockStart: number;
  private counter = 0;
  private engine: LuteEngine | undefined;
  /** Rows the SQL view serves, by document, in index order. */
  private readonly indexed = new Map<string, Block[]>();
  /** The `refs` rows of each indexed document. */
  private readonly indexedRefs = new Map<string, Row[]>();
  /** The seeded randomness (random.ts). */
  readonly rand: Random;
  /** What each document's next load has to do (load.ts). */
  readonly loads = new Map<string, LoadState>();
  /** Each database's block-key column (av.ts). */
  readonly databases: Databases = new Map();
  /**
   * Documents written since their last indexing: the time the SQL timer
   * picks them up and their rows as written (the kernel queues the tree it
   * wrote, `sql.UpsertTreeQueue`: what a later load repairs in memory is
   * not indexed; a later save of the same document replaces it).
   */
  private readonly pending = new Map<string, { due: number; rows: Block[] }>();
  /** The transaction running now (queue.ts), or null. */
  tx: Transaction | null = null;
  /**
   * `treenode.DynamicRefTexts`: the anchor text the last refresh wrote for a
   * referenced block, by its id, for the kernel process's lifetime
   * (anchors.ts).
   */
  readonly dynamicRefTexts = new Map<string, string>();
  /** Request paths that made the kernel broadcast `reloadui` (`util.ReloadUI`, inserts.ts). */
  readonly uiReloads: string[] = [];
  /** `conf.export` as `/api/setting/setExport` last set it (endpoints.ts). */
  exportConf: Record<string, unknown> = {
    paragraphBeginningSpace: false,
    addTitle: true,
    blockRefMode: 4,
    blockEmbedMode: 1,
    blockRefTextLeft: '',
    blockRefTextRight: '',
    tagOpenMarker: '#',
    tagCloseMarker: '#',
    fileAnnotationRefMode: 0,
    pandocBin: '',
    pandocParams: '',
    docxTemplate: '',
    removeAssetsID: false,
    markdownYFM: false,
    inlineMemo: false,
    includeSubDocs: true,
    includeRelatedDocs: false,
  };

  constructor(
    private readonly luteSource: LuteNamespace | LuteEngine | undefined,
    start: Date,
    readonly sqlLagMs: number,
    readonly searchLimit: number,
    readonly utc: boolean,
    seed: number,
    readonly settings: KernelSettings = {
      paragraphBeginningSpace: false,
      luteDecodesHtmlEntities: true,
    },
  ) {
    this.rand = new Random(seed);
    this.clock = start.getTime();
    this.clockStart = this.clock;
  }

  lute(): LuteEngine {
    if (!this.engine) {
      if (!this.luteSource) {
        throw new EditkitError({
          code: 'INVALID_ARGUMENT',
          message:
            "createKernelDouble: SiYuan's Lute is needed to parse Markdown. Install it (npm install vditor) and pass { lute: loadLute(readFileSync(require.resolve('vditor/dist/js/lute/lute.min.js'), 'utf8'), require) }, or load lute.min.js with a script tag in a browser (window.Lute).",
          subject: 'lute',
        });
      }
      this.engine = sharedEngine(this.luteSource);
    }
    return this.engine;
  }

  now(): Date {
    return new Date(this.clock);
  }

  stamp(): string {
    return stampOf(this.now(), this.utc);
  }

  newId(): string {
    let id: string;
    do {
      this.counter += 1;
      id = `${this.stamp()}-${this.counter.toString(36).padStart(7, '0')}`;
    } while (this.tree.has(id));
    return id;
  }

  /**
   * Marks a node changed. In a transaction its document is saved when the
   * transaction commits (kernel `tx.commit` writes `tx.trees`); outside one
   * (setBlockAttrs, the editor's attributes, a new document) at once.
   */
  touch(n: DNode | null): void {
    invalidate(n);
    if (!n) return;
    const root = this.tree.rootOf(n);
    if (root.type !== 'd') return;
    if (this.tx) this.tx.touched.add(root.id);
    else this.save(root);
  }

  /**
   * Writes a document (`filesys.WriteTree` + `treenode.UpsertBlockTree`):
   * an empty one gets its paragraph first (kernel `prepareWriteTree`), every
   * id of it enters the block-id table (a save never removes one,
   * `treenode/blocktree.go:705-765`), and the SQL queue gets it.
   */
  save(root: DNode): void {
    fillEmpty(this, root);
    saved(this, root.id);
    this.tree.known.add(root.id);
    for (const n of this.tree.blocksOf(root)) this.tree.known.add(n.id);
    // The SQL flush timer fires every `sqlLagMs` from the double's start.
    const lag = Math.max(1, this.sqlLagMs);
    const ticks = Math.floor((this.clock - this.clockStart) / lag) + 1;
    const due = this.pending.get(root.id)?.due ?? this.clockStart + ticks * lag;
    this.pending.set(root.id, { due, rows: this.rowsOf(root) });
  }

  /**
   * Runs `commit` as one transaction (kernel `performTx`): every document it
   * loads is loaded once (load.ts) and remembered as saved; when `commit`
   * throws (a `TxFailure`: the kernel's `tx.rollback()`), those documents
   * are put back as saved — nothing of the transaction is written — while
   * what the kernel does outside the trees stays: ids its operations added
   * to or removed from the block-id table (`UpsertBlockTree` in `writeTree`,
   * `RemoveBlockTreesByIDs` in `doDelete`), database rows they removed
   * (`syncDelete2AvBlock` saves at once). Confirmed live on v3.7.3. When it
   * returns, the changed documents are saved and the dynamic anchors of
   * blocks that reference what it wrote are refreshed (`tx.commit`).
   */
  transaction(commit: () => void): void {
    const tx: Transaction = { loaded: new Map(), touched: new Set(), nodes: [] };
    const outer = this.tx;
    this.tx = tx;
    try {
      commit();
    } catch (e) {
      this.tx = outer;
      for (const [docId, snap] of tx.loaded) this.restore(docId, snap);
      throw e;
    }
    this.tx = outer;
    for (const docId of tx.touched) {
      const doc = this.tree.docs.get(docId);
      if (doc) this.touchSaved(doc);
    }
    refreshAnchors(this, tx.nodes);
  }

  /** A document a transaction changed, saved (or queued in the enclosing transaction). */
  private touchSaved(doc: DNode): void {
    if (this.tx) this.tx.touched.add(doc.id);
    else this.save(doc);
  }

  /** Remembers a document as saved, before a transaction's first load of it changes anything. */
  remember(doc: DNode, load: LoadState): void {
    const tx = this.tx;
    if (!tx || tx.loaded.has(doc.id)) return;
    const copies = new Map<DNode, DNode>();
    tx.loaded.set(doc.id, {
      doc: cloneNode(doc, null, copies),
      load: {
        dirty: load.dirty,
        volatile: [...load.volatile].map((n) => copies.get(n)).filter((n) => n !== undefined),
      },
    });
  }

  /** Puts a document back as it was saved (a rolled back transaction). */
  private restore(docId: string, snap: DocSnapshot): void {
    const live = this.tree.docs.get(docId);
    if (!live) return;
    for (const c of live.children) this.tree.unregister(c);
    live.children = snap.doc.children;
    live.attrs = snap.doc.attrs;
    live.idAt = snap.doc.idAt;
    live.row = snap.doc.row;
    for (const c of live.children) {
      c.parent = live;
      this.tree.register(c, false);
    }
    this.loads.set(docId, { dirty: snap.load.dirty, volatile: new Set(snap.load.volatile) });
  }

  /** Indexes what the SQL timer has picked up by now (or everything). */
  catchUp(all: boolean): void {
    for (const [docId, { due, rows }] of [...this.pending]) {
      if (all || due <= this.clock) {
        this.pending.delete(docId);
        this.indexDoc(docId, 'upsert', rows);
        if (this.insertIndexes.delete(docId)) this.indexDoc(docId, 'insert', rows);
      }
    }
  }

  /** Documents whose next indexing is followed by an insert-only one (see `indexAgain`). */
  private readonly insertIndexes = new Set<string>();

  /**
   * After the next indexing of the document, indexes it once more the way
   * the kernel's `index` queue operation does: rows inserted, nothing
   * deleted (kernel `sql/upsert.go` `indexTree`; `sql.IndexTreeQueue`). The
   * first document `createDocWithMd` makes in a notebook gets both
   * (confirmed live on v3.7.3: each of its blocks is in the blocks table
   * twice; a later document of the notebook is not), and the copies stay
   * until the block's text changes.
   */
  indexAgain(docId: string): void {
    this.insertIndexes.add(docId);
  }

  /**
   * (Re)indexes a document: its rows and refs as the tree has them now.
   * `upsert` (every write; kernel `sql/upsert.go:436-490` `upsertTree`):
   * the old rows' hashes by id (the greatest of an id's rows) and the new
   * blocks' hashes by id (the later block wins); an id whose two hashes
   * agree keeps its old rows — all of them — and none of its blocks is
   * indexed again (a folded section restated with its ids is not indexed
   * until a later save re-IDs it, confirmed live on v3.7.3); every other
   * block gets one new row per node and its old rows go. `insert` (kernel
   * `indexTree`): one new row per block beside those already there.
   * KERNEL-FACTS §11: a new row's `ial` column lists the pairs in a random
   * order.
   */
  indexDoc(docId: string, mode: 'upsert' | 'insert' = 'upsert', written?: Block[]): void {
    const root = this.tree.docs.get(docId);
    if (!root) {
      this.indexed.delete(docId);
      this.indexedRefs.delete(docId);
      return;
    }
    const fresh = written ?? this.rowsOf(root);
    const old = this.indexed.get(docId) ?? [];
    // `queryBlockHashes` reads `SELECT id, hash … WHERE root_id = ?` through
    // the index (root_id, id, hash) (`sql/database.go:165`): of several rows
    // with one id, the greatest hash is the one the map keeps.
    const oldHash = new Map<string, string>();
    for (const r of old) {
      const h = oldHash.get(r.id);
      if (h === undefined || (r.hash ?? '') > h) oldHash.set(r.id, r.hash ?? '');
    }
    const newHash = new Map(fresh.map((r) => [r.id, r.hash]));
    const unchanged = (id: string) =>
      mode === 'upsert' && oldHash.has(id) && oldHash.get(id) === newHash.get(id);
    const rows: Block[] = [];
    const kept = new Set<string>();
    for (const r of fresh) {
      if (unchanged(r.id)) {
        if (!kept.has(r.id)) rows.push(...old.filter((o) => o.id === r.id));
        kept.add(r.id);
        continue;
      }
      if (mode === 'insert' && !kept.has(r.id)) rows.push(...old.filter((o) => o.id === r.id));
      kept.add(r.id);
      rows.push({ ...r, ial: shuffledIal(this.rand, parsePairs(r.ial ?? '')) });
    }
    this.indexed.set(docId, rows);
    const def = (id: string) => {
      const n = this.tree.find(id);
      if (!n) return undefined;
      const doc = this.tree.rootOf(n);
      return { parent: n.parent?.id ?? '', root: doc.id, path: doc.doc?.path ?? '' };
    };
    const refs = refsOf(fresh, def, () => this.rand.nodeId(this.stamp()));
    this.indexedRefs.set(
      docId,
      mode === 'insert' ? [...(this.indexedRefs.get(docId) ?? []), ...refs] : refs,
    );
  }

  /** The tables the SQL view serves now. */
  tables(): Record<string, Row[]> {
    const blocks: Row[] = [];
    for (const rows of this.indexed.values()) for (const r of rows) blocks.push(r);
    const refs: Row[] = [];
    for (const rows of this.indexedRefs.values()) for (const r of rows) refs.push(r);
    return { blocks, refs };
  }

  /** A document's rows as its tree has them now (the document first, then pre-order). */
  private rowsOf(root: DNode): Block[] {
    const rows: Block[] = [rowOf(this, root)];
    for (const n of this.tree.blocksOf(root)) rows.push(rowOf(this, n));
    return rows;
  }

  /** The `refs` rows the SQL view serves now. */
  refRows(): Row[] {
    const refs: Row[] = [];
    for (const rows of this.indexedRefs.values()) for (const r of rows) refs.push(r);
    return refs;
  }

  indexedRow(id: string): Block | undefined {
    for (const rows of this.indexed.values()) {
      const r = rows.find((x) => x.id === id);
      if (r) return { ...r };
    }
    return undefined;
  }
}

/** A copy of a subtree (a snapshot of a saved document); `copies` maps each node to its copy. */
function cloneNode(n: DNode, parent: DNode | null, copies: Map<DNode, DNode>): DNode {
  const c: DNode = {
    ...n,
    attrs: new Map(n.attrs),
    parent,
    children: [],
    row: n.row ? { ...n.row } : undefined,
  };
  copies.set(n, c);
  c.children = n.children.map((x) => cloneNode(x, c, copies));
  return c;
}

/**
 * One Lute engine per Lute given, its answers remembered: Lute's calls are
 * pure for a given text (the ids it makes up for blocks without an IAL id
 * are replaced by the double's own), and a test that builds hundreds of
 * doubles over one document parses the same texts again and again (Lute
 * compiled to JavaScript is most of the time such a test takes).
 */
const engines = new WeakMap<object, LuteEngine>();
const MEMO_LIMIT = 50_000;

function sharedEngine(source: LuteNamespace | LuteEngine): LuteEngine {
  const known = engines.get(source);
  if (known) return known;
  const engine = kernelLute(source);
  const memo = (f: (text: string) => string): ((text: string) => string) => {
    const answers = new Map<string, string>();
    return (text) => {
      let answer = answers.get(text);
      if (answer === undefined) {
        answer = f(text);
        if (answers.size >= MEMO_LIMIT) answers.clear();
        answers.set(text, answer);
      }
      return answer;
    };
  };
  const shared: LuteEngine = {
    Md2BlockDOM: memo((md) => engine.Md2BlockDOM(md)),
    BlockDOM2StdMd: memo((dom) => engine.BlockDOM2StdMd(dom)),
    BlockDOM2Content: memo((dom) => engine.BlockDOM2Content(dom)),
  };
  engines.set(source, shared);
  return shared;
}

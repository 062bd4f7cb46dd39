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
  /** Documents written since their last indexing, with the time the SQL timer picks them up. */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly luteSource: LuteNamespace | LuteEngine | undefined,
    start: Date,
    readonly sqlLagMs: number,
    readonly searchLimit: number,
    readonly utc: boolean,
    seed: number,
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

  /** Marks a node changed: its document is saved (load.ts) and queued for the SQL view. */
  touch(n: DNode | null): void {
    invalidate(n);
    if (!n) return;
    const root = this.tree.rootOf(n);
    if (root.type !== 'd') return;
    fillEmpty(this, root);
    saved(this, root.id);
    if (!this.pending.has(root.id)) {
      // The SQL flush timer fires every `sqlLagMs` from the double's start.
      const lag = Math.max(1, this.sqlLagMs);
      const ticks = Math.floor((this.clock - this.clockStart) / lag) + 1;
      this.pending.set(root.id, this.clockStart + ticks * lag);
    }
  }

  /** Indexes what the SQL timer has picked up by now (or everything). */
  catchUp(all: boolean): void {
    for (const [docId, due] of [...this.pending]) {
      if (all || due <= this.clock) {
        this.pending.delete(docId);
        this.indexDoc(docId);
        if (this.insertIndexes.delete(docId)) this.indexDoc(docId, 'insert');
      }
    }
  }

  /** Documents whose next indexing is followed by an insert-only one (see `indexAgain`). */
  private readonly insertIndexes = new Set<string>();

  /**
   * After the next indexing of the document, indexes it once more the way
   * the kernel's `index` queue operation does: rows inserted, nothing
   * deleted (kernel `sql/upsert.go` `indexTree`). `createDocWithMd` queues
   * both (confirmed live on v3.7.3: every block of a new document is in the
   * blocks table twice), and the copies stay until the block's text
   * changes.
   */
  indexAgain(docId: string): void {
    this.insertIndexes.add(docId);
  }

  /**
   * (Re)indexes a document: its rows and refs as the tree has them now.
   * `upsert` (every write, kernel `upsertTree`): a block whose row hash is
   * unchanged keeps the rows it had (and their `ial` order), the others'
   * rows are all replaced by one new row, a block no longer in the document
   * loses its rows. `insert` (kernel `indexTree`): one new row per block is
   * added to those already there. KERNEL-FACTS §11: a new row's `ial`
   * column lists the pairs in a random order.
   */
  indexDoc(docId: string, mode: 'upsert' | 'insert' = 'upsert'): void {
    const root = this.tree.docs.get(docId);
    if (!root) {
      this.indexed.delete(docId);
      this.indexedRefs.delete(docId);
      return;
    }
    const fresh: Block[] = [rowOf(this, root)];
    for (const n of this.tree.blocksOf(root)) fresh.push(rowOf(this, n));
    const old = this.indexed.get(docId) ?? [];
    const rows: Block[] = [];
    for (const r of fresh) {
      const kept = old.filter((o) => o.id === r.id);
      if (mode === 'upsert' && kept.length > 0 && kept.every((o) => o.hash === r.hash)) {
        rows.push(...kept);
        continue;
      }
      if (mode === 'insert') rows.push(...kept);
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

  indexedRow(id: string): Block | undefined {
    for (const rows of this.indexed.values()) {
      const r = rows.find((x) => x.id === id);
      if (r) return { ...r };
    }
    return undefined;
  }
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

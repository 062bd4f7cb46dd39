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
import { stampOf } from './model.js';
import type { DNode } from './model.js';
import type { ParseContext } from './parse.js';
import { Random } from './random.js';
import { invalidate, rowOf } from './render.js';
import type { Renderer } from './render.js';
import { referencedIds } from './sql.js';
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
  /** Documents written since their last indexing, with the time the SQL timer picks them up. */
  private readonly pending = new Map<string, number>();
  /** The seeded randomness (random.ts). */
  readonly rand: Random;

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
      this.engine = kernelLute(this.luteSource);
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

  /** Marks a node changed and queues its document for the SQL view. */
  touch(n: DNode | null): void {
    invalidate(n);
    if (!n) return;
    const root = this.tree.rootOf(n);
    if (root.type !== 'd') return;
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
      }
    }
  }

  indexDoc(docId: string): void {
    const root = this.tree.docs.get(docId);
    if (!root || !this.tree.docs.has(docId)) {
      this.indexed.delete(docId);
      return;
    }
    const rows: Block[] = [rowOf(this, root)];
    for (const n of this.tree.blocksOf(root)) rows.push(rowOf(this, n));
    this.indexed.set(docId, rows);
  }

  /** The tables the SQL view serves now. */
  tables(): Record<string, Row[]> {
    const blocks: Row[] = [];
    for (const rows of this.indexed.values()) for (const r of rows) blocks.push(r);
    const refs: Row[] = [];
    const byId = new Map<string, Row>();
    for (const r of blocks) if (!byId.has(r.id as string)) byId.set(r.id as string, r);
    let n = 0;
    for (const r of blocks) {
      for (const def of referencedIds(String(r.markdown ?? ''))) {
        const target = byId.get(def);
        n += 1;
        refs.push({
          id: `ref-${n}`,
          def_block_id: def,
          def_block_parent_id: target?.parent_id ?? '',
          def_block_root_id: target?.root_id ?? '',
          def_block_path: target?.path ?? '',
          block_id: r.id,
          root_id: r.root_id,
          box: r.box,
          path: r.path,
          content: r.content,
          markdown: r.markdown,
          type: 'ref_id',
        });
      }
    }
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

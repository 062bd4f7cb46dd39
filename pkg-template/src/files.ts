// The file-edit planner: plan → review the YAML and diff → apply by id.
// The host reads and writes files; editkit never touches them.

import * as glue from 'editkit-glue';
import { call, json, langOf, options, text } from './boundary.js';
import { isEditkitError, jsError, readOptions } from './errors.js';
import type {
  AppendOptions,
  BlockReplaceOptions,
  FileApplyOptions,
  FileApplyResult,
  FileEditSessionOptions,
  FileView,
  FileViewOptions,
  InsertOptions,
  NewFileCheck,
  NewFileOptions,
  OverwriteCheck,
  OverwriteOptions,
  PendingHunk,
  PlanResult,
  RangeEditOptions,
} from './types.js';

/**
 * One per agent process: plans edits (each gets a short hunk id), keeps
 * them for `ttlMs`, applies each once to the file's current text. Apply is
 * synchronous over the text it is given: serialise applies per path with
 * `withPathLock`.
 */
export class FileEditSession {
  #core: glue.FileEditSessionCore;
  #now: () => number;

  constructor(opts: FileEditSessionOptions = {}) {
    const o = readOptions(opts, ['now', 'randomId', 'ttlMs'] as const, 'options');
    const now = o.now;
    const randomId = o.randomId;
    this.#now = typeof now === 'function' ? (now as () => number) : () => Date.now();
    let prefix: unknown;
    try {
      prefix =
        typeof randomId === 'function'
          ? (randomId as () => unknown)()
          : call<string>('en', () => glue.idPrefixFromNow(this.#clock()));
    } catch (e) {
      if (isEditkitError(e)) throw e;
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['randomId()', 'threw'],
        { subject: 'randomId' },
        e,
      );
    }
    const ttl = o.ttlMs;
    if (ttl !== undefined && (typeof ttl !== 'number' || !(ttl > 0))) {
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['ttlMs', 'expected a positive number of milliseconds'],
        { subject: 'ttlMs' },
      );
    }
    const idPrefix = text(typeof prefix === 'string' ? prefix : String(prefix), 'randomId()', 'en');
    const settings = json({ ttlMs: ttl, idPrefix }, 'options', 'en');
    try {
      this.#core = new glue.FileEditSessionCore(settings);
    } catch (e) {
      throw call('en', () => {
        throw e;
      });
    }
  }

  #clock(): number {
    let t: unknown;
    try {
      t = this.#now();
    } catch (e) {
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['now()', 'threw'],
        { subject: 'now' },
        e,
      );
    }
    if (typeof t !== 'number' || !Number.isFinite(t)) {
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['now()', 'must return a finite number of milliseconds'],
        { subject: 'now' },
      );
    }
    return t;
  }

  #run<T>(
    method:
      | 'prepareRangeEdit'
      | 'prepareAppend'
      | 'prepareInsertAfter'
      | 'prepareInsertBefore'
      | 'prepareBlockReplace'
      | 'apply',
    opts: unknown,
  ): T {
    const lang = langOf(opts);
    const o = options(opts, 'options', lang);
    const now = this.#clock();
    return call(lang, () => this.#core[method](o, now));
  }

  /** Plans a replace/delete/append by line range. */
  prepareRangeEdit(opts: RangeEditOptions): PlanResult {
    return this.#run('prepareRangeEdit', opts);
  }
  /** Plans an append at the end of the file (`create` allows a missing file). */
  prepareAppend(opts: AppendOptions): PlanResult {
    return this.#run('prepareAppend', opts);
  }
  /** Plans an insert after an anchor line. */
  prepareInsertAfter(opts: InsertOptions): PlanResult {
    return this.#run('prepareInsertAfter', opts);
  }
  /** Plans an insert before an anchor line. */
  prepareInsertBefore(opts: InsertOptions): PlanResult {
    return this.#run('prepareInsertBefore', opts);
  }
  /** Plans replacing the lines between (or including) a start and an end anchor. */
  prepareBlockReplace(opts: BlockReplaceOptions): PlanResult {
    return this.#run('prepareBlockReplace', opts);
  }
  /**
   * Applies a plan to the file's current text: `contextMatch` says `exact`,
   * `fuzz` (relocated) or `rejected` (nothing changed). Write `content` back
   * when `changed`. A successful apply consumes the plan, unless
   * `deferConsume` asks to wait for `consume(hunkId)` after the write.
   */
  apply(opts: FileApplyOptions): FileApplyResult {
    return this.#run('apply', opts);
  }
  /**
   * Marks a plan applied after an `apply` with `deferConsume`, once the
   * write succeeded; `false` when no live plan has that id.
   */
  consume(hunkId: string): boolean {
    const id = text(hunkId, 'hunkId', 'en');
    return call('en', () => this.#core.consume(id));
  }
  /** Waiting hunk ids in creation order (apply them in this order). */
  applyOrder(hunkIds: string[]): string[] {
    const ids = json(hunkIds, 'hunkIds', 'en');
    return call('en', () => this.#core.applyOrder(ids));
  }
  /** Live plans (for one path, or all), oldest first. */
  pending(path?: string): PendingHunk[] {
    const p = path === undefined ? undefined : text(path, 'path', 'en');
    const now = this.#clock();
    return call('en', () => this.#core.pending(p, now));
  }
  /** Plans live this long, in ms. */
  get ttlMs(): number {
    return call('en', () => this.#core.ttlMs());
  }
}

/** Refuses an overwrite whose snapshot is stale or whose content looks like a patch. */
export function checkOverwrite(opts: OverwriteOptions): OverwriteCheck {
  const lang = langOf(opts);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.checkOverwrite(o));
}

/** Checks that a new file may be created; adds the final newline. */
export function checkNewFile(opts: NewFileOptions): NewFileCheck {
  const lang = langOf(opts);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.checkNewFile(o));
}

/** A file view for an agent: YAML header (`total_lines`, `size_bytes`, …) then the lines. */
export function formatFileView(opts: FileViewOptions): FileView {
  const lang = langOf(opts);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.formatFileView(o));
}

const locks = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` after every earlier `withPathLock` call for the same path has
 * settled, so read → apply → write sequences on one file never interleave.
 */
export function withPathLock<T>(path: string, fn: () => T | Promise<T>): Promise<T> {
  if (typeof path !== 'string' || typeof fn !== 'function') {
    return Promise.reject(
      jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        ['withPathLock', 'expected (path: string, fn: function)'],
        { subject: 'withPathLock' },
      ),
    );
  }
  const previous = locks.get(path) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(path, tail);
  void tail.then(() => {
    if (locks.get(path) === tail) locks.delete(path);
  });
  return run;
}

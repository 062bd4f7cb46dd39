// The kernel HTTP endpoints the double serves, with the kernel's argument
// checks: a malformed id answers code -1; a missing or mistyped field, which
// the kernel's handlers read with `arg["x"].(string)`, panics and is
// answered `{code: 0, msg: "", data: null}` (kernel notes, general
// pattern), as is a Lute panic (KERNEL-FACTS §10).

import type { KernelResponse } from '../../types.js';
import { batchInsert, batchInto, batchUpdate } from './batch.js';
import type { Args } from './batch.js';
import { createDailyNote, createDocWithMd } from './filetree.js';
import { insertBlock, intoBlock } from './inserts.js';
import { loadFor } from './load.js';
import { ID_RE, KernelFailure } from './model.js';
import { KernelPanic } from './parse.js';
import type { TxQueue } from './queue.js';
import {
  blockKramdown,
  blockKramdowns,
  breadcrumb,
  childBlocks,
  getBlockAttrs,
  outline,
} from './reads.js';
import { querySql } from './sql.js';
import type { KernelState } from './state.js';
import { deleteBlock, MSG, setBlockAttrs, updateBlock } from './writes.js';
import type { PreparedWrite } from './writes.js';

export type Body = Record<string, unknown>;
type Handler = (body: Body) => unknown;

/** `arg["x"].(string)` on a missing or mistyped field panics: answered code 0, data null. */
function need(body: Body, key: string): string {
  const v = body[key];
  if (typeof v !== 'string') throw new KernelPanic(`interface conversion: ${key} is not a string`);
  return v;
}

function needId(body: Body, key: string): string {
  const v = need(body, key);
  if (!ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
  return v;
}

function optId(body: Body, key: string): string {
  const v = body[key];
  if (v === undefined || v === null || v === '') return '';
  if (typeof v !== 'string' || !ID_RE.test(v)) throw new KernelFailure(-1, MSG.invalidId);
  return v;
}

/** `mode`: `md` (default) or `textmark`; the double answers both in md form. */
function checkMode(body: Body): void {
  const mode = body.mode;
  if (mode === undefined || mode === null) return;
  if (typeof mode !== 'string') throw new KernelPanic('interface conversion: mode is not a string');
  if (mode !== 'md' && mode !== 'textmark') throw new KernelFailure(-1, 'Invalid mode');
}

function markdownArg(body: Body): string {
  const dataType = body.dataType;
  if (dataType !== 'markdown')
    throw new KernelFailure(
      -1,
      `the kernel double accepts dataType "markdown" only (got ${JSON.stringify(dataType)})`,
    );
  return need(body, 'data');
}

/** `/api/attr/setBlockAttrs`'s argument checks (`api/attr.go:73-115`): values strings, `null` removes. */
function attrsArg(body: Body): Record<string, string> {
  const attrs = body.attrs;
  if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs))
    throw new KernelPanic('interface conversion: attrs is not an object');
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(attrs as Body)) {
    if (v === null) out[name] = '';
    else if (typeof v === 'string') out[name] = v;
    else throw new KernelFailure(-1, `the value of attr [${name}] must be a string`);
  }
  return out;
}

export function serve(handlers: Record<string, Handler>, path: string, body: Body): KernelResponse {
  const handler = handlers[path];
  try {
    if (!handler) throw new KernelFailure(404, `the kernel double does not serve ${path}`);
    const data = handler(body);
    return { code: 0, msg: '', data: data === undefined ? null : data };
  } catch (e) {
    if (e instanceof KernelFailure) return { code: e.code, msg: e.message, data: null };
    // A panic in a handler: `model.Recover` and the deferred `c.JSON` (notes).
    if (e instanceof KernelPanic) return { code: 0, msg: '', data: null };
    throw e;
  }
}

/** The endpoints the double serves (the batch writes unless `batch` is false). */
export function endpoints(k: KernelState, queue: TxQueue, batch = true): Record<string, Handler> {
  return {
    ...readEndpoints(k, queue),
    ...settingEndpoints(k),
    ...writeEndpoints(k, queue),
    ...(batch ? batchEndpoints(k, queue) : {}),
  };
}

/** Reads: SQL, the tree endpoints (each loads the document), flushTransaction, setBlockAttrs. */
function readEndpoints(k: KernelState, queue: TxQueue): Record<string, Handler> {
  return {
    '/api/query/sql': (body) => querySql(body, k.tables(), k.searchLimit),
    '/api/sqlite/flushTransaction': () => {
      queue.runAll();
      k.catchUp(true);
      return null;
    },
    '/api/block/getChildBlocks': (body) => childBlocks(k, needId(body, 'id')),
    '/api/block/getBlockKramdown': (body) => {
      const id = needId(body, 'id');
      checkMode(body);
      return blockKramdown(k, id);
    },
    '/api/block/getBlockKramdowns': (body) => {
      const ids = body.ids;
      if (!Array.isArray(ids)) throw new KernelPanic('interface conversion: ids is not an array');
      if (ids.some((id) => typeof id !== 'string'))
        throw new KernelPanic('interface conversion: an id is not a string');
      // A malformed id: `util.InvalidIDPattern(id, nil)` writes to a nil
      // result and panics (`api/block.go:1058-1062`, `util/net.go:388-396`):
      // code 0, data null for the whole call (confirmed live on v3.7.3).
      if (ids.some((id) => !ID_RE.test(id as string)))
        throw new KernelPanic('invalid memory address or nil pointer dereference');
      checkMode(body);
      return blockKramdowns(k, ids as string[]);
    },
    // `treenode.ExistBlockTree` (`api/block.go:376-387`): the block-id table,
    // not the document (a failed batch's new ids are in it, state.ts).
    '/api/block/checkBlockExist': (body) => k.tree.known.has(need(body, 'id')),
    '/api/attr/getBlockAttrs': (body) => getBlockAttrs(k, needId(body, 'id')),
    '/api/attr/setBlockAttrs': (body) => {
      const id = needId(body, 'id');
      const attrs = attrsArg(body);
      // `model.SetBlockAttrs` flushes the transaction queue first (notes §4).
      queue.runAll();
      setBlockAttrs(k, id, attrs);
      return null;
    },
    '/api/outline/getDocOutline': (body) => {
      const doc = loadFor(k, needId(body, 'id'));
      if (!doc || doc.type !== 'd') return [];
      return outline(k, doc);
    },
    '/api/block/getBlockBreadcrumb': (body) => {
      const n = loadFor(k, needId(body, 'id'));
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
  };
}

/**
 * `/api/system/version` (no body; `"3.7.3"`), `/api/system/getConf` (the
 * parts of `conf.json` the double has: `export`, `search.limit`,
 * `system.kernelVersion`) and `/api/setting/setExport`, which replaces
 * `conf.export` with the object it is given (`api/setting.go:460-505`) and
 * answers it. Report C §4–§5.
 */
function settingEndpoints(k: KernelState): Record<string, Handler> {
  const exportConf = (): Record<string, unknown> => ({
    ...k.exportConf,
    paragraphBeginningSpace: k.settings.paragraphBeginningSpace,
  });
  return {
    '/api/system/version': () => (k.settings.luteDecodesHtmlEntities ? '3.7.3' : '3.7.4-alpha.1'),
    '/api/system/getConf': () => ({
      conf: {
        export: exportConf(),
        search: { limit: k.searchLimit },
        system: { kernelVersion: '3.7.3', os: 'linux' },
        lang: 'en',
      },
      start: false,
      isPublish: false,
    }),
    '/api/setting/setExport': (body) => {
      k.exportConf = { ...body };
      k.settings.paragraphBeginningSpace = body.paragraphBeginningSpace === true;
      return exportConf();
    },
  };
}

/** How the batch endpoints read their arguments (batch.ts). */
const ARGS: Args = {
  markdownArg,
  needId,
  optId,
  blocks(body) {
    const blocks = body.blocks;
    if (!Array.isArray(blocks) || blocks.some((b) => typeof b !== 'object' || b === null))
      throw new KernelPanic('interface conversion: blocks is not an array of objects');
    return blocks as Body[];
  },
};

/** The batch write endpoints of v3.7 (batch.ts); `false`: a kernel older than them (404). */
export function batchEndpoints(k: KernelState, queue: TxQueue): Record<string, Handler> {
  return {
    '/api/block/batchInsertBlock': (body) => batchInsert(k, queue, ARGS, body),
    '/api/block/batchPrependBlock': (body) => batchInto(k, queue, ARGS, body, true),
    '/api/block/batchAppendBlock': (body) => batchInto(k, queue, ARGS, body, false),
    '/api/block/batchUpdateBlock': (body) => batchUpdate(k, queue, ARGS, body),
  };
}

/** The write endpoints: each a transaction (queue.ts). */
function writeEndpoints(k: KernelState, queue: TxQueue): Record<string, Handler> {
  const write = (path: string, w: PreparedWrite) => queue.perform(path, w);
  return {
    '/api/block/updateBlock': (body) => {
      const id = needId(body, 'id');
      return write('/api/block/updateBlock', updateBlock(k, id, markdownArg(body)));
    },
    '/api/block/deleteBlock': (body) => {
      // Answered as soon as it is queued (KERNEL-FACTS §10): queue.ts.
      const w = deleteBlock(k, needId(body, 'id'));
      queue.enqueue('/api/block/deleteBlock', w);
      return w.done();
    },
    '/api/block/insertBlock': (body) =>
      write(
        '/api/block/insertBlock',
        insertBlock(k, {
          md: markdownArg(body),
          parentID: optId(body, 'parentID'),
          previousID: optId(body, 'previousID'),
          nextID: optId(body, 'nextID'),
        }),
      ),
    '/api/block/prependBlock': (body) =>
      write(
        '/api/block/prependBlock',
        intoBlock(k, needId(body, 'parentID'), markdownArg(body), true),
      ),
    '/api/block/appendBlock': (body) =>
      write(
        '/api/block/appendBlock',
        intoBlock(k, needId(body, 'parentID'), markdownArg(body), false),
      ),
    '/api/filetree/createDocWithMd': (body) => {
      queue.runAll();
      return createDocWithMd(k, body, needId(body, 'notebook'), optId(body, 'id') || undefined);
    },
    '/api/filetree/createDailyNote': (body) => {
      queue.runAll();
      return createDailyNote(k, needId(body, 'notebook'));
    },
  };
}

// The switch between the kernel double and a real SiYuan kernel (SPEC §3.7
// rule 22). With SIYUAN_URL and SIYUAN_TOKEN set, every SiYuan suite that
// opens its kernel through `createKernel` runs against that kernel instead
// of the double: the same documents are written into a scratch notebook
// (under the ids the test names: SiYuan keeps the ids an IAL gives), the
// same requests are sent, and the double's test levers are answered through
// the kernel's own API. A lever the real kernel cannot give (a transaction
// made to fail in the queue, the double's clock) throws `LiveUnsupported`,
// and `kernelTest` reports that test as skipped on the live kernel with the
// lever's name. Without the variables nothing here touches the network.
import { after, test as nodeTest } from 'node:test';
import { ek, testing } from './support.mjs';

const { SIYUAN_URL, SIYUAN_TOKEN } = process.env;
/** The live kernel the suites run against, or null (the double). */
export const LIVE = SIYUAN_URL && SIYUAN_TOKEN ? { url: SIYUAN_URL, token: SIYUAN_TOKEN } : null;

/** A lever the real kernel cannot give. */
/** The live harness names its notebooks this way, so a developer tells them apart. */
export const LIVE_NOTEBOOK_PREFIX = 'editkit-live ';

export class LiveUnsupported extends Error {
  constructor(lever) {
    super(`the live kernel has no lever "${lever}"`);
    this.lever = lever;
  }
}

/**
 * `test`, with a live run's unsupported levers reported as skips: the test
 * ran until it needed one. On the double it is node:test's `test`.
 */
export function kernelTest(name, options, fn) {
  if (typeof options === 'function') [fn, options] = [options, {}];
  if (!LIVE) return nodeTest(name, options, fn);
  const { live, ...rest } = options;
  if (typeof live === 'string') return nodeTest(name, { ...rest, skip: `live kernel: ${live}` });
  return nodeTest(name, rest, async (t) => {
    try {
      await fn(t);
    } catch (e) {
      if (!(e instanceof LiveUnsupported)) throw e;
      t.skip(`live kernel: ${e.message}`);
    }
  });
}

/**
 * A kernel for a test: the double (`testing.createKernelDouble(options)`),
 * or, live, the real kernel holding the same documents behind the same
 * interface (its levers async: await them on either).
 */
export async function createKernel(options = {}) {
  if (!LIVE) return testing.createKernelDouble(options);
  return liveKernel(options);
}

// --- the live kernel ------------------------------------------------------
//
// Block ids are global in a workspace, and the suites reuse the same ids in
// every test (the fixtures', say). So each live kernel gets its own ids: a
// test's id keeps its 14-digit time and gets a fresh 7-character suffix,
// and every request and answer is rewritten through that one-to-one map
// (ids written inside markdown — refs, embeds, links — included). The test
// sees its own ids; the kernel holds distinct documents per test, in
// notebooks of their own, so several kernels of one test coexist.

const raw = LIVE ? ek.kernelRequest({ baseUrl: LIVE.url, token: LIVE.token }) : null;
const ID = /\b\d{14}-[0-9a-z]{7}\b/g;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Notebooks made by this process, oldest first: at most KEEP stay open. */
const made = [];
const KEEP = 6;
/** Databases made by this process (their files outlive the notebooks). */
const databases = [];
/**
 * Removes a notebook once the kernel is idle: a write's document-info
 * refresh runs in a goroutine of its own and lists the notebooks, and one
 * found half removed ends the kernel (v3.7.3 `model/box.go` `SaveConf` →
 * the file-system check; seen live).
 */
async function removeNotebook(box) {
  await raw('/api/sqlite/flushTransaction', {});
  await sleep(500);
  await raw('/api/notebook/removeNotebook', { notebook: box });
}
if (LIVE)
  after(async () => {
    while (made.length) await removeNotebook(made.shift());
    for (const av of databases) await raw('/api/av/removeUnusedAttributeView', { id: av });
  });

function suffix() {
  const a = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 7; i++) s += a[Math.floor(Math.random() * a.length)];
  return s;
}

/** The one-to-one map between a test's ids and the kernel's. */
function idMap() {
  const toLive = new Map();
  const toTest = new Map();
  const pair = (t, l) => {
    toLive.set(t, l);
    toTest.set(l, t);
  };
  return {
    pair,
    /** A test's text with its ids as the kernel knows them (an id never seen gets a fresh one). */
    out(text) {
      return text.replace(ID, (id) => {
        if (!toLive.has(id)) pair(id, `${id.slice(0, 14)}-${suffix()}`);
        return toLive.get(id);
      });
    },
    /** The kernel's text with the test's ids (an id the kernel made is its own). */
    in(text) {
      return text.replace(ID, (id) => {
        if (!toTest.has(id)) pair(id, id);
        return toTest.get(id);
      });
    },
  };
}

const IAL_LINE = /\n?\{:([^}]*)\}\s*$/;
const pairsOf = (inner) => [...inner.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]);

/** A top-level block's markdown carrying `id` in its (last) IAL line. */
function withId(markdown, id) {
  const m = markdown.match(/\n\{:([^}]*)\}$/);
  if (m && !/\bid="/.test(m[1])) return markdown.replace(/\n\{:([^}]*)\}$/, `\n{: id="${id}"$1}`);
  if (m) return markdown;
  return `${markdown}\n{: id="${id}"}`;
}

/** The documents of createKernelDouble's options, parents first. */
function documentsOf(options) {
  const docs = [];
  for (const r of options.documentRows ?? [])
    docs.push({ id: r.id, box: r.box, hpath: r.hpath, markdown: '', ial: r.ial ?? '' });
  for (const f of options.fixtures ?? []) {
    const d = f.document;
    const kramdown = f.api?.getBlockKramdown?.[d.id] ?? '';
    docs.push({
      id: d.id,
      box: d.box,
      hpath: d.hpath,
      markdown: kramdown.replace(IAL_LINE, ''),
      ial: d.ial ?? '',
    });
  }
  for (const m of options.documents ?? []) {
    const blocks = m.blocks.map((b) => (typeof b === 'string' ? b : withId(b.markdown, b.id)));
    docs.push({ id: m.id, box: m.box, hpath: m.hpath, markdown: blocks.join('\n\n'), ial: '' });
  }
  // One entry per id (a fixture also listed as a row keeps its body), parents first.
  const byId = new Map();
  for (const d of docs) if (!byId.has(d.id) || d.markdown) byId.set(d.id, d);
  const depth = (d) => d.hpath.split('/').length;
  return [...byId.values()].sort((a, b) => depth(a) - depth(b));
}

/** The kernel's own order of IAL keys on an API write (KERNEL-FACTS §10): the levers' stable order. */
const ORDER = testing.API_IAL_KEYS;
const rank = (key) => {
  const i = ORDER.indexOf(key);
  if (i >= 0) return i;
  return key.startsWith('custom-') ? ORDER.length : ORDER.length + 1;
};
/** Kramdown with every IAL's pairs in one order (the kernel lists them in a random one, KERNEL-FACTS §11). */
export function steadyIal(kramdown) {
  return kramdown.replace(/\{:([^}]*)\}/g, (whole, inner) => {
    const pairs = pairsOf(inner);
    if (!pairs.length) return whole;
    pairs.sort((a, b) => rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{: ${pairs.map(([k, v]) => `${k}="${v}"`).join(' ')}}`;
  });
}

const quote = (id) => `'${String(id).replace(/'/g, "''")}'`;

/**
 * Waits for a new notebook's first index (`indexBox`, a queued task): run
 * late, it would index the notebook's first document twice and put ids
 * back into the block-id table behind the test's back. Its box document
 * then has its two rows.
 */
async function indexed(box) {
  for (let waited = 0; waited < 5000; waited += 100) {
    await raw('/api/sqlite/flushTransaction', {});
    const rows = await raw('/api/query/sql', {
      stmt: `SELECT id FROM blocks WHERE id = ${quote(box)} LIMIT 4`,
    });
    if ((rows?.data ?? []).length >= 2) return;
    await sleep(100);
  }
}

async function liveKernel(options) {
  const ids = idMap();
  /** One request in the test's ids. */
  const send = async (path, body) =>
    JSON.parse(ids.in(JSON.stringify(await raw(path, JSON.parse(ids.out(JSON.stringify(body)))))));
  const call = async (path, body = {}) => {
    const res = await send(path, body);
    if (res?.code !== 0)
      throw new Error(`live kernel ${path}: ${JSON.stringify(res).slice(0, 300)}`);
    return res.data;
  };

  // A notebook of this kernel's own for every notebook the test names.
  const docs = documentsOf(options);
  const names = new Map((options.notebooks ?? []).map((n) => [n.id, n.name]));
  for (const box of new Set([...names.keys(), ...docs.map((d) => d.box)])) {
    while (made.length >= KEEP) await removeNotebook(made.shift());
    const nb = await raw('/api/notebook/createNotebook', {
      name: `${LIVE_NOTEBOOK_PREFIX}${names.get(box) ?? box}`,
    });
    if (nb?.code !== 0) throw new Error(`live kernel createNotebook: ${JSON.stringify(nb)}`);
    const live = nb.data.notebook.id;
    made.push(live);
    ids.pair(box, live);
    await indexed(live);
  }
  for (const d of docs) {
    const depth = d.hpath.split('/').length;
    const parent = docs.find(
      (p) =>
        p.box === d.box &&
        d.hpath.startsWith(`${p.hpath}/`) &&
        depth === p.hpath.split('/').length + 1,
    );
    await call('/api/filetree/createDocWithMd', {
      notebook: d.box,
      path: d.hpath,
      markdown: d.markdown,
      id: d.id,
      ...(parent ? { parentID: parent.id } : {}),
    });
    // The document's own attributes (icon, custom-*) beside the title its path gave it.
    const attrs = Object.fromEntries(
      pairsOf(d.ial).filter(([k]) => !['id', 'title', 'type', 'updated'].includes(k)),
    );
    if (Object.keys(attrs).length) await call('/api/attr/setBlockAttrs', { id: d.id, attrs });
  }
  await call('/api/sqlite/flushTransaction', {});

  const calls = [];
  const failures = new Map();
  const batchEndpoints = options.batchEndpoints ?? true;
  async function request(path, body = {}) {
    const copy = JSON.parse(JSON.stringify(body ?? {}));
    let response;
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      response = { code: failure.code, msg: failure.msg, data: null };
    } else if (!batchEndpoints && /^\/api\/block\/batch/.test(path)) {
      // A kernel older than the batch endpoints: what the double answers for them.
      response = { code: 404, msg: `the kernel does not serve ${path}`, data: null };
    } else {
      response = await send(path, copy);
    }
    calls.push({ path, body: copy, response: JSON.parse(JSON.stringify(response)) });
    return JSON.parse(JSON.stringify(response));
  }

  const flush = () => call('/api/sqlite/flushTransaction', {});
  const row = async (id, fresh) => {
    if (fresh) await flush();
    const rows = await call('/api/query/sql', {
      stmt: `SELECT * FROM blocks WHERE id = ${quote(id)} LIMIT 2`,
    });
    return rows[0];
  };
  /** Block ids of a document in pre-order (its DOM lists them so). */
  const preorder = async (docId) => {
    const dom = await call('/api/block/getBlockDOM', { id: docId });
    const found = [...(dom?.dom ?? '').matchAll(/data-node-id="([^"]+)"/g)].map((m) => m[1]);
    return found.filter((id, i) => id !== docId && found.indexOf(id) === i);
  };

  return {
    live: true,
    seed: options.seed ?? 1,
    request,
    calls,
    clock: {
      now: () => new Date(),
      advance() {
        throw new LiveUnsupported('clock.advance');
      },
    },
    editor: {
      updateBlock: (id, md) =>
        call('/api/block/updateBlock', { dataType: 'markdown', data: md, id }),
      async insertBlock(md, anchor) {
        const data = await call('/api/block/insertBlock', {
          dataType: 'markdown',
          data: md,
          ...anchor,
        });
        return (data?.[0]?.doOperations ?? []).map((op) => op.id);
      },
      deleteBlock: (id) => call('/api/block/deleteBlock', { id }),
      setAttrs: (id, attrs) => call('/api/attr/setBlockAttrs', { id, attrs }),
    },
    flush,
    failNext(path, code = -1, msg = 'simulated kernel failure') {
      failures.set(path, { code, msg });
    },
    failNextTransaction() {
      throw new LiveUnsupported('failNextTransaction');
    },
    get txErrors() {
      throw new LiveUnsupported('txErrors');
    },
    async kramdown(id) {
      const res = await call('/api/block/getBlockKramdown', { id, mode: 'md' });
      return res?.kramdown ? steadyIal(res.kramdown) : null;
    },
    // From the tree's kramdown, not getBlockAttrs: that one reads a cache an
    // insert that reuses an id does not refresh (seen live on v3.7.3).
    async attrs(id) {
      const res = await call('/api/block/getBlockKramdown', { id, mode: 'md' });
      const k = res?.kramdown ?? '';
      if (!k) return undefined;
      const ial = [...k.matchAll(/\{:([^}]*)\}/g)].find((m) =>
        pairsOf(m[1]).some(([key, v]) => key === 'id' && v === id),
      );
      return ial
        ? Object.fromEntries(pairsOf(ial[1]).map(([key, v]) => [key, v.replace(/&quot;/g, '"')]))
        : undefined;
    },
    async databaseRows(avId) {
      const res = await send('/api/av/getAttributeView', { id: avId });
      const av = res?.data?.av;
      if (!av) return [];
      // The block a row is bound to is `block.id` (`blockID` is the row's own item id).
      const key = (av.keyValues ?? []).find((kv) => kv.key?.type === 'block');
      return (key?.values ?? []).map((v) => v.block?.id).filter(Boolean);
    },
    /**
     * Makes `blockIds` rows of database `avId` (created, with its database
     * block at the end of the first block's document, when it does not
     * exist): the kernel sets their `custom-avs` itself.
     */
    async addDatabaseRows(avId, blockIds) {
      let dbBlock = '';
      if (!(await send('/api/av/getAttributeView', { id: avId }))?.data?.av) {
        const info = await call('/api/block/getBlockInfo', { id: blockIds[0] });
        const tx = await call('/api/block/appendBlock', {
          parentID: info.rootID,
          dataType: 'markdown',
          data: `<div data-type="NodeAttributeView" data-av-id="${avId}" data-av-type="table"></div>`,
        });
        dbBlock = tx[0].doOperations[0].id;
        await call('/api/av/renderAttributeView', { id: avId, blockID: dbBlock });
        databases.push(ids.out(avId));
      }
      await call('/api/av/addAttributeViewBlocks', {
        avID: avId,
        ...(dbBlock ? { blockID: dbBlock } : {}),
        srcs: blockIds.map((id) => ({ id, isDetached: false })),
      });
      return dbBlock;
    },
    block: (id) => row(id, true),
    indexedBlock: (id) => row(id, false),
    async snapshot(docId) {
      const order = await preorder(docId);
      await flush();
      const rows = order.length
        ? await call('/api/query/sql', {
            stmt: `SELECT id, type, markdown FROM blocks WHERE id IN (${order.map(quote).join(', ')}) LIMIT ${order.length * 2}`,
          })
        : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      return order
        .filter((id) => byId.has(id))
        .map((id) => ({ id, type: byId.get(id).type, markdown: byId.get(id).markdown ?? '' }));
    },
    async topLevel(docId) {
      const children = await call('/api/block/getChildBlocks', { id: docId });
      return (children ?? []).map((c) => c.id);
    },
    async countId(id) {
      await flush();
      const rows = await call('/api/query/sql', {
        stmt: `SELECT id FROM blocks WHERE id = ${quote(id)} LIMIT 10`,
      });
      return rows.length;
    },
    async documentIds() {
      await flush();
      const boxes = [...new Set(docs.map((d) => d.box))].map(quote).join(', ');
      const rows = await call('/api/query/sql', {
        stmt: `SELECT id FROM blocks WHERE type = 'd' AND box IN (${boxes}) LIMIT 1000`,
      });
      return rows.map((r) => r.id);
    },
    /** Waits until the kernel's SQL timer (3 s, KERNEL-FACTS §1) has fired. */
    sqlTick: () => sleep(3300),
  };
}

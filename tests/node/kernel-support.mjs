// Helpers for the adapter / kernel double suite: Lute from vditor, the
// fixtures, a double over them, and a recording fake `request`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  doublePath,
  ek,
  fixture,
  WRITE_PATH,
  FIXTURE_FILES,
  hostPath,
  Lute,
  LUTE_PATH,
  shared,
  testing,
} from './support.mjs';
import { createKernel } from './live-kernel.mjs';

export { doublePath, ek, fixture, FIXTURE_FILES, hostPath, Lute, LUTE_PATH, testing };
export {
  createKernel,
  kernelTest,
  LIVE,
  LIVE_NOTEBOOK_PREFIX,
  LiveUnsupported,
} from './live-kernel.mjs';

export const FIXTURES = FIXTURE_FILES.map(fixture);
export const NOTEBOOK_INDEX = JSON.parse(
  readFileSync(join(shared, 'fixtures', 'siyuan', 'notebook-index.json'), 'utf8'),
);
export const OUTCOMES = JSON.parse(
  readFileSync(join(shared, 'fixtures', 'siyuan', 'plugin-expected-outcomes.json'), 'utf8'),
);
export const BOX = NOTEBOOK_INDEX.notebook.id;

/** The kernel double's seed (its random attribute order and re-IDs): EDITKIT_DOUBLE_SEED, default 1. */
export const SEED = Number(process.env.EDITKIT_DOUBLE_SEED ?? 1);

/**
 * A kernel over the four fixture documents (and their parent documents):
 * the double, or the live kernel when SIYUAN_URL and SIYUAN_TOKEN are set
 * (live-kernel.mjs). Its levers are async on the live kernel: await them.
 */
export async function fixtureDouble(options = {}) {
  return createKernel({
    fixtures: FIXTURES.map((f) => structuredClone(f)),
    documentRows: NOTEBOOK_INDEX.documents,
    notebooks: [NOTEBOOK_INDEX.notebook],
    lute: Lute,
    ...doublePath(),
    ...options,
  });
}

/** A kernel (fixtureDouble) and an adapter over it. */
export async function kernel(options = {}, hostOptions = {}) {
  const double = await fixtureDouble(options);
  const host = ek.createSiyuanHost({ request: double.request, ...hostPath(), ...hostOptions });
  return { double, host };
}

export const WRITE_PATHS = [
  '/api/block/updateBlock',
  '/api/block/deleteBlock',
  '/api/block/insertBlock',
  '/api/block/prependBlock',
  '/api/block/appendBlock',
  '/api/filetree/createDocWithMd',
  '/api/filetree/createDailyNote',
];

/** The write requests a double served. */
export function writeCalls(double) {
  return double.calls.filter((c) => WRITE_PATHS.includes(c.path));
}

/** A fake `request` that records calls and answers with `answer(path, body)`. */
export function recorder(answer = () => ({ code: 0, msg: '', data: null })) {
  const calls = [];
  const request = async (path, body) => {
    calls.push({ path, body: structuredClone(body) });
    return answer(path, body);
  };
  return { calls, request };
}

/** (id, type, markdown) of a document's top level, via the kernel API (getChildBlocks). */
export async function topLevel(host, docId) {
  const [children] = await host.getChildBlocks([docId]);
  return children.map((c) => ({ id: c.id, type: c.type, markdown: c.markdown ?? '' }));
}

export async function sql(double, stmt) {
  const res = await double.request('/api/query/sql', { stmt });
  if (res.code !== 0) throw new Error(res.msg);
  return res.data;
}

// The fixtures' table was written by hand, spaced; the kernel writes it
// unpadded (KERNEL-FACTS §6, kernel notes §2), and so does the double.
export const TABLE = '20240614083500-tbl4abc';
export const TABLE_SPACED =
  '| 问题 | 状态 | 负责人 |\n| --- | --- | --- |\n| 列表项更新异常 | 已修复 | 张三 |\n| 多块 REPLACE 丢失 | 调查中 | 李四 |';
export const TABLE_KERNEL =
  '|问题|状态|负责人|\n| -------------------| --------| --------|\n|列表项更新异常|已修复|张三|\n|多块 REPLACE 丢失|调查中|李四|';
/** A fixture's kramdown as the kernel serves it: its table unpadded, its IALs compared as sets. */
/**
 * A fixture's hand-made kramdown as the kernel writes it: a blockquote's
 * last child's IAL is followed by a `>` line before the quote's own IAL
 * (confirmed live on v3.7.3, report A Q3).
 */
export const quoteClosed = (kramdown) => {
  const lines = kramdown.split('\n');
  const out = [];
  lines.forEach((line, i) => {
    out.push(line);
    const m = /^(.*?)> \{:[^}]*\}$/.exec(line);
    if (m && lines[i + 1]?.startsWith(`${m[1]}{:`)) out.push(`${m[1]}>`);
  });
  return out.join('\n');
};

export const asKernel = (kramdown) =>
  testing.canonicalIal(
    quoteClosed(kramdown)
      .replace(TABLE_SPACED, TABLE_KERNEL)
      // A read is trimmed: an empty paragraph first is its IAL alone.
      .replace(/^\n+/, ''),
  );

/**
 * A document as its user reads it on the kernel: its kramdown with
 * attributes compared as sets and without the zero-width spaces the kernel
 * puts beside inline code and <kbd> on every API write (invisible, and not
 * editkit's to control: kernel notes §2).
 */
export const docState = async (double, docId) =>
  withoutUpdated(testing.canonicalIal((await double.kramdown(docId)).replace(/\u200b/g, '')));

/**
 * Kramdown without `updated` stamps: the kernel sets them on every write,
 * and copies a restated one to the headings and containers above the block
 * (KERNEL-FACTS §10, seen live), so no undo can put them back.
 */
export const withoutUpdated = (kramdown) =>
  kramdown.replace(/ ?updated="\d{14}"/g, '').replace(/\{: \}/g, '{:}');

/** The block write endpoints (a batch request is one write). */
export const BLOCK_WRITES = new Set([
  '/api/block/updateBlock',
  '/api/block/deleteBlock',
  '/api/block/insertBlock',
  '/api/block/prependBlock',
  '/api/block/appendBlock',
  '/api/block/batchUpdateBlock',
  '/api/block/batchInsertBlock',
  '/api/block/batchPrependBlock',
  '/api/block/batchAppendBlock',
]);

/**
 * Whether a request is a block write on the suite's write path (a batch
 * endpoint the kernel lacks, on the fallback path, answers 404 and writes
 * nothing: it is not one).
 */
export function isBlockWrite(path) {
  return BLOCK_WRITES.has(path) && !(WRITE_PATH === 'fallback' && path.includes('/batch'));
}

/** The endpoint a one-block write goes through on the suite's write path. */
export function viaPath(path) {
  if (WRITE_PATH !== '1') return path;
  const name = path.split('/').pop();
  if (name === 'deleteBlock') return path;
  return `/api/block/batch${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

/**
 * A host over `double` whose k-th block write fails `when`: 'before' it
 * reaches the kernel, or 'after' it landed with its answer lost. `writes()`
 * counts the block writes made so far (k = 0: none fails).
 */
export function failingHost(double, k = 0, when = 'before') {
  let writes = 0;
  const request = async (path, body) => {
    if (isBlockWrite(path)) {
      writes += 1;
      if (writes === k) {
        if (when === 'before') throw new Error(`write #${k} refused`);
        await double.request(path, body);
        throw new Error(`write #${k} landed, answer lost`);
      }
    }
    return double.request(path, body);
  };
  return {
    double,
    host: ek.createSiyuanHost({ request, lute: Lute, ...hostPath() }),
    writes: () => writes,
  };
}

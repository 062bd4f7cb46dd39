// Documents: loading the test data, and `/api/filetree/*` (KERNEL-FACTS §8).

import type { Block } from '../../types.js';
import { parsePairs } from './attrs.js';
import { unpadTable } from './format.js';
import { CONTAINERS, KernelFailure, sortKeys } from './model.js';
import type { DNode } from './model.js';
import { parseMarkdown } from './parse.js';
import { DEFAULT_DAILY_NOTE_PATH } from './state.js';
import type { KernelState } from './state.js';

/** A document as the shared fixtures ship it (rows, tree and kramdown). */
export interface FixtureDocument {
  document: Block;
  blocks: Block[];
  tree: TreeNode;
  api?: { getBlockKramdown?: Record<string, string> };
}

export interface TreeNode {
  id: string;
  type: string;
  children: TreeNode[];
}

/** A document given as markdown blocks (each string one top-level block). */
export interface MarkdownDocument {
  id: string;
  title: string;
  /** Notebook id. */
  box: string;
  /** Human path, e.g. `/Notes/Weekly`. */
  hpath: string;
  /** Id path, e.g. `/20240101000000-aaaaaaa/20240102000000-bbbbbbb.sy`. */
  path?: string;
  /** Top-level blocks; an object gives the block a fixed id. */
  blocks: (string | { id: string; markdown: string })[];
}

export function noteBox(k: KernelState, box: string, name?: string): void {
  if (box && !k.notebooks.has(box)) k.notebooks.set(box, { id: box, name: name ?? box });
}

export function newDocNode(
  k: KernelState,
  row: { id: string; box: string; path: string; hpath: string; ial?: string; title?: string },
): DNode {
  const attrs = new Map<string, string>();
  const pairs = parsePairs(row.ial ?? '');
  for (const [key, v] of pairs) if (key !== 'id') attrs.set(key, v);
  if (!attrs.has('title')) attrs.set('title', row.title ?? row.hpath.split('/').pop() ?? '');
  if (!attrs.has('type')) attrs.set('type', 'doc');
  if (!attrs.has('updated')) attrs.set('updated', row.id.slice(0, 14));
  const d: DNode = {
    id: row.id,
    type: 'd',
    subtype: '',
    attrs,
    children: [],
    parent: null,
    body: '',
    content: '',
    doc: { box: row.box, path: row.path, hpath: row.hpath },
    idAt: Math.max(
      0,
      pairs.findIndex(([key]) => key === 'id'),
    ),
  };
  k.tree.addDocument(d);
  noteBox(k, row.box);
  return d;
}

/** A document row without a body (a folder document of the notebook index), unless loaded. */
export function loadDocumentRow(k: KernelState, r: Block): void {
  if (k.tree.has(r.id) || r.type !== 'd') return;
  newDocNode(k, {
    id: r.id,
    box: r.box ?? '',
    path: r.path ?? `/${r.id}.sy`,
    hpath: r.hpath ?? '',
    ial: r.ial ?? '',
  });
}

export function loadFixture(k: KernelState, f: FixtureDocument): void {
  const fx = f as FixtureDocument & { notebook?: { id: string; name: string } };
  if (fx.notebook) noteBox(k, fx.notebook.id, fx.notebook.name);
  const docRow = f.document;
  const d = newDocNode(k, {
    id: docRow.id,
    box: docRow.box ?? '',
    path: docRow.path ?? `/${docRow.id}.sy`,
    hpath: docRow.hpath ?? '',
    ial: docRow.ial ?? '',
  });
  const rows = new Map(f.blocks.map((b) => [b.id, b]));
  const kram = f.api?.getBlockKramdown ?? {};
  const build = (t: TreeNode & { subtype?: string }, parent: DNode): DNode => {
    const row = rows.get(t.id);
    const n: DNode = {
      id: t.id,
      type: t.type,
      subtype: t.subtype ?? row?.subtype ?? '',
      attrs: new Map(),
      children: [],
      parent,
      body: '',
      content: row?.content ?? '',
    };
    const pairs = parsePairs(row?.ial ?? '');
    for (const [key, v] of pairs) if (key !== 'id') n.attrs.set(key, v);
    n.idAt = Math.max(
      0,
      pairs.findIndex(([key]) => key === 'id'),
    );
    const kd = kram[t.id] ?? '';
    const firstLine = kd.split('\n')[0] ?? '';
    if (CONTAINERS.has(t.type)) {
      n.children = t.children.map((c) => build(c, n));
      if (t.type === 'i') {
        const task = /^(?:[-*+]|\d+[.)]) (?:\{:[^}]*\})?\[([ xX])\] /.exec(firstLine);
        if (task) {
          n.task = task[1];
          n.taskAt = 0;
        }
      }
      if (t.type === 'l' && n.subtype === 'o') {
        const m = /^(\d+)([.)]) /.exec(firstLine);
        n.start = m ? Number(m[1]) : 1;
        n.delim = m ? m[2] : '.';
      }
      if (t.type === 's') n.layout = /^\{\{\{(\w+)/.exec(firstLine)?.[1] ?? 'row';
      if (t.type === 'callout') {
        n.calloutType = /\[!(\w+)\]/.exec(firstLine)?.[1] ?? 'NOTE';
        n.subtype = n.calloutType;
      }
    } else {
      n.body = kd.includes('\n{:') ? kd.slice(0, kd.lastIndexOf('\n{:')) : (row?.markdown ?? '');
      // KERNEL-FACTS §6, notes §2: the kernel writes tables unpadded; the
      // fixtures' tables (padded by hand) read back in the kernel's form.
      if (t.type === 't') n.body = unpadTable(n.body);
    }
    if (row) n.row = sortKeys(t.type === 't' ? { ...row, markdown: n.body } : { ...row });
    return n;
  };
  d.children = f.tree.children.map((c) => build(c, d));
  k.tree.register(d);
  d.row = sortKeys({ ...docRow });
}

export function loadMarkdownDocument(k: KernelState, m: MarkdownDocument): void {
  const d = newDocNode(k, {
    id: m.id,
    box: m.box,
    path: m.path ?? `/${m.id}.sy`,
    hpath: m.hpath,
    title: m.title,
  });
  const md = m.blocks
    .map((b) => (typeof b === 'string' ? b : `${b.markdown}\n{: id="${b.id}"}`))
    .join('\n\n');
  if (md.trim() !== '') {
    const { top } = parseMarkdown(k, md, { api: false });
    d.children = top;
    k.tree.register(d);
  }
}

function createDoc(
  k: KernelState,
  box: string,
  parentDoc: DNode | undefined,
  title: string,
  id: string,
  hpath: string,
): DNode {
  const dir = parentDoc?.doc ? parentDoc.doc.path.replace(/\.sy$/, '') : '';
  const d = newDocNode(k, { id, box, path: `${dir}/${id}.sy`, hpath, title });
  d.attrs.set('updated', k.stamp());
  k.touch(d);
  return d;
}

function fillDoc(k: KernelState, d: DNode, md: string): void {
  const { top } = parseMarkdown(k, md);
  d.children = top;
  k.tree.register(d);
  k.touch(d);
}

function docByHpath(k: KernelState, box: string, hpath: string): DNode | undefined {
  return [...k.tree.docs.values()].find((x) => x.doc?.box === box && x.doc.hpath === hpath);
}

/** The document at each prefix of `segments` (created empty where missing); the last one. */
function ensureDocPath(k: KernelState, box: string, segments: string[]): DNode | undefined {
  let parent: DNode | undefined;
  let hpath = '';
  for (const seg of segments) {
    hpath += `/${seg}`;
    let d = docByHpath(k, box, hpath);
    if (!d) {
      d = createDoc(k, box, parent, seg, k.newId(), hpath);
      fillDoc(k, d, '');
    }
    parent = d;
  }
  return parent;
}

/** Titles lose tabs and newlines and are capped at 512 characters. */
function cleanTitle(title: string): string {
  return [...title.replace(/[\t\r\n]/g, '')].slice(0, 512).join('');
}

/**
 * `/api/filetree/createDocWithMd`: the `parentID` is used only if the
 * hpath's parent part is that document's hpath; otherwise (an unknown id
 * too) the hpath decides: the first document found per prefix, missing
 * parents created (KERNEL-FACTS §8).
 */
export function createDocWithMd(
  k: KernelState,
  body: Record<string, unknown>,
  box: string,
  id?: string,
): string {
  if (!k.notebooks.has(box)) throw new KernelFailure(-1, `notebook [${box}] not found`);
  const firstInNotebook = ![...k.tree.docs.values()].some((x) => x.doc?.box === box);
  let hpath = String(body.path ?? '').trim();
  if (!hpath.startsWith('/')) hpath = `/${hpath}`;
  const segments = hpath.split('/').slice(1).map(cleanTitle);
  hpath = `/${segments.join('/')}`;
  const md = typeof body.markdown === 'string' ? body.markdown : '';
  const parentID = typeof body.parentID === 'string' ? body.parentID : '';
  const parentHpath = `/${segments.slice(0, -1).join('/')}`;
  const named = parentID ? k.tree.docs.get(parentID) : undefined;
  const parentDoc =
    named && named.doc?.box === box && named.doc.hpath === parentHpath
      ? named
      : ensureDocPath(k, box, segments.slice(0, -1));
  const title = segments[segments.length - 1] || 'Untitled';
  const d = createDoc(k, box, parentDoc, title, id && !k.tree.has(id) ? id : k.newId(), hpath);
  fillDoc(k, d, md);
  // The first document of a notebook is indexed twice (state.ts `indexAgain`).
  if (firstInNotebook) k.indexAgain(d.id);
  return d.id;
}

/** Go's `time.Format` layouts the daily-note templates use. */
function goDate(d: Date, layout: string, utc: boolean): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const parts = utc
    ? { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, day: d.getUTCDate() }
    : { y: d.getFullYear(), m: d.getMonth() + 1, day: d.getDate() };
  // One pass, so a year's digits are never read as a month.
  return layout.replace(/2006|01|02/g, (token) =>
    token === '2006' ? p(parts.y, 4) : token === '01' ? p(parts.m) : p(parts.day),
  );
}

/**
 * `/api/filetree/createDailyNote`: the notebook's save-path template in the
 * kernel's local time, the daily-note template's content; an existing note
 * is found by hpath only; an empty or `/` save path is an error; an unknown
 * notebook answers code 1 (KERNEL-FACTS §8).
 */
export function createDailyNote(k: KernelState, box: string): { id: string } {
  const nb = k.notebooks.get(box);
  if (!nb) throw new KernelFailure(1, `notebook [${box}] not found`);
  const template = nb.dailyNoteSavePath ?? DEFAULT_DAILY_NOTE_PATH;
  const now = k.now();
  const hpath = template
    .replace(/\{\{\s*now\s*\|\s*date\s*"([^"]*)"\s*\}\}/g, (_, layout: string) =>
      goDate(now, layout, k.utc),
    )
    .trim();
  if (hpath === '' || hpath === '/')
    throw new KernelFailure(-1, 'the daily note save path of this notebook is empty');
  const existing = docByHpath(k, box, hpath);
  if (existing) return { id: existing.id };
  const segments = hpath.split('/').filter((s) => s !== '');
  const parentDoc = ensureDocPath(k, box, segments.slice(0, -1));
  const title = segments[segments.length - 1] ?? '';
  const d = createDoc(k, box, parentDoc, title, k.newId(), hpath);
  d.attrs.set(`custom-dailynote-${goDate(now, '20060102', k.utc)}`, goDate(now, '20060102', k.utc));
  fillDoc(k, d, nb.dailyNoteTemplate ?? '');
  return { id: d.id };
}

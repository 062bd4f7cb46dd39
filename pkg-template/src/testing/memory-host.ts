// An in-memory SiYuan host: a block tree held in memory, implementing every
// host callback. For tests, demos and trying agents offline.
//
// It follows the kernel rules editkit relies on: `getChildBlocks` of a
// heading is its section (the blocks after it up to the next heading of
// the same or a higher level); `parent_id` of a block after a heading is
// that heading; prepend/append only into containers (kernel v3.7);
// `updateBlock` keeps only the first block of multi-block markdown and only
// the attributes written in its IAL; an id in an inserted block's IAL is
// kept when unused. Simplifications: blocks are split at blank lines
// outside fences and lists; a container's markdown is not re-rendered when
// a child changes, and a container rewritten by `updateBlock` has no child
// rows afterwards (the kernel would rebuild them with new ids).

import type {
  Block,
  BreadcrumbEntry,
  ChildBlock,
  CreateDocArgs,
  InsertAnchor,
  SiyuanHost,
} from '../types.js';

/** A recorded host call. */
export interface HostCall {
  name: string;
  args: unknown[];
}

/** A document as the fixtures ship it (rows, tree and kramdown). */
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

export interface MemoryHostOptions {
  fixtures?: FixtureDocument[];
  documents?: MarkdownDocument[];
  /** Clock for new ids and `updated` stamps (default: a fixed 2099 stamp). */
  now?: () => Date;
}

/** Implements the block-diff callbacks; the reading/creating ones
 * (`getBreadcrumb`, `createDoc`, `createDailyNote`) are served by
 * `createKernelDouble` + `createSiyuanHost` instead. */
export interface MemoryHost extends Required<SiyuanHost> {
  /** Every call made, in order. */
  readonly calls: HostCall[];
  /** Makes the k-th write from now (1-based) throw. */
  failWriteAt(k: number | null): void;
  /** A block row, or undefined. */
  block(id: string): Block | undefined;
  /** (id, type, markdown) of every block of a document, in order. */
  snapshot(docId: string): { id: string; type: string; markdown: string }[];
  /** The top-level blocks of a document. */
  topLevel(docId: string): Block[];
  /** The document as markdown: its top-level blocks joined by blank lines. */
  documentMarkdown(docId: string): string;
  /** Ids of every document. */
  documentIds(): string[];
}

const CONTAINERS = new Set(['d', 'l', 'i', 'b', 's', 'callout']);

export function createMemoryHost(options: MemoryHostOptions = {}): MemoryHost {
  const rows = new Map<string, Block>();
  const kids = new Map<string, string[]>();
  const treeParent = new Map<string, string>();
  const kramdown = new Map<string, string>();
  const calls: HostCall[] = [];
  let failAt: number | null = null;
  let writes = 0;
  let counter = 0;
  const now = options.now ?? (() => new Date(Date.UTC(2099, 0, 1)));

  const stamp = (): string => {
    const d = now();
    const p = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
  };
  const newId = (): string => {
    counter += 1;
    return `${stamp()}-new${String(counter).padStart(4, '0')}`;
  };

  for (const fixture of options.fixtures ?? []) {
    rows.set(fixture.document.id, { ...fixture.document });
    for (const b of fixture.blocks) rows.set(b.id, { ...b });
    const walk = (node: TreeNode): void => {
      const ids = node.children.map((c) => c.id);
      for (const c of ids) treeParent.set(c, node.id);
      if (ids.length > 0 || CONTAINERS.has(node.type)) kids.set(node.id, ids);
      node.children.forEach(walk);
    };
    walk(fixture.tree);
    for (const [id, k] of Object.entries(fixture.api?.getBlockKramdown ?? {})) kramdown.set(id, k);
  }
  for (const doc of options.documents ?? []) {
    const path = doc.path ?? `/${doc.id}.sy`;
    rows.set(doc.id, {
      id: doc.id,
      type: 'd',
      subtype: '',
      markdown: '',
      content: doc.title,
      fcontent: doc.title,
      box: doc.box,
      path,
      hpath: doc.hpath,
      root_id: doc.id,
      parent_id: '',
      ial: `{: id="${doc.id}" title="${doc.title}" type="doc"}`,
      name: '',
      alias: '',
      memo: '',
      tag: '',
      length: [...doc.title].length,
      sort: 0,
      created: doc.id.slice(0, 14),
      updated: doc.id.slice(0, 14),
      hash: '',
    });
    kids.set(doc.id, []);
    for (const b of doc.blocks) {
      const md = typeof b === 'string' ? b : `${b.markdown}\n{: id="${b.id}"}`;
      const ids = createBlocks(md, doc.id);
      insertAt(doc.id, Number.MAX_SAFE_INTEGER, ids);
    }
  }

  function parentOf(id: string): string | undefined {
    return treeParent.get(id);
  }

  function headingLevel(b: Block | undefined): number {
    if (!b || b.type !== 'h') return 0;
    const n = Number((b.subtype ?? '').slice(1));
    return n >= 1 && n <= 6 ? n : 1;
  }

  function computeParentId(id: string): string {
    const parent = parentOf(id);
    if (parent === undefined) return '';
    const list = kids.get(parent) ?? [];
    const index = list.indexOf(id);
    const own = rows.get(id);
    const ownLevel = own?.type === 'h' ? headingLevel(own) : 7;
    for (let i = index - 1; i >= 0; i--) {
      const b = rows.get(list[i]!);
      if (b?.type === 'h' && headingLevel(b) < ownLevel) return b.id;
    }
    return parent;
  }

  function childBlocks(id: string): ChildBlock[] {
    const block = rows.get(id);
    if (!block) return [];
    let ids: string[];
    if (block.type === 'h') {
      const parent = parentOf(id);
      const list = parent === undefined ? [] : (kids.get(parent) ?? []);
      const level = headingLevel(block);
      ids = [];
      for (const k of list.slice(list.indexOf(id) + 1)) {
        const b = rows.get(k);
        if (b?.type === 'h' && headingLevel(b) <= level) break;
        ids.push(k);
      }
    } else {
      ids = [...(kids.get(id) ?? [])];
    }
    return ids.flatMap((k) => {
      const b = rows.get(k);
      if (!b) return [];
      const c: ChildBlock = { id: b.id, type: b.type };
      if (b.subtype) c.subType = b.subtype;
      if (b.content) c.content = b.content;
      if (b.markdown) c.markdown = b.markdown;
      return [c];
    });
  }

  function removeSubtree(id: string): void {
    for (const k of kids.get(id) ?? []) removeSubtree(k);
    kids.delete(id);
    rows.delete(id);
    kramdown.delete(id);
    treeParent.delete(id);
  }

  function refreshParentIds(parent: string): void {
    for (const k of kids.get(parent) ?? []) {
      const b = rows.get(k);
      if (b) b.parent_id = computeParentId(k);
    }
  }

  function insertAt(parent: string, index: number, ids: string[]): void {
    const list = kids.get(parent) ?? [];
    list.splice(Math.min(index, list.length), 0, ...ids);
    kids.set(parent, list);
    for (const id of ids) treeParent.set(id, parent);
    refreshParentIds(parent);
  }

  function createBlocks(markdown: string, near: string): string[] {
    return splitBlocks(markdown).map((md) => makeRow(md, near));
  }

  function makeRow(markdown: string, near: string): string {
    const { text, attrs } = splitIal(markdown);
    const wanted = attrs.find(([k]) => k === 'id')?.[1];
    const id =
      wanted && /^\d{14}-[0-9a-z]{7}$/.test(wanted) && !rows.has(wanted) ? wanted : newId();
    const template = rows.get(near);
    const root = template?.type === 'd' ? template.id : (template?.root_id ?? '');
    const row: Block = {
      id,
      type: 'p',
      root_id: root,
      box: template?.box ?? '',
      path: template?.path ?? '',
      hpath: template?.hpath ?? '',
      parent_id: '',
      created: id.slice(0, 14),
      hash: '',
      sort: 10,
      tag: '',
    };
    setContent(row, text, attrs);
    rows.set(id, row);
    kramdown.set(id, `${row.markdown}\n${row.ial}`);
    if (row.type === 'l' || row.type === 'b' || row.type === 's') kids.set(id, []);
    return id;
  }

  function setContent(row: Block, markdown: string, attrs: [string, string][]): void {
    const [type, subtype] = detectType(markdown);
    row.type = type;
    row.subtype = subtype;
    row.markdown = markdown;
    row.content = markdown.replace(/^[#>\-*+\s]+/, '');
    row.length = [...(row.content ?? '')].length;
    row.name = row.alias = row.memo = '';
    const ial = [`id="${row.id}"`];
    for (const [k, v] of attrs) {
      if (k === 'id' || k === 'updated') continue;
      if (k === 'name' || k === 'alias' || k === 'memo') row[k] = v;
      ial.push(`${k}="${v}"`);
    }
    const updated = stamp();
    row.updated = updated;
    ial.push(`updated="${updated}"`);
    ial.sort();
    row.ial = `{: ${ial.join(' ')}}`;
  }

  function record(name: string, args: unknown[]): void {
    calls.push({ name, args });
  }

  function countWrite(name: string): void {
    writes += 1;
    if (failAt !== null && writes === failAt)
      throw new Error(`simulated failure of write #${writes} (${name})`);
  }

  function containerInsert(
    name: string,
    parentID: string,
    markdown: string,
    first: boolean,
  ): string[] {
    record(name, [parentID, markdown]);
    countWrite(name);
    const parent = rows.get(parentID);
    if (!parent) throw new Error(`block ${parentID} not found`);
    if (!CONTAINERS.has(parent.type)) throw new Error(`block ${parentID} is not a container`);
    const ids = createBlocks(markdown, parentID);
    insertAt(parentID, first ? 0 : Number.MAX_SAFE_INTEGER, ids);
    return ids;
  }

  const host: MemoryHost = {
    calls,
    failWriteAt(k) {
      failAt = k === null ? null : writes + k;
    },
    block: (id) => {
      const b = rows.get(id);
      return b ? { ...b, parent_id: computeParentId(id) } : undefined;
    },
    snapshot(docId) {
      const out: { id: string; type: string; markdown: string }[] = [];
      const walk = (id: string): void => {
        for (const k of kids.get(id) ?? []) {
          const b = rows.get(k);
          if (b) out.push({ id: b.id, type: b.type, markdown: b.markdown ?? '' });
          walk(k);
        }
      };
      walk(docId);
      return out;
    },
    topLevel: (docId) =>
      (kids.get(docId) ?? []).flatMap((k) => (rows.has(k) ? [{ ...rows.get(k)! }] : [])),
    documentMarkdown: (docId) =>
      (kids.get(docId) ?? []).map((k) => rows.get(k)?.markdown ?? '').join('\n\n'),
    documentIds: () => [...rows.values()].filter((b) => b.type === 'd').map((b) => b.id),

    async getBlocks(ids) {
      record('getBlocks', [ids]);
      return ids.map((id) => host.block(id) ?? null);
    },
    async getChildBlocks(ids) {
      record('getChildBlocks', [ids]);
      return ids.map(childBlocks);
    },
    async getKramdown(ids) {
      record('getKramdown', [ids]);
      return ids.map((id) => {
        const k = kramdown.get(id);
        if (k !== undefined) return k;
        const b = rows.get(id);
        return b ? `${b.markdown}\n${b.ial}` : null;
      });
    },
    async updateBlock(id, markdown) {
      record('updateBlock', [id, markdown]);
      countWrite('updateBlock');
      const row = rows.get(id);
      if (!row) throw new Error(`block ${id} not found`);
      const first = splitBlocks(markdown)[0] ?? '';
      const { text, attrs } = splitIal(first);
      if (kids.has(id)) {
        for (const k of kids.get(id) ?? []) removeSubtree(k);
        kids.set(id, []);
      }
      setContent(row, text, attrs);
      kramdown.set(id, `${row.markdown}\n${row.ial}`);
      const parent = parentOf(id);
      if (parent !== undefined) refreshParentIds(parent);
      return [{ doOperations: [{ id, action: 'update' }] }];
    },
    async deleteBlock(id) {
      record('deleteBlock', [id]);
      countWrite('deleteBlock');
      const block = rows.get(id);
      if (!block) throw new Error(`block ${id} not found`);
      // The kernel unlinks only this node (a folded heading's section stays).
      const doomed = [id];
      const parent = parentOf(id);
      for (const d of doomed) {
        const p = parentOf(d);
        if (p !== undefined)
          kids.set(
            p,
            (kids.get(p) ?? []).filter((k) => k !== d),
          );
        removeSubtree(d);
      }
      if (parent !== undefined) refreshParentIds(parent);
      return null;
    },
    async insertBlock(markdown, anchor: InsertAnchor) {
      record('insertBlock', [markdown, anchor]);
      countWrite('insertBlock');
      let parent: string;
      let index: number;
      let near: string;
      if ('parentID' in anchor) {
        parent = near = anchor.parentID;
        if (!rows.has(parent)) throw new Error(`block ${parent} not found`);
        index = Number.MAX_SAFE_INTEGER;
      } else {
        near = 'previousID' in anchor ? anchor.previousID : anchor.nextID;
        const p = parentOf(near);
        if (!rows.has(near) || p === undefined) throw new Error(`anchor ${near} not found`);
        parent = p;
        const pos = (kids.get(p) ?? []).indexOf(near);
        index = 'previousID' in anchor ? pos + 1 : pos;
      }
      const ids = createBlocks(markdown, near);
      insertAt(parent, index, ids);
      return ids;
    },
    async prependBlock(parentID, markdown) {
      return containerInsert('prependBlock', parentID, markdown, true);
    },
    async appendBlock(parentID, markdown) {
      return containerInsert('appendBlock', parentID, markdown, false);
    },
    async flushTransaction() {
      record('flushTransaction', []);
    },
    async getBreadcrumb(ids) {
      record('getBreadcrumb', [ids]);
      return ids.map(breadcrumb);
    },
    async getDocHeadings(docIds) {
      record('getDocHeadings', [docIds]);
      return docIds.map((docId) => {
        const out: Block[] = [];
        const walk = (id: string): void => {
          for (const k of kids.get(id) ?? []) {
            const b = rows.get(k);
            if (b?.type === 'h') out.push({ ...b });
            walk(k);
          }
        };
        walk(docId);
        return out;
      });
    },
    async createDoc(request: CreateDocArgs) {
      record('createDoc', [request]);
      countWrite('createDoc');
      return createDocument(
        request.notebook,
        request.path,
        request.parentID ?? '',
        request.markdown,
      );
    },
    async createDailyNote(request) {
      record('createDailyNote', [request]);
      const d = now();
      const p = (n: number) => String(n).padStart(2, '0');
      const y = d.getUTCFullYear();
      const hpath = `/daily note/${y}/${p(d.getUTCMonth() + 1)}/${y}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())}`;
      const existing = [...rows.values()].find(
        (b) => b.type === 'd' && b.box === request.notebook && b.hpath === hpath,
      );
      return existing ? existing.id : createDocument(request.notebook, hpath, '', '');
    },
  };

  const NODE_TYPES: Record<string, string> = {
    d: 'NodeDocument',
    h: 'NodeHeading',
    p: 'NodeParagraph',
    l: 'NodeList',
    i: 'NodeListItem',
    b: 'NodeBlockquote',
    s: 'NodeSuperBlock',
    c: 'NodeCodeBlock',
    t: 'NodeTable',
    m: 'NodeMathBlock',
    tb: 'NodeThematicBreak',
  };

  /** Document, heading parents, containers, the block: a simplified kernel breadcrumb. */
  function breadcrumb(id: string): BreadcrumbEntry[] {
    const block = rows.get(id);
    if (!block) return [];
    const chain: string[] = [];
    let cur: string | undefined = id;
    while (cur !== undefined) {
      chain.unshift(cur);
      const pid: string = computeParentId(cur);
      cur = pid === '' ? undefined : pid;
    }
    return chain.flatMap((k) => {
      const b = rows.get(k);
      if (!b) return [];
      const name =
        b.type === 'd' ? (b.hpath ?? '').replace(/^\//, '') : (b.content ?? '').slice(0, 64);
      return [
        {
          id: b.id,
          name,
          type: NODE_TYPES[b.type] ?? 'NodeParagraph',
          subType: b.subtype ?? '',
          children: null,
        },
      ];
    });
  }

  function createDocument(box: string, hpath: string, parentID: string, markdown: string): string {
    const id = newId();
    const parent = parentID ? rows.get(parentID) : undefined;
    const path = `${parent?.path ? parent.path.replace(/\.sy$/, '') : ''}/${id}.sy`;
    const title = hpath.split('/').filter(Boolean).pop() ?? '';
    rows.set(id, {
      id,
      type: 'd',
      subtype: '',
      markdown: '',
      content: title,
      fcontent: title,
      box,
      path,
      hpath,
      root_id: id,
      parent_id: '',
      ial: `{: id="${id}" title="${title}" type="doc"}`,
      name: '',
      alias: '',
      memo: '',
      tag: '',
      length: [...title].length,
      sort: 0,
      created: id.slice(0, 14),
      updated: id.slice(0, 14),
      hash: '',
    });
    kids.set(id, []);
    if (markdown.trim()) insertAt(id, Number.MAX_SAFE_INTEGER, createBlocks(markdown, id));
    return id;
  }
  return host;
}

/** Blank lines outside fences split blocks; indented lines continue a list. */
export function splitBlocks(markdown: string): string[] {
  const blocks: string[][] = [];
  let current: string[] = [];
  let fence = false;
  for (const line of markdown.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (!fence && line.trim() === '') {
      if (current.length > 0) blocks.push(current);
      current = [];
      continue;
    }
    if (current.length === 0 && /^\s{2,}\S/.test(line) && blocks.length > 0) {
      current = blocks.pop()!;
      current.push('');
    }
    current.push(line);
  }
  if (current.length > 0) blocks.push(current);
  return blocks.map((b) => b.join('\n'));
}

/** Trailing `{: …}` lines → attributes; IALs elsewhere are dropped. */
function splitIal(markdown: string): { text: string; attrs: [string, string][] } {
  const lines = markdown.split('\n');
  let attrs: [string, string][] = [];
  while (lines.length > 0 && /^\s*\{:.*\}\s*$/.test(lines[lines.length - 1]!)) {
    attrs = [...parseIal(lines.pop()!), ...attrs];
  }
  const text = lines
    .filter((l) => !/^\s*(>\s*)*\{:.*\}\s*$/.test(l))
    .map((l) => l.replace(/^(\s*(?:[-*+]|\d+[.)])(?: \[[ xX]\])? )\{:[^}]*\}/, '$1'))
    .join('\n')
    .replace(/\n+$/, '');
  return { text, attrs };
}

function parseIal(line: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of line.matchAll(/([^\s={:]+)="([^"]*)"/g)) out.push([m[1]!, m[2]!]);
  return out;
}

function detectType(markdown: string): [string, string] {
  const t = markdown.trimStart();
  const h = /^(#{1,6})(\s|$)/.exec(t);
  if (h) return ['h', `h${h[1]!.length}`];
  if (t.startsWith('```') || t.startsWith('~~~')) return ['c', ''];
  if (t.startsWith('>')) return ['b', ''];
  if (/^[-*+] \[[ xX]\]/.test(t)) return ['l', 't'];
  if (/^[-*+]\s/.test(t)) return ['l', 'u'];
  if (/^\d+[.)]\s/.test(t)) return ['l', 'o'];
  if (t.startsWith('|')) return ['t', ''];
  if (/^(-{3,}|\*{3,}|_{3,})$/.test(t)) return ['tb', ''];
  if (t.startsWith('$$')) return ['m', ''];
  if (t.startsWith('{{{')) return ['s', ''];
  return ['p', ''];
}

// An in-memory SiYuan host for tests, demos and trying agents offline: the
// kernel double (`createKernelDouble`, which implements
// `shared/KERNEL-FACTS.md`) behind the real adapter (`createSiyuanHost`),
// plus the conveniences tests want (recorded calls, a write that fails on
// purpose, the document as rows). SiYuan's rules live in the double only.

import { createSiyuanHost } from '../siyuan/adapter.js';
import type { Block, SiyuanKernelHost } from '../types.js';
import { createKernelDouble } from './kernel/double.js';
import type { KernelDouble, KernelDoubleOptions } from './kernel/double.js';

export type { FixtureDocument, MarkdownDocument, TreeNode } from './kernel/filetree.js';

/** A recorded host call. */
export interface HostCall {
  name: string;
  args: unknown[];
}

export interface MemoryHostOptions extends KernelDoubleOptions {
  /** Milliseconds a host callback may take before `HOST_TIMEOUT` (default 30,000). */
  timeoutMs?: number;
  /**
   * The batch callbacks (`updateBlocks`, `insertBlocks`, `prependBlocks`,
   * `appendBlocks`), as `createSiyuanHost` has them (default true: the
   * production path, the same kernel requests). `false`: one callback per
   * block, for tests that fail or count single writes.
   */
  batch?: boolean;
}

/**
 * Every host callback over the kernel double (those `createSiyuanHost`
 * has: the batches when it has them), plus test levers.
 */
export interface MemoryHost extends Omit<SiyuanKernelHost, 'request' | 'splitMarkdown'> {
  /** The kernel double underneath (clock, concurrent editor, queued failures). */
  readonly kernel: KernelDouble;
  /** Every host call made, in order. */
  readonly calls: HostCall[];
  /** Makes the k-th write from now (1-based; a batch is one write) throw before it reaches the kernel. */
  failWriteAt(k: number | null): void;
  /** A block row computed from the tree now, or undefined. */
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

/** The batch callbacks, forwarded when the adapter has them. */
const BATCHES = ['updateBlocks', 'insertBlocks', 'prependBlocks', 'appendBlocks'] as const;
const WRITES = new Set<string>([
  'updateBlock',
  'deleteBlock',
  'insertBlock',
  'prependBlock',
  'appendBlock',
  ...BATCHES,
]);

export function createMemoryHost(options: MemoryHostOptions = {}): MemoryHost {
  const kernel = createKernelDouble(options);
  const inner: SiyuanKernelHost = createSiyuanHost({
    request: kernel.request,
    batch: options.batch !== false,
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  const calls: HostCall[] = [];
  let failAt: number | null = null;
  let writes = 0;

  const topLevelIds = (docId: string): string[] => kernel.topLevel(docId);

  const wrap =
    (name: keyof SiyuanKernelHost) =>
    async (...args: unknown[]): Promise<unknown> => {
      calls.push({ name, args: JSON.parse(JSON.stringify(args)) as unknown[] });
      if (WRITES.has(name)) {
        writes += 1;
        if (failAt !== null && writes === failAt)
          throw new Error(`simulated failure of write #${writes} (${name})`);
      }
      const f = inner[name] as (...a: unknown[]) => Promise<unknown>;
      return f.apply(inner, args);
    };

  const host = {
    kernel,
    calls,
    failWriteAt(k: number | null) {
      failAt = k === null ? null : writes + k;
    },
    block: (id: string) => kernel.block(id),
    snapshot: (docId: string) => kernel.snapshot(docId),
    topLevel: (docId: string) =>
      topLevelIds(docId).flatMap((id) => {
        const b = kernel.block(id);
        return b ? [b] : [];
      }),
    documentMarkdown: (docId: string) =>
      topLevelIds(docId)
        .map((id) => kernel.block(id)?.markdown ?? '')
        .join('\n\n'),
    documentIds: () => kernel.documentIds(),
    getBlocks: wrap('getBlocks'),
    getChildBlocks: wrap('getChildBlocks'),
    getKramdown: wrap('getKramdown'),
    updateBlock: wrap('updateBlock'),
    deleteBlock: wrap('deleteBlock'),
    insertBlock: wrap('insertBlock'),
    prependBlock: wrap('prependBlock'),
    appendBlock: wrap('appendBlock'),
    flushTransaction: wrap('flushTransaction'),
    getBreadcrumb: wrap('getBreadcrumb'),
    getDocHeadings: wrap('getDocHeadings'),
    getReferencedIds: wrap('getReferencedIds'),
    createDoc: wrap('createDoc'),
    createDailyNote: wrap('createDailyNote'),
    getKernelVersion: wrap('getKernelVersion'),
    // The batch callbacks the adapter has (it has none with `batch: false`).
    ...Object.fromEntries(BATCHES.filter((name) => inner[name]).map((name) => [name, wrap(name)])),
  };
  return host as unknown as MemoryHost;
}

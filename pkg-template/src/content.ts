// Reading and writing tools over a SiYuan host: slice, getBlockContent,
// getBlockInfo, appendContent, createNewDoc, and their pure parts.

import * as glue from 'editkit-glue';
import {
  call,
  callAsync,
  HostContext,
  json,
  langOf,
  object,
  options,
  text,
  timeoutOf,
  wrapHost,
} from './boundary.js';
import { jsError } from './errors.js';
import type {
  AppendContentArgs,
  AppendContentResult,
  AppendPlan,
  AppendSource,
  BlockContent,
  BlockContentSource,
  BlockInfo,
  BlockInfoResult,
  BlockInfoSource,
  ChildBlock,
  ContentOptions,
  CreateNewDocArgs,
  CreateNewDocResult,
  GetBlockContentArgs,
  GetBlockInfoArgs,
  Lang,
  NewDocPathArgs,
  NewDocPlan,
  SiyuanHost,
  SliceResult,
} from './types.js';

/**
 * Selects children with a slice: `idA:idB`, `id:+N`, `id:-N`, `a:b`
 * (Python, negatives allowed), `-2:`, `id:END`, `BEGIN:id`, `5`, `id`, `""`.
 */
export function evaluateSlice<T extends ChildBlock | string>(
  children: T[],
  slice: string,
  opts?: ContentOptions,
): SliceResult<T> {
  const lang = langOf(opts);
  if (!Array.isArray(children)) {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, ['children', 'expected an array'], {
      subject: 'children',
    });
  }
  // Only the ids cross into wasm; the selected run of the caller's own
  // array comes back, so child objects keep their identity and any extra
  // fields.
  let ids: string[];
  try {
    ids = children.map((c) => (typeof c === 'string' ? c : (c as ChildBlock)?.id));
  } catch (e) {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      ['children', 'could not be read'],
      { subject: 'children' },
      e,
    );
  }
  if (ids.some((id) => typeof id !== 'string')) {
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      lang,
      ['children', 'expected ids or blocks with an id'],
      { subject: 'children' },
    );
  }
  const c = json(ids, 'children', lang);
  const s = text(slice, 'slice', lang);
  const o = options(opts, 'options', lang);
  const r = call<Omit<SliceResult<T>, 'blocks'>>(lang, () => glue.evaluateSlice(c, s, o));
  return { ...r, blocks: children.slice(r.start, r.end) };
}

/** Renders a block (and its child list) the way getBlockContent shows it. */
export function renderBlockContent(
  source: BlockContentSource,
  args: GetBlockContentArgs,
  opts?: ContentOptions,
): BlockContent {
  const lang = langOf(opts);
  const s = object(source, 'source', lang);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.renderBlockContent(s, a, o));
}

/** A block's markdown for reading, or with `@@id@@type` headers for editing. */
export async function getBlockContent(
  args: GetBlockContentArgs,
  host: SiyuanHost,
  opts?: ContentOptions,
): Promise<BlockContent> {
  const lang = langOf(opts);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  const h = wrapHost(host, lang, ctx, timeoutOf(opts));
  return callAsync(lang, ctx, () => glue.getBlockContent(a, h, o));
}

/** Block metadata for one or many ids, in one batched host call. */
export async function getBlockInfo(
  args: GetBlockInfoArgs,
  host: SiyuanHost,
  opts?: ContentOptions,
): Promise<BlockInfoResult> {
  const lang = langOf(opts);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  const h = wrapHost(host, lang, ctx, timeoutOf(opts));
  return callAsync(lang, ctx, () => glue.getBlockInfo(a, h, o));
}

/** getBlockInfo's pure part: one block's info from rows a host already holds. */
export function buildBlockInfo(source: BlockInfoSource, opts?: ContentOptions): BlockInfo {
  const lang = langOf(opts);
  const s = object(source, 'source', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.buildBlockInfo(s, o));
}

/** The YAML-like text an agent reads for getBlockInfo. */
export function formatBlockInfo(info: BlockInfoResult, opts?: ContentOptions): string {
  const lang = langOf(opts);
  const i = object(info, 'info', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.formatBlockInfo(i, o));
}

/** Appends markdown to today's daily note, a document, or next to/inside a block. */
export async function appendContent(
  args: AppendContentArgs,
  host: SiyuanHost,
  opts?: ContentOptions,
): Promise<AppendContentResult> {
  const lang = langOf(opts);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  const h = wrapHost(host, lang, ctx, timeoutOf(opts));
  return callAsync(lang, ctx, () => glue.appendContent(a, h, o));
}

/** appendContent's pure part: where markdown appended to a block goes. */
export function planAppend(source: AppendSource, opts?: ContentOptions): AppendPlan {
  const lang = langOf(opts);
  const s = object(source, 'source', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.planAppend(s, o));
}

/** Creates a document beside, inside, or beside the parent of an anchor document. */
export async function createNewDoc(
  args: CreateNewDocArgs,
  host: SiyuanHost,
  opts?: ContentOptions,
): Promise<CreateNewDocResult> {
  const lang = langOf(opts);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  const ctx = new HostContext();
  const h = wrapHost(host, lang, ctx, timeoutOf(opts));
  return callAsync(lang, ctx, () => glue.createNewDoc(a, h, o));
}

/** Where createNewDoc would put a document: `{ notebook, hpath, parentID }`. */
export function planNewDocPath(args: NewDocPathArgs, opts?: ContentOptions): NewDocPlan {
  const lang = langOf(opts);
  const a = object(args, 'args', lang);
  const o = options(opts, 'options', lang);
  return call(lang, () => glue.planNewDocPath(a, o));
}

// What MCP clients read beside a tool's input schema (the `mcp` format of
// toolDefinitions): a title, the behaviour hints that let a client approve
// the read tools without asking, and the schema of the structured result.
// The schemas hold what a result always has and type what it may have;
// every object may carry more (additionalProperties stays open), so a
// newer editkit adding a field never breaks a client's validation.

import type { JsonSchema } from './spec.js';
import type { Lang } from '../types.js';

/** MCP's `ToolAnnotations` (behaviour hints; clients must not rely on them for safety). */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * An MCP output schema: an object whose alternatives (`anyOf`) are a
 * success (its fields) and an error (`{ error }`). Open to more fields.
 */
export type McpOutputSchema = {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required: string[];
  anyOf: { required: string[] }[];
};

interface Meta {
  title: Record<Lang, string>;
  /** `read`: changes nothing; `add`: only adds; `change`: may replace or remove text. */
  effect: 'read' | 'add' | 'change';
  /** Calling it again with the same arguments changes nothing more. */
  idempotent?: boolean;
  /** The success result's fields (and which it always has); none: no structured result. */
  output?: { properties: Record<string, JsonSchema>; required: string[] };
}

const str: JsonSchema = { type: 'string' };
const num: JsonSchema = { type: 'number' };
const bool: JsonSchema = { type: 'boolean' };
const list = (items: JsonSchema): JsonSchema => ({ type: 'array', items });
const object = (properties: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema =>
  ({ type: 'object', properties, required }) as JsonSchema;

/** The error every tool reports the same way (`structuredContent.error`). */
export const MCP_ERROR_SCHEMA: JsonSchema = object(
  { code: str, message: str, next: str, details: object() },
  ['code', 'message'],
);

const fileView = {
  properties: {
    path: str,
    text: str,
    totalLines: num,
    shownLines: num,
    startLine: num,
    endLine: num,
    sizeBytes: num,
    nextRange: str,
    lineEnding: str,
    hasBom: bool,
  },
  required: ['path', 'text', 'totalLines'],
};
const plan = {
  properties: { status: str, path: str, hunkId: str, action: str, summary: str, diff: str },
  required: ['path', 'hunkId'],
};
/** What a writing file tool hands back to put the files back (apply it with apply_diff). */
const undo: JsonSchema = {
  type: 'string',
  description: 'A unified diff that apply_diff applies to restore every file this call wrote.',
};
const edited = {
  properties: {
    undo,
    path: str,
    strategy: str,
    occurrences: num,
    matches: list(object({ startLine: num, endLine: num, strategy: str })),
  },
  // `edit` with an empty old_string on a missing file creates it: then
  // `{ path, created }`, no strategy.
  required: ['path'],
};
const editBatch = {
  properties: { path: str, ok: bool, applied: num, failed: num, results: list(object()), undo },
  required: ['path', 'ok', 'applied', 'failed'],
};
const patched = {
  properties: {
    ok: bool,
    applied: num,
    failed: num,
    summary: str,
    written: list(str),
    files: list(object({ path: str })),
    undo,
  },
  required: ['ok', 'summary', 'written'],
};

const META: Record<string, Meta> = {
  getBlockInfo: {
    title: { en: 'Get SiYuan block info', zh: '查询思源块信息' },
    effect: 'read',
    output: {
      properties: { blocks: list(object({ id: str, type: str })), notFoundIds: list(str) },
      required: ['blocks', 'notFoundIds'],
    },
  },
  getBlockContent: {
    title: { en: 'Read a SiYuan block', zh: '读取思源块内容' },
    effect: 'read',
    output: {
      properties: { text: str, blockId: str, type: str, blockIds: list(str), total: num },
      required: ['text', 'blockId'],
    },
  },
  appendContent: {
    title: { en: 'Append to SiYuan', zh: '追加到思源' },
    effect: 'add',
    output: {
      properties: {
        success: bool,
        targetId: str,
        targetType: str,
        placement: str,
        newBlockIds: list(str),
        summary: str,
      },
      required: ['success', 'newBlockIds'],
    },
  },
  createNewDoc: {
    title: { en: 'Create a SiYuan document', zh: '新建思源文档' },
    effect: 'add',
    output: {
      properties: { success: bool, docId: str, hpath: str, notebook: str, summary: str },
      required: ['success', 'docId'],
    },
  },
  applyBlockDiff: {
    title: { en: 'Edit SiYuan blocks (block diff)', zh: '编辑思源块（块 diff）' },
    effect: 'change',
    output: {
      properties: {
        ok: bool,
        dryRun: bool,
        summary: str,
        results: list(object()),
        plan: list(object()),
        undo: str,
        warnings: list(object()),
      },
      required: ['ok', 'dryRun', 'summary', 'results'],
    },
  },
  read_file: {
    title: { en: 'Read a file', zh: '读取文件' },
    effect: 'read',
    output: fileView,
  },
  create_new_file: {
    title: { en: 'Create a file', zh: '新建文件' },
    effect: 'add',
    output: { properties: { path: str, created: bool, undo }, required: ['path', 'created'] },
  },
  overwrite_entire_file: {
    title: { en: 'Overwrite a file', zh: '整体覆盖文件' },
    effect: 'change',
    idempotent: true,
    output: { properties: { path: str, overwritten: bool, undo }, required: ['path'] },
  },
  prepare_file_range_edit: {
    title: { en: 'Plan a line-range edit', zh: '规划按行范围修改' },
    effect: 'read',
    output: plan,
  },
  prepare_file_append: {
    title: { en: 'Plan an append', zh: '规划末尾追加' },
    effect: 'read',
    output: plan,
  },
  prepare_file_insert_after: {
    title: { en: 'Plan an insert after an anchor', zh: '规划在锚点后插入' },
    effect: 'read',
    output: plan,
  },
  prepare_file_insert_before: {
    title: { en: 'Plan an insert before an anchor', zh: '规划在锚点前插入' },
    effect: 'read',
    output: plan,
  },
  prepare_file_block_replace: {
    title: { en: 'Plan a block replacement', zh: '规划替换锚点之间的块' },
    effect: 'read',
    output: plan,
  },
  apply_file_modification: {
    title: { en: 'Apply a planned edit', zh: '应用已规划的修改' },
    effect: 'change',
    // The same hunk again is ALREADY_APPLIED: nothing more is written.
    idempotent: true,
    output: {
      properties: {
        status: str,
        path: str,
        hunkId: str,
        changed: bool,
        summary: str,
        diff: str,
        undo,
      },
      required: ['path', 'hunkId'],
    },
  },
  edit_file_search_replace: {
    title: { en: 'Edit a file (SEARCH/REPLACE blocks)', zh: '编辑文件（SEARCH/REPLACE 块）' },
    effect: 'change',
    output: editBatch,
  },
  edit: {
    title: { en: 'Edit a file (replace text)', zh: '编辑文件（替换文本）' },
    effect: 'change',
    output: edited,
  },
  str_replace_based_edit_tool: {
    title: {
      en: 'Text editor (view, create, replace, insert)',
      zh: '文本编辑器（查看、新建、替换、插入）',
    },
    effect: 'change',
    // A view (the file's lines, or a directory's entries), a create, a
    // replacement or an insert: each names its path.
    output: {
      properties: { path: str, text: str, strategy: str, entries: list(str), more: num, undo },
      required: ['path'],
    },
  },
  edit_snippet: {
    title: { en: 'Edit a file (snippet with elisions)', zh: '编辑文件（带省略标记的片段）' },
    effect: 'change',
    output: {
      properties: { path: str, regions: list(object()), undo },
      required: ['path', 'regions'],
    },
  },
  multi_edit: {
    title: { en: 'Edit a file (several replacements)', zh: '编辑文件（多处替换）' },
    effect: 'change',
    output: editBatch,
  },
  apply_patch: {
    title: { en: 'Apply a patch (codex format)', zh: '应用补丁（codex 格式）' },
    effect: 'change',
    output: patched,
  },
  apply_diff: {
    title: { en: 'Apply a unified diff', zh: '应用统一 diff' },
    effect: 'change',
    output: patched,
  },
};

/** The title of tool `name` in `lang` (the name itself for a tool without one). */
export function toolTitle(name: string, lang: Lang): string {
  return META[name]?.title[lang] ?? name;
}

/** The behaviour hints of tool `name` (MCP `ToolAnnotations`). */
export function toolAnnotations(name: string, lang: Lang): McpToolAnnotations {
  const meta = META[name];
  if (!meta) return { title: name };
  const hints: McpToolAnnotations = {
    title: meta.title[lang],
    readOnlyHint: meta.effect === 'read',
    // Files under one root, or one SiYuan workspace: a closed world.
    openWorldHint: false,
  };
  if (meta.effect !== 'read') {
    hints.destructiveHint = meta.effect === 'change';
    hints.idempotentHint = meta.idempotent === true;
  }
  return hints;
}

/**
 * The output schema of tool `name`, or undefined when its result is text
 * only. A result is either the success's fields or `{ error }` (what an
 * MCP server sends as `structuredContent` with `isError`).
 */
export function toolOutputSchema(name: string): McpOutputSchema | undefined {
  const output = META[name]?.output;
  if (!output) return undefined;
  return {
    type: 'object',
    properties: { ...output.properties, error: MCP_ERROR_SCHEMA },
    required: [],
    anyOf: [{ required: output.required }, { required: ['error'] }],
  };
}

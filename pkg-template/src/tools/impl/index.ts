// Every tool module, in the order TOOL_NAMES lists the tools (a test holds
// the two together). The registries (the runner, editkit-mcp through it, a
// SiYuan plugin through createToolRegistry) list and run tools from here.

import { appendContentTool } from './append-content.js';
import { applyBlockDiffTool } from './apply-block-diff.js';
import { applyFileModificationTool } from './apply-file-modification.js';
import { applyDiffTool, applyPatchTool } from './apply-patch.js';
import type { ToolModule } from './context.js';
import { createNewDocTool } from './create-new-doc.js';
import { createNewFileTool } from './create-new-file.js';
import { editFileSearchReplaceTool } from './edit-file-search-replace.js';
import { editSnippetTool } from './edit-snippet.js';
import { editTool } from './edit.js';
import { getBlockContentTool } from './get-block-content.js';
import { getBlockInfoTool } from './get-block-info.js';
import { multiEditTool } from './multi-edit.js';
import { overwriteEntireFileTool } from './overwrite-entire-file.js';
import { prepareFileAppendTool } from './prepare-file-append.js';
import { prepareFileBlockReplaceTool } from './prepare-file-block-replace.js';
import { prepareFileInsertAfterTool, prepareFileInsertBeforeTool } from './prepare-file-insert.js';
import { prepareFileRangeEditTool } from './prepare-file-range-edit.js';
import { readFileTool } from './read-file.js';
import { textEditorTool } from './text-editor.js';

/** Every editkit tool: its definition and its implementation, one module each. */
export const TOOL_MODULES: readonly ToolModule[] = Object.freeze([
  getBlockInfoTool,
  getBlockContentTool,
  appendContentTool,
  createNewDocTool,
  applyBlockDiffTool,
  readFileTool,
  createNewFileTool,
  overwriteEntireFileTool,
  prepareFileRangeEditTool,
  prepareFileAppendTool,
  prepareFileInsertAfterTool,
  prepareFileInsertBeforeTool,
  prepareFileBlockReplaceTool,
  applyFileModificationTool,
  editFileSearchReplaceTool,
  editTool,
  textEditorTool,
  editSnippetTool,
  multiEditTool,
  applyPatchTool,
  applyDiffTool,
]);

let byName: Map<string, ToolModule> | undefined;

/** The module of tool `name`; undefined for a name that is no tool. */
export function toolModule(name: string): ToolModule | undefined {
  byName ??= new Map(TOOL_MODULES.map((m) => [m.name, m]));
  return byName.get(name);
}

// str_replace_based_edit_tool: Anthropic's text editor, one tool whose
// commands (view, create, str_replace, insert) run through the file tools'
// own implementations where there is one.

import { text as checkedText } from '../../boundary.js';
import { withPathLock } from '../../files.js';
import { describeValue, hostCall } from '../../host-call.js';
import { say } from '../messages.js';
import { diffBlock, fileMissing, hostError, invalidArgument } from '../results.js';
import type { ToolResult } from '../types.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { createFile } from './create-new-file.js';
import { editTool } from './edit.js';
import { assertWritable, readText, writeText } from './file-io.js';
import { readFileTool } from './read-file.js';

/** The most entries a folder's view lists (a node_modules two levels deep runs to thousands). */
const DIRECTORY_ENTRIES = 1000;

export const textEditorTool = defineTool('str_replace_based_edit_tool', async (ctx, a) => {
  const command = s(a.command);
  const path = s(a.path);
  const needs = (field: string): ToolResult =>
    invalidArgument(field, say('commandNeeds', ctx.lang, command, field), ctx.lang);
  switch (command) {
    case 'view': {
      const listed = await viewDirectory(ctx, path, a.view_range !== undefined);
      if (listed) return listed;
      const r = Array.isArray(a.view_range) ? (a.view_range as number[]) : undefined;
      const range = r ? `${r[0]}~${r[1] === -1 ? '' : r[1]}` : '';
      return readFileTool.run(ctx, { path, range });
    }
    case 'create':
      if (typeof a.file_text !== 'string') return needs('file_text');
      // The reference writes file_text byte for byte (no final newline added).
      return createFile(ctx, path, a.file_text, true);
    case 'str_replace':
      if (!s(a.old_str)) return needs('old_str');
      return editTool.run(ctx, { path, old_string: s(a.old_str), new_string: s(a.new_str) });
    default: {
      if (typeof a.insert_line !== 'number') return needs('insert_line');
      // Anthropic's native text_editor_20250728 sends the text as
      // `insert_text`; the custom schema (and older versions) as `new_str`.
      const inserted = typeof a.insert_text === 'string' ? a.insert_text : a.new_str;
      if (typeof inserted !== 'string') return needs('new_str');
      return insertLines(ctx, path, a.insert_line, inserted);
    }
  }
});

/**
 * The text editor's `view` of a folder, as Anthropic's reference tool
 * lists one: the folder, then each entry and (for a folder) its own
 * entries, hidden names left out; `null` when `path` is not a folder or
 * the host cannot list folders.
 */
async function viewDirectory(
  ctx: ToolContext,
  path: string,
  ranged: boolean,
): Promise<ToolResult | null> {
  const names = folderLister(ctx);
  if (!names) return null;
  const top = await names(path);
  if (top === null) return null;
  if (ranged) return invalidArgument('view_range', say('directoryRange', ctx.lang, path), ctx.lang);
  const base = path.replace(/\/+$/, '') || path;
  const under = (folder: string, name: string) =>
    `${folder.endsWith('/') ? folder : `${folder}/`}${name.replace(/\/$/, '')}`;
  const visible = (name: string) => name !== '' && name !== '/' && !name.startsWith('.');
  const entries: string[] = [];
  for (const name of top.filter(visible)) {
    const entry = under(base, name);
    entries.push(entry);
    if (!name.endsWith('/')) continue;
    for (const inner of ((await names(entry)) ?? []).filter(visible))
      entries.push(under(entry, inner));
  }
  const shown = entries.slice(0, DIRECTORY_ENTRIES);
  const more = entries.length - shown.length;
  const lines = [say('directoryListing', ctx.lang, path), base, ...shown];
  if (more > 0) lines.push(say('directoryMore', ctx.lang, String(more)));
  return {
    text: `${lines.join('\n')}\n`,
    isError: false,
    data: { path, entries: shown, more },
  };
}

/**
 * The host's `listDirectory` within the time limit (a folder's names, or
 * `null` when it is not a folder); undefined when the host has none.
 */
function folderLister(
  ctx: ToolContext,
): ((folder: string) => Promise<string[] | null>) | undefined {
  const host = ctx.files();
  const list = host.listDirectory;
  if (typeof list !== 'function') return undefined;
  return (folder) =>
    hostCall(
      `files.listDirectory(${JSON.stringify(folder)})`,
      () => list.call(host, folder),
      ctx.timeoutMs,
    ).then((r: unknown) => {
      if (r === null) return null;
      if (Array.isArray(r) && r.every((n) => typeof n === 'string')) return r as string[];
      throw hostError(
        `files.listDirectory(${JSON.stringify(folder)}) returned ${describeValue(r)}; expected an array of names or null`,
      );
    });
}

/**
 * The text editor's `insert`: `text`'s lines after line `after` (0: at
 * the top), with the file's own line ending, never past its end.
 */
async function insertLines(
  ctx: ToolContext,
  path: string,
  after: number,
  text: string,
): Promise<ToolResult> {
  const { lang } = ctx;
  assertWritable(ctx);
  // Checked before anything is written (a lone surrogate has no UTF-8).
  checkedText(text, 'insert_text', lang);
  return withPathLock(ctx.lockKey(path), async (): Promise<ToolResult> => {
    const content = await readText(ctx, path);
    if (content === null) return fileMissing(path, lang);
    // Where each line starts; the file's bytes elsewhere stay as they are.
    const starts = [0];
    for (let i = content.indexOf('\n'); i !== -1; i = content.indexOf('\n', i + 1))
      starts.push(i + 1);
    const finalBreak = content === '' || content.endsWith('\n');
    const count = finalBreak ? starts.length - 1 : starts.length;
    if (after > count) {
      const message = say('insertPastEnd', lang, String(after), path, String(count));
      return invalidArgument('insert_line', message, lang);
    }
    const added = text.replace(/\r?\n$/, '').split(/\r?\n/);
    const ending = lineEnding(content, starts[Math.max(after, 1)] ?? 0);
    const block = added.join(ending);
    // The file keeps its final newline, or its lack of one.
    const next =
      after < count
        ? content.slice(0, starts[after]) + block + ending + content.slice(starts[after])
        : finalBreak
          ? content + block + ending
          : content + ending + block;
    await writeText(ctx, path, next);
    return {
      text: [
        say('inserted', lang, String(added.length), path, String(after)),
        diffBlock(path, content, next),
      ].join('\n\n'),
      isError: false,
      data: { path, inserted: added.length, after },
    };
  });
}

/**
 * New lines end as the line above them does (the first line's way at the
 * top), else as most of the file's lines; `neighbour` is where the line
 * after that line starts (0: the file has no line break).
 */
function lineEnding(content: string, neighbour: number): string {
  if (neighbour > 0) return content[neighbour - 2] === '\r' ? '\r\n' : '\n';
  return content.includes('\r\n') ? '\r\n' : '\n';
}

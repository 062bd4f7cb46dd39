// create_new_file: a file that must not exist yet (the text editor's
// `create` writes through the same function).

import { checkNewFile, withPathLock } from '../../files.js';
import type { ToolResult } from '../types.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { assertWritable, pathState, writeText } from './file-io.js';

export const createNewFileTool = defineTool('create_new_file', async (ctx, a) =>
  createFile(ctx, s(a.path), s(a.content), false),
);

/** A new file; `asGiven`: its text exactly as given, else with a final newline added. */
export async function createFile(
  ctx: ToolContext,
  path: string,
  content: string,
  asGiven: boolean,
): Promise<ToolResult> {
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async () => {
    const state = await pathState(ctx, path);
    const check = checkNewFile({
      path,
      exists: state.exists,
      isFile: state.isFile,
      newContent: content,
      asGiven,
      lang: ctx.lang,
    });
    await writeText(ctx, path, check.content);
    return { text: check.text, isError: false, data: { path, created: true } };
  });
}

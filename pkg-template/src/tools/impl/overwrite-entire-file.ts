// overwrite_entire_file: a whole file replaced, once the caller shows it
// knows what it replaces (the old file's line and byte counts).

import { checkOverwrite, withPathLock } from '../../files.js';
import { fileMissing } from '../results.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import { assertWritable, readText, writeText } from './file-io.js';

export const overwriteEntireFileTool = defineTool('overwrite_entire_file', async (ctx, a) => {
  const path = s(a.path);
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async () => {
    const content = await readText(ctx, path);
    if (content === null) return fileMissing(path, ctx.lang);
    const check = checkOverwrite({
      path,
      content,
      newContent: s(a.content),
      knownOldTotalLines: a.known_old_total_lines as number,
      knownOldTotalBytes: a.known_old_total_bytes as number,
      contentFormat: s(a.content_format) || undefined,
      lang: ctx.lang,
    });
    await writeText(ctx, path, check.content);
    return { text: check.text, isError: false, data: { path, overwritten: true } };
  });
});

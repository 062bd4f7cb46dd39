// multi_edit: several old_string → new_string edits of one file, all or none.

import { withPathLock } from '../../files.js';
import { applyEdits } from '../../matcher.js';
import { fileMissing, inToolWords } from '../results.js';
import type { Args } from '../validate.js';
import { b, isProsePath, modeOf, s } from './args.js';
import { defineTool } from './context.js';
import { assertWritable, readText } from './file-io.js';
import { searchReplaceResult } from './search-replace-result.js';

export const multiEditTool = defineTool('multi_edit', async (ctx, a) => {
  const path = s(a.path);
  const edits = (a.edits as Args[]).map((e) => ({
    oldString: s(e.old_string),
    newString: s(e.new_string),
    replaceAll: b(e.replace_all, false),
  }));
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async () => {
    const content = await readText(ctx, path);
    if (content === null) return fileMissing(path, ctx.lang);
    const r = applyEdits(content, edits, {
      atomic: true,
      mode: modeOf(a.mode),
      prose: isProsePath(path),
      lang: ctx.lang,
    });
    const result = await searchReplaceResult(ctx, path, content, r, 'editLine');
    return { ...result, text: inToolWords(result.text) };
  });
});

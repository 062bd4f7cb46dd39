// edit_file_search_replace: SEARCH/REPLACE blocks applied to one file.

import { withPathLock } from '../../files.js';
import { applySearchReplace } from '../../matcher.js';
import { fileMissing } from '../results.js';
import { b, isProsePath, s } from './args.js';
import { defineTool } from './context.js';
import { assertWritable, readText } from './file-io.js';
import { searchReplaceResult } from './search-replace-result.js';

export const editFileSearchReplaceTool = defineTool('edit_file_search_replace', async (ctx, a) => {
  const path = s(a.path);
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async () => {
    const content = await readText(ctx, path);
    if (content === null) return fileMissing(path, ctx.lang);
    const r = applySearchReplace(content, s(a.search_replace), {
      atomic: b(a.atomic, true),
      prose: isProsePath(path),
      lang: ctx.lang,
    });
    return searchReplaceResult(ctx, path, content, r, 'blockLine');
  });
});

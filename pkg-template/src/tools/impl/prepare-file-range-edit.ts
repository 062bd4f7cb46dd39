// prepare_file_range_edit: a plan (not yet written) to replace a range of lines.

import { withPathLock } from '../../files.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import { readText } from './file-io.js';

// Plans are made under the path's lock too: a file read mid-write is never
// planned against, and a revision (existing_hunk_id) cannot slip between
// an apply and its consume.
export const prepareFileRangeEditTool = defineTool('prepare_file_range_edit', async (ctx, a) => {
  const path = s(a.path);
  return withPathLock(ctx.lockKey(path), async () => {
    const plan = ctx.plans().prepareRangeEdit({
      path,
      content: await readText(ctx, path),
      range: s(a.range),
      newText: s(a.content),
      owner: ctx.owner,
      existingHunkId: s(a.existing_hunk_id),
      lang: ctx.lang,
    });
    return { text: plan.text, isError: false, data: plan };
  });
});

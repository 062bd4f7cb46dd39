// prepare_file_append: a plan to add text at a file's end (or to create it).

import { withPathLock } from '../../files.js';
import { b, s } from './args.js';
import { defineTool } from './context.js';
import { readText } from './file-io.js';

// Planned under the path's lock, as every plan is (prepare-file-range-edit.ts says why).
export const prepareFileAppendTool = defineTool('prepare_file_append', async (ctx, a) => {
  const path = s(a.path);
  return withPathLock(ctx.lockKey(path), async () => {
    const plan = ctx.plans().prepareAppend({
      path,
      content: await readText(ctx, path),
      newText: s(a.content),
      create: b(a.create, false),
      owner: ctx.owner,
      existingHunkId: s(a.existing_hunk_id),
      lang: ctx.lang,
    });
    return { text: plan.text, isError: false, data: plan };
  });
});

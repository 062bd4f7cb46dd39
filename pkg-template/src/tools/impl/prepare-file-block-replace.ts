// prepare_file_block_replace: a plan to replace the lines between two anchors.

import { withPathLock } from '../../files.js';
import { b, occurrenceOf, s } from './args.js';
import { defineTool } from './context.js';
import { readText } from './file-io.js';

// Planned under the path's lock, as every plan is (prepare-file-range-edit.ts says why).
export const prepareFileBlockReplaceTool = defineTool(
  'prepare_file_block_replace',
  async (ctx, a) => {
    const path = s(a.path);
    return withPathLock(ctx.lockKey(path), async () => {
      const plan = ctx.plans().prepareBlockReplace({
        path,
        content: await readText(ctx, path),
        startAnchor: s(a.start_anchor),
        endAnchor: s(a.end_anchor),
        newText: s(a.content),
        match: (s(a.match) || 'contains') as 'contains',
        includeAnchors: b(a.include_anchors, true),
        requireUnique: b(a.require_unique, true),
        strict: b(a.strict, true),
        occurrence: occurrenceOf(a.occurrence),
        owner: ctx.owner,
        existingHunkId: s(a.existing_hunk_id),
        lang: ctx.lang,
      });
      return { text: plan.text, isError: false, data: plan };
    });
  },
);

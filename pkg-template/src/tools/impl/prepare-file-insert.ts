// prepare_file_insert_after / prepare_file_insert_before: one tool written
// twice, a plan to insert text next to an anchor line, on its one side or
// the other.

import { withPathLock } from '../../files.js';
import type { ToolResult } from '../types.js';
import type { Args } from '../validate.js';
import { occurrenceOf, s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { readText } from './file-io.js';

export const prepareFileInsertAfterTool = defineTool('prepare_file_insert_after', (ctx, a) =>
  prepareInsert(ctx, 'after', a),
);

export const prepareFileInsertBeforeTool = defineTool('prepare_file_insert_before', (ctx, a) =>
  prepareInsert(ctx, 'before', a),
);

// Planned under the path's lock, as every plan is (prepare-file-range-edit.ts says why).
async function prepareInsert(
  ctx: ToolContext,
  where: 'after' | 'before',
  a: Args,
): Promise<ToolResult> {
  const path = s(a.path);
  return withPathLock(ctx.lockKey(path), async () => {
    const opts = {
      path,
      content: await readText(ctx, path),
      anchor: s(a.anchor),
      match: (s(a.match) || 'contains') as 'contains',
      occurrence: occurrenceOf(a.occurrence),
      newText: s(a.content),
      owner: ctx.owner,
      existingHunkId: s(a.existing_hunk_id),
      lang: ctx.lang,
    };
    const plans = ctx.plans();
    const plan =
      where === 'after' ? plans.prepareInsertAfter(opts) : plans.prepareInsertBefore(opts);
    return { text: plan.text, isError: false, data: plan };
  });
}

// apply_file_modification: a plan of the prepare_file_* tools written to
// its file (relocated if the file moved on since), in the order the plans
// were made when several reach one file at once.

import { say } from '../messages.js';
import { errorResult, outcome, rejectionCode } from '../results.js';
import type { ToolResult } from '../types.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { assertWritable, readText, writeText } from './file-io.js';

export const applyFileModificationTool = defineTool('apply_file_modification', async (ctx, a) => {
  const { lang, owner } = ctx;
  const hunkId = s(a.hunk_id);
  const pending = ctx
    .plans()
    .pending()
    .find((p) => p.hunkId === hunkId);
  if (!pending) {
    // Let the session word the refusal (unknown, expired or already applied).
    const r = ctx.plans().apply({ hunkId, owner, content: null, lang });
    return outcome(r.text, r, rejectionCode(r) ?? 'HUNK_NOT_FOUND');
  }
  assertWritable(ctx);
  return ctx.inCreationOrder(pending.path, hunkId, () => applyPlan(ctx, pending.path, hunkId));
});

/** Writes plan `hunkId` over `path`'s text as it is now. */
async function applyPlan(ctx: ToolContext, path: string, hunkId: string): Promise<ToolResult> {
  const { lang, owner } = ctx;
  const content = await readText(ctx, path);
  // The plan is consumed only once the write landed: a failed write
  // leaves it live, so the agent can simply apply it again.
  const r = ctx.plans().apply({ hunkId, owner, content, lang, deferConsume: true });
  if (r.changed) {
    try {
      await writeText(ctx, path, r.content);
    } catch (e) {
      // A failed write may still have landed (a timeout after the
      // write): the agent checks before applying again.
      const failed = errorResult(e, lang);
      return {
        ...failed,
        text: `${failed.text}\n${say('writeFailed', lang, path, hunkId)}`,
      };
    }
  }
  const code = rejectionCode(r);
  if (code === undefined) ctx.plans().consume(hunkId);
  return outcome(r.text, r, code);
}

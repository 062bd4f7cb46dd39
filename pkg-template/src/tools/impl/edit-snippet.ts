// edit_snippet: a lazy snippet ("// ... existing code ...") placed in the file it edits.

import { withPathLock } from '../../files.js';
import { planEditSnippet } from '../../matcher.js';
import type { EditSnippetResult } from '../../types.js';
import { say } from '../messages.js';
import { diffBlock, errorResult, fileMissing } from '../results.js';
import type { ToolResult } from '../types.js';
import { s } from './args.js';
import { defineTool } from './context.js';
import { assertWritable, readText, writeText } from './file-io.js';

export const editSnippetTool = defineTool('edit_snippet', async (ctx, a) => {
  const { lang } = ctx;
  const path = s(a.path);
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async (): Promise<ToolResult> => {
    const content = await readText(ctx, path);
    if (content === null) return fileMissing(path, lang);
    let placed: EditSnippetResult;
    try {
      placed = planEditSnippet(content, s(a.snippet), { lang, path });
    } catch (e) {
      return errorResult(e, lang);
    }
    await writeText(ctx, path, placed.content);
    const where = placed.regions
      .map((r) => say('snippetRegion', lang, String(r.startLine), String(r.endLine)))
      .join(', ');
    return {
      text: [
        say('snippetPlaced', lang, path, String(placed.regions.length), where),
        diffBlock(path, content, placed.content),
      ].join('\n\n'),
      isError: false,
      data: { path, regions: placed.regions },
    };
  });
});

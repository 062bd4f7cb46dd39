// appendContent: Markdown added to a daily note, a document or a block.

import { appendContent } from '../../content.js';
import { s } from './args.js';
import { defineTool } from './context.js';

export const appendContentTool = defineTool('appendContent', async (ctx, a) => {
  const targetType = s(a.targetType) as 'dailynote' | 'document' | 'block';
  const r = await appendContent(
    { markdown: s(a.markdown), targetType, target: s(a.target) },
    ctx.siyuan(),
    { lang: ctx.lang, timeoutMs: ctx.timeoutMs },
  );
  return { text: r.summary, isError: false, data: r };
});

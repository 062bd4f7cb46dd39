// createNewDoc: a new SiYuan document placed next to, under or above another.

import { createNewDoc } from '../../content.js';
import { s } from './args.js';
import { defineTool } from './context.js';

export const createNewDocTool = defineTool('createNewDoc', async (ctx, a) => {
  const location = s(a.location) as 'siblings' | 'children' | 'parent';
  const r = await createNewDoc(
    {
      title: s(a.title),
      anchorDocumentId: s(a.anchorDocumentId),
      location,
      markdown: s(a.markdown),
    },
    ctx.siyuan(),
    { lang: ctx.lang, timeoutMs: ctx.timeoutMs },
  );
  return { text: r.summary, isError: false, data: r };
});

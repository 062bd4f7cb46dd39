// getBlockInfo: what SiYuan blocks are (type, document, path), by id.

import { formatBlockInfo, getBlockInfo } from '../../content.js';
import { s } from './args.js';
import { defineTool } from './context.js';

export const getBlockInfoTool = defineTool('getBlockInfo', async (ctx, a) => {
  // One id, several comma-separated, or a list (the schema checked which).
  const ids = Array.isArray(a.ids) ? a.ids.map(s) : s(a.ids);
  const info = await getBlockInfo({ ids }, ctx.siyuan(), {
    lang: ctx.lang,
    timeoutMs: ctx.timeoutMs,
  });
  return { text: formatBlockInfo(info, { lang: ctx.lang }), isError: false, data: info };
});

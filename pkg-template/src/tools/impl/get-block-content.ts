// getBlockContent: a SiYuan block's Markdown, with ids and structure on request.

import { getBlockContent } from '../../content.js';
import { s } from './args.js';
import { defineTool } from './context.js';

export const getBlockContentTool = defineTool('getBlockContent', async (ctx, a) => {
  // Only what the agent gave: the core applies seed 000's coupling
  // (showId defaults to showSubStructure; a slice turns both on).
  const args: {
    blockId: string;
    showId?: boolean;
    showSubStructure?: boolean;
    slice?: string;
  } = { blockId: s(a.blockId) };
  if (typeof a.showId === 'boolean') args.showId = a.showId;
  if (typeof a.showSubStructure === 'boolean') args.showSubStructure = a.showSubStructure;
  if (s(a.slice)) args.slice = s(a.slice);
  const r = await getBlockContent(args, ctx.siyuan(), { lang: ctx.lang, timeoutMs: ctx.timeoutMs });
  return { text: r.text, isError: false, data: r };
});

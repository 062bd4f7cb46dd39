// edit: one old_string → new_string replacement in a file, found by the
// matcher's tiers (and, with a corrector, fixed by an LLM when it matches
// nowhere); an empty old_string on a missing file creates it.

import { withPathLock } from '../../files.js';
import { hostCall } from '../../host-call.js';
import { replaceText, replaceTextWithCorrection } from '../../matcher.js';
import type { ReplaceResult } from '../../types.js';
import { say } from '../messages.js';
import { diffBlock, errorResult, fileMissing, inToolWords, places } from '../results.js';
import type { ToolResult } from '../types.js';
import type { Args } from '../validate.js';
import { b, count, isProsePath, modeOf, s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { assertWritable, readText, writeText } from './file-io.js';

export const editTool = defineTool('edit', async (ctx, a) => {
  const { lang } = ctx;
  const path = s(a.path);
  const oldString = s(a.old_string);
  const newString = s(a.new_string);
  assertWritable(ctx);
  return withPathLock(ctx.lockKey(path), async (): Promise<ToolResult> => {
    const content = await readText(ctx, path);
    if (content === null) {
      if (oldString !== '') return fileMissing(path, lang);
      // Seed 002: an empty old_string on a missing file creates it.
      await writeText(ctx, path, newString);
      return {
        text: say('editCreated', lang, path),
        isError: false,
        data: { path, created: true },
      };
    }
    let r: ReplaceResult;
    try {
      r = await replaceIn(ctx, path, content, oldString, newString, a);
    } catch (e) {
      const refused = errorResult(e, lang);
      return { ...refused, text: inToolWords(refused.text) };
    }
    await writeText(ctx, path, r.content);
    const where = places(r.matches, lang);
    const text = [
      say('edited', lang, path, String(r.occurrences), where, r.strategy),
      diffBlock(path, content, r.content),
    ].join('\n\n');
    return {
      text,
      isError: false,
      data: { path, strategy: r.strategy, occurrences: r.occurrences, matches: r.matches },
    };
  });
});

/** The replacement in `content`, asking the runner's corrector when the matcher finds nothing. */
async function replaceIn(
  ctx: ToolContext,
  path: string,
  content: string,
  oldString: string,
  newString: string,
  a: Args,
): Promise<ReplaceResult> {
  const matchOptions = {
    mode: modeOf(a.mode),
    prose: isProsePath(path),
    replaceAll: b(a.replace_all, false),
    expectedReplacements: count(a.expected_replacements),
    lang: ctx.lang,
  };
  const corrector = ctx.corrector;
  if (!corrector) return replaceText(content, oldString, newString, matchOptions);
  return replaceTextWithCorrection(content, oldString, newString, {
    ...matchOptions,
    instruction: s(a.instruction),
    timeoutMs: ctx.timeoutMs,
    corrector: (request) =>
      hostCall('corrector', () => corrector(request), ctx.timeoutMs, 'corrector'),
  });
}

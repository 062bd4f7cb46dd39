// What multi_edit and edit_file_search_replace share: a search/replace
// report written to the file and worded for the agent.

import { EditkitError } from '../../errors.js';
import type { SearchReplaceReport } from '../../types.js';
import { say } from '../messages.js';
import { diffBlock, outcome, places } from '../results.js';
import type { ToolResult } from '../types.js';
import type { ToolContext } from './context.js';
import { writeText } from './file-io.js';

/** Writes a search/replace outcome (when anything changed) and words it: summary, each edit's place and strategy, the diff. */
export async function searchReplaceResult(
  ctx: ToolContext,
  path: string,
  content: string,
  r: SearchReplaceReport,
  line: 'editLine' | 'blockLine',
): Promise<ToolResult> {
  const { lang } = ctx;
  // What stopped the whole text is the call's error, worded as errors are.
  if (r.error) throw new EditkitError(r.error);
  const changed = r.content !== content;
  if (changed) await writeText(ctx, path, r.content);
  const lines = [r.summary];
  // Where each edit landed, when any did (an atomic failure lands none).
  for (const block of changed ? r.results : []) {
    if (block.ok && block.strategy)
      lines.push(say(line, lang, String(block.index), places(block.matches, lang), block.strategy));
  }
  if (changed) lines.push('', diffBlock(path, content, r.content));
  // Every block that did not apply carries the matcher's refusal.
  const failed = r.results.find((x) => !x.ok)?.error;
  return outcome(
    lines.join('\n'),
    { path, ok: r.ok, applied: r.applied, failed: r.failed, results: r.results },
    r.ok ? undefined : (failed?.code ?? 'NOT_FOUND'),
  );
}

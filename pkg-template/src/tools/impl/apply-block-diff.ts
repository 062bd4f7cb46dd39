// applyBlockDiff: a block diff applied to SiYuan notes, and the report's
// text (formatApplyReport, also public for hosts that call applyBlockDiff
// themselves).

import { applyBlockDiff } from '../../api.js';
import { EditkitError, isEditkitError } from '../../errors.js';
import type { ApplyReport, Lang } from '../../types.js';
import { say } from '../messages.js';
import { errorLines, outcome } from '../results.js';
import { b, s } from './args.js';
import { defineTool } from './context.js';

export const applyBlockDiffTool = defineTool('applyBlockDiff', async (ctx, a) => {
  const { lang } = ctx;
  const report = await applyBlockDiff(s(a.diff), ctx.siyuan(), {
    dryRun: b(a.dryRun, false),
    atomic: b(a.atomic, true),
    lang,
    timeoutMs: ctx.timeoutMs,
  });
  // A diff that stopped before planning is the call's error, worded as errors are.
  if (report.error) throw new EditkitError(report.error);
  // Every failed edit carries its error; a report that is not ok
  // without one (writes not all done) says WRITE_FAILED.
  const failed = report.results.find((r) => r.error)?.error;
  const rolledBack = report.rollback?.errors?.[0];
  return outcome(
    formatApplyReport(report, lang),
    report,
    report.ok ? undefined : (failed?.code ?? rolledBack?.code ?? 'WRITE_FAILED'),
  );
});

/** The text an agent reads after applyBlockDiff. */
export function formatApplyReport(report: ApplyReport, lang: Lang): string {
  try {
    return formatReport(report, lang);
  } catch (e) {
    if (isEditkitError(e)) throw e;
    throw new EditkitError(
      {
        code: 'INVALID_ARGUMENT',
        message: 'formatApplyReport: expected the report applyBlockDiff returned',
        subject: 'report',
      },
      { cause: e },
    );
  }
}

function formatReport(report: ApplyReport, lang: Lang): string {
  if (
    typeof report !== 'object' ||
    report === null ||
    !Array.isArray(report.results) ||
    !Array.isArray(report.plan)
  ) {
    throw new EditkitError({
      code: 'INVALID_ARGUMENT',
      message: 'formatApplyReport: expected the report applyBlockDiff returned',
      subject: 'report',
    });
  }
  const out: string[] = [(report.ok ? '✅ ' : '❌ ') + report.summary];
  for (const r of report.results) {
    if (r.error) {
      out.push('', `❌ Hunk #${r.hunkIndex} [${r.blockId}] ${r.error.code}`);
      // The message, then each next step it does not already say.
      const [, ...rest] = errorLines(r.error, lang);
      out.push(r.error.message, ...rest.map((l) => (l.startsWith('→') ? `  ${l}` : l)));
    }
  }
  if (report.dryRun) {
    for (const p of report.plan) {
      out.push(
        '',
        `${say('planHeading', lang)} #${p.hunkIndexes.join(',')} ${p.kind} ${p.blockId}${p.strategy ? ` (${p.strategy})` : ''}`,
        '```diff',
        p.diff.trimEnd(),
        '```',
      );
    }
  } else {
    const created = report.results.filter((r) => r.newBlockIds.length > 0);
    for (const r of created)
      out.push(`${say('newBlocks', lang)} (hunk #${r.hunkIndex}): ${r.newBlockIds.join(', ')}`);
  }
  for (const w of report.warnings) out.push(`⚠ ${w.code}: ${w.message}`);
  if (report.undo) out.push('', say('undoHeading', lang), '```', report.undo, '```');
  return out.join('\n');
}

// apply_patch (Codex's patch format) and apply_diff (a unified diff): one
// implementation over two formats. Every file the patch names is read under
// its path's lock (taken in one sorted order, so two patches never wait on
// each other), planned in the core and written by writePlan, and worded
// with each hunk's place and the diffs.

import { withPathLock } from '../../files.js';
import { plannedWrites, writePlan } from '../../patch-writes.js';
import { patchPaths, planPatch, planUnifiedDiff } from '../../patches.js';
import type { Lang, PatchApplyResult } from '../../types.js';
import { say } from '../messages.js';
import { diffBlock, outcome } from '../results.js';
import type { ToolResult } from '../types.js';
import { b, s } from './args.js';
import { defineTool } from './context.js';
import type { ToolContext } from './context.js';
import { assertWritable, readText } from './file-io.js';

type PatchFormat = 'codex' | 'unified';

export const applyPatchTool = defineTool('apply_patch', (ctx, a) =>
  patchTool(ctx, 'codex', s(a.patch), b(a.atomic, true)),
);

export const applyDiffTool = defineTool('apply_diff', (ctx, a) =>
  patchTool(ctx, 'unified', s(a.diff), b(a.atomic, true)),
);

async function patchTool(
  ctx: ToolContext,
  format: PatchFormat,
  text: string,
  atomic: boolean,
): Promise<ToolResult> {
  assertWritable(ctx);
  const paths = patchPaths(text, { format, lang: ctx.lang });
  // One lock key per path, asked once (a host's lockKey may touch the
  // file system).
  const byKey = new Map<string, string[]>();
  for (const p of paths) {
    const key = ctx.lockKey(p);
    byKey.set(key, [...(byKey.get(key) ?? []), p]);
  }
  const keys = [...byKey.keys()].sort();
  // Two spellings of one file (`a.txt`, `./a.txt`) would each be planned
  // from the same text, and the second write would undo the first.
  const same = [...byKey.values()].find((ps) => ps.length > 1);
  if (same) {
    const message = say('samePathTwice', ctx.lang, same.join(', '));
    return {
      text: say('errorLine', ctx.lang, 'INVALID_PATCH', message),
      isError: true,
      code: 'INVALID_PATCH',
      data: { code: 'INVALID_PATCH', message, subject: 'patch' },
    };
  }
  const run = () => planAndWrite(ctx, format, text, atomic, paths);
  const locked = keys.reduceRight<() => Promise<ToolResult>>(
    (inner, key) => () => withPathLock(key, inner),
    run,
  );
  return locked();
}

/** Reads each file once, plans the patch over those texts and writes the plan. */
async function planAndWrite(
  ctx: ToolContext,
  format: PatchFormat,
  text: string,
  atomic: boolean,
  paths: string[],
): Promise<ToolResult> {
  // Each file read once, then planned over those texts (the paths were
  // the patch's one parse before planning).
  const before = new Map<string, string | null>();
  const contents: Record<string, string> = {};
  for (const p of paths) {
    const t = await readText(ctx, p);
    before.set(p, t);
    if (t !== null) contents[p] = t;
  }
  const plan = format === 'codex' ? planPatch : planUnifiedDiff;
  const report = plan(contents, text, { atomic, lang: ctx.lang });
  const host = ctx.files();
  ctx.expectWrites?.(plannedWrites(report));
  const r = await writePlan(
    {
      writeFile: (p, content) => host.writeFile(p, content),
      ...(typeof host.deleteFile === 'function'
        ? { deleteFile: (p: string) => host.deleteFile!(p) }
        : {}),
    },
    report,
    contents,
    ctx.lang,
    ctx.timeoutMs,
  );
  return patchResult(r, before, ctx.lang);
}

/** A patch outcome in words: the summary, where each hunk went, the diffs. */
function patchResult(
  r: PatchApplyResult,
  before: Map<string, string | null>,
  lang: Lang,
): ToolResult {
  const lines = [r.summary];
  const written = r.files.filter((f) => f.write && !r.error);
  for (const f of written) {
    for (const h of f.hunks) {
      if (h.strategy && h.startLine !== undefined)
        lines.push(
          say('hunkLine', lang, f.path, String(h.index), `${h.startLine}–${h.endLine}`, h.strategy),
        );
      else if (h.ok) lines.push(say('hunkAppended', lang, f.path, String(h.index)));
    }
  }
  for (const f of written) {
    if (f.op === 'delete' || !f.changed) continue;
    const from = f.op === 'add' || before.get(f.path) === null ? null : f.path;
    lines.push('', diffBlock(f.moveTo ?? f.path, before.get(f.path) ?? '', f.content ?? '', from));
  }
  // A failed write (`r.error`), else the first refused file's error.
  const failed = r.files.find((f) => f.error)?.error;
  return outcome(
    lines.join('\n'),
    r,
    r.ok ? undefined : (r.error?.code ?? failed?.code ?? 'INVALID_PATCH'),
  );
}

// The second half of applying a patch: writing a plan's files through the
// host in order and, when a write fails, putting back what was written.
// Internal: `applyPatch` and the agent tools' patch tools share it (the
// tools plan over the texts they have already read).

import { EditkitError, isEditkitError, say } from './errors.js';
import { hostCall } from './host-call.js';
import type { Lang, PatchApplyResult, PatchFileHost, PatchReport } from './types.js';

/** One host operation done, and how to undo it. */
interface Done {
  path: string;
  /** The text before (null: the file did not exist). */
  before: string | null;
}

/**
 * How many host writes and deletions `writePlan` makes for `report` when
 * none fails (mode changes aside: they are no writes of text).
 */
export function plannedWrites(report: PatchReport): number {
  let n = 0;
  for (const f of report.files) {
    if (!f.write) continue;
    if (f.op === 'delete') n++;
    else if (f.changed) n += f.moveTo && !f.copy ? 2 : 1;
  }
  return n;
}

/**
 * Writes the files `report` plans (each read as `contents` gave it) and
 * returns the report with what was written; on a failed write, rolls back
 * and returns the failure.
 */
export async function writePlan(
  host: Pick<PatchFileHost, 'writeFile' | 'deleteFile' | 'setMode'>,
  report: PatchReport,
  contents: Record<string, string>,
  lang: Lang,
  timeoutMs: number,
): Promise<PatchApplyResult> {
  const todo = report.files.filter((f) => f.write);
  const deletes = todo.some((f) => f.op === 'delete' || (f.moveTo !== undefined && !f.copy));
  if (todo.length && typeof host.writeFile !== 'function') throw missing('writeFile', lang);
  if (deletes && typeof host.deleteFile !== 'function') throw missing('deleteFile', lang);
  const done: Done[] = [];
  // git mode changes: set through the host's optional setMode, after the
  // file is written; reported when the host has none.
  const modes: { path: string; mode: string }[] = [];
  const setsModes = typeof host.setMode === 'function';
  try {
    for (const f of todo) {
      if (f.op === 'delete') {
        await remove(host, f.path, contents[f.path] ?? null, done, timeoutMs);
        continue;
      }
      const target = f.moveTo ?? f.path;
      if (f.mode !== undefined) modes.push({ path: target, mode: f.mode });
      if (!f.changed) continue;
      const before = f.op === 'add' ? null : f.moveTo ? null : (contents[f.path] ?? null);
      // Recorded before the call: a write that throws (or times out) may
      // still have landed, in part, so the rollback restores it too.
      done.push({ path: target, before });
      await hostCall(
        `files.writeFile(${JSON.stringify(target)})`,
        () => host.writeFile(target, f.content ?? ''),
        timeoutMs,
      );
      if (f.moveTo && !f.copy)
        await remove(host, f.path, contents[f.path] ?? null, done, timeoutMs);
    }
    for (const m of setsModes ? modes : []) {
      await hostCall(
        `files.setMode(${JSON.stringify(m.path)}, ${JSON.stringify(m.mode)})`,
        () => host.setMode!(m.path, m.mode),
        timeoutMs,
      );
    }
  } catch (e) {
    const failure = isEditkitError(e) ? e.message : String(e);
    const restored = await rollBack(host, done, timeoutMs);
    const message = writeFailedMessage(lang, failure, restored);
    // Nothing of the plan stands: no file counts as written, and the
    // summary is the failure.
    return {
      ...report,
      ok: false,
      applied: 0,
      files: report.files.map(({ content: _content, ...f }) => ({ ...f, write: false })),
      summary: message,
      written: restored.notRestored,
      error: { code: 'WRITE_FAILED', message, subject: 'files' },
    };
  }
  const unset = setsModes
    ? []
    : modes.map((m) => ({
        code: 'MODE_NOT_SET' as const,
        path: m.path,
        line: 0,
        message: say('modeNotSet', lang, m.path, m.mode),
      }));
  const warnings = [...(report.warnings ?? []), ...unset];
  return {
    ...report,
    ...(warnings.length ? { warnings } : {}),
    written: done.map((d) => d.path),
  };
}

async function remove(
  host: Pick<PatchFileHost, 'writeFile' | 'deleteFile'>,
  path: string,
  before: string | null,
  done: Done[],
  timeoutMs: number,
): Promise<void> {
  done.push({ path, before });
  await hostCall(
    `files.deleteFile(${JSON.stringify(path)})`,
    () => host.deleteFile!(path),
    timeoutMs,
  );
}

/** Undoes `done` newest first; returns the paths it restored and those it could not. */
async function rollBack(
  host: Pick<PatchFileHost, 'writeFile' | 'deleteFile'>,
  done: Done[],
  timeoutMs: number,
): Promise<{ restored: string[]; notRestored: string[] }> {
  const restored: string[] = [];
  const notRestored: string[] = [];
  for (const d of [...done].reverse()) {
    try {
      if (d.before === null) {
        if (typeof host.deleteFile !== 'function') throw new Error('no deleteFile');
        await hostCall(
          `files.deleteFile(${JSON.stringify(d.path)})`,
          () => host.deleteFile!(d.path),
          timeoutMs,
        );
      } else {
        const before = d.before;
        await hostCall(
          `files.writeFile(${JSON.stringify(d.path)})`,
          () => host.writeFile(d.path, before),
          timeoutMs,
        );
      }
      restored.push(d.path);
    } catch {
      notRestored.push(d.path);
    }
  }
  return { restored, notRestored };
}

function writeFailedMessage(
  lang: Lang,
  failure: string,
  r: { restored: string[]; notRestored: string[] },
): string {
  const list = (paths: string[]) => (paths.length ? paths.join(', ') : say('none', lang));
  return say('patchWriteFailed', lang, failure, list(r.restored), list(r.notRestored));
}

function missing(callback: string, lang: Lang): EditkitError {
  return new EditkitError({
    code: 'HOST_CAPABILITY_MISSING',
    subject: callback,
    message: say('patchCallbackMissing', lang, callback),
  });
}

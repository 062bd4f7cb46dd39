// The file host as the file tools call it: each callback within the
// call's time limit, a missing callback refused as
// HOST_CAPABILITY_MISSING, an answer of the wrong shape as HOST_ERROR.

import { describeValue, hostCall, readFileText } from '../../host-call.js';
import { capabilityMissing, hostError } from '../results.js';
import type { ToolContext } from './context.js';

/** The file's text, or `null` when it does not exist. */
export async function readText(ctx: ToolContext, path: string): Promise<string | null> {
  const host = ctx.files();
  if (typeof host.readFile !== 'function') throw capabilityMissing('files.readFile', ctx.lang);
  return readFileText((p) => host.readFile(p), path, ctx.timeoutMs);
}

export async function writeText(ctx: ToolContext, path: string, content: string): Promise<void> {
  const host = ctx.files();
  if (typeof host.writeFile !== 'function') throw capabilityMissing('files.writeFile', ctx.lang);
  ctx.expectWrites?.(1);
  await hostCall(
    `files.writeFile(${JSON.stringify(path)})`,
    () => host.writeFile(path, content),
    ctx.timeoutMs,
  );
}

/** Refuses up front (before any plan is used up) when the host cannot write. */
export function assertWritable(ctx: ToolContext): void {
  if (typeof ctx.files().writeFile !== 'function')
    throw capabilityMissing('files.writeFile', ctx.lang);
}

/** Whether `path` exists and is a file: the host's `exists`, else whether it reads. */
export async function pathState(
  ctx: ToolContext,
  path: string,
): Promise<{ exists: boolean; isFile: boolean }> {
  const host = ctx.files();
  if (host.exists) {
    const exists = host.exists;
    const r: unknown = await hostCall(
      `files.exists(${JSON.stringify(path)})`,
      () => exists.call(host, path),
      ctx.timeoutMs,
    );
    if (typeof r === 'boolean') return { exists: r, isFile: r };
    if (
      typeof r === 'object' &&
      r !== null &&
      typeof (r as { exists?: unknown }).exists === 'boolean'
    ) {
      const o = r as { exists: boolean; isFile?: unknown };
      return { exists: o.exists, isFile: typeof o.isFile === 'boolean' ? o.isFile : o.exists };
    }
    throw hostError(
      `files.exists(${JSON.stringify(path)}) returned ${describeValue(r)}; expected a boolean or { exists, isFile }`,
    );
  }
  const text = await readText(ctx, path);
  return { exists: text !== null, isFile: text !== null };
}

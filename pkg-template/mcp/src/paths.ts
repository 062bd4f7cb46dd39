// Paths a client gives absolute, inside the server's root: made relative
// before the call, so every result names the file as the other calls do
// (`app.py`, never `/home/me/project/app.py`), its undo included. A path
// outside the root is left as given: the file host refuses it.

import { isAbsolute, relative } from 'node:path';

/** The arguments that name a file, in every file tool (`uri` is `path`'s other name). */
const PATH_ARGUMENTS = ['path', 'uri'] as const;

/** `path` relative to the first of `folders` it lies in (`.` for the folder itself); undefined when in none. */
export function relativeToFolders(path: string, folders: readonly string[]): string | undefined {
  if (!isAbsolute(path) || path === '/dev/null') return undefined;
  for (const folder of folders) {
    // As pathRedactor: a root of `/` hides nothing.
    if (folder.replace(/[\\/]+$/, '').length <= 1) continue;
    const rel = relative(folder, path);
    if (rel === '') return '.';
    if (rel !== '..' && !rel.startsWith('../') && !rel.startsWith('..\\') && !isAbsolute(rel))
      return rel;
  }
  return undefined;
}

/** The call's arguments with the absolute paths inside `folders` made relative. */
export function relativeArguments(
  args: Record<string, unknown>,
  folders: readonly string[],
): Record<string, unknown> {
  if (!folders.length) return args;
  const out = { ...args };
  for (const key of PATH_ARGUMENTS) {
    const value = out[key];
    if (typeof value !== 'string') continue;
    const rel = relativeToFolders(value, folders);
    if (rel !== undefined) out[key] = rel;
  }
  if (typeof out.patch === 'string') out.patch = codexPatchPaths(out.patch, folders);
  if (typeof out.diff === 'string') out.diff = unifiedDiffPaths(out.diff, folders);
  return out;
}

/** A codex patch's file headers (`*** Update File: …`, `*** Move to: …`) made relative. */
function codexPatchPaths(patch: string, folders: readonly string[]): string {
  // Every line of a codex patch that starts with `*** ` is a header: a
  // line of text in it starts with ' ', '+' or '-'.
  return patch.replace(
    /^(\*\*\* (?:Add File|Delete File|Update File|Move to): )(.+?)(\r?)$/gm,
    (line, head: string, path: string, cr: string) => {
      const rel = relativeToFolders(path, folders);
      return rel === undefined || rel === '.' ? line : `${head}${rel}${cr}`;
    },
  );
}

/**
 * A unified diff's file headers made relative: `--- ` and `+++ ` lines
 * that stand together outside a hunk (a removed line `-- x` reads `--- x`
 * too, so a hunk's lines are counted past), and git's `rename from` /
 * `rename to` / `copy from` / `copy to`.
 */
function unifiedDiffPaths(diff: string, folders: readonly string[]): string {
  const lines = diff.split('\n');
  /** A header's path (up to a TAB, after an `a/` or `b/` before an absolute path) made relative. */
  const header = (line: string, head: string): string => {
    const rest = line.slice(head.length);
    const m = /^((?:[ab]\/(?=[/\\]|[A-Za-z]:))?)([^\t\r]+)(.*)$/s.exec(rest);
    if (!m) return line;
    const rel = relativeToFolders(m[2] as string, folders);
    return rel === undefined || rel === '.' ? line : `${head}${m[1]}${rel}${m[3]}`;
  };
  let oldLeft = 0;
  let newLeft = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (oldLeft > 0 || newLeft > 0) {
      const c = line[0];
      if (c === ' ' || line === '' || line === '\r') {
        oldLeft--;
        newLeft--;
        continue;
      }
      if (c === '-') {
        oldLeft--;
        continue;
      }
      if (c === '+') {
        newLeft--;
        continue;
      }
      if (c === '\\') continue;
      // Anything else ends the hunk (its counts were short).
      oldLeft = newLeft = 0;
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      lines[i] = header(line, '--- ');
      lines[i + 1] = header(lines[i + 1] as string, '+++ ');
      i++;
      continue;
    }
    const git = /^(rename from |rename to |copy from |copy to )/.exec(line);
    if (git) lines[i] = header(line, git[1] as string);
  }
  return lines.join('\n');
}

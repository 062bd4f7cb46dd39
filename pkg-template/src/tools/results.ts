// How a tool call's outcome reads to the agent: the result shapes and the
// error texts every tool module and the runner share (one wording for a
// refusal whichever tool made it).

import { unifiedDiff } from '../api.js';
import { EditkitError, isEditkitError } from '../errors.js';
import type { EditkitErrorData, ErrorCode, FileApplyResult, Lang, Match } from '../types.js';
import { listOf, say } from './messages.js';
import type { ToolResult } from './types.js';

/**
 * A result whose error flag follows `code`: a success without one, a
 * failure with it (a failure always says why).
 */
export function outcome(text: string, data: unknown, code: ErrorCode | undefined): ToolResult {
  return code === undefined ? { text, isError: false, data } : { text, isError: true, code, data };
}

/**
 * The code of a refused file apply: its reason where that is an error
 * code (`AMBIGUOUS_MATCH`), `CONTENT_MISMATCH` for `CONTENT_CHANGED` (the
 * planned lines no longer stand in the file); undefined when it applied.
 */
export function rejectionCode(r: FileApplyResult): ErrorCode | undefined {
  if (r.status !== 'rejected') return undefined;
  return r.reason === 'AMBIGUOUS_MATCH' ? 'AMBIGUOUS_MATCH' : 'CONTENT_MISMATCH';
}

/** HOST_CAPABILITY_MISSING for a files callback a tool needs. */
export function capabilityMissing(callback: string, lang: Lang): EditkitError {
  return new EditkitError({
    code: 'HOST_CAPABILITY_MISSING',
    subject: callback,
    message: say('callbackMissing', lang, callback),
  });
}

export function hostError(message: string): EditkitError {
  return new EditkitError({ code: 'HOST_ERROR', message, subject: 'files' });
}

/** Thrown when a tool needs a host the runner was not given (worded by errorResult). */
export class MissingHost extends Error {
  constructor(readonly which: 'files' | 'siyuan') {
    super(which);
  }
}

/** A tool argument the call cannot run with, as the agent's result (nothing was done). */
export function invalidArgument(subject: string, message: string, lang: Lang): ToolResult {
  return {
    text: say('errorLine', lang, 'INVALID_ARGUMENT', message),
    isError: true,
    code: 'INVALID_ARGUMENT',
    data: { code: 'INVALID_ARGUMENT', subject, message },
  };
}

/** A thrown error as the agent's result: the code, the message and each next step once. */
export function errorResult(e: unknown, lang: Lang): ToolResult {
  if (e instanceof MissingHost) {
    const why = say(e.which === 'files' ? 'filesHostMissing' : 'siyuanHostMissing', lang);
    return {
      text: say('errorLine', lang, 'HOST_CAPABILITY_MISSING', why),
      isError: true,
      code: 'HOST_CAPABILITY_MISSING',
      data: { code: 'HOST_CAPABILITY_MISSING', message: why, subject: e.which },
    };
  }
  if (isEditkitError(e)) {
    const data = e.toJSON();
    if (e.yaml) return { text: e.yaml, isError: true, code: e.code, data };
    return { text: errorLines(data, lang).join('\n'), isError: true, code: e.code, data };
  }
  const message = e instanceof Error ? e.message : String(e);
  return {
    text: say('errorLine', lang, 'HOST_ERROR', message),
    isError: true,
    code: 'HOST_ERROR',
    data: { code: 'HOST_ERROR', message },
  };
}

/**
 * An error in lines, each fact once: when the error lists its problems
 * (`errors`), its message's first line heads them and the list is not
 * repeated; a next step already said is not said again.
 */
export function errorLines(e: EditkitErrorData, lang: Lang): string[] {
  const nested = e.errors ?? [];
  const head = nested.length ? (e.message.split('\n')[0] ?? e.message) : e.message;
  const lines = [say('errorLine', lang, e.code, head)];
  const said = new Set<string>();
  const fresh = (tip: string) => {
    if (said.has(tip) || lines.some((l) => l.includes(tip))) return false;
    said.add(tip);
    return true;
  };
  for (const inner of nested) {
    lines.push(`- ${inner.message}`);
    for (const tip of inner.suggestions ?? []) if (fresh(tip)) lines.push(`  → ${tip}`);
  }
  for (const tip of e.suggestions ?? []) if (fresh(tip)) lines.push(`→ ${tip}`);
  return lines;
}

export function fileMissing(path: string, lang: Lang): ToolResult {
  return {
    text: say('fileMissing', lang, yamlQuote(path)),
    isError: true,
    code: 'FILE_NOT_FOUND',
    data: { code: 'FILE_NOT_FOUND', path },
  };
}

/** A YAML scalar for any string: single-quoted, or JSON-style double-quoted when it holds control characters. */
function yamlQuote(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(value)) return JSON.stringify(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Where matches are, as "line 3" or "lines 3, 8" (with the column when two share a line). */
export function places(matches: Match[], lang: Lang): string {
  const shared = (m: Match) => matches.some((o) => o !== m && o.startLine === m.startLine);
  const words = matches.map((m) =>
    say(shared(m) ? 'lineColumn' : 'lineOnly', lang, String(m.startLine), String(m.startColumn)),
  );
  return say(words.length === 1 ? 'atLine' : 'atLines', lang, listOf(words, lang));
}

/**
 * The matcher's texts name the library's options (`replaceAll`); the edit
 * tools' fields spell them in snake_case, so their texts do too.
 */
export function inToolWords(text: string): string {
  const names: Record<string, string> = {
    replaceAll: 'replace_all',
    expectedReplacements: 'expected_replacements',
    oldString: 'old_string',
    newString: 'new_string',
  };
  return text.replace(
    /\b(replaceAll|expectedReplacements|oldString|newString)\b/g,
    (name) => names[name] ?? name,
  );
}

/**
 * A file's change as a fenced unified diff (what the edit tools show after
 * writing), its headers in the style of the call's `undo`: `--- a/<path>`
 * and `+++ b/<path>`, `/dev/null` for a file that did not exist. `from` is
 * the path before a rename, or `null` for a created file.
 */
export function diffBlock(
  path: string,
  before: string,
  after: string,
  from: string | null = path,
): string {
  const diff = unifiedDiff(before, after, {
    oldName: from === null ? '/dev/null' : `a/${from}`,
    newName: `b/${path}`,
  }).trimEnd();
  return `\`\`\`diff\n${diff}\n\`\`\``;
}

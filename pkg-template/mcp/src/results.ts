// A tool runner's result as an MCP tool result: the agent text for every
// client, `structuredContent` for the tools whose result is data, and one
// error shape, `{ error: { code, message, next?, details? } }`, for every
// failure. Nothing the model sees names the server's own folders.

import type { Lang, McpTool, ToolResult } from 'editkit';

/** The one error shape of every tool (`structuredContent.error`). */
export interface ToolError {
  code: string;
  message: string;
  /** What to do next, when editkit knows. */
  next?: string;
  /** The error's other facts (path, line, problems, candidates, …). */
  details?: Record<string, unknown>;
}

export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Rewrites the server's folders out of a text (see {@link pathRedactor}). */
export type Redact = (text: string) => string;

/**
 * Replaces every spelling of the given folders: a path under one becomes
 * relative to it, the folder itself `<root>`.
 */
export function pathRedactor(folders: string[]): Redact {
  const spelt = [...new Set(folders.filter(Boolean))]
    .map((f) => f.replace(/[\\/]+$/, ''))
    .filter((f) => f.length > 1)
    // The longest first: a folder inside another is replaced whole.
    .sort((a, b) => b.length - a.length);
  if (!spelt.length) return (text) => text;
  const escaped = spelt.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Whole folders only: not one that merely ends another path or a URL.
  const pattern = new RegExp(
    // After it: a separator (a path under it), or what ends a path in prose.
    `(?<![\\w.~:/\\\\-])(?:${escaped.join('|')})(?:[\\\\/]|(?=$|[\\s'"\`;:,!?)\\]}>]|\\.(?:$|[^\\w.-])))`,
    'g',
  );
  return (text) =>
    text.replace(pattern, (m) => (m.endsWith('/') || m.endsWith('\\') ? '' : '<root>'));
}

function redactDeep(value: unknown, redact: Redact): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, redactDeep(v, redact)] as const),
    );
  return value;
}

/** `value` as plain JSON data (undefined fields gone), or undefined when it is not an object. */
function plainObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** The fields of a `key: value` error of the file tools (seed 001's YAML). */
function yamlFields(text: string): Record<string, string> | undefined {
  if (!/^status: error\n/.test(text)) return undefined;
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+): (.*)$/.exec(line);
    if (m) fields[m[1] as string] = (m[2] as string).replace(/^'(.*)'$/, '$1');
  }
  return fields;
}

const HEAD = /^(?:Error|错误) \[[A-Z_]+\][:：] ?/;

/** The error of a failed result in the one shape. */
export function toolError(r: ToolResult): ToolError {
  const data = plainObject(r.data) ?? {};
  const yaml = yamlFields(r.text);
  const code = String(r.code ?? data.code ?? yaml?.error ?? 'HOST_ERROR');
  const firstLine = r.text.split('\n')[0]?.replace(HEAD, '') ?? '';
  const message =
    typeof data.message === 'string'
      ? data.message
      : yaml?.summary
        ? yaml.path
          ? `${yaml.path}: ${yaml.summary}`
          : yaml.summary
        : firstLine;
  const arrows = r.text
    .split('\n')
    .filter((l) => l.startsWith('→ '))
    .map((l) => l.slice(2));
  const suggestions = Array.isArray(data.suggestions) ? data.suggestions.map(String) : arrows;
  const details = Object.fromEntries(
    Object.entries(data).filter(([k]) => !['code', 'message', 'suggestions', 'yaml'].includes(k)),
  );
  return {
    code,
    message,
    ...(suggestions.length ? { next: suggestions.join('\n') } : {}),
    ...(Object.keys(details).length ? { details } : {}),
  };
}

/** The head of an error's text, in the runner's words. */
function head(code: string, lang: Lang): string {
  return lang === 'zh' ? `错误 [${code}]：` : `Error [${code}]: `;
}

/**
 * The text of an error in the one shape: the runner's own when it is in
 * it; a file tool's YAML error rendered in it; any other text (a block
 * diff's report) kept whole under the head.
 */
function errorText(r: ToolResult, error: ToolError, lang: Lang): string {
  if (HEAD.test(r.text)) return r.text;
  if (!yamlFields(r.text)) return head(error.code, lang) + r.text;
  const lines = [head(error.code, lang) + error.message];
  if (error.next) lines.push(...error.next.split('\n').map((l) => `→ ${l}`));
  return lines.join('\n');
}

/**
 * The errors whose words come from the host (the file system, the
 * kernel), where the server's folders can appear. Never a result's file
 * text: a match report or a content mismatch quotes the file, which must
 * reach the model as it is.
 */
const HOST_WORDS: ReadonlySet<string> = new Set([
  'PATH_OUTSIDE_ROOT',
  'HOST_ERROR',
  'HOST_TIMEOUT',
  'HOST_CAPABILITY_MISSING',
  'WRITE_FAILED',
  'NOT_TEXT',
  'INTERNAL_ERROR',
  'FILE_NOT_FOUND',
]);

/** `r` as the MCP result of `tool`. */
export function toMcpResult(
  r: ToolResult,
  tool: McpTool | undefined,
  redact: Redact,
  lang: Lang = 'en',
): McpToolResult {
  if (r.isError) {
    const raw = toolError(r);
    // Only the host's words are rewritten (see HOST_WORDS).
    const hide: Redact = HOST_WORDS.has(raw.code) ? redact : (text) => text;
    const error = redactDeep(raw, hide) as ToolError;
    return {
      content: [{ type: 'text', text: hide(errorText(r, error, lang)) }],
      structuredContent: { error },
      isError: true,
    };
  }
  // A success is the file's own text and the edit's: never rewritten.
  const result: McpToolResult = { content: [{ type: 'text', text: r.text }], isError: false };
  if (tool?.outputSchema) result.structuredContent = plainObject(r.data) ?? {};
  return result;
}

// Checks a tool call's arguments against the tool's own JSON Schema before
// anything runs (SPEC §9.1): a model that sends `dryRun: "true"` or
// `content: ["a", "b"]` gets a refusal naming the field, never a write made
// from a coerced value. Every bad field is reported at once, each once.

import type { JsonSchema, Spec } from './spec.js';

/** What is wrong with one field. Data only: `messages.ts` words it. */
export type ArgProblem =
  | { kind: 'notJson'; detail: string }
  | { kind: 'notObject'; got: unknown }
  | { kind: 'unreadable'; detail: string }
  | { kind: 'missing'; fields: string[] }
  | { kind: 'unknown'; field: string; closest?: string }
  | { kind: 'wrongType'; field: string; expected: JsonSchema; got: unknown }
  | { kind: 'aliasConflict'; field: string; alias: string };

export type Args = Record<string, unknown>;

/**
 * The arguments as an object: a JSON string (OpenAI's raw `arguments`) is
 * parsed, `undefined`/`null`/`""` is no arguments.
 */
export function parseArgs(raw: unknown): { args: Args } | { problem: ArgProblem } {
  let value = raw;
  if (typeof value === 'string') {
    if (value.trim() === '') return { args: {} };
    try {
      value = JSON.parse(value);
    } catch (e) {
      return { problem: { kind: 'notJson', detail: e instanceof Error ? e.message : String(e) } };
    }
  }
  if (value === undefined || value === null) return { args: {} };
  if (typeof value !== 'object' || Array.isArray(value))
    return { problem: { kind: 'notObject', got: value } };
  return { args: value as Args };
}

/**
 * Checks `args` against `spec`: required fields, no unknown fields, types,
 * enums, minimums, patterns, array items. `null` for an optional field is
 * "unset" (OpenAI's strict mode sends it); aliases (`uri` for `path`) are
 * folded into their field. Returns the arguments to run with, or the
 * problems (each field once).
 */
export function checkArgs(spec: Spec, args: Args): { args: Args; problems: ArgProblem[] } {
  const problems: ArgProblem[] = [];
  const out: Args = {};
  const names = Object.keys(spec.params);
  // The other name of a field that has two (path ↔ uri), both ways.
  const partner = new Map(
    Object.entries(spec.params).flatMap(([n, p]) =>
      p.aliasOf
        ? [
            [n, p.aliasOf],
            [p.aliasOf, n],
          ]
        : [],
    ),
  );
  for (const [key, value] of Object.entries(args)) {
    const param = Object.prototype.hasOwnProperty.call(spec.params, key)
      ? spec.params[key]
      : undefined;
    if (!param) {
      problems.push({ kind: 'unknown', field: key, closest: closestName(key, names) });
      continue;
    }
    // `undefined` (a JS caller's absent field) is absent; `null` is unset
    // for an optional field (OpenAI's strict mode sends it).
    if (value === undefined) continue;
    const other = partner.get(key);
    if (value === null && !param.required && !other) continue;
    if (other !== undefined) {
      // A field with two names (path / uri): "" and null on either name
      // are absent; two different values are a conflict, said once (under
      // the main name); the same value twice is checked under the main name.
      if (value === null || value === '') continue;
      const theirs = args[other];
      if (theirs !== undefined && theirs !== null && theirs !== '') {
        if (theirs !== value && !param.aliasOf)
          problems.push({ kind: 'aliasConflict', field: key, alias: other });
        if (theirs !== value || param.aliasOf) continue;
      }
    }
    problems.push(...checkValue(key, value, param.schema));
    out[param.aliasOf ?? key] = value;
  }
  const missing = names.filter(
    (n) => spec.params[n]?.required && (out[n] === undefined || out[n] === null),
  );
  const problemsWithMissing = withMissing(problems, missing, '');
  // A field that has an alias is named with it: "path or uri" (seed 003 says uri).
  for (const p of problemsWithMissing)
    if (p.kind === 'missing')
      p.fields = p.fields.map((f) => (partner.has(f) ? `${f} or ${partner.get(f)}` : f));
  return { args: out, problems: problemsWithMissing };
}

/**
 * Adds the "missing" problem for `missing` fields (prefixed with
 * `prefix`), naming each field once: not when it also failed its type
 * check, nor when an unknown field already says "did you mean" it.
 */
function withMissing(problems: ArgProblem[], missing: string[], prefix: string): ArgProblem[] {
  const named = new Set<string>();
  for (const p of problems) {
    if (p.kind === 'wrongType' || p.kind === 'aliasConflict') named.add(p.field);
    if (p.kind === 'unknown' && p.closest) named.add(`${prefix}${p.closest}`);
  }
  const unnamed = missing.map((n) => `${prefix}${n}`).filter((n) => !named.has(n));
  return unnamed.length ? [{ kind: 'missing', fields: unnamed }, ...problems] : problems;
}

function checkValue(field: string, value: unknown, schema: JsonSchema): ArgProblem[] {
  if (schema.anyOf) {
    return schema.anyOf.some((s) => checkValue(field, value, s).length === 0)
      ? []
      : [{ kind: 'wrongType', field, expected: schema, got: value }];
  }
  const wrong: ArgProblem[] = [{ kind: 'wrongType', field, expected: schema, got: value }];
  switch (schema.type) {
    case 'string':
      if (typeof value !== 'string') return wrong;
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) return wrong;
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return wrong;
      break;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrong;
      if (schema.type === 'integer' && !Number.isInteger(value)) return wrong;
      if (schema.minimum !== undefined && value < schema.minimum) return wrong;
      break;
    case 'array': {
      if (!Array.isArray(value)) return wrong;
      if (schema.minItems !== undefined && value.length < schema.minItems) return wrong;
      if (schema.maxItems !== undefined && value.length > schema.maxItems) return wrong;
      if (!schema.items) break;
      const items = schema.items;
      return value.flatMap((item, i) => checkValue(`${field}[${i}]`, item, items));
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrong;
      const props = schema.properties ?? {};
      const out: ArgProblem[] = [];
      const missing = (schema.required ?? []).filter(
        (n) => (value as Args)[n] === undefined || (value as Args)[n] === null,
      );
      for (const [key, v] of Object.entries(value as Args)) {
        const sub = Object.prototype.hasOwnProperty.call(props, key) ? props[key] : undefined;
        if (!sub) {
          if (schema.additionalProperties === false)
            out.push({
              kind: 'unknown',
              field: `${field}.${key}`,
              closest: closestName(key, Object.keys(props)),
            });
          continue;
        }
        if (v === undefined || (v === null && !(schema.required ?? []).includes(key))) continue;
        out.push(...checkValue(`${field}.${key}`, v, sub));
      }
      return withMissing(out, missing, `${field}.`);
    }
  }
  if (schema.enum && !schema.enum.includes(value as string)) return wrong;
  return [];
}

/**
 * The parameter a misspelt name most likely meant: the same letters up to
 * case, `_` and `-` (`dry_run` → `dryRun`, `blockID` → `blockId`), else the
 * nearest by edit distance when it is close (at most a third of the name).
 */
export function closestName(name: string, names: string[]): string | undefined {
  const fold = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const same = names.find((n) => fold(n) === fold(name));
  if (same) return same;
  // A shortened or lengthened name: old_str for old_string.
  const folded = fold(name);
  const stem = names.find(
    (n) =>
      Math.min(folded.length, fold(n).length) >= 3 &&
      (fold(n).startsWith(folded) || folded.startsWith(fold(n))),
  );
  if (stem) return stem;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const n of names) {
    const d = editDistance(fold(name), fold(n));
    if (d < bestDistance) {
      best = n;
      bestDistance = d;
    }
  }
  return best !== undefined && bestDistance <= Math.max(1, Math.floor(fold(name).length / 3))
    ? best
    : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, substitute);
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}

// Reading a tool's checked arguments: the schemas let optional fields be
// "" or 0 for "unset" (for providers that make every field required), so
// each reader turns those back into absence.

import type { MatchMode } from '../../types.js';

/** A string argument ("" when absent). */
export const s = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
/** A boolean argument, `fallback` when absent. */
export const b = (v: unknown, fallback: boolean): boolean =>
  typeof v === 'boolean' ? v : fallback;
/** A count where 0 (and absence) means "unset", as the schemas say. */
export const count = (v: unknown): number | undefined =>
  typeof v === 'number' && v > 0 ? v : undefined;
/** `mode`: "" means unset (the matcher's default). */
export const modeOf = (v: unknown): MatchMode | undefined =>
  (s(v) || undefined) as MatchMode | undefined;
/** `occurrence`: 1-based or "last"; 0 and "" mean unset. */
export const occurrenceOf = (v: unknown): number | string | undefined =>
  v === 0 || v === '' || v === undefined ? undefined : (v as number | string);
/**
 * Markdown and plain-text files are prose: their edits run the matcher's
 * prose tier (`MatchOptions.prose`), which forgives the slips models make
 * when they quote prose and writes the file's own form back.
 */
export const isProsePath = (path: string): boolean => /\.(md|markdown|txt)$/i.test(path);

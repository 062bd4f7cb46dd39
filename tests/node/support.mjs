// Shared helpers for the Node suite: the built package and the fixtures.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');
export const shared = join(repo, '..', 'shared');

export const ek = await import(join(repo, 'pkg', 'dist', 'node.js'));
export const testing = await import(join(repo, 'pkg', 'dist', 'testing.js'));

/**
 * The write path the SiYuan suites take (EDITKIT_BATCH): unset or `1`, the
 * kernel's batch endpoints; `0`, block by block (a host without the batch
 * callbacks); `fallback`, a kernel without the batch endpoints (the host
 * finds out once and sends one request per block).
 */
export const WRITE_PATH = process.env.EDITKIT_BATCH ?? '1';
/** createSiyuanHost's options for that path. */
export const hostPath = () => ({ batch: WRITE_PATH !== '0' });
/** createKernelDouble's options for that path, and the seed (EDITKIT_DOUBLE_SEED). */
export const doublePath = () => ({
  batchEndpoints: WRITE_PATH !== 'fallback',
  seed: Number(process.env.EDITKIT_DOUBLE_SEED ?? 1),
});

/**
 * A fresh directory under the system's temp dir, removed when this test file's
 * process exits (node --test runs each file in its own process), so repeated
 * runs leave nothing behind.
 */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
const scratch = [];
process.on('exit', () => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

export const FIXTURE_FILES = [
  'doc1-weekly-report.json',
  'doc2-plugin-dev.json',
  'doc3-reading-list.json',
  'doc4-daily-note.json',
];

/** SiYuan's Lute, from vditor (the double parses every write with it). */
export const LUTE_PATH = join(repo, 'node_modules', 'vditor', 'dist', 'js', 'lute', 'lute.min.js');
export const Lute = testing.loadLute(
  readFileSync(LUTE_PATH, 'utf8'),
  createRequire(import.meta.url),
);

export function fixture(name) {
  return JSON.parse(readFileSync(join(shared, 'fixtures', 'siyuan', name), 'utf8'));
}

/** A memory host (the kernel double behind the adapter) over all four fixture documents. */
export function fixtureHost(options = {}) {
  return testing.createMemoryHost({
    fixtures: FIXTURE_FILES.map(fixture),
    lute: Lute,
    seed: Number(process.env.EDITKIT_DOUBLE_SEED ?? 1),
    ...hostPath(),
    ...options,
  });
}

export function writes(host) {
  return host.calls.filter((c) =>
    ['updateBlock', 'deleteBlock', 'insertBlock', 'prependBlock', 'appendBlock'].includes(c.name),
  );
}

/** A value `schema` (a tool parameter's JSON Schema) accepts. */
export function validValue(schema) {
  if (schema.anyOf) return validValue(schema.anyOf[0]);
  if (schema.type === 'array') return [minimalArgs(schema.items)];
  if (schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return false;
  if (schema.enum) return schema.enum.find((v) => v !== '');
  if (schema.pattern) return '20240614083000-wk24rep';
  return 'a.txt';
}

/** The least arguments an object schema accepts: each required field with a valid value. */
export function minimalArgs(schema) {
  // `path` may be given as `uri` (edit_file_search_replace), so it is not
  // in `required`, but one of the two is.
  const names = [...schema.required, ...('uri' in schema.properties ? ['path'] : [])];
  return Object.fromEntries(names.map((n) => [n, validValue(schema.properties[n])]));
}

/** mulberry32: a generator of numbers in [0, 1) that gives the same
 * sequence for a seed on every run (the random-input tests). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The fenced code blocks of a Markdown text in the given languages
 * (```ts, ```js, …): each with the heading above it, its language, the
 * line its code starts on and the code. Other fences are skipped whole.
 */
export function readmeSnippets(markdown, langs) {
  const out = [];
  const lines = markdown.split('\n');
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const h = /^#+ (.*)$/.exec(lines[i]);
    if (h) heading = h[1];
    const fence = /^```(.*)$/.exec(lines[i]);
    if (!fence) continue;
    let end = i + 1;
    while (end < lines.length && lines[end] !== '```') end++;
    if (langs.includes(fence[1]))
      out.push({ heading, lang: fence[1], line: i + 2, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return out;
}

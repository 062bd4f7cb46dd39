// Conformance of str_replace_based_edit_tool with Anthropic's text editor
// tool: each case in tests/data/text-editor-conformance.json runs through a
// tool runner over files held in memory, and its expectation is checked
// exactly. The outcome counts are pinned too, so a behaviour that starts
// (or stops) agreeing with the reference fails here until the data says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, repo } from './support.mjs';

const data = JSON.parse(
  readFileSync(join(repo, 'tests', 'data', 'text-editor-conformance.json'), 'utf8'),
);

/** How many cases of each outcome the data holds. */
const OUTCOMES = { agree: 18, safe_refusal: 1, differ: 4 };

/**
 * Files in memory. A path that is a folder of stored files is refused by
 * readFile as createNodeFileHost refuses a directory (NOT_A_FILE), and
 * listed by listDirectory as createNodeFileHost lists one.
 */
function memoryFiles(initial) {
  const files = new Map(Object.entries(initial));
  const isFolder = (p) => [...files.keys()].some((k) => k.startsWith(`${p.replace(/\/$/, '')}/`));
  return {
    files,
    readFile(p) {
      if (isFolder(p))
        throw new ek.EditkitError({
          code: 'NOT_A_FILE',
          subject: p,
          message: `${p} is a directory, not a file`,
        });
      return files.has(p) ? files.get(p) : null;
    },
    writeFile: (p, c) => void files.set(p, c),
    listDirectory(p) {
      if (!isFolder(p)) return null;
      const prefix = `${p.replace(/\/$/, '')}/`;
      const names = new Set();
      for (const k of files.keys()) {
        if (!k.startsWith(prefix)) continue;
        const [first, ...rest] = k.slice(prefix.length).split('/');
        names.add(rest.length ? `${first}/` : first);
      }
      return [...names].sort();
    },
  };
}

/** Runs one case; resolves to the tool's result and the files afterwards. */
async function runCase(c) {
  const host = memoryFiles(c.files);
  const runner = ek.createToolRunner({ files: host, lang: 'en' });
  const result = await runner.runDetailed('str_replace_based_edit_tool', c.input);
  return { result, files: Object.fromEntries(host.files) };
}

/** Checks one case's result against its `expect`. */
function checkCase(c, { result, files }) {
  const { expect } = c;
  assert.equal(result.isError, expect.isError, `${c.id}: isError\n${result.text}`);
  assert.equal(result.code, expect.code, `${c.id}: code\n${result.text}`);
  // Without expect.files nothing may be written.
  assert.deepEqual(files, expect.files ?? c.files, `${c.id}: files after the call`);
  for (const part of expect.textIncludes ?? [])
    assert.ok(
      result.text.includes(part),
      `${c.id}: text lacks ${JSON.stringify(part)}\n${result.text}`,
    );
}

test('text editor conformance: the cases are well formed', () => {
  const ids = new Set();
  for (const c of data.cases) {
    assert.ok(!ids.has(c.id), `${c.id} is unique`);
    ids.add(c.id);
    assert.ok(c.behaviour && typeof c.behaviour === 'string', `${c.id}: behaviour`);
    assert.ok(['view', 'create', 'str_replace', 'insert'].includes(c.input.command), c.id);
    assert.ok(c.outcome in OUTCOMES, `${c.id}: outcome ${c.outcome}`);
    // A difference from the reference is always explained.
    if (c.outcome !== 'agree') assert.ok(c.note, `${c.id}: a ${c.outcome} needs a note`);
    if (c.expect.isError) assert.ok(!c.expect.files, `${c.id}: a refusal writes nothing`);
  }
  assert.ok(data.cases.length >= 12 && data.cases.length <= 24, 'between 12 and 24 cases');
});

test('text editor conformance: the outcome counts', () => {
  const counts = Object.fromEntries(Object.keys(OUTCOMES).map((k) => [k, 0]));
  for (const c of data.cases) counts[c.outcome] += 1;
  assert.deepEqual(counts, OUTCOMES);
});

for (const c of data.cases) {
  test(`text editor conformance: ${c.id} (${c.outcome})`, async () => {
    checkCase(c, await runCase(c));
  });
}

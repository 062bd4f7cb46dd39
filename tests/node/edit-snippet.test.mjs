// Edit snippets with elision markers through the package (issue 35): the
// table in tests/data/edit-snippet-cases.json through planEditSnippet, then
// applyEditSnippet over a file host and the edit_snippet tool.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, repo } from './support.mjs';

const { cases } = JSON.parse(
  readFileSync(join(repo, 'tests', 'data', 'edit-snippet-cases.json'), 'utf8'),
);

test('planEditSnippet places every case of the table, or refuses it as the table says', () => {
  for (const c of cases) {
    if (c.expected !== undefined) {
      assert.equal(ek.planEditSnippet(c.content, c.snippet, c.options).content, c.expected, c.name);
      continue;
    }
    assert.throws(
      () => ek.planEditSnippet(c.content, c.snippet, c.options),
      (e) => {
        assert.equal(e.code, c.error.code, c.name);
        if (c.error.candidates)
          assert.deepEqual(
            e.candidates.map((r) => r.startLine),
            c.error.candidates,
            c.name,
          );
        return true;
      },
    );
  }
});

test('applyEditSnippet and the edit_snippet tool write the placed file, and nothing when refused', async () => {
  const c = cases[0];
  const files = new Map([['t.js', c.content]]);
  const host = { readFile: (p) => files.get(p) ?? null, writeFile: (p, t) => void files.set(p, t) };
  const r = await ek.applyEditSnippet(host, 't.js', c.snippet);
  assert.equal(files.get('t.js'), c.expected);
  assert.deepEqual(r.regions.length, 1);
  await assert.rejects(
    ek.applyEditSnippet(host, 'missing.js', c.snippet),
    (e) => e.code === 'FILE_NOT_FOUND',
  );
  files.set('t.js', c.content);
  const runner = ek.createToolRunner({ files: host });
  const done = await runner.runDetailed('edit_snippet', { path: 't.js', snippet: c.snippet });
  assert.equal(done.isError, false, done.text);
  assert.match(done.text, /^Placed the snippet in t\.js: 1 part\(s\), at lines \d+–\d+/);
  assert.equal(files.get('t.js'), c.expected);
  const bad = cases.find((x) => x.error?.code === 'AMBIGUOUS');
  files.set('b.js', bad.content);
  const refused = await runner.runDetailed('edit_snippet', { path: 'b.js', snippet: bad.snippet });
  assert.equal(refused.code, 'AMBIGUOUS');
  assert.equal(files.get('b.js'), bad.content);
});

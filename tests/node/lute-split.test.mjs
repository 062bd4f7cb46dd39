// editkit's splitter held to Lute, the kernel's own Markdown engine, with
// the kernel's settings (SPEC §3.7 rule 6): for every case of
// tests/data/lute-split-cases.json, editkit's top-level blocks are Lute's —
// as many, and each one read alone by Lute is one block of Lute's type at
// that place. A case that differs must say why in the table (`differs`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, Lute, testing } from './kernel-support.mjs';
import { repo } from './support.mjs';
import { parseTopLevel } from './lute-support.mjs';

const CASES = JSON.parse(
  readFileSync(join(repo, 'tests', 'data', 'lute-split-cases.json'), 'utf8'),
);
const lute = testing.kernelLute(Lute);

test('editkit splits markdown into the blocks Lute makes of it, with the kernel settings', () => {
  const differs = [];
  for (const c of CASES) {
    const theirs = parseTopLevel(lute, c.markdown).map((b) => b.type);
    const ours = ek.splitBlocks(c.markdown);
    const oursTypes = ours.map((chunk) => {
      const alone = parseTopLevel(lute, chunk);
      return alone.length === 1 ? alone[0].type : `${alone.length} blocks`;
    });
    const agree = JSON.stringify(oursTypes) === JSON.stringify(theirs);
    if (!agree && !c.differs)
      differs.push(
        `${JSON.stringify(c.markdown)} (${c.why}):\n  Lute:    ${theirs.join(', ')}\n  editkit: ${oursTypes.join(', ')}`,
      );
    if (agree && c.differs)
      differs.push(`${JSON.stringify(c.markdown)} is marked as differing but agrees`);
  }
  assert.deepEqual(differs, [], differs.join('\n'));
  assert.ok(CASES.length >= 50);
});

test('the SiYuan adapter splits with Lute when it has one (window.Lute in a plugin)', async () => {
  const host = ek.createSiyuanHost({
    request: async () => ({ code: 0, msg: '', data: null }),
    lute: Lute,
  });
  assert.deepEqual(await host.splitMarkdown('Title\n---\n正文'), ['Title', '---', '正文']);
  const without = ek.createSiyuanHost({
    request: async () => ({ code: 0, msg: '', data: null }),
    lute: null,
  });
  assert.equal(typeof without.splitMarkdown, globalThis.Lute ? 'function' : 'undefined');
});

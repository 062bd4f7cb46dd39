// The table the core's "every character counts" comparison is held to
// (tests/data/lute-format-cases.json, read by src/markdown/canonical.rs's
// unit test) says what SiYuan's Lute writes back for each markdown. This
// keeps its second column true: vditor's Lute, with the kernel's settings,
// writes exactly that today. Regenerate a case's `lute` with the same
// three calls when Lute changes, and check that the core still reads it as
// its input (cargo test canonical).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Lute, testing } from './kernel-support.mjs';
import { repo } from './support.mjs';

const TABLE = JSON.parse(
  readFileSync(join(repo, 'tests', 'data', 'lute-format-cases.json'), 'utf8'),
);

test('the Lute format table says what Lute writes back for each markdown', () => {
  const lute = testing.kernelLute(Lute);
  const wrong = [];
  for (const { input, lute: expected } of TABLE.cases) {
    const actual = lute.BlockDOM2StdMd(lute.Md2BlockDOM(input)).replace(/\n+$/, '');
    if (actual !== expected)
      wrong.push(
        `${JSON.stringify(input)}: table ${JSON.stringify(expected)}, Lute ${JSON.stringify(actual)}`,
      );
  }
  assert.deepEqual(wrong, [], wrong.join('\n'));
  // The table exercises Lute's rewrites, not only texts it leaves alone.
  const rewritten = TABLE.cases.filter((c) => c.input !== c.lute).length;
  assert.ok(rewritten >= 50, `${rewritten} cases Lute rewrites`);
});

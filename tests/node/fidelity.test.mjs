// SPEC §6.8 through the built package: the fidelity table the native suite
// runs (tests/data/fidelity-cases.json), and applyEdits refusing an edit
// without newString.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ek } from './support.mjs';

const table = JSON.parse(
  readFileSync(new URL('../data/fidelity-cases.json', import.meta.url), 'utf8'),
);

for (const c of table.cases) {
  test(`replaceText: ${c.name}`, () => {
    const run = () => ek.replaceText(c.content, c.search, c.replace, c.options ?? {});
    if (c.expect.error) {
      assert.throws(
        run,
        (e) => e.code === c.expect.error && (!c.expect.message || e.message === c.expect.message),
      );
    } else {
      const r = run();
      assert.equal(r.content, c.expect.content);
      assert.equal(r.strategy, c.expect.strategy);
    }
  });
}

test('applyEdits refuses an edit without newString, naming the accepted fields', () => {
  const content = 'keep this\n';
  for (const [edit, said] of [
    [{ oldString: 'keep this' }, 'Edit #1 has no `newString`.'],
    [{ oldString: 'keep this', new_string: 'x' }, 'Edit #1 has unknown field `new_string`.'],
    [
      { old_string: 'keep this', new_string: 'x' },
      'Edit #1 has unknown fields `old_string`, `new_string`.',
    ],
    [{ oldString: 'keep this', newText: 'x' }, 'Edit #1 has unknown field `newText`.'],
  ]) {
    assert.throws(
      () => ek.applyEdits(content, [edit]),
      (e) =>
        e.code === 'INVALID_ARGUMENT' &&
        e.message.startsWith(said) &&
        e.message.includes('oldString, newString and (optional) replaceAll'),
      JSON.stringify(edit),
    );
  }
  // Deleting is explicit.
  assert.equal(ek.applyEdits(content, [{ oldString: 'keep this\n', newString: '' }]).content, '');
});

test('replaceAll over the cap is TOO_MANY_MATCHES, never a partial edit', () => {
  const over = 'a\n'.repeat(100_001);
  assert.throws(
    () => ek.replaceText(over, 'a', 'b', { replaceAll: true }),
    (e) => e.code === 'TOO_MANY_MATCHES' && e.message.includes('100000'),
  );
});

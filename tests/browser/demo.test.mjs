// A person's path through each panel of the demo page, with assertions on
// what the page shows and a screenshot per panel in test-output/browser/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDemo, outputDir } from './support.mjs';

test('SiYuan panel: read with ids and a slice, inspect, then validate, dry-run, apply and undo a block diff', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    const doc = page.getByTestId('doc-view');
    // This path uses the built-in notebook (the page opens on the fixtures when they are served).
    await demo.useBuiltin();
    assert.match(await doc.innerText(), /@@20250301090100-intro01@@paragraph\n本周会议讨论了/);

    // A slice pages through the document.
    await page.getByTestId('slice').fill('20250301090200-head001:+2');
    await page.getByTestId('read').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.startsWith('> [Slice View]'),
    );
    const sliced = await doc.innerText();
    assert.match(sliced, /^> \[Slice View\] Filter: "20250301090200-head001:\+2" \| Count: 2/);
    assert.match(sliced, /@@20250301090300-list001@@list/);
    assert.doesNotMatch(sliced, /intro01/);
    await page.getByTestId('slice').fill('');

    // getBlockInfo shows the outline.
    await page.getByTestId('info').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('==='),
    );
    assert.match(await doc.innerText(), /进展\[20250301090200-head001\]/);

    // A malformed diff is marked at its line as the person types.
    await page
      .getByTestId('diff-input')
      .fill('@@20250301090100-intro01@@\n<<<<<<< SEARCH\n以及两个遗留问题\n>>>>>>> REPLACE');
    await page.waitForSelector('[data-testid="problems"] li >> text=MISSING_DELIMITER');
    assert.equal(await page.locator('#gutter .bad').innerText(), '4');
    assert.match(await page.getByTestId('problems').innerText(), /Line 4/);

    // The example diff: dry run shows the plan and changes nothing.
    await page.getByRole('button', { name: 'Load example' }).first().click();
    await page.waitForSelector('[data-testid="problems"] li.ok');
    await page.getByTestId('dry-run').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Dry run');
    assert.equal(await page.getByTestId('plan-item').count(), 3);
    assert.match(
      await page.getByTestId('results').innerText(),
      /\+本周会议讨论了 \*\*编辑引擎\*\* 的上线计划，以及三个遗留问题。/,
    );
    assert.match(await doc.innerText(), /以及两个遗留问题/);

    // Apply: the document changes (the list item lands inside the list).
    await page.getByTestId('apply').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Applied 3 of 3');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('以及三个遗留问题'),
    );
    const applied = await doc.innerText();
    assert.match(applied, /新增：dryRun 会先展示每个编辑的 diff。/);
    assert.match(applied, /- 接入演示页面\n- 编写发布说明/);
    await page.screenshot({ path: join(outputDir, 'siyuan-applied.png'), fullPage: true });

    // Undo: back to the original text.
    await page.getByTestId('undo').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('以及两个遗留问题'),
    );
    const undone = await doc.innerText();
    assert.doesNotMatch(undone, /新增：dryRun/);
    assert.doesNotMatch(undone, /编写发布说明/);
    await page.screenshot({ path: join(outputDir, 'siyuan-undone.png'), fullPage: true });
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Prepare → apply panel: plan, let the file change, apply relocates; a change inside the plan is rejected', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-files').click();
    await page.getByTestId('f-tool').selectOption('after');
    await page.getByTestId('f-prepare').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=planned');
    const plan = await page.getByTestId('f-output').innerText();
    assert.match(plan, /mode: prepare_file_insert_after/);
    assert.match(plan, /\+- dry-run previews/);

    // Someone adds a line at the top before the apply.
    const content = page.getByTestId('f-content');
    await content.fill(`Draft — do not publish\n${await content.inputValue()}`);
    await page.getByTestId('f-apply').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=context_match: fuzz');
    assert.match(await content.inputValue(), /- block diff undo\n- dry-run previews\n/);
    await page.screenshot({ path: join(outputDir, 'files-fuzz.png'), fullPage: true });

    // Plan again, then change the planned place: the apply is rejected and nothing changes.
    await page.getByTestId('f-tool').selectOption('range');
    await page.getByTestId('f-range').fill('5');
    await page.getByTestId('f-new').fill('- a much faster matcher');
    await page.getByTestId('f-prepare').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=planned');
    const changed = (await content.inputValue()).replace(
      '- faster matcher',
      '- faster matcher (edited by someone else)',
    );
    await content.fill(changed);
    await page.getByTestId('f-apply').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=context_match: rejected');
    assert.equal(await content.inputValue(), changed);
    await page.screenshot({ path: join(outputDir, 'files-rejected.png'), fullPage: true });
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Matcher playground: the strategy that matched is named and the diff shown; a miss reports the closest region', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-matcher').click();
    await page.getByTestId('m-find').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=found by');
    assert.match(
      await page.getByTestId('m-summary').innerText(),
      /found by (indentation|trailing_whitespace|whitespace_normalized): lines 3–5/,
    );
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=replaced by');
    const diff = await page.getByTestId('m-output').innerText();
    assert.match(diff, /\+        sum \+= item\.price \* item\.count \* \(1 - item\.discount\);/);
    assert.match(
      await page.getByTestId('m-content').inputValue(),
      /^ {8}sum \+= item\.price \* item\.count \* \(1 - item\.discount\);$/m,
    );
    await page.screenshot({ path: join(outputDir, 'matcher-replaced.png'), fullPage: true });

    // The same search again: it is gone now, the replacement is there.
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"].bad');
    assert.match(await page.getByTestId('m-summary').innerText(), /ALREADY_APPLIED|NOT_FOUND/);
    await page.getByTestId('m-search').fill('    let total = 0;\n    for (const item of items) {');
    await page.getByTestId('m-find').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=not found');
    const miss = await page.getByTestId('m-output').innerText();
    assert.match(miss, /"code": "NOT_FOUND"/);
    assert.match(miss, /"closest": \{\n\s+"startLine": 2/);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

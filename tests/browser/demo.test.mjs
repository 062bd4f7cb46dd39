import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDemo, outputDir } from './support.mjs';

test('demo page: validate, dry-run, apply and undo a block diff', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    const doc = page.getByTestId('doc-view');
    assert.match(await doc.innerText(), /@@20250301090100-intro01@@paragraph\n本周会议讨论了/);

    // A malformed diff is marked at its line as the person types.
    await page.getByTestId('diff-input').fill(
      '@@20250301090100-intro01@@\n<<<<<<< SEARCH\n以及两个遗留问题\n>>>>>>> REPLACE',
    );
    await page.waitForSelector('[data-testid="problems"] li >> text=MISSING_DELIMITER');
    assert.equal(await page.locator('#gutter .bad').innerText(), '4');
    assert.match(await page.getByTestId('problems').innerText(), /Line 4/);

    // The example diff: dry run shows the plan and changes nothing.
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.waitForSelector('[data-testid="problems"] li.ok');
    await page.getByTestId('dry-run').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Dry run');
    assert.equal(await page.getByTestId('plan-item').count(), 3);
    assert.match(await page.getByTestId('results').innerText(), /\+本周会议讨论了 \*\*编辑引擎\*\* 的上线计划，以及三个遗留问题。/);
    assert.match(await doc.innerText(), /以及两个遗留问题/);

    // Apply: the document changes.
    await page.getByTestId('apply').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Applied 3 of 3');
    const applied = await doc.innerText();
    assert.match(applied, /以及三个遗留问题/);
    assert.match(applied, /新增：dryRun 会先展示每个编辑的 diff。/);
    await page.screenshot({ path: join(outputDir, 'demo-applied.png'), fullPage: true });

    // Undo: back to the original text.
    await page.getByTestId('undo').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Applied');
    const undone = await doc.innerText();
    assert.match(undone, /以及两个遗留问题/);
    assert.doesNotMatch(undone, /新增：dryRun/);
    assert.doesNotMatch(undone, /编写发布说明/);
    await page.screenshot({ path: join(outputDir, 'demo-undone.png'), fullPage: true });
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

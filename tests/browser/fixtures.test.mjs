// The demo's sample notebook comes from the shared SiYuan fixtures
// (../shared/fixtures/siyuan/, served read-only by scripts/serve.mjs at
// /fixtures/siyuan/, never copied into the repo), with the built-in notebook
// as the fallback. Screenshots of the reading panel, the editor marking a
// format error and a dry-run plan go to test-output/browser/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FIXTURES, serve } from '../../scripts/serve.mjs';
import { openDemo, outputDir } from './support.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const skip = existsSync(join(DEFAULT_FIXTURES, 'notebook-index.json'))
  ? false
  : 'the shared fixtures are not next to the repo';
const viewText = (page) => page.getByTestId('doc-view').innerText();

test(
  'the page opens on the fixture notebook: its documents, a slice with ids, a format error at its line, a dry-run plan',
  { skip },
  async () => {
    const demo = await openDemo();
    const { page } = demo;
    try {
      assert.equal(await page.evaluate(() => document.body.dataset.sample), 'fixtures');
      assert.equal(await page.getByTestId('source-fixtures').isChecked(), true);
      assert.deepEqual(await page.locator('#doc-select option').allInnerTexts(), [
        '项目周报',
        'SiYuan 插件开发',
        'Reading List',
        '2024-06-15',
      ]);
      const first = await viewText(page);
      assert.ok(
        first.startsWith(
          '@@20240614083000-a1b2c3d@@paragraph\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n\n@@20240614083112-h2jz8kq@@heading\n## 本周进展\n',
        ),
        first.slice(0, 200),
      );

      // Reading panel: Reading List, ids shown, slice 2:5.
      await page.getByTestId('doc-select').selectOption({ label: 'Reading List' });
      await page.getByTestId('slice').fill('2:5');
      await page.getByTestId('read').click();
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="doc-view"]')
          .textContent.startsWith('> [Slice View] Filter: "2:5"'),
      );
      assert.equal(
        await viewText(page),
        '> [Slice View] Filter: "2:5" | Count: 3\n\n@@20240620211520-q2item1@@paragraph\nDesigning Data-Intensive Applications\n\n@@20240620211530-q3item2@@paragraph\nThe Rust Programming Language\n\n@@20240620211540-q4item3@@paragraph\nCrafting Interpreters',
      );
      const sliced = await viewText(page);
      // A slice forces the ids (SPEC §5.1), even with showId off; without a slice, showId off hides them.
      await page.getByTestId('show-id').uncheck();
      await page.getByTestId('read').click();
      await page.waitForTimeout(200);
      assert.equal(await viewText(page), sliced);
      await page.getByTestId('slice').fill('');
      await page.getByTestId('read').click();
      await page.waitForFunction(
        () => !document.querySelector('[data-testid="doc-view"]').textContent.includes('@@'),
      );
      assert.match(
        await viewText(page),
        /\nDesigning Data-Intensive Applications\n\nThe Rust Programming Language\n/,
      );
      await page.getByTestId('show-id').check();
      await page.getByTestId('slice').fill('2:5');
      await page.getByTestId('read').click();
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="doc-view"]')
          .textContent.includes('@@20240620211520-q2item1@@'),
      );
      assert.equal(await viewText(page), sliced);
      await page
        .locator('#doc-panel')
        .screenshot({ path: join(outputDir, 'fixtures-reading-slice.png') });

      // Block-diff editor: an unclosed SEARCH is marked at line 2.
      await page
        .getByTestId('diff-input')
        .fill('@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n');
      await page.waitForSelector('[data-testid="problems"] li >> text=UNCLOSED_SEARCH');
      assert.deepEqual(await page.locator('#gutter .bad').allInnerTexts(), ['2']);
      assert.deepEqual(await page.locator('#backdrop mark').allInnerTexts(), ['<<<<<<< SEARCH']);
      assert.match(
        await page.locator('#backdrop mark').getAttribute('title'),
        /^Line 2: this <<<<<<< SEARCH block is never closed/,
      );
      assert.equal(
        await page.locator('[data-testid="problems"] li').first().getAttribute('data-line'),
        '2',
      );
      assert.equal(await page.locator('[data-testid="problems"] li.ok').count(), 0);
      await page
        .locator('#diff-panel')
        .screenshot({ path: join(outputDir, 'fixtures-diff-format-error.png') });

      // Dry run of the fixture example: the plan is shown and nothing changes.
      await page.getByTestId('doc-select').selectOption({ label: '项目周报' });
      await page.getByTestId('slice').fill('');
      await page.getByRole('button', { name: 'Load example' }).first().click();
      await page.waitForSelector('[data-testid="problems"] li.ok');
      assert.match(
        await page.getByTestId('diff-input').inputValue(),
        /^@@20240614083000-a1b2c3d@@paragraph\n<<<<<<< SEARCH\n并修复了若干问题。\n/,
      );
      await page.getByTestId('dry-run').click();
      await page.waitForSelector('[data-testid="summary"] >> text=Dry run');
      assert.equal(
        await page.getByTestId('summary').innerText(),
        'Dry run: all 2 edit(s) passed the check (2 would be written, 0 unchanged); nothing was written.',
      );
      const items = page.getByTestId('plan-item');
      assert.equal(await items.count(), 2);
      assert.equal(
        await items.nth(0).locator('h3').innerText(),
        '#1 UPDATE 20240614083000-a1b2c3d · planned · substring',
      );
      assert.equal(
        await items.nth(1).locator('h3').innerText(),
        '#2 INSERT_AFTER 20240614083000-a1b2c3d · planned',
      );
      assert.match(
        await items.nth(0).locator('pre').innerText(),
        /^--- before\n\+\+\+ after\n@@ -1 \+1 @@\n-本周主要完成了插件 \*\*diff 编辑\*\* 功能的重构，并修复了若干问题。\n\+本周主要完成了插件 \*\*diff 编辑\*\* 功能的重构，并修复了三个问题。/,
      );
      assert.match(
        await items.nth(1).locator('pre').innerText(),
        /\n\+下周计划：发布 dry-run 预览。/,
      );
      assert.equal(await page.locator('#results .undo').count(), 0, 'a dry run has no undo');
      await page.waitForFunction(() =>
        document
          .querySelector('[data-testid="doc-view"]')
          .textContent.startsWith('@@20240614083000-a1b2c3d@@'),
      );
      const after = await viewText(page);
      assert.match(after, /并修复了若干问题。/);
      assert.doesNotMatch(after, /发布 dry-run 预览/);
      await page
        .locator('#result-panel')
        .screenshot({ path: join(outputDir, 'fixtures-dry-run-plan.png') });
      await page.screenshot({ path: join(outputDir, 'fixtures-page.png'), fullPage: true });
      assert.deepEqual(demo.errors, []);
    } finally {
      await demo.close();
    }
  },
);

test('without the fixtures the page falls back to the built-in notebook', async () => {
  const demo = await openDemo({ fixtures: null });
  const { page } = demo;
  try {
    assert.equal(await page.evaluate(() => document.body.dataset.sample), 'builtin');
    assert.equal(await page.locator('#source-fixtures-label').isHidden(), true);
    assert.equal(await page.getByTestId('source-memory').isChecked(), true);
    assert.deepEqual(await page.locator('#doc-select option').allInnerTexts(), [
      '产品周会记录',
      'Reading list',
    ]);
    assert.match(await viewText(page), /^@@20250301090100-intro01@@paragraph\n本周会议讨论了/);
    assert.match(await page.getByTestId('diff-input').inputValue(), /^@@20250301090100-intro01@@/);
    assert.equal(
      await page.evaluate(async () => (await fetch('/fixtures/siyuan/notebook-index.json')).status),
      404,
    );
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test(
  'the server serves the fixtures read-only, in place, and nothing outside them',
  { skip },
  async () => {
    const server = await serve(0);
    try {
      const index = await fetch(`${server.url}fixtures/siyuan/notebook-index.json`);
      assert.equal(index.status, 200);
      assert.equal(index.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.deepEqual(
        await index.json(),
        JSON.parse(readFileSync(join(DEFAULT_FIXTURES, 'notebook-index.json'), 'utf8')),
      );
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const r = await fetch(`${server.url}fixtures/siyuan/notebook-index.json`, {
          method,
          body: method === 'DELETE' ? undefined : '{}',
        });
        assert.equal(r.status, 405, method);
      }
      for (const path of [
        'fixtures/siyuan/..%2F..%2FSPEC.md',
        'fixtures/siyuan/%2e%2e/%2e%2e/SPEC.md',
        'fixtures/siyuan/%E0%A4%A',
      ]) {
        assert.equal((await fetch(server.url + path)).status, 404, path);
      }
      // The fixtures are not copied into the repo.
      assert.deepEqual(
        readdirSync(join(repo, 'www')).filter((f) => f.endsWith('.json')),
        [],
      );
    } finally {
      await server.close();
    }
  },
);

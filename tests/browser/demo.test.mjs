// A person's path through each panel of the demo page (SPEC §10, revision
// 2), with assertions on what the page shows, no console error on load or
// through the flows, and screenshots of each panel in both languages in
// test-output/browser/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openDemo, outputDir } from './support.mjs';

const INTRO = '20250301090100-intro01';
const text = (page, id) => page.getByTestId(id).innerText();

test('the page loads with no console error, with and without the shared fixtures', async () => {
  for (const fixtures of [undefined, null]) {
    const demo = await openDemo(fixtures === null ? { fixtures: null } : {});
    try {
      assert.equal(
        await demo.page.evaluate(() => document.body.dataset.sample),
        fixtures === null ? 'builtin' : 'fixtures',
      );
      assert.deepEqual(demo.consoleErrors, []);
      assert.deepEqual(demo.errors, []);
    } finally {
      await demo.close();
    }
  }
});

test('SiYuan panel: the document as SiYuan shows it beside the agent text; validate, dry-run, apply (once), undo as an undo', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    const doc = page.getByTestId('doc-view');
    // This path uses the built-in notebook (the page opens on the fixtures when they are served).
    await demo.useBuiltin();
    assert.match(await doc.innerText(), /@@20250301090100-intro01@@paragraph\n本周会议讨论了/);

    // The rendered view: headings, lists, code, tables, quotes; each block's id on hover.
    const rendered = page.getByTestId('doc-rendered');
    const intro = rendered.locator(`.block[data-id="${INTRO}"]`);
    assert.equal(await intro.getAttribute('title'), `${INTRO} · paragraph`);
    assert.equal(await intro.locator('strong').innerText(), '编辑引擎');
    assert.equal(await rendered.locator('h2').first().innerText(), '进展');
    assert.equal(await rendered.locator('li').count(), 3);
    assert.equal(await rendered.locator('table td').first().innerText(), '属性丢失');
    assert.match(await rendered.locator('pre code').innerText(), /applyBlockDiff/);
    assert.match(await rendered.locator('blockquote').innerText(), /updateBlock/);

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

    // The format is explained beside the editor, with an example that uses the reader's labels.
    assert.match(await text(page, 'format-help'), /@@REPLACE:<id>@@ \+ markdown/);
    assert.match(await text(page, 'format-example'), /^@@20250301090100-intro01@@paragraph\n/);

    // A malformed diff is marked at its line as the person types.
    await page
      .getByTestId('diff-input')
      .fill('@@20250301090100-intro01@@\n<<<<<<< SEARCH\n以及两个遗留问题\n>>>>>>> REPLACE');
    await page.waitForSelector('[data-testid="problems"] li >> text=MISSING_DELIMITER');
    assert.equal(await page.locator('#gutter .bad').innerText(), '4');
    assert.match(await text(page, 'problems'), /Line 4/);

    // The example diff: dry run shows the plan in hunk order and changes nothing.
    await page.getByTestId('copy-example').click();
    await page.waitForSelector('[data-testid="problems"] li.ok');
    await page.getByTestId('dry-run').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Dry run');
    const items = page.getByTestId('plan-item');
    assert.equal(await items.count(), 3);
    const heads = await items.locator('h3').allInnerTexts();
    assert.deepEqual(
      heads.map((h) => h.split(' ')[0]),
      ['#1', '#2', '#3'],
    );
    assert.match(
      await text(page, 'results'),
      /\+本周会议讨论了 \*\*编辑引擎\*\* 的上线计划，以及三个遗留问题。/,
    );
    assert.match(await doc.innerText(), /以及两个遗留问题/);

    // Apply: the document changes; the same diff cannot be applied twice.
    await page.getByTestId('apply').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Applied 3 of 3');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('以及三个遗留问题'),
    );
    assert.equal(await page.getByTestId('apply').isDisabled(), true);
    const applied = await doc.innerText();
    assert.match(applied, /新增：dryRun 会先展示每个编辑的 diff。/);
    assert.match(applied, /- 接入演示页面\n- 编写发布说明/);
    assert.match(await intro.innerText(), /以及三个遗留问题/);
    assert.equal(
      await page.getByTestId('apply').getAttribute('title'),
      'Applied. Change the diff to apply again.',
    );
    await page.screenshot({ path: join(outputDir, 'siyuan-applied-en.png'), fullPage: true });

    // The example again, applied again: refused as a whole, every hunk listed in order.
    await page.getByTestId('copy-example').click();
    await page.getByTestId('apply').click();
    await page.waitForSelector('[data-testid="summary"].bad');
    const again = await page.locator('#results .edit h3').allInnerTexts();
    assert.deepEqual(
      again.map((h) => h.split(' ')[0]),
      ['#1', '#2', '#3'],
    );
    assert.match(again[0], /CONTENT_MISMATCH/);
    assert.match(await doc.innerText(), /以及三个遗留问题/, 'nothing written by the refused apply');

    // Undo: shown as an undo (no attribute lines), the text is back, Apply is possible again.
    await page.getByTestId('undo').click();
    await page.waitForSelector('[data-testid="summary"] >> text=Undone: 3 block(s) restored');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('以及两个遗留问题'),
    );
    assert.doesNotMatch(await text(page, 'results'), /\{: id=/);
    const undone = await doc.innerText();
    assert.doesNotMatch(undone, /新增：dryRun/);
    assert.doesNotMatch(undone, /编写发布说明/);
    assert.equal(await page.getByTestId('undo').isDisabled(), true);
    assert.equal(await page.getByTestId('apply').isDisabled(), false);
    await page.screenshot({ path: join(outputDir, 'siyuan-undone-en.png'), fullPage: true });

    // 中文: every label follows, and the example's header matches what the reader shows.
    await demo.setLang('zh');
    assert.equal(await text(page, 'tab-siyuan'), '思源笔记');
    assert.equal(await text(page, 'dry-run'), '试运行');
    assert.match(await text(page, 'format-help'), /整体改写该块/);
    assert.match(await text(page, 'status'), /已就绪/);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="doc-view"]').textContent.includes('@@段落'),
    );
    assert.match(await text(page, 'format-example'), /^@@20250301090100-intro01@@段落\n/);
    assert.match(await page.getByTestId('diff-input').inputValue(), /^@@[^@]+@@段落\n/);
    assert.equal(
      await page
        .locator(`[data-testid="doc-rendered"] .block[data-id="${INTRO}"]`)
        .getAttribute('title'),
      `${INTRO} · 段落`,
    );
    await page.screenshot({ path: join(outputDir, 'siyuan-zh.png'), fullPage: true });
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Agent replay: read with a slice, dry run, apply, a refused stale edit, undo — step by step', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    // On the built-in notebook (the page opens on the fixtures when they are served).
    await demo.useBuiltin();
    // Two steps in English, then 中文: the session plays again in Chinese.
    await page.getByTestId('tab-replay').click();
    assert.match(
      await text(page, 'replay-intro'),
      /^A scripted agent session against the built-in sample notebook \(document “产品周会记录”\),/,
    );
    for (let i = 1; i <= 2; i++) {
      await page.getByTestId('replay-next').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="replay-step"]').length === n,
        i,
      );
    }
    assert.match((await page.getByTestId('replay-answer').allInnerTexts())[1], /Dry run/);
    await demo.setLang('zh');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="replay-progress"]')?.textContent.includes('第 3 步'),
    );
    assert.equal(await page.getByTestId('replay-step').count(), 2);
    assert.match((await page.getByTestId('replay-answer').allInnerTexts())[1], /试运行/);
    for (let i = 3; i <= 5; i++) {
      await page.getByTestId('replay-next').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="replay-step"]').length === n,
        i,
      );
    }
    const badges = await page.getByTestId('replay-badge').allInnerTexts();
    assert.deepEqual(badges, ['成功', '成功', '成功', '被拒绝（isError）', '成功']);
    const answers = await page.getByTestId('replay-answer').allInnerTexts();
    assert.match(answers[0], /^> \[Slice View\] Filter: "0:3" \| Count: 3/);
    assert.match(answers[1], /试运行/);
    assert.match(answers[2], /撤销用的 diff/);
    assert.match(answers[3], /CONTENT_MISMATCH/);
    // The paragraph after each step: unchanged by the read and the dry run, changed by the
    // apply, untouched by the refused edit, restored by the undo.
    const paragraphs = [];
    for (let i = 1; i <= 5; i++) paragraphs.push(await text(page, `replay-paragraph-${i}`));
    assert.deepEqual(
      paragraphs.map((p) => (p.includes('三个遗留问题') ? 3 : p.includes('两个遗留问题') ? 2 : 0)),
      [2, 2, 3, 3, 2],
    );
    assert.equal(await page.getByTestId('replay-next').isDisabled(), true);
    assert.equal(await text(page, 'replay-progress'), '会话结束。');
    await page.screenshot({ path: join(outputDir, 'replay-zh.png'), fullPage: true });
    await page.getByTestId('replay-restart').click();
    assert.equal(await page.getByTestId('replay-step').count(), 0);
    assert.equal(await page.getByTestId('replay-next').isDisabled(), false);
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Prepare → apply panel: only the chosen tool’s inputs; plan, let the file change, apply relocates; a change inside the plan is rejected', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-files').click();
    const visible = async () => {
      const out = [];
      for (const id of ['f-range', 'f-anchor', 'f-start', 'f-end'])
        if (await page.getByTestId(id).isVisible()) out.push(id);
      return out;
    };
    assert.deepEqual(await visible(), ['f-range']);
    await page.getByTestId('f-tool').selectOption('append');
    assert.deepEqual(await visible(), []);
    await page.getByTestId('f-tool').selectOption('block');
    assert.deepEqual(await visible(), ['f-start', 'f-end']);
    await page.getByTestId('f-tool').selectOption('after');
    assert.deepEqual(await visible(), ['f-anchor']);

    await page.getByTestId('f-prepare').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=Planned hunk');
    assert.match(
      await text(page, 'f-summary'),
      /^Planned hunk [a-z0-9]+-1\. Nothing is written yet: review the diff below, then press “Apply hunk”\.$/,
    );
    assert.doesNotMatch(await text(page, 'f-summary'), /write the returned content/);
    assert.doesNotMatch(await text(page, 'f-summary'), /apply_file_modification/);
    assert.match(await text(page, 'f-diff'), /\+- dry-run previews/);
    assert.match(
      await page.getByTestId('f-output').textContent(),
      /mode: prepare_file_insert_after/,
    );

    // Someone adds a line at the top before the apply.
    const content = page.getByTestId('f-content');
    await content.fill(`Draft — do not publish\n${await content.inputValue()}`);
    await page.getByTestId('f-apply').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=context_match: fuzz');
    assert.match(await text(page, 'f-summary'), /The file on the left is updated\.$/);
    assert.match(await content.inputValue(), /- block diff undo\n- dry-run previews\n/);
    assert.equal(await page.getByTestId('f-apply').isDisabled(), true, 'a hunk applies once');
    await page.screenshot({ path: join(outputDir, 'files-fuzz-en.png'), fullPage: true });

    // Plan again, then change the planned place: the apply is rejected and nothing changes.
    await page.getByTestId('f-tool').selectOption('range');
    await page.getByTestId('f-range').fill('5');
    await page.getByTestId('f-new').fill('- a much faster matcher');
    await page.getByTestId('f-prepare').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=Planned hunk');
    const changed = (await content.inputValue()).replace(
      '- faster matcher',
      '- faster matcher (edited by someone else)',
    );
    await content.fill(changed);
    await page.getByTestId('f-apply').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=context_match: rejected');
    assert.equal(await content.inputValue(), changed);
    await demo.setLang('zh');
    assert.equal(await text(page, 'f-prepare'), '规划');
    await page.screenshot({ path: join(outputDir, 'files-rejected-zh.png'), fullPage: true });
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Matcher playground: the example loads on a first visit; the strategy is named and the diff shown; a miss reports the closest region once', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-matcher').click();
    assert.equal(await page.getByTestId('m-content').inputValue(), '');
    await page.getByTestId('m-example').click();
    assert.match(await page.getByTestId('m-content').inputValue(), /export function total/);
    assert.match(await text(page, 'm-summary'), /^Example loaded/);
    await page.getByTestId('m-find').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=found by');
    assert.match(
      await text(page, 'm-summary'),
      /found by (indentation|trailing_whitespace|whitespace_normalized): lines 3–5/,
    );
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=replaced by');
    const diff = await text(page, 'm-output');
    assert.match(diff, /\+        sum \+= item\.price \* item\.count \* \(1 - item\.discount\);/);
    assert.match(
      await page.getByTestId('m-content').inputValue(),
      /^ {8}sum \+= item\.price \* item\.count \* \(1 - item\.discount\);$/m,
    );
    await page.screenshot({ path: join(outputDir, 'matcher-replaced-en.png'), fullPage: true });

    // The same replace again: refused, and its message is said once.
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"].bad');
    const summary = await text(page, 'm-summary');
    assert.match(summary, /^(ALREADY_APPLIED|NOT_FOUND): /);
    const said = summary.replace(/^[A-Z_]+: /, '');
    assert.ok(!(await text(page, 'm-output')).includes(said), 'the message is not repeated');

    await demo.setLang('zh');
    await page.getByTestId('m-search').fill('    let total = 0;\n    for (const item of items) {');
    await page.getByTestId('m-find').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=未找到');
    assert.match(await text(page, 'm-output'), /^最接近的位置：第 2–3 行/);
    await page.screenshot({ path: join(outputDir, 'matcher-miss-zh.png'), fullPage: true });
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('a live kernel that refuses or cannot be reached is a clear state, and the page keeps its notebook', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    // A kernel that answers with an error (a wrong token).
    await page.route('http://127.0.0.1:6999/api/query/sql', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: -1, msg: 'Auth failed', data: null }),
      }),
    );
    await page.getByTestId('source-live').check();
    await page.getByTestId('live-url').fill('http://127.0.0.1:6999');
    await page.getByTestId('live-connect').click();
    await page.waitForSelector('[data-testid="live-state"].bad');
    assert.match(
      await text(page, 'live-state'),
      /^The live kernel at http:\/\/127\.0\.0\.1:6999 is unreachable \(Auth failed\)\. Check that SiYuan is running/,
    );
    assert.equal(await page.getByTestId('source-fixtures').isChecked(), true);
    assert.match(await text(page, 'doc-view'), /@@20240614083000-/);
    assert.deepEqual(demo.consoleErrors, []);
    // The state follows the language.
    await demo.setLang('zh');
    assert.match(
      await text(page, 'live-state'),
      /^无法连接 http:\/\/127\.0\.0\.1:6999 的内核（Auth failed）/,
    );

    // Nothing listening at all: the same state.
    await page.getByTestId('source-live').check();
    await page.getByTestId('live-url').fill('http://127.0.0.1:6998');
    await page.getByTestId('live-connect').click();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="live-state"]').textContent.includes('127.0.0.1:6998'),
    );
    await page.waitForSelector('[data-testid="live-state"].bad');
    assert.match(await text(page, 'live-state'), /^无法连接 http:\/\/127\.0\.0\.1:6998 的内核/);
    await page.screenshot({ path: join(outputDir, 'live-unreachable-zh.png'), fullPage: true });
    // The browser itself logs the refused connection; the page adds nothing.
    assert.ok(
      demo.consoleErrors.every((e) => /ERR_CONNECTION_REFUSED/.test(e)),
      demo.consoleErrors.join('\n'),
    );
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('every panel in both languages (screenshots)', async () => {
  const demo = await openDemo({ fixtures: null });
  const { page } = demo;
  try {
    for (const lang of ['en', 'zh']) {
      await demo.setLang(lang);
      for (const tab of ['siyuan', 'replay', 'matcher', 'files']) {
        await page.getByTestId(`tab-${tab}`).click();
        if (tab === 'replay' && (await page.getByTestId('replay-step').count()) === 0)
          await page.getByTestId('replay-next').click();
        if (tab === 'matcher') await page.getByTestId('m-example').click();
        await page.screenshot({
          path: join(outputDir, `panel-${tab}-${lang}.png`),
          fullPage: true,
        });
      }
      // No English label is left on a Chinese page (and the reverse).
      const labels = await page.locator('[data-i18n]').allTextContents();
      assert.ok(
        labels.every((l) => l.trim() !== ''),
        'every label has text',
      );
      const cjk = (l) => /[\u4e00-\u9fff]/.test(l);
      const wrong = labels.filter((l) => (lang === 'zh' ? !cjk(l) : cjk(l)));
      assert.deepEqual(wrong, [], `${lang}: labels in the other language`);
    }
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

// Issue 34, the demo nits: each fixed, each checked as a person sees it.

const RELEASE_NOTES = `# Release notes

## 0.2.0
- faster matcher
- block diff undo

## 0.1.0
- first release
`;
const RELEASE_NOTES_ZH = `# 发布说明

## 0.2.0
- 更快的匹配器
- 块级 diff 支持撤销

## 0.1.0
- 首次发布
`;

/** Plans with the fields as the page fills them, applies, and returns the file. */
async function planAndApply(page) {
  await page.getByTestId('f-prepare').click();
  await page.waitForFunction(
    () => !document.querySelector('[data-testid="f-apply"]').disabled,
    null,
    { timeout: 5000 },
  );
  // One line per diff line (the coloured lines are blocks: innerText adds a break before them).
  const diff = (await text(page, 'f-diff')).replace(/\n+/g, '\n');
  await page.getByTestId('f-apply').click();
  await page.waitForFunction(() =>
    /^context_match(: |：)exact /.test(
      document.querySelector('[data-testid="f-summary"]').textContent,
    ),
  );
  return { diff, content: await page.getByTestId('f-content').inputValue() };
}

test('Prepare → apply: every tool’s example keeps the headings and changes or adds a bullet where it belongs', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-files').click();
    assert.equal(await page.getByTestId('f-content').inputValue(), RELEASE_NOTES);

    // The default: prepare_file_range_edit on line 4, a bullet of 0.2.0 made more precise.
    assert.equal(await page.getByTestId('f-range').inputValue(), '4');
    assert.equal(
      await page.getByTestId('f-new').inputValue(),
      '- faster matcher (2× on large files)',
    );
    const first = await planAndApply(page);
    assert.match(
      first.diff,
      /^ ## 0\.2\.0\n-- faster matcher\n\+- faster matcher \(2× on large files\)\n - block diff undo$/m,
    );
    assert.doesNotMatch(first.diff, /^-## /m, 'no heading is removed');
    assert.equal(
      first.content,
      RELEASE_NOTES.replace('- faster matcher\n', '- faster matcher (2× on large files)\n'),
    );

    // Every other tool's example, on the sample file: its fields follow the tool.
    const expected = {
      append: `${RELEASE_NOTES}\nOlder releases are listed in CHANGELOG.md.\n`,
      after: RELEASE_NOTES.replace(
        '- block diff undo\n',
        '- block diff undo\n- dry-run previews\n',
      ),
      before: RELEASE_NOTES.replace('## 0.2.0\n', '## 0.2.0\n- dry-run previews\n'),
      block: RELEASE_NOTES.replace(
        '- block diff undo\n',
        '- block diff undo\n- dry-run previews\n',
      ),
    };
    for (const [tool, result] of Object.entries(expected)) {
      await page.getByTestId('f-content').fill(RELEASE_NOTES);
      await page.getByTestId('f-tool').selectOption(tool);
      const { content } = await planAndApply(page);
      assert.equal(content, result, tool);
    }
    assert.equal(await page.getByTestId('f-anchor').inputValue(), '- faster matcher');
    assert.equal(await page.getByTestId('f-start').inputValue(), '## 0.2.0');
    assert.equal(await page.getByTestId('f-end').inputValue(), '## 0.1.0');

    // What a person typed stays when the tool changes.
    await page.getByTestId('f-new').fill('- my own line');
    await page.getByTestId('f-tool').selectOption('after');
    assert.equal(await page.getByTestId('f-new').inputValue(), '- my own line');
    assert.equal(await page.getByTestId('f-anchor').inputValue(), '- block diff undo');
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('tools are labelled with the agent tool names, not the library’s method names', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-files').click();
    assert.deepEqual(await page.locator('[data-testid="f-tool"] option').allInnerTexts(), [
      'prepare_file_range_edit',
      'prepare_file_append',
      'prepare_file_insert_after',
      'prepare_file_insert_before',
      'prepare_file_block_replace',
    ]);
    await page.getByTestId('tab-matcher').click();
    assert.equal(await text(page, 'm-replace-btn'), 'edit');
    assert.equal(await text(page, 'm-find'), 'Find only');
    await page.getByTestId('m-example').click();
    assert.equal(
      await text(page, 'm-summary'),
      'Example loaded: the search has 2-space indentation and a trailing space where the file has 4 spaces. Press “Find only”, or “edit” to replace as the agent tool edit does.',
    );
    // The edit button replaces as the agent tool edit does (the safe tier forgives the indentation).
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=replaced by');
    assert.match(
      await page.getByTestId('m-content').inputValue(),
      /^ {8}sum \+= item\.price \* item\.count \* \(1 - item\.discount\);$/m,
    );
    // No label of the page is a camelCase method name that is not an agent tool.
    const camel =
      /\b(replaceText|applyPatch|findMatch|prepare(RangeEdit|Append|InsertAfter|InsertBefore|BlockReplace))\b/;
    for (const lang of ['en', 'zh']) {
      await demo.setLang(lang);
      const labels = await page
        .locator('button, option, label, [data-testid="m-summary"]')
        .allInnerTexts();
      assert.deepEqual(
        labels.filter((l) => camel.test(l)),
        [],
        lang,
      );
    }
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('中文: the file and the search/replace example are Chinese, and the apply button is Chinese', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await demo.setLang('zh');
    await page.getByTestId('tab-files').click();
    assert.equal(await page.getByTestId('f-content').inputValue(), RELEASE_NOTES_ZH);
    assert.equal(await text(page, 'f-apply'), '应用此处修改');
    assert.equal(await page.getByTestId('f-new').inputValue(), '- 更快的匹配器（大文件上快一倍）');
    await page.getByTestId('f-prepare').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=已规划修改');
    assert.match(
      await text(page, 'f-summary'),
      /^已规划修改 [a-z0-9]+-1。尚未写入：请检查下方的 diff，然后点击“应用此处修改”。$/,
    );
    await page.getByTestId('f-apply').click();
    await page.waitForSelector('[data-testid="f-summary"] >> text=context_match：exact');
    assert.equal(
      await page.getByTestId('f-content').inputValue(),
      RELEASE_NOTES_ZH.replace('- 更快的匹配器\n', '- 更快的匹配器（大文件上快一倍）\n'),
    );
    // The insert example in Chinese too.
    await page.getByTestId('f-content').fill(RELEASE_NOTES_ZH);
    await page.getByTestId('f-tool').selectOption('after');
    assert.equal(await page.getByTestId('f-anchor').inputValue(), '- 块级 diff 支持撤销');
    assert.equal(
      (await planAndApply(page)).content,
      RELEASE_NOTES_ZH.replace('- 块级 diff 支持撤销\n', '- 块级 diff 支持撤销\n- 试运行预览\n'),
    );
    // No button or label of the Chinese page is half English.
    const buttons = await page.locator('button[data-i18n]').allInnerTexts();
    assert.deepEqual(
      buttons.filter((b) => /\b(hunk|apply|find)\b/i.test(b)),
      [],
    );

    // The matcher's example: Chinese comments, found and replaced as in English.
    await page.getByTestId('tab-matcher').click();
    await page.getByTestId('m-example').click();
    assert.equal(
      await page.getByTestId('m-content').inputValue(),
      `export function total(items) {
    let sum = 0;
    for (const item of items) {
        sum += item.price * item.count; // 单价 × 数量
    }
    return sum;
}
`,
    );
    assert.match(await page.getByTestId('m-search').inputValue(), /\/\/ 单价 × 数量 \n/);
    assert.equal(await text(page, 'm-find'), '仅查找');
    await page.getByTestId('m-find').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=找到');
    assert.match(await text(page, 'm-summary'), /^由 \S+ 找到：第 3–5 行$/);
    await page.getByTestId('m-replace-btn').click();
    await page.waitForSelector('[data-testid="m-summary"] >> text=替换');
    assert.match(
      await page.getByTestId('m-content').inputValue(),
      /^ {8}sum \+= item\.price \* item\.count \* \(1 - item\.discount\); \/\/ 单价 × 数量 × \(1 − 折扣\)$/m,
    );
    await page.screenshot({ path: join(outputDir, 'matcher-example-zh.png'), fullPage: true });

    // Back to English: the untouched samples follow; a changed file stays as it is.
    await page.getByTestId('m-example').click();
    await demo.setLang('en');
    assert.match(await page.getByTestId('m-content').inputValue(), /item\.count;\n/);
    await page.getByTestId('tab-files').click();
    assert.match(await page.getByTestId('f-content').inputValue(), /- 试运行预览/);
    await page.getByTestId('f-content').fill(RELEASE_NOTES_ZH);
    await demo.setLang('zh');
    await demo.setLang('en');
    assert.equal(await page.getByTestId('f-content').inputValue(), RELEASE_NOTES);
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('Agent replay: the intro names the notebook that is selected, and the session plays on it', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.getByTestId('tab-replay').click();
    assert.equal(await page.getByTestId('source-fixtures').isChecked(), true);
    assert.equal(
      await text(page, 'replay-intro'),
      'A scripted agent session against the sample notebook from the SiYuan fixtures (document “项目周报”), one tool call per step: it reads with a slice, previews its edit, applies it, sends the same edit again (refused: the text it expects is gone), then undoes the edit.',
    );
    for (let i = 1; i <= 3; i++) {
      await page.getByTestId('replay-next').click();
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid="replay-step"]').length === n,
        i,
      );
    }
    assert.match(
      (await page.getByTestId('replay-answer').allInnerTexts())[0],
      /@@20240614083000-a1b2c3d@@/,
    );
    assert.equal(
      await text(page, 'replay-paragraph-3'),
      '本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。',
    );
    await demo.setLang('zh');
    assert.equal(
      await text(page, 'replay-intro'),
      '一段预设的智能体会话，作用于思源测试数据中的示例笔记本（文档“项目周报”），每一步一次工具调用：用 slice 阅读、预览编辑、应用、再次发送同一编辑（被拒绝：它期望的文字已不在）、最后撤销。',
    );

    // The built-in notebook selected: the intro says so, and the session starts again on it.
    await demo.useBuiltin();
    assert.equal(
      await text(page, 'replay-intro'),
      '一段预设的智能体会话，作用于内置示例笔记本（文档“产品周会记录”），每一步一次工具调用：用 slice 阅读、预览编辑、应用、再次发送同一编辑（被拒绝：它期望的文字已不在）、最后撤销。',
    );
    assert.equal(await page.getByTestId('replay-step').count(), 0);
    await demo.setLang('en');
    assert.match(
      await text(page, 'replay-intro'),
      /^A scripted agent session against the built-in sample notebook \(document “产品周会记录”\), one tool call per step:/,
    );
    await page.getByTestId('replay-next').click();
    await page.waitForSelector('[data-testid="replay-step"]');
    assert.match(
      (await page.getByTestId('replay-answer').allInnerTexts())[0],
      /@@20250301090100-intro01@@/,
    );
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

test('at a 420 px wide viewport nothing in the rendered note overflows, in either notebook', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.setViewportSize({ width: 420, height: 900 });
    const overflow = () =>
      page.evaluate(() => {
        const note = document.querySelector('[data-testid="doc-rendered"]');
        const box = note.getBoundingClientRect();
        const out = [];
        for (const el of [document.documentElement, note, ...note.querySelectorAll('*')]) {
          const r = el.getBoundingClientRect();
          const name = `${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ''}`;
          if (el.scrollWidth > el.clientWidth && el.clientWidth > 0)
            out.push(`${name}: scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
          if (
            el !== document.documentElement &&
            (r.right > box.right + 0.5 || r.left < box.left - 0.5)
          )
            out.push(
              `${name}: [${r.left}, ${r.right}] outside the note [${box.left}, ${box.right}]`,
            );
        }
        if (box.right > document.documentElement.clientWidth)
          out.push(`the note ends at ${box.right}, past the viewport`);
        return out;
      });
    for (const notebook of ['fixtures', 'builtin']) {
      if (notebook === 'builtin') await demo.useBuiltin();
      const docs = await page.locator('#doc-select option').allInnerTexts();
      assert.ok(docs.length >= 2, notebook);
      for (const doc of docs) {
        await page.getByTestId('doc-select').selectOption({ label: doc });
        await page.waitForFunction(
          () => document.querySelectorAll('[data-testid="doc-rendered"] .block').length > 0,
        );
        await page.waitForTimeout(100);
        assert.deepEqual(await overflow(), [], `${notebook}: ${doc}`);
      }
    }
    // The built-in weekly notes (a table, code, a quote), in Chinese too.
    await page.getByTestId('doc-select').selectOption({ label: '产品周会记录' });
    await demo.setLang('zh');
    await page.waitForSelector('[data-testid="doc-rendered"] table');
    assert.deepEqual(await overflow(), []);
    await page.screenshot({ path: join(outputDir, 'siyuan-420px-zh.png'), fullPage: true });
    assert.deepEqual(demo.consoleErrors, []);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

// The demo's built-in notebook: two small documents written for the demo
// (not copied from anywhere), loaded into the in-memory host. The page
// prefers the shared SiYuan fixtures when scripts/serve.mjs serves them at
// /fixtures/siyuan/; this notebook is the fallback and the "Built-in" source.
export const NOTEBOOK = { id: '20250301090000-nbdemo1', name: '演示笔记本' };

export const DOCUMENTS = [
  {
    id: '20250301090000-doc0001',
    title: '产品周会记录',
    box: NOTEBOOK.id,
    hpath: '/产品周会记录',
    path: '/20250301090000-doc0001.sy',
    blocks: [
      {
        id: '20250301090100-intro01',
        markdown: '本周会议讨论了 **编辑引擎** 的上线计划，以及两个遗留问题。',
      },
      { id: '20250301090200-head001', markdown: '## 进展' },
      {
        id: '20250301090300-list001',
        markdown: '- 完成块级 diff 的解析器\n- 补齐中英文错误信息\n- 接入演示页面',
      },
      { id: '20250301090400-para002', markdown: '解析器现在会一次报告所有格式问题，并给出行号。' },
      {
        id: '20250301090500-code001',
        markdown:
          '```js\nconst report = await applyBlockDiff(diff, host, { dryRun: true });\nconsole.log(report.summary);\n```',
      },
      { id: '20250301090600-head002', markdown: '## 风险' },
      { id: '20250301090700-quote01', markdown: '> 内核的 updateBlock 只保留多块内容中的第一块。' },
      {
        id: '20250301090800-table01',
        markdown:
          '| 问题 | 负责人 | 状态 |\n| --- | --- | --- |\n| 属性丢失 | 小王 | 已修复 |\n| 撤销不完整 | 小李 | 进行中 |',
      },
      { id: '20250301090900-head003', markdown: '## Next steps' },
      {
        id: '20250301091000-para003',
        markdown: 'Ship the dry-run preview and write the migration notes.',
      },
    ],
  },
  {
    id: '20250301100000-doc0002',
    title: 'Reading list',
    box: NOTEBOOK.id,
    hpath: '/Reading list',
    path: '/20250301100000-doc0002.sy',
    blocks: [
      { id: '20250301100100-rintro1', markdown: 'Books and papers for the spring.' },
      { id: '20250301100200-rhead01', markdown: '## Books' },
      { id: '20250301100300-rbook01', markdown: 'A Philosophy of Software Design' },
      { id: '20250301100400-rbook02', markdown: 'Designing Data-Intensive Applications' },
      { id: '20250301100500-rhead02', markdown: '## Papers' },
      {
        id: '20250301100600-rpaper1',
        markdown: 'Time, Clocks, and the Ordering of Events in a Distributed System',
      },
    ],
  },
];

/**
 * The diff the page offers as a starting point, its header labelled with
 * the type name the reader shows in the page's language.
 */
export function exampleDiff(paragraphLabel) {
  return `@@20250301090100-intro01@@${paragraphLabel}
<<<<<<< SEARCH
以及两个遗留问题
=======
以及三个遗留问题
>>>>>>> REPLACE

@@AFTER:20250301090400-para002@@
新增：dryRun 会先展示每个编辑的 diff。

@@APPEND:20250301090300-list001@@
- 编写发布说明
`;
}

/** The same against the fixture notebook's weekly report (项目周报). */
export function fixtureExampleDiff(paragraphLabel) {
  return `@@20240614083000-a1b2c3d@@${paragraphLabel}
<<<<<<< SEARCH
并修复了若干问题。
=======
并修复了三个问题。
>>>>>>> REPLACE

@@AFTER:20240614083000-a1b2c3d@@
下周计划：发布 dry-run 预览。
`;
}

/**
 * The matcher playground's starting point, per language: the search has
 * 2-space indent where the file has 4, and a trailing space: the safe tier
 * forgives both.
 */
export const MATCHER_EXAMPLES = {
  en: {
    content: `export function total(items) {
    let sum = 0;
    for (const item of items) {
        sum += item.price * item.count;
    }
    return sum;
}
`,
    search: `  for (const item of items) {
      sum += item.price * item.count; 
  }`,
    replace: `  for (const item of items) {
      sum += item.price * item.count * (1 - item.discount);
  }`,
  },
  zh: {
    content: `export function total(items) {
    let sum = 0;
    for (const item of items) {
        sum += item.price * item.count; // 单价 × 数量
    }
    return sum;
}
`,
    search: `  for (const item of items) {
      sum += item.price * item.count; // 单价 × 数量 
  }`,
    replace: `  for (const item of items) {
      sum += item.price * item.count * (1 - item.discount); // 单价 × 数量 × (1 − 折扣)
  }`,
  },
};

/**
 * The prepare → apply playground's file, per language, and for each tool an
 * example a reader recognises as right: every one leaves the headings as
 * they are and changes or adds a line where it belongs.
 */
export const FILE_EXAMPLES = {
  en: {
    content: `# Release notes

## 0.2.0
- faster matcher
- block diff undo

## 0.1.0
- first release
`,
    tools: {
      // Line 4 is a bullet of 0.2.0: it is made more precise.
      range: { range: '4', newText: '- faster matcher (2× on large files)' },
      append: { newText: '\nOlder releases are listed in CHANGELOG.md.' },
      after: { anchor: '- block diff undo', newText: '- dry-run previews' },
      before: { anchor: '- faster matcher', newText: '- dry-run previews' },
      // The lines between the two headings, the blank line before 0.1.0 included.
      block: {
        startAnchor: '## 0.2.0',
        endAnchor: '## 0.1.0',
        newText: '- faster matcher\n- block diff undo\n- dry-run previews\n\n',
      },
    },
  },
  zh: {
    content: `# 发布说明

## 0.2.0
- 更快的匹配器
- 块级 diff 支持撤销

## 0.1.0
- 首次发布
`,
    tools: {
      range: { range: '4', newText: '- 更快的匹配器（大文件上快一倍）' },
      append: { newText: '\n更早的版本见 CHANGELOG.md。' },
      after: { anchor: '- 块级 diff 支持撤销', newText: '- 试运行预览' },
      before: { anchor: '- 更快的匹配器', newText: '- 试运行预览' },
      block: {
        startAnchor: '## 0.2.0',
        endAnchor: '## 0.1.0',
        newText: '- 更快的匹配器\n- 块级 diff 支持撤销\n- 试运行预览\n\n',
      },
    },
  },
};

/**
 * The agent replay's session, per notebook: the document it reads, the
 * paragraph it edits and the edit (a sentence of that paragraph, changed).
 */
export const REPLAYS = {
  memory: {
    document: '20250301090000-doc0001',
    title: '产品周会记录',
    block: '20250301090100-intro01',
    search: '以及两个遗留问题',
    replace: '以及三个遗留问题',
  },
  fixtures: {
    document: '20240614083000-wk24rep',
    title: '项目周报',
    block: '20240614083000-a1b2c3d',
    search: '并修复了若干问题。',
    replace: '并修复了三个问题。',
  },
};

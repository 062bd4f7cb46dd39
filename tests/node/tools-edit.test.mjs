// The plain edit tools through the runner (SPEC §9.1): edit, multi_edit,
// edit_file_search_replace (with seed 003's `uri`), the corrector, and
// runDetailed's flag and data; agent text that says each thing once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixtureHost, writes } from './support.mjs';

const PY = 'def f():\n    return 1\n\ndef g():\n    return 1\n';

function filesOf(initial) {
  const files = new Map(Object.entries(initial));
  const written = [];
  return {
    files,
    written,
    host: {
      readFile: (p) => files.get(p) ?? null,
      writeFile: (p, c) => {
        written.push(p);
        files.set(p, c);
      },
    },
  };
}

test('edit: one replacement, re-indented to the file, names its line and strategy, shows the diff', async () => {
  const { files, host } = filesOf({ 'm.py': PY });
  const runner = ek.createToolRunner({ files: host });
  const r = await runner.runDetailed('edit', {
    path: 'm.py',
    old_string: 'def g():\n  return 1',
    new_string: 'def g():\n  return 2',
  });
  assert.equal(
    r.text,
    'Edited m.py: 1 replacement(s) at line 4 (strategy: indentation).\n\n```diff\n--- a/m.py\n+++ b/m.py\n@@ -2,4 +2,4 @@\n     return 1\n \n def g():\n-    return 1\n+    return 2\n```',
  );
  assert.equal(r.isError, false);
  assert.equal(r.code, undefined);
  assert.equal(r.data.strategy, 'indentation');
  assert.equal(files.get('m.py'), 'def f():\n    return 1\n\ndef g():\n    return 2\n');
});

test('edit: ambiguous is refused with line and column, replace_all and expected_replacements take every place', async () => {
  const { files, host, written } = filesOf({ 'a.txt': 'x = 1; x = 1\nx = 1\n' });
  const runner = ek.createToolRunner({ files: host });
  const ambiguous = await runner.runDetailed('edit', {
    path: 'a.txt',
    old_string: 'x = 1',
    new_string: 'x = 2',
  });
  assert.equal(ambiguous.code, 'AMBIGUOUS');
  assert.match(ambiguous.text, /: line 1 column 1, line 1 column 8, line 2\. /);
  const wrongCount = await runner.runDetailed('edit', {
    path: 'a.txt',
    old_string: 'x = 1',
    new_string: 'x = 2',
    expected_replacements: 2,
  });
  assert.equal(wrongCount.code, 'MATCH_COUNT_MISMATCH');
  assert.deepEqual(written, []);
  const all = await runner.runDetailed('edit', {
    path: 'a.txt',
    old_string: 'x = 1',
    new_string: 'x = 2',
    expected_replacements: 3,
  });
  assert.match(
    all.text,
    /^Edited a\.txt: 3 replacement\(s\) at lines 1 column 1, 1 column 8, 2 \(strategy: exact\)\./,
  );
  assert.equal(files.get('a.txt'), 'x = 2; x = 2\nx = 2\n');
});

test('edit: not found is an error result with the closest region, nothing written; "" creates a missing file', async () => {
  const { files, host, written } = filesOf({ 'm.py': PY });
  const runner = ek.createToolRunner({ files: host, lang: 'zh' });
  const miss = await runner.runDetailed('edit', {
    path: 'm.py',
    old_string: 'def h():\n    return 1',
    new_string: 'x',
  });
  assert.equal(miss.isError, true);
  assert.equal(miss.code, 'NOT_FOUND');
  assert.match(miss.text, /^错误 \[NOT_FOUND\]：/);
  assert.match(miss.text, /-def h\(\):\n\+def f\(\):/);
  assert.deepEqual(written, []);
  const created = await runner.runDetailed('edit', {
    path: 'new.md',
    old_string: '',
    new_string: '# 新文件\n',
  });
  assert.equal(created.text, '已用 new_string 创建 new.md（文件原本不存在且 old_string 为空）。');
  assert.equal(files.get('new.md'), '# 新文件\n');
  const missing = await runner.runDetailed('edit', {
    path: 'gone.md',
    old_string: 'a',
    new_string: 'b',
  });
  assert.equal(missing.code, 'FILE_NOT_FOUND');
});

test('edit with a corrector: a search that matches nowhere is corrected once, with the instruction', async () => {
  const { files, host } = filesOf({ 'm.py': PY });
  const requests = [];
  const runner = ek.createToolRunner({
    files: host,
    corrector: async (request) => {
      requests.push(request);
      return '```json\n{"search": "def g():\\n    return 1", "replace": "def g():\\n    return 3", "explanation": "h is g"}\n```';
    },
  });
  const r = await runner.runDetailed('edit', {
    path: 'm.py',
    old_string: 'def h():\n    return 1',
    new_string: 'def h():\n    return 3',
    instruction: 'Make g return 3.',
  });
  assert.equal(r.isError, false, r.text);
  assert.match(r.text, /^Edited m\.py: 1 replacement\(s\) at line 4 \(strategy: exact\)\./);
  assert.equal(files.get('m.py'), 'def f():\n    return 1\n\ndef g():\n    return 3\n');
  assert.equal(requests.length, 1);
  assert.equal(requests[0].instruction, 'Make g return 3.');
  assert.equal(requests[0].content, PY);
  // A corrector that fails is HOST_ERROR naming it; nothing is written.
  const broken = ek.createToolRunner({
    files: filesOf({ 'm.py': PY }).host,
    corrector: () => Promise.reject(new Error('model offline')),
  });
  const failed = await broken.runDetailed('edit', {
    path: 'm.py',
    old_string: 'nowhere',
    new_string: 'x',
  });
  assert.equal(failed.isError, true);
  assert.match(failed.text, /NOT_FOUND|HOST_ERROR/);
  assert.throws(() => ek.createToolRunner({ corrector: 'yes' }), { code: 'INVALID_ARGUMENT' });
});

test('multi_edit: all edits land, each with its line and strategy; one failure writes nothing and says why', async () => {
  const { files, host, written } = filesOf({ 'm.py': PY });
  const runner = ek.createToolRunner({ files: host });
  const ok = await runner.runDetailed('multi_edit', {
    path: 'm.py',
    edits: [
      { old_string: 'def f():', new_string: 'def first():' },
      { old_string: 'return 1', new_string: 'return 0', replace_all: true },
    ],
  });
  assert.equal(ok.isError, false);
  assert.equal(
    ok.text.split('\n```')[0],
    'Edit completed: 2/2 blocks applied successfully.\n- edit 1: at line 1 (strategy: exact)\n- edit 2: at lines 2, 5 (strategy: exact)\n',
  );
  assert.equal(files.get('m.py'), 'def first():\n    return 0\n\ndef g():\n    return 0\n');
  written.length = 0;
  const bad = await runner.runDetailed('multi_edit', {
    path: 'm.py',
    edits: [
      { old_string: 'def g():', new_string: 'def second():' },
      { old_string: 'nothing like this', new_string: 'x' },
    ],
  });
  assert.equal(bad.isError, true);
  assert.equal(bad.code, 'NOT_FOUND');
  assert.match(bad.text, /^Edit not applied: 1\/2 blocks failed/);
  assert.match(bad.text, /\nEdit 2: Could not find the search text/);
  assert.doesNotMatch(bad.text, /- edit 1:/, 'no edit is reported as landed');
  assert.deepEqual(written, []);
});

test('edit_file_search_replace takes uri for path (seed 003) and names each block’s strategy', async () => {
  const { files, host } = filesOf({ 'src/app.ts': 'const a = 1;\nconst b = 2;\n' });
  const runner = ek.createToolRunner({ files: host });
  const r = await runner.runDetailed('edit_file_search_replace', {
    uri: 'src/app.ts',
    search_replace:
      '<<<<<<< SEARCH\nconst a = 1;   \n=======\nconst a = 10;\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nconst b = 2;\n=======\nconst b = 20;\n>>>>>>> REPLACE',
  });
  assert.equal(r.isError, false, r.text);
  assert.equal(
    r.text.split('\n```')[0],
    'Edit completed: 2/2 blocks applied successfully.\n- block 1: at line 1 (strategy: trimmed_boundaries)\n- block 2: at line 2 (strategy: exact)\n',
  );
  assert.equal(files.get('src/app.ts'), 'const a = 10;\nconst b = 20;\n');
  // The same path under both names is fine.
  const same = await runner.runDetailed('edit_file_search_replace', {
    path: 'src/app.ts',
    uri: 'src/app.ts',
    search_replace: '<<<<<<< SEARCH\nconst b = 20;\n=======\nconst b = 2;\n>>>>>>> REPLACE',
  });
  assert.equal(same.isError, false, same.text);
});

test('agent text says each problem once: format problems, content mismatch next steps', async () => {
  const host = fixtureHost();
  const runner = ek.createToolRunner({ siyuan: host });
  const format = await runner.runDetailed('applyBlockDiff', { diff: '@@BAD\nfoo' });
  assert.equal(format.code, 'INVALID_DIFF_FORMAT');
  assert.equal(format.text.split('The diff contains no hunk.').length, 2, format.text);
  const mismatch = await runner.runDetailed('applyBlockDiff', {
    diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n不存在的文字\n=======\nx\n>>>>>>> REPLACE',
  });
  assert.equal(mismatch.isError, true);
  assert.equal(mismatch.code, 'CONTENT_MISMATCH');
  assert.equal(mismatch.text.match(/getBlockContent/g).length, 1, mismatch.text);
  assert.deepEqual(writes(host), []);
  const dry = await runner.runDetailed('applyBlockDiff', {
    diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE',
    dryRun: true,
  });
  assert.equal(dry.isError, false);
  assert.equal(dry.data.dryRun, true);
  assert.deepEqual(writes(host), []);
});

test('file tools answer in the words of their own fields and say what they did', async () => {
  const { host } = filesOf({ 'a.txt': 'one\n' });
  const runner = ek.createToolRunner({ files: host });
  const empty = await runner.run('prepare_file_append', { path: 'a.txt', content: '' });
  assert.match(empty, /summary: 'prepare_file_append needs non-empty new text\.'/);
  assert.doesNotMatch(empty, /newText/);
  const plan = await runner.run('prepare_file_append', { path: 'a.txt', content: 'two' });
  const hunk = /hunk_id: '?([^'\n]+)'?/.exec(plan)[1];
  const applied = await runner.runDetailed('apply_file_modification', { hunk_id: hunk });
  assert.equal(applied.isError, false);
  assert.match(applied.text, /summary: 'Applied .* \(exact\): appended 1 line\(s\) at line 2\.'/);
  assert.doesNotMatch(applied.text, /returned content/);
  // A path with a quote stays valid YAML.
  const missing = await runner.run('read_file', { path: "it's.txt" });
  assert.match(missing, /\npath: 'it''s\.txt'\n/);
});

test('edit, multi_edit and edit_file_search_replace run the prose tier on Markdown and text files only', async () => {
  const note = '准备：安装 SiYuan 3.0 或更新的版本，然后登录。\n';
  const search = '准备:安装SiYuan 3.0或更新的版本,然后登录.';
  const replace = '准备:安装SiYuan 3.1或更新的版本,然后登录账号.';
  const want = '准备：安装 SiYuan 3.1 或更新的版本，然后登录账号。\n';
  const { files, host } = filesOf({
    'a.md': note,
    'b.txt': note,
    'c.MARKDOWN': note,
    'd.js': note,
  });
  const runner = ek.createToolRunner({ files: host });
  for (const path of ['a.md', 'b.txt', 'c.MARKDOWN']) {
    const r = await runner.runDetailed('edit', { path, old_string: search, new_string: replace });
    assert.equal(r.isError, false, r.text);
    assert.equal(r.data.strategy, 'prose');
    assert.equal(files.get(path), want);
  }
  // Source code never gets the prose rules.
  const code = await runner.runDetailed('edit', {
    path: 'd.js',
    old_string: search,
    new_string: replace,
  });
  assert.equal(code.code, 'NOT_FOUND');
  assert.equal(files.get('d.js'), note);
  files.set('a.md', note);
  const multi = await runner.runDetailed('multi_edit', {
    path: 'a.md',
    edits: [{ old_string: search, new_string: replace }],
  });
  assert.equal(multi.isError, false, multi.text);
  assert.equal(files.get('a.md'), want);
  files.set('a.md', note);
  const blocks = await runner.runDetailed('edit_file_search_replace', {
    path: 'a.md',
    search_replace: `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`,
  });
  assert.equal(blocks.isError, false, blocks.text);
  assert.equal(files.get('a.md'), want);
});

test('str_replace_based_edit_tool: view a range, create, str_replace and insert with the file’s own endings', async () => {
  const { files, host } = filesOf({ 'w.txt': 'one\r\ntwo\r\nthree\r\n', 'n.txt': 'a\nb' });
  const runner = ek.createToolRunner({ files: host });
  const run = (args) => runner.runDetailed('str_replace_based_edit_tool', args);
  const view = await run({ command: 'view', path: 'w.txt', view_range: [2, -1] });
  assert.equal(view.isError, false, view.text);
  assert.match(view.text, /2\ttwo|2 +\| ?two|\b2\b.*two/);
  assert.doesNotMatch(view.text, /\bone\b/);
  const created = await run({ command: 'create', path: 'new.md', file_text: '# New\n' });
  assert.equal(created.isError, false, created.text);
  assert.equal(files.get('new.md'), '# New\n');
  const again = await run({ command: 'create', path: 'new.md', file_text: 'x' });
  assert.equal(again.isError, true);
  assert.equal(files.get('new.md'), '# New\n');
  const replaced = await run({
    command: 'str_replace',
    path: 'w.txt',
    old_str: 'two',
    new_str: 'TWO',
  });
  assert.equal(replaced.isError, false, replaced.text);
  assert.equal(files.get('w.txt'), 'one\r\nTWO\r\nthree\r\n');
  const inserted = await run({
    command: 'insert',
    path: 'w.txt',
    insert_line: 1,
    new_str: 'x\ny\n',
  });
  assert.equal(inserted.isError, false, inserted.text);
  assert.equal(files.get('w.txt'), 'one\r\nx\r\ny\r\nTWO\r\nthree\r\n');
  await run({ command: 'insert', path: 'w.txt', insert_line: 0, new_str: 'top' });
  assert.equal(files.get('w.txt'), 'top\r\none\r\nx\r\ny\r\nTWO\r\nthree\r\n');
  // A file without a final newline keeps lacking one.
  await run({ command: 'insert', path: 'n.txt', insert_line: 2, new_str: 'c' });
  assert.equal(files.get('n.txt'), 'a\nb\nc');
  const past = await run({ command: 'insert', path: 'n.txt', insert_line: 9, new_str: 'z' });
  assert.equal(past.code, 'INVALID_ARGUMENT');
  assert.match(past.text, /past the end/);
  assert.equal(files.get('n.txt'), 'a\nb\nc');
  const missing = await run({ command: 'str_replace', path: 'n.txt', new_str: 'q' });
  assert.equal(missing.code, 'INVALID_ARGUMENT');
  assert.match(missing.text, /str_replace needs old_str/);
});

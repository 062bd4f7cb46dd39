import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixtureHost } from './support.mjs';

/** Files in memory. */
function memoryFiles(initial = {}) {
  const files = new Map(Object.entries(initial));
  return {
    files,
    readFile: (p) => (files.has(p) ? files.get(p) : null),
    writeFile: (p, c) => void files.set(p, c),
  };
}

test('toolDefinitions: OpenAI, Anthropic and plain shapes with valid JSON Schemas, in en and zh, plus guides', () => {
  const plain = ek.toolDefinitions();
  const names = plain.tools.map((t) => t.name);
  for (const n of ['getBlockInfo', 'getBlockContent', 'appendContent', 'createNewDoc', 'applyBlockDiff', 'read_file', 'prepare_file_range_edit', 'apply_file_modification', 'edit_file_search_replace']) {
    assert.ok(names.includes(n), n);
  }
  for (const t of plain.tools) {
    assert.equal(t.parameters.type, 'object');
    assert.equal(t.parameters.additionalProperties, false);
    for (const r of t.parameters.required) assert.ok(r in t.parameters.properties, `${t.name}.${r}`);
    for (const [k, p] of Object.entries(t.parameters.properties)) assert.ok(p.description, `${t.name}.${k} has a description`);
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(t)));
  }
  const openai = ek.toolDefinitions({ format: 'openai', lang: 'zh' });
  assert.equal(openai.tools[0].type, 'function');
  assert.ok(/[一-龥]/.test(openai.tools[0].function.description));
  assert.match(openai.guide, /先读后写/);
  const anthropic = ek.toolDefinitions({ format: 'anthropic', toolsets: ['files'] });
  assert.ok(anthropic.tools.every((t) => t.input_schema && !('parameters' in t)));
  assert.ok(anthropic.tools.every((t) => !t.name.startsWith('get')));
  assert.match(anthropic.guide, /Never write blind/);
});

test('the runner drives the SiYuan tools and returns agent text', async () => {
  const host = fixtureHost();
  const runner = ek.createToolRunner({ siyuan: host, lang: 'zh' });
  const content = await runner.run('getBlockContent', { blockId: '20240614083000-a1b2c3d', showId: true, slice: '' });
  assert.equal(content, '@@20240614083000-a1b2c3d@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。');
  const info = await runner.run('getBlockInfo', { ids: '20240614083630-p12olp4' });
  assert.match(info, /name: closing/);
  const dry = await runner.run('applyBlockDiff', { diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE', dryRun: true });
  assert.match(dry, /^✅ 试运行/);
  assert.match(dry, /```diff\n--- before\n\+\+\+ after/);
  const bad = await runner.run('applyBlockDiff', { diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n不存在的文字\n=======\nx\n>>>>>>> REPLACE' });
  assert.match(bad, /CONTENT_MISMATCH/);
  const done = await runner.run('applyBlockDiff', { diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE' });
  assert.match(done, /撤销用的 diff/);
  assert.match(host.block('20240614083000-a1b2c3d').markdown, /三个问题/);
  assert.match(await runner.run('noSuchTool', {}), /INVALID_ARGUMENT.*noSuchTool/);
  assert.match(await ek.createToolRunner({}).run('getBlockInfo', { ids: 'x' }), /HOST_CAPABILITY_MISSING/);
});

test('the runner drives prepare → apply on files, and edit_file_search_replace', async () => {
  const fs = memoryFiles({ 'notes.md': '# Notes\n\n- one\n- two\n' });
  const opts = { files: fs };
  const view = await ek.runTool('read_file', { path: 'notes.md', range: '', max_lines: 0 }, opts);
  assert.match(view, /total_lines: 4/);
  const plan = await ek.runTool('prepare_file_insert_after', { path: 'notes.md', anchor: '- one', content: '- one and a half', match: '', occurrence: 0, existing_hunk_id: '' }, opts);
  const hunk = /hunk_id: '?([\w-]+)'?/.exec(plan)[1];
  assert.match(plan, /\+- one and a half/);
  assert.equal(fs.files.get('notes.md'), '# Notes\n\n- one\n- two\n', 'prepare writes nothing');
  fs.files.set('notes.md', 'Draft\n' + fs.files.get('notes.md'));
  const applied = await ek.runTool('apply_file_modification', { hunk_id: hunk }, opts);
  assert.match(applied, /context_match: fuzz/);
  assert.equal(fs.files.get('notes.md'), 'Draft\n# Notes\n\n- one\n- one and a half\n- two\n');
  assert.match(await ek.runTool('apply_file_modification', { hunk_id: hunk }, opts), /HUNK_NOT_FOUND/);

  const sr = await ek.runTool('edit_file_search_replace', { path: 'notes.md', search_replace: '<<<<<<< SEARCH\n- two\n=======\n- 2\n>>>>>>> REPLACE' }, opts);
  assert.match(sr, /^Edit completed: 1\/1/);
  assert.match(sr, /```diff/);
  assert.match(fs.files.get('notes.md'), /- 2\n$/);
  const refused = await ek.runTool('edit_file_search_replace', { path: 'notes.md', search_replace: '<<<<<<< SEARCH\n- three\n=======\n- 3\n>>>>>>> REPLACE' }, opts);
  assert.match(refused, /^Error: All 1 blocks failed to apply/);
  assert.match(refused, /Closest region: line \d+/);

  assert.match(await ek.runTool('create_new_file', { path: 'notes.md', content: 'x' }, opts), /FILE_EXISTS/);
  assert.match(await ek.runTool('create_new_file', { path: 'new.txt', content: 'hello' }, opts), /status: ok/);
  assert.equal(fs.files.get('new.txt'), 'hello\n');
  const snapshot = await ek.runTool('read_file', { path: 'new.txt' }, opts);
  const lines = Number(/total_lines: (\d+)/.exec(snapshot)[1]);
  const bytes = Number(/size_bytes: (\d+)/.exec(snapshot)[1]);
  assert.match(await ek.runTool('overwrite_entire_file', { path: 'new.txt', content: 'bye\n', known_old_total_lines: lines + 1, known_old_total_bytes: bytes }, opts), /SNAPSHOT_MISMATCH/);
  assert.match(await ek.runTool('overwrite_entire_file', { path: 'new.txt', content: 'bye\n', known_old_total_lines: lines, known_old_total_bytes: bytes, content_format: '' }, opts), /status: ok/);
  assert.equal(fs.files.get('new.txt'), 'bye\n');
  assert.match(await ek.runTool('read_file', { path: 'missing.txt' }, opts), /FILE_NOT_FOUND/);
});

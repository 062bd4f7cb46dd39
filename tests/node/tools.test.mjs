import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixtureHost, minimalArgs } from './support.mjs';

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
  for (const n of [
    'getBlockInfo',
    'getBlockContent',
    'appendContent',
    'createNewDoc',
    'applyBlockDiff',
    'read_file',
    'prepare_file_range_edit',
    'apply_file_modification',
    'edit_file_search_replace',
  ]) {
    assert.ok(names.includes(n), n);
  }
  for (const t of plain.tools) {
    assert.equal(t.parameters.type, 'object');
    assert.equal(t.parameters.additionalProperties, false);
    for (const r of t.parameters.required)
      assert.ok(r in t.parameters.properties, `${t.name}.${r}`);
    for (const [k, p] of Object.entries(t.parameters.properties))
      assert.ok(p.description, `${t.name}.${k} has a description`);
    assert.doesNotThrow(() => JSON.parse(JSON.stringify(t)));
  }
  const openai = ek.toolDefinitions({ format: 'openai', lang: 'zh' });
  assert.equal(openai.tools[0].type, 'function');
  assert.ok(/[一-龥]/.test(openai.tools[0].function.description));
  assert.match(openai.guide, /先读后写/);
  const anthropic = ek.toolDefinitions({ format: 'anthropic', toolsets: ['files'] });
  // The text editor is Anthropic's native tool (no schema: Claude knows
  // it); every other tool a custom one.
  assert.deepEqual(
    anthropic.tools.filter((t) => !t.input_schema),
    [{ type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' }],
  );
  assert.ok(anthropic.tools.every((t) => !('parameters' in t)));
  const custom = ek.toolDefinitions({
    format: 'anthropic',
    toolsets: ['files'],
    anthropicTextEditor: 'custom',
  });
  const editor = custom.tools.find((t) => t.name === 'str_replace_based_edit_tool');
  assert.deepEqual(editor.input_schema.required, ['command', 'path']);
  assert.throws(() => ek.toolDefinitions({ format: 'anthropic', anthropicTextEditor: 'builtin' }), {
    code: 'INVALID_ARGUMENT',
    message: /anthropicTextEditor/,
  });
  assert.ok(anthropic.tools.every((t) => !t.name.startsWith('get')));
  assert.match(anthropic.guide, /Never write blind/);
});

test('the runner drives the SiYuan tools and returns agent text', async () => {
  const host = fixtureHost();
  const runner = ek.createToolRunner({ siyuan: host, lang: 'zh' });
  const content = await runner.run('getBlockContent', {
    blockId: '20240614083000-a1b2c3d',
    showId: true,
    slice: '',
  });
  assert.equal(
    content,
    '@@20240614083000-a1b2c3d@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。',
  );
  const info = await runner.run('getBlockInfo', { ids: '20240614083630-p12olp4' });
  assert.match(info, /name: closing/);
  const dry = await runner.run('applyBlockDiff', {
    diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE',
    dryRun: true,
  });
  assert.match(dry, /^✅ 试运行/);
  assert.match(dry, /```diff\n--- before\n\+\+\+ after/);
  const bad = await runner.run('applyBlockDiff', {
    diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n不存在的文字\n=======\nx\n>>>>>>> REPLACE',
  });
  assert.match(bad, /CONTENT_MISMATCH/);
  const done = await runner.run('applyBlockDiff', {
    diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE',
  });
  assert.match(done, /撤销用的 diff/);
  assert.match(host.block('20240614083000-a1b2c3d').markdown, /三个问题/);
  assert.match(await runner.run('noSuchTool', {}), /INVALID_ARGUMENT.*noSuchTool/);
  assert.match(
    await ek.createToolRunner({}).run('getBlockInfo', { ids: 'x' }),
    /HOST_CAPABILITY_MISSING/,
  );
});

test('the runner drives prepare → apply on files, and edit_file_search_replace', async () => {
  const fs = memoryFiles({ 'notes.md': '# Notes\n\n- one\n- two\n' });
  const opts = { files: fs };
  const view = await ek.runTool('read_file', { path: 'notes.md', range: '', max_lines: 0 }, opts);
  assert.match(view, /total_lines: 4/);
  const plan = await ek.runTool(
    'prepare_file_insert_after',
    {
      path: 'notes.md',
      anchor: '- one',
      content: '- one and a half',
      match: '',
      occurrence: 0,
      existing_hunk_id: '',
    },
    opts,
  );
  const hunk = /hunk_id: '?([\w-]+)'?/.exec(plan)[1];
  assert.match(plan, /\+- one and a half/);
  assert.equal(fs.files.get('notes.md'), '# Notes\n\n- one\n- two\n', 'prepare writes nothing');
  fs.files.set('notes.md', 'Draft\n' + fs.files.get('notes.md'));
  const applied = await ek.runTool('apply_file_modification', { hunk_id: hunk }, opts);
  assert.match(applied, /context_match: fuzz/);
  assert.equal(fs.files.get('notes.md'), 'Draft\n# Notes\n\n- one\n- one and a half\n- two\n');
  assert.match(
    await ek.runTool('apply_file_modification', { hunk_id: hunk }, opts),
    /HUNK_NOT_FOUND/,
  );

  const sr = await ek.runTool(
    'edit_file_search_replace',
    { path: 'notes.md', search_replace: '<<<<<<< SEARCH\n- two\n=======\n- 2\n>>>>>>> REPLACE' },
    opts,
  );
  assert.match(sr, /^Edit completed: 1\/1/);
  assert.match(sr, /```diff/);
  assert.match(fs.files.get('notes.md'), /- 2\n$/);
  const refused = await ek.runTool(
    'edit_file_search_replace',
    { path: 'notes.md', search_replace: '<<<<<<< SEARCH\n- three\n=======\n- 3\n>>>>>>> REPLACE' },
    opts,
  );
  assert.match(refused, /^Error: All 1 blocks failed to apply/);
  assert.match(refused, /Closest region: line \d+/);

  assert.match(
    await ek.runTool('create_new_file', { path: 'notes.md', content: 'x' }, opts),
    /FILE_EXISTS/,
  );
  assert.match(
    await ek.runTool('create_new_file', { path: 'new.txt', content: 'hello' }, opts),
    /status: ok/,
  );
  assert.equal(fs.files.get('new.txt'), 'hello\n');
  const snapshot = await ek.runTool('read_file', { path: 'new.txt' }, opts);
  const lines = Number(/total_lines: (\d+)/.exec(snapshot)[1]);
  const bytes = Number(/size_bytes: (\d+)/.exec(snapshot)[1]);
  assert.match(
    await ek.runTool(
      'overwrite_entire_file',
      {
        path: 'new.txt',
        content: 'bye\n',
        known_old_total_lines: lines + 1,
        known_old_total_bytes: bytes,
      },
      opts,
    ),
    /SNAPSHOT_MISMATCH/,
  );
  assert.match(
    await ek.runTool(
      'overwrite_entire_file',
      {
        path: 'new.txt',
        content: 'bye\n',
        known_old_total_lines: lines,
        known_old_total_bytes: bytes,
        content_format: '',
      },
      opts,
    ),
    /status: ok/,
  );
  assert.equal(fs.files.get('new.txt'), 'bye\n');
  assert.match(await ek.runTool('read_file', { path: 'missing.txt' }, opts), /FILE_NOT_FOUND/);
});

test('toolDefinitions accepts a bare language string and the options object, with the same result', () => {
  const short = ek.toolDefinitions('zh');
  const long = ek.toolDefinitions({ lang: 'zh' });
  assert.deepEqual(short, long);
  assert.equal(
    short.tools.find((t) => t.name === 'read_file').description,
    long.tools.find((t) => t.name === 'read_file').description,
  );
  assert.match(short.tools.find((t) => t.name === 'read_file').description, /[一-龥]/);
  assert.ok('parameters' in short.tools[0], 'the short form gives the json-schema shape');
  assert.match(short.guide, /先读后写/);
  assert.deepEqual(ek.toolDefinitions('en'), ek.toolDefinitions({ lang: 'en' }));
  assert.doesNotMatch(ek.toolDefinitions('en').tools[0].description, /[一-龥]/);
  const openaiZh = ek.toolDefinitions({ lang: 'zh', format: 'openai' });
  assert.equal(openaiZh.tools[0].type, 'function');
  assert.equal(openaiZh.tools.length, long.tools.length);
  assert.equal(openaiZh.tools[0].function.description, long.tools[0].description);
  // A string that is not a language is refused, not read as the default.
  for (const bad of ['openai', 'fr', '']) {
    assert.throws(
      () => ek.toolDefinitions(bad),
      (e) => ek.isEditkitError(e) && e.code === 'INVALID_ARGUMENT' && /lang/.test(e.message),
      bad,
    );
  }
  assert.throws(
    () => ek.toolDefinitions(42),
    (e) => ek.isEditkitError(e) && e.code === 'INVALID_ARGUMENT',
  );
  // The runner's definitions() takes the same two forms.
  const runner = ek.createToolRunner({ files: { readFile: () => null, writeFile() {} } });
  assert.deepEqual(
    runner.definitions('zh'),
    ek.toolDefinitions({ lang: 'zh', toolsets: ['files'] }),
  );
  // A runner made in Chinese answers in Chinese whatever format is asked
  // (an options object without `lang` once gave the English definitions).
  const zh = ek.createToolRunner({ lang: 'zh', files: { readFile: () => null, writeFile() {} } });
  assert.deepEqual(
    zh.definitions({ format: 'mcp' }),
    ek.toolDefinitions({ lang: 'zh', format: 'mcp', toolsets: ['files'] }),
  );
  assert.equal(zh.definitions({ format: 'mcp' }).tools[0].title, '读取文件');
});

test('toolDefinitions names exactly the tools the runner implements', async () => {
  const defined = ek.toolDefinitions().tools.map((t) => t.name);
  assert.equal(new Set(defined).size, defined.length, 'no duplicate names');
  assert.equal(defined.length, 21);
  assert.deepEqual(new Set(ek.TOOL_NAMES), new Set(defined));
  // TOOL_NAMES (the ToolName union's source) lists them in the definitions' order.
  assert.deepEqual([...ek.TOOL_NAMES], defined);
  // The unknown-tool reply lists what the runner implements.
  const reply = await ek.createToolRunner({}).run('noSuchTool', {});
  const implemented = /Available tools: (.*)\.$/.exec(reply)[1].split(', ');
  assert.deepEqual(new Set(implemented), new Set(defined));
  assert.equal(implemented.length, defined.length);
  // And every defined name is dispatched: with arguments its schema accepts,
  // it fails on the missing host, not as an unknown tool.
  for (const tool of ek.toolDefinitions().tools) {
    const name = tool.name;
    const text = await ek.createToolRunner({}).run(name, minimalArgs(tool.parameters));
    assert.doesNotMatch(text, /no tool named/, name);
    // apply_file_modification looks the (empty) hunk id up before it needs the files host.
    assert.match(
      text,
      name === 'apply_file_modification'
        ? /^status: error\nmode: apply_file_modification\nerror: HUNK_NOT_FOUND\n/
        : /^Error \[HOST_CAPABILITY_MISSING\]/,
      `${name}: ${text}`,
    );
  }
});

test('the runner drives appendContent and createNewDoc: agent text and the notebook after', async () => {
  const DOC1 = '20240614083000-wk24rep';
  const host = fixtureHost();
  const runner = ek.createToolRunner({ siyuan: host, lang: 'en' });
  const before = host.documentMarkdown(DOC1);
  assert.equal(
    await runner.run('appendContent', {
      markdown: 'Appended paragraph',
      targetType: 'document',
      target: DOC1,
    }),
    `Appended 1 block(s) as the last children of ${DOC1}.`,
  );
  assert.equal(host.documentMarkdown(DOC1), `${before}\n\nAppended paragraph`);
  assert.equal(
    await runner.run('appendContent', {
      markdown: 'End of section',
      targetType: 'block',
      target: '20240614083112-h2jz8kq',
    }),
    "Appended 1 block(s) at the end of heading 20240614083112-h2jz8kq's section.",
  );
  const after = host.snapshot(DOC1).map((b) => b.markdown);
  assert.ok(after.includes('End of section'));
  assert.ok(
    after.indexOf('End of section') < after.indexOf('Appended paragraph'),
    'inside the section, before the document end',
  );
  const written = host.calls.length;
  assert.equal(
    await runner.run('appendContent', {
      markdown: 'x',
      targetType: 'block',
      target: '20990101000000-zzzzzzz',
    }),
    'Error [BLOCK_NOT_FOUND]: Block not found: 20990101000000-zzzzzzz. Check the id; the block may have been deleted.',
  );
  assert.equal(
    host.calls.slice(written).filter((c) => !/^get|^query/.test(c.name)).length,
    0,
    'nothing written on refusal',
  );

  const docsBefore = host.documentIds();
  const created = await runner.run('createNewDoc', {
    title: 'Q3/Plan',
    anchorDocumentId: DOC1,
    location: 'children',
    markdown: 'First paragraph',
  });
  const m =
    /^Created document \[\/项目周报\/Q3-Plan\]\(siyuan:\/\/blocks\/(\d{14}-[0-9a-z]{7})\) \(location: children\)$/.exec(
      created,
    );
  assert.ok(m, created);
  assert.deepEqual(host.documentIds(), [...docsBefore, m[1]]);
  assert.equal(host.documentMarkdown(m[1]), 'First paragraph');
  assert.equal(host.block(m[1]).hpath, '/项目周报/Q3-Plan');
  assert.equal(
    await runner.run('createNewDoc', {
      title: 'X',
      anchorDocumentId: DOC1,
      location: 'parent',
      markdown: '',
    }),
    'Error [NO_PARENT_DOCUMENT]: The anchor document is at the notebook root and has no parent document. To create a document at the notebook root, use location "siblings".',
  );
  assert.deepEqual(host.documentIds(), [...docsBefore, m[1]], 'no document created on refusal');
});

test('the runner drives every prepare_file_* tool: the plan text, then apply, then the file', async () => {
  const ORIGINAL = '# A\n\none\ntwo\nthree\n<!-- start -->\nold body\n<!-- end -->\n';
  const fs = memoryFiles({ 'a.md': ORIGINAL });
  const session = new ek.FileEditSession({ now: () => 1000, randomId: () => 'hk' });
  const runner = ek.createToolRunner({ files: fs, session, lang: 'en' });
  const lines = (text) => text.split('\n');
  const apply = (id) => runner.run('apply_file_modification', { hunk_id: id });

  // Range edit.
  const range = await runner.run('prepare_file_range_edit', {
    path: 'a.md',
    range: '3~4',
    content: 'ONE\nTWO',
    existing_hunk_id: '',
  });
  assert.equal(lines(range)[0], '```yaml');
  for (const l of [
    'status: ok',
    'mode: prepare_file_range_edit',
    "path: 'a.md'",
    "hunk_id: 'hk-1'",
    'expires_at_ms: 3601000',
  ])
    assert.ok(lines(range).includes(l), `${l}\n${range}`);
  assert.match(range, /\n-one\n-two\n\+ONE\n\+TWO\n/);
  assert.equal(fs.files.get('a.md'), ORIGINAL, 'prepare writes nothing');
  assert.match(await apply('hk-1'), /context_match: exact/);
  assert.equal(
    fs.files.get('a.md'),
    '# A\n\nONE\nTWO\nthree\n<!-- start -->\nold body\n<!-- end -->\n',
  );
  const badRange = await runner.run('prepare_file_range_edit', {
    path: 'a.md',
    range: '3-4',
    content: 'x',
  });
  assert.deepEqual(lines(badRange).slice(0, 5), [
    'status: error',
    'mode: prepare_file_range_edit',
    "path: 'a.md'",
    'error: INVALID_RANGE',
    "argument: 'range'",
  ]);

  // Append to an existing file, and create a new one.
  const append = await runner.run('prepare_file_append', {
    path: 'a.md',
    content: 'tail',
    create: false,
    existing_hunk_id: '',
  });
  for (const l of [
    'mode: prepare_file_append',
    "hunk_id: 'hk-2'",
    'action: append',
    'create: false',
    'file_line_count_before: 8',
    'file_line_count_after: 9',
    'appended_line_count: 1',
    '+tail',
  ])
    assert.ok(lines(append).includes(l), `${l}\n${append}`);
  assert.match(await apply('hk-2'), /context_match: exact/);
  assert.equal(
    fs.files.get('a.md'),
    '# A\n\nONE\nTWO\nthree\n<!-- start -->\nold body\n<!-- end -->\ntail\n',
  );
  const missing = await runner.run('prepare_file_append', {
    path: 'nope.md',
    content: 'fresh',
    create: false,
  });
  assert.deepEqual(lines(missing), [
    'status: error',
    'mode: prepare_file_append',
    "path: 'nope.md'",
    'error: FILE_NOT_FOUND',
    'create: false',
    "summary: 'File not found: nope.md.'",
    "next: 'Pass create: true to create the file with this text, or check the path.'",
  ]);
  const create = await runner.run('prepare_file_append', {
    path: 'new.md',
    content: 'fresh',
    create: true,
  });
  for (const l of [
    "hunk_id: 'hk-3'",
    'create: true',
    'file_line_count_before: 0',
    'file_line_count_after: 1',
    '@@ -0,0 +1 @@',
    '+fresh',
  ])
    assert.ok(lines(create).includes(l), `${l}\n${create}`);
  assert.equal(fs.files.has('new.md'), false);
  await apply('hk-3');
  assert.equal(fs.files.get('new.md'), 'fresh\n');
  assert.equal(fs.files.has('nope.md'), false);

  // Insert before an anchor.
  const insert = await runner.run('prepare_file_insert_before', {
    path: 'a.md',
    anchor: 'TWO',
    content: 'one and a half',
    match: 'equals',
    occurrence: 0,
    existing_hunk_id: '',
  });
  for (const l of [
    "hunk_id: 'hk-4'",
    'position: before',
    "anchor: 'TWO'",
    'match: equals',
    'candidates_count: 1',
    'anchor_line: 4',
    'inserted_at_line: 4',
    'inserted_line_count: 1',
    '+one and a half',
  ])
    assert.ok(lines(insert).includes(l), `${l}\n${insert}`);
  assert.match(insert, /\n ONE\n\+one and a half\n TWO\n/);
  await apply('hk-4');
  assert.equal(
    fs.files.get('a.md'),
    '# A\n\nONE\none and a half\nTWO\nthree\n<!-- start -->\nold body\n<!-- end -->\ntail\n',
  );
  const ambiguous = await runner.run('prepare_file_insert_before', {
    path: 'a.md',
    anchor: 'o',
    content: 'x',
  });
  assert.match(ambiguous, /^status: error\n/);
  assert.match(ambiguous, /\nerror: [A-Z_]+\n/);

  // Replace a block between anchors (anchors kept).
  const block = await runner.run('prepare_file_block_replace', {
    path: 'a.md',
    start_anchor: '<!-- start -->',
    end_anchor: '<!-- end -->',
    content: 'new body',
    match: '',
    include_anchors: true,
    require_unique: true,
    strict: true,
    occurrence: 0,
    existing_hunk_id: '',
  });
  for (const l of [
    "hunk_id: 'hk-5'",
    'action: block_replace',
    'include_anchors: true',
    'candidates_count: 1',
    '  start_line: 7',
    '  end_line: 9',
    '-old body',
    '+new body',
  ])
    assert.ok(lines(block).includes(l), `${l}\n${block}`);
  assert.equal(
    fs.files.get('a.md'),
    '# A\n\nONE\none and a half\nTWO\nthree\n<!-- start -->\nold body\n<!-- end -->\ntail\n',
    'prepare writes nothing',
  );
  assert.match(await apply('hk-5'), /context_match: exact/);
  assert.equal(
    fs.files.get('a.md'),
    '# A\n\nONE\none and a half\nTWO\nthree\n<!-- start -->\nnew body\n<!-- end -->\ntail\n',
  );
  assert.deepEqual(session.pending(), []);
});

test('a files host that throws, rejects or answers nonsense: the agent gets HOST_ERROR text and nothing is written', async () => {
  const files = new Map([['a.md', 'one\ntwo\n']]);
  const failing = { read: null, write: null };
  const writes = [];
  const host = {
    readFile: async (p) => {
      if (failing.read) throw failing.read;
      return files.has(p) ? files.get(p) : null;
    },
    writeFile: (p, c) => {
      if (failing.write) throw failing.write;
      writes.push(p);
      files.set(p, c);
    },
  };
  const session = new ek.FileEditSession({ now: () => 1000, randomId: () => 'hk' });
  const runner = ek.createToolRunner({ files: host, session });
  const SR = '<<<<<<< SEARCH\none\n=======\n1\n>>>>>>> REPLACE';

  failing.read = new Error('disk on fire');
  for (const [name, args, path] of [
    ['read_file', { path: 'a.md' }, 'a.md'],
    ['prepare_file_append', { path: 'a.md', content: 'x' }, 'a.md'],
    ['prepare_file_range_edit', { path: 'a.md', range: '1', content: 'x' }, 'a.md'],
    ['edit_file_search_replace', { path: 'a.md', search_replace: SR }, 'a.md'],
    [
      'overwrite_entire_file',
      { path: 'a.md', content: 'x', known_old_total_lines: 2, known_old_total_bytes: 8 },
      'a.md',
    ],
    ['create_new_file', { path: 'b.md', content: 'x' }, 'b.md'],
  ]) {
    assert.equal(
      await runner.run(name, args),
      `Error [HOST_ERROR]: files.readFile("${path}") failed: disk on fire`,
      name,
    );
  }
  assert.deepEqual(session.pending(), [], 'no plan made from a failed read');
  failing.read = 'a thrown string';
  assert.equal(
    await runner.run('read_file', { path: 'a.md' }),
    'Error [HOST_ERROR]: files.readFile("a.md") failed: "a thrown string"',
  );
  failing.read = null;

  // A write that fails: the agent is told nothing was written and the hunk is still live.
  failing.write = new Error('read-only volume');
  const plan = await runner.run('prepare_file_append', { path: 'a.md', content: 'three' });
  assert.ok(plan.includes("hunk_id: 'hk-1'"), plan);
  assert.equal(
    await runner.run('apply_file_modification', { hunk_id: 'hk-1' }),
    'Error [HOST_ERROR]: files.writeFile("a.md") failed: read-only volume\nThe write to a.md failed and may not have happened; hunk hk-1 is still live: read the file, and apply it again only if the change is not there.',
  );
  assert.deepEqual(
    session.pending().map((p) => p.hunkId),
    ['hk-1'],
  );
  assert.equal(
    await runner.run('edit_file_search_replace', { path: 'a.md', search_replace: SR }),
    'Error [HOST_ERROR]: files.writeFile("a.md") failed: read-only volume',
  );
  assert.equal(
    await runner.run('create_new_file', { path: 'b.md', content: 'x' }),
    'Error [HOST_ERROR]: files.writeFile("b.md") failed: read-only volume',
  );
  assert.deepEqual(writes, []);
  assert.deepEqual([...files], [['a.md', 'one\ntwo\n']]);
  failing.write = null;
  // Once the host works again, the same plan applies, exactly once.
  assert.match(
    await runner.run('apply_file_modification', { hunk_id: 'hk-1' }),
    /context_match: exact/,
  );
  assert.equal(files.get('a.md'), 'one\ntwo\nthree\n');
  assert.match(await runner.run('apply_file_modification', { hunk_id: 'hk-1' }), /HUNK_NOT_FOUND/);
  assert.equal(files.get('a.md'), 'one\ntwo\nthree\n');
  assert.deepEqual(session.pending(), []);

  // Nonsense answers and missing callbacks are named, before anything is written or planned.
  const odd = ek.createToolRunner({
    files: { readFile: () => 42, writeFile: () => assert.fail('written') },
  });
  assert.equal(
    await odd.run('read_file', { path: 'c.md' }),
    'Error [HOST_ERROR]: files.readFile("c.md") returned number 42; expected the file\'s text, or null when it does not exist',
  );
  const badExists = ek.createToolRunner({
    files: { readFile: () => null, writeFile: () => assert.fail('written'), exists: () => 'yes' },
  });
  assert.equal(
    await badExists.run('create_new_file', { path: 'c.md', content: 'x' }),
    'Error [HOST_ERROR]: files.exists("c.md") returned "yes"; expected a boolean or { exists, isFile }',
  );
  const throwingExists = ek.createToolRunner({
    files: {
      readFile: () => null,
      writeFile: () => assert.fail('written'),
      exists: async () => Promise.reject(new TypeError('no stat')),
    },
  });
  assert.equal(
    await throwingExists.run('create_new_file', { path: 'c.md', content: 'x' }),
    'Error [HOST_ERROR]: files.exists("c.md") failed: no stat',
  );
  const readOnly = ek.createToolRunner({
    files: { readFile: () => 'one\n' },
    session: new ek.FileEditSession({ now: () => 1000, randomId: () => 'ro' }),
  });
  assert.match(await readOnly.run('read_file', { path: 'a.md' }), /total_lines: 1/);
  assert.match(
    await readOnly.run('prepare_file_append', { path: 'a.md', content: 'x' }),
    /hunk_id: 'ro-1'/,
  );
  const missingWrite =
    'Error [HOST_CAPABILITY_MISSING]: the files host has no files.writeFile callback, which this tool needs.';
  assert.equal(await readOnly.run('apply_file_modification', { hunk_id: 'ro-1' }), missingWrite);
  assert.equal(await readOnly.run('create_new_file', { path: 'b.md', content: 'x' }), missingWrite);
  assert.equal(
    await readOnly.run('edit_file_search_replace', { path: 'a.md', search_replace: SR }),
    missingWrite,
  );
  assert.equal(
    await readOnly
      .run('prepare_file_append', { path: 'a.md', content: 'y' })
      .then((t) => /hunk_id: 'ro-2'/.test(t)),
    true,
  );
  assert.match(
    await readOnly.run('apply_file_modification', { hunk_id: 'ro-1' }),
    /HOST_CAPABILITY_MISSING/,
    'the refused hunk was not used up',
  );
  assert.equal(
    await ek.createToolRunner({ files: { writeFile() {} } }).run('read_file', { path: 'a.md' }),
    'Error [HOST_CAPABILITY_MISSING]: the files host has no files.readFile callback, which this tool needs.',
  );
});

test('applies to one file issued in the same tick land in the order their plans were made', async () => {
  const fs = memoryFiles({ 'log.md': 'start\n' });
  const session = new ek.FileEditSession({ now: () => 1000, randomId: () => 'ord' });
  const runner = ek.createToolRunner({ files: fs, session });
  for (const line of ['first', 'second', 'third']) {
    assert.match(
      await runner.run('prepare_file_append', { path: 'log.md', content: line }),
      /hunk_id: 'ord-\d'/,
    );
  }
  // The agent's parallel tool calls arrive third, first, second.
  const texts = await Promise.all(
    ['ord-3', 'ord-1', 'ord-2'].map((hunk_id) =>
      runner.run('apply_file_modification', { hunk_id }),
    ),
  );
  assert.equal(fs.files.get('log.md'), 'start\nfirst\nsecond\nthird\n');
  // Each call still gets its own result; each apply carried the later
  // plans over its change, so every one is exact at the end the earlier
  // ones made.
  assert.match(texts[1], /hunk_id: 'ord-1'[\s\S]*context_match: exact/);
  assert.match(texts[0], /hunk_id: 'ord-3'[\s\S]*context_match: exact[\s\S]*planned_at_line: 4/);
  assert.match(texts[2], /hunk_id: 'ord-2'[\s\S]*context_match: exact[\s\S]*planned_at_line: 3/);
  assert.deepEqual(session.pending(), []);
  // The same hunk twice in one tick: applied once, the second call is HUNK_NOT_FOUND.
  await runner.run('prepare_file_append', { path: 'log.md', content: 'fourth' });
  const twice = await Promise.all([
    runner.run('apply_file_modification', { hunk_id: 'ord-4' }),
    runner.run('apply_file_modification', { hunk_id: 'ord-4' }),
  ]);
  assert.match(twice[0], /context_match: exact/);
  assert.match(twice[1], /HUNK_NOT_FOUND/);
  assert.equal(fs.files.get('log.md'), 'start\nfirst\nsecond\nthird\nfourth\n');
});

test('the runner ends a host callback that never settles with HOST_TIMEOUT (SPEC §3.7 rule 11)', async () => {
  const never = () => new Promise(() => {});
  const runner = ek.createToolRunner({
    files: { readFile: never, writeFile: never },
    siyuan: {
      getBlocks: never,
      getChildBlocks: never,
      getBreadcrumb: never,
      flushTransaction: async () => {},
    },
    timeoutMs: 30,
  });
  const file = await runner.run('read_file', { path: 'a.txt' });
  assert.match(file, /HOST_TIMEOUT/);
  assert.match(file, /did not answer within 30 ms/);
  const info = await runner.run('getBlockInfo', { ids: '20240614083000-a1b2c3d' });
  assert.match(info, /HOST_TIMEOUT/);
});

test('getBlockContent through the runner is the core function on every parameter combination of seed 000', async () => {
  const host = fixtureHost();
  const runner = ek.createToolRunner({ siyuan: host });
  const targets = [
    '20240614083000-wk24rep', // document
    '20240614083112-h2jz8kq', // heading with a section
    '20240614083125-lst0a9x', // list with nested list
    '20240614083420-bq9klmn', // quote
    '20240614083000-a1b2c3d', // paragraph
  ];
  const slices = (id) => [undefined, '', '0:2', '-1:', `${id}:+1`];
  let compared = 0;
  for (const blockId of targets) {
    for (const showId of [undefined, true, false]) {
      for (const showSubStructure of [undefined, true, false]) {
        for (const slice of slices(blockId)) {
          const args = { blockId };
          if (showId !== undefined) args.showId = showId;
          if (showSubStructure !== undefined) args.showSubStructure = showSubStructure;
          if (slice !== undefined) args.slice = slice;
          const label = JSON.stringify(args);
          let expected;
          try {
            expected = (await ek.getBlockContent(args, host)).text;
          } catch (e) {
            expected = `Error [${e.code}]`;
          }
          const r = await runner.runDetailed('getBlockContent', args);
          if (expected.startsWith('Error [')) assert.ok(r.text.startsWith(expected), label);
          else assert.equal(r.text, expected, label);
          compared++;
        }
      }
    }
  }
  assert.equal(compared, 5 * 3 * 3 * 5);
  // The case the issue found: showSubStructure alone prints the @@id@@ headers.
  const sub = await runner.run('getBlockContent', {
    blockId: '20240614083125-lst0a9x',
    showSubStructure: true,
  });
  assert.match(sub, /^@@20240614083125-li01qwe@@/);
});

test('getBlockInfo through the runner takes ids as a list as well as a comma-separated string', async () => {
  const runner = ek.createToolRunner({ siyuan: fixtureHost() });
  const A = '20240614083630-p12olp4';
  const B = '20240614083000-a1b2c3d';
  const schema = ek.toolDefinitions().tools.find((t) => t.name === 'getBlockInfo').parameters;
  assert.deepEqual(schema.properties.ids.anyOf, [
    { type: 'string' },
    { type: 'array', items: { type: 'string' }, minItems: 1 },
  ]);
  const one = await runner.runDetailed('getBlockInfo', { ids: [A] });
  assert.equal(one.isError, false, one.text);
  assert.deepEqual(
    one.data.blocks.map((b) => b.id),
    [A],
  );
  assert.equal(one.text, (await runner.runDetailed('getBlockInfo', { ids: A })).text);
  const two = await runner.runDetailed('getBlockInfo', { ids: [A, B] });
  assert.equal(two.isError, false, two.text);
  assert.deepEqual(
    two.data.blocks.map((b) => b.id),
    [A, B],
  );
  assert.equal(two.text, (await runner.runDetailed('getBlockInfo', { ids: `${A},${B}` })).text);
  // A missing id in the list is reported as in the string form.
  const missing = await runner.runDetailed('getBlockInfo', { ids: [A, '20990101000000-zzzzzzz'] });
  assert.deepEqual(missing.data.notFoundIds, ['20990101000000-zzzzzzz']);
  // Neither a string nor a list of strings: refused by name.
  for (const bad of [[], [1], 42]) {
    const r = await runner.runDetailed('getBlockInfo', { ids: bad });
    assert.equal(r.code, 'INVALID_ARGUMENT', JSON.stringify(bad));
    assert.match(r.text, /- ids: expected a string or a list/);
  }
  // The core function takes a list too.
  const core = await ek.getBlockInfo({ ids: [A, B] }, fixtureHost());
  assert.deepEqual(
    core.blocks.map((b) => b.id),
    [A, B],
  );
});

test('every failed tool result carries its code (isError: true ⇒ code), a success none', async () => {
  const fs = memoryFiles({ 'a.txt': 'one\ntwo\nthree\n' });
  const runner = ek.createToolRunner({ files: fs, siyuan: fixtureHost() });
  const check = (r, label) => {
    if (r.isError) assert.equal(typeof r.code, 'string', `${label}: ${r.text}`);
    else assert.equal('code' in r, false, `${label}: ${r.text}`);
    return r;
  };
  // A plan whose lines changed under it: rejected, CONTENT_MISMATCH.
  const plan = check(
    await runner.runDetailed('prepare_file_range_edit', {
      path: 'a.txt',
      range: '2',
      content: 'TWO',
    }),
    'prepare',
  );
  fs.files.set('a.txt', 'zero\nx\ny\n');
  const rejected = check(
    await runner.runDetailed('apply_file_modification', { hunk_id: plan.data.hunkId }),
    'rejected apply',
  );
  assert.equal(rejected.isError, true);
  assert.equal(rejected.data.reason, 'CONTENT_CHANGED');
  assert.equal(rejected.code, 'CONTENT_MISMATCH');
  // The rejected plan is still live; applied once the file is back, no code.
  fs.files.set('a.txt', 'one\ntwo\nthree\n');
  const applied = check(
    await runner.runDetailed('apply_file_modification', { hunk_id: plan.data.hunkId }),
    'apply',
  );
  assert.equal(applied.isError, false);
  assert.equal(fs.files.get('a.txt'), 'one\nTWO\nthree\n');
  // The same lines at two places: rejected, AMBIGUOUS_MATCH.
  fs.files.set('b.txt', 'a\nb\nc\nd\n');
  const twice = check(
    await runner.runDetailed('prepare_file_range_edit', {
      path: 'b.txt',
      range: '2',
      content: 'B',
    }),
    'prepare b',
  );
  fs.files.set('b.txt', 'x\na\nb\nc\nd\na\nb\nc\nd\n');
  const ambiguous = check(
    await runner.runDetailed('apply_file_modification', { hunk_id: twice.data.hunkId }),
    'ambiguous apply',
  );
  if (ambiguous.isError) {
    assert.equal(ambiguous.data.reason, 'AMBIGUOUS_MATCH');
    assert.equal(ambiguous.code, 'AMBIGUOUS_MATCH');
  }
  // The other refusals, each with a code.
  const cases = [
    ['read_file', { path: 'none.txt' }, 'FILE_NOT_FOUND'],
    ['edit', { path: 'a.txt', old_string: 'zzz', new_string: 'y' }, 'NOT_FOUND'],
    [
      'edit_file_search_replace',
      { path: 'a.txt', search_replace: '<<<<<<< SEARCH\nzzz\n=======\ny\n>>>>>>> REPLACE' },
      'NOT_FOUND',
    ],
    ['multi_edit', { path: 'a.txt', edits: [{ old_string: 'zzz', new_string: 'y' }] }, 'NOT_FOUND'],
    [
      'apply_patch',
      { patch: '*** Begin Patch\n*** Delete File: none.txt\n*** End Patch' },
      'FILE_NOT_FOUND',
    ],
    [
      'applyBlockDiff',
      { diff: '@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n不存在\n=======\nx\n>>>>>>> REPLACE' },
      'CONTENT_MISMATCH',
    ],
    ['apply_file_modification', { hunk_id: 'nope' }, 'HUNK_NOT_FOUND'],
    ['nope', {}, 'INVALID_ARGUMENT'],
  ];
  for (const [tool, args, code] of cases) {
    const r = check(await runner.runDetailed(tool, args), tool);
    assert.equal(r.isError, true, tool);
    assert.equal(r.code, code, `${tool}: ${r.text}`);
  }
});

test("toolDefinitions({ format: 'ai-sdk' }): the AI SDK's tools record, each schema a Standard JSON Schema", () => {
  const plain = ek.toolDefinitions({ toolsets: ['files'] });
  const ai = ek.toolDefinitions({ format: 'ai-sdk', toolsets: ['files'] });
  assert.equal(ai.guide, plain.guide);
  assert.ok(!Array.isArray(ai.tools));
  assert.deepEqual(
    Object.keys(ai.tools),
    plain.tools.map((t) => t.name),
  );
  for (const t of plain.tools) {
    const tool = ai.tools[t.name];
    assert.deepEqual(Object.keys(tool).sort(), ['description', 'inputSchema']);
    assert.equal(tool.description, t.description);
    // The plain schema (for AI SDK 5's jsonSchema()), and the standard form.
    assert.deepEqual(tool.inputSchema.jsonSchema, t.parameters);
    const std = tool.inputSchema['~standard'];
    assert.equal(std.version, 1);
    assert.equal(std.vendor, 'editkit');
    const input = std.jsonSchema.input({ target: 'draft-07' });
    assert.deepEqual(input, t.parameters);
    assert.notEqual(input, t.parameters, 'a copy the SDK may change');
    assert.deepEqual(std.jsonSchema.output({ target: 'draft-2020-12' }), t.parameters);
  }
  // validate: the runner's checks and words.
  const validate = ai.tools.read_file.inputSchema['~standard'].validate;
  assert.deepEqual(validate({ path: 'a.txt' }), { value: { path: 'a.txt' } });
  const bad = validate({ path: 1, max_lines: -1, nope: true });
  assert.deepEqual(
    bad.issues.map((i) => i.message),
    [
      'path: expected a string, got the number 1.',
      'max_lines: expected a whole number ≥ 0, got the number -1.',
      'nope: unknown argument.',
    ],
  );
  assert.deepEqual(bad.issues[0].path, ['path']);
  assert.match(validate({}).issues[0].message, /Missing arguments \(path\)/);
  assert.match(validate('not json').issues[0].message, /JSON/);
  // Chinese definitions validate in Chinese; the siyuan toolset too.
  const zh = ek.toolDefinitions({ format: 'ai-sdk', lang: 'zh' });
  assert.ok('getBlockInfo' in zh.tools && 'edit' in zh.tools);
  assert.match(zh.tools.edit.description, /[一-龥]/);
  assert.match(
    zh.tools.read_file.inputSchema['~standard'].validate({}).issues[0].message,
    /[一-龥]/,
  );
  // The runner's definitions give the same record for its toolsets.
  const runner = ek.createToolRunner({ files: memoryFiles() });
  assert.deepEqual(
    Object.keys(runner.definitions({ format: 'ai-sdk' }).tools),
    Object.keys(ai.tools),
  );
});

test("toolDefinitions({ format: 'langchain' }): the OpenAI function objects LangChain's bindTools takes", () => {
  const lc = ek.toolDefinitions({ format: 'langchain', lang: 'zh' });
  assert.deepEqual(lc, ek.toolDefinitions({ format: 'openai', lang: 'zh' }));
  for (const t of lc.tools) {
    assert.equal(t.type, 'function');
    assert.deepEqual(Object.keys(t.function).sort(), ['description', 'name', 'parameters']);
    assert.equal(t.function.parameters.type, 'object');
  }
  assert.deepEqual(
    lc.tools.map((t) => t.function.name),
    [...ek.TOOL_NAMES],
  );
  // An unknown format is still refused, naming the new ones.
  assert.throws(
    () => ek.toolDefinitions({ format: 'vercel' }),
    (e) => e.code === 'INVALID_ARGUMENT' && /"ai-sdk", "langchain"/.test(e.message),
  );
});

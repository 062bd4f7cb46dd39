// Patches through the package (issue 18): planPatch / planUnifiedDiff
// without I/O, applyPatch / applyUnifiedDiff over host callbacks (atomic,
// rolled back when a write fails), the apply_patch / apply_diff tools, the
// Node file host and the MCP server. The placement rules themselves are
// tested natively from tests/data/patch-cases.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ek, repo, scratchDir } from './support.mjs';

const PATCH = [
  '*** Begin Patch',
  '*** Update File: app.py',
  '@@ def greet():',
  '-    print("hi")',
  '+    print("hello")',
  '*** Add File: notes/新.md',
  '+# 标题 🎉',
  '*** Delete File: old.txt',
  '*** Update File: a.txt',
  '*** Move to: b.txt',
  '@@',
  ' one',
  '-two',
  '+TWO',
  '*** End Patch',
].join('\n');

const FILES = {
  'app.py': 'def greet():\r\n    print("hi")\r\n',
  'old.txt': 'bye\n',
  'a.txt': 'one\ntwo\n',
};

/** An in-memory host that records every call; `failOn(path)` makes that write throw. */
function memoryHost(files, { failOn, noDelete } = {}) {
  const map = new Map(Object.entries(files));
  const calls = [];
  const host = {
    map,
    calls,
    readFile: async (p) => map.get(p) ?? null,
    writeFile: async (p, c) => {
      calls.push(['write', p]);
      if (p === failOn) throw new Error('disk full');
      map.set(p, c);
    },
  };
  if (!noDelete)
    host.deleteFile = async (p) => {
      calls.push(['delete', p]);
      map.delete(p);
    };
  return host;
}

test('planPatch: per file, the text to write (CRLF kept), without I/O; the report is typed', () => {
  const r = ek.planPatch(FILES, PATCH);
  assert.equal(r.ok, true, r.summary);
  assert.deepEqual(
    r.files.map((f) => [f.path, f.op, f.moveTo ?? null, f.write, f.content ?? null]),
    [
      ['app.py', 'update', null, true, 'def greet():\r\n    print("hello")\r\n'],
      ['notes/新.md', 'add', null, true, '# 标题 🎉\n'],
      ['old.txt', 'delete', null, true, null],
      ['a.txt', 'update', 'b.txt', true, 'one\nTWO\n'],
    ],
  );
  assert.deepEqual(r.files[0].hunks, [
    { index: 1, line: 3, ok: true, strategy: 'exact', startLine: 2, endLine: 2 },
  ]);
  assert.equal(
    r.summary,
    'Applied the patch to 4 file(s):\nM app.py\nA notes/新.md\nD old.txt\nR a.txt → b.txt',
  );
});

test('planPatch and planUnifiedDiff: a malformed text is INVALID_PATCH with every problem and its line', () => {
  assert.throws(
    () => ek.planPatch({}, '*** Begin Patch\n*** Update File: f\n@@\nnot a line\n*** End Patch'),
    (e) => {
      assert.equal(e.code, 'INVALID_PATCH');
      assert.deepEqual(
        e.errors.map((x) => x.line),
        [3, 4],
      );
      return true;
    },
  );
  assert.throws(
    () =>
      ek.planUnifiedDiff({ f: 'a\n' }, '--- f\n+++ f\n@@ -1,2 +1,2 @@\n-a\n+b\n', { lang: 'zh' }),
    (e) =>
      e.code === 'INVALID_PATCH' &&
      e.message.includes('块头声明 2 行旧内容、2 行新内容，但块体实际有 1 行旧内容、1 行新内容'),
  );
  assert.throws(
    () => ek.planPatch({}, '*** Begin Patch\n*** Add File: f\n+\ud800\n*** End Patch'),
    (e) => e.code === 'INVALID_TEXT',
  );
  assert.throws(
    () =>
      ek.planPatch({ f: 'a' }, '*** Begin Patch\n*** Delete File: f\n*** End Patch', {
        mode: 'fuzzy',
      }),
    (e) => e.code === 'INVALID_ARGUMENT' && e.subject === 'mode',
  );
});

test('applyPatch: add, update, rename and delete through the host, in order', async () => {
  const host = memoryHost(FILES);
  const r = await ek.applyPatch(host, PATCH);
  assert.equal(r.ok, true, r.summary);
  assert.deepEqual(r.written, ['app.py', 'notes/新.md', 'old.txt', 'b.txt', 'a.txt']);
  assert.deepEqual(Object.fromEntries(host.map), {
    'app.py': 'def greet():\r\n    print("hello")\r\n',
    'notes/新.md': '# 标题 🎉\n',
    'b.txt': 'one\nTWO\n',
  });
});

test('applyPatch: one failed hunk writes nothing, and the refusal names file, hunk, line and candidates', async () => {
  const files = { 'x.py': 'v = 1\nw = 2\nv = 1\n', 'y.py': 'keep\n' };
  const host = memoryHost(files);
  const patch =
    '*** Begin Patch\n*** Update File: y.py\n@@\n-keep\n+kept\n*** Update File: x.py\n@@\n-v = 1\n+v = 3\n*** End Patch';
  const r = await ek.applyPatch(host, patch);
  assert.equal(r.ok, false);
  assert.deepEqual(host.calls, [], 'nothing written');
  assert.deepEqual(r.written, []);
  const e = r.files[1].error;
  assert.equal(e.code, 'AMBIGUOUS');
  assert.deepEqual(e.candidates, [
    { startLine: 1, endLine: 1 },
    { startLine: 3, endLine: 3 },
  ]);
  assert.equal(e.hunkIndex, 1);
  assert.equal(e.line, 7);
  assert.match(
    e.message,
    /^x\.py, hunk 1 \(patch line 7\): Its lines match 2 places: line 1, line 3\./,
  );
  // Non-atomic: the file that applied is written.
  const loose = memoryHost(files);
  const r2 = await ek.applyPatch(loose, patch, { atomic: false });
  assert.deepEqual(loose.calls, [['write', 'y.py']]);
  assert.equal(loose.map.get('y.py'), 'kept\n');
  assert.equal(r2.applied, 1);
});

test('applyPatch: a write that fails part-way is rolled back and reported as WRITE_FAILED', async () => {
  const host = memoryHost(FILES, { failOn: 'b.txt' });
  const r = await ek.applyPatch(host, PATCH);
  assert.equal(r.ok, false);
  assert.equal(r.error.code, 'WRITE_FAILED');
  assert.match(r.error.message, /disk full/);
  assert.match(
    r.error.message,
    /restored: b\.txt, old\.txt, notes\/新\.md, app\.py; not restored: none\./,
  );
  assert.deepEqual(Object.fromEntries(host.map), FILES, 'every file as it was');
  assert.deepEqual(r.written, []);
  // Nothing of the plan stands: no file is marked written, and the summary
  // is the failure.
  assert.equal(r.summary, r.error.message);
  assert.deepEqual(
    r.files.map((f) => [f.write, f.content]),
    r.files.map(() => [false, undefined]),
  );
});

test('applyPatch: a deletion with no deleteFile callback is refused before anything is written', async () => {
  const host = memoryHost(FILES, { noDelete: true });
  await assert.rejects(ek.applyPatch(host, PATCH), (e) => {
    assert.equal(e.code, 'HOST_CAPABILITY_MISSING');
    assert.equal(e.subject, 'deleteFile');
    return true;
  });
  assert.deepEqual(host.calls, []);
});

test('applyUnifiedDiff: a git diff over two files; a line number breaks a tie', async () => {
  const host = memoryHost({ 'src/a.js': 'x = 1;\ny();\nx = 1;\n', 'src/b.js': 'old\n' });
  const diff = [
    'diff --git a/src/a.js b/src/a.js',
    '--- a/src/a.js',
    '+++ b/src/a.js',
    '@@ -3 +3 @@',
    '-x = 1;',
    '+x = 2;',
    '--- a/src/b.js',
    '+++ /dev/null',
    '@@ -1 +0,0 @@',
    '-old',
    '',
  ].join('\n');
  const r = await ek.applyUnifiedDiff(host, diff);
  assert.equal(r.ok, true, r.summary);
  assert.deepEqual(Object.fromEntries(host.map), { 'src/a.js': 'x = 1;\ny();\nx = 2;\n' });
  assert.deepEqual(r.files[0].hunks[0].startLine, 3);
});

test('apply_patch and apply_diff tools: the summary, each hunk and the diff; a repeat is ALREADY_APPLIED; refusals write nothing', async () => {
  const host = memoryHost({ 'app.py': 'def greet():\n    print("hi")\n' });
  const runner = ek.createToolRunner({ files: host });
  const patch =
    '*** Begin Patch\n*** Update File: app.py\n@@ def greet():\n-    print("hi")\n+    print("hello")\n*** End Patch';
  const r = await runner.runDetailed('apply_patch', { patch });
  assert.equal(r.isError, false, r.text);
  assert.equal(
    r.text,
    [
      'Applied the patch to 1 file(s):',
      'M app.py',
      '- app.py, hunk 1: lines 2–2 (strategy: exact)',
      '',
      '```diff',
      '--- a/app.py',
      '+++ b/app.py',
      '@@ -1,2 +1,2 @@',
      ' def greet():',
      '-    print("hi")',
      '+    print("hello")',
      '```',
    ].join('\n'),
  );
  const again = await runner.runDetailed('apply_diff', {
    diff: '--- app.py\n+++ app.py\n@@ -1,2 +1,2 @@\n def greet():\n-    print("hi")\n+    print("hello")\n',
  });
  assert.equal(again.isError, true);
  assert.equal(again.code, 'ALREADY_APPLIED');
  assert.equal(host.map.get('app.py'), 'def greet():\n    print("hello")\n');
  const bad = await runner.runDetailed('apply_patch', { patch: '*** Update File: app.py' });
  assert.equal(bad.isError, true);
  assert.equal(bad.code, 'INVALID_PATCH');
  assert.match(bad.text, /The text has no `\*\*\* Begin Patch` line/);
  assert.deepEqual(host.calls, [['write', 'app.py']]);
});

test('apply_patch: two spellings of one file are refused before anything is read or written', async () => {
  const root = scratchDir('editkit-patch-same-');
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
  const runner = ek.createToolRunner({ files: ek.createNodeFileHost({ root }) });
  const r = await runner.runDetailed('apply_patch', {
    patch:
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Update File: ./a.txt\n@@\n-two\n+2\n*** End Patch',
  });
  assert.equal(r.isError, true);
  assert.equal(r.code, 'INVALID_PATCH');
  assert.match(r.text, /a\.txt, \.\/a\.txt name the same file/);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'one\ntwo\n');
});

test('createNodeFileHost: a patch adds, renames and deletes on disk; a path outside the root writes nothing', async () => {
  const root = scratchDir('editkit-patch-');
  writeFileSync(join(root, 'a.txt'), 'one\ntwo\n');
  writeFileSync(join(root, 'old.txt'), 'bye\n');
  const files = ek.createNodeFileHost({ root });
  const r = await ek.applyPatch(
    files,
    '*** Begin Patch\n*** Add File: dir/new.txt\n+hi\n*** Delete File: old.txt\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-two\n+2\n*** End Patch',
  );
  assert.equal(r.ok, true, r.summary);
  assert.equal(readFileSync(join(root, 'dir', 'new.txt'), 'utf8'), 'hi\n');
  assert.equal(readFileSync(join(root, 'b.txt'), 'utf8'), 'one\n2\n');
  assert.equal(existsSync(join(root, 'a.txt')), false);
  assert.equal(existsSync(join(root, 'old.txt')), false);
  // One failure channel: a path outside the root is the result, not a throw.
  const escape = await ek.applyPatch(
    files,
    '*** Begin Patch\n*** Add File: ../escape.txt\n+x\n*** End Patch',
  );
  assert.equal(escape.ok, false);
  assert.equal(escape.error.code, 'PATH_OUTSIDE_ROOT');
  assert.deepEqual(escape.written, []);
  // So is a malformed patch.
  const garbled = await ek.applyUnifiedDiff(files, '@@ nonsense');
  assert.equal(garbled.ok, false);
  assert.equal(garbled.error.code, 'INVALID_PATCH');
  assert.equal(garbled.summary, garbled.error.message);
  assert.equal(existsSync(join(root, '..', 'escape.txt')), false);
});

test('editkit-mcp: apply_patch lands on disk', async () => {
  const root = scratchDir('editkit-mcp-patch-');
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'm.rs'), 'fn f() {\n    1\n}\n');
  const client = new Client({ name: 'editkit-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(repo, 'pkg-mcp', 'dist', 'cli.js'), '--root', root],
      env: { PATH: process.env.PATH },
      stderr: 'pipe',
    }),
  );
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('apply_patch') && names.includes('apply_diff'));
    const r = await client.callTool({
      name: 'apply_diff',
      arguments: {
        diff: '--- a/src/m.rs\n+++ b/src/m.rs\n@@ -1,3 +1,3 @@\n fn f() {\n-    1\n+    2\n }\n',
      },
    });
    assert.equal(r.isError, false, r.content[0].text);
    assert.equal(readFileSync(join(root, 'src', 'm.rs'), 'utf8'), 'fn f() {\n    2\n}\n');
  } finally {
    await client.close();
  }
});

test('applyPatchOperation runs OpenAI apply_patch operations: create, update (safe placement), delete', async () => {
  const files = new Map([
    ['app.py', 'def f():\n    return 1\n'],
    ['old.txt', 'x\n'],
  ]);
  const host = {
    readFile: (p) => files.get(p) ?? null,
    writeFile: (p, c) => void files.set(p, c),
    deleteFile: (p) => void files.delete(p),
  };
  const created = await ek.applyPatchOperation(host, {
    type: 'create_file',
    path: 'new.md',
    diff: '+# Title\n+text',
  });
  assert.equal(created.status, 'completed', created.output);
  assert.equal(files.get('new.md'), '# Title\ntext\n');
  // The model's hunk with the indentation slipped: placed, written in the file's.
  const updated = await ek.applyPatchOperation(host, {
    type: 'update_file',
    path: 'app.py',
    diff: '@@ def f():\n-return 1\n+return 2\n',
  });
  assert.equal(updated.status, 'completed', updated.output);
  assert.equal(files.get('app.py'), 'def f():\n    return 2\n');
  const refused = await ek.applyPatchOperation(host, {
    type: 'update_file',
    path: 'app.py',
    diff: '@@\n-return 9\n+return 3\n',
  });
  assert.equal(refused.status, 'failed');
  assert.equal(files.get('app.py'), 'def f():\n    return 2\n');
  const deleted = await ek.applyPatchOperation(host, { type: 'delete_file', path: 'old.txt' });
  assert.equal(deleted.status, 'completed', deleted.output);
  assert.equal(files.has('old.txt'), false);
  assert.throws(
    () => ek.patchOfOperation({ type: 'rename_file', path: 'a' }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
});

test("git's extended headers through applyUnifiedDiff: a copy keeps its source, a mode is set through setMode or reported (issue 43)", async () => {
  const diff = [
    'diff --git a/run.sh b/run.sh',
    'old mode 100644',
    'new mode 100755',
    'diff --git a/lib.sh b/lib2.sh',
    'similarity index 100%',
    'copy from lib.sh',
    'copy to lib2.sh',
    '',
  ].join('\n');
  const files = new Map([
    ['run.sh', 'echo hi\n'],
    ['lib.sh', 'f() { :; }\n'],
  ]);
  const modes = [];
  const host = {
    readFile: (p) => files.get(p) ?? null,
    writeFile: (p, t) => void files.set(p, t),
    setMode: (p, m) => void modes.push([p, m]),
  };
  const r = await ek.applyUnifiedDiff(host, diff);
  assert.equal(r.ok, true, r.summary);
  assert.deepEqual(Object.fromEntries(files), {
    'run.sh': 'echo hi\n',
    'lib.sh': 'f() { :; }\n',
    'lib2.sh': 'f() { :; }\n',
  });
  assert.deepEqual(modes, [['run.sh', '100755']]);
  assert.equal(r.warnings, undefined);
  // A host without setMode: the text is written, the mode reported.
  const plain = { readFile: host.readFile, writeFile: host.writeFile };
  files.delete('lib2.sh');
  const again = await ek.applyUnifiedDiff(plain, diff);
  assert.equal(again.ok, true, again.summary);
  assert.deepEqual(
    again.warnings.map((w) => [w.code, w.path]),
    [['MODE_NOT_SET', 'run.sh']],
  );
  assert.match(again.warnings[0].message, /100755/);
  // fuzzFactor must be a non-negative integer.
  await assert.rejects(
    ek.applyUnifiedDiff(plain, '--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n', { fuzzFactor: 1.5 }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
});

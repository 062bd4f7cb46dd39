// createNodeFileHost on real files (SPEC §9.1): paths stay under the root,
// writes are atomic and keep the mode, and bytes the edit did not touch
// (BOM, CRLF, UTF-16) stay as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ek, scratchDir } from './support.mjs';

function sandbox() {
  const base = scratchDir('editkit-files-');
  const root = join(base, 'root');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(base, 'secret.txt'), 'outside\n');
  writeFileSync(join(root, 'src', 'a.txt'), 'alpha\nbeta\n');
  return { base, root };
}

test('paths outside the root are refused with PATH_OUTSIDE_ROOT; nothing outside is read or written', async () => {
  const { base, root } = sandbox();
  symlinkSync(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  symlinkSync(base, join(root, 'dir-out'));
  symlinkSync(join(base, 'nowhere.txt'), join(root, 'dangling.txt'));
  const files = ek.createNodeFileHost({ root });
  const outside = [
    '../secret.txt',
    'src/../../secret.txt',
    join(base, 'secret.txt'),
    '/etc/passwd',
    'link-out.txt',
    'dir-out/secret.txt',
    'dir-out/new.txt',
    'dangling.txt',
    'src/a.txt\0.png',
    '',
    '.',
  ];
  for (const path of outside) {
    for (const call of [
      () => files.readFile(path),
      () => files.writeFile(path, 'x'),
      () => files.exists(path),
    ]) {
      await assert.rejects(call(), { code: 'PATH_OUTSIDE_ROOT' }, JSON.stringify(path));
    }
  }
  assert.equal(readFileSync(join(base, 'secret.txt'), 'utf8'), 'outside\n');
  assert.deepEqual(readdirSync(base).sort(), ['root', 'secret.txt']);
  // A link out is refused without saying where it leads.
  await assert.rejects(files.readFile('link-out.txt'), (e) => {
    assert.equal(
      e.message,
      `link-out.txt leads through a symbolic link out of the root ${files.root}.`,
    );
    return true;
  });
  // Through the runner the agent reads the refusal; the file outside is untouched.
  const runner = ek.createToolRunner({ files });
  const read = await runner.runDetailed('read_file', { path: '../secret.txt' });
  assert.equal(read.code, 'PATH_OUTSIDE_ROOT');
  assert.match(read.text, /^Error \[PATH_OUTSIDE_ROOT\]: \.\.\/secret\.txt is outside the root /);
  const edit = await runner.runDetailed('edit', {
    path: '../../../../etc/passwd',
    old_string: 'root',
    new_string: 'x',
  });
  assert.equal(edit.code, 'PATH_OUTSIDE_ROOT');
  // Inside the root, absolute and relative paths both work.
  assert.equal(await files.readFile(join(root, 'src', 'a.txt')), 'alpha\nbeta\n');
  assert.equal(await files.readFile('src/missing.txt'), null);
  assert.deepEqual(await files.exists('src'), { exists: true, isFile: false });
  assert.deepEqual(await files.exists('src/a.txt'), { exists: true, isFile: true });
  assert.throws(() => ek.createNodeFileHost({ root: join(base, 'no-such-dir') }), {
    code: 'INVALID_ARGUMENT',
  });
});

test('writes are atomic, keep the mode, create folders, and follow an inside symlink to its target', async () => {
  const { root } = sandbox();
  const script = join(root, 'run.sh');
  writeFileSync(script, '#!/bin/sh\necho one\n');
  chmodSync(script, 0o754);
  symlinkSync(join(root, 'src', 'a.txt'), join(root, 'alias.txt'));
  const files = ek.createNodeFileHost({ root });
  const runner = ek.createToolRunner({ files });
  const r = await runner.runDetailed('edit', {
    path: 'run.sh',
    old_string: 'echo one',
    new_string: 'echo two',
  });
  assert.equal(r.isError, false, r.text);
  assert.equal(readFileSync(script, 'utf8'), '#!/bin/sh\necho two\n');
  assert.equal(statSync(script).mode & 0o777, 0o754);
  await files.writeFile('deep/er/new.txt', 'new\n');
  assert.equal(readFileSync(join(root, 'deep', 'er', 'new.txt'), 'utf8'), 'new\n');
  await files.writeFile('alias.txt', 'through the link\n');
  assert.equal(readFileSync(join(root, 'src', 'a.txt'), 'utf8'), 'through the link\n');
  assert.ok(statSync(join(root, 'alias.txt')).isFile());
  // No temporary file is left behind.
  const leftovers = readdirSync(root, { recursive: true }).filter((f) => /editkit-/.test(f));
  assert.deepEqual(leftovers, []);
});

test('bytes stay as they were: UTF-8 BOM, CRLF, UTF-16 with BOM; other bytes are NOT_TEXT', async () => {
  const { root } = sandbox();
  const bom = Buffer.from('\ufeffname = "a"\r\nvalue = 1\r\n', 'utf8');
  writeFileSync(join(root, 'bom.ini'), bom);
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('名前 = 値\r\n数 = 1\r\n', 'utf16le'),
  ]);
  writeFileSync(join(root, 'wide.txt'), utf16);
  const utf16be = Buffer.from(utf16).swap16();
  writeFileSync(join(root, 'wide-be.txt'), utf16be);
  writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  const files = ek.createNodeFileHost({ root, lang: 'zh' });
  const runner = ek.createToolRunner({ files, lang: 'zh' });
  const edit = (path, from, to) =>
    runner.runDetailed('edit', { path, old_string: from, new_string: to });
  assert.equal((await edit('bom.ini', 'value = 1', 'value = 2')).isError, false);
  assert.deepEqual(
    readFileSync(join(root, 'bom.ini')),
    Buffer.from('\ufeffname = "a"\r\nvalue = 2\r\n', 'utf8'),
  );
  assert.equal((await edit('wide.txt', '数 = 1', '数 = 2')).isError, false);
  assert.deepEqual(
    readFileSync(join(root, 'wide.txt')),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('名前 = 値\r\n数 = 2\r\n', 'utf16le')]),
  );
  assert.equal((await edit('wide-be.txt', '数 = 1', '数 = 3')).isError, false);
  assert.deepEqual(
    readFileSync(join(root, 'wide-be.txt')),
    Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('名前 = 値\r\n数 = 3\r\n', 'utf16le'),
    ]).swap16(),
  );
  const latin1 = await runner.runDetailed('read_file', { path: 'latin1.txt' });
  assert.equal(latin1.code, 'NOT_TEXT');
  assert.match(latin1.text, /^错误 \[NOT_TEXT\]：latin1\.txt 不是 UTF-8 文本/);
  assert.deepEqual(
    readFileSync(join(root, 'latin1.txt')),
    Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
  );
});

test('the root as spelt through a symlink, the root itself, dangling links, read-only files, lock keys', async (t) => {
  const { base, root } = sandbox();
  const spelt = join(base, 'link-to-root');
  symlinkSync(root, spelt);
  symlinkSync(join(root, 'src', 'missing-target.txt'), join(root, 'dangling-inside.txt'));
  const files = ek.createNodeFileHost({ root: spelt });
  assert.equal(files.root, root);
  // An absolute path spelt with the given root is inside it.
  assert.equal(await files.readFile(join(spelt, 'src', 'a.txt')), 'alpha\nbeta\n');
  await assert.rejects(files.readFile('.'), {
    code: 'PATH_OUTSIDE_ROOT',
    message: `. names the root folder ${root} itself, not a file under it.`,
  });
  await assert.rejects(files.writeFile('dangling-inside.txt', 'x'), (e) => {
    assert.equal(e.code, 'PATH_OUTSIDE_ROOT');
    assert.match(e.message, /whose target does not exist/);
    return true;
  });
  // One lock key however the path is spelt.
  assert.equal(files.lockKey('src/a.txt'), files.lockKey('./src/../src/a.txt'));
  assert.equal(files.lockKey('src/a.txt'), files.lockKey(join(spelt, 'src', 'a.txt')));
  // A file read as UTF-16, deleted, then created again is written as UTF-8.
  writeFileSync(
    join(root, 'w.txt'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('x', 'utf16le')]),
  );
  assert.equal(await files.readFile('w.txt'), '\ufeffx');
  rmSync(join(root, 'w.txt'));
  assert.equal(await files.readFile('w.txt'), null);
  await files.writeFile('w.txt', 'plain');
  assert.deepEqual(readFileSync(join(root, 'w.txt')), Buffer.from('plain'));
  // A read-only file is not replaced (root may write anything: skipped then).
  const locked = join(root, 'locked.txt');
  writeFileSync(locked, 'keep\n');
  chmodSync(locked, 0o444);
  if (process.getuid?.() === 0) {
    t.diagnostic('running as root: every file is writable, the read-only check is not exercised');
    return;
  }
  await assert.rejects(files.writeFile('locked.txt', 'changed\n'), { code: 'HOST_ERROR' });
  assert.equal(readFileSync(locked, 'utf8'), 'keep\n');
});

test('listDirectory: the names in a folder by name, folders with /, links not followed; the text editor lists two levels without hidden names', async () => {
  const { base, root } = sandbox();
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '[core]\n');
  mkdirSync(join(root, 'src', 'deep', 'deeper'), { recursive: true });
  writeFileSync(join(root, 'src', 'deep', 'x.txt'), 'x\n');
  writeFileSync(join(root, 'src', '.env'), 'SECRET=1\n');
  writeFileSync(join(root, '说明.md'), '# 说明\n');
  symlinkSync(base, join(root, 'dir-out'));
  const files = ek.createNodeFileHost({ root });
  assert.deepEqual(await files.listDirectory('.'), ['.git/', 'dir-out', 'src/', '说明.md']);
  assert.deepEqual(await files.listDirectory(root), ['.git/', 'dir-out', 'src/', '说明.md']);
  assert.deepEqual(await files.listDirectory('src/'), ['.env', 'a.txt', 'deep/']);
  assert.equal(await files.listDirectory('src/a.txt'), null);
  assert.equal(await files.listDirectory('missing'), null);
  for (const outside of ['..', '../', 'dir-out', join(base)])
    await assert.rejects(files.listDirectory(outside), { code: 'PATH_OUTSIDE_ROOT' }, outside);

  const run = ek.createToolRunner({ files });
  const view = (args) =>
    run.runDetailed('str_replace_based_edit_tool', { command: 'view', ...args });
  const listed = await view({ path: '.' });
  assert.equal(
    listed.text,
    "Here's the files and directories up to 2 levels deep in ., excluding hidden items:\n" +
      '.\n./dir-out\n./src\n./src/a.txt\n./src/deep\n./说明.md\n',
  );
  assert.deepEqual(listed.data, {
    path: '.',
    entries: ['./dir-out', './src', './src/a.txt', './src/deep', './说明.md'],
    more: 0,
  });
  const zh = await ek
    .createToolRunner({ files, lang: 'zh' })
    .runDetailed('str_replace_based_edit_tool', { command: 'view', path: 'src/' });
  assert.equal(
    zh.text,
    'src/ 中两层以内的文件和目录（不含隐藏项）：\nsrc\nsrc/a.txt\nsrc/deep\nsrc/deep/deeper\nsrc/deep/x.txt\n',
  );
  const ranged = await view({ path: 'src', view_range: [1, 2] });
  assert.equal(ranged.code, 'INVALID_ARGUMENT');
  assert.equal((await view({ path: 'src/a.txt' })).isError, false, 'a file is still viewed');
  assert.equal((await view({ path: 'dir-out' })).code, 'PATH_OUTSIDE_ROOT');
});

test('the text editor create writes file_text byte for byte; create_new_file keeps adding the final newline', async () => {
  const { root } = sandbox();
  const run = ek.createToolRunner({ files: ek.createNodeFileHost({ root }) });
  for (const [path, text] of [
    ['plain.txt', 'key=value'],
    ['crlf.txt', '一\r\n二'],
    ['emoji.txt', '😀 no newline'],
    ['empty.txt', ''],
  ]) {
    const r = await run.runDetailed('str_replace_based_edit_tool', {
      command: 'create',
      path,
      file_text: text,
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(readFileSync(join(root, path), 'utf8'), text, path);
  }
  await run.runDetailed('create_new_file', { path: 'tool.txt', content: 'a\r\nb' });
  assert.equal(readFileSync(join(root, 'tool.txt'), 'utf8'), 'a\r\nb\r\n');
});

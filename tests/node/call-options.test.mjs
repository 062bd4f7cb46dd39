// A tool call's options and what every writing call hands back: the
// signal (nothing written when cancelled before the first write), the
// write events, and `data.undo`, a unified diff that apply_diff applies to
// put back every file the call wrote, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek } from './support.mjs';

/** A files host over a Map, counting writes. */
function memoryFiles(entries) {
  const files = new Map(Object.entries(entries));
  return {
    files,
    writes: 0,
    readFile: (p) => files.get(p) ?? null,
    writeFile(p, c) {
      this.writes++;
      files.set(p, c);
    },
    deleteFile(p) {
      this.writes++;
      files.delete(p);
    },
  };
}

const snapshot = (files) => JSON.stringify([...files].sort(([a], [b]) => (a < b ? -1 : 1)));

// Files with CRLF, mixed endings, no final newline, a BOM, CJK and emoji.
const START = {
  'crlf.txt': 'alpha\r\nbeta\r\ngamma\r\n',
  'mixed.txt': 'one\ntwo\r\nthree',
  'bom.md': '\uFEFF# 标题\n\n- 第一项 🙂\n',
  'gone.txt': 'bye\n',
};

const CALLS = [
  ['edit', { path: 'crlf.txt', old_string: 'beta', new_string: 'BETA' }],
  ['edit', { path: 'bom.md', old_string: '- 第一项 🙂', new_string: '- 第一项 🙂\n- 第二项' }],
  ['multi_edit', { path: 'mixed.txt', edits: [{ old_string: 'three', new_string: '3' }] }],
  [
    'edit_file_search_replace',
    { path: 'crlf.txt', search_replace: '<<<<<<< SEARCH\ngamma\n=======\nGAMMA\n>>>>>>> REPLACE' },
  ],
  [
    'str_replace_based_edit_tool',
    { command: 'insert', path: 'mixed.txt', insert_line: 1, insert_text: 'ins' },
  ],
  ['str_replace_based_edit_tool', { command: 'create', path: 'new.txt', file_text: 'n\n' }],
  ['create_new_file', { path: 'made.md', content: '# 新\n' }],
  ['edit_snippet', { path: 'bom.md', snippet: '# 标题\n\n- 第一项 🙂 改\n' }],
  [
    'apply_patch',
    {
      patch:
        '*** Begin Patch\n*** Update File: crlf.txt\n@@\n-alpha\n+ALPHA\n*** Add File: added.txt\n+a\n*** Delete File: gone.txt\n*** End Patch',
    },
  ],
  [
    'overwrite_entire_file',
    { path: 'crlf.txt', content: 'new\r\n', known_old_total_lines: 3, known_old_total_bytes: 20 },
  ],
  [
    'apply_diff',
    { diff: '--- a/mixed.txt\n+++ b/mixed.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\r\n' },
  ],
];

test('every writing call hands back an undo that apply_diff applies to restore the files byte for byte', async () => {
  for (const [name, args] of CALLS) {
    const host = memoryFiles(START);
    const runner = ek.createToolRunner({ files: host });
    const before = snapshot(host.files);
    const done = await runner.runDetailed(name, args);
    assert.equal(done.isError, false, `${name}: ${done.text}`);
    assert.notEqual(snapshot(host.files), before, `${name} wrote`);
    assert.equal(typeof done.data.undo, 'string', name);
    const back = await runner.runDetailed('apply_diff', { diff: done.data.undo });
    assert.equal(back.isError, false, `${name} undo: ${back.text}`);
    assert.equal(snapshot(host.files), before, `${name}: undone`);
  }
  // Reads and plans write nothing, and carry no undo.
  const host = memoryFiles(START);
  const runner = ek.createToolRunner({ files: host });
  const read = await runner.runDetailed('read_file', { path: 'crlf.txt' });
  assert.equal(read.data.undo, undefined);
  const plan = await runner.runDetailed('prepare_file_append', { path: 'crlf.txt', content: 'x' });
  assert.equal(plan.data.undo, undefined);
  assert.equal(host.writes, 0);
});

test('an insert changes only the bytes it inserts (a file of mixed endings keeps them)', async () => {
  for (const [content, after, expected] of [
    ['one\ntwo\r\nthree', 1, 'one\nins\ntwo\r\nthree'],
    ['one\ntwo\r\nthree', 2, 'one\ntwo\r\nins\r\nthree'],
    ['one\ntwo\r\nthree', 3, 'one\ntwo\r\nthree\r\nins'],
    ['one\r\ntwo\n', 0, 'ins\r\none\r\ntwo\n'],
    ['one\r\ntwo\n', 2, 'one\r\ntwo\nins\n'],
    ['', 0, 'ins\n'],
  ]) {
    const host = memoryFiles({ 'f.txt': content });
    const runner = ek.createToolRunner({ files: host });
    const r = await runner.runDetailed('str_replace_based_edit_tool', {
      command: 'insert',
      path: 'f.txt',
      insert_line: after,
      insert_text: 'ins',
    });
    assert.equal(r.isError, false, r.text);
    assert.equal(host.files.get('f.txt'), expected, JSON.stringify([content, after]));
  }
});

test('a call cancelled before its first write writes nothing; one cancelled after completes and says so', async () => {
  // Aborted before the call: nothing read, nothing written.
  let host = memoryFiles({ 'a.txt': 'a\n' });
  let runner = ek.createToolRunner({ files: host });
  const early = new AbortController();
  early.abort();
  let r = await runner.runDetailed(
    'edit',
    { path: 'a.txt', old_string: 'a', new_string: 'b' },
    { signal: early.signal },
  );
  assert.deepEqual([r.isError, r.code, r.data.cancelled], [true, 'HOST_ERROR', true]);
  assert.equal(
    r.text,
    'Error [HOST_ERROR]: the call was cancelled before it wrote anything; nothing was changed.',
  );
  assert.equal(host.writes, 0);

  // Aborted while the files are read: the patch writes none of them.
  host = memoryFiles({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const reading = new AbortController();
  const read = host.readFile;
  host.readFile = (p) => {
    reading.abort();
    return read(p);
  };
  runner = ek.createToolRunner({ files: host });
  r = await runner.runDetailed(
    'apply_patch',
    {
      patch:
        '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch',
    },
    { signal: reading.signal },
  );
  assert.equal(r.data.cancelled, true, r.text);
  assert.equal(host.writes, 0);
  assert.deepEqual([host.files.get('a.txt'), host.files.get('b.txt')], ['a\n', 'b\n']);

  // Aborted after the first write: the patch completes (no half-applied
  // patch), its result marked, every write reported.
  host = memoryFiles({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  runner = ek.createToolRunner({ files: host });
  const late = new AbortController();
  const events = [];
  r = await runner.runDetailed(
    'apply_patch',
    {
      patch:
        '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch',
    },
    {
      signal: late.signal,
      onWrite: (e) => {
        events.push(e);
        late.abort();
      },
    },
  );
  assert.equal(r.isError, false, r.text);
  assert.equal(r.cancelledLate, true);
  assert.deepEqual([host.files.get('a.txt'), host.files.get('b.txt')], ['A\n', 'B\n']);
  assert.deepEqual(events, [
    { count: 1, callback: 'files.writeFile', target: 'a.txt', total: 2 },
    { count: 2, callback: 'files.writeFile', target: 'b.txt', total: 2 },
  ]);
});

test('write events carry the total the call knows before writing; a rollback has none', async () => {
  const run = async (host, name, args) => {
    const events = [];
    const runner = ek.createToolRunner({ files: host });
    const r = await runner.runDetailed(name, args, { onWrite: (e) => events.push(e) });
    return { r, events };
  };
  // One edit, one write.
  let { r, events } = await run(memoryFiles({ 'a.txt': 'a\n' }), 'edit', {
    path: 'a.txt',
    old_string: 'a',
    new_string: 'b',
  });
  assert.equal(r.isError, false, r.text);
  assert.deepEqual(events, [{ count: 1, callback: 'files.writeFile', target: 'a.txt', total: 1 }]);
  // A patch: its writes and deletions, a rename counted as both.
  ({ r, events } = await run(
    memoryFiles({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' }),
    'apply_patch',
    {
      patch:
        '*** Begin Patch\n*** Update File: a.txt\n*** Move to: m.txt\n@@\n-a\n+A\n*** Delete File: b.txt\n*** Add File: n.txt\n+n\n*** End Patch',
    },
  ));
  assert.equal(r.isError, false, r.text);
  assert.deepEqual(
    events.map((e) => [e.callback, e.target, e.count, e.total]),
    [
      ['files.writeFile', 'm.txt', 1, 4],
      ['files.deleteFile', 'a.txt', 2, 4],
      ['files.deleteFile', 'b.txt', 3, 4],
      ['files.writeFile', 'n.txt', 4, 4],
    ],
  );
  // The second write fails: the rollback's write has no total.
  const host = memoryFiles({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
  const write = host.writeFile;
  host.writeFile = (p, c) => {
    if (p === 'b.txt') throw new Error('disk full');
    return write.call(host, p, c);
  };
  ({ r, events } = await run(host, 'apply_patch', {
    patch:
      '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch',
  }));
  assert.equal(r.code, 'WRITE_FAILED', r.text);
  assert.deepEqual(events, [
    { count: 1, callback: 'files.writeFile', target: 'a.txt', total: 2 },
    { count: 2, callback: 'files.writeFile', target: 'a.txt' },
  ]);
  assert.equal(host.files.get('a.txt'), 'a\n');
});

test('a frozen host, or one whose methods need their own this, serves every call', async () => {
  const files = new Map([['a.txt', 'a\n']]);
  const frozen = Object.freeze({
    readFile: (p) => files.get(p) ?? null,
    writeFile: (p, c) => void files.set(p, c),
  });
  class ClassHost {
    #files = files;
    readFile(p) {
      return this.#files.get(p) ?? null;
    }
    writeFile(p, c) {
      this.#files.set(p, c);
    }
  }
  for (const host of [frozen, new ClassHost()]) {
    files.set('a.txt', 'a\n');
    const runner = ek.createToolRunner({ files: host });
    const r = await runner.runDetailed('edit', { path: 'a.txt', old_string: 'a', new_string: 'b' });
    assert.equal(r.isError, false, r.text);
    assert.equal(files.get('a.txt'), 'b\n');
    assert.equal(typeof r.data.undo, 'string');
  }
});

test('an insert of text with a lone surrogate is refused before anything is written', async () => {
  const host = memoryFiles({ 'a.txt': 'a\n' });
  const runner = ek.createToolRunner({ files: host });
  const r = await runner.runDetailed('str_replace_based_edit_tool', {
    command: 'insert',
    path: 'a.txt',
    insert_line: 1,
    insert_text: 'x\ud800',
  });
  assert.equal(r.isError, true);
  assert.equal(r.code, 'INVALID_TEXT');
  assert.equal(host.writes, 0);
});

test('no undo rather than one that could miss: a path with whitespace, a text with a lone CR', async () => {
  for (const [files, call] of [
    [
      { 'x.txt ': 'a\n', 'x.txt': 'a\n' },
      { path: 'x.txt ', old_string: 'a', new_string: 'b' },
    ],
    [{ 'my notes.md': 'a\n' }, { path: 'my notes.md', old_string: 'a', new_string: 'b' }],
    [{ 'cr.txt': 'a\rb\rc\n' }, { path: 'cr.txt', old_string: 'c', new_string: 'C' }],
  ]) {
    const host = memoryFiles(files);
    const runner = ek.createToolRunner({ files: host });
    const r = await runner.runDetailed('edit', call);
    assert.equal(r.isError, false, r.text);
    assert.equal(host.writes, 1);
    assert.equal(r.data.undo, undefined, call.path);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixture, fixtureHost, FIXTURE_FILES, Lute, testing, writes } from './support.mjs';

const P = '20240614083000-a1b2c3d';

/** A diff that rewrites, deletes, inserts and appends in one document. */
function diffFor(doc) {
  const top = doc.tree.children;
  const byId = new Map(doc.blocks.map((b) => [b.id, b]));
  const paragraphs = top.filter((n) => n.type === 'p' && byId.get(n.id).markdown.length > 2);
  const leaves = top.filter((n) => ['p', 'c', 'tb', 't', 'm'].includes(n.type));
  const para = paragraphs[0];
  const doomed = leaves.find((n) => n.id !== para.id);
  const anchor = top.find((n) => n.id !== para.id && n.id !== doomed.id && n.type !== 'h');
  const md = byId.get(para.id).markdown;
  const half = [...md].slice(0, Math.ceil([...md].length / 2)).join('');
  return [
    `@@${para.id}@@`,
    '<<<<<<< SEARCH',
    half,
    '=======',
    `${half}（改）`,
    '>>>>>>> REPLACE',
    '',
    `@@DELETE:${doomed.id}@@`,
    '',
    `@@AFTER:${anchor.id}@@`,
    '插入的段落 😀',
    '',
    '## 新标题',
    '',
    `@@APPEND:${doc.document.id}@@`,
    '文末追加',
  ].join('\n');
}

test('apply then undo restores every fixture document exactly', async () => {
  for (const file of FIXTURE_FILES) {
    const doc = fixture(file);
    const host = fixtureHost();
    const docId = doc.document.id;
    const before = host.snapshot(docId);
    const report = await ek.applyBlockDiff(diffFor(doc), host);
    assert.equal(report.ok, true, `${file}: ${report.summary}`);
    assert.notDeepEqual(host.snapshot(docId), before, file);
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, `${file}: ${undone.summary}\n${report.undo}`);
    assert.deepEqual(host.snapshot(docId), before, `${file}\n${report.undo}`);
  }
});

test('a host that throws on the k-th write: atomic rollback leaves the document as it was', async () => {
  const doc = fixture('doc1-weekly-report.json');
  for (let k = 1; k <= 5; k++) {
    const host = fixtureHost({ batch: false });
    const before = host.snapshot(doc.document.id);
    host.failWriteAt(k);
    const report = await ek.applyBlockDiff(diffFor(doc), host);
    assert.equal(report.ok, false);
    assert.equal(report.rollback.ok, true, `write #${k}`);
    assert.equal(report.rollback.reverted, k - 1, `write #${k}`);
    assert.equal(report.undo, undefined);
    assert.deepEqual(host.snapshot(doc.document.id), before, `write #${k}`);
    const failed = report.results.filter((r) => r.status === 'failed');
    assert.equal(failed.length, 1);
    assert.equal(failed[0].error.code, 'WRITE_FAILED');
  }
});

test('a host that throws on the k-th write: non-atomic report lists the done steps and its undo restores them', async () => {
  const doc = fixture('doc1-weekly-report.json');
  for (let k = 1; k <= 5; k++) {
    const host = fixtureHost({ batch: false });
    const before = host.snapshot(doc.document.id);
    host.failWriteAt(k);
    const report = await ek.applyBlockDiff(diffFor(doc), host, { atomic: false });
    assert.equal(report.ok, false);
    const applied = report.results.filter((r) => r.status === 'applied');
    const failed = report.results.filter((r) => r.status === 'failed');
    assert.equal(failed.length, 1, `write #${k}`);
    // Writes: 1 update, 2 delete, 3–4 the AFTER hunk's two blocks, 5 append.
    // A failed write skips the rest of its own hunk only.
    const doneWrites = writes(host).length - 1;
    assert.equal(doneWrites, k === 3 ? 3 : 4, `write #${k}: every other write happened`);
    assert.equal(applied.length, 3);
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, `write #${k}: ${undone.summary}\n${report.undo}`);
    assert.deepEqual(host.snapshot(doc.document.id), before, `write #${k}`);
  }
});

test('validating a 50-hunk diff makes one flush, one rows batch and one kramdown batch', async () => {
  const host = fixtureHost();
  const hunks = Array.from({ length: 50 }, (_, i) => `@@AFTER:${P}@@\n第 ${i} 段`);
  const report = await ek.applyBlockDiff(hunks.join('\n\n'), host, { dryRun: true });
  assert.equal(report.ok, true);
  assert.equal(report.plan.length, 50);
  // BENCHMARKS §3 with SPEC §3.7 rule 1: every read phase is fresh.
  assert.deepEqual(
    host.calls.map((c) => c.name),
    ['flushTransaction', 'getBlocks', 'getKramdown'],
  );
});

test('two applies running concurrently do not interfere', async () => {
  const host = fixtureHost();
  const slow = Object.create(host);
  for (const name of ['getBlocks', 'getKramdown', 'updateBlock', 'insertBlock']) {
    slow[name] = async (...args) => {
      await new Promise((r) => setTimeout(r, Math.random() * 5));
      return host[name](...args);
    };
  }
  const [a, b] = await Promise.all([
    ek.applyBlockDiff(`@@${P}@@\n<<<<<<< SEARCH\n本周主要\n=======\n这周\n>>>>>>> REPLACE`, slow),
    ek.applyBlockDiff('@@AFTER:20240614083310-p06wert@@\n并发插入', slow),
  ]);
  assert.equal(a.ok, true, a.summary);
  assert.equal(b.ok, true, b.summary);
  assert.match(host.block(P).markdown, /^这周完成了插件/);
});

test('write answers are read by their shape: ids, a list of ids or null; a created document id or { id }', async () => {
  const doc = fixture('doc1-weekly-report.json');
  const para = doc.tree.children.find((n) => n.type === 'p').id;
  const shape =
    'returned data of the wrong shape (expected a block id, a list of block ids, or null)';
  // Each answer is made from the double's own (the new id).
  for (const [answer, ok] of [
    [(ids) => ids, true],
    [(ids) => [].concat(ids)[0], true],
    [(ids) => [].concat(ids), true],
    [() => null, true],
    [(ids) => ({ ids }), false],
    [() => [7], false],
    [() => 42, false],
  ]) {
    const host = fixtureHost({ batch: false });
    const insert = host.insertBlock.bind(host);
    host.insertBlock = async (...args) => answer(await insert(...args));
    const report = await ek.applyBlockDiff(`@@AFTER:${para}@@\n新段落 😀\n`, host);
    assert.equal(report.ok, ok, `${answer}: ${report.summary}`);
    if (!ok) {
      assert.equal(report.results[0].error.code, 'WRITE_FAILED');
      assert.equal(
        report.results[0].error.message,
        `Hunk #1: the write \`insertBlock\` failed: ${shape}`,
      );
    }
  }
  const created =
    'The host callback `createDoc` failed: returned data of the wrong shape (expected a document id, or an object with `id`)';
  for (const [answer, id] of [
    ['20240101090000-abcdefg', '20240101090000-abcdefg'],
    [{ notebook: 'x', id: '20240101090000-abcdefg' }, '20240101090000-abcdefg'],
    [{ id: 5 }, null],
    [{ ID: '20240101090000-abcdefg' }, null],
    [42, null],
  ]) {
    const host = fixtureHost();
    host.createDoc = async () => answer;
    const args = { title: 'T', anchorDocumentId: doc.document.id, location: 'children' };
    const result = await ek.createNewDoc(args, host).catch((e) => e);
    if (id) assert.equal(result.docId, id, JSON.stringify(answer));
    else assert.equal(result.message, created, JSON.stringify(answer));
  }
});

test('a row field of the wrong type is refused with the value it held, quoted and escaped', async () => {
  const id = '20250101000000-aaaaaaa';
  for (const [sort, shown] of [
    ['x', 'string "x"'],
    ['第"1"\n', 'string "第\\"1\\"\\n"'],
    ['\u200b', 'string "\\u{200b}"'],
    [true, 'boolean `true`'],
  ]) {
    const host = {
      getBlocks: () => [{ id, type: 'p', markdown: 'a', sort }],
      getKramdown: () => ['a'],
    };
    const diff = `@@${id}@@\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE`;
    const { ok, error } = await ek.applyBlockDiff(diff, host, { dryRun: true });
    assert.equal(ok, false);
    assert.equal(error.code, 'HOST_ERROR');
    assert.equal(
      error.message,
      `The host callback \`getBlocks\` failed: returned data of the wrong shape (invalid type: ${shown}, expected i64)`,
    );
  }
});

test('host errors become HOST_ERROR with the original error as cause', async () => {
  const boom = new Error('kernel down');
  const host = {
    getBlocks: async () => {
      throw boom;
    },
  };
  // The report's error (one failure channel), the host's own error kept.
  const report = await ek.applyBlockDiff(`@@DELETE:${P}@@`, host);
  assert.equal(report.ok, false);
  assert.deepEqual([report.results, report.plan], [[], []]);
  const e = report.error;
  assert.equal(ek.isEditkitError(e), true);
  assert.equal(e.code, 'HOST_ERROR');
  assert.equal(e.subject, 'getBlocks');
  assert.equal(e.cause, boom);
  assert.match(e.message, /kernel down/);
  assert.equal(report.summary, e.message);
  // Rejections with non-Error values, synchronous throws, malformed data.
  const hostile = [
    { getBlocks: () => Promise.reject('just a string') },
    {
      getBlocks: () => {
        throw 42;
      },
    },
    { getBlocks: async () => 'not an array' },
    { getBlocks: async () => [{ id: 5 }] },
    { getBlocks: async (ids) => ids.map(() => null).concat([null]) },
    { getBlocks: async () => [{ id: P, type: 'p', markdown: 'lone \ud800 surrogate' }] },
  ];
  for (const h of hostile) {
    assert.equal((await ek.applyBlockDiff(`@@DELETE:${P}@@`, h)).error.code, 'HOST_ERROR');
  }
  // A missing callback is named before anything is written.
  await assert.rejects(ek.applyBlockDiff(`@@DELETE:${P}@@`, {}), (e) => {
    assert.equal(e.code, 'HOST_CAPABILITY_MISSING');
    assert.equal(e.subject, 'getBlocks');
    return true;
  });
  assert.equal(ek.version(), ek.version());
});

const MALFORMED = [
  ['', ['EMPTY_DIFF']],
  ['just text', ['EMPTY_DIFF']],
  [
    `@@${P}@@\n<<<<<<< SEARCH\n<<<<<<< SEARCH\nfoo\n=======\nbar\n>>>>>>> REPLACE`,
    ['NESTED_SEARCH'],
  ],
  [`@@${P}@@\n<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\n>>>>>>> REPLACE`, ['NESTED_SEARCH']],
  [`@@${P}@@\n<<<<<<< SEARCH\na\n=======\nnew`, ['UNCLOSED_SEARCH']],
  [`@@${P}@@\n<<<<<<< SEARCH\na\n\n@@DELETE:${P}@@`, ['UNCLOSED_SEARCH']],
  [`@@${P}@@\n<<<<<<< SEARCH\na\n=======\nb\n=======\n>>>>>>> REPLACE`, ['MISPLACED_DELIMITER']],
  ['=======', ['MISPLACED_DELIMITER']],
  [`@@${P}@@\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE`, ['MISSING_DELIMITER']],
  [`@@${P}@@\n>>>>>>> REPLACE`, ['UNMATCHED_REPLACE']],
  ['>>>>>>> REPLACE', ['UNMATCHED_REPLACE']],
  ['<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE', ['SEARCH_WITHOUT_BLOCK_ID']],
  [
    '@@20240614083000-A1B2C3D@@\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE',
    ['INVALID_BLOCK_ID'],
  ],
  ['@@DELETE:2024061408-abc@@', ['INVALID_BLOCK_ID']],
  ['@@DELETE:20240614083000-a1b2c3@@', ['INVALID_BLOCK_ID']],
  [`@@MOVE:${P}@@\nx`, ['UNKNOWN_COMMAND']],
  [`@@insert:${P}@@\nx`, ['UNKNOWN_COMMAND']],
  [`@@AFTER:${P}@@\n\n\n`, ['EMPTY_INSERT']],
  [`@@REPLACE:${P}@@`, ['EMPTY_INSERT']],
  [`@@PREPEND:${P}@@\n   \n@@DELETE:${P}@@`, ['EMPTY_INSERT']],
  [`@@${P}@@\n<<<<<<< SEARCH\n=======\n新内容\n>>>>>>> REPLACE`, ['EMPTY_SEARCH']],
  [`@@${P}@@\n只有内容，没有 SEARCH`, ['MISSING_SEARCH']],
  [
    `@@${P}@@\n<<<<<<< SEARCH\n\`\`\`\n=======\n\`\`\`\n=======\nx\n>>>>>>> REPLACE`,
    ['MISPLACED_DELIMITER'],
  ],
  [
    `@@MOVE:${P}@@\nx\n\n@@${P}@@\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE`,
    ['UNKNOWN_COMMAND', 'MISSING_DELIMITER'],
  ],
  [`\ufeff@@${P}@@\r\n<<<<<<< SEARCH\r\na\r\n>>>>>>> REPLACE\r\n`, ['MISSING_DELIMITER']],
  [`说明😀\n@@${P}@@\n<<<<<<< SEARCH\n中文😀\n=======\n表情🎉`, ['UNCLOSED_SEARCH']],
  ['@@DELETE:202406140830001-a1b2c3d@@', ['INVALID_BLOCK_ID']],
  [
    `@@${P}@@\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n>>>>>>> REPLACE`,
    ['UNMATCHED_REPLACE'],
  ],
  [
    `@@${P}@@\n<<<<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE`,
    ['MISPLACED_DELIMITER', 'UNMATCHED_REPLACE'],
  ],
  [`@@${'PREPEND'}:${P}@@\n@@APPEND:${P}@@\n@@AFTER:${P}@@\nx`, ['EMPTY_INSERT', 'EMPTY_INSERT']],
  [`${'很长的一行文字 😀\n'.repeat(250_000)}@@${P}@@\n<<<<<<< SEARCH\nx`, ['UNCLOSED_SEARCH']],
];

test('30+ malformed diffs give their documented codes and the instance keeps working', async () => {
  assert.ok(MALFORMED.length >= 30);
  const host = fixtureHost();
  for (const [diff, codes] of MALFORMED) {
    const label = diff.slice(0, 80);
    const report = ek.validateBlockDiffFormat(diff, { lang: 'zh' });
    assert.equal(report.valid, false, label);
    assert.deepEqual(
      report.errors.map((e) => e.code),
      codes,
      label,
    );
    assert.throws(
      () => ek.parseBlockDiff(diff),
      (e) => e.code === 'INVALID_DIFF_FORMAT' && e.errors.length === codes.length,
    );
    const applied = await ek.applyBlockDiff(diff, host);
    assert.equal(applied.ok, false, label);
    assert.equal(applied.error.code, 'INVALID_DIFF_FORMAT', label);
    assert.equal(applied.error.errors.length, codes.length, label);
    // The module still works after every refusal.
    assert.equal(ek.validateBlockDiffFormat(`@@DELETE:${P}@@`).valid, true);
  }
  assert.equal(writes(host).length, 0);
});

test('hostile arguments are typed errors, never crashes', async () => {
  const host = fixtureHost();
  const badTexts = [undefined, null, 42, {}, [], Symbol('x'), () => 1, '\udc00', 'ok\ud800'];
  for (const bad of badTexts) {
    assert.throws(
      () => ek.validateBlockDiffFormat(bad),
      (e) => ['INVALID_ARGUMENT', 'INVALID_TEXT'].includes(e.code),
    );
    await assert.rejects(ek.applyBlockDiff(bad, host), (e) =>
      ['INVALID_ARGUMENT', 'INVALID_TEXT'].includes(e.code),
    );
  }
  const throwing = {
    get lang() {
      throw new Error('getter');
    },
  };
  assert.throws(
    () =>
      ek.parseBlockDiff(`@@DELETE:${P}@@`, {
        dryRun: 'yes',
        get x() {
          throw new Error('boom');
        },
      }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(
    () => ek.parseBlockDiff(`@@DELETE:${P}@@`, throwing),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  await assert.rejects(
    ek.applyBlockDiff(`@@DELETE:${P}@@`, host, { dryRun: 'yes' }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  await assert.rejects(
    ek.applyBlockDiff(`@@DELETE:${P}@@`, host, 'options'),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  const ok = await ek.applyBlockDiff(`@@DELETE:${P}@@`, host, { dryRun: true });
  assert.equal(ok.ok, true);
});

test('results carry CJK, emoji and CRLF input intact', async () => {
  const host = fixtureHost();
  const diff = `@@${P}@@\r\n<<<<<<< SEARCH\r\n插件 **diff 编辑**\r\n=======\r\n插件 **差异编辑** 🎉\r\n>>>>>>> REPLACE\r\n`;
  const report = await ek.applyBlockDiff(diff, host, { lang: 'zh' });
  assert.equal(report.ok, true, report.summary);
  assert.equal(
    host.block(P).markdown,
    '本周主要完成了插件 **差异编辑** 🎉 功能的重构，并修复了若干问题。',
  );
  assert.match(report.summary, /已应用/);
});

test('createMemoryHost takes the production path: its batch callbacks make the kernel requests createSiyuanHost makes', async () => {
  const id = (i) => `20240801000000-p${String(i).padStart(6, '0')}`;
  const documents = [
    {
      id: '20240801000000-docreqs',
      title: 'r',
      box: '20240801000000-boxreqs',
      hpath: '/r',
      blocks: Array.from({ length: 50 }, (_, i) => `第 ${i} 段，原来的文字。\n{: id="${id(i)}"}`),
    },
  ];
  const notebooks = [{ id: '20240801000000-boxreqs', name: 'r' }];
  const diff = Array.from(
    { length: 50 },
    (_, i) => `@@${id(i)}@@\n<<<<<<< SEARCH\n原来的文字\n=======\n新的文字 ✅\n>>>>>>> REPLACE`,
  ).join('\n\n');
  const requests = async (batch) => {
    const memory = testing.createMemoryHost({ documents, notebooks, lute: Lute, batch });
    const report = await ek.applyBlockDiff(diff, memory);
    assert.equal(report.ok, true, report.summary);
    assert.equal(memory.block(id(49)).markdown, '第 49 段，新的文字 ✅。');
    const double = testing.createKernelDouble({ documents, notebooks, lute: Lute });
    const adapter = ek.createSiyuanHost({ request: double.request, batch });
    assert.equal((await ek.applyBlockDiff(diff, adapter)).ok, true);
    return [memory.kernel.calls.length, double.calls.length, memory.calls.map((c) => c.name)];
  };
  const [memory, adapter, callbacks] = await requests(undefined);
  assert.equal(memory, adapter);
  assert.ok(memory <= 8, `${memory} requests for 50 hunks`);
  assert.ok(callbacks.includes('updateBlocks'), callbacks.join(' '));
  const [single, adapterSingle] = await requests(false);
  assert.equal(single, adapterSingle);
  assert.ok(single > 50, `block by block: ${single} requests`);
});

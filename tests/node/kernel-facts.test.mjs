// The kernel double against shared/KERNEL-FACTS.md, section by section: each
// test is one fact of the real kernel (v3.7.3) the double must reproduce so
// that a test passing against it would pass against SiYuan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixtureDouble, kernel, Lute, SEED, sql, testing } from './kernel-support.mjs';

const DOC1 = '20240614083000-wk24rep';
const P1 = '20240614083000-a1b2c3d';
const LIST = '20240614083125-lst0a9x';
const LI2 = '20240614083140-li02rty';
const QUOTE = '20240614083420-bq9klmn';
const CLOSING = '20240614083630-p12olp4';
const raw = (double, path, body) => double.request(path, body);
const md = (data) => ({ dataType: 'markdown', data });

test('§1 the SQL view lags the tree: 3-second ticks of the clock or a flush; the tree endpoints see a write at once', async () => {
  const double = fixtureDouble();
  const host = ek.createSiyuanHost({ request: double.request, flush: 'never' });
  // The user types (the editor writes to the tree, not through this host).
  double.editor.updateBlock(P1, '用户刚输入的文字');
  assert.equal(
    (await host.getKramdown([P1]))[0].split('\n')[0],
    '用户刚输入的文字',
    'getBlockKramdown reads the tree',
  );
  assert.notEqual((await host.getBlocks([P1]))[0].markdown, '用户刚输入的文字', 'SQL is stale');
  double.clock.advance(2999);
  assert.notEqual((await host.getBlocks([P1]))[0].markdown, '用户刚输入的文字', 'still stale');
  double.clock.advance(1);
  assert.equal((await host.getBlocks([P1]))[0].markdown, '用户刚输入的文字', 'the timer fired');
  double.editor.updateBlock(P1, '再改');
  assert.equal((await host.getBlocks([P1]))[0].markdown, '用户刚输入的文字');
  await host.flushTransaction();
  assert.equal((await host.getBlocks([P1]))[0].markdown, '再改', 'a flush catches up');
});

test('§2 a write transaction that fails in the queue is answered code 0; only a read after a flush shows it', async () => {
  const double = fixtureDouble();
  const before = double.kramdown(P1);
  double.failNextTransaction('/api/block/updateBlock', 'block tree not found');
  const res = await raw(double, '/api/block/updateBlock', { ...md('新文本'), id: P1 });
  assert.equal(res.code, 0);
  assert.equal(res.data[0].doOperations[0].id, P1, 'the answer looks like success');
  assert.equal(double.kramdown(P1), before, 'nothing changed');
  assert.deepEqual(double.txErrors, ['/api/block/updateBlock: block tree not found']);
  // deleteBlock of an unknown id queues and answers code 0 too.
  const del = await raw(double, '/api/block/deleteBlock', { id: '20990101000000-zzzzzzz' });
  assert.equal(del.code, 0);
});

test('§3 updateBlock keeps the first block only and exactly the IAL the markdown gives (plus id and updated)', async () => {
  const { double, host } = kernel();
  await host.updateBlock(CLOSING, '第一段\n\n第二段');
  const [row] = await host.getBlocks([CLOSING]);
  assert.equal(row.markdown, '第一段');
  assert.ok(!double.kramdown(DOC1).includes('第二段'), 'the rest is dropped');
  assert.deepEqual([row.name, row.alias, row.memo], ['', '', '']);
  // The ial column lists the pairs in a random order (§11): compare them as a set.
  assert.match(
    testing.canonicalIal(row.ial),
    /^\{: id="20240614083630-p12olp4" updated="\d{14}"\}$/,
  );
  await host.updateBlock(CLOSING, '带属性\n{: name="n1" custom-k="v"}');
  const [withIal] = await host.getBlocks([CLOSING]);
  assert.equal(withIal.name, 'n1');
  assert.match(withIal.ial, /custom-k="v"/);
});

test('§3 a container rewritten from plain markdown re-IDs every child, breaking references and dropping their attributes; restated IALs keep them', async () => {
  const { double, host } = kernel();
  // A reference to the second item, an attribute on it.
  double.editor.updateBlock(P1, `参见 ((${LI2} "slice"))。`);
  double.editor.setAttrs(LI2, { bookmark: '重要' });
  double.flush();
  assert.deepEqual(
    await sql(double, `SELECT def_block_id, block_id FROM refs WHERE def_block_id = '${LI2}'`),
    [{ block_id: P1, def_block_id: LI2 }],
  );
  const plain = double
    .kramdown(LIST)
    .replace(/\{:[^}]*\}/g, '')
    .replace(/\n\s*\n/g, '\n\n');
  await host.updateBlock(LIST, plain);
  assert.equal(double.block(LI2), undefined, 'the item got a new id');
  assert.equal(double.block(LIST).type, 'l', 'the list itself keeps its id');
  await host.flushTransaction();
  const refs = await sql(double, `SELECT def_block_id FROM refs WHERE def_block_id = '${LI2}'`);
  assert.equal(refs.length, 1, 'the reference still names the old id…');
  assert.deepEqual(await host.getBlocks([LI2]), [null], '…which no block has any more');
  assert.ok(!double.kramdown(LIST).includes('bookmark'), 'the attribute is gone');

  // The same rewrite with every child's IAL restated keeps them all.
  const { double: d2, host: h2 } = kernel();
  d2.editor.setAttrs(LI2, { bookmark: '重要' });
  const kramdown = d2.kramdown(LIST);
  const oldIds = [...kramdown.matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
  await h2.updateBlock(
    LIST,
    kramdown.replace('实现 slice 分页阅读', '实现 slice 分页阅读（完成）'),
  );
  for (const id of oldIds) assert.ok(d2.block(id), `${id} kept`);
  assert.match(d2.block(LI2).ial, /bookmark="重要"/);
});

test('§3 a list item updated with list markdown takes the first item; an IAL line after it belonged to the dropped list', async () => {
  const { double, host } = kernel();
  await host.updateBlock(LI2, '- 丙\n{: custom-x="1"}');
  assert.equal(double.block(LI2).markdown, '- 丙');
  assert.doesNotMatch(double.block(LI2).ial, /custom-x/, 'the attribute went with the list');
  await host.updateBlock(LI2, '- {: custom-x="1"}丁');
  assert.match(double.block(LI2).ial, /custom-x="1"/, 'written after the marker, it stays');
  // Text without a list marker goes straight into the list in the item's place.
  await host.updateBlock(LI2, '没有列表标记');
  assert.equal(double.block(LI2).type, 'p');
  assert.equal(double.block(LI2).parent_id, LIST);
});

test('§3 headings update their own line only; a document update replaces every child', async () => {
  const { double, host } = kernel();
  const h3 = '20240614083300-h3bk2nd';
  const before = (await host.getChildBlocks([h3]))[0].map((c) => c.id);
  await host.updateBlock(h3, '### 后端（改）');
  assert.equal(double.block(h3).markdown, '### 后端（改）');
  assert.deepEqual(
    (await host.getChildBlocks([h3]))[0].map((c) => c.id),
    before,
  );
  const top = double.topLevel(DOC1).length;
  const res = await raw(double, '/api/block/updateBlock', { ...md('唯一一段'), id: DOC1 });
  const ops = res.data[0].doOperations;
  assert.equal(ops.filter((o) => o.action === 'delete').length, top, 'one delete per child');
  assert.equal(ops.at(-1).action, 'appendInsert');
  assert.deepEqual(
    double.snapshot(DOC1).map((b) => b.markdown),
    ['唯一一段'],
  );
});

test('§4 insertBlock: nextID wins over previousID over parentID; an unknown anchor answers code 0 with an empty id; every block of the markdown is inserted, the first one reported', async () => {
  const { double } = kernel();
  const both = await raw(double, '/api/block/insertBlock', {
    ...md('在前'),
    nextID: P1,
    previousID: CLOSING,
  });
  const id = both.data[0].doOperations[0].id;
  const order = double.snapshot(DOC1).map((b) => b.id);
  assert.equal(order[order.indexOf(P1) - 1], id);
  const unknown = await raw(double, '/api/block/insertBlock', {
    ...md('x'),
    previousID: '20990101000000-zzzzzzz',
  });
  assert.equal(unknown.code, 0);
  assert.equal(unknown.data[0].doOperations[0].id, '');
  const many = await raw(double, '/api/block/insertBlock', {
    ...md('甲\n\n乙\n\n丙'),
    previousID: P1,
  });
  assert.equal(many.data[0].doOperations.length, 1);
  const texts = double.snapshot(DOC1).map((b) => b.markdown);
  const at = texts.indexOf('甲');
  assert.deepEqual(texts.slice(at, at + 3), ['甲', '乙', '丙'], 'all three are there');
});

test('§4 deleteBlock removes that block only (a heading keeps its section); an emptied list item keeps a new empty paragraph', async () => {
  const { double, host } = kernel();
  const h3 = '20240614083300-h3bk2nd';
  const section = (await host.getChildBlocks([h3]))[0].map((c) => c.id);
  await host.deleteBlock(h3);
  await host.flushTransaction();
  assert.equal(double.block(h3), undefined);
  for (const id of section) assert.ok(double.block(id), `${id} stays`);
  const li1 = '20240614083125-li01qwe';
  await host.deleteBlock('20240614083125-p01asdf');
  await host.flushTransaction();
  const [kids] = await host.getChildBlocks([li1]);
  assert.equal(kids.length, 1);
  assert.equal(kids[0].type, 'p');
  assert.notEqual(kids[0].id, '20240614083125-p01asdf');
  assert.equal(kids[0].markdown, undefined);
});

test('§5 ids written in an IAL are trusted: a taken id makes a duplicate, a malformed one is refused with code -1', async () => {
  const { double } = kernel();
  const dup = await raw(double, '/api/block/insertBlock', {
    ...md(`复制来的段落\n{: id="${P1}"}`),
    previousID: CLOSING,
  });
  assert.equal(dup.code, 0);
  assert.equal(dup.data[0].doOperations[0].id, P1);
  assert.equal(double.countId(P1), 2, 'the write saved two blocks with one id (§9: until a load)');
  const bad = await raw(double, '/api/block/insertBlock', {
    ...md('x\n{: id="not-an-id-at-all"}'),
    previousID: CLOSING,
  });
  assert.deepEqual(
    [bad.code, bad.msg],
    [-1, 'data block DOM failed: found invalid ID [not-an-id-at-all]'],
  );
  // A copy loses its flashcard and database attributes on insert.
  const copy = await raw(double, '/api/block/insertBlock', {
    ...md('卡片\n{: id="20990101000000-card001" custom-riff-decks="d1" custom-avs="a1" name="n"}'),
    previousID: CLOSING,
  });
  assert.equal(copy.code, 0);
  assert.equal(
    double.block('20990101000000-card001').ial,
    '{: id="20990101000000-card001" name="n" updated="20990101000000"}',
  );
});

test('§7 SQL: the implicit LIMIT is the search limit, explicit LIMITs hold, errors answer code 1, one statement unless mode is "multiple"', async () => {
  const double = fixtureDouble();
  assert.equal((await sql(double, 'SELECT * FROM blocks')).length, 64);
  assert.ok((await sql(double, 'SELECT id FROM blocks LIMIT 500')).length > 64);
  const small = fixtureDouble({ searchLimit: 32 });
  assert.equal((await sql(small, 'SELECT * FROM blocks')).length, 32);
  for (const bad of [
    'DELETE FROM blocks',
    "SELECT * FROM blocks WHERE id = '1' OR 1=1",
    'SELECT nope FROM blocks',
    'SELECT * FROM nowhere',
  ]) {
    const res = await raw(double, '/api/query/sql', { stmt: bad });
    assert.equal(res.code, 1, bad);
  }
  const two = "SELECT id FROM blocks WHERE id = 'a'; SELECT id FROM blocks WHERE id = 'b'";
  assert.equal((await raw(double, '/api/query/sql', { stmt: two })).code, 1);
  assert.equal((await raw(double, '/api/query/sql', { stmt: two, mode: 'multiple' })).code, 0);
  const rows = await sql(
    double,
    `SELECT id, type FROM blocks WHERE id IN ('20240614083300-h3bk2nd', '${P1}') LIMIT 2`,
  );
  assert.deepEqual(
    rows.map((r) => r.id),
    [P1, '20240614083300-h3bk2nd'],
    'index order, not IN order',
  );
  assert.deepEqual(Object.keys(rows[0]), ['id', 'type'], 'keys sorted as Go encodes a map');
});

test('§8 response shapes: unknown ids give [] for child lists, breadcrumbs and outlines, "" for kramdown', async () => {
  const double = fixtureDouble();
  const nobody = '20990101000000-zzzzzzz';
  for (const [path, empty] of [
    ['/api/block/getChildBlocks', []],
    ['/api/block/getBlockBreadcrumb', []],
    ['/api/outline/getDocOutline', []],
  ]) {
    const res = await raw(double, path, { id: nobody });
    assert.deepEqual([res.code, res.data], [0, empty], path);
  }
  const k = await raw(double, '/api/block/getBlockKramdown', { id: nobody });
  assert.deepEqual(k.data, { id: nobody, kramdown: '' });
  // The outline leaves out headings inside blockquotes and callouts.
  const { host } = kernel();
  await host.appendBlock(QUOTE, '## 引用里的标题');
  const outline = (await raw(double, '/api/outline/getDocOutline', { id: DOC1 })).data;
  assert.ok(!JSON.stringify(outline).includes('引用里的标题'));
});

test('§8 createDocWithMd: a parentID is used only when the hpath sits under it, else the hpath decides; titles lose tabs and newlines', async () => {
  const { double, host } = kernel();
  const box = '20240101090000-k3m9xzq';
  // parentID of /项目周报 but an hpath under /开发笔记: the hpath wins.
  const id = await host.createDoc({
    notebook: box,
    path: '/开发笔记/新文档',
    markdown: '正文',
    parentID: DOC1,
  });
  assert.equal(double.block(id).hpath, '/开发笔记/新文档');
  assert.ok(double.block(id).path.startsWith('/20240601090000-p0rtf1a/'));
  // An unknown parentID is no error either; missing parents are created.
  const id2 = await host.createDoc({
    notebook: box,
    path: '/新目录/子\t文档\n',
    markdown: '',
    parentID: '20990101000000-zzzzzzz',
  });
  assert.equal(double.block(id2).hpath, '/新目录/子文档');
  const parents = await sql(
    double,
    "SELECT hpath FROM blocks WHERE type = 'd' AND hpath LIKE '/新目录%' ORDER BY hpath LIMIT 5",
  );
  await host.flushTransaction();
  assert.deepEqual(
    (
      await sql(
        double,
        "SELECT hpath FROM blocks WHERE type = 'd' AND hpath LIKE '/新目录%' ORDER BY hpath LIMIT 5",
      )
    ).map((r) => r.hpath),
    ['/新目录', '/新目录/子文档'],
  );
  assert.ok(parents.length <= 2);
});

test("§8 createDailyNote: the notebook's save path in the kernel's local date, the template's content, an existing note found by hpath", async () => {
  const notebook = {
    id: '20240101090000-k3m9xzq',
    name: '工作笔记',
    dailyNoteSavePath: '/日记/{{now | date "2006"}}/{{now | date "2006-01-02"}}',
    dailyNoteTemplate: '## 今日\n\n- [ ] 待办',
  };
  // 2025-03-09 23:30 UTC: in UTC+8 that is already the 10th.
  const at = new Date(Date.UTC(2025, 2, 9, 23, 30));
  const utc = testing.createKernelDouble({ notebooks: [notebook], lute: Lute, now: () => at });
  const local = testing.createKernelDouble({
    notebooks: [notebook],
    lute: Lute,
    now: () => at,
    utc: false,
  });
  const host = ek.createSiyuanHost({ request: utc.request });
  const id = await host.createDailyNote({ notebook: notebook.id });
  assert.equal(utc.block(id).hpath, '/日记/2025/2025-03-09');
  assert.deepEqual(
    utc.topLevel(id).map((b) => utc.block(b).markdown),
    ['## 今日', '- [ ] 待办'],
  );
  assert.equal(await host.createDailyNote({ notebook: notebook.id }), id, 'found by hpath');
  const localId = await ek
    .createSiyuanHost({ request: local.request })
    .createDailyNote({ notebook: notebook.id });
  const p = (n) => String(n).padStart(2, '0');
  assert.equal(
    local.block(localId).hpath,
    `/日记/${at.getFullYear()}/${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`,
    'the local date of the machine',
  );
  const unknown = await raw(utc, '/api/filetree/createDailyNote', {
    notebook: '20990101000000-zzzzzzz',
  });
  assert.equal(unknown.code, 1);
  const blank = testing.createKernelDouble({
    notebooks: [{ ...notebook, dailyNoteSavePath: '/' }],
    lute: Lute,
  });
  assert.notEqual(
    (await raw(blank, '/api/filetree/createDailyNote', { notebook: notebook.id })).code,
    0,
  );
});

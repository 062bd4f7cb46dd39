// The kernel double against shared/KERNEL-FACTS.md, section by section: each
// test is one fact of the real kernel (v3.7.3) the double must reproduce so
// that a test passing against it would pass against SiYuan.
import assert from 'node:assert/strict';
import {
  createKernel,
  ek,
  fixtureDouble,
  kernel,
  kernelTest,
  Lute,
  SEED,
  sql,
  testing,
} from './kernel-support.mjs';

const DOC1 = '20240614083000-wk24rep';
const P1 = '20240614083000-a1b2c3d';
const LIST = '20240614083125-lst0a9x';
const LI2 = '20240614083140-li02rty';
const QUOTE = '20240614083420-bq9klmn';
const CLOSING = '20240614083630-p12olp4';
const raw = (double, path, body) => double.request(path, body);
const md = (data) => ({ dataType: 'markdown', data });

kernelTest(
  '§1 the SQL view lags the tree: 3-second ticks of the clock or a flush; the tree endpoints see a write at once',
  async () => {
    const double = await fixtureDouble();
    const host = ek.createSiyuanHost({ request: double.request, flush: 'never' });
    // The user types (the editor writes to the tree, not through this host).
    await double.editor.updateBlock(P1, '用户刚输入的文字');
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
    await double.editor.updateBlock(P1, '再改');
    assert.equal((await host.getBlocks([P1]))[0].markdown, '用户刚输入的文字');
    await host.flushTransaction();
    assert.equal((await host.getBlocks([P1]))[0].markdown, '再改', 'a flush catches up');
  },
);

kernelTest(
  '§2 a write transaction that fails in the queue is answered code 0; only a read after a flush shows it',
  async () => {
    const double = await fixtureDouble();
    const before = await double.kramdown(P1);
    double.failNextTransaction('/api/block/updateBlock', 'block tree not found');
    const res = await raw(double, '/api/block/updateBlock', { ...md('新文本'), id: P1 });
    assert.equal(res.code, 0);
    assert.equal(res.data[0].doOperations[0].id, P1, 'the answer looks like success');
    assert.equal(await double.kramdown(P1), before, 'nothing changed');
    assert.deepEqual(double.txErrors, ['/api/block/updateBlock: block tree not found']);
    // deleteBlock of an unknown id queues and answers code 0 too.
    const del = await raw(double, '/api/block/deleteBlock', { id: '20990101000000-zzzzzzz' });
    assert.equal(del.code, 0);
  },
);

kernelTest(
  '§3 updateBlock keeps the first block only and exactly the IAL the markdown gives (plus id and updated)',
  async () => {
    const { double, host } = await kernel();
    await host.updateBlock(CLOSING, '第一段\n\n第二段');
    const [row] = await host.getBlocks([CLOSING]);
    assert.equal(row.markdown, '第一段');
    assert.ok(!(await double.kramdown(DOC1)).includes('第二段'), 'the rest is dropped');
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
  },
);

kernelTest(
  '§3 a container rewritten from plain markdown re-IDs every child, breaking references and dropping their attributes; restated IALs keep them',
  async () => {
    const { double, host } = await kernel();
    // A reference to the second item, an attribute on it.
    await double.editor.updateBlock(P1, `参见 ((${LI2} "slice"))。`);
    await double.editor.setAttrs(LI2, { bookmark: '重要' });
    await double.flush();
    assert.deepEqual(
      await sql(double, `SELECT def_block_id, block_id FROM refs WHERE def_block_id = '${LI2}'`),
      [{ block_id: P1, def_block_id: LI2 }],
    );
    const plain = (await double.kramdown(LIST))
      .replace(/\{:[^}]*\}/g, '')
      .replace(/\n\s*\n/g, '\n\n');
    await host.updateBlock(LIST, plain);
    assert.equal(await double.block(LI2), undefined, 'the item got a new id');
    assert.equal((await double.block(LIST)).type, 'l', 'the list itself keeps its id');
    await host.flushTransaction();
    const refs = await sql(double, `SELECT def_block_id FROM refs WHERE def_block_id = '${LI2}'`);
    assert.equal(refs.length, 1, 'the reference still names the old id…');
    assert.deepEqual(await host.getBlocks([LI2]), [null], '…which no block has any more');
    assert.ok(!(await double.kramdown(LIST)).includes('bookmark'), 'the attribute is gone');

    // The same rewrite with every child's IAL restated keeps them all.
    const { double: d2, host: h2 } = await kernel();
    await d2.editor.setAttrs(LI2, { bookmark: '重要' });
    const kramdown = await d2.kramdown(LIST);
    const oldIds = [...kramdown.matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
    await h2.updateBlock(
      LIST,
      kramdown.replace('实现 slice 分页阅读', '实现 slice 分页阅读（完成）'),
    );
    for (const id of oldIds) assert.ok(await d2.block(id), `${id} kept`);
    assert.match((await d2.block(LI2)).ial, /bookmark="重要"/);
  },
);

kernelTest(
  '§3 a list item updated with list markdown takes the first item; an IAL line after it belonged to the dropped list',
  async () => {
    const { double, host } = await kernel();
    await host.updateBlock(LI2, '- 丙\n{: custom-x="1"}');
    assert.equal((await double.block(LI2)).markdown, '- 丙');
    assert.doesNotMatch(
      (await double.block(LI2)).ial,
      /custom-x/,
      'the attribute went with the list',
    );
    await host.updateBlock(LI2, '- {: custom-x="1"}丁');
    assert.match(
      (await double.block(LI2)).ial,
      /custom-x="1"/,
      'written after the marker, it stays',
    );
    // Text without a list marker goes straight into the list in the item's place.
    await host.updateBlock(LI2, '没有列表标记');
    assert.equal((await double.block(LI2)).type, 'p');
    assert.equal((await double.block(LI2)).parent_id, LIST);
  },
);

kernelTest(
  '§3 headings update their own line only; a document update replaces every child',
  async () => {
    const { double, host } = await kernel();
    const h3 = '20240614083300-h3bk2nd';
    const before = (await host.getChildBlocks([h3]))[0].map((c) => c.id);
    await host.updateBlock(h3, '### 后端（改）');
    assert.equal((await double.block(h3)).markdown, '### 后端（改）');
    assert.deepEqual(
      (await host.getChildBlocks([h3]))[0].map((c) => c.id),
      before,
    );
    const top = (await double.topLevel(DOC1)).length;
    const res = await raw(double, '/api/block/updateBlock', { ...md('唯一一段'), id: DOC1 });
    const ops = res.data[0].doOperations;
    assert.equal(ops.filter((o) => o.action === 'delete').length, top, 'one delete per child');
    assert.equal(ops.at(-1).action, 'appendInsert');
    assert.deepEqual(
      (await double.snapshot(DOC1)).map((b) => b.markdown),
      ['唯一一段'],
    );
  },
);

kernelTest(
  '§4 insertBlock: nextID wins over previousID over parentID; an unknown anchor answers code 0 with an empty id; every block of the markdown is inserted, the first one reported',
  async () => {
    const { double } = await kernel();
    const both = await raw(double, '/api/block/insertBlock', {
      ...md('在前'),
      nextID: P1,
      previousID: CLOSING,
    });
    const id = both.data[0].doOperations[0].id;
    const order = (await double.snapshot(DOC1)).map((b) => b.id);
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
    const texts = (await double.snapshot(DOC1)).map((b) => b.markdown);
    const at = texts.indexOf('甲');
    assert.deepEqual(texts.slice(at, at + 3), ['甲', '乙', '丙'], 'all three are there');
  },
);

kernelTest(
  '§4 deleteBlock removes that block only (a heading keeps its section); an emptied list item keeps a new empty paragraph',
  async () => {
    const { double, host } = await kernel();
    const h3 = '20240614083300-h3bk2nd';
    const section = (await host.getChildBlocks([h3]))[0].map((c) => c.id);
    await host.deleteBlock(h3);
    await host.flushTransaction();
    assert.equal(await double.block(h3), undefined);
    for (const id of section) assert.ok(await double.block(id), `${id} stays`);
    const li1 = '20240614083125-li01qwe';
    await host.deleteBlock('20240614083125-p01asdf');
    await host.flushTransaction();
    const [kids] = await host.getChildBlocks([li1]);
    assert.equal(kids.length, 1);
    assert.equal(kids[0].type, 'p');
    assert.notEqual(kids[0].id, '20240614083125-p01asdf');
    assert.equal(kids[0].markdown, undefined);
  },
);

kernelTest(
  '§5 ids written in an IAL are trusted: a taken id makes a duplicate, a malformed one is refused with code -1',
  async () => {
    const { double } = await kernel();
    const dup = await raw(double, '/api/block/insertBlock', {
      ...md(`复制来的段落\n{: id="${P1}"}`),
      previousID: CLOSING,
    });
    assert.equal(dup.code, 0);
    assert.equal(dup.data[0].doOperations[0].id, P1);
    assert.equal(
      await double.countId(P1),
      2,
      'the write saved two blocks with one id (§9: until a load)',
    );
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
      ...md(
        '卡片\n{: id="20990101000000-card001" custom-riff-decks="d1" custom-avs="a1" name="n"}',
      ),
      previousID: CLOSING,
    });
    assert.equal(copy.code, 0);
    assert.equal(
      (await double.block('20990101000000-card001')).ial,
      '{: id="20990101000000-card001" name="n" updated="20990101000000"}',
    );
  },
);

kernelTest(
  '§7 SQL: the implicit LIMIT is the search limit, explicit LIMITs hold, errors answer code 1, one statement unless mode is "multiple"',
  async () => {
    const double = await fixtureDouble();
    assert.equal((await sql(double, 'SELECT * FROM blocks')).length, 64);
    assert.ok((await sql(double, 'SELECT id FROM blocks LIMIT 500')).length > 64);
    const small = await fixtureDouble({ searchLimit: 32 });
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
  },
);

kernelTest(
  '§8 response shapes: unknown ids give [] for child lists, breadcrumbs and outlines, "" for kramdown',
  async () => {
    const double = await fixtureDouble();
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
    const { host } = await kernel();
    await host.appendBlock(QUOTE, '## 引用里的标题');
    const outline = (await raw(double, '/api/outline/getDocOutline', { id: DOC1 })).data;
    assert.ok(!JSON.stringify(outline).includes('引用里的标题'));
  },
);

kernelTest(
  '§8 createDocWithMd: a parentID is used only when the hpath sits under it, else the hpath decides; titles lose tabs and newlines',
  async () => {
    const { double, host } = await kernel();
    const box = '20240101090000-k3m9xzq';
    // parentID of /项目周报 but an hpath under /开发笔记: the hpath wins.
    const id = await host.createDoc({
      notebook: box,
      path: '/开发笔记/新文档',
      markdown: '正文',
      parentID: DOC1,
    });
    assert.equal((await double.block(id)).hpath, '/开发笔记/新文档');
    assert.ok((await double.block(id)).path.startsWith('/20240601090000-p0rtf1a/'));
    // An unknown parentID is no error either; missing parents are created.
    const id2 = await host.createDoc({
      notebook: box,
      path: '/新目录/子\t文档\n',
      markdown: '',
      parentID: '20990101000000-zzzzzzz',
    });
    assert.equal((await double.block(id2)).hpath, '/新目录/子文档');
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
  },
);

kernelTest(
  "§8 createDailyNote: the notebook's save path in the kernel's local date, the template's content, an existing note found by hpath",
  async () => {
    const notebook = {
      id: '20240101090000-k3m9xzq',
      name: '工作笔记',
      dailyNoteSavePath: '/日记/{{now | date "2006"}}/{{now | date "2006-01-02"}}',
      dailyNoteTemplate: '## 今日\n\n- [ ] 待办',
    };
    // 2025-03-09 23:30 UTC: in UTC+8 that is already the 10th.
    const at = new Date(Date.UTC(2025, 2, 9, 23, 30));
    const utc = await createKernel({ notebooks: [notebook], lute: Lute, now: () => at });
    const local = await createKernel({
      notebooks: [notebook],
      lute: Lute,
      now: () => at,
      utc: false,
    });
    const host = ek.createSiyuanHost({ request: utc.request });
    const id = await host.createDailyNote({ notebook: notebook.id });
    assert.equal((await utc.block(id)).hpath, '/日记/2025/2025-03-09');
    assert.deepEqual(
      await Promise.all((await utc.topLevel(id)).map(async (b) => (await utc.block(b)).markdown)),
      ['## 今日', '- [ ] 待办'],
    );
    assert.equal(await host.createDailyNote({ notebook: notebook.id }), id, 'found by hpath');
    const localId = await ek
      .createSiyuanHost({ request: local.request })
      .createDailyNote({ notebook: notebook.id });
    const p = (n) => String(n).padStart(2, '0');
    assert.equal(
      (await local.block(localId)).hpath,
      `/日记/${at.getFullYear()}/${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`,
      'the local date of the machine',
    );
    const unknown = await raw(utc, '/api/filetree/createDailyNote', {
      notebook: '20990101000000-zzzzzzz',
    });
    assert.equal(unknown.code, 1);
    const blank = await createKernel({
      notebooks: [{ ...notebook, dailyNoteSavePath: '/' }],
      lute: Lute,
    });
    assert.notEqual(
      (await raw(blank, '/api/filetree/createDailyNote', { notebook: notebook.id })).code,
      0,
    );
  },
);

// ---------------------------------------------------------------------------
// Revision 3 (KERNEL-FACTS §9–§12 and the kernel notes): the pessimistic double.

const DOC2 = '20240615100000-sy9plg2';
const DOC4 = '20240615073000-dn0615a';
const SUPER = '20240615100050-sb0row1';
const TASK_LIST = '20240615100150-lsttask';
const TASK_ITEM = '20240615100205-li2todo';
const TASK_P = '20240615100205-p6todo2';
const LI1 = '20240614083125-li01qwe';
const FOLDED = '20240615073010-dh1todo';
const { canonicalIal } = testing;
const kramdownOf = async (double, id) =>
  (await raw(double, '/api/block/getBlockKramdown', { id })).data.kramdown;
const childIds = async (double, id) =>
  (await raw(double, '/api/block/getChildBlocks', { id })).data.map((c) => c.id);
/** The key order of every IAL in a text. */
const keyOrders = (text) =>
  [...text.matchAll(/\{:([^}]*)\}/g)].map((m) =>
    [...m[1].matchAll(/([\w-]+)="/g)].map((x) => x[1]),
  );
const flush = (double) => raw(double, '/api/sqlite/flushTransaction', {});
/** A double over markdown documents only. */
const mdDouble = (blocks, options = {}) =>
  createKernel({
    documents: [
      {
        id: '20250101000000-docmd01',
        title: 'M',
        box: '20250101000000-box0001',
        hpath: '/M',
        blocks,
      },
    ],
    lute: Lute,
    ...options,
  });
const MD_DOC = '20250101000000-docmd01';

kernelTest(
  'seed: createKernelDouble({ seed }) drives one PRNG (default 1); the same seed replays the same reads',
  async () => {
    assert.equal((await createKernel({ lute: Lute })).seed, 1);
    assert.equal((await fixtureDouble()).seed, SEED, 'the helpers take EDITKIT_DOUBLE_SEED');
    const reads = async (seed) => {
      const double = await fixtureDouble({ seed });
      assert.equal(double.seed, seed);
      const out = [];
      for (let i = 0; i < 8; i++) out.push(await kramdownOf(double, CLOSING));
      return out;
    };
    assert.deepEqual(await reads(7), await reads(7), 'same seed, same orders');
    assert.notDeepEqual(await reads(7), await reads(8), 'another seed, other orders');
  },
);

kernelTest(
  '§11 attribute order: every getBlockKramdown lists each IAL in a fresh random order, the SQL ial column when the row is written, setBlockAttrs rebuilds randomly; double.kramdown stays stable',
  async () => {
    const double = await fixtureDouble();
    const seen = new Set();
    const canon = new Set();
    for (let i = 0; i < 12; i++) {
      const k = await kramdownOf(double, LIST);
      seen.add(JSON.stringify(keyOrders(k)));
      canon.add(canonicalIal(k));
    }
    assert.ok(seen.size > 1, 'orders differ between reads');
    assert.equal(canon.size, 1, 'the same attributes every time');
    assert.equal(await double.kramdown(LIST), await double.kramdown(LIST), 'the lever is stable');
    // The ial column of a block is written when its row is: a re-indexing
    // keeps the rows of blocks whose hash did not change (kernel
    // `sql/upsert.go` upsertTree; live on v3.7.3: eight writes of another
    // block, one order).
    const orders = new Set();
    for (let i = 0; i < 8; i++) {
      await double.editor.updateBlock(P1, `第 ${i} 版`);
      await double.flush();
      const [row] = await sql(double, `SELECT ial FROM blocks WHERE id = '${CLOSING}'`);
      orders.add(row.ial);
    }
    assert.equal(orders.size, 1, 'the row of an unchanged block is kept at re-indexing');
    // setBlockAttrs rebuilds the IAL from a map.
    const stored = new Set();
    for (let i = 0; i < 8; i++) {
      await raw(double, '/api/attr/setBlockAttrs', {
        id: CLOSING,
        attrs: { 'custom-n': String(i) },
      });
      stored.add(JSON.stringify(keyOrders(await double.kramdown(CLOSING))));
    }
    assert.ok(stored.size > 1);
    // double.attrs compares attributes as a set.
    assert.deepEqual(await double.attrs(CLOSING), {
      alias: '结语,结束语',
      'custom-n': '7',
      id: CLOSING,
      memo: '周报结尾',
      name: 'closing',
      updated: '20240614183512',
    });
  },
);

kernelTest(
  '§9 loads drop emptied containers (list, item, quote, super block; not a callout, not a task item); the stale block-tree row lets a prepend/append through and the transaction fails: code 0, empty id, nothing written',
  async () => {
    const double = await fixtureDouble();
    // Empty the blockquote; the load after the delete drops it.
    await raw(double, '/api/block/deleteBlock', { id: '20240614083420-p07yuio' });
    await raw(double, '/api/block/deleteBlock', { id: '20240614083435-p08ghjk' });
    await flush(double);
    assert.ok(!(await childIds(double, DOC1)).includes(QUOTE), 'the quote is gone at load');
    assert.equal((await double.indexedBlock(QUOTE)).type, 'b', 'the SQL view keeps its stale row…');
    for (const path of ['/api/block/appendBlock', '/api/block/prependBlock']) {
      const res = await raw(double, path, { ...md('放回去'), parentID: QUOTE });
      assert.equal(res.code, 0, `${path}: the block tree still has the quote`);
      assert.equal(res.data[0].doOperations[0].id, '', `${path}: the op id stays empty`);
    }
    const byParent = await raw(double, '/api/block/insertBlock', {
      ...md('放回去'),
      parentID: QUOTE,
    });
    assert.deepEqual([byParent.code, byParent.data[0].doOperations[0].id], [0, '']);
    assert.ok(!(await double.kramdown(DOC1)).includes('放回去'), 'nothing written');
    assert.equal(double.txErrors.length, 3);
    // A list whose only item went, and items: a plain one gets a paragraph,
    // a task item keeps its checkbox and survives with no block.
    const d4 = await fixtureDouble();
    await raw(d4, '/api/block/deleteBlock', { id: '20240615073020-dli1abc' });
    await flush(d4);
    assert.ok(
      !(await childIds(d4, DOC4)).includes('20240615073020-dl0todo'),
      'the empty list is gone',
    );
    await raw(d4, '/api/block/deleteBlock', { id: TASK_P });
    await flush(d4);
    assert.ok((await childIds(d4, TASK_LIST)).includes(TASK_ITEM), 'the task item survives');
    assert.deepEqual(await childIds(d4, TASK_ITEM), [], 'with no block: no placeholder');
    // A super block emptied: gone. A callout emptied: stays.
    const d2 = await fixtureDouble();
    await raw(d2, '/api/block/deleteBlock', { id: '20240615100050-p2left0' });
    await raw(d2, '/api/block/deleteBlock', { id: '20240615100105-sb1col2' });
    await flush(d2);
    assert.ok(!(await childIds(d2, DOC2)).includes(SUPER), 'the super block is gone');
    const callout = (
      await raw(d2, '/api/block/appendBlock', { ...md('> [!NOTE]\n> 甲\n>\n> 乙'), parentID: DOC2 })
    ).data[0].doOperations[0].id;
    for (const id of await childIds(d2, callout)) await raw(d2, '/api/block/deleteBlock', { id });
    await flush(d2);
    assert.ok((await childIds(d2, DOC2)).includes(callout), 'the emptied callout stays');
  },
);

kernelTest(
  '§9 a document a delete leaves with no block is saved with a new empty paragraph, whose id every later read gives',
  async () => {
    // Kernel filesys/tree.go prepareWriteTree (confirmed live on v3.7.3);
    // dataparser's load-time paragraph is for a file saved empty.
    const double = await mdDouble(['唯一的段落']);
    const [only] = await childIds(double, MD_DOC);
    await raw(double, '/api/block/deleteBlock', { id: only });
    await flush(double);
    const first = await childIds(double, MD_DOC);
    const second = await childIds(double, MD_DOC);
    assert.equal(first.length, 1);
    assert.notEqual(first[0], only);
    assert.deepEqual(second, first, 'the same id at every load');
    assert.match(await kramdownOf(double, first[0]), /^\{: (id|updated)="/, 'empty');
    const res = await raw(double, '/api/block/appendBlock', { ...md('新段落'), parentID: MD_DOC });
    const kids = await childIds(double, MD_DOC);
    assert.deepEqual(kids, [first[0], res.data[0].doOperations[0].id]);
  },
);

kernelTest(
  '§9 duplicate ids: the later occurrence gets a new random id at every load until a write saves the document; the SQL view keeps both rows until re-indexed',
  async () => {
    const double = await fixtureDouble();
    await raw(double, '/api/block/insertBlock', {
      ...md(`复制来的段落\n{: id="${P1}"}`),
      previousID: CLOSING,
    });
    await flush(double);
    assert.equal((await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length, 2);
    const copyId = async () => {
      const kids = (await raw(double, '/api/block/getChildBlocks', { id: DOC1 })).data;
      return kids.find((c) => c.markdown === '复制来的段落').id;
    };
    const a = await copyId();
    const b = await copyId();
    assert.notEqual(a, P1, 'the later occurrence is re-IDed');
    assert.notEqual(a, b, 'with a new random id at each load');
    assert.equal(await double.countId(P1), 1);
    assert.equal(
      (await kramdownOf(double, P1)).split('\n')[0],
      (await double.kramdown(P1)).split('\n')[0],
    );
    assert.ok(
      (await kramdownOf(double, P1)).startsWith('本周主要完成了'),
      'the id finds the first',
    );
    assert.equal(await kramdownOf(double, a), '', 'an id of an earlier load is gone');
    // A write to the document saves it: the id the copy has then sticks.
    await raw(double, '/api/block/updateBlock', { ...md('改了'), id: CLOSING });
    const c = await copyId();
    assert.equal(await copyId(), c);
    assert.equal(
      (await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length,
      2,
      'stale',
    );
    await flush(double);
    assert.equal((await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length, 1);
    assert.equal((await sql(double, `SELECT id FROM blocks WHERE id = '${c}'`)).length, 1);
  },
);

kernelTest(
  '§10 deleteBlock answers before its transaction runs: reads still see the block until the next write, a flush, setBlockAttrs or 50 ms of the clock',
  async () => {
    const double = await fixtureDouble();
    const res = await raw(double, '/api/block/deleteBlock', { id: P1 });
    assert.deepEqual(res.data[0].timestamp, 0);
    assert.deepEqual(
      [res.data[0].doOperations[0].action, res.data[0].doOperations[0].id],
      ['delete', P1],
    );
    assert.notEqual(await kramdownOf(double, P1), '', 'getBlockKramdown still has it');
    assert.ok((await childIds(double, DOC1)).includes(P1), 'so do child lists');
    assert.equal((await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length, 1);
    // The next write runs it first.
    await raw(double, '/api/block/updateBlock', { ...md('结语'), id: CLOSING });
    assert.equal(await kramdownOf(double, P1), '');
    // The clock: the queue's 50 ms tick.
    await raw(double, '/api/block/deleteBlock', { id: CLOSING });
    double.clock.advance(49);
    assert.notEqual(await kramdownOf(double, CLOSING), '');
    double.clock.advance(1);
    assert.equal(await kramdownOf(double, CLOSING), '');
    // setBlockAttrs flushes the queue first.
    await raw(double, '/api/block/deleteBlock', { id: LI2 });
    await raw(double, '/api/attr/setBlockAttrs', { id: LIST, attrs: { 'custom-a': '1' } });
    assert.equal(await double.block(LI2), undefined);
    // A queued delete that fails: code 0 at once, the error when it runs.
    double.failNextTransaction('/api/block/deleteBlock', 'boom');
    const failing = await raw(double, '/api/block/deleteBlock', { id: QUOTE });
    assert.equal(failing.code, 0);
    assert.deepEqual(double.txErrors, []);
    await flush(double);
    assert.deepEqual(double.txErrors, ['/api/block/deleteBlock: boom']);
    assert.ok(await double.block(QUOTE), 'not deleted');
  },
);

kernelTest(
  '§10 a failed insert, prepend or append answers code 0 with an empty op id; only a committed one names the block',
  async () => {
    for (const [path, body] of [
      ['/api/block/insertBlock', { previousID: P1 }],
      ['/api/block/prependBlock', { parentID: LIST }],
      ['/api/block/appendBlock', { parentID: LIST }],
    ]) {
      const double = await fixtureDouble();
      double.failNextTransaction(path);
      const failed = await raw(double, path, { ...md('失败的块'), ...body });
      assert.equal(failed.code, 0, path);
      assert.equal(failed.data.length, 1);
      assert.equal(failed.data[0].doOperations.length, 1);
      assert.equal(failed.data[0].doOperations[0].id, '', path);
      assert.equal(failed.data[0].undoOperations, null);
      assert.ok(!(await double.kramdown(DOC1)).includes('失败的块'));
      const ok = await raw(double, path, { ...md('成功的块'), ...body });
      const id = ok.data[0].doOperations[0].id;
      assert.match(id, /^\d{14}-[0-9a-z]{7}$/, path);
      assert.ok(
        (await double.kramdown(id)).startsWith('成功的块') ||
          (await double.kramdown(id)).includes('成功的块'),
      );
    }
    const double = await fixtureDouble();
    const unknown = await raw(double, '/api/block/insertBlock', {
      ...md('x'),
      nextID: '20990101000000-zzzzzzz',
    });
    assert.deepEqual([unknown.code, unknown.data[0].doOperations[0].id], [0, '']);
    // On success the op names the actual parent.
    const ok = await raw(double, '/api/block/insertBlock', { ...md('y'), previousID: P1 });
    assert.equal(ok.data[0].doOperations[0].parentID, DOC1);
  },
);

kernelTest(
  '§10 an IAL id shorter than 14 characters without `updated` makes Lute panic: code 0, data null, nothing written; with `updated` (or 14+ characters) it is refused with code -1',
  async () => {
    const double = await fixtureDouble();
    const before = await double.kramdown(DOC1);
    for (const [path, body] of [
      ['/api/block/updateBlock', { id: P1 }],
      ['/api/block/insertBlock', { previousID: P1 }],
      ['/api/block/appendBlock', { parentID: LIST }],
      ['/api/block/prependBlock', { parentID: DOC1 }],
    ]) {
      const res = await raw(double, path, { ...md('甲\n\n乙\n{: id="abc"}'), ...body });
      assert.deepEqual(res, { code: 0, msg: '', data: null }, path);
    }
    assert.equal(await double.kramdown(DOC1), before, 'nothing written');
    const withUpdated = await raw(double, '/api/block/updateBlock', {
      ...md('乙\n{: id="abc" updated="20240101000000"}'),
      id: P1,
    });
    assert.deepEqual(
      [withUpdated.code, withUpdated.msg],
      [-1, 'data block DOM failed: found invalid ID [abc]'],
    );
    // The container check of append/prepend still comes first.
    const leaf = await raw(double, '/api/block/appendBlock', {
      ...md('x\n{: id="abc"}'),
      parentID: P1,
    });
    assert.equal(leaf.code, -1);
  },
);

kernelTest(
  '§10 API writes keep only the whitelisted IAL keys, in the whitelist order, then custom-* (random order, lower-cased), then colgroup; the editor and setBlockAttrs keep any key',
  async () => {
    const ial =
      '{: custom-b="2" foo="x" title="t" Custom-Up="3" memo="m" name="n" bookmark="b" custom-a="1" fold="1" style="color: red;" scroll="s"}';
    const orders = new Set();
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const double = await fixtureDouble({ seed });
      await raw(double, '/api/block/updateBlock', { ...md(`段落\n${ial}`), id: P1 });
      const keys = keyOrders(await double.kramdown(P1))[0];
      assert.deepEqual(keys.slice(0, 7), [
        'id',
        'bookmark',
        'style',
        'name',
        'memo',
        'fold',
        'updated',
      ]);
      assert.deepEqual([...keys.slice(7)].sort(), ['custom-a', 'custom-b', 'custom-up']);
      orders.add(keys.slice(7).join());
      assert.ok(!/foo=|title=|scroll=/.test(await double.kramdown(P1)), 'other keys dropped');
    }
    assert.ok(orders.size > 1, 'custom-* keys come in a random order');
    const double = await fixtureDouble();
    const [t] = (
      await raw(double, '/api/block/insertBlock', {
        ...md('|a|b|\n| -| -|\n|1|2|'),
        previousID: P1,
      })
    ).data[0].doOperations.map((op) => op.id);
    assert.deepEqual(keyOrders(await double.kramdown(t))[0], ['id', 'updated', 'colgroup']);
    // Not the editor, not setBlockAttrs.
    await double.editor.setAttrs(P1, { foo: 'x' });
    await raw(double, '/api/attr/setBlockAttrs', { id: P1, attrs: { bar: 'y' } });
    assert.equal((await double.attrs(P1)).foo, 'x');
    assert.equal((await double.attrs(P1)).bar, 'y');
  },
);

kernelTest(
  "§10 updated: a restated `updated` is kept, a restated id without one gets the id's time, a block without an IAL id gets the clock",
  async () => {
    const double = await fixtureDouble({ now: () => new Date(Date.UTC(2030, 4, 6, 7, 8, 9)) });
    await raw(double, '/api/block/updateBlock', {
      ...md(`甲\n{: id="${P1}" updated="20200101010101"}`),
      id: P1,
    });
    assert.equal((await double.attrs(P1)).updated, '20200101010101');
    await raw(double, '/api/block/updateBlock', { ...md(`乙\n{: id="${P1}"}`), id: P1 });
    assert.equal((await double.attrs(P1)).updated, P1.slice(0, 14));
    await raw(double, '/api/block/updateBlock', { ...md('丙'), id: P1 });
    assert.equal((await double.attrs(P1)).updated, '20300506070809');
  },
);

kernelTest(
  '§11 refs: one row per (referenced block, leaf block) per document for ((id "t")), ((id \'t\')) and ((id)); embeds only for exactly WHERE id = literal; never for siyuan://blocks links',
  async () => {
    const double = await fixtureDouble();
    const H2 = '20240614083112-h2jz8kq';
    await raw(double, '/api/block/updateBlock', {
      ...md(
        `见 ((${LI2} "甲")) 与 ((${LI2} '乙')) 和 ((${QUOTE}))，[链接](siyuan://blocks/${CLOSING})`,
      ),
      id: P1,
    });
    await raw(double, '/api/block/appendBlock', {
      ...md(`- 项目里引用 ((${H2} "h"))`),
      parentID: LIST,
    });
    for (const stmt of [
      `SELECT * FROM blocks WHERE id='${CLOSING}'`,
      `select id from blocks where (blocks.id = "${LIST}") limit 1`,
      `SELECT * FROM blocks WHERE id = '${QUOTE}' AND type = 'b'`,
      `SELECT * FROM blocks WHERE id IN ('${QUOTE}')`,
    ])
      await raw(double, '/api/block/insertBlock', { ...md(`{{${stmt}}}`), previousID: CLOSING });
    await flush(double);
    const rows = await sql(
      double,
      `SELECT def_block_id, block_id, type FROM refs WHERE root_id = '${DOC1}'`,
    );
    const pairs = rows.map((r) => `${r.def_block_id}<-${r.block_id === P1 ? 'P1' : r.type}`).sort();
    assert.deepEqual(
      pairs,
      [
        `${CLOSING}<-query_embed`,
        `${H2}<-textmark`,
        `${LI2}<-P1`,
        `${LIST}<-query_embed`,
        `${QUOTE}<-P1`,
      ].sort(),
    );
    const [inItem] = rows.filter((r) => r.def_block_id === H2);
    assert.equal((await double.block(inItem.block_id)).type, 'p', 'the leaf block holding the ref');
  },
);

kernelTest(
  '§9 databases: a delete removes the block and its descendants from every database they list (even when the transaction then fails); a re-inserted copy loses custom-avs and does not come back',
  async () => {
    const double = await fixtureDouble();
    const AV = '20240101000000-avdb001';
    await raw(double, '/api/attr/setBlockAttrs', { id: LI2, attrs: { 'custom-avs': AV } });
    await double.editor.setAttrs('20240614083201-p03hjkl', {
      'custom-avs': `${AV},20240101000000-avdb002`,
    });
    await raw(double, '/api/attr/setBlockAttrs', { id: P1, attrs: { 'custom-avs': AV } });
    assert.deepEqual(await double.databaseRows(AV), [LI2, '20240614083201-p03hjkl', P1]);
    const kramdown = await kramdownOf(double, LI2);
    await raw(double, '/api/block/deleteBlock', { id: LI2 });
    await flush(double);
    assert.deepEqual(await double.databaseRows(AV), [P1], 'the item and the paragraph below it');
    assert.deepEqual(await double.databaseRows('20240101000000-avdb002'), []);
    // Re-inserting the kramdown brings the text back, not the database row.
    const back = await raw(double, '/api/block/insertBlock', { ...md(kramdown), previousID: LI1 });
    assert.equal(back.data[0].doOperations[0].id, LI2);
    assert.equal(
      (await double.attrs(LI2))['custom-avs'],
      undefined,
      'stripped from the first block',
    );
    assert.equal(
      (await double.attrs('20240614083201-p03hjkl'))['custom-avs'],
      `${AV},20240101000000-avdb002`,
      'not from its descendants',
    );
    assert.deepEqual(await double.databaseRows(AV), [P1]);
    // A delete that fails still unbinds.
    double.failNextTransaction('/api/block/deleteBlock');
    await raw(double, '/api/block/deleteBlock', { id: P1 });
    await flush(double);
    assert.ok(await double.block(P1), 'still there');
    assert.deepEqual(await double.databaseRows(AV), [], 'but out of the database');
  },
);

kernelTest(
  '§4 setBlockAttrs / getBlockAttrs: names lower-cased and checked, values trimmed, "" or null removes, data-task refused, errors code -1, answer null',
  async () => {
    const double = await fixtureDouble();
    const set = (id, attrs) => raw(double, '/api/attr/setBlockAttrs', { id, attrs });
    const ok = await set(CLOSING, { 'Custom-Key': '  v  ', name: null, memo: '', alias: '  ' });
    assert.deepEqual(ok, { code: 0, msg: '', data: null });
    assert.deepEqual((await raw(double, '/api/attr/getBlockAttrs', { id: CLOSING })).data, {
      'custom-key': 'v',
      id: CLOSING,
      updated: '20240614183512',
    });
    for (const [attrs, msg] of [
      [{ 'custom-': 'x' }, /lowercase English letters/],
      [{ 'custom-1x': 'x' }, /lowercase English letters/],
      [{ '1abc': 'x' }, /lowercase English letters/],
      [{ 'data-task': 'x' }, /data-task/],
      [{ ok: 1 }, /the value of attr \[ok\] must be a string/],
    ]) {
      const res = await set(CLOSING, attrs);
      assert.equal(res.code, -1, JSON.stringify(attrs));
      assert.match(res.msg, msg);
    }
    assert.equal((await set('20990101000000-zzzzzzz', { a: 'b' })).code, -1, 'unknown block');
    assert.equal((await set('bad', { a: 'b' })).code, -1);
    assert.deepEqual(
      (await raw(double, '/api/attr/getBlockAttrs', { id: '20990101000000-zzzzzzz' })).data,
      {},
    );
    const v = await raw(double, '/api/attr/getBlockAttrs', { id: P1 });
    assert.deepEqual(Object.keys(v.data), ['id', 'updated'], 'keys sorted, as Go encodes a map');
  },
);

kernelTest(
  '§6 zero-width spaces: written text keeps a U+200B after each code and kbd span followed by more text on its line; the markdown and content columns and getChildBlocks never have one',
  async () => {
    const double = await fixtureDouble();
    await raw(double, '/api/block/updateBlock', {
      ...md('用 `fetch` 或 <kbd>Ctrl</kbd> 结束 `end`'),
      id: P1,
    });
    assert.equal(
      (await kramdownOf(double, P1)).split('\n')[0],
      '用 `fetch`\u200b 或 <kbd>Ctrl</kbd>\u200b 结束 `end`',
    );
    await flush(double);
    const [row] = await sql(double, `SELECT markdown, content FROM blocks WHERE id = '${P1}'`);
    assert.deepEqual(row, {
      content: '用 fetch 或 Ctrl 结束 end',
      markdown: '用 `fetch` 或 <kbd>Ctrl</kbd> 结束 `end`',
    });
    const kids = (await raw(double, '/api/block/getChildBlocks', { id: DOC1 })).data;
    assert.ok(!JSON.stringify(kids).includes('\u200b'));
  },
);

kernelTest(
  '§6 tables are not padded: |a|bb| rows, | -… delimiter cells as wide as the column (alignment colons as Lute writes them), in kramdown and the markdown column',
  async () => {
    const double = await fixtureDouble();
    const res = await raw(double, '/api/block/insertBlock', {
      ...md('| 名 | b | c | d |\n| :-- | :-: | --: | --- |\n| 中文字 | bbbbb | c | `x` y |'),
      previousID: P1,
    });
    const id = res.data[0].doOperations[0].id;
    const table = '|名|b|c|d|\n| :-----| :---: | -: | --|\n|中文字|bbbbb|c|`x`\u200b y|';
    assert.equal((await kramdownOf(double, id)).split('\n{:')[0], table);
    await flush(double);
    assert.equal((await double.indexedBlock(id)).markdown, table.replace('\u200b', ''));
    // The fixture's hand-written table reads back in the kernel's form.
    assert.equal(
      (await double.indexedBlock('20240614083500-tbl4abc')).markdown,
      '|问题|状态|负责人|\n| -------------------| --------| --------|\n|列表项更新异常|已修复|张三|\n|多块 REPLACE 丢失|调查中|李四|',
    );
  },
);

kernelTest(
  '§11 folded headings: updating a container whose markdown restates a folded heading (same id, fold="1") moves the old section in right after it, before what the markdown put there: a deleted child comes back, a restated one is doubled',
  async () => {
    const H = '20250101000000-fold0h1';
    const PA = '20250101000000-para0a1';
    const BQ = '20250101000000-quote01';
    const quote = `> ## 折叠\n> {: id="${H}" fold="1"}\n>\n> 段落甲\n> {: id="${PA}"}\n>\n> 段落乙\n>\n> ## 下一节\n{: id="${BQ}"}`;
    const texts = async (double) =>
      (await double.snapshot(MD_DOC)).filter((b) => b.type !== 'b').map((b) => b.markdown);
    // The markdown drops 段落甲 and adds 新段落: 段落甲 comes back.
    const d1 = await mdDouble([quote]);
    await raw(d1, '/api/block/updateBlock', {
      ...md(`> ## 折叠\n> {: id="${H}" fold="1"}\n>\n> 新段落`),
      id: BQ,
    });
    assert.deepEqual(await texts(d1), ['## 折叠', '段落甲', '段落乙', '新段落']);
    // The markdown restates the section (as getBlockKramdown gives it): doubled.
    const d2 = await mdDouble([quote]);
    const kramdown = await kramdownOf(d2, BQ);
    await raw(d2, '/api/block/updateBlock', { ...md(kramdown), id: BQ });
    assert.deepEqual(await texts(d2), [
      '## 折叠',
      '段落甲',
      '段落乙',
      '段落甲',
      '段落乙',
      '## 下一节',
    ]);
    assert.equal(await d2.countId(PA), 2, 'the same id twice (until the next load re-IDs one)');
    // Without fold="1" (or with another id) nothing moves.
    const d3 = await mdDouble([quote]);
    await raw(d3, '/api/block/updateBlock', {
      ...md(`> ## 折叠\n> {: id="${H}"}\n>\n> 新段落`),
      id: BQ,
    });
    assert.deepEqual(await texts(d3), ['## 折叠', '新段落']);
  },
);

kernelTest(
  "§11 task items and super blocks: insertBlock by parent puts multi-block markdown after a task item's checkbox, fully reversed; into a super block only the first block; prependBlock lands before the checkbox",
  async () => {
    const double = await fixtureDouble();
    await raw(double, '/api/block/insertBlock', { ...md('一\n\n二\n\n三'), parentID: TASK_ITEM });
    const strip = (k) =>
      k
        .replace(/\{:[^}]*\}/g, '')
        .replace(/\n\s*\n/g, '\n')
        .trim();
    assert.equal(
      strip(await double.kramdown(TASK_ITEM)),
      '- [ ] 三\n  二\n  一\n  在 onload 中 fetch 并实例化',
    );
    await raw(double, '/api/block/prependBlock', { ...md('前置'), parentID: TASK_ITEM });
    assert.ok(strip(await double.kramdown(TASK_ITEM)).startsWith('- 前置\n  [ ] 三'));
    const before = (await childIds(double, SUPER)).length;
    const res = await raw(double, '/api/block/insertBlock', { ...md('甲\n\n乙'), parentID: SUPER });
    const kids = (await raw(double, '/api/block/getChildBlocks', { id: SUPER })).data;
    assert.equal(kids.length, before + 1, 'only the first block');
    assert.deepEqual([kids[0].id, kids[0].markdown], [res.data[0].doOperations[0].id, '甲']);
    assert.ok(!(await double.kramdown(DOC2)).includes('乙'));
  },
);

kernelTest(
  "§8 getChildBlocks: {id, type, subType?, content?, markdown?}, empty fields omitted; a callout's subType is its callout type",
  async () => {
    const double = await fixtureDouble();
    const callout = (
      await raw(double, '/api/block/appendBlock', {
        ...md('> [!WARNING]\n> 小心\n>\n> 第二段'),
        parentID: DOC1,
      })
    ).data[0].doOperations[0].id;
    const kids = (await raw(double, '/api/block/getChildBlocks', { id: DOC1 })).data;
    const c = kids.find((x) => x.id === callout);
    assert.deepEqual(Object.keys(c), ['id', 'type', 'subType', 'content', 'markdown']);
    assert.deepEqual([c.type, c.subType], ['callout', 'WARNING']);
    const tb = kids.find((x) => x.type === 'tb');
    assert.deepEqual(Object.keys(tb), ['id', 'type', 'markdown'], 'no subType, no content');
    await flush(double);
    assert.equal((await double.indexedBlock(callout)).subtype, 'WARNING');
  },
);

kernelTest(
  '§10 getBlockKramdowns: {ids, mode?} → {id: kramdown}; malformed ids skipped, an id the block tree does not have gets no key, a stale one ""',
  async () => {
    const double = await fixtureDouble();
    const res = await raw(double, '/api/block/getBlockKramdowns', {
      ids: [P1, 'not-an-id', '20990101000000-zzzzzzz', LIST],
    });
    assert.equal(res.code, 0);
    assert.deepEqual(Object.keys(res.data), [P1, LIST]);
    assert.equal(canonicalIal(res.data[LIST]), canonicalIal(await double.kramdown(LIST)));
    // A list item an update re-IDed is still in the block tree: "".
    await raw(double, '/api/block/updateBlock', { ...md('- 甲\n- 乙'), id: LIST });
    const stale = await raw(double, '/api/block/getBlockKramdowns', { ids: [LI2] });
    assert.deepEqual(stale.data, { [LI2]: '' });
    assert.equal(
      (await raw(double, '/api/block/getBlockKramdowns', { ids: [P1], mode: 'x' })).code,
      -1,
    );
    // The stale row also lets an append through, which then fails.
    const app = await raw(double, '/api/block/appendBlock', { ...md('x'), parentID: LI2 });
    assert.deepEqual([app.code, app.data[0].doOperations[0].id], [0, '']);
  },
);

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
  LiveUnsupported,
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
  '§1 a block another writer made a moment ago is found: ids the blocks table lacks are asked for again after one flush',
  async () => {
    const double = await fixtureDouble();
    const host = ek.createSiyuanHost({ request: double.request });
    // The user (or SiYuan's own agent) adds a paragraph: it is in the
    // tree, and reaches the blocks table at the next 3-second tick.
    const [fresh] = await double.editor.insertBlock('刚写下的段落 🆕', { previousID: P1 });
    const flushes = () =>
      double.calls.filter((c) => c.path === '/api/sqlite/flushTransaction').length;
    const [row] = await host.getBlocks([fresh]);
    assert.equal(row?.id, fresh, 'found, not BLOCK_NOT_FOUND');
    assert.equal(row.markdown, '刚写下的段落 🆕');
    assert.equal(flushes(), 1, 'one flush, for the id the first read missed');
    assert.equal((await host.getBlocks([P1]))[0].id, P1);
    assert.equal(flushes(), 1, 'an id the table has costs no flush');
    assert.deepEqual(await host.getBlocks(['20991231235959-nothere']), [null]);
    assert.equal(flushes(), 2, 'an unknown id: one flush, then missing');
    const never = ek.createSiyuanHost({ request: double.request, flush: 'never' });
    const [later] = await double.editor.insertBlock('再一段', { previousID: P1 });
    assert.deepEqual(
      await never.getBlocks([later]),
      [null],
      'flush: never reads the table as it is',
    );
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
  '§3 headings update their own line only; a document update replaces every child: N deletes (createEmptyParagraph false) and one insert of the first new block',
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
    const children = await double.topLevel(DOC1);
    const res = await raw(double, '/api/block/updateBlock', {
      ...md('唯一一段\n\n第二段'),
      id: DOC1,
    });
    const ops = res.data[0].doOperations;
    assert.deepEqual(
      ops.slice(0, -1).map((o) => [o.action, o.id, o.data]),
      children.map((id) => ['delete', id, { createEmptyParagraph: false }]),
      'one delete per child, in document order',
    );
    const [first, second] = await double.topLevel(DOC1);
    assert.deepEqual(
      [ops.at(-1).action, ops.at(-1).id, ops.at(-1).parentID, ops.at(-1).previousID],
      ['insert', first, DOC1, ''],
    );
    assert.deepEqual(
      [(await double.block(first)).markdown, (await double.block(second)).markdown],
      ['唯一一段', '第二段'],
    );
    assert.equal((await double.topLevel(DOC1)).length, 2, 'no empty paragraph between');
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
  '§7 SQL: the implicit LIMIT is the search limit, explicit LIMITs hold, errors answer code 1; one statement per request (mode "multiple" runs the first only, "readonly" wants a SELECT, another mode is refused)',
  async () => {
    const double = await fixtureDouble();
    assert.equal((await sql(double, 'SELECT * FROM blocks')).length, 64);
    assert.ok((await sql(double, 'SELECT id FROM blocks LIMIT 500')).length > 64);
    if (!double.live) {
      // The harness cannot set a live kernel's search limit.
      const small = await fixtureDouble({ searchLimit: 32 });
      assert.equal((await sql(small, 'SELECT * FROM blocks')).length, 32);
      // What the double's SQL cannot read is answered code 1 (the kernel runs it).
      const or = "SELECT * FROM blocks WHERE id = '1' OR 1=1";
      assert.equal((await raw(double, '/api/query/sql', { stmt: or })).code, 1);
    }
    assert.equal((await raw(double, '/api/query/sql', { stmt: 'SELECT * FROM nowhere' })).code, 1);
    // rqlite re-serialises the statement with every identifier in double
    // quotes, and SQLite reads an unknown "column" as a string: no error.
    assert.deepEqual(await sql(double, 'SELECT nope FROM blocks LIMIT 1'), [{ '"nope"': 'nope' }]);
    // Report D §1 (api/sql.go:55-91, sql/stmt_validate.go, sql/block_query.go:350-431).
    const answer = async (body) => {
      const res = await raw(double, '/api/query/sql', body);
      return [res.code, res.msg, res.data];
    };
    const two = "SELECT 'a' AS x; SELECT 'b' AS y";
    assert.deepEqual(await answer({ stmt: two }), [-1, 'SQL statement is not single', null]);
    assert.deepEqual(await answer({ stmt: two, mode: 'readonly' }), [
      -1,
      'SQL statement is not single',
      null,
    ]);
    assert.deepEqual(await answer({ stmt: two, mode: 'multiple' }), [0, '', [{ x: 'a' }]]);
    assert.deepEqual(
      await answer({ stmt: "SELECT 'a' AS x; SELECT * FROM nosuch", mode: 'multiple' }),
      [0, '', [{ x: 'a' }]],
      'the second statement is never run',
    );
    for (const one of ["SELECT 'a' AS x;", "SELECT 'a' AS x;;", "SELECT 'a' AS x; -- c"])
      assert.deepEqual(await answer({ stmt: one }), [0, '', [{ x: 'a' }]], one);
    assert.deepEqual(await answer({ stmt: "SELECT 'a;b' AS x" }), [0, '', [{ x: 'a;b' }]]);
    assert.deepEqual(await answer({ stmt: "SELECT 'a' AS x", mode: 'bogus' }), [
      -1,
      'unknown [mode]',
      null,
    ]);
    assert.deepEqual(await answer({ stmt: 'DELETE FROM blocks', mode: 'readonly' }), [
      -1,
      'SQL statement is not a read-only query',
      null,
    ]);
    assert.deepEqual(await answer({ stmt: '' }), [-1, 'Field [stmt] must not be empty', null]);
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
    // The harness sets neither a live kernel's clock nor a notebook's daily-note settings.
    if (utc.live) throw new LiveUnsupported('now');
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
  { live: "the double's own seed" },
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
    // Live, the stored order is not readable through the API (every read shuffles it).
    if (!double.live) assert.ok(stored.size > 1);
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
    assert.equal(await double.countId(P1), 2, 'a load writes nothing: SQL keeps both rows');
    assert.equal(
      (await kramdownOf(double, P1)).split('\n')[0],
      (await double.kramdown(P1)).split('\n')[0],
    );
    assert.ok(
      (await kramdownOf(double, P1)).startsWith('本周主要完成了'),
      'the id finds the first',
    );
    assert.equal(await kramdownOf(double, a), '', 'an id of an earlier load is gone');
    const hashes = await sql(double, `SELECT content, hash FROM blocks WHERE id = '${P1}'`);
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
    // upsertTree keeps an id's rows when the old hash it reads equals the
    // new one: it reads them through the index (root_id, id, hash), so the
    // greatest hash of P1's two rows decides (sql/upsert.go:436-490,
    // sql/database.go:165; both outcomes seen live).
    const greatest = hashes.reduce((x, y) => (y.hash > x.hash ? y : x));
    const kept = greatest.content !== '复制来的段落';
    assert.equal(
      (await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length,
      kept ? 2 : 1,
      kept ? "the stale copy's row stays" : 'the copy row goes',
    );
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
    // Live, the kernel's queue runs within its ~50 ms tick: a read right
    // after the answer usually (not always) still sees the block.
    if (!double.live) {
      assert.notEqual(await kramdownOf(double, P1), '', 'getBlockKramdown still has it');
      assert.ok((await childIds(double, DOC1)).includes(P1), 'so do child lists');
      assert.equal((await sql(double, `SELECT id FROM blocks WHERE id = '${P1}'`)).length, 1);
    }
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
    const double = await fixtureDouble();
    // Live, the stored order is not readable through the API (every read shuffles it).
    if (!double.live) assert.ok(orders.size > 1, 'custom-* keys come in a random order');
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
    // The harness cannot set a live kernel's clock.
    if (double.live) throw new LiveUnsupported('now');
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
  '§9 databases: setBlockAttrs custom-avs makes no row; a delete removes the block and its descendants from every database they list (even when the transaction then fails); a re-inserted copy loses custom-avs on insertBlock (the first block only), keeps it on appendBlock, and its row does not come back',
  async () => {
    const double = await fixtureDouble();
    const AV = '20240101000000-avdb001';
    const AV2 = '20240101000000-avdb002';
    const P03 = '20240614083201-p03hjkl';
    await raw(double, '/api/attr/setBlockAttrs', { id: P1, attrs: { 'custom-avs': AV } });
    assert.equal((await double.attrs(P1))['custom-avs'], AV);
    assert.deepEqual(await double.databaseRows(AV), [], 'the attribute is no row (report C §1)');
    // Rows as a user makes them (renderAttributeView, addAttributeViewBlocks).
    if (!double.addDatabaseRows) throw new LiveUnsupported('addDatabaseRows');
    await double.addDatabaseRows(AV, [P1, P03, LI2]);
    await double.addDatabaseRows(AV2, [P03]);
    assert.deepEqual(await double.databaseRows(AV), [LI2, P03, P1], 'the sources in reverse');
    assert.equal((await double.attrs(P03))['custom-avs'], `${AV},${AV2}`);
    const kramdown = await kramdownOf(double, LI2);
    await raw(double, '/api/block/deleteBlock', { id: LI2 });
    await flush(double);
    assert.deepEqual(await double.databaseRows(AV), [P1], 'the item and the paragraph below it');
    assert.deepEqual(await double.databaseRows(AV2), []);
    // Re-inserting the kramdown brings the text back, not the database row.
    const back = await raw(double, '/api/block/insertBlock', { ...md(kramdown), previousID: LI1 });
    assert.equal(back.data[0].doOperations[0].id, LI2);
    assert.equal(
      (await double.attrs(LI2))['custom-avs'],
      undefined,
      'stripped from the first block',
    );
    assert.equal(
      (await double.attrs(P03))['custom-avs'],
      `${AV},${AV2}`,
      'not from its descendants',
    );
    assert.deepEqual(await double.databaseRows(AV), [P1]);
    // appendBlock strips nothing (doAppendInsert); still no row.
    const appended = await raw(double, '/api/block/appendBlock', {
      ...md(`追加\n{: custom-avs="${AV}"}`),
      parentID: DOC1,
    });
    const appendedId = appended.data[0].doOperations[0].id;
    assert.equal((await double.attrs(appendedId))['custom-avs'], AV);
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
  '§6 zero-width spaces: a code, kbd or tag span keeps a U+200B after it when an inline with text follows its text run; the markdown and content columns and getChildBlocks never have one',
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
  "§6 tables are not padded: |a|bb| rows, | -… delimiter cells as wide as Lute's TokenLen of the stored cells (alignment colons as Lute writes them), in kramdown and the markdown column",
  async () => {
    const double = await fixtureDouble();
    const res = await raw(double, '/api/block/insertBlock', {
      ...md('| 名 | b | c | d |\n| :-- | :-: | --: | --- |\n| 中文字 | bbbbb | c | `x` y |'),
      previousID: P1,
    });
    const id = res.data[0].doOperations[0].id;
    // A width is Lute's TokenLen of the stored cell: 2 for the cell node, 2
    // per stored U+200B, text 1 (ASCII) or 2, marks 0 (report A Q1).
    const table = '|名|b|c|d|\n| :-------| :-----: | --: | --------|\n|中文字|bbbbb|c|`x` y|';
    assert.equal((await kramdownOf(double, id)).split('\n{:')[0], table);
    await flush(double);
    assert.equal((await double.indexedBlock(id)).markdown, table);
    // The fixture's hand-written table reads back in the kernel's form.
    assert.equal(
      (await double.indexedBlock('20240614083500-tbl4abc')).markdown,
      '|问题|状态|负责人|\n| -------------------| --------| --------|\n|列表项更新异常|已修复|张三|\n|多块 REPLACE 丢失|调查中|李四|',
    );
  },
);

kernelTest(
  '§11 folded headings: updating a container whose markdown restates a folded heading (same id, fold="1") moves the old section in right after it, before what the markdown put there: a deleted child comes back, a restated one is doubled; the restated copy gets a new id at every load and reaches SQL only after the next save',
  async () => {
    const H = '20250101000000-fold0h1';
    const PA = '20250101000000-para0a1';
    const BQ = '20250101000000-quote01';
    const quote = `> ## 折叠\n> {: id="${H}" fold="1"}\n>\n> 段落甲\n> {: id="${PA}"}\n>\n> 段落乙\n>\n> ## 下一节\n{: id="${BQ}"}`;
    // The tree as getChildBlocks reads it (the live harness's snapshot keeps
    // only the ids SQL has, which drops the restated copies).
    const children = async (double) =>
      (await raw(double, '/api/block/getChildBlocks', { id: BQ })).data;
    const texts = async (double) => (await children(double)).map((c) => c.markdown);
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
    const [first, second] = [await children(d2), await children(d2)];
    assert.equal(first[1].id, PA, 'the moved old block keeps its id');
    assert.notEqual(first[3].id, PA, 'the restated copy is re-IDed at load…');
    assert.notEqual(first[3].id, second[3].id, '…with a new id at every load');
    const indexed = async () =>
      (
        await sql(
          d2,
          `SELECT DISTINCT id FROM blocks WHERE root_id = '${MD_DOC}' AND content = '段落甲' LIMIT 10`,
        )
      ).map((r) => r.id);
    await flush(d2);
    assert.deepEqual(await indexed(), [PA], 'the copy is not indexed (its hash did not change)');
    // The next save fixes the ids the load gave and indexes the copies.
    await raw(d2, '/api/block/appendBlock', { ...md('保存'), parentID: MD_DOC });
    const saved = await children(d2);
    assert.deepEqual(
      (await children(d2)).map((c) => c.id),
      saved.map((c) => c.id),
    );
    await flush(d2);
    assert.deepEqual((await indexed()).sort(), [PA, saved[3].id].sort());
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
  '§10 getBlockKramdowns: {ids, mode?} → {id: kramdown}; a malformed id panics (code 0, data null for the whole call), an id the block tree does not have gets no key, a stale one ""',
  async () => {
    const double = await fixtureDouble();
    // `util.InvalidIDPattern(id, nil)` writes to a nil result (api/block.go:1058-1062).
    assert.deepEqual(
      await raw(double, '/api/block/getBlockKramdowns', { ids: [P1, 'not-an-id'] }),
      { code: 0, msg: '', data: null },
    );
    const res = await raw(double, '/api/block/getBlockKramdowns', {
      ids: [P1, '20990101000000-zzzzzzz', LIST],
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
/** The one statement editkit's getReferencedIds sends (report D §4), for these ids. */
const referencedStatement = (ids) =>
  `SELECT '' AS id UNION SELECT r.def_block_id AS id FROM refs AS r WHERE r.def_block_id IN (${ids.map((id) => `'${id}'`).join(', ')}) AND r.block_id != r.def_block_id UNION SELECT q.value AS id FROM (SELECT id, type, CASE WHEN type = 'callout' THEN substr(markdown, 1, instr(markdown || char(10), char(10))) ELSE markdown END AS md FROM blocks WHERE type NOT IN ('d', 'l', 'i', 'b', 's') AND (instr(markdown, 'siyuan://blocks/') > 0 OR type = 'query_embed' OR (type = 'callout' AND instr(markdown, 'data-id=') > 0))) AS b CROSS JOIN json_each('${JSON.stringify(ids)}') AS q WHERE b.id != q.value AND (instr(b.md, 'siyuan://blocks/' || q.value) > 0 OR (b.type = 'query_embed' AND instr(b.md, q.value) > 0) OR (b.type = 'callout' AND instr(b.md, 'data-id="' || q.value || '"') > 0)) LIMIT ${ids.length + 1}`;

kernelTest(
  "§7 SQL: the getReferencedIds statement finds refs (not self-refs), siyuan://blocks links and embeds naming an id; the '' sentinel row, distinct, sorted",
  async () => {
    const items = [
      '20250101000000-item001',
      '20250101000000-item002',
      '20250101000000-item003',
      '20250101000000-item004',
    ];
    const SELF = '20250101000000-self001';
    const double = await mdDouble([
      items.map((id, i) => `- 第 ${i + 1} 项\n  {: id="${id}"}`).join('\n'),
      `P-a refers ((${items[0]} "t"))`,
      `P-b links [x](siyuan://blocks/${items[2]})`,
      `{{SELECT * FROM blocks WHERE id='${items[3]}' AND type='i'}}`,
      { id: SELF, markdown: `self ((${SELF} "me"))` },
    ]);
    await flush(double);
    const ids = [items[1], items[0], items[2], items[3], SELF, '20250101000000-nobody1'];
    const res = await raw(double, '/api/query/sql', { stmt: referencedStatement(ids) });
    assert.equal(res.code, 0, res.msg);
    // UNION sorts by id: the '' sentinel first (the live ids differ from the
    // test's, so the others are compared as a set).
    assert.deepEqual(res.data[0], { id: '' });
    assert.deepEqual(
      res.data
        .slice(1)
        .map((r) => r.id)
        .sort(),
      [items[0], items[2], items[3]].sort(),
    );
    // A JSON literal json_each cannot read is a runtime error: code 0, no row at all.
    const broken = referencedStatement([items[0]]).replace(`["${items[0]}"]`, '["x"');
    assert.deepEqual(await raw(double, '/api/query/sql', { stmt: broken }), {
      code: 0,
      msg: '',
      data: [],
    });
  },
);

// ---------------------------------------------------------------------------
// Revision 4 (KERNEL-FACTS §13), run on a live v3.7.3 kernel: reports
// A–D of /work/live/reports. Each test asserts what the live kernel did.

/** The ids a write's operation data (its block DOM) names, but `except`. */
const domIds = (data, except) =>
  [...String(data).matchAll(/data-node-id="([^"]+)"/g)]
    .map((m) => m[1])
    .filter((id) => id !== except);
const exists = async (double, id) => (await raw(double, '/api/block/checkBlockExist', { id })).data;
const lines = (kramdown) => kramdown.replace(/\n?\{:[^}]*\}/g, '').trim();

const BP = '20250101000000-batchp1';
const BL = '20250101000000-batchl1';
const BLIA = '20250101000000-batchia';
const BPA = '20250101000000-batchpa';
const BLIB = '20250101000000-batchib';
const BPB = '20250101000000-batchpb';
const BQ = '20250101000000-batchq1';
/**
 * Live: waits for the kernel's first index of the harness's fresh notebook
 * (`Box.Index` → `indexBox`, model/index.go, a queued task that can run
 * seconds late): it upserts every document's ids into the block-id table
 * again, which would put back ids a test saw leave it. Done when the
 * notebook's own document has its second row (box_doc.go indexes it once
 * at creation, indexBox once more).
 */
async function boxIndexed(double) {
  if (!double.live) return;
  for (let i = 0; i < 100; i++) {
    await flush(double);
    const rows = await sql(double, "SELECT id FROM blocks WHERE id = '20250101000000-box0001'");
    if (rows.length > 1) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const batchDoc = async () => {
  const double = await mdDouble([
    { id: BP, markdown: 'first para' },
    {
      id: BL,
      markdown: `- {: id="${BLIA}"}item a\n  {: id="${BPA}"}\n- {: id="${BLIB}"}item b\n  {: id="${BPB}"}`,
    },
    { id: BQ, markdown: 'last para' },
  ]);
  await boxIndexed(double);
  return double;
};

kernelTest(
  '§13 batchUpdateBlock is all or nothing: an update whose block an earlier one re-IDed fails the transaction, nothing is written, the answer looks like success, and the new ids the earlier updates made are in the block-id table with no block (checkBlockExist true, kramdown "")',
  async () => {
    const double = await batchDoc();
    const before = lines(await double.kramdown(MD_DOC));
    const res = await raw(double, '/api/block/batchUpdateBlock', {
      blocks: [
        { id: BP, ...md('first para CHANGED') },
        { id: BL, ...md('- item a CHANGED\n- item b') },
        { id: BPA, ...md('pA CHANGED') },
      ],
    });
    assert.equal(res.code, 0);
    assert.equal(res.data.length, 1, 'one transaction');
    const ops = res.data[0].doOperations;
    assert.deepEqual(
      ops.map((o) => [o.action, o.id]),
      [
        ['update', BP],
        ['update', BL],
        ['update', BPA],
      ],
    );
    await flush(double);
    assert.equal(lines(await double.kramdown(MD_DOC)), before, 'nothing written');
    assert.deepEqual(await childIds(double, BL), [BLIA, BLIB], 'the old items');
    assert.equal((await double.block(BP)).markdown, 'first para', 'SQL unchanged');
    const ghosts = domIds(ops[1].data, BL);
    assert.equal(ghosts.length, 4, 'the re-IDed children of the list update');
    for (const ghost of ghosts) {
      assert.equal(await exists(double, ghost), true, 'in the block-id table');
      assert.equal(await kramdownOf(double, ghost), '');
      assert.deepEqual((await raw(double, '/api/block/getBlockKramdowns', { ids: [ghost] })).data, {
        [ghost]: '',
      });
      assert.deepEqual(await childIds(double, ghost), []);
    }
    const [ghost] = ghosts;
    const update = await raw(double, '/api/block/updateBlock', { ...md('x'), id: ghost });
    assert.deepEqual([update.code, update.msg], [-1, 'get block failed: block not found']);
    const insert = await raw(double, '/api/block/insertBlock', { ...md('x'), previousID: ghost });
    assert.deepEqual([insert.code, insert.data[0].doOperations[0].id], [0, '']);
    // The old ids are still found.
    assert.equal(await exists(double, BPA), true);
    assert.match(await kramdownOf(double, BPA), /^item a/);
    // The kernel pushed the failures to the UI (transaction.go:113-135).
    assert.deepEqual(double.txErrors, [
      `/api/block/batchUpdateBlock: Transaction failed: block not found [${BPA}]`,
      `/api/block/insertBlock: Transaction failed: block not found [${ghost}]`,
    ]);
  },
);

kernelTest(
  "§13 batchUpdateBlock of a document and then one of its old children: nothing written, and the document's old children leave the block-id table until the document is written again",
  async () => {
    const double = await batchDoc();
    const before = lines(await double.kramdown(MD_DOC));
    const res = await raw(double, '/api/block/batchUpdateBlock', {
      blocks: [
        { id: BP, ...md('first para CHANGED') },
        { id: MD_DOC, ...md('whole doc replaced') },
        { id: BQ, ...md('last para CHANGED') },
      ],
    });
    const ops = res.data[0].doOperations;
    assert.deepEqual(
      ops.map((o) => o.action),
      ['update', 'delete', 'delete', 'delete', 'insert', 'update'],
    );
    const fresh = ops[4].id;
    await flush(double);
    assert.equal(lines(await double.kramdown(MD_DOC)), before, 'the document read shows them all');
    assert.equal(await exists(double, fresh), true, 'the new paragraph: a ghost');
    assert.equal(await kramdownOf(double, fresh), '');
    for (const id of [BP, BL, BPA, BQ]) {
      assert.equal(await exists(double, id), false, `${id} out of the block-id table`);
      assert.equal(await kramdownOf(double, id), '');
      assert.deepEqual((await raw(double, '/api/attr/getBlockAttrs', { id })).data, {});
    }
    // The next write of the document puts them back.
    await raw(double, '/api/block/appendBlock', { ...md('later'), parentID: MD_DOC });
    for (const id of [BP, BPA, BQ]) assert.equal(await exists(double, id), true, id);
    assert.match(await kramdownOf(double, BP), /^first para\n/);
  },
);

kernelTest(
  '§13 batchUpdateBlock that fails still removes the database rows of the blocks an earlier update re-IDed (saved at once); the blocks keep custom-avs',
  async () => {
    const double = await batchDoc();
    const AV = '20250101000000-avbatch';
    if (!double.addDatabaseRows) throw new LiveUnsupported('addDatabaseRows');
    await double.addDatabaseRows(AV, [BPA, BLIB, BQ]);
    assert.deepEqual(await double.databaseRows(AV), [BQ, BLIB, BPA]);
    await raw(double, '/api/block/batchUpdateBlock', {
      blocks: [
        { id: BL, ...md('- item a CHANGED\n- item b') },
        { id: BPA, ...md('pA CHANGED') },
      ],
    });
    assert.deepEqual(await double.databaseRows(AV), [BQ], 'the re-IDed ones are gone');
    assert.equal((await double.attrs(BPA))['custom-avs'], AV, 'while the block still names it');
    // failNextTransaction fails the batch before its first update: no row goes.
    double.failNextTransaction('/api/block/batchUpdateBlock');
    await raw(double, '/api/block/batchUpdateBlock', {
      blocks: [{ id: BL, ...md('- x') }],
    });
    assert.deepEqual(await childIds(double, BL), [BLIA, BLIB]);
  },
);

kernelTest(
  '§13 HTML entities: an HTML block is decoded once more by every DOM → tree pass (inserts once, updates twice, containers too); paragraph text once on every path',
  async () => {
    const html = '<div>\nA&amp;amp;B &lt;b&gt; &quot;q&quot; &#39;s&#39; n&nbsp;b &copy;\n</div>';
    const para = 'a &amp; b &lt;tag&gt; &quot;q&quot; &#39;s&#39; n&nbsp;b &amp;amp; &copy;';
    const paraStored = 'a & b <tag> "q" \'s\' n b &amp; ©';
    const double = await mdDouble(['起点']);
    // Live, the kernel's version says which Lute it has: v3.7.4-alpha.1's
    // (a361448d) stores an HTML block as written on every path.
    const version = (await raw(double, '/api/system/version', {})).data;
    const decodes = { '3.7.3': true, '3.7.4-alpha.1': false }[version];
    assert.notEqual(decodes, undefined, `a kernel this fact was read on, not ${version}`);
    const [once, twice] = decodes
      ? [
          '<div>\nA&amp;B <b> "q" \'s\' n\u00a0b ©\n</div>',
          '<div>\nA&B <b> "q" \'s\' n\u00a0b ©\n</div>',
        ]
      : [html, html];
    const body = async (id) => (await kramdownOf(double, id)).split('\n{:')[0];
    const append = async (data) =>
      (await raw(double, '/api/block/appendBlock', { ...md(data), parentID: MD_DOC })).data[0]
        .doOperations[0].id;
    const h = await append(html);
    assert.equal(await body(h), once, 'appendBlock: one pass');
    const ins = (await raw(double, '/api/block/insertBlock', { ...md(html), previousID: h }))
      .data[0].doOperations[0].id;
    assert.equal(await body(ins), once, 'insertBlock: one pass');
    await raw(double, '/api/block/updateBlock', { ...md(html), id: ins });
    assert.equal(await body(ins), twice, 'updateBlock: two passes');
    await raw(double, '/api/block/updateBlock', { ...md(await kramdownOf(double, h)), id: h });
    assert.equal(await body(h), twice, 'a self round trip of an inserted block decodes once more');
    const q = await append(`> ${html.replace(/\n/g, '\n> ')}`);
    const [qh] = await childIds(double, q);
    assert.equal(await body(qh), once, 'inside an appended blockquote: one pass');
    await raw(double, '/api/block/updateBlock', {
      ...md(`> ${html.replace(/\n/g, '\n> ')}`),
      id: q,
    });
    assert.equal(await body((await childIds(double, q))[0]), twice, 'an updated container: two');
    const p = await append(para);
    assert.equal(await body(p), paraStored);
    await raw(double, '/api/block/updateBlock', { ...md(para), id: p });
    assert.equal(await body(p), paraStored, 'paragraph text: one decode on every path');
    await flush(double);
    const [row] = await sql(double, `SELECT markdown, content FROM blocks WHERE id = '${ins}'`);
    assert.deepEqual(row, { content: twice, markdown: twice }, 'SQL agrees');
    if (double.live) return;
    // v3.7.4-alpha.1 (Lute a361448d): stored as written on every path.
    const fixed = await mdDouble(['起点'], { luteDecodesHtmlEntities: false });
    const id = (await raw(fixed, '/api/block/appendBlock', { ...md(html), parentID: MD_DOC }))
      .data[0].doOperations[0].id;
    await raw(fixed, '/api/block/updateBlock', { ...md(html), id });
    assert.equal((await kramdownOf(fixed, id)).split('\n{:')[0], html);
  },
);

kernelTest(
  '§13 paragraph beginning space: with conf.export.paragraphBeginningSpace a document read (not a block read) has two U+3000 before each top-level paragraph but the first block; every kramdown read is TrimSpaced, so stored leading U+3000 vanish from a block read only',
  async () => {
    const double = await mdDouble([
      'plain para',
      '## Heading two',
      { id: '20250101000000-under01', markdown: 'under heading' },
      '- item a',
      '> quote p1',
      '![img](assets/x.png)',
    ]);
    const UNDER = '20250101000000-under01';
    const version = await raw(double, '/api/system/version', {});
    assert.equal(version.data, '3.7.3');
    const conf = (await raw(double, '/api/system/getConf', {})).data.conf.export;
    assert.equal(conf.paragraphBeginningSpace, false, 'off by default');
    const I = '\u3000\u3000';
    let doc;
    let many;
    let one;
    try {
      await raw(double, '/api/setting/setExport', { ...conf, paragraphBeginningSpace: true });
      doc = await kramdownOf(double, MD_DOC);
      one = await kramdownOf(double, UNDER);
      many = (await raw(double, '/api/block/getBlockKramdowns', { ids: [UNDER, MD_DOC] })).data;
    } finally {
      await raw(double, '/api/setting/setExport', conf);
    }
    const docLines = lines(doc).split('\n');
    assert.deepEqual(
      docLines.filter((l) => l.startsWith(I)),
      [`${I}under heading`],
      'the first block, list, quote and image paragraphs get none',
    );
    assert.ok(docLines[0].startsWith('plain para'));
    assert.match(one, /^under heading\n/, 'a block read by its id never shows them');
    assert.match(many[UNDER], /^under heading\n/);
    assert.ok(many[MD_DOC].includes(`${I}under heading`));
    assert.equal(
      (await raw(double, '/api/system/getConf', {})).data.conf.export.paragraphBeginningSpace,
      false,
      'restored',
    );
    // The read-modify-write hazard, setting off: stored U+3000 read back
    // without them by id, with them in the document, SQL content and
    // getChildBlocks content; the markdown columns hide them.
    await raw(double, '/api/block/updateBlock', { ...md(`${I}under heading`), id: UNDER });
    assert.match(await kramdownOf(double, UNDER), /^under heading\n/);
    assert.ok((await kramdownOf(double, MD_DOC)).includes(`${I}under heading`));
    await flush(double);
    const [row] = await sql(double, `SELECT markdown, content FROM blocks WHERE id = '${UNDER}'`);
    assert.deepEqual(row, { content: `${I}under heading`, markdown: 'under heading' });
    const child = (await raw(double, '/api/block/getChildBlocks', { id: MD_DOC })).data.find(
      (c) => c.id === UNDER,
    );
    assert.deepEqual([child.content, child.markdown], [`${I}under heading`, 'under heading']);
  },
);

const KEYS = [
  'action',
  'data',
  'id',
  'rootID',
  'parentID',
  'previousID',
  'nextID',
  'retData',
  'blockIDs',
  'blockID',
  'deckID',
  'avID',
  'srcIDs',
  'srcs',
  'isDetached',
  'name',
  'type',
  'format',
  'keyID',
  'rowID',
  'isTwoWay',
  'backRelationKeyID',
  'removeDest',
  'layout',
  'groupID',
  'targetGroupID',
  'viewID',
  'ignoreDefaultFill',
  'context',
];

kernelTest(
  '§13 append and prepend answer ONE insert op (the first parsed block, its parent, its previous sibling; list markdown into a list: the parsed list, parent ""); a failed append keeps appendInsert; updateBlock errors: tree not found (unknown), block not found (stale)',
  async () => {
    const double = await fixtureDouble();
    const op = (res) => {
      assert.equal(res.code, 0, res.msg);
      assert.equal(res.data[0].doOperations.length, 1);
      const o = res.data[0].doOperations[0];
      assert.deepEqual(Object.keys(o), KEYS, '29 keys, in order');
      return o;
    };
    const last = (await double.topLevel(DOC1)).at(-1);
    const a = op(
      await raw(double, '/api/block/appendBlock', { ...md('A1\n\nA2\n\nA3'), parentID: DOC1 }),
    );
    const top = await double.topLevel(DOC1);
    assert.deepEqual(
      [a.action, a.id, a.parentID, a.previousID],
      ['insert', top.at(-3), DOC1, last],
      'all three appended, the first reported',
    );
    const b = op(
      await raw(double, '/api/block/prependBlock', { ...md('B1\n\nB2'), parentID: DOC1 }),
    );
    assert.deepEqual(
      [b.action, b.id, b.parentID, b.previousID],
      ['insert', (await double.topLevel(DOC1))[0], DOC1, ''],
    );
    const items = await childIds(double, LIST);
    const l = op(
      await raw(double, '/api/block/appendBlock', { ...md('- x\n- y'), parentID: LIST }),
    );
    assert.deepEqual([l.action, l.parentID, l.previousID], ['insert', '', '']);
    assert.equal(await exists(double, l.id), false, 'the parsed list was never inserted');
    const after = await childIds(double, LIST);
    assert.deepEqual(after.slice(0, items.length), items);
    assert.equal(after.length, items.length + 2, 'its items were moved in');
    const z = op(await raw(double, '/api/block/appendBlock', { ...md('z para'), parentID: LIST }));
    const item = (await childIds(double, LIST)).at(-1);
    assert.deepEqual(
      [z.id, z.parentID, z.previousID],
      [(await childIds(double, item))[0], item, ''],
    );
    // Errors.
    const nobody = '20990101000000-zzzzzzz';
    const unknown = await raw(double, '/api/block/updateBlock', { ...md('x'), id: nobody });
    assert.deepEqual([unknown.code, unknown.msg], [-1, 'get block failed: tree not found']);
    const noParent = await raw(double, '/api/block/appendBlock', { ...md('x'), parentID: nobody });
    assert.deepEqual([noParent.code, noParent.msg], [-1, `parent block not found: ${nobody}`]);
    // An emptied blockquote: the load drops it, the block-id table keeps it.
    for (const id of await childIds(double, QUOTE))
      await raw(double, '/api/block/deleteBlock', { id });
    await flush(double);
    const stale = await raw(double, '/api/block/updateBlock', { ...md('x'), id: QUOTE });
    assert.deepEqual([stale.code, stale.msg], [-1, 'get block failed: block not found']);
    const failed = op(await raw(double, '/api/block/appendBlock', { ...md('x'), parentID: QUOTE }));
    assert.deepEqual(
      [failed.action, failed.id, failed.parentID],
      ['appendInsert', '', QUOTE],
      'the action is not converted',
    );
  },
);

kernelTest(
  '§13 reads rewrite HTML blocks: getBlockKramdown(s) trim them and add <div>\\n unless they start with <div> and \\n</div> unless they end with </div> (independently); getChildBlocks and SQL do not; a self round trip stores the wrapper; <p>, <!-- --> lines are paragraphs',
  async () => {
    const double = await mdDouble(['起点']);
    const append = async (data) =>
      (await raw(double, '/api/block/appendBlock', { ...md(data), parentID: MD_DOC })).data[0]
        .doOperations[0].id;
    const body = async (id) => (await kramdownOf(double, id)).split('\n{:')[0];
    const markdown = async (id) =>
      (await raw(double, '/api/block/getChildBlocks', { id: MD_DOC })).data.find((c) => c.id === id)
        .markdown;
    const c = await append('<div class="c">x</div>');
    assert.equal(await body(c), '<div>\n<div class="c">x</div>', 'unbalanced');
    assert.equal(
      (await raw(double, '/api/block/getBlockKramdowns', { ids: [c] })).data[c].split('\n{:')[0],
      '<div>\n<div class="c">x</div>',
    );
    assert.equal(await markdown(c), '<div class="c">x</div>');
    const ab = await append('<div>a</div>\n<p>b</p>');
    assert.equal(await body(ab), '<div>a</div>\n<p>b</p>\n</div>');
    const plain = await append('<div>\nplain\n</div>');
    assert.equal(await body(plain), '<div>\nplain\n</div>');
    await flush(double);
    assert.equal(
      (await double.block(c)).markdown,
      '<div class="c">x</div>',
      'SQL is not rewritten',
    );
    await raw(double, '/api/block/updateBlock', { ...md(await kramdownOf(double, c)), id: c });
    assert.equal(await markdown(c), '<div>\n<div class="c">x</div>', 'now stored');
    for (const text of ['<p>hi</p>', '<!-- c -->']) {
      const id = await append(text);
      assert.equal((await double.block(id)).type, 'p', text);
      assert.equal(await body(id), text);
    }
  },
);

kernelTest(
  '§13 writes rewrite refs: a ref to a block the block-id table lacks loses its id on every write path; a dynamic anchor is refreshed when its block changes (refs the kernel has indexed), and updateBlock gives a dynamic ref the last refreshed text, stale or not; inserts never do',
  async () => {
    const T = '20250101000000-target1';
    const X = '20250101000099-nonexis';
    const double = await mdDouble([{ id: T, markdown: '目标' }, '别的段落']);
    const append = async (data) =>
      (await raw(double, '/api/block/appendBlock', { ...md(data), parentID: MD_DOC })).data[0]
        .doOperations[0].id;
    const body = async (id) => (await kramdownOf(double, id)).split('\n{:')[0];
    const u = await append(`U ((${X} '无')) V ((${X} "静")) W ((${X}))`);
    assert.equal(await body(u), `U (( '无')) V (( '静')) W (( '${X}'))`);
    await raw(double, '/api/block/updateBlock', { ...md(`己 ((${X} '无'))`), id: u });
    assert.equal(await body(u), "己 (( '无'))");
    // Dynamic anchors.
    const r = await append(`引 ((${T} 'a')) 和 ((${T} "静态"))`);
    await flush(double);
    await raw(double, '/api/block/updateBlock', { ...md('乙'), id: T });
    await flush(double);
    assert.equal(await body(r), `引 ((${T} '乙')) 和 ((${T} "静态"))`, 'refreshed; static stays');
    const x = await append('X');
    await raw(double, '/api/block/updateBlock', { ...md(`X ((${T} 'zzz'))`), id: x });
    assert.equal(await body(x), `X ((${T} '乙'))`, 'updateBlock takes the cached text');
    const y = (
      await raw(double, '/api/block/insertBlock', { ...md(`Y ((${T} 'zzz'))`), previousID: x })
    ).data[0].doOperations[0].id;
    assert.equal(await body(y), `Y ((${T} 'zzz'))`, 'an insert keeps it');
    // With no ref indexed, a change refreshes nothing: the cache goes stale.
    for (const id of [r, x, y]) await raw(double, '/api/block/deleteBlock', { id });
    await flush(double);
    await raw(double, '/api/block/updateBlock', { ...md('丙'), id: T });
    const z = await append('Z');
    await raw(double, '/api/block/updateBlock', { ...md(`Z ((${T} 'zzz'))`), id: z });
    assert.equal(await body(z), `Z ((${T} '乙'))`, 'stale: the block reads 丙');
    assert.equal(await body(T), '丙');
  },
);

kernelTest(
  '§13 an insert none of whose anchors the block-id table has makes the kernel reload the UI (no txerr, empty id, parentID as asked); a stale anchor, or one missing in a document another anchor found, is a txerr instead',
  async () => {
    const double = await fixtureDouble();
    const nobody = '20990101000000-zzzzzzz';
    const insert = async (anchor) =>
      (await raw(double, '/api/block/insertBlock', { ...md('x'), ...anchor })).data[0]
        .doOperations[0];
    await raw(double, '/api/block/deleteBlock', { id: CLOSING });
    await flush(double);
    const reloads = [
      await insert({ previousID: nobody }),
      await insert({ nextID: CLOSING }),
      await insert({}),
    ];
    for (const o of reloads) assert.deepEqual([o.id, o.parentID], ['', '']);
    const txerr = await insert({ parentID: DOC1, previousID: CLOSING });
    assert.deepEqual([txerr.id, txerr.parentID, txerr.previousID], ['', DOC1, CLOSING]);
    if (!('uiReloads' in double)) throw new LiveUnsupported('uiReloads');
    assert.deepEqual(double.uiReloads, Array(3).fill('/api/block/insertBlock'));
    assert.deepEqual(double.txErrors, [
      `/api/block/insertBlock: Transaction failed: block not found [${CLOSING}]`,
    ]);
  },
);

// The kernel double's own rules: fidelity to the fixtures (rows, child
// lists, kramdown, breadcrumbs), Lute as the Markdown engine, the block-tree
// rules of kernel v3.7, the asynchronous SQL index, and the SQL it reads.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  asKernel,
  quoteClosed,
  createKernel,
  ek,
  fixtureDouble,
  FIXTURES,
  kernel,
  kernelTest,
  Lute,
  sql,
  TABLE,
  TABLE_KERNEL,
  TABLE_SPACED,
  testing,
  topLevel,
} from './kernel-support.mjs';
import { repo } from './support.mjs';

/** The double's own behaviour: not run against a live kernel. */
const doubleTest = (name, fn) =>
  kernelTest(name, { live: 'a test of the kernel double itself' }, fn);

const DOC1 = '20240614083000-wk24rep';
const P1 = '20240614083000-a1b2c3d';
const H2 = '20240614083112-h2jz8kq'; // ## 本周进展
const H3 = '20240614083300-h3bk2nd'; // ### 后端
const LIST = '20240614083125-lst0a9x';
const LI1 = '20240614083125-li01qwe';
const QUOTE = '20240614083420-bq9klmn';
const CODE = '20240614083330-cd7rust';

const raw = (double, path, body) => double.request(path, body);
const { canonicalIal } = testing;

doubleTest(
  'the double serves the fixtures exactly (SQL rows, child lists, kramdown, breadcrumbs, hpaths), attributes as sets and the table unpadded',
  async () => {
    const double = await fixtureDouble();
    for (const f of FIXTURES) {
      for (const row of [f.document, ...f.blocks.filter((b) => b.id !== f.document.id)]) {
        const [got] = await sql(double, `SELECT * FROM blocks WHERE id = '${row.id}'`);
        const want = { ...row, ial: canonicalIal(row.ial) };
        if (row.id === TABLE) want.markdown = TABLE_KERNEL;
        assert.deepEqual({ ...got, ial: canonicalIal(got.ial) }, want, row.id);
        assert.deepEqual(Object.keys(got), Object.keys(row), 'keys sorted as Go encodes a map');
        assert.deepEqual(
          (await raw(double, '/api/block/getChildBlocks', { id: row.id })).data,
          f.api.getChildBlocks[row.id].map((c) =>
            c.id === TABLE ? { ...c, markdown: TABLE_KERNEL } : c,
          ),
          row.id,
        );
        assert.equal(
          canonicalIal(
            (await raw(double, '/api/block/getBlockKramdown', { id: row.id, mode: 'md' })).data
              .kramdown,
          ),
          asKernel(f.api.getBlockKramdown[row.id]).trim(),
        );
        assert.deepEqual(
          (await raw(double, '/api/block/getBlockBreadcrumb', { id: row.id })).data,
          f.api.getBlockBreadcrumb[row.id],
          row.id,
        );
        assert.equal(
          (await raw(double, '/api/filetree/getHPathByID', { id: row.id })).data,
          f.api.getHPathByID[row.id],
        );
      }
    }
  },
);

doubleTest(
  "Lute reproduces the fixture rows from the documents' kramdown (type, subtype, markdown, content, parent_id, ial, …)",
  async () => {
    // Build the four documents from their kramdown alone: Lute splits and types the blocks.
    const documents = FIXTURES.map((f) => {
      const k = f.api.getBlockKramdown[f.document.id];
      return {
        id: f.document.id,
        title: /title="([^"]*)"/.exec(f.document.ial)[1],
        box: f.document.box,
        hpath: f.document.hpath,
        path: f.document.path,
        blocks: [k.slice(0, k.lastIndexOf('\n\n{:'))],
      };
    });
    const double = testing.createKernelDouble({ documents, lute: Lute });
    const cols = [
      'alias',
      'box',
      'content',
      'created',
      'fcontent',
      'hpath',
      'ial',
      'id',
      'length',
      'markdown',
      'memo',
      'name',
      'parent_id',
      'path',
      'root_id',
      'sort',
      'subtype',
      'tag',
      'type',
      'updated',
    ];
    for (const f of FIXTURES) {
      for (const b of f.blocks.filter((x) => x.type !== 'd')) {
        const r = await double.block(b.id);
        assert.ok(r, b.id);
        const want = b.id === TABLE ? { ...b, markdown: TABLE_KERNEL } : b;
        for (const c of cols) assert.equal(r[c], want[c], `${b.id} ${b.type} ${c}`);
      }
      assert.deepEqual(
        (await double.snapshot(f.document.id)).map((x) => x.id),
        f.blocks.filter((x) => x.type !== 'd').map((x) => x.id),
      );
      for (const [id, k] of Object.entries(f.api.getBlockKramdown)) {
        if (id !== f.document.id)
          assert.equal(
            await double.kramdown(id),
            quoteClosed(k.replace(TABLE_SPACED, TABLE_KERNEL)).trim(),
            id,
          );
      }
    }
  },
);

doubleTest(
  'heading sections and parent_id (HeadingParent) follow inserted and deleted headings',
  async () => {
    const { double, host } = await kernel();
    // A new h2 right after the first paragraph takes over the blocks that followed, up to the next h2.
    const [h] = await host.insertBlock('## 新章节', { previousID: P1 });
    const [sectionOfNew] = await host.getChildBlocks([h]);
    assert.deepEqual(sectionOfNew, []);
    const [row] = await host.getBlocks([H2]);
    assert.equal(row.parent_id, DOC1);
    // An h3 below the h2: the list under the h2 now hangs under it.
    const [h3] = await host.insertBlock('### 小节', { previousID: H2 });
    const [list] = await host.getBlocks([LIST]);
    assert.equal(list.parent_id, h3);
    const [section] = await host.getChildBlocks([H2]);
    assert.deepEqual(section.map((c) => c.id).slice(0, 3), [h3, LIST, H3]);
    const [sub] = await host.getChildBlocks([h3]);
    assert.deepEqual(
      sub.map((c) => c.id),
      [LIST],
      'the section of an h3 ends at the next h3',
    );
    await host.deleteBlock(h3);
    assert.equal((await host.getBlocks([LIST]))[0].parent_id, H2);
    // Blocks inside containers keep the container as parent.
    assert.equal((await host.getBlocks([LI1]))[0].parent_id, LIST);
    assert.equal((await double.block('20240614083420-p07yuio')).parent_id, QUOTE);
  },
);

doubleTest(
  'prepend/append only under d, b, l, i, s, callout (v3.7 CheckContainerParent); insertBlock by parentID alone too',
  async () => {
    const { double, host } = await kernel();
    const heading = await raw(double, '/api/block/appendBlock', {
      dataType: 'markdown',
      data: 'x',
      parentID: H2,
    });
    assert.equal(heading.code, -1);
    assert.match(
      heading.msg,
      /^heading \[20240614083112-h2jz8kq\] is a leaf block and cannot have children; to place a block below this heading, pass previousID=/,
    );
    const leaf = await raw(double, '/api/block/prependBlock', {
      dataType: 'markdown',
      data: 'x',
      parentID: CODE,
    });
    assert.equal(leaf.code, -1);
    assert.equal(
      leaf.msg,
      'block [20240614083330-cd7rust] type "c" is a leaf block and cannot have children; use previousID to place the block as its sibling instead',
    );
    const byParent = await raw(double, '/api/block/insertBlock', {
      dataType: 'markdown',
      data: 'x',
      parentID: P1,
    });
    assert.equal(byParent.code, -1);
    const missing = await raw(double, '/api/block/appendBlock', {
      dataType: 'markdown',
      data: 'x',
      parentID: '20990101000000-zzzzzzz',
    });
    assert.deepEqual(
      [missing.code, missing.msg],
      [-1, 'parent block not found: 20990101000000-zzzzzzz'],
    );
    const bad = await raw(double, '/api/block/appendBlock', {
      dataType: 'markdown',
      data: 'x',
      parentID: 'nope',
    });
    assert.deepEqual([bad.code, bad.msg], [-1, 'invalid ID argument']);
    // Through the adapter the refusal is an Error with the kernel's code and message.
    await assert.rejects(
      host.appendBlock(H2, 'x'),
      (e) =>
        e instanceof ek.SiyuanApiError &&
        e.kernelCode === -1 &&
        e.code === 'HOST_ERROR' &&
        /is a leaf block/.test(e.msg),
    );
    // Containers accept: blockquote (append), document (prepend), list item, super block.
    const [q] = await host.appendBlock(QUOTE, '引用里的新段落');
    assert.equal((await host.getBlocks([q]))[0].parent_id, QUOTE);
    const [first] = await host.prependBlock(DOC1, '文首');
    assert.equal((await topLevel(host, DOC1))[0].id, first);
    const [inItem] = await host.appendBlock(LI1, '列表项里的第二段');
    assert.deepEqual((await host.getChildBlocks([LI1]))[0].map((c) => c.id).at(-1), inItem);
    const [inRow] = await host.appendBlock('20240615100050-sb0row1', '超级块里的段落');
    assert.equal((await host.getBlocks([inRow]))[0].parent_id, '20240615100050-sb0row1');
  },
);

doubleTest(
  'updateBlock keeps only the first block, keeps only the IAL the markdown carries, and renews container children ids',
  async () => {
    const { double, host } = await kernel();
    const closing = '20240614083630-p12olp4';
    await host.updateBlock(closing, '第一段\n\n第二段');
    const [row] = await host.getBlocks([closing]);
    assert.equal(row.markdown, '第一段');
    assert.ok(!(await double.kramdown(DOC1)).includes('第二段'), 'the rest is dropped');
    assert.deepEqual(
      [row.name, row.alias, row.memo],
      ['', '', ''],
      'attributes not in the markdown are lost',
    );
    // The ial column lists the pairs in a random order (§11): compare them as a set.
    assert.match(
      testing.canonicalIal(row.ial),
      /^\{: id="20240614083630-p12olp4" updated="\d{14}"\}$/,
    );
    await host.updateBlock(closing, '带属性\n{: name="n1" custom-k="v"}');
    const [withIal] = await host.getBlocks([closing]);
    assert.equal(withIal.name, 'n1');
    assert.match(withIal.ial, /custom-k="v"/);
    // A container: its children get new ids.
    const oldItems = (await host.getChildBlocks([LIST]))[0].map((c) => c.id);
    await host.updateBlock(LIST, '- 甲\n- 乙');
    const newItems = (await host.getChildBlocks([LIST]))[0];
    assert.deepEqual(
      newItems.map((c) => c.markdown),
      ['- 甲', '- 乙'],
    );
    for (const c of newItems) assert.ok(!oldItems.includes(c.id));
    assert.equal(
      (await host.getBlocks([oldItems[0]]))[0],
      null,
      'old children are gone from SQL too',
    );
    // A list item updated with list markdown becomes that item (the list wrapper is dropped).
    const li = newItems[0].id;
    await host.updateBlock(li, '- 丙');
    assert.equal((await host.getBlocks([li]))[0].markdown, '- 丙');
    assert.equal((await host.getBlocks([LIST]))[0].markdown, '- 丙\n- 乙');
  },
);

doubleTest(
  '§4 lists: list markdown appended or prepended moves its items in, other blocks get a new item; next to an item, list markdown gives its first item and other blocks go straight into the list',
  async () => {
    const { double, host } = await kernel();
    await host.appendBlock(LIST, '- 四');
    let [items] = await host.getChildBlocks([LIST]);
    assert.equal(items.at(-1).markdown, '- 四');
    assert.equal(items.at(-1).type, 'i');
    const [para] = await host.appendBlock(LIST, '段落');
    [items] = await host.getChildBlocks([LIST]);
    const wrapped = items.at(-1);
    assert.equal(wrapped.type, 'i');
    assert.equal(wrapped.markdown, '- 段落');
    assert.equal(
      (await host.getBlocks([para]))[0].parent_id,
      wrapped.id,
      'the kernel reports the paragraph, now inside a new item',
    );
    const [li] = await host.insertBlock('- 五\n- 六', { previousID: LI1 });
    assert.equal((await host.getBlocks([li]))[0].markdown, '- 五');
    assert.ok(
      !(await double.kramdown(DOC1)).includes('六'),
      'only the first item of the list is kept',
    );
    // A paragraph next to an item lands directly in the list: it is in the
    // tree, but no list item holds it (KERNEL-FACTS §4).
    const [bare] = await host.insertBlock('裸段落', { previousID: LI1 });
    assert.equal((await double.block(bare)).parent_id, LIST);
    assert.equal((await double.block(bare)).type, 'p');
    // Ordered lists renumber.
    const ordered = '20240614083550-lst2olq';
    await host.prependBlock(ordered, '1. 零');
    assert.equal(
      (await host.getBlocks([ordered]))[0].markdown,
      '1. 零\n2. 接入 WebAssembly 模块\n3. 补充 dryRun 预览\n4. 发布 v0.2.0',
    );
  },
);

doubleTest(
  '§4 task items: prependBlock puts the block before the checkbox, insertBlock by parent after it',
  async () => {
    const { double, host } = await kernel();
    const item = '20240615100205-li2todo'; // - [ ] 在 onload 中 fetch 并实例化
    await host.prependBlock(item, '前置段落');
    assert.equal(
      (await double.kramdown(item)).replace(/\{:[^}]*\}/g, ''),
      '- 前置段落\n  \n\n  [ ] 在 onload 中 fetch 并实例化\n  ',
      'the checkbox no longer starts the item',
    );
    const { double: d2, host: h2 } = await kernel();
    await h2.insertBlock('首段', { parentID: item });
    assert.equal(
      (await d2.kramdown(item)).replace(/\{:[^}]*\}/g, ''),
      '- [ ] 首段\n  \n\n  在 onload 中 fetch 并实例化\n  ',
    );
  },
);

doubleTest(
  'deleting the only paragraph of a list item leaves an empty paragraph; deleting an unknown id is a silent no-op',
  async () => {
    const { double, host } = await kernel();
    await host.deleteBlock('20240614083125-p01asdf');
    await host.flushTransaction(); // deleteBlock answers before its transaction runs
    const [kids] = await host.getChildBlocks([LI1]);
    assert.equal(kids.length, 1);
    assert.equal(kids[0].type, 'p');
    assert.equal(kids[0].markdown, undefined);
    const res = await raw(double, '/api/block/deleteBlock', { id: '20990101000000-zzzzzzz' });
    assert.equal(res.code, 0);
  },
);

doubleTest(
  'markdown documents load through Lute; the double needs Lute only to parse',
  async () => {
    const g = globalThis.Lute;
    delete globalThis.Lute;
    try {
      const noLute = testing.createKernelDouble({
        fixtures: FIXTURES.map((f) => structuredClone(f)),
      });
      const host = ek.createSiyuanHost({ request: noLute.request });
      assert.equal((await host.getBlocks([P1]))[0].id, P1, 'reading fixtures needs no Lute');
      await assert.rejects(host.updateBlock(P1, 'x'), /Lute/);
    } finally {
      globalThis.Lute = g;
    }
    // Without { lute }, the global Lute (a browser's script tag) is used.
    const viaGlobal = ek.createSiyuanHost({
      request: testing.createKernelDouble({ fixtures: FIXTURES.map((f) => structuredClone(f)) })
        .request,
    });
    await viaGlobal.updateBlock(P1, 'y');
    const double = testing.createKernelDouble({
      documents: [
        {
          id: '20250301090000-doc0001',
          title: 'T',
          box: '20250301090000-nbdemo1',
          hpath: '/T',
          blocks: [
            { id: '20250301090100-intro01', markdown: '**粗体** 与 `代码`' },
            '## 标题\n正文紧跟标题',
            '| a | b |\n| --- | --- |\n| 1 | 2 |',
          ],
        },
      ],
      lute: Lute,
    });
    assert.deepEqual(
      (await double.snapshot('20250301090000-doc0001')).map((b) => [b.type, b.markdown]),
      [
        ['p', '**粗体** 与 `代码`'],
        ['h', '## 标题'],
        ['p', '正文紧跟标题'],
        ['t', '|a|b|\n| ---| ---|\n|1|2|'],
      ],
    );
    assert.equal((await double.block('20250301090100-intro01')).content, '粗体 与 代码');
    const table = (await double.snapshot('20250301090000-doc0001'))[3];
    assert.equal(
      (await double.block(table.id)).content,
      'a b 1 2',
      'table cells are space-separated',
    );
  },
);

doubleTest('the testing bundle runs in a browser: no Node imports in dist/testing.js', () => {
  const src = readFileSync(join(repo, 'pkg', 'dist', 'testing.js'), 'utf8');
  assert.doesNotMatch(src, /from ["']node:|require\(["'](node:)?(fs|path|module|url)["']\)/);
});

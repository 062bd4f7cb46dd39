import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ek, fixture, fixtureHost } from './support.mjs';

const outcomes = fixture('plugin-expected-outcomes.json');
const DOC1 = '20240614083000-wk24rep';

test('evaluateSlice takes ids or child blocks and keeps their shape', () => {
  const ids = Array.from({ length: 10 }, (_, i) => `2024010100000${i}-aaaaaa${i}`);
  const r = ek.evaluateSlice(ids, '-2:');
  assert.deepEqual(r.blocks, ids.slice(8));
  assert.equal(r.total, 10);
  assert.equal(r.header, '> [Slice View] Filter: "-2:" | Count: 2');
  const blocks = ids.map((id) => ({ id, type: 'p', markdown: id }));
  assert.deepEqual(
    ek.evaluateSlice(blocks, `${ids[2]}:+3`).blocks.map((b) => b.id),
    ids.slice(2, 5),
  );
  assert.throws(
    () => ek.evaluateSlice(ids, 'x:y:z'),
    (e) => e.code === 'INVALID_SLICE',
  );
  assert.throws(
    () => ek.evaluateSlice(ids, '20990101000000-zzzzzzz:+3'),
    (e) => e.code === 'SLICE_ANCHOR_NOT_FOUND',
  );
  assert.throws(
    () => ek.evaluateSlice('nope', '1:'),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
});

// The plugin's renders show the fixtures' table padded by hand; the kernel
// writes tables unpadded (KERNEL-FACTS §6, kernel notes §2), and so does
// the double: the renders are compared with that one table as the kernel
// serves it.
const PLUGIN_TABLE =
  '| 问题              | 状态   | 负责人 |\n| ------------------- | -------- | -------- |\n| 列表项更新异常    | 已修复 | 张三   |\n| 多块 REPLACE 丢失 | 调查中 | 李四   |';
const KERNEL_TABLE =
  '|问题|状态|负责人|\n| -------------------| --------| --------|\n|列表项更新异常|已修复|张三|\n|多块 REPLACE 丢失|调查中|李四|';

test('getBlockContent through the wasm binding reproduces the plugin renders', async () => {
  const host = fixtureHost();
  let compared = 0;
  for (const c of outcomes.getBlockContent) {
    if (c.result.status !== 'success' || c.args.slice !== undefined) continue;
    const r = await ek.getBlockContent(c.args, host, { lang: 'zh' });
    const expected = c.result.data.replace(PLUGIN_TABLE, KERNEL_TABLE);
    assert.equal(r.text, expected, JSON.stringify(c.args));
    compared++;
  }
  assert.ok(compared >= 8, `compared ${compared}`);
  await assert.rejects(
    ek.getBlockContent({ blockId: '20990101000000-zzzzzzz' }, host),
    (e) => e.code === 'BLOCK_NOT_FOUND',
  );
});

test('getBlockInfo is one batch for many ids and formats for agents', async () => {
  const host = fixtureHost();
  const info = await ek.getBlockInfo(
    { ids: `${DOC1},20240614083630-p12olp4,20990101000000-zzzzzzz` },
    host,
    { lang: 'zh' },
  );
  assert.deepEqual(info.notFoundIds, ['20990101000000-zzzzzzz']);
  assert.equal(info.blocks.length, 2);
  assert.deepEqual(
    info.blocks[0].toc.map((n) => n.content),
    ['本周进展', '风险与问题', '下周计划'],
  );
  assert.equal(host.calls.filter((c) => c.name === 'getBlocks').length, 1);
  const text = ek.formatBlockInfo(info, { lang: 'zh' });
  assert.match(text, /=== Block \[20240614083630-p12olp4\] attributes ===/);
  assert.match(text, /name: closing/);
});

test('buildBlockInfo and planAppend, the pure parts, agree with getBlockInfo and appendContent', async () => {
  const host = fixtureHost();
  const HEADING = '20240614083112-h2jz8kq';
  const LIST = '20240614083125-lst0a9x';
  const PARA = '20240614083000-a1b2c3d';
  for (const id of [DOC1, HEADING, LIST, PARA]) {
    const [block] = await host.getBlocks([id]);
    const [children] = await host.getChildBlocks([id]);
    const [breadcrumb] = await host.getBreadcrumb([id]);
    const headings = block.type === 'd' ? (await host.getDocHeadings([id]))[0] : undefined;
    const source = {
      block,
      breadcrumb,
      ...(block.type === 'p' ? {} : { children }),
      ...(headings ? { headings } : {}),
    };
    const [fromHost] = (await ek.getBlockInfo({ ids: id }, host, { lang: 'zh' })).blocks;
    assert.deepEqual(ek.buildBlockInfo(source, { lang: 'zh' }), fromHost, id);
  }
  const [doc] = await host.getBlocks([DOC1]);
  const docInfo = ek.buildBlockInfo({
    block: doc,
    children: (await host.getChildBlocks([DOC1]))[0],
  });
  assert.deepEqual(
    docInfo.toc.map((n) => n.content),
    ['本周进展', '风险与问题', '下周计划'],
  );

  const [heading] = await host.getBlocks([HEADING]);
  const [section] = await host.getChildBlocks([HEADING]);
  assert.deepEqual(ek.planAppend({ block: heading, section }), {
    placement: 'endOfSection',
    anchorId: section.at(-1).id,
  });
  assert.deepEqual(ek.planAppend({ block: heading }), {
    placement: 'endOfSection',
    anchorId: HEADING,
  });
  const [list] = await host.getBlocks([LIST]);
  assert.deepEqual(ek.planAppend({ block: list }), { placement: 'lastChild', anchorId: LIST });
  const [para] = await host.getBlocks([PARA]);
  assert.deepEqual(ek.planAppend({ block: para }), { placement: 'nextSibling', anchorId: PARA });
  // The plan is where appendContent writes: after the section's last block.
  const before = host.calls.length;
  const r = await ek.appendContent(
    { markdown: '追加', targetType: 'block', target: HEADING },
    host,
  );
  assert.equal(r.placement, 'endOfSection');
  const insert = host.calls.slice(before).find((c) => c.name === 'insertBlock');
  assert.equal(insert.args[1].previousID, section.at(-1).id);
  assert.throws(
    () => ek.planAppend(null),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  assert.throws(
    () => ek.buildBlockInfo({ block: 'x' }),
    (e) => e.code === 'INVALID_ARGUMENT',
  );
  // A source without a real block is refused, not planned around an empty id.
  assert.throws(
    () => ek.planAppend({}),
    (e) => e.code === 'INVALID_BLOCK_ID',
  );
  assert.throws(
    () => ek.buildBlockInfo({ block: { id: '', type: 'p' } }),
    (e) => e.code === 'INVALID_BLOCK_ID',
  );
});

test('appendContent and createNewDoc write through the host', async () => {
  const host = fixtureHost();
  const r = await ek.appendContent(
    { markdown: '追加的段落', targetType: 'document', target: DOC1 },
    host,
  );
  assert.equal(r.success, true);
  assert.equal(host.documentMarkdown(DOC1).endsWith('追加的段落'), true);
  const onHeading = await ek.appendContent(
    { markdown: '小节末尾', targetType: 'block', target: '20240614083112-h2jz8kq' },
    host,
  );
  assert.equal(onHeading.placement, 'endOfSection');
  const doc = await ek.createNewDoc(
    { title: 'Q3/Plan', anchorDocumentId: DOC1, location: 'children', markdown: '第一段' },
    host,
  );
  assert.equal(doc.hpath, '/项目周报/Q3-Plan');
  assert.equal(host.documentMarkdown(doc.docId), '第一段');
  const plan = ek.planNewDocPath({ anchorDoc: host.block(DOC1), title: 'X', location: 'siblings' });
  assert.deepEqual(plan, {
    notebook: '20240101090000-k3m9xzq',
    hpath: '/X',
    parentID: '',
    title: 'X',
  });
  await assert.rejects(
    ek.createNewDoc({ title: 'X', anchorDocumentId: DOC1, location: 'parent' }, host),
    (e) => e.code === 'NO_PARENT_DOCUMENT',
  );
});

test('a round trip: read with showId, rewrite a paragraph, read again', async () => {
  const host = fixtureHost();
  const view = await ek.getBlockContent({ blockId: DOC1, showId: true }, host, { lang: 'zh' });
  const m = /@@(\d{14}-[0-9a-z]{7})@@段落\n(.+)/.exec(view.text);
  const diff = `@@${m[1]}@@段落\n<<<<<<< SEARCH\n${m[2]}\n=======\n${m[2]}（已改）\n>>>>>>> REPLACE`;
  const report = await ek.applyBlockDiff(diff, host);
  assert.equal(report.ok, true, report.summary);
  const again = await ek.getBlockContent({ blockId: DOC1, showId: true }, host, { lang: 'zh' });
  assert.equal(again.text, view.text.replace(m[2], `${m[2]}（已改）`));
});

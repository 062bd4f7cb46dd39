// No lost text on the real kernel's terms: the seventeen ways an apply lost
// or misreported a user's note against a kernel that behaves like SiYuan
// (KERNEL-FACTS.md), each as a test of the built package through
// createSiyuanHost and the kernel double. Numbers are the items.
import assert from 'node:assert/strict';
import {
  docState,
  ek,
  fixtureDouble,
  FIXTURES,
  hostPath,
  isBlockWrite,
  kernelTest,
  LIVE,
  withoutUpdated,
  Lute,
  viaPath,
} from './kernel-support.mjs';

const DOC1 = '20240614083000-wk24rep';
const P = '20240614083000-a1b2c3d';
const P06 = '20240614083310-p06wert';
const CLOSING = '20240614083630-p12olp4';
const LIST = '20240614083125-lst0a9x';
const LI1 = '20240614083125-li01qwe';
const LI2 = '20240614083140-li02rty';
const LI1P = '20240614083125-p01asdf';
const QUOTE = '20240614083420-bq9klmn';
const Q1 = '20240614083420-p07yuio';
const Q2 = '20240614083435-p08ghjk';
const ORIGINAL = '本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。';
const sr = (id, search, replace) =>
  `@@${id}@@\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

/** A double, and a host over it whose requests pass through `hook(path, body, n)` first. */
async function setup(hook = () => {}, hostOptions = {}) {
  const double = await fixtureDouble();
  const seen = new Map();
  const request = async (path, body) => {
    // A kramdown read is one read whether batched or per id (one target).
    const kind = path === '/api/block/getBlockKramdowns' ? '/api/block/getBlockKramdown' : path;
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    await hook(kind, body, n, double);
    return double.request(path, body);
  };
  const host = ek.createSiyuanHost({ request, lute: Lute, ...hostPath(), ...hostOptions });
  return { double, host };
}

const docText = (double) => docState(double, DOC1);

kernelTest('1. the user typing while editkit works is never overwritten', async () => {
  const typed = `${ORIGINAL}（用户刚输入）`;
  // Typed just before the apply: the SQL view has not caught up, the tree has.
  {
    const { double, host } = await setup();
    await double.editor.updateBlock(P, typed);
    const report = await ek.applyBlockDiff(sr(P, '修复了若干问题', '修复了三个问题'), host);
    assert.equal(report.ok, true, report.summary);
    await host.flushTransaction();
    assert.equal(
      (await double.block(P)).markdown,
      `${ORIGINAL.replace('若干', '三个')}（用户刚输入）`,
    );
  }
  // Typed between the check and the write: refused as stale, nothing written.
  for (const [path, n] of [
    ['/api/query/sql', 1],
    ['/api/block/getBlockKramdown', 2],
  ]) {
    const { double, host } = await setup(async (p, _b, k, d) => {
      if (p === path && k === n) await d.editor.updateBlock(P, typed);
    });
    const report = await ek.applyBlockDiff(sr(P, '若干问题', '三个问题'), host);
    assert.equal(report.ok, false, `${path} #${n}`);
    assert.equal(report.results[0].error.code, 'STALE_BLOCK');
    assert.equal((await double.kramdown(P)).split('\n')[0], typed, `${path} #${n}`);
  }
});

kernelTest(
  '2. editing a container keeps every child it does not delete: ids, attributes, references',
  async () => {
    const { double, host } = await setup();
    await double.editor.updateBlock(CLOSING, `见 ((${Q2} "第二段"))。`);
    await double.editor.setAttrs(Q2, {
      bookmark: '重要',
      'custom-riff-decks': 'd1',
      name: '第二段',
    });
    await double.editor.setAttrs(LI2, { memo: '备注', 'custom-x': '1' });
    await double.flush();
    const refsBefore = JSON.stringify((await double.block(CLOSING)).markdown);
    const report = await ek.applyBlockDiff(
      [
        sr(QUOTE, '标题块不是容器块', '标题块不是容器'),
        '',
        sr(LIST, '- 编写单元测试', '- 编写单元测试与集成测试'),
      ].join('\n'),
      host,
    );
    assert.equal(report.ok, true, report.summary);
    assert.deepEqual(report.plan[0].keptChildren, [Q1, Q2]);
    await host.flushTransaction();
    for (const id of [Q1, Q2, LI1, LI2, '20240614083201-lst1b2n', '20240614083230-li05ghj'])
      assert.ok(await double.block(id), `${id} kept its id`);
    const q2 = (await double.block(Q2)).ial;
    assert.match(q2, /bookmark="重要"/);
    assert.match(q2, /custom-riff-decks="d1"/);
    assert.equal((await double.block(Q2)).name, '第二段');
    assert.equal((await double.block(LI2)).memo, '备注');
    assert.equal(JSON.stringify((await double.block(CLOSING)).markdown), refsBefore);
    assert.equal(
      (await double.block('20240614083230-li05ghj')).markdown,
      '- 编写单元测试与集成测试',
    );
  },
);

kernelTest(
  '3. a write that fails in the kernel queue (code 0) is caught and rolled back',
  async () => {
    // An update answered code 0 that never ran: verify finds the old text.
    // An insert that failed in the queue is answered code 0 with an empty
    // op id (KERNEL-FACTS §10): the write fails at once.
    for (const [path, code] of [
      [viaPath('/api/block/updateBlock'), 'WRITE_VERIFY_FAILED'],
      [viaPath('/api/block/insertBlock'), 'WRITE_FAILED'],
    ]) {
      const { double, host } = await setup();
      const before = await docText(double);
      double.failNextTransaction(path);
      const report = await ek.applyBlockDiff(
        `@@AFTER:${P06}@@\n新的一段\n\n${sr(P, '若干问题', '三个问题')}`,
        host,
      );
      assert.equal(report.ok, false, path);
      const failed = report.results.find((r) => r.status === 'failed');
      assert.equal(failed.error.code, code, path);
      assert.equal(report.rollback.ok, true, path);
      assert.equal(await docText(double), before, path);
    }
  },
);

kernelTest(
  '4. a write that landed but threw (or timed out) is found, rolled back or undone — at every write position',
  async () => {
    const diff = [
      sr(P, '若干问题', '三个问题'),
      `@@DELETE:${P06}@@`,
      `@@REPLACE:${CLOSING}@@\n全文完。\n\n## 附录\n\n附录正文`,
      `@@AFTER:${LI1}@@\n新的一项`,
      `@@APPEND:${DOC1}@@\n文末`,
    ].join('\n\n');
    // How many write requests the diff makes on this write path (7 block by
    // block; fewer in batches).
    let total = 0;
    {
      const { host } = await setup(async (path) => {
        if (isBlockWrite(path)) total += 1;
      });
      const clean = await ek.applyBlockDiff(diff, host);
      assert.equal(clean.ok, true, clean.summary);
    }
    assert.ok(total >= 4, `${total} writes`);
    for (const atomic of [true, false]) {
      for (let k = 1; k <= total; k++) {
        for (const when of ['after', 'timeout']) {
          let writes = 0;
          const { double, host } = await setup(
            async (path, body, _n, d) => {
              if (!isBlockWrite(path)) return;
              writes += 1;
              if (writes !== k) return;
              // The write reaches the kernel, then the answer is lost.
              await d.request(path, body);
              if (when === 'timeout') await new Promise(() => {});
              throw new Error('socket hang up');
            },
            // A live kernel's flush takes longer than the double's answer.
            { timeoutMs: LIVE ? 2000 : 50 },
          );
          const before = await docText(double);
          const label = `${atomic ? 'atomic' : 'non-atomic'} write #${k} ${when}`;
          const report = await ek.applyBlockDiff(diff, host, {
            atomic,
            timeoutMs: LIVE ? 4000 : 200,
          });
          assert.equal(report.ok, false, label);
          if (atomic) {
            assert.equal(report.rollback?.ok, true, `${label}: ${report.summary}`);
            assert.equal(await docText(double), before, label);
            // The write that landed is counted among those rolled back.
            assert.ok(report.rollback.reverted >= 1, `${label}: ${report.summary}`);
          } else {
            assert.ok(report.undo, label);
            const undone = await ek.applyBlockDiff(report.undo, host);
            assert.equal(undone.ok, true, `${label}: ${undone.summary}\n${report.undo}`);
            assert.equal(await docText(double), before, `${label}\n${report.undo}`);
          }
        }
      }
    }
  },
);

kernelTest(
  '5. an edit of a container and of a block inside it in one diff is refused, nothing written',
  async () => {
    for (const inner of [
      `@@DELETE:${LI1}@@`,
      `@@APPEND:${LIST}@@\n- 新项`,
      sr(LI1P, '完成 SEARCH/REPLACE 解析器', '完成解析器'),
      `@@AFTER:${LI2}@@\n- 新项`,
    ]) {
      const { double, host } = await setup();
      const before = await docText(double);
      const report = await ek.applyBlockDiff(
        `${inner}\n\n${sr(LIST, '- 编写单元测试', '- 编写测试')}`,
        host,
      );
      assert.equal(report.ok, false, inner);
      assert.deepEqual(
        report.results.map((r) => r.error?.code),
        ['CONFLICTING_EDITS', 'CONFLICTING_EDITS'],
        inner,
      );
      assert.equal(await docText(double), before, inner);
    }
  },
);

kernelTest(
  '6. an update that leaves a block without content is a checked delete whose undo applies',
  async () => {
    for (const body of ['{: custom-x="1"}', '\u200b', '<br>', '&nbsp;']) {
      const { double, host } = await setup();
      const before = await docText(double);
      const report = await ek.applyBlockDiff(`@@REPLACE:${P06}@@\n${body}`, host);
      assert.equal(report.ok, true, `${JSON.stringify(body)}: ${report.summary}`);
      assert.equal(report.plan[0].kind, 'DELETE');
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, `${JSON.stringify(body)}: ${undone.summary}\n${report.undo}`);
      assert.equal(await docText(double), before, JSON.stringify(body));
    }
  },
);

kernelTest('7. markdown is split the way the kernel splits it: nothing is dropped', async () => {
  for (const body of [
    'intro\n<div>x</div>',
    'intro\n<iframe src="https://example.com"></iframe>',
    'intro\n| a | b |\n| --- | --- |\n| 1 | 2 |',
    'a\n{: custom-x="1"}\nb',
    'a\n{{SELECT * FROM blocks LIMIT 1}}',
    'Title\n---',
    'text\n\n    indented',
  ]) {
    const { double, host } = await setup();
    const report = await ek.applyBlockDiff(`@@REPLACE:${P06}@@\n${body}`, host);
    assert.equal(report.ok, true, `${JSON.stringify(body)}: ${report.summary}`);
    const written = (await double.snapshot(DOC1)).map((b) => b.markdown).join('\n');
    for (const word of body.replace(/\{:[^}]*\}/g, '').match(/[A-Za-z]{3,}|\d/g) ?? [])
      assert.ok(written.includes(word), `${JSON.stringify(body)}: ${word} kept`);
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, `${JSON.stringify(body)}: ${undone.summary}`);
  }
});

kernelTest(
  '8. an attribute set by someone else between check and write makes the block stale',
  async () => {
    const { double, host } = await setup(async (path, _b, n, d) => {
      if (path === '/api/block/getBlockKramdown' && n === 2)
        await d.editor.setAttrs(P, { memo: '别人的备注', 'custom-tag': 'x' });
    });
    const report = await ek.applyBlockDiff(`@@REPLACE:${P}@@\n新文本`, host);
    assert.equal(report.results[0].error.code, 'STALE_BLOCK');
    assert.equal((await double.block(P)).memo, '别人的备注');
    assert.match((await double.block(P)).ial, /custom-tag="x"/);
  },
);

kernelTest(
  '9. a paragraph put before or after a list item is written as an item of that list',
  async () => {
    const { double, host } = await setup();
    const report = await ek.applyBlockDiff(
      `@@AFTER:${LI1}@@\n列表项之后的段落\n\n@@BEFORE:${LI1}@@\n列表项之前的段落`,
      host,
    );
    assert.equal(report.ok, true, report.summary);
    const list = (await double.kramdown(LIST)).replace(/\{:[^}]*\}/g, '');
    assert.match(list, /^- 列表项之前的段落\n/);
    assert.match(list, /\n- 列表项之后的段落\n/);
    const [after, before] = report.results.map((r) => r.newBlockIds[0]);
    assert.equal((await double.block(after)).type, 'i');
    assert.equal((await double.block(before)).type, 'i');
  },
);

kernelTest(
  '10. apply then undo restores the document exactly, blocks the kernel made itself included',
  async () => {
    for (const diff of [`@@DELETE:${LI1P}@@`, `@@REPLACE:${P06}@@\n---\ntitle: x\n---\n段`]) {
      const { double, host } = await setup();
      const before = await docText(double);
      const report = await ek.applyBlockDiff(diff, host);
      assert.equal(report.ok, true, `${diff}: ${report.summary}`);
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, `${diff}: ${undone.summary}\n${report.undo}`);
      assert.equal(await docText(double), before, `${diff}\n${report.undo}`);
    }
  },
);

kernelTest(
  '11. a late undo of an insert never deletes text the user added to the block since',
  async () => {
    // The user added to the inserted paragraph: the undo removes only what
    // the apply inserted (a content-checked SEARCH/REPLACE), their words stay.
    {
      const { double, host } = await setup();
      const report = await ek.applyBlockDiff(`@@AFTER:${P}@@\n插入的段落`, host);
      const id = report.results[0].newBlockIds[0];
      await double.editor.updateBlock(id, '插入的段落，用户又补充了很多内容');
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, undone.summary);
      await host.flushTransaction();
      assert.equal((await double.block(id)).markdown, '，用户又补充了很多内容');
    }
    // The user rewrote it: the undo refuses and writes nothing.
    {
      const { double, host } = await setup();
      const report = await ek.applyBlockDiff(`@@AFTER:${P}@@\n插入的段落`, host);
      const id = report.results[0].newBlockIds[0];
      await double.editor.updateBlock(id, '用户重写了这一段');
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, false);
      assert.equal(undone.results[0].error.code, 'CONTENT_MISMATCH');
      assert.equal((await double.block(id)).markdown, '用户重写了这一段');
    }
  },
);

kernelTest(
  '12. no duplicate ids: an undo applied twice, or kramdown copied into an AFTER body',
  async () => {
    const { double, host } = await setup();
    const report = await ek.applyBlockDiff(`@@DELETE:${P06}@@`, host);
    const once = await ek.applyBlockDiff(report.undo, host);
    assert.equal(once.ok, true, once.summary);
    const twice = await ek.applyBlockDiff(report.undo, host);
    assert.equal(await double.countId(P06), 1, 'the second undo did not duplicate the id');
    assert.ok(
      twice.warnings.some((w) => w.code === 'ID_IN_USE'),
      JSON.stringify(twice.warnings),
    );
    const copied = await double.kramdown(P);
    const pasted = await ek.applyBlockDiff(`@@AFTER:${CLOSING}@@\n${copied}`, host);
    assert.equal(pasted.ok, true, pasted.summary);
    assert.equal(await double.countId(P), 1);
    assert.deepEqual(pasted.idMap?.[0]?.oldId, P);
  },
);

kernelTest('13. updating a list item keeps its attributes', async () => {
  const { double, host } = await setup();
  await double.editor.setAttrs(LI2, { 'custom-status': 'doing', name: '进度' });
  await double.flush();
  const report = await ek.applyBlockDiff(
    sr(LI2, '- 实现 slice 分页阅读', '- 实现 slice 分页阅读（完成）'),
    host,
  );
  assert.equal(report.ok, true, report.summary);
  await host.flushTransaction();
  assert.match((await double.block(LI2)).ial, /custom-status="doing"/);
  assert.equal((await double.block(LI2)).name, '进度');
});

kernelTest(
  '14. what the kernel canonicalises is no verify failure: a ticked task box, <br>',
  async () => {
    const { double, host } = await setup();
    const task = '20240615100205-li2todo';
    const ticked = await ek.applyBlockDiff(sr(task, '- [ ] 在 onload', '- [x] 在 onload'), host);
    assert.equal(ticked.ok, true, ticked.summary);
    await host.flushTransaction();
    assert.match((await double.block(task)).markdown, /^- \[X\] 在 onload/);
    const br = await ek.applyBlockDiff(`@@REPLACE:${P06}@@\n第一行<br>第二行`, host);
    assert.equal(br.ok, true, br.summary);
  },
);

kernelTest('15. a host callback that never settles ends the call with HOST_TIMEOUT', async () => {
  const never = { getBlocks: () => new Promise(() => {}), flushTransaction: async () => {} };
  const timedOut = await ek.applyBlockDiff(`@@DELETE:${P06}@@`, never, { timeoutMs: 30 });
  assert.equal(timedOut.ok, false);
  assert.equal(timedOut.error.code, 'HOST_TIMEOUT');
  assert.equal(timedOut.error.subject, 'getBlocks');
  // The adapter's own request limit.
  const double = await fixtureDouble();
  const stuck = ek.createSiyuanHost({
    request: (path, body) =>
      path === '/api/query/sql' ? new Promise(() => {}) : double.request(path, body),
    timeoutMs: 30,
  });
  await assert.rejects(stuck.getBlocks([P]), (e) => e.code === 'HOST_TIMEOUT');
});

kernelTest(
  '16. a line that looks like a header but is none is an error with the fix, wherever it stands',
  async () => {
    const { double, host } = await setup();
    const before = await docText(double);
    const diff = `@@AFTER:${P}@@\n第一段\n\n@@AFTER:${P06}\n第二段`;
    const check = ek.validateBlockDiffFormat(diff);
    assert.equal(check.valid, false);
    assert.equal(check.errors[0].code, 'MALFORMED_HEADER');
    assert.equal(check.errors[0].line, 4);
    assert.equal(
      check.errors[0].suggestions[0],
      `Write the header as \`@@AFTER:${P06}@@\`, alone on its line.`,
    );
    const refused = await ek.applyBlockDiff(diff, host);
    assert.equal(refused.error.code, 'INVALID_DIFF_FORMAT');
    assert.equal(refused.error.errors[0].line, 4);
    assert.equal(await docText(double), before);
  },
);

kernelTest('17. a block prepended into a task item goes after its checkbox', async () => {
  const { double, host } = await setup();
  const task = '20240615100205-li2todo';
  const report = await ek.applyBlockDiff(`@@PREPEND:${task}@@\n前置说明`, host);
  assert.equal(report.ok, true, report.summary);
  assert.match((await double.kramdown(task)).replace(/\{:[^}]*\}/g, ''), /^- \[ \] 前置说明\n/);
  const undone = await ek.applyBlockDiff(report.undo, host);
  assert.equal(undone.ok, true, undone.summary);
  assert.equal(
    withoutUpdated(await double.kramdown(task)),
    withoutUpdated(FIXTURES[1].api.getBlockKramdown[task]),
    'the undo gives the checkbox back to the original text',
  );
});

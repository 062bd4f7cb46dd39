// SiYuan round 3: the ways a note was damaged on the real kernel while every
// test passed on a kind double (issue 31, items 1–11; SPEC §3.7 rules
// 14–21). Each test goes through the built package, createSiyuanHost and the
// pessimistic kernel double (attribute order shuffled on every read,
// emptied containers dropped at the next load, deletes answered before they
// run, failed inserts answered with an empty id), under the seed the run
// names (EDITKIT_DOUBLE_SEED), which a failure prints.
import assert from 'node:assert/strict';
import {
  createKernel,
  doublePath,
  ek,
  hostPath,
  isBlockWrite,
  kernelTest,
  LIVE,
  Lute,
  testing,
  viaPath,
} from './kernel-support.mjs';

const SEED = Number(process.env.EDITKIT_DOUBLE_SEED ?? 1);
const BOX = '20240701000000-boxrnd3';
const D = '20240701000000-docrnd3';
const id = (n) => `20240701${String(n).padStart(6, '0')}-${`r3b${n}`.padEnd(7, 'x').slice(0, 7)}`;
const [P1, P2, P3, Q, QP, L, LI, LIP, S, SP, TL, TI, TP1, TP2, DB, FC, FQ, FH, FHP, AV, DECK] = [
  ...Array(21).keys(),
].map((n) => id(n + 1));

/** A document with one block of each shape the items need. */
const BLOCKS = [
  `第一段，带属性。\n{: id="${P1}" name="第一" custom-note="保留"}`,
  `second\n{: id="${P2}"}`,
  `a + b = c\n{: id="${P3}"}`,
  `> 引用里唯一的段落\n> {: id="${QP}"}\n{: id="${Q}" custom-kind="quote" memo="引用"}`,
  `- {: id="${LI}"}唯一的一项\n  {: id="${LIP}"}\n{: id="${L}"}`,
  `{{{row\n超级块里唯一的段落\n{: id="${SP}"}\n\n}}}\n{: id="${S}"}`,
  `- {: id="${TI}"}[ ] 任务第一段\n  {: id="${TP1}"}\n\n  任务第二段\n  {: id="${TP2}"}\n{: id="${TL}"}`,
  `数据库里的一行\n{: id="${DB}" custom-avs="${AV}"}`,
  `一张闪卡\n{: id="${FC}" custom-riff-decks="${DECK}"}`,
  `> ## 折叠的标题\n> {: id="${FH}" fold="1"}\n>\n> 标题下的段落\n> {: id="${FHP}" heading-fold="1"}\n{: id="${FQ}"}`,
];

async function setup(hook = async () => {}, seed = SEED) {
  const double = await createKernel({
    documents: [{ id: D, title: 'round 3', box: BOX, hpath: '/round 3', blocks: BLOCKS }],
    notebooks: [{ id: BOX, name: 'round 3' }],
    lute: Lute,
    ...doublePath(),
    seed,
  });
  const seen = new Map();
  const request = async (path, body) => {
    // A kramdown read is one read whether batched or per id (one target).
    const kind = path === '/api/block/getBlockKramdowns' ? '/api/block/getBlockKramdown' : path;
    const n = (seen.get(kind) ?? 0) + 1;
    seen.set(kind, n);
    const answer = await hook(path === kind ? path : kind, body, n, double);
    return answer ?? double.request(path, body);
  };
  return {
    double,
    host: ek.createSiyuanHost({ request, lute: Lute, timeoutMs: 2000, ...hostPath() }),
  };
}

/** The document as the kernel holds it: attributes as sets, `updated` aside. */
async function state(double) {
  return (await double.kramdown(D)).replace(/\u200b/g, '').replace(/\{:([^}]*)\}/g, (_, inner) => {
    const pairs = [...inner.matchAll(/([\w-]+)="([^"]*)"/g)]
      .filter((m) => m[1] !== 'updated')
      .map((m) => `${m[1]}="${m[2]}"`)
      .sort();
    return `{: ${pairs.join(' ')}}`;
  });
}

const sr = (target, search, replace) =>
  `@@${target}@@\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
const at = `seed ${SEED}`;
/** A hook whose k-th write reaches the kernel and then loses its answer. */
function landsThenThrows(k) {
  let writes = 0;
  return async (path, body, _n, double) => {
    if (!isBlockWrite(path)) return undefined;
    writes += 1;
    if (writes !== k) return undefined;
    await double.request(path, body);
    throw new Error('socket hang up');
  };
}

kernelTest(
  '1. a punctuation-only write that lands and then throws is rolled back, never reported as nothing changed',
  async () => {
    for (const atomic of [true, false]) {
      const { double, host } = await setup(landsThenThrows(1));
      const before = await state(double);
      const report = await ek.applyBlockDiff(sr(P2, 'second', 'second!'), host, { atomic });
      assert.equal(report.ok, false, `${at}: ${report.summary}`);
      if (atomic) {
        assert.equal(report.rollback?.ok, true, `${at}: ${report.summary}`);
        assert.equal(report.rollback.reverted, 1, `${at}: the write that landed is undone`);
      } else {
        // The undo covers the write that landed: applying it gives `second`,
        // not `second!!` as a re-applied diff would.
        const undone = await ek.applyBlockDiff(report.undo, host);
        assert.equal(undone.ok, true, `${at}: ${undone.summary}\n${report.undo}`);
      }
      await host.flushTransaction();
      assert.equal((await double.block(P2)).markdown, 'second', at);
      assert.equal(await state(double), before, at);
    }
  },
);

kernelTest(
  '1. a write the kernel drops silently is caught even when it changes one symbol',
  async () => {
    const { double, host } = await setup();
    double.failNextTransaction(viaPath('/api/block/updateBlock'));
    const report = await ek.applyBlockDiff(sr(P3, 'a + b', 'a - b'), host);
    assert.equal(report.ok, false, `${at}: ${report.summary}`);
    assert.equal(report.results[0].error.code, 'WRITE_VERIFY_FAILED', at);
    assert.equal(report.results[0].status, 'failed');
    await host.flushTransaction();
    assert.equal((await double.block(P3)).markdown, 'a + b = c');
  },
);

kernelTest(
  '2. attributes another client sets between the row read and the kramdown read are kept',
  async () => {
    const { double, host } = await setup(async (path, _body, n, d) => {
      if (path === '/api/block/getBlockKramdown' && n === 1)
        await d.editor.setAttrs(P1, { memo: '别人的备注', bookmark: '书签', 'custom-y': '1' });
    });
    const report = await ek.applyBlockDiff(sr(P1, '带属性', '带着属性'), host);
    assert.equal(report.ok, true, `${at}: ${report.summary}`);
    await host.flushTransaction();
    const row = await double.block(P1);
    assert.equal(row.markdown, '第一段，带着属性。');
    assert.equal(row.memo, '别人的备注', at);
    assert.equal(row.name, '第一');
    assert.match(row.ial, /bookmark="书签"/);
    assert.match(row.ial, /custom-y="1"/);
    assert.match(row.ial, /custom-note="保留"/);
  },
);

kernelTest('3. an undo removes the attributes its apply added', async () => {
  const { double, host } = await setup();
  const before = await state(double);
  const report = await ek.applyBlockDiff(
    `@@REPLACE:${P1}@@\n改写的第一段\n{: custom-x="1" bookmark="新书签" style="color: red;"}`,
    host,
  );
  assert.equal(report.ok, true, `${at}: ${report.summary}`);
  await host.flushTransaction();
  assert.match((await double.block(P1)).ial, /custom-x="1"/);
  assert.match(
    (await double.block(P1)).ial,
    /custom-note="保留"/,
    'the apply kept what it did not name',
  );
  const undone = await ek.applyBlockDiff(report.undo, host);
  assert.equal(undone.ok, true, `${at}: ${undone.summary}\n${report.undo}`);
  await host.flushTransaction();
  assert.doesNotMatch((await double.block(P1)).ial, /custom-x|bookmark|style/);
  assert.equal(await state(double), before, at);
});

kernelTest(
  '4. deleting the last child of a blockquote, list, list item or super block deletes the container, and its undo brings both back',
  async () => {
    for (const [diff, container] of [
      [`@@DELETE:${QP}@@`, Q],
      [`@@DELETE:${LIP}@@`, L],
      [sr(SP, '超级块里唯一的段落', ''), S],
      [`@@DELETE:${TP1}@@\n\n@@DELETE:${TP2}@@`, TL],
    ]) {
      const { double, host } = await setup();
      const before = await state(double);
      const report = await ek.applyBlockDiff(diff, host);
      assert.equal(report.ok, true, `${at} ${diff}: ${report.summary}`);
      assert.deepEqual(
        report.plan.map((p) => [p.kind, p.blockId]),
        [['DELETE', container]],
        diff,
      );
      assert.ok(
        report.warnings.some((w) => w.code === 'CONTAINER_DELETED'),
        diff,
      );
      await host.flushTransaction();
      assert.equal(await double.block(container), undefined, diff);
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, `${at} ${diff}: ${undone.summary}\n${report.undo}`);
      assert.equal(await state(double), before, `${at} ${diff}\n${report.undo}`);
    }
  },
);

kernelTest(
  '4. appending into a container after deleting its only child keeps the container, whatever write fails',
  async () => {
    const diff = `@@DELETE:${QP}@@\n\n@@APPEND:${Q}@@\n替换进来的段落`;
    {
      const { double, host } = await setup();
      const before = await state(double);
      const report = await ek.applyBlockDiff(diff, host);
      assert.equal(report.ok, true, `${at}: ${report.summary}`);
      assert.deepEqual(
        report.plan.map((p) => p.kind),
        ['APPEND', 'DELETE'],
        'the container is never empty between two writes',
      );
      await host.flushTransaction();
      assert.equal((await double.block(Q)).markdown, '> 替换进来的段落');
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, `${at}: ${undone.summary}\n${report.undo}`);
      assert.equal(await state(double), before, at);
    }
    for (const k of [1, 2]) {
      for (const atomic of [true, false]) {
        const label = `${at}: write #${k} lands and throws, ${atomic ? 'atomic' : 'non-atomic'}`;
        const { double, host } = await setup(landsThenThrows(k));
        const before = await state(double);
        const report = await ek.applyBlockDiff(diff, host, { atomic });
        assert.equal(report.ok, false, label);
        if (atomic) assert.equal(report.rollback?.ok, true, `${label}: ${report.summary}`);
        else {
          const undone = await ek.applyBlockDiff(report.undo, host);
          assert.equal(undone.ok, true, `${label}: ${undone.summary}\n${report.undo}`);
        }
        assert.equal(await state(double), before, label);
      }
    }
  },
);

kernelTest(
  '5. deleting a database row or a flashcard is refused; allowed, the report and the undo say what cannot come back',
  async () => {
    for (const [block, what] of [
      [DB, 'custom-avs'],
      [FC, 'custom-riff-decks'],
    ]) {
      const { double, host } = await setup();
      const before = await state(double);
      const refused = await ek.applyBlockDiff(`@@DELETE:${block}@@`, host);
      assert.equal(refused.ok, false);
      assert.equal(refused.results[0].error.code, 'WOULD_LOSE_MEMBERSHIP');
      assert.deepEqual(refused.results[0].error.blockIds, [block]);
      assert.match(refused.results[0].error.message, new RegExp(what));
      assert.equal(await state(double), before, 'nothing written');

      const allowed = await ek.applyBlockDiff(`@@DELETE:${block}@@`, host, {
        allowMembershipLoss: true,
      });
      assert.equal(allowed.ok, true, allowed.summary);
      assert.ok(allowed.warnings.some((w) => w.code === 'MEMBERSHIP_LOST' && w.blockId === block));
      assert.match(allowed.undo, new RegExp(`^Note: .*${block} \\(${what}\\)`));
      const undone = await ek.applyBlockDiff(allowed.undo, host);
      assert.equal(undone.ok, true, `${undone.summary}\n${allowed.undo}`);
      await host.flushTransaction();
      assert.ok(await double.block(block), 'the text is back');
    }
    // The kernel's side of it: the database lost the row for good. (A live
    // kernel's database is made here: the IAL alone makes no row.)
    const { double, host } = await setup();
    if (LIVE) await double.addDatabaseRows(AV, [DB]);
    assert.deepEqual(await double.databaseRows(AV), [DB]);
    const allowed = await ek.applyBlockDiff(`@@DELETE:${DB}@@`, host, {
      allowMembershipLoss: true,
    });
    await ek.applyBlockDiff(allowed.undo, host);
    assert.deepEqual(await double.databaseRows(AV), []);
  },
);

kernelTest(
  '6. attributes listed in a new order on every read do not make an untouched container stale',
  async () => {
    for (const seed of [1, 2, 3, 4, 5, SEED]) {
      const { double, host } = await setup(async () => {}, seed);
      const report = await ek.applyBlockDiff(sr(Q, '唯一的段落', '唯一的一段'), host);
      assert.equal(report.ok, true, `seed ${seed}: ${report.summary}`);
      await host.flushTransaction();
      assert.equal((await double.block(QP)).markdown, '引用里唯一的一段');
      assert.equal((await double.block(Q)).memo, '引用');
    }
  },
);

kernelTest(
  '7. a container holding a folded heading is never rewritten (the kernel would duplicate its section): an edit of its text writes the paragraph alone, a change of its structure is refused',
  async () => {
    const { double, host } = await setup();
    const before = await state(double);
    // SPEC §3.7 rules 19 and 23: the quote keeps its structure, so only
    // the paragraph is written, by its own id.
    const report = await ek.applyBlockDiff(sr(FQ, '标题下的段落', '标题下的一段'), host);
    assert.equal(report.ok, true, report.summary);
    assert.deepEqual(
      report.plan[0].operations.map((op) => [op.op, op.id]),
      [['updateBlock', FHP]],
    );
    await host.flushTransaction();
    assert.equal(await state(double), before.replace('标题下的段落', '标题下的一段'));
    assert.equal(await double.countId(FHP), 1);
    // A block added to the quote changes its structure: refused.
    const added = await ek.applyBlockDiff(sr(FQ, '标题下的一段', '标题下的一段\n\n新的一段'), host);
    assert.equal(added.ok, false);
    assert.equal(added.results[0].error.code, 'FOLDED_HEADING');
    assert.deepEqual(added.results[0].error.blockIds, [FH]);
    // The undo of the first edit restores the quote.
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, undone.summary);
    assert.equal(await state(double), before);
  },
);

kernelTest("8. a rollback puts a task item's first block back after its checkbox", async () => {
  let writes = 0;
  const { double, host } = await setup(async (path) => {
    if (isBlockWrite(path) && ++writes === 2) throw new Error('refused');
    return undefined;
  });
  const before = await state(double);
  const report = await ek.applyBlockDiff(
    `@@DELETE:${TP1}@@\n\n${sr(P2, 'second', 'second edit')}`,
    host,
  );
  assert.equal(report.ok, false);
  assert.equal(report.rollback?.ok, true, `${at}: ${report.summary}`);
  assert.equal(await state(double), before, at);
  assert.match((await double.kramdown(TI)).replace(/\{:[^}]*\}/g, ''), /^- \[ \] 任务第一段\n/);
});

kernelTest('9. a corrector that never answers ends the call with HOST_TIMEOUT', async () => {
  await assert.rejects(
    ek.replaceTextWithCorrection('alpha\nbeta\n', 'gamma', 'delta', {
      corrector: () => new Promise(() => {}),
      timeoutMs: 30,
    }),
    (e) => e.code === 'HOST_TIMEOUT',
  );
  const runner = ek.createToolRunner({
    files: { readFile: () => 'alpha\nbeta\n', writeFile() {} },
    corrector: () => new Promise(() => {}),
    timeoutMs: 30,
  });
  const result = await runner.runDetailed('edit', {
    path: 'a.txt',
    old_string: 'gamma',
    new_string: 'delta',
  });
  assert.equal(result.isError, true);
  assert.equal(result.code, 'HOST_TIMEOUT', result.text);
});

kernelTest(
  '11. a body the kernel would read otherwise is refused before anything is written',
  async () => {
    for (const [body, code] of [
      ['```js\nconst x = 1;', 'UNCLOSED_FENCE'],
      ['$$\nx^2', 'UNCLOSED_FENCE'],
      ['改写\n{: id="abc"}', 'INVALID_BLOCK_ID'],
    ]) {
      const { double, host } = await setup();
      const before = await state(double);
      const report = await ek.applyBlockDiff(`@@REPLACE:${P1}@@\n${body}`, host);
      assert.equal(report.ok, false, body);
      assert.equal(report.results[0].error.code, code, body);
      assert.ok(report.results[0].error.suggestions.length > 0);
      assert.equal(
        double.calls.filter((c) => isBlockWrite(c.path)).length,
        0,
        `${body}: nothing written`,
      );
      assert.equal(await state(double), before);
    }
    // A SEARCH/REPLACE inside a code block keeps its fences: no refusal.
    const { host } = await setup();
    const fenced = await ek.applyBlockDiff(`@@AFTER:${P3}@@\n\`\`\`js\nlet a = 1;\n\`\`\``, host);
    assert.equal(fenced.ok, true, fenced.summary);
  },
);

kernelTest(
  '11. a write the kernel reads differently from what was sent is restored by the rollback',
  async () => {
    // The kernel swallows the attribute line into a code block it opened.
    const { double, host } = await setup(async (path, body, n, d) => {
      if (path !== viaPath('/api/block/updateBlock') || n !== 1) return undefined;
      const mangle = (b) => ({ ...b, data: b.data.replace(/^/, '```\n') });
      return d.request(path, body.blocks ? { blocks: body.blocks.map(mangle) } : mangle(body));
    });
    const before = await state(double);
    const report = await ek.applyBlockDiff(`@@REPLACE:${P1}@@\n改写的第一段`, host);
    assert.equal(report.ok, false);
    assert.equal(report.results[0].error.code, 'WRITE_VERIFY_FAILED');
    assert.equal(report.rollback?.ok, true, `${at}: ${report.summary}`);
    assert.equal(report.undo, undefined);
    assert.equal(await state(double), before, at);
  },
);

kernelTest(
  '10. a child linked to by URL or embedded by a query is known to be referenced (the refs table does not list either)',
  async () => {
    for (const mention of [
      `见 [引用](siyuan://blocks/${QP})。`,
      `{{SELECT * FROM blocks WHERE id = '${QP}' OR id = '${P1}'}}`,
    ]) {
      const { double, host } = await setup();
      await double.editor.updateBlock(P3, mention);
      await host.flushTransaction();
      const refs = await double.request('/api/query/sql', {
        stmt: `SELECT * FROM refs WHERE def_block_id = '${QP}'`,
      });
      assert.deepEqual(refs.data, [], `${mention}: not in the refs table`);
      const before = await state(double);
      // QP's text is rewritten beyond recognition into two paragraphs: which
      // one is QP cannot be told, so it would get a new id.
      const report = await ek.applyBlockDiff(
        sr(Q, '> 引用里唯一的段落', '> 全然不同的一段新文字\n>\n> 另外一段，没有一个字相同'),
        host,
      );
      assert.equal(report.ok, false, `${mention}: ${report.summary}`);
      assert.equal(report.results[0].error.code, 'CHILDREN_WOULD_BE_REASSIGNED');
      assert.deepEqual(report.results[0].error.blockIds, [QP]);
      assert.equal(await state(double), before);
    }
  },
);

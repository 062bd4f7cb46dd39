// The SiYuan kernel adapter (createSiyuanHost): its request shapes against a
// recording fake, and editkit end to end through it against the kernel
// double (applyBlockDiff → adapter → double → the resulting block tree).
import assert from 'node:assert/strict';
import {
  asKernel,
  BOX,
  docState,
  ek,
  FIXTURES,
  kernel,
  kernelTest,
  LIVE,
  LIVE_NOTEBOOK_PREFIX,
  OUTCOMES,
  recorder,
  sql,
  TABLE,
  TABLE_KERNEL,
  testing,
  topLevel,
  viaPath,
  withoutUpdated,
  writeCalls,
} from './kernel-support.mjs';

const DOC1 = '20240614083000-wk24rep';
const P1 = '20240614083000-a1b2c3d';
const CLOSING = '20240614083630-p12olp4'; // name/alias/memo
const RISK = '20240614083410-h2risk1'; // custom-priority
const LIST = '20240614083125-lst0a9x';
const HEADING = '20240614083112-h2jz8kq';

const id = (n) => `20240101000000-${String(n).padStart(7, '0')}`;

// ---------------------------------------------------------------------------
// Request shapes

kernelTest(
  'getBlocks: 600 ids → chunks of 256 that state their LIMIT (the kernel caps only statements without one at 64 rows; four rows an id, for the copies an index leaves), rows re-ordered to the ids, null where missing',
  async () => {
    const ids = Array.from({ length: 600 }, (_, i) => id(i));
    const { calls, request } = recorder((path, body) => {
      if (path === '/api/sqlite/flushTransaction') return { code: 0, msg: '', data: null };
      const listed = [...body.stmt.matchAll(/'([^']+)'/g)].map((m) => m[1]);
      // Answer in reverse order, and drop every id ending in 7: the adapter must not rely on row order.
      const rows = listed
        .filter((x) => !x.endsWith('7'))
        .reverse()
        .map((x) => ({ id: x, type: 'p', markdown: x }));
      return { code: 0, msg: '', data: rows };
    });
    const host = ek.createSiyuanHost({ request });
    const rows = await host.getBlocks(ids);
    // The 60 ids the table lacks are asked for once more after a flush
    // (a block made a moment ago reaches the table at the next flush).
    assert.deepEqual(
      calls.map((c) => c.path),
      [
        '/api/query/sql',
        '/api/query/sql',
        '/api/query/sql',
        '/api/sqlite/flushTransaction',
        '/api/query/sql',
      ],
    );
    const statements = calls.filter((c) => c.path === '/api/query/sql');
    const limits = statements.map((c) => /LIMIT (\d+)$/.exec(c.body.stmt)?.[1]);
    assert.deepEqual(limits, ['1024', '1024', '352', '240']);
    for (const c of statements)
      assert.match(
        c.body.stmt,
        /^SELECT \* FROM blocks WHERE id IN \('\d{14}-[0-9a-z]{7}'(, '\d{14}-[0-9a-z]{7}')*\) LIMIT \d+$/,
      );
    assert.equal(rows.length, 600);
    rows.forEach((r, i) =>
      ids[i].endsWith('7') ? assert.equal(r, null) : assert.equal(r.id, ids[i]),
    );
  },
);

kernelTest(
  'getBlocks: duplicate ids are fetched once and answered per position; batchSize is honoured',
  async () => {
    const { calls, request } = recorder((path, body) => ({
      code: 0,
      msg: '',
      data: [...body.stmt.matchAll(/'([^']+)'/g)].map((m) => ({ id: m[1], type: 'p' })),
    }));
    const host = ek.createSiyuanHost({ request, batchSize: 2 });
    const rows = await host.getBlocks([id(1), id(2), id(1), id(3)]);
    assert.deepEqual(
      rows.map((r) => r.id),
      [id(1), id(2), id(1), id(3)],
    );
    assert.deepEqual(
      calls.map((c) => /LIMIT (\d+)$/.exec(c.body.stmt)[1]),
      ['8', '4'],
    );
  },
);

kernelTest(
  'getBlocks: a block the blocks table holds several times (a new document is indexed twice, live on v3.7.3) is answered once, and ids a full answer left out are asked for alone',
  async () => {
    // Every id answered six times over, in order, up to the statement's LIMIT.
    const { calls, request } = recorder((path, body) => {
      if (path === '/api/sqlite/flushTransaction') return { code: 0, msg: '', data: null };
      const listed = [...body.stmt.matchAll(/'([^']+)'/g)].map((m) => m[1]);
      const limit = Number(/LIMIT (\d+)$/.exec(body.stmt)[1]);
      const rows = listed.flatMap((x) => Array(6).fill({ id: x, type: 'p', markdown: x }));
      return { code: 0, msg: '', data: rows.slice(0, limit) };
    });
    const host = ek.createSiyuanHost({ request });
    const ids = [id(1), id(2), id(3)];
    const rows = await host.getBlocks(ids);
    assert.deepEqual(
      rows.map((r) => r?.id),
      ids,
    );
    assert.deepEqual(
      calls.map((c) => c.body.stmt.replace(/'[^']+'/g, 'ID')),
      [
        'SELECT * FROM blocks WHERE id IN (ID, ID, ID) LIMIT 12',
        'SELECT * FROM blocks WHERE id IN (ID) LIMIT 4',
      ],
    );
  },
);

kernelTest('ids are validated with the strict kernel pattern before any request', async () => {
  const bad = [
    "20240614083000-a1b2c3d' OR '1'='1",
    '20240614083000-A1B2C3D',
    '2024061408-abc',
    '',
    'x',
    null,
    42,
  ];
  const { calls, request } = recorder();
  const invalid = (e) => ek.isEditkitError(e) && e.code === 'INVALID_ARGUMENT';
  const host = ek.createSiyuanHost({ request });
  for (const b of bad) {
    await assert.rejects(host.getBlocks([P1, b]), invalid, String(b));
    await assert.rejects(host.getChildBlocks([b]), invalid);
    await assert.rejects(host.getKramdown([b]), invalid);
    await assert.rejects(host.getBreadcrumb([b]), invalid);
    await assert.rejects(host.updateBlock(b, 'x'), invalid);
    await assert.rejects(host.deleteBlock(b), invalid);
    await assert.rejects(host.insertBlock('x', { previousID: b }), invalid);
    await assert.rejects(host.prependBlock(b, 'x'), invalid);
    await assert.rejects(host.appendBlock(b, 'x'), invalid);
    await assert.rejects(host.createDoc({ notebook: b, path: '/a', markdown: '' }), invalid);
    await assert.rejects(host.createDailyNote({ notebook: b }), invalid);
  }
  await assert.rejects(host.insertBlock('x', { previousID: P1, nextID: P1 }), invalid);
  await assert.rejects(host.insertBlock('x', {}), invalid);
  assert.equal(calls.length, 0, 'nothing reached the kernel');
});

kernelTest('a non-zero code is an Error carrying code, msg and path (never success)', async () => {
  const { request } = recorder((path) => ({ code: -1, msg: `nope from ${path}`, data: null }));
  const host = ek.createSiyuanHost({ request });
  for (const run of [
    () => host.getBlocks([P1]),
    () => host.updateBlock(P1, 'x'),
    () => host.deleteBlock(P1),
    () => host.insertBlock('x', { previousID: P1 }),
    () => host.appendBlock(P1, 'x'),
    () => host.flushTransaction(),
  ]) {
    await assert.rejects(run(), (e) => {
      assert.ok(e instanceof ek.SiyuanApiError);
      assert.equal(e.kernelCode, -1);
      assert.equal(e.code, 'HOST_ERROR');
      assert.ok(ek.isEditkitError(e));
      assert.match(e.msg, /^nope from \/api\//);
      assert.match(e.path, /^\/api\//);
      assert.match(e.message, /code -1/);
      return true;
    });
  }
  const odd = ek.createSiyuanHost({ request: async () => '<html>502</html>' });
  await assert.rejects(
    odd.getBlocks([P1]),
    (e) => e instanceof ek.SiyuanApiError && Number.isNaN(e.kernelCode),
  );
});

kernelTest('writes send the documented bodies; new ids come from doOperations', async () => {
  const { calls, request } = recorder((path) => {
    if (path === '/api/block/insertBlock')
      return {
        code: 0,
        msg: '',
        data: [
          {
            doOperations: [{ action: 'insert', id: id(9), data: '<div></div>' }],
            undoOperations: null,
          },
        ],
      };
    return { code: 0, msg: '', data: [{ doOperations: [{ action: 'update', id: P1 }] }] };
  });
  const host = ek.createSiyuanHost({ request, flush: 'never' });
  assert.equal(await host.updateBlock(P1, '# t'), undefined);
  await host.deleteBlock(P1);
  assert.deepEqual(await host.insertBlock('a', { previousID: P1 }), [id(9)]);
  assert.deepEqual(await host.insertBlock('a', { nextID: P1 }), [id(9)]);
  assert.deepEqual(await host.insertBlock('a', { parentID: DOC1 }), [id(9)]);
  await host.flushTransaction();
  assert.deepEqual(calls, [
    { path: '/api/block/updateBlock', body: { dataType: 'markdown', data: '# t', id: P1 } },
    { path: '/api/block/deleteBlock', body: { id: P1 } },
    { path: '/api/block/insertBlock', body: { dataType: 'markdown', data: 'a', previousID: P1 } },
    { path: '/api/block/insertBlock', body: { dataType: 'markdown', data: 'a', nextID: P1 } },
    { path: '/api/block/insertBlock', body: { dataType: 'markdown', data: 'a', parentID: DOC1 } },
    { path: '/api/sqlite/flushTransaction', body: {} },
  ]);
  const silent = ek.createSiyuanHost({
    request: async () => ({
      code: 0,
      msg: '',
      data: [{ doOperations: [{ action: 'insert', id: '' }] }],
    }),
  });
  await assert.rejects(silent.insertBlock('a', { previousID: P1 }), /no inserted block/);
});

kernelTest(
  'flush: "auto" flushes before a SQL read that follows a write, only then; "always" and "never"',
  async () => {
    const answer = (path, body) => ({
      code: 0,
      msg: '',
      data: path === '/api/query/sql' ? [{ id: P1, type: 'p' }] : [{ doOperations: [{ id: P1 }] }],
    });
    const paths = async (mode) => {
      const { calls, request } = recorder(answer);
      const host = ek.createSiyuanHost({ request, flush: mode });
      await host.getBlocks([P1]);
      await host.updateBlock(P1, 'x');
      await host.getBlocks([P1]);
      await host.getBlocks([P1]);
      return calls.map((c) => c.path.split('/').pop());
    };
    assert.deepEqual(await paths(undefined), [
      'sql',
      'updateBlock',
      'flushTransaction',
      'sql',
      'sql',
    ]);
    assert.deepEqual(await paths('always'), [
      'flushTransaction',
      'sql',
      'updateBlock',
      'flushTransaction',
      'sql',
      'flushTransaction',
      'sql',
    ]);
    assert.deepEqual(await paths('never'), ['sql', 'updateBlock', 'sql', 'sql']);
  },
);

kernelTest(
  'reading callbacks: kramdown "" → null, child list null → [], breadcrumb of an unknown block → []',
  async () => {
    const { calls, request } = recorder((path) => {
      if (path === '/api/block/getBlockKramdowns') return { code: 0, msg: '', data: { [P1]: '' } };
      if (path === '/api/block/getChildBlocks') return { code: 0, msg: '', data: null };
      return { code: -1, msg: 'block not found', data: null };
    });
    const host = ek.createSiyuanHost({ request });
    assert.deepEqual(await host.getKramdown([P1]), [null]);
    assert.deepEqual(await host.getChildBlocks([P1]), [[]]);
    assert.deepEqual(await host.getBreadcrumb([P1]), [[]]);
    assert.deepEqual(
      calls.map((c) => c.body),
      [{ ids: [P1], mode: 'md' }, { id: P1 }, { id: P1, excludeTypes: [] }],
    );
  },
);

kernelTest('kernelRequest POSTs JSON with the token to baseUrl + path', async () => {
  const seen = [];
  const fetch = async (url, init) => {
    seen.push({ url, init });
    return {
      ok: true,
      status: 200,
      text: async () => JSON.stringify({ code: 0, msg: '', data: [{ id: P1 }] }),
      json: async () => ({}),
    };
  };
  const request = ek.kernelRequest({ baseUrl: 'http://127.0.0.1:6806/', token: 'abc', fetch });
  const host = ek.createSiyuanHost({ request });
  const [row] = await host.getBlocks([P1]);
  assert.equal(row.id, P1);
  assert.equal(seen[0].url, 'http://127.0.0.1:6806/api/query/sql');
  assert.equal(seen[0].init.method, 'POST');
  assert.equal(seen[0].init.headers.Authorization, 'Token abc');
  assert.deepEqual(JSON.parse(seen[0].init.body), {
    stmt: `SELECT * FROM blocks WHERE id IN ('${P1}') LIMIT 4`,
  });
  const broken = ek.kernelRequest({
    baseUrl: 'http://x',
    fetch: async () => ({
      ok: false,
      status: 502,
      text: async () => 'Bad gateway',
      json: async () => ({}),
    }),
  });
  await assert.rejects(broken('/api/query/sql', {}), /HTTP 502/);
});

kernelTest(
  'kernelRequest: a kernel not reached, a refused token, an answer not the kernel’s — each names the URL and what to check',
  async () => {
    const refused = (lang) =>
      ek.kernelRequest({
        baseUrl: 'http://127.0.0.1:6806/',
        lang,
        fetch: async () => {
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6806'), {
              code: 'ECONNREFUSED',
            }),
          });
        },
      });
    await assert.rejects(refused()('/api/query/sql', {}), (e) => {
      assert.equal(e.code, 'HOST_ERROR');
      assert.equal(
        e.message,
        'the SiYuan kernel at http://127.0.0.1:6806 did not answer (connection refused): is SiYuan running, and is the URL right?',
      );
      assert.equal(e.cause.message, 'fetch failed');
      return true;
    });
    await assert.rejects(refused('zh')('/api/query/sql', {}), {
      code: 'HOST_ERROR',
      message:
        '思源内核 http://127.0.0.1:6806 没有应答（连接被拒绝）：思源是否正在运行？地址是否正确？',
    });
    const answering = (status, body) =>
      ek.kernelRequest({
        baseUrl: 'http://127.0.0.1:6806',
        fetch: async () => ({
          ok: status < 300,
          status,
          text: async () => body,
          json: async () => ({}),
        }),
      });
    await assert.rejects(
      answering(401, '{"code":-1,"msg":"Auth failed"}')('/api/query/sql', {}),
      (e) => {
        assert.ok(e instanceof ek.SiyuanApiError);
        assert.equal(
          e.message,
          'SiYuan kernel /api/query/sql failed: http://127.0.0.1:6806 answered HTTP 401: the API token is wrong or missing (SiYuan: Settings → About → API token)',
        );
        return true;
      },
    );
    await assert.rejects(answering(200, '<!doctype html>\n<p>router</p>')('/api/query/sql', {}), {
      message:
        'SiYuan kernel /api/query/sql failed: http://127.0.0.1:6806 answered HTTP 200, not with a kernel answer ("<!doctype html> <p>router</p>"): is it SiYuan, and is the URL right?',
    });
    // An older kernel's missing endpoint (a 404 page) still reads as one:
    // the host falls back from the batch endpoint to one block at a time.
    const calls = [];
    const request = ek.kernelRequest({
      baseUrl: 'http://127.0.0.1:6806',
      fetch: async (url, init) => {
        calls.push(url.slice('http://127.0.0.1:6806'.length));
        if (url.endsWith('/api/block/batchUpdateBlock'))
          return {
            ok: false,
            status: 404,
            text: async () => '404 page not found',
            json: async () => ({}),
          };
        const data = url.endsWith('/updateBlock') ? [{ doOperations: [{ id: P1 }] }] : null;
        return {
          ok: true,
          status: 200,
          text: async () => JSON.stringify({ code: 0, msg: '', data }),
          json: async () => ({}),
        };
      },
    });
    const host = ek.createSiyuanHost({ request, flush: 'never' });
    await host.updateBlocks([{ id: P1, markdown: 'x' }]);
    assert.deepEqual(calls, ['/api/block/batchUpdateBlock', '/api/block/updateBlock']);
  },
);

// ---------------------------------------------------------------------------
// Through the kernel double

kernelTest(
  'adapter + double: rows, child lists, kramdown and breadcrumbs are the fixtures (attributes as sets, the table as the kernel writes it)',
  async () => {
    const { host } = await kernel();
    const { canonicalIal } = testing;
    for (const f of FIXTURES) {
      const ids = [f.document.id, ...f.blocks.map((b) => b.id).filter((x) => x !== f.document.id)];
      const rows = await host.getBlocks(ids);
      // A live kernel made these documents today: its hashes are its own
      // (the fixtures' are synthetic), the document's `updated` is now, and
      // its `length` counts the U+200B it stored beside code spans.
      const bookkeeping = (row) => {
        if (!LIVE) return row;
        const { hash: _h, updated: _u, length: _l, ...rest } = row;
        return { ...rest, ial: withoutUpdated(row.ial) };
      };
      rows.forEach((r, i) => {
        const want = { ...(f.blocks.find((b) => b.id === ids[i]) ?? f.document) };
        want.ial = canonicalIal(want.ial);
        if (want.id === TABLE) want.markdown = TABLE_KERNEL;
        assert.deepEqual(
          bookkeeping({ ...r, ial: canonicalIal(r.ial) }),
          bookkeeping(want),
          ids[i],
        );
      });
      const kids = await host.getChildBlocks(ids);
      kids.forEach((k, i) =>
        assert.deepEqual(
          k,
          f.api.getChildBlocks[ids[i]].map((c) =>
            c.id === TABLE ? { ...c, markdown: TABLE_KERNEL } : c,
          ),
          ids[i],
        ),
      );
      const kram = await host.getKramdown(ids);
      // Live, the fixtures reached the kernel through an API write, which
      // put U+200B beside code spans (KERNEL-FACTS §13).
      const stamps = (k) => (LIVE ? withoutUpdated(k).replace(/\u200b/g, '') : k);
      kram.forEach((k, i) =>
        assert.equal(
          stamps(canonicalIal(k)),
          stamps(asKernel(f.api.getBlockKramdown[ids[i]])),
          ids[i],
        ),
      );
      const crumbs = await host.getBreadcrumb(ids);
      // Live, a document's crumb names the harness's notebook, and a
      // crumb's name has the U+200B the API write put beside code spans.
      const asWritten = (c) =>
        LIVE
          ? c.map((n) => ({
              ...n,
              name: n.name.replace(LIVE_NOTEBOOK_PREFIX, '').replace(/\u200b/g, ''),
            }))
          : c;
      crumbs.forEach((c, i) =>
        assert.deepEqual(asWritten(c), f.api.getBlockBreadcrumb[ids[i]], ids[i]),
      );
    }
    assert.deepEqual(await host.getBlocks(['20990101000000-zzzzzzz']), [null]);
    assert.deepEqual(await host.getKramdown(['20990101000000-zzzzzzz']), [null]);
    assert.deepEqual(await host.getBreadcrumb(['20990101000000-zzzzzzz']), [[]]);
  },
);

kernelTest(
  'appendBlock of list markdown into a list returns the new list item (not the phantom list id)',
  async () => {
    const { double, host } = await kernel();
    const ids = await host.appendBlock(LIST, '- 新列表项\n- 第二项');
    assert.equal(ids.length, 2);
    const rows = await host.getBlocks(ids);
    assert.deepEqual(
      rows.map((r) => [r.type, r.markdown, r.parent_id]),
      [
        ['i', '- 新列表项', LIST],
        ['i', '- 第二项', LIST],
      ],
    );
    const op = writeCalls(double).at(-1).response.data[0].doOperations[0];
    assert.ok(
      !ids.includes(op.id),
      'the kernel reports the id of the parsed list, which is not in the tree',
    );
    assert.equal(await double.block(op.id), undefined);
    // Into a document, list markdown stays a list and the reported id is that list.
    const [doc] = await host.appendBlock(DOC1, '- 文末列表');
    assert.equal((await host.getBlocks([doc]))[0].type, 'l');
  },
);

kernelTest(
  'createDoc and createDailyNote go through createDocWithMd / createDailyNote',
  async () => {
    const { double, host } = await kernel({ now: () => new Date(Date.UTC(2024, 5, 15, 9)) });
    const daily = await host.createDailyNote({ notebook: BOX });
    if (LIVE) {
      // The kernel's day is today: a new note, found again by a second call.
      assert.equal(await host.createDailyNote({ notebook: BOX }), daily);
    } else {
      assert.equal(daily, '20240615073000-dn0615a', "today's note exists: it is returned");
    }
    const docId = await host.createDoc({
      notebook: BOX,
      path: '/Archive/2024/Q3-Plan',
      markdown: '# hi\n\ntext',
      parentID: '20240101080100-y2024ab',
    });
    const [row] = await host.getBlocks([docId]);
    assert.equal(row.hpath, '/Archive/2024/Q3-Plan');
    assert.equal(row.type, 'd');
    assert.deepEqual(
      (await topLevel(host, docId)).map((b) => b.markdown),
      ['# hi', 'text'],
    );
    const call = double.calls.find((c) => c.path === '/api/filetree/createDocWithMd');
    assert.deepEqual(call.body, {
      notebook: BOX,
      path: '/Archive/2024/Q3-Plan',
      markdown: '# hi\n\ntext',
      parentID: '20240101080100-y2024ab',
    });
  },
);

// ---------------------------------------------------------------------------
// editkit end to end: applyBlockDiff → adapter → double

/** A diff that rewrites, deletes, inserts and appends in one document. */
function diffFor(doc) {
  const top = doc.tree.children;
  const byId = new Map(doc.blocks.map((b) => [b.id, b]));
  const para = top.find((n) => n.type === 'p' && byId.get(n.id).markdown.length > 2);
  const doomed = top.find((n) => ['p', 'c', 'tb', 't', 'm'].includes(n.type) && n.id !== para.id);
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

kernelTest(
  'apply then undo restores every fixture document (kramdown text and block order)',
  async () => {
    for (const doc of FIXTURES) {
      const { double, host } = await kernel();
      const docId = doc.document.id;
      const before = {
        kramdown: await docState(double, docId),
        order: await double.snapshot(docId),
      };
      const report = await ek.applyBlockDiff(diffFor(doc), host);
      assert.equal(report.ok, true, `${doc.document.hpath}: ${report.summary}`);
      assert.notEqual(await docState(double, docId), before.kramdown);
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, `${doc.document.hpath}: ${undone.summary}\n${report.undo}`);
      assert.equal(await docState(double, docId), before.kramdown, doc.document.hpath);
      assert.deepEqual(await double.snapshot(docId), before.order, doc.document.hpath);
      // The SQL view agrees once flushed.
      await host.flushTransaction();
      for (const b of before.order)
        assert.equal(
          (await sql(double, `SELECT markdown FROM blocks WHERE id = '${b.id}'`))[0]?.markdown,
          b.markdown,
        );
    }
  },
);

kernelTest(
  'apply then undo restores every fixture document even when only a flush makes writes visible to SQL',
  async () => {
    // The adapter does not flush on its own here: the core's flushTransaction() before its verify read does.
    for (const doc of FIXTURES) {
      const { double, host } = await kernel({}, { flush: 'never' });
      const docId = doc.document.id;
      const before = await docState(double, docId);
      const report = await ek.applyBlockDiff(diffFor(doc), host);
      assert.equal(report.ok, true, report.summary);
      const flushes = double.calls.filter((c) => c.path === '/api/sqlite/flushTransaction').length;
      assert.ok(flushes >= 1, 'the verify read was preceded by a flush');
      const undone = await ek.applyBlockDiff(report.undo, host);
      assert.equal(undone.ok, true, undone.summary);
      assert.equal(await docState(double, docId), before);
    }
  },
);

kernelTest(
  'without a flush the SQL index lags and the verify read fails (the double really is asynchronous)',
  { live: "the double's clock decides when its SQL view catches up" },
  async () => {
    const { double, host } = await kernel({}, { flush: 'never' });
    const { flushTransaction, ...noFlush } = host;
    const report = await ek.applyBlockDiff(
      `@@${P1}@@\n<<<<<<< SEARCH\n${FIXTURES[0].blocks[1].markdown}\n=======\n改了\n>>>>>>> REPLACE`,
      noFlush,
    );
    assert.equal(report.ok, false);
    assert.equal(report.results[0].error.code, 'WRITE_VERIFY_FAILED');
    assert.equal((await double.block(P1)).markdown, '改了', 'the tree has the write');
    assert.notEqual((await double.indexedBlock(P1)).markdown, '改了', 'SQL does not, yet');
    await flushTransaction();
    assert.equal((await double.indexedBlock(P1)).markdown, '改了');
  },
);

kernelTest(
  'a multi-block REPLACE lands as several blocks, in order, after the target',
  async () => {
    const { double, host } = await kernel();
    const report = await ek.applyBlockDiff(
      `@@REPLACE:${P1}@@\n## 小结\n第一段\n\n\`\`\`js\nx()\n\`\`\``,
      host,
    );
    assert.equal(report.ok, true, report.summary);
    const top = await topLevel(host, DOC1);
    const at = top.findIndex((b) => b.id === P1);
    assert.deepEqual(
      top.slice(at, at + 3).map((b) => [b.type, b.markdown]),
      [
        ['h', '## 小结'],
        ['p', '第一段'],
        ['c', '```js\nx()\n```'],
      ],
    );
    assert.equal(top[at + 3].id, HEADING, 'the old next sibling follows');
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, undone.summary);
    assert.equal(
      await docState(double, DOC1),
      withoutUpdated(asKernel(FIXTURES[0].api.getBlockKramdown[DOC1])),
    );
  },
);

kernelTest('attributes (name, alias, memo, custom-*) survive an update', async () => {
  const { double, host } = await kernel();
  const diff = [
    `@@${CLOSING}@@`,
    '<<<<<<< SEARCH',
    '以上。',
    '=======',
    '以上，谢谢。',
    '>>>>>>> REPLACE',
    '',
    `@@${RISK}@@`,
    '<<<<<<< SEARCH',
    '## 风险与问题',
    '=======',
    '## 风险',
    '>>>>>>> REPLACE',
  ].join('\n');
  const report = await ek.applyBlockDiff(diff, host);
  assert.equal(report.ok, true, report.summary);
  const [closing, risk] = await host.getBlocks([CLOSING, RISK]);
  assert.equal(closing.markdown, '以上，谢谢。');
  assert.deepEqual(
    [closing.name, closing.alias, closing.memo],
    ['closing', '结语,结束语', '周报结尾'],
  );
  assert.match(closing.ial, /alias="结语,结束语"/);
  assert.equal(risk.markdown, '## 风险');
  assert.match(risk.ial, /custom-priority="high"/);
  // The kernel itself drops them when the markdown carries no IAL (what editkit works around).
  await host.updateBlock(CLOSING, '裸写');
  await host.flushTransaction();
  assert.equal((await double.indexedBlock(CLOSING)).name, '');
});

kernelTest('a dry run sends no write request', async () => {
  for (const doc of FIXTURES) {
    const { double, host } = await kernel();
    const report = await ek.applyBlockDiff(diffFor(doc), host, { dryRun: true });
    assert.equal(report.ok, true, report.summary);
    assert.equal(report.plan.length, 4);
    assert.deepEqual(writeCalls(double), []);
    assert.ok(
      double.calls.every((c) =>
        [
          '/api/sqlite/flushTransaction',
          '/api/query/sql',
          '/api/block/getChildBlocks',
          '/api/block/getBlockKramdown',
          '/api/block/getBlockKramdowns',
        ].includes(c.path),
      ),
      double.calls.map((c) => c.path).join(),
    );
  }
});

kernelTest(
  'APPEND/PREPEND on a heading go after the heading / its section; on a leaf the kernel rule is reported before writing',
  async () => {
    const { double, host } = await kernel();
    const report = await ek.applyBlockDiff(
      `@@APPEND:${HEADING}@@\n追加到标题下\n\n@@PREPEND:${HEADING}@@\n紧跟标题`,
      host,
    );
    assert.equal(report.ok, true, report.summary);
    const [section] = await host.getChildBlocks([HEADING]);
    assert.equal(section[0].markdown, '紧跟标题');
    assert.equal(section.at(-1).markdown, '追加到标题下');
    assert.ok(
      writeCalls(double).every((c) => c.path === '/api/block/insertBlock' && c.response.code === 0),
    );
    const leaf = await ek.applyBlockDiff(`@@APPEND:${P1}@@\nx`, host);
    assert.equal(leaf.ok, false);
    assert.equal(leaf.results[0].error.code, 'NOT_A_CONTAINER');
  },
);

kernelTest(
  'a kernel error in the middle of an apply is WRITE_FAILED and the rollback restores the document',
  async () => {
    const doc = FIXTURES[0];
    const { double, host } = await kernel();
    const before = await docState(double, DOC1);
    double.failNext(viaPath('/api/block/insertBlock'), -1, 'disk full');
    const report = await ek.applyBlockDiff(diffFor(doc), host);
    assert.equal(report.ok, false);
    const failed = report.results.find((r) => r.status === 'failed');
    assert.equal(failed.error.code, 'WRITE_FAILED');
    assert.match(JSON.stringify(failed.error), /disk full/);
    assert.equal(report.rollback.ok, true);
    assert.equal(await docState(double, DOC1), before);
  },
);

/** Markdown without the `id`/`updated` attributes of its IALs (and IALs left empty). */
function withoutIds(markdown) {
  return markdown
    .replace(/ ?\b(id|updated)="[^"]*"/g, '')
    .replace(/\{:\s*\}/g, '')
    .split('\n')
    .filter((line, i, all) => line.trim() !== '' || all[i].trim() === '')
    .join('\n')
    .replace(/\n+$/, '');
}

kernelTest(
  "the original plugin's 34 block-diff cases run end to end through the adapter and the double",
  async () => {
    const agreeOnWrites = [];
    for (const c of OUTCOMES.diff) {
      // Block by block, as the plugin wrote (its writes are compared).
      const { double, host } = await kernel({}, { batch: false });
      const dry = await ek.applyBlockDiff(c.diff, host, { dryRun: true }).catch((e) => e);
      assert.ok(dry && (dry.plan !== undefined || dry.code), c.title);
      assert.deepEqual(writeCalls(double), [], `${c.title}: dry run wrote`);
      const report = await ek.applyBlockDiff(c.diff, host).catch((e) => e);
      if (!report || report.ok !== true) continue;
      // When editkit applied the diff, its writes are the plugin's (same endpoint, same body),
      // except where SPEC deliberately differs (multi-block REPLACE is split, the APPEND to a
      // heading is planned as insertBlock, attributes are carried as IAL).
      const pluginWrites = c.execute_kernel_calls.filter((k) => k.url !== '/api/query/sql');
      const mine = writeCalls(double).map((k) => ({ url: k.path, data: k.body }));
      // …and up to the ids editkit writes into IALs (the ids it gives new
      // blocks, the children's ids a container rewrite restates).
      const strip = (w) => ({
        url: w.url,
        data: {
          ...w.data,
          data: typeof w.data.data === 'string' ? withoutIds(w.data.data) : w.data.data,
          parentID: w.url === '/api/block/insertBlock' ? undefined : w.data.parentID,
        },
      });
      if (JSON.stringify(mine.map(strip)) === JSON.stringify(pluginWrites.map(strip)))
        agreeOnWrites.push(c.title);
      // Every apply verified against the double and is undoable there.
      if (report.undo) {
        const undone = await ek.applyBlockDiff(report.undo, host);
        assert.equal(undone.ok, true, `${c.title}: ${undone.summary}`);
        const f = FIXTURES.find((x) => x.document.id === DOC1);
        assert.equal(
          await docState(double, DOC1),
          withoutUpdated(asKernel(f.api.getBlockKramdown[DOC1])),
          c.title,
        );
      }
    }
    assert.ok(agreeOnWrites.length >= 5, agreeOnWrites.join('\n'));
  },
);

kernelTest('the reading tools run end to end through the adapter and the double', async () => {
  const { double, host } = await kernel();
  const doc = '20240614083000-wk24rep';
  // getDocHeadings comes from /api/outline/getDocOutline, in document order.
  const [headings] = await host.getDocHeadings([doc]);
  assert.deepEqual(
    headings.map((h) => h.content),
    ['本周进展', '后端', '风险与问题', '下周计划'],
  );
  const info = await ek.getBlockInfo({ ids: doc }, host, { lang: 'zh' });
  assert.deepEqual(
    info.blocks[0].toc.map((n) => [n.content, n.children.map((c) => c.content)]),
    [
      ['本周进展', ['后端']],
      ['风险与问题', []],
      ['下周计划', []],
    ],
  );
  const view = await ek.getBlockContent({ blockId: doc, slice: '0:2' }, host, { lang: 'zh' });
  assert.match(
    view.text,
    /^> \[Slice View\] Filter: "0:2" \| Count: 2\n\n@@20240614083000-a1b2c3d@@段落\n/,
  );
  const appended = await ek.appendContent(
    { markdown: '追加一段', targetType: 'block', target: '20240614083112-h2jz8kq' },
    host,
  );
  assert.equal(appended.placement, 'endOfSection');
  await host.flushTransaction();
  const [section] = await host.getChildBlocks(['20240614083112-h2jz8kq']);
  assert.equal(section.at(-1).markdown, '追加一段');
  const created = await ek.createNewDoc(
    { title: 'Q3 Plan', anchorDocumentId: doc, location: 'siblings', markdown: '# 目标' },
    host,
  );
  assert.equal(created.hpath, '/Q3 Plan');
  assert.ok((await double.documentIds()).includes(created.docId));
});

kernelTest(
  'APPEND of a paragraph into a list lands as a list item, and its undo removes the item whole',
  async () => {
    const { double, host } = await kernel();
    const doc = '20240614083000-wk24rep';
    const list = '20240614083550-lst2olq'; // ordered list
    const before = await double.kramdown(doc);
    const report = await ek.applyBlockDiff(`@@APPEND:${list}@@\n补充一条计划`, host);
    assert.equal(report.ok, true, report.summary);
    // A list item of that list, with the id editkit gave it (SPEC §3.7 rule 7).
    const id = report.results[0].newBlockIds[0];
    assert.equal(report.plan[0].operations[0].markdown, `1. {: id="${id}"}补充一条计划`);
    await host.flushTransaction();
    const [items] = await host.getChildBlocks([list]);
    assert.equal(items.at(-1).type, 'i');
    assert.deepEqual(items.at(-1).id, report.results[0].newBlockIds[0]);
    const undone = await ek.applyBlockDiff(report.undo, host);
    assert.equal(undone.ok, true, undone.summary);
    assert.equal(await double.kramdown(doc), before);
  },
);

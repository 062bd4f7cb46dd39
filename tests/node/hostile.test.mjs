// Hostile values at every export of the package: wrong types, null and
// undefined, huge strings, lone surrogates, objects whose getters throw,
// host callbacks that throw, reject or answer malformed data. Each call
// either works or throws an EditkitError, and the module keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ek, fixtureHost, repo } from './support.mjs';

const P = '20240614083000-a1b2c3d';

/** `host` with each callback replaced by `wrap(name, callback)`. */
const wrapCallbacks = (host, wrap) =>
  new Proxy(host, {
    get(target, name) {
      const f = target[name];
      return typeof f === 'function' ? wrap(name, (...args) => f.apply(target, args)) : f;
    },
  });
const throwingGetter = {
  get lang() {
    throw new Error('getter');
  },
  get blockId() {
    throw new Error('getter');
  },
};
const proxy = new Proxy(
  {},
  {
    get() {
      throw new Error('proxy get');
    },
    ownKeys() {
      throw new Error('proxy keys');
    },
  },
);
const HOSTILE = [
  undefined,
  null,
  0,
  -1,
  NaN,
  Infinity,
  true,
  '',
  'x'.repeat(5_000_000),
  'lone \ud800 surrogate',
  '\udfff',
  {},
  [],
  [null],
  [1, 'a'],
  () => 1,
  Symbol('s'),
  10n,
  proxy,
  throwingGetter,
  Object.create(null),
  new Date(0),
  /re/,
  { lang: 'klingon', mode: 'reckless', dryRun: 'yes', atomic: 0, ids: 5, blockId: {}, slice: [] },
];
const describe = (v) => {
  try {
    return typeof v === 'string'
      ? `string(${v.length})`
      : typeof v === 'symbol'
        ? 'symbol'
        : typeof v === 'bigint'
          ? 'bigint'
          : (JSON.stringify(v)?.slice(0, 40) ?? String(v));
  } catch {
    return typeof v;
  }
};

/** Valid arguments for every function export; hostile values replace one at a time. */
function validArgs(host) {
  return {
    validateBlockDiffFormat: [`@@DELETE:${P}@@`, {}],
    parseBlockDiff: [`@@DELETE:${P}@@`, {}],
    applyBlockDiff: [`@@DELETE:${P}@@`, host, { dryRun: true }],
    version: [],
    unifiedDiff: ['a\n', 'b\n', {}],
    splitBlocks: ['a\n\nb'],
    checkOverwrite: [
      {
        path: 'f',
        content: 'a\n',
        newContent: 'b\n',
        knownOldTotalLines: 1,
        knownOldTotalBytes: 2,
      },
    ],
    checkNewFile: [{ path: 'f', exists: false, newContent: 'x' }],
    formatFileView: [{ path: 'f', content: 'x\n' }],
    withPathLock: ['p', () => 1],
    evaluateSlice: [['20240101000000-aaaaaaa'], '0:1', {}],
    renderBlockContent: [
      { block: { id: P, type: 'p', markdown: 'x' }, children: [] },
      { blockId: P },
      {},
    ],
    getBlockContent: [{ blockId: P }, host, {}],
    getBlockInfo: [{ ids: P }, host, {}],
    formatBlockInfo: [{ blocks: [], notFoundIds: [] }, {}],
    buildBlockInfo: [{ block: { id: P, type: 'p', markdown: 'x', content: 'x' } }, {}],
    planAppend: [{ block: { id: P, type: 'p' }, section: [] }, {}],
    appendContent: [{ markdown: 'x', targetType: 'block', target: P }, host, {}],
    createNewDoc: [
      { title: 't', anchorDocumentId: '20240614083000-wk24rep', location: 'children' },
      host,
      {},
    ],
    planNewDocPath: [
      {
        anchorDoc: {
          id: '20240614083000-wk24rep',
          type: 'd',
          box: '20240101090000-k3m9xzq',
          path: '/20240614083000-wk24rep.sy',
          hpath: '/项目周报',
        },
        title: 't',
        location: 'siblings',
      },
      {},
    ],
    findMatch: ['abc', 'b', {}],
    replaceText: ['abc', 'b', 'B', {}],
    applySearchReplace: ['a\n', '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE', {}],
    applyEdits: ['a', [{ oldString: 'a', newString: 'b' }], {}],
    patchPaths: ['*** Begin Patch\n*** Delete File: f\n*** End Patch', { format: 'codex' }],
    planPatch: [{ f: 'a\n' }, '*** Begin Patch\n*** Update File: f\n@@\n-a\n+b\n*** End Patch', {}],
    planUnifiedDiff: [{ f: 'a\n' }, '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n', {}],
    applyPatch: [
      { readFile: () => 'a\n', writeFile: () => {} },
      '*** Begin Patch\n*** Update File: f\n@@\n-a\n+b\n*** End Patch',
      {},
    ],
    applyUnifiedDiff: [
      { readFile: () => 'a\n', writeFile: () => {} },
      '--- f\n+++ f\n@@ -1 +1 @@\n-a\n+b\n',
      {},
    ],
    patchOfOperation: [{ type: 'delete_file', path: 'f' }],
    planEditSnippet: ['a\nb\n', '// ...\nb\n', {}],
    applyEditSnippet: [{ readFile: () => 'a\nb\n', writeFile: () => {} }, 'f', '// ...\nb\n', {}],
    applyPatchOperation: [
      { readFile: () => 'a\n', writeFile: () => {}, deleteFile: () => {} },
      { type: 'update_file', path: 'f', diff: '@@\n-a\n+b\n' },
      {},
    ],
    replaceTextWithCorrection: [
      'abc',
      'zzz',
      'B',
      { corrector: async () => '{"noChangesRequired": true}' },
    ],
    stats: [],
    resetStats: [],
    toolDefinitions: [{}],
    createToolRunner: [{}],
    createToolRegistry: [{ toolsets: ['siyuan'] }],
    runTool: ['read_file', { path: 'x' }, {}],
    createNodeFileHost: [{ root: tmpdir() }],
    formatApplyReport: [{ ok: true, summary: 's', results: [], plan: [], warnings: [] }, 'en'],
    createSiyuanHost: [{ request: async () => ({ code: 0, msg: '', data: [] }) }],
    kernelRequest: [
      {
        baseUrl: 'http://127.0.0.1:1',
        fetch: async () => new Response('{"code":0,"msg":"","data":null}'),
      },
    ],
    isBlockId: [P],
    isEditkitError: [new Error('x')],
  };
}

async function settle(value) {
  if (!(value instanceof Promise)) return;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('hung for 10 s')), 10_000);
  });
  try {
    await Promise.race([value, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function canary() {
  assert.equal(ek.validateBlockDiffFormat(`@@DELETE:${P}@@`).valid, true);
  assert.equal(ek.findMatch('abc', 'b').found, true);
}

test('every function export: hostile values in every position are an EditkitError or a normal result', async () => {
  const host = fixtureHost();
  const table = validArgs(host);
  const exported = Object.entries(ek).filter(
    ([name, v]) =>
      typeof v === 'function' &&
      !/^[A-Z]/.test(name) &&
      !['default', 'init', 'initSync'].includes(name),
  );
  const missing = exported.map(([n]) => n).filter((n) => !(n in table));
  assert.deepEqual(missing, [], 'every function export has an entry in the table');
  let calls = 0;
  for (const [name, fn] of exported) {
    const valid = table[name];
    for (let pos = 0; pos < Math.max(valid.length, 1); pos++) {
      for (const bad of HOSTILE) {
        const args = [...valid];
        args[pos] = bad;
        calls++;
        try {
          await settle(fn(...args));
        } catch (e) {
          assert.ok(
            ek.isEditkitError(e),
            `${name} arg ${pos} = ${describe(bad)} threw ${e?.name}: ${e?.message}`,
          );
          assert.equal(typeof e.code, 'string');
          assert.equal(typeof e.message, 'string');
        }
      }
      await canary();
    }
  }
  assert.ok(calls > 500, `${calls} hostile calls`);
});

test('classes: FileEditSession and EditkitError survive hostile construction and calls', async () => {
  for (const bad of HOSTILE) {
    try {
      const s = new ek.FileEditSession(bad);
      for (const m of [
        'prepareRangeEdit',
        'prepareAppend',
        'prepareInsertAfter',
        'prepareInsertBefore',
        'prepareBlockReplace',
        'apply',
        'applyOrder',
        'pending',
      ]) {
        try {
          s[m](bad);
        } catch (e) {
          assert.ok(ek.isEditkitError(e), `${m}(${describe(bad)}) threw ${e?.name}: ${e?.message}`);
        }
      }
    } catch (e) {
      assert.ok(
        ek.isEditkitError(e),
        `new FileEditSession(${describe(bad)}) threw ${e?.name}: ${e?.message}`,
      );
    }
  }
  await canary();
});

test('host callbacks that throw, reject, hang up with junk, or have throwing getters are HOST_ERROR', async () => {
  const row = { id: P, type: 'p', markdown: 'x', parent_id: '20240614083000-wk24rep' };
  const answers = [
    () => {
      throw new Error('sync throw');
    },
    () => Promise.reject(new Error('rejected')),
    () => Promise.reject('a string'),
    () => Promise.reject(undefined),
    () => 42,
    () => 'not json shaped',
    () => ({}),
    () => [{ id: 5 }],
    () => [row, row],
    () => [{ ...row, markdown: 'lone \ud800' }],
    () => [
      {
        ...row,
        get markdown() {
          throw new Error('getter in a row');
        },
      },
    ],
    () => [proxy],
    () => [{ ...row, length: 10n }],
  ];
  for (const answer of answers) {
    for (const tool of [
      (h) => ek.applyBlockDiff(`@@${P}@@\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE`, h),
      (h) => ek.getBlockContent({ blockId: P }, h),
      (h) => ek.getBlockInfo({ ids: P }, h),
      (h) => ek.appendContent({ markdown: 'x', targetType: 'block', target: P }, h),
    ]) {
      const host = {
        getBlocks: answer,
        getChildBlocks: answer,
        getBreadcrumb: answer,
        getKramdown: answer,
        appendBlock: answer,
        insertBlock: answer,
      };
      try {
        await settle(tool(host));
      } catch (e) {
        assert.ok(ek.isEditkitError(e), `${answer} → ${e?.name}: ${e?.message}`);
        assert.ok(
          [
            'HOST_ERROR',
            'HOST_CAPABILITY_MISSING',
            'BLOCK_NOT_FOUND',
            'INVALID_TEXT',
            'INVALID_ARGUMENT',
          ].includes(e.code),
          `${answer} → ${e.code}`,
        );
      }
    }
  }
  const getterHost = {
    get getBlocks() {
      throw new Error('getter on the host');
    },
  };
  await assert.rejects(ek.applyBlockDiff(`@@DELETE:${P}@@`, getterHost), (e) =>
    ek.isEditkitError(e),
  );
  await canary();
});

test('a trap inside an async call rejects it and every async call in flight with INTERNAL_ERROR; the next calls work', async () => {
  // The future is polled from a microtask, outside the caller's stack: the
  // trap was an uncaught exception and the promise never settled.
  const hooked = await import(join(repo, 'target', 'test-build', 'node.js'));
  const host = fixtureHost();
  const diff = `@@DELETE:${P}@@`;
  const before = await hooked.applyBlockDiff(diff, host, { dryRun: true });
  assert.equal(before.ok, true);
  const isTrap = (e) =>
    hooked.isEditkitError(e) &&
    e.code === 'INTERNAL_ERROR' &&
    e.cause instanceof WebAssembly.RuntimeError;
  // A host whose every callback answers 30 ms late: its call is in flight
  // when the trap comes, and its first answer reaches an instance already
  // replaced (`done` settles once that answer is given).
  const late = (ms = 30) => {
    let answered;
    const done = new Promise((resolve) => (answered = resolve));
    const slowHost = wrapCallbacks(
      host,
      (_, f) =>
        (...args) =>
          new Promise((resolve, reject) =>
            setTimeout(() => {
              Promise.resolve()
                .then(() => f(...args))
                .then(resolve, reject)
                .finally(answered);
            }, ms),
          ),
    );
    return { slowHost, done };
  };
  const problems = [];
  const onProblem = (e) => problems.push(e);
  process.on('uncaughtException', onProblem);
  process.on('unhandledRejection', onProblem);
  try {
    const first = late();
    const inFlight = hooked.applyBlockDiff(diff, first.slowHost, { dryRun: true });
    await assert.rejects(hooked.trapAfterHostForTests({ getBlocks: async () => [] }), isTrap);
    await assert.rejects(inFlight, isTrap);
    assert.equal(hooked.findMatch('abc', 'b').found, true);
    assert.deepEqual(await hooked.applyBlockDiff(diff, host, { dryRun: true }), before);
    // A synchronous call that traps fails the async calls in flight too.
    const second = late();
    const alsoInFlight = hooked.applyBlockDiff(diff, second.slowHost, { dryRun: true });
    assert.throws(() => hooked.trapForTests(), isTrap);
    await assert.rejects(alsoInFlight, isTrap);
    assert.deepEqual(await hooked.applyBlockDiff(diff, host, { dryRun: true }), before);
    // The first call's late answer reaches the replaced instance and is
    // dropped: no uncaught error, and no second reset, which would fail
    // the call in flight meanwhile. (The second call never polled: the
    // trap came first.)
    const third = late(100);
    const healthy = hooked.applyBlockDiff(diff, third.slowHost, { dryRun: true });
    await first.done;
    assert.deepEqual(await healthy, before);
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('uncaughtException', onProblem);
    process.off('unhandledRejection', onProblem);
  }
  assert.deepEqual(problems, []);
  assert.deepEqual(await hooked.applyBlockDiff(diff, host, { dryRun: true }), before);
});

test('a call that finishes in the same batch of polls as a trap keeps its answer', async () => {
  // Both calls' last host answers are released together: the glue wakes
  // the finishing call first and polls both in one microtask, where the
  // second traps. The finished call's promise is already resolved; only
  // the rejection of calls still in flight, one microtask later, lets its
  // caller see the answer instead of INTERNAL_ERROR.
  const hooked = await import(join(repo, 'target', 'test-build', 'node.js'));
  const host = fixtureHost();
  const diff = `@@DELETE:${P}@@`;
  const calls = [];
  const counting = wrapCallbacks(
    host,
    (name, f) =>
      (...args) => (calls.push(name), f(...args)),
  );
  const before = await hooked.applyBlockDiff(diff, counting, { dryRun: true });
  const last = calls.at(-1);
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  let reachedLast;
  const atLast = new Promise((resolve) => (reachedLast = resolve));
  // The answer is ready before the gate, so both gated callbacks are the
  // same few steps from the gate to wasm.
  const gated = wrapCallbacks(host, (name, f) =>
    name !== last
      ? f
      : async (...args) => {
          const answer = await f(...args);
          reachedLast();
          await gate;
          return answer;
        },
  );
  let trapReached;
  const atTrap = new Promise((resolve) => (trapReached = resolve));
  const finishing = hooked.applyBlockDiff(diff, gated, { dryRun: true });
  await atLast;
  const trapping = hooked.trapAfterHostForTests({
    getBlocks: async () => {
      trapReached();
      await gate;
      return [];
    },
  });
  await atTrap;
  release();
  const [kept, trapped] = await Promise.allSettled([finishing, trapping]);
  assert.equal(trapped.status, 'rejected');
  assert.equal(trapped.reason.code, 'INTERNAL_ERROR');
  assert.equal(kept.status, 'fulfilled', kept.reason?.message);
  assert.deepEqual(kept.value, before);
  assert.deepEqual(await hooked.applyBlockDiff(diff, host, { dryRun: true }), before);
});

test('a trapped wasm instance is replaced: the call is INTERNAL_ERROR and the next call works', async () => {
  // The hook lives only in the test build (SPEC §12), never in the package.
  assert.equal(ek.__trapForTests, undefined);
  assert.equal(ek.trapForTests, undefined);
  const hooked = await import(join(repo, 'target', 'test-build', 'node.js'));
  const host = fixtureHost();
  const before = await hooked.applyBlockDiff(`@@DELETE:${P}@@`, host, { dryRun: true });
  assert.equal(before.ok, true);
  assert.throws(
    () => hooked.trapForTests(),
    (e) =>
      hooked.isEditkitError(e) &&
      e.code === 'INTERNAL_ERROR' &&
      e.cause instanceof WebAssembly.RuntimeError,
  );
  assert.equal(hooked.findMatch('abc', 'b').found, true);
  const after = await hooked.applyBlockDiff(`@@DELETE:${P}@@`, host, { dryRun: true });
  assert.deepEqual(after, before);
  const session = new hooked.FileEditSession({ now: () => 1 });
  assert.equal(
    session.prepareAppend({ path: 'a', content: '', newText: 'x', owner: 'o' }).hunkId.length > 0,
    true,
  );
});

test('a value that cannot cross into wasm is named by its path', () => {
  const refusal = (f) => {
    try {
      f();
    } catch (e) {
      return [e.code, e.subject, e.message];
    }
    return null;
  };
  let deep = {};
  const root = deep;
  for (let i = 0; i < 40; i++) deep = deep.a = {};
  const cases = [
    [() => ek.evaluateSlice(['a', 'b\ud800'], 'a:+1'), 'INVALID_TEXT', 'children[1]'],
    [
      () => ek.findMatch('abc', 'b', { mode: 'safe', extra: [1, { deep: 'x\udc00' }] }),
      'INVALID_TEXT',
      'options.extra[1].deep',
    ],
    [
      () =>
        ek.findMatch('abc', 'b', {
          get mode() {
            throw new Error('boom');
          },
        }),
      'INVALID_ARGUMENT',
      'options',
    ],
    [
      () =>
        ek.findMatch('abc', 'b', {
          nested: {
            get inner() {
              throw new Error('boom');
            },
          },
        }),
      'INVALID_ARGUMENT',
      'options.nested',
    ],
    [() => ek.findMatch('abc', 'b', root), 'INVALID_ARGUMENT', `options${'.a'.repeat(33)}`],
  ];
  for (const [call, code, subject] of cases) {
    const [gotCode, gotSubject, message] = refusal(call);
    assert.equal(gotCode, code, subject);
    assert.equal(gotSubject, subject);
    assert.ok(message.includes(`\`${subject}\``), message);
  }
});

test('without String.prototype.isWellFormed (goja, older engines) an emoji crosses and a lone surrogate is refused', () => {
  const native = Object.getOwnPropertyDescriptor(String.prototype, 'isWellFormed');
  delete String.prototype.isWellFormed;
  try {
    assert.equal(ek.findMatch('修复了若干问题 🐛。', '问题 🐛').matches.length, 1);
    for (const broken of ['问题 \ud83d', '\udc1b 问题', 'a\ud83d\ud83db'])
      assert.throws(() => ek.findMatch('abc', broken), { code: 'INVALID_TEXT' }, broken);
  } finally {
    Object.defineProperty(String.prototype, 'isWellFormed', native);
  }
});

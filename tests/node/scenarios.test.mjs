// tests/scenarios/siyuan.json on every SiYuan this suite can reach: the
// kernel double (always) and a real kernel when SIYUAN_URL and SIYUAN_TOKEN
// are set — in a scratch notebook it creates and removes, nothing else
// touched. See tests/scenarios/README.md for the format.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { doublePath, ek, hostPath, Lute, repo, testing } from './support.mjs';

const SCENARIOS = JSON.parse(readFileSync(join(repo, 'tests', 'scenarios', 'siyuan.json'), 'utf8'));

/** Fresh ids for the `{{name}}` placeholders of one scenario run. */
function idsFor(stamp, salt) {
  const map = new Map();
  return (text) =>
    text.replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (!map.has(name)) {
        const n = (salt * 97 + map.size + 1).toString(36).padStart(7, '0').slice(-7);
        map.set(name, `${stamp}-${n}`);
      }
      return map.get(name);
    });
}

/** The kernel double as a SiYuan. */
function doubleTarget() {
  const box = '20240101090000-k3m9xzq';
  let n = 0;
  return {
    name: 'kernel double',
    async newDocument(markdown) {
      n += 1;
      const docId = `20990101000000-doc${String(n).padStart(4, '0')}`;
      const double = testing.createKernelDouble({
        documents: [{ id: docId, title: 'scenario', box, hpath: '/scenario', blocks: [markdown] }],
        notebooks: [{ id: box, name: '工作笔记' }],
        lute: Lute,
        ...doublePath(),
      });
      const host = ek.createSiyuanHost({ request: double.request, lute: Lute, ...hostPath() });
      return {
        docId,
        host,
        request: double.request,
        editor: {
          update: async (id, md) => double.editor.updateBlock(id, md),
          setAttrs: async (id, attrs) => double.editor.setAttrs(id, attrs),
          delete: async (id) => {
            await double.request('/api/block/deleteBlock', { id });
          },
        },
      };
    },
    async cleanup() {},
  };
}

/** A real SiYuan kernel, when one is configured. */
function liveTarget(url, token) {
  const request = ek.kernelRequest({ baseUrl: url, token });
  const call = async (path, body) => {
    const res = await request(path, body);
    if (res.code !== 0) throw new Error(`${path}: ${res.msg}`);
    return res.data;
  };
  let notebook;
  let n = 0;
  return {
    name: `SiYuan at ${url}`,
    async newDocument(markdown) {
      if (!notebook) {
        const made = await call('/api/notebook/createNotebook', {
          name: `editkit-scenarios-${Date.now()}`,
        });
        notebook = made.notebook.id;
      }
      n += 1;
      const docId = await call('/api/filetree/createDocWithMd', {
        notebook,
        path: `/scenario-${n}`,
        markdown,
      });
      await call('/api/sqlite/flushTransaction', {});
      const host = ek.createSiyuanHost({ request });
      return {
        docId,
        host,
        request,
        editor: {
          update: (id, md) =>
            call('/api/block/updateBlock', { dataType: 'markdown', data: md, id }),
          setAttrs: (id, attrs) => call('/api/attr/setBlockAttrs', { id, attrs }),
          delete: (id) => call('/api/block/deleteBlock', { id }),
        },
      };
    },
    async cleanup() {
      if (notebook) await call('/api/notebook/removeNotebook', { notebook });
    },
  };
}

const targets = [doubleTarget()];
const { SIYUAN_URL, SIYUAN_TOKEN } = process.env;
if (SIYUAN_URL && SIYUAN_TOKEN) targets.push(liveTarget(SIYUAN_URL, SIYUAN_TOKEN));
else
  console.log(
    '# live-kernel scenarios skipped: set SIYUAN_URL and SIYUAN_TOKEN to run them against your SiYuan',
  );
after(async () => {
  for (const t of targets) await t.cleanup();
});

const SEED = Number(process.env.EDITKIT_DOUBLE_SEED ?? 1);

/**
 * Kramdown with each IAL's pairs as a set (sorted), `updated` aside, and
 * without the zero-width spaces the kernel puts beside inline code and
 * <kbd> on every API write (kernel notes §2).
 */
const asSets = (k) =>
  k.replace(/\u200b/g, '').replace(/\{:([^}]*)\}/g, (_, inner) => {
    const pairs = [...inner.matchAll(/([\w-]+)="([^"]*)"/g)]
      .filter((m) => m[1] !== 'updated')
      .map((m) => `${m[1]}="${m[2]}"`)
      .sort();
    return `{: ${pairs.join(' ')}}`;
  });

function attrsOf(ial) {
  return Object.fromEntries(
    [...(ial ?? '').matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
  );
}

async function check(ctx, spec, label) {
  const { host, request, docId } = ctx;
  await host.flushTransaction();
  const row = async (id) => (await host.getBlocks([id]))[0];
  for (const [id, md] of Object.entries(spec.markdown ?? {}))
    assert.equal((await row(id))?.markdown, md, `${label}: markdown of ${id}`);
  for (const id of spec.exists ?? []) assert.ok(await row(id), `${label}: ${id} exists`);
  for (const id of spec.missing ?? []) assert.equal(await row(id), null, `${label}: ${id} is gone`);
  for (const [id, want] of Object.entries(spec.attrs ?? {})) {
    const have = attrsOf((await row(id))?.ial);
    for (const [k, v] of Object.entries(want)) assert.equal(have[k], v, `${label}: ${id} ${k}`);
  }
  for (const [id, count] of Object.entries(spec.count ?? {})) {
    const res = await request('/api/query/sql', {
      stmt: `SELECT id FROM blocks WHERE id = '${id}' LIMIT 10`,
    });
    assert.equal(res.data.length, count, `${label}: blocks with id ${id}`);
  }
  if (spec.topLevel) {
    const [children] = await host.getChildBlocks([docId]);
    assert.deepEqual(
      children.map((c) => c.markdown ?? ''),
      spec.topLevel,
      `${label}: top-level blocks`,
    );
  }
  if (spec.topLevelTypes) {
    const [children] = await host.getChildBlocks([docId]);
    assert.deepEqual(
      children.map((c) => c.type),
      spec.topLevelTypes,
      `${label}: top-level block types`,
    );
  }
  for (const [id, want] of Object.entries(spec.children ?? {})) {
    const [children] = await host.getChildBlocks([id]);
    assert.deepEqual(
      children.map((c) => c.markdown ?? ''),
      want,
      `${label}: children of ${id}`,
    );
  }
  for (const id of spec.gone ?? []) {
    const [kramdown] = await host.getKramdown([id]);
    assert.equal(kramdown, null, `${label}: ${id} is gone from the document`);
  }
  for (const [id, keys] of Object.entries(spec.attrsAbsent ?? {})) {
    const have = attrsOf((await row(id))?.ial);
    for (const k of keys) assert.equal(have[k], undefined, `${label}: ${id} has no ${k}`);
  }
  if (spec.sameAsStart) {
    const [now] = await host.getKramdown([docId]);
    assert.equal(asSets(now), asSets(ctx.start), `${label}: the document as it was`);
  }
}

/**
 * Reads a block's kramdown `times` times: its attributes are the same set
 * every time (KERNEL-FACTS §11: their order is not stable). Says how many
 * orders it saw.
 */
async function reads(ctx, spec, label) {
  const orders = new Set();
  const sets = new Set();
  for (let i = 0; i < spec.times; i++) {
    const [kramdown] = await ctx.host.getKramdown([spec.id]);
    assert.ok(kramdown, `${label}: ${spec.id} exists`);
    const ials = kramdown.match(/\{:[^}]*\}/g) ?? [];
    orders.add(ials.join('|'));
    sets.add(asSets(ials.join('|')));
  }
  assert.equal(sets.size, 1, `${label}: ${spec.times} reads, one attribute set`);
  console.log(
    `# ${label}: ${spec.times} reads of ${spec.id} listed its attributes in ${orders.size} order(s)`,
  );
  return orders.size;
}

let salt = 0;
for (const target of targets) {
  for (const scenario of SCENARIOS) {
    test(`${target.name}: ${scenario.name}`, async () => {
      salt += 1;
      const fill = idsFor('20000101000000', salt);
      const ctx = await target.newDocument(fill(scenario.document));
      ctx.start = (await ctx.host.getKramdown([ctx.docId]))[0];
      let undo;
      for (const [i, step] of scenario.steps.entries()) {
        const label = `step ${i + 1}`;
        if (step.apply !== undefined || step.undo) {
          const diff = step.undo ? undo : fill(step.apply);
          assert.ok(diff, `${label}: no undo to apply`);
          const report = await ek.applyBlockDiff(diff, ctx.host, step.options ?? {});
          const expect = step.expect ?? {};
          if (expect.ok !== undefined)
            assert.equal(report.ok, expect.ok, `${label}: ${report.summary}\n${diff}`);
          if (expect.codes)
            assert.deepEqual(
              report.results.map((r) => r.error?.code ?? null),
              expect.codes,
              `${label}: ${report.summary}`,
            );
          if (report.undo) undo = report.undo;
        } else if (step.editor) {
          const [kind, args] = Object.entries(step.editor)[0];
          const filled = JSON.parse(fill(JSON.stringify(args)));
          await ctx.editor[kind](...filled);
        } else if (step.check) {
          await check(ctx, JSON.parse(fill(JSON.stringify(step.check))), label);
        } else if (step.reads) {
          await reads(ctx, JSON.parse(fill(JSON.stringify(step.reads))), label);
        }
      }
    });
  }
}

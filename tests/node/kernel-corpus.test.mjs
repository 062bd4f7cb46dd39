// Every edit kind on every block of real-shaped SiYuan documents
// (tests/data/siyuan-corpus/: headings with sections, nested lists and task
// lists, quotes and callouts, super blocks, tables, code and math, embeds,
// block refs, database rows and flashcards by attribute, Chinese and
// English prose), through the built package, createSiyuanHost and the
// pessimistic kernel double (SPEC §3.7 rule 21), under several seeds:
//
// - applied cleanly, an edit changes nothing outside the blocks its plan
//   names (and their ancestors and descendants), and its undo gives the
//   document back exactly (attributes compared as sets, `updated` aside);
// - refused, it writes nothing, and the refusal is one of the rules';
// - with a failure at every write position — before the write reaches the
//   kernel, or after it landed with its answer lost — in atomic mode the
//   rollback gives the document back, and otherwise the undo does.
//
// EDITKIT_CORPUS_SEEDS (comma-separated) picks the seeds; the seed of a
// failure is in its message.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createKernel,
  doublePath,
  ek,
  failingHost,
  kernelTest,
  LIVE,
  Lute,
} from './kernel-support.mjs';
import { repo } from './support.mjs';

// The live kernel's randomness is its own: one run there.
const SEEDS = LIVE ? [1] : (process.env.EDITKIT_CORPUS_SEEDS ?? '1,2,3').split(',').map(Number);
const BOX = '20240701000000-corpusb';
const DIR = join(repo, 'tests', 'data', 'siyuan-corpus');
const CORPUS = readdirSync(DIR)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((file, n) => ({
    file,
    id: `2024070100000${n}-corpus${n}`,
    markdown: readFileSync(join(DIR, file), 'utf8'),
  }));
/** Refusals a rule may give on these documents; any other is a failure. */
const RULE_REFUSALS = new Set([
  'WOULD_LOSE_MEMBERSHIP',
  'CHILDREN_WOULD_BE_REASSIGNED',
  'FOLDED_HEADING',
]);

function makeDouble(doc, seed) {
  return createKernel({
    documents: [
      { id: doc.id, title: doc.file, box: BOX, hpath: `/${doc.file}`, blocks: [doc.markdown] },
    ],
    notebooks: [{ id: BOX, name: 'corpus' }],
    lute: Lute,
    ...doublePath(),
    seed,
  });
}

/** A double and a host whose k-th write fails `when` ('before' | 'after'). */
const failing = async (doc, seed, k = 0, when = 'before') =>
  failingHost(await makeDouble(doc, seed), k, when);

const sortedIals = (text) =>
  text.replace(/\{:([^}]*)\}/g, (_, inner) => {
    const pairs = [...inner.matchAll(/([\w-]+)="([^"]*)"/g)]
      .filter((m) => m[1] !== 'updated')
      .map((m) => `${m[1]}="${m[2]}"`)
      .sort();
    return `{: ${pairs.join(' ')}}`;
  });

/**
 * The document as its user reads it: attributes as sets, `updated` aside,
 * without the zero-width spaces the kernel puts beside inline code on every
 * API write (kernel notes §2), and without the anchor text of dynamic refs
 * `((id 'text'))`, which the kernel rewrites to the referenced block's text
 * whenever that block changes (KERNEL-FACTS §12, confirmed live): an edit
 * of a heading and its undo leave such a ref with the heading's text, not
 * the text it had (editkit compares them as the kernel's, SPEC §3.7 rule
 * 10).
 */
const state = async (double, docId) =>
  sortedIals(
    (await double.kramdown(docId))
      .replace(/\u200b/g, '')
      .replace(/\(\((\d{14}-[0-9a-z]{7}) '[^']*'\)\)/g, "(($1 '…'))"),
  );

/** Every block of the document: id, type, parent, own markdown, attributes. */
async function blocksOf(double, docId) {
  const out = [];
  for (const b of await double.snapshot(docId)) {
    const row = await double.block(b.id);
    out.push({ ...b, parent: row.parent_id, ial: sortedIals(row.ial), subtype: row.subtype });
  }
  return out;
}

const CONTAINERS = new Set(['l', 'i', 'b', 's', 'callout']);

/** The edits of one block: [kind, diff], as an agent would write them. */
function editsOf(block, n) {
  const { id, type, markdown } = block;
  const lines = markdown.split('\n');
  const unique = (line) => markdown.split(line).length === 2;
  const candidate = lines.find(
    (l) => /[\p{L}\p{N}]/u.test(l) && unique(l) && !/^\s*(\{\{|```|\$\$|<)/.test(l),
  );
  const edits = [];
  if (candidate && !['tb', 'query_embed', 'html'].includes(type)) {
    const changed = /\|\s*$/.test(candidate)
      ? candidate.replace(/\|\s*$/, '改|')
      : `${candidate}（改 ${n}）`;
    edits.push([
      'search/replace',
      `@@${id}@@\n<<<<<<< SEARCH\n${candidate}\n=======\n${changed}\n>>>>>>> REPLACE`,
    ]);
    if (CONTAINERS.has(type) || type === 'h')
      edits.push(['replace', `@@REPLACE:${id}@@\n${markdown.replace(candidate, changed)}`]);
    // Two hunks on one container (rule 23: each writes only its block).
    const second = lines.find(
      (l) =>
        l !== candidate &&
        /[\p{L}\p{N}]/u.test(l) &&
        unique(l) &&
        !/^\s*(\{\{|```|\$\$|<|\|)/.test(l),
    );
    if (CONTAINERS.has(type) && second)
      edits.push([
        'two hunks',
        [candidate, second]
          .map(
            (line, k) =>
              `@@${id}@@\n<<<<<<< SEARCH\n${line}\n=======\n${line}（改 ${n}.${k}）\n>>>>>>> REPLACE`,
          )
          .join('\n\n'),
      ]);
  }
  if (!CONTAINERS.has(type) && type !== 'h')
    edits.push(['replace', `@@REPLACE:${id}@@\nReplaced text ${n}。`]);
  edits.push(['delete', `@@DELETE:${id}@@`]);
  edits.push(['after', `@@AFTER:${id}@@\n插入的段落 ${n}`]);
  edits.push(['before', `@@BEFORE:${id}@@\nInserted paragraph ${n}.`]);
  if (CONTAINERS.has(type) || type === 'h') {
    edits.push(['prepend', `@@PREPEND:${id}@@\n开头追加 ${n}`]);
    edits.push(['append', `@@APPEND:${id}@@\nAppended ${n} 😀`]);
  }
  return edits;
}

/** Ids of the blocks an edit may change: those it writes, their ancestors, descendants. */
function touched(before, report) {
  const parent = new Map(before.map((b) => [b.id, b.parent]));
  // The blocks the plan writes (SPEC §3.7 rule 23: a container's edit
  // writes only the blocks that change), and where it inserts.
  const targets = new Set(
    report.plan.flatMap((p) =>
      p.operations.some((op) => op.op === 'updateBlock' || op.op === 'deleteBlock')
        ? p.operations.filter((op) => op.id).map((op) => op.id)
        : [p.blockId],
    ),
  );
  const out = new Set();
  for (const b of before) {
    for (let x = b.id; x; x = parent.get(x)) {
      if (targets.has(x)) out.add(b.id);
    }
  }
  for (const t of targets) for (let x = t; x; x = parent.get(x)) out.add(x);
  return out;
}

function assertOnlyTargetsChanged(label, before, after, report) {
  const may = touched(before, report);
  const now = new Map(after.map((b) => [b.id, b]));
  for (const b of before) {
    if (may.has(b.id)) continue;
    const a = now.get(b.id);
    assert.ok(a, `${label}: block ${b.id} (${b.type}) disappeared`);
    if (CONTAINERS.has(b.type)) continue; // its markdown holds its children's
    assert.equal(a.markdown, b.markdown, `${label}: ${b.id} changed`);
    assert.equal(a.ial, b.ial, `${label}: attributes of ${b.id} changed`);
  }
}

for (const seed of SEEDS) {
  for (const doc of CORPUS) {
    kernelTest(
      `${doc.file}, seed ${seed}: every edit of every block applies and undoes exactly, failures at every write included`,
      async () => {
        const probe = await makeDouble(doc, seed);
        // A live kernel gives the blocks written without an id fresh ids in
        // every document it makes: live, every run edits this one document
        // (each run ends where it started, which the test asserts).
        const kernelFor = (k, when) =>
          LIVE ? failingHost(probe, k, when) : failing(doc, seed, k, when);
        const blocks = await blocksOf(probe, doc.id);
        assert.ok(blocks.length >= 20, `${doc.file}: ${blocks.length} blocks`);
        let applied = 0;
        for (const [n, first] of blocks.entries()) {
          // Live, the one document has been edited and restored by now; the
          // kernel refreshed the dynamic anchors of refs to blocks edited
          // before this one (KERNEL-FACTS §12): edit what it holds now.
          const block = LIVE
            ? (await blocksOf(probe, doc.id)).find((b) => b.id === first.id)
            : first;
          for (const [kind, diff] of editsOf(block, n)) {
            const label = `${doc.file} seed ${seed}, ${kind} of ${block.id} (${block.type})`;
            const clean = await kernelFor(0, 'before');
            const start = await state(clean.double, doc.id);
            const before = await blocksOf(clean.double, doc.id);
            const report = await ek.applyBlockDiff(diff, clean.host);
            if (!report.ok) {
              const codes = report.results.map((r) => r.error?.code).filter(Boolean);
              assert.ok(
                codes.length > 0 && codes.every((c) => RULE_REFUSALS.has(c)),
                `${label}: ${report.summary} (${codes.join(', ') || 'no code'})\n${diff}`,
              );
              assert.equal(
                await state(clean.double, doc.id),
                start,
                `${label}: refused, nothing written`,
              );
              continue;
            }
            applied += 1;
            const writes = clean.writes();
            await clean.host.flushTransaction();
            assertOnlyTargetsChanged(label, before, await blocksOf(clean.double, doc.id), report);
            const undone = await ek.applyBlockDiff(report.undo, clean.host);
            assert.equal(undone.ok, true, `${label}: ${undone.summary}\n${report.undo}`);
            assert.equal(
              await state(clean.double, doc.id),
              start,
              `${label}\n${diff}\n${report.undo}`,
            );
            // Live, each failure is a document written anew: the last write
            // landing with its answer lost, rolled back (on the double,
            // every position, both ways).
            const positions = LIVE ? [writes] : Array.from({ length: writes }, (_, i) => i + 1);
            for (const k of positions) {
              for (const when of LIVE ? ['after'] : ['before', 'after']) {
                for (const atomic of LIVE ? [true] : [true, false]) {
                  const run = await kernelFor(k, when);
                  const at = `${label}: write #${k} of ${writes} fails ${when} it lands, ${atomic ? 'atomic' : 'not atomic'}`;
                  const r = await ek.applyBlockDiff(diff, run.host, { atomic });
                  assert.equal(r.ok, false, at);
                  if (atomic) {
                    assert.equal(r.rollback?.ok, true, `${at}: ${r.summary}`);
                  } else if (r.undo) {
                    const u = await ek.applyBlockDiff(r.undo, run.host);
                    assert.equal(u.ok, true, `${at}: ${u.summary}\n${r.undo}`);
                  }
                  assert.equal(
                    await state(run.double, doc.id),
                    start,
                    `${at}\n${diff}\n${r.undo ?? ''}`,
                  );
                }
              }
            }
          }
        }
        assert.ok(applied >= blocks.length, `${doc.file}: only ${applied} edits applied`);
      },
    );
  }
}

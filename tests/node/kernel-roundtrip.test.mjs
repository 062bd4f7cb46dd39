// apply∘undo is the identity on every fixture document and every block type,
// even when a write fails at any position — before it reaches the kernel or
// after it landed with its answer lost — in atomic mode (the rollback
// restores the document) and not (the undo restores it). SPEC §3.7 rules 2,
// 3 and 9, through the built package, createSiyuanHost and the double.
import assert from 'node:assert/strict';
import {
  createKernel,
  docState,
  doublePath,
  ek,
  failingHost,
  fixtureDouble,
  FIXTURES,
  kernelTest,
  Lute,
  testing,
} from './kernel-support.mjs';

/** An edit of one block of each kind the document holds at its top level. */
async function diffFor(doc, double) {
  // The rows as the kernel serves them (its tables unpadded, say).
  const rows = new Map();
  for (const b of doc.blocks) rows.set(b.id, (await double.block(b.id)) ?? b);
  const hunks = [];
  const seen = new Set();
  for (const node of doc.tree.children) {
    const row = rows.get(node.id);
    const md = row.markdown;
    if (seen.has(row.type) || md.trim() === '') continue;
    const lines = md.split('\n');
    const unique = (line) => md.split(line).length === 2;
    let search;
    let replace;
    switch (row.type) {
      case 'p':
      case 'h':
        [search, replace] = [lines[0], `${lines[0]}（改）`];
        break;
      case 'c':
      case 'm':
        if (lines.length < 3 || !unique(lines[1])) continue;
        [search, replace] = [lines[1], `${lines[1]} 改`];
        break;
      case 'l':
      case 'b':
        if (!unique(lines[0])) continue;
        [search, replace] = [lines[0], `${lines[0]}（改）`];
        break;
      case 't':
        [search, replace] = [lines.at(-1), lines.at(-1).replace(/\| ([^|]*?) \|/, '| $1改 |')];
        break;
      case 's': {
        const inner = lines.find((l) => /\p{L}/u.test(l) && !l.startsWith('{{{') && unique(l));
        if (!inner) continue;
        [search, replace] = [inner, `${inner}（改）`];
        break;
      }
      case 'callout': {
        const inner = lines.find((l) => !l.includes('[!') && unique(l));
        if (!inner) continue;
        [search, replace] = [inner, `${inner}（改）`];
        break;
      }
      case 'html':
      case 'iframe':
      case 'video':
      case 'audio':
      case 'query_embed':
        hunks.push(`@@REPLACE:${node.id}@@\n${md.replace(/(\w)(["'])/, '$1x$2')}`);
        seen.add(row.type);
        continue;
      case 'tb':
        hunks.push(`@@DELETE:${node.id}@@`);
        seen.add(row.type);
        continue;
      default:
        continue;
    }
    seen.add(row.type);
    hunks.push(`@@${node.id}@@\n<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`);
  }
  const first = doc.tree.children[0].id;
  hunks.push(`@@AFTER:${first}@@\n插入的一段\n\n## 插入的标题`);
  hunks.push(`@@APPEND:${doc.document.id}@@\n文末追加 😀`);
  return hunks.join('\n\n');
}

/** A document as its user reads it: attributes as sets, no zero-width spaces. */
const kramdownOf = (double, id) => docState(double, id);

/** A double and a host whose k-th write fails `when` ('before' | 'after'). */
const failing = async (k, when, make = fixtureDouble) => failingHost(await make(), k, when);

/**
 * The block types no fixture holds (callouts, HTML, iframes, video, audio,
 * embeds, nested quotes), as a fifth document read from markdown.
 */
async function otherKinds() {
  const double = await createKernel({
    documents: [
      {
        id: '20990101000000-doc0005',
        title: 'kinds',
        box: '20240101090000-k3m9xzq',
        hpath: '/kinds',
        // Each with an id of its own: the diff is built on one kernel and
        // applied on fresh ones (a live kernel gives a block written
        // without an id a new one each time).
        blocks: [
          '开头的段落',
          '> [!NOTE]\n> 提示内容',
          '<div>块</div>',
          '<iframe src="https://example.com/a"></iframe>',
          '<video src="v.mp4"></video>',
          '<audio src="a.mp3"></audio>',
          "{{SELECT * FROM blocks WHERE content = 'x'}}",
          '> 外层\n>\n> > 内层',
          '$$\nx^2\n$$',
        ].map((markdown, n) => ({
          id: `20990101000000-kind${String(n).padStart(3, '0')}`,
          markdown,
        })),
      },
    ],
    lute: Lute,
    ...doublePath(),
  });
  const id = '20990101000000-doc0005';
  const top = [];
  const blocks = [];
  for (const b of await double.topLevel(id)) {
    const row = await double.block(b);
    top.push({ id: b, type: row.type, children: [] });
    blocks.push(row);
  }
  return {
    document: { id, hpath: '/kinds' },
    tree: { children: top },
    blocks,
    documents: double,
  };
}

kernelTest(
  'apply then undo leaves every fixture document exactly as it was, failures at every write included',
  async () => {
    const kinds = await otherKinds();
    for (const doc of [...FIXTURES, kinds]) {
      const docId = doc.document.id;
      const make = doc === kinds ? async () => (await otherKinds()).documents : fixtureDouble;
      const diff = await diffFor(doc, await make());
      if (doc === kinds)
        assert.equal((diff.match(/^@@/gm) ?? []).length, 11, `every kind is edited:\n${diff}`);
      // A clean run: how many writes, and that apply∘undo is the identity.
      const clean = await failing(0, 'before', make);
      const before = await kramdownOf(clean.double, docId);
      const report = await ek.applyBlockDiff(diff, clean.host);
      assert.equal(report.ok, true, `${doc.document.hpath}: ${report.summary}\n${diff}`);
      const writes = clean.writes();
      // Five or more block by block; in batches, one request per kind of write.
      assert.ok(writes >= 3, `${doc.document.hpath}: ${writes} writes`);
      const undone = await ek.applyBlockDiff(report.undo, clean.host);
      assert.equal(undone.ok, true, `${doc.document.hpath}: ${undone.summary}\n${report.undo}`);
      assert.equal(
        await kramdownOf(clean.double, docId),
        before,
        `${doc.document.hpath}\n${report.undo}`,
      );

      for (let k = 1; k <= writes; k++) {
        for (const when of ['before', 'after']) {
          for (const atomic of [true, false]) {
            const label = `${doc.document.hpath}: write #${k} fails ${when} it lands, ${atomic ? 'atomic' : 'non-atomic'}`;
            const run = await failing(k, when, make);
            // The document as this kernel holds it (a live kernel gives the
            // blocks written without an id new ids in each kernel).
            const start = await kramdownOf(run.double, docId);
            const r = await ek.applyBlockDiff(diff, run.host, { atomic });
            assert.equal(r.ok, false, label);
            if (atomic) {
              assert.equal(r.rollback?.ok, true, `${label}: ${r.summary}`);
              assert.equal(r.undo, undefined, label);
            } else {
              const u = await ek.applyBlockDiff(r.undo, run.host);
              assert.equal(u.ok, true, `${label}: ${u.summary}\n${r.undo}`);
            }
            assert.equal(await kramdownOf(run.double, docId), start, `${label}\n${r.undo ?? ''}`);
          }
        }
      }
    }
  },
);

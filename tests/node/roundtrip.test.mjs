// Issue 3's round trip, end to end: for each fixture document, render it
// with showId through the adapter and the kernel double, build a block diff
// from the rendered text that rewrites every paragraph, apply it, render
// again, and compare with the expected document.
import assert from 'node:assert/strict';
import { ek, FIXTURES, kernel, kernelTest } from './kernel-support.mjs';

const HEADER = /^@@(\d{14}-[0-9a-z]{7})@@(.*)$/;

/** The rendered view as [{ id, label, text }] in order. */
function blocksOf(view) {
  const out = [];
  for (const line of view.split('\n')) {
    const m = HEADER.exec(line);
    if (m) out.push({ id: m[1], label: m[2], lines: [] });
    else out.at(-1)?.lines.push(line);
  }
  return out.map((b) => ({ ...b, text: b.lines.join('\n').replace(/\n+$/, '') }));
}

kernelTest(
  'render with showId → rewrite every paragraph from the rendered text → apply → render: as expected',
  async () => {
    for (const fixture of FIXTURES) {
      const docId = fixture.document.id;
      const { host } = await kernel();
      const view = (
        await ek.getBlockContent({ blockId: docId, showId: true, showSubStructure: true }, host, {
          lang: 'zh',
        })
      ).text;
      const paragraphs = blocksOf(view).filter((b) => b.label === '段落' && b.text.trim() !== '');
      assert.ok(paragraphs.length > 0, docId);
      const diff = paragraphs
        .map(
          (p) =>
            `@@${p.id}@@段落\n<<<<<<< SEARCH\n${p.text}\n=======\n${p.text}（改）\n>>>>>>> REPLACE`,
        )
        .join('\n\n');
      const report = await ek.applyBlockDiff(diff, host, { lang: 'zh' });
      assert.equal(
        report.ok,
        true,
        `${docId}: ${report.summary}\n${JSON.stringify(
          report.results.filter((r) => r.error),
          null,
          1,
        )}`,
      );
      assert.equal(report.results.length, paragraphs.length);
      await host.flushTransaction();
      const after = (
        await ek.getBlockContent({ blockId: docId, showId: true, showSubStructure: true }, host, {
          lang: 'zh',
        })
      ).text;
      const expected = blocksOf(view).map((b) => {
        const rewritten = paragraphs.some((p) => p.id === b.id) ? `${b.text}（改）` : b.text;
        return `@@${b.id}@@${b.label}\n${rewritten}`;
      });
      assert.deepEqual(
        blocksOf(after).map((b) => `@@${b.id}@@${b.label}\n${b.text}`),
        expected,
        docId,
      );
      // And the undo brings the rendered document back.
      await ek.applyBlockDiff(report.undo, host);
      await host.flushTransaction();
      assert.equal(
        (
          await ek.getBlockContent({ blockId: docId, showId: true, showSubStructure: true }, host, {
            lang: 'zh',
          })
        ).text,
        view,
        `${docId} after undo`,
      );
    }
  },
);

// The kernel double in a browser: Lute from a script tag (window.Lute), the
// double and the adapter from the built package, a block diff applied and
// undone through them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openDemo } from './support.mjs';

test('browser: createKernelDouble with Lute from a script tag, applyBlockDiff through createSiyuanHost', async () => {
  const demo = await openDemo();
  const { page } = demo;
  try {
    await page.addScriptTag({ url: '/vendor/lute/lute.min.js' });
    const result = await page.evaluate(async () => {
      const testing = await import('/pkg/testing.js');
      const ek = await import('/pkg/web.js');
      await ek.default();
      const kernel = testing.createKernelDouble({
        documents: [
          {
            id: '20250301090000-doc0001',
            title: '周会',
            box: '20250301090000-nbdemo1',
            hpath: '/周会',
            blocks: [
              { id: '20250301090100-intro01', markdown: '本周讨论了 **编辑引擎**。' },
              { id: '20250301090200-list001', markdown: '- 一\n- 二' },
            ],
          },
        ],
        // no { lute }: the double finds window.Lute
      });
      const host = ek.createSiyuanHost({ request: kernel.request });
      const before = kernel.kramdown('20250301090000-doc0001');
      const report = await ek.applyBlockDiff(
        '@@20250301090100-intro01@@\n<<<<<<< SEARCH\n本周讨论了 **编辑引擎**。\n=======\n本周讨论了 **编辑引擎** 与测试。\n>>>>>>> REPLACE\n\n@@APPEND:20250301090200-list001@@\n- 三',
        host,
      );
      const during = kernel.snapshot('20250301090000-doc0001').map((b) => b.markdown);
      const undone = await ek.applyBlockDiff(report.undo, host);
      return {
        ok: report.ok,
        summary: report.summary,
        during,
        undone: undone.ok,
        restored: kernel.kramdown('20250301090000-doc0001') === before,
      };
    });
    assert.equal(result.ok, true, result.summary);
    assert.equal(result.during[0], '本周讨论了 **编辑引擎** 与测试。');
    assert.ok(result.during.includes('- 三'));
    assert.equal(result.undone, true);
    assert.equal(result.restored, true);
    assert.deepEqual(demo.errors, []);
  } finally {
    await demo.close();
  }
});

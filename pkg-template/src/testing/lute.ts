// Lute, SiYuan's Markdown engine, as the kernel double uses it. Lute is not
// bundled: it ships as `lute.min.js` (a GopherJS build) in the npm package
// `vditor` (`vditor/dist/js/lute/lute.min.js`). A browser loads it with a
// script tag (it defines `window.Lute`); Node evaluates its source with
// `loadLute(source, require)`.

import type { LuteNamespace } from '../siyuan/lute.js';

export { kernelLute } from '../siyuan/lute.js';
export type { LuteEngine, LuteNamespace } from '../siyuan/lute.js';

/**
 * Evaluates the source of `lute.min.js` and returns the `Lute` global it
 * defines. `nodeRequire` is Node's `require` (from `createRequire`): the
 * GopherJS runtime looks for it when no `window` exists; omit it in browsers.
 */
export function loadLute(source: string, nodeRequire?: unknown): LuteNamespace {
  const g = globalThis as { Lute?: LuteNamespace };
  if (!g.Lute) {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval
    const run = new Function('require', source) as (this: unknown, req: unknown) => void;
    run.call(globalThis, nodeRequire);
  }
  if (!g.Lute || typeof g.Lute.New !== 'function')
    throw new Error('loadLute: the source did not define a Lute global');
  return g.Lute;
}

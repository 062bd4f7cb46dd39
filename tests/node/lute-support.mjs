// Lute's view of markdown: the top-level blocks of Md2BlockDOM.
import { testing } from './kernel-support.mjs';

/** The top-level blocks of `markdown` as Lute reads them: `{type, markdown}`. */
export function parseTopLevel(lute, markdown) {
  const dom = lute.Md2BlockDOM(markdown);
  const out = [];
  let depth = 0;
  let start = -1;
  const re = /<(\/?)div\b[^>]*>/g;
  let m;
  while ((m = re.exec(dom))) {
    if (!m[1]) {
      if (depth === 0) start = m.index;
      depth += 1;
    } else {
      depth -= 1;
      if (depth === 0) {
        const html = dom.slice(start, m.index + m[0].length);
        out.push({ type: /data-type="(\w+)"/.exec(html)[1], markdown: lute.BlockDOM2StdMd(html) });
      }
    }
  }
  return out;
}

export { testing };

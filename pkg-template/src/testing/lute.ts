// Lute, SiYuan's Markdown engine, as the kernel double uses it. Lute is not
// bundled: it ships as `lute.min.js` (a GopherJS build) in the npm package
// `vditor` (`vditor/dist/js/lute/lute.min.js`). A browser loads it with a
// script tag (it defines `window.Lute`); Node evaluates its source with
// `loadLute(source, require)`.

/** The few Lute engine methods the kernel double calls. */
export interface LuteEngine {
  Md2BlockDOM(markdown: string): string;
  BlockDOM2StdMd(dom: string): string;
  BlockDOM2Content(dom: string): string;
}

/** The `Lute` global that `lute.min.js` defines. */
export interface LuteNamespace {
  New(): LuteEngine;
  Version?: string;
}

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

/** Option setters of `util.NewLute()` in the kernel (v3.7): on, then off. */
const KERNEL_ON = [
  'SetTextMark',
  'SetProtyleWYSIWYG',
  'SetBlockRef',
  'SetFileAnnotationRef',
  'SetKramdownIAL',
  'SetTag',
  'SetSuperBlock',
  'SetImgPathAllowSpace',
  'SetGitConflict',
  'SetInlineAsterisk',
  'SetInlineUnderscore',
  'SetSup',
  'SetSub',
  'SetInlineMath',
  'SetGFMStrikethrough',
  'SetMark',
  'SetInlineMathAllowDigitAfterOpenMarker',
  'SetParagraphBeginningSpace',
  'SetSanitize',
  'SetCallout',
  'SetDataTask',
  'SetArbitraryTaskListItemMarker',
  'SetEnsureListItemParagraph',
  'SetHTMLTag2TextMark',
];
const KERNEL_OFF = [
  'SetFullWidthStrikethrough',
  'SetGFMStrikethrough1',
  'SetFootnotes',
  'SetToC',
  'SetIndentCodeBlock',
  'SetAutoSpace',
  'SetHeadingID',
  'SetSetext',
  'SetYamlFrontMatter',
  'SetLinkRef',
  'SetCodeSyntaxHighlight',
  'SetExportNormalizeTaskListMarker',
];

/**
 * A Lute engine configured like the kernel's `util.NewLute()` (kramdown IAL
 * on, `-` as the unordered list marker, super blocks, callouts, …). Setters
 * this Lute build lacks (`SetCustomBlock`, `SetTabs` of newer kernels) are
 * skipped.
 */
export function kernelLute(lute: LuteNamespace | LuteEngine): LuteEngine {
  const engine: LuteEngine =
    'New' in lute && typeof lute.New === 'function' ? lute.New() : (lute as LuteEngine);
  const setters = engine as unknown as Record<string, unknown>;
  const set = (name: string, value: unknown): void => {
    const f = setters[name];
    if (typeof f === 'function') (f as (v: unknown) => void).call(engine, value);
  };
  for (const name of KERNEL_ON) set(name, true);
  for (const name of KERNEL_OFF) set(name, false);
  set('SetUnorderedListMarker', '-');
  return engine;
}

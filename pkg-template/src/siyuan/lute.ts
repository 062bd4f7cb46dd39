// Lute, SiYuan's Markdown engine, configured as the kernel configures it
// (`util.NewLute()`). Inside a SiYuan plugin the app's own Lute is the
// global `window.Lute`; elsewhere vditor's `lute.min.js` provides one.
// The SiYuan adapter uses it to split markdown as the kernel will; the
// kernel double uses it for every write.

/** The few Lute engine methods editkit calls. */
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

// The wasm-bindgen output (web target) that the build aliases as
// `editkit-glue`. Its own typings say `any`; this keeps them `unknown`.
declare module 'editkit-glue' {
  export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;
  export default function init(input?: {
    module_or_path: InitInput | Promise<InitInput>;
  }): Promise<unknown>;
  export function initSync(input: { module: BufferSource | WebAssembly.Module }): unknown;
  export function __wbg_reset_state(): void;
  export function version(): unknown;
  export function validateBlockDiffFormat(text: unknown, options: unknown): unknown;
  export function splitBlocks(markdown: unknown): unknown;
  export function parseBlockDiff(text: unknown, options: unknown): unknown;
  export function applyBlockDiff(text: unknown, host: unknown, options: unknown): Promise<unknown>;
  export class FileEditSessionCore {
    constructor(options: unknown);
    prepareRangeEdit(options: unknown, nowMs: number): unknown;
    prepareAppend(options: unknown, nowMs: number): unknown;
    prepareInsertAfter(options: unknown, nowMs: number): unknown;
    prepareInsertBefore(options: unknown, nowMs: number): unknown;
    prepareBlockReplace(options: unknown, nowMs: number): unknown;
    apply(options: unknown, nowMs: number): unknown;
    consume(hunkId: unknown): unknown;
    applyOrder(hunkIds: unknown): unknown;
    pending(path: string | undefined, nowMs: number): unknown;
    ttlMs(): unknown;
    free(): void;
  }
  export function idPrefixFromNow(nowMs: number): unknown;
  export function checkOverwrite(options: unknown): unknown;
  export function checkNewFile(options: unknown): unknown;
  export function formatFileView(options: unknown): unknown;
  export function evaluateSlice(children: unknown, slice: unknown, options: unknown): unknown;
  export function renderBlockContent(source: unknown, args: unknown, options: unknown): unknown;
  export function getBlockContent(args: unknown, host: unknown, options: unknown): Promise<unknown>;
  export function getBlockInfo(args: unknown, host: unknown, options: unknown): Promise<unknown>;
  export function formatBlockInfo(info: unknown, options: unknown): unknown;
  export function appendContent(args: unknown, host: unknown, options: unknown): Promise<unknown>;
  export function createNewDoc(args: unknown, host: unknown, options: unknown): Promise<unknown>;
  export function planNewDocPath(args: unknown, options: unknown): unknown;
  export function buildBlockInfo(source: unknown, options: unknown): unknown;
  export function planAppend(source: unknown, options: unknown): unknown;
  export function unifiedDiff(oldText: unknown, newText: unknown, options: unknown): unknown;
  export function findMatch(
    content: unknown,
    search: unknown,
    options: unknown,
    exactAbsent: unknown,
  ): unknown;
  export function replaceText(
    content: unknown,
    search: unknown,
    replace: unknown,
    options: unknown,
  ): unknown;
  export function applySearchReplace(content: unknown, text: unknown, options: unknown): unknown;
  export function planEditSnippet(content: unknown, snippet: unknown, options: unknown): unknown;
  export function applyEdits(
    content: unknown,
    edits: unknown,
    options: unknown,
    fields: unknown,
  ): unknown;
  export function replaceTextWithCorrection(
    content: unknown,
    search: unknown,
    replace: unknown,
    options: unknown,
    corrector: unknown,
  ): Promise<unknown>;
  export function patchPaths(text: unknown, format: unknown, options: unknown): unknown;
  export function planPatch(
    files: unknown,
    text: unknown,
    format: unknown,
    options: unknown,
  ): unknown;
  export function stats(): unknown;
  export function resetStats(): unknown;
  export function __trapForTests(): void;
  /** Added by pkg-template/build.mjs: receives what a future's poll throws. */
  export function __editkitOnAsyncFailure(handler: (thrown: unknown) => void): void;
  export function __trapAfterHostForTests(host: unknown): Promise<unknown>;
}

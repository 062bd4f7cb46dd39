// Type test (compiled, never run; `tsc -p tests/types`): editkit's results
// are discriminated unions that narrow on their flag, the per-function
// error codes are the known subsets of ErrorCode, tool names are a literal
// union, EditkitError declares every field the core sets, and the ai-sdk /
// langchain formats are typed. Each `@ts-expect-error` line is a wrong use
// the types must reject.

import {
  createSiyuanHost,
  createToolRegistry,
  createToolRunner,
  EditkitError,
  findMatch,
  getBlockInfo,
  isEditkitError,
  replaceText,
  TOOL_NAMES,
  toolDefinitions,
  type AiSdkTool,
  type AiSdkTools,
  type ApplyReport,
  type BlockResult,
  type CorrectionErrorCode,
  type EditkitErrorData,
  type ErrorCode,
  type FileApplyResult,
  type FindErrorCode,
  type FindFailureCode,
  type FindResult,
  type HunkResult,
  type LangChainTool,
  type LineCounts,
  type MatchErrorCode,
  type ObjectSchema,
  type RegisteredTool,
  type PatchFileResult,
  type RejectReason,
  type ReplaceErrorCode,
  type SearchReplaceReport,
  type Strategy,
  type ToolModule,
  type ToolName,
  type ToolRegistry,
  type ToolResult,
  type ToolRunner,
  TOOL_MODULES,
} from 'editkit';

// ---- 1. results as discriminated unions -------------------------------------

export function describeFind(r: FindResult): string {
  if (r.found) {
    // Found: the strategy is always there; no failure fields.
    const strategy: Strategy = r.strategy;
    // @ts-expect-error a found result has no code
    const code: ErrorCode = r.code;
    // @ts-expect-error nor a failure report
    const message: string = r.message;
    return `${strategy} ${code} ${message} ${r.matches.length}`;
  }
  // Not found: the code (one of the four find failures) and the report always.
  const code: FindFailureCode = r.code;
  const message: string = r.message;
  // @ts-expect-error the strategy is absent when nothing matched
  const strategy: Strategy = r.strategy;
  return `${code} ${message} ${strategy} ${r.closest?.similarity ?? 0}`;
}

export const direct: string = (() => {
  const r = findMatch('a\nb\n', 'b');
  return r.found ? r.strategy : r.message;
})();

export function block(b: BlockResult): string {
  if (b.ok) return b.strategy;
  const code: MatchErrorCode = b.error.code;
  const none: 0 = b.occurrences;
  // @ts-expect-error a failed block has no strategy
  const strategy: Strategy = b.strategy;
  return `${code} ${none} ${strategy}`;
}

export function firstFailure(r: SearchReplaceReport): MatchErrorCode | undefined {
  // `find` narrows with a type guard on the union.
  const failed = r.results.find((b): b is Extract<BlockResult, { ok: false }> => !b.ok);
  return failed?.error.code;
}

export function hunk(h: HunkResult): number {
  if (h.ok) return h.endLine - h.startLine;
  const code: ErrorCode = h.error.code;
  // @ts-expect-error a hunk that was not placed has no lines
  const start: number = h.startLine;
  return code.length + start;
}

export function patchFile(f: PatchFileResult): string {
  if (f.ok) return f.content ?? '';
  const code: ErrorCode = f.error.code;
  // @ts-expect-error a refused file is never written
  const written: true = f.write;
  // @ts-expect-error nor has content
  const content: string = f.content;
  return `${code} ${written} ${content}`;
}

export function fileApply(r: FileApplyResult): string {
  if (r.status === 'rejected') {
    const reason: RejectReason = r.reason;
    // @ts-expect-error a rejected apply has no line counts
    const lines: LineCounts = r.lines;
    return `${reason} ${lines}`;
  }
  const lines: LineCounts = r.lines;
  // @ts-expect-error an applied plan has no reject reason
  const reason: RejectReason = r.reason;
  return `${lines.delta} ${reason} ${r.contextMatch}`;
}

export function rollback(report: ApplyReport): EditkitErrorData[] {
  const rb = report.rollback;
  if (!rb || rb.ok) return [];
  // A rollback that did not revert everything always says what.
  return rb.errors;
}

export async function toolCall(runner: ToolRunner): Promise<ErrorCode | null> {
  const r: ToolResult = await runner.runDetailed('getBlockInfo', { ids: ['a', 'b'] });
  if (r.isError) {
    // A failure always has its code.
    const code: ErrorCode = r.code;
    return code;
  }
  // @ts-expect-error a success has no code
  const code: ErrorCode = r.code;
  return code;
}

// A registry's tools: described, and called with the runner's result.
export async function registeredCall(tool: RegisteredTool): Promise<ErrorCode | null> {
  const name: ToolName = tool.name;
  const readOnly: boolean = tool.readOnlyHint;
  const r: ToolResult = await tool.call({ ids: name }, { onWrite: () => readOnly });
  return r.isError ? r.code : null;
}
export const siyuanRegistry: ToolRegistry = createToolRegistry({ toolsets: ['siyuan'] });
export const runnerRegistry: ToolRegistry = createToolRunner({}).registry({ lang: 'zh' });
export const modules: readonly ToolModule[] = TOOL_MODULES;
// @ts-expect-error a toolset is 'siyuan' or 'files'
createToolRegistry({ toolsets: ['notes'] });

// ---- 2. per-function error codes ----------------------------------------------

export const notFound: FindFailureCode = 'NOT_FOUND';
// @ts-expect-error ALREADY_APPLIED is replaceText's refusal, never findMatch's found: false
export const applied: FindFailureCode = 'ALREADY_APPLIED';
// @ts-expect-error the matcher never refuses with a block-diff code
export const blockCode: MatchErrorCode = 'BLOCK_NOT_FOUND';
export const emptySearch: FindErrorCode = 'EMPTY_SEARCH';
// @ts-expect-error findMatch answers "not found" in its result, it never throws it
export const thrownNotFound: FindErrorCode = 'NOT_FOUND';
export const correction: CorrectionErrorCode = 'CORRECTOR_NO_CHANGE';
// @ts-expect-error replaceText itself never asks a corrector
export const replaceCorrector: ReplaceErrorCode = 'CORRECTOR_NO_CHANGE';

/** Every code replaceText throws with, handled: the switch is exhaustive. */
export function replaceRefusal(e: EditkitError<ReplaceErrorCode>): string {
  switch (e.code) {
    case 'NOT_FOUND':
    case 'AMBIGUOUS':
    case 'MATCH_COUNT_MISMATCH':
    case 'TOO_MANY_MATCHES':
    case 'ALREADY_APPLIED':
    case 'EMPTY_SEARCH':
    case 'NO_CHANGE':
    case 'REPLACEMENT_NOT_MAPPABLE':
    case 'INVALID_ARGUMENT':
    case 'INVALID_TEXT':
    case 'INTERNAL_ERROR':
      return e.message;
    default: {
      const unhandled: never = e.code;
      return unhandled;
    }
  }
}

export function tryReplace(): string {
  try {
    return replaceText('a', 'b', 'c').content;
  } catch (e) {
    if (isEditkitError(e)) return replaceRefusal(e as EditkitError<ReplaceErrorCode>);
    throw e;
  }
}

// ---- 3. tool names ----------------------------------------------------------------

export const names: readonly ToolName[] = TOOL_NAMES;
export const firstName: 'getBlockInfo' = TOOL_NAMES[0];
export const edit: ToolName = 'edit';
// @ts-expect-error no tool has that name
export const misspelt: ToolName = 'edit_files';
// The runner still takes any string (an unknown name is answered).
export const anyName: Parameters<ToolRunner['run']>[0] = 'rm_rf';
export const knownName: Parameters<ToolRunner['runDetailed']>[0] = 'apply_patch';
// The definitions name their tools with the union.
export const openaiNames: ToolName[] = toolDefinitions({ format: 'openai' }).tools.map(
  (t) => t.function.name,
);
export const mcpNames: ToolName[] = toolDefinitions({ format: 'mcp' }).tools.map((t) => t.name);

// ---- 4. EditkitError's fields -------------------------------------------------------

export function errorFields(e: EditkitError): string {
  const reason: string | undefined = e.reason;
  const blockIds: string[] | undefined = e.blockIds;
  // @ts-expect-error fields are read-only
  e.reason = 'expired';
  // @ts-expect-error no such field
  return `${reason} ${blockIds?.join(',')} ${e.blockId} ${e.notAField}`;
}
export const expired = new EditkitError({
  code: 'HUNK_NOT_FOUND',
  message: 'expired',
  reason: 'expired',
  blockIds: ['20240614083000-a1b2c3d'],
});

// ---- 5. getBlockInfo takes a list of ids ------------------------------------------

export async function infoOfList(): Promise<number> {
  const host = createSiyuanHost({ request: async () => ({ code: 0, msg: '', data: [] }) });
  const one = await getBlockInfo({ ids: '20240614083000-a1b2c3d' }, host);
  const many = await getBlockInfo(
    { ids: ['20240614083000-a1b2c3d', '20240614083000-wk24rep'] },
    host,
  );
  // @ts-expect-error ids are strings
  await getBlockInfo({ ids: [20240614083000] }, host);
  return one.blocks.length + many.notFoundIds.length;
}

// ---- 6. ai-sdk and langchain formats -----------------------------------------------

const ai = toolDefinitions({ format: 'ai-sdk', toolsets: ['files'] });
export const aiTools: AiSdkTools = ai.tools;
export const aiEdit: AiSdkTool | undefined = ai.tools.edit;
export const aiSchema: ObjectSchema | undefined = ai.tools.edit?.inputSchema.jsonSchema;
export const aiStandard: 1 | undefined = ai.tools.edit?.inputSchema['~standard'].version;
// @ts-expect-error the ai-sdk tools are a record by name, not a list
ai.tools.map((t: AiSdkTool) => t.description);
// @ts-expect-error only tool names are keys
export const aiBad = ai.tools.not_a_tool;
export const runnerAi: AiSdkTools = createToolRunner({}).definitions({ format: 'ai-sdk' }).tools;

export const langchainTools: LangChainTool[] = toolDefinitions({ format: 'langchain' }).tools;
// The OpenAI function form LangChain's bindTools takes.
export const langchainShape: {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}[] = langchainTools;
// @ts-expect-error langchain tools are not Anthropic's
export const langchainNotAnthropic: { input_schema: unknown }[] = langchainTools;

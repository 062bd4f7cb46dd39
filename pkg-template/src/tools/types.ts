// The tool layer's public types: the hosts a runner is given, and what a
// tool call gives back. Apart from runner.ts so that the tool modules
// (impl/), the call scope and the registry can name them without
// importing the runner that imports them.

import type { CorrectionRequest, ErrorCode, Lang, SiyuanHost } from '../types.js';
import type { FileEditSession } from '../files.js';

/** File I/O for the file tools. */
export interface FileHost {
  /** The file's text, or `null` when it does not exist. */
  readFile(path: string): Promise<string | null> | string | null;
  writeFile(path: string, content: string): Promise<unknown> | unknown;
  /**
   * One key per file however its path is spelt, so two calls naming the
   * same file wait for each other (default: the path as given).
   */
  lockKey?(path: string): string;
  /** Removes a file: needed only by apply_patch / apply_diff for deletions and renames. */
  deleteFile?(path: string): Promise<unknown> | unknown;
  /**
   * The names in the folder `path`, a folder's name ending in `/`; `null`
   * when `path` is not a folder. Optional: with it, the text editor's
   * `view` of a folder lists it (two levels deep, hidden names left out).
   */
  listDirectory?(path: string): Promise<string[] | null> | string[] | null;
  /** Whether the path exists and is a file (default: derived from readFile). */
  exists?(
    path: string,
  ):
    | Promise<boolean | { exists: boolean; isFile: boolean }>
    | boolean
    | { exists: boolean; isFile: boolean };
}

export interface ToolRunnerOptions {
  /** SiYuan host callbacks (e.g. `createSiyuanHost({ request })`) for the SiYuan tools. */
  siyuan?: SiyuanHost;
  /** File callbacks for the file tools (e.g. `createNodeFileHost({ root })`). */
  files?: FileHost;
  /** The plan registry (one per agent process); created when absent. */
  session?: FileEditSession;
  /** Who plans and applies file edits (default `agent`). */
  owner?: string;
  lang?: Lang;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000; SPEC §3.7 rule 11). */
  timeoutMs?: number;
  /**
   * Asks an LLM to fix an `edit` whose old_string matched nowhere (seed
   * 002's self-correction); resolves to the model's answer.
   */
  corrector?: (request: CorrectionRequest) => Promise<string> | string;
}

/** The fields of every tool call's outcome. */
interface ToolResultBase {
  /** The text for the agent. */
  text: string;
  /** Structured result: the core function's result, or the error's data. */
  data?: unknown;
  /** The call's signal was aborted after its first write: the call was completed, not cancelled. */
  cancelledLate?: boolean;
}

/** A tool call that did what it was asked. */
export interface ToolSuccess extends ToolResultBase {
  isError: false;
  code?: never;
}

/** A tool call refused or failed (nothing, or not everything, was done). */
export interface ToolFailure extends ToolResultBase {
  isError: true;
  /** Why: the refusal's code (for a partial failure, the first failure's). */
  code: ErrorCode;
}

/** A tool call's outcome, for hosts that set an error flag (MCP, tool-call loops): a union on `isError`. */
export type ToolResult = ToolSuccess | ToolFailure;

/** What one call may be given besides its arguments (an MCP server's request, a loop's abort). */
export interface RunOptions {
  /**
   * Cancels the call: aborted before its first write, the call writes
   * nothing and resolves to a `CANCELLED` result (code `HOST_ERROR`,
   * `data.cancelled: true`); aborted later, the call completes what it
   * began (an apply is never left half-written by a cancellation) and its
   * result has `cancelledLate: true`.
   */
  signal?: AbortSignal;
  /** Called after each write the call makes (a file written or deleted, a block written). */
  onWrite?: (write: WriteEvent) => void;
}

/** One write made by a tool call. */
export interface WriteEvent {
  /** Writes made so far by this call, this one included. */
  count: number;
  /**
   * The writes the call makes in all, when it knows before writing: a
   * file edit's one write, a patch's planned writes and deletions.
   * Absent when the count is not known in advance: a SiYuan tool's writes
   * are planned and batched inside the core (a block diff's count is
   * known only from its report), and a rollback's writes come on top of
   * the plan.
   */
  total?: number;
  /** The host callback that wrote (`files.writeFile`, `siyuan.updateBlock`, …). */
  callback: string;
  /** The file path or the block id written, when the callback names one. */
  target?: string;
}

// The public data shapes of editkit. They mirror the Rust core's serialised
// structs (serde, camelCase); tests/node checks real values against them.

/** Message language. */
export type Lang = 'en' | 'zh';

/** Every `code` an `EditkitError` can carry. */
export type ErrorCode =
  // boundary / general
  | 'INVALID_ARGUMENT'
  | 'INVALID_TEXT'
  | 'INTERNAL_ERROR'
  | 'HOST_ERROR'
  | 'HOST_CAPABILITY_MISSING'
  // block diff: format
  | 'NESTED_SEARCH'
  | 'UNCLOSED_SEARCH'
  | 'UNMATCHED_REPLACE'
  | 'MISPLACED_DELIMITER'
  | 'MISSING_DELIMITER'
  | 'SEARCH_WITHOUT_BLOCK_ID'
  | 'INVALID_BLOCK_ID'
  | 'UNKNOWN_COMMAND'
  | 'EMPTY_INSERT'
  | 'EMPTY_SEARCH'
  | 'MISSING_SEARCH'
  | 'EMPTY_DIFF'
  | 'INVALID_DIFF_FORMAT'
  // block diff: check and execution
  | 'BLOCK_NOT_FOUND'
  | 'CONTENT_MISMATCH'
  | 'AMBIGUOUS_MATCH'
  | 'NOT_A_CONTAINER'
  | 'CONFLICTING_EDITS'
  | 'DOCUMENT_TARGET'
  | 'STALE_BLOCK'
  | 'WRITE_VERIFY_FAILED'
  | 'VALIDATION_FAILED'
  | 'WRITE_FAILED'
  // slice
  | 'SLICE_ANCHOR_NOT_FOUND'
  | 'INVALID_SLICE'
  // matcher
  | 'NOT_FOUND'
  | 'AMBIGUOUS'
  | 'ALREADY_APPLIED'
  | 'CORRECTOR_NO_CHANGE'
  // file-edit planner
  | 'FILE_NOT_FOUND'
  | 'CONTENT_REQUIRED'
  | 'ANCHOR_NOT_FOUND'
  | 'ANCHOR_AMBIGUOUS'
  | 'OCCURRENCE_OUT_OF_RANGE'
  | 'HUNK_NOT_FOUND'
  | 'WRONG_OWNER'
  | 'HUNK_KIND_MISMATCH'
  | 'RANGE_OUT_OF_BOUNDS';

/** A 1-based, inclusive line range. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

/** The data of an error: what `EditkitError` carries, and what nested
 * per-item errors (format problems, failed edits) look like. */
export interface EditkitErrorData {
  code: ErrorCode;
  message: string;
  /** 1-based line in the text the caller gave. */
  line?: number;
  blockId?: string;
  /** 1-based index of the hunk or SEARCH/REPLACE block. */
  hunkIndex?: number;
  /** Concrete fixes. */
  suggestions?: string[];
  /** Every place that matched when one was required. */
  candidates?: LineRange[];
  /** What the error is about by name: a host callback, an argument. */
  subject?: string;
  /** Sequence similarity in [0, 1] of what was expected and what was found. */
  similarity?: number;
  expected?: string;
  actual?: string;
  diff?: string;
  /** Agent-facing YAML (file-edit planner). */
  yaml?: string;
  /** Nested problems (every format error, every failed edit). */
  errors?: EditkitErrorData[];
}

// ---------------------------------------------------------------------------
// SiYuan data and the host

/** A row of the kernel's `blocks` table as `/api/query/sql` returns it. */
export interface Block {
  id: string;
  type: string;
  markdown?: string;
  parent_id?: string;
  root_id?: string;
  box?: string;
  path?: string;
  hpath?: string;
  name?: string;
  alias?: string;
  memo?: string;
  tag?: string;
  content?: string;
  fcontent?: string;
  length?: number;
  subtype?: string;
  ial?: string;
  sort?: number;
  created?: string;
  updated?: string;
  hash?: string;
  [column: string]: unknown;
}

/** An entry of `/api/block/getChildBlocks`. */
export interface ChildBlock {
  id: string;
  type: string;
  subType?: string;
  content?: string;
  markdown?: string;
}

/** Where `insertBlock` puts new blocks (exactly one key). */
export type InsertAnchor = { previousID: string } | { nextID: string } | { parentID: string };

/** What a write callback returns: the id(s) of the block(s) it created. */
export type NewBlockIds = string | string[] | null | undefined | void;

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The I/O editkit asks for. Every callback is optional; an operation that
 * needs a missing one fails with `HOST_CAPABILITY_MISSING` before writing.
 * `createSiyuanHost({ request })` implements all of them over the kernel API.
 */
export interface SiyuanHost {
  /** One row per id, in order; `null` where no block has that id. */
  getBlocks?(ids: string[]): Awaitable<(Block | null)[]>;
  /** The child list of each id (for a heading: its section), in order. */
  getChildBlocks?(ids: string[]): Awaitable<ChildBlock[][]>;
  /** The kramdown (markdown with `{: …}` attributes) of each id; `null` if missing. */
  getKramdown?(ids: string[]): Awaitable<(string | null)[]>;
  updateBlock?(id: string, markdown: string): Awaitable<unknown>;
  deleteBlock?(id: string): Awaitable<unknown>;
  insertBlock?(markdown: string, anchor: InsertAnchor): Awaitable<NewBlockIds>;
  prependBlock?(parentID: string, markdown: string): Awaitable<NewBlockIds>;
  appendBlock?(parentID: string, markdown: string): Awaitable<NewBlockIds>;
  /** Makes earlier writes visible to reads (`/api/sqlite/flushTransaction`). */
  flushTransaction?(): Awaitable<unknown>;
  /** The breadcrumb of each id (`/api/block/getBlockBreadcrumb`), outermost
   * first; an empty list where the block does not exist. Same order as `ids`. */
  getBreadcrumb?(ids: string[]): Awaitable<BreadcrumbItem[][]>;
  /** Creates a document (`/api/filetree/createDocWithMd`); returns its id. */
  createDoc?(args: CreateDocArgs): Awaitable<string>;
  /** Creates or gets today's daily note (`/api/filetree/createDailyNote`);
   * returns the document id. */
  createDailyNote?(args: CreateDailyNoteArgs): Awaitable<string>;
}

/** One level of `/api/block/getBlockBreadcrumb`, as the kernel returns it. */
export interface BreadcrumbItem {
  id: string;
  /** Empty for the block itself; `notebook/hpath` for a document; the text
   * of a heading or list item. */
  name: string;
  /** The AST node type, e.g. `"NodeHeading"`. */
  type: string;
  /** `h1`…`h6` for headings, `u`/`o`/`t` for lists and list items, else `""`. */
  subType: string;
  /** Always `null` from the kernel. */
  children: unknown;
}

/** What `createDoc` receives. */
export interface CreateDocArgs {
  /** Notebook id. */
  notebook: string;
  /** Human-readable path of the new document, e.g. `/Notes/Plan`. */
  path: string;
  /** Body of the new document (may be empty). */
  markdown: string;
  /** The parent document's id (hpaths are not unique); omit for the path's own resolution. */
  parentID?: string;
}

/** What `createDailyNote` receives. */
export interface CreateDailyNoteArgs {
  /** Notebook id. */
  notebook: string;
}

// ---------------------------------------------------------------------------
// The SiYuan kernel HTTP API

/** Every kernel endpoint answers this; a non-zero `code` is an error. */
export interface KernelResponse<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/**
 * Sends one kernel API request: `path` such as `/api/query/sql`, `body` the
 * JSON body. Resolves to the parsed `{code, msg, data}` (a plugin passes
 * `fetchSyncPost`; Node passes `kernelRequest({ baseUrl, token })`).
 */
export type KernelRequest = (path: string, body: Record<string, unknown>) => Promise<KernelResponse | unknown>;

/** Options of `createSiyuanHost`. */
export interface SiyuanHostOptions {
  request: KernelRequest;
  /**
   * When reads flush the SQL index first (`/api/sqlite/flushTransaction`):
   * `"auto"` (default) before a SQL read that follows a write made through
   * this host, `"always"` before every SQL read, `"never"` (the caller calls
   * `flushTransaction()` itself).
   */
  flush?: 'auto' | 'always' | 'never';
  /** Ids per SQL statement for batched fetches (1–64, default 64). */
  batchSize?: number;
}

/** The host `createSiyuanHost` returns: every callback, plus the request function. */
export interface SiyuanKernelHost extends Required<SiyuanHost> {
  /** The request function the host sends through. */
  readonly request: KernelRequest;
}

// ---------------------------------------------------------------------------
// Block diff

export type EditKind = 'UPDATE' | 'DELETE' | 'INSERT_BEFORE' | 'INSERT_AFTER' | 'PREPEND' | 'APPEND';

/** One edit of one block, as written in the diff. */
export interface BlockEdit {
  kind: EditKind;
  blockId: string;
  search?: string;
  replacement?: string;
  hunkIndex: number;
  line: number;
}

export type DiffWarningCode =
  | 'TEXT_OUTSIDE_HUNK'
  | 'MARKER_IN_BODY'
  | 'DELETE_BODY_IGNORED'
  | 'UNCHANGED_BLOCK'
  | 'CHILDREN_REASSIGNED'
  | 'UNDO_UNCHECKED'
  | 'UNDO_POSITION_APPROXIMATE';

export interface DiffWarning {
  code: DiffWarningCode;
  message: string;
  line?: number;
  hunkIndex?: number;
  blockId?: string;
}

export interface FormatOptions {
  /** Message language (default `en`). */
  lang?: Lang;
}

export interface FormatReport {
  valid: boolean;
  errors: EditkitErrorData[];
  warnings: DiffWarning[];
}

export interface SearchReplacePair {
  search: string;
  replace: string;
  /** Line of the `<<<<<<< SEARCH` marker. */
  line: number;
}

export interface ParsedHunk {
  index: number;
  line: number;
  command: 'SEARCH' | 'REPLACE' | 'DELETE' | 'BEFORE' | 'AFTER' | 'PREPEND' | 'APPEND' | 'UNKNOWN';
  blockId: string;
  typeLabel?: string;
  pairs?: SearchReplacePair[];
  body?: string;
}

export interface ParseReport {
  hunks: ParsedHunk[];
  edits: BlockEdit[];
  warnings: DiffWarning[];
}

export interface ApplyOptions {
  /** Check only; return the plan; write nothing (default `false`). */
  dryRun?: boolean;
  /** All or nothing (default `true`). */
  atomic?: boolean;
  lang?: Lang;
  /** SEARCH tolerance: `exact`, or `safe` (default) which forgives formatting. */
  matchMode?: 'exact' | 'safe';
}

export type EditStatus = 'planned' | 'applied' | 'failed' | 'unchanged' | 'rolled_back';

export interface EditResult {
  hunkIndex: number;
  line: number;
  kind: EditKind;
  blockId: string;
  status: EditStatus;
  newBlockIds: string[];
  strategy?: string;
  error?: EditkitErrorData;
}

export type HostOp =
  | { op: 'updateBlock'; id: string; markdown: string }
  | { op: 'deleteBlock'; id: string }
  | { op: 'insertBlock'; markdown: string; previousId?: string; nextId?: string; afterPreviousInsert?: boolean }
  | { op: 'prependBlock'; parentId: string; markdown: string }
  | { op: 'appendBlock'; parentId: string; markdown: string };

export interface PlannedEdit {
  kind: EditKind;
  blockId: string;
  hunkIndexes: number[];
  oldMarkdown?: string;
  newMarkdown?: string;
  /** Unified diff from the old to the new markdown. */
  diff: string;
  strategy?: string;
  carriedAttributes?: string;
  childrenReassigned: boolean;
  operations: HostOp[];
}

export interface RollbackReport {
  ok: boolean;
  reverted: number;
  errors?: EditkitErrorData[];
}

export interface IdMapping {
  oldId: string;
  newId: string;
}

export interface ApplyReport {
  ok: boolean;
  dryRun: boolean;
  summary: string;
  results: EditResult[];
  plan: PlannedEdit[];
  /** A block diff that restores what this apply changed. */
  undo?: string;
  rollback?: RollbackReport;
  warnings: DiffWarning[];
  idMap?: IdMapping[];
}

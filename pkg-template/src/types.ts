// The public data shapes of editkit. They mirror the Rust core's serialised
// structs (serde, camelCase); tests/node checks real values against them.

import type {
  AnchorMatch,
  AppendTarget,
  BlockStrategy,
  ContextMatch,
  DocLocation,
  EditKind,
  EditStatus,
  ErrorCode,
  FileOp,
  Lang,
  LocatedBy,
  MatchMode,
  PlanAction,
  PlanMode,
  Placement,
  Position,
  RejectReason,
  Strategy,
  WarningCode,
} from './wire.generated.js';

/** The wire vocabularies, generated from the Rust declarations (see `wire.generated.ts`). */
export type {
  AnchorMatch,
  AppendTarget,
  BlockStrategy,
  ContextMatch,
  DocLocation,
  EditKind,
  EditStatus,
  ErrorCode,
  FileOp,
  Lang,
  LocatedBy,
  MatchMode,
  PlanAction,
  PlanMode,
  Placement,
  Position,
  RejectReason,
  Strategy,
  WarningCode,
};

/** A 1-based, inclusive line range. */
export interface LineRange {
  startLine: number;
  endLine: number;
  /** 1-based UTF-16 column of the start, where several candidates start on one line. */
  startColumn?: number;
}

/** The data of an error: what `EditkitError` carries, and what nested
 * per-item errors (format problems, failed edits) look like. `C` narrows
 * the code where a function's failures are a known subset (e.g.
 * `EditkitErrorData<MatchErrorCode>`). */
export interface EditkitErrorData<C extends ErrorCode = ErrorCode> {
  code: C;
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
  /** Further blocks the error is about (children that would get new ids). */
  blockIds?: string[];
  /** Agent-facing YAML (file-edit planner). */
  yaml?: string;
  /** Why, where one code has several causes: `'expired'` for a `HUNK_NOT_FOUND` plan past its TTL. */
  reason?: string;
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
  /**
   * Optional batches of the writes above (kernel v3.7: `batchUpdateBlock`,
   * one transaction; `batchInsertBlock`, `batchPrependBlock`,
   * `batchAppendBlock`, one request). With them editkit makes a constant
   * number of requests per apply. The insert batches answer the new ids of
   * each item, `[]` for an item the kernel did not insert; a batch that
   * throws is an unknown outcome for every item (editkit re-reads them).
   */
  updateBlocks?(items: { id: string; markdown: string }[]): Awaitable<unknown>;
  insertBlocks?(items: { markdown: string; anchor: InsertAnchor }[]): Awaitable<NewBlockIds[]>;
  prependBlocks?(items: { parentID: string; markdown: string }[]): Awaitable<NewBlockIds[]>;
  appendBlocks?(items: { parentID: string; markdown: string }[]): Awaitable<NewBlockIds[]>;
  /** Makes earlier writes visible to reads (`/api/sqlite/flushTransaction`). */
  flushTransaction?(): Awaitable<unknown>;
  /** The breadcrumb of each id (`/api/block/getBlockBreadcrumb`), outermost
   * first; an empty list where the block does not exist. Same order as `ids`. */
  getBreadcrumb?(ids: string[]): Awaitable<BreadcrumbEntry[][]>;
  /** The heading rows of each document in document order (from
   * `/api/outline/getDocOutline`): `id`, `subtype` (`h2`), `content`.
   * Optional: without it outlines use the document's top-level headings. */
  getDocHeadings?(docIds: string[]): Awaitable<Block[][]>;
  /** Creates a document (`/api/filetree/createDocWithMd`); returns its id. */
  createDoc?(args: CreateDocArgs): Awaitable<string>;
  /** Creates or gets today's daily note (`/api/filetree/createDailyNote`);
   * returns the document id. */
  createDailyNote?(args: CreateDailyNoteArgs): Awaitable<string>;
  /** The ids among `ids` that other blocks reference (`refs.def_block_id`).
   * Without it, a container rewrite that would re-ID a child is refused. */
  getReferencedIds?(ids: string[]): Awaitable<string[]>;
  /** The top-level blocks of `markdown` as SiYuan's Lute splits it (a host
   * that has Lute; editkit's own splitter otherwise). */
  splitMarkdown?(markdown: string): Awaitable<string[]>;
  /** The SiYuan kernel's version (`/api/system/version`, e.g. `"3.7.3"`).
   * Asked only when an edit involves `&`: a kernel up to v3.7.3 decodes an
   * HTML block's character references again on every write, so such
   * writes are refused there (`WOULD_DECODE_ENTITIES`). Without it,
   * editkit assumes such a kernel. */
  getKernelVersion?(): Awaitable<string>;
}

/** One level of `/api/block/getBlockBreadcrumb`, as the kernel returns it. */
export interface BreadcrumbEntry {
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
export type KernelRequest = (
  path: string,
  body: Record<string, unknown>,
) => Promise<KernelResponse | unknown>;

/** Options of `createSiyuanHost`. */
export interface SiyuanHostOptions {
  request: KernelRequest;
  /**
   * When reads flush the SQL index first (`/api/sqlite/flushTransaction`):
   * `"auto"` (default) before a SQL read that follows a write made through
   * this host, `"always"` before every SQL read, `"never"` (the caller calls
   * `flushTransaction()` itself). Except with `"never"`, ids a block read
   * does not find are asked for once more after a flush: a block another
   * writer made in the last ~3 s is not in the table yet.
   */
  flush?: 'auto' | 'always' | 'never';
  /** Ids per SQL statement for batched fetches (1–1000, default 256; every statement states its own LIMIT, so the kernel's default of 64 rows does not apply). */
  batchSize?: number;
  /**
   * Use the kernel's batch endpoints (v3.7: `getBlockKramdowns`,
   * `batchUpdateBlock`, `batchInsertBlock`, `batchPrependBlock`,
   * `batchAppendBlock`; default true): a constant number of requests per
   * apply. A kernel without them (answering 404) is found once and the
   * host then sends one request per block. `false`: no batch callbacks.
   */
  batch?: boolean;
  /** Milliseconds a kernel request may take before it fails with `HOST_TIMEOUT` (default 30,000). */
  timeoutMs?: number;
  /**
   * SiYuan's Lute (the app's `window.Lute`, found by default; or vditor's
   * `lute.min.js` global): gives the host `splitMarkdown`, so replacements
   * are split exactly as the kernel will read them.
   */
  lute?: unknown;
}

/** The batch callbacks of a host (optional: `createSiyuanHost({ batch: false })` has none). */
type BatchCallbacks = 'updateBlocks' | 'insertBlocks' | 'prependBlocks' | 'appendBlocks';

/** The host `createSiyuanHost` returns: every callback, plus the request function. */
export interface SiyuanKernelHost
  extends
    Required<Omit<SiyuanHost, 'splitMarkdown' | BatchCallbacks>>,
    Pick<SiyuanHost, BatchCallbacks> {
  splitMarkdown?(markdown: string): Promise<string[]>;
  /** The request function the host sends through. */
  readonly request: KernelRequest;
}

// ---------------------------------------------------------------------------
// Block diff

/** One edit of one block, as written in the diff. */
export interface BlockEdit {
  kind: EditKind;
  blockId: string;
  search?: string;
  replacement?: string;
  hunkIndex: number;
  line: number;
}

/** @deprecated The Rust name: use `WarningCode`. */
export type DiffWarningCode = WarningCode;

export interface DiffWarning {
  code: WarningCode;
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
  /** Rewrite a container even when a referenced or attributed child would get a new id (default `false`: `CHILDREN_WOULD_BE_REASSIGNED`). */
  allowChildReassign?: boolean;
  /** Delete (or re-ID) blocks that are database rows (`custom-avs`) or flashcards (`custom-riff-decks`) although SiYuan drops the membership for good (default `false`: `WOULD_LOSE_MEMBERSHIP`); the report and the undo then say what the undo cannot bring back. */
  allowMembershipLoss?: boolean;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000). */
  timeoutMs?: number;
}

export interface EditResult {
  hunkIndex: number;
  line: number;
  kind: EditKind;
  blockId: string;
  status: EditStatus;
  newBlockIds: string[];
  /** How the edit found its place: a block rule or a matcher strategy (Rust: `EditStrategy`). */
  strategy?: BlockStrategy | Strategy;
  error?: EditkitErrorData;
}

export type HostOp =
  | { op: 'updateBlock'; id: string; markdown: string }
  | { op: 'deleteBlock'; id: string }
  | {
      op: 'insertBlock';
      markdown: string;
      previousId?: string;
      nextId?: string;
      afterPreviousInsert?: boolean;
      /** The id the new block is written with (its IAL). */
      newId?: string;
    }
  | { op: 'prependBlock'; parentId: string; markdown: string; newId?: string }
  | { op: 'appendBlock'; parentId: string; markdown: string; newId?: string };

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
  /** Some children of this container get new ids (`reassignedChildren`). */
  childrenReassigned: boolean;
  /** Children whose IAL the rewrite restates: they keep id and attributes. */
  keptChildren?: string[];
  /** Children that get new ids. */
  reassignedChildren?: string[];
  operations: HostOp[];
}

/** What the automatic rollback did after a failed write (atomic mode):
 * `ok` when every completed write was reverted, else `errors` says what
 * could not be. */
export type RollbackReport =
  | { ok: true; reverted: number; errors?: never }
  | { ok: false; reverted: number; errors: EditkitErrorData[] };

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
  /**
   * What stopped the whole diff before anything was written, when
   * something did (`ok` is then false, `results` and `plan` empty): the
   * diff is malformed (`INVALID_DIFF_FORMAT`, `EMPTY_DIFF`, …, each
   * problem in `errors`), or the kernel could not be read (`HOST_ERROR`,
   * `HOST_TIMEOUT`).
   */
  error?: EditkitErrorData;
}

// ---------------------------------------------------------------------------
// File-edit planner (prepare → review → apply)

export interface FileEditSessionOptions {
  /** Time to live of plans in ms (default 3 600 000 = 1 h). */
  ttlMs?: number;
  /** The clock, in ms (default `Date.now`). */
  now?: () => number;
  /** A session id prefix (default: `now()` in base 36). */
  randomId?: () => string;
}

interface PlanBase {
  /** The file path (as the host names it). */
  path: string;
  /** The file's current text; `null`/absent when the file does not exist. */
  content?: string | null;
  /** Who plans; only the same owner may apply or revise. */
  owner?: string;
  /** Revise this earlier plan (same tool, same owner, same file). `""` = unset. */
  existingHunkId?: string;
  lang?: Lang;
}

export interface RangeEditOptions extends PlanBase {
  /** `N`, `N~M`, `N~`, `~N`, `~` (1-based, inclusive; `N~` with N = last+1 appends). */
  range: string;
  /** The new lines; `""` deletes the range. */
  newText: string;
}

export interface AppendOptions extends PlanBase {
  newText: string;
  /** Allow a missing file (it is created). */
  create?: boolean;
}

export interface InsertOptions extends PlanBase {
  /** The anchor line to find. */
  anchor: string;
  match?: AnchorMatch;
  /** 1-based, or `"last"`; required when several lines match. `0`/`""` = unset. */
  occurrence?: number | 'last' | string;
  newText: string;
}

export interface BlockReplaceOptions extends PlanBase {
  startAnchor: string;
  endAnchor: string;
  match?: AnchorMatch;
  /** Keep both anchor lines and replace what is between (default true). */
  includeAnchors?: boolean;
  requireUnique?: boolean;
  strict?: boolean;
  occurrence?: number | 'last' | string;
  newText: string;
}

export interface FileApplyOptions {
  hunkId: string;
  owner?: string;
  /** The file's text now; `null`/absent when it does not exist. */
  content?: string | null;
  /** Keep the plan live after a successful apply until `consume(hunkId)`:
   * consume it only once your write succeeded, so a failed write leaves
   * the plan ready for a retry. Default `false`. */
  deferConsume?: boolean;
  lang?: Lang;
}

export interface LineCounts {
  old: number;
  new: number;
  delta: number;
}

export interface Normalized {
  fileEofHasNewline: boolean;
  contentEofHasNewline: boolean;
  normalizedFileEofNewlineAdded: boolean;
  normalizedContentEofNewlineAdded: boolean;
}

export interface Span {
  start: number;
  end: number;
}

export interface PlanResult {
  status: string;
  mode: PlanMode;
  path: string;
  hunkId: string;
  seq: number;
  createdAtMs: number;
  expiresAtMs: number;
  revised: boolean;
  action: PlanAction;
  fileDigest: string;
  lines: LineCounts;
  normalized: Normalized;
  range?: {
    input: string;
    resolved: Span;
    evidenceBefore: string[];
    evidenceRange: string[];
    evidenceAfter: string[];
  };
  append?: {
    create: boolean;
    fileLineCountBefore: number;
    fileLineCountAfter: number;
    appendedLineCount: number;
    blanklineStyle: { fileTrailingBlankLineCount: number; contentLeadingBlankLineCount: number };
    beforeTail: string[];
    appendPreview: string[];
    afterTail: string[];
  };
  insert?: {
    position: Position;
    anchor: string;
    match: AnchorMatch;
    candidatesCount: number;
    occurrenceResolved: string;
    anchorLine: number;
    insertedAtLine: number;
    insertedLineCount: number;
    blanklineStyle: {
      fileBeforeTrailingBlankLineCount: number;
      fileAfterLeadingBlankLineCount: number;
      contentLeadingBlankLineCount: number;
      contentTrailingBlankLineCount: number;
    };
    beforePreview: string[];
    insertPreview: string[];
    afterPreview: string[];
  };
  blockReplace?: {
    startAnchor: string;
    endAnchor: string;
    match: AnchorMatch;
    includeAnchors: boolean;
    requireUnique: boolean;
    strict: boolean;
    candidatesCount: number;
    occurrenceResolved: string;
    blockRange: Span;
    replaceSlice: { startLine: number; deleteCount: number };
    beforePreview: string[];
    oldPreview: string[];
    newPreview: string[];
    afterPreview: string[];
  };
  styleWarning: string;
  summary: string;
  /** The agent-facing YAML evidence. */
  yaml: string;
  /** Unified diff, 3 lines of context. */
  diff: string;
  /** `yaml` and `diff` together, as an agent should see them. */
  text: string;
}

export interface ApplyEvidence {
  plannedAtLine: number;
  appliedAtLine?: number;
  lineShift?: number;
  locatedBy?: LocatedBy;
  candidatesCount: number;
  candidates?: LineRange[];
  contextMatched: number;
  contextTotal: number;
  fileDigestBefore: string;
  fileDigestAfter: string;
  beforePreview: string[];
  afterPreview: string[];
  expectedPreview?: string[];
  actualPreview?: string[];
}

/** The fields of every `FileSession.apply` outcome. */
interface FileApplyBase {
  mode: string;
  path: string;
  hunkId: string;
  action: PlanAction;
  /** Whether `content` differs from the input. */
  changed: boolean;
  /** The new file text to write (the input, unchanged, when rejected). */
  content: string;
  createsFile: boolean;
  appliedRange?: Span;
  appendRange?: Span;
  insert?: {
    position: Position;
    anchor: string;
    insertedAtLine: number;
    insertedLineCount: number;
  };
  blockReplace?: { blockRange: Span; replaceSlice: { startLine: number; deleteCount: number } };
  evidence: ApplyEvidence;
  summary: string;
  yaml: string;
  diff: string;
  text: string;
}

/** A plan applied: `content` is the text to write. */
export interface FileApplied extends FileApplyBase {
  status: 'ok';
  contextMatch: Exclude<ContextMatch, 'rejected'>;
  reason?: never;
  lines: LineCounts;
  normalized: Normalized;
}

/** A plan refused: its lines no longer stand (`CONTENT_CHANGED`) or stand at several places (`AMBIGUOUS_MATCH`); `content` is the input. */
export interface FileApplyRejected extends FileApplyBase {
  status: 'rejected';
  contextMatch: 'rejected';
  reason: RejectReason;
  changed: false;
  lines?: never;
  normalized?: never;
}

/** What `apply` gives: a union on `status` (`'ok'` or `'rejected'`). */
export type FileApplyResult = FileApplied | FileApplyRejected;

export interface PendingHunk {
  hunkId: string;
  seq: number;
  path: string;
  owner: string;
  mode: PlanMode;
  action: PlanAction;
  createdAtMs: number;
  expiresAtMs: number;
}

export interface OverwriteOptions {
  path?: string;
  /** The file's current text. */
  content: string;
  newContent: string;
  /** Snapshot the caller saw (from formatFileView); both required. */
  knownOldTotalLines: number;
  knownOldTotalBytes: number;
  /** Declare diff/patch-looking content as intended: `diff`, `patch`, `block-diff`, `search-replace`. */
  contentFormat?: string;
  lang?: Lang;
}

export interface OverwriteCheck {
  path: string;
  /** The text to write. */
  content: string;
  oldTotalLines: number;
  oldTotalBytes: number;
  newTotalLines: number;
  newTotalBytes: number;
  normalizedTrailingNewlineAdded: boolean;
  lineEndingsConverted: boolean;
  bomKept: boolean;
  contentFormat: string;
  summary: string;
  yaml: string;
  text: string;
}

export interface NewFileOptions {
  path?: string;
  exists: boolean;
  isFile?: boolean;
  newContent: string;
  /** Write `newContent` exactly as given: no final newline is added (default false). */
  asGiven?: boolean;
  lang?: Lang;
}

export interface NewFileCheck {
  path: string;
  content: string;
  newTotalLines: number;
  newTotalBytes: number;
  normalizedTrailingNewlineAdded: boolean;
  summary: string;
  yaml: string;
  text: string;
}

export interface FileViewOptions {
  path?: string;
  content: string;
  /** A line range (`N~M`, …); the whole file by default. */
  range?: string;
  /** Default 500. */
  maxLines?: number;
  showLineNumbers?: boolean;
  lang?: Lang;
}

export interface FileView {
  path: string;
  totalLines: number;
  sizeBytes: number;
  shownLines: number;
  startLine: number;
  endLine: number;
  truncatedByMaxLines: boolean;
  truncatedByCharLimit: boolean;
  nextRange: string;
  lineEnding: string;
  hasBom: boolean;
  summary: string;
  yaml: string;
  body: string;
  text: string;
}

// ---------------------------------------------------------------------------
// Reading and writing tools (slice, getBlockContent, getBlockInfo, appendContent, createNewDoc)

export interface ContentOptions {
  /** Language of messages, type labels and formatted text (default `en`). */
  lang?: Lang;
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000). */
  timeoutMs?: number;
}

export interface SliceResult<T> {
  blocks: T[];
  /** Number of children before slicing. */
  total: number;
  /** The selected run is `[start, end)` of the input. */
  start: number;
  end: number;
  /** `> [Slice View] Filter: "…" | Count: n` */
  header: string;
  /** Set when a non-empty list gave an empty selection. */
  message?: string;
}

export interface GetBlockContentArgs {
  blockId: string;
  /** `@@id@@label` before each block (default false; forced by `slice`). */
  showId?: boolean;
  /** Containers expanded into their children (default false; forced by `slice`). */
  showSubStructure?: boolean;
  /** A slice over the children (see evaluateSlice). */
  slice?: string;
}

export interface BlockContentSource {
  block: Block;
  /** The block's child list (for a heading: its section). */
  children?: ChildBlock[];
}

export interface BlockContent {
  /** The text an agent reads. */
  text: string;
  blockId: string;
  type: string;
  showId: boolean;
  showSubStructure: boolean;
  slice?: string;
  /** Ids of the blocks shown, in order. */
  blockIds: string[];
  total: number;
}

export interface GetBlockInfoArgs {
  /** One id, several comma-separated, or a list. */
  ids: string | string[];
}

export interface TocNode {
  blockId: string;
  content: string;
  level: number;
  children: TocNode[];
}

export interface BreadcrumbItem {
  id: string;
  type: string;
  subType: string;
  name: string;
}

export interface BlockInfo {
  id: string;
  type: string;
  /** The block's row as the host returned it. */
  block: Block;
  contentLength: number;
  markdownLength: number;
  markdownPreview: string;
  childBlockCount?: number;
  toc?: TocNode[];
  breadcrumb?: BreadcrumbItem[];
}

/** What `buildBlockInfo` needs: data a host already holds. */
export interface BlockInfoSource {
  /** The block's row. */
  block: Block;
  /** Its `getChildBlocks` list (documents, headings, containers). */
  children?: ChildBlock[];
  /** A document's heading rows in document order (else the outline comes
   * from the top-level headings of `children`). */
  headings?: Block[];
  /** `getBlockBreadcrumb`'s answer for the block. */
  breadcrumb?: BreadcrumbEntry[];
}

export interface BlockInfoResult {
  blocks: BlockInfo[];
  notFoundIds: string[];
}

export interface AppendContentArgs {
  markdown: string;
  targetType: AppendTarget;
  /** A notebook id for `dailynote`, else a document or block id. */
  target: string;
}

export interface AppendContentResult {
  success: boolean;
  targetId: string;
  targetType: AppendTarget;
  placement: Placement;
  newBlockIds: string[];
  summary: string;
}

/** What `planAppend` needs: the target block's row and, for a heading,
 * its section as `getChildBlocks` lists it. */
export interface AppendSource {
  block: Block;
  section?: ChildBlock[];
}

/** Where appendContent writes: `lastChild` (appendBlock into `anchorId`),
 * `endOfSection` / `nextSibling` (insertBlock after `anchorId`). */
export interface AppendPlan {
  placement: Placement;
  anchorId: string;
}

export interface NewDocPathArgs {
  /** The anchor document's row (`box`, `path`, `hpath`, `type`). */
  anchorDoc: Block;
  title: string;
  location: DocLocation;
}

export interface NewDocPlan {
  notebook: string;
  hpath: string;
  parentID: string;
  title: string;
}

export interface CreateNewDocArgs {
  title: string;
  anchorDocumentId: string;
  location: DocLocation;
  markdown?: string;
}

export interface CreateNewDocResult {
  success: boolean;
  docId: string;
  hpath: string;
  location: DocLocation;
  notebook: string;
  parentID: string;
  summary: string;
}

// ---------------------------------------------------------------------------
// Matcher

/** Options of `findMatch` and `replaceText` (Rust: `MatchOptions`). */
export interface MatchOptions {
  mode?: MatchMode;
  /** Exactly this many places must match (one strategy). */
  expectedReplacements?: number;
  /** Every place (exact and safe strategies only). */
  replaceAll?: boolean;
  /** Fuzzy: minimum score (default 0.85). */
  fuzzyThreshold?: number;
  /** Fuzzy: required lead over the runner-up (default 0.05). */
  fuzzyMargin?: number;
  /** Fuzzy: how much larger or smaller than the search a match may be (default 1.25). */
  sizeRatio?: number;
  /** Operation budget (default 100 000 000); running out means "not found". */
  workBudget?: number;
  /**
   * A 1-based line where the search is expected to start (Roo's
   * `:start_line:`, a unified diff's `@@ -l`). It only breaks a tie: of
   * several places, the one strictly nearest the hint is used; it never
   * moves an edit to a place the search does not match.
   */
  lineHint?: number;
  /**
   * The text is prose (Markdown, plain text): the safe tier also forgives
   * what models write differently when they quote prose — full-/half-width
   * punctuation, spaces between CJK and Latin text, re-wrapped lines,
   * `**`/`__`, list markers and numbers, `<br>` forms, needless escapes,
   * hard-break styles — and writes the replacement in the file's own form
   * (strategy `prose`). Never inside code, math, URLs or HTML. The file
   * tools set it for `.md`, `.markdown` and `.txt`; the SiYuan path for
   * every block but code, math and HTML. Default `false`.
   */
  prose?: boolean;
  lang?: Lang;
}

/** Options of `planEditSnippet` and `applyEditSnippet`. */
export interface EditSnippetOptions {
  lang?: Lang;
  /**
   * The file's path: its extension picks the comment syntax elision
   * markers are written in (`# ...` in `.py`, `// ...` in `.ts`). Without it
   * (and without `language`) every syntax counts.
   */
  path?: string;
  /** The file's language (`python`, `typescript`, `rs`…); wins over `path`. */
  language?: string;
}

/** A placed edit snippet: the new content and where each of its parts went. */
export interface EditSnippetResult {
  content: string;
  regions: {
    /** First and last line of the file the part replaced (1-based). */
    startLine: number;
    endLine: number;
    /** How many lines the part wrote there. */
    newLines: number;
  }[];
}

/** Options of `applyEditSnippet`. */
export interface EditSnippetApplyOptions extends EditSnippetOptions {
  /** Per host callback (default 30 s). */
  timeoutMs?: number;
}

/** What `applyEditSnippet` wrote. */
export interface EditSnippetApplyResult extends EditSnippetResult {
  path: string;
}

/** `findMatch`'s options: {@link MatchOptions}. */
export type FindOptions = MatchOptions;
/** `replaceText`'s options: {@link MatchOptions}. */
export type ReplaceOptions = MatchOptions;

/** One matched place. Offsets are UTF-16 code units; lines are 1-based. */
export interface Match {
  strategy: Strategy;
  start: number;
  end: number;
  startLine: number;
  endLine: number;
  /** 1-based column of the first character on its line (UTF-16 code units). */
  startColumn: number;
  /** The original text that matched. */
  text: string;
  score: number;
}

/** The region most like the search, when nothing matched. */
export interface Closest {
  startLine: number;
  endLine: number;
  similarity: number;
  text: string;
  diff: string;
}

/**
 * Why `findMatch` found no usable place (`found: false`): nothing matched
 * (`NOT_FOUND`), several places where one was required (`AMBIGUOUS`), not
 * the `expectedReplacements` count (`MATCH_COUNT_MISMATCH`), or more places
 * than one call handles (`TOO_MANY_MATCHES`).
 */
export type FindFailureCode = Extract<
  ErrorCode,
  'NOT_FOUND' | 'AMBIGUOUS' | 'MATCH_COUNT_MISMATCH' | 'TOO_MANY_MATCHES'
>;

/**
 * Every refusal of the matcher itself (Rust: `Problem::code`): the codes
 * of `findMatch`'s `found: false`, and the search that is empty
 * (`EMPTY_SEARCH`), the replacement that changes nothing (`NO_CHANGE`),
 * the search absent but its replacement present (`ALREADY_APPLIED`), and
 * a replacement that cannot be written in the file's formatting
 * (`REPLACEMENT_NOT_MAPPABLE`). What a failed block or edit of
 * `applySearchReplace` / `applyEdits` carries.
 */
export type MatchErrorCode =
  | FindFailureCode
  | Extract<
      ErrorCode,
      'EMPTY_SEARCH' | 'NO_CHANGE' | 'ALREADY_APPLIED' | 'REPLACEMENT_NOT_MAPPABLE'
    >;

/** What every call may throw whatever it does: a bad option or argument,
 * a lone surrogate in a string, the core not loaded or restarted. */
export type CallErrorCode = Extract<
  ErrorCode,
  'INVALID_ARGUMENT' | 'INVALID_TEXT' | 'INTERNAL_ERROR'
>;

/** Every code `findMatch` throws with (never for "not found": that is `found: false`). */
export type FindErrorCode = Extract<ErrorCode, 'EMPTY_SEARCH'> | CallErrorCode;

/** Every code `replaceText` throws with. */
export type ReplaceErrorCode = MatchErrorCode | CallErrorCode;

/** Every code `replaceTextWithCorrection` throws with: `replaceText`'s,
 * and the corrector's answer changing nothing, failing or timing out. */
export type CorrectionErrorCode =
  ReplaceErrorCode | Extract<ErrorCode, 'CORRECTOR_NO_CHANGE' | 'HOST_ERROR' | 'HOST_TIMEOUT'>;

/** The fields of every `findMatch` answer. */
interface FindBase {
  /** Strategies run, in order. */
  tried: Strategy[];
  /** The work budget ran out before every strategy finished. */
  budgetExhausted: boolean;
}

/** The search located as the options require (one place, exactly
 * `expectedReplacements`, or at least one with `replaceAll`). */
export interface FindFound extends FindBase {
  found: true;
  /** The strategy that located it. */
  strategy: Strategy;
  matches: Match[];
  code?: never;
  message?: never;
  closest?: never;
}

/** No usable place: `code` says why and `message` is the failure report. */
export interface FindNotFound extends FindBase {
  found: false;
  code: FindFailureCode;
  /** The failure report (what was tried, what to do next), in the requested language. */
  message: string;
  /** The strategy that found the wrong number of places (absent when nothing matched). */
  strategy?: Strategy;
  /** The places found, when there were the wrong number of them; `[]` when nothing matched. */
  matches: Match[];
  /** When nothing matched: the region most like the search. */
  closest?: Closest;
}

/** `findMatch`'s answer: a union on `found`. */
export type FindResult = FindFound | FindNotFound;

export interface ReplaceResult {
  content: string;
  strategy: Strategy;
  occurrences: number;
  matches: Match[];
}

export interface SearchReplaceOptions {
  /** One failure ⇒ content unchanged (default true). */
  atomic?: boolean;
  mode?: MatchMode;
  lang?: Lang;
  fuzzyThreshold?: number;
  fuzzyMargin?: number;
  sizeRatio?: number;
  workBudget?: number;
  /** The content is prose: see {@link MatchOptions.prose}. */
  prose?: boolean;
}

/** The fields of every block's (or edit's) outcome. */
interface BlockBase {
  /** 1-based. */
  index: number;
  /** Line of the block's SEARCH marker (absent for `applyEdits`). */
  line?: number;
}

/** A block (or edit) that applied. */
export interface BlockApplied extends BlockBase {
  ok: true;
  strategy: Strategy;
  occurrences: number;
  /** Spans replaced, as offsets into the content this block was applied to. */
  matches: Match[];
  error?: never;
}

/** A block (or edit) that did not apply, and the matcher's refusal. */
export interface BlockFailed extends BlockBase {
  ok: false;
  strategy?: never;
  occurrences: 0;
  matches: [];
  error: EditkitErrorData<MatchErrorCode>;
}

/** One block's (or edit's) outcome: a union on `ok`. */
export type BlockResult = BlockApplied | BlockFailed;

export interface SearchReplaceReport {
  content: string;
  ok: boolean;
  applied: number;
  failed: number;
  results: BlockResult[];
  /** `Edit completed: k/n blocks applied successfully.` and its partial / failed forms. */
  summary: string;
  /**
   * What stopped the whole text before any block was tried (`ok` false,
   * `content` unchanged, `results` empty): malformed blocks
   * (`INVALID_DIFF_FORMAT`, `EMPTY_DIFF`, …) or a malformed edit.
   */
  error?: EditkitErrorData;
}

export interface EditSpec {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

/** What the corrector callback receives (prompts written for an LLM). */
export interface CorrectionRequest {
  system: string;
  user: string;
  instruction: string;
  search: string;
  replace: string;
  error: string;
  content: string;
}

export interface CorrectionOptions extends ReplaceOptions {
  /** What the edit is meant to do (helps the model correct the search). */
  instruction?: string;
  /** Asks an LLM; resolves to its answer (JSON with `search`, `replace`, `noChangesRequired`, `explanation`). */
  corrector: (request: CorrectionRequest) => Awaitable<string>;
  /** How long the corrector may take (ms, default 30,000); then the call fails with `HOST_TIMEOUT` (SPEC §3.7 rule 11). */
  timeoutMs?: number;
}

export interface MatcherStats {
  strategies: Record<Strategy, number>;
  notFound: number;
  ambiguous: number;
  alreadyApplied: number;
  corrections: {
    success: number;
    failure: number;
    noChange: number;
    invalidAnswer: number;
    hostError: number;
    cacheHits: number;
  };
}

// ---- patches: codex envelopes and unified diffs -----------------------------

export interface PatchOptions {
  /** Default `true`: nothing is written unless every hunk of every file applies. */
  atomic?: boolean;
  /** `exact` or `safe` (default). Hunks are never placed by similarity: `fuzzy` is refused. */
  mode?: 'exact' | 'safe';
  lang?: Lang;
  /**
   * jsdiff's `fuzzFactor` (default 0): how many of a hunk's context lines may
   * be changed, missing or extra in the file when its lines are nowhere as
   * they are. Its removed lines must still be found, the file's context
   * lines are kept as they are, and it is placed only where one place fits
   * (two: `AMBIGUOUS`). A non-negative integer.
   */
  fuzzFactor?: number;
}

/** A hunk placed. */
export interface HunkPlaced {
  /** 1-based position of the hunk in its file's section. */
  index: number;
  /** 1-based line of the hunk in the patch text. */
  line: number;
  ok: true;
  /** The strategy that located its old lines (absent for an insertion at the end). */
  strategy?: Strategy;
  /** First line of the file (before the patch) the hunk replaced. */
  startLine: number;
  /** Last line it replaced (`startLine - 1` for an insertion). */
  endLine: number;
  error?: never;
}

/** A hunk not placed, and why. */
export interface HunkFailed {
  index: number;
  line: number;
  ok: false;
  strategy?: never;
  startLine?: never;
  endLine?: never;
  error: EditkitErrorData;
}

/** Where one hunk went, or why it did not: a union on `ok`. */
export type HunkResult = HunkPlaced | HunkFailed;

/** The fields of every file's outcome in a patch. */
interface PatchFileBase {
  path: string;
  op: FileOp;
  /** The updated text goes here and `path` is removed (kept when `copy`). */
  moveTo?: string;
  /** git's `copy from`/`copy to`: `moveTo` is a copy, `path` stays. */
  copy?: boolean;
  /**
   * git's `new mode` / `new file mode` (`100755`, `100644`, `120000`): the
   * mode the file ends with, set through the host's `setMode` (a host
   * without it gets a `MODE_NOT_SET` warning).
   */
  mode?: string;
  hunks: HunkResult[];
}

/** A file whose hunks all applied and whose file-level checks passed. */
export interface PatchFileApplied extends PatchFileBase {
  ok: true;
  /** The host performs this file's operation (false when an atomic plan failed elsewhere, or a write failed). */
  write: boolean;
  /** The text to write (to `moveTo` when set, else `path`) when `write`. */
  content?: string;
  /** The text changes. */
  changed: boolean;
  error?: never;
}

/** A file refused: a file-level refusal, or its first failed hunk's error. */
export interface PatchFileFailed extends PatchFileBase {
  ok: false;
  write: false;
  content?: never;
  changed: false;
  error: EditkitErrorData;
}

/** The outcome for one file of a patch: a union on `ok`. */
export type PatchFileResult = PatchFileApplied | PatchFileFailed;

/** The outcome of planning a patch, file by file. */
export interface PatchReport {
  ok: boolean;
  /** Files that applied (0 when an atomic plan failed). */
  applied: number;
  failed: number;
  files: PatchFileResult[];
  /** One paragraph for the agent: what applied, every failure with file, hunk and line. */
  summary: string;
  /** What the patch asked for that was nothing to do (absent when none). */
  warnings?: PatchWarning[];
}

/** A part of a patch that was nothing to do, and why that is not a failure. */
export interface PatchWarning {
  /**
   * `NO_HUNKS`: a unified-diff file section with headers and no hunk.
   * `MODE_NOT_SET`: a git mode change the host has no `setMode` for.
   */
  code: 'NO_HUNKS' | 'MODE_NOT_SET';
  path: string;
  /** 1-based line of the patch text. */
  line: number;
  message: string;
}

/** The file callbacks `applyPatch` and `applyUnifiedDiff` use. */
export interface PatchFileHost {
  /** The file's text, or `null` when it does not exist. */
  readFile(path: string): Promise<string | null> | string | null;
  writeFile(path: string, content: string): Promise<unknown> | unknown;
  /** Needed only by patches that delete or rename a file. */
  deleteFile?(path: string): Promise<unknown> | unknown;
  /**
   * Optional: sets a file's mode (git's `100755`, `100644`, `120000`) after
   * a diff with `new mode` or `new file mode` wrote it. Without it the mode
   * is reported as a `MODE_NOT_SET` warning.
   */
  setMode?(path: string, mode: string): Promise<unknown> | unknown;
}

export interface PatchApplyOptions extends PatchOptions {
  /** Milliseconds each host callback may take before `HOST_TIMEOUT` (default 30,000). */
  timeoutMs?: number;
}

/** What `applyPatch` did: the plan, and what it wrote. */
/** One operation of OpenAI's `apply_patch` tool (`apply_patch_call.operation`). */
export type ApplyPatchOperation =
  | { type: 'create_file'; path: string; diff: string }
  | { type: 'update_file'; path: string; diff: string }
  | { type: 'delete_file'; path: string };

/** What `applyPatchOperation` gives: the `apply_patch_call_output` fields and the report. */
export interface ApplyPatchOperationResult {
  status: 'completed' | 'failed';
  /** The summary the model reads. */
  output: string;
  report: PatchApplyResult;
}

export interface PatchApplyResult extends PatchReport {
  /** Paths written or deleted, in order (after a failed write, those rolled back are not listed). */
  written: string[];
  /**
   * What stopped the whole patch, when something did: the patch is
   * malformed (`INVALID_PATCH`: nothing planned, `files` empty), a path is
   * outside the host's root, a read failed, or a host write failed
   * part-way (`WRITE_FAILED`: the files written before it were restored
   * where the host allowed; `error.message` says which).
   */
  error?: EditkitErrorData;
}

// Generated from the Rust declarations (`wire_enum!` in src/): do not edit.
// `WIRE_WRITE=1 cargo test --test all wire` rewrites this file; that test
// fails when it is out of date.

/** Every `code` an `EditkitError` can carry (Rust: `ErrorCode`). */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'INVALID_TEXT'
  | 'INTERNAL_ERROR'
  | 'HOST_ERROR'
  | 'HOST_CAPABILITY_MISSING'
  | 'HOST_TIMEOUT'
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
  | 'MALFORMED_HEADER'
  | 'INVALID_DIFF_FORMAT'
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
  | 'CHILDREN_WOULD_BE_REASSIGNED'
  | 'WOULD_LOSE_MEMBERSHIP'
  | 'UNCLOSED_FENCE'
  | 'FOLDED_HEADING'
  | 'WOULD_DECODE_ENTITIES'
  | 'WOULD_BREAK_REF'
  | 'SLICE_ANCHOR_NOT_FOUND'
  | 'INVALID_SLICE'
  | 'NOT_A_DOCUMENT'
  | 'NO_PARENT_DOCUMENT'
  | 'NOT_FOUND'
  | 'AMBIGUOUS'
  | 'ALREADY_APPLIED'
  | 'CORRECTOR_NO_CHANGE'
  | 'NO_CHANGE'
  | 'MATCH_COUNT_MISMATCH'
  | 'REPLACEMENT_NOT_MAPPABLE'
  | 'TOO_MANY_MATCHES'
  | 'FILE_NOT_FOUND'
  | 'CONTENT_REQUIRED'
  | 'ANCHOR_NOT_FOUND'
  | 'ANCHOR_AMBIGUOUS'
  | 'OCCURRENCE_OUT_OF_RANGE'
  | 'HUNK_NOT_FOUND'
  | 'WRONG_OWNER'
  | 'HUNK_KIND_MISMATCH'
  | 'RANGE_OUT_OF_BOUNDS'
  | 'HUNK_PATH_MISMATCH'
  | 'INVALID_RANGE'
  | 'INVALID_REGEX'
  | 'NESTED_ANCHORS'
  | 'SNAPSHOT_MISMATCH'
  | 'SUSPICIOUS_DIFF'
  | 'FILE_EXISTS'
  | 'NOT_A_FILE'
  | 'INVALID_PATCH'
  | 'HUNK_WITHOUT_CONTEXT'
  | 'PATH_OUTSIDE_ROOT'
  | 'NOT_TEXT';

/** The matcher's strategies, most exact first (Rust: `Strategy`). */
export type Strategy =
  | 'exact'
  | 'line_endings'
  | 'trimmed_boundaries'
  | 'trailing_whitespace'
  | 'indentation'
  | 'whitespace_normalized'
  | 'unicode_normalized'
  | 'escape_normalized'
  | 'prose'
  | 'token_flexible'
  | 'context_anchored'
  | 'block_similarity'
  | 'context_fuzz';

/** Warnings of a block diff (Rust: `WarningCode`). */
export type WarningCode =
  | 'TEXT_OUTSIDE_HUNK'
  | 'MARKER_IN_BODY'
  | 'DELETE_BODY_IGNORED'
  | 'UNCHANGED_BLOCK'
  | 'CHILDREN_REASSIGNED'
  | 'ID_IN_USE'
  | 'WRITE_OUTCOME_RESOLVED'
  | 'KERNEL_CREATED_BLOCK'
  | 'UNDO_UNCHECKED'
  | 'CONTAINER_DELETED'
  | 'MEMBERSHIP_LOST'
  | 'UNDO_POSITION_APPROXIMATE'
  | 'KERNEL_SIDE_EFFECTS';

/** How a block edit found its place without the matcher (Rust: `BlockStrategy`). */
export type BlockStrategy =
  | 'whole_block'
  | 'substring'
  | 'replace_command'
  | 'unchanged';

/** Message language (Rust: `Lang`). */
export type Lang =
  | 'en'
  | 'zh';

/** What a block-diff edit does (Rust: `EditKind`). */
export type EditKind =
  | 'UPDATE'
  | 'DELETE'
  | 'INSERT_BEFORE'
  | 'INSERT_AFTER'
  | 'PREPEND'
  | 'APPEND';

/** What happened to one block-diff edit (Rust: `EditStatus`). */
export type EditStatus =
  | 'planned'
  | 'applied'
  | 'failed'
  | 'unchanged'
  | 'rolled_back';

/** How much a match may forgive (Rust: `MatchMode`). */
export type MatchMode =
  | 'exact'
  | 'safe'
  | 'fuzzy';

/** How an anchor is compared with each line (Rust: `AnchorMatch`). */
export type AnchorMatch =
  | 'contains'
  | 'equals'
  | 'regex';

/** The prepare tool that made a plan (Rust: `PlanMode`). */
export type PlanMode =
  | 'prepare_file_range_edit'
  | 'prepare_file_append'
  | 'prepare_file_insert_after'
  | 'prepare_file_insert_before'
  | 'prepare_file_block_replace';

/** What a plan does to the file (Rust: `PlanAction`). */
export type PlanAction =
  | 'replace'
  | 'delete'
  | 'append'
  | 'insert'
  | 'block_replace';

/** Where an insert goes relative to its anchor line (Rust: `Position`). */
export type Position =
  | 'before'
  | 'after';

/** How an apply found the planned place (Rust: `ContextMatch`). */
export type ContextMatch =
  | 'exact'
  | 'fuzz'
  | 'rejected';

/** Why an apply was rejected (Rust: `RejectReason`). */
export type RejectReason =
  | 'CONTENT_CHANGED'
  | 'AMBIGUOUS_MATCH';

/** How an apply located the change (Rust: `LocatedBy`). */
export type LocatedBy =
  | 'planned_position'
  | 'lines_and_context'
  | 'end_of_file'
  | 'safe_strategy';

/** What appendContent's `target` names (Rust: `AppendTarget`). */
export type AppendTarget =
  | 'dailynote'
  | 'document'
  | 'block';

/** Where appendContent put the new blocks (Rust: `Placement`). */
export type Placement =
  | 'lastChild'
  | 'endOfSection'
  | 'nextSibling';

/** Where createNewDoc puts the new document (Rust: `DocLocation`). */
export type DocLocation =
  | 'siblings'
  | 'children'
  | 'parent';

/** What a patch does to one file (Rust: `FileOp`). */
export type FileOp =
  | 'add'
  | 'delete'
  | 'update';

//! The block-diff engine's vocabulary: edits, options, results, warnings,
//! and what can go wrong ([`Problem`]). A leaf: it imports no stage module
//! and no `messages`, so every stage and the messages import it.

use serde::{Deserialize, Serialize};

pub use crate::matcher::MatchMode;
use crate::{Details, Error, ErrorCode, Lang, LineRange};

crate::wire::wire_enum! {
/// What an edit does to its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditKind {
    /// Rewrite the block (`@@id@@` with SEARCH/REPLACE, or `@@REPLACE:id@@`).
    Update = "UPDATE",
    /// Delete the block (`@@DELETE:id@@`).
    Delete = "DELETE",
    /// Insert before the block, as its sibling (`@@BEFORE:id@@`).
    InsertBefore = "INSERT_BEFORE",
    /// Insert after the block, as its sibling (`@@AFTER:id@@`).
    InsertAfter = "INSERT_AFTER",
    /// Insert as the block's first child (`@@PREPEND:id@@`; on a heading,
    /// right under it).
    Prepend = "PREPEND",
    /// Insert as the block's last child (`@@APPEND:id@@`; on a heading, at
    /// the end of its section).
    Append = "APPEND",
}
}

/// One edit of one block, as written in the diff. A `@@id@@` hunk with
/// several SEARCH/REPLACE pairs gives one edit per pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockEdit {
    /// What the edit does.
    pub kind: EditKind,
    /// The block the hunk header names.
    pub block_id: String,
    /// The SEARCH text (content-checked edits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// The new markdown (`""` in a SEARCH/REPLACE pair means remove).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
    /// 1-based position of its hunk in the diff.
    pub hunk_index: u32,
    /// Line of the hunk header (command hunks) or SEARCH marker.
    pub line: u32,
}

crate::wire::wire_enum! {
/// Non-fatal observations (declared once, like every wire vocabulary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningCode {
    /// Text outside any hunk or between SEARCH/REPLACE pairs was ignored.
    TextOutsideHunk = "TEXT_OUTSIDE_HUNK",
    /// A marker line inside a command body was kept as text.
    MarkerInBody = "MARKER_IN_BODY",
    /// Text after `@@DELETE:id@@` was ignored.
    DeleteBodyIgnored = "DELETE_BODY_IGNORED",
    /// The edit would not change the block; it was not applied.
    UnchangedBlock = "UNCHANGED_BLOCK",
    /// Some children of a rewritten container get new ids (their text was
    /// replaced beyond recognition; `allowChildReassign`, or nothing refers
    /// to them and they carry no attributes).
    ChildrenReassigned = "CHILDREN_REASSIGNED",
    /// An id written in the new markdown belongs to another block already;
    /// it was left out (the kernel would keep it and make a duplicate).
    IdInUse = "ID_IN_USE",
    /// A write's outcome was unknown (the callback threw or timed out) and
    /// re-reading the block settled it.
    WriteOutcomeResolved = "WRITE_OUTCOME_RESOLVED",
    /// The kernel created a block of its own (the empty paragraph an emptied
    /// list item keeps); the undo removes it again.
    KernelCreatedBlock = "KERNEL_CREATED_BLOCK",
    /// Part of the undo could not be expressed as a checked hunk.
    UndoUnchecked = "UNDO_UNCHECKED",
    /// The diff deletes every child of a blockquote, list, list item or
    /// super block: the container itself is deleted (SiYuan drops an
    /// emptied container at its next load, and an undo could not put the
    /// text back into it).
    ContainerDeleted = "CONTAINER_DELETED",
    /// A deleted block was a database row or a flashcard
    /// (`allowMembershipLoss`): its undo brings the text back, not the
    /// membership.
    MembershipLost = "MEMBERSHIP_LOST",
    /// A deleted block's position could not be determined exactly; its undo
    /// re-inserts it at the start of its parent.
    UndoPositionApproximate = "UNDO_POSITION_APPROXIMATE",
    /// A write that re-IDs children did not land, and the kernel may have
    /// kept side effects of it: the new ids in its block index, database
    /// rows of the children removed (SPEC §3.7 rule 27).
    KernelSideEffects = "KERNEL_SIDE_EFFECTS",
}
}

/// Something the diff's author should know that did not stop it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    /// What kind of warning.
    pub code: WarningCode,
    /// The warning in words, in the caller's language.
    pub message: String,
    /// The diff line it is about, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The hunk it is about, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<u32>,
    /// The block it is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_id: Option<String>,
}

/// Options of [`validate_block_diff_format`](crate::validate_block_diff_format) and [`parse_block_diff`](crate::parse_block_diff).
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FormatOptions {
    /// Message language (default `en`).
    pub lang: Lang,
}

/// Every format problem of a diff, for live editor feedback.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FormatReport {
    /// No format problem (`errors` is empty).
    pub valid: bool,
    /// Every format problem, in diff order, each with its line.
    pub errors: Vec<Error>,
    /// Text that is ignored or kept as it is.
    pub warnings: Vec<Warning>,
}

/// A parsed diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParseReport {
    /// The hunks as written.
    pub hunks: Vec<ParsedHunk>,
    /// The edits they make, in diff order (one per SEARCH/REPLACE pair).
    pub edits: Vec<BlockEdit>,
    /// Text that is ignored or kept as it is.
    pub warnings: Vec<Warning>,
}

/// Options of [`apply_block_diff`](crate::apply_block_diff).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ApplyOptions {
    /// Parse and check only; return the plan; write nothing (default false).
    pub dry_run: bool,
    /// All or nothing (default true): any failed check ⇒ nothing written;
    /// a failed write ⇒ the writes already done are rolled back.
    pub atomic: bool,
    /// Message language (default `en`).
    pub lang: Lang,
    /// Matching tolerance for SEARCH text (default `safe`).
    pub match_mode: MatchMode,
    /// Rewrite a container even when a referenced or attributed child would
    /// get a new id (default false: `CHILDREN_WOULD_BE_REASSIGNED`).
    pub allow_child_reassign: bool,
    /// Delete or re-ID blocks that are database rows (`custom-avs`) or
    /// flashcards (`custom-riff-decks`) even though the kernel drops the
    /// membership for good (default false: `WOULD_LOSE_MEMBERSHIP`).
    pub allow_membership_loss: bool,
    /// The time part (`YYYYMMDDHHMMSS`, local time) of the ids editkit gives
    /// the blocks it inserts. The JS layer fills it from the clock; without
    /// it the newest `updated` stamp of the blocks read is used.
    pub id_stamp: Option<String>,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions {
            dry_run: false,
            atomic: true,
            lang: Lang::En,
            match_mode: MatchMode::Safe,
            allow_child_reassign: false,
            allow_membership_loss: false,
            id_stamp: None,
        }
    }
}

crate::wire::wire_enum! {
/// What happened to one edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EditStatus {
    /// Checked; would be written (dry run, or an atomic run stopped by
    /// another edit's failure).
    Planned = "planned",
    /// Written, and read back as planned.
    Applied = "applied",
    /// Refused by the check, or its write failed (see `error`).
    Failed = "failed",
    /// Would change nothing; not written.
    Unchanged = "unchanged",
    /// Written, then undone by the automatic rollback.
    RolledBack = "rolled_back",
}
}

/// The outcome of one edit of the diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    /// 1-based position of its hunk in the diff.
    pub hunk_index: u32,
    /// The diff line of its header or SEARCH marker.
    pub line: u32,
    /// What the edit does.
    pub kind: EditKind,
    /// The block the hunk header names.
    pub block_id: String,
    /// What happened to it.
    pub status: EditStatus,
    /// Ids of blocks this edit created (inserts, extra blocks of a split).
    pub new_block_ids: Vec<String>,
    /// How the edit found its place in the block (`whole_block`,
    /// `substring`, a matcher strategy such as `whitespace_normalized`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<EditStrategy>,
    /// Why it failed (status `failed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

/// A host write, as planned (the shape a host callback receives).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum HostOp {
    /// `updateBlock`: the block's new markdown.
    #[serde(rename = "updateBlock")]
    Update {
        /// The block rewritten.
        id: String,
        /// Its new kramdown (IALs restated).
        markdown: String,
    },
    /// `deleteBlock`.
    #[serde(rename = "deleteBlock")]
    Delete {
        /// The block deleted (with its children).
        id: String,
    },
    /// `insertBlock`: a new sibling, or a first child given only a parent.
    #[serde(rename = "insertBlock", rename_all = "camelCase")]
    Insert {
        /// The kramdown of the new block.
        markdown: String,
        /// Insert right after this block; `None` with `after_previous_insert`
        /// means after the block the previous write of this edit created.
        #[serde(skip_serializing_if = "Option::is_none")]
        previous_id: Option<String>,
        /// Insert right before this block.
        #[serde(skip_serializing_if = "Option::is_none")]
        next_id: Option<String>,
        /// Insert as the first child of this container.
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_id: Option<String>,
        /// Insert after the block the previous write of this edit created.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        after_previous_insert: bool,
        /// The id the new block is written with (its IAL).
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
    /// `prependBlock`: a new first child.
    #[serde(rename = "prependBlock", rename_all = "camelCase")]
    Prepend {
        /// The container the block goes into.
        parent_id: String,
        /// The kramdown of the new block.
        markdown: String,
        /// The id the new block is written with (its IAL).
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
    /// `appendBlock`: a new last child.
    #[serde(rename = "appendBlock", rename_all = "camelCase")]
    Append {
        /// The container the block goes into.
        parent_id: String,
        /// The kramdown of the new block.
        markdown: String,
        /// The id the new block is written with (its IAL).
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
}

/// The checked plan for one block (several edits of one block compose into
/// one update) or one insert.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedEdit {
    /// What the plan does to the block (an update that empties a block
    /// deletes it).
    pub kind: EditKind,
    /// The block rewritten, deleted, or inserted next to or into.
    pub block_id: String,
    /// The hunks composed into this plan, 1-based.
    pub hunk_indexes: Vec<u32>,
    /// The block's markdown before (updates and deletes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_markdown: Option<String>,
    /// What will be written (updates and inserts), without carried
    /// attributes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_markdown: Option<String>,
    /// Unified diff from old to new markdown.
    pub diff: String,
    /// How each SEARCH found its place, joined with `+` in diff order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    /// The IAL appended to the update so attributes survive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub carried_attributes: Option<String>,
    /// Some children of this container will get new ids
    /// (`reassignedChildren`).
    pub children_reassigned: bool,
    /// Children whose IAL the rewrite restates: they keep id and attributes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept_children: Vec<String>,
    /// Children that will get new ids.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reassigned_children: Vec<String>,
    /// The host writes, in order.
    pub operations: Vec<HostOp>,
}

/// What the automatic rollback did after a failed write (atomic mode).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RollbackReport {
    /// Every completed write was reverted.
    pub ok: bool,
    /// Number of writes reverted.
    pub reverted: u32,
    /// What the rollback could not revert, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Error>,
}

/// An id that changed when a block was re-inserted (the kernel did not
/// accept the original id from the IAL).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdMapping {
    /// The id the block had (or was written with).
    pub old_id: String,
    /// The id it has now.
    pub new_id: String,
}

/// The result of [`apply_block_diff`](crate::apply_block_diff).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyReport {
    /// Every edit was applied (or, in a dry run, passed the check).
    pub ok: bool,
    /// Nothing was written: the options asked for a dry run.
    pub dry_run: bool,
    /// One line an agent can read.
    pub summary: String,
    /// One result per edit, in diff order.
    pub results: Vec<EditResult>,
    /// The checked plans, with the host writes each makes.
    pub plan: Vec<PlannedEdit>,
    /// A block diff that restores what this apply changed (absent when
    /// nothing was written or everything was rolled back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<String>,
    /// What the automatic rollback did, when a write failed (atomic mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollback: Option<RollbackReport>,
    /// Everything the author should know that did not stop the apply.
    pub warnings: Vec<Warning>,
    /// Blocks that have another id than the one they were written with.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub id_map: Vec<IdMapping>,
}

/// One SEARCH/REPLACE pair of a search hunk.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchReplacePair {
    /// The text to find in the block.
    pub search: String,
    /// The text to put in its place (empty: remove; all of it: delete the
    /// block).
    pub replace: String,
    /// Line of the `<<<<<<< SEARCH` marker.
    pub line: u32,
}

/// A hunk as written in the diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParsedHunk {
    /// 1-based position in the diff.
    pub index: u32,
    /// Line of the header.
    pub line: u32,
    /// `SEARCH` for `@@id@@`, else the command name.
    pub command: &'static str,
    /// The block the header names.
    pub block_id: String,
    /// The reading view's type label after the header (`段落`, `Heading`, …),
    /// when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub type_label: Option<String>,
    /// The SEARCH/REPLACE pairs of a `@@id@@` hunk.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pairs: Vec<SearchReplacePair>,
    /// The body of a command hunk (trimmed of blank lines).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

crate::wire::wire_enum! {
    /// How a block edit found its place before (or without) the matcher's
    /// ladder.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum BlockStrategy {
        /// The SEARCH is the whole block.
        WholeBlock = "whole_block",
        /// The SEARCH is a unique part of the block.
        Substring = "substring",
        /// `@@REPLACE:id@@`: no SEARCH to locate.
        ReplaceCommand = "replace_command",
        /// The replacement equals what it replaces.
        Unchanged = "unchanged",
    }
}

/// How one edit of a block found its place: a block-level rule, or one of
/// the matcher's strategies. On the wire, its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EditStrategy {
    /// A block-level rule.
    Block(BlockStrategy),
    /// A strategy of the matcher's ladder.
    Matcher(crate::matcher::Strategy),
}

impl EditStrategy {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EditStrategy::Block(s) => s.as_str(),
            EditStrategy::Matcher(s) => s.as_str(),
        }
    }
}

impl std::fmt::Display for EditStrategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for EditStrategy {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where an edit is: its block, its hunk's 1-based index in the diff, the
/// diff line of its header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EditAt {
    pub block_id: String,
    pub hunk_index: u32,
    pub line: u32,
}

impl EditAt {
    pub(crate) fn of(edit: &BlockEdit) -> Self {
        EditAt {
            block_id: edit.block_id.clone(),
            hunk_index: edit.hunk_index,
            line: edit.line,
        }
    }
}

/// A SEARCH that matched nothing: the facts the content-mismatch report
/// shows (computed by the check, only worded by the messages).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Mismatch {
    /// Similarity of SEARCH and the block, in [0, 1].
    pub similarity: f64,
    /// The SEARCH text, blank lines at its edges trimmed.
    pub expected: String,
    /// The block's markdown, blank lines at its edges trimmed.
    pub actual: String,
    /// A unified diff from SEARCH to the block.
    pub diff: String,
    /// The block is a heading and SEARCH has several lines: the reader
    /// probably copied the heading's section, not its own line.
    pub heading_section: bool,
    /// The block's lines (1-based, blank edges trimmed) `actual` holds,
    /// when they came closer than the whole block (a line of a list).
    pub lines: Option<(u32, u32)>,
}

/// Why the block-diff engine refused (a whole diff, or one edit), with
/// what was wrong and where. `messages::render` words it; the error is
/// built from it in one place (`block_diff::refuse`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    // ---- format (line numbers are the diff's) ----
    /// The diff has no hunk.
    EmptyDiff,
    /// A SEARCH marker before any header.
    SearchWithoutBlockId { line: u32 },
    /// A SEARCH marker inside an open SEARCH/REPLACE block.
    NestedSearch { line: u32 },
    /// A divider outside a block, or a second one (`extra_in_replace`).
    MisplacedDelimiter { line: u32, extra_in_replace: bool },
    /// A REPLACE marker closes a block without a divider.
    MissingDelimiter { line: u32 },
    /// A REPLACE marker without a SEARCH.
    UnmatchedReplace { line: u32 },
    /// A SEARCH block never closed.
    UnclosedSearch { line: u32 },
    /// Hunk `hunk`'s header names `id`, which is not a block id.
    InvalidBlockId { line: u32, id: String, hunk: u32 },
    /// Hunk `hunk`'s header has the unknown command `word`.
    UnknownCommand { line: u32, word: String, hunk: u32 },
    /// A line that looks like a header and is not one; `fix` is the
    /// header it was probably meant to be.
    MalformedHeader {
        line: u32,
        text: String,
        fix: Option<String>,
    },
    /// An insert command with no content.
    EmptyInsert {
        line: u32,
        command: &'static str,
        id: String,
        hunk: u32,
    },
    /// An empty SEARCH part.
    EmptySearch { line: u32, id: String, hunk: u32 },
    /// A `@@id@@` hunk with no SEARCH/REPLACE block.
    MissingSearch { line: u32, id: String, hunk: u32 },
    /// The diff's format problems, every one.
    InvalidFormat { errors: Vec<Error> },
    // ---- check ----
    /// The edit's block does not exist.
    BlockNotFound { at: EditAt },
    /// PREPEND/APPEND (`prepend`) on a block of `block_type`, which holds
    /// no children.
    NotAContainer {
        at: EditAt,
        prepend: bool,
        block_type: String,
    },
    /// An update, delete or sibling insert aimed at a document.
    DocumentTarget { at: EditAt },
    /// The block is deleted and also edited by hunks `others`.
    ConflictingDelete { at: EditAt, others: String },
    /// The block is replaced by several hunks (also `others`).
    ConflictingReplace { at: EditAt, others: String },
    /// An insert next to a block hunks `deleting` delete.
    ConflictingAnchor { at: EditAt, deleting: String },
    /// The edit is inside `container`, which hunk `outer` rewrites.
    NestedEdit {
        at: EditAt,
        container: String,
        outer: u32,
    },
    /// The edit rewrites a container hunk `inner` edits inside
    /// (`inner_block`).
    NestedEditOuter {
        at: EditAt,
        inner_block: String,
        inner: u32,
    },
    /// The matcher found the SEARCH but refused the edit (`problem`).
    PairRefused {
        at: EditAt,
        problem: crate::matcher::Problem,
    },
    /// The matcher could not take the pair (text over 4 GiB).
    PairArgument { at: EditAt, error: Error },
    /// The SEARCH occurs at these lines of the block.
    PairAmbiguous { at: EditAt, lines: Vec<u32> },
    /// The SEARCH matches nothing in the block.
    ContentMismatch { at: EditAt, mismatch: Mismatch },
    /// Rewriting container `id` would re-id children `ids` that are
    /// referenced or carry attributes (or, `refs_unknown`, might be).
    ChildrenWouldBeReassigned {
        id: String,
        hunk: u32,
        line: u32,
        ids: Vec<String>,
        refs_unknown: bool,
    },
    /// Deleting (or re-IDing, `reassigned`) `id` would drop the database
    /// rows and flashcards of `members` (block id, attribute names).
    WouldLoseMembership {
        id: String,
        hunk: u32,
        line: u32,
        members: Vec<(String, Vec<&'static str>)>,
        reassigned: bool,
    },
    /// The new markdown opens a fence at its `body_line` (1-based) that it
    /// never closes.
    UnclosedFence { at: EditAt, body_line: u32 },
    /// An IAL in the new markdown names `id`, which is not a block id.
    InvalidBodyId { at: EditAt, id: String },
    /// Rewriting container `id` would carry the folded `headings`.
    FoldedHeading {
        id: String,
        hunk: u32,
        line: u32,
        headings: Vec<String>,
    },
    /// Writing block `id` (or what the edit writes for it) would let the
    /// kernel decode these character references (`html`: in an HTML
    /// block, on a kernel that decodes them again).
    WouldDecodeEntities {
        id: String,
        hunk: u32,
        line: u32,
        entities: Vec<String>,
        html: bool,
    },
    /// Writing block `id` (or what the edit writes for it) would store
    /// references to `refs`, which no block has, without their ids.
    WouldBreakRef {
        id: String,
        hunk: u32,
        line: u32,
        refs: Vec<String>,
    },
    /// A broken invariant of editkit itself.
    Internal { what: &'static str },
    // ---- execution ----
    /// Block `id` changed between the check and the write.
    StaleBlock { id: String, hunk: u32 },
    /// A write failed (or timed out).
    WriteFailed {
        error: crate::host::HostError,
        hunk: u32,
    },
    /// An insert had no anchor.
    ChainBroken { hunk: u32 },
    /// Block `id` does not read back as planned.
    WriteVerifyFailed {
        id: String,
        hunk: u32,
        actual: String,
    },
    /// The rollback left block `id` alone: someone else changed it.
    RollbackConflict { id: String },
}

impl Problem {
    /// The stable code the host sees.
    pub(crate) fn code(&self) -> ErrorCode {
        use Problem::*;
        match self {
            EmptyDiff => ErrorCode::EmptyDiff,
            SearchWithoutBlockId { .. } => ErrorCode::SearchWithoutBlockId,
            NestedSearch { .. } => ErrorCode::NestedSearch,
            MisplacedDelimiter { .. } => ErrorCode::MisplacedDelimiter,
            MissingDelimiter { .. } => ErrorCode::MissingDelimiter,
            UnmatchedReplace { .. } => ErrorCode::UnmatchedReplace,
            UnclosedSearch { .. } => ErrorCode::UnclosedSearch,
            InvalidBlockId { .. } => ErrorCode::InvalidBlockId,
            UnknownCommand { .. } => ErrorCode::UnknownCommand,
            MalformedHeader { .. } => ErrorCode::MalformedHeader,
            EmptyInsert { .. } => ErrorCode::EmptyInsert,
            EmptySearch { .. } => ErrorCode::EmptySearch,
            MissingSearch { .. } => ErrorCode::MissingSearch,
            InvalidFormat { .. } => ErrorCode::InvalidDiffFormat,
            BlockNotFound { .. } => ErrorCode::BlockNotFound,
            NotAContainer { .. } => ErrorCode::NotAContainer,
            DocumentTarget { .. } => ErrorCode::DocumentTarget,
            ConflictingDelete { .. }
            | ConflictingReplace { .. }
            | ConflictingAnchor { .. }
            | NestedEdit { .. }
            | NestedEditOuter { .. } => ErrorCode::ConflictingEdits,
            PairRefused { problem, .. } => problem.code(),
            PairArgument { error, .. } => error.code,
            PairAmbiguous { .. } => ErrorCode::AmbiguousMatch,
            ContentMismatch { .. } => ErrorCode::ContentMismatch,
            ChildrenWouldBeReassigned { .. } => ErrorCode::ChildrenWouldBeReassigned,
            WouldLoseMembership { .. } => ErrorCode::WouldLoseMembership,
            UnclosedFence { .. } => ErrorCode::UnclosedFence,
            InvalidBodyId { .. } => ErrorCode::InvalidBlockId,
            FoldedHeading { .. } => ErrorCode::FoldedHeading,
            WouldDecodeEntities { .. } => ErrorCode::WouldDecodeEntities,
            WouldBreakRef { .. } => ErrorCode::WouldBreakRef,
            Internal { .. } | ChainBroken { .. } => ErrorCode::InternalError,
            StaleBlock { .. } | RollbackConflict { .. } => ErrorCode::StaleBlock,
            WriteFailed { error, .. } if error.timeout => ErrorCode::HostTimeout,
            WriteFailed { .. } => ErrorCode::WriteFailed,
            WriteVerifyFailed { .. } => ErrorCode::WriteVerifyFailed,
        }
    }

    /// The structured details a host reads without parsing the message:
    /// line, block id, hunk index, the callback's name, the data of a
    /// mismatch. (The next steps are added by `refuse`.) The place is set
    /// last, so it wins over the details a matcher refusal brings.
    pub(crate) fn details(&self) -> Details {
        let mut d = self.facts();
        let (line, block_id, hunk_index) = self.place();
        d.line = line;
        d.block_id = block_id.map(str::to_string);
        d.hunk_index = hunk_index;
        d
    }

    /// Where the problem is: the diff line, the block, the hunk index
    /// (each when the problem knows it).
    fn place(&self) -> (Option<u32>, Option<&str>, Option<u32>) {
        use Problem::*;
        match self {
            EmptyDiff | InvalidFormat { .. } | Internal { .. } => (None, None, None),
            SearchWithoutBlockId { line }
            | NestedSearch { line }
            | MisplacedDelimiter { line, .. }
            | MissingDelimiter { line }
            | UnmatchedReplace { line }
            | UnclosedSearch { line }
            | MalformedHeader { line, .. } => (Some(*line), None, None),
            InvalidBlockId { line, hunk, .. } | UnknownCommand { line, hunk, .. } => {
                (Some(*line), None, Some(*hunk))
            }
            EmptyInsert { line, id, hunk, .. }
            | EmptySearch { line, id, hunk }
            | MissingSearch { line, id, hunk }
            | ChildrenWouldBeReassigned { line, id, hunk, .. }
            | WouldLoseMembership { line, id, hunk, .. }
            | FoldedHeading { line, id, hunk, .. }
            | WouldDecodeEntities { line, id, hunk, .. }
            | WouldBreakRef { line, id, hunk, .. } => (Some(*line), Some(id), Some(*hunk)),
            BlockNotFound { at }
            | NotAContainer { at, .. }
            | DocumentTarget { at }
            | ConflictingDelete { at, .. }
            | ConflictingReplace { at, .. }
            | ConflictingAnchor { at, .. }
            | NestedEdit { at, .. }
            | NestedEditOuter { at, .. }
            | PairRefused { at, .. }
            | PairArgument { at, .. }
            | PairAmbiguous { at, .. }
            | ContentMismatch { at, .. }
            | UnclosedFence { at, .. }
            | InvalidBodyId { at, .. } => (Some(at.line), Some(&at.block_id), Some(at.hunk_index)),
            StaleBlock { id, hunk } | WriteVerifyFailed { id, hunk, .. } => {
                (None, Some(id), Some(*hunk))
            }
            WriteFailed { hunk, .. } | ChainBroken { hunk } => (None, None, Some(*hunk)),
            RollbackConflict { id } => (None, Some(id), None),
        }
    }

    /// What the problem names besides its place: a name (command, id,
    /// callback), the format errors, candidates, the mismatch's data, the
    /// blocks concerned, what a block reads back as.
    fn facts(&self) -> Details {
        use Problem::*;
        let mut d = Details::default();
        match self {
            UnknownCommand { word: name, .. } | InvalidBodyId { id: name, .. } => {
                d.name = Some(name.clone());
            }
            WriteFailed { error, .. } => d.name = Some(error.capability.js_name().to_string()),
            InvalidFormat { errors } => d.errors = errors.clone(),
            PairRefused { problem, .. } => d = problem.details(),
            PairArgument { error, .. } => d = (*error.details).clone(),
            PairAmbiguous { lines, .. } => {
                d.candidates = lines.iter().map(|&l| LineRange::new(l, l)).collect();
            }
            ContentMismatch { mismatch, .. } => {
                d.similarity = Some((mismatch.similarity * 1000.0).round() / 1000.0);
                d.expected = Some(mismatch.expected.clone());
                d.actual = Some(mismatch.actual.clone());
                d.diff = Some(mismatch.diff.clone());
                if let Some((first, last)) = mismatch.lines {
                    d.candidates = vec![LineRange::new(first, last)];
                }
            }
            ChildrenWouldBeReassigned { ids: blocks, .. }
            | FoldedHeading {
                headings: blocks, ..
            } => d.block_ids = blocks.clone(),
            WouldLoseMembership { members, .. } => {
                d.block_ids = members.iter().map(|(m, _)| m.clone()).collect();
            }
            WriteVerifyFailed { actual, .. } => d.actual = Some(actual.clone()),
            WouldDecodeEntities { entities, .. } => d.name = entities.first().cloned(),
            WouldBreakRef { refs, .. } => d.block_ids = refs.clone(),
            EmptyDiff
            | SearchWithoutBlockId { .. }
            | NestedSearch { .. }
            | MisplacedDelimiter { .. }
            | MissingDelimiter { .. }
            | UnmatchedReplace { .. }
            | UnclosedSearch { .. }
            | InvalidBlockId { .. }
            | MalformedHeader { .. }
            | EmptyInsert { .. }
            | EmptySearch { .. }
            | MissingSearch { .. }
            | BlockNotFound { .. }
            | NotAContainer { .. }
            | DocumentTarget { .. }
            | ConflictingDelete { .. }
            | ConflictingReplace { .. }
            | ConflictingAnchor { .. }
            | NestedEdit { .. }
            | NestedEditOuter { .. }
            | UnclosedFence { .. }
            | Internal { .. }
            | StaleBlock { .. }
            | ChainBroken { .. }
            | RollbackConflict { .. } => {}
        }
        d
    }
}

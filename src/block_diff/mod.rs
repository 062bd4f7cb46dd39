//! `applyBlockDiff`: block-level edits of SiYuan notes (SPEC §3).
//!
//! Pipeline, one file per stage:
//!
//! 1. [`lexer`] — every line becomes one token (header, marker or text).
//! 2. [`parser`] — validates the token sequence, reporting *every* format
//!    problem with its line and fixes, and turns hunks into [`BlockEdit`]s.
//! 3. [`check`] — one batched `getBlocks` call, then each edit is checked
//!    against the block's markdown (whole block, unique substring, then a
//!    whitespace-tolerant fallback) and composed into a [`PlannedEdit`]
//!    holding the exact host writes.
//! 4. [`execute`] — re-fetches the targets in one batch (`STALE_BLOCK`),
//!    writes in diff order, verifies in one batch, rolls back on failure
//!    (atomic by default) and builds the `undo` diff ([`undo`]).
//!
//! Invariants: an edit that fails any check writes nothing; when writes
//! fail midway, the report lists exactly the writes that were done and the
//! undo covers exactly those. Host calls are batched: validating a diff of
//! any size costs one `getBlocks` call (plus one `getChildBlocks` batch when
//! a heading APPEND or an undo position needs it).
//!
//! Deliberate differences from the original plugin (each is tested):
//! several hunks on one block all apply, in order (the plugin kept only the
//! last); headers may carry the reading view's type label (`@@id@@段落`);
//! several SEARCH/REPLACE pairs may follow one header; an empty REPLACE
//! deletes the block after the content check; a SEARCH that is a unique part
//! of the block edits just that part; an empty SEARCH is an error, not a
//! silent skip; multi-block replacements are split so the kernel's
//! `updateBlock` does not drop blocks; attributes are carried over.

mod check;
mod execute;
mod ial;
mod lexer;
mod messages;
mod parser;
mod plan;
mod rollback;
mod undo;
mod verify;
mod write;

use serde::{Deserialize, Serialize};

pub use crate::markdown::{parse_ial, split_blocks, strip_ial};
pub use execute::apply_block_diff;
pub use ial::carried_ial;
pub use parser::{ParsedHunk, SearchReplacePair};

use crate::{Error, Lang};

/// What an edit does to its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum EditKind {
    Update,
    Delete,
    InsertBefore,
    InsertAfter,
    Prepend,
    Append,
}

/// One edit of one block, as written in the diff. A `@@id@@` hunk with
/// several SEARCH/REPLACE pairs gives one edit per pair.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockEdit {
    pub kind: EditKind,
    pub block_id: String,
    /// The SEARCH text (content-checked edits only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub search: Option<String>,
    /// The new markdown (`""` in a SEARCH/REPLACE pair means remove).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<String>,
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
    /// A deleted block's position could not be determined exactly; its undo
    /// re-inserts it at the start of its parent.
    UndoPositionApproximate = "UNDO_POSITION_APPROXIMATE",
}
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    pub code: WarningCode,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_id: Option<String>,
}

/// Options of [`validate_block_diff_format`] and [`parse_block_diff`].
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
    pub valid: bool,
    pub errors: Vec<Error>,
    pub warnings: Vec<Warning>,
}

/// Validates a diff's format. Never fails: problems are in `errors`.
pub fn validate_block_diff_format(text: &str, options: &FormatOptions) -> FormatReport {
    let analysis = parser::analyze(text, options.lang);
    FormatReport {
        valid: analysis.errors.is_empty(),
        errors: analysis.errors,
        warnings: analysis.warnings,
    }
}

/// A parsed diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParseReport {
    pub hunks: Vec<ParsedHunk>,
    pub edits: Vec<BlockEdit>,
    pub warnings: Vec<Warning>,
}

/// Parses a diff into hunks and edits; `INVALID_DIFF_FORMAT` (with every
/// problem in `errors`) when the format is wrong.
pub fn parse_block_diff(text: &str, options: &FormatOptions) -> Result<ParseReport, Error> {
    let analysis = parser::analyze(text, options.lang);
    if !analysis.errors.is_empty() {
        return Err(messages::invalid_format(options.lang, analysis.errors));
    }
    Ok(ParseReport {
        hunks: analysis.hunks,
        edits: analysis.edits,
        warnings: analysis.warnings,
    })
}

/// How SEARCH text may differ from the block and still match: the
/// matcher's modes (`exact`; `safe`, the default, which forgives formatting
/// only; `fuzzy`).
pub use crate::matcher::MatchMode;

/// Options of [`apply_block_diff`].
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
            id_stamp: None,
        }
    }
}

/// What happened to one edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EditStatus {
    /// Checked; would be written (dry run, or an atomic run stopped by
    /// another edit's failure).
    Planned,
    Applied,
    Failed,
    /// Would change nothing; not written.
    Unchanged,
    /// Written, then undone by the automatic rollback.
    RolledBack,
}

/// The outcome of one edit of the diff.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditResult {
    pub hunk_index: u32,
    pub line: u32,
    pub kind: EditKind,
    pub block_id: String,
    pub status: EditStatus,
    /// Ids of blocks this edit created (inserts, extra blocks of a split).
    pub new_block_ids: Vec<String>,
    /// How the SEARCH text was located (`whole_block`, `substring`,
    /// `whitespace_normalized`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

/// A host write, as planned (the shape a host callback receives).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum HostOp {
    #[serde(rename = "updateBlock")]
    Update { id: String, markdown: String },
    #[serde(rename = "deleteBlock")]
    Delete { id: String },
    #[serde(rename = "insertBlock", rename_all = "camelCase")]
    Insert {
        markdown: String,
        /// Insert right after this block; `None` with `after_previous_insert`
        /// means after the block the previous write of this edit created.
        #[serde(skip_serializing_if = "Option::is_none")]
        previous_id: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        next_id: Option<String>,
        /// Insert as the first child of this container.
        #[serde(skip_serializing_if = "Option::is_none")]
        parent_id: Option<String>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        after_previous_insert: bool,
        /// The id the new block is written with (its IAL).
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
    #[serde(rename = "prependBlock", rename_all = "camelCase")]
    Prepend {
        parent_id: String,
        markdown: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
    #[serde(rename = "appendBlock", rename_all = "camelCase")]
    Append {
        parent_id: String,
        markdown: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        new_id: Option<String>,
    },
}

/// The checked plan for one block (several edits of one block compose into
/// one update) or one insert.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedEdit {
    pub kind: EditKind,
    pub block_id: String,
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Error>,
}

/// An id that changed when a block was re-inserted (the kernel did not
/// accept the original id from the IAL).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IdMapping {
    pub old_id: String,
    pub new_id: String,
}

/// The result of [`apply_block_diff`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyReport {
    /// Every edit was applied (or, in a dry run, passed the check).
    pub ok: bool,
    pub dry_run: bool,
    /// One line an agent can read.
    pub summary: String,
    pub results: Vec<EditResult>,
    pub plan: Vec<PlannedEdit>,
    /// A block diff that restores what this apply changed (absent when
    /// nothing was written or everything was rolled back).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rollback: Option<RollbackReport>,
    pub warnings: Vec<Warning>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub id_map: Vec<IdMapping>,
}

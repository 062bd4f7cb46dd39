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
//! 4. [`run`] — re-fetches the targets in one batch (`STALE_BLOCK`),
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

mod batched;
mod check;
mod emptied;
mod entities;
mod execute;
mod ial;
mod lexer;
mod messages;
mod narrow;
mod parser;
mod plan;
mod reads;
mod recheck;
mod refs;
mod rollback;
mod run;
mod run_state;
mod types;
mod undo;
mod verify;
mod write;

pub use crate::markdown::{parse_ial, split_blocks, strip_ial};
pub use execute::apply_block_diff;
pub use ial::carried_ial;

pub use types::{
    ApplyOptions, ApplyReport, BlockEdit, BlockStrategy, EditKind, EditResult, EditStatus,
    EditStrategy, FormatOptions, FormatReport, HostOp, IdMapping, MatchMode, ParseReport,
    ParsedHunk, PlannedEdit, RollbackReport, SearchReplacePair, Warning, WarningCode,
};

use crate::{Error, Lang};
use types::Problem;

/// The block-diff engine's refusal of `problem`: its code, the message
/// and next steps in `lang`, its details. Every block-diff error is built
/// here.
pub(crate) fn refuse(lang: Lang, problem: Problem) -> Error {
    let said = messages::render(&problem, lang);
    let mut error = Error::new(problem.code(), said.message);
    *error.details = problem.details();
    if !said.steps.is_empty() {
        error.details.suggestions = said.steps;
    }
    error
}

/// Validates a diff's format. Never fails: problems are in `errors`.
pub fn validate_block_diff_format(text: &str, options: &FormatOptions) -> FormatReport {
    let keep = parser::Keep {
        hunks: false,
        edits: false,
    };
    let analysis = parser::analyze(text, options.lang, keep);
    FormatReport {
        valid: analysis.errors.is_empty(),
        errors: analysis.errors,
        warnings: analysis.warnings,
    }
}

/// Parses a diff into hunks and edits; `INVALID_DIFF_FORMAT` (with every
/// problem in `errors`) when the format is wrong.
pub fn parse_block_diff(text: &str, options: &FormatOptions) -> Result<ParseReport, Error> {
    let keep = parser::Keep {
        hunks: true,
        edits: true,
    };
    let analysis = parser::analyze(text, options.lang, keep);
    if !analysis.errors.is_empty() {
        return Err(refuse(
            options.lang,
            Problem::InvalidFormat {
                errors: analysis.errors,
            },
        ));
    }
    Ok(ParseReport {
        hunks: analysis.hunks,
        edits: analysis.edits,
        warnings: analysis.warnings,
    })
}

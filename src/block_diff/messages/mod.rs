//! Every message the block-diff engine shows, in English and Chinese side
//! by side. A leaf: it imports only `types` (the files below reach it as
//! `super::super::types`).
//!
//! A refusal is rendered from a [`Problem`] by [`render`]: its `match`
//! names every variant and hands its fields to the file of its kind, where
//! each refusal is one function holding its message and its next steps:
//!
//! - `format`: the diff's format as the parser reads it (markers, headers,
//!   hunk bodies); each carries two or three concrete fixes;
//! - `target`: the block an edit names, on its own and against the other
//!   hunks of the diff;
//! - `search`: a SEARCH against its block's markdown;
//! - `safety`: what the kernel would lose or garble (ids, memberships,
//!   fences, folded headings), refused before anything is written;
//! - `execution`: the writes and what the kernel did with them, and
//!   editkit's own broken invariants.
//!
//! The warnings are in `warnings`, one function each; the apply's summary
//! line in `summary`. Both are re-exported here, so a stage calls
//! `messages::unchanged_block` whatever file holds it.

mod execution;
mod format;
mod safety;
mod search;
mod summary;
mod target;
mod warnings;

pub use summary::{summary_executed, summary_not_executed};
pub use warnings::{
    children_reassigned, container_deleted, delete_body_ignored, id_in_use, id_taken_on_restore,
    kernel_created, kernel_side_effects, marker_in_body, membership_lost, text_between_pairs,
    text_outside_hunk, unchanged_block, undo_cannot_restore, undo_position_approximate,
    undo_unchecked, verify_unavailable, write_outcome_resolved,
};

use super::types::Problem;
use crate::Lang;

/// A refusal in words: what was wrong and where (`message`), and what to
/// do next (`steps`, for `details.suggestions`; empty where the message
/// says it, or where a matcher refusal's own steps stand).
pub(crate) struct Said {
    pub message: String,
    pub steps: Vec<String>,
}

/// Steps given as (English, Chinese) pairs, in `lang`.
fn suggestions(lang: Lang, items: &[(&str, &str)]) -> Vec<String> {
    items
        .iter()
        .map(|(en, zh)| lang.pick(*en, *zh).to_string())
        .collect()
}

/// Words `problem` in `lang`. Only formats: the problem carries every
/// fact. Every variant is named (no wildcard), so a new one does not
/// compile until it has its words. One piece: a table-like match, one arm
/// per problem.
pub(crate) fn render(problem: &Problem, lang: Lang) -> Said {
    use Problem::*;
    match problem {
        // ---- format ----
        EmptyDiff => format::empty_diff(lang),
        InvalidFormat { errors } => format::invalid_format(lang, errors),
        SearchWithoutBlockId { line } => format::search_without_block_id(lang, *line),
        NestedSearch { line } => format::nested_search(lang, *line),
        MisplacedDelimiter {
            line,
            extra_in_replace,
        } => format::misplaced_delimiter(lang, *line, *extra_in_replace),
        MissingDelimiter { line } => format::missing_delimiter(lang, *line),
        UnmatchedReplace { line } => format::unmatched_replace(lang, *line),
        UnclosedSearch { line } => format::unclosed_search(lang, *line),
        InvalidBlockId { line, id, .. } => format::invalid_block_id(lang, *line, id),
        UnknownCommand { line, word, .. } => format::unknown_command(lang, *line, word),
        MalformedHeader { line, text, fix } => {
            format::malformed_header(lang, *line, text, fix.as_deref())
        }
        EmptyInsert {
            line, command, id, ..
        } => format::empty_insert(lang, *line, command, id),
        EmptySearch { line, id, .. } => format::empty_search(lang, *line, id),
        MissingSearch { line, id, .. } => format::missing_search(lang, *line, id),
        // ---- the target, alone and against the other hunks ----
        BlockNotFound { at } => target::block_not_found(lang, at),
        NotAContainer {
            at,
            prepend,
            block_type,
        } => target::not_a_container(lang, at, *prepend, block_type),
        DocumentTarget { at } => target::document_target(lang, at),
        ConflictingDelete { at, others } => target::conflicting_delete(lang, at, others),
        ConflictingReplace { at, others } => target::conflicting_replace(lang, at, others),
        ConflictingAnchor { at, deleting } => target::conflicting_anchor(lang, at, deleting),
        NestedEdit {
            at,
            container,
            outer,
        } => target::nested_edit(lang, at, container, *outer),
        NestedEditOuter {
            at,
            inner_block,
            inner,
        } => target::nested_edit_outer(lang, at, inner_block, *inner),
        // ---- the SEARCH ----
        PairRefused { at, problem } => search::pair_refused(lang, at, problem),
        PairArgument { at, error } => search::pair_argument(lang, at, error),
        PairAmbiguous { at, lines } => search::pair_ambiguous(lang, at, lines),
        ContentMismatch { at, mismatch } => search::content_mismatch(lang, at, mismatch),
        // ---- safety ----
        ChildrenWouldBeReassigned {
            id,
            hunk,
            ids,
            refs_unknown,
            ..
        } => safety::children_would_be_reassigned(lang, id, *hunk, ids, *refs_unknown),
        WouldLoseMembership {
            id,
            hunk,
            members,
            reassigned,
            ..
        } => safety::would_lose_membership(lang, id, *hunk, members, *reassigned),
        UnclosedFence { at, body_line } => safety::unclosed_fence(lang, at, *body_line),
        InvalidBodyId { at, id } => safety::invalid_body_id(lang, at, id),
        FoldedHeading {
            id, hunk, headings, ..
        } => safety::folded_heading(lang, id, *hunk, headings),
        WouldDecodeEntities {
            id,
            hunk,
            entities,
            html,
            ..
        } => safety::would_decode_entities(lang, id, *hunk, entities, *html),
        WouldBreakRef { id, hunk, refs, .. } => safety::would_break_ref(lang, id, *hunk, refs),
        // ---- execution ----
        StaleBlock { id, hunk } => execution::stale_block(lang, id, *hunk),
        WriteFailed { error, hunk } => execution::write_failed(lang, error, *hunk),
        WriteVerifyFailed { id, hunk, .. } => execution::write_verify_failed(lang, id, *hunk),
        RollbackConflict { id } => execution::rollback_conflict(lang, id),
        ChainBroken { hunk } => execution::chain_broken(lang, *hunk),
        Internal { what } => execution::internal(lang, what),
    }
}

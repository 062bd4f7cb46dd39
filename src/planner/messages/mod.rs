//! Every message of the planner, in English and Chinese side by side. A
//! leaf: it imports only `problem` and `types` (the files below reach them
//! as `super::super::problem` and `super::super::types`). Messages say
//! what was wrong, where, and what to do next; tool names are the seed's
//! (`prepare_file_*`, `apply_file_modification`, `read_file`), which are
//! also the YAML `mode` values.
//!
//! A refusal is rendered from a [`Problem`] by [`render`]: its `match`
//! names every variant and hands its fields to the file of its kind, where
//! each refusal is one function holding its message and its next step:
//!
//! - `file`: the file on disk (missing, not a file, already there,
//!   changed since `read_file`);
//! - `argument`: the new text, an argument the planner checks itself, a
//!   line range;
//! - `anchor`: the anchor text and what it matched;
//! - `hunk`: the hunk a tool names (gone, someone else's, another kind or
//!   file).
//!
//! The summaries of plans, applies, overwrites and new files are in
//! `summary`, the file view's texts in `view`; both are re-exported here.

mod anchor;
mod argument;
mod file;
mod hunk;
mod summary;
mod view;

pub(crate) use summary::{apply_summary, plan_summary};
pub use summary::{
    new_file_summary, next_rejected, overwrite_summary, style_warning_append, style_warning_insert,
};
pub use view::{empty_file, nothing_shown, view_summary, view_truncated};

use super::problem::Problem;
use crate::lang::Lang;

fn pick(lang: Lang, en: String, zh: String) -> String {
    lang.pick(en, zh)
}

/// A refusal in words: what was wrong and where (`message`), and what to
/// do next (`next`, empty when the message says it all).
pub(crate) struct Said {
    pub message: String,
    pub next: String,
}

/// Renders a refusal in `lang`. Only formats: the problem carries every
/// fact. Every variant is named (no wildcard), so a new one does not
/// compile until it has its words.
pub(crate) fn render(problem: &Problem, lang: Lang) -> Said {
    use Problem::*;
    match problem {
        // ---- the file ----
        FileNotFound { path, doing } => file::file_not_found(lang, path, *doing),
        NotAFile => file::not_a_file(lang),
        FileExists => file::file_exists(lang),
        SnapshotMismatch => file::snapshot_mismatch(lang),
        // ---- the arguments ----
        ContentRequired { mode } => argument::content_required(lang, mode),
        InvalidArgument { name, expected } => argument::invalid_argument(lang, name, *expected),
        InvalidRange { input, why } => argument::invalid_range(lang, input, *why),
        SuspiciousDiff { kind } => argument::suspicious_diff(lang, *kind),
        // ---- the anchors ----
        AnchorEmpty { name } => anchor::anchor_empty(lang, name),
        AnchorMultiline { name } => anchor::anchor_multiline(lang, name),
        InvalidRegex {
            name,
            pattern,
            error,
        } => anchor::invalid_regex(lang, name, pattern, error),
        AnchorNotFound {
            name,
            anchor,
            mode,
            of_block,
        } => anchor::anchor_not_found(lang, name, anchor, *mode, *of_block),
        AnchorAmbiguous { anchor, count } => anchor::anchor_ambiguous(lang, anchor, *count),
        BlocksAmbiguous { count } => anchor::blocks_ambiguous(lang, *count),
        OccurrenceOutOfRange { occurrence, count } => {
            anchor::occurrence_out_of_range(lang, occurrence, *count)
        }
        NestedAnchors { start, end, nested } => anchor::nested_anchors(lang, *start, *end, *nested),
        // ---- the hunks ----
        HunkExpired { id } => hunk::hunk_expired(lang, id),
        HunkNotFound { id, applied } => hunk::hunk_not_found(lang, id, *applied),
        WrongOwner { id } => hunk::wrong_owner(lang, id),
        HunkKindMismatch {
            id,
            old_mode,
            new_mode,
        } => hunk::hunk_kind_mismatch(lang, id, old_mode, new_mode),
        HunkPathMismatch { id, old_path } => hunk::hunk_path_mismatch(lang, id, old_path),
    }
}

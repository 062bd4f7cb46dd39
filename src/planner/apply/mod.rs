//! Applying a plan to the file's current content (SPEC §7).
//!
//! The plan remembers its *core* (the lines it replaces, or the anchor
//! line(s) it inserts next to), up to three context lines on each side,
//! and whether the file's start or end was part of that context.
//! Relocation, in order (SPEC §7):
//!
//! 1. **exact** — the file is byte for byte the one the plan was made on,
//!    or the core and every context element are where the plan saw them
//!    and the window stands nowhere else;
//! 2. **fuzz** — the plan's whole window (its context lines before, the
//!    core, its context lines after), in order, at exactly one other
//!    place: as written (KMP over lines, linear), or else under the
//!    matcher's safe strategies
//!    ([`relocate_with_safe_strategies`](safe::relocate_with_safe_strategies):
//!    trailing or inner whitespace, line endings, typographic characters,
//!    a uniformly changed indentation — then the new text is re-indented
//!    the same way);
//! 3. **rejected** — `AMBIGUOUS_MATCH` when the window stands at several
//!    places, shifted or not (all listed), `CONTENT_CHANGED` when it
//!    stands nowhere; a place with only some of the context, or the core
//!    alone somewhere else, is never taken. Nothing is changed.
//!
//! A core at the very start or end of the file has context on one side
//! only; the window is then that context and the core, and the same rule
//! holds for it. A core with no context line on either side (the whole
//! file) is confirmed by the file's edges alone: once the file changed it
//! is taken only where it is still the whole file
//! (`locate::locate_by_edges`), else rejected (`CONTENT_CHANGED`) — never
//! by its lines found elsewhere.
//!
//! Appends are exact when the file is byte-for-byte what the plan saw
//! (length and FNV-1a digest, and existence), fuzz otherwise (the text goes
//! to the current end). Cost: O(file) per apply.
//!
//! # The files
//!
//! One stage a file, in the order an apply runs them:
//!
//! - `mod.rs` (this file): [`apply_hunk`], one function per kind of plan
//!   (append, empty file, lines) that locates, splices and reports;
//! - `locate.rs`: where a lines plan's window stands now — the rule above,
//!   as written and by the file's edges;
//! - `safe.rs`: the window found under the matcher's safe strategies, and
//!   the new text re-indented like a re-indented window;
//! - `result.rs`: the result an apply returns — its evidence, status,
//!   per-action location fields, summary, YAML and agent text;
//! - `rebase.rs`: after a successful apply, the same owner's other plans
//!   for the file carried over the splice ([`rebase`](fn@rebase)).

mod locate;
mod rebase;
mod result;
mod safe;

use super::doc::{digest_string, fnv1a64, new_text_lines, splice, Doc};
use super::prepare::{previews, tail_after};
use super::problem::{Problem, WhileDoing};
use super::registry::{Hunk, LinesEdit, PlannedEdit};
use super::render::{refuse, Ctx};
use super::types::*;
use crate::error::Result;
use locate::{locate, Located};
pub(crate) use rebase::{rebase, SplicedRange};
use result::{
    applied, finish, lines_applied_evidence, lines_rejected_evidence, rejected, rejected_evidence,
    with_lines_details, Found,
};

/// Lines shown before/after the change in apply evidence.
const PREVIEW_CONTEXT: usize = 2;

/// What an apply returns: the result, and the range the splice replaced
/// (`None` when rejected), for [`rebase`](fn@rebase).
type Applied = (FileApplyResult, Option<SplicedRange>);

/// Applies `hunk` to `current` (`None`: the file does not exist). `Err`
/// only for refusals (`FILE_NOT_FOUND`); a rejection is an `Ok` result.
/// With the result comes the range the splice replaced (`None` when
/// rejected), for [`rebase`](fn@rebase).
pub(crate) fn apply_hunk(hunk: &Hunk, current: Option<&str>, lang: crate::Lang) -> Result<Applied> {
    let ctx = Ctx {
        mode: APPLY_MODE,
        path: &hunk.path,
        lang,
    };
    let missing = || {
        refuse(
            &ctx,
            Problem::FileNotFound {
                path: hunk.path.clone(),
                doing: WhileDoing::Applying,
            },
            |y| {
                y.str("hunk_id", &hunk.id);
            },
        )
    };
    match &hunk.edit {
        PlannedEdit::Append { create } => {
            let (content, exists) = match current {
                Some(c) => (c, true),
                None if *create => ("", false),
                None => return Err(missing()),
            };
            Ok(apply_append(hunk, content, exists, lang))
        }
        PlannedEdit::EmptyFile => {
            let content = current.ok_or_else(missing)?;
            Ok(apply_to_empty_file(hunk, content, lang))
        }
        PlannedEdit::Lines(e) => {
            let content = current.ok_or_else(missing)?;
            Ok(apply_lines(hunk, e, content, lang))
        }
    }
}

/// An append lands at the end of the file as it is now (`exact` when the
/// file is the planned-on one, else `fuzz`); `exists: false` creates it.
fn apply_append(hunk: &Hunk, content: &str, exists: bool, lang: crate::Lang) -> Applied {
    let unchanged = exists == hunk.base.existed
        && content.len() == hunk.base.bytes
        && fnv1a64(content.as_bytes()) == hunk.base.digest;
    let doc = Doc::new(content);
    let s = splice(&doc, doc.len(), 0, &hunk.new_text, &hunk.path);
    let (matched, context_match) = if unchanged {
        (1, ContextMatch::Exact)
    } else {
        (0, ContextMatch::Fuzz)
    };
    let texts = doc.texts();
    let new_lines = new_text_lines(&hunk.new_text);
    let evidence = ApplyEvidence {
        planned_at_line: to_u32(hunk.base.line_count + 1),
        applied_at_line: Some(to_u32(doc.len() + 1)),
        line_shift: Some(delta(doc.len(), hunk.base.line_count)),
        located_by: Some(LocatedBy::EndOfFile),
        candidates_count: 0,
        candidates: Vec::new(),
        context_matched: matched,
        context_total: 1,
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: previews(&doc, doc.len().saturating_sub(PREVIEW_CONTEXT), doc.len()),
        after_preview: tail_after(&texts, &new_lines),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    };
    let mut result = applied(hunk, content, &s, context_match, evidence);
    result.creates_file = !exists;
    let start = to_u32(doc.len() + 1);
    result.append_range = Some(Span {
        start,
        end: start
            .saturating_add(to_u32(s.new_line_count))
            .saturating_sub(1),
    });
    (finish(result, lang), Some(SplicedRange::of(&s)))
}

/// A plan made on an empty file applies only while the file is still the
/// planned-on one: an empty file has no context to relocate by.
fn apply_to_empty_file(hunk: &Hunk, content: &str, lang: crate::Lang) -> Applied {
    let doc = Doc::new(content);
    if content.len() != hunk.base.bytes || fnv1a64(content.as_bytes()) != hunk.base.digest {
        let evidence = rejected_evidence(
            content,
            1,
            Vec::new(),
            previews(&doc, 0, PREVIEW_CONTEXT),
            0,
            1,
        );
        let result = rejected(hunk, content, RejectReason::ContentChanged, evidence);
        return (finish(result, lang), None);
    }
    let s = splice(&doc, 0, 0, &hunk.new_text, &hunk.path);
    let evidence = ApplyEvidence {
        planned_at_line: 1,
        applied_at_line: Some(1),
        line_shift: Some(0),
        located_by: Some(LocatedBy::PlannedPosition),
        candidates_count: 1,
        candidates: Vec::new(),
        context_matched: 1,
        context_total: 1,
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: Vec::new(),
        after_preview: Vec::new(),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    };
    let result = applied(hunk, content, &s, ContextMatch::Exact, evidence);
    (
        finish(with_lines_details(result, hunk, &s, 0), lang),
        Some(SplicedRange::of(&s)),
    )
}

/// A lines plan: located by its window ([`locate`](fn@locate)), then
/// spliced there or rejected with the evidence.
fn apply_lines(hunk: &Hunk, e: &LinesEdit, content: &str, lang: crate::Lang) -> Applied {
    let doc = Doc::new(content);
    let lines = doc.texts();
    let unchanged = hunk.base.existed
        && content.len() == hunk.base.bytes
        && fnv1a64(content.as_bytes()) == hunk.base.digest;
    match locate(&lines, e, &hunk.new_text, unchanged) {
        Located::Rejected {
            reason,
            candidates,
            context_matched,
        } => {
            let evidence = lines_rejected_evidence(&doc, e, content, &candidates, context_matched);
            (
                finish(rejected(hunk, content, reason, evidence), lang),
                None,
            )
        }
        Located::At {
            core_start,
            by,
            context_matched,
            candidates,
            new_text,
        } => {
            let del_start = core_start + e.del_offset;
            let new_text = new_text.as_deref().unwrap_or(&hunk.new_text);
            let s = splice(&doc, del_start, e.del_count, new_text, &hunk.path);
            let context_match = if by == LocatedBy::PlannedPosition {
                ContextMatch::Exact
            } else {
                ContextMatch::Fuzz
            };
            let found = Found {
                del_start,
                by,
                context_matched,
                candidates,
            };
            let evidence = lines_applied_evidence(&doc, e, content, &s, &found);
            let result = applied(hunk, content, &s, context_match, evidence);
            (
                finish(with_lines_details(result, hunk, &s, core_start), lang),
                Some(SplicedRange::of(&s)),
            )
        }
    }
}

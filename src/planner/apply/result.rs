//! The result an apply returns (SPEC §7, seed 001 §8): the evidence of
//! where the plan was looked for and found (or not), the status and
//! context match, the per-action location fields, and the summary, YAML
//! and agent text.
//!
//! Kept apart from the stages that decide: these functions only fill
//! fields from what was decided, and the result's many fields would
//! otherwise bury the apply's control flow.

use super::PREVIEW_CONTEXT;
use crate::error::LineRange;
use crate::planner::doc::{digest_string, Doc, Spliced};
use crate::planner::messages as msg;
use crate::planner::prepare::{counts, previews};
use crate::planner::registry::{Hunk, HunkInfo, LinesEdit, PlannedEdit};
use crate::planner::render;
use crate::planner::types::*;
use crate::planner::yaml::preview_block;

/// Where [`locate`](super::locate::locate) put a lines plan, for its evidence.
pub(super) struct Found {
    pub(super) del_start: usize,
    pub(super) by: LocatedBy,
    pub(super) context_matched: usize,
    pub(super) candidates: usize,
}

pub(super) fn lines_applied_evidence(
    doc: &Doc<'_>,
    e: &LinesEdit,
    content: &str,
    s: &Spliced,
    found: &Found,
) -> ApplyEvidence {
    let planned_at = e.core_start + e.del_offset;
    let del_start = found.del_start;
    let del_end = del_start + s.old_line_count;
    ApplyEvidence {
        planned_at_line: to_u32(planned_at + 1),
        applied_at_line: Some(to_u32(del_start + 1)),
        line_shift: Some(delta(del_start, planned_at)),
        located_by: Some(found.by),
        candidates_count: to_u32(found.candidates),
        candidates: Vec::new(),
        context_matched: to_u32(found.context_matched),
        context_total: to_u32(e.context_total()),
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: previews(doc, del_start.saturating_sub(PREVIEW_CONTEXT), del_start),
        after_preview: previews(doc, del_end, del_end + PREVIEW_CONTEXT),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    }
}

pub(super) fn lines_rejected_evidence(
    doc: &Doc<'_>,
    e: &LinesEdit,
    content: &str,
    candidates: &[usize],
    context_matched: usize,
) -> ApplyEvidence {
    let planned_at = e.core_start + e.del_offset;
    let ranges: Vec<LineRange> = candidates
        .iter()
        .take(crate::planner::anchor::MAX_LISTED_CANDIDATES)
        .map(|&c| LineRange::new(to_u32(c + 1), to_u32(c + e.core.len())))
        .collect();
    let mut evidence = rejected_evidence(
        content,
        planned_at + 1,
        ranges,
        previews(doc, e.core_start, e.core_start + e.core.len()),
        context_matched,
        e.context_total(),
    );
    evidence.expected_preview = preview_block(&e.core);
    evidence.actual_preview = preview_block(&doc.slice(e.core_start, e.core_start + e.core.len()));
    evidence.candidates_count = to_u32(candidates.len());
    evidence
}

pub(super) fn rejected_evidence(
    content: &str,
    planned_at_line: usize,
    candidates: Vec<LineRange>,
    actual: Vec<String>,
    context_matched: usize,
    context_total: usize,
) -> ApplyEvidence {
    let digest = digest_string(content);
    ApplyEvidence {
        planned_at_line: to_u32(planned_at_line),
        applied_at_line: None,
        line_shift: None,
        located_by: None,
        candidates_count: to_u32(candidates.len()),
        candidates,
        context_matched: to_u32(context_matched),
        context_total: to_u32(context_total),
        file_digest_before: digest.clone(),
        file_digest_after: digest,
        before_preview: Vec::new(),
        after_preview: Vec::new(),
        expected_preview: Vec::new(),
        actual_preview: actual,
    }
}

fn base_result(hunk: &Hunk, content: String, evidence: ApplyEvidence) -> FileApplyResult {
    FileApplyResult {
        status: "ok",
        mode: APPLY_MODE,
        path: hunk.path.clone(),
        hunk_id: hunk.id.clone(),
        action: hunk.action,
        context_match: ContextMatch::Exact,
        reason: None,
        changed: false,
        content,
        creates_file: false,
        lines: None,
        normalized: None,
        applied_range: None,
        append_range: None,
        insert: None,
        block_replace: None,
        evidence,
        summary: String::new(),
        yaml: String::new(),
        diff: String::new(),
        text: String::new(),
    }
}

pub(super) fn rejected(
    hunk: &Hunk,
    content: &str,
    reason: RejectReason,
    evidence: ApplyEvidence,
) -> FileApplyResult {
    let mut r = base_result(hunk, content.to_string(), evidence);
    r.status = "rejected";
    r.context_match = ContextMatch::Rejected;
    r.reason = Some(reason);
    r
}

pub(super) fn applied(
    hunk: &Hunk,
    before: &str,
    s: &Spliced,
    context_match: ContextMatch,
    evidence: ApplyEvidence,
) -> FileApplyResult {
    let mut r = base_result(hunk, s.content.clone(), evidence);
    r.context_match = context_match;
    r.changed = s.content != before;
    r.lines = Some(counts(s));
    r.normalized = Some(s.normalized);
    r.diff = s.diff.clone();
    r
}

/// Fills the per-action location fields of a located-lines apply.
pub(super) fn with_lines_details(
    mut r: FileApplyResult,
    hunk: &Hunk,
    s: &Spliced,
    core_start: usize,
) -> FileApplyResult {
    let at = to_u32(s.at + 1);
    match &hunk.info {
        HunkInfo::Range | HunkInfo::Append => {
            // An empty file's one (empty) line counts as the replaced line.
            let end = if s.old_line_count == 0 {
                at
            } else {
                to_u32(s.at + s.old_line_count)
            };
            r.applied_range = Some(Span { start: at, end });
        }
        HunkInfo::Insert { position, anchor } => {
            r.insert = Some(ApplyInsert {
                position: *position,
                anchor: anchor.clone(),
                inserted_at_line: at,
                inserted_line_count: to_u32(s.new_line_count),
            });
        }
        HunkInfo::Block => {
            let core_len = match &hunk.edit {
                PlannedEdit::Lines(e) => e.core.len(),
                _ => 0,
            };
            r.block_replace = Some(ApplyBlock {
                block_range: Span {
                    start: to_u32(core_start + 1),
                    end: to_u32(core_start + core_len),
                },
                replace_slice: ReplaceSlice {
                    start_line: at,
                    delete_count: to_u32(s.old_line_count),
                },
            });
        }
    }
    r
}

/// Summary, YAML and agent text.
pub(super) fn finish(mut r: FileApplyResult, lang: crate::Lang) -> FileApplyResult {
    r.summary = msg::apply_summary(lang, &r);
    r.yaml = render::apply_yaml(&r, lang);
    r.text = crate::planner::yaml::agent_text(&r.yaml, &r.diff);
    r
}

//! The agent-facing YAML of plans, applies and refusals (seed 001 §8).
//!
//! Rendered from the typed results, so the YAML and the typed object
//! always carry the same data. Field names are stable; values that are
//! enum words are plain, every string is quoted (see [`super::yaml`]).

use super::messages as msg;
use super::problem::Problem;
use super::types::*;
use super::yaml::{number, Yaml};
use crate::error::Error;
use crate::lang::Lang;

/// Where a refusal happened: the YAML `mode` and `path`, and the language.
pub(crate) struct Ctx<'a> {
    pub mode: &'a str,
    pub path: &'a str,
    pub lang: Lang,
}

/// The planner's refusal of `problem`: the message and next step rendered
/// in `ctx.lang`, the problem's details, and the agent YAML (`status:
/// error`) in `details.yaml`. `fields` adds the facts between `error:` and
/// `summary:`.
pub(crate) fn refuse(ctx: &Ctx<'_>, problem: Problem, fields: impl FnOnce(&mut Yaml)) -> Error {
    let e = plain(ctx.lang, &problem);
    with_yaml(e, ctx, fields)
}

/// The refusal without its YAML, for the public functions that have no
/// tool context (`parse_line_range`, the anchor matcher): the tool that
/// calls them adds the YAML with [`ensure_yaml`].
pub(crate) fn plain(lang: Lang, problem: &Problem) -> Error {
    let said = msg::render(problem, lang);
    let mut e = Error::new(problem.code(), said.message);
    *e.details = problem.details();
    if !said.next.is_empty() {
        e.details.suggestions = vec![said.next];
    }
    e
}

/// Gives an error made without YAML (by [`plain`], or an argument check
/// shared with other modules) its agent YAML, so every planner refusal
/// carries one.
pub(crate) fn ensure_yaml(e: Error, ctx: &Ctx<'_>) -> Error {
    if e.details.yaml.is_some() {
        return e;
    }
    with_yaml(e, ctx, |_| {})
}

/// The one place the refusal YAML is written: header, the argument's name,
/// the stage's `fields`, summary and next step.
fn with_yaml(mut e: Error, ctx: &Ctx<'_>, fields: impl FnOnce(&mut Yaml)) -> Error {
    let mut y = Yaml::new();
    y.raw("status", "error").raw("mode", ctx.mode);
    if !ctx.path.is_empty() {
        y.str("path", ctx.path);
    }
    y.raw("error", e.code.as_str());
    if let Some(name) = &e.details.name {
        y.str("argument", name);
    }
    fields(&mut y);
    y.str("summary", &e.message);
    if let Some(next) = e.details.suggestions.first() {
        y.str("next", next);
    }
    e.details.yaml = Some(y.finish());
    e
}

fn normalized(y: &mut Yaml, n: &Normalized) {
    y.open("normalized")
        .raw("file_eof_has_newline", n.file_eof_has_newline)
        .raw("content_eof_has_newline", n.content_eof_has_newline)
        .raw(
            "normalized_file_eof_newline_added",
            n.normalized_file_eof_newline_added,
        )
        .raw(
            "normalized_content_eof_newline_added",
            n.normalized_content_eof_newline_added,
        )
        .close();
}

fn lines(y: &mut Yaml, l: &LineCounts) {
    y.open("lines")
        .raw("old", l.old)
        .raw("new", l.new)
        .raw("delta", l.delta)
        .close();
}

fn span(y: &mut Yaml, key: &str, s: Span) {
    y.open(key).raw("start", s.start).raw("end", s.end).close();
}

/// The YAML of a plan.
pub(crate) fn plan_yaml(p: &PlanResult) -> String {
    let mut y = Yaml::new();
    y.raw("status", p.status)
        .raw("mode", p.mode.as_str())
        .str("path", &p.path)
        .str("hunk_id", &p.hunk_id);
    if p.revised {
        y.raw("revised", true);
    }
    y.raw("expires_at_ms", number(p.expires_at_ms))
        .raw("action", p.action.as_str());
    if let Some(r) = &p.range {
        range_plan_fields(&mut y, p, r);
    }
    if let Some(a) = &p.append {
        append_plan_fields(&mut y, p, a);
    }
    if let Some(i) = &p.insert {
        insert_plan_fields(&mut y, p, i);
    }
    if let Some(b) = &p.block_replace {
        block_replace_plan_fields(&mut y, p, b);
    }
    y.str("summary", &p.summary);
    y.finish()
}

fn range_plan_fields(y: &mut Yaml, p: &PlanResult, r: &RangePlan) {
    y.open("range")
        .str("input", &r.input)
        .open("resolved")
        .raw("start", r.resolved.start)
        .raw("end", r.resolved.end);
    y.close().close();
    lines(y, &p.lines);
    normalized(y, &p.normalized);
    y.open("evidence")
        .list("before", &r.evidence_before)
        .list("range", &r.evidence_range)
        .list("after", &r.evidence_after);
    y.close();
}

fn append_plan_fields(y: &mut Yaml, p: &PlanResult, a: &FileAppendPlan) {
    y.raw("create", a.create)
        .raw("file_line_count_before", a.file_line_count_before)
        .raw("file_line_count_after", a.file_line_count_after)
        .raw("appended_line_count", a.appended_line_count);
    normalized(y, &p.normalized);
    y.open("blankline_style")
        .raw(
            "file_trailing_blank_line_count",
            a.blankline_style.file_trailing_blank_line_count,
        )
        .raw(
            "content_leading_blank_line_count",
            a.blankline_style.content_leading_blank_line_count,
        )
        .close();
    y.str("style_warning", &p.style_warning);
    y.open("evidence_preview")
        .list("before_tail", &a.before_tail)
        .list("append_preview", &a.append_preview)
        .list("after_tail", &a.after_tail)
        .close();
}

fn insert_plan_fields(y: &mut Yaml, p: &PlanResult, i: &InsertPlan) {
    y.raw("position", i.position.as_str())
        .str("anchor", &i.anchor)
        .raw("match", i.match_mode.as_str())
        .raw("candidates_count", i.candidates_count)
        .str("occurrence_resolved", &i.occurrence_resolved)
        .raw("anchor_line", i.anchor_line)
        .raw("inserted_at_line", i.inserted_at_line)
        .raw("inserted_line_count", i.inserted_line_count);
    lines(y, &p.lines);
    normalized(y, &p.normalized);
    let b = &i.blankline_style;
    y.open("blankline_style")
        .raw(
            "file_before_trailing_blank_line_count",
            b.file_before_trailing_blank_line_count,
        )
        .raw(
            "file_after_leading_blank_line_count",
            b.file_after_leading_blank_line_count,
        )
        .raw(
            "content_leading_blank_line_count",
            b.content_leading_blank_line_count,
        )
        .raw(
            "content_trailing_blank_line_count",
            b.content_trailing_blank_line_count,
        )
        .close();
    y.str("style_warning", &p.style_warning);
    y.open("evidence_preview")
        .list("before_preview", &i.before_preview)
        .list("insert_preview", &i.insert_preview)
        .list("after_preview", &i.after_preview)
        .close();
}

fn block_replace_plan_fields(y: &mut Yaml, p: &PlanResult, b: &BlockReplacePlan) {
    y.str("start_anchor", &b.start_anchor)
        .str("end_anchor", &b.end_anchor)
        .raw("match", b.match_mode.as_str())
        .raw("include_anchors", b.include_anchors)
        .raw("require_unique", b.require_unique)
        .raw("strict", b.strict)
        .raw("candidates_count", b.candidates_count)
        .str("occurrence_resolved", &b.occurrence_resolved);
    y.open("block_range")
        .raw("start_line", b.block_range.start)
        .raw("end_line", b.block_range.end)
        .close();
    y.open("replace_slice")
        .raw("start_line", b.replace_slice.start_line)
        .raw("delete_count", b.replace_slice.delete_count)
        .close();
    lines(y, &p.lines);
    normalized(y, &p.normalized);
    y.open("evidence_preview")
        .list("before_preview", &b.before_preview)
        .list("old_preview", &b.old_preview)
        .list("new_preview", &b.new_preview)
        .list("after_preview", &b.after_preview)
        .close();
}

/// The `apply_evidence` map of an apply.
fn apply_evidence_fields(y: &mut Yaml, r: &FileApplyResult) {
    let e = &r.evidence;
    y.open("apply_evidence")
        .raw("planned_at_line", e.planned_at_line);
    if let Some(line) = e.applied_at_line {
        y.raw("applied_at_line", line);
    }
    if let Some(shift) = e.line_shift {
        y.raw("line_shift", shift);
    }
    if let Some(by) = e.located_by {
        y.raw("located_by", by.as_str());
    }
    y.raw("candidates_count", e.candidates_count);
    if !e.candidates.is_empty() {
        let labels: Vec<String> = e
            .candidates
            .iter()
            .map(|c| format!("{}~{}", c.start_line, c.end_line))
            .collect();
        y.list("candidates", &labels);
    }
    y.raw("context_matched", e.context_matched)
        .raw("context_total", e.context_total);
    y.str("file_digest_before", &e.file_digest_before)
        .str("file_digest_after", &e.file_digest_after);
    if r.context_match == ContextMatch::Rejected {
        y.list("expected_preview", &e.expected_preview)
            .list("actual_preview", &e.actual_preview);
    } else if r.action == PlanAction::Append {
        y.list("before_tail", &e.before_preview)
            .list("after_tail", &e.after_preview);
    } else {
        y.list("before_preview", &e.before_preview)
            .list("after_preview", &e.after_preview);
    }
    y.close();
}

/// The YAML of an apply (applied or rejected).
pub(crate) fn apply_yaml(r: &FileApplyResult, lang: Lang) -> String {
    let mut y = Yaml::new();
    y.raw("status", r.status)
        .raw("mode", r.mode)
        .str("path", &r.path)
        .str("hunk_id", &r.hunk_id)
        .raw("action", r.action.as_str())
        .raw("context_match", r.context_match.as_str());
    if let Some(reason) = r.reason {
        y.raw("reason", reason.as_str());
    }
    if let Some(s) = r.applied_range {
        span(&mut y, "applied_range", s);
    }
    if let Some(s) = r.append_range {
        span(&mut y, "append_range", s);
    }
    if let Some(i) = &r.insert {
        y.raw("position", i.position.as_str())
            .str("anchor", &i.anchor)
            .raw("inserted_at_line", i.inserted_at_line)
            .raw("inserted_line_count", i.inserted_line_count);
    }
    if let Some(b) = &r.block_replace {
        y.open("block_range")
            .raw("start_line", b.block_range.start)
            .raw("end_line", b.block_range.end)
            .close();
        y.open("replace_slice")
            .raw("start_line", b.replace_slice.start_line)
            .raw("delete_count", b.replace_slice.delete_count)
            .close();
    }
    if r.action != PlanAction::Append {
        if let Some(l) = &r.lines {
            lines(&mut y, l);
        }
    }
    if let Some(n) = &r.normalized {
        normalized(&mut y, n);
    }
    apply_evidence_fields(&mut y, r);
    y.str("summary", &r.summary);
    if r.context_match == ContextMatch::Rejected {
        y.str("next", &msg::next_rejected(lang, &r.hunk_id));
    }
    y.finish()
}

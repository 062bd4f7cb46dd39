//! The planner's summaries, one function each: what a plan does, what an
//! apply did (or why it was rejected, and what next), the style warnings
//! of an append or insert, and the overwrite and new-file checks.

use super::super::types::{
    ApplyEvidence, ContextMatch, FileApplyResult, PlanAction, PlanResult, Position, RejectReason,
};
use super::pick;
use crate::lang::Lang;

// ---- plan -------------------------------------------------------------------

/// What a plan does, in a few words (the summary's middle).
fn plan_what(lang: Lang, p: &PlanResult) -> String {
    let path = &p.path;
    let (old, new) = (p.lines.old, p.lines.new);
    match (p.action, &p.range, &p.append, &p.insert, &p.block_replace) {
        (PlanAction::Append, Some(r), ..) => pick(
            lang,
            format!(
                "append {new} line(s) after line {} of {path}",
                r.resolved.start.saturating_sub(1)
            ),
            format!(
                "在 {path} 第 {} 行之后追加 {new} 行",
                r.resolved.start.saturating_sub(1)
            ),
        ),
        (PlanAction::Delete, Some(r), ..) => pick(
            lang,
            format!(
                "delete lines {}–{} of {path} ({old} line(s))",
                r.resolved.start, r.resolved.end
            ),
            format!(
                "删除 {path} 第 {}–{} 行（{old} 行）",
                r.resolved.start, r.resolved.end
            ),
        ),
        (_, Some(r), ..) => pick(
            lang,
            format!(
                "replace lines {}–{} of {path} ({old} → {new} line(s))",
                r.resolved.start, r.resolved.end
            ),
            format!(
                "替换 {path} 第 {}–{} 行（{old} → {new} 行）",
                r.resolved.start, r.resolved.end
            ),
        ),
        (_, _, Some(a), ..) => {
            let (before, after) = (a.file_line_count_before, a.file_line_count_after);
            pick(
                lang,
                format!("append {new} line(s) to {path} ({before} → {after} lines)"),
                format!("向 {path} 末尾追加 {new} 行（{before} → {after} 行）"),
            )
        }
        (_, _, _, Some(i), _) => {
            let (at, occ, n) = (i.anchor_line, &i.occurrence_resolved, i.candidates_count);
            match i.position {
                Position::After => pick(
                    lang,
                    format!("insert {new} line(s) after line {at} of {path} (anchor match {occ} of {n})"),
                    format!("在 {path} 第 {at} 行之后插入 {new} 行（锚点候选 {n} 个，选第 {occ} 个）"),
                ),
                Position::Before => pick(
                    lang,
                    format!("insert {new} line(s) before line {at} of {path} (anchor match {occ} of {n})"),
                    format!("在 {path} 第 {at} 行之前插入 {new} 行（锚点候选 {n} 个，选第 {occ} 个）"),
                ),
            }
        }
        (_, _, _, _, Some(b)) => {
            let (s, e) = (b.block_range.start, b.block_range.end);
            pick(
                lang,
                format!("replace {old} line(s) of the block at lines {s}–{e} of {path} with {new} line(s)"),
                format!("将 {path} 第 {s}–{e} 行块中的 {old} 行替换为 {new} 行"),
            )
        }
        _ => String::new(),
    }
}

/// The summary of a plan: what it does, and how to apply it while it is
/// valid.
pub(crate) fn plan_summary(lang: Lang, p: &PlanResult, ttl_ms: f64) -> String {
    let id = &p.hunk_id;
    let what = plan_what(lang, p);
    // Whole minutes as an integer: no float printer in the wasm.
    let minutes = format!("{:.0}", (ttl_ms / 60_000.0).round().max(1.0));
    let head = if p.revised {
        pick(
            lang,
            format!("Revised plan {id}"),
            format!("已修订规划 {id}"),
        )
    } else {
        pick(lang, format!("Plan {id}"), format!("规划 {id}"))
    };
    pick(
        lang,
        format!("{head}: {what}. Review the diff, then call apply_file_modification with this hunk_id (valid {minutes} min)."),
        format!("{head}：{what}。请审阅 diff，然后用此 hunk_id 调用 apply_file_modification（{minutes} 分钟内有效）。"),
    )
}

// ---- apply ------------------------------------------------------------------

/// The summary of an apply: where and how the plan landed (exact, or
/// fuzz with its shift), or why it was rejected.
pub(crate) fn apply_summary(lang: Lang, r: &FileApplyResult) -> String {
    let (id, path, e) = (&r.hunk_id, &r.path, &r.evidence);
    let at = e.applied_at_line.unwrap_or(0);
    let change = applied_change(lang, r);
    match (r.context_match, r.reason) {
        (ContextMatch::Exact, _) => pick(
            lang,
            format!("Applied {id} to {path} (exact): {change}."),
            format!("已将 {id} 应用于 {path}（exact）：{change}。"),
        ),
        (ContextMatch::Fuzz, _) if r.action == PlanAction::Append => pick(
            lang,
            format!("Applied {id} to {path} (fuzz: the file changed since the plan; the text went to its current end): {change}. Review the diff."),
            format!("已将 {id} 应用于 {path}（fuzz：规划后文件有变化，内容追加到当前末尾）：{change}。请审阅 diff。"),
        ),
        (ContextMatch::Fuzz, _) => {
            let (planned, shift) = (e.planned_at_line, e.line_shift.unwrap_or(0));
            let (m, t) = (e.context_matched, e.context_total);
            pick(
                lang,
                format!("Applied {id} to {path} (fuzz: planned at line {planned}, found at line {at}, shift {shift:+}; context {m}/{t}): {change}. Review the diff."),
                format!("已将 {id} 应用于 {path}（fuzz：规划于第 {planned} 行，实际定位到第 {at} 行，偏移 {shift:+}；上下文匹配 {m}/{t}）：{change}。请审阅 diff。"),
            )
        }
        (_, Some(RejectReason::AmbiguousMatch)) => {
            let n = e.candidates_count;
            let places = candidate_places(e);
            pick(
                lang,
                format!("Rejected {id}: the planned lines and their context occur at {n} places in {path} (lines {}); the plan cannot tell which it meant. Nothing was changed.", places.join(", ")),
                format!("已拒绝 {id}：规划的行连同其上下文在 {path} 中出现于 {n} 处（第 {} 行），无法确定规划指的是哪一处。未做任何修改。", places.join("、")),
            )
        }
        _ => pick(
            lang,
            format!("Rejected {id}: the planned lines and their context (line {} of the planned-on file) no longer stand together in {path}. Nothing was changed.", e.planned_at_line),
            format!("已拒绝 {id}：规划时第 {} 行的内容连同其上下文已不再一起出现在 {path} 中。未做任何修改。", e.planned_at_line),
        ),
    }
}

/// What an apply changed, in a few words (the summary's tail).
fn applied_change(lang: Lang, r: &FileApplyResult) -> String {
    let at = r.evidence.applied_at_line.unwrap_or(0);
    let (new, old) = r.lines.map_or((0, 0), |l| (l.new, l.old));
    match r.action {
        PlanAction::Append => pick(
            lang,
            format!("appended {new} line(s) at line {at}"),
            format!("在第 {at} 行起追加了 {new} 行"),
        ),
        PlanAction::Insert => pick(
            lang,
            format!("inserted {new} line(s) at line {at}"),
            format!("在第 {at} 行起插入了 {new} 行"),
        ),
        PlanAction::Delete => pick(
            lang,
            format!("deleted {old} line(s) at line {at}"),
            format!("删除了第 {at} 行起的 {old} 行"),
        ),
        PlanAction::Replace | PlanAction::BlockReplace => pick(
            lang,
            format!("replaced {old} line(s) with {new} at line {at}"),
            format!("将第 {at} 行起的 {old} 行替换为 {new} 行"),
        ),
    }
}

/// Where the planned lines occur (an ambiguous apply): the first few as
/// `N` or `N~M`, then `…` when there are more.
fn candidate_places(e: &ApplyEvidence) -> Vec<String> {
    let n = e.candidates_count;
    // The first few; `apply_evidence.candidates` lists more.
    let mut places: Vec<String> = e
        .candidates
        .iter()
        .take(10)
        .map(|c| {
            if c.start_line == c.end_line {
                c.start_line.to_string()
            } else {
                format!("{}~{}", c.start_line, c.end_line)
            }
        })
        .collect();
    if places.len() < n as usize {
        places.push("…".into());
    }
    places
}

pub fn next_rejected(lang: Lang, id: &str) -> String {
    pick(
        lang,
        format!("Re-read the file, then prepare the edit again (pass existing_hunk_id: \"{id}\" to revise this plan)."),
        format!("请重新读取文件后再次 prepare（传 existing_hunk_id: \"{id}\" 可修订此规划）。"),
    )
}

pub fn style_warning_append(lang: Lang) -> String {
    pick(
        lang,
        "The file ends with blank line(s) and the text starts with blank line(s): blank lines will stack.".into(),
        "文件末尾已有空行，且追加内容以空行开头：空行会叠加。".into(),
    )
}

pub fn style_warning_insert(lang: Lang) -> String {
    pick(
        lang,
        "Blank lines meet at an edge of the insertion (file and text both have them there): blank lines will stack."
            .into(),
        "插入点边缘的文件与插入内容都有空行：空行会叠加。".into(),
    )
}

// ---- overwrite / new file ------------------------------------------------

pub fn overwrite_summary(lang: Lang, path: &str, lines: usize, bytes: usize) -> String {
    pick(
        lang,
        format!("Overwrite of {path} accepted ({lines} lines, {bytes} bytes)."),
        format!("{path} 的覆盖写入已通过检查（{lines} 行，{bytes} 字节）。"),
    )
}

pub fn new_file_summary(lang: Lang, path: &str, lines: usize, bytes: usize) -> String {
    pick(
        lang,
        format!("Creation of {path} accepted ({lines} lines, {bytes} bytes)."),
        format!("{path} 的创建已通过检查（{lines} 行，{bytes} 字节）。"),
    )
}

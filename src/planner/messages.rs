//! Every message of the planner, in English and Chinese side by side: the
//! refusals rendered from a [`Problem`] by [`render`], the summaries one
//! function each. A leaf: it imports only `problem` and `types`. Messages
//! say what was wrong, where, and what to do next; tool
//! names are the seed's (`prepare_file_*`, `apply_file_modification`,
//! `read_file`), which are also the YAML `mode` values.

use super::problem::{Expected, Problem, RangeProblem, WhileDoing};
use super::types::*;
use crate::lang::Lang;

fn pick(lang: Lang, en: String, zh: String) -> String {
    lang.pick(en, zh)
}

// ---- refusals -------------------------------------------------------------

/// A refusal in words: what was wrong and where (`message`), and what to
/// do next (`next`, empty when the message says it all).
pub(crate) struct Said {
    pub message: String,
    pub next: String,
}

/// Renders a refusal in `lang`. Only formats: the problem carries every
/// fact.
pub(crate) fn render(problem: &Problem, lang: Lang) -> Said {
    Said {
        message: message(problem, lang),
        next: next_step(problem, lang),
    }
}

// One piece on purpose: one arm per problem, both languages side by
// side, read as a table.
fn message(problem: &Problem, lang: Lang) -> String {
    use Problem::*;
    match problem {
        FileNotFound { path, .. } => pick(
            lang,
            format!("File not found: {path}."),
            format!("文件不存在：{path}。"),
        ),
        ContentRequired { mode } => pick(
            lang,
            format!("{mode} needs non-empty new text."),
            format!("{mode} 需要非空的新内容。"),
        ),
        InvalidArgument { name, expected } => {
            crate::error::invalid_argument_message(lang, name, &expected_text(lang, *expected))
        }
        AnchorEmpty { name } => pick(
            lang,
            format!("`{name}` is empty; give one line of the file to anchor on."),
            format!("`{name}` 为空；请给出文件中用作锚点的一行文字。"),
        ),
        AnchorMultiline { name } => pick(
            lang,
            format!("`{name}` spans several lines; an anchor is one line. Use the most distinctive line, or prepare_file_range_edit."),
            format!("`{name}` 跨越多行；锚点只能是一行。请选用最有辨识度的一行，或改用 prepare_file_range_edit。"),
        ),
        InvalidRegex { name, pattern, error } => pick(
            lang,
            format!("`{name}` is not a valid regex ({pattern}): {error}"),
            format!("`{name}` 不是合法的正则表达式（{pattern}）：{error}"),
        ),
        AnchorNotFound { name, anchor, mode, .. } => {
            let how = mode.as_str();
            pick(
                lang,
                format!("No line matches `{name}` \"{anchor}\" (match: {how})."),
                format!("没有任何行匹配 `{name}` \"{anchor}\"（match: {how}）。"),
            )
        }
        AnchorAmbiguous { anchor, count } => pick(
            lang,
            format!("The anchor \"{anchor}\" matches {count} lines; nothing was planned."),
            format!("锚点 \"{anchor}\" 匹配了 {count} 行；未生成规划。"),
        ),
        BlocksAmbiguous { count } => pick(
            lang,
            format!("The start/end anchors delimit {count} blocks; nothing was planned."),
            format!("起止锚点界定了 {count} 个块；未生成规划。"),
        ),
        OccurrenceOutOfRange { occurrence, count } => pick(
            lang,
            format!("occurrence {occurrence} is out of range: there are {count} candidates."),
            format!("occurrence {occurrence} 超出范围：只有 {count} 个候选。"),
        ),
        NestedAnchors { start, end, nested } => pick(
            lang,
            format!("The block at lines {start}–{end} contains another start anchor at line {nested} (nested anchors); nothing was planned."),
            format!("第 {start}–{end} 行的块内在第 {nested} 行又出现了起始锚点（锚点嵌套）；未生成规划。"),
        ),
        InvalidRange { input, why } => range_message(lang, input, *why),
        HunkExpired { id } => pick(
            lang,
            format!("Hunk {id} has expired."),
            format!("hunk {id} 已过期。"),
        ),
        HunkNotFound { id, applied: true } => pick(
            lang,
            format!("Hunk {id} was already applied; a hunk applies once."),
            format!("hunk {id} 已经应用过；每个 hunk 只能应用一次。"),
        ),
        HunkNotFound { id, applied: false } => pick(
            lang,
            format!("No plan with hunk_id {id} in this session."),
            format!("本会话中不存在 hunk_id 为 {id} 的规划。"),
        ),
        WrongOwner { id } => pick(
            lang,
            format!("Hunk {id} was planned by another owner."),
            format!("hunk {id} 是由其他成员规划的。"),
        ),
        HunkKindMismatch { id, old_mode, new_mode } => pick(
            lang,
            format!("Hunk {id} was made by {old_mode}; {new_mode} cannot revise it."),
            format!("hunk {id} 由 {old_mode} 生成；{new_mode} 不能修订它。"),
        ),
        HunkPathMismatch { id, old_path } => pick(
            lang,
            format!("Hunk {id} is a plan for {old_path}, not for this file."),
            format!("hunk {id} 是针对 {old_path} 的规划，不是本文件的。"),
        ),
        SnapshotMismatch => pick(
            lang,
            "known_old_total_lines/bytes do not match the current file; refusing to overwrite.".into(),
            "known_old_total_lines/bytes 与当前文件不符；拒绝覆盖写入。".into(),
        ),
        SuspiciousDiff { kind } => {
            let kind = kind.as_str();
            pick(
                lang,
                format!("The new content looks like a diff/patch ({kind}) and content_format does not declare it; refusing to write it into the file."),
                format!("新内容看起来是 diff/patch（{kind}），且 content_format 未声明；拒绝把它写入文件。"),
            )
        }
        NotAFile => pick(
            lang,
            "The path exists but is not a file (e.g. a directory); refusing to create.".into(),
            "该路径已存在但不是文件（例如是目录）；拒绝创建。".into(),
        ),
        FileExists => pick(
            lang,
            "The file already exists; refusing to create it.".into(),
            "文件已存在；拒绝创建。".into(),
        ),
    }
}

fn expected_text(lang: Lang, expected: Expected) -> String {
    match expected {
        Expected::FilePath => pick(
            lang,
            "a non-empty file path".into(),
            "非空的文件路径".into(),
        ),
        Expected::FiniteNow => pick(
            lang,
            "a finite number of milliseconds".into(),
            "有限的毫秒数".into(),
        ),
        Expected::Snapshot => pick(
            lang,
            "the file's total_lines and size_bytes from read_file (0 for an empty file)".into(),
            "read_file 给出的 total_lines 与 size_bytes（空文件为 0）".into(),
        ),
    }
}

fn range_message(lang: Lang, input: &str, why: RangeProblem) -> String {
    let forms = "N, N~M, N~, ~N, ~";
    match why {
        RangeProblem::Empty => pick(
            lang,
            format!("A line range is required ({forms}; 1-based, inclusive)."),
            format!("需要行范围（{forms}；从 1 开始，含两端）。"),
        ),
        RangeProblem::Zero => pick(
            lang,
            format!("Invalid range \"{input}\": lines are numbered from 1."),
            format!("行范围 \"{input}\" 无效：行号从 1 开始。"),
        ),
        RangeProblem::Reversed => pick(
            lang,
            format!("Invalid range \"{input}\": the start is after the end."),
            format!("行范围 \"{input}\" 无效：起始行在结束行之后。"),
        ),
        RangeProblem::OutOfBounds { total } => {
            let append = total.max(1) + 1;
            pick(
                lang,
                format!("Range \"{input}\" is out of bounds: the file has {total} lines (use {append}~ to append)."),
                format!("行范围 \"{input}\" 越界：文件共 {total} 行（追加请用 {append}~）。"),
            )
        }
        RangeProblem::Syntax => pick(
            lang,
            format!("Invalid range \"{input}\": expected one of {forms} (1-based, inclusive)."),
            format!("行范围 \"{input}\" 无效：应为 {forms} 之一（从 1 开始，含两端）。"),
        ),
    }
}

// One piece on purpose: one arm per problem, both languages side by
// side, read as a table.
fn next_step(problem: &Problem, lang: Lang) -> String {
    use Problem::*;
    match problem {
        FileNotFound { doing: WhileDoing::Preparing, .. } => pick(
            lang,
            "Check the path. To create a file, use create_new_file, or prepare_file_append with create: true.".into(),
            "请检查路径。要创建文件，请用 create_new_file，或用 prepare_file_append 并设置 create: true。".into(),
        ),
        FileNotFound { doing: WhileDoing::Appending, .. } => pick(
            lang,
            "Pass create: true to create the file with this text, or check the path.".into(),
            "若要用这段文字创建该文件，请传 create: true；否则请检查路径。".into(),
        ),
        FileNotFound { doing: WhileDoing::Applying, .. } => pick(
            lang,
            "The file was deleted or moved after the plan. Check the path, then prepare the edit again.".into(),
            "文件在规划之后被删除或移动。请检查路径，然后重新 prepare。".into(),
        ),
        ContentRequired { mode } if mode == PlanMode::PrepareFileRangeEdit.as_str() => pick(
            lang,
            "An append needs text. To delete lines, give a range of existing lines and empty new text.".into(),
            "追加需要内容。若要删除行，请指定已有行的范围并让新内容为空。".into(),
        ),
        ContentRequired { .. } => pick(
            lang,
            "Provide the text to write. To delete lines, use prepare_file_range_edit with empty new text.".into(),
            "请提供要写入的内容。若要删除行，请用 prepare_file_range_edit 并让新内容为空。".into(),
        ),
        InvalidArgument { .. } | AnchorEmpty { .. } | AnchorMultiline { .. } => String::new(),
        InvalidRegex { .. } => pick(
            lang,
            "Fix the pattern (regex-lite syntax: no look-around, no backreferences, no Unicode classes such as \\p{L}), or use match: \"contains\" with plain text.".into(),
            "请修正正则（regex-lite 语法：不支持环视、反向引用与 \\p{L} 这类 Unicode 字符类），或改用 match: \"contains\" 与普通文本。".into(),
        ),
        AnchorNotFound { of_block: false, .. } => pick(
            lang,
            "Read the file (read_file) and copy an anchor line exactly, or use prepare_file_range_edit with line numbers."
                .into(),
            "请先用 read_file 查看文件并准确复制锚点行，或改用按行号的 prepare_file_range_edit。".into(),
        ),
        AnchorNotFound { of_block: true, .. } => pick(
            lang,
            "Both anchors must match, the end anchor on a line after the start anchor. Read the file and copy them exactly, or use prepare_file_range_edit.".into(),
            "起止两个锚点都必须匹配，且结束锚点要在起始锚点之后。请查看文件并准确复制，或改用 prepare_file_range_edit。".into(),
        ),
        AnchorAmbiguous { .. } => pick(
            lang,
            "Pass occurrence (1-based, or \"last\") to choose one of the candidate lines, use a more specific anchor (match: \"equals\"), or use prepare_file_range_edit.".into(),
            "请传 occurrence（从 1 开始，或 \"last\"）选定候选行之一，或换用更具体的锚点（match: \"equals\"），或改用 prepare_file_range_edit。".into(),
        ),
        BlocksAmbiguous { .. } => pick(
            lang,
            "Pass occurrence (1-based, or \"last\") to choose one of the candidate blocks, use more specific anchors, or use prepare_file_range_edit.".into(),
            "请传 occurrence（从 1 开始，或 \"last\"）选定候选块之一，或换用更具体的锚点，或改用 prepare_file_range_edit。".into(),
        ),
        OccurrenceOutOfRange { count, .. } => pick(
            lang,
            format!("Use an occurrence from 1 to {count}, or \"last\"."),
            format!("请使用 1 到 {count} 之间的 occurrence，或 \"last\"。"),
        ),
        NestedAnchors { .. } => pick(
            lang,
            "Use anchors that do not repeat inside the block, or prepare_file_range_edit with the exact line range.".into(),
            "请选用在块内不会重复出现的锚点，或用 prepare_file_range_edit 指定确切的行范围。".into(),
        ),
        InvalidRange { .. } => pick(
            lang,
            "Read the file (read_file) for its total_lines and line numbers, then give a range within them.".into(),
            "请先用 read_file 查看 total_lines 与行号，再给出范围内的行号。".into(),
        ),
        HunkExpired { .. } | HunkNotFound { .. } => pick(
            lang,
            "Read the file again and prepare a new plan (hunk ids are issued by the prepare tools; never invent one)."
                .into(),
            "请重新读取文件并重新 prepare（hunk_id 只能由 prepare 工具生成，不要自行编造）。".into(),
        ),
        WrongOwner { .. } => pick(
            lang,
            "Only the owner that prepared a hunk can apply or revise it; prepare your own plan.".into(),
            "只有规划该 hunk 的成员才能应用或修订它；请自行 prepare 一个规划。".into(),
        ),
        HunkKindMismatch { old_mode, .. } => pick(
            lang,
            format!("Revise it with {old_mode}, or leave existing_hunk_id empty to make a new plan."),
            format!("请用 {old_mode} 修订它，或把 existing_hunk_id 留空以生成新规划。"),
        ),
        HunkPathMismatch { .. } => pick(
            lang,
            "Leave existing_hunk_id empty to plan an edit of this file.".into(),
            "若要规划本文件的修改，请把 existing_hunk_id 留空。".into(),
        ),
        SnapshotMismatch => pick(
            lang,
            "Call read_file to get the current total_lines and size_bytes, check what changed, then retry.".into(),
            "请调用 read_file 获取最新的 total_lines 与 size_bytes，确认变化后重试。".into(),
        ),
        SuspiciousDiff { kind } if kind.is_editkit_format() => pick(
            lang,
            "To change the file, use the prepare_* tools or a SEARCH/REPLACE edit; to store this edit text literally, set content_format: \"block-diff\" (or \"diff\").".into(),
            "若要修改文件，请用 prepare_* 工具或 SEARCH/REPLACE 编辑；若确实要按字面保存这段编辑文本，请设置 content_format: \"block-diff\"（或 \"diff\"）。".into(),
        ),
        SuspiciousDiff { .. } => pick(
            lang,
            "To change the file, use the prepare_* tools; to store diff/patch text literally, set content_format: \"diff\" or \"patch\".".into(),
            "若要修改文件，请用 prepare_* 工具；若确实要按字面保存 diff/patch 文本，请设置 content_format: \"diff\" 或 \"patch\"。".into(),
        ),
        NotAFile => pick(lang, "Choose another path.".into(), "请换一个路径。".into()),
        FileExists => pick(
            lang,
            "To change it, use the prepare_* tools; to replace it entirely, call read_file for total_lines/size_bytes, then overwrite_entire_file.".into(),
            "若要修改它，请用 prepare_* 工具；若要整体替换，请先用 read_file 获取 total_lines/size_bytes，再调用 overwrite_entire_file。".into(),
        ),
    }
}

// ---- plan and apply summaries ------------------------------------------

/// What a plan does, in a few words (the summary's middle).
// One piece on purpose: one arm per kind of plan, both languages side by
// side, read as a table.
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

pub(crate) fn apply_summary(lang: Lang, r: &FileApplyResult) -> String {
    let (id, path, e) = (&r.hunk_id, &r.path, &r.evidence);
    let at = e.applied_at_line.unwrap_or(0);
    let (new, old) = r.lines.map_or((0, 0), |l| (l.new, l.old));
    let change = match r.action {
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
    };
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

// ---- file view -----------------------------------------------------------

pub fn view_summary(
    lang: Lang,
    path: &str,
    total: usize,
    bytes: usize,
    start: usize,
    end: usize,
) -> String {
    let name = if path.is_empty() { "file" } else { path };
    if start == 0 {
        return pick(
            lang,
            format!("{name}: {total} lines, {bytes} bytes; no line shown."),
            format!("{name}：共 {total} 行，{bytes} 字节；未显示任何行。"),
        );
    }
    pick(
        lang,
        format!("{name}: {total} lines, {bytes} bytes; showing lines {start}–{end}."),
        format!("{name}：共 {total} 行，{bytes} 字节；显示第 {start}–{end} 行。"),
    )
}

pub fn empty_file(lang: Lang) -> String {
    pick(lang, "<empty file>".into(), "<空文件>".into())
}

pub fn nothing_shown(lang: Lang) -> String {
    pick(
        lang,
        "<no line in this range>".into(),
        "<此范围内没有行>".into(),
    )
}

pub fn view_truncated(lang: Lang, next_range: &str) -> String {
    pick(
        lang,
        format!("Output truncated; read on with range \"{next_range}\"."),
        format!("输出已截断；可用 range \"{next_range}\" 继续读取。"),
    )
}

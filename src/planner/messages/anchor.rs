//! The anchors that place an insert or delimit a block: the anchor text
//! itself (empty, several lines, a bad regex), then what it matched (no
//! line, several, an occurrence out of range, nested blocks). Each refusal
//! is one function: its message, then its next step (empty when the
//! message says it all).

use super::super::types::AnchorMatch;
use super::{pick, Said};
use crate::lang::Lang;

// ---- the anchor text ----------------------------------------------------------

/// The anchor argument `name` is empty.
pub(super) fn anchor_empty(lang: Lang, name: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("`{name}` is empty; give one line of the file to anchor on."),
            format!("`{name}` 为空；请给出文件中用作锚点的一行文字。"),
        ),
        next: String::new(),
    }
}

/// The anchor argument `name` spans several lines.
pub(super) fn anchor_multiline(lang: Lang, name: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("`{name}` spans several lines; an anchor is one line. Use the most distinctive line, or prepare_file_range_edit."),
            format!("`{name}` 跨越多行；锚点只能是一行。请选用最有辨识度的一行，或改用 prepare_file_range_edit。"),
        ),
        next: String::new(),
    }
}

/// The anchor argument `name` is not a valid regex.
pub(super) fn invalid_regex(lang: Lang, name: &str, pattern: &str, error: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("`{name}` is not a valid regex ({pattern}): {error}"),
            format!("`{name}` 不是合法的正则表达式（{pattern}）：{error}"),
        ),
        next: pick(
            lang,
            "Fix the pattern (regex-lite syntax: no look-around, no backreferences, no Unicode classes such as \\p{L}), or use match: \"contains\" with plain text.".into(),
            "请修正正则（regex-lite 语法：不支持环视、反向引用与 \\p{L} 这类 Unicode 字符类），或改用 match: \"contains\" 与普通文本。".into(),
        ),
    }
}

// ---- what it matched ------------------------------------------------------------

/// No line matches the anchor argument `name`; `of_block` for the
/// start/end anchors of a block replace.
pub(super) fn anchor_not_found(
    lang: Lang,
    name: &str,
    anchor: &str,
    mode: AnchorMatch,
    of_block: bool,
) -> Said {
    let how = mode.as_str();
    Said {
        message: pick(
            lang,
            format!("No line matches `{name}` \"{anchor}\" (match: {how})."),
            format!("没有任何行匹配 `{name}` \"{anchor}\"（match: {how}）。"),
        ),
        next: if of_block {
            pick(
                lang,
                "Both anchors must match, the end anchor on a line after the start anchor. Read the file and copy them exactly, or use prepare_file_range_edit.".into(),
                "起止两个锚点都必须匹配，且结束锚点要在起始锚点之后。请查看文件并准确复制，或改用 prepare_file_range_edit。".into(),
            )
        } else {
            pick(
                lang,
                "Read the file (read_file) and copy an anchor line exactly, or use prepare_file_range_edit with line numbers."
                    .into(),
                "请先用 read_file 查看文件并准确复制锚点行，或改用按行号的 prepare_file_range_edit。".into(),
            )
        },
    }
}

/// The anchor matches `count` lines.
pub(super) fn anchor_ambiguous(lang: Lang, anchor: &str, count: usize) -> Said {
    Said {
        message: pick(
            lang,
            format!("The anchor \"{anchor}\" matches {count} lines; nothing was planned."),
            format!("锚点 \"{anchor}\" 匹配了 {count} 行；未生成规划。"),
        ),
        next: pick(
            lang,
            "Pass occurrence (1-based, or \"last\") to choose one of the candidate lines, use a more specific anchor (match: \"equals\"), or use prepare_file_range_edit.".into(),
            "请传 occurrence（从 1 开始，或 \"last\"）选定候选行之一，或换用更具体的锚点（match: \"equals\"），或改用 prepare_file_range_edit。".into(),
        ),
    }
}

/// The start/end anchors delimit `count` blocks.
pub(super) fn blocks_ambiguous(lang: Lang, count: usize) -> Said {
    Said {
        message: pick(
            lang,
            format!("The start/end anchors delimit {count} blocks; nothing was planned."),
            format!("起止锚点界定了 {count} 个块；未生成规划。"),
        ),
        next: pick(
            lang,
            "Pass occurrence (1-based, or \"last\") to choose one of the candidate blocks, use more specific anchors, or use prepare_file_range_edit.".into(),
            "请传 occurrence（从 1 开始，或 \"last\"）选定候选块之一，或换用更具体的锚点，或改用 prepare_file_range_edit。".into(),
        ),
    }
}

/// `occurrence` names none of the `count` candidates.
pub(super) fn occurrence_out_of_range(lang: Lang, occurrence: &str, count: usize) -> Said {
    Said {
        message: pick(
            lang,
            format!("occurrence {occurrence} is out of range: there are {count} candidates."),
            format!("occurrence {occurrence} 超出范围：只有 {count} 个候选。"),
        ),
        next: pick(
            lang,
            format!("Use an occurrence from 1 to {count}, or \"last\"."),
            format!("请使用 1 到 {count} 之间的 occurrence，或 \"last\"。"),
        ),
    }
}

/// The block at lines `start`–`end` holds another start anchor at line
/// `nested` (1-based).
pub(super) fn nested_anchors(lang: Lang, start: usize, end: usize, nested: usize) -> Said {
    Said {
        message: pick(
            lang,
            format!("The block at lines {start}–{end} contains another start anchor at line {nested} (nested anchors); nothing was planned."),
            format!("第 {start}–{end} 行的块内在第 {nested} 行又出现了起始锚点（锚点嵌套）；未生成规划。"),
        ),
        next: pick(
            lang,
            "Use anchors that do not repeat inside the block, or prepare_file_range_edit with the exact line range.".into(),
            "请选用在块内不会重复出现的锚点，或用 prepare_file_range_edit 指定确切的行范围。".into(),
        ),
    }
}

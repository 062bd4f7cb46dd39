//! The tool's arguments: the new text (missing, or a patch written as
//! content), an argument the planner checks itself, a line range. Each
//! refusal is one function: its message, then its next step (empty when
//! the message says it all).

use super::super::problem::{Expected, PatchKind, RangeProblem};
use super::super::types::PlanMode;
use super::{pick, Said};
use crate::lang::Lang;

/// The tool `mode` needs non-empty `newText`.
pub(super) fn content_required(lang: Lang, mode: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("{mode} needs non-empty new text."),
            format!("{mode} 需要非空的新内容。"),
        ),
        next: if mode == PlanMode::PrepareFileRangeEdit.as_str() {
            pick(
                lang,
                "An append needs text. To delete lines, give a range of existing lines and empty new text.".into(),
                "追加需要内容。若要删除行，请指定已有行的范围并让新内容为空。".into(),
            )
        } else {
            pick(
                lang,
                "Provide the text to write. To delete lines, use prepare_file_range_edit with empty new text.".into(),
                "请提供要写入的内容。若要删除行，请用 prepare_file_range_edit 并让新内容为空。".into(),
            )
        },
    }
}

/// The argument `name` is wrong: it should be what `expected` says.
pub(super) fn invalid_argument(lang: Lang, name: &str, expected: Expected) -> Said {
    let expected = match expected {
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
    };
    Said {
        message: crate::error::invalid_argument_message(lang, name, &expected),
        next: String::new(),
    }
}

/// The range text `input` is refused for `why`.
pub(super) fn invalid_range(lang: Lang, input: &str, why: RangeProblem) -> Said {
    let forms = "N, N~M, N~, ~N, ~";
    let message = match why {
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
    };
    Said {
        message,
        next: pick(
            lang,
            "Read the file (read_file) for its total_lines and line numbers, then give a range within them.".into(),
            "请先用 read_file 查看 total_lines 与行号，再给出范围内的行号。".into(),
        ),
    }
}

/// The new content looks like a patch of this `kind`.
pub(super) fn suspicious_diff(lang: Lang, kind: PatchKind) -> Said {
    let next = if kind.is_editkit_format() {
        pick(
            lang,
            "To change the file, use the prepare_* tools or a SEARCH/REPLACE edit; to store this edit text literally, set content_format: \"block-diff\" (or \"diff\").".into(),
            "若要修改文件，请用 prepare_* 工具或 SEARCH/REPLACE 编辑；若确实要按字面保存这段编辑文本，请设置 content_format: \"block-diff\"（或 \"diff\"）。".into(),
        )
    } else {
        pick(
            lang,
            "To change the file, use the prepare_* tools; to store diff/patch text literally, set content_format: \"diff\" or \"patch\".".into(),
            "若要修改文件，请用 prepare_* 工具；若确实要按字面保存 diff/patch 文本，请设置 content_format: \"diff\" 或 \"patch\"。".into(),
        )
    };
    let kind = kind.as_str();
    Said {
        message: pick(
            lang,
            format!("The new content looks like a diff/patch ({kind}) and content_format does not declare it; refusing to write it into the file."),
            format!("新内容看起来是 diff/patch（{kind}），且 content_format 未声明；拒绝把它写入文件。"),
        ),
        next,
    }
}

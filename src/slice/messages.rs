//! Every message the slice evaluator shows, in English and Chinese side
//! by side: the refusals rendered from a [`Problem`] by [`render`], the
//! other texts one function each. A leaf: it imports only `types`.
//!
//! The English texts of the two errors and of the empty result start with
//! the original plugin's exact wording (agents and tests that know those
//! strings keep working); the sentence after it says what to do next.

use super::types::{Problem, SyntaxProblem};
use crate::Lang;

/// The accepted forms, listed by every syntax error.
const ACCEPTED_EN: &str = "Accepted: idA:idB, id:+N, id:-N, a:b (Python indices, negatives allowed, either end may be empty), BEGIN:id, id:END, n (same as n:), or a single id.";
const ACCEPTED_ZH: &str = "可用写法：idA:idB、id:+N、id:-N、a:b（Python 索引，可为负数，两端均可省略）、BEGIN:id、id:END、n（等同 n:），或单个 ID。";

/// Words `problem` in `lang`. Only formats: the problem carries every
/// fact.
pub(crate) fn render(problem: &Problem<'_>, lang: Lang) -> String {
    match problem {
        Problem::InvalidSlice { slice, why } => invalid_slice(lang, slice, *why),
        Problem::AnchorNotFound { id } => anchor_not_found(lang, id),
    }
}

fn invalid_slice(lang: Lang, slice: &str, problem: SyntaxProblem<'_>) -> String {
    let reason = match (lang, problem) {
        (Lang::En, SyntaxProblem::TooManyParts) => "A slice has at most one ':'.".to_string(),
        (Lang::Zh, SyntaxProblem::TooManyParts) => "切片中最多只能有一个 ':'。".to_string(),
        (Lang::En, SyntaxProblem::UnknownPart(p)) => {
            format!("'{p}' is neither a block id, an integer, BEGIN nor END.")
        }
        (Lang::Zh, SyntaxProblem::UnknownPart(p)) => {
            format!("'{p}' 既不是块 ID、整数，也不是 BEGIN 或 END。")
        }
        (Lang::En, SyntaxProblem::MisplacedKeyword(p)) => {
            format!("'{p}' is misplaced: BEGIN may only start a range and END may only end it.")
        }
        (Lang::Zh, SyntaxProblem::MisplacedKeyword(p)) => {
            format!("'{p}' 位置错误：BEGIN 只能作为起点，END 只能作为终点。")
        }
        (Lang::En, SyntaxProblem::NotASingle(p)) => {
            format!("'{p}' alone selects nothing: a single part must be a block id or an integer.")
        }
        (Lang::Zh, SyntaxProblem::NotASingle(p)) => {
            format!("单独的 '{p}' 无法选择任何块：单个部分必须是块 ID 或整数。")
        }
    };
    match lang {
        Lang::En => format!(
            "Slice Syntax Error: Invalid format '{slice}'. Expected 'start:end' or 'id:+N'. {reason} {ACCEPTED_EN}"
        ),
        Lang::Zh => format!("切片语法错误：无效的格式 '{slice}'。应为 'start:end' 或 'id:+N'。{reason}{ACCEPTED_ZH}"),
    }
}

fn anchor_not_found(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!(
            "Slice Error: Anchor ID '{id}' not found in children list. Use an id from the current child list (read it with showId: true first), or an index range such as 0:20."
        ),
        Lang::Zh => format!(
            "切片错误：在子块列表中找不到锚点 ID '{id}'。请使用当前子块列表中的 ID（可先用 showId: true 读取），或改用索引范围，如 0:20。"
        ),
    }
}

/// The text shown when a slice selects nothing from a non-empty list
/// (seed 000 wording, without the parentheses the reading view adds).
pub fn empty_result(lang: Lang, total: usize) -> String {
    match lang {
        Lang::En => format!(
            "Slice result is empty. Original children count: {total}. Check your slice range."
        ),
        Lang::Zh => format!("切片结果为空。原始子块数量：{total}。请检查切片范围。"),
    }
}

/// The reading view's first line for a slice. It is the same in every
/// language: agents and tools recognise it as a marker, like `@@id@@`.
pub fn header(slice: &str, count: usize) -> String {
    format!("> [Slice View] Filter: \"{slice}\" | Count: {count}")
}

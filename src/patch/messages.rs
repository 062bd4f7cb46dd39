//! Every message of the patch capability, in English and Chinese: what
//! went wrong, where (file, hunk, patch line, file lines), and what to do
//! next. One function per message.

use super::problem::Problem;
use super::types::{FileOp, FileResult};
use crate::error::LineRange;
use crate::lang::Lang;

/// Which format a message is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Codex,
    Unified,
}

pub(super) fn problem(lang: Lang, p: &Problem) -> String {
    use Problem::*;
    let (en, zh) = match p {
        NoBegin => (
            "The text has no `*** Begin Patch` line.".to_string(),
            "文本中没有 `*** Begin Patch` 行。".to_string(),
        ),
        NoEnd { line } => (
            format!("Line {line}: `*** Begin Patch` is never closed by `*** End Patch`."),
            format!("第 {line} 行：`*** Begin Patch` 之后没有 `*** End Patch`。"),
        ),
        BadFileHeader { line, text } => (
            format!("Line {line}: `{text}` is not a file header; expected `*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: <path>`."),
            format!("第 {line} 行：`{text}` 不是文件头；应为 `*** Add File: <路径>`、`*** Delete File: <路径>` 或 `*** Update File: <路径>`。"),
        ),
        EmptyUpdate { line, path } => (
            format!("Line {line}: the section for `{path}` has no hunk."),
            format!("第 {line} 行：`{path}` 的段落中没有任何补丁块。"),
        ),
        BadHunkLine { line, text } => (
            format!("Line {line}: `{text}` is not a hunk line; every line of a hunk starts with a space (context), `-` (removed) or `+` (added), and every hunk after the first starts with `@@`."),
            format!("第 {line} 行：`{text}` 不是补丁块中的行；块中每行以空格（上下文）、`-`（删除）或 `+`（新增）开头，第一个之后的每个块都以 `@@` 开始。"),
        ),
        EmptyHunk { line } => (
            format!("Line {line}: this hunk has no lines."),
            format!("第 {line} 行：此补丁块没有任何行。"),
        ),
        EmptyPath { line } => (
            format!("Line {line}: the file header has no path."),
            format!("第 {line} 行：文件头缺少路径。"),
        ),
        SameFileTwice { line, first, path } => (
            format!("Line {line}: `{path}` is already changed by the section at line {first}; put every change of a file in one section."),
            format!("第 {line} 行：`{path}` 已在第 {first} 行的段落中修改；同一文件的所有修改请写在一个段落中。"),
        ),
        NoFileHeader => (
            "The text has no `--- <old path>` / `+++ <new path>` file header.".to_string(),
            "文本中没有 `--- <旧路径>` / `+++ <新路径>` 文件头。".to_string(),
        ),
        NoFiles => (
            "The patch names no file, so it changes nothing: add an `*** Add File:`, `*** Delete File:` or `*** Update File:` section (a `---`/`+++` file for a diff).".to_string(),
            "补丁没有指明任何文件，因此不会修改任何内容：请加入 `*** Add File:`、`*** Delete File:` 或 `*** Update File:` 段落（diff 则需要 `---`/`+++` 文件）。".to_string(),
        ),
        HunkOutsideFile { line } => (
            format!("Line {line}: a hunk before any `---` / `+++` file header."),
            format!("第 {line} 行：补丁块出现在任何 `---` / `+++` 文件头之前。"),
        ),
        BothDevNull { line } => (
            format!("Line {line}: both sides of the file header are `/dev/null`."),
            format!("第 {line} 行：文件头两侧都是 `/dev/null`。"),
        ),
        AddWithOldLines { line } => (
            format!("Line {line}: a new file (`--- /dev/null`) has context or removed lines; its hunk holds only `+` lines."),
            format!("第 {line} 行：新文件（`--- /dev/null`）的补丁块含有上下文或删除行；它只能包含 `+` 行。"),
        ),
        CountMismatch { line, header, body } => match body {
            Some((o, n)) => (
                format!("Line {line}: the hunk header counts {} old and {} new lines, but its body has {o} old and {n} new lines.", header.0, header.1),
                format!("第 {line} 行：块头声明 {} 行旧内容、{} 行新内容，但块体实际有 {o} 行旧内容、{n} 行新内容。", header.0, header.1),
            ),
            None => (
                format!("Line {line}: the hunk header counts {} old and {} new lines, but its body goes on after them.", header.0, header.1),
                format!("第 {line} 行：块头声明 {} 行旧内容、{} 行新内容，但块体在此之后仍在继续。", header.0, header.1),
            ),
        },
    };
    lang.pick(en, zh)
}

pub(super) fn invalid(lang: Lang, format: Format, problems: &[String]) -> String {
    let list = problems.join("\n");
    match (lang, format) {
        (Lang::En, Format::Codex) => {
            format!("The patch is malformed; nothing was applied.\n{list}")
        }
        (Lang::En, Format::Unified) => {
            format!("The diff is malformed; nothing was applied.\n{list}")
        }
        (Lang::Zh, Format::Codex) => format!("补丁格式错误，未应用任何修改。\n{list}"),
        (Lang::Zh, Format::Unified) => format!("diff 格式错误，未应用任何修改。\n{list}"),
    }
}

pub(super) fn format_advice(lang: Lang, format: Format) -> Vec<String> {
    let (en, zh): (&[&str], &[&str]) = match format {
        Format::Codex => (
            &[
                "Wrap the patch in `*** Begin Patch` … `*** End Patch`; start each file with `*** Add File: <path>`, `*** Delete File: <path>` or `*** Update File: <path>`.",
                "In an update, start each hunk with `@@` (optionally `@@ <a line above the change>`), then lines starting with a space (unchanged), `-` (removed) or `+` (added).",
            ],
            &[
                "用 `*** Begin Patch` … `*** End Patch` 包裹补丁；每个文件以 `*** Add File: <路径>`、`*** Delete File: <路径>` 或 `*** Update File: <路径>` 开始。",
                "更新文件时，每个补丁块以 `@@`（可写成 `@@ <修改处上方的一行>`）开始，之后每行以空格（不变）、`-`（删除）或 `+`（新增）开头。",
            ],
        ),
        Format::Unified => (
            &[
                "Start each file with `--- a/<path>` and `+++ b/<path>` (`/dev/null` for a new or deleted file), then hunks `@@ -l,s +l,s @@`.",
                "Make the counts in each `@@` header match the hunk's lines, or write a bare `@@` line and let the context place the hunk.",
            ],
            &[
                "每个文件以 `--- a/<路径>` 和 `+++ b/<路径>` 开始（新建或删除的文件用 `/dev/null`），之后是 `@@ -l,s +l,s @@` 补丁块。",
                "让每个 `@@` 块头中的行数与块内行数一致，或只写 `@@`，由上下文定位补丁块。",
            ],
        ),
    };
    lang.pick(en, zh).iter().map(|s| s.to_string()).collect()
}

pub(super) fn hunk_advice(lang: Lang) -> Vec<String> {
    match lang {
        Lang::En => vec![
            "Read the file again and copy the hunk's context and removed lines from it exactly.".to_string(),
            "Give each hunk three unchanged lines before and after the change, so they match one place only; hunks of one file go in file order.".to_string(),
        ],
        Lang::Zh => vec![
            "请重新读取文件，并从中原样复制补丁块的上下文行和删除行。".to_string(),
            "每个补丁块在修改前后各带三行不变的内容，使其只匹配一处；同一文件的补丁块按文件顺序排列。".to_string(),
        ],
    }
}

fn lines_list(lang: Lang, lines: &[u32]) -> String {
    let shown: Vec<String> = lines.iter().take(20).map(u32::to_string).collect();
    shown.join(lang.pick(", ", "、"))
}

fn ranges(lang: Lang, places: &[LineRange]) -> String {
    let shown: Vec<String> = places
        .iter()
        .take(20)
        .map(|p| match (lang, p.start_line == p.end_line) {
            (Lang::En, true) => format!("line {}", p.start_line),
            (Lang::En, false) => format!("lines {}–{}", p.start_line, p.end_line),
            (Lang::Zh, true) => format!("第 {} 行", p.start_line),
            (Lang::Zh, false) => format!("第 {}–{} 行", p.start_line, p.end_line),
        })
        .collect();
    shown.join(lang.pick(", ", "、"))
}

pub(super) fn anchor_not_found(
    lang: Lang,
    anchor: &str,
    from: u32,
    earlier: Option<u32>,
) -> String {
    match (lang, earlier) {
        (Lang::En, None) => format!("Its `@@ {anchor}` line is not in the file (searched from line {from})."),
        (Lang::En, Some(at)) => format!("Its `@@ {anchor}` line is only at line {at}, before line {from} where this hunk may start (after the previous hunk or anchor): hunks of a file go in file order."),
        (Lang::Zh, None) => format!("它的 `@@ {anchor}` 行不在文件中（从第 {from} 行起查找）。"),
        (Lang::Zh, Some(at)) => format!("它的 `@@ {anchor}` 行只出现在第 {at} 行，早于此块可开始的第 {from} 行（上一个块或锚点之后）：同一文件的补丁块须按文件顺序排列。"),
    }
}

/// A hunk without context lines whose lines are not at its line number.
pub(super) fn not_at_its_line(lang: Lang, line: u32, n: usize, found: Option<&str>) -> String {
    match (lang, n, found) {
        (Lang::En, 0, _) => format!("This hunk has no context lines and inserts after line {line}, which the file does not have (after the offset of the hunks before it); with no context it goes at its line or nowhere."),
        (Lang::Zh, 0, _) => format!("此补丁块没有上下文行，要插入到第 {line} 行之后，但文件没有这一行（已计入前面补丁块的偏移）；没有上下文的补丁块只能放在它的行号处。"),
        (Lang::En, _, Some(text)) => format!("This hunk has no context lines, and the file's line {line} (after the offset of the hunks before it) is `{text}`, not its first removed line; with no context it goes at its line or nowhere."),
        (Lang::Zh, _, Some(text)) => format!("此补丁块没有上下文行，而文件第 {line} 行（已计入前面补丁块的偏移）是 `{text}`，不是它删除的第一行；没有上下文的补丁块只能放在它的行号处。"),
        (Lang::En, _, None) => format!("This hunk has no context lines and its {n} line(s) at line {line} (after the offset of the hunks before it) are past the end of the file or before the previous hunk; with no context it goes at its line or nowhere."),
        (Lang::Zh, _, None) => format!("此补丁块没有上下文行，它在第 {line} 行（已计入前面补丁块的偏移）的 {n} 行超出文件末尾或位于上一个补丁块之前；没有上下文的补丁块只能放在它的行号处。"),
    }
}

pub(super) fn found_before(lang: Lang, at: &[u32], from: u32, anchor: Option<u32>) -> String {
    let list = lines_list(lang, at);
    match (lang, anchor) {
        (Lang::En, Some(a)) => format!("Its lines are only at line {list}, before its `@@` line (line {a}); the hunk must come after its anchor."),
        (Lang::En, None) => format!("Its lines are only at line {list}, before line {from} where this hunk may start (after the previous hunk): hunks of a file go in file order."),
        (Lang::Zh, Some(a)) => format!("它的行只出现在第 {list} 行，早于它的 `@@` 行（第 {a} 行）；补丁块必须位于锚点之后。"),
        (Lang::Zh, None) => format!("它的行只出现在第 {list} 行，早于此块可开始的第 {from} 行（上一个块之后）：同一文件的补丁块须按文件顺序排列。"),
    }
}

pub(super) fn not_at_end(lang: Lang, at: &[u32]) -> String {
    let list = lines_list(lang, at);
    match lang {
        Lang::En => format!(
            "It is marked `*** End of File`, but its lines (at line {list}) do not end the file."
        ),
        Lang::Zh => format!("它标记了 `*** End of File`，但它的行（第 {list} 行）并不在文件末尾。"),
    }
}

pub(super) fn inside_lines(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => format!("Its lines occur only inside longer lines ({n} place(s)); a hunk's lines are whole lines of the file."),
        Lang::Zh => format!("它的行只作为更长行的一部分出现（{n} 处）；补丁块的行必须是文件中的整行。"),
    }
}

pub(super) fn ambiguous(
    lang: Lang,
    places: &[LineRange],
    hint: Option<u32>,
    anchored: bool,
) -> String {
    let list = ranges(lang, places);
    let n = places.len();
    let why = match (lang, hint, anchored) {
        (Lang::En, Some(h), _) => format!(
            " The line number {h} in its header does not choose one: two are equally near it."
        ),
        (Lang::En, None, true) => {
            " Its `@@` line does not choose one: they all follow it.".to_string()
        }
        (Lang::En, None, false) => String::new(),
        (Lang::Zh, Some(h), _) => format!("块头中的行号 {h} 无法选定：有两处与它距离相同。"),
        (Lang::Zh, None, true) => "它的 `@@` 行无法选定：这些位置都在它之后。".to_string(),
        (Lang::Zh, None, false) => String::new(),
    };
    match lang {
        Lang::En => format!("Its lines match {n} places: {list}.{why} Add unchanged lines around the change (or an `@@` line naming the function or section) so it matches one place only."),
        Lang::Zh => format!("它的行匹配到 {n} 处：{list}。{why}请在修改处前后加入不变的行（或用 `@@` 行写出所在的函数或小节），使其只匹配一处。"),
    }
}

pub(super) fn placed_but(lang: Lang, first: u32, last: u32, message: &str) -> String {
    match lang {
        Lang::En => format!("Lines {first}–{last} of the file match it, but: {message}"),
        Lang::Zh => format!("文件第 {first}–{last} 行与它匹配，但：{message}"),
    }
}

pub(super) fn without_context(lang: Lang, anchored: bool) -> String {
    match (lang, anchored) {
        (Lang::En, true) => "It has an `@@` line but no context or removed lines, so nothing says where after that line the added lines go. Repeat the unchanged lines around the insertion point as context (lines starting with a space).".to_string(),
        (Lang::En, false) => "It has no context or removed lines, so nothing says where its added lines go (a line number alone is not enough). Repeat the unchanged lines around the insertion point as context.".to_string(),
        (Lang::Zh, true) => "它有 `@@` 行，但没有上下文行或删除行，无法确定新增内容放在该行之后的哪里。请把插入点前后不变的行作为上下文（以空格开头的行）写出。".to_string(),
        (Lang::Zh, false) => "它没有上下文行或删除行，无法确定新增内容放在哪里（仅凭行号不够）。请把插入点前后不变的行作为上下文写出。".to_string(),
    }
}

pub(super) fn blank_context(lang: Lang) -> String {
    lang.pick(
        "Its context and removed lines are all blank, and blank lines say nothing about where it goes. Include a non-blank unchanged line next to the change as context.",
        "它的上下文行和删除行全是空行，空行无法确定它的位置。请把修改处旁边一行不变的非空内容作为上下文写出。",
    )
    .to_string()
}

pub(super) fn add_exists(lang: Lang, path: &str) -> String {
    match lang {
        Lang::En => format!("`{path}` already exists, and adding it would replace its text. To change it, update it with hunks; to replace it entirely, delete it in one patch and add it in the next."),
        Lang::Zh => format!("`{path}` 已存在，新增会覆盖其全部内容。如需修改，请用补丁块更新它；如需整体替换，请先在一个补丁中删除，再在下一个补丁中新增。"),
    }
}

pub(super) fn move_exists(lang: Lang, to: &str) -> String {
    match lang {
        Lang::En => format!("The rename target `{to}` already exists; renaming onto it would replace its text. Choose another name, or delete it first."),
        Lang::Zh => format!("重命名的目标 `{to}` 已存在，重命名会覆盖其内容。请换一个名称，或先删除它。"),
    }
}

pub(super) fn missing(lang: Lang, path: &str, op: FileOp) -> String {
    let (en, zh) = match op {
        FileOp::Delete => ("delete", "删除"),
        _ => ("update", "更新"),
    };
    match lang {
        Lang::En => format!("`{path}` does not exist, so there is nothing to {en}. Check the path; to create the file, add it (`*** Add File:` or `--- /dev/null`)."),
        Lang::Zh => format!("`{path}` 不存在，无法{zh}。请检查路径；如需创建文件，请新增它（`*** Add File:` 或 `--- /dev/null`）。"),
    }
}

pub(super) fn delete_mismatch(lang: Lang, path: &str) -> String {
    match lang {
        Lang::En => format!("The diff deletes `{path}` but its removed lines are not the file's text; the file was not deleted. Read the file again, or delete it with a diff of its current text."),
        Lang::Zh => format!("diff 要删除 `{path}`，但其删除行与文件内容不符；文件未被删除。请重新读取文件，或用其当前内容生成删除 diff。"),
    }
}

pub(super) fn hunk_failed(lang: Lang, path: &str, index: u32, line: u32, message: &str) -> String {
    match lang {
        Lang::En => format!("{path}, hunk {index} (patch line {line}): {message}"),
        Lang::Zh => format!("{path}，第 {index} 个补丁块（补丁第 {line} 行）：{message}"),
    }
}

/// `A path`, `M path`, `D path`, `R old → new`: one line per file.
fn file_line(r: &FileResult) -> String {
    match (r.op, &r.move_to) {
        (FileOp::Add, _) => format!("A {}", r.path),
        (FileOp::Delete, _) => format!("D {}", r.path),
        (FileOp::Update, Some(to)) => format!("R {} → {to}", r.path),
        (FileOp::Update, None) => format!("M {}", r.path),
    }
}

/// A unified-diff file section with headers and no hunk.
pub(super) fn no_hunks(lang: Lang, path: &str, line: u32) -> String {
    match lang {
        Lang::En => format!("Note: the section for `{path}` (line {line}) has headers and no hunk, so there was nothing to apply to it."),
        Lang::Zh => format!("注意：`{path}` 的段落（第 {line} 行）只有文件头、没有补丁块，因此对它无事可做。"),
    }
}

pub(super) fn summary(lang: Lang, files: &[FileResult], atomic: bool) -> String {
    let n = files.len();
    let written: Vec<String> = files.iter().filter(|r| r.write).map(file_line).collect();
    let errors: Vec<String> = files
        .iter()
        .flat_map(|r| {
            let hunk_errors: Vec<String> = r
                .hunks
                .iter()
                .filter_map(|h| h.error.as_ref().map(|e| e.message.clone()))
                .collect();
            if hunk_errors.is_empty() {
                r.error
                    .iter()
                    .map(|e| format!("{}: {}", r.path, e.message))
                    .collect()
            } else {
                hunk_errors
            }
        })
        .collect();
    let failed = files.iter().filter(|r| !r.ok).count();
    if n == 0 {
        return lang
            .pick(
                "The patch changes no file; nothing was written.",
                "补丁没有修改任何文件；未写入任何内容。",
            )
            .to_string();
    }
    let list = written.join("\n");
    let errs = errors.join("\n\n");
    match (lang, failed, atomic) {
        (Lang::En, 0, _) => format!("Applied the patch to {n} file(s):\n{list}"),
        (Lang::Zh, 0, _) => format!("补丁已应用到 {n} 个文件：\n{list}"),
        (Lang::En, f, true) => format!("Nothing was written: {f} of {n} file(s) failed, and the patch applies all or nothing.\n\n{errs}"),
        (Lang::Zh, f, true) => format!("未写入任何内容：{n} 个文件中有 {f} 个失败，补丁要么全部应用，要么都不应用。\n\n{errs}"),
        (Lang::En, f, false) => format!("Applied {} of {n} file(s); {f} failed.\n{list}\n\n{errs}", n - f),
        (Lang::Zh, f, false) => format!("已应用 {n} 个文件中的 {} 个；{f} 个失败。\n{list}\n\n{errs}", n - f),
    }
}

/// Two places fit a hunk within its fuzz factor.
pub(super) fn fuzz_ambiguous(lang: Lang, lines: &[u32]) -> String {
    let list = lines_list(lang, lines);
    match lang {
        Lang::En => format!("The hunk's lines are nowhere as they are, and with its context lines allowed to differ (fuzzFactor) it fits more than one place (starting at lines {list}), so it could go at either. Nothing was changed. Add context lines that tell the places apart, or lower fuzzFactor."),
        Lang::Zh => format!("补丁块的行在文件中没有原样出现；允许其上下文行有差异（fuzzFactor）时，它能放在不止一处（分别从第 {list} 行开始），无法确定位置。未做任何修改。请加入能区分这些位置的上下文行，或调低 fuzzFactor。"),
    }
}

/// The next step after a fuzz tie.
pub(super) fn fuzz_advice(lang: Lang) -> String {
    lang.pick(
        "Give the hunk the file's current lines as context (read the file first), or pass a lower fuzzFactor.",
        "让补丁块的上下文行与文件当前内容一致（先读取文件），或传入更小的 fuzzFactor。",
    )
    .to_string()
}

//! The diff's format, as the parser reads it: the SEARCH / ======= /
//! REPLACE markers, the hunk headers and what a hunk must hold. Line
//! numbers are the diff's. Each refusal is one function: its message,
//! then two or three concrete fixes.

use super::{suggestions, Said};
use crate::siyuan::BLOCK_ID_EXAMPLE;
use crate::{Error, Lang};

/// The fix that applies whenever block content itself contains a marker.
const USE_REPLACE_COMMAND: (&str, &str) = (
    "If the block's own content contains a marker line (<<<<<<< SEARCH, =======, >>>>>>> REPLACE), rewrite the whole block with @@REPLACE:<id>@@ followed by the new content: its body is never marker-parsed.",
    "如果块内容本身包含标记行（<<<<<<< SEARCH、=======、>>>>>>> REPLACE），请改用 @@REPLACE:<块ID>@@ 加新内容整体替换：该指令的正文不做标记解析。",
);

// ---- the whole diff ---------------------------------------------------------

/// The diff has no hunk.
pub(super) fn empty_diff(lang: Lang) -> Said {
    Said {
        message: lang
            .pick(
                "The diff contains no hunk. Start each edit with a header line such as @@<block id>@@ followed by a SEARCH/REPLACE block, or @@REPLACE:<id>@@ / @@DELETE:<id>@@ / @@AFTER:<id>@@.",
                "diff 中没有任何 hunk。每个编辑须以头部行开始，例如 @@<块ID>@@ 后跟 SEARCH/REPLACE 块，或 @@REPLACE:<ID>@@ / @@DELETE:<ID>@@ / @@AFTER:<ID>@@。",
            )
            .to_string(),
        steps: suggestions(
            lang,
            &[
                (
                    "Read the block first with getBlockContent (showId: true) and copy its @@id@@ header.",
                    "先用 getBlockContent（showId: true）读取块，复制其 @@id@@ 头部行。",
                ),
                (
                    "Put the header on a line of its own; markers must be whole lines too.",
                    "头部行必须独占一行；标记行也必须独占一行。",
                ),
            ],
        ),
    }
}

/// Every format problem of the diff, each already worded (the next steps
/// are each problem's own).
pub(super) fn invalid_format(lang: Lang, errors: &[Error]) -> Said {
    let n = errors.len();
    let mut message = match lang {
        Lang::En => format!("The diff has {n} format problem(s); nothing was checked or written."),
        Lang::Zh => format!("diff 有 {n} 处格式问题；未做任何校验或写入。"),
    };
    for e in errors {
        message.push_str("\n- ");
        message.push_str(&e.message);
    }
    Said {
        message,
        steps: Vec::new(),
    }
}

// ---- markers ----------------------------------------------------------------

/// A SEARCH marker before any header.
pub(super) fn search_without_block_id(lang: Lang, line: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: a <<<<<<< SEARCH block appears before any @@<block id>@@ header, so editkit does not know which block it edits."),
            Lang::Zh => format!("第 {line} 行：<<<<<<< SEARCH 块出现在任何 @@<块ID>@@ 头部之前，无法确定要编辑哪个块。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Add the block's header line (e.g. @@20260108164554-m5ar6vb@@) directly above the SEARCH marker.", "在 SEARCH 标记正上方加上块的头部行（如 @@20260108164554-m5ar6vb@@）。"),
                ("Copy the header exactly as getBlockContent (showId: true) prints it.", "按 getBlockContent（showId: true）输出的样子原样复制头部行。"),
                USE_REPLACE_COMMAND,
            ],
        ),
    }
}

/// A SEARCH marker inside an open SEARCH/REPLACE block.
pub(super) fn nested_search(lang: Lang, line: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: a <<<<<<< SEARCH marker appears inside a SEARCH/REPLACE block that is still open."),
            Lang::Zh => format!("第 {line} 行：在尚未关闭的 SEARCH/REPLACE 块内又出现了 <<<<<<< SEARCH 标记。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Close the previous block with >>>>>>> REPLACE before starting the next SEARCH.", "在开始下一个 SEARCH 之前，用 >>>>>>> REPLACE 关闭上一个块。"),
                USE_REPLACE_COMMAND,
            ],
        ),
    }
}

/// A divider outside a block, or a second one (`extra_in_replace`).
pub(super) fn misplaced_delimiter(lang: Lang, line: u32, extra_in_replace: bool) -> Said {
    Said {
        message: match (lang, extra_in_replace) {
            (Lang::En, true) => format!("Line {line}: a second ======= divider inside one SEARCH/REPLACE block (the REPLACE part already started)."),
            (Lang::Zh, true) => format!("第 {line} 行：同一个 SEARCH/REPLACE 块中出现了第二个 ======= 分隔符（REPLACE 部分已经开始）。"),
            (Lang::En, false) => format!("Line {line}: a ======= divider outside any SEARCH/REPLACE block."),
            (Lang::Zh, false) => format!("第 {line} 行：======= 分隔符出现在 SEARCH/REPLACE 块之外。"),
        },
        steps: suggestions(
            lang,
            &[
                (
                    "Use exactly one ======= line between <<<<<<< SEARCH and >>>>>>> REPLACE.",
                    "在 <<<<<<< SEARCH 与 >>>>>>> REPLACE 之间只保留一行 =======。",
                ),
                ("Remove the stray divider line.", "删除多余的分隔符行。"),
                USE_REPLACE_COMMAND,
            ],
        ),
    }
}

/// A REPLACE marker closes a block without a divider.
pub(super) fn missing_delimiter(lang: Lang, line: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: >>>>>>> REPLACE closes a block that has no ======= divider between its SEARCH and REPLACE parts."),
            Lang::Zh => format!("第 {line} 行：>>>>>>> REPLACE 关闭的块中缺少分隔 SEARCH 与 REPLACE 的 ======= 行。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Insert a line with exactly ======= between the old text and the new text.", "在旧内容与新内容之间插入一行 =======。"),
                ("Write the divider as 7 '=' characters alone on its line.", "分隔符应为独占一行的 7 个 '='。"),
            ],
        ),
    }
}

/// A REPLACE marker without a SEARCH.
pub(super) fn unmatched_replace(lang: Lang, line: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: >>>>>>> REPLACE without a preceding <<<<<<< SEARCH."),
            Lang::Zh => format!("第 {line} 行：>>>>>>> REPLACE 之前没有对应的 <<<<<<< SEARCH。"),
        },
        steps: suggestions(
            lang,
            &[
                (
                    "Add the missing <<<<<<< SEARCH line and the old content above the divider.",
                    "补上缺失的 <<<<<<< SEARCH 行以及分隔符之上的旧内容。",
                ),
                (
                    "Remove the stray >>>>>>> REPLACE line.",
                    "删除多余的 >>>>>>> REPLACE 行。",
                ),
                USE_REPLACE_COMMAND,
            ],
        ),
    }
}

/// A SEARCH block never closed.
pub(super) fn unclosed_search(lang: Lang, line: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: this <<<<<<< SEARCH block is never closed with >>>>>>> REPLACE before the next hunk or the end of the diff."),
            Lang::Zh => format!("第 {line} 行：该 <<<<<<< SEARCH 块在下一个 hunk 或 diff 结束前没有用 >>>>>>> REPLACE 关闭。"),
        },
        steps: suggestions(
            lang,
            &[
                ("End the block with a line >>>>>>> REPLACE after the new content.", "在新内容之后加一行 >>>>>>> REPLACE 结束该块。"),
                ("Check that the block has exactly one ======= divider.", "确认该块中恰好有一行 ======= 分隔符。"),
                USE_REPLACE_COMMAND,
            ],
        ),
    }
}

// ---- headers ----------------------------------------------------------------

/// A header names `id`, which is not a block id.
pub(super) fn invalid_block_id(lang: Lang, line: u32, id: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: \"{id}\" is not a block id. Ids look like {BLOCK_ID_EXAMPLE}: 14 digits, a dash, 7 lowercase letters or digits."),
            Lang::Zh => format!("第 {line} 行：\"{id}\" 不是有效的块 ID。块 ID 形如 {BLOCK_ID_EXAMPLE}：14 位数字、短横线、7 位小写字母或数字。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Copy the id exactly from getBlockContent (showId: true) or getBlockInfo; do not change its case.", "从 getBlockContent（showId: true）或 getBlockInfo 原样复制 ID，不要改变大小写。"),
                ("Header forms: @@<id>@@ or @@REPLACE|DELETE|BEFORE|AFTER|PREPEND|APPEND:<id>@@.", "头部格式：@@<ID>@@ 或 @@REPLACE|DELETE|BEFORE|AFTER|PREPEND|APPEND:<ID>@@。"),
            ],
        ),
    }
}

/// A header with the unknown command `word`.
pub(super) fn unknown_command(lang: Lang, line: u32, word: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: unknown command \"{word}\". Commands are REPLACE, DELETE, BEFORE, AFTER, PREPEND and APPEND."),
            Lang::Zh => format!("第 {line} 行：未知指令 \"{word}\"。可用指令为 REPLACE、DELETE、BEFORE、AFTER、PREPEND、APPEND。"),
        },
        steps: suggestions(
            lang,
            &[
                ("To edit part of a block, use @@<id>@@ with a SEARCH/REPLACE block.", "要修改块的一部分，请用 @@<ID>@@ 加 SEARCH/REPLACE 块。"),
                ("To insert, use @@BEFORE:<id>@@ / @@AFTER:<id>@@ (siblings) or @@PREPEND:<id>@@ / @@APPEND:<id>@@ (children).", "要插入，请用 @@BEFORE:<ID>@@ / @@AFTER:<ID>@@（同级）或 @@PREPEND:<ID>@@ / @@APPEND:<ID>@@（子块）。"),
            ],
        ),
    }
}

/// A line that looks like a header and is not one; `fix` is the header it
/// was probably meant to be.
pub(super) fn malformed_header(lang: Lang, line: u32, text: &str, fix: Option<&str>) -> Said {
    let shown: String = text.chars().take(80).collect();
    let message = match lang {
        Lang::En => format!("Line {line} looks like a hunk header but is not one: `{shown}`. It is neither read as a header nor written as text."),
        Lang::Zh => format!("第 {line} 行看起来像 hunk 头但格式不对：`{shown}`。它既不会被当作 hunk 头，也不会作为文本写入。"),
    };
    let mut steps: Vec<String> = Vec::new();
    if let Some(fix) = fix {
        steps.push(match lang {
            Lang::En => format!("Write the header as `{fix}`, alone on its line."),
            Lang::Zh => format!("把 hunk 头写成 `{fix}`，并单独占一行。"),
        });
    }
    steps.extend(suggestions(
        lang,
        &[
            ("A header is a whole line: `@@<id>@@` or `@@COMMAND:<id>@@` (REPLACE, DELETE, BEFORE, AFTER, PREPEND, APPEND), closing `@@` included, nothing after it but an optional type label.", "hunk 头必须独占一行：`@@<ID>@@` 或 `@@命令:<ID>@@`（REPLACE、DELETE、BEFORE、AFTER、PREPEND、APPEND），包括结尾的 `@@`，其后只能跟可选的类型标签。"),
            ("If the text is meant for the note, rephrase it so the line does not start with `@@`.", "如果这行是要写入笔记的文字，请改写，使该行不以 `@@` 开头。"),
        ],
    ));
    Said { message, steps }
}

// ---- hunk bodies ------------------------------------------------------------

/// An insert command with no content.
pub(super) fn empty_insert(lang: Lang, line: u32, command: &str, id: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: @@{command}:{id}@@ has no content below it."),
            Lang::Zh => format!("第 {line} 行：@@{command}:{id}@@ 下方没有内容。"),
        },
        steps: suggestions(
            lang,
            &[
                (
                    "Put the markdown to write on the lines after the header.",
                    "在头部行之后写出要写入的 markdown。",
                ),
                (
                    "To remove the block instead, use @@DELETE:<id>@@.",
                    "如果是要删除该块，请使用 @@DELETE:<ID>@@。",
                ),
            ],
        ),
    }
}

/// An empty SEARCH part.
pub(super) fn empty_search(lang: Lang, line: u32, id: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: the SEARCH part for block {id} is empty, so there is nothing to locate."),
            Lang::Zh => format!("第 {line} 行：块 {id} 的 SEARCH 部分为空，无法定位要修改的内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Copy the block's current markdown (getBlockContent, showId: true) into SEARCH.", "把块当前的 markdown（getBlockContent，showId: true）复制到 SEARCH 中。"),
                ("To rewrite the whole block without a check, use @@REPLACE:<id>@@.", "要不经校验整体重写该块，请使用 @@REPLACE:<ID>@@。"),
                ("To add content next to it, use @@AFTER:<id>@@ or @@APPEND:<id>@@.", "要在旁边添加内容，请使用 @@AFTER:<ID>@@ 或 @@APPEND:<ID>@@。"),
            ],
        ),
    }
}

/// A `@@id@@` hunk with no SEARCH/REPLACE block.
pub(super) fn missing_search(lang: Lang, line: u32, id: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Line {line}: hunk @@{id}@@ has no <<<<<<< SEARCH / ======= / >>>>>>> REPLACE block."),
            Lang::Zh => format!("第 {line} 行：hunk @@{id}@@ 下没有 <<<<<<< SEARCH / ======= / >>>>>>> REPLACE 块。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Add a SEARCH/REPLACE block: the block's current text, a ======= line, then the new text.", "补上 SEARCH/REPLACE 块：块的当前内容、一行 =======、然后是新内容。"),
                ("To replace the whole block with the text you wrote, use @@REPLACE:<id>@@ as the header.", "如果要用你写的内容整体替换该块，请把头部改为 @@REPLACE:<ID>@@。"),
            ],
        ),
    }
}

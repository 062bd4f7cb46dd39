//! Every message the block-diff engine shows, in English and Chinese side
//! by side: the refusals rendered from a [`Problem`] by [`render`] (with
//! their next steps, [`next_steps`]; format errors carry two or three
//! concrete fixes), the warnings and summaries one function each. A leaf:
//! it imports only `types`.

use super::types::{EditAt, EditResult, EditStatus, Mismatch, Problem, RollbackReport};
use crate::siyuan::BLOCK_ID_EXAMPLE;
use crate::Lang;

fn suggestions(lang: Lang, items: &[(&str, &str)]) -> Vec<String> {
    items
        .iter()
        .map(|(en, zh)| lang.pick(*en, *zh).to_string())
        .collect()
}

/// The fix that applies whenever block content itself contains a marker.
const USE_REPLACE_COMMAND: (&str, &str) = (
    "If the block's own content contains a marker line (<<<<<<< SEARCH, =======, >>>>>>> REPLACE), rewrite the whole block with @@REPLACE:<id>@@ followed by the new content: its body is never marker-parsed.",
    "如果块内容本身包含标记行（<<<<<<< SEARCH、=======、>>>>>>> REPLACE），请改用 @@REPLACE:<块ID>@@ 加新内容整体替换：该指令的正文不做标记解析。",
);

pub fn marker_in_body(lang: Lang, line: u32) -> String {
    match lang {
        Lang::En => format!("Line {line}: a marker line inside a command body is kept as text."),
        Lang::Zh => format!("第 {line} 行：指令正文中的标记行按普通文本保留。"),
    }
}

pub fn delete_body_ignored(lang: Lang, line: u32) -> String {
    match lang {
        Lang::En => {
            format!("Line {line}: text after @@DELETE:…@@ is ignored (DELETE takes no content).")
        }
        Lang::Zh => format!("第 {line} 行：@@DELETE:…@@ 之后的文本被忽略（DELETE 不需要内容）。"),
    }
}

pub fn text_outside_hunk(lang: Lang, line: u32) -> String {
    match lang {
        Lang::En => format!("Line {line}: text before the first hunk header is ignored."),
        Lang::Zh => format!("第 {line} 行：第一个 hunk 头部之前的文本已忽略。"),
    }
}

pub fn text_between_pairs(lang: Lang, line: u32) -> String {
    match lang {
        Lang::En => {
            format!("Line {line}: text outside the SEARCH/REPLACE blocks of this hunk is ignored.")
        }
        Lang::Zh => format!("第 {line} 行：该 hunk 中 SEARCH/REPLACE 块之外的文本已忽略。"),
    }
}

/// Words `problem` in `lang`. Only formats: the problem carries every
/// fact.
pub(crate) fn render(problem: &Problem, lang: Lang) -> String {
    message(problem, lang)
}

// One piece on purpose: one arm per problem, both languages side by side,
// read as a table.
fn message(problem: &Problem, lang: Lang) -> String {
    match problem {
        Problem::EmptyDiff => lang.pick(
        "The diff contains no hunk. Start each edit with a header line such as @@<block id>@@ followed by a SEARCH/REPLACE block, or @@REPLACE:<id>@@ / @@DELETE:<id>@@ / @@AFTER:<id>@@.",
        "diff 中没有任何 hunk。每个编辑须以头部行开始，例如 @@<块ID>@@ 后跟 SEARCH/REPLACE 块，或 @@REPLACE:<ID>@@ / @@DELETE:<ID>@@ / @@AFTER:<ID>@@。",
    ).to_string(),
        Problem::SearchWithoutBlockId { line } => match lang {
        Lang::En => format!("Line {line}: a <<<<<<< SEARCH block appears before any @@<block id>@@ header, so editkit does not know which block it edits."),
        Lang::Zh => format!("第 {line} 行：<<<<<<< SEARCH 块出现在任何 @@<块ID>@@ 头部之前，无法确定要编辑哪个块。"),
    },
        Problem::NestedSearch { line } => match lang {
        Lang::En => format!("Line {line}: a <<<<<<< SEARCH marker appears inside a SEARCH/REPLACE block that is still open."),
        Lang::Zh => format!("第 {line} 行：在尚未关闭的 SEARCH/REPLACE 块内又出现了 <<<<<<< SEARCH 标记。"),
    },
        Problem::MissingDelimiter { line } => match lang {
        Lang::En => format!("Line {line}: >>>>>>> REPLACE closes a block that has no ======= divider between its SEARCH and REPLACE parts."),
        Lang::Zh => format!("第 {line} 行：>>>>>>> REPLACE 关闭的块中缺少分隔 SEARCH 与 REPLACE 的 ======= 行。"),
    },
        Problem::UnmatchedReplace { line } => match lang {
        Lang::En => format!("Line {line}: >>>>>>> REPLACE without a preceding <<<<<<< SEARCH."),
        Lang::Zh => format!("第 {line} 行：>>>>>>> REPLACE 之前没有对应的 <<<<<<< SEARCH。"),
    },
        Problem::UnclosedSearch { line } => match lang {
        Lang::En => format!("Line {line}: this <<<<<<< SEARCH block is never closed with >>>>>>> REPLACE before the next hunk or the end of the diff."),
        Lang::Zh => format!("第 {line} 行：该 <<<<<<< SEARCH 块在下一个 hunk 或 diff 结束前没有用 >>>>>>> REPLACE 关闭。"),
    },
        Problem::InvalidBlockId { line, id, .. } => match lang {
        Lang::En => format!("Line {line}: \"{id}\" is not a block id. Ids look like {BLOCK_ID_EXAMPLE}: 14 digits, a dash, 7 lowercase letters or digits."),
        Lang::Zh => format!("第 {line} 行：\"{id}\" 不是有效的块 ID。块 ID 形如 {BLOCK_ID_EXAMPLE}：14 位数字、短横线、7 位小写字母或数字。"),
    },
        Problem::UnknownCommand { line, word, .. } => match lang {
        Lang::En => format!("Line {line}: unknown command \"{word}\". Commands are REPLACE, DELETE, BEFORE, AFTER, PREPEND and APPEND."),
        Lang::Zh => format!("第 {line} 行：未知指令 \"{word}\"。可用指令为 REPLACE、DELETE、BEFORE、AFTER、PREPEND、APPEND。"),
    },
        Problem::EmptyInsert { line, command, id, .. } => match lang {
        Lang::En => format!("Line {line}: @@{command}:{id}@@ has no content below it."),
        Lang::Zh => format!("第 {line} 行：@@{command}:{id}@@ 下方没有内容。"),
    },
        Problem::EmptySearch { line, id, .. } => match lang {
        Lang::En => format!("Line {line}: the SEARCH part for block {id} is empty, so there is nothing to locate."),
        Lang::Zh => format!("第 {line} 行：块 {id} 的 SEARCH 部分为空，无法定位要修改的内容。"),
    },
        Problem::MissingSearch { line, id, .. } => match lang {
        Lang::En => format!("Line {line}: hunk @@{id}@@ has no <<<<<<< SEARCH / ======= / >>>>>>> REPLACE block."),
        Lang::Zh => format!("第 {line} 行：hunk @@{id}@@ 下没有 <<<<<<< SEARCH / ======= / >>>>>>> REPLACE 块。"),
    },
        Problem::BlockNotFound { at } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n}: block {id} does not exist (deleted, or the id was mistyped)."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 不存在（已被删除，或 ID 写错）。"),
        }
        }
        Problem::DocumentTarget { at } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n}: {id} is a document. Documents cannot be updated, replaced, deleted or used as a BEFORE/AFTER anchor here (the kernel's updateBlock on a document deletes all its children)."),
            Lang::Zh => format!("Hunk #{n}：{id} 是文档块。文档不能被更新、替换、删除或作为 BEFORE/AFTER 的锚点（内核对文档执行 updateBlock 会删除其全部子块）。"),
        }
        }
        Problem::ConflictingDelete { at, others } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n}: block {id} is deleted in this diff and also edited or used as an anchor by hunk(s) {others}."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 在本 diff 中被删除，同时又被 hunk {others} 编辑或用作锚点。"),
        }
        }
        Problem::ConflictingReplace { at, others } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n}: block {id} is replaced by more than one @@REPLACE@@ hunk (also {others}); which one should win is unclear."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 被多个 @@REPLACE@@ hunk（还有 {others}）替换，无法确定以哪个为准。"),
        }
        }
        Problem::ConflictingAnchor { at, deleting } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n}: inserts next to block {id}, which hunk(s) {deleting} delete (empty REPLACE)."),
            Lang::Zh => format!("Hunk #{n}：要在块 {id} 旁插入，但该块被 hunk {deleting} 删除（REPLACE 为空）。"),
        }
        }
        Problem::NestedEdit { at, container, outer } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n} edits block {id}, which is inside (or an insert into) container {container}, and hunk #{outer} rewrites or deletes that container: the rewrite would overwrite this edit."),
            Lang::Zh => format!("Hunk #{n} 编辑的块 {id} 位于容器块 {container} 之内（或插入其中），而 hunk #{outer} 重写或删除了该容器：重写会覆盖本编辑。"),
        }
        }
        Problem::NestedEditOuter { at, inner_block, inner } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
            Lang::En => format!("Hunk #{n} rewrites or deletes container {id}, and hunk #{inner} edits block {inner_block} inside it (or inserts into it): the two cannot both be applied."),
            Lang::Zh => format!("Hunk #{n} 重写或删除容器块 {id}，而 hunk #{inner} 编辑其中的块 {inner_block}（或向其中插入）：两者不能同时应用。"),
        }
        }
        Problem::Internal { what } => match lang {
        Lang::En => format!("Internal error: {what}."),
        Lang::Zh => format!("内部错误：{what}。"),
    },
        Problem::RollbackConflict { id } => match lang {
        Lang::En => format!("The rollback left block {id} alone: it no longer reads as editkit wrote it (someone else changed it), so restoring it would overwrite their text."),
        Lang::Zh => format!("回滚未改动块 {id}：它已不是 editkit 写入时的内容（已被他人修改），恢复它会覆盖他人的文本。"),
    },
        Problem::StaleBlock { id, hunk } => match lang {
        Lang::En => format!("Hunk #{hunk}: block {id} changed (or disappeared) between the check and the write; nothing of this edit was written."),
        Lang::Zh => format!("Hunk #{hunk}：块 {id} 在校验之后、写入之前被修改（或删除）；本编辑未写入任何内容。"),
    },
        Problem::ChainBroken { hunk } => match lang {
        Lang::En => format!("Hunk #{hunk}: an insert had no anchor (internal error)."),
        Lang::Zh => format!("Hunk #{hunk}：插入操作缺少锚点（内部错误）。"),
    },
        Problem::WriteVerifyFailed { id, hunk, .. } => match lang {
        Lang::En => format!("Hunk #{hunk}: after writing, block {id} does not read back as planned; the kernel may have changed or dropped content. Check it, and use the undo to restore it if needed."),
        Lang::Zh => format!("Hunk #{hunk}：写入后重新读取块 {id}，内容与计划不一致；内核可能修改或丢弃了部分内容。请检查，必要时用 undo 恢复。"),
    },
        Problem::MisplacedDelimiter {
            line,
            extra_in_replace,
        } => match (lang, extra_in_replace) {
            (Lang::En, true) => format!("Line {line}: a second ======= divider inside one SEARCH/REPLACE block (the REPLACE part already started)."),
            (Lang::Zh, true) => format!("第 {line} 行：同一个 SEARCH/REPLACE 块中出现了第二个 ======= 分隔符（REPLACE 部分已经开始）。"),
            (Lang::En, false) => format!("Line {line}: a ======= divider outside any SEARCH/REPLACE block."),
            (Lang::Zh, false) => format!("第 {line} 行：======= 分隔符出现在 SEARCH/REPLACE 块之外。"),
        },
        Problem::MalformedHeader { line, text, .. } => {
            let shown: String = text.chars().take(80).collect();
            match lang {
                Lang::En => format!("Line {line} looks like a hunk header but is not one: `{shown}`. It is neither read as a header nor written as text."),
                Lang::Zh => format!("第 {line} 行看起来像 hunk 头但格式不对：`{shown}`。它既不会被当作 hunk 头，也不会作为文本写入。"),
            }
        }
        Problem::InvalidFormat { errors } => {
            let n = errors.len();
            let mut message = match lang {
                Lang::En => format!("The diff has {n} format problem(s); nothing was checked or written."),
                Lang::Zh => format!("diff 有 {n} 处格式问题；未做任何校验或写入。"),
            };
            for e in errors {
                message.push_str("\n- ");
                message.push_str(&e.message);
            }
            message
        }
        Problem::NotAContainer {
            at,
            prepend,
            block_type,
        } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            let cmd = if *prepend { "PREPEND" } else { "APPEND" };
            match lang {
                Lang::En => format!("Hunk #{n}: @@{cmd}:{id}@@ targets a block of type \"{block_type}\", which cannot hold child blocks (only documents, lists, list items, blockquotes, superblocks and callouts can; on a heading, PREPEND/APPEND work on its section)."),
                Lang::Zh => format!("Hunk #{n}：@@{cmd}:{id}@@ 的目标块类型为 \"{block_type}\"，不能包含子块（只有文档、列表、列表项、引述、超级块和提示块可以；对标题块，PREPEND/APPEND 作用于其下属内容）。"),
            }
        }
        Problem::PairRefused { at, error } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
                Lang::En => format!("Hunk #{n} (block {id}): {}", error.message),
                Lang::Zh => format!("Hunk #{n}（块 {id}）：{}", error.message),
            }
        }
        Problem::PairAmbiguous { at, lines } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            let list = lines
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ");
            match lang {
                Lang::En => format!("Hunk #{n}: the SEARCH text occurs {} times in block {id} (lines {list} of the block); editkit does not guess which one you mean.", lines.len()),
                Lang::Zh => format!("Hunk #{n}：SEARCH 内容在块 {id} 中出现了 {} 次（块内第 {list} 行），editkit 不会猜测你指的是哪一处。", lines.len()),
            }
        }
        Problem::ContentMismatch { at, mismatch } => content_mismatch(lang, at, mismatch),
        Problem::ChildrenWouldBeReassigned {
            id,
            hunk,
            ids,
            refs_unknown,
            ..
        } => {
            let list = ids.join(", ");
            let why = match (lang, refs_unknown) {
                (Lang::En, false) => "they are referenced by other blocks or carry attributes (name, alias, memo, bookmark, custom-*, flashcards, database rows)",
                (Lang::Zh, false) => "它们被其他块引用，或带有属性（命名、别名、备注、书签、custom-*、闪卡、数据库行）",
                (Lang::En, true) => "the host cannot tell whether other blocks reference them (it has no getReferencedIds callback)",
                (Lang::Zh, true) => "宿主无法判断它们是否被其他块引用（缺少 getReferencedIds 回调）",
            };
            match lang {
                Lang::En => format!("Hunk #{hunk}: rewriting container {id} would give these children new ids, and {why}: {list}. Nothing was written."),
                Lang::Zh => format!("Hunk #{hunk}：重写容器块 {id} 会使以下子块获得新的 ID，而{why}：{list}。未写入任何内容。"),
            }
        }
        Problem::WouldLoseMembership {
            id,
            hunk,
            members,
            reassigned,
            ..
        } => {
            let list = members
                .iter()
                .map(|(block, what)| format!("{block} ({})", what.join(", ")))
                .collect::<Vec<_>>()
                .join("; ");
            match (lang, reassigned) {
                (Lang::En, false) => format!("Hunk #{hunk}: deleting block {id} would remove these blocks from their databases or flashcard decks for good: {list}. SiYuan drops a deleted block's database row, and a re-inserted block comes back without its custom-avs and custom-riff-decks, so no undo can restore the membership. Nothing was written."),
                (Lang::Zh, false) => format!("Hunk #{hunk}：删除块 {id} 会使以下块永久离开其数据库或闪卡卡包：{list}。思源删除块时会移除其数据库行，重新插入的块也不会带回 custom-avs 和 custom-riff-decks，任何撤销都无法恢复这些归属。未写入任何内容。"),
                (Lang::En, true) => format!("Hunk #{hunk}: rewriting container {id} would remove these database rows or flashcards or give them new ids, which takes them out of their databases and decks for good: {list}. Nothing was written."),
                (Lang::Zh, true) => format!("Hunk #{hunk}：重写容器块 {id} 会删除以下数据库行或闪卡，或使其获得新的 ID，从而永久离开其数据库和卡包：{list}。未写入任何内容。"),
            }
        }
        Problem::UnclosedFence { at, body_line } => {
            let (id, n) = (&at.block_id, at.hunk_index);
            match lang {
                Lang::En => format!("Hunk #{n} (block {id}): line {body_line} of the new text opens a code fence or a $$ math block that is never closed. SiYuan would read everything after it, the block's attributes included, as code. Nothing was written."),
                Lang::Zh => format!("Hunk #{n}（块 {id}）：新内容第 {body_line} 行打开的代码围栏或 $$ 公式块没有闭合。思源会把其后的一切（包括块的属性）都当作代码。未写入任何内容。"),
            }
        }
        Problem::InvalidBodyId { at, id } => {
            let n = at.hunk_index;
            match lang {
                Lang::En => format!("Hunk #{n}: an attribute list in the new text gives the id \"{id}\", which is not a block id (14 digits, \"-\", 7 lowercase letters or digits, e.g. {BLOCK_ID_EXAMPLE}). SiYuan would fail on it without saying so. Nothing was written."),
                Lang::Zh => format!("Hunk #{n}：新内容的属性列表给出了 ID \"{id}\"，它不是合法的块 ID（14 位数字、\"-\"、7 位小写字母或数字，例如 {BLOCK_ID_EXAMPLE}）。思源会静默地失败。未写入任何内容。"),
            }
        }
        Problem::FoldedHeading {
            id, hunk, headings, ..
        } => {
            let list = headings.join(", ");
            match lang {
                Lang::En => format!("Hunk #{hunk}: container {id} holds folded headings ({list}). SiYuan moves a folded heading's old section in after the rewritten heading, so rewriting the container would duplicate that section. Nothing was written."),
                Lang::Zh => format!("Hunk #{hunk}：容器块 {id} 中有折叠的标题（{list}）。思源会把折叠标题原有的下属内容移到重写后的标题之后，重写该容器会使这部分内容重复。未写入任何内容。"),
            }
        }
        Problem::WriteFailed { error, hunk } => {
            let name = error.capability.js_name();
            let detail = &error.message;
            match (lang, error.timeout) {
                (Lang::En, true) => format!("Hunk #{hunk}: the write `{name}` did not answer in time ({detail}); editkit re-read the block to learn whether it landed."),
                (Lang::Zh, true) => format!("Hunk #{hunk}：写入操作 `{name}` 未在时限内返回（{detail}）；editkit 已重新读取该块以确认是否生效。"),
                (Lang::En, false) => format!("Hunk #{hunk}: the write `{name}` failed: {detail}"),
                (Lang::Zh, false) => format!("Hunk #{hunk}：写入操作 `{name}` 失败：{detail}"),
            }
        }
    }
}

/// The content-mismatch report: SEARCH, the block and the diff between
/// them (the next steps are the suggestions, said once).
fn content_mismatch(lang: Lang, at: &EditAt, m: &Mismatch) -> String {
    let (id, n) = (&at.block_id, at.hunk_index);
    let percent = format!("{:.1}", m.similarity * 100.0);
    let (expected, actual, diff) = (&m.expected, &m.actual, &m.diff);
    let mut message = match lang {
        Lang::En => format!("Hunk #{n}: SEARCH does not match block {id} (similarity {percent}%).\nSEARCH:\n{expected}\nBlock markdown:\n{actual}\nDiff (SEARCH → block):\n{}", diff.trim_end()),
        Lang::Zh => format!("Hunk #{n}：SEARCH 与块 {id} 的内容不匹配（相似度 {percent}%）。\nSEARCH：\n{expected}\n块的 markdown：\n{actual}\n差异（SEARCH → 块）：\n{}", diff.trim_end()),
    };
    if m.heading_section {
        message.push_str(lang.pick(
            "\nNote: a heading block's markdown is only its own line; the blocks shown under it in the reading view have their own ids.",
            "\n注意：标题块的 markdown 只有标题这一行；阅读视图中显示在其下方的块有各自的 ID。",
        ));
    }
    message
}

/// What to do next (`details.suggestions`); empty where the message says
/// it, or (a matcher refusal) where the matcher's own steps stand.
// One piece on purpose: one arm per problem, both languages side by side,
// read as a table.
pub(crate) fn next_steps(problem: &Problem, lang: Lang) -> Vec<String> {
    match problem {
        Problem::EmptyDiff => suggestions(
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
        Problem::SearchWithoutBlockId { .. } => suggestions(
            lang,
            &[
                ("Add the block's header line (e.g. @@20260108164554-m5ar6vb@@) directly above the SEARCH marker.", "在 SEARCH 标记正上方加上块的头部行（如 @@20260108164554-m5ar6vb@@）。"),
            ("Copy the header exactly as getBlockContent (showId: true) prints it.", "按 getBlockContent（showId: true）输出的样子原样复制头部行。"),
            USE_REPLACE_COMMAND,
            ],
        ),
        Problem::NestedSearch { .. } => suggestions(
            lang,
            &[
                ("Close the previous block with >>>>>>> REPLACE before starting the next SEARCH.", "在开始下一个 SEARCH 之前，用 >>>>>>> REPLACE 关闭上一个块。"),
            USE_REPLACE_COMMAND,
            ],
        ),
        Problem::MissingDelimiter { .. } => suggestions(
            lang,
            &[
                ("Insert a line with exactly ======= between the old text and the new text.", "在旧内容与新内容之间插入一行 =======。"),
            ("Write the divider as 7 '=' characters alone on its line.", "分隔符应为独占一行的 7 个 '='。"),
            ],
        ),
        Problem::UnmatchedReplace { .. } => suggestions(
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
        Problem::UnclosedSearch { .. } => suggestions(
            lang,
            &[
                ("End the block with a line >>>>>>> REPLACE after the new content.", "在新内容之后加一行 >>>>>>> REPLACE 结束该块。"),
            ("Check that the block has exactly one ======= divider.", "确认该块中恰好有一行 ======= 分隔符。"),
            USE_REPLACE_COMMAND,
            ],
        ),
        Problem::InvalidBlockId { .. } => suggestions(
            lang,
            &[
                ("Copy the id exactly from getBlockContent (showId: true) or getBlockInfo; do not change its case.", "从 getBlockContent（showId: true）或 getBlockInfo 原样复制 ID，不要改变大小写。"),
            ("Header forms: @@<id>@@ or @@REPLACE|DELETE|BEFORE|AFTER|PREPEND|APPEND:<id>@@.", "头部格式：@@<ID>@@ 或 @@REPLACE|DELETE|BEFORE|AFTER|PREPEND|APPEND:<ID>@@。"),
            ],
        ),
        Problem::UnknownCommand { .. } => suggestions(
            lang,
            &[
                ("To edit part of a block, use @@<id>@@ with a SEARCH/REPLACE block.", "要修改块的一部分，请用 @@<ID>@@ 加 SEARCH/REPLACE 块。"),
            ("To insert, use @@BEFORE:<id>@@ / @@AFTER:<id>@@ (siblings) or @@PREPEND:<id>@@ / @@APPEND:<id>@@ (children).", "要插入，请用 @@BEFORE:<ID>@@ / @@AFTER:<ID>@@（同级）或 @@PREPEND:<ID>@@ / @@APPEND:<ID>@@（子块）。"),
            ],
        ),
        Problem::EmptyInsert { .. } => suggestions(
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
        Problem::EmptySearch { .. } => suggestions(
            lang,
            &[
                ("Copy the block's current markdown (getBlockContent, showId: true) into SEARCH.", "把块当前的 markdown（getBlockContent，showId: true）复制到 SEARCH 中。"),
            ("To rewrite the whole block without a check, use @@REPLACE:<id>@@.", "要不经校验整体重写该块，请使用 @@REPLACE:<ID>@@。"),
            ("To add content next to it, use @@AFTER:<id>@@ or @@APPEND:<id>@@.", "要在旁边添加内容，请使用 @@AFTER:<ID>@@ 或 @@APPEND:<ID>@@。"),
            ],
        ),
        Problem::MissingSearch { .. } => suggestions(
            lang,
            &[
                ("Add a SEARCH/REPLACE block: the block's current text, a ======= line, then the new text.", "补上 SEARCH/REPLACE 块：块的当前内容、一行 =======、然后是新内容。"),
            ("To replace the whole block with the text you wrote, use @@REPLACE:<id>@@ as the header.", "如果要用你写的内容整体替换该块，请把头部改为 @@REPLACE:<ID>@@。"),
            ],
        ),
        Problem::BlockNotFound { .. } => suggestions(
            lang,
            &[
                ("Re-read the document with getBlockContent (showId: true) and use the ids it prints.", "用 getBlockContent（showId: true）重新读取文档，使用其中输出的 ID。"),
            ("Check the id character by character; ids are case-sensitive.", "逐字符核对 ID；ID 区分大小写。"),
            ],
        ),
        Problem::DocumentTarget { .. } => suggestions(
            lang,
            &[
                ("Edit the document's child blocks by their own ids (getBlockContent with showId: true lists them).", "通过子块自己的 ID 编辑文档内容（getBlockContent 配合 showId: true 会列出它们）。"),
            ("To add content to the document, use @@PREPEND:<doc id>@@ or @@APPEND:<doc id>@@.", "要向文档添加内容，请使用 @@PREPEND:<文档ID>@@ 或 @@APPEND:<文档ID>@@。"),
            ],
        ),
        Problem::ConflictingDelete { .. } => suggestions(
            lang,
            &[
                ("Keep either the DELETE or the other edits of this block, not both.", "对该块只保留 DELETE 或其他编辑之一。"),
            ("Anchor inserts on a neighbouring block that stays.", "把插入操作锚定到一个保留的相邻块上。"),
            ],
        ),
        Problem::ConflictingReplace { .. } => suggestions(
            lang,
            &[
                ("Merge the replacements into one @@REPLACE:<id>@@ hunk.", "把这些替换合并成一个 @@REPLACE:<ID>@@ hunk。")
            ],
        ),
        Problem::ConflictingAnchor { .. } => suggestions(
            lang,
            &[
                ("Put the new content into that hunk's REPLACE part instead of deleting the block.", "把新内容写进那个 hunk 的 REPLACE 部分，而不是删除该块。"),
            ("Anchor the insert on a neighbouring block that stays.", "把插入锚定到一个保留的相邻块上。"),
            ],
        ),
        Problem::NestedEdit { .. } => suggestions(
            lang,
            &[
                ("Make both changes in the container's hunk (its REPLACE holds the children's text).", "把两处修改都写进容器块的 hunk（其 REPLACE 包含子块的文本）。"),
            ("Or edit only the children, each by its own id, and leave the container alone.", "或者只按各自的 ID 编辑子块，不改动容器块本身。"),
            ],
        ),
        Problem::NestedEditOuter { .. } => suggestions(
            lang,
            &[
                ("Put the inner change into this hunk's REPLACE and drop the other hunk.", "把内部修改并入本 hunk 的 REPLACE，删除另一个 hunk。"),
            ("Or drop this hunk and edit the children by their own ids.", "或者删除本 hunk，按各自的 ID 编辑子块。"),
            ],
        ),
        Problem::StaleBlock { .. } => suggestions(
            lang,
            &[
                ("Re-read the block and rebuild the hunk from its current content.", "重新读取该块，基于其当前内容重写 hunk。"),
            ("Someone else may be editing the document; retry once their edit is done.", "可能有人正在编辑该文档；待其编辑完成后重试。"),
            ],
        ),
        Problem::MisplacedDelimiter { .. } => suggestions(
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
        Problem::MalformedHeader { fix, .. } => {
            let mut fixes: Vec<String> = Vec::new();
            if let Some(fix) = fix {
                fixes.push(match lang {
                    Lang::En => format!("Write the header as `{fix}`, alone on its line."),
                    Lang::Zh => format!("把 hunk 头写成 `{fix}`，并单独占一行。"),
                });
            }
            fixes.extend(suggestions(
                lang,
                &[
                    ("A header is a whole line: `@@<id>@@` or `@@COMMAND:<id>@@` (REPLACE, DELETE, BEFORE, AFTER, PREPEND, APPEND), closing `@@` included, nothing after it but an optional type label.", "hunk 头必须独占一行：`@@<ID>@@` 或 `@@命令:<ID>@@`（REPLACE、DELETE、BEFORE、AFTER、PREPEND、APPEND），包括结尾的 `@@`，其后只能跟可选的类型标签。"),
                    ("If the text is meant for the note, rephrase it so the line does not start with `@@`.", "如果这行是要写入笔记的文字，请改写，使该行不以 `@@` 开头。"),
                ],
            ));
            fixes
        }
        Problem::NotAContainer { .. } => suggestions(
            lang,
            &[
                ("To add content next to this block, use @@AFTER:<id>@@ or @@BEFORE:<id>@@.", "要在该块旁边添加内容，请使用 @@AFTER:<ID>@@ 或 @@BEFORE:<ID>@@。"),
                ("To add inside a container, target the container's id (getBlockInfo shows the parent).", "要添加到容器内部，请以容器块的 ID 为目标（getBlockInfo 可查看父块）。"),
            ],
        ),
        Problem::PairAmbiguous { .. } => suggestions(
            lang,
            &[
                ("Add neighbouring text to SEARCH until it occurs only once.", "在 SEARCH 中加入相邻文本，直到它只出现一次。"),
                ("Or copy the whole block into SEARCH and edit it in REPLACE.", "或者把整个块复制到 SEARCH，在 REPLACE 中修改。"),
            ],
        ),
        Problem::ContentMismatch { .. } => suggestions(
            lang,
            &[
                READ_FIRST,
                ("If the block changed since you read it, re-read it and rebuild the hunk from the latest version.", "如果块在你读取后已被修改，请重新读取并基于最新版本重写 hunk。"),
                ("To rewrite the whole block without a check, use @@REPLACE:<id>@@.", "要不经校验整体重写该块，请使用 @@REPLACE:<ID>@@。"),
            ],
        ),
        Problem::ChildrenWouldBeReassigned { .. } => suggestions(
            lang,
            &[
                ("Edit those children by their own ids (a hunk per child) instead of rewriting the container.", "改用子块自己的 ID 逐个编辑（每个子块一个 hunk），而不是重写整个容器。"),
                ("Keep each child's text recognisable in REPLACE: change it, do not retype it from scratch.", "在 REPLACE 中保留每个子块可辨认的原文：修改它，而不是整段重写。"),
                ("If losing their ids, references and attributes is intended, pass allowChildReassign: true.", "如果确实接受丢失它们的 ID、引用和属性，请传入 allowChildReassign: true。"),
            ],
        ),
        Problem::WouldLoseMembership { reassigned, .. } => {
            let mut steps = if *reassigned {
                suggestions(
                    lang,
                    &[("Edit those blocks by their own ids instead of rewriting the container.", "改用这些块自己的 ID 编辑，而不是重写整个容器。")],
                )
            } else {
                suggestions(
                    lang,
                    &[("Edit the block's text instead of deleting it, or remove it from its database or deck in SiYuan first.", "改为编辑该块的文本而不是删除它，或先在思源中把它移出数据库或卡包。")],
                )
            };
            steps.extend(suggestions(
                lang,
                &[("If losing the membership is intended, pass allowMembershipLoss: true; the report and the undo then say what the undo cannot bring back.", "如果确实接受失去这些归属，请传入 allowMembershipLoss: true；报告和 undo 会说明 undo 无法恢复的内容。")],
            ));
            steps
        }
        Problem::UnclosedFence { .. } => suggestions(
            lang,
            &[
                ("Close the fence: end the code with a line of the same backticks (```) or the math with a line $$.", "闭合围栏：用相同的反引号行（```）结束代码，或用一行 $$ 结束公式。"),
                ("If the fence is meant to be text, escape it (\\```) or put it inside inline code.", "如果围栏是普通文字，请转义（\\```）或放进行内代码。"),
            ],
        ),
        Problem::InvalidBodyId { .. } => suggestions(
            lang,
            &[
                ("Remove the id from the attribute list: editkit gives new blocks ids of their own.", "从属性列表中删除该 id：editkit 会为新块分配自己的 ID。"),
                ("To keep a block's id, copy it exactly as getBlockContent shows it.", "要保留块的 ID，请按 getBlockContent 显示的原样复制。"),
            ],
        ),
        Problem::FoldedHeading { .. } => suggestions(
            lang,
            &[
                ("Edit the blocks inside the container by their own ids (a hunk per block) instead of rewriting the container.", "改用容器内各块自己的 ID 逐个编辑（每块一个 hunk），而不是重写整个容器。"),
                ("Or unfold the heading in SiYuan first, then apply the diff again.", "或者先在思源中展开该标题，再重新应用 diff。"),
            ],
        ),
        _ => Vec::new(),
    }
}

// ---- content check ------------------------------------------------------

const READ_FIRST: (&str, &str) = (
    "Fetch the block with getBlockContent (showId: true) and copy its current markdown into SEARCH.",
    "用 getBlockContent（showId: true）获取该块，把它当前的 markdown 复制到 SEARCH 中。",
);

pub fn unchanged_block(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("Block {id} would not change (REPLACE equals the current content); nothing is written for it."),
        Lang::Zh => format!("块 {id} 不会发生变化（REPLACE 与当前内容相同），不会写入。"),
    }
}

pub fn children_reassigned(lang: Lang, id: &str, ids: &[String]) -> String {
    let list = ids.join(", ");
    match lang {
        Lang::En => format!("Container {id} is rewritten; these children get new ids because their text was replaced beyond recognition: {list}. Re-read the block before editing them by id."),
        Lang::Zh => format!("容器块 {id} 将被重写；以下子块的文本被替换得无法对应，将获得新的 ID：{list}。按 ID 编辑它们之前请重新读取该块。"),
    }
}

pub fn id_in_use(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("The id {id} written in the new markdown belongs to a block that exists; it was left out so no duplicate is made (the new block gets an id of its own)."),
        Lang::Zh => format!("新 markdown 中写的 ID {id} 已属于现有块；为避免产生重复 ID 已将其去掉（新块获得自己的 ID）。"),
    }
}

pub fn write_outcome_resolved(lang: Lang, id: &str, landed: bool) -> String {
    match (lang, landed) {
        (Lang::En, true) => format!("The write of block {id} reported a failure, but re-reading shows it landed; it is counted as written (the undo and any rollback cover it)."),
        (Lang::Zh, true) => format!("块 {id} 的写入报告失败，但重新读取显示它已生效；按已写入处理（undo 与回滚都会覆盖它）。"),
        (Lang::En, false) => format!("The write of block {id} reported a failure; re-reading shows it did not land."),
        (Lang::Zh, false) => format!("块 {id} 的写入报告失败；重新读取显示它没有生效。"),
    }
}

pub fn kernel_created(lang: Lang, id: &str, parent: &str) -> String {
    match lang {
        Lang::En => format!("The kernel put an empty paragraph {id} into list item {parent} when its only block was deleted; the undo removes it again."),
        Lang::Zh => format!("删除列表项 {parent} 中唯一的块后，内核在其中放入了空段落 {id}；undo 会把它再删除。"),
    }
}

pub fn id_taken_on_restore(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("Block {id} is re-inserted without its old id, which another block has now; the id map lists its new id."),
        Lang::Zh => format!("块 {id} 重新插入时未使用原 ID（该 ID 已被另一块占用）；新 ID 见 idMap。"),
    }
}

// ---- execution ------------------------------------------------------------

pub fn verify_unavailable(lang: Lang) -> String {
    lang.pick(
        "The written blocks could not be re-read to verify them; the undo uses the planned text as its SEARCH.",
        "无法重新读取已写入的块进行核验；undo 以计划文本作为 SEARCH。",
    )
    .to_string()
}

pub fn undo_unchecked(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("The undo of block {id} uses @@REPLACE@@ (no content check) because its text contains marker lines."),
        Lang::Zh => format!("块 {id} 的 undo 使用 @@REPLACE@@（不做内容校验），因为其文本包含标记行。"),
    }
}

pub fn undo_position_approximate(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("The position of deleted block {id} among its siblings is unknown; its undo re-inserts it first in its parent."),
        Lang::Zh => format!("无法确定被删除块 {id} 在同级块中的位置；其 undo 会把它重新插入到父块的开头。"),
    }
}

struct Counts {
    total: usize,
    applied: usize,
    planned: usize,
    failed: usize,
    unchanged: usize,
    rolled_back: usize,
}

fn counts(results: &[EditResult]) -> Counts {
    let n = |s: EditStatus| results.iter().filter(|r| r.status == s).count();
    Counts {
        total: results.len(),
        applied: n(EditStatus::Applied),
        planned: n(EditStatus::Planned),
        failed: n(EditStatus::Failed),
        unchanged: n(EditStatus::Unchanged),
        rolled_back: n(EditStatus::RolledBack),
    }
}

pub fn summary_not_executed(lang: Lang, results: &[EditResult], dry_run: bool) -> String {
    let c = counts(results);
    let (total, failed, unchanged, planned) = (c.total, c.failed, c.unchanged, c.planned);
    match (lang, dry_run, failed) {
        (Lang::En, true, 0) => format!("Dry run: all {total} edit(s) passed the check ({planned} would be written, {unchanged} unchanged); nothing was written."),
        (Lang::Zh, true, 0) => format!("试运行：全部 {total} 个编辑通过校验（{planned} 个将写入，{unchanged} 个无变化）；未写入任何内容。"),
        (Lang::En, true, _) => format!("Dry run: {failed} of {total} edit(s) failed the check; nothing was written. Fix the failures and resend the whole diff."),
        (Lang::Zh, true, _) => format!("试运行：{total} 个编辑中有 {failed} 个未通过校验；未写入任何内容。请修正失败项后重新发送完整 diff。"),
        (Lang::En, false, 0) => format!("Nothing to write: all {total} edit(s) would leave their blocks unchanged."),
        (Lang::Zh, false, 0) => format!("无需写入：全部 {total} 个编辑都不会改变块内容。"),
        (Lang::En, false, _) => format!("Nothing was written: {failed} of {total} edit(s) failed the check (atomic mode). Fix the failures and resend the whole diff."),
        (Lang::Zh, false, _) => format!("未写入任何内容：{total} 个编辑中有 {failed} 个未通过校验（原子模式）。请修正失败项后重新发送完整 diff。"),
    }
}

pub fn summary_executed(
    lang: Lang,
    results: &[EditResult],
    rollback: Option<&RollbackReport>,
) -> String {
    let c = counts(results);
    let (total, applied, failed, unchanged, rolled_back) =
        (c.total, c.applied, c.failed, c.unchanged, c.rolled_back);
    if let Some(rb) = rollback {
        let reverted = rb.reverted;
        return match (lang, rb.ok) {
            (Lang::En, true) => format!("A write failed; the {reverted} write(s) already done ({rolled_back} other edit(s)) were rolled back after re-reading the blocks, so nothing changed. See the failed edit's error."),
            (Lang::Zh, true) => format!("写入失败；重新读取各块后，已完成的 {reverted} 次写入（另有 {rolled_back} 个编辑）已回滚，内容未改变。请查看失败编辑的错误信息。"),
            (Lang::En, false) => format!("A write failed and the rollback failed too: {applied} of {total} edit(s) remain written. Apply the undo diff to restore them."),
            (Lang::Zh, false) => format!("写入失败且回滚也失败：{total} 个编辑中仍有 {applied} 个处于已写入状态。请应用 undo diff 恢复。"),
        };
    }
    match (lang, failed) {
        (Lang::En, 0) => format!("Applied {applied} of {total} edit(s) ({unchanged} unchanged). An undo diff is available."),
        (Lang::Zh, 0) => format!("已应用 {total} 个编辑中的 {applied} 个（{unchanged} 个无变化）。可使用 undo diff 撤销。"),
        (Lang::En, _) => format!("Applied {applied} of {total} edit(s); {failed} failed (see their errors). The undo diff covers what was written."),
        (Lang::Zh, _) => format!("已应用 {total} 个编辑中的 {applied} 个；{failed} 个失败（见各自的错误信息）。undo diff 覆盖已写入的内容。"),
    }
}

pub fn container_deleted(lang: Lang, id: &str, type_name: &str) -> String {
    match lang {
        Lang::En => format!("The diff deletes every child of {type_name} {id}, so {id} itself is deleted: SiYuan drops an emptied {type_name} at its next load, and an undo could not put the text back into it. Its undo restores it whole."),
        Lang::Zh => format!("diff 删除了{type_name} {id} 的全部子块，因此删除 {id} 本身：思源会在下次加载时丢弃空的{type_name}，撤销也就无法把内容放回去。其 undo 会完整恢复它。"),
    }
}

pub fn membership_lost(lang: Lang, id: &str, what: &[&str]) -> String {
    let what = what.join(", ");
    match lang {
        Lang::En => format!("Block {id} was deleted with {what} (allowMembershipLoss): its undo brings the text back, not its database row or flashcard."),
        Lang::Zh => format!("块 {id} 带着 {what} 被删除（allowMembershipLoss）：其 undo 能恢复文本，不能恢复其数据库行或闪卡。"),
    }
}

/// The line an undo starts with when it cannot bring memberships back
/// (text before the first hunk is ignored when the undo is applied).
pub fn undo_cannot_restore(lang: Lang, members: &[(String, Vec<&'static str>)]) -> String {
    let list = members
        .iter()
        .map(|(block, what)| format!("{block} ({})", what.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    match lang {
        Lang::En => format!("Note: this undo restores the text of these blocks, not their database rows or flashcards: {list}"),
        Lang::Zh => format!("注意：本 undo 能恢复以下块的文本，不能恢复其数据库行或闪卡：{list}"),
    }
}

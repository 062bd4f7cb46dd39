//! A SEARCH against its block's markdown: refused by the matcher, found
//! several times, or found nowhere (with the report of what the block
//! holds). Each refusal is one function: its message, then what to do
//! next.

use super::super::types::{EditAt, Mismatch};
use super::{suggestions, Said};
use crate::{Error, Lang};

const READ_FIRST: (&str, &str) = (
    "Fetch the block with getBlockContent (showId: true) and copy its current markdown into SEARCH.",
    "用 getBlockContent（showId: true）获取该块，把它当前的 markdown 复制到 SEARCH 中。",
);

/// The matcher found the SEARCH but refused the edit (`error`): its own
/// message, and its own next steps (in `error`'s details), stand.
pub(super) fn pair_refused(lang: Lang, at: &EditAt, problem: &crate::matcher::Problem) -> Said {
    let (message, steps) = crate::matcher::words(problem, lang);
    Said {
        message: in_hunk(lang, at, &message),
        steps,
    }
}

/// The matcher could not take the pair (its arguments' error).
pub(super) fn pair_argument(lang: Lang, at: &EditAt, error: &Error) -> Said {
    Said {
        message: in_hunk(lang, at, &error.message),
        steps: Vec::new(),
    }
}

fn in_hunk(lang: Lang, at: &EditAt, message: &str) -> String {
    let (id, n) = (&at.block_id, at.hunk_index);
    match lang {
        Lang::En => format!("Hunk #{n} (block {id}): {message}"),
        Lang::Zh => format!("Hunk #{n}（块 {id}）：{message}"),
    }
}

/// The SEARCH occurs at these lines of the block.
pub(super) fn pair_ambiguous(lang: Lang, at: &EditAt, lines: &[u32]) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    let list = lines
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: the SEARCH text occurs {} times in block {id} (lines {list} of the block); editkit does not guess which one you mean.", lines.len()),
            Lang::Zh => format!("Hunk #{n}：SEARCH 内容在块 {id} 中出现了 {} 次（块内第 {list} 行），editkit 不会猜测你指的是哪一处。", lines.len()),
        },
        steps: suggestions(
            lang,
            &[
                ("Add neighbouring text to SEARCH until it occurs only once.", "在 SEARCH 中加入相邻文本，直到它只出现一次。"),
                ("Or copy the whole block into SEARCH and edit it in REPLACE.", "或者把整个块复制到 SEARCH，在 REPLACE 中修改。"),
            ],
        ),
    }
}

/// The SEARCH matches nothing in the block: SEARCH, the block and the diff
/// between them (the next steps are the suggestions, said once).
pub(super) fn content_mismatch(lang: Lang, at: &EditAt, m: &Mismatch) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    let percent = format!("{:.1}", m.similarity * 100.0);
    let (expected, actual, diff) = (&m.expected, &m.actual, &m.diff);
    let mut message = match (lang, m.lines) {
        (Lang::En, None) => format!("Hunk #{n}: SEARCH does not match block {id} (similarity {percent}%).\nSEARCH:\n{expected}\nBlock markdown:\n{actual}\nDiff (SEARCH → block):\n{}", diff.trim_end()),
        (Lang::Zh, None) => format!("Hunk #{n}：SEARCH 与块 {id} 的内容不匹配（相似度 {percent}%）。\nSEARCH：\n{expected}\n块的 markdown：\n{actual}\n差异（SEARCH → 块）：\n{}", diff.trim_end()),
        (Lang::En, Some((a, b))) => format!("Hunk #{n}: SEARCH does not match block {id}; closest are its lines {a}–{b} (similarity {percent}%).\nSEARCH:\n{expected}\nBlock lines {a}–{b}:\n{actual}\nDiff (SEARCH → those lines):\n{}", diff.trim_end()),
        (Lang::Zh, Some((a, b))) => format!("Hunk #{n}：SEARCH 与块 {id} 的内容不匹配；最接近的是该块的第 {a}–{b} 行（相似度 {percent}%）。\nSEARCH：\n{expected}\n块的第 {a}–{b} 行：\n{actual}\n差异（SEARCH → 这些行）：\n{}", diff.trim_end()),
    };
    if m.heading_section {
        message.push_str(lang.pick(
            "\nNote: a heading block's markdown is only its own line; the blocks shown under it in the reading view have their own ids.",
            "\n注意：标题块的 markdown 只有标题这一行；阅读视图中显示在其下方的块有各自的 ID。",
        ));
    }
    let steps = suggestions(
        lang,
        &[
            READ_FIRST,
            ("If the block changed since you read it, re-read it and rebuild the hunk from the latest version.", "如果块在你读取后已被修改，请重新读取并基于最新版本重写 hunk。"),
            ("To rewrite the whole block without a check, use @@REPLACE:<id>@@.", "要不经校验整体重写该块，请使用 @@REPLACE:<ID>@@。"),
        ],
    );
    Said { message, steps }
}

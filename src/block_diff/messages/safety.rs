//! The refusals that keep what the kernel would lose or garble: children
//! re-IDed, database rows and flashcards dropped, a fence that swallows
//! the attributes, an id the kernel fails on, folded sections duplicated.
//! Each is refused before anything is written; each refusal is one
//! function: its message, then what to do next.

use super::super::types::EditAt;
use super::{suggestions, Said};
use crate::siyuan::BLOCK_ID_EXAMPLE;
use crate::Lang;

/// Rewriting container `id` would re-id children `ids` that are
/// referenced or carry attributes (or, `refs_unknown`, might be).
pub(super) fn children_would_be_reassigned(
    lang: Lang,
    id: &str,
    hunk: u32,
    ids: &[String],
    refs_unknown: bool,
) -> Said {
    let list = ids.join(", ");
    let why = match (lang, refs_unknown) {
        (Lang::En, false) => "they are referenced by other blocks or carry attributes (name, alias, memo, bookmark, custom-*, flashcards, database rows)",
        (Lang::Zh, false) => "它们被其他块引用，或带有属性（命名、别名、备注、书签、custom-*、闪卡、数据库行）",
        (Lang::En, true) => "the host cannot tell whether other blocks reference them (it has no getReferencedIds callback)",
        (Lang::Zh, true) => "宿主无法判断它们是否被其他块引用（缺少 getReferencedIds 回调）",
    };
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: rewriting container {id} would give these children new ids, and {why}: {list}. Nothing was written."),
            Lang::Zh => format!("Hunk #{hunk}：重写容器块 {id} 会使以下子块获得新的 ID，而{why}：{list}。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Edit those children by their own ids (a hunk per child) instead of rewriting the container.", "改用子块自己的 ID 逐个编辑（每个子块一个 hunk），而不是重写整个容器。"),
                ("Keep each child's text recognisable in REPLACE: change it, do not retype it from scratch.", "在 REPLACE 中保留每个子块可辨认的原文：修改它，而不是整段重写。"),
                ("If losing their ids, references and attributes is intended, pass allowChildReassign: true.", "如果确实接受丢失它们的 ID、引用和属性，请传入 allowChildReassign: true。"),
            ],
        ),
    }
}

/// Deleting (or re-IDing, `reassigned`) `id` would drop the database rows
/// and flashcards of `members` (block id, attribute names).
pub(super) fn would_lose_membership(
    lang: Lang,
    id: &str,
    hunk: u32,
    members: &[(String, Vec<&'static str>)],
    reassigned: bool,
) -> Said {
    let list = members
        .iter()
        .map(|(block, what)| format!("{block} ({})", what.join(", ")))
        .collect::<Vec<_>>()
        .join("; ");
    let message = match (lang, reassigned) {
        (Lang::En, false) => format!("Hunk #{hunk}: deleting block {id} would remove these blocks from their databases or flashcard decks for good: {list}. SiYuan drops a deleted block's database row, and a re-inserted block comes back without its custom-avs and custom-riff-decks, so no undo can restore the membership. Nothing was written."),
        (Lang::Zh, false) => format!("Hunk #{hunk}：删除块 {id} 会使以下块永久离开其数据库或闪卡卡包：{list}。思源删除块时会移除其数据库行，重新插入的块也不会带回 custom-avs 和 custom-riff-decks，任何撤销都无法恢复这些归属。未写入任何内容。"),
        (Lang::En, true) => format!("Hunk #{hunk}: rewriting container {id} would remove these database rows or flashcards or give them new ids, which takes them out of their databases and decks for good: {list}. Nothing was written."),
        (Lang::Zh, true) => format!("Hunk #{hunk}：重写容器块 {id} 会删除以下数据库行或闪卡，或使其获得新的 ID，从而永久离开其数据库和卡包：{list}。未写入任何内容。"),
    };
    let mut steps = if reassigned {
        suggestions(
            lang,
            &[(
                "Edit those blocks by their own ids instead of rewriting the container.",
                "改用这些块自己的 ID 编辑，而不是重写整个容器。",
            )],
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
    Said { message, steps }
}

/// The new markdown opens a fence at its `body_line` (1-based) that it
/// never closes.
pub(super) fn unclosed_fence(lang: Lang, at: &EditAt, body_line: u32) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n} (block {id}): line {body_line} of the new text opens a code fence or a $$ math block that is never closed. SiYuan would read everything after it, the block's attributes included, as code. Nothing was written."),
            Lang::Zh => format!("Hunk #{n}（块 {id}）：新内容第 {body_line} 行打开的代码围栏或 $$ 公式块没有闭合。思源会把其后的一切（包括块的属性）都当作代码。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Close the fence: end the code with a line of the same backticks (```) or the math with a line $$.", "闭合围栏：用相同的反引号行（```）结束代码，或用一行 $$ 结束公式。"),
                ("If the fence is meant to be text, escape it (\\```) or put it inside inline code.", "如果围栏是普通文字，请转义（\\```）或放进行内代码。"),
            ],
        ),
    }
}

/// An IAL in the new markdown names `id`, which is not a block id.
pub(super) fn invalid_body_id(lang: Lang, at: &EditAt, id: &str) -> Said {
    let n = at.hunk_index;
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: an attribute list in the new text gives the id \"{id}\", which is not a block id (14 digits, \"-\", 7 lowercase letters or digits, e.g. {BLOCK_ID_EXAMPLE}). SiYuan would fail on it without saying so. Nothing was written."),
            Lang::Zh => format!("Hunk #{n}：新内容的属性列表给出了 ID \"{id}\"，它不是合法的块 ID（14 位数字、\"-\"、7 位小写字母或数字，例如 {BLOCK_ID_EXAMPLE}）。思源会静默地失败。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Remove the id from the attribute list: editkit gives new blocks ids of their own.", "从属性列表中删除该 id：editkit 会为新块分配自己的 ID。"),
                ("To keep a block's id, copy it exactly as getBlockContent shows it.", "要保留块的 ID，请按 getBlockContent 显示的原样复制。"),
            ],
        ),
    }
}

/// Rewriting container `id` would carry the folded `headings`.
pub(super) fn folded_heading(lang: Lang, id: &str, hunk: u32, headings: &[String]) -> Said {
    let list = headings.join(", ");
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: the edit changes the structure of container {id}, which holds folded headings ({list}); SiYuan would duplicate a folded heading's section in the rewritten container. Nothing was written."),
            Lang::Zh => format!("Hunk #{hunk}：该编辑改变了容器块 {id} 的结构，而其中有折叠的标题（{list}）；重写该容器会使思源重复折叠标题的下属内容。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Change only the text of the blocks inside (editkit then writes just those), and add or delete blocks by their own ids (@@AFTER:id@@, @@DELETE:id@@).", "只修改其中各块的文字（editkit 只写入这些块），增删块时用各块自己的 ID（@@AFTER:id@@、@@DELETE:id@@）。"),
                ("Or unfold the heading in SiYuan first, then apply the diff again.", "或者先在思源中展开该标题，再重新应用 diff。"),
            ],
        ),
    }
}

pub(super) fn would_decode_entities(
    lang: Lang,
    id: &str,
    hunk: u32,
    entities: &[String],
    html: bool,
) -> Said {
    let list = entities.join(" ");
    let (why_en, why_zh) = if html {
        (
            "in HTML, which SiYuan v3.7.3 decodes again on every write",
            "位于 HTML 中，思源 v3.7.3 每次写入都会再解码一次",
        )
    } else {
        (
            "in text the write keeps; the kernel would store the characters they stand for",
            "位于写入保留的文字中，内核会存成所代表的字符",
        )
    };
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: block {id} holds the character references {list} {why_en}. Nothing was written."),
            Lang::Zh => format!("Hunk #{hunk}：块 {id} 中的字符引用 {list} {why_zh}。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[("Edit this block in SiYuan's editor.", "请在思源编辑器中修改该块。")],
        ),
    }
}

pub(super) fn would_break_ref(lang: Lang, id: &str, hunk: u32, refs: &[String]) -> Said {
    let list = refs.join(", ");
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: block {id} would hold references to {list}, which no block has; the kernel stores such a reference without its id. Nothing was written."),
            Lang::Zh => format!("Hunk #{hunk}：块 {id} 会含有指向 {list} 的引用，但没有这样的块；内核会去掉这种引用的 ID。未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[("Check the ids, or remove the broken reference in SiYuan's editor.", "请检查这些 ID，或在思源编辑器中删掉失效的引用。")],
        ),
    }
}

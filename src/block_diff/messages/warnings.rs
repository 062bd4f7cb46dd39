//! The warnings the block-diff engine attaches to a report (each code's
//! text, one function each, English and Chinese side by side): what the
//! parser ignored or kept as text, what the check noticed, what the run and
//! the undo could not do exactly as planned.

use crate::Lang;

// ---- parse ------------------------------------------------------------------

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

// ---- check ------------------------------------------------------------------

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

// ---- run and undo -----------------------------------------------------------

pub fn write_outcome_resolved(lang: Lang, id: &str, landed: bool) -> String {
    match (lang, landed) {
        (Lang::En, true) => format!("The write of block {id} reported a failure, but re-reading shows it landed; it is counted as written (the undo and any rollback cover it)."),
        (Lang::Zh, true) => format!("块 {id} 的写入报告失败，但重新读取显示它已生效；按已写入处理（undo 与回滚都会覆盖它）。"),
        (Lang::En, false) => format!("The write of block {id} reported a failure; re-reading shows it did not land."),
        (Lang::Zh, false) => format!("块 {id} 的写入报告失败；重新读取显示它没有生效。"),
    }
}

pub fn kernel_side_effects(lang: Lang, id: &str, children: &[String]) -> String {
    let list = children.join(", ");
    match lang {
        Lang::En => format!("The update of {id} did not land (SiYuan rolled it back), but SiYuan may already have removed its children {list} from their databases. Check them."),
        Lang::Zh => format!("对 {id} 的更新没有写入（思源已回滚），但思源可能已把其子块 {list} 从所在数据库中移除，请检查。"),
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

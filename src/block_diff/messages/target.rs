//! The block an edit names, checked on its own (it exists, it can take the
//! edit) and against the other hunks of the diff (no hunk deletes, replaces
//! or rewrites what another one edits). Each refusal is one function: its
//! message, then what to do next.

use super::super::types::EditAt;
use super::{suggestions, Said};
use crate::Lang;

// ---- the block itself -------------------------------------------------------

/// The edit's block does not exist.
pub(super) fn block_not_found(lang: Lang, at: &EditAt) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: block {id} does not exist (deleted, or the id was mistyped)."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 不存在（已被删除，或 ID 写错）。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Re-read the document with getBlockContent (showId: true) and use the ids it prints.", "用 getBlockContent（showId: true）重新读取文档，使用其中输出的 ID。"),
                ("Check the id character by character; ids are case-sensitive.", "逐字符核对 ID；ID 区分大小写。"),
            ],
        ),
    }
}

/// PREPEND/APPEND (`prepend`) on a block of `block_type`, which holds no
/// children.
pub(super) fn not_a_container(lang: Lang, at: &EditAt, prepend: bool, block_type: &str) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    let cmd = if prepend { "PREPEND" } else { "APPEND" };
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: @@{cmd}:{id}@@ targets a block of type \"{block_type}\", which cannot hold child blocks (only documents, lists, list items, blockquotes, superblocks and callouts can; on a heading, PREPEND/APPEND work on its section)."),
            Lang::Zh => format!("Hunk #{n}：@@{cmd}:{id}@@ 的目标块类型为 \"{block_type}\"，不能包含子块（只有文档、列表、列表项、引述、超级块和提示块可以；对标题块，PREPEND/APPEND 作用于其下属内容）。"),
        },
        steps: suggestions(
            lang,
            &[
                ("To add content next to this block, use @@AFTER:<id>@@ or @@BEFORE:<id>@@.", "要在该块旁边添加内容，请使用 @@AFTER:<ID>@@ 或 @@BEFORE:<ID>@@。"),
                ("To add inside a container, target the container's id (getBlockInfo shows the parent).", "要添加到容器内部，请以容器块的 ID 为目标（getBlockInfo 可查看父块）。"),
            ],
        ),
    }
}

/// An update, delete or sibling insert aimed at a document.
pub(super) fn document_target(lang: Lang, at: &EditAt) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: {id} is a document. Documents cannot be updated, replaced, deleted or used as a BEFORE/AFTER anchor here (the kernel's updateBlock on a document deletes all its children)."),
            Lang::Zh => format!("Hunk #{n}：{id} 是文档块。文档不能被更新、替换、删除或作为 BEFORE/AFTER 的锚点（内核对文档执行 updateBlock 会删除其全部子块）。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Edit the document's child blocks by their own ids (getBlockContent with showId: true lists them).", "通过子块自己的 ID 编辑文档内容（getBlockContent 配合 showId: true 会列出它们）。"),
                ("To add content to the document, use @@PREPEND:<doc id>@@ or @@APPEND:<doc id>@@.", "要向文档添加内容，请使用 @@PREPEND:<文档ID>@@ 或 @@APPEND:<文档ID>@@。"),
            ],
        ),
    }
}

// ---- against the other hunks (CONFLICTING_EDITS) ------------------------------

/// The block is deleted and also edited by hunks `others`.
pub(super) fn conflicting_delete(lang: Lang, at: &EditAt, others: &str) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: block {id} is deleted in this diff and also edited or used as an anchor by hunk(s) {others}."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 在本 diff 中被删除，同时又被 hunk {others} 编辑或用作锚点。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Keep either the DELETE or the other edits of this block, not both.", "对该块只保留 DELETE 或其他编辑之一。"),
                ("Anchor inserts on a neighbouring block that stays.", "把插入操作锚定到一个保留的相邻块上。"),
            ],
        ),
    }
}

/// The block is replaced by several hunks (also `others`).
pub(super) fn conflicting_replace(lang: Lang, at: &EditAt, others: &str) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: block {id} is replaced by more than one @@REPLACE@@ hunk (also {others}); which one should win is unclear."),
            Lang::Zh => format!("Hunk #{n}：块 {id} 被多个 @@REPLACE@@ hunk（还有 {others}）替换，无法确定以哪个为准。"),
        },
        steps: suggestions(
            lang,
            &[("Merge the replacements into one @@REPLACE:<id>@@ hunk.", "把这些替换合并成一个 @@REPLACE:<ID>@@ hunk。")],
        ),
    }
}

/// An insert next to a block hunks `deleting` delete.
pub(super) fn conflicting_anchor(lang: Lang, at: &EditAt, deleting: &str) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n}: inserts next to block {id}, which hunk(s) {deleting} delete (empty REPLACE)."),
            Lang::Zh => format!("Hunk #{n}：要在块 {id} 旁插入，但该块被 hunk {deleting} 删除（REPLACE 为空）。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Put the new content into that hunk's REPLACE part instead of deleting the block.", "把新内容写进那个 hunk 的 REPLACE 部分，而不是删除该块。"),
                ("Anchor the insert on a neighbouring block that stays.", "把插入锚定到一个保留的相邻块上。"),
            ],
        ),
    }
}

/// The edit is inside `container`, which hunk `outer` rewrites.
pub(super) fn nested_edit(lang: Lang, at: &EditAt, container: &str, outer: u32) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n} edits block {id}, which is inside (or an insert into) container {container}, and hunk #{outer} rewrites or deletes that container: the rewrite would overwrite this edit."),
            Lang::Zh => format!("Hunk #{n} 编辑的块 {id} 位于容器块 {container} 之内（或插入其中），而 hunk #{outer} 重写或删除了该容器：重写会覆盖本编辑。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Make both changes in the container's hunk (its REPLACE holds the children's text).", "把两处修改都写进容器块的 hunk（其 REPLACE 包含子块的文本）。"),
                ("Or edit only the children, each by its own id, and leave the container alone.", "或者只按各自的 ID 编辑子块，不改动容器块本身。"),
            ],
        ),
    }
}

/// The edit rewrites a container hunk `inner` edits inside (`inner_block`).
pub(super) fn nested_edit_outer(lang: Lang, at: &EditAt, inner_block: &str, inner: u32) -> Said {
    let (id, n) = (&at.block_id, at.hunk_index);
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{n} rewrites or deletes container {id}, and hunk #{inner} edits block {inner_block} inside it (or inserts into it): the two cannot both be applied."),
            Lang::Zh => format!("Hunk #{n} 重写或删除容器块 {id}，而 hunk #{inner} 编辑其中的块 {inner_block}（或向其中插入）：两者不能同时应用。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Put the inner change into this hunk's REPLACE and drop the other hunk.", "把内部修改并入本 hunk 的 REPLACE，删除另一个 hunk。"),
                ("Or drop this hunk and edit the children by their own ids.", "或者删除本 hunk，按各自的 ID 编辑子块。"),
            ],
        ),
    }
}

//! The writes and what the kernel did with them: a block changed under
//! the edit, a write that failed or timed out, one that reads back
//! otherwise, a rollback that stepped aside; and editkit's own broken
//! invariants. Each refusal is one function: its message, then what to do
//! next (none where the message says it).

use super::{suggestions, Said};
use crate::host::HostError;
use crate::Lang;

/// Block `id` changed between the check and the write.
pub(super) fn stale_block(lang: Lang, id: &str, hunk: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: block {id} changed (or disappeared) between the check and the write; nothing of this edit was written."),
            Lang::Zh => format!("Hunk #{hunk}：块 {id} 在校验之后、写入之前被修改（或删除）；本编辑未写入任何内容。"),
        },
        steps: suggestions(
            lang,
            &[
                ("Re-read the block and rebuild the hunk from its current content.", "重新读取该块，基于其当前内容重写 hunk。"),
                ("Someone else may be editing the document; retry once their edit is done.", "可能有人正在编辑该文档；待其编辑完成后重试。"),
            ],
        ),
    }
}

/// A write failed (or timed out).
pub(super) fn write_failed(lang: Lang, error: &HostError, hunk: u32) -> Said {
    let name = error.capability.js_name();
    let detail = &error.message;
    Said {
        message: match (lang, error.timeout) {
            (Lang::En, true) => format!("Hunk #{hunk}: the write `{name}` did not answer in time ({detail}); editkit re-read the block to learn whether it landed."),
            (Lang::Zh, true) => format!("Hunk #{hunk}：写入操作 `{name}` 未在时限内返回（{detail}）；editkit 已重新读取该块以确认是否生效。"),
            (Lang::En, false) => format!("Hunk #{hunk}: the write `{name}` failed: {detail}"),
            (Lang::Zh, false) => format!("Hunk #{hunk}：写入操作 `{name}` 失败：{detail}"),
        },
        steps: Vec::new(),
    }
}

/// Block `id` does not read back as planned.
pub(super) fn write_verify_failed(lang: Lang, id: &str, hunk: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: after writing, block {id} does not read back as planned; the kernel may have changed or dropped content. Check it, and use the undo to restore it if needed."),
            Lang::Zh => format!("Hunk #{hunk}：写入后重新读取块 {id}，内容与计划不一致；内核可能修改或丢弃了部分内容。请检查，必要时用 undo 恢复。"),
        },
        steps: Vec::new(),
    }
}

/// The rollback left block `id` alone: someone else changed it.
pub(super) fn rollback_conflict(lang: Lang, id: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("The rollback left block {id} alone: it no longer reads as editkit wrote it (someone else changed it), so restoring it would overwrite their text."),
            Lang::Zh => format!("回滚未改动块 {id}：它已不是 editkit 写入时的内容（已被他人修改），恢复它会覆盖他人的文本。"),
        },
        steps: Vec::new(),
    }
}

// ---- editkit's own invariants -----------------------------------------------

/// An insert had no anchor.
pub(super) fn chain_broken(lang: Lang, hunk: u32) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Hunk #{hunk}: an insert had no anchor (internal error)."),
            Lang::Zh => format!("Hunk #{hunk}：插入操作缺少锚点（内部错误）。"),
        },
        steps: Vec::new(),
    }
}

/// A broken invariant of editkit itself.
pub(super) fn internal(lang: Lang, what: &str) -> Said {
    Said {
        message: match lang {
            Lang::En => format!("Internal error: {what}."),
            Lang::Zh => format!("内部错误：{what}。"),
        },
        steps: Vec::new(),
    }
}

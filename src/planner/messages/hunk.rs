//! The hunk a tool names (`hunk_id`, `existing_hunk_id`): gone, applied,
//! someone else's, or a plan of another kind or file. Each refusal is one
//! function: its message, then its next step.

use super::{pick, Said};
use crate::lang::Lang;

/// The step after a hunk that no longer exists (expired, applied, never
/// issued).
fn prepare_again(lang: Lang) -> String {
    pick(
        lang,
        "Read the file again and prepare a new plan (hunk ids are issued by the prepare tools; never invent one)."
            .into(),
        "请重新读取文件并重新 prepare（hunk_id 只能由 prepare 工具生成，不要自行编造）。".into(),
    )
}

/// The hunk `id` expired.
pub(super) fn hunk_expired(lang: Lang, id: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("Hunk {id} has expired."),
            format!("hunk {id} 已过期。"),
        ),
        next: prepare_again(lang),
    }
}

/// No plan has the hunk `id`, or it was `applied` already.
pub(super) fn hunk_not_found(lang: Lang, id: &str, applied: bool) -> Said {
    Said {
        message: if applied {
            pick(
                lang,
                format!("Hunk {id} was already applied; a hunk applies once."),
                format!("hunk {id} 已经应用过；每个 hunk 只能应用一次。"),
            )
        } else {
            pick(
                lang,
                format!("No plan with hunk_id {id} in this session."),
                format!("本会话中不存在 hunk_id 为 {id} 的规划。"),
            )
        },
        next: prepare_again(lang),
    }
}

/// The hunk `id` belongs to another owner.
pub(super) fn wrong_owner(lang: Lang, id: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("Hunk {id} was planned by another owner."),
            format!("hunk {id} 是由其他成员规划的。"),
        ),
        next: pick(
            lang,
            "Only the owner that prepared a hunk can apply or revise it; prepare your own plan."
                .into(),
            "只有规划该 hunk 的成员才能应用或修订它；请自行 prepare 一个规划。".into(),
        ),
    }
}

/// The hunk `id` was made by `old_mode`; `new_mode` cannot revise it.
pub(super) fn hunk_kind_mismatch(lang: Lang, id: &str, old_mode: &str, new_mode: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("Hunk {id} was made by {old_mode}; {new_mode} cannot revise it."),
            format!("hunk {id} 由 {old_mode} 生成；{new_mode} 不能修订它。"),
        ),
        next: pick(
            lang,
            format!(
                "Revise it with {old_mode}, or leave existing_hunk_id empty to make a new plan."
            ),
            format!("请用 {old_mode} 修订它，或把 existing_hunk_id 留空以生成新规划。"),
        ),
    }
}

/// The hunk `id` is a plan for `old_path`.
pub(super) fn hunk_path_mismatch(lang: Lang, id: &str, old_path: &str) -> Said {
    Said {
        message: pick(
            lang,
            format!("Hunk {id} is a plan for {old_path}, not for this file."),
            format!("hunk {id} 是针对 {old_path} 的规划，不是本文件的。"),
        ),
        next: pick(
            lang,
            "Leave existing_hunk_id empty to plan an edit of this file.".into(),
            "若要规划本文件的修改，请把 existing_hunk_id 留空。".into(),
        ),
    }
}

//! The one-line summary of an apply (`ApplyReport.summary`): the dry run
//! or the refusal that wrote nothing, and the run that wrote (applied,
//! partly failed, or rolled back), counted from the edits' statuses.

use super::super::types::{EditResult, EditStatus, RollbackReport};
use crate::Lang;

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

//! The stale re-check right before the writes (SPEC §3.7 rules 2, 15):
//! every block an entry writes must still read as the check read it, and
//! the ids chosen for new blocks must still be free.

use crate::text::{StableMap, StableSet};

use super::plan::PlanEntry;
use super::reads::{fetch_kramdown, UniqueIds};
use super::refuse;
use super::run_state::Run;
use super::types::Problem;
use super::{EditKind, HostOp};
use crate::host::{host_error, SiyuanHost};
use crate::Error;

impl<H: SiyuanHost> Run<'_, H> {
    /// The kramdown of `ids` now, as stored (like the check's read, SPEC
    /// §3.7 rule 25), after the kernel's queue is flushed.
    async fn fresh_kramdown<'i>(
        &self,
        ids: &'i [String],
    ) -> Result<StableMap<&'i str, Option<String>>, Error> {
        let lang = self.lang;
        self.host
            .flush_transaction()
            .await
            .map_err(|e| host_error(lang, &e))?;
        let mut now = fetch_kramdown(self.host, ids, self.blocks, lang).await?;
        // An id asked for and missing now is `None`.
        Ok(ids.iter().map(|id| (id.as_str(), now.remove(id))).collect())
    }

    /// Re-check right before writing, against the tree: a block whose
    /// kramdown (text, and attributes as a set: SPEC §3.7 rule 15) changed
    /// since the check is STALE_BLOCK and nothing of its edits is
    /// written. The ids chosen for new blocks must still be free. The
    /// kernel's queue is flushed first: a `deleteBlock` answers before it
    /// runs (KERNEL-FACTS §10), and an insert after a block it deleted
    /// would fail — and make the kernel reload every open window (§13;
    /// seen live). Returns the stale plan entries.
    pub(super) async fn recheck(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &StableMap<String, String>,
        only: Option<&StableSet<usize>>,
    ) -> Result<StableSet<usize>, Error> {
        let lang = self.lang;
        let checked = |k: &usize| only.is_none_or(|o| o.contains(k));
        let mut check_ids = UniqueIds::default();
        for (_, entry) in plan.iter().enumerate().filter(|(k, _)| checked(k)) {
            if kramdown.contains_key(&entry.planned.block_id) {
                check_ids.push(&entry.planned.block_id);
            }
        }
        let targets = check_ids.list.len();
        for (_, entry) in plan.iter().enumerate().filter(|(k, _)| checked(k)) {
            for op in &entry.planned.operations {
                if let Some(id) = new_id_of(op) {
                    check_ids.push(id);
                }
            }
        }
        let fresh = self.fresh_kramdown(&check_ids.list).await?;
        let new_taken: StableSet<&str> = check_ids.list[targets..]
            .iter()
            .filter(|id| fresh.get(id.as_str()).is_some_and(Option::is_some))
            .map(String::as_str)
            .collect();
        let mut stale: StableSet<usize> = StableSet::default();
        for (k, entry) in plan.iter().enumerate().filter(|(k, _)| checked(k)) {
            let id = &entry.planned.block_id;
            // Rewritten blocks must read exactly as checked; anchors of
            // inserts must still exist (their children may change freely).
            let rewrites = matches!(entry.planned.kind, EditKind::Update | EditKind::Delete);
            let changed = match (kramdown.get(id), fresh.get(id.as_str())) {
                (Some(before), Some(Some(now))) => {
                    rewrites && !crate::markdown::same_kramdown(before, now)
                }
                (None, None) => false, // a document anchor
                _ => true,
            };
            let collides = entry
                .planned
                .operations
                .iter()
                .filter_map(new_id_of)
                .any(|id| new_taken.contains(id));
            if changed || collides {
                stale.insert(k);
                for &i in &entry.edits {
                    let hunk = self.results[i].hunk_index;
                    let problem = Problem::StaleBlock {
                        id: id.clone(),
                        hunk,
                    };
                    self.fail(i, refuse(lang, problem));
                }
            }
        }
        Ok(stale)
    }
}

fn new_id_of(op: &HostOp) -> Option<&str> {
    match op {
        HostOp::Insert { new_id, .. }
        | HostOp::Prepend { new_id, .. }
        | HostOp::Append { new_id, .. } => new_id.as_deref(),
        _ => None,
    }
}

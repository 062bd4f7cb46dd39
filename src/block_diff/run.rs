//! The writes of a checked plan, in order: the stale re-check right before
//! them ([`super::recheck`]), the writes in plan order, verify, and the
//! rollback in atomic mode (SPEC
//! §3.5, §3.7 rules 2, 3, 11). Host calls: 1 `getKramdown` re-check batch
//! (`STALE_BLOCK`: text and attributes, and the ids chosen for new blocks
//! must still be free), the writes, then 1 `flushTransaction` + 1
//! `getBlocks` verify batch (+ 1 `getChildBlocks` batch when the deletes
//! empty a document). A host with the batch callbacks gets the writes in
//! batches ([`super::batched`]).

use crate::text::{StableMap, StableSet};

use super::batched::has_batches;
use super::plan::PlanEntry;
use super::run_state::{Run, Writes};
use super::undo::Done;
use super::{EditStatus, IdMapping, RollbackReport};
use crate::host::SiyuanHost;
use crate::Error;

pub(super) struct Executed {
    pub(super) done: Vec<Done>,
    pub(super) rollback: Option<RollbackReport>,
    pub(super) id_map: Vec<IdMapping>,
}

impl<H: SiyuanHost> Run<'_, H> {
    pub(super) async fn execute(
        &mut self,
        plan: &[PlanEntry],
        kramdown: StableMap<String, String>,
    ) -> Result<Executed, Error> {
        if has_batches(self.host) {
            let mut id_map = Vec::new();
            if let Some(writes) = self.write_batched(plan, &kramdown, &mut id_map).await? {
                return Ok(self.finish(plan, writes, id_map).await);
            }
        }
        let stale = self.recheck(plan, &kramdown, None).await?;
        if !stale.is_empty() && self.atomic {
            return Ok(Executed {
                done: Vec::new(),
                rollback: None,
                id_map: Vec::new(),
            });
        }
        let Writes {
            mut done,
            mut failed_at,
            renamed,
        } = self.write_all(plan, &stale, &kramdown).await;
        // Verify (unless a write already failed in atomic mode: the rollback
        // reads the blocks itself).
        let mut id_map = renamed;
        if failed_at.is_none() {
            let failures = self.verify(plan, &mut done, 0, &mut id_map).await;
            if !failures.is_empty() && self.atomic {
                failed_at = failures.first().copied();
            }
        }
        let writes = Writes {
            done,
            failed_at,
            renamed: Vec::new(),
        };
        Ok(self.finish(plan, writes, id_map).await)
    }

    /// After the writes: in atomic mode, a failure rolls back what was
    /// written.
    async fn finish(
        &mut self,
        plan: &[PlanEntry],
        writes: Writes,
        mut id_map: Vec<IdMapping>,
    ) -> Executed {
        let Writes {
            mut done,
            failed_at,
            renamed,
        } = writes;
        id_map.extend(renamed);
        let rollback = match failed_at {
            Some(_) => {
                let (report, map) = self.roll_back(&mut done).await;
                id_map.extend(map);
                self.mark_rolled_back(plan, &done);
                Some(report)
            }
            None => None,
        };
        Executed {
            done,
            rollback,
            id_map,
        }
    }

    /// The writes, in diff order, skipping stale entries. In atomic mode
    /// the first failure stops them (`failed_at`); otherwise the partial
    /// writes of a failed entry stay in `done` (the undo covers them) and
    /// the rest go on.
    async fn write_all(
        &mut self,
        plan: &[PlanEntry],
        stale: &StableSet<usize>,
        kramdown: &StableMap<String, String>,
    ) -> Writes {
        let mut done: Vec<Done> = Vec::new();
        let mut tails: StableMap<String, String> = StableMap::default();
        let mut renamed: Vec<IdMapping> = Vec::new();
        for (k, entry) in plan.iter().enumerate() {
            if stale.contains(&k) {
                continue;
            }
            let done_before = done.len();
            match self
                .write_entry(k, entry, kramdown, &mut tails, &mut done)
                .await
            {
                Ok(()) => self.mark_applied(entry, &done[done_before..], &mut renamed),
                Err(error) => {
                    for &i in &entry.edits {
                        self.fail(i, error.clone());
                    }
                    if self.atomic {
                        return Writes {
                            done,
                            failed_at: Some(k),
                            renamed,
                        };
                    }
                }
            }
        }
        Writes {
            done,
            failed_at: None,
            renamed,
        }
    }

    /// After a rollback: an edit stays Applied while any of its writes is
    /// still in `done` (a rollback that failed part-way), else it is
    /// rolled back.
    fn mark_rolled_back(&mut self, plan: &[PlanEntry], done: &[Done]) {
        for (j, entry) in plan.iter().enumerate() {
            let still_written = done.iter().any(|s| s.entry() == j);
            for &i in &entry.edits {
                if self.results[i].status == EditStatus::Applied && !still_written {
                    self.results[i].status = EditStatus::RolledBack;
                }
            }
        }
    }
}

//! The writes of a checked plan: the stale re-check right before them, the
//! writes in plan order, verify, and the rollback in atomic mode (SPEC
//! §3.5, §3.7 rules 2, 3, 11). Host calls: 1 `getKramdown` re-check batch
//! (`STALE_BLOCK`: text and attributes, and the ids chosen for new blocks
//! must still be free), the writes, then 1 `flushTransaction` + 1
//! `getBlocks` verify batch (+ 1 `getChildBlocks` batch when the deletes
//! empty a document). A host with the batch callbacks gets the writes in
//! batches ([`super::batched`]).

use crate::text::{StableMap, StableSet};

use super::batched::has_batches;
use super::messages as msg;
use super::plan::PlanEntry;
use super::reads::{fetch_kramdown, UniqueIds};
use super::refuse;
use super::types::Problem;
use super::undo::{DeleteGroup, Done, UndoPosition};
use super::{
    EditKind, EditResult, EditStatus, HostOp, IdMapping, RollbackReport, Warning, WarningCode,
};
use crate::host::{host_error, SiyuanHost};
use crate::siyuan::{Block, ChildBlock};
use crate::{Error, Lang};

pub(super) struct Run<'a, H> {
    pub(super) host: &'a H,
    pub(super) lang: Lang,
    pub(super) atomic: bool,
    pub(super) results: &'a mut Vec<EditResult>,
    pub(super) blocks: &'a StableMap<String, Option<Block>>,
    pub(super) children: &'a StableMap<String, Vec<ChildBlock>>,
    pub(super) warnings: Vec<Warning>,
}

/// What the writes did: the steps done, the entry whose failure stopped
/// them (atomic mode), the ids the kernel did not keep.
pub(super) struct Writes {
    pub(super) done: Vec<Done>,
    pub(super) failed_at: Option<usize>,
    pub(super) renamed: Vec<IdMapping>,
}

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

    /// An entry written: its edits are applied, the first lists the blocks
    /// it created, and the ids the kernel did not keep are mapped.
    pub(super) fn mark_applied(
        &mut self,
        entry: &PlanEntry,
        written: &[Done],
        renamed: &mut Vec<IdMapping>,
    ) {
        let created: Vec<String> = written
            .iter()
            .filter_map(|d| match d {
                Done::Inserted { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect();
        for (n, &i) in entry.edits.iter().enumerate() {
            self.results[i].status = EditStatus::Applied;
            if n == 0 {
                self.results[i].new_block_ids = created.clone();
            }
        }
        for (old, new) in &entry.renamed {
            if created.contains(new) {
                renamed.push(IdMapping {
                    old_id: old.clone(),
                    new_id: new.clone(),
                });
            }
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

    pub(super) fn fail(&mut self, i: usize, error: Error) {
        self.results[i].status = EditStatus::Failed;
        self.results[i].error = Some(error);
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

/// Groups the deleted blocks of `done` by where they go back: after their
/// nearest previous sibling that was not deleted, else first in their
/// parent; each group in document order.
pub(super) fn delete_groups(
    blocks: &StableMap<String, Option<Block>>,
    children: &StableMap<String, Vec<ChildBlock>>,
    done: &[Done],
    lang: Lang,
) -> (Vec<DeleteGroup>, Vec<Warning>) {
    let deleted: Vec<&str> = done
        .iter()
        .filter(|d| matches!(d, Done::Deleted { .. }))
        .map(Done::id)
        .collect();
    let mut groups: Vec<(DeleteGroup, Vec<usize>)> = Vec::new(); // with sort keys
    let mut warnings = Vec::new();
    for (k, step) in done.iter().enumerate() {
        let Done::Deleted { id, .. } = step else {
            continue;
        };
        let parent = blocks
            .get(id)
            .and_then(Option::as_ref)
            .map(|b| b.parent_id.clone())
            .unwrap_or_default();
        let siblings = children.get(&parent);
        let index = siblings.and_then(|list| list.iter().position(|c| &c.id == id));
        let (position, order) = match (siblings, index) {
            (Some(list), Some(i)) => {
                let previous = list[..i]
                    .iter()
                    .rev()
                    .find(|c| !deleted.contains(&c.id.as_str()));
                let position = match previous {
                    Some(p) => UndoPosition::After(p.id.clone()),
                    None => UndoPosition::Prepend(parent),
                };
                (position, i)
            }
            _ => {
                warnings.push(Warning {
                    code: WarningCode::UndoPositionApproximate,
                    message: msg::undo_position_approximate(lang, id),
                    line: None,
                    hunk_index: None,
                    block_id: Some(id.clone()),
                });
                (UndoPosition::Prepend(parent), usize::MAX)
            }
        };
        match groups.iter_mut().find(|(g, _)| g.position == position) {
            Some((group, orders)) => {
                group.steps.push(k);
                orders.push(order);
            }
            None => groups.push((
                DeleteGroup {
                    position,
                    steps: vec![k],
                },
                vec![order],
            )),
        }
    }
    let groups = groups
        .into_iter()
        .map(|(mut group, orders)| {
            let mut pairs: Vec<(usize, usize)> = orders.into_iter().zip(group.steps).collect();
            pairs.sort(); // (sibling index, step) pairs are distinct
            group.steps = pairs.into_iter().map(|(_, s)| s).collect();
            group
        })
        .collect();
    (groups, warnings)
}

//! The writes in batches, for a host with the batch callbacks (the
//! kernel's `batchUpdateBlock`, `batchInsertBlock`, `batchPrependBlock`,
//! `batchAppendBlock`, KERNEL-FACTS §10): a constant number of requests per
//! apply instead of one or more per block.
//!
//! Every block editkit inserts carries an id editkit chose, so every
//! anchor is known before anything is written: a block that follows one
//! the same diff inserts names that block's chosen id. The writes then go
//! in five batches, in this order — updates (one transaction), prepends,
//! appends, inserts (which may follow blocks the prepends made), deletes
//! (the kernel has no batch delete: one request each, last, so a container
//! that also gets new children is never empty in between, SPEC §3.7 rule
//! 17). Every SPEC §3.7 rule holds per batch:
//!
//! - the stale re-check runs right before the batch that first writes an
//!   entry (the window to the editor's keystrokes stays one batch wide);
//! - a batch that throws is an unknown outcome for each of its writes: one
//!   read after a flush settles which landed (rule 3), and an insert the
//!   kernel answered without an id is settled the same way;
//! - verify reads back each batch (after a flush) before the next one; in
//!   atomic mode the first failure stops the writes and the rollback
//!   undoes what every batch did.

use crate::text::{StableMap, StableSet};

use super::plan::PlanEntry;
use super::run_state::{Run, Writes};
use super::undo::Done;
use super::verify::same_text;
use super::write::{note_created, updated_step, Links};
use super::{EditStatus, HostOp, IdMapping};
use crate::host::{rows_as_stored, Capability, HostError, InsertAnchor, NewIds, SiyuanHost};
use crate::markdown::strip_ial;
use crate::Error;

/// One write with its anchor resolved.
#[derive(Clone, Debug)]
enum Step {
    Update {
        id: String,
        markdown: String,
    },
    Prepend {
        parent: String,
        markdown: String,
        new_id: String,
    },
    Append {
        parent: String,
        markdown: String,
        new_id: String,
    },
    Insert {
        markdown: String,
        anchor: InsertAnchor,
        new_id: String,
    },
    Delete {
        id: String,
    },
}

impl Step {
    /// The batch the step goes in (their order is the order of the batches).
    fn batch(&self) -> usize {
        match self {
            Step::Update { .. } => 0,
            Step::Prepend { .. } => 1,
            Step::Append { .. } => 2,
            Step::Insert { .. } => 3,
            Step::Delete { .. } => 4,
        }
    }
}

/// A resolved write of plan entry `entry`.
struct Planned {
    entry: usize,
    step: Step,
}

/// Whether the host takes writes in batches.
pub(super) fn has_batches<H: SiyuanHost>(host: &H) -> bool {
    [
        Capability::UpdateBlocks,
        Capability::InsertBlocks,
        Capability::PrependBlocks,
        Capability::AppendBlocks,
    ]
    .into_iter()
    .all(|c| host.has(c))
}

/// The plan's writes (stale entries left out) with every anchor resolved
/// as the one-by-one writes would resolve it, the ids editkit chose
/// standing in for blocks not written yet. `None` when an insert has no
/// chosen id: then the writes go one by one.
fn resolve(plan: &[PlanEntry], stale: &StableSet<usize>) -> Option<Vec<Planned>> {
    let mut out = Vec::new();
    let mut tails: StableMap<String, String> = StableMap::default();
    for (k, entry) in plan.iter().enumerate() {
        if stale.contains(&k) {
            continue;
        }
        let mut links = Links::of(entry);
        for op in &entry.planned.operations {
            let (step, new_id) = match op {
                HostOp::Update { id, markdown } => {
                    let markdown = markdown.clone();
                    (
                        Step::Update {
                            id: id.clone(),
                            markdown,
                        },
                        None,
                    )
                }
                HostOp::Delete { id } => (Step::Delete { id: id.clone() }, None),
                HostOp::Insert {
                    markdown, new_id, ..
                } => {
                    let anchor = links.insert_anchor(op, &tails)?;
                    let new_id = new_id.clone()?;
                    let markdown = markdown.clone();
                    let step = Step::Insert {
                        markdown,
                        anchor,
                        new_id: new_id.clone(),
                    };
                    (step, Some(new_id))
                }
                HostOp::Prepend {
                    parent_id,
                    markdown,
                    new_id,
                } => {
                    let new_id = new_id.clone()?;
                    let key = format!("prepend:{parent_id}");
                    let markdown = markdown.clone();
                    let step = match tails.get(&key) {
                        Some(tail) => Step::Insert {
                            markdown,
                            anchor: InsertAnchor::After(tail.clone()),
                            new_id: new_id.clone(),
                        },
                        None => Step::Prepend {
                            parent: parent_id.clone(),
                            markdown,
                            new_id: new_id.clone(),
                        },
                    };
                    links.chain = Some((key, true));
                    (step, Some(new_id))
                }
                HostOp::Append {
                    parent_id,
                    markdown,
                    new_id,
                } => {
                    let new_id = new_id.clone()?;
                    let step = Step::Append {
                        parent: parent_id.clone(),
                        markdown: markdown.clone(),
                        new_id: new_id.clone(),
                    };
                    (step, Some(new_id))
                }
            };
            if let Some(id) = new_id {
                note_created(&id, &mut links.chain, &mut tails, &mut links.last_created);
            }
            out.push(Planned { entry: k, step });
        }
    }
    Some(out)
}

impl<H: SiyuanHost> Run<'_, H> {
    /// The writes in batches (see the module docs), each verified; `None`
    /// when they cannot be resolved in advance (then the caller writes one
    /// by one). `failed_at` is set when atomic mode must roll back.
    pub(super) async fn write_batched(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &StableMap<String, String>,
        id_map: &mut Vec<IdMapping>,
    ) -> Result<Option<Writes>, Error> {
        let Some(steps) = resolve(plan, &StableSet::default()) else {
            return Ok(None);
        };
        let mut writes = Writes {
            done: Vec::new(),
            failed_at: None,
            renamed: Vec::new(),
        };
        let mut failed: StableSet<usize> = StableSet::default();
        let mut started: StableSet<usize> = StableSet::default();
        for batch in 0..5 {
            let mut items: Vec<&Planned> = steps
                .iter()
                .filter(|p| p.step.batch() == batch && !failed.contains(&p.entry))
                .collect();
            let fresh: StableSet<usize> = items
                .iter()
                .map(|p| p.entry)
                .filter(|k| !started.contains(k))
                .collect();
            if !fresh.is_empty() {
                let stale = self.recheck(plan, kramdown, Some(&fresh)).await?;
                items.retain(|p| !stale.contains(&p.entry));
                failed.extend(stale.iter().copied());
                if !stale.is_empty() && self.atomic {
                    // Nothing of an atomic diff is written once one block
                    // is stale; what earlier batches wrote is rolled back.
                    if !writes.done.is_empty() {
                        writes.failed_at = stale.iter().copied().min();
                    }
                    break;
                }
            }
            if items.is_empty() {
                continue;
            }
            started.extend(items.iter().map(|p| p.entry));
            let from = writes.done.len();
            let errors = self
                .write_batch(plan, kramdown, &items, &mut writes.done)
                .await;
            self.mark_written(plan, &items, &errors, &mut writes);
            failed.extend(errors.keys().copied());
            let unverified = self.verify(plan, &mut writes.done, from, id_map).await;
            failed.extend(unverified.iter().copied());
            if self.atomic && !(errors.is_empty() && unverified.is_empty()) {
                writes.failed_at = failed.iter().copied().min();
                break;
            }
        }
        Ok(Some(writes))
    }

    /// Entries whose writes in this batch all went through are applied
    /// (so far); the others fail with their error.
    fn mark_written(
        &mut self,
        plan: &[PlanEntry],
        items: &[&Planned],
        errors: &StableMap<usize, Error>,
        writes: &mut Writes,
    ) {
        let mut entries: Vec<usize> = items.iter().map(|p| p.entry).collect();
        entries.dedup();
        for k in entries {
            if let Some(error) = errors.get(&k) {
                for &i in &plan[k].edits {
                    self.fail(i, error.clone());
                }
                continue;
            }
            if plan[k]
                .edits
                .iter()
                .any(|&i| self.results[i].status == EditStatus::Failed)
            {
                continue;
            }
            let written: Vec<Done> = writes
                .done
                .iter()
                .filter(|d| d.entry() == k)
                .cloned()
                .collect();
            self.mark_applied(&plan[k], &written, &mut writes.renamed);
        }
    }

    /// One batch: the host's batch call (deletes one by one), each write
    /// that landed in `done`. Returns the entries whose writes failed.
    async fn write_batch(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &StableMap<String, String>,
        items: &[&Planned],
        done: &mut Vec<Done>,
    ) -> StableMap<usize, Error> {
        match items[0].step {
            Step::Update { .. } => self.update_batch(plan, kramdown, items, done).await,
            Step::Delete { .. } => self.delete_batch(plan, kramdown, items, done).await,
            _ => self.insert_batch(plan, items, done).await,
        }
    }

    async fn update_batch(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &StableMap<String, String>,
        items: &[&Planned],
        done: &mut Vec<Done>,
    ) -> StableMap<usize, Error> {
        let updates: Vec<(String, String)> = items
            .iter()
            .filter_map(|p| match &p.step {
                Step::Update { id, markdown } => Some((id.clone(), markdown.clone())),
                _ => None,
            })
            .collect();
        let steps: Vec<Done> = items
            .iter()
            .zip(&updates)
            .map(|(p, (id, markdown))| {
                updated_step(p.entry, &plan[p.entry], id, markdown, kramdown)
            })
            .collect();
        match self.host.update_blocks(&updates).await {
            Ok(()) => {
                done.extend(steps);
                StableMap::default()
            }
            Err(e) => {
                // An unknown outcome for each: what reads as written landed.
                let landed = self
                    .rows_now(updates.iter().map(|(id, _)| id.clone()).collect())
                    .await;
                for (step, (id, markdown)) in steps.into_iter().zip(&updates) {
                    let row = landed.get(id).and_then(Option::as_ref);
                    let seen = row.map(|b| same_text(&b.markdown, &strip_ial(markdown)));
                    self.settle(outcome(landed.is_empty(), seen), step, done);
                }
                self.batch_failed(plan, items, e)
            }
        }
    }

    async fn insert_batch(
        &mut self,
        plan: &[PlanEntry],
        items: &[&Planned],
        done: &mut Vec<Done>,
    ) -> StableMap<usize, Error> {
        let answer = match &items[0].step {
            Step::Prepend { .. } | Step::Append { .. } => {
                let into: Vec<(String, String)> = items
                    .iter()
                    .filter_map(|p| match &p.step {
                        Step::Prepend {
                            parent, markdown, ..
                        }
                        | Step::Append {
                            parent, markdown, ..
                        } => Some((parent.clone(), markdown.clone())),
                        _ => None,
                    })
                    .collect();
                if matches!(items[0].step, Step::Prepend { .. }) {
                    self.host.prepend_blocks(&into).await
                } else {
                    self.host.append_blocks(&into).await
                }
            }
            _ => {
                let inserts: Vec<(String, InsertAnchor)> = items
                    .iter()
                    .filter_map(|p| match &p.step {
                        Step::Insert {
                            markdown, anchor, ..
                        } => Some((markdown.clone(), anchor.clone())),
                        _ => None,
                    })
                    .collect();
                self.host.insert_blocks(&inserts).await
            }
        };
        let answers: Vec<Option<NewIds>> = match &answer {
            Ok(lists) if lists.len() == items.len() => lists.iter().cloned().map(Some).collect(),
            _ => vec![None; items.len()],
        };
        self.record_inserts(plan, items, answers, answer.err(), done)
            .await
    }

    /// The inserts the host reported, and (one read) those it did not: an
    /// insert answered without an id, or in a batch that threw, is found by
    /// the id editkit gave it.
    async fn record_inserts(
        &mut self,
        plan: &[PlanEntry],
        items: &[&Planned],
        answers: Vec<Option<NewIds>>,
        thrown: Option<HostError>,
        done: &mut Vec<Done>,
    ) -> StableMap<usize, Error> {
        let mut unknown: Vec<&Planned> = Vec::new();
        let mut errors: StableMap<usize, Error> = StableMap::default();
        for (p, ids) in items.iter().zip(answers) {
            let (markdown, new_id) = inserted_text(&p.step);
            match ids.filter(|ids| ids.iter().any(|id| !id.is_empty())) {
                Some(ids) => {
                    let hunk = first_hunk(&plan[p.entry]);
                    let capability = Capability::InsertBlocks;
                    let new_id = Some(new_id.to_string());
                    let answer = Ok(ids);
                    let recorded = self
                        .inserted(p.entry, answer, &new_id, markdown, capability, hunk, done)
                        .await;
                    if let Err(e) = recorded {
                        errors.insert(p.entry, e);
                    }
                }
                None => unknown.push(p),
            }
        }
        if unknown.is_empty() {
            return errors;
        }
        let ids: Vec<String> = unknown
            .iter()
            .map(|p| inserted_text(&p.step).1.to_string())
            .collect();
        let rows = self.rows_now(ids).await;
        for p in &unknown {
            let (markdown, new_id) = inserted_text(&p.step);
            let step = Done::Inserted {
                entry: p.entry,
                id: new_id.to_string(),
                markdown: markdown.to_string(),
                current: None,
            };
            let seen = rows.get(new_id).map(Option::is_some);
            self.settle(outcome(rows.is_empty(), seen), step, done);
            let error = thrown.clone().unwrap_or_else(|| {
                HostError::new(Capability::InsertBlocks, "the kernel reported no block id")
            });
            let hunk = first_hunk(&plan[p.entry]);
            errors.insert(p.entry, self.write_failed(error, hunk));
        }
        errors
    }

    async fn delete_batch(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &StableMap<String, String>,
        items: &[&Planned],
        done: &mut Vec<Done>,
    ) -> StableMap<usize, Error> {
        let mut errors = StableMap::default();
        for p in items {
            let Step::Delete { id } = &p.step else {
                continue;
            };
            if let Err(e) = self
                .write_delete(p.entry, &plan[p.entry], id, kramdown, done)
                .await
            {
                let hunk = first_hunk(&plan[p.entry]);
                errors.insert(p.entry, self.write_failed(e, hunk));
                if self.atomic {
                    break;
                }
            }
        }
        errors
    }

    /// Every entry of a batch that threw fails with the host's error.
    fn batch_failed(
        &self,
        plan: &[PlanEntry],
        items: &[&Planned],
        error: HostError,
    ) -> StableMap<usize, Error> {
        items
            .iter()
            .map(|p| {
                let hunk = first_hunk(&plan[p.entry]);
                (p.entry, self.write_failed(error.clone(), hunk))
            })
            .collect()
    }

    /// The rows of `ids` now, after a flush (empty when the read failed).
    async fn rows_now(&self, ids: Vec<String>) -> StableMap<String, Option<crate::siyuan::Block>> {
        let _ = self.host.flush_transaction().await;
        match self.host.get_blocks(&ids).await.map(rows_as_stored) {
            Ok(rows) if rows.len() == ids.len() => ids.into_iter().zip(rows).collect(),
            _ => StableMap::default(),
        }
    }
}

/// What a read after an unknown outcome says: the write shows (`Some(true)`),
/// does not (`Some(false)`), or the read failed (assume it may have landed).
fn outcome(read_failed: bool, seen: Option<bool>) -> super::write::Landed {
    use super::write::Landed;
    match (read_failed, seen) {
        (true, _) | (_, None) => Landed::Unknown,
        (false, Some(true)) => Landed::Yes,
        (false, Some(false)) => Landed::No,
    }
}

/// The markdown and the chosen id of an insert-kind step.
fn inserted_text(step: &Step) -> (&str, &str) {
    match step {
        Step::Insert {
            markdown, new_id, ..
        }
        | Step::Prepend {
            markdown, new_id, ..
        }
        | Step::Append {
            markdown, new_id, ..
        } => (markdown, new_id),
        Step::Update { id, markdown } => (markdown, id),
        Step::Delete { id } => ("", id),
    }
}

fn first_hunk(entry: &PlanEntry) -> u32 {
    entry.planned.hunk_indexes.first().copied().unwrap_or(0)
}

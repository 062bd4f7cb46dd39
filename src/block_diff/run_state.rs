//! What a plan's execution carries through its writes: [`Run`] (the host,
//! the edits' results, what the check read) and what the writes did
//! ([`Writes`]), with the two ways an edit's result is settled (applied,
//! failed). The orchestration ([`super::run`]), the stale re-check
//! ([`super::recheck`]), the writes ([`super::write`],
//! [`super::batched`]), verify and rollback each add their part to `Run`;
//! they all read this module, and it reads none of them.

use crate::text::StableMap;

use super::plan::PlanEntry;
use super::undo::Done;
use super::{EditResult, EditStatus, IdMapping, Warning};
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

impl<H> Run<'_, H> {
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

    pub(super) fn fail(&mut self, i: usize, error: Error) {
        self.results[i].status = EditStatus::Failed;
        self.results[i].error = Some(error);
    }
}

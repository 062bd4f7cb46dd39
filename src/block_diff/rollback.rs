//! The automatic rollback of atomic mode, judged against what the blocks
//! read now (after a flush), never against what editkit assumes:
//!
//! - an updated block that reads as editkit wrote it gets its old kramdown
//!   back; one that still reads as before needs nothing (the write never
//!   landed); one that reads as neither was changed by someone else and is
//!   left alone (restoring it would overwrite their text), reported;
//! - an inserted block that exists and reads as inserted is deleted;
//! - a deleted block that is gone is re-inserted at its place with its
//!   kramdown (id included when no block has that id now, SPEC §3.7 rule 8);
//! - a block the kernel created on its own is deleted once what it stood in
//!   for is back.
//!
//! Reverted steps leave `done`; what is left is what the undo must cover.

use crate::text::{StableMap, StableSet};

use super::messages as msg;
use super::plan::ial_ids;
use super::refuse;
use super::run_state::Run;
use super::types::Problem;
use super::undo::delete_groups;
use super::undo::{Done, UndoPosition};
use super::verify::same_text;
use super::{IdMapping, RollbackReport};
use crate::host::{host_error, rows_as_stored, HostError, InsertAnchor, SiyuanHost};
use crate::markdown::strip_ial;
use crate::siyuan::{Block, BlockKind};

/// What the rollback got done so far.
#[derive(Default)]
struct Tally {
    reverted: u32,
    errors: Vec<crate::Error>,
    id_map: Vec<IdMapping>,
}

impl Tally {
    fn report(self) -> (RollbackReport, Vec<IdMapping>) {
        (
            RollbackReport {
                ok: self.errors.is_empty(),
                reverted: self.reverted,
                errors: self.errors,
            },
            self.id_map,
        )
    }
}

/// What every touched block reads now.
type Rows = StableMap<String, Option<Block>>;

/// Whether a block reads as editkit wrote it: as the text sent, or as
/// verify read it right after the write (a write the kernel read
/// differently, e.g. a fence that swallowed what followed it, is still
/// editkit's own, and is restored).
fn reads_as(row: &Block, sent: &str, verified: Option<&str>) -> bool {
    same_text(&row.markdown, sent) || verified.is_some_and(|v| same_text(&row.markdown, v))
}

impl<H: SiyuanHost> Run<'_, H> {
    /// Reverts what `done` lists, judged against what the blocks read now
    /// (see the module docs); reverted steps leave `done`.
    pub(super) async fn roll_back(
        &mut self,
        done: &mut Vec<Done>,
    ) -> (RollbackReport, Vec<IdMapping>) {
        let mut tally = Tally::default();
        let _ = self.host.flush_transaction().await;
        let ids: Vec<String> = done.iter().map(|d| d.id().to_string()).collect();
        let rows: Rows = match self.host.get_blocks(&ids).await.map(rows_as_stored) {
            Ok(rows) if rows.len() == ids.len() => ids.iter().cloned().zip(rows).collect(),
            Ok(_) => {
                let e = HostError::new(crate::host::Capability::GetBlocks, "wrong number of rows");
                tally.errors.push(host_error(self.lang, &e));
                return tally.report();
            }
            Err(e) => {
                tally.errors.push(host_error(self.lang, &e));
                return tally.report();
            }
        };
        // Deleted blocks go back first: removing an inserted block first
        // could leave their container empty, and SiYuan drops an emptied
        // container at its next load (SPEC §3.7 rule 17).
        if self.restore_deleted(done, &rows, &mut tally).await
            && self.revert_writes(done, &rows, &mut tally).await
            && tally.errors.is_empty()
        {
            self.delete_kernel_blocks(done, &mut tally).await;
        }
        // `deleteBlock` answers before its transaction has run
        // (KERNEL-FACTS §10): the rollback's deletes are waited for, so a
        // read right after the report sees the note as it says.
        let _ = self.host.flush_transaction().await;
        tally.report()
    }

    /// Updates and inserts, last write first. `false` when a host write
    /// failed (the rollback stops there).
    async fn revert_writes(
        &mut self,
        done: &mut Vec<Done>,
        rows: &Rows,
        tally: &mut Tally,
    ) -> bool {
        let lang = self.lang;
        let row = |id: &str| rows.get(id).and_then(Option::as_ref);
        let mut k = done.len();
        while k > 0 {
            k -= 1;
            let outcome = match &done[k] {
                Done::Inserted {
                    id,
                    markdown,
                    current,
                    ..
                } => match row(id) {
                    None => Ok(()),
                    Some(b) if reads_as(b, &strip_ial(markdown), current.as_deref()) => {
                        self.host.delete_block(id).await
                    }
                    Some(_) => {
                        let problem = Problem::RollbackConflict { id: id.clone() };
                        tally.errors.push(refuse(lang, problem));
                        continue;
                    }
                },
                Done::Updated {
                    id,
                    old_kramdown,
                    old_markdown,
                    written,
                    current,
                    ..
                } => match row(id) {
                    Some(b) if same_text(&b.markdown, old_markdown) => Ok(()),
                    Some(b) if reads_as(b, &strip_ial(written), current.as_deref()) => {
                        let restore = old_kramdown.clone().unwrap_or_else(|| old_markdown.clone());
                        self.host.update_block(id, &restore).await
                    }
                    _ => {
                        let problem = Problem::RollbackConflict { id: id.clone() };
                        tally.errors.push(refuse(lang, problem));
                        continue;
                    }
                },
                Done::Deleted { .. } | Done::KernelCreated { .. } => continue,
            };
            match outcome {
                Ok(()) => {
                    done.remove(k);
                    tally.reverted += 1;
                }
                Err(e) => {
                    tally.errors.push(host_error(lang, &e));
                    return false;
                }
            }
        }
        true
    }

    /// Deleted blocks go back where they were, group by group; a block
    /// that still reads as before was never deleted. `false` when a host
    /// write failed (the rollback stops there).
    async fn restore_deleted(
        &mut self,
        done: &mut Vec<Done>,
        rows: &Rows,
        tally: &mut Tally,
    ) -> bool {
        let row = |id: &str| rows.get(id).and_then(Option::as_ref);
        let (groups, _) = delete_groups(self.blocks, self.children, done, self.lang);
        let mut restored: Vec<usize> = Vec::new();
        let mut failed = false;
        let taken: StableSet<String> = self.taken_ids(done).await;
        'groups: for group in &groups {
            let mut previous: Option<String> = None;
            for &step in &group.steps {
                let id = done[step].id().to_string();
                let still_there = match (&done[step], row(&id)) {
                    (Done::Deleted { old_markdown, .. }, Some(b)) => {
                        same_text(&b.markdown, old_markdown)
                    }
                    _ => false,
                };
                if !still_there {
                    let Some(body) = done[step].restore_body() else {
                        continue;
                    };
                    let body = self.without_taken_id(body, &id, &taken);
                    match self
                        .reinsert(&body, previous.as_deref(), &group.position)
                        .await
                    {
                        Ok(ids) => {
                            previous = ids.into_iter().find(|id| !id.is_empty());
                            if let Some(new_id) = previous.as_ref().filter(|new_id| **new_id != id)
                            {
                                tally.id_map.push(IdMapping {
                                    old_id: id.clone(),
                                    new_id: new_id.clone(),
                                });
                            }
                        }
                        Err(e) => {
                            tally.errors.push(host_error(self.lang, &e));
                            failed = true;
                            break 'groups;
                        }
                    }
                }
                restored.push(step);
                tally.reverted += 1;
            }
        }
        restored.sort();
        for step in restored.into_iter().rev() {
            done.remove(step);
        }
        !failed
    }

    /// A restored block's kramdown without its id when another block has
    /// that id now (the kernel would refuse a duplicate), with a warning.
    fn without_taken_id(&mut self, body: String, id: &str, taken: &StableSet<String>) -> String {
        if !taken.contains(id) {
            return body;
        }
        self.warnings.push(super::Warning {
            code: super::WarningCode::IdInUse,
            message: msg::id_taken_on_restore(self.lang, id),
            line: None,
            hunk_index: None,
            block_id: Some(id.to_string()),
        });
        body.replace(&format!("id=\"{id}\""), "")
    }

    /// Re-inserts a deleted block after the one restored before it, or at
    /// its group's position.
    async fn reinsert(
        &self,
        body: &str,
        previous: Option<&str>,
        position: &UndoPosition,
    ) -> Result<Vec<String>, HostError> {
        match (previous, position) {
            (Some(prev), _) => {
                self.host
                    .insert_block(body, &InsertAnchor::After(prev.to_string()))
                    .await
            }
            (None, UndoPosition::After(anchor)) => {
                self.host
                    .insert_block(body, &InsertAnchor::After(anchor.clone()))
                    .await
            }
            (None, UndoPosition::Prepend(parent)) => {
                self.prepend_or_after_heading(parent, body).await
            }
        }
    }

    /// Blocks the kernel made on its own, once what they replaced is back.
    async fn delete_kernel_blocks(&mut self, done: &mut Vec<Done>, tally: &mut Tally) {
        let mut k = done.len();
        while k > 0 {
            k -= 1;
            if let Done::KernelCreated { id, .. } = &done[k] {
                let id = id.clone();
                match self.host.delete_block(&id).await {
                    Ok(()) => {
                        done.remove(k);
                    }
                    Err(e) => tally.errors.push(host_error(self.lang, &e)),
                }
            }
        }
    }

    /// Ids among the deleted blocks' kramdown that another block has now.
    async fn taken_ids(&self, done: &[Done]) -> StableSet<String> {
        let mut wanted = Vec::new();
        for d in done {
            if let Some(body) = d.restore_body() {
                wanted.extend(ial_ids(&body));
            }
        }
        if wanted.is_empty() {
            return StableSet::default();
        }
        match self.host.get_blocks(&wanted).await {
            Ok(rows) if rows.len() == wanted.len() => wanted
                .into_iter()
                .zip(rows)
                .filter_map(|(id, row)| row.map(|_| id))
                .collect(),
            _ => StableSet::default(),
        }
    }

    /// PREPEND semantics of the diff: on a heading, right after it; into
    /// a task item, after its checkbox (an insert by parent: `prependBlock`
    /// would put the block before the checkbox, SPEC §3.7 rule 20). (The
    /// parent is rarely among the diff's targets; then it is read.)
    pub(super) async fn prepend_or_after_heading(
        &self,
        parent: &str,
        body: &str,
    ) -> Result<Vec<String>, HostError> {
        let row = match self.blocks.get(parent) {
            Some(row) => row.clone(),
            None => {
                let rows = self.host.get_blocks(&[parent.to_string()]).await?;
                rows.into_iter().next().flatten()
            }
        };
        let kind = row.as_ref().map(Block::kind);
        let task_item =
            kind == Some(BlockKind::ListItem) && row.as_ref().is_some_and(|b| b.subtype == "t");
        if kind == Some(BlockKind::Heading) {
            self.host
                .insert_block(body, &InsertAnchor::After(parent.to_string()))
                .await
        } else if task_item {
            self.host
                .insert_block(body, &InsertAnchor::Parent(parent.to_string()))
                .await
        } else {
            self.host.prepend_block(parent, body).await
        }
    }
}

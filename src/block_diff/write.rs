//! The writes of one plan entry, in order, with unknown outcomes settled.
//!
//! A write callback that throws, rejects or times out may still have landed
//! (KERNEL-FACTS §2; a lost HTTP answer). Before reporting anything, editkit
//! re-reads the block the write targeted (after a flush) and records the
//! write as done if it finds it landed, so the rollback and the undo cover
//! it (SPEC §3.7 rule 3). Every inserted block carries an id editkit chose,
//! so even an insert whose answer was lost can be found.

use crate::text::StableMap;

use super::messages as msg;
use super::plan::PlanEntry;
use super::refuse;
use super::run_state::Run;
use super::types::Problem;
use super::undo::Done;
use super::verify::same_text;
use super::{EditKind, HostOp, Warning, WarningCode};
use crate::host::{rows_as_stored, Capability, HostError, InsertAnchor, NewIds, SiyuanHost};
use crate::markdown::{strip_ial, with_ials_in_written_order};
use crate::siyuan::Block;
use crate::Error;

/// The record of an update of `id` (entry `k`) sending `markdown`: what
/// its undo and rollback restore is the block's kramdown before — from
/// the container's when a narrowed container update writes the block
/// alone (SPEC §3.7 rule 23), else from the check's read.
pub(super) fn updated_step(
    k: usize,
    entry: &PlanEntry,
    id: &str,
    markdown: &str,
    kramdown: &StableMap<String, String>,
) -> Done {
    let narrowed = entry
        .narrowed_kramdown
        .iter()
        .find(|(leaf, _)| leaf == id)
        .map(|(_, old)| old.clone());
    Done::Updated {
        entry: k,
        id: id.to_string(),
        old_markdown: match &narrowed {
            Some(old) => strip_ial(old),
            None => entry.planned.old_markdown.clone().unwrap_or_default(),
        },
        old_kramdown: narrowed.or_else(|| kramdown.get(id).map(|k| with_ials_in_written_order(k))),
        written: markdown.to_string(),
        current: None,
    }
}

/// What re-reading after a failed write found.
pub(super) enum Landed {
    Yes,
    No,
    /// The re-read failed too: assume it may have landed.
    Unknown,
}

impl<H: SiyuanHost> Run<'_, H> {
    /// Performs the writes of entry `k`. On a failure, the writes of this
    /// entry that landed are in `done` and the error is returned.
    pub(super) async fn write_entry(
        &mut self,
        k: usize,
        entry: &PlanEntry,
        kramdown: &StableMap<String, String>,
        tails: &mut StableMap<String, String>,
        done: &mut Vec<Done>,
    ) -> Result<(), Error> {
        let hunk = entry.planned.hunk_indexes.first().copied().unwrap_or(0);
        let mut links = Links::of(entry);
        for op in &entry.planned.operations {
            let (answer, markdown, new_id, capability) = match op {
                HostOp::Update { id, markdown } => {
                    self.write_update(k, entry, id, markdown, kramdown, done)
                        .await
                        .map_err(|e| self.write_failed(e, hunk))?;
                    continue;
                }
                HostOp::Delete { id } => {
                    self.write_delete(k, entry, id, kramdown, done)
                        .await
                        .map_err(|e| self.write_failed(e, hunk))?;
                    continue;
                }
                HostOp::Insert {
                    markdown, new_id, ..
                } => {
                    let Some(anchor) = links.insert_anchor(op, tails) else {
                        return Err(refuse(self.lang, Problem::ChainBroken { hunk }));
                    };
                    let answer = self.host.insert_block(markdown, &anchor).await;
                    (answer, markdown, new_id, Capability::InsertBlock)
                }
                HostOp::Prepend {
                    parent_id,
                    markdown,
                    new_id,
                } => {
                    let key = format!("prepend:{parent_id}");
                    let answer = match tails.get(&key).cloned() {
                        Some(tail) => {
                            self.host
                                .insert_block(markdown, &InsertAnchor::After(tail))
                                .await
                        }
                        None => self.host.prepend_block(parent_id, markdown).await,
                    };
                    links.chain = Some((key, true));
                    (answer, markdown, new_id, Capability::PrependBlock)
                }
                HostOp::Append {
                    parent_id,
                    markdown,
                    new_id,
                } => {
                    let answer = self.host.append_block(parent_id, markdown).await;
                    (answer, markdown, new_id, Capability::AppendBlock)
                }
            };
            let id = self
                .inserted(k, answer, new_id, markdown, capability, hunk, done)
                .await?;
            note_created(&id, &mut links.chain, tails, &mut links.last_created);
        }
        Ok(())
    }

    pub(super) fn write_failed(&self, error: HostError, hunk: u32) -> Error {
        refuse(self.lang, Problem::WriteFailed { error, hunk })
    }

    /// One `updateBlock`; a failed call is settled by reading whether the
    /// text landed anyway.
    async fn write_update(
        &mut self,
        k: usize,
        entry: &PlanEntry,
        id: &str,
        markdown: &str,
        kramdown: &StableMap<String, String>,
        done: &mut Vec<Done>,
    ) -> Result<(), HostError> {
        let step = updated_step(k, entry, id, markdown, kramdown);
        if let Err(e) = self.host.update_block(id, markdown).await {
            let landed = self
                .landed(id, |row| {
                    row.is_some_and(|b| same_text(&b.markdown, &strip_ial(markdown)))
                })
                .await;
            self.settle(landed, step, done);
            return Err(e);
        }
        done.push(step);
        Ok(())
    }

    /// One `deleteBlock`; a failed call is settled by reading whether the
    /// block is gone anyway.
    pub(super) async fn write_delete(
        &mut self,
        k: usize,
        entry: &PlanEntry,
        id: &str,
        kramdown: &StableMap<String, String>,
        done: &mut Vec<Done>,
    ) -> Result<(), HostError> {
        let step = Done::Deleted {
            entry: k,
            id: id.to_string(),
            old_kramdown: kramdown.get(id).map(|k| with_ials_in_written_order(k)),
            old_markdown: entry.planned.old_markdown.clone().unwrap_or_default(),
        };
        if let Err(e) = self.host.delete_block(id).await {
            let landed = self.landed(id, |row| row.is_none()).await;
            self.settle(landed, step, done);
            return Err(e);
        }
        done.push(step);
        Ok(())
    }

    /// Records an insert: every id the host reports (the kernel inserts
    /// every block of the markdown it reads), else the id editkit gave the
    /// block. A failed call is settled by looking for that id.
    #[allow(clippy::too_many_arguments)] // one call site per insert kind
    pub(super) async fn inserted(
        &mut self,
        k: usize,
        answer: Result<NewIds, HostError>,
        new_id: &Option<String>,
        markdown: &str,
        capability: Capability,
        hunk: u32,
        done: &mut Vec<Done>,
    ) -> Result<String, Error> {
        let step = |id: &str| Done::Inserted {
            entry: k,
            id: id.to_string(),
            markdown: markdown.to_string(),
            current: None,
        };
        match answer {
            Ok(ids) => {
                let mut ids: Vec<String> = ids.into_iter().filter(|id| !id.is_empty()).collect();
                // The block editkit named comes first when the host reports it.
                if let Some(ours) = new_id {
                    if let Some(at) = ids.iter().position(|id| id == ours) {
                        let id = ids.remove(at);
                        ids.insert(0, id);
                    }
                }
                let primary = match (ids.first(), new_id) {
                    (Some(first), _) => first.clone(),
                    (None, Some(ours)) => ours.clone(),
                    (None, None) => {
                        return Err(refuse(
                            self.lang,
                            Problem::WriteFailed {
                                error: HostError::new(capability, "returned no block id"),
                                hunk,
                            },
                        ))
                    }
                };
                if ids.is_empty() {
                    done.push(step(&primary));
                }
                for id in &ids {
                    done.push(step(id));
                }
                Ok(primary)
            }
            Err(e) => {
                if let Some(ours) = new_id {
                    let landed = self.landed(ours, |row| row.is_some()).await;
                    self.settle(landed, step(ours), done);
                }
                Err(refuse(self.lang, Problem::WriteFailed { error: e, hunk }))
            }
        }
    }

    /// Re-reads one block after a failed write (after a flush) and asks
    /// `landed` whether the write shows.
    async fn landed(&mut self, id: &str, landed: impl Fn(Option<&Block>) -> bool) -> Landed {
        let _ = self.host.flush_transaction().await;
        match self
            .host
            .get_blocks(&[id.to_string()])
            .await
            .map(rows_as_stored)
        {
            Ok(rows) if rows.len() == 1 => {
                if landed(rows[0].as_ref()) {
                    Landed::Yes
                } else {
                    Landed::No
                }
            }
            _ => Landed::Unknown,
        }
    }

    pub(super) fn settle(&mut self, landed: Landed, step: Done, done: &mut Vec<Done>) {
        let id = step.id().to_string();
        match landed {
            Landed::Yes | Landed::Unknown => {
                self.warnings.push(Warning {
                    code: WarningCode::WriteOutcomeResolved,
                    message: msg::write_outcome_resolved(self.lang, &id, true),
                    line: None,
                    hunk_index: None,
                    block_id: Some(id),
                });
                done.push(step);
            }
            Landed::No => self.warnings.push(Warning {
                code: WarningCode::WriteOutcomeResolved,
                message: msg::write_outcome_resolved(self.lang, &id, false),
                line: None,
                hunk_index: None,
                block_id: Some(id),
            }),
        }
    }
}

pub(super) fn note_created(
    id: &str,
    chain: &mut Option<(String, bool)>,
    tails: &mut StableMap<String, String>,
    last_created: &mut Option<String>,
) {
    *last_created = Some(id.to_string());
    if let Some((key, true)) = chain {
        tails.insert(key.clone(), id.to_string());
    }
}

/// How one plan entry's inserts link up: the block it created last, and
/// the anchor chain it extends with whether it owns the chain's tail
/// (later inserts at the same anchor go after this entry's blocks).
pub(super) struct Links {
    is_update: bool,
    pub(super) last_created: Option<String>,
    pub(super) chain: Option<(String, bool)>,
}

impl Links {
    /// The links of one entry, before its first write.
    pub(super) fn of(entry: &PlanEntry) -> Links {
        Links {
            is_update: entry.planned.kind == EditKind::Update,
            last_created: None,
            chain: None,
        }
    }

    /// Where an insert goes: into its parent, after the entry's previous
    /// insert, before its next sibling, or after its previous sibling (or
    /// after the blocks an earlier entry inserted there). `None` when it
    /// should follow an insert that made no block (a broken chain).
    pub(super) fn insert_anchor(
        &mut self,
        op: &HostOp,
        tails: &StableMap<String, String>,
    ) -> Option<InsertAnchor> {
        let HostOp::Insert {
            previous_id,
            next_id,
            parent_id,
            after_previous_insert,
            ..
        } = op
        else {
            return None;
        };
        if let (Some(parent), false) = (parent_id, *after_previous_insert) {
            return Some(InsertAnchor::Parent(parent.clone()));
        }
        if *after_previous_insert {
            return self.last_created.clone().map(InsertAnchor::After);
        }
        if let Some(next) = next_id {
            return Some(InsertAnchor::Before(next.clone()));
        }
        let prev = previous_id.as_ref()?;
        let key = format!("after:{prev}");
        let owns = !self.is_update || !tails.contains_key(&key);
        let resolved = if self.is_update {
            prev.clone()
        } else {
            tails.get(&key).cloned().unwrap_or_else(|| prev.clone())
        };
        self.chain = Some((key, owns));
        Some(InsertAnchor::After(resolved))
    }
}

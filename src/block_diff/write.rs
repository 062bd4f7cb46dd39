//! The writes of one plan entry, in order, with unknown outcomes settled.
//!
//! A write callback that throws, rejects or times out may still have landed
//! (KERNEL-FACTS §2; a lost HTTP answer). Before reporting anything, editkit
//! re-reads the block the write targeted (after a flush) and records the
//! write as done if it finds it landed, so the rollback and the undo cover
//! it (SPEC §3.7 rule 3). Every inserted block carries an id editkit chose,
//! so even an insert whose answer was lost can be found.

use std::collections::HashMap;

use super::execute::Run;
use super::messages as msg;
use super::plan::PlanEntry;
use super::refuse;
use super::types::Problem;
use super::undo::Done;
use super::verify::same_text;
use super::{EditKind, HostOp, Warning, WarningCode};
use crate::host::{Capability, HostError, InsertAnchor, NewIds, SiyuanHost};
use crate::markdown::strip_ial;
use crate::siyuan::Block;
use crate::Error;

/// What re-reading after a failed write found.
enum Landed {
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
        kramdown: &HashMap<String, String>,
        tails: &mut HashMap<String, String>,
        done: &mut Vec<Done>,
    ) -> Result<(), Error> {
        let lang = self.lang;
        let hunk = entry.planned.hunk_indexes.first().copied().unwrap_or(0);
        let is_update = entry.planned.kind == EditKind::Update;
        let mut last_created: Option<String> = None;
        // The anchor chain this entry extends, and whether it owns the tail
        // (later inserts at the same anchor go after this entry's blocks).
        let mut chain: Option<(String, bool)> = None;
        for op in &entry.planned.operations {
            let failed = |e: &HostError| {
                refuse(
                    lang,
                    Problem::WriteFailed {
                        error: e.clone(),
                        hunk,
                    },
                )
            };
            match op {
                HostOp::Update { id, markdown } => {
                    let step = Done::Updated {
                        entry: k,
                        id: id.clone(),
                        old_kramdown: kramdown.get(id).cloned(),
                        old_markdown: entry.planned.old_markdown.clone().unwrap_or_default(),
                        written: markdown.clone(),
                        current: None,
                    };
                    if let Err(e) = self.host.update_block(id, markdown).await {
                        let landed = self
                            .landed(id, |row| {
                                row.is_some_and(|b| same_text(&b.markdown, &strip_ial(markdown)))
                            })
                            .await;
                        self.settle(landed, step, done);
                        return Err(failed(&e));
                    }
                    done.push(step);
                }
                HostOp::Delete { id } => {
                    let step = Done::Deleted {
                        entry: k,
                        id: id.clone(),
                        old_kramdown: kramdown.get(id).cloned(),
                        old_markdown: entry.planned.old_markdown.clone().unwrap_or_default(),
                    };
                    if let Err(e) = self.host.delete_block(id).await {
                        let landed = self.landed(id, |row| row.is_none()).await;
                        self.settle(landed, step, done);
                        return Err(failed(&e));
                    }
                    done.push(step);
                }
                HostOp::Insert {
                    markdown,
                    previous_id,
                    next_id,
                    parent_id,
                    after_previous_insert,
                    new_id,
                } => {
                    let anchor = if let (Some(parent), false) = (parent_id, *after_previous_insert)
                    {
                        InsertAnchor::Parent(parent.clone())
                    } else if *after_previous_insert {
                        let Some(prev) = last_created.clone() else {
                            return Err(refuse(lang, Problem::ChainBroken { hunk }));
                        };
                        InsertAnchor::After(prev)
                    } else if let Some(next) = next_id {
                        InsertAnchor::Before(next.clone())
                    } else if let Some(prev) = previous_id {
                        let key = format!("after:{prev}");
                        let owns = !is_update || !tails.contains_key(&key);
                        let resolved = if is_update {
                            prev.clone()
                        } else {
                            tails.get(&key).cloned().unwrap_or_else(|| prev.clone())
                        };
                        chain = Some((key, owns));
                        InsertAnchor::After(resolved)
                    } else {
                        return Err(refuse(lang, Problem::ChainBroken { hunk }));
                    };
                    let answer = self.host.insert_block(markdown, &anchor).await;
                    let id = self
                        .inserted(
                            k,
                            answer,
                            new_id,
                            markdown,
                            Capability::InsertBlock,
                            hunk,
                            done,
                        )
                        .await?;
                    note_created(&id, &mut chain, tails, &mut last_created);
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
                    chain = Some((key, true));
                    let id = self
                        .inserted(
                            k,
                            answer,
                            new_id,
                            markdown,
                            Capability::PrependBlock,
                            hunk,
                            done,
                        )
                        .await?;
                    note_created(&id, &mut chain, tails, &mut last_created);
                }
                HostOp::Append {
                    parent_id,
                    markdown,
                    new_id,
                } => {
                    let answer = self.host.append_block(parent_id, markdown).await;
                    let id = self
                        .inserted(
                            k,
                            answer,
                            new_id,
                            markdown,
                            Capability::AppendBlock,
                            hunk,
                            done,
                        )
                        .await?;
                    note_created(&id, &mut chain, tails, &mut last_created);
                }
            }
        }
        Ok(())
    }

    /// Records an insert: every id the host reports (the kernel inserts
    /// every block of the markdown it reads), else the id editkit gave the
    /// block. A failed call is settled by looking for that id.
    #[allow(clippy::too_many_arguments)] // one call site per insert kind
    async fn inserted(
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
        match self.host.get_blocks(&[id.to_string()]).await {
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

    fn settle(&mut self, landed: Landed, step: Done, done: &mut Vec<Done>) {
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

fn note_created(
    id: &str,
    chain: &mut Option<(String, bool)>,
    tails: &mut HashMap<String, String>,
    last_created: &mut Option<String>,
) {
    *last_created = Some(id.to_string());
    if let Some((key, true)) = chain {
        tails.insert(key.clone(), id.to_string());
    }
}

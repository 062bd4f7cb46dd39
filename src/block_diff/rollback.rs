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

use std::collections::{HashMap, HashSet};

use super::execute::{delete_groups, Run};
use super::messages as msg;
use super::plan::ial_ids;
use super::refuse;
use super::types::Problem;
use super::undo::{Done, UndoPosition};
use super::verify::same_text;
use super::{IdMapping, RollbackReport};
use crate::host::{host_error, HostError, InsertAnchor, SiyuanHost};
use crate::markdown::strip_ial;
use crate::siyuan::{Block, BlockKind};

impl<H: SiyuanHost> Run<'_, H> {
    pub(super) async fn roll_back(
        &mut self,
        done: &mut Vec<Done>,
    ) -> (RollbackReport, Vec<IdMapping>) {
        let lang = self.lang;
        let mut reverted = 0u32;
        let mut errors = Vec::new();
        let mut id_map = Vec::new();
        let failed = |errors: Vec<crate::Error>, reverted: u32, id_map| {
            (
                RollbackReport {
                    ok: false,
                    reverted,
                    errors,
                },
                id_map,
            )
        };

        // What every touched block reads now.
        let _ = self.host.flush_transaction().await;
        let ids: Vec<String> = done.iter().map(|d| d.id().to_string()).collect();
        let rows: HashMap<String, Option<Block>> = match self.host.get_blocks(&ids).await {
            Ok(rows) if rows.len() == ids.len() => ids.iter().cloned().zip(rows).collect(),
            Ok(_) => {
                let e = HostError::new(crate::host::Capability::GetBlocks, "wrong number of rows");
                return failed(vec![host_error(lang, &e)], 0, id_map);
            }
            Err(e) => return failed(vec![host_error(lang, &e)], 0, id_map),
        };
        let row = |id: &str| rows.get(id).and_then(Option::as_ref);

        // Updates and inserts, last write first.
        let mut k = done.len();
        while k > 0 {
            k -= 1;
            let outcome = match &done[k] {
                Done::Inserted { id, markdown, .. } => match row(id) {
                    None => Ok(()),
                    Some(b) if same_text(&b.markdown, &strip_ial(markdown)) => {
                        self.host.delete_block(id).await
                    }
                    Some(_) => {
                        errors.push(refuse(lang, Problem::RollbackConflict { id: id.clone() }));
                        continue;
                    }
                },
                Done::Updated {
                    id,
                    old_kramdown,
                    old_markdown,
                    written,
                    ..
                } => match row(id) {
                    Some(b) if same_text(&b.markdown, old_markdown) => Ok(()),
                    Some(b) if same_text(&b.markdown, &strip_ial(written)) => {
                        let restore = old_kramdown.clone().unwrap_or_else(|| old_markdown.clone());
                        self.host.update_block(id, &restore).await
                    }
                    _ => {
                        errors.push(refuse(lang, Problem::RollbackConflict { id: id.clone() }));
                        continue;
                    }
                },
                Done::Deleted { .. } | Done::KernelCreated { .. } => continue,
            };
            match outcome {
                Ok(()) => {
                    done.remove(k);
                    reverted += 1;
                }
                Err(e) => {
                    errors.push(host_error(lang, &e));
                    return failed(errors, reverted, id_map);
                }
            }
        }

        // Deleted blocks go back where they were, group by group.
        let (groups, _) = delete_groups(self.blocks, self.children, done, lang);
        let mut restored: Vec<usize> = Vec::new();
        let taken: HashSet<String> = self.taken_ids(done).await;
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
                if still_there {
                    // Never deleted (the write did not land).
                    restored.push(step);
                    reverted += 1;
                    continue;
                }
                let Some(mut body) = done[step].restore_body() else {
                    continue;
                };
                if taken.contains(&id) {
                    body = body.replace(&format!("id=\"{id}\""), "");
                    self.warnings.push(super::Warning {
                        code: super::WarningCode::IdInUse,
                        message: msg::id_taken_on_restore(lang, &id),
                        line: None,
                        hunk_index: None,
                        block_id: Some(id.clone()),
                    });
                }
                let result = match (&previous, &group.position) {
                    (Some(prev), _) => {
                        self.host
                            .insert_block(&body, &InsertAnchor::After(prev.clone()))
                            .await
                    }
                    (None, UndoPosition::After(anchor)) => {
                        self.host
                            .insert_block(&body, &InsertAnchor::After(anchor.clone()))
                            .await
                    }
                    (None, UndoPosition::Prepend(parent)) => {
                        self.prepend_or_after_heading(parent, &body).await
                    }
                };
                match result {
                    Ok(ids) => {
                        previous = ids.into_iter().find(|id| !id.is_empty());
                        if let Some(new_id) = previous.as_ref().filter(|new_id| **new_id != id) {
                            id_map.push(IdMapping {
                                old_id: id.clone(),
                                new_id: new_id.clone(),
                            });
                        }
                    }
                    Err(e) => {
                        errors.push(host_error(lang, &e));
                        break 'groups;
                    }
                }
                restored.push(step);
                reverted += 1;
            }
        }
        restored.sort_unstable();
        for step in restored.into_iter().rev() {
            done.remove(step);
        }

        // Blocks the kernel made on its own, once what they replaced is back.
        if errors.is_empty() {
            let mut k = done.len();
            while k > 0 {
                k -= 1;
                if let Done::KernelCreated { id, .. } = &done[k] {
                    let id = id.clone();
                    match self.host.delete_block(&id).await {
                        Ok(()) => {
                            done.remove(k);
                        }
                        Err(e) => errors.push(host_error(lang, &e)),
                    }
                }
            }
        }
        (
            RollbackReport {
                ok: errors.is_empty(),
                reverted,
                errors,
            },
            id_map,
        )
    }

    /// Ids among the deleted blocks' kramdown that another block has now.
    async fn taken_ids(&self, done: &[Done]) -> HashSet<String> {
        let mut wanted = Vec::new();
        for d in done {
            if let Some(body) = d.restore_body() {
                wanted.extend(ial_ids(&body));
            }
        }
        if wanted.is_empty() {
            return HashSet::new();
        }
        match self.host.get_blocks(&wanted).await {
            Ok(rows) if rows.len() == wanted.len() => wanted
                .into_iter()
                .zip(rows)
                .filter_map(|(id, row)| row.map(|_| id))
                .collect(),
            _ => HashSet::new(),
        }
    }

    /// PREPEND semantics of the diff: on a heading, right after it.
    /// (The parent is rarely among the diff's targets; then it is read.)
    pub(super) async fn prepend_or_after_heading(
        &self,
        parent: &str,
        body: &str,
    ) -> Result<Vec<String>, HostError> {
        let heading = match self.blocks.get(parent) {
            Some(row) => row.as_ref().is_some_and(|b| b.kind() == BlockKind::Heading),
            None => {
                let rows = self.host.get_blocks(&[parent.to_string()]).await?;
                rows.first()
                    .and_then(Option::as_ref)
                    .is_some_and(|b| b.kind() == BlockKind::Heading)
            }
        };
        if heading {
            self.host
                .insert_block(body, &InsertAnchor::After(parent.to_string()))
                .await
        } else {
            self.host.prepend_block(parent, body).await
        }
    }
}

//! Drives the host: fetch, check, re-check, write, verify, roll back.
//!
//! Host calls for a diff of n hunks (n does not matter):
//! validation = 1 `getBlocks` (+ 1 `getChildBlocks` batch when a heading
//! APPEND or an undo position needs one); execution adds 1 `getKramdown`
//! batch (for the undo), 1 `getBlocks` re-fetch (STALE_BLOCK), the writes,
//! 1 `flushTransaction` and 1 `getBlocks` verify batch.
//!
//! No state is shared between calls, so concurrent applies (JS may call in
//! while one awaits a host Promise) cannot interfere inside the core.

use std::collections::{HashMap, HashSet};

use super::check::{check, normalize_eol, CheckInput, PlanEntry};
use super::messages as msg;
use super::parser::analyze;
use super::undo::{build_undo, DeleteGroup, Done, UndoPosition};
use super::{
    ApplyOptions, ApplyReport, EditKind, EditResult, EditStatus, HostOp, IdMapping, RollbackReport,
    Warning, WarningCode,
};
use crate::host::{
    fetch_children, host_error, one_per_id, require, Capability, HostError, InsertAnchor,
    SiyuanHost,
};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::{Error, Lang};

/// Parses, checks and (unless `dry_run`) executes a block diff against the
/// host. `Err` only for a malformed diff (`INVALID_DIFF_FORMAT`), a host
/// that lacks a needed callback (`HOST_CAPABILITY_MISSING`) or a failed
/// read before anything was written (`HOST_ERROR`); every per-edit outcome,
/// including write failures, is in the report.
pub async fn apply_block_diff<H: SiyuanHost>(
    text: &str,
    host: &H,
    options: &ApplyOptions,
) -> Result<ApplyReport, Error> {
    let lang = options.lang;
    let analysis = analyze(text, lang);
    if !analysis.errors.is_empty() {
        return Err(msg::invalid_format(lang, analysis.errors));
    }
    let edits = analysis.edits;
    let mut warnings = analysis.warnings;
    require(host, &[Capability::GetBlocks], lang)?;

    let mut ids = UniqueIds::default();
    for edit in &edits {
        ids.push(&edit.block_id);
    }
    let blocks = fetch_blocks(host, &ids.list, lang).await?;

    // One child-list batch: sections of headings that get an APPEND, and,
    // when writing, the parents of blocks that may be deleted (undo
    // positions).
    let mut child_ids = UniqueIds::default();
    for edit in &edits {
        let Some(Some(block)) = blocks.get(&edit.block_id) else {
            continue;
        };
        let heading = block.kind() == BlockKind::Heading;
        let may_delete = edit.kind == EditKind::Delete
            || (edit.kind == EditKind::Update
                && edit.search.is_some()
                && edit
                    .replacement
                    .as_deref()
                    .is_some_and(|r| r.trim().is_empty()));
        if edit.kind == EditKind::Append && heading {
            child_ids.push(&block.id);
        }
        if may_delete && !options.dry_run && !block.parent_id.is_empty() {
            child_ids.push(&block.parent_id);
        }
    }
    let children: HashMap<String, Vec<ChildBlock>> = if child_ids.list.is_empty() {
        HashMap::new()
    } else {
        require(host, &[Capability::GetChildBlocks], lang)?;
        let lists = fetch_children(host, &child_ids.list, lang).await?;
        child_ids.list.into_iter().zip(lists).collect()
    };

    let outcome = check(&CheckInput {
        edits: &edits,
        blocks: &blocks,
        children: &children,
        lang,
        mode: options.match_mode,
    });
    warnings.extend(outcome.warnings);
    let mut results = outcome.results;
    let plan = outcome.plan;
    let any_failed = results.iter().any(|r| r.status == EditStatus::Failed);

    if options.dry_run || (any_failed && options.atomic) || plan.is_empty() {
        let summary = msg::summary_not_executed(lang, &results, options.dry_run);
        return Ok(ApplyReport {
            ok: !any_failed,
            dry_run: options.dry_run,
            summary,
            results,
            plan: plan.into_iter().map(|e| e.planned).collect(),
            undo: None,
            rollback: None,
            warnings,
            id_map: Vec::new(),
        });
    }

    // Every callback the writes and the undo need, before anything is written.
    let mut needed = vec![Capability::GetKramdown];
    for entry in &plan {
        for op in &entry.planned.operations {
            needed.push(match op {
                HostOp::Update { .. } => Capability::UpdateBlock,
                HostOp::Delete { .. } => Capability::DeleteBlock,
                HostOp::Insert { .. } => Capability::InsertBlock,
                HostOp::Prepend { .. } => Capability::PrependBlock,
                HostOp::Append { .. } => Capability::AppendBlock,
            });
        }
        if entry.planned.kind == EditKind::Delete {
            needed.push(Capability::InsertBlock); // rollback re-inserts
        }
    }
    require(host, &needed, lang)?;

    let mut run = Run {
        host,
        lang,
        atomic: options.atomic,
        results: &mut results,
        blocks: &blocks,
        children: &children,
    };
    let executed = run.execute(&plan).await?;
    let Executed {
        done,
        rollback,
        verify_warnings,
        id_map,
    } = executed;
    warnings.extend(verify_warnings);

    let (undo, undo_warnings) = if rollback.as_ref().is_some_and(|r| r.ok) || done.is_empty() {
        (None, Vec::new())
    } else {
        let (groups, mut w) = delete_groups(&blocks, &children, &done, lang);
        let (text, w2) = build_undo(&done, &groups, lang);
        w.extend(w2);
        (Some(text), w)
    };
    warnings.extend(undo_warnings);
    let ok = results
        .iter()
        .all(|r| matches!(r.status, EditStatus::Applied | EditStatus::Unchanged));
    let summary = msg::summary_executed(lang, &results, rollback.as_ref());
    Ok(ApplyReport {
        ok,
        dry_run: false,
        summary,
        results,
        plan: plan.into_iter().map(|e| e.planned).collect(),
        undo,
        rollback,
        warnings,
        id_map,
    })
}

/// Ids in first-seen order, each once: a diff names the same block in
/// many hunks, and a linear membership test made 1,000 hunks quadratic.
#[derive(Default)]
struct UniqueIds {
    list: Vec<String>,
    seen: HashSet<String>,
}

impl UniqueIds {
    fn push(&mut self, id: &str) {
        if self.seen.insert(id.to_string()) {
            self.list.push(id.to_string());
        }
    }
}

/// The rows of `ids`, keyed by id.
async fn fetch_blocks<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    lang: Lang,
) -> Result<HashMap<String, Option<Block>>, Error> {
    let rows = crate::host::fetch_blocks(host, ids, lang).await?;
    Ok(ids.iter().cloned().zip(rows).collect())
}

struct Run<'a, H> {
    host: &'a H,
    lang: Lang,
    atomic: bool,
    results: &'a mut Vec<EditResult>,
    blocks: &'a HashMap<String, Option<Block>>,
    children: &'a HashMap<String, Vec<ChildBlock>>,
}

struct Executed {
    done: Vec<Done>,
    rollback: Option<RollbackReport>,
    verify_warnings: Vec<Warning>,
    id_map: Vec<IdMapping>,
}

impl<H: SiyuanHost> Run<'_, H> {
    async fn execute(&mut self, plan: &[PlanEntry]) -> Result<Executed, Error> {
        let lang = self.lang;
        // Kramdown of every block that will be rewritten or deleted, for
        // the undo. (The kernel's delete removes only the block itself, a
        // folded heading included: its section stays.)
        let mut unique = UniqueIds::default();
        for entry in plan {
            if matches!(entry.planned.kind, EditKind::Update | EditKind::Delete) {
                unique.push(&entry.planned.block_id);
            }
        }
        let kramdown_ids = unique.list;
        let kramdowns = self
            .host
            .get_kramdown(&kramdown_ids)
            .await
            .map_err(|e| host_error(lang, &e))?;
        let kramdowns = one_per_id(kramdowns, kramdown_ids.len(), Capability::GetKramdown, lang)?;
        let kramdown: HashMap<String, String> = kramdown_ids
            .iter()
            .cloned()
            .zip(kramdowns)
            .filter_map(|(id, k)| k.map(|k| (id, normalize_eol(&k))))
            .collect();

        // Re-fetch the targets right before writing: a block changed since
        // the check is STALE_BLOCK and nothing of its edits is written.
        let mut target_ids = UniqueIds::default();
        for entry in plan {
            target_ids.push(&entry.planned.block_id);
        }
        let fresh = fetch_blocks(self.host, &target_ids.list, lang).await?;
        let mut stale: HashSet<usize> = HashSet::new();
        for (k, entry) in plan.iter().enumerate() {
            let id = &entry.planned.block_id;
            let before = self.blocks.get(id).and_then(Option::as_ref);
            let now = fresh.get(id).and_then(Option::as_ref);
            let changed = match (before, now) {
                (Some(b), Some(n)) => normalize_eol(&b.markdown) != normalize_eol(&n.markdown),
                _ => true,
            };
            if changed {
                stale.insert(k);
                for &i in &entry.edits {
                    self.fail(i, msg::stale_block(lang, id, self.results[i].hunk_index));
                }
            }
        }
        if !stale.is_empty() && self.atomic {
            return Ok(Executed {
                done: Vec::new(),
                rollback: None,
                verify_warnings: Vec::new(),
                id_map: Vec::new(),
            });
        }

        let mut done: Vec<Done> = Vec::new();
        let mut tails: HashMap<String, String> = HashMap::new();
        let mut rollback = None;
        let mut rollback_id_map: Vec<IdMapping> = Vec::new();
        for (k, entry) in plan.iter().enumerate() {
            if stale.contains(&k) {
                continue;
            }
            let done_before = done.len();
            match self
                .write_entry(k, entry, &kramdown, &mut tails, &mut done)
                .await
            {
                Ok(()) => {
                    let created: Vec<String> = done[done_before..]
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
                }
                Err(error) => {
                    for &i in &entry.edits {
                        self.fail(i, error.clone());
                    }
                    if self.atomic {
                        // Writes of this entry that did happen are undone too.
                        // An edit stays Applied while any of its writes is
                        // still in `done` (a rollback that failed part-way
                        // reverted the later writes only).
                        let (report, map) = self.roll_back(&mut done).await;
                        rollback_id_map = map;
                        for (j, d) in plan.iter().enumerate().take(k) {
                            let still_written = done.iter().any(|s| s.entry() == j);
                            for &i in &d.edits {
                                if self.results[i].status == EditStatus::Applied && !still_written {
                                    self.results[i].status = EditStatus::RolledBack;
                                }
                            }
                        }
                        rollback = Some(report);
                        break;
                    }
                    // Non-atomic: the partial writes of this entry stay in
                    // `done` (the undo covers them); go on with the rest.
                }
            }
        }

        if rollback.as_ref().is_some_and(|r| r.ok) {
            return Ok(Executed {
                done,
                rollback,
                verify_warnings: Vec::new(),
                id_map: rollback_id_map,
            });
        }
        let (verify_warnings, mut id_map) = self.verify(plan, &mut done).await;
        id_map.extend(rollback_id_map);
        Ok(Executed {
            done,
            rollback,
            verify_warnings,
            id_map,
        })
    }

    fn fail(&mut self, i: usize, error: Error) {
        self.results[i].status = EditStatus::Failed;
        self.results[i].error = Some(error);
    }

    async fn write_entry(
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
            let host_err = |e: HostError| msg::write_failed(lang, &e, hunk);
            match op {
                HostOp::Update { id, markdown } => {
                    let old_kramdown = kramdown.get(id).cloned();
                    let old_markdown = entry.planned.old_markdown.clone().unwrap_or_default();
                    self.host
                        .update_block(id, markdown)
                        .await
                        .map_err(host_err)?;
                    done.push(Done::Updated {
                        entry: k,
                        id: id.clone(),
                        old_kramdown,
                        old_markdown,
                        written: markdown.clone(),
                        current: None,
                    });
                }
                HostOp::Delete { id } => {
                    let old_kramdown = kramdown.get(id).cloned();
                    self.host.delete_block(id).await.map_err(host_err)?;
                    let old_markdown = entry.planned.old_markdown.clone().unwrap_or_default();
                    done.push(Done::Deleted {
                        entry: k,
                        id: id.clone(),
                        old_kramdown,
                        old_markdown,
                    });
                }
                HostOp::Insert {
                    markdown,
                    previous_id,
                    next_id,
                    after_previous_insert,
                } => {
                    let anchor = if *after_previous_insert {
                        let Some(prev) = last_created.clone() else {
                            return Err(msg::chain_broken(lang, hunk));
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
                        return Err(msg::chain_broken(lang, hunk));
                    };
                    let ids = self
                        .host
                        .insert_block(markdown, &anchor)
                        .await
                        .map_err(host_err)?;
                    let id = self.created_id(ids, Capability::InsertBlock, hunk)?;
                    self.note_created(&id, &mut chain, tails, &mut last_created);
                    done.push(Done::Inserted {
                        entry: k,
                        id,
                        markdown: markdown.clone(),
                    });
                }
                HostOp::Prepend {
                    parent_id,
                    markdown,
                } => {
                    let key = format!("prepend:{parent_id}");
                    let ids = match tails.get(&key).cloned() {
                        Some(tail) => {
                            self.host
                                .insert_block(markdown, &InsertAnchor::After(tail))
                                .await
                        }
                        None => self.host.prepend_block(parent_id, markdown).await,
                    }
                    .map_err(host_err)?;
                    chain = Some((key, true));
                    let id = self.created_id(ids, Capability::PrependBlock, hunk)?;
                    self.note_created(&id, &mut chain, tails, &mut last_created);
                    done.push(Done::Inserted {
                        entry: k,
                        id,
                        markdown: markdown.clone(),
                    });
                }
                HostOp::Append {
                    parent_id,
                    markdown,
                } => {
                    let ids = self
                        .host
                        .append_block(parent_id, markdown)
                        .await
                        .map_err(host_err)?;
                    let id = self.created_id(ids, Capability::AppendBlock, hunk)?;
                    self.note_created(&id, &mut chain, tails, &mut last_created);
                    done.push(Done::Inserted {
                        entry: k,
                        id,
                        markdown: markdown.clone(),
                    });
                }
            }
        }
        Ok(())
    }

    fn created_id(
        &self,
        ids: Vec<String>,
        capability: Capability,
        hunk: u32,
    ) -> Result<String, Error> {
        ids.into_iter().find(|id| !id.is_empty()).ok_or_else(|| {
            msg::write_failed(
                self.lang,
                &HostError::new(capability, "returned no block id"),
                hunk,
            )
        })
    }

    fn note_created(
        &self,
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

    /// Reverts `done` with direct host writes: inserted blocks are deleted
    /// and updated blocks restored (last write first), then deleted blocks
    /// are re-inserted group by group. Reverted steps leave `done`; what is
    /// left is what the undo must still cover. Re-inserted blocks the host
    /// gave a new id (it did not accept the one in the IAL) are mapped.
    async fn roll_back(&mut self, done: &mut Vec<Done>) -> (RollbackReport, Vec<IdMapping>) {
        let lang = self.lang;
        let mut reverted = 0u32;
        let mut errors = Vec::new();
        let mut id_map = Vec::new();
        let mut k = done.len();
        while k > 0 {
            k -= 1;
            let outcome = match &done[k] {
                Done::Inserted { id, .. } => self.host.delete_block(id).await,
                Done::Updated {
                    id,
                    old_kramdown,
                    old_markdown,
                    ..
                } => {
                    let restore = old_kramdown.clone().unwrap_or_else(|| old_markdown.clone());
                    self.host.update_block(id, &restore).await
                }
                Done::Deleted { .. } => continue,
            };
            match outcome {
                Ok(()) => {
                    done.remove(k);
                    reverted += 1;
                }
                Err(e) => {
                    errors.push(host_error(lang, &e));
                    return (
                        RollbackReport {
                            ok: false,
                            reverted,
                            errors,
                        },
                        id_map,
                    );
                }
            }
        }
        let (groups, _) = delete_groups(self.blocks, self.children, done, lang);
        let mut restored: Vec<usize> = Vec::new();
        'groups: for group in &groups {
            let mut previous: Option<String> = None;
            for &step in &group.steps {
                if let Some(body) = done[step].restore_body() {
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
                            if let Some(new_id) = previous
                                .as_ref()
                                .filter(|new_id| *new_id != done[step].id())
                            {
                                id_map.push(IdMapping {
                                    old_id: done[step].id().to_string(),
                                    new_id: new_id.clone(),
                                });
                            }
                        }
                        Err(e) => {
                            errors.push(host_error(lang, &e));
                            break 'groups;
                        }
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
        (
            RollbackReport {
                ok: errors.is_empty(),
                reverted,
                errors,
            },
            id_map,
        )
    }

    /// PREPEND semantics of the diff: on a heading, right after it.
    /// (The parent is rarely among the diff's targets; then it is read.)
    async fn prepend_or_after_heading(
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

    /// Re-reads every written block in one batch (after a flush) and
    /// compares its text with what was planned. Records the text each
    /// updated block now has, for the undo's SEARCH.
    async fn verify(
        &mut self,
        plan: &[PlanEntry],
        done: &mut [Done],
    ) -> (Vec<Warning>, Vec<IdMapping>) {
        let lang = self.lang;
        let mut warnings = Vec::new();
        if done.is_empty() {
            return (warnings, Vec::new());
        }
        let _ = self.host.flush_transaction().await;
        let ids: Vec<String> = done.iter().map(Done::id).map(str::to_string).collect();
        let rows = match self.host.get_blocks(&ids).await {
            Ok(rows) if rows.len() == ids.len() => rows,
            Ok(_) | Err(_) => {
                warnings.push(Warning {
                    code: WarningCode::UndoUnchecked,
                    message: msg::verify_unavailable(lang),
                    line: None,
                    hunk_index: None,
                    block_id: None,
                });
                return (warnings, Vec::new());
            }
        };
        let mut id_map = Vec::new();
        for (step, row) in done.iter_mut().zip(rows) {
            let (entry, problem) = match step {
                Done::Updated {
                    entry,
                    written,
                    current,
                    ..
                } => {
                    let expected = super::ial::strip_ial(written);
                    let problem = match &row {
                        Some(b) if same_text(&b.markdown, &expected) => None,
                        Some(b) => Some(b.markdown.clone()),
                        None => Some(String::new()),
                    };
                    *current = row.map(|b| normalize_eol(&b.markdown));
                    (*entry, problem)
                }
                Done::Inserted {
                    entry,
                    id,
                    markdown,
                } => {
                    let expected = super::ial::strip_ial(markdown);
                    if let Some(old) = ial_id(markdown).filter(|old| old != id) {
                        id_map.push(IdMapping {
                            old_id: old,
                            new_id: id.clone(),
                        });
                    }
                    let problem = match &row {
                        Some(b) if same_text(&b.markdown, &expected) => None,
                        Some(b) => Some(b.markdown.clone()),
                        None => Some(String::new()),
                    };
                    (*entry, problem)
                }
                Done::Deleted { entry, .. } => (*entry, row.map(|b| b.markdown)),
            };
            if let Some(actual) = problem {
                let id = step.id().to_string();
                for &i in &plan[entry].edits {
                    if self.results[i].status == EditStatus::Applied {
                        let hunk = self.results[i].hunk_index;
                        self.fail(i, msg::write_verify_failed(lang, &id, hunk, &actual));
                    }
                }
            }
        }
        (warnings, id_map)
    }
}

/// Whether two markdowns say the same thing: equal letters and digits in
/// the same order, ignoring formatting the kernel normalises (whitespace,
/// list markers and numbering, emphasis characters, table padding).
fn same_text(actual: &str, expected: &str) -> bool {
    fn letters(s: &str) -> impl Iterator<Item = char> + '_ {
        s.lines().flat_map(|line| {
            let t = line.trim_start();
            let t = t.trim_start_matches(['>', ' ']);
            let t = strip_list_marker(t);
            t.chars().filter(|c| c.is_alphanumeric())
        })
    }
    letters(actual).eq(letters(expected))
}

fn strip_list_marker(line: &str) -> &str {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(line.as_bytes().get(digits), Some(b'.' | b')')) {
        return &line[digits + 1..];
    }
    line
}

/// The `id` in the IAL of the first block of `markdown`, if any.
fn ial_id(markdown: &str) -> Option<String> {
    markdown
        .lines()
        .find(|l| super::split::is_ial_line(l.trim()))
        .and_then(|l| {
            super::ial::parse_ial(l)
                .into_iter()
                .find(|(k, _)| k == "id")
                .map(|(_, v)| v)
        })
}

/// Groups the deleted blocks of `done` by where they go back: after their
/// nearest previous sibling that was not deleted, else first in their
/// parent; each group in document order.
fn delete_groups(
    blocks: &HashMap<String, Option<Block>>,
    children: &HashMap<String, Vec<ChildBlock>>,
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
            pairs.sort_unstable(); // (sibling index, step) pairs are distinct
            group.steps = pairs.into_iter().map(|(_, s)| s).collect();
            group
        })
        .collect();
    (groups, warnings)
}

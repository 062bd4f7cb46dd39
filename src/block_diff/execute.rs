//! Drives the host: read, check, plan, re-check, write, verify, roll back.
//!
//! Every read a check depends on sees the block tree, never the SQL view
//! that lags it by up to ~3 s for every writer (KERNEL-FACTS §1, SPEC §3.7
//! rule 1): the rows are read after a `flushTransaction`, and the kramdown
//! (read from the tree) is what decides whether a block changed. Host reads
//! for a diff of n hunks (n does not matter):
//!
//! - validation: 1 `flushTransaction` + 1 `getBlocks` batch (the targets,
//!   and ids written in the bodies) + 1 `getKramdown` batch (the targets:
//!   the baseline of the stale re-check, the children of containers, the
//!   undo's text); + 1 `getReferencedIds` batch when a container is
//!   rewritten, + 1 `getChildBlocks` batch when a heading APPEND, a
//!   task-item PREPEND or an undo position needs one;
//! - execution: 1 `getKramdown` re-check batch (`STALE_BLOCK`: text and
//!   attributes, and the ids chosen for new blocks must still be free), the
//!   writes, then 1 `flushTransaction` + 1 `getBlocks` verify batch (+ 1
//!   `getChildBlocks` batch when a delete empties a list item).
//!
//! No state is shared between calls, so concurrent applies (JS may call in
//! while one awaits a host Promise) cannot interfere inside the core.

use crate::text::{FastMap, FastSet};

use super::check::{check, normalize_eol, CheckInput};
use super::emptied::{fold_emptied, order_writes, Known};
use super::ial::memberships_in;
use super::messages as msg;
use super::parser::{analyze, Keep};
use super::plan::{ial_ids, seed_of, Draft, IdMaker, PlanData, PlanEntry, Planner};
use super::refuse;
use super::types::Problem;
use super::undo::{build_undo, DeleteGroup, Done, UndoPosition};
use super::verify::check_written;
use super::{
    ApplyOptions, ApplyReport, BlockEdit, EditKind, EditResult, EditStatus, HostOp, IdMapping,
    RollbackReport, Warning, WarningCode,
};
use crate::host::{fetch_children, host_error, one_per_id, require, Capability, SiyuanHost};
use crate::markdown::{ial_id, parse, Node};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::{Error, Lang};

/// Parses, checks and (unless `dry_run`) executes a block diff against the
/// host. `Err` only for a malformed diff (`INVALID_DIFF_FORMAT`), a host
/// that lacks a needed callback (`HOST_CAPABILITY_MISSING`) or a failed
/// read before anything was written (`HOST_ERROR`, `HOST_TIMEOUT`); every
/// per-edit outcome, including write failures, is in the report.
pub async fn apply_block_diff<H: SiyuanHost>(
    text: &str,
    host: &H,
    options: &ApplyOptions,
) -> Result<ApplyReport, Error> {
    let lang = options.lang;
    let keep = Keep {
        hunks: false,
        edits: true,
    };
    let analysis = analyze(text, lang, keep);
    if !analysis.errors.is_empty() {
        return Err(refuse(
            lang,
            Problem::InvalidFormat {
                errors: analysis.errors,
            },
        ));
    }
    let edits = analysis.edits;
    let mut warnings = analysis.warnings;
    require(host, &[Capability::GetBlocks], lang)?;
    let mut checked = read_and_check(host, &edits, options, &mut warnings).await?;
    let referenced =
        read_references(host, &checked.drafts, &checked.reads.descendants, lang).await?;
    let splits = read_splits(host, &checked.drafts, lang).await?;
    let reads = &checked.reads;
    let data = PlanData {
        blocks: &reads.blocks,
        kramdown: &reads.kramdown,
        children: &checked.children,
        referenced: referenced.as_ref(),
        existing: &reads.existing,
        descendants: &reads.descendants,
        splits: &splits,
        emptied_documents: &checked.emptied_documents,
        allow_child_reassign: options.allow_child_reassign,
        allow_membership_loss: options.allow_membership_loss,
        lang,
    };
    let results = &mut checked.results;
    let plan = plan_writes(text, options, data, &checked.drafts, results, &mut warnings);
    let plan = order_writes(plan, &checked.insert_first, &checked.children);
    let any_failed = results.iter().any(|r| r.status == EditStatus::Failed);
    if options.dry_run || (any_failed && options.atomic) || plan.is_empty() {
        return Ok(not_executed_report(
            options,
            plan,
            checked.results,
            warnings,
        ));
    }
    require(host, &needed_capabilities(&plan), lang)?;
    let mut run = Run {
        host,
        lang,
        atomic: options.atomic,
        results,
        blocks: &reads.blocks,
        children: &checked.children,
        warnings: Vec::new(),
    };
    let executed = run.execute(&plan, reads.kramdown.clone()).await?;
    warnings.append(&mut run.warnings);
    let context = Context {
        blocks: &reads.blocks,
        children: &checked.children,
        lost: &checked.lost,
    };
    Ok(executed_report(
        lang,
        context,
        plan,
        checked.results,
        executed,
        warnings,
    ))
}

/// What the reads and the content check decided, before planning.
struct Checked {
    reads: Reads,
    children: FastMap<String, Vec<ChildBlock>>,
    results: Vec<EditResult>,
    drafts: Vec<Draft>,
    emptied_documents: FastSet<String>,
    insert_first: Vec<String>,
    lost: Vec<(String, Vec<&'static str>)>,
}

/// The validation reads and the content check: each edit against its
/// block, blocks being edited right now refused, emptied containers
/// deleted whole, lost memberships refused (or, allowed, noted).
async fn read_and_check<H: SiyuanHost>(
    host: &H,
    edits: &[BlockEdit],
    options: &ApplyOptions,
    warnings: &mut Vec<Warning>,
) -> Result<Checked, Error> {
    let lang = options.lang;
    let mut reads = read_targets(host, edits, lang).await?;
    let mut children = read_child_lists(host, edits, &reads.blocks, lang).await?;
    let outcome = check(&CheckInput {
        edits,
        blocks: &reads.blocks,
        descendants: &reads.descendants,
        lang,
        mode: options.match_mode,
    });
    warnings.extend(outcome.warnings);
    let mut results = outcome.results;
    fail_changing(edits, &reads.changing, &mut results, lang);
    let drafts: Vec<Draft> = outcome
        .drafts
        .into_iter()
        .filter(|d| !reads.changing.contains(&d.block_id))
        .collect();
    let known = Known {
        blocks: &mut reads.blocks,
        kramdown: &mut reads.kramdown,
        children: &mut children,
    };
    let emptied = fold_emptied(host, drafts, known, lang).await?;
    warnings.extend(emptied.warnings);
    let allow = options.allow_membership_loss;
    let (drafts, lost) = memberships(
        emptied.drafts,
        &reads.kramdown,
        allow,
        &mut results,
        warnings,
        lang,
    );
    Ok(Checked {
        reads,
        children,
        results,
        drafts,
        emptied_documents: emptied.emptied_documents,
        insert_first: emptied.insert_first,
        lost,
    })
}

/// SPEC §3.7 rule 18: a delete that would drop a database row or a
/// flashcard (its own or a descendant's) is refused unless the caller
/// allows it; then each loss is a warning and is returned for the undo.
fn memberships(
    drafts: Vec<Draft>,
    kramdown: &FastMap<String, String>,
    allow: bool,
    results: &mut [EditResult],
    warnings: &mut Vec<Warning>,
    lang: Lang,
) -> (Vec<Draft>, Vec<(String, Vec<&'static str>)>) {
    let mut kept = Vec::with_capacity(drafts.len());
    let mut lost = Vec::new();
    for draft in drafts {
        let members = match (draft.kind, kramdown.get(&draft.block_id)) {
            (EditKind::Delete, Some(k)) => memberships_in(k),
            _ => Vec::new(),
        };
        if members.is_empty() {
            kept.push(draft);
            continue;
        }
        if !allow {
            let problem = Problem::WouldLoseMembership {
                id: draft.block_id.clone(),
                hunk: draft.hunk_indexes.first().copied().unwrap_or(0),
                line: draft.line,
                members,
                reassigned: false,
            };
            let error = refuse(lang, problem);
            for &i in &draft.edits {
                results[i].status = EditStatus::Failed;
                results[i].error = Some(error.clone());
            }
            continue;
        }
        for (id, what) in &members {
            warnings.push(Warning {
                code: WarningCode::MembershipLost,
                message: msg::membership_lost(lang, id, what),
                line: Some(draft.line),
                hunk_index: draft.hunk_indexes.first().copied(),
                block_id: Some(id.clone()),
            });
        }
        lost.extend(members);
        kept.push(draft);
    }
    (kept, lost)
}

/// A block being edited right now (its row and tree disagree) fails its
/// edits as stale.
fn fail_changing(
    edits: &[BlockEdit],
    changing: &FastSet<String>,
    results: &mut [EditResult],
    lang: Lang,
) {
    for (i, edit) in edits.iter().enumerate() {
        if changing.contains(&edit.block_id) && results[i].status != EditStatus::Failed {
            results[i].status = EditStatus::Failed;
            results[i].error = Some(refuse(
                lang,
                Problem::StaleBlock {
                    id: edit.block_id.clone(),
                    hunk: edit.hunk_index,
                },
            ));
        }
    }
}

/// What the validation reads found about the targets.
struct Reads {
    /// Each target's row (`None`: no such block).
    blocks: FastMap<String, Option<Block>>,
    /// Ids the new bodies write that a block already has.
    existing: FastSet<String>,
    /// Each target's kramdown, read from the tree (documents excepted).
    kramdown: FastMap<String, String>,
    /// Targets whose row and tree disagree: being edited right now.
    changing: FastSet<String>,
    /// The ids inside each container target.
    descendants: FastMap<String, FastSet<String>>,
}

/// The validation reads, fresh (after a flush): the targets' rows and the
/// ids the bodies write, one batch; the targets' kramdown, one batch. The
/// kramdown is the baseline of the re-check before writing, the children
/// of containers (nested edits, restated IALs, references) and the undo's
/// text. (Documents are only ever anchors: their kramdown is the whole
/// note.)
async fn read_targets<H: SiyuanHost>(
    host: &H,
    edits: &[BlockEdit],
    lang: Lang,
) -> Result<Reads, Error> {
    flush(host, lang).await?;
    let mut ids = UniqueIds::default();
    for edit in edits {
        ids.push(&edit.block_id);
    }
    let targets = ids.list.len();
    let mut body_ids: FastSet<String> = FastSet::default();
    for edit in edits {
        for id in ial_ids(edit.replacement.as_deref().unwrap_or("")) {
            ids.push(&id);
            body_ids.insert(id);
        }
    }
    let rows = crate::host::fetch_blocks(host, &ids.list, lang).await?;
    let existing: FastSet<String> = ids
        .list
        .iter()
        .zip(&rows)
        .filter(|(id, row)| row.is_some() && body_ids.contains(*id))
        .map(|(id, _)| id.clone())
        .collect();
    let blocks: FastMap<String, Option<Block>> = ids.list[..targets]
        .iter()
        .cloned()
        .zip(rows.into_iter().take(targets))
        .collect();
    let present: Vec<String> = ids.list[..targets]
        .iter()
        .filter(|id| {
            blocks
                .get(*id)
                .and_then(Option::as_ref)
                .is_some_and(|b| b.kind() != BlockKind::Document)
        })
        .cloned()
        .collect();
    let mut kramdown: FastMap<String, String> = FastMap::default();
    if !present.is_empty() {
        require(host, &[Capability::GetKramdown], lang)?;
        kramdown = fetch_kramdown(host, &present, lang).await?;
    }
    let changing = changing_now(edits, &present, &blocks, &kramdown);
    let descendants = container_descendants(&blocks, &kramdown);
    Ok(Reads {
        blocks,
        existing,
        kramdown,
        changing,
        descendants,
    })
}

/// The targets an update or delete rewrites whose row (read after the
/// flush) and tree disagree: someone is editing them right now.
fn changing_now(
    edits: &[BlockEdit],
    present: &[String],
    blocks: &FastMap<String, Option<Block>>,
    kramdown: &FastMap<String, String>,
) -> FastSet<String> {
    let rewritten_ids: FastSet<&str> = edits
        .iter()
        .filter(|e| matches!(e.kind, EditKind::Update | EditKind::Delete))
        .map(|e| e.block_id.as_str())
        .collect();
    present
        .iter()
        .filter(|id| rewritten_ids.contains(id.as_str()))
        .filter(|id| {
            let row = blocks.get(*id).and_then(Option::as_ref);
            let tree = kramdown.get(*id);
            match (row, tree) {
                (Some(b), Some(k)) if b.kind() != BlockKind::Document => {
                    !super::verify::row_reads_as_tree(&b.markdown, k)
                }
                (Some(_), Some(_)) => false,
                _ => true,
            }
        })
        .cloned()
        .collect()
}

/// The ids inside each container target (documents excepted), from its
/// kramdown.
fn container_descendants(
    blocks: &FastMap<String, Option<Block>>,
    kramdown: &FastMap<String, String>,
) -> FastMap<String, FastSet<String>> {
    kramdown
        .iter()
        .filter(|(id, _)| {
            blocks
                .get(*id)
                .and_then(Option::as_ref)
                .is_some_and(|b| b.kind().is_container() && b.kind() != BlockKind::Document)
        })
        .map(|(id, k)| {
            let mut inside = FastSet::default();
            for node in parse(k) {
                collect_ids(&node, &mut inside);
            }
            inside.remove(id);
            (id.clone(), inside)
        })
        .collect()
}

/// One child-list batch: sections of headings that get an APPEND. (The
/// parents of deleted blocks, for undo positions and emptied containers,
/// are read by [`fold_emptied`].)
async fn read_child_lists<H: SiyuanHost>(
    host: &H,
    edits: &[BlockEdit],
    blocks: &FastMap<String, Option<Block>>,
    lang: Lang,
) -> Result<FastMap<String, Vec<ChildBlock>>, Error> {
    let mut child_ids = UniqueIds::default();
    for edit in edits {
        let Some(Some(block)) = blocks.get(&edit.block_id) else {
            continue;
        };
        if edit.kind == EditKind::Append && block.kind() == BlockKind::Heading {
            child_ids.push(&block.id);
        }
    }
    if child_ids.list.is_empty() {
        return Ok(FastMap::default());
    }
    require(host, &[Capability::GetChildBlocks], lang)?;
    let lists = fetch_children(host, &child_ids.list, lang).await?;
    Ok(child_ids.list.into_iter().zip(lists).collect())
}

/// References to the children a container rewrite may re-ID: `None` when
/// the host cannot tell (no `getReferencedIds`).
async fn read_references<H: SiyuanHost>(
    host: &H,
    drafts: &[Draft],
    descendants: &FastMap<String, FastSet<String>>,
    lang: Lang,
) -> Result<Option<FastSet<String>>, Error> {
    let rewritten_children: Vec<String> = drafts
        .iter()
        .filter(|d| d.kind == EditKind::Update)
        .filter_map(|d| descendants.get(&d.block_id))
        .flat_map(|set| set.iter().cloned())
        .collect();
    if rewritten_children.is_empty() {
        return Ok(Some(FastSet::default()));
    }
    if !host.has(Capability::GetReferencedIds) {
        return Ok(None);
    }
    let ids = host
        .get_referenced_ids(&rewritten_children)
        .await
        .map_err(|e| host_error(lang, &e))?;
    Ok(Some(ids.into_iter().collect()))
}

/// Lute's own split of each new markdown, where the host has it.
async fn read_splits<H: SiyuanHost>(
    host: &H,
    drafts: &[Draft],
    lang: Lang,
) -> Result<FastMap<String, Vec<String>>, Error> {
    let mut splits: FastMap<String, Vec<String>> = FastMap::default();
    if !host.has(Capability::SplitMarkdown) {
        return Ok(splits);
    }
    for draft in drafts {
        if let Some(text) = &draft.new_markdown {
            if !splits.contains_key(text) {
                let parts = host
                    .split_markdown(text)
                    .await
                    .map_err(|e| host_error(lang, &e))?;
                splits.insert(text.clone(), parts);
            }
        }
    }
    Ok(splits)
}

/// The writes of every draft; a draft that cannot be planned fails its
/// edits. New ids are drawn from a seed of the diff and the targets, so
/// one diff on one state plans the same ids.
fn plan_writes(
    text: &str,
    options: &ApplyOptions,
    data: PlanData<'_>,
    drafts: &[Draft],
    results: &mut [EditResult],
    warnings: &mut Vec<Warning>,
) -> Vec<PlanEntry> {
    let blocks = data.blocks;
    let stamp = id_stamp(options.id_stamp.as_deref(), blocks);
    let seed = seed_of(
        std::iter::once(text).chain(
            blocks
                .values()
                .flatten()
                .map(|b| b.ial.as_str())
                .chain(std::iter::once(stamp.as_str())),
        ),
    );
    let mut taken: FastSet<String> = blocks.keys().cloned().collect();
    taken.extend(data.existing.iter().cloned());
    taken.extend(data.descendants.values().flatten().cloned());
    let mut planner = Planner {
        data,
        ids: IdMaker::new(&stamp, seed, taken),
        warnings: Vec::new(),
        renamed: Vec::new(),
    };
    let mut plan: Vec<PlanEntry> = Vec::new();
    for draft in drafts {
        match planner.plan(draft) {
            Ok(entry) => plan.push(entry),
            Err(error) => {
                for &i in &draft.edits {
                    results[i].status = EditStatus::Failed;
                    results[i].error = Some(error.clone());
                }
            }
        }
    }
    warnings.append(&mut planner.warnings);
    plan
}

/// Every callback the writes, the verify, the rollback and the undo need,
/// asked for before anything is written.
fn needed_capabilities(plan: &[PlanEntry]) -> Vec<Capability> {
    let mut needed = vec![Capability::GetKramdown];
    for entry in plan {
        for op in &entry.planned.operations {
            needed.push(match op {
                HostOp::Update { .. } => Capability::UpdateBlock,
                HostOp::Delete { .. } => Capability::DeleteBlock,
                HostOp::Insert { .. } => Capability::InsertBlock,
                HostOp::Prepend { .. } => Capability::PrependBlock,
                HostOp::Append { .. } => Capability::AppendBlock,
            });
        }
        match entry.planned.kind {
            EditKind::Delete => needed.push(Capability::InsertBlock), // rollback re-inserts
            EditKind::Update => {}
            _ => needed.push(Capability::DeleteBlock), // rollback deletes
        }
        if entry.placeholder_in.is_some() {
            needed.push(Capability::GetChildBlocks);
            needed.push(Capability::PrependBlock);
        }
    }
    needed
}

/// The report of a diff checked and not written: a dry run, a failed
/// check in atomic mode, or nothing to write.
fn not_executed_report(
    options: &ApplyOptions,
    plan: Vec<PlanEntry>,
    results: Vec<EditResult>,
    warnings: Vec<Warning>,
) -> ApplyReport {
    let ok = !results.iter().any(|r| r.status == EditStatus::Failed);
    let summary = msg::summary_not_executed(options.lang, &results, options.dry_run);
    ApplyReport {
        ok,
        dry_run: options.dry_run,
        summary,
        results,
        plan: plan.into_iter().map(|e| e.planned).collect(),
        undo: None,
        rollback: None,
        warnings,
        id_map: Vec::new(),
    }
}

/// What the report of an executed diff reads besides the writes.
struct Context<'a> {
    blocks: &'a FastMap<String, Option<Block>>,
    children: &'a FastMap<String, Vec<ChildBlock>>,
    /// Memberships the deletes drop for good (`allowMembershipLoss`).
    lost: &'a [(String, Vec<&'static str>)],
}

/// The report of an executed diff, with the undo of what stayed written.
fn executed_report(
    lang: Lang,
    context: Context<'_>,
    plan: Vec<PlanEntry>,
    results: Vec<EditResult>,
    executed: Executed,
    mut warnings: Vec<Warning>,
) -> ApplyReport {
    let Executed {
        done,
        rollback,
        id_map,
    } = executed;
    let undo = if rollback.as_ref().is_some_and(|r| r.ok) || done.is_empty() {
        None
    } else {
        let (groups, w) = delete_groups(context.blocks, context.children, &done, lang);
        warnings.extend(w);
        let (text, w) = build_undo(&done, &groups, lang);
        warnings.extend(w);
        let deleted: FastSet<&str> = done
            .iter()
            .filter(|d| matches!(d, Done::Deleted { .. }))
            .map(Done::id)
            .collect();
        let lost: Vec<(String, Vec<&'static str>)> = context
            .lost
            .iter()
            .filter(|(id, _)| deleted.contains(id.as_str()))
            .cloned()
            .collect();
        Some(if lost.is_empty() {
            text
        } else {
            format!("{}\n\n{text}", msg::undo_cannot_restore(lang, &lost))
        })
    };
    let ok = results
        .iter()
        .all(|r| matches!(r.status, EditStatus::Applied | EditStatus::Unchanged));
    let summary = msg::summary_executed(lang, &results, rollback.as_ref());
    ApplyReport {
        ok,
        dry_run: false,
        summary,
        results,
        plan: plan.into_iter().map(|e| e.planned).collect(),
        undo,
        rollback,
        warnings,
        id_map,
    }
}

/// `flushTransaction`, whose failure means reads could be stale.
async fn flush<H: SiyuanHost>(host: &H, lang: Lang) -> Result<(), Error> {
    host.flush_transaction()
        .await
        .map_err(|e| host_error(lang, &e))
}

/// The time part of new ids: the caller's, else the newest `updated` of
/// the blocks read (a host without a clock still gets ids of the right
/// form, and the kernel accepts them).
fn id_stamp(given: Option<&str>, blocks: &FastMap<String, Option<Block>>) -> String {
    if let Some(stamp) = given.filter(|s| s.len() == 14 && s.bytes().all(|b| b.is_ascii_digit())) {
        return stamp.to_string();
    }
    blocks
        .values()
        .flatten()
        .flat_map(|b| {
            crate::markdown::parse_ial(&b.ial)
                .into_iter()
                .filter(|(k, _)| k == "updated")
                .map(|(_, v)| v)
                .chain(std::iter::once(b.id.chars().take(14).collect::<String>()))
        })
        .filter(|s| s.len() == 14 && s.bytes().all(|b| b.is_ascii_digit()))
        .max()
        .unwrap_or_else(|| "20000101000000".to_string())
}

fn collect_ids(node: &Node, out: &mut FastSet<String>) {
    if let Some(id) = node.ial.as_ref().and_then(|(a, _)| ial_id(a)) {
        out.insert(id.to_string());
    }
    for child in &node.children {
        collect_ids(child, out);
    }
}

async fn fetch_kramdown<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    lang: Lang,
) -> Result<FastMap<String, String>, Error> {
    let answer = host
        .get_kramdown(ids)
        .await
        .map_err(|e| host_error(lang, &e))?;
    let answer = one_per_id(answer, ids.len(), Capability::GetKramdown, lang)?;
    Ok(ids
        .iter()
        .cloned()
        .zip(answer)
        .filter_map(|(id, k)| k.map(|k| (id, normalize_eol(&k))))
        .collect())
}

/// Ids in first-seen order, each once: a diff names the same block in
/// many hunks, and a linear membership test made 1,000 hunks quadratic.
#[derive(Default)]
struct UniqueIds {
    list: Vec<String>,
    seen: FastSet<String>,
}

impl UniqueIds {
    fn push(&mut self, id: &str) {
        if self.seen.insert(id.to_string()) {
            self.list.push(id.to_string());
        }
    }
}

pub(super) struct Run<'a, H> {
    pub(super) host: &'a H,
    pub(super) lang: Lang,
    pub(super) atomic: bool,
    pub(super) results: &'a mut Vec<EditResult>,
    pub(super) blocks: &'a FastMap<String, Option<Block>>,
    pub(super) children: &'a FastMap<String, Vec<ChildBlock>>,
    pub(super) warnings: Vec<Warning>,
}

/// What the writes did: the steps done, the entry whose failure stopped
/// them (atomic mode), the ids the kernel did not keep.
struct Writes {
    done: Vec<Done>,
    failed_at: Option<usize>,
    renamed: Vec<IdMapping>,
}

struct Executed {
    done: Vec<Done>,
    rollback: Option<RollbackReport>,
    id_map: Vec<IdMapping>,
}

impl<H: SiyuanHost> Run<'_, H> {
    async fn execute(
        &mut self,
        plan: &[PlanEntry],
        kramdown: FastMap<String, String>,
    ) -> Result<Executed, Error> {
        let stale = self.recheck(plan, &kramdown).await?;
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
            let failures = self.verify(plan, &mut done, &mut id_map).await;
            if !failures.is_empty() && self.atomic {
                failed_at = failures.first().copied();
            }
        }
        let rollback = match failed_at {
            Some(_) => {
                let (report, map) = self.roll_back(&mut done).await;
                id_map.extend(map);
                self.mark_rolled_back(plan, &done);
                Some(report)
            }
            None => None,
        };
        Ok(Executed {
            done,
            rollback,
            id_map,
        })
    }

    /// Re-check right before writing, against the tree: a block whose
    /// kramdown (text, and attributes as a set: SPEC §3.7 rule 15) changed
    /// since the check is STALE_BLOCK and nothing of its edits is
    /// written. The ids chosen for
    /// new blocks must still be free. Returns the stale plan entries.
    async fn recheck(
        &mut self,
        plan: &[PlanEntry],
        kramdown: &FastMap<String, String>,
    ) -> Result<FastSet<usize>, Error> {
        let lang = self.lang;
        let mut check_ids = UniqueIds::default();
        for entry in plan {
            if kramdown.contains_key(&entry.planned.block_id) {
                check_ids.push(&entry.planned.block_id);
            }
        }
        let targets = check_ids.list.len();
        for entry in plan {
            for op in &entry.planned.operations {
                if let Some(id) = new_id_of(op) {
                    check_ids.push(id);
                }
            }
        }
        let now = self
            .host
            .get_kramdown(&check_ids.list)
            .await
            .map_err(|e| host_error(lang, &e))?;
        let now = one_per_id(now, check_ids.list.len(), Capability::GetKramdown, lang)?;
        let fresh: FastMap<&str, Option<String>> = check_ids
            .list
            .iter()
            .map(String::as_str)
            .zip(now.into_iter().map(|k| k.map(|k| normalize_eol(&k))))
            .collect();
        let new_taken: FastSet<&str> = check_ids.list[targets..]
            .iter()
            .filter(|id| fresh.get(id.as_str()).is_some_and(Option::is_some))
            .map(String::as_str)
            .collect();
        let mut stale: FastSet<usize> = FastSet::default();
        for (k, entry) in plan.iter().enumerate() {
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
        stale: &FastSet<usize>,
        kramdown: &FastMap<String, String>,
    ) -> Writes {
        let mut done: Vec<Done> = Vec::new();
        let mut tails: FastMap<String, String> = FastMap::default();
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
    fn mark_applied(&mut self, entry: &PlanEntry, written: &[Done], renamed: &mut Vec<IdMapping>) {
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

    /// Re-reads every written block in one batch (after a flush) and the
    /// children each container rewrite kept, compares them with the plan,
    /// and finds the blocks the kernel created on its own. Returns the plan
    /// entries that failed verification.
    async fn verify(
        &mut self,
        plan: &[PlanEntry],
        done: &mut Vec<Done>,
        id_map: &mut Vec<IdMapping>,
    ) -> Vec<usize> {
        let lang = self.lang;
        if done.is_empty() {
            return Vec::new();
        }
        let _ = self.host.flush_transaction().await;
        let (ids, kept) = read_back_ids(plan, done);
        let written = done.len();
        let rows = match self.host.get_blocks(&ids).await {
            Ok(rows) if rows.len() == ids.len() => rows,
            _ => {
                self.warnings.push(Warning {
                    code: WarningCode::UndoUnchecked,
                    message: msg::verify_unavailable(lang),
                    line: None,
                    hunk_index: None,
                    block_id: None,
                });
                return Vec::new();
            }
        };
        id_map.extend(inserted_under_new_ids(done));
        let mut problems = check_written(done, &rows[..written]);
        for ((k, child), row) in kept.iter().zip(&rows[written..]) {
            if row.is_none() {
                problems.push((
                    *k,
                    super::verify::Problem {
                        id: child.clone(),
                        actual: String::new(),
                    },
                ));
            }
        }
        self.find_kernel_blocks(plan, done).await;
        let mut failed: Vec<usize> = Vec::new();
        for (entry, problem) in problems {
            for &i in &plan[entry].edits {
                if self.results[i].status == EditStatus::Applied {
                    let hunk = self.results[i].hunk_index;
                    self.fail(
                        i,
                        refuse(
                            lang,
                            Problem::WriteVerifyFailed {
                                id: problem.id.clone(),
                                hunk,
                                actual: problem.actual.clone(),
                            },
                        ),
                    );
                }
            }
            if !failed.contains(&entry) {
                failed.push(entry);
            }
        }
        crate::sort::sort(&mut failed);
        failed
    }

    /// After a delete that emptied a list item, the kernel's placeholder
    /// paragraph: a child of the item that was not there before.
    async fn find_kernel_blocks(&mut self, plan: &[PlanEntry], done: &mut Vec<Done>) {
        let items: Vec<(usize, String)> = plan
            .iter()
            .enumerate()
            .filter(|(k, _)| {
                done.iter()
                    .any(|d| d.entry() == *k && matches!(d, Done::Deleted { .. }))
            })
            .filter_map(|(k, e)| e.placeholder_in.clone().map(|item| (k, item)))
            .collect();
        if items.is_empty() {
            return;
        }
        let ids: Vec<String> = items.iter().map(|(_, item)| item.clone()).collect();
        let Ok(lists) = self.host.get_child_blocks(&ids).await else {
            return;
        };
        for ((k, item), list) in items.into_iter().zip(lists) {
            let before: FastSet<&str> = self
                .children
                .get(&item)
                .map(|l| l.iter().map(|c| c.id.as_str()).collect())
                .unwrap_or_default();
            for child in list {
                if !before.contains(child.id.as_str()) && !done.iter().any(|d| d.id() == child.id) {
                    self.warnings.push(Warning {
                        code: WarningCode::KernelCreatedBlock,
                        message: msg::kernel_created(self.lang, &child.id, &item),
                        line: None,
                        hunk_index: None,
                        block_id: Some(child.id.clone()),
                    });
                    done.push(Done::KernelCreated {
                        entry: k,
                        id: child.id,
                    });
                }
            }
        }
    }
}

/// The ids the verify reads: every written block, then the children each
/// written container rewrite kept (with their plan entry).
fn read_back_ids(plan: &[PlanEntry], done: &[Done]) -> (Vec<String>, Vec<(usize, String)>) {
    let mut ids: Vec<String> = done.iter().map(|d| d.id().to_string()).collect();
    let written_entries: FastSet<usize> = done.iter().map(Done::entry).collect();
    let mut kept: Vec<(usize, String)> = Vec::new();
    for (k, entry) in plan.iter().enumerate() {
        if written_entries.contains(&k) {
            for child in &entry.planned.kept_children {
                kept.push((k, child.clone()));
                ids.push(child.clone());
            }
        }
    }
    (ids, kept)
}

/// Inserted blocks whose markdown named another id than the kernel gave.
fn inserted_under_new_ids(done: &[Done]) -> Vec<IdMapping> {
    done.iter()
        .filter_map(|step| match step {
            Done::Inserted { id, markdown, .. } => first_ial_id(markdown)
                .filter(|old| old != id)
                .map(|old| IdMapping {
                    old_id: old,
                    new_id: id.clone(),
                }),
            _ => None,
        })
        .collect()
}

fn new_id_of(op: &HostOp) -> Option<&str> {
    match op {
        HostOp::Insert { new_id, .. }
        | HostOp::Prepend { new_id, .. }
        | HostOp::Append { new_id, .. } => new_id.as_deref(),
        _ => None,
    }
}

/// The `id` in the IAL of the first block of `markdown`, if any.
fn first_ial_id(markdown: &str) -> Option<String> {
    ial_ids(markdown).into_iter().next()
}

/// Groups the deleted blocks of `done` by where they go back: after their
/// nearest previous sibling that was not deleted, else first in their
/// parent; each group in document order.
pub(super) fn delete_groups(
    blocks: &FastMap<String, Option<Block>>,
    children: &FastMap<String, Vec<ChildBlock>>,
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
            crate::sort::sort(&mut pairs); // (sibling index, step) pairs are distinct
            group.steps = pairs.into_iter().map(|(_, s)| s).collect();
            group
        })
        .collect();
    (groups, warnings)
}

//! `applyBlockDiff` from end to end: parse, read and check
//! ([`super::reads`], [`super::check`]), fold emptied containers, plan
//! ([`super::plan`]), then run the writes ([`super::run`]) and build the
//! report and the undo.
//!
//! Host reads for a diff of n hunks (n does not matter) are listed in
//! [`super::reads`]; the writes, verify and rollback in [`super::run`].
//! No state is shared between calls, so concurrent applies (JS may call in
//! while one awaits a host Promise) cannot interfere inside the core.

use crate::text::{StableMap, StableSet};

use super::check::{check, CheckInput};
use super::emptied::{fold_emptied, order_writes, Known};
use super::ial::memberships_in;
use super::messages as msg;
use super::parser::{analyze, Keep};
use super::plan::{seed_of, Draft, IdMaker, PlanData, PlanEntry, Planner};
use super::reads::{
    read_child_lists, read_decodes_html, read_references, read_splits, read_targets, Reads,
};
use super::refuse;
use super::run::Executed;
use super::run_state::Run;
use super::types::Problem;
use super::undo::delete_groups;
use super::undo::{build_undo, Done};
use super::{
    ApplyOptions, ApplyReport, BlockEdit, EditKind, EditResult, EditStatus, HostOp, Warning,
    WarningCode,
};
use crate::host::{require, Capability, SiyuanHost};
use crate::siyuan::{Block, ChildBlock};
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
        let errors = analysis.errors;
        return Err(refuse(lang, Problem::InvalidFormat { errors }));
    }
    let edits = analysis.edits;
    let mut warnings = analysis.warnings;
    require(host, &[Capability::GetBlocks], lang)?;
    let mut checked = read_and_check(host, &edits, options, &mut warnings).await?;
    let referenced =
        read_references(host, &checked.drafts, &checked.reads.descendants, lang).await?;
    let splits = read_splits(host, &checked.drafts, lang).await?;
    let decodes_html = read_decodes_html(host, &checked.drafts, &checked.reads.kramdown).await;
    let reads = &checked.reads;
    let data = PlanData {
        blocks: &reads.blocks,
        kramdown: &reads.kramdown,
        children: &checked.children,
        referenced: referenced.as_ref(),
        existing: &reads.existing,
        missing_refs: &reads.missing_refs,
        descendants: &reads.descendants,
        splits: &splits,
        emptied_documents: &checked.emptied_documents,
        allow_child_reassign: options.allow_child_reassign,
        allow_membership_loss: options.allow_membership_loss,
        decodes_html_entities: decodes_html,
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
    children: StableMap<String, Vec<ChildBlock>>,
    results: Vec<EditResult>,
    drafts: Vec<Draft>,
    emptied_documents: StableSet<String>,
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
    kramdown: &StableMap<String, String>,
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
    changing: &StableSet<String>,
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
    // In a fixed order: a map's iteration order is no part of the state.
    let mut ials: Vec<&str> = blocks.values().flatten().map(|b| b.ial.as_str()).collect();
    ials.sort_unstable();
    let seed = seed_of(
        std::iter::once(text)
            .chain(ials)
            .chain(std::iter::once(stamp.as_str())),
    );
    let mut taken: StableSet<String> = blocks.keys().cloned().collect();
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
    blocks: &'a StableMap<String, Option<Block>>,
    children: &'a StableMap<String, Vec<ChildBlock>>,
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
        let deleted: StableSet<&str> = done
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

/// The time part of new ids: the caller's, else the newest `updated` of
/// the blocks read (a host without a clock still gets ids of the right
/// form, and the kernel accepts them).
fn id_stamp(given: Option<&str>, blocks: &StableMap<String, Option<Block>>) -> String {
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

//! No container is emptied by deleting its children (SPEC §3.7 rule 17).
//!
//! SiYuan drops a blockquote, list, list item or super block that has no
//! child left the next time it loads the document (KERNEL-FACTS §9), while
//! its block-tree row lingers: a later PREPEND or APPEND into it is
//! answered `code 0` and fails inside the transaction, so an undo or a
//! rollback that puts a deleted child back into it loses the text. So:
//!
//! - a diff whose deletes leave such a container without children deletes
//!   the container itself (its kramdown, IALs included, goes into the
//!   undo), and so on upwards when that empties its parent;
//! - a diff that also inserts into the container (PREPEND/APPEND) keeps
//!   it, and those inserts are written before the deletes of its children,
//!   so it is never empty between two writes ([`order_writes`]);
//! - a document whose every child is deleted gets an empty paragraph from
//!   the kernel at its next load; the deletes note it, so verify finds
//!   that paragraph and the undo removes it again.
//!
//! Callouts are not dropped when empty (the kernel keeps them), so their
//! children are deleted one by one. The reads cost one `getChildBlocks`
//! batch per level of nesting the deletes reach, and one `getBlocks` and
//! one `getKramdown` batch for the containers that turn out emptied.

use crate::text::{StableMap, StableSet};

use super::messages as msg;
use super::plan::{Draft, PlanEntry};
use super::{EditKind, Warning, WarningCode};
use crate::host::{fetch_blocks, fetch_children, host_error, one_per_id, require};
use crate::host::{Capability, SiyuanHost};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::{Error, Lang};

/// How deep deletes may empty nested containers (a bound on the reads).
const MAX_LEVELS: usize = 32;

/// What the reads found and what the drafts became.
pub struct Emptied {
    pub drafts: Vec<Draft>,
    /// Containers the diff deletes every child of while also inserting
    /// into them: their inserts go first.
    pub insert_first: Vec<String>,
    /// Documents the diff deletes every child of.
    pub emptied_documents: StableSet<String>,
    pub warnings: Vec<Warning>,
}

/// The reads the check made, which this stage extends with the rows,
/// kramdown and child lists of the containers it looks at.
pub struct Known<'a> {
    pub blocks: &'a mut StableMap<String, Option<Block>>,
    pub kramdown: &'a mut StableMap<String, String>,
    pub children: &'a mut StableMap<String, Vec<ChildBlock>>,
}

/// Folds the deletes of every child of a container into a delete of the
/// container (see the module docs).
pub async fn fold_emptied<H: SiyuanHost>(
    host: &H,
    mut drafts: Vec<Draft>,
    known: Known<'_>,
    lang: Lang,
) -> Result<Emptied, Error> {
    let adding: StableSet<String> = drafts
        .iter()
        .filter(|d| matches!(d.kind, EditKind::Prepend | EditKind::Append))
        .map(|d| d.block_id.clone())
        .collect();
    let mut out = Emptied {
        drafts: Vec::new(),
        insert_first: Vec::new(),
        emptied_documents: StableSet::default(),
        warnings: Vec::new(),
    };
    let mut looked_at: StableSet<String> = StableSet::default();
    for _ in 0..MAX_LEVELS {
        let deleted = deleted_ids(&drafts);
        let parents = parents_of(&drafts, known.blocks, &looked_at);
        if parents.is_empty() {
            break;
        }
        read_children(host, &parents, known.children, lang).await?;
        looked_at.extend(parents.iter().cloned());
        let full: Vec<String> = parents
            .into_iter()
            .filter(|p| all_deleted(known.children.get(p), &deleted))
            .collect();
        read_rows(host, &full, known.blocks, lang).await?;
        let mut emptied = Vec::new();
        for container in full {
            let Some(Some(row)) = known.blocks.get(&container) else {
                continue;
            };
            match row.kind() {
                BlockKind::Document => {
                    out.emptied_documents.insert(container);
                }
                kind if dropped_when_empty(kind) && adding.contains(&container) => {
                    out.insert_first.push(container);
                }
                kind if dropped_when_empty(kind) => emptied.push(container),
                _ => {}
            }
        }
        if emptied.is_empty() {
            break;
        }
        read_kramdown(host, &emptied, known.kramdown, lang).await?;
        for container in emptied {
            let row = known.blocks.get(&container).and_then(Option::as_ref);
            let Some(row) = row else { continue };
            let children: StableSet<&str> = known
                .children
                .get(&container)
                .map(|list| list.iter().map(|c| c.id.as_str()).collect())
                .unwrap_or_default();
            drafts = merge_into(drafts, row, &children);
            out.warnings.push(Warning {
                code: WarningCode::ContainerDeleted,
                message: msg::container_deleted(lang, &container, row.kind().label(lang)),
                line: None,
                hunk_index: None,
                block_id: Some(container.clone()),
            });
        }
    }
    out.drafts = drafts;
    Ok(out)
}

/// The kinds SiYuan drops at load when they have no child block left
/// (dataparser; callouts and documents are kept).
fn dropped_when_empty(kind: BlockKind) -> bool {
    matches!(
        kind,
        BlockKind::Blockquote | BlockKind::List | BlockKind::ListItem | BlockKind::Superblock
    )
}

fn deleted_ids(drafts: &[Draft]) -> StableSet<String> {
    drafts
        .iter()
        .filter(|d| d.kind == EditKind::Delete)
        .map(|d| d.block_id.clone())
        .collect()
}

/// The parents of deleted blocks not looked at yet. (A block under a
/// heading has the heading as its parent; when the heading is deleted
/// too, its own parent is the container, whose child list holds both.)
fn parents_of(
    drafts: &[Draft],
    blocks: &StableMap<String, Option<Block>>,
    looked_at: &StableSet<String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for draft in drafts.iter().filter(|d| d.kind == EditKind::Delete) {
        let Some(Some(row)) = blocks.get(&draft.block_id) else {
            continue;
        };
        let parent = &row.parent_id;
        if !parent.is_empty() && !looked_at.contains(parent) && !out.contains(parent) {
            out.push(parent.clone());
        }
    }
    out
}

fn all_deleted(children: Option<&Vec<ChildBlock>>, deleted: &StableSet<String>) -> bool {
    children.is_some_and(|list| !list.is_empty() && list.iter().all(|c| deleted.contains(&c.id)))
}

/// The drafts with those deleting `children` of `container` (and every
/// block they took in) folded into one delete of `container`.
fn merge_into(drafts: Vec<Draft>, container: &Block, children: &StableSet<&str>) -> Vec<Draft> {
    let (inside, mut rest): (Vec<Draft>, Vec<Draft>) = drafts
        .into_iter()
        .partition(|d| d.kind == EditKind::Delete && children.contains(d.block_id.as_str()));
    let mut edits: Vec<usize> = inside.iter().flat_map(|d| d.edits.clone()).collect();
    edits.sort();
    let mut hunks: Vec<u32> = inside.iter().flat_map(|d| d.hunk_indexes.clone()).collect();
    hunks.sort();
    hunks.dedup();
    let line = inside.iter().map(|d| d.line).min().unwrap_or(0);
    rest.push(Draft {
        kind: EditKind::Delete,
        block_id: container.id.clone(),
        edits,
        hunk_indexes: hunks,
        line,
        old_markdown: Some(super::check::normalize_eol(&container.markdown)),
        new_markdown: None,
        strategy: None,
    });
    // Drafts stay in diff order of their first edit.
    rest.sort_by_key(|d| d.edits.first().copied().unwrap_or(usize::MAX));
    rest
}

/// The ids of `ids` that `known` has no entry for.
fn unknown<T>(ids: &[String], known: &StableMap<String, T>) -> Vec<String> {
    ids.iter()
        .filter(|id| !known.contains_key(*id))
        .cloned()
        .collect()
}

async fn read_children<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    children: &mut StableMap<String, Vec<ChildBlock>>,
    lang: Lang,
) -> Result<(), Error> {
    let missing = unknown(ids, children);
    if !missing.is_empty() {
        require(host, &[Capability::GetChildBlocks], lang)?;
        let lists = fetch_children(host, &missing, lang).await?;
        children.extend(missing.into_iter().zip(lists));
    }
    Ok(())
}

async fn read_rows<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    blocks: &mut StableMap<String, Option<Block>>,
    lang: Lang,
) -> Result<(), Error> {
    let missing = unknown(ids, blocks);
    if !missing.is_empty() {
        let rows = fetch_blocks(host, &missing, lang).await?;
        blocks.extend(missing.into_iter().zip(rows));
    }
    Ok(())
}

async fn read_kramdown<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    kramdown: &mut StableMap<String, String>,
    lang: Lang,
) -> Result<(), Error> {
    require(host, &[Capability::GetKramdown], lang)?;
    let answer = host
        .get_kramdown(ids)
        .await
        .map_err(|e| host_error(lang, &e))?;
    let answer = one_per_id(answer, ids.len(), Capability::GetKramdown, lang)?;
    for (id, k) in ids.iter().zip(answer) {
        if let Some(k) = k {
            kramdown.insert(id.clone(), super::check::normalize_eol(&k));
        }
    }
    Ok(())
}

/// The plan with the inserts into each container of `insert_first` moved
/// before the first delete of one of its children, so the container never
/// stands empty between two writes (their order among themselves kept).
pub fn order_writes(
    plan: Vec<PlanEntry>,
    insert_first: &[String],
    children: &StableMap<String, Vec<ChildBlock>>,
) -> Vec<PlanEntry> {
    let mut plan = plan;
    for container in insert_first {
        let kids: StableSet<&str> = children
            .get(container)
            .map(|list| list.iter().map(|c| c.id.as_str()).collect())
            .unwrap_or_default();
        let first_delete = plan.iter().position(|e| {
            e.planned.kind == EditKind::Delete && kids.contains(e.planned.block_id.as_str())
        });
        let Some(at) = first_delete else { continue };
        let into = |e: &PlanEntry| {
            matches!(e.planned.kind, EditKind::Prepend | EditKind::Append)
                && e.planned.block_id == *container
        };
        let mut moved: Vec<PlanEntry> = Vec::new();
        let mut kept: Vec<PlanEntry> = Vec::with_capacity(plan.len());
        for (k, entry) in plan.into_iter().enumerate() {
            if k > at && into(&entry) {
                moved.push(entry);
            } else {
                kept.push(entry);
            }
        }
        kept.splice(at..at, moved);
        plan = kept;
    }
    plan
}

//! The reads a block diff is checked against, all fresh and batched.
//!
//! Every read a check depends on sees the block tree, never the SQL view
//! that lags it by up to ~3 s for every writer (KERNEL-FACTS §1, SPEC §3.7
//! rule 1): the rows are read after a `flushTransaction`, and the kramdown
//! (read from the tree) is what decides whether a block changed. Host reads
//! for a diff of n hunks (n does not matter): 1 `flushTransaction` + 1
//! `getBlocks` batch (the targets, and ids written in the bodies) + 1
//! `getKramdown` batch (the targets: the baseline of the stale re-check,
//! the children of containers, the undo's text); + 1 `getReferencedIds`
//! batch when a container is rewritten, + 1 `getChildBlocks` batch when a
//! heading APPEND needs one (the parents of deletes are read by
//! [`super::emptied`]).

use crate::text::{StableMap, StableSet};

use super::check::normalize_eol;
use super::plan::{ial_ids, Draft};
use super::{BlockEdit, EditKind};
use crate::host::{
    fetch_children, host_error, kramdown_as_stored, one_per_id, require, Capability, SiyuanHost,
};
use crate::markdown::{ial_id, parse, Node};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::{Error, Lang};

/// What the validation reads found about the targets.
pub(super) struct Reads {
    /// Each target's row (`None`: no such block).
    pub(super) blocks: StableMap<String, Option<Block>>,
    /// Ids the new bodies write that a block already has.
    pub(super) existing: StableSet<String>,
    /// Each target's kramdown, read from the tree (documents excepted).
    pub(super) kramdown: StableMap<String, String>,
    /// Targets whose row and tree disagree: being edited right now.
    pub(super) changing: StableSet<String>,
    /// The ids inside each container target.
    pub(super) descendants: StableMap<String, StableSet<String>>,
    /// Ids the targets' texts or the new bodies reference that no block
    /// has ([`super::refs`]).
    pub(super) missing_refs: StableSet<String>,
}

/// The validation reads, fresh (after a flush): the targets' rows and the
/// ids the bodies write, one batch; the targets' kramdown, one batch. The
/// kramdown is the baseline of the re-check before writing, the children
/// of containers (nested edits, restated IALs, references) and the undo's
/// text. (Documents are only ever anchors: their kramdown is the whole
/// note.)
pub(super) async fn read_targets<H: SiyuanHost>(
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
    let mut body_ids: StableSet<String> = StableSet::default();
    for edit in edits {
        for id in ial_ids(edit.replacement.as_deref().unwrap_or("")) {
            ids.push(&id);
            body_ids.insert(id);
        }
    }
    let rows = crate::host::fetch_blocks(host, &ids.list, lang).await?;
    let existing: StableSet<String> = ids
        .list
        .iter()
        .zip(&rows)
        .filter(|(id, row)| row.is_some() && body_ids.contains(*id))
        .map(|(id, _)| id.clone())
        .collect();
    let blocks: StableMap<String, Option<Block>> = ids.list[..targets]
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
    let mut kramdown: StableMap<String, String> = StableMap::default();
    if !present.is_empty() {
        require(host, &[Capability::GetKramdown], lang)?;
        kramdown = fetch_kramdown(host, &present, &blocks, lang).await?;
    }
    let changing = changing_now(edits, &present, &blocks, &kramdown);
    let descendants = container_descendants(&blocks, &kramdown);
    let missing_refs = missing_refs(host, edits, &blocks, &kramdown, lang).await?;
    Ok(Reads {
        blocks,
        existing,
        kramdown,
        changing,
        descendants,
        missing_refs,
    })
}

/// The ids the targets' kramdown and the new bodies reference that no
/// block has: one `getBlocks` of the ids not read yet, only when there are
/// references.
async fn missing_refs<H: SiyuanHost>(
    host: &H,
    edits: &[BlockEdit],
    blocks: &StableMap<String, Option<Block>>,
    kramdown: &StableMap<String, String>,
    lang: Lang,
) -> Result<StableSet<String>, Error> {
    let mut ids = UniqueIds::default();
    let bodies = edits.iter().filter_map(|e| e.replacement.as_deref());
    for text in kramdown.values().map(String::as_str).chain(bodies) {
        for id in super::refs::referenced_ids(text) {
            if !blocks.get(&id).is_some_and(Option::is_some) {
                ids.push(&id);
            }
        }
    }
    if ids.list.is_empty() {
        return Ok(StableSet::default());
    }
    let rows = crate::host::fetch_blocks(host, &ids.list, lang).await?;
    Ok(ids
        .list
        .into_iter()
        .zip(rows)
        .filter(|(_, row)| row.is_none())
        .map(|(id, _)| id)
        .collect())
}

/// The targets an update or delete rewrites whose row (read after the
/// flush) and tree disagree: someone is editing them right now.
fn changing_now(
    edits: &[BlockEdit],
    present: &[String],
    blocks: &StableMap<String, Option<Block>>,
    kramdown: &StableMap<String, String>,
) -> StableSet<String> {
    let rewritten_ids: StableSet<&str> = edits
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
    blocks: &StableMap<String, Option<Block>>,
    kramdown: &StableMap<String, String>,
) -> StableMap<String, StableSet<String>> {
    kramdown
        .iter()
        .filter(|(id, _)| {
            blocks
                .get(*id)
                .and_then(Option::as_ref)
                .is_some_and(|b| b.kind().is_container() && b.kind() != BlockKind::Document)
        })
        .map(|(id, k)| {
            let mut inside = StableSet::default();
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
pub(super) async fn read_child_lists<H: SiyuanHost>(
    host: &H,
    edits: &[BlockEdit],
    blocks: &StableMap<String, Option<Block>>,
    lang: Lang,
) -> Result<StableMap<String, Vec<ChildBlock>>, Error> {
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
        return Ok(StableMap::default());
    }
    require(host, &[Capability::GetChildBlocks], lang)?;
    let lists = fetch_children(host, &child_ids.list, lang).await?;
    Ok(child_ids.list.into_iter().zip(lists).collect())
}

/// References to the children a container rewrite may re-ID: `None` when
/// the host cannot tell (no `getReferencedIds`).
pub(super) async fn read_references<H: SiyuanHost>(
    host: &H,
    drafts: &[Draft],
    descendants: &StableMap<String, StableSet<String>>,
    lang: Lang,
) -> Result<Option<StableSet<String>>, Error> {
    let rewritten_children: Vec<String> = drafts
        .iter()
        .filter(|d| d.kind == EditKind::Update)
        .filter_map(|d| descendants.get(&d.block_id))
        .flat_map(|set| set.iter().cloned())
        .collect();
    if rewritten_children.is_empty() {
        return Ok(Some(StableSet::default()));
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
pub(super) async fn read_splits<H: SiyuanHost>(
    host: &H,
    drafts: &[Draft],
    lang: Lang,
) -> Result<StableMap<String, Vec<String>>, Error> {
    let mut splits: StableMap<String, Vec<String>> = StableMap::default();
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

/// Whether the kernel's Lute decodes an HTML block's entities again on
/// write ([`super::entities`]). Asked only when a text of the diff holds a
/// `&` (a host caches the answer); a host that cannot tell is taken to be
/// such a kernel.
pub(super) async fn read_decodes_html<H: SiyuanHost>(
    host: &H,
    drafts: &[Draft],
    kramdown: &StableMap<String, String>,
) -> bool {
    let texts = drafts
        .iter()
        .flat_map(|d| [d.old_markdown.as_deref(), d.new_markdown.as_deref()])
        .flatten()
        .chain(kramdown.values().map(String::as_str));
    let mut texts = texts;
    if !texts.any(|t| t.contains('&')) {
        return false;
    }
    if !host.has(Capability::GetKernelVersion) {
        return true;
    }
    let version = host.get_kernel_version().await.ok();
    super::entities::decodes_html_entities(version.as_deref())
}

/// `flushTransaction`, whose failure means reads could be stale.
pub(super) async fn flush<H: SiyuanHost>(host: &H, lang: Lang) -> Result<(), Error> {
    host.flush_transaction()
        .await
        .map_err(|e| host_error(lang, &e))
}

pub(super) fn collect_ids(node: &Node, out: &mut StableSet<String>) {
    if let Some(id) = node.ial.as_ref().and_then(|(a, _)| ial_id(a)) {
        out.insert(id.to_string());
    }
    for child in &node.children {
        collect_ids(child, out);
    }
}

/// The kramdown of `ids` that exist, line endings normalised and as
/// stored, not as the read decorates it (SPEC §3.7 rule 25; `rows` are
/// the blocks' rows, which say what the read dropped).
pub(super) async fn fetch_kramdown<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    rows: &StableMap<String, Option<Block>>,
    lang: Lang,
) -> Result<StableMap<String, String>, Error> {
    let answer = host
        .get_kramdown(ids)
        .await
        .map_err(|e| host_error(lang, &e))?;
    let answer = one_per_id(answer, ids.len(), Capability::GetKramdown, lang)?;
    Ok(ids
        .iter()
        .cloned()
        .zip(answer)
        .filter_map(|(id, k)| {
            let row = rows.get(&id).and_then(Option::as_ref);
            k.map(|k| (id, kramdown_as_stored(normalize_eol(&k), row)))
        })
        .collect())
}

/// Ids in first-seen order, each once: a diff names the same block in
/// many hunks, and a linear membership test made 1,000 hunks quadratic.
#[derive(Default)]
pub(super) struct UniqueIds {
    pub(super) list: Vec<String>,
    pub(super) seen: StableSet<String>,
}

impl UniqueIds {
    pub(super) fn push(&mut self, id: &str) {
        if self.seen.insert(id.to_string()) {
            self.list.push(id.to_string());
        }
    }
}

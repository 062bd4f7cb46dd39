//! From checked edits to host writes, following the kernel's block rules
//! (SPEC §3.7; KERNEL-FACTS §3–§6).
//!
//! - A replacement the kernel would read as several blocks is split the way
//!   Lute splits it (the host's `splitMarkdown`, else [`crate::markdown`]):
//!   the first block is the update, the others are inserted after it —
//!   `updateBlock` keeps only the first block.
//! - A leaf keeps its attributes: its IAL (minus `id` and `updated`) is
//!   written with the update, merged under one the replacement writes.
//! - A container (list, list item, blockquote, superblock, callout) is
//!   rewritten with every kept child's IAL restated, so the kernel keeps
//!   their ids ([`crate::markdown::restate_children`]). A child that would
//!   still get a new id and is referenced or carries attributes refuses the
//!   edit (`CHILDREN_WOULD_BE_REASSIGNED`) unless `allowChildReassign`.
//! - Next to, into or in place of a list item, blocks are written as list
//!   items of that list: the kernel does no wrapping, and a bare paragraph
//!   inside a list disappears from the document's kramdown.
//! - Every block editkit inserts carries an id editkit chose (an IAL the
//!   kernel trusts, KERNEL-FACTS §5), so a write whose answer is lost can
//!   still be found, checked and undone. An id the author wrote is kept if
//!   no block has it; one that exists already is dropped (no duplicates).

use crate::text::{StableMap, StableSet};

use super::entities;
use super::ial::{carried_attrs, carried_attrs_of, MEMBERSHIP_KEYS};
use super::messages as msg;
use super::narrow::{narrow, NarrowWrite};
use super::refs;
use super::refuse;
use super::types::Problem;
use super::{EditKind, HostOp, PlannedEdit, Warning, WarningCode};
use crate::markdown::{
    ial_id, parse, parse_ial, restate_children, set_root_ial, source_lines, Attrs, ChildFate,
    Descendant, IalPlace, Node,
};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::text::{unified_diff, UnifiedDiffOptions};
use crate::{Error, Lang};

/// What the content check decided for one block (or one insert), before
/// it becomes host writes.
#[derive(Clone, Debug)]
pub struct Draft {
    pub kind: EditKind,
    pub block_id: String,
    /// Indexes into the diff's edits.
    pub edits: Vec<usize>,
    pub hunk_indexes: Vec<u32>,
    pub line: u32,
    /// The block's markdown before (updates and deletes).
    pub old_markdown: Option<String>,
    /// The composed new markdown (updates) or the body (inserts).
    pub new_markdown: Option<String>,
    pub strategy: Option<String>,
}

/// A planned edit and the indexes (into the diff's edits) it covers.
pub struct PlanEntry {
    pub planned: PlannedEdit,
    pub edits: Vec<usize>,
    /// A delete of the only block of this list item: the kernel puts an
    /// empty paragraph there, which the undo must remove again.
    pub placeholder_in: Option<String>,
    /// Ids the bodies wrote that another block has, and the id each block
    /// gets instead (old, new).
    pub renamed: Vec<(String, String)>,
    /// The kramdown before of each block a narrowed container update
    /// writes instead of the container (its undo and rollback restore it).
    pub narrowed_kramdown: Vec<(String, String)>,
}

/// Everything the planner reads besides the drafts.
pub struct PlanData<'a> {
    pub blocks: &'a StableMap<String, Option<Block>>,
    /// Kramdown of every target (documents excepted), read from the tree.
    pub kramdown: &'a StableMap<String, String>,
    pub children: &'a StableMap<String, Vec<ChildBlock>>,
    /// Ids other blocks reference; `None` when the host cannot tell.
    pub referenced: Option<&'a StableSet<String>>,
    /// Ids written in bodies that already belong to a block.
    pub existing: &'a StableSet<String>,
    /// Ids referenced by the targets' texts or the bodies that no block
    /// has ([`super::refs`]).
    pub missing_refs: &'a StableSet<String>,
    /// The ids inside each edited or deleted container (from its kramdown):
    /// a rewrite may restate them.
    pub descendants: &'a StableMap<String, StableSet<String>>,
    /// Top-level blocks of each text, as the host's Lute split them.
    pub splits: &'a StableMap<String, Vec<String>>,
    /// Documents the diff deletes every child of: the kernel gives each an
    /// empty paragraph at its next load, which the undo removes.
    pub emptied_documents: &'a StableSet<String>,
    pub allow_child_reassign: bool,
    pub allow_membership_loss: bool,
    /// The kernel's Lute decodes an HTML block's entities again on write
    /// ([`super::entities`]).
    pub decodes_html_entities: bool,
    pub lang: Lang,
}

/// Chooses ids for new blocks: the time part from the caller's clock, the
/// rest from a hash of the diff and the blocks it reads, so two applies
/// never pick the same ids. Ids it was told exist are never returned.
pub struct IdMaker {
    stamp: String,
    seed: u64,
    counter: u64,
    avoid: StableSet<String>,
}

impl IdMaker {
    pub fn new(stamp: &str, seed: u64, avoid: StableSet<String>) -> IdMaker {
        IdMaker {
            stamp: stamp.to_string(),
            seed,
            counter: 0,
            avoid,
        }
    }

    pub fn next_id(&mut self) -> String {
        loop {
            self.counter += 1;
            let mut x = self
                .seed
                .wrapping_add(self.counter.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^= x >> 31;
            let mut suffix = String::with_capacity(7);
            for _ in 0..7 {
                let digit = (x % 36) as u32;
                suffix.push(char::from_digit(digit, 36).unwrap_or('0'));
                x /= 36;
            }
            let id = format!("{}-{suffix}", self.stamp);
            if self.avoid.insert(id.clone()) {
                return id;
            }
        }
    }

    /// Marks an id as used (an id the author wrote and editkit keeps).
    pub fn reserve(&mut self, id: &str) {
        self.avoid.insert(id.to_string());
    }
}

/// FNV-1a over some texts: the seed of an [`IdMaker`].
pub fn seed_of<'a>(texts: impl IntoIterator<Item = &'a str>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for t in texts {
        for b in t.bytes().chain(std::iter::once(0)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Whether markdown leaves a block without content: nothing but
/// whitespace, IALs, zero-width characters, `<br>` and `&nbsp;`
/// (SPEC §3.7 rule 9: such an edit is a content-checked delete).
pub fn is_empty_markdown(markdown: &str) -> bool {
    !has_visible_text(markdown) && only_invisible(markdown)
}

/// The full test: IAL lines dropped, the invisible tokens blanked, nothing
/// but whitespace and zero-width characters left.
fn only_invisible(markdown: &str) -> bool {
    let mut rest = String::with_capacity(markdown.len());
    for line in markdown.lines() {
        if !crate::markdown::is_ial_line(line.trim()) {
            rest.push_str(line);
            rest.push('\n');
        }
    }
    let mut text = rest.to_ascii_lowercase();
    for token in [
        "<br>", "<br/>", "<br />", "&nbsp;", "&#8203;", "&#xa0;", "&#160;",
    ] {
        text = text.replace(token, " ");
    }
    text.chars().all(invisible)
}

fn invisible(c: char) -> bool {
    c.is_whitespace() || matches!(c, '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{feff}')
}

/// A quick "no": some line (IAL lines aside) holds a visible character and
/// no `<` or `&` that could start one of the invisible tokens
/// [`only_invisible`] blanks. Most markdown answers here, without its
/// lowercased copy and replacements.
fn has_visible_text(markdown: &str) -> bool {
    markdown.lines().any(|line| {
        // Bytes, not `contains([..])`: a char-set search is a slow
        // generic searcher in the size-optimised wasm.
        !line.bytes().any(|b| b == b'<' || b == b'&')
            && line.chars().any(|c| !invisible(c))
            && !crate::markdown::is_ial_line(line.trim())
    })
}

fn diff_of(old: &str, new: &str) -> String {
    let nl = |t: &str| {
        let mut text = String::with_capacity(t.len() + 1);
        text.push_str(t);
        if !t.is_empty() && !t.ends_with('\n') {
            text.push('\n');
        }
        text
    };
    unified_diff(
        &nl(old),
        &nl(new),
        UnifiedDiffOptions {
            old_name: "before",
            new_name: "after",
            context: 3,
        },
    )
}

/// The planner of one diff.
pub struct Planner<'a> {
    pub data: PlanData<'a>,
    pub ids: IdMaker,
    pub warnings: Vec<Warning>,
    /// Renamed ids of the entry being planned.
    pub renamed: Vec<(String, String)>,
}

impl<'a> Planner<'a> {
    /// The top-level blocks of `text`. editkit's splitter keeps the text as
    /// written (its IALs included); where the host's Lute reads the text as
    /// a different number of blocks, Lute's own blocks are written instead,
    /// so the kernel never drops one (SPEC §3.7 rule 6).
    fn split(&self, text: &str) -> Vec<String> {
        // One line that is not blank is one block, itself (a property
        // test in markdown::blocks holds the splitter to it): most edited
        // blocks are one-line paragraphs (docs/PERFORMANCE.md cut 43).
        let one_line = !text.bytes().any(|b| b == b'\n' || b == b'\r');
        let own: Vec<String> = if one_line && !text.trim().is_empty() {
            vec![text.to_string()]
        } else {
            crate::markdown::split_blocks(text)
                .into_iter()
                .map(str::to_string)
                .collect()
        };
        if let Some(lute) = self.data.splits.get(text) {
            if !lute.is_empty() && lute.len() != own.len() {
                return lute.clone();
            }
        }
        if own.is_empty() {
            vec![text.to_string()]
        } else {
            own
        }
    }

    /// The fetched row of `id`, borrowed from the check's reads (not from
    /// the planner, which each step borrows mutably): the planner used to
    /// clone it per edit (docs/PERFORMANCE.md cut 45).
    fn block(&self, id: &str) -> Option<&'a Block> {
        let blocks: &'a StableMap<String, Option<Block>> = self.data.blocks;
        blocks.get(id).and_then(Option::as_ref)
    }

    /// The attributes an update of `block` restates: those of the
    /// kramdown read the stale re-check compares against (SPEC §3.7 rule
    /// 15: an attribute set after the row was read is kept too), else the
    /// row's.
    fn kept_attrs(&self, block: &Block, is_item: bool) -> Attrs {
        let read = self
            .data
            .kramdown
            .get(&block.id)
            .and_then(|k| crate::markdown::root_attrs(k, is_item));
        let carried = match read {
            Some(attrs) => carried_attrs_of(attrs),
            None => carried_attrs(&block.ial),
        };
        crate::markdown::in_written_order(carried)
    }

    /// Plans one draft: the entry, or the error that refuses it.
    pub fn plan(&mut self, draft: &Draft) -> Result<PlanEntry, Error> {
        let entry = match draft.kind {
            EditKind::Update => self.plan_update(draft)?,
            EditKind::Delete => self.plan_delete(draft),
            _ => self.plan_insert(draft),
        };
        self.refuse_decoding(draft, &entry)?;
        self.refuse_broken_refs(draft, &entry)?;
        Ok(entry)
    }

    /// An entry whose writes would hold a reference to a block that does
    /// not exist — in text an update keeps, or text it writes — is refused:
    /// the kernel stores such a reference without its id ([`super::refs`]).
    fn refuse_broken_refs(&self, draft: &Draft, entry: &PlanEntry) -> Result<(), Error> {
        if self.data.missing_refs.is_empty() {
            return Ok(());
        }
        let mut broken: Vec<String> = Vec::new();
        for op in &entry.planned.operations {
            let (id, markdown) = match op {
                HostOp::Update { id, markdown } => (Some(id), markdown),
                HostOp::Insert { markdown, .. }
                | HostOp::Prepend { markdown, .. }
                | HostOp::Append { markdown, .. } => (None, markdown),
                HostOp::Delete { .. } => continue,
            };
            let before = id
                .and_then(|id| self.text_before(draft, entry, id))
                .unwrap_or("");
            for r in refs::referenced_ids(before)
                .into_iter()
                .chain(refs::referenced_ids(markdown))
            {
                if self.data.missing_refs.contains(&r) && !broken.contains(&r) {
                    broken.push(r);
                }
            }
        }
        if broken.is_empty() {
            return Ok(());
        }
        Err(refuse(
            self.data.lang,
            Problem::WouldBreakRef {
                id: draft.block_id.clone(),
                hunk: draft.hunk_indexes[0],
                line: draft.line,
                refs: broken,
            },
        ))
    }

    /// The kramdown before of a block an entry updates: a narrowed
    /// container's leaf, else the target's.
    fn text_before<'e>(
        &'e self,
        draft: &'e Draft,
        entry: &'e PlanEntry,
        id: &str,
    ) -> Option<&'e str> {
        entry
            .narrowed_kramdown
            .iter()
            .find(|(leaf, _)| leaf == id)
            .map(|(_, old)| old.as_str())
            .or_else(|| self.data.kramdown.get(id).map(String::as_str))
            .or(draft.old_markdown.as_deref())
    }

    /// An entry whose writes would let the kernel decode character
    /// references is refused (SPEC §3.7 rule 27, [`super::entities`]):
    /// in text an update keeps, and in HTML on a kernel that decodes it
    /// again (before the edit: a rollback writes it back; after it).
    fn refuse_decoding(&self, draft: &Draft, entry: &PlanEntry) -> Result<(), Error> {
        let html = self.data.decodes_html_entities;
        let mut found = Vec::new();
        let mut in_html = false;
        for op in &entry.planned.operations {
            let markdown = match op {
                HostOp::Update { markdown, .. }
                | HostOp::Insert { markdown, .. }
                | HostOp::Prepend { markdown, .. }
                | HostOp::Append { markdown, .. } => markdown,
                HostOp::Delete { .. } => continue,
            };
            if let HostOp::Update { id, .. } = op {
                let before = self.text_before(draft, entry, id).unwrap_or("");
                let kept = entities::decodable(before, html);
                in_html |= html && !entities::decodable_in_html(before).is_empty();
                found.extend(kept);
            }
            if html {
                let written = entities::decodable_in_html(markdown);
                in_html |= !written.is_empty();
                found.extend(written);
            }
        }
        if found.is_empty() {
            return Ok(());
        }
        found.dedup();
        Err(refuse(
            self.data.lang,
            Problem::WouldDecodeEntities {
                id: draft.block_id.clone(),
                hunk: draft.hunk_indexes[0],
                line: draft.line,
                entities: found,
                html: in_html,
            },
        ))
    }

    fn entry(&mut self, draft: &Draft, planned: PlannedEdit) -> PlanEntry {
        PlanEntry {
            planned,
            edits: draft.edits.clone(),
            placeholder_in: None,
            renamed: std::mem::take(&mut self.renamed),
            narrowed_kramdown: Vec::new(),
        }
    }

    fn plan_delete(&mut self, draft: &Draft) -> PlanEntry {
        let old = draft.old_markdown.clone().unwrap_or_default();
        let planned = PlannedEdit {
            kind: EditKind::Delete,
            block_id: draft.block_id.clone(),
            hunk_indexes: draft.hunk_indexes.clone(),
            diff: diff_of(&old, ""),
            old_markdown: Some(old),
            new_markdown: None,
            strategy: draft.strategy.clone(),
            carried_attributes: None,
            children_reassigned: false,
            kept_children: Vec::new(),
            reassigned_children: Vec::new(),
            operations: vec![HostOp::Delete {
                id: draft.block_id.clone(),
            }],
        };
        let mut entry = self.entry(draft, planned);
        // A document left without children gets an empty paragraph at its
        // next load (dataparser); emptied containers never reach here
        // (super::emptied deletes them whole).
        if let Some(block) = self.block(&draft.block_id) {
            if self.data.emptied_documents.contains(&block.root_id) {
                entry.placeholder_in = Some(block.root_id.clone());
            }
        }
        entry
    }

    fn plan_update(&mut self, draft: &Draft) -> Result<PlanEntry, Error> {
        let lang = self.data.lang;
        let id = draft.block_id.clone();
        let old = draft.old_markdown.clone().unwrap_or_default();
        let new = draft.new_markdown.clone().unwrap_or_default();
        let Some(block) = self.block(&id) else {
            return Err(refuse(
                lang,
                Problem::Internal {
                    what: "planned an update of a block that was not fetched",
                },
            ));
        };
        let is_item = block.kind() == BlockKind::ListItem;
        let carried = self.kept_attrs(block, is_item);
        let blocks = if is_item {
            item_blocks(&new, &block.subtype, |t| self.split(t))
        } else {
            self.split(&new)
        };
        let (first, rest) = match blocks.split_first() {
            Some((first, rest)) => (first.clone(), rest.to_vec()),
            None => (new.clone(), Vec::new()),
        };
        let first = self.without_taken_ids(&first, &id, draft.line, draft.hunk_indexes[0]);

        let Rewrite {
            written,
            kept_children,
            reassigned_children,
            narrowed,
        } = self.rewrite(draft, block, &first, &carried)?;
        let children_reassigned = !reassigned_children.is_empty();
        if children_reassigned {
            self.warnings.push(Warning {
                code: WarningCode::ChildrenReassigned,
                message: msg::children_reassigned(lang, &id, &reassigned_children),
                line: Some(draft.line),
                hunk_index: draft.hunk_indexes.first().copied(),
                block_id: Some(id.clone()),
            });
        }
        let (operations, narrowed_kramdown) =
            self.update_operations(draft, is_item, written, narrowed, &rest);
        let carried_attributes = crate::markdown::render_ial(&carried);
        let planned = PlannedEdit {
            kind: EditKind::Update,
            block_id: id.clone(),
            hunk_indexes: draft.hunk_indexes.clone(),
            diff: diff_of(&old, &new),
            old_markdown: Some(old),
            new_markdown: Some(new),
            strategy: draft.strategy.clone(),
            carried_attributes,
            children_reassigned,
            kept_children,
            reassigned_children,
            operations,
        };
        let mut entry = self.entry(draft, planned);
        entry.narrowed_kramdown = narrowed_kramdown;
        Ok(entry)
    }

    /// The writes of an update: the target's (or, narrowed, each changed
    /// block's, with the kramdown before of each) and an insert after it
    /// for every further block of the new text.
    fn update_operations(
        &mut self,
        draft: &Draft,
        is_item: bool,
        written: String,
        narrowed: Option<Vec<NarrowWrite>>,
        rest: &[String],
    ) -> (Vec<HostOp>, Vec<(String, String)>) {
        let id = &draft.block_id;
        let mut narrowed_kramdown = Vec::new();
        let mut operations = match narrowed.filter(|_| rest.is_empty()) {
            Some(writes) => writes
                .into_iter()
                .map(|w| {
                    narrowed_kramdown.push((w.id.clone(), w.old_kramdown));
                    HostOp::Update {
                        id: w.id,
                        markdown: w.markdown,
                    }
                })
                .collect(),
            None => vec![HostOp::Update {
                id: id.clone(),
                markdown: written,
            }],
        };
        for (k, extra) in rest.iter().enumerate() {
            let (markdown, new_id) =
                self.with_new_id(extra, is_item, id, draft.line, draft.hunk_indexes[0]);
            operations.push(HostOp::Insert {
                markdown,
                previous_id: (k == 0).then(|| id.clone()),
                next_id: None,
                parent_id: None,
                after_previous_insert: k > 0,
                new_id: Some(new_id),
            });
        }
        (operations, narrowed_kramdown)
    }

    /// The markdown an update writes over `block`: a container's kramdown
    /// with every kept child's IAL restated (refused when a child that is
    /// referenced or attributed would get a new id), else the first block
    /// with the block's own IAL.
    fn rewrite(
        &self,
        draft: &Draft,
        block: &Block,
        first: &str,
        carried: &Attrs,
    ) -> Result<Rewrite, Error> {
        let id = &draft.block_id;
        let is_item = block.kind() == BlockKind::ListItem;
        let mut out = Rewrite {
            written: String::new(),
            kept_children: Vec::new(),
            reassigned_children: Vec::new(),
            narrowed: None,
        };
        let restated = match self.data.kramdown.get(id) {
            Some(kramdown) if block.kind().is_container() => {
                restate_children(kramdown, first, carried, is_item)
            }
            _ => None,
        };
        let Some(restated) = restated else {
            out.written = set_root_ial(first, carried, is_item);
            return Ok(out);
        };
        // Only the blocks that change are written when the container keeps
        // its structure (SPEC §3.7 rule 23): a folded heading then stays
        // untouched unless a container written whole holds it.
        let narrowed = self
            .data
            .kramdown
            .get(id)
            .and_then(|old| narrow(old, &restated.kramdown, is_item));
        self.refuse_folded(draft, narrowed.as_deref())?;
        let Fates { refused, members } = self.fates(&restated.descendants, &mut out);
        if !members.is_empty() && !self.data.allow_membership_loss {
            return Err(refuse(
                self.data.lang,
                Problem::WouldLoseMembership {
                    id: id.clone(),
                    hunk: draft.hunk_indexes[0],
                    line: draft.line,
                    members,
                    reassigned: true,
                },
            ));
        }
        if !refused.is_empty() && !self.data.allow_child_reassign {
            return Err(refuse(
                self.data.lang,
                Problem::ChildrenWouldBeReassigned {
                    id: id.clone(),
                    hunk: draft.hunk_indexes[0],
                    line: draft.line,
                    ids: refused,
                    refs_unknown: self.data.referenced.is_none(),
                },
            ));
        }
        out.written = restated.kramdown;
        out.narrowed = narrowed;
        Ok(out)
    }

    /// A container rewritten whole that holds a folded heading is refused
    /// (the kernel would move the heading's old section in next to the one
    /// the text restates, KERNEL-FACTS §11); narrowed, only the containers
    /// written whole count.
    fn refuse_folded(&self, draft: &Draft, narrowed: Option<&[NarrowWrite]>) -> Result<(), Error> {
        let id = &draft.block_id;
        let Some(kramdown) = self.data.kramdown.get(id) else {
            return Ok(());
        };
        let headings: Vec<String> = match narrowed {
            Some(writes) => writes
                .iter()
                .filter(|w| w.is_container)
                .flat_map(|w| folded_headings(&w.old_kramdown))
                .collect(),
            None => folded_headings(kramdown),
        };
        if headings.is_empty() {
            return Ok(());
        }
        Err(refuse(
            self.data.lang,
            Problem::FoldedHeading {
                id: id.clone(),
                hunk: draft.hunk_indexes[0],
                line: draft.line,
                headings,
            },
        ))
    }

    /// What a container rewrite does to each old descendant: kept ones
    /// and re-IDed ones go into `out`; re-IDed ones that are referenced or
    /// attributed are `refused`; re-IDed or removed ones that are database
    /// rows or flashcards are `members`.
    fn fates(&self, descendants: &[Descendant], out: &mut Rewrite) -> Fates {
        let mut fates = Fates {
            refused: Vec::new(),
            members: Vec::new(),
        };
        for d in descendants {
            match d.fate {
                ChildFate::Kept => out.kept_children.push(d.id.clone()),
                ChildFate::Replaced => {
                    out.reassigned_children.push(d.id.clone());
                    let attributed = d.attrs.iter().any(|(k, _)| k != "id" && k != "updated");
                    let referenced = self.data.referenced.is_none_or(|r| r.contains(&d.id));
                    if attributed || referenced {
                        fates.refused.push(d.id.clone());
                    }
                }
                ChildFate::Removed => {}
            }
            // Re-IDed or removed, a database row or flashcard loses its
            // membership for good (the kernel treats both as deletes).
            let what: Vec<&'static str> = MEMBERSHIP_KEYS
                .into_iter()
                .filter(|key| d.attrs.iter().any(|(k, v)| k == key && !v.is_empty()))
                .collect();
            if d.fate != ChildFate::Kept && !what.is_empty() {
                fates.members.push((d.id.clone(), what));
            }
        }
        fates
    }

    fn plan_insert(&mut self, draft: &Draft) -> PlanEntry {
        let id = draft.block_id.clone();
        let body = draft.new_markdown.clone().unwrap_or_default();
        let missing = Block::default();
        let anchor = self.block(&id).unwrap_or(&missing);
        let anchor_kind = anchor.kind();
        let beside = matches!(draft.kind, EditKind::InsertBefore | EditKind::InsertAfter);
        let into = matches!(draft.kind, EditKind::Prepend | EditKind::Append);
        // Next to a list item, or into a list: list items of that list.
        let items = (beside && anchor_kind == BlockKind::ListItem)
            || (into && anchor_kind == BlockKind::List);
        let blocks = if items {
            item_blocks(&body, &anchor.subtype, |t| self.split(t))
        } else {
            self.split(&body)
        };
        let heading = anchor_kind == BlockKind::Heading;
        // KERNEL-FACTS §4: `prependBlock` into a task item puts the block
        // before its checkbox; `insertBlock` with only the item as parent
        // puts it right after the checkbox, where a first block belongs.
        let task_item = draft.kind == EditKind::Prepend
            && anchor_kind == BlockKind::ListItem
            && anchor.subtype == "t";
        let mut ops = Vec::with_capacity(blocks.len());
        for (k, md) in blocks.iter().enumerate() {
            let (markdown, new_id) =
                self.with_new_id(md, items, &id, draft.line, draft.hunk_indexes[0]);
            let place = Place {
                k,
                heading,
                task_item,
            };
            let op = self.insert_op(draft, &place, markdown, Some(new_id));
            ops.push(op);
        }
        let planned = PlannedEdit {
            kind: draft.kind,
            block_id: id,
            hunk_indexes: draft.hunk_indexes.clone(),
            diff: diff_of("", &body),
            old_markdown: None,
            new_markdown: Some(body),
            strategy: None,
            carried_attributes: None,
            children_reassigned: false,
            kept_children: Vec::new(),
            reassigned_children: Vec::new(),
            operations: ops,
        };
        self.entry(draft, planned)
    }

    /// The host call of the `k`-th block of an insert: beside its anchor,
    /// first or last into it (on a heading: into its section; into a task
    /// item: after its checkbox), or chained after the block before it.
    fn insert_op(
        &self,
        draft: &Draft,
        place: &Place,
        markdown: String,
        new_id: Option<String>,
    ) -> HostOp {
        let id = &draft.block_id;
        let Place {
            k,
            heading,
            task_item,
        } = *place;
        let chained = HostOp::Insert {
            markdown: markdown.clone(),
            previous_id: None,
            next_id: None,
            parent_id: None,
            after_previous_insert: true,
            new_id: new_id.clone(),
        };
        let after = |prev: String| HostOp::Insert {
            markdown: markdown.clone(),
            previous_id: Some(prev),
            next_id: None,
            parent_id: None,
            after_previous_insert: false,
            new_id: new_id.clone(),
        };
        match draft.kind {
            _ if k > 0 && draft.kind != EditKind::Append => chained,
            EditKind::InsertBefore => HostOp::Insert {
                markdown,
                previous_id: None,
                next_id: Some(id.clone()),
                parent_id: None,
                after_previous_insert: false,
                new_id,
            },
            EditKind::InsertAfter => after(id.clone()),
            EditKind::Prepend if heading => after(id.clone()),
            EditKind::Prepend if task_item => HostOp::Insert {
                markdown,
                previous_id: None,
                next_id: None,
                parent_id: Some(id.clone()),
                after_previous_insert: false,
                new_id,
            },
            EditKind::Prepend => HostOp::Prepend {
                parent_id: id.clone(),
                markdown,
                new_id,
            },
            EditKind::Append if heading && k == 0 => {
                let last = self
                    .data
                    .children
                    .get(id)
                    .and_then(|list| list.last())
                    .map_or(id.clone(), |c| c.id.clone());
                after(last)
            }
            EditKind::Append if heading => chained,
            EditKind::Append => HostOp::Append {
                parent_id: id.clone(),
                markdown,
                new_id,
            },
            _ => chained,
        }
    }

    /// A block to insert, with the id it will have: the author's own id when
    /// no block has it, else one editkit chose.
    fn with_new_id(
        &mut self,
        markdown: &str,
        item: bool,
        near: &str,
        line: u32,
        hunk: u32,
    ) -> (String, String) {
        let wanted = root_id_of(markdown, item);
        let markdown = self.without_taken(markdown, near, false, line, hunk);
        if let Some(own) = root_id_of(&markdown, item) {
            self.ids.reserve(&own);
            return (markdown, own);
        }
        let id = self.ids.next_id();
        if let Some(old) = wanted {
            self.renamed.push((old, id.clone()));
        }
        let attrs = vec![("id".to_string(), id.clone())];
        (set_root_ial(&markdown, &attrs, item), id)
    }

    /// Drops every IAL id of `markdown` that another block already has (the
    /// kernel would keep it and make a duplicate, KERNEL-FACTS §5); each one
    /// dropped is reported.
    fn without_taken_ids(&mut self, markdown: &str, near: &str, line: u32, hunk: u32) -> String {
        self.without_taken(markdown, near, true, line, hunk)
    }

    /// [`Self::without_taken_ids`]; `rewrite` when the text replaces `near`
    /// itself, whose own children's ids it may restate.
    fn without_taken(
        &mut self,
        markdown: &str,
        near: &str,
        rewrite: bool,
        line: u32,
        hunk: u32,
    ) -> String {
        let mut out = markdown.to_string();
        let inside = self.data.descendants.get(near).filter(|_| rewrite);
        for id in ial_ids(markdown) {
            // A rewrite may restate its own id and its children's; an insert
            // never reuses an id that exists (its anchor's included).
            let own = rewrite && (id == near || inside.is_some_and(|set| set.contains(&id)));
            if own || !self.data.existing.contains(&id) {
                continue;
            }
            out = out.replace(&format!(" id=\"{id}\""), "");
            out = out.replace(&format!("id=\"{id}\" "), "");
            out = out.replace(&format!("{{: id=\"{id}\"}}"), "");
            self.warnings.push(Warning {
                code: WarningCode::IdInUse,
                message: msg::id_in_use(self.data.lang, &id),
                line: Some(line),
                hunk_index: Some(hunk),
                block_id: Some(id.clone()),
            });
        }
        out
    }
}

/// The ids of the folded headings (`fold="1"`) inside a container's
/// kramdown: rewriting the container would make the kernel move each
/// one's old section in beside the new (KERNEL-FACTS §11).
fn folded_headings(kramdown: &str) -> Vec<String> {
    fn walk(nodes: &[Node], out: &mut Vec<String>) {
        for node in nodes {
            if let (BlockKind::Heading, Some((attrs, _))) = (node.kind, &node.ial) {
                let folded = attrs.iter().any(|(k, v)| k == "fold" && v == "1");
                if let (true, Some(id)) = (folded, ial_id(attrs)) {
                    out.push(id.to_string());
                }
            }
            walk(&node.children, out);
        }
    }
    let mut out = Vec::new();
    for root in parse(kramdown) {
        walk(&root.children, &mut out);
    }
    out
}

/// Every `id="…"` written in IALs of a text.
pub fn ial_ids(markdown: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = markdown;
    while let Some(at) = crate::text::find_pair(rest, *b"{:") {
        let tail = &rest[at..];
        let Some(close) = tail.find('}') else { break };
        if let Some(id) = ial_id(&parse_ial(&tail[..=close])) {
            if crate::siyuan::is_block_id(id) {
                out.push(id.to_string());
            }
        }
        rest = &tail[close + 1..];
    }
    out
}

/// The id the text's first block gives itself in its IAL.
fn root_id_of(markdown: &str, item: bool) -> Option<String> {
    let tree = parse(markdown);
    let first = tree.first()?;
    let root: &Node = if item && first.kind == BlockKind::List {
        first.children.first()?
    } else {
        first
    };
    let (attrs, _) = root.ial.as_ref()?;
    ial_id(attrs)
        .filter(|id| crate::siyuan::is_block_id(id))
        .map(str::to_string)
}

/// The blocks of `markdown` as list items of a list of kind `subtype`
/// (`u`, `o`, `t`): a list gives its items one by one (the kernel takes
/// only the first item of list markdown put next to an item), any other
/// block becomes an item of its own.
pub fn item_blocks(
    markdown: &str,
    subtype: &str,
    split: impl Fn(&str) -> Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for block in split(markdown) {
        let tree = parse(&block);
        match tree.first() {
            Some(list) if list.kind == BlockKind::List && tree.len() == 1 => {
                let lines = source_lines(&block);
                for item in &list.children {
                    let last = item.last_with_ial().min(lines.len().saturating_sub(1));
                    out.push(lines[item.first..=last].join("\n"));
                }
                if let Some((attrs, IalPlace::Line(_))) = &list.ial {
                    // The list's own IAL has no list to go to: the items go
                    // into an existing one.
                    let _ = attrs;
                }
            }
            _ => out.push(as_list_item(&block, subtype)),
        }
    }
    if out.is_empty() {
        out.push(as_list_item(markdown, subtype));
    }
    out
}

/// A block written into a list must be a list item: the kernel would put a
/// bare block straight into the list (or wrap it in a new item and report
/// the inner block's id, which the undo could not remove whole).
pub fn as_list_item(markdown: &str, list_subtype: &str) -> String {
    if crate::markdown::list_marker(markdown.trim_start()).is_some() {
        return markdown.to_string();
    }
    let marker = match list_subtype {
        "o" => "1. ",
        "t" => "- [ ] ",
        _ => "- ",
    };
    let indent = " ".repeat(if list_subtype == "o" { 3 } else { 2 });
    let mut out = String::with_capacity(markdown.len() + 8);
    for (n, line) in markdown.lines().enumerate() {
        if n == 0 {
            out.push_str(marker);
        } else {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&indent);
            }
        }
        out.push_str(line);
    }
    out
}

/// What an update writes over its block, and what happens to the
/// container's children.
struct Rewrite {
    written: String,
    kept_children: Vec<String>,
    reassigned_children: Vec<String>,
    /// The blocks written instead of the whole container, when its
    /// structure stays (SPEC §3.7 rule 23, [`super::narrow`]).
    narrowed: Option<Vec<NarrowWrite>>,
}

/// The old descendants a container rewrite cannot keep as they are.
struct Fates {
    refused: Vec<String>,
    members: Vec<(String, Vec<&'static str>)>,
}

/// Where the `k`-th block of an insert goes, and what its anchor is.
struct Place {
    k: usize,
    heading: bool,
    task_item: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_written_into_a_list_become_items_of_its_kind() {
        assert_eq!(as_list_item("新的一项", "u"), "- 新的一项");
        assert_eq!(as_list_item("step\n\nmore", "o"), "1. step\n\n   more");
        assert_eq!(as_list_item("todo", "t"), "- [ ] todo");
        assert_eq!(as_list_item("- already an item", "o"), "- already an item");
        let split = |t: &str| {
            crate::markdown::split_blocks(t)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            item_blocks("- a\n- b\n\n  more b\n\nplain", "u", split),
            vec!["- a", "- b\n\n  more b", "- plain"]
        );
    }

    #[test]
    fn empty_markdown_is_whitespace_ials_zero_width_br_and_nbsp() {
        for empty in [
            "",
            "  \n",
            "{: custom-x=\"1\"}",
            "\u{200b}",
            "<br>",
            "<BR/>",
            "&nbsp;",
            " <br />\n{: id=\"20240101000000-aaaaaaa\"}",
        ] {
            assert!(is_empty_markdown(empty), "{empty:?}");
        }
        for full in ["x", "<br>x", "- ", "`\u{200b}`"] {
            assert!(!is_empty_markdown(full), "{full:?}");
        }
    }

    proptest::proptest! {
        /// The quick "no" never contradicts the full test.
        #[test]
        fn visible_text_is_never_empty(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "<br>", "<BR />", "&nbsp;", "&#160;", "\u{200b}", " ", "\t", "\n", "\r\n",
                "{: id=\"20240101000000-aaaaaaa\"}", "x", "段", "-", "<", "&", "br>",
            ]),
            0..12,
        )) {
            let markdown = parts.concat();
            proptest::prop_assert!(!(has_visible_text(&markdown) && only_invisible(&markdown)), "{:?}", markdown);
        }
    }

    #[test]
    fn new_ids_have_the_kernel_form_and_never_repeat() {
        let mut ids = IdMaker::new("20261124120000", seed_of(["diff"]), StableSet::default());
        let a = ids.next_id();
        let b = ids.next_id();
        assert!(crate::siyuan::is_block_id(&a), "{a}");
        assert_ne!(a, b);
        let mut again = IdMaker::new(
            "20261124120000",
            seed_of(["diff"]),
            StableSet::from_iter([a.clone()]),
        );
        assert_ne!(again.next_id(), a);
    }

    #[test]
    fn ids_written_in_ials_are_found() {
        assert_eq!(
            ial_ids("a\n{: id=\"20240101000000-aaaaaaa\" name=\"x\"}\n\n- {: id=\"20240101000000-bbbbbbb\"}b\n{: id=\"bad\"}"),
            vec!["20240101000000-aaaaaaa", "20240101000000-bbbbbbb"]
        );
    }
}

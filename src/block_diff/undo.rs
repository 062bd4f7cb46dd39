//! The undo of an apply: a block diff (same format) that restores exactly
//! what the apply did, built from the blocks' kramdown so ids and
//! attributes come back too (SPEC §3.6, §3.7 rules 8–9).
//!
//! - an update becomes a content-checked SEARCH/REPLACE hunk (SEARCH = the
//!   text the block has now, REPLACE = its old kramdown), so a late undo
//!   refuses to clobber newer edits; where the text holds marker lines it
//!   falls back to `@@REPLACE:id@@` and says so;
//! - an inserted block becomes a content-checked delete (SEARCH = its text,
//!   empty REPLACE), so a late undo refuses to delete text written into it
//!   since; a block without text falls back to `@@DELETE:id@@`;
//! - deleted blocks are re-inserted after their nearest previous sibling
//!   that still exists (`@@AFTER:…@@`), or first in their parent
//!   (`@@PREPEND:…@@`); deleted neighbours share one hunk in document order,
//!   because an undo hunk cannot anchor on a block the same undo restores;
//! - a block the kernel created on its own (the empty paragraph of an
//!   emptied list item) is deleted last, after what it stood in for is back
//!   (deleting it first would make the kernel create another).
//!
//! Hunks are ordered last-write-first.

use super::lexer::{tokenize, TokenKind};
use super::messages as msg;
use super::{Warning, WarningCode};
use crate::siyuan::{Block, ChildBlock};
use crate::text::StableMap;
use crate::Lang;

/// A write that was done.
#[derive(Clone, Debug)]
pub enum Done {
    Updated {
        entry: usize,
        id: String,
        old_kramdown: Option<String>,
        old_markdown: String,
        /// What was sent to `updateBlock`.
        written: String,
        /// The block's markdown re-read after the write (verify), if known.
        current: Option<String>,
    },
    Inserted {
        entry: usize,
        id: String,
        /// What was sent.
        markdown: String,
        /// The block's markdown re-read after the write, if known.
        current: Option<String>,
    },
    Deleted {
        entry: usize,
        id: String,
        old_kramdown: Option<String>,
        old_markdown: String,
    },
    /// A block the kernel made itself (KERNEL-FACTS §4: an emptied list
    /// item keeps an empty paragraph).
    KernelCreated { entry: usize, id: String },
}

impl Done {
    pub fn id(&self) -> &str {
        match self {
            Done::Updated { id, .. }
            | Done::Inserted { id, .. }
            | Done::Deleted { id, .. }
            | Done::KernelCreated { id, .. } => id,
        }
    }

    /// Index of the plan entry this write belongs to.
    pub fn entry(&self) -> usize {
        match self {
            Done::Updated { entry, .. }
            | Done::Inserted { entry, .. }
            | Done::Deleted { entry, .. }
            | Done::KernelCreated { entry, .. } => *entry,
        }
    }

    /// What re-inserts a deleted block: its kramdown (attributes and id
    /// included), else its markdown.
    pub fn restore_body(&self) -> Option<String> {
        match self {
            Done::Deleted {
                old_kramdown,
                old_markdown,
                ..
            } => Some(old_kramdown.clone().unwrap_or_else(|| old_markdown.clone())),
            _ => None,
        }
    }
}

/// Where deleted blocks go back.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum UndoPosition {
    After(String),
    /// First in this parent (on a heading: right after it).
    Prepend(String),
}

/// Deleted blocks that go back to one position, in document order.
#[derive(Clone, Debug)]
pub struct DeleteGroup {
    pub position: UndoPosition,
    /// Indexes into the `done` list, in document order.
    pub steps: Vec<usize>,
}

/// Builds the undo diff of `done` (in write order) given where each group
/// of deleted blocks goes back.
pub fn build_undo(done: &[Done], groups: &[DeleteGroup], lang: Lang) -> (String, Vec<Warning>) {
    let mut hunks: Vec<(usize, String)> = Vec::new(); // (last step index, text)
    let mut last_hunks: Vec<String> = Vec::new();
    let mut warnings = Vec::new();
    let unchecked = |id: &str, warnings: &mut Vec<Warning>| {
        warnings.push(Warning {
            code: WarningCode::UndoUnchecked,
            message: msg::undo_unchecked(lang, id),
            line: None,
            hunk_index: None,
            block_id: Some(id.to_string()),
        });
    };
    for (k, step) in done.iter().enumerate() {
        match step {
            Done::Inserted {
                id,
                markdown,
                current,
                ..
            } => {
                let now = current
                    .clone()
                    .unwrap_or_else(|| crate::markdown::strip_ial(markdown));
                let text = if !now.trim().is_empty() && is_plain(&now) {
                    format!("@@{id}@@\n<<<<<<< SEARCH\n{now}\n=======\n\n>>>>>>> REPLACE")
                } else {
                    unchecked(id, &mut warnings);
                    format!("@@DELETE:{id}@@")
                };
                hunks.push((k, text));
            }
            Done::Updated {
                id,
                old_kramdown,
                old_markdown,
                written,
                current,
                ..
            } => {
                let restore = old_kramdown.as_deref().unwrap_or(old_markdown);
                let now = current
                    .clone()
                    .unwrap_or_else(|| crate::markdown::strip_ial(written));
                let text = if !now.trim().is_empty() && is_plain(&now) && is_plain(restore) {
                    format!("@@{id}@@\n<<<<<<< SEARCH\n{now}\n=======\n{restore}\n>>>>>>> REPLACE")
                } else {
                    unchecked(id, &mut warnings);
                    format!("@@REPLACE:{id}@@\n{restore}")
                };
                hunks.push((k, text));
            }
            Done::KernelCreated { id, .. } => last_hunks.push(format!("@@DELETE:{id}@@")),
            Done::Deleted { .. } => {}
        }
    }
    for group in groups {
        let Some(&last) = group.steps.iter().max() else {
            continue;
        };
        let header = match &group.position {
            UndoPosition::After(anchor) => format!("@@AFTER:{anchor}@@"),
            UndoPosition::Prepend(parent) => format!("@@PREPEND:{parent}@@"),
        };
        let body: Vec<String> = group
            .steps
            .iter()
            .filter_map(|&s| done[s].restore_body())
            .collect();
        hunks.push((last, format!("{header}\n{}", body.join("\n\n"))));
    }
    hunks.sort_by_key(|h| std::cmp::Reverse(h.0)); // step indexes are unique
    let text = hunks
        .into_iter()
        .map(|(_, h)| h)
        .chain(last_hunks)
        .collect::<Vec<_>>()
        .join("\n\n");
    (text, warnings)
}

/// Text that no lexer rule would read as structure.
fn is_plain(text: &str) -> bool {
    tokenize(text)
        .iter()
        .all(|t| matches!(t.kind, TokenKind::Text))
}

/// Groups the deleted blocks of `done` by where they go back: after their
/// nearest previous sibling that was not deleted, else first in their
/// parent; each group in document order.
pub(super) fn delete_groups(
    blocks: &StableMap<String, Option<Block>>,
    children: &StableMap<String, Vec<ChildBlock>>,
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
            pairs.sort(); // (sibling index, step) pairs are distinct
            group.steps = pairs.into_iter().map(|(_, s)| s).collect();
            group
        })
        .collect();
    (groups, warnings)
}

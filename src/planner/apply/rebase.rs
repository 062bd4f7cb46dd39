//! Carrying plans over a successful apply: the applying owner's other
//! plans for the same file, made on the same content, are moved by the
//! splice's own line range and re-read in the new content, so edits
//! planned from one read apply one after the other.
//!
//! Kept apart because it runs after an apply, on other plans than the one
//! applied, and shares nothing with locating or reporting but the splice's
//! range ([`SplicedRange`]).

use crate::planner::doc::{fnv1a64, Doc, Spliced};
use crate::planner::registry::{Hunk, PlannedEdit};

/// Where an apply changed the file: lines `at..at + old` of the content it
/// was given became lines `at..at + new` of the result (the splice's own
/// range, not a diff of the two texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplicedRange {
    pub at: usize,
    pub old: usize,
    pub new: usize,
}

impl SplicedRange {
    pub(super) fn of(s: &Spliced) -> Self {
        SplicedRange {
            at: s.at,
            old: s.old_line_count,
            new: s.new_line_count,
        }
    }
}

/// Carries plans over an apply that turned `before` into `after` by the
/// one splice `change`. The caller passes the plans to carry: the same
/// session's (the registry is per session), for the same file, by the
/// owner whose apply it was — another owner never saw this change, so its
/// plans keep their own context and relocate by the normal rule.
///
/// A plan made on `before` whose planned lines lie wholly outside the
/// replaced lines now sees `after`: its position moves by the splice (kept
/// above it, shifted by the splice's line delta below it) and its context
/// lines are re-read there, so plans made from one read apply one after
/// the other even when one's context holds lines another changed. The
/// mapping comes from the splice's exact range, never from comparing the
/// two texts (which misplaces plans among repeated lines). A plan whose
/// planned lines the splice touched is left alone (it is rejected: the two
/// conflict), and so is one made on other content; and when `after` is
/// not `before` with that range spliced, no plan is moved at all.
pub(crate) fn rebase<'h>(
    hunks: impl Iterator<Item = &'h mut Hunk>,
    before: &str,
    after: &str,
    change: SplicedRange,
) {
    let digest = fnv1a64(before.as_bytes());
    let (old, new) = (Doc::new(before), Doc::new(after));
    let (old_lines, new_lines) = (old.texts(), new.texts());
    let SplicedRange {
        at,
        old: removed,
        new: added,
    } = change;
    let old_end = at.saturating_add(removed);
    let new_end = at.saturating_add(added);
    let consistent = old_end <= old_lines.len()
        && new_end <= new_lines.len()
        && old_lines.len() - removed == new_lines.len() - added
        && old_lines[..at] == new_lines[..at]
        && old_lines[old_end..] == new_lines[new_end..];
    if !consistent {
        return;
    }
    for hunk in hunks {
        if hunk.base.digest != digest || hunk.base.bytes != before.len() {
            continue;
        }
        let moved = match &hunk.edit {
            PlannedEdit::Lines(e) => {
                let end = e.core_start + e.core.len();
                let start = if end <= at {
                    e.core_start
                } else if e.core_start >= old_end {
                    e.core_start - removed + added
                } else {
                    continue;
                };
                PlannedEdit::Lines(crate::planner::prepare::lines_edit(
                    &new_lines,
                    start,
                    e.core.len(),
                    e.del_offset,
                    e.del_count,
                ))
            }
            PlannedEdit::Append { create } => PlannedEdit::Append { create: *create },
            PlannedEdit::EmptyFile => continue,
        };
        hunk.edit = moved;
        hunk.base = crate::planner::prepare::base(after, true, &new);
    }
}

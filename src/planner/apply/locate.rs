//! Where a lines plan's window stands in the file now (SPEC §7): at the
//! planned position (`exact`), at exactly one other place as written or
//! under the safe strategies (`fuzz`), or nowhere / at several places
//! (`rejected`). A plan with no context line is confirmed by the file's
//! edges alone ([`locate_by_edges`]).
//!
//! Kept apart from the splice and the report: this is the decision the
//! whole apply rests on, and it only reads lines — it writes nothing and
//! builds no result, so it can be read against SPEC §7 line by line.

use super::safe::{relocate_with_safe_strategies, Relocated};
use crate::planner::doc::find_all;
use crate::planner::registry::LinesEdit;
use crate::planner::types::{LocatedBy, RejectReason};

/// Where [`locate`] put a lines plan, or why it did not.
pub(super) enum Located {
    At {
        core_start: usize,
        by: LocatedBy,
        context_matched: usize,
        candidates: usize,
        /// The new text to write when it is not the planned one (a
        /// re-indented window).
        new_text: Option<String>,
    },
    Rejected {
        reason: RejectReason,
        candidates: Vec<usize>,
        context_matched: usize,
    },
}

fn matches_at(lines: &[&str], at: usize, core: &[String]) -> bool {
    at.checked_add(core.len())
        .is_some_and(|end| end <= lines.len())
        && lines[at..at + core.len()]
            .iter()
            .zip(core)
            .all(|(a, b)| *a == b.as_str())
}

/// Context elements (lines, file edges) that agree when the core starts at
/// `at`.
fn context_score(lines: &[&str], at: usize, e: &LinesEdit) -> usize {
    let line_is = |index: Option<usize>, want: &str| {
        index.and_then(|i| lines.get(i)).is_some_and(|l| *l == want)
    };
    let n = e.before.len();
    let mut score = 0;
    for (i, want) in e.before.iter().enumerate() {
        score += usize::from(line_is((at + i).checked_sub(n), want));
    }
    let after_start = at + e.core.len();
    for (i, want) in e.after.iter().enumerate() {
        score += usize::from(line_is(Some(after_start + i), want));
    }
    score += usize::from(e.bof && at == n);
    score += usize::from(e.eof && after_start + e.after.len() == lines.len());
    score
}

/// Where the plan's window — its context lines before, its core, its
/// context lines after — stands in `lines` (SPEC §7):
///
/// 1. **exact**: the file is byte for byte the one the plan was made on
///    (`unchanged`), or the window stands at the planned position, every
///    context element (file edges included) agreeing, and nowhere else;
/// 2. **fuzz**: the whole window, in order, at exactly one other place —
///    as written, or else under the matcher's safe strategies;
/// 3. **rejected**: the window at several places, shifted or not
///    (`AMBIGUOUS_MATCH`, every place listed), or nowhere
///    (`CONTENT_CHANGED`). A place holding only some of the context, or
///    the core alone, is not the plan's place.
pub(super) fn locate(lines: &[&str], e: &LinesEdit, new_text: &str, unchanged: bool) -> Located {
    let total = e.context_total();
    let core: Vec<&str> = e.core.iter().map(String::as_str).collect();
    let candidates = find_all(lines, &core);
    let intact =
        matches_at(lines, e.core_start, &e.core) && context_score(lines, e.core_start, e) == total;
    let exact = || Located::At {
        core_start: e.core_start,
        by: LocatedBy::PlannedPosition,
        context_matched: total,
        candidates: candidates.len(),
        new_text: None,
    };
    if unchanged && intact {
        // The plan's own content: its line numbers hold, even where its
        // window was never unique.
        return exact();
    }
    if e.before.is_empty() && e.after.is_empty() {
        // No context line on either side (the span is the whole file):
        // only the file's edges can confirm a place, and the core alone
        // somewhere else is never taken.
        return locate_by_edges(lines, e, new_text, &candidates, intact);
    }
    let window: Vec<&str> = e
        .before
        .iter()
        .chain(&e.core)
        .chain(&e.after)
        .map(String::as_str)
        .collect();
    let places: Vec<usize> = find_all(lines, &window)
        .into_iter()
        .map(|w| w + e.before.len())
        .collect();
    match places.as_slice() {
        // `intact` puts the window at the planned position, so the one
        // place is that one.
        [_] if intact => return exact(),
        // The window stood at two places of the planned-on file: the one
        // left may be the other.
        [_] if e.twin_as_written => {
            return Located::Rejected {
                reason: RejectReason::ContentChanged,
                context_matched: e.before.len() + e.after.len(),
                candidates: Vec::new(),
            }
        }
        [at] => {
            return Located::At {
                core_start: *at,
                by: LocatedBy::LinesAndContext,
                context_matched: context_score(lines, *at, e),
                candidates: candidates.len(),
                new_text: None,
            }
        }
        [] => {}
        _ => {
            return Located::Rejected {
                reason: RejectReason::AmbiguousMatch,
                context_matched: e.before.len() + e.after.len(),
                candidates: places,
            }
        }
    }
    located_by_safe_strategies(lines, e, new_text, &candidates)
}

/// Step 2 of [`locate`] for a window not found as written: under the
/// matcher's safe strategies, at exactly one place, or rejected.
/// `candidates` are the places of the core alone, for the evidence.
fn located_by_safe_strategies(
    lines: &[&str],
    e: &LinesEdit,
    new_text: &str,
    candidates: &[usize],
) -> Located {
    match relocate_with_safe_strategies(lines, e, new_text) {
        Relocated::At(found) => Located::At {
            core_start: found.core_start,
            by: LocatedBy::SafeStrategy,
            context_matched: context_score(lines, found.core_start, e),
            candidates: 1,
            new_text: found.new_text,
        },
        Relocated::Several(places) => Located::Rejected {
            reason: RejectReason::AmbiguousMatch,
            context_matched: e.before.len() + e.after.len(),
            candidates: places,
        },
        Relocated::Nowhere => content_changed(lines, e, candidates),
    }
}

/// [`locate`] for a plan with no context line on either side: its window is
/// the core and the file edges the plan recorded (the core started at the
/// file's start, ended at its end). The core must stand there — as
/// written (`exact`: the same lines, other bytes such as line endings),
/// or under the matcher's safe strategies (`fuzz`) — or the plan is
/// `rejected` (`CONTENT_CHANGED`), wherever else its lines stand. A plan
/// that recorded no edge has nothing to confirm any place with.
fn locate_by_edges(
    lines: &[&str],
    e: &LinesEdit,
    new_text: &str,
    candidates: &[usize],
    intact: bool,
) -> Located {
    let total = e.context_total();
    let anchored = |at: usize, len: usize| {
        (e.bof || e.eof)
            && (!e.bof || at == 0)
            && (!e.eof || at.checked_add(len) == Some(lines.len()))
    };
    if intact && anchored(e.core_start, e.core.len()) {
        return Located::At {
            core_start: e.core_start,
            by: LocatedBy::PlannedPosition,
            context_matched: total,
            candidates: candidates.len(),
            new_text: None,
        };
    }
    if let Relocated::At(found) = relocate_with_safe_strategies(lines, e, new_text) {
        if anchored(found.core_start, found.core_len) {
            return Located::At {
                core_start: found.core_start,
                by: LocatedBy::SafeStrategy,
                context_matched: context_score(lines, found.core_start, e),
                candidates: 1,
                new_text: found.new_text,
            };
        }
    }
    content_changed(lines, e, candidates)
}

/// The window is nowhere any more: rejected, with the best context any of
/// the core's places still has as evidence.
fn content_changed(lines: &[&str], e: &LinesEdit, candidates: &[usize]) -> Located {
    Located::Rejected {
        reason: RejectReason::ContentChanged,
        candidates: Vec::new(),
        context_matched: candidates
            .iter()
            .map(|&c| context_score(lines, c, e))
            .max()
            .unwrap_or(0),
    }
}

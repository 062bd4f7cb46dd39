//! Strategy 1, `exact`: the search occurs byte for byte.
//!
//! - Forgives: nothing.
//! - Never forgives: any difference, including line endings and a BOM
//!   inside the text (a leading BOM of content or search is set aside
//!   before any strategy runs).
//! - Cost: one substring scan of the content (`str::match_indices`,
//!   Two-Way, linear), plus a short scan per hit for an overlapping second
//!   occurrence.
//!
//! The replacement is inserted as written; only its line breaks take the
//! matched region's line ending.

use super::{substring_spans, Candidate, Cx, Needle, Outcome, Plan};
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::Exact;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    if needle.exact_absent {
        // Charged as the scan would be: the answer never depends on who
        // scanned.
        return if cx.budget.spend(cx.content.body.len()) {
            Outcome::NotFound
        } else {
            Outcome::Exhausted
        };
    }
    let Some(spans) = substring_spans(
        cx.content.body,
        &needle.exact,
        cx.replace_all,
        &mut cx.budget,
    ) else {
        return Outcome::Exhausted;
    };
    found(spans.into_iter().map(|(start, end)| Candidate {
        start,
        end,
        score: 1.0,
        plan: Plan::Verbatim,
        unescaped: 0,
    }))
}

/// `Found` with the candidates, `NotFound` when there are none.
pub(crate) fn found(candidates: impl Iterator<Item = Candidate>) -> Outcome {
    let v: Vec<Candidate> = candidates.collect();
    if v.is_empty() {
        Outcome::NotFound
    } else {
        Outcome::Found(v)
    }
}

//! Strategy 10, `context_anchored` (fuzzy tier): the first and last lines
//! of the search are anchors, the lines between them mostly equal.
//!
//! - Forgives: middle lines that changed, appeared or disappeared, as long
//!   as at least [`CONTEXT_MIDDLE_MIN`] of them (70 %, seed 004) are still
//!   equal in order, the window's line count is within the size slack of
//!   the search's, and the whole window scores at least the fuzzy
//!   threshold, with the margin over any runner-up in another place
//!   (sharing at most half its lines).
//! - Never forgives: a changed first or last line (compared under the fold
//!   key), a search of fewer than [`MIN_FUZZY_LINES`] non-blank lines, a
//!   weak single candidate (no 0.0 threshold: a block whose middle lines
//!   were invented is refused), two candidates too close to call.
//! - Cost: anchors come from the cached per-line hashes (linear); each
//!   anchor pair costs an LCS over the middle lines and one similarity, all
//!   charged to the work budget. Searches anchored on common lines (`}`)
//!   produce many pairs, most rejected by the LCS before any similarity.
//!
//! The replacement is re-indented line by line from the search lines it
//! pairs with.

use super::windows::{folded_search, folded_text, similarity, Window};
use super::{Candidate, Cx, FuzzyPlan, NearMiss, Needle, Outcome, Plan};
use crate::matcher::normalize::{fold_hash, fold_key_into, key, Level};
use crate::matcher::types::{Strategy, CONTEXT_MIDDLE_MIN, MIN_FUZZY_LINES};

pub(crate) const STRATEGY: Strategy = Strategy::ContextAnchored;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let k = needle.lines.len();
    if k < 3 || needle.nonblank_lines() < MIN_FUZZY_LINES {
        return Outcome::NotFound;
    }
    let (first_key, last_key) = (
        key(&needle.lines[0], Level::Fold),
        key(&needle.lines[k - 1], Level::Fold),
    );
    let search_hashes: Vec<u64> = needle.lines.iter().map(|l| fold_hash(l)).collect();
    let (h_first, h_last) = (search_hashes[0], search_hashes[k - 1]);
    let content = cx.content;
    let Some(hashes) = content.fold_hashes(&mut cx.budget) else {
        return Outcome::Exhausted;
    };
    let n = hashes.len();
    let slack = cx.limits.line_slack(k);
    if !cx.budget.spend(n) {
        return Outcome::Exhausted;
    }
    let middle_hashes = &search_hashes[1..k - 1];
    let middle = Middle {
        hashes: middle_hashes,
        seen_before: seen_before(hashes, middle_hashes),
        text: folded_search(&needle.lines),
        floor: cx.limits.threshold - cx.limits.margin,
    };
    let mut scored: Vec<(Window, f64)> = Vec::new();
    // Anchor keys are compared in a reused buffer (no allocation per line).
    let mut buf = Vec::new();
    let mut same_key = |line: &str, want: &str| {
        fold_key_into(line, &mut buf);
        buf == want.as_bytes()
    };
    for i in 0..n {
        if hashes[i] != h_first || !same_key(content.line(i), &first_key) {
            continue;
        }
        let lo = (i + k - 1).saturating_sub(slack).max(i + 2);
        let hi = (i + k - 1 + slack).min(n.saturating_sub(1));
        for j in lo..=hi {
            if hashes.get(j) != Some(&h_last) || !same_key(content.line(j), &last_key) {
                continue;
            }
            match score_between(cx, hashes, i, j, &middle) {
                Pair::Scored(window, score) => scored.push((window, score)),
                Pair::Rejected => {}
                Pair::Exhausted => return Outcome::Exhausted,
            }
        }
    }
    decide(cx, k, scored)
}

/// The search's middle lines (between the anchors), as [`score_between`]
/// compares them.
struct Middle<'n> {
    /// Their fold-key hashes.
    hashes: &'n [u64],
    /// See [`seen_before`].
    seen_before: Vec<u32>,
    /// The whole search under the fold key.
    text: String,
    /// Scores below this cannot be accepted (threshold − margin).
    floor: f64,
}

/// `out[l]` = content lines before `l` whose hash is one of the middle
/// lines' hashes: an O(1) upper bound of the middle LCS of any window.
fn seen_before(hashes: &[u64], middle: &[u64]) -> Vec<u32> {
    let mut sorted_middle = middle.to_vec();
    sorted_middle.sort_unstable();
    let mut out = Vec::with_capacity(hashes.len() + 1);
    out.push(0u32);
    for h in hashes {
        let last = out.last().copied().unwrap_or(0);
        out.push(last + u32::from(sorted_middle.binary_search(h).is_ok()));
    }
    out
}

/// What one anchor pair gives.
enum Pair {
    /// Too few middle lines equal (fewer than [`CONTEXT_MIDDLE_MIN`]).
    Rejected,
    Scored(Window, f64),
    Exhausted,
}

/// The window from anchor line `i` to anchor line `j` (inclusive): its
/// middle lines compared by their cached fold-key hashes (the shared
/// multiset bounds the LCS before it is computed), then the whole window
/// scored.
fn score_between(
    cx: &mut Cx<'_, '_>,
    hashes: &[u64],
    i: usize,
    j: usize,
    middle: &Middle<'_>,
) -> Pair {
    let file_middle = hashes.get(i + 1..j).unwrap_or(&[]);
    let longest = middle.hashes.len().max(file_middle.len());
    let present = middle
        .seen_before
        .get(j)
        .zip(middle.seen_before.get(i + 1))
        .map_or(0, |(a, b)| a - b) as usize;
    let shared = present.min(middle.hashes.len());
    if longest > 0 && (shared as f64) < CONTEXT_MIDDLE_MIN * longest as f64 {
        return Pair::Rejected;
    }
    if !cx
        .budget
        .spend(middle.hashes.len().saturating_mul(file_middle.len()) + 1)
    {
        return Pair::Exhausted;
    }
    let middle_equal = lcs_len(middle.hashes, file_middle);
    let ratio = if longest == 0 {
        1.0
    } else {
        middle_equal as f64 / longest as f64
    };
    if ratio < CONTEXT_MIDDLE_MIN {
        return Pair::Rejected;
    }
    let window_text = folded_text(cx, i, j + 1 - i);
    let Some(score) = similarity(cx, &middle.text, &window_text, middle.floor) else {
        return Pair::Exhausted;
    };
    let window = Window {
        first: i,
        count: j + 1 - i,
        dice: 0.0,
        equal_lines: middle_equal + 2,
    };
    Pair::Scored(window, score)
}

/// Length of the longest common subsequence of two sequences.
pub(crate) fn lcs_len<T: PartialEq>(a: &[T], b: &[T]) -> usize {
    let mut prev = vec![0usize; b.len() + 1];
    let mut cur = vec![0usize; b.len() + 1];
    for x in a {
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = if x == y {
                prev[j] + 1
            } else {
                prev[j + 1].max(cur[j])
            };
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The fuzzy acceptance rule shared by strategies 10 and 11: the best
/// window must reach the threshold, beat every window in another place
/// ([`Window::same_place`]) by the margin, and hold more of the search's
/// lines than any of them. Windows too close to call (both above the
/// threshold and within the margin, or holding as many lines) are returned
/// together (ambiguous); a weak best window, or one within the margin of a
/// weak runner-up, is a near miss for the report.
pub(crate) fn decide(
    cx: &mut Cx<'_, '_>,
    search_lines: usize,
    mut scored: Vec<(Window, f64)>,
) -> Outcome {
    scored.sort_unstable_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then(
                a.0.count
                    .abs_diff(search_lines)
                    .cmp(&b.0.count.abs_diff(search_lines)),
            )
            .then(a.0.first.cmp(&b.0.first))
    });
    let Some(&(best, best_score)) = scored.first() else {
        return Outcome::NotFound;
    };
    let runner_up = scored.iter().find(|(w, _)| !w.same_place(&best)).copied();
    // Another place that holds as many of the search's lines, in order, is
    // as likely the one meant: only the length of what the search lacks
    // there sets the scores apart (a dropped line that was short in one
    // place and long in another), which says nothing about intent.
    let line_rival = scored
        .iter()
        .find(|(w, _)| !w.same_place(&best) && w.equal_lines >= best.equal_lines)
        .copied();
    let limits = cx.limits;
    let too_close = runner_up.is_some_and(|(_, s)| best_score - s < limits.margin);
    let near = NearMiss::Fuzzy {
        first: best.first,
        last: best.first + best.count - 1,
        score: best_score,
        runner_up: runner_up.map(|(_, s)| s),
    };
    if best_score < limits.threshold {
        cx.near.push(near);
        return Outcome::NotFound;
    }
    let mut chosen = vec![best];
    if let Some((w, _)) = line_rival {
        chosen.push(w);
    } else if too_close {
        match runner_up {
            Some((w, s)) if s >= limits.threshold => chosen.push(w),
            _ => {
                cx.near.push(near);
                return Outcome::NotFound;
            }
        }
    }
    let lines = cx.content.lines();
    let mut candidates = Vec::new();
    for w in chosen {
        let (Some(a), Some(b)) = (lines.get(w.first), lines.get(w.first + w.count - 1)) else {
            continue;
        };
        let score = scored.iter().find(|(s, _)| *s == w).map_or(0.0, |s| s.1);
        candidates.push(Candidate {
            start: a.start(),
            end: b.end(),
            score,
            plan: Plan::Fuzzy(FuzzyPlan {
                first: w.first,
                count: w.count,
                from_line_start: false,
            }),
            unescaped: 0,
        });
    }
    if candidates.is_empty() {
        Outcome::NotFound
    } else {
        Outcome::Found(candidates)
    }
}

#[cfg(test)]
mod tests {
    use super::lcs_len;

    #[test]
    fn lcs_counts_lines_in_order() {
        assert_eq!(lcs_len(&["a", "b", "c"], &["a", "x", "c"]), 2);
        assert_eq!(lcs_len::<u64>(&[], &[1]), 0);
    }
}

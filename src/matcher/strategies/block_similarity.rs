//! Strategy 11, `block_similarity` (fuzzy tier): the window of whole lines
//! most similar to the search, by sequence similarity of the fold-key
//! texts (a normalised edit distance over the lines' characters).
//!
//! - Forgives: small differences anywhere (a renamed identifier, a missing
//!   comma, a dropped or added line), within the threshold, the margin over
//!   any non-overlapping runner-up and the size slack (window line counts
//!   `lines ± max(1, floor(lines · (size_ratio − 1)))`).
//! - Never forgives: a search of fewer than [`MIN_FUZZY_LINES`] non-blank
//!   lines (on one or two lines a "small difference" is the edit itself:
//!   `MAX_RETRIES = 5` must not match `MAX_RETRIES = 3`); a window whose
//!   first or last line does not stand for the search's first or last line
//!   (equal under the fold key, or similar above the threshold), so a span
//!   is never cut short of a closing `}` nor stretched past it; fewer than
//!   [`MIN_EQUAL_LINE_RATIO`] of the lines equal in order; a weak best
//!   window; two windows too close to call.
//! - Cost: the token-bag filter of [`windows`](super::windows) (linear per
//!   window size), then at most a dozen sequence similarities, each charged
//!   to the work budget before it runs.
//!
//! The replacement is re-indented line by line from the search lines it
//! pairs with.

use super::context_anchored::{decide, lcs_len};
use super::windows::{folded_search, folded_text, similarity, token_windows, Window};
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::{key, Level};
use crate::matcher::types::{Strategy, MIN_EQUAL_LINE_RATIO, MIN_FUZZY_LINES};

pub(crate) const STRATEGY: Strategy = Strategy::BlockSimilarity;

/// Windows whose token similarity is this far below the threshold are not
/// worth an edit distance.
const PREFILTER_SLACK: f64 = 0.3;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let k = needle.lines.len();
    if needle.nonblank_lines() < MIN_FUZZY_LINES {
        return Outcome::NotFound;
    }
    let slack = cx.limits.line_slack(k);
    let sizes: Vec<usize> = (k.saturating_sub(slack).max(1)..=k + slack).collect();
    let min_dice = (cx.limits.threshold - PREFILTER_SLACK).max(0.0);
    let Some(groups) = token_windows(cx, &needle.lines, &sizes, min_dice, 4, 1) else {
        return Outcome::Exhausted;
    };
    let search_text = folded_search(&needle.lines);
    let search_keys: Vec<String> = needle.lines.iter().map(|l| key(l, Level::Fold)).collect();
    let (Some(first_key), Some(last_key)) = (search_keys.first(), search_keys.last()) else {
        return Outcome::NotFound;
    };
    let n = cx.content.lines().len();
    let mut scored = Vec::new();
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for head in groups.into_iter().flatten() {
        // Around each region the filter found, every window of an allowed
        // size whose first and last lines stand for the search's first and
        // last lines.
        let Some(firsts) = pairing_lines(cx, head.first.saturating_sub(slack)..=(head.first + slack).min(n - 1), first_key)
        else {
            return Outcome::Exhausted;
        };
        for a in firsts {
            let lo = a + sizes.first().copied().unwrap_or(1) - 1;
            let hi = (a + sizes.last().copied().unwrap_or(1) - 1).min(n - 1);
            if lo > hi {
                continue;
            }
            let Some(lasts) = pairing_lines(cx, lo..=hi, last_key) else {
                return Outcome::Exhausted;
            };
            for b in lasts {
                if seen.contains(&(a, b)) {
                    continue;
                }
                seen.push((a, b));
                let keys: Vec<String> = (a..=b).map(|i| key(cx.content.line(i), Level::Fold)).collect();
                if !cx.budget.spend(keys.len().saturating_mul(search_keys.len())) {
                    return Outcome::Exhausted;
                }
                let equal = lcs_len(&search_keys, &keys) as f64 / keys.len().max(search_keys.len()) as f64;
                if equal < MIN_EQUAL_LINE_RATIO {
                    continue;
                }
                let text = folded_text(cx, a, b + 1 - a);
                let Some(score) = similarity(cx, &search_text, &text) else {
                    return Outcome::Exhausted;
                };
                scored.push((Window { first: a, count: b + 1 - a, dice: 0.0 }, score));
            }
        }
    }
    decide(cx, k, scored)
}

/// The lines of `range` that stand for a search line with fold key `want`:
/// equal, or similar at least at the threshold. `None` when the budget ran
/// out.
fn pairing_lines(cx: &mut Cx<'_, '_>, range: std::ops::RangeInclusive<usize>, want: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for i in range {
        let k = key(cx.content.line(i), Level::Fold);
        if k == want || similarity(cx, &k, want)? >= cx.limits.threshold {
            out.push(i);
        }
    }
    Some(out)
}

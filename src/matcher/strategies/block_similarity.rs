//! Strategy 11, `block_similarity` (fuzzy tier): the window of whole lines
//! most similar to the search, by sequence similarity of the fold-key
//! texts (a normalised edit distance over the lines' characters).
//!
//! - Forgives: small differences anywhere (a renamed identifier, a missing
//!   comma, a dropped or added line), within the threshold, the margin over
//!   any runner-up in another place (sharing at most half its lines) and the size slack (window line counts
//!   `lines ± max(1, floor(lines · (size_ratio − 1)))`).
//! - Never forgives: a search of fewer than [`MIN_FUZZY_LINES`] non-blank
//!   lines (on one or two lines a "small difference" is the edit itself:
//!   `MAX_RETRIES = 5` must not match `MAX_RETRIES = 3`); a window whose
//!   first or last line does not stand for the search's first or last line
//!   (equal under the fold key, or similar above the threshold), so a span
//!   is never cut short of a closing `}` nor stretched past it; fewer than
//!   [`MIN_EQUAL_LINE_RATIO`] of the lines equal in order; a weak best
//!   window; two windows too close to call, by score or by lines (another
//!   place holding as many of the search's lines).
//! - Cost: the token-bag filter of `windows` module (linear per
//!   window size), then at most a dozen sequence similarities, each charged
//!   to the work budget before it runs.
//!
//! The replacement is re-indented line by line from the search lines it
//! pairs with.

use super::context_anchored::{decide, lcs_len};
use super::windows::{best_windows, folded_search, folded_text, similarity, Window};
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::{fold_hash, key, Level};
use crate::matcher::types::{Strategy, MIN_EQUAL_LINE_RATIO, MIN_FUZZY_LINES};

pub(crate) const STRATEGY: Strategy = Strategy::BlockSimilarity;

/// A boundary line with at least this many letters and digits carries
/// words, not just structure (`}`, `});`, `end`).
const WORDY_LINE_CHARS: usize = 8;
/// How similar such a boundary line must be to the search's: a model
/// misremembering one identifier on a short line (`total += x;` for
/// `total += item;`) still names that line, and the window as a whole is
/// held to the threshold, the margin and the line rivals all the same.
/// Structural lines keep the full threshold, so a span is never stretched
/// past or cut short of a closing brace.
const BOUNDARY_WORDY_SIMILARITY: f64 = 0.7;

/// Regions whose token similarity is this far below the threshold are not
/// worth an edit distance.
const PREFILTER_SLACK: f64 = 0.3;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let k = needle.lines.len();
    if needle.nonblank_lines() < MIN_FUZZY_LINES {
        return Outcome::NotFound;
    }
    let slack = cx.limits.line_slack(k);
    let min_dice = (cx.limits.threshold - PREFILTER_SLACK).max(0.0);
    let floor = cx.limits.threshold - cx.limits.margin;
    let Some(heads) = best_windows(cx, needle) else {
        return Outcome::Exhausted;
    };
    let content = cx.content;
    let Some(hashes) = content.fold_hashes(&mut cx.budget) else {
        return Outcome::Exhausted;
    };
    let n = hashes.len();
    let search_hashes: Vec<u64> = needle.lines.iter().map(|l| fold_hash(l)).collect();
    let search_text = folded_search(&needle.lines);
    let (Some(first), Some(last)) = (needle.lines.first(), needle.lines.last()) else {
        return Outcome::NotFound;
    };
    let (first_key, last_key) = (key(first, Level::Fold), key(last, Level::Fold));
    let mut scored = Vec::new();
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for head in heads.iter().filter(|h| h.dice >= min_dice) {
        // Around each region the filter found, every window of an allowed
        // size whose first and last lines stand for the search's first and
        // last lines. The first line is looked for anywhere in the region:
        // a region the filter kept may straddle two places (the tail of one
        // block and the head of the next have the same token bag as either).
        let range = head.first.saturating_sub(slack)..=(head.first + (head.count - 1).max(slack)).min(n - 1);
        let Some(firsts) = pairing_lines(cx, hashes, range, &first_key, search_hashes[0]) else {
            return Outcome::Exhausted;
        };
        for a in firsts {
            let lo = (a + k - 1).saturating_sub(slack).max(a);
            let hi = (a + k - 1 + slack).min(n - 1);
            if lo > hi {
                continue;
            }
            let Some(lasts) = pairing_lines(cx, hashes, lo..=hi, &last_key, search_hashes[k - 1]) else {
                return Outcome::Exhausted;
            };
            for b in lasts {
                if seen.contains(&(a, b)) {
                    continue;
                }
                seen.push((a, b));
                let window = &hashes[a..=b];
                if !cx.budget.spend(window.len().saturating_mul(k)) {
                    return Outcome::Exhausted;
                }
                let equal_lines = lcs_len(&search_hashes, window);
                if (equal_lines as f64) < MIN_EQUAL_LINE_RATIO * window.len().max(k) as f64 {
                    continue;
                }
                let text = folded_text(cx, a, b + 1 - a);
                let Some(score) = similarity(cx, &search_text, &text, floor) else {
                    return Outcome::Exhausted;
                };
                scored.push((Window { first: a, count: b + 1 - a, dice: head.dice, equal_lines }, score));
            }
        }
    }
    decide(cx, k, scored)
}

/// The lines of `range` that stand for a search line with fold key `want`
/// (hash `want_hash`): equal, or similar at least at the threshold. `None`
/// when the budget ran out.
fn pairing_lines(
    cx: &mut Cx<'_, '_>,
    hashes: &[u64],
    range: std::ops::RangeInclusive<usize>,
    want: &str,
    want_hash: u64,
) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    let wordy = want.chars().filter(|c| c.is_alphanumeric()).count() >= WORDY_LINE_CHARS;
    for i in range {
        let line = key(cx.content.line(i), Level::Fold);
        let equal = hashes.get(i) == Some(&want_hash) && line == want;
        let threshold = if wordy { BOUNDARY_WORDY_SIMILARITY.min(cx.limits.threshold) } else { cx.limits.threshold };
        if equal || similarity(cx, &line, want, threshold)? >= threshold {
            out.push(i);
        }
    }
    Some(out)
}

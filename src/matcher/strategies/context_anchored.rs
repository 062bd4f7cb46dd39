//! Strategy 11, `context_anchored` (fuzzy tier): the first and last lines
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
//! - Cost: first at most eight substring scans for words of the search
//!   that passing windows need ([`ruled_out`]); when the missing ones rule
//!   out an anchor or too many middle lines, nothing else runs. Otherwise
//!   anchors come from the cached per-line hashes (linear); each anchor
//!   pair costs an LCS over the middle lines and one similarity, all
//!   charged to the work budget.
//!   Searches anchored on common lines (`}`) produce many pairs, most
//!   rejected by the LCS before any similarity.
//!
//! The replacement is re-indented line by line from the search lines it
//! pairs with.

use super::windows::{folded_text, similarity, Window};
use super::{Candidate, Cx, FuzzyPlan, NearMiss, Needle, Outcome, Plan};
use crate::matcher::content::Content;
use crate::matcher::normalize::{ascii_word_runs, fold_key_into};
use crate::matcher::types::{Strategy, CONTEXT_MIDDLE_MIN, MIN_FUZZY_LINES};
use crate::text::lcs_len;

pub(crate) const STRATEGY: Strategy = Strategy::ContextAnchored;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let k = needle.lines.len();
    if k < 3 || needle.nonblank_lines() < MIN_FUZZY_LINES {
        return Outcome::NotFound;
    }
    if ruled_out(cx.content, needle.fold_keys()) {
        return decide(cx, k, Vec::new());
    }
    match scored_pairs(cx, needle) {
        Some(scored) => decide(cx, k, scored),
        None => Outcome::Exhausted,
    }
}

/// Every anchor pair's window that passes the middle-line rule, with its
/// score (`None` when the budget ran out). Needs at least 3 search lines.
fn scored_pairs(cx: &mut Cx<'_, '_>, needle: &Needle) -> Option<Vec<(Window, f64)>> {
    let k = needle.lines.len();
    let keys = needle.fold_keys();
    let (first_key, last_key) = (&keys[0], &keys[k - 1]);
    let search_hashes = needle.fold_hashes();
    let (h_first, h_last) = (search_hashes[0], search_hashes[k - 1]);
    let content = cx.content;
    let hashes = content.fold_hashes(&mut cx.budget)?;
    let n = hashes.len();
    let slack = cx.limits.line_slack(k);
    if !cx.budget.spend(n) {
        return None;
    }
    let middle_hashes = &search_hashes[1..k - 1];
    let middle = Middle {
        hashes: middle_hashes,
        seen_before: seen_before(hashes, middle_hashes),
        text: needle.fold_text(),
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
        if hashes[i] != h_first || !same_key(content.line(i), first_key) {
            continue;
        }
        let lo = (i + k - 1).saturating_sub(slack).max(i + 2);
        let hi = (i + k - 1 + slack).min(n.saturating_sub(1));
        for j in lo..=hi {
            if hashes.get(j) != Some(&h_last) || !same_key(content.line(j), last_key) {
                continue;
            }
            match score_between(cx, hashes, i, j, &middle) {
                Pair::Scored(window, score) => scored.push((window, score)),
                Pair::Rejected => {}
                Pair::Exhausted => return None,
            }
        }
    }
    Some(scored)
}

/// Runs shorter than this are in too many lines to rule anything out.
const MIN_RUN: usize = 3;
/// Substring scans [`ruled_out`] may spend on each anchor line, longest
/// run first.
const ANCHOR_SCANS: usize = 2;
/// More distinct runs than this in the middle lines and [`ruled_out`]
/// leaves the search to the full scan.
const MAX_RUNS: usize = 4_096;
/// Substring scans [`ruled_out`] may spend on the middle lines.
const MIDDLE_SCANS: usize = 4;

/// Whether the content lacks words every passing window needs, found with
/// a few substring scans before any line is hashed. A file line equal to
/// a search line under the fold key holds each ASCII word run of that key
/// verbatim (see [`ascii_word_runs`]), so a run found nowhere in the file
/// rules out every search line that has it: the first or last anchor at
/// once, and middle lines one by one, until too few are left for
/// [`CONTEXT_MIDDLE_MIN`] of them to be equal in any window. Then no pair
/// can pass, and the answer is the one the full scan would give. `keys`
/// are the search lines' fold keys.
fn ruled_out(content: &Content<'_>, keys: &[String]) -> bool {
    if !content.keeps_word_runs() {
        return false;
    }
    let missing = |run: &str| content.lacks_word_run(run);
    let (Some((first, middle)), Some(last)) = (keys.split_first(), keys.last()) else {
        return false;
    };
    for anchor in [first, last] {
        let mut runs = word_runs(anchor);
        runs.sort_by_key(|r| std::cmp::Reverse(r.len()));
        if runs.into_iter().take(ANCHOR_SCANS).any(missing) {
            return true;
        }
    }
    let middle: Vec<Vec<&str>> = middle[..middle.len().saturating_sub(1)]
        .iter()
        .map(|k| word_runs(k))
        .collect();
    // The runs shared by the most middle lines first: one missing run
    // rules out all of them. Counting is linear in the search's runs, and
    // a search with a great many is left to the full scan.
    let mut counts: crate::text::StableMap<&str, usize> = crate::text::StableMap::default();
    for &run in middle.iter().flatten() {
        *counts.entry(run).or_default() += 1;
    }
    if counts.len() > MAX_RUNS {
        return false;
    }
    let mut runs: Vec<(usize, &str)> = counts.into_iter().map(|(r, n)| (n, r)).collect();
    runs.sort_by(|a, b| {
        b.0.cmp(&a.0)
            .then(b.1.len().cmp(&a.1.len()))
            .then(a.1.cmp(b.1))
    });
    let mut alive = vec![true; middle.len()];
    let needed = CONTEXT_MIDDLE_MIN * middle.len() as f64;
    for &(_, run) in runs.iter().take(MIDDLE_SCANS) {
        if !missing(run) {
            continue;
        }
        for (line_runs, alive) in middle.iter().zip(alive.iter_mut()) {
            if line_runs.contains(&run) {
                *alive = false;
            }
        }
        if (alive.iter().filter(|a| **a).count() as f64) < needed {
            return true;
        }
    }
    false
}

/// The distinct ASCII word runs of a fold key at least [`MIN_RUN`] long.
fn word_runs(key: &str) -> Vec<&str> {
    let mut runs: Vec<&str> = ascii_word_runs(key)
        .filter(|r| r.len() >= MIN_RUN)
        .collect();
    runs.sort();
    runs.dedup();
    runs
}

/// The search's middle lines (between the anchors), as [`score_between`]
/// compares them.
struct Middle<'n> {
    /// Their fold-key hashes.
    hashes: &'n [u64],
    /// See [`seen_before`].
    seen_before: Vec<u32>,
    /// The whole search under the fold key.
    text: &'n str,
    /// Scores below this cannot be accepted (threshold − margin).
    floor: f64,
}

/// `out[l]` = content lines before `l` whose hash is one of the middle
/// lines' hashes: an O(1) upper bound of the middle LCS of any window.
fn seen_before(hashes: &[u64], middle: &[u64]) -> Vec<u32> {
    let mut sorted_middle = middle.to_vec();
    sorted_middle.sort();
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
    let middle_equal = lcs_len(middle.hashes, file_middle, |h| h);
    let ratio = if longest == 0 {
        1.0
    } else {
        middle_equal as f64 / longest as f64
    };
    if ratio < CONTEXT_MIDDLE_MIN {
        return Pair::Rejected;
    }
    let window_text = folded_text(cx, i, j + 1 - i);
    let Some(score) = similarity(cx, middle.text, &window_text, middle.floor) else {
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

/// The fuzzy acceptance rule shared by strategies 11 and 12: the best
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
    scored.sort_by(|a, b| {
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
                same_tokens: false,
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
    use super::scored_pairs;
    use crate::matcher::content::Content;
    use crate::matcher::strategies::{Cx, Needle};
    use proptest::prelude::*;

    /// Whether the full scan scores any window of `search` in `body`.
    fn any_pair_scores(body: &str, search: &str) -> bool {
        let content = Content::new(body);
        let needle = Needle::new(search);
        let mut cx = Cx::unbounded(&content);
        !scored_pairs(&mut cx, &needle).expect("budget").is_empty()
    }

    proptest! {
        /// The prefilter only ever rules out what the full scan would
        /// reject: lines drawn from a few words (one hidden behind a
        /// zero-width space, one typographic quote), so that words go
        /// missing, anchors repeat and many windows nearly pass.
        #[test]
        fn what_is_ruled_out_scores_nothing(
            file in prop::collection::vec(0usize..8, 3..60),
            search in prop::collection::vec(0usize..8, 3..12),
        ) {
            const LINES: [&str; 8] = [
                "}", "  alpha(beta);", "\tgamma  = delta;", "beta();",
                "  al\u{200b}pha(beta);", "say(\u{201c}hi\u{201d});", "say(\"hi\");", "",
            ];
            let body: Vec<&str> = file.iter().map(|&i| LINES[i]).collect();
            let search: Vec<&str> = search.iter().map(|&i| LINES[i]).collect();
            let (body, search) = (body.join("\n"), search.join("\n"));
            if Needle::new(&search).lines.len() >= 3 && ruled_out(&body, &search) {
                prop_assert!(!any_pair_scores(&body, &search), "{body:?} / {search:?}");
            }
        }
    }

    /// Whether the prefilter rules out every window of `search` in `file`.
    fn ruled_out(file: &str, search: &str) -> bool {
        super::ruled_out(&Content::new(file), Needle::new(search).fold_keys())
    }

    /// A search of `}` anchors around calls the file never makes.
    const BRACES: &str = "  }\n  run(alpha, 1);\n  run(alpha, 2);\n  run(alpha, 3);\n}";

    #[test]
    fn a_word_missing_from_most_middle_lines_rules_out_every_window() {
        let file = "  }\n  run(beta, 1);\n  run(beta, 2);\n  run(beta, 3);\n}\n";
        assert!(ruled_out(file, BRACES));
    }

    #[test]
    fn enough_middle_lines_left_keeps_the_scan() {
        // One middle line in four is missing `gamma`: 3 of 4 can still be
        // equal, more than 70 %.
        let search = "  }\n  run(alpha, 1);\n  run(alpha, 2);\n  run(alpha, 3);\n  gamma();\n}";
        let file = "  }\n  run(alpha, 1);\n  run(alpha, 2);\n  run(alpha, 3);\n  delta();\n}\n";
        assert!(!ruled_out(file, search));
    }

    #[test]
    fn a_missing_anchor_word_rules_out_every_window() {
        let search = "function first() {\n  a();\n  b();\n}";
        assert!(ruled_out(
            "function second() {\n  a();\n  b();\n}\n",
            search
        ));
        assert!(!ruled_out("function first() {\n  x();\n}\n", search));
    }

    #[test]
    fn words_split_by_zero_width_characters_rule_nothing_out() {
        // The fold drops U+200B, so `al\u{200b}pha` is `alpha` under it.
        let file = "  }\n  run(al\u{200b}pha, 1);\n  run(al\u{200b}pha, 2);\n  run(al\u{200b}pha, 3);\n}\n";
        assert!(!ruled_out(file, BRACES));
        assert!(ruled_out(
            &file.replace('\u{200b}', ""),
            &BRACES.replace("alpha", "omega")
        ));
    }
}

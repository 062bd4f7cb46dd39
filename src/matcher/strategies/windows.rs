//! Candidate windows for the similarity-based parts of the matcher
//! (`block_similarity` and the failure report's closest region), found
//! with a cheap filter before any edit distance runs.
//!
//! The filter slides a window of whole lines over the content and keeps a
//! running multiset intersection between the window's tokens and the
//! search's (the Dice coefficient of the two token bags), updated in O(1)
//! per token entering or leaving: linear in the content's tokens per window
//! size. Only the best few windows, grouped into non-overlapping clusters,
//! ever reach the sequence similarity of [`crate::text::similarity`].

use std::collections::HashMap;

use super::Cx;
use crate::matcher::normalize::{key, tokens, token_hash, Level};

/// A run of whole lines: `first..first + count`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Window {
    pub first: usize,
    pub count: usize,
    /// Token-bag similarity (Dice) with the search.
    pub dice: f64,
}

impl Window {
    pub(crate) fn overlaps(&self, other: &Window) -> bool {
        self.first < other.first + other.count && other.first < self.first + self.count
    }
}

/// The best windows by token similarity, grouped: at most `clusters` groups
/// of mutually overlapping windows (each group holding its `per_cluster`
/// best), groups ordered best first. `None` when the budget ran out.
pub(crate) fn token_windows(
    cx: &mut Cx<'_, '_>,
    search_lines: &[String],
    sizes: &[usize],
    min_dice: f64,
    clusters: usize,
    per_cluster: usize,
) -> Option<Vec<Vec<Window>>> {
    let mut need: HashMap<u64, (u32, u32)> = HashMap::new();
    let mut search_total = 0u32;
    for line in search_lines {
        for (s, e) in tokens(line) {
            need.entry(token_hash(&line[s..e])).or_insert((0, 0)).0 += 1;
            search_total += 1;
        }
    }
    let index = cx.content.tokens(&mut cx.budget)?;
    if search_total == 0 || !cx.budget.spend(index.spans.len().saturating_mul(sizes.len().max(1))) {
        return if cx.budget.exhausted() { None } else { Some(Vec::new()) };
    }
    let n = index.per_line.len();
    let mut all: Vec<Window> = Vec::new();
    for &size in sizes {
        if size == 0 || size > n {
            continue;
        }
        need.values_mut().for_each(|v| v.1 = 0);
        let (mut overlap, mut total) = (0u32, 0u32);
        for l in 0..n {
            let (a, b) = index.per_line[l];
            for &h in index.hashes.get(a..b).unwrap_or(&[]) {
                total += 1;
                if let Some(v) = need.get_mut(&h) {
                    if v.1 < v.0 {
                        overlap += 1;
                    }
                    v.1 += 1;
                }
            }
            if l >= size {
                let (a, b) = index.per_line[l - size];
                for &h in index.hashes.get(a..b).unwrap_or(&[]) {
                    total -= 1;
                    if let Some(v) = need.get_mut(&h) {
                        v.1 -= 1;
                        if v.1 < v.0 {
                            overlap -= 1;
                        }
                    }
                }
            }
            if l + 1 >= size {
                let dice = 2.0 * f64::from(overlap) / f64::from(search_total + total);
                if dice >= min_dice && dice > 0.0 {
                    all.push(Window { first: l + 1 - size, count: size, dice });
                }
            }
        }
    }
    all.sort_by(|a, b| b.dice.total_cmp(&a.dice).then(a.first.cmp(&b.first)));
    let mut groups: Vec<Vec<Window>> = Vec::new();
    let mut heads: Vec<Window> = Vec::new();
    for w in all {
        match heads.iter().position(|h| h.overlaps(&w)) {
            Some(g) => {
                if groups[g].len() < per_cluster {
                    groups[g].push(w);
                }
            }
            None => {
                if heads.len() < clusters {
                    heads.push(w);
                    groups.push(vec![w]);
                }
            }
        }
    }
    Some(groups)
}

/// The fold keys of lines `first..first + count` joined with `\n`.
pub(crate) fn folded_text(cx: &Cx<'_, '_>, first: usize, count: usize) -> String {
    let mut out = String::new();
    for i in first..first + count {
        if i > first {
            out.push('\n');
        }
        out.push_str(&key(cx.content.line(i), Level::Fold));
    }
    out
}

/// The fold keys of the search lines joined with `\n`.
pub(crate) fn folded_search(lines: &[String]) -> String {
    lines.iter().map(|l| key(l, Level::Fold)).collect::<Vec<_>>().join("\n")
}

/// Sequence similarity of two texts, charged to the budget first (Myers is
/// O((N+M)·D)); `None` when the budget cannot pay.
pub(crate) fn similarity(cx: &mut Cx<'_, '_>, a: &str, b: &str) -> Option<f64> {
    let n = a.len() + b.len();
    let cost = n.saturating_mul(n.min(8_000)) / 4;
    if !cx.budget.spend(cost) {
        return None;
    }
    Some(crate::text::similarity(a, b))
}

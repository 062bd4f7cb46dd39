//! Machinery shared by the line-based safe strategies (4–7): candidate
//! windows found once with the coarsest key, then filtered per level.
//!
//! A window is a run of whole file lines, as many as the search has after
//! its leading and trailing blank lines are set aside, whose lines equal
//! the search's line by line under the level's key. Windows are found with
//! KMP over the per-line fold-key hashes (linear in the number of lines)
//! and verified on the key strings, so hash collisions cost time, never
//! correctness. From the indentation strategy on, the window must also be a
//! uniform indentation shift of the search ([`IndentMap`]).

use super::exact::found;
use super::{Candidate, Cx, LinesPlan, NearMiss, Needle, Outcome, Plan, MAX_CANDIDATES};
use crate::matcher::indent::IndentMap;
use crate::matcher::normalize::{fold_hash, indent_of, is_blank, key, Level};

/// Start lines of every window whose lines equal the search's under the
/// fold key (a superset of the windows of strategies 4–7), or `None` when
/// the budget ran out.
pub(crate) fn fold_windows<'n>(cx: &mut Cx<'_, '_>, needle: &'n Needle) -> Option<&'n [usize]> {
    if let Some(cached) = needle.windows.get() {
        return cached.as_deref();
    }
    let computed = compute_windows(cx, needle);
    needle.windows.get_or_init(|| computed).as_deref()
}

fn compute_windows(cx: &mut Cx<'_, '_>, needle: &Needle) -> Option<Vec<usize>> {
    let k = needle.lines.len();
    if k == 0 {
        return Some(Vec::new());
    }
    let pattern: Vec<u64> = needle.lines.iter().map(|l| fold_hash(l)).collect();
    let hashes = cx.content.fold_hashes(&mut cx.budget)?;
    let keys: Vec<String> = needle.lines.iter().map(|l| key(l, Level::Fold)).collect();
    let mut out = Vec::new();
    for w in kmp(hashes, &pattern) {
        let mut cost = 0usize;
        let same = (0..k).all(|i| {
            let line = cx.content.line(w + i);
            cost += line.len();
            key(line, Level::Fold) == keys[i]
        });
        if !cx.budget.spend(cost) {
            return None;
        }
        if same {
            out.push(w);
            if out.len() > MAX_CANDIDATES {
                break;
            }
        }
    }
    Some(out)
}

/// Every start index of `pattern` in `text` (overlapping), by KMP.
pub(crate) fn kmp(text: &[u64], pattern: &[u64]) -> Vec<usize> {
    let m = pattern.len();
    let mut hits = Vec::new();
    if m == 0 || m > text.len() {
        return hits;
    }
    let mut fail = vec![0usize; m];
    let mut k = 0usize;
    for i in 1..m {
        while k > 0 && pattern[i] != pattern[k] {
            k = fail[k - 1];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        fail[i] = k;
    }
    let mut q = 0usize;
    for (i, &h) in text.iter().enumerate() {
        while q > 0 && h != pattern[q] {
            q = fail[q - 1];
        }
        if h == pattern[q] {
            q += 1;
        }
        if q == m {
            hits.push(i + 1 - m);
            q = fail[m - 1];
        }
    }
    hits
}

/// The windows that match at `level` (see the module docs).
pub(crate) fn find_level(cx: &mut Cx<'_, '_>, needle: &Needle, level: Level) -> Outcome {
    let Some(windows) = fold_windows(cx, needle) else {
        return Outcome::Exhausted;
    };
    let k = needle.lines.len();
    let search_keys: Vec<String> = needle.lines.iter().map(|l| key(l, level)).collect();
    let mut candidates = Vec::new();
    for &w in windows {
        let mut cost = 0usize;
        let same = (0..k).all(|i| {
            let line = cx.content.line(w + i);
            cost += line.len();
            key(line, level) == search_keys[i]
        });
        if !cx.budget.spend(cost) {
            return Outcome::Exhausted;
        }
        if !same {
            continue;
        }
        let (indent, partial_first) = if level == Level::TrimEnd {
            (IndentMap::Identity, None)
        } else {
            match infer_shift(cx, needle, w) {
                Some(found) => found,
                None => {
                    if level == Level::Fold {
                        cx.near.push(NearMiss::Indentation {
                            first: w,
                            last: w + k - 1,
                        });
                    }
                    continue;
                }
            }
        };
        let lines = cx.content.lines();
        let (Some(first), Some(last)) = (lines.get(w), lines.get(w + k - 1)) else {
            continue;
        };
        candidates.push(Candidate {
            start: first.start(),
            end: last.end(),
            score: 1.0,
            plan: Plan::Lines(LinesPlan {
                first: w,
                count: k,
                indent,
                partial_first,
                folded: level == Level::Fold,
            }),
            unescaped: 0,
        });
    }
    found(candidates.into_iter())
}

/// The uniform indentation shift from the search to the window at `w`,
/// and the first line's indentation when that line alone lacked it.
fn infer_shift(cx: &Cx<'_, '_>, needle: &Needle, w: usize) -> Option<(IndentMap, Option<String>)> {
    let pairs: Vec<(&str, &str)> = needle
        .lines
        .iter()
        .enumerate()
        .filter(|(_, s)| !is_blank(s))
        .map(|(i, s)| (indent_of(s), indent_of(cx.content.line(w + i))))
        .collect();
    if let Some(map) = IndentMap::infer(&pairs) {
        return Some((map, None));
    }
    // A search copied from the first non-blank character of its first line:
    // that line lacks its indentation, every other line has the file's.
    let &(s0, f0) = pairs.first()?;
    let rest = pairs.get(1..).unwrap_or(&[]);
    if s0.is_empty() && !f0.is_empty() && rest.iter().all(|(s, f)| s == f) {
        return Some((IndentMap::Identity, Some(f0.to_string())));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::kmp;

    #[test]
    fn kmp_finds_overlapping_hits() {
        assert_eq!(kmp(&[1, 1, 1, 2, 1, 1], &[1, 1]), vec![0, 1, 4]);
        assert!(kmp(&[1], &[1, 1]).is_empty());
        assert!(kmp(&[1, 2], &[]).is_empty());
    }
}

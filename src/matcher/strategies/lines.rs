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
use crate::matcher::normalize::{ascii_word_runs, fold_hash_with, indent_of, is_blank, key, Level};

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
    let keys = needle.fold_keys();
    if let Some(found) = windows_by_anchor(cx, keys, needle.fold_hashes()) {
        return found;
    }
    windows_by_hashes(cx, needle, keys)
}

/// The fold windows by KMP over every line's fold hash, verified on the
/// keys.
fn windows_by_hashes(cx: &mut Cx<'_, '_>, needle: &Needle, keys: &[String]) -> Option<Vec<usize>> {
    let hashes = cx.content.fold_hashes(&mut cx.budget)?;
    let mut out = Vec::new();
    for w in kmp(hashes, needle.fold_hashes()) {
        if window_has_keys(cx, w, keys, needle.fold_hashes())? {
            out.push(w);
            if out.len() > MAX_CANDIDATES {
                break;
            }
        }
    }
    Some(out)
}

/// Whether the lines from `w` have the search's fold keys, one by one
/// (what a hash or an anchor only suggested); `None` when the budget
/// cannot pay for reading them. Each line's fold hash is compared first
/// (hashed in place, no key built): an anchor's windows are mostly other
/// places, told apart at their first line without building its key.
fn window_has_keys(cx: &mut Cx<'_, '_>, w: usize, keys: &[String], hashes: &[u64]) -> Option<bool> {
    let mut cost = 0usize;
    let mut buf = Vec::new();
    let same = keys
        .iter()
        .zip(hashes)
        .enumerate()
        .all(|(i, (want, &hash))| {
            let line = cx.content.line(w + i);
            cost += line.len();
            fold_hash_with(line, &mut buf) == hash && cx.content.fold_key(w + i) == want
        });
    cx.budget.spend(cost).then_some(same)
}

/// An anchor shorter than this selects too little to beat the hashes.
const MIN_ANCHOR: usize = 6;

/// The run of ASCII word characters (`[A-Za-z0-9_]`) in the search's fold
/// keys most likely to be rare in the file, with the index of its line:
/// one that mixes digits with letters (`handler_800`, `utf8_len`: names of
/// one instance) when one is long enough, else the longest. A common word
/// (`unauthorized` in every handler) makes every place it is a window to
/// check; the windows are the same whichever run is chosen.
fn anchor_run(keys: &[String]) -> Option<(usize, &str)> {
    let rank = |run: &str| {
        let digits = run.bytes().filter(u8::is_ascii_digit).count();
        let numbered = run.len() >= MIN_ANCHOR && digits > 0 && digits < run.len();
        (numbered, run.len())
    };
    let mut best: Option<(usize, &str)> = None;
    for (i, k) in keys.iter().enumerate() {
        for run in ascii_word_runs(k) {
            if best.is_none_or(|(_, b)| rank(run) > rank(b)) {
                best = Some((i, run));
            }
        }
    }
    best
}

/// The fold windows found from one anchor instead of hashing every line
/// (`None`: use the hashes). A file line whose fold key equals a search
/// line's holds every run of ASCII word characters of that key verbatim
/// (see [`ascii_word_runs`]) as a whole run, so the lines holding the
/// search's rarest-looking run (found in the content's table of runs) are
/// the only places a window can have that line, and each is verified on
/// every key as the hashed path does: the same windows, in the same
/// order. Used when the run is long enough and rare enough to beat
/// hashing every line (case b: an indentation change, where the hashes
/// were half the time).
fn windows_by_anchor(
    cx: &mut Cx<'_, '_>,
    keys: &[String],
    hashes: &[u64],
) -> Option<Option<Vec<usize>>> {
    let (at, run) = anchor_run(keys)?;
    let body = cx.content.body;
    if run.len() < MIN_ANCHOR || !cx.content.keeps_word_runs() {
        return None;
    }
    let k = keys.len();
    let lines = cx.content.lines().len();
    // More lines with the run than this and hashing is cheaper.
    let common = lines / 8 + 64;
    let mut out = Vec::new();
    let mut last = usize::MAX;
    let mut seen = 0usize;
    // The lines holding the run as a whole run, from the content's table
    // of runs, kept across calls on one file (charged like the scan it
    // spares, below). A run no line holds gives no window.
    let content = cx.content;
    for pos in content.word_run_starts(run) {
        let line = cx.content.line_of(pos);
        if line == last {
            continue;
        }
        last = line;
        seen += 1;
        if seen > common {
            return None;
        }
        let Some(w) = line.checked_sub(at).filter(|w| w + k <= lines) else {
            continue;
        };
        let Some(same) = window_has_keys(cx, w, keys, hashes) else {
            return Some(None);
        };
        if same {
            out.push(w);
            if out.len() > MAX_CANDIDATES {
                break;
            }
        }
    }
    if !cx.budget.spend(body.len() / 4) {
        return Some(None);
    }
    Some(Some(out))
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
    use super::*;
    use crate::matcher::content::Content;

    /// The windows both ways: from the anchor (when it applies) and from
    /// every line's hash.
    fn both(body: &str, search: &str) -> (Option<Vec<usize>>, Vec<usize>) {
        let content = Content::new(body);
        let needle = Needle::new(search);
        let mut cx = Cx::unbounded(&content);
        let keys = needle.fold_keys();
        let anchored =
            windows_by_anchor(&mut cx, keys, needle.fold_hashes()).map(|w| w.expect("budget"));
        let hashed = windows_by_hashes(&mut cx, &needle, keys).expect("budget");
        (anchored, hashed)
    }

    #[test]
    fn the_anchor_finds_the_windows_the_hashes_find() {
        let body = "fn main() {\n    let total_count = 1;\n\tlet  total_count = 1;\n}\n  let total_count = 1;  // x\nlet total_count = 1;\nlet \u{201c}total_count\u{201d} = 1;\n";
        for search in [
            "let total_count = 1;",
            "    let total_count = 1;\n\tlet total_count = 1;",
            "let total_count = 1;\n}",
            "let \"total_count\" = 1;",
            "nothing_like_this_here",
        ] {
            let (anchored, hashed) = both(body, search);
            assert_eq!(anchored.as_ref(), Some(&hashed), "{search:?}");
        }
        // Lines 1, 2 and 5 (0-based) are the plain one reformatted.
        assert_eq!(both(body, "let total_count = 1;").1, vec![1, 2, 5]);
        // A numbered name is the anchor over a longer common word; the
        // windows are the same.
        let body =
            "fn handler_80() {\n  unauthorized();\n}\nfn handler_800() {\n  unauthorized();\n}\n";
        assert_eq!(
            anchor_run(Needle::new("fn handler_800() {\n  unauthorized();").fold_keys()),
            Some((0, "handler_800"))
        );
        for search in [
            "fn handler_800() {\n  unauthorized();",
            "  fn handler_80() {\n    unauthorized();\n  }",
            "unauthorized();\n}",
        ] {
            let (anchored, hashed) = both(body, search);
            assert_eq!(anchored.as_ref(), Some(&hashed), "{search:?}");
            assert_eq!(hashed.len(), if search.starts_with('u') { 2 } else { 1 });
        }
    }

    #[test]
    fn a_short_anchor_or_zero_width_characters_use_the_hashes() {
        // `x = 1` has no run of six word characters.
        assert_eq!(both("x = 1\n", "x = 1").0, None);
        // A zero-width space inside the run: the hashes still see the
        // line (the fold drops it), the anchor scan would not.
        let body = "let total\u{200b}_count = 1;\n";
        let (anchored, hashed) = both(body, "let total_count = 1;");
        assert_eq!(anchored, None);
        assert_eq!(hashed, vec![0]);
    }

    /// Random lines over a small alphabet of words, spaces, tabs and
    /// typographic quotes: both ways agree on every search taken from the
    /// file and reformatted.
    #[test]
    fn anchor_and_hashes_agree_on_random_files() {
        let words = [
            "alpha_one",
            "beta",
            "\u{201c}gamma\u{201d}",
            "delta_delta",
            "x",
            "()",
            "{",
            "}",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..300 {
            let lines: Vec<String> = (0..40)
                .map(|_| {
                    let indent = ["", "  ", "\t", "    "][next(4)];
                    let n = 1 + next(4);
                    let body: Vec<&str> = (0..n).map(|_| words[next(words.len())]).collect();
                    format!("{indent}{}", body.join([" ", "  ", "\t"][next(3)]))
                })
                .collect();
            let body = lines.join("\n") + "\n";
            let start = next(38);
            let len = 1 + next(3);
            let search: Vec<String> = lines[start..start + len]
                .iter()
                .map(|l| format!("  {}", l.trim().replace(['\u{201c}', '\u{201d}'], "\"")))
                .collect();
            let (anchored, hashed) = both(&body, &search.join("\n"));
            assert!(hashed.contains(&start));
            if let Some(a) = anchored {
                assert_eq!(a, hashed, "{search:?}");
            }
        }
    }

    #[test]
    fn kmp_finds_overlapping_hits() {
        assert_eq!(kmp(&[1, 1, 1, 2, 1, 1], &[1, 1]), vec![0, 1, 4]);
        assert!(kmp(&[1], &[1, 1]).is_empty());
        assert!(kmp(&[1, 2], &[]).is_empty());
    }
}

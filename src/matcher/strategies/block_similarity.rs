//! Strategy 12, `block_similarity` (fuzzy tier): the window of whole lines
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
//!   (equal under the fold key, similar above the threshold, or — for one
//!   of the two, beside an equal other — a wordy line one word apart), so a
//!   span is never cut short of a closing `}` nor stretched past it; fewer than
//!   [`MIN_EQUAL_LINE_RATIO`] of the lines equal in order, or more than one
//!   search line in four (at least one) without an equal line; a weak best
//!   window; two windows too close to call, by score or by lines (another
//!   place holding as many of the search's lines).
//! - Cost: the token-bag filter of `windows` module (linear per
//!   window size); then, around each of at most [`KEEP`](super::windows)
//!   regions, one line similarity per candidate boundary line and one
//!   sequence similarity per candidate window, each charged to the work
//!   budget before it runs (running out is "not found").
//!
//! The replacement is re-indented line by line from the search lines it
//! pairs with.

use super::context_anchored::decide;
use super::windows::{best_windows, folded_text, similarity, Window};
use super::{Cx, Needle, Outcome};
use crate::matcher::content::FoldHashesNear;
use crate::matcher::types::{Strategy, MIN_EQUAL_LINE_RATIO, MIN_FUZZY_LINES};
use crate::text::lcs_len;

pub(crate) const STRATEGY: Strategy = Strategy::BlockSimilarity;

/// A boundary line with at least this many letters and digits carries
/// words, not just structure (`}`, `});`, `end`).
const WORDY_LINE_CHARS: usize = 8;

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
    let Some(heads) = best_windows(cx, needle) else {
        return Outcome::Exhausted;
    };
    // No region worth a look (a search the file does not have): the
    // per-line hashes below would be computed for nothing.
    let heads: Vec<Window> = heads.into_iter().filter(|h| h.dice >= min_dice).collect();
    if heads.is_empty() {
        return decide(cx, k, Vec::new());
    }
    let n = cx.content.lines().len();
    let mut near = FoldHashesNear::new(cx.content);
    let search_hashes = needle.fold_hashes();
    let search = Search {
        hashes: search_hashes,
        text: needle.fold_text(),
        floor: cx.limits.threshold - cx.limits.margin,
    };
    let keys = needle.fold_keys();
    let (Some(first_key), Some(last_key)) = (keys.first(), keys.last()) else {
        return Outcome::NotFound;
    };
    let mut first_pairings = Pairings::new(first_key, search_hashes[0], n);
    let mut last_pairings = Pairings::new(last_key, search_hashes[k - 1], n);
    let mut scored = Vec::new();
    let mut seen: Vec<(usize, usize)> = Vec::new();
    for head in &heads {
        // Around each region the filter found, every window of an allowed
        // size whose first and last lines stand for the search's first and
        // last lines. The first line is looked for anywhere in the region:
        // a region the filter kept may straddle two places (the tail of one
        // block and the head of the next have the same token bag as either).
        let range = head.first.saturating_sub(slack)
            ..=(head.first + (head.count - 1).max(slack)).min(n - 1);
        // The windows starting in the range end at most this far on.
        let reach = *range.start()..=range.end() + k - 1 + slack;
        let Some(hashes) = near.cover(reach, &mut cx.budget) else {
            return Outcome::Exhausted;
        };
        let Some(firsts) = pairing_lines(cx, hashes, range, &mut first_pairings) else {
            return Outcome::Exhausted;
        };
        for (a, first_pairing) in firsts {
            let lo = (a + k - 1).saturating_sub(slack).max(a);
            let hi = (a + k - 1 + slack).min(n - 1);
            if lo > hi {
                continue;
            }
            let Some(lasts) = pairing_lines(cx, hashes, lo..=hi, &mut last_pairings) else {
                return Outcome::Exhausted;
            };
            for (b, last_pairing) in lasts {
                if !first_pairing.pairs_with(last_pairing) || seen.contains(&(a, b)) {
                    continue;
                }
                seen.push((a, b));
                match score_window(cx, &search, hashes, a..=b) {
                    Some(Some((equal_lines, score))) => scored.push((
                        Window {
                            first: a,
                            count: b + 1 - a,
                            dice: head.dice,
                            equal_lines,
                        },
                        score,
                    )),
                    Some(None) => {}
                    None => return Outcome::Exhausted,
                }
            }
        }
    }
    decide(cx, k, scored)
}

/// The search as [`score_window`] compares it.
struct Search<'s> {
    /// Its lines' fold-key hashes.
    hashes: &'s [u64],
    /// Its fold-key text.
    text: &'s str,
    /// Scores below this cannot be accepted (threshold − margin).
    floor: f64,
}

/// The window `lines` (hashes of every line in `hashes`): how many of the
/// search's lines it holds equal, in order, and its similarity, or
/// `Some(None)` when too few lines are equal for it to count. `None` when
/// the budget ran out.
fn score_window(
    cx: &mut Cx<'_, '_>,
    search: &Search<'_>,
    hashes: &[u64],
    lines: std::ops::RangeInclusive<usize>,
) -> Option<Option<(usize, f64)>> {
    let k = search.hashes.len();
    let (a, b) = (*lines.start(), *lines.end());
    let window = hashes.get(lines)?;
    if !cx.budget.spend(window.len().saturating_mul(k)) {
        return None;
    }
    let equal_lines = lcs_len(search.hashes, window, |h| h);
    if (equal_lines as f64) < MIN_EQUAL_LINE_RATIO * window.len().max(k) as f64
        || k - equal_lines.min(k) > changed_lines_allowed(k)
    {
        return Some(None);
    }
    let text = folded_text(cx, a, b + 1 - a);
    let score = similarity(cx, search.text, &text, search.floor)?;
    Some(Some((equal_lines, score)))
}

/// How many of a `k`-line search's lines may have no equal line in the
/// window: one in a short search, a quarter in a long one. The share rule
/// ([`MIN_EQUAL_LINE_RATIO`]) alone let two of five lines go (winnow's
/// tests: a search that had lost its middle line landed on a one-line
/// variant of the same call elsewhere, its first line merged with the
/// missing one).
fn changed_lines_allowed(k: usize) -> usize {
    (k / 4).max(1)
}

/// How a window's boundary line stands for the search's.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pairing {
    /// Equal under the fold key.
    Equal,
    /// Similar at least at the threshold.
    Similar,
    /// A wordy line equal token for token but for one word: a model
    /// misremembering one identifier on a short line (`total += x;` for
    /// `total += item;`) still names that line, and the window as a whole
    /// is held to the threshold, the margin and the line rivals all the
    /// same. Structural lines have no such leeway, so a span is never
    /// stretched past or cut short of a closing brace.
    Misremembered,
}

impl Pairing {
    /// A window's first and last lines: both similar at the threshold, or
    /// one misremembered while the other is equal. Two misremembered
    /// boundaries (another signature *and* another closing line) are
    /// another block — a sibling made from the same template.
    fn pairs_with(self, other: Pairing) -> bool {
        match (self, other) {
            (Pairing::Misremembered, Pairing::Equal) | (Pairing::Equal, Pairing::Misremembered) => {
                true
            }
            (Pairing::Misremembered, _) | (_, Pairing::Misremembered) => false,
            _ => true,
        }
    }
}

/// How each line stands for one search line (its fold key and hash), as
/// [`pairing_lines`] found it: the regions around the filter's windows
/// overlap, and each first line's candidate last lines overlap the next
/// one's, so a line is judged once per call.
struct Pairings<'k> {
    want: &'k str,
    want_hash: u64,
    wordy: bool,
    /// Per line: `None` not judged yet, else its pairing (or none).
    known: Vec<Option<Option<Pairing>>>,
}

impl<'k> Pairings<'k> {
    fn new(want: &'k str, want_hash: u64, lines: usize) -> Self {
        Pairings {
            want,
            want_hash,
            wordy: want.chars().filter(|c| c.is_alphanumeric()).count() >= WORDY_LINE_CHARS,
            known: vec![None; lines],
        }
    }
}

/// The lines of `range` that stand for the search line of `p`, and how.
/// `None` when the budget ran out.
fn pairing_lines(
    cx: &mut Cx<'_, '_>,
    hashes: &[u64],
    range: std::ops::RangeInclusive<usize>,
    p: &mut Pairings<'_>,
) -> Option<Vec<(usize, Pairing)>> {
    let mut out = Vec::new();
    let threshold = cx.limits.threshold;
    for i in range {
        let judged = match p.known.get(i).copied().flatten() {
            Some(known) => known,
            None => {
                let line = cx.content.fold_key(i);
                let pairing = if hashes.get(i) == Some(&p.want_hash) && line == p.want {
                    Some(Pairing::Equal)
                } else if similarity(cx, line, p.want, threshold)? >= threshold {
                    Some(Pairing::Similar)
                } else if p.wordy {
                    if !cx.budget.spend(line.len() + p.want.len()) {
                        return None;
                    }
                    one_word_apart(line, p.want).then_some(Pairing::Misremembered)
                } else {
                    None
                };
                if let Some(slot) = p.known.get_mut(i) {
                    *slot = Some(pairing);
                }
                pairing
            }
        };
        if let Some(pairing) = judged {
            out.push((i, pairing));
        }
    }
    Some(out)
}

/// The two lines are the same sequence of tokens (words, and punctuation
/// characters one by one; whitespace ignored) except for exactly one word.
/// CJK characters are a token each: unspaced Chinese would otherwise be
/// one "word" per sentence, and any two sentences one word apart.
fn one_word_apart(a: &str, b: &str) -> bool {
    fn ideograph(c: char) -> bool {
        matches!(c, '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{3134f}')
    }
    fn word_char(c: char) -> bool {
        (c.is_alphanumeric() || c == '_') && !ideograph(c)
    }
    fn tokens(s: &str) -> impl Iterator<Item = &str> {
        let mut rest = s;
        std::iter::from_fn(move || {
            rest = rest.trim_start();
            let c = rest.chars().next()?;
            let end = if word_char(c) {
                rest.find(|c: char| !word_char(c)).unwrap_or(rest.len())
            } else {
                c.len_utf8()
            };
            let (token, tail) = rest.split_at(end);
            rest = tail;
            Some(token)
        })
    }
    // Lines one word apart have the same ASCII punctuation, in the same
    // order (only a token starting with a letter, digit or `_` may
    // differ): a byte test that turns most line pairs away before either
    // is cut into tokens.
    let punctuation = |s: &'_ str| {
        s.bytes()
            .filter(|&b| b.is_ascii_punctuation() && b != b'_')
            .collect::<Vec<u8>>()
    };
    if punctuation(a) != punctuation(b) {
        return false;
    }
    let is_word = |t: &str| {
        t.chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    };
    let (mut ta, mut tb) = (tokens(a), tokens(b));
    let mut differing = 0;
    loop {
        match (ta.next(), tb.next()) {
            (None, None) => return differing == 1,
            (Some(x), Some(y)) if x == y => {}
            (Some(x), Some(y)) if is_word(x) && is_word(y) && differing == 0 => differing = 1,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::one_word_apart;

    #[test]
    fn one_word_apart_means_one_word_substituted() {
        assert!(one_word_apart("report(totalValue);", "report(total);"));
        assert!(one_word_apart("foo: bar,", "fooValue:  bar,"));
        assert!(!one_word_apart("report(total);", "report(total);"));
        assert!(!one_word_apart(
            "// state user helpers (999999)",
            "// item buffer helpers (2790)"
        ));
        assert!(!one_word_apart("f(a, b);", "f(a);"));
        assert!(!one_word_apart("x += 1;", "x -= 1;"));
        assert!(one_word_apart("让 总计 = 0;", "让 合计 = 0;"));
        assert!(one_word_apart("总计：price_total", "总计：price_sum"));
        assert!(!one_word_apart(
            "这是第一段说明文字。",
            "完全不同的另一句话。"
        ));
    }
}

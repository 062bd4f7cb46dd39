//! The twelve strategies, one module each, all of the same shape:
//!
//! ```text
//! pub(crate) const STRATEGY: Strategy;                       // its name
//! pub(crate) fn find(cx: &mut Cx, needle: &Needle) -> Outcome // every location it sees
//! ```
//!
//! and a module header saying what it forgives, what it never forgives and
//! what it costs. A strategy only *locates*; each candidate carries a
//! `Plan` that tells [`reexpress`](crate::matcher::reexpress) how to write the
//! replacement in the file's own formatting.
//!
//! Strategies are cumulative: each forgives what the earlier ones forgive
//! plus one more kind of difference, so a text found by strategy k is found
//! by every later one, and the first strategy that finds anything decides
//! (its count is final: it is never "improved" by a looser strategy).

pub mod block_similarity;
pub mod context_anchored;
pub mod escape_normalized;
pub mod exact;
pub mod indentation;
pub mod line_endings;
pub(crate) mod lines;
pub mod prose;
pub mod token_flexible;
pub mod trailing_whitespace;
pub mod trimmed_boundaries;
pub mod unicode_normalized;
pub mod whitespace_normalized;
pub(crate) mod windows;

use std::cell::OnceCell;

use super::budget::Budget;
use super::content::Content;
use super::indent::IndentMap;
use super::normalize::is_blank;
use super::types::Strategy;

/// Most locations one call replaces (replace-all over a huge file). A
/// strategy collects one more, so that going over the cap is seen and
/// refused (`TOO_MANY_MATCHES`), never cut short silently.
pub(crate) const MAX_CANDIDATES: usize = 100_000;

/// Fuzzy acceptance rules in force for one call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub threshold: f64,
    pub margin: f64,
    pub size_ratio: f64,
}

impl Limits {
    /// How many lines a fuzzy window may differ from the search by.
    pub(crate) fn line_slack(&self, lines: usize) -> usize {
        let extra = (lines as f64 * (self.size_ratio - 1.0)).floor();
        if extra.is_finite() && extra > 1.0 {
            extra as usize
        } else {
            1
        }
    }
}

/// A near miss the failure report can explain.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum NearMiss {
    /// Lines `first..=last` (0-based) equal the search line by line except
    /// for a non-uniform change of indentation.
    Indentation { first: usize, last: usize },
    /// A fuzzy candidate that missed the threshold or the margin.
    Fuzzy {
        first: usize,
        last: usize,
        score: f64,
        runner_up: Option<f64>,
    },
}

/// Shared state of one ladder run.
pub(crate) struct Cx<'c, 'a> {
    pub content: &'c Content<'a>,
    pub budget: Budget,
    pub limits: Limits,
    /// Replace-all: candidates must not overlap (left to right), instead of
    /// every overlapping position counting toward ambiguity.
    pub replace_all: bool,
    /// The text is prose: strategy `prose` runs.
    pub prose: bool,
    pub near: Vec<NearMiss>,
}

#[cfg(test)]
impl<'c, 'a> Cx<'c, 'a> {
    /// A context for unit tests: the default fuzzy limits (threshold 0.85,
    /// margin 0.05, size ratio 1.25) and a budget that never runs out.
    pub(crate) fn unbounded(content: &'c Content<'a>) -> Self {
        Cx {
            content,
            budget: Budget::new(u32::MAX),
            limits: Limits {
                threshold: 0.85,
                margin: 0.05,
                size_ratio: 1.25,
            },
            replace_all: false,
            prose: false,
            near: Vec::new(),
        }
    }
}

/// See [`Needle::fold_keys`].
struct Fold {
    keys: Vec<String>,
    hashes: Vec<u64>,
    text: String,
}

/// The search text and what the strategies derive from it.
pub(crate) struct Needle {
    /// As given (BOM removed): what `exact` looks for.
    pub exact: String,
    /// CRLF turned into LF.
    pub lf: String,
    /// Its lines without leading and trailing blank lines: what the
    /// line-based strategies compare.
    pub lines: Vec<String>,
    /// Candidate windows (first line indices) of the line-based strategies.
    pub windows: OnceCell<Option<Vec<usize>>>,
    /// The token filter's best windows (see [`windows::best_windows`]).
    pub heads: OnceCell<Option<Vec<windows::Window>>>,
    /// Its lines' fold keys, their hashes and the keys as one text (see
    /// [`Needle::fold_keys`]).
    fold: OnceCell<Fold>,
    /// The caller has already scanned the content for [`Needle::exact`]
    /// and it is not there (the JS layer's `indexOf`, see
    /// `pkg-template/src/exact-fast.ts`): `exact` need not scan again.
    pub exact_absent: bool,
}

impl Needle {
    pub(crate) fn new(search: &str) -> Needle {
        let exact = search
            .strip_prefix(crate::text::BOM)
            .unwrap_or(search)
            .to_string();
        let lf = exact.replace("\r\n", "\n");
        let all: Vec<&str> = crate::text::lines_with_endings(&lf)
            .map(|l| l.text)
            .collect();
        let first = all.iter().position(|l| !is_blank(l));
        let last = all.iter().rposition(|l| !is_blank(l));
        let lines = match (first, last) {
            (Some(a), Some(b)) => all[a..=b].iter().map(|s| s.to_string()).collect(),
            _ => Vec::new(),
        };
        Needle {
            exact,
            lf,
            lines,
            windows: OnceCell::new(),
            heads: OnceCell::new(),
            exact_absent: false,
            fold: OnceCell::new(),
        }
    }

    /// Its lines' [`Level::Fold`](super::normalize::Level::Fold) keys,
    /// computed once for every strategy that compares them.
    pub(crate) fn fold_keys(&self) -> &[String] {
        &self.fold().keys
    }

    /// The hashes of [`Needle::fold_keys`]: each equals
    /// [`fold_hash_with`](super::normalize::fold_hash_with) of its line,
    /// what the content's line hashes are compared with.
    pub(crate) fn fold_hashes(&self) -> &[u64] {
        &self.fold().hashes
    }

    /// [`Needle::fold_keys`] joined by line breaks: what the fuzzy
    /// strategies' similarity compares a window's folded text with.
    pub(crate) fn fold_text(&self) -> &str {
        &self.fold().text
    }

    fn fold(&self) -> &Fold {
        self.fold.get_or_init(|| {
            let keys: Vec<String> = self
                .lines
                .iter()
                .map(|l| super::normalize::key(l, super::normalize::Level::Fold))
                .collect();
            let hashes = keys
                .iter()
                .map(|k| crate::text::hash_bytes(k.as_bytes()))
                .collect();
            let text = keys.join("\n");
            Fold { keys, hashes, text }
        })
    }

    /// Number of non-blank lines.
    pub(crate) fn nonblank_lines(&self) -> usize {
        self.lines.iter().filter(|l| !is_blank(l)).count()
    }
}

/// How a candidate's replacement is to be written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Plan {
    /// As written (exact and CRLF-only differences).
    Verbatim,
    /// The search's surrounding whitespace was trimmed away.
    Trimmed(TrimPlan),
    /// Whole lines matched line by line (strategies 4–7).
    Lines(LinesPlan),
    /// A fuzzy window: re-indent line by line from paired lines.
    Fuzzy(FuzzyPlan),
    /// Prose matched unit by unit: written back in the file's own form.
    Prose,
}

/// What `trimmed_boundaries` cut off the search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TrimPlan {
    pub lead: String,
    pub trail: String,
    /// The file's indentation before the match, when only indentation
    /// precedes it on its line.
    pub indent: String,
    /// How to indent the replacement's second and later lines.
    pub shift: Shift,
}

/// Indentation of a replacement's later lines after a mid-line match.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shift {
    /// As written (the span starts mid-line where the search started, so
    /// later lines are already in the file's columns).
    AsWritten,
    /// The search's trimmed indentation stood for the file line's
    /// indentation: later lines move the same way.
    Map(IndentMap),
    /// That move cannot be expressed (refuse a multi-line replacement).
    Unmappable,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LinesPlan {
    /// First file line of the window (0-based) and the number of lines; the
    /// window has exactly as many lines as the needle.
    pub first: usize,
    pub count: usize,
    pub indent: IndentMap,
    /// The first search line lacked the file line's indentation (the search
    /// was copied from the first non-blank character): that indentation,
    /// which the replacement's first line inherits.
    pub partial_first: Option<String>,
    /// The strategy compared typographic characters folded (strategy 7).
    pub folded: bool,
}

/// The file lines a fuzzy span covers (0-based first line and count).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FuzzyPlan {
    pub first: usize,
    pub count: usize,
    /// Only indentation precedes the span on its first line: the
    /// replacement is written from the line start (a token span).
    pub from_line_start: bool,
    /// The span holds exactly the search's tokens (`token_flexible`):
    /// where its line breaks are not the search's, the replacement is
    /// written token by token in the file's breaks.
    pub same_tokens: bool,
}

impl Candidate {
    /// Where the replaced text starts: the span's start, or its line's
    /// start for a token span preceded only by indentation.
    pub(crate) fn replace_start(&self, content: &Content<'_>) -> usize {
        match &self.plan {
            Plan::Fuzzy(p) if p.from_line_start => content
                .lines()
                .get(p.first)
                .map_or(self.start, |l| l.start()),
            _ => self.start,
        }
    }
}

/// One location a strategy found.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Candidate {
    /// Byte span in the body.
    pub start: usize,
    pub end: usize,
    pub score: f64,
    pub plan: Plan,
    /// Escape kinds the search needed undone (strategy 8), 0 otherwise.
    pub unescaped: u16,
}

impl Candidate {
    pub(crate) fn overlaps(&self, other: &Candidate) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// What one strategy reported.
#[derive(Debug)]
pub(crate) enum Outcome {
    Found(Vec<Candidate>),
    NotFound,
    /// The budget ran out before the strategy finished.
    Exhausted,
}

/// A strategy's locating function.
type FindFn = fn(&mut Cx<'_, '_>, &Needle) -> Outcome;

/// Every strategy module, in ladder order.
pub(crate) const TABLE: [(Strategy, FindFn); 12] = [
    (exact::STRATEGY, exact::find),
    (line_endings::STRATEGY, line_endings::find),
    (trimmed_boundaries::STRATEGY, trimmed_boundaries::find),
    (trailing_whitespace::STRATEGY, trailing_whitespace::find),
    (indentation::STRATEGY, indentation::find),
    (whitespace_normalized::STRATEGY, whitespace_normalized::find),
    (unicode_normalized::STRATEGY, unicode_normalized::find),
    (escape_normalized::STRATEGY, escape_normalized::find),
    (prose::STRATEGY, prose::find),
    (token_flexible::STRATEGY, token_flexible::find),
    (context_anchored::STRATEGY, context_anchored::find),
    (block_similarity::STRATEGY, block_similarity::find),
];

/// Runs one strategy.
pub(crate) fn run(strategy: Strategy, cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    // TABLE lists every matcher strategy in declaration order (a test below
    // holds it to `Strategy::ALL` less the patch-only `context_fuzz`, the
    // last variant), so the variant's index is its row.
    let (_, find) = TABLE[strategy as usize];
    find(cx, needle)
}

/// Every occurrence of `pat` in `hay` as byte spans: non-overlapping left
/// to right, and unless `non_overlapping`, also every occurrence that
/// overlaps one of the first 1,000 of them (more than that is ambiguous
/// already), so that uniqueness is by position (`"aa"` in `"aaa"` is two
/// locations, and `"\n\n\n"` in five blank lines three).
pub(crate) fn substring_spans(
    hay: &str,
    pat: &str,
    non_overlapping: bool,
    budget: &mut Budget,
) -> Option<Vec<(usize, usize)>> {
    if pat.is_empty() {
        return Some(Vec::new());
    }
    if !budget.spend(hay.len()) {
        return None;
    }
    let pair = crate::matcher::scan::RarePair::of(pat);
    let mut spans: Vec<(usize, usize)> = pair
        .find_iter(hay, pat)
        .take(MAX_CANDIDATES + 1)
        .map(|p| (p, p + pat.len()))
        .collect();
    if !non_overlapping {
        let mut extra = Vec::new();
        for &(s, e) in spans.iter().take(1_000) {
            // Every occurrence that starts inside this one: a run of
            // repeated lines (blank lines, `}`) holds the pattern at each
            // of its offsets, and a line hint must be able to pick any.
            let mut from = s;
            while extra.len() <= MAX_CANDIDATES {
                let next = from
                    + hay
                        .get(from..)
                        .and_then(|r| r.chars().next())
                        .map_or(1, char::len_utf8);
                // An overlapping occurrence starts before `e`, so it ends
                // before `e + len - 1`: only that window is scanned, and
                // paid for (a long pattern in a long run of repeated lines
                // is scanned once per offset; running out is "exhausted",
                // never a shorter candidate list).
                if !budget.spend(2 * pat.len()) {
                    return None;
                }
                let limit = crate::text::floor_char_boundary(hay, e + pat.len() - 1);
                let Some(q) = hay
                    .get(next..limit)
                    .and_then(|window| pair.find_iter(window, pat).next())
                else {
                    break;
                };
                let q = next + q;
                if q >= e {
                    break;
                }
                extra.push((q, q + pat.len()));
                from = q;
            }
        }
        if !extra.is_empty() {
            spans.extend(extra);
            spans.sort();
            spans.dedup();
        }
    }
    Some(spans)
}

#[cfg(test)]
mod tests {
    use super::TABLE;
    use crate::matcher::types::Strategy;

    #[test]
    fn the_needles_fold_hashes_are_its_lines_fold_hashes() {
        let long = format!("  let {} =\t\u{201c}x\u{201d};  ", "a".repeat(70));
        let search = format!("a  b\n\tc\u{a0}d\u{2026}\n\n{long}\ne\u{200b}f\r\ng");
        let needle = super::Needle::new(&search);
        let want: Vec<u64> = needle
            .lines
            .iter()
            .map(|l| crate::matcher::normalize::fold_hash(l))
            .collect();
        assert_eq!(needle.fold_hashes(), want);
        assert_eq!(
            needle.fold_keys()[3],
            format!("let {} = \"x\";", "a".repeat(70))
        );
    }

    #[test]
    fn the_table_is_the_ladder() {
        let order: Vec<Strategy> = TABLE.iter().map(|(s, _)| *s).collect();
        // `context_fuzz` places patch hunks (src/patch/fuzz.rs), never a
        // search: the last variant, outside the matcher's table.
        let matcher: Vec<Strategy> = Strategy::ALL
            .iter()
            .copied()
            .filter(|s| *s != Strategy::ContextFuzz)
            .collect();
        assert_eq!(order, matcher);
        assert_eq!(Strategy::ALL.last(), Some(&Strategy::ContextFuzz));
    }
}

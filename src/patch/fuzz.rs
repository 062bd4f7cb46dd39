//! A unified hunk whose context lines differ from the file (issue 43):
//! placed as jsdiff's `fuzzFactor` allows, by the safe rules.
//!
//! The hunk's lines are aligned with a run of the file's lines. A removed
//! line must be a file line (compared under the matcher's fold key, as the
//! safe mode compares); a context line may also be changed in the file,
//! missing from it, or have extra file lines beside it, each costing one —
//! the Levenshtein distance, in lines, between the hunk's context and the
//! file that `fuzzFactor` bounds. Alignments within `fuzz` whose file
//! lines overlap are one place; the cheapest of a place (then the one
//! pairing most lines exactly) is taken when no other place in the file
//! also fits, and two such places are ambiguous.
//! The file's lines stay as the file has them (a changed context line is
//! written as the file's, a missing one is not added back, an extra one is
//! kept); removed lines go, added lines are written after the hunk line
//! they follow, with the file's line ending.

use crate::matcher::fold_key;

/// How a hunk line pairs with the file in the alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// Hunk line `i` is file line `j` (equal: cost 0; a context line that
    /// differs: cost 1).
    Pair { i: usize, j: usize, equal: bool },
    /// Context line `i` is not in the file (cost 1).
    Missing { i: usize },
    /// File line `j` is not in the hunk (cost 1).
    Extra { j: usize },
}

/// A hunk placed with fuzz: file lines `first..=last` (0-based) become
/// `lines` (each written with its own ending, `None` for the file's).
pub(super) struct Fuzzed {
    pub first: usize,
    pub last: usize,
    /// The lines written there: a file line's index, or an added line.
    pub lines: Vec<Written>,
}

/// One place an alignment within the fuzz found, before it is written.
struct Candidate {
    cost: usize,
    /// Hunk lines paired with an equal file line.
    exact: usize,
    /// The file lines every alignment merged into this place covers.
    span: (usize, usize),
    steps: Vec<Step>,
}

/// One line a fuzzed hunk writes.
pub(super) enum Written {
    /// The file's own line (its text and ending as they are).
    File(usize),
    /// An added line of the hunk.
    Added(String),
}

/// Why a hunk has no place with fuzz.
pub(super) enum NoFit {
    /// No alignment within `fuzz`.
    Nowhere,
    /// Two places within `fuzz`: the 0-based first file line of each.
    Ambiguous(Vec<usize>),
}

/// The hunk's body as (kind, text): ` ` context, `-` removed, `+` added.
pub(super) type Body<'h> = [(char, &'h str)];

const INF: usize = usize::MAX / 4;

/// Places `body` in `file` (its lines' texts) with at most `fuzz` context
/// lines changed, missing or extra, or says why not. Lines before `from`
/// are not considered (the hunks before this one own them).
pub(super) fn place(
    file: &[&str],
    body: &Body<'_>,
    fuzz: usize,
    from: usize,
) -> Result<Fuzzed, NoFit> {
    let old: Vec<(char, String)> = body
        .iter()
        .filter(|(k, _)| *k != '+')
        .map(|(k, t)| (*k, fold_key(t)))
        .collect();
    let m = old.len();
    let keys: Vec<String> = file.iter().map(|l| fold_key(l)).collect();
    let n = file.len();
    if m == 0 || n < from {
        return Err(NoFit::Nowhere);
    }
    // cost[i][j]: hunk lines ..i aligned, ending at file line j (exclusive),
    // the window starting anywhere at or after `from` for free.
    let width = n - from + 1;
    let mut cost = vec![INF; (m + 1) * width];
    let at = |i: usize, j: usize| i * width + (j - from);
    for j in from..=n {
        cost[at(0, j)] = 0;
    }
    fill(&mut cost, &old, &keys, from, width);
    // Every end within fuzz, traced back. Alignments whose file lines
    // overlap are one place (found with a line more or less at its edges);
    // the cheapest, then the one pairing most lines exactly, stands for it.
    let mut places: Vec<Candidate> = Vec::new();
    for end in from..=n {
        let c = cost[at(m, end)];
        if c > fuzz {
            continue;
        }
        let steps = trace(&cost, &old, &keys, m, end, from, width);
        let exact = steps
            .iter()
            .filter(|s| matches!(s, Step::Pair { equal: true, .. }))
            .count();
        let Some(span) = file_span(&steps).filter(|_| exact > 0) else {
            continue;
        };
        let mut best = Candidate {
            cost: c,
            exact,
            span,
            steps,
        };
        let overlaps =
            |f: &Candidate, g: &Candidate| f.span.0 <= g.span.1 + 1 && g.span.0 <= f.span.1 + 1;
        let mut k = 0;
        while k < places.len() {
            if overlaps(&places[k], &best) {
                let other = places.swap_remove(k);
                let span = (other.span.0.min(best.span.0), other.span.1.max(best.span.1));
                if (other.cost, std::cmp::Reverse(other.exact))
                    < (best.cost, std::cmp::Reverse(best.exact))
                {
                    best = other;
                }
                // The merged place spans both, for the next overlap test.
                best.span = span;
            } else {
                k += 1;
            }
        }
        places.push(best);
    }
    match places.as_slice() {
        [] => Err(NoFit::Nowhere),
        [one] => Ok(written(&one.steps, &old, body)),
        many => {
            let mut at: Vec<usize> = many.iter().map(|c| c.span.0).collect();
            at.sort_unstable();
            Err(NoFit::Ambiguous(at))
        }
    }
}

/// The first and last file line an alignment touches.
fn file_span(steps: &[Step]) -> Option<(usize, usize)> {
    let mut lines = steps.iter().filter_map(|s| match *s {
        Step::Pair { j, .. } | Step::Extra { j } => Some(j),
        Step::Missing { .. } => None,
    });
    let first = lines.next()?;
    Some((first, lines.next_back().unwrap_or(first)))
}

/// Fills the alignment table from its first row (each hunk line against
/// each file line, the cheapest of a pair, a missing line, an extra line).
fn fill(cost: &mut [usize], old: &[(char, String)], keys: &[String], from: usize, width: usize) {
    let (m, n) = (old.len(), keys.len());
    let at = |i: usize, j: usize| i * width + (j - from);
    for i in 1..=m {
        let (kind, ref key) = old[i - 1];
        let context = kind == ' ';
        for j in from..=n {
            let mut best = INF;
            if context {
                best = best.min(cost[at(i - 1, j)].saturating_add(1));
            }
            if j > from {
                let equal = keys[j - 1] == *key;
                if equal || context {
                    best = best.min(cost[at(i - 1, j - 1)] + usize::from(!equal));
                }
                // An extra file line inside the window (after its first
                // hunk line).
                best = best.min(cost[at(i, j - 1)].saturating_add(1));
            }
            cost[at(i, j)] = best.min(INF);
        }
    }
}

/// The alignment ending at file line `end` (exclusive), first step first.
fn trace(
    cost: &[usize],
    old: &[(char, String)],
    keys: &[String],
    m: usize,
    end: usize,
    from: usize,
    width: usize,
) -> Vec<Step> {
    let at = |i: usize, j: usize| i * width + (j - from);
    let mut steps = Vec::new();
    let (mut i, mut j) = (m, end);
    while i > 0 {
        let here = cost[at(i, j)];
        let context = old[i - 1].0 == ' ';
        let equal = j > from && keys[j - 1] == old[i - 1].1;
        // Ties go to an exact pair, then an extra file line, then a
        // missing hunk line, then a changed one: the reading that keeps
        // most lines paired as they are.
        if equal && cost[at(i - 1, j - 1)] == here {
            steps.push(Step::Pair {
                i: i - 1,
                j: j - 1,
                equal: true,
            });
            i -= 1;
            j -= 1;
        } else if j > from && cost[at(i, j - 1)].saturating_add(1) == here {
            steps.push(Step::Extra { j: j - 1 });
            j -= 1;
        } else if context && cost[at(i - 1, j)].saturating_add(1) == here {
            steps.push(Step::Missing { i: i - 1 });
            i -= 1;
        } else {
            steps.push(Step::Pair {
                i: i - 1,
                j: j - 1,
                equal: false,
            });
            i -= 1;
            j -= 1;
        }
    }
    steps.reverse();
    steps
}

/// The lines the alignment writes: file lines for context (changed ones
/// included) and extras, added lines after the hunk line they follow;
/// removed and missing lines write nothing. `old`: the hunk's old lines
/// (kind, key), as the alignment indexes them.
fn written(steps: &[Step], old: &[(char, String)], body: &Body<'_>) -> Fuzzed {
    // Added lines after each old line (index: old lines before them).
    let mut added: Vec<Vec<&str>> = vec![Vec::new()];
    for &(k, t) in body {
        match (k, added.last_mut()) {
            ('+', Some(after)) => after.push(t),
            _ => added.push(Vec::new()),
        }
    }
    let adds = |i: usize| added[i].iter().map(|t| Written::Added((*t).to_string()));
    let mut lines: Vec<Written> = adds(0).collect();
    for step in steps {
        match *step {
            Step::Pair { i, j, .. } => {
                if old[i].0 == ' ' {
                    lines.push(Written::File(j));
                }
                lines.extend(adds(i + 1));
            }
            Step::Missing { i } => lines.extend(adds(i + 1)),
            Step::Extra { j } => lines.push(Written::File(j)),
        }
    }
    let (first, last) = file_span(steps).unwrap_or((0, 0));
    Fuzzed { first, last, lines }
}

#[cfg(test)]
mod tests {
    use super::{place, NoFit, Written};

    fn apply(file: &str, body: &[(char, &str)], fuzz: usize) -> Result<String, &'static str> {
        let lines: Vec<&str> = file.lines().collect();
        match place(&lines, body, fuzz, 0) {
            Ok(f) => {
                let mut out: Vec<String> = lines[..f.first].iter().map(|s| s.to_string()).collect();
                for w in &f.lines {
                    out.push(match w {
                        Written::File(j) => lines[*j].to_string(),
                        Written::Added(t) => t.clone(),
                    });
                }
                out.extend(lines[f.last + 1..].iter().map(|s| s.to_string()));
                Ok(out.join("\n"))
            }
            Err(NoFit::Nowhere) => Err("nowhere"),
            Err(NoFit::Ambiguous(_)) => Err("ambiguous"),
        }
    }

    const HUNK: &[(char, &str)] = &[
        (' ', "line2"),
        (' ', "line3"),
        (' ', "line4"),
        ('+', "line5"),
        (' ', "line6"),
        (' ', "line7"),
        (' ', "line8"),
        ('-', "line9"),
        (' ', "line10"),
    ];

    #[test]
    fn context_changed_missing_or_extra_within_the_fuzz() {
        // jsdiff's fuzz cases: extra lines, missing lines, changed lines.
        let extra =
            "line1\nline2\nline2.5\nline3\nline4\nline6\nline7\nline8\nline8.5\nline9\nline10";
        assert_eq!(
            apply(extra, HUNK, 2).as_deref(),
            Ok("line1\nline2\nline2.5\nline3\nline4\nline5\nline6\nline7\nline8\nline8.5\nline10")
        );
        let missing = "line1\nline2\nline4\nline6\nline7\nline9\nline10";
        assert_eq!(
            apply(missing, HUNK, 2).as_deref(),
            Ok("line1\nline2\nline4\nline5\nline6\nline7\nline10")
        );
        let changed = "line1\nline2\nlineTHREE\nline4\nline6\nline7\nlineEIGHT\nline9\nline10";
        assert_eq!(
            apply(changed, HUNK, 2).as_deref(),
            Ok("line1\nline2\nlineTHREE\nline4\nline5\nline6\nline7\nlineEIGHT\nline10")
        );
        // Beyond the fuzz: refused.
        assert_eq!(apply(changed, HUNK, 1), Err("nowhere"));
        // A removed line never differs.
        let removed_differs = "line1\nline2\nline3\nline4\nline6\nline7\nline8\nline9X\nline10";
        assert_eq!(apply(removed_differs, HUNK, 3), Err("nowhere"));
    }

    #[test]
    fn two_places_within_the_fuzz_are_ambiguous() {
        let file = "a\nb\nX\nd\n\na\nb\nY\nd";
        let body = [(' ', "a"), (' ', "b"), ('-', "c0"), (' ', "d")];
        assert_eq!(apply(file, &body, 1), Err("nowhere"));
        let body = [(' ', "a"), (' ', "bb"), ('+', "new"), (' ', "d")];
        assert_eq!(apply(file, &body, 2), Err("ambiguous"));
    }
}

//! Writing the replacement in the file's own formatting.
//!
//! A strategy that forgave something in the search corrects the same thing
//! in the replacement, so the model's formatting slip never reaches the
//! file:
//!
//! | forgiven in the search | done to the replacement |
//! |---|---|
//! | line endings | every line break becomes the region's ending (done by the caller) |
//! | boundary whitespace | the same leading blank lines, indentation, trailing blank lines removed |
//! | trailing whitespace, inner spacing | lines equal to a search line are written as the file's original line |
//! | indentation shift | every other line re-indented by the same `IndentMap` |
//! | typographic quotes | straight quotes in changed lines become the region's curly ones, and curly ones the model typed where the region is straight become straight |
//! | one level of escaping | undone in the replacement too, when it shows the same escaping |
//!
//! Where a mapping is not well defined the edit is refused
//! (`Unmappable`), never guessed. Fuzzy matches re-indent line by line,
//! from the indentation of the file line each search line paired with.
//!
//! # The files
//!
//! [`replacement`] (here) strips the replacement's BOM and CRLF, undoes an
//! over-escaping the search showed, and hands the text to the writer of
//! the candidate's plan; each file is one plan or one concern:
//!
//! - `escaping.rs`: one level of escaping undone in the replacement, and
//!   when that would be a guess (an escape inside a string literal);
//! - `trimmed.rs`: a match found with its boundary whitespace trimmed
//!   ([`TrimPlan`](super::strategies::TrimPlan));
//! - `lines.rs`: a line-by-line match
//!   ([`LinesPlan`](super::strategies::LinesPlan)): the file's own
//!   lines, re-indentation, column shifts;
//! - `fuzzy.rs`: a fuzzy match
//!   ([`FuzzyPlan`](super::strategies::FuzzyPlan)), re-indented line by
//!   line;
//! - `rewrap.rs`: a token span whose line breaks are not the search's (a
//!   re-wrapped paragraph), written token by token in the file's breaks;
//! - `conserve.rs`: the last check on every fuzzy replacement, that it
//!   keeps the words the model kept, writes the ones it added and repeats
//!   none;
//! - `prose.rs`: a prose match ([`Plan::Prose`]), written unit by unit
//!   in the file's own form and conventions;
//! - `quotes.rs`: typographic quotes written in the region's style, and the
//!   code comments they may be confined to;
//! - `spacing.rs`: the trailing whitespace and doubled spaces a new line
//!   loses when the search shows them as the model's slip.

mod conserve;
mod escaping;
mod fuzzy;
mod lines;
mod prose;
mod quotes;
mod rewrap;
mod spacing;
mod trimmed;

use super::content::Content;
use super::indent::IndentMap;
use super::normalize::{indent_of, is_blank, unescape_once};
use super::strategies::{Candidate, Needle, Plan};
use super::types::Unmappable;
use escaping::unescape_replacement;
use fuzzy::fuzzy;
use lines::lines;
use trimmed::trimmed;

/// The replacement for `candidate`, with LF line breaks (the caller turns
/// them into the region's ending).
pub(crate) fn replacement(
    content: &Content<'_>,
    needle: &Needle,
    candidate: &Candidate,
    replace: &str,
) -> Result<String, Unmappable> {
    let mut r = replace
        .strip_prefix(crate::text::BOM)
        .unwrap_or(replace)
        .replace("\r\n", "\n");
    // An over-escaped search was matched unescaped: the writers compare
    // the replacement with the search the file matched.
    let unescaped_needle;
    let needle = if candidate.unescaped != 0 {
        r = unescape_replacement(&r, &needle.lf, candidate.unescaped)?;
        unescaped_needle = Needle::new(&unescape_once(&needle.lf).text);
        &unescaped_needle
    } else {
        needle
    };
    match &candidate.plan {
        Plan::Verbatim => Ok(r),
        Plan::Trimmed(plan) => trimmed(&r, plan),
        Plan::Lines(plan) => lines(content, needle, plan, &r),
        Plan::Prose => prose::prose(content, needle, candidate, &r),
        Plan::Fuzzy(plan) => {
            let body = content.body;
            let start = candidate.replace_start(content);
            let rewrapped = rewrap_needed(body, candidate, plan, &needle.lf).and_then(|lead| {
                let region = body.get(candidate.start..candidate.end)?;
                rewrap::rewrapped(region, lead, &needle.lf, &r)
            });
            let written = match rewrapped {
                // A span replaced from its line start keeps its indentation.
                Some(text) if start < candidate.start && !text.is_empty() => {
                    format!("{}{text}", &body[start..candidate.start])
                }
                Some(text) => text,
                None => fuzzy(content, needle, candidate, plan, &r)?,
            };
            let region = body.get(start..candidate.end).unwrap_or("");
            conserve::check(region, &needle.lf, &r, &written)?;
            Ok(written)
        }
    }
}

/// For a token span (`same_tokens`) whose line breaks fall between other
/// tokens than the search's: the indentation of the line it starts on (the
/// replacement is then written by `rewrap`). `None` when the breaks agree
/// and the line-by-line writer applies.
fn rewrap_needed<'b>(
    body: &'b str,
    candidate: &Candidate,
    plan: &super::strategies::FuzzyPlan,
    search: &str,
) -> Option<&'b str> {
    if !plan.same_tokens {
        return None;
    }
    let region = body.get(candidate.start..candidate.end)?;
    if break_positions(region) == break_positions(search.trim()) {
        return None;
    }
    let line_start = body[..candidate.start].rfind('\n').map_or(0, |p| p + 1);
    let before = &body[line_start..candidate.start];
    Some(&before[..before.len() - before.trim_start_matches([' ', '\t']).len()])
}

/// The token indices a line break comes before.
fn break_positions(text: &str) -> Vec<usize> {
    let spans: Vec<(usize, usize)> = super::normalize::tokens(text).collect();
    spans
        .windows(2)
        .enumerate()
        .filter(|(_, w)| {
            text.get(w[0].1..w[1].0)
                .is_some_and(|gap| gap.contains('\n'))
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// Re-indents `line` by `map`; `None` when the map cannot express it.
fn shift_line(line: &str, map: &IndentMap) -> Option<String> {
    let ind = indent_of(line);
    map.apply(ind).map(|i| i + &line[ind.len()..])
}

/// The search's lines, and the file's lines `first..first + count` it
/// matched.
fn paired_lines<'n, 'c>(
    content: &Content<'c>,
    needle: &'n Needle,
    first: usize,
    count: usize,
) -> (Vec<&'n str>, Vec<&'c str>) {
    let search = needle.lines.iter().map(String::as_str).collect();
    let file = (first..first + count).map(|i| content.line(i)).collect();
    (search, file)
}

/// The replacement's lines once the search's surrounding blank lines (and
/// final line break) are removed from it the same way.
fn replacement_lines<'r>(needle: &Needle, r: &'r str) -> Vec<&'r str> {
    let mut r = r;
    let lead_blank = needle.lf.split('\n').next().is_some_and(is_blank) && needle.lf.contains('\n');
    if lead_blank {
        let ws = r.len() - r.trim_start().len();
        if let Some(nl) = r[..ws].rfind('\n') {
            r = &r[nl + 1..];
        }
    }
    let trail_break = needle.lf.trim_end_matches([' ', '\t']).ends_with('\n');
    if trail_break {
        let body_len = r.trim_end().len();
        if let Some(nl) = r[body_len..].find('\n') {
            r = &r[..body_len + nl];
        }
    }
    if r.is_empty() {
        return Vec::new();
    }
    r.split('\n').collect()
}

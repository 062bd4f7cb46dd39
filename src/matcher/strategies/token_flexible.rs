//! Strategy 10, `token_flexible` (fuzzy tier): the same tokens in the same
//! order, with any whitespace, line breaks included, between them.
//!
//! Tokens are maximal runs of non-whitespace characters, and each of
//! `(){}[]<>:=,;` on its own, so `myFunc( a, b ) {` and `myFunc(a, b) {`
//! have the same tokens and `if(a){x()}` matches a three-line block.
//!
//! - Forgives: whitespace around delimiters, line breaks and indentation
//!   anywhere between tokens.
//! - Never forgives: a token that differs, even by a prefix: matches are
//!   anchored at token boundaries at both ends, so `return x` never matches
//!   inside `return xyz` (a bug of the regex this idea comes from), and
//!   `typeofa` never matches `typeof a`.
//! - Cost: the places of the search's rarest word of ASCII word characters
//!   from the content's table of runs (kept across calls on one file);
//!   for a search without one, one substring scan for its longest token
//!   (when all are short, a counting scan for each of the longest few, to
//!   anchor on the rarest). Then a walk over the neighbouring tokens of
//!   each whole-token occurrence: linear, no regex, no backtracking.
//!
//! The match is the span from the first token to the last. When only
//! indentation precedes it on its line, the replacement is written from the
//! line start, re-indented line by line from the search lines it pairs with;
//! where the span's line breaks fall between other tokens than the
//! search's (a re-wrapped paragraph), it is written token by token in the
//! file's own breaks (see [`reexpress`](crate::matcher::reexpress)).

use super::exact::found;
use super::{Candidate, Cx, FuzzyPlan, Needle, Outcome, Plan, MAX_CANDIDATES};
use crate::matcher::normalize::{char_class, token_after, token_before, tokens};
use crate::matcher::scan::find_iter;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::TokenFlexible;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let search = needle.lf.as_str();
    let search_tokens: Vec<&str> = tokens(search).map(|(s, e)| &search[s..e]).collect();
    if search_tokens.len() < 2 {
        return Outcome::NotFound;
    }
    let body = cx.content.body;
    let chosen = choose_anchor(cx, &search_tokens);
    let Some((anchor, anchor_text, by_table)) = chosen else {
        return if cx.budget.exhausted() {
            Outcome::Exhausted
        } else {
            Outcome::NotFound
        };
    };
    if !cx.budget.spend(body.len()) {
        return Outcome::Exhausted;
    }
    let word = anchor_text
        .chars()
        .next()
        .is_some_and(|c| char_class(c) == 2);
    let mut candidates = Vec::new();
    let content = cx.content;
    // One of the two sources, as one iterator type (no boxing).
    let table = by_table.then(|| content.word_run_starts(anchor_text));
    let scan = (!by_table).then(|| find_iter(body, anchor_text));
    let places = table
        .into_iter()
        .flatten()
        .chain(scan.into_iter().flatten());
    for p in places {
        let end = p + anchor_text.len();
        if word {
            let before = body.get(..p).and_then(|h| h.chars().next_back());
            let after = body.get(end..).and_then(|t| t.chars().next());
            if before.is_some_and(|c| char_class(c) == 2)
                || after.is_some_and(|c| char_class(c) == 2)
            {
                continue;
            }
        }
        if !cx.budget.spend(search.len()) {
            return Outcome::Exhausted;
        }
        let Some((start, stop)) = verify(body, &search_tokens, anchor, p, end) else {
            continue;
        };
        let first = cx.content.line_of(start);
        let last = cx.content.line_of(stop.saturating_sub(1).max(start));
        // A span that starts after its line's indentation is replaced from
        // the line start, so the replacement is written as whole lines.
        let line_start = cx.content.lines().get(first).map_or(start, |l| l.start());
        let from_line_start = body
            .get(line_start..start)
            .is_some_and(|p| p.trim().is_empty());
        candidates.push(Candidate {
            start,
            end: stop,
            score: 1.0,
            plan: Plan::Fuzzy(FuzzyPlan {
                first,
                count: last + 1 - first,
                from_line_start,
                same_tokens: true,
            }),
            unescaped: 0,
        });
        if candidates.len() > MAX_CANDIDATES {
            break;
        }
    }
    found(candidates.into_iter())
}

/// The token to anchor on, and whether its places come from the
/// content's table of runs (else from a scan).
fn choose_anchor<'s>(cx: &mut Cx<'_, '_>, search: &[&'s str]) -> Option<(usize, &'s str, bool)> {
    if let Some((i, run)) = rarest_word_run(cx, search) {
        return Some((i, run, true));
    }
    // A long token is rare enough (the anchor before counting existed);
    // short ones (`}`, `x`) are counted to find the rarest.
    let longest = search
        .iter()
        .enumerate()
        .max_by_key(|(i, t)| (t.len(), std::cmp::Reverse(*i)))
        .map(|(i, t)| (i, *t));
    match longest {
        Some(long) if long.1.len() >= RARE_ENOUGH => Some((long.0, long.1, false)),
        _ => rarest_token(cx, search).map(|(i, t)| (i, t, false)),
    }
}

/// Of the search's tokens made of ASCII word characters only, the one
/// the content holds least often as a whole run (ties: the longer, then
/// the earlier), counted in the content's table of runs without reading
/// them: every whole-token
/// occurrence of such a token is a whole run, so the table's places are
/// the scan's (and then some, checked like them). A table that knows a
/// run nowhere still anchors: its places are none.
fn rarest_word_run<'s>(cx: &Cx<'_, '_>, search: &[&'s str]) -> Option<(usize, &'s str)> {
    let ascii_word = |t: &&str| t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let mut best: Option<(usize, usize)> = None; // (places, index in search)
    for (i, t) in search.iter().enumerate().filter(|(_, t)| ascii_word(t)) {
        let places = cx.content.word_run_count(t);
        let better = best.is_none_or(|(n, b)| {
            (places, std::cmp::Reverse(t.len())) < (n, std::cmp::Reverse(search[b].len()))
        });
        if better {
            best = Some((places, i));
        }
    }
    best.map(|(_, i)| (i, search[i]))
}

/// A longest token of this many bytes anchors without counting.
const RARE_ENOUGH: usize = 6;

/// How many of the search's distinct tokens are counted in the content
/// to pick the anchor (the longest first).
const ANCHOR_TRIES: usize = 4;

/// Counting stops here: a token this common is a poor anchor whatever its
/// exact count, and counting millions of `}` costs more than the answer
/// is worth.
const COUNT_CAP: usize = 1 << 16;

/// The anchor when every search token is short: of the longest few
/// distinct tokens, the one that occurs least often in the content as
/// text (counted up to the fewest so far; ties go to the longer, then the
/// earlier). Anchoring on a common
/// token walks every occurrence: 10 MB of `}` lines with a search of `}`
/// lines took over a second, where the search's one other token occurs
/// nowhere. `None` when a counted token does not occur at all (no match
/// can exist) or the budget ran out. Any anchor finds the same matches,
/// each holds every search token at its place.
fn rarest_token<'s>(cx: &mut Cx<'_, '_>, search: &[&'s str]) -> Option<(usize, &'s str)> {
    // Longest first, earlier first among equals (a stable sort).
    let mut by_length: Vec<usize> = (0..search.len()).collect();
    by_length.sort_by_key(|&i| std::cmp::Reverse(search[i].len()));
    let body = cx.content.body;
    let mut counted: Vec<&str> = Vec::with_capacity(ANCHOR_TRIES);
    let mut best: Option<(usize, usize)> = None; // (occurrences, index in search)
    for i in by_length {
        let t = search[i];
        if counted.contains(&t) {
            continue;
        }
        if counted.len() == ANCHOR_TRIES {
            break;
        }
        counted.push(t);
        if !cx.budget.spend(body.len()) {
            return None;
        }
        let cap = best.map_or(COUNT_CAP, |(n, _)| n);
        let n = find_iter(body, t).take(cap).count();
        if n == 0 {
            return None;
        }
        if n < cap || best.is_none() {
            best = Some((n, i));
        }
    }
    best.map(|(_, i)| (i, search[i]))
}

/// The span of the whole token sequence around the anchor token at
/// `p..end`, if every token before and after it matches.
fn verify(
    body: &str,
    search: &[&str],
    anchor: usize,
    p: usize,
    end: usize,
) -> Option<(usize, usize)> {
    let mut start = p;
    for want in search[..anchor].iter().rev() {
        let (s, e) = token_before(body, start)?;
        if body.get(s..e)? != *want {
            return None;
        }
        start = s;
    }
    let mut stop = end;
    for want in &search[anchor + 1..] {
        let (s, e) = token_after(body, stop)?;
        if body.get(s..e)? != *want {
            return None;
        }
        stop = e;
    }
    Some((start, stop))
}

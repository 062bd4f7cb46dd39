//! Strategy 9, `token_flexible` (fuzzy tier): the same tokens in the same
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
//! - Cost: one substring scan for the search's longest token, then a walk
//!   over the neighbouring tokens of each whole-token occurrence: linear,
//!   no token index of the content, no regex, no backtracking.
//!
//! The match is the span from the first token to the last. When only
//! indentation precedes it on its line, the replacement is written from the
//! line start, re-indented line by line from the search lines it pairs with
//! (see [`reexpress`](crate::matcher::reexpress)).

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
    // Anchor on the longest token (the rarest, roughly): find it as text,
    // keep whole-token occurrences, then verify the tokens before and
    // after it. No token index of the whole content is built.
    let (anchor, anchor_text) = search_tokens
        .iter()
        .enumerate()
        .max_by_key(|(i, t)| (t.len(), std::cmp::Reverse(*i)))
        .map(|(i, t)| (i, *t))
        .unwrap_or((0, search_tokens[0]));
    let body = cx.content.body;
    if !cx.budget.spend(body.len()) {
        return Outcome::Exhausted;
    }
    let word = anchor_text
        .chars()
        .next()
        .is_some_and(|c| char_class(c) == 2);
    let mut candidates = Vec::new();
    for p in find_iter(body.as_bytes(), anchor_text.as_bytes()) {
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
            }),
            unescaped: 0,
        });
        if candidates.len() > MAX_CANDIDATES {
            break;
        }
    }
    found(candidates.into_iter())
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

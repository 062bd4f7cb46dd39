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
//! - Cost: one tokenising pass over the content (cached), KMP over token
//!   hashes, a string comparison per hit: linear, no regex, no
//!   backtracking.
//!
//! The match is the span from the first token to the last. When only
//! indentation precedes it on its line, the replacement is written from the
//! line start, re-indented line by line from the search lines it pairs with
//! (see [`reexpress`](crate::matcher::reexpress)).

use super::exact::found;
use super::lines::kmp;
use super::{Candidate, Cx, FuzzyPlan, Needle, Outcome, Plan, MAX_CANDIDATES};
use crate::matcher::normalize::{token_hash, tokens};
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::TokenFlexible;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let search = needle.lf.as_str();
    let search_tokens: Vec<&str> = tokens(search).map(|(s, e)| &search[s..e]).collect();
    if search_tokens.len() < 2 {
        return Outcome::NotFound;
    }
    let pattern: Vec<u64> = search_tokens.iter().map(|t| token_hash(t)).collect();
    let body = cx.content.body;
    let Some(index) = cx.content.tokens(&mut cx.budget) else {
        return Outcome::Exhausted;
    };
    let m = search_tokens.len();
    let mut candidates = Vec::new();
    for hit in kmp(&index.hashes, &pattern) {
        if !cx.budget.spend(search.len()) {
            return Outcome::Exhausted;
        }
        let same = (0..m).all(|i| {
            index.spans.get(hit + i).and_then(|&(s, e)| body.get(s..e)) == search_tokens.get(i).copied()
        });
        let (Some(&(start, _)), Some(&(_, end))) = (index.spans.get(hit), index.spans.get(hit + m - 1)) else {
            continue;
        };
        if !same {
            continue;
        }
        let first = cx.content.line_of(start);
        let last = cx.content.line_of(end.saturating_sub(1).max(start));
        // A span that starts after its line's indentation is replaced from
        // the line start, so the replacement is written as whole lines.
        let line_start = cx.content.lines().get(first).map_or(start, |l| l.start);
        let from_line_start = body.get(line_start..start).is_some_and(|p| p.trim().is_empty());
        candidates.push(Candidate {
            start,
            end,
            score: 1.0,
            plan: Plan::Fuzzy(FuzzyPlan { first, count: last + 1 - first, from_line_start }),
            unescaped: 0,
        });
        if candidates.len() >= MAX_CANDIDATES {
            break;
        }
    }
    found(candidates.into_iter())
}

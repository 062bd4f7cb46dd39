//! Strategy 2, `line_endings`: CRLF and LF are the same line break.
//!
//! - Forgives: `\r\n` in the search where the file has `\n`, and the
//!   reverse, line by line (mixed files included).
//! - Never forgives: anything else; a lone `\r` is text.
//! - Cost: one pass building the LF view of the content (only when the
//!   content or the search has a CRLF), one substring scan, a binary search
//!   per hit to map positions back. A span never splits a CRLF.
//!
//! The replacement takes the matched region's line ending.

use super::exact::found;
use super::{substring_spans, Candidate, Cx, Needle, Outcome, Plan};
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::LineEndings;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let body = cx.content.body;
    if !cx.content.has_crlf() && needle.lf == needle.exact {
        return Outcome::NotFound;
    }
    let lf = cx.content.lf();
    let Some(spans) = substring_spans(lf.text(body), &needle.lf, cx.replace_all, &mut cx.budget)
    else {
        return Outcome::Exhausted;
    };
    found(spans.into_iter().map(|(s, e)| Candidate {
        start: lf.to_body(s),
        end: lf.to_body(e),
        score: 1.0,
        plan: Plan::Verbatim,
        unescaped: 0,
    }))
}

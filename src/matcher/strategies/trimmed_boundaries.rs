//! Strategy 3, `trimmed_boundaries`: the search carries extra whitespace
//! (blank lines, indentation, trailing spaces) at its start or end.
//!
//! - Forgives: any whitespace before the first and after the last
//!   non-blank character of the search, plus CRLF/LF.
//! - Never forgives: differences inside the trimmed text.
//! - Cost: one substring scan of the LF view.
//!
//! The replacement loses the same boundary whitespace: leading blank lines
//! when the search had them, the first line's indentation when it equals
//! what was trimmed, trailing blank lines or spaces likewise. When the
//! match starts right after its line's indentation, the replacement's later
//! lines move by the same indentation shift that maps the search's trimmed
//! indentation onto the file's (refused if that shift cannot be expressed).

use super::exact::found;
use super::{substring_spans, Candidate, Cx, Needle, Outcome, Plan, Shift, TrimPlan};
use crate::matcher::indent::IndentMap;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::TrimmedBoundaries;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    let lf_search = needle.lf.as_str();
    let pat = lf_search.trim();
    if pat.is_empty() || pat.len() == lf_search.len() {
        return Outcome::NotFound;
    }
    let lead_len = lf_search.len() - lf_search.trim_start().len();
    let lead = &lf_search[..lead_len];
    let trail = &lf_search[lead_len + pat.len()..];
    let body = cx.content.body;
    let lf = cx.content.lf();
    let Some(spans) = substring_spans(lf.text(body), pat, cx.replace_all, &mut cx.budget) else {
        return Outcome::Exhausted;
    };
    // The search's own indentation of its first line (after its last
    // leading newline).
    let s0 = lead.rsplit('\n').next().unwrap_or("");
    found(spans.into_iter().map(|(s, e)| {
        let start = lf.to_body(s);
        let line_start = body[..start].rfind('\n').map_or(0, |i| i + 1);
        let before = &body[line_start..start];
        let shift = if lead.is_empty() || !before.trim().is_empty() {
            Shift::AsWritten
        } else {
            match IndentMap::infer(&[(s0, before)]) {
                Some(m) => Shift::Map(m),
                None => Shift::Unmappable,
            }
        };
        Candidate {
            start,
            end: lf.to_body(e),
            score: 1.0,
            plan: Plan::Trimmed(TrimPlan { lead: lead.to_string(), trail: trail.to_string(), shift }),
            unescaped: 0,
        }
    }))
}

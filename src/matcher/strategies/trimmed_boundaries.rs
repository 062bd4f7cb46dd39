//! Strategy 3, `trimmed_boundaries`: the search carries extra whitespace
//! (blank lines, indentation, trailing spaces) at its start or end.
//!
//! - Forgives: any whitespace before the first and after the last
//!   non-blank character of the search, plus CRLF/LF.
//! - Never forgives: differences inside the trimmed text; a match that
//!   starts (ends) in the middle of other text on its line when the
//!   trimmed whitespace held a line break (the break still means "a line
//!   starts here", so `text\n` never matches the `text` of `text.`).
//! - Cost: one substring scan of the LF view.
//!
//! The replacement loses the same boundary whitespace: leading blank lines
//! when the search had them, the first line's indentation when it equals
//! what was trimmed or the file's own indentation before the match,
//! trailing blank lines or spaces likewise. A multi-line search's later
//! lines are in the file as written, so the replacement's later lines are
//! too: a first line indented unlike the rest (`"  " + text`) is a wrapper,
//! not an indentation shift (SPEC §6.8). Only a one-line search that starts
//! right after its line's indentation moves the replacement's later lines,
//! by the shift that maps its trimmed indentation onto the file's (refused
//! if that shift cannot be expressed).

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
    let (lead_break, trail_break) = (lead.contains('\n'), trail.contains('\n'));
    found(spans.into_iter().filter_map(|(s, e)| {
        let start = lf.to_body(s);
        let end = lf.to_body(e);
        let line_start = body[..start].rfind('\n').map_or(0, |i| i + 1);
        let before = &body[line_start..start];
        let after = body[end..].split('\n').next().unwrap_or("");
        // A trimmed line break still says "here a line starts (ends)": the
        // match may not begin (end) in the middle of other text.
        if lead_break && !before.trim().is_empty() || trail_break && !after.trim().is_empty() {
            return None;
        }
        // A multi-line search's later lines are in the file as written, so
        // they fix the columns: a first line indented differently is a
        // wrapper, not a shift (SPEC §6.8). A one-line search has nothing
        // else to go by: its indentation stands for the file line's.
        let shift = if lead.is_empty() || !before.trim().is_empty() || pat.contains('\n') {
            Shift::AsWritten
        } else {
            match IndentMap::infer(&[(s0, before)]) {
                Some(m) => Shift::Map(m),
                None => Shift::Unmappable,
            }
        };
        let indent = if before.trim().is_empty() {
            before.to_string()
        } else {
            String::new()
        };
        Some(Candidate {
            start,
            end,
            score: 1.0,
            plan: Plan::Trimmed(TrimPlan {
                lead: lead.to_string(),
                trail: trail.to_string(),
                indent,
                shift,
            }),
            unescaped: 0,
        })
    }))
}

//! The replacement for a match found with its boundary whitespace
//! trimmed ([`TrimPlan`]): the search's leading blank lines, first-line
//! indentation and trailing blank lines are removed from the replacement
//! the same way, and its later lines re-indented by the plan's shift.
//!
//! Kept apart as one of the three plan writers (`trimmed`, `lines`,
//! `fuzzy`): each reads against its own strategy.

use super::shift_line;
use crate::matcher::normalize::{indent_of, is_blank};
use crate::matcher::strategies::{Shift, TrimPlan};
use crate::matcher::types::Unmappable;

/// The replacement for a trimmed match ([`TrimPlan`]).
pub(super) fn trimmed(r: &str, plan: &TrimPlan) -> Result<String, Unmappable> {
    let mut r = r;
    if plan.lead.contains('\n') {
        let ws = r.len() - r.trim_start().len();
        if let Some(nl) = r[..ws].rfind('\n') {
            r = &r[nl + 1..];
        }
    }
    // The first line's indentation is outside the span: drop it when it is
    // the search's own, or the file's (written in the file's columns).
    let s0 = plan.lead.rsplit('\n').next().unwrap_or("");
    let r0 = indent_of(r);
    if !r0.is_empty() && (r0 == s0 || r0 == plan.indent) {
        r = &r[r0.len()..];
    } else if !s0.is_empty() {
        r = r.strip_prefix(s0).unwrap_or(r);
    }
    let (trail_spaces, trail_breaks) = match plan.trail.find('\n') {
        Some(nl) => (&plan.trail[..nl], true),
        None => (plan.trail.as_str(), false),
    };
    if trail_breaks {
        let body_len = r.trim_end().len();
        if let Some(nl) = r[body_len..].find('\n') {
            r = &r[..body_len + nl];
        }
    }
    if !trail_spaces.is_empty() {
        r = r.strip_suffix(trail_spaces).unwrap_or(r);
    }
    let map = match &plan.shift {
        Shift::AsWritten => return Ok(r.to_string()),
        Shift::Map(map) => Some(map),
        Shift::Unmappable => None,
    };
    let mut out = String::with_capacity(r.len());
    for (i, line) in r.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !is_blank(line) {
                let shifted = map
                    .and_then(|m| shift_line(line, m))
                    .ok_or(Unmappable::Indentation(i + 1))?;
                out.push_str(&shifted);
                continue;
            }
        }
        out.push_str(line);
    }
    Ok(out)
}

//! Strategy 4, `trailing_whitespace`: whole lines equal once trailing
//! spaces and tabs are removed.
//!
//! - Forgives: trailing whitespace on any line, blank lines around the
//!   search, CRLF/LF.
//! - Never forgives: a change of indentation or of anything inside a line;
//!   a search line may not match part of a file line.
//! - Cost: one pass hashing every line's fold key (shared with strategies
//!   5–7 and computed once per content), KMP over the line hashes, then a
//!   string comparison per candidate window.
//!
//! Replacement lines equal to a search line are written as the file's
//! original line (its trailing whitespace included); other lines as written.

use super::lines::find_level;
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::Level;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::TrailingWhitespace;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    find_level(cx, needle, Level::TrimEnd)
}

//! Strategy 5, `indentation`: the same lines under a uniformly shifted
//! indentation.
//!
//! - Forgives: everything strategy 4 forgives, plus an indentation shift
//!   that is the same for every line (added or removed prefix; 2 vs 4
//!   spaces; tabs vs spaces), see `matcher::indent`.
//!   A first search line with no indentation at all may stand for the
//!   file line's indentation when every other line has exactly the file's
//!   (a search copied from the first non-blank character of a line).
//! - Never forgives: a non-uniform change of leading whitespace (one line
//!   moved in or out relative to the others), which changes meaning in
//!   Python or YAML; that belongs to the fuzzy tier.
//! - Cost: as strategy 4, plus the shift inference per candidate (linear in
//!   the search's lines).
//!
//! The replacement is re-indented by the same shift, line by line;
//! replacement lines equal to a search line keep the file's original bytes.
//! A line the shift cannot express (less indented than a removed prefix,
//! mixed tabs and spaces under a unit change) makes the edit refuse.

use super::lines::find_level;
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::Level;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::Indentation;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    find_level(cx, needle, Level::Trim)
}

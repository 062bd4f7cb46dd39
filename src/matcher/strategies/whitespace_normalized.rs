//! Strategy 6, `whitespace_normalized`: runs of spaces and tabs inside a
//! line count as one space.
//!
//! - Forgives: everything strategy 5 forgives, plus the width of
//!   whitespace runs between non-blank characters (`const   x` vs
//!   `const x`).
//! - Never forgives: whitespace that appears or disappears between two
//!   characters (`a+b` vs `a + b`: that is `token_flexible`, fuzzy tier),
//!   any other character difference, non-uniform indentation.
//! - Cost: as strategy 5.
//!
//! Replacement lines equal to a search line keep the file's bytes (its
//! spacing); changed lines are written as given, re-indented.

use super::lines::find_level;
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::Level;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::WhitespaceNormalized;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    find_level(cx, needle, Level::Collapse)
}

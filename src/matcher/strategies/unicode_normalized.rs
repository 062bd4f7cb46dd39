//! Strategy 7, `unicode_normalized`: typographic characters are folded to
//! ASCII before comparing.
//!
//! - Forgives: everything strategy 6 forgives, plus curly quotes (`‘’‚‛′`,
//!   `“”„‟″`), dashes and minus signs (`‐‑‒–—―−`), `…` for `...`,
//!   non-breaking and other Unicode spaces, and zero-width characters.
//! - Never forgives: any other character difference (case, CJK punctuation
//!   such as `，` vs `,`, letters with or without accents).
//! - Cost: as strategy 5 (the fold key is the one every line-based
//!   strategy filters with).
//!
//! The replacement is written in the file's typography: where the matched
//! region wrote a straight quote as one curly character (`’`), or double
//! quotes as `“…”` pairs, changed replacement lines get the same; where the
//! region mixes styles for a character, a changed line containing that
//! character is refused rather than guessed. Dashes are never rewritten
//! (a hyphen and a dash are different words); non-breaking spaces in
//! changed lines are written as ordinary spaces.

use super::lines::find_level;
use super::{Cx, Needle, Outcome};
use crate::matcher::normalize::Level;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::UnicodeNormalized;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    find_level(cx, needle, Level::Fold)
}

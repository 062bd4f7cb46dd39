//! Strategy 8, `escape_normalized`: the search was escaped one level too
//! many (`\n` written for a line break, `\"` for a quote, `\\` for a
//! backslash), as models do when they emit code inside a JSON string.
//!
//! - Forgives: one level of `\n`, `\t`, `\r`, `\'`, `\"`, `` \` ``, `\\`,
//!   `\$` and backslash-newline in the search, combined with everything
//!   strategies 1–7 forgive (the unescaped search runs through them).
//! - Never forgives: two levels of escaping, or escaping that only some of
//!   the search shows.
//! - Cost: one pass over the search, then at most strategies 1–7 again
//!   (their per-content work is cached).
//!
//! The replacement is unescaped too only when it shows the same
//! over-escaping: every kind of sequence it contains was one the search
//! needed undone, and it never also contains the real character (a real
//! line break beside a literal `\n`). A replacement with no escape
//! sequences is written as given. Anything else is refused: a legitimate
//! `"\n"` in new code must never become a real line break.

use super::{run, Cx, Needle, Outcome};
use crate::matcher::normalize::unescape_once;
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::EscapeNormalized;

/// The strategies the unescaped search runs through.
const INNER: [Strategy; 7] = [
    Strategy::Exact,
    Strategy::LineEndings,
    Strategy::TrimmedBoundaries,
    Strategy::TrailingWhitespace,
    Strategy::Indentation,
    Strategy::WhitespaceNormalized,
    Strategy::UnicodeNormalized,
];

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    if !needle.lf.contains('\\') || !cx.budget.spend(needle.lf.len()) {
        return if cx.budget.exhausted() {
            Outcome::Exhausted
        } else {
            Outcome::NotFound
        };
    }
    let unescaped = unescape_once(&needle.lf);
    if unescaped.kinds == 0 || unescaped.text.trim().is_empty() {
        return Outcome::NotFound;
    }
    let inner = Needle::new(&unescaped.text);
    for strategy in INNER {
        match run(strategy, cx, &inner) {
            Outcome::Found(mut candidates) => {
                for c in &mut candidates {
                    c.unescaped = unescaped.kinds;
                }
                return Outcome::Found(candidates);
            }
            Outcome::Exhausted => return Outcome::Exhausted,
            Outcome::NotFound => {}
        }
    }
    Outcome::NotFound
}

//! Strategy 9, `prose` (safe tier, prose only): the same words and CJK
//! characters in the same order, with the Markdown and typography a model
//! writes differently when it quotes prose back.
//!
//! Runs only for prose (`prose: true`: Markdown and text files, SiYuan
//! blocks other than code, math and HTML), after strategies 1–7 found
//! nothing and before `escape_normalized`: in Markdown a backslash is
//! markup (an escape, a hard break), not over-escaping.
//!
//! - Forgives (see [`prose`](crate::matcher::prose) for the table):
//!   full-width ↔ half-width punctuation of the counterpart pairs, curly ↔
//!   straight quotes inside a line, spaces between CJK and Latin text, line
//!   breaks inside a paragraph (a re-wrapped paragraph), `**`/`__` and
//!   `*`/`_`, bullets `-`/`*`/`+`, ordered-list numbers, `<br>`/`<br />`,
//!   backslash escapes of characters that need none, and a hard break
//!   written as two spaces or as a backslash.
//! - Never forgives: a word or CJK character that differs, is missing or
//!   moved; anything inside code spans, fenced code, math, URLs, link
//!   destinations or HTML tags (compared byte for byte); a soft line break
//!   for a hard one, or a paragraph break for either; a list typed on one
//!   line. Matches start and end on whole units, so `word` never matches
//!   inside `sword`.
//! - Cost: one linear pass cutting the content into units, then one
//!   substring search of the search's key in the content's.
//!
//! The replacement is written unit by unit in the file's own form (see
//! `reexpress/prose.rs`): what the model kept is the file's text, new text
//! follows the span's conventions (else the file's).

use super::exact::found;
use super::{Candidate, Cx, Needle, Outcome, Plan};
use crate::matcher::prose::{occurrences, Prose};
use crate::matcher::types::Strategy;

pub(crate) const STRATEGY: Strategy = Strategy::Prose;

pub(crate) fn find(cx: &mut Cx<'_, '_>, needle: &Needle) -> Outcome {
    if !cx.prose {
        return Outcome::NotFound;
    }
    let body = cx.content.body;
    if !cx.budget.spend(body.len().saturating_mul(2)) {
        return Outcome::Exhausted;
    }
    let search = Prose::of(needle.lf.trim(), true);
    if search.units.is_empty() {
        return Outcome::NotFound;
    }
    let file = cx.content.prose();
    found(
        occurrences(file, &search)
            .into_iter()
            .map(|(first, end)| Candidate {
                start: file.units[first].start,
                end: file.units[end - 1].end,
                score: 1.0,
                plan: Plan::Prose,
                unescaped: 0,
            }),
    )
}

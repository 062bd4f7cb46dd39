//! `evaluateSlice`: selects a contiguous run of an ordered child list
//! (SPEC §4, seed 000 §2), the paging mechanism of getBlockContent.
//!
//! # Grammar
//!
//! ```text
//! slice  := ""                              no slice: the whole list
//!         | single
//!         | id ":" ("+" | "-") COUNT        relative: COUNT blocks from / up to id
//!         | bound ":" bound                 range
//! single := ID                              that block alone
//!         | INT                             Python [INT:]  (the plugin's behaviour)
//! bound  := "" | "BEGIN" | "END" | ID | INT
//! ID     := 14 digits "-" 7 word characters
//! INT    := ["+" | "-"] digits              COUNT := digits
//! ```
//!
//! Meaning over `id0 … idN-1`:
//!
//! | form | selects |
//! |---|---|
//! | `idA:idB` | idA through idB, inclusive (empty when idB comes first) |
//! | `id:+N` | N blocks starting at id (inclusive), truncated at the end |
//! | `id:-N` | N blocks ending at id (inclusive), clamped at the start |
//! | `a:b` | Python `list[a:b]`: negatives count from the end, out-of-range ends clamp |
//! | `-2:`, `3:`, `:5` | open ends (`""` start = 0, `""` end = N) |
//! | `BEGIN:id`, `id:END` | from the start / to the end |
//! | `0:id5`, `id2:9` | id and index ends mix; an id end is inclusive, an index end exclusive |
//! | `5`, `-3` | a bare integer n is `n:` |
//! | `id` | that block |
//! | `id:+0` | nothing |
//!
//! `id:+N` and `id:-N` are always the relative forms. After an index or
//! `BEGIN`, a signed integer is an index: `0:+5` is `0:5`.
//!
//! Leniencies: whitespace (any Unicode whitespace) around the slice and
//! around each part; the full-width colon `：`; `BEGIN`/`END` in any case;
//! integers too large for the list saturate. Anything an id could be taken
//! for (14 digits, `-`, 7 letters, digits or `_`, in any case) is treated as
//! an anchor, so `…-Q2ITEM1` is reported as an anchor that is not in the
//! list (`SLICE_ANCHOR_NOT_FOUND`) rather than as a syntax error.
//!
//! # Errors
//!
//! `INVALID_SLICE` (more than one `:`, a part that is none of the above,
//! `END` as a start or `BEGIN` as an end, `BEGIN` alone) lists the accepted
//! forms; `SLICE_ANCHOR_NOT_FOUND` names the id. A range that selects
//! nothing (reversed ids, a start past the end) is not an error: the result
//! is empty and carries seed 000's message.
//!
//! # Cost
//!
//! Parsing is linear in the slice text. Evaluation scans the list at most
//! twice (one scan per id end) and copies only the selected run: O(n) time
//! and O(k) extra space for k selected blocks.
//!
//! # Differences from the original plugin (each tested)
//!
//! - Whitespace before the `:` no longer defeats the relative form:
//!   `id :+3` is three blocks from id (the plugin read `+3` as the absolute
//!   end index 3).
//! - A part that is not an id, an integer, `BEGIN` or `END` (`foo:bar`) is
//!   `INVALID_SLICE`; the plugin silently returned nothing (`parseInt`
//!   gave NaN).
//! - `END` as a start and `BEGIN` as an end are `INVALID_SLICE`; the plugin
//!   read them as 0 / an empty range by accident.
//! - The error messages add what to do next after the plugin's wording.

mod messages;
mod types;

use std::ops::Range;

use serde::{Deserialize, Serialize};

use crate::siyuan::{Block, ChildBlock};
use crate::{Error, Lang};
use types::{Problem, SyntaxProblem};

pub use messages::header as slice_header;

/// Anything with a block id can be sliced.
pub trait SliceItem {
    /// The item's block id (what an id bound of a slice matches).
    fn slice_id(&self) -> &str;
}

impl SliceItem for ChildBlock {
    fn slice_id(&self) -> &str {
        &self.id
    }
}

impl SliceItem for Block {
    fn slice_id(&self) -> &str {
        &self.id
    }
}

impl SliceItem for String {
    fn slice_id(&self) -> &str {
        self
    }
}

impl SliceItem for &str {
    fn slice_id(&self) -> &str {
        self
    }
}

/// Options of [`evaluate_slice`].
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SliceOptions {
    /// Message language (default `en`).
    pub lang: Lang,
}

/// The selected run of a child list.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SliceResult<T> {
    /// The selected blocks, in list order (a contiguous run of the input).
    pub blocks: Vec<T>,
    /// Length of the whole list.
    pub total: u32,
    /// Index of the first selected block (= `end` when nothing is selected).
    pub start: u32,
    /// Index after the last selected block.
    pub end: u32,
    /// `> [Slice View] Filter: "<slice>" | Count: <n>`.
    pub header: String,
    /// Seed 000's explanation when a non-empty list yields nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// Selects the run of `children` that `slice` names. See the module docs for
/// the grammar; `""` (or only whitespace) selects everything.
pub fn evaluate_slice<T: SliceItem + Clone>(
    children: &[T],
    slice: &str,
    options: &SliceOptions,
) -> Result<SliceResult<T>, Error> {
    let range = slice_range(children, slice, options.lang)?;
    let count = range.len();
    let total = children.len();
    Ok(SliceResult {
        blocks: children
            .get(range.clone())
            .map(<[T]>::to_vec)
            .unwrap_or_default(),
        total: to_u32(total),
        start: to_u32(range.start),
        end: to_u32(range.end),
        header: messages::header(slice, count),
        message: (count == 0 && total > 0).then(|| messages::empty_result(options.lang, total)),
    })
}

/// The index range `slice` selects in `children` (always within bounds,
/// `start <= end`).
pub fn slice_range<T: SliceItem>(
    children: &[T],
    slice: &str,
    lang: Lang,
) -> Result<Range<usize>, Error> {
    let spec = parse(slice, lang)?;
    resolve(&spec, children, lang)
}

/// The plugin's empty-result message for a list of `total` children.
pub fn empty_slice_message(lang: Lang, total: usize) -> String {
    messages::empty_result(lang, total)
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

// ---- parsing ------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound<'a> {
    /// `""` or `BEGIN` as a start, `""` or `END` as an end.
    Open,
    Id(&'a str),
    Index(i64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spec<'a> {
    All,
    Single(&'a str),
    From(i64),
    Forward(&'a str, u64),
    Backward(&'a str, u64),
    Range(Bound<'a>, Bound<'a>),
}

/// The slice's refusal of `problem`, built in one place.
fn refuse(lang: Lang, problem: Problem<'_>) -> Error {
    let mut error = Error::new(problem.code(), messages::render(&problem, lang));
    *error.details = problem.details();
    error
}

fn parse(slice: &str, lang: Lang) -> Result<Spec<'_>, Error> {
    let text = slice.trim();
    if text.is_empty() {
        return Ok(Spec::All);
    }
    let invalid = |why| refuse(lang, Problem::InvalidSlice { slice, why });
    let mut parts = text.split([':', '：']);
    let left = parts.next().unwrap_or("").trim();
    let Some(right) = parts.next() else {
        return if looks_like_id(left) {
            Ok(Spec::Single(left))
        } else if let Some(n) = parse_int(left) {
            Ok(Spec::From(n))
        } else if is_keyword(left, "BEGIN") || is_keyword(left, "END") {
            Err(invalid(SyntaxProblem::NotASingle(left)))
        } else {
            Err(invalid(SyntaxProblem::UnknownPart(left)))
        };
    };
    if parts.next().is_some() {
        return Err(invalid(SyntaxProblem::TooManyParts));
    }
    let right = right.trim();
    if looks_like_id(left) {
        if let Some(count) = right.strip_prefix('+').and_then(parse_count) {
            return Ok(Spec::Forward(left, count));
        }
        if let Some(count) = right.strip_prefix('-').and_then(parse_count) {
            return Ok(Spec::Backward(left, count));
        }
    }
    let start = if left.is_empty() || is_keyword(left, "BEGIN") {
        Bound::Open
    } else if is_keyword(left, "END") {
        return Err(invalid(SyntaxProblem::MisplacedKeyword(left)));
    } else {
        bound(left).ok_or_else(|| invalid(SyntaxProblem::UnknownPart(left)))?
    };
    let end = if right.is_empty() || is_keyword(right, "END") {
        Bound::Open
    } else if is_keyword(right, "BEGIN") {
        return Err(invalid(SyntaxProblem::MisplacedKeyword(right)));
    } else {
        bound(right).ok_or_else(|| invalid(SyntaxProblem::UnknownPart(right)))?
    };
    Ok(Spec::Range(start, end))
}

fn bound(part: &str) -> Option<Bound<'_>> {
    if looks_like_id(part) {
        Some(Bound::Id(part))
    } else {
        parse_int(part).map(Bound::Index)
    }
}

fn is_keyword(part: &str, keyword: &str) -> bool {
    part.eq_ignore_ascii_case(keyword)
}

/// The plugin's `isSiyuanID` shape (`\d{14}-\w{7}`): what the agent meant
/// as an id, even when it is not one the kernel could have made.
fn looks_like_id(part: &str) -> bool {
    let b = part.as_bytes();
    b.len() == 22
        && b[..14].iter().all(u8::is_ascii_digit)
        && b[14] == b'-'
        && b[15..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// `[+-]digits`, saturating at the i64 range.
fn parse_int(part: &str) -> Option<i64> {
    let (negative, digits) = match part.as_bytes().first() {
        Some(b'-') => (true, &part[1..]),
        Some(b'+') => (false, &part[1..]),
        _ => (false, part),
    };
    let magnitude = parse_count(digits)?;
    let magnitude = i64::try_from(magnitude).unwrap_or(i64::MAX);
    Some(if negative { -magnitude } else { magnitude })
}

/// Plain ASCII digits, saturating at u64::MAX.
fn parse_count(digits: &str) -> Option<u64> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.bytes().fold(0u64, |n, b| {
        n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    }))
}

// ---- evaluation ---------------------------------------------------------

fn resolve<T: SliceItem>(
    spec: &Spec<'_>,
    children: &[T],
    lang: Lang,
) -> Result<Range<usize>, Error> {
    let len = children.len();
    let find = |id: &str| {
        children
            .iter()
            .position(|c| c.slice_id() == id)
            .ok_or_else(|| refuse(lang, Problem::AnchorNotFound { id }))
    };
    let range = match *spec {
        Spec::All => 0..len,
        Spec::Single(id) => {
            let i = find(id)?;
            i..i + 1
        }
        Spec::From(n) => python_index(n, len)..len,
        Spec::Forward(id, count) => {
            let i = find(id)?;
            i..i.saturating_add(usize::try_from(count).unwrap_or(usize::MAX))
                .min(len)
        }
        Spec::Backward(id, count) => {
            let end = find(id)? + 1;
            end.saturating_sub(usize::try_from(count).unwrap_or(usize::MAX))..end
        }
        Spec::Range(start, end) => {
            let start = match start {
                Bound::Open => 0,
                Bound::Id(id) => find(id)?,
                Bound::Index(n) => python_index(n, len),
            };
            let end = match end {
                Bound::Open => len,
                Bound::Id(id) => find(id)? + 1,
                Bound::Index(n) => python_index(n, len),
            };
            start..end.max(start)
        }
    };
    Ok(range)
}

/// Python's index normalisation for slices: negatives count from the end,
/// then the result is clamped to `0..=len`.
fn python_index(n: i64, len: usize) -> usize {
    if n < 0 {
        let back = usize::try_from(n.unsigned_abs()).unwrap_or(usize::MAX);
        len.saturating_sub(back)
    } else {
        usize::try_from(n).unwrap_or(usize::MAX).min(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("20240101000000-id{i:05}")).collect()
    }

    fn range(list: &[String], slice: &str) -> Result<Range<usize>, crate::ErrorCode> {
        slice_range(list, slice, Lang::En).map_err(|e| e.code)
    }

    #[test]
    fn python_semantics_for_index_slices() {
        let list = ids(10);
        for (slice, want) in [
            ("0:5", 0..5),
            ("-2:", 8..10),
            (":3", 0..3),
            ("3:", 3..10),
            ("-2:-1", 8..9),
            ("5:2", 5..5),
            ("-100:2", 0..2),
            ("0:100", 0..10),
            ("100:", 10..10),
            ("5", 5..10),
            ("-3", 7..10),
            ("+2", 2..10),
            ("0:+5", 0..5),
            ("BEGIN:-1", 0..9),
            (":", 0..10),
            ("", 0..10),
            ("  ", 0..10),
            ("99999999999999999999999:", 10..10),
            ("-99999999999999999999999:", 0..10),
        ] {
            assert_eq!(range(&list, slice), Ok(want), "{slice:?}");
        }
    }

    #[test]
    fn ids_and_relative_forms() {
        let list = ids(10);
        let id = |i: usize| list[i].clone();
        for (slice, want) in [
            (format!("{}:{}", id(2), id(5)), 2..6),
            (format!("{}:{}", id(5), id(2)), 5..5),
            (format!("{}:+3", id(2)), 2..5),
            (format!("{}:-3", id(5)), 3..6),
            (format!("{}:-30", id(1)), 0..2),
            (format!("{}:+30", id(8)), 8..10),
            (format!("{}:+0", id(8)), 8..8),
            (format!("{}:-0", id(8)), 9..9),
            (format!("{}:END", id(8)), 8..10),
            (format!("begin:{}", id(2)), 0..3),
            (format!("3:{}", id(5)), 3..6),
            (format!("{}:7", id(3)), 3..7),
            (id(4), 4..5),
            (format!(" {} ： {} ", id(2), id(4)), 2..5),
            (format!("{} :+3", id(2)), 2..5),
            (format!("{}:+18446744073709551615", id(2)), 2..10),
        ] {
            assert_eq!(range(&list, &slice), Ok(want), "{slice:?}");
        }
    }

    #[test]
    fn errors_are_coded() {
        use crate::ErrorCode::*;
        let list = ids(3);
        for (slice, code) in [
            ("a:b:c", InvalidSlice),
            ("abc", InvalidSlice),
            ("foo:bar", InvalidSlice),
            ("END:3", InvalidSlice),
            ("0:BEGIN", InvalidSlice),
            ("BEGIN", InvalidSlice),
            ("1.5:", InvalidSlice),
            ("+:", InvalidSlice),
            ("20990101000000-zzzzzzz:+3", SliceAnchorNotFound),
            ("20990101000000-ZZZZZZZ", SliceAnchorNotFound),
            ("0:20990101000000-zzzzzzz", SliceAnchorNotFound),
        ] {
            assert_eq!(range(&list, slice), Err(code), "{slice:?}");
        }
    }

    #[test]
    fn result_carries_header_total_and_empty_message() {
        let list = ids(4);
        let r = evaluate_slice(&list, "1:3", &SliceOptions::default()).unwrap();
        assert_eq!(r.blocks, list[1..3].to_vec());
        assert_eq!((r.total, r.start, r.end), (4, 1, 3));
        assert_eq!(r.header, "> [Slice View] Filter: \"1:3\" | Count: 2");
        assert_eq!(r.message, None);
        let empty = evaluate_slice(&list, "9:", &SliceOptions::default()).unwrap();
        assert_eq!(
            empty.message.as_deref(),
            Some("Slice result is empty. Original children count: 4. Check your slice range.")
        );
        let none: Vec<String> = Vec::new();
        assert_eq!(
            evaluate_slice(&none, "0:3", &SliceOptions::default())
                .unwrap()
                .message,
            None
        );
    }
}

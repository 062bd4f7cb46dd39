//! Line ranges: `N`, `N~M`, `N~`, `~N`, `~` (1-based, inclusive).
//!
//! Grammar (whitespace around the parts is tolerated; the full-width `～`
//! that CJK input methods produce counts as `~`):
//!
//! ```text
//! range := num | num? "~" num?
//! num   := [0-9]+          (1-based; 0 is refused)
//! ```
//!
//! Resolution against a file of `total` lines (an empty file counts as
//! one empty line, so `1` and `~` address it):
//! - `N` = `N~N`; `~N` = `1~N`; `~` = `1~total`;
//! - `N~` = `N~total`, except `N = total + 1`, which is the append
//!   position after the last line;
//! - an end beyond `total` is `RANGE_OUT_OF_BOUNDS`; `N~M` with `N > M`
//!   and malformed text are `INVALID_RANGE`.

use super::problem::Problem;
pub(crate) use super::problem::RangeProblem;
use super::render::plain;
use crate::error::{Error, Result};
use crate::lang::Lang;

/// A parsed, not yet resolved range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRangeSpec {
    /// `N`
    Single(u64),
    /// `N~M`
    Between(u64, u64),
    /// `N~`
    From(u64),
    /// `~N`
    To(u64),
    /// `~`
    Whole,
}

/// A range resolved against a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolvedRange {
    /// Lines `start..=end` (1-based).
    Lines {
        /// First line.
        start: u32,
        /// Last line, inclusive.
        end: u32,
    },
    /// The position after the last line (`N~` with N = last + 1).
    Append {
        /// The number the first appended line gets: the line count + 1.
        at: u32,
    },
}

/// Parses `input` (see the module docs for the grammar).
pub fn parse_line_range(input: &str, lang: Lang) -> Result<LineRangeSpec> {
    parse(input).map_err(|p| range_error(p, input, lang))
}

impl LineRangeSpec {
    /// Resolves against a file of `total_lines` lines (0 for an empty
    /// file, which is addressed as one empty line).
    pub fn resolve(self, total_lines: usize, input: &str, lang: Lang) -> Result<ResolvedRange> {
        resolve(self, total_lines).map_err(|p| range_error(p, input, lang))
    }
}

pub(crate) fn parse(input: &str) -> std::result::Result<LineRangeSpec, RangeProblem> {
    let text = input.trim();
    if text.is_empty() {
        return Err(RangeProblem::Empty);
    }
    let number = |part: &str| -> std::result::Result<Option<u64>, RangeProblem> {
        let part = part.trim();
        if part.is_empty() {
            return Ok(None);
        }
        if !part.bytes().all(|b| b.is_ascii_digit()) {
            return Err(RangeProblem::Syntax);
        }
        // More digits than u64 holds is a line far beyond any file.
        let n = part.parse::<u64>().unwrap_or(u64::MAX);
        if n == 0 {
            return Err(RangeProblem::Zero);
        }
        Ok(Some(n))
    };
    let separator = text.find(['~', '～']);
    let Some(at) = separator else {
        return number(text)?
            .map(LineRangeSpec::Single)
            .ok_or(RangeProblem::Syntax);
    };
    let sep_len = if text[at..].starts_with('~') {
        1
    } else {
        '～'.len_utf8()
    };
    let (left, right) = (&text[..at], &text[at + sep_len..]);
    if right.contains(['~', '～']) {
        return Err(RangeProblem::Syntax);
    }
    Ok(match (number(left)?, number(right)?) {
        (Some(a), Some(b)) => LineRangeSpec::Between(a, b),
        (Some(a), None) => LineRangeSpec::From(a),
        (None, Some(b)) => LineRangeSpec::To(b),
        (None, None) => LineRangeSpec::Whole,
    })
}

pub(crate) fn resolve(
    spec: LineRangeSpec,
    total_lines: usize,
) -> std::result::Result<ResolvedRange, RangeProblem> {
    let total = total_lines.max(1) as u64;
    let oob = RangeProblem::OutOfBounds { total: total_lines };
    let lines = |start: u64, end: u64| {
        // start <= end <= total <= usize::MAX, so both fit in u32 for any
        // file editkit can hold; saturate all the same.
        ResolvedRange::Lines {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    };
    match spec {
        LineRangeSpec::Single(n) if n <= total => Ok(lines(n, n)),
        LineRangeSpec::Single(_) => Err(oob),
        LineRangeSpec::Between(a, b) if a > b => Err(RangeProblem::Reversed),
        LineRangeSpec::Between(a, b) if b <= total => Ok(lines(a, b)),
        LineRangeSpec::Between(..) => Err(oob),
        LineRangeSpec::From(n) if Some(n) == total.checked_add(1) => Ok(ResolvedRange::Append {
            at: u32::try_from(n).unwrap_or(u32::MAX),
        }),
        LineRangeSpec::From(n) if n <= total => Ok(lines(n, total)),
        LineRangeSpec::From(_) => Err(oob),
        LineRangeSpec::To(n) if n <= total => Ok(lines(1, n)),
        LineRangeSpec::To(_) => Err(oob),
        LineRangeSpec::Whole => Ok(lines(1, total)),
    }
}

pub(crate) fn range_error(why: RangeProblem, input: &str, lang: Lang) -> Error {
    plain(
        lang,
        &Problem::InvalidRange {
            input: input.to_string(),
            why,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn every_form_parses() {
        assert_eq!(parse("7"), Ok(LineRangeSpec::Single(7)));
        assert_eq!(parse(" 10 ~ 12 "), Ok(LineRangeSpec::Between(10, 12)));
        assert_eq!(parse("3~"), Ok(LineRangeSpec::From(3)));
        assert_eq!(parse("~4"), Ok(LineRangeSpec::To(4)));
        assert_eq!(parse("~"), Ok(LineRangeSpec::Whole));
        assert_eq!(parse("2～5"), Ok(LineRangeSpec::Between(2, 5)));
        assert_eq!(parse(""), Err(RangeProblem::Empty));
        assert_eq!(parse("0"), Err(RangeProblem::Zero));
        assert_eq!(parse("1-3"), Err(RangeProblem::Syntax));
        assert_eq!(parse("1~2~3"), Err(RangeProblem::Syntax));
        assert_eq!(parse("a~b"), Err(RangeProblem::Syntax));
        assert_eq!(parse("-1~2"), Err(RangeProblem::Syntax));
        assert_eq!(parse("٣"), Err(RangeProblem::Syntax), "only ASCII digits");
        assert_eq!(
            parse("99999999999999999999999"),
            Ok(LineRangeSpec::Single(u64::MAX))
        );
    }

    #[test]
    fn resolution_follows_the_file() {
        let r = |s: &str, total: usize| parse(s).and_then(|spec| resolve(spec, total));
        assert_eq!(r("2~3", 5), Ok(ResolvedRange::Lines { start: 2, end: 3 }));
        assert_eq!(r("4~", 5), Ok(ResolvedRange::Lines { start: 4, end: 5 }));
        assert_eq!(r("6~", 5), Ok(ResolvedRange::Append { at: 6 }));
        assert_eq!(r("7~", 5), Err(RangeProblem::OutOfBounds { total: 5 }));
        assert_eq!(r("6", 5), Err(RangeProblem::OutOfBounds { total: 5 }));
        assert_eq!(r("~6", 5), Err(RangeProblem::OutOfBounds { total: 5 }));
        assert_eq!(r("3~2", 5), Err(RangeProblem::Reversed));
        assert_eq!(r("~", 5), Ok(ResolvedRange::Lines { start: 1, end: 5 }));
        // An empty file is one empty line.
        assert_eq!(r("1", 0), Ok(ResolvedRange::Lines { start: 1, end: 1 }));
        assert_eq!(r("~", 0), Ok(ResolvedRange::Lines { start: 1, end: 1 }));
        assert_eq!(r("2~", 0), Ok(ResolvedRange::Append { at: 2 }));
        assert_eq!(r("2", 0), Err(RangeProblem::OutOfBounds { total: 0 }));
        assert_eq!(
            r("18446744073709551615~", 3),
            Err(RangeProblem::OutOfBounds { total: 3 })
        );
    }

    #[test]
    fn errors_carry_their_codes() {
        let e = parse_line_range("x", Lang::En).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidRange);
        let e = parse_line_range("9", Lang::Zh)
            .unwrap()
            .resolve(3, "9", Lang::Zh)
            .unwrap_err();
        assert_eq!(e.code, ErrorCode::RangeOutOfBounds);
    }
}

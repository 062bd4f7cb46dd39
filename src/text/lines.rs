//! Lines that remember their own ending, so text can be cut and re-joined
//! without changing a single byte outside the edited span.

/// The UTF-8 byte-order mark, which editors leave at the start of a file.
pub const BOM: &str = "\u{feff}";

/// Splits a leading BOM off: `(had_bom, rest)`.
pub fn split_bom(text: &str) -> (bool, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, text),
    }
}

/// A line ending style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// The dominant ending of `text` (CRLF only when CRLF lines outnumber bare
/// LF lines; LF for text without any newline).
pub fn detect_line_ending(text: &str) -> LineEnding {
    let mut crlf = 0usize;
    let mut lf = 0usize;
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            if i > 0 && bytes[i - 1] == b'\r' {
                crlf += 1;
            } else {
                lf += 1;
            }
        }
    }
    if crlf > lf {
        LineEnding::CrLf
    } else {
        LineEnding::Lf
    }
}

/// One line of a text: `start..end` is the content without its ending,
/// `end..next` is the ending (`""`, `"\n"` or `"\r\n"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub text: &'a str,
    pub ending: &'a str,
    /// Byte offset of the line's first byte in the whole text.
    pub start: usize,
}

impl<'a> Line<'a> {
    /// Byte offset just past the line's ending.
    pub fn next_start(&self) -> usize {
        self.start + self.text.len() + self.ending.len()
    }
}

/// Iterates the lines of `text` with their endings. A final line without an
/// ending is yielded; a text ending in a newline yields no empty last line.
/// Concatenating `text + ending` of every line gives back `text` exactly.
pub fn lines_with_endings(text: &str) -> impl Iterator<Item = Line<'_>> {
    let mut pos = 0usize;
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let rest = &text[pos..];
        // Eight bytes per step: `find('\n')` verifies each hit with a
        // `memcmp` call, a cost per line (docs/PERFORMANCE.md cut 50).
        let line = match crate::text::swar::find_byte(rest.as_bytes(), b'\n') {
            Some(nl) => {
                let (body, ending) = if nl > 0 && rest.as_bytes()[nl - 1] == b'\r' {
                    (&rest[..nl - 1], &rest[nl - 1..=nl])
                } else {
                    (&rest[..nl], &rest[nl..=nl])
                };
                Line {
                    text: body,
                    ending,
                    start: pos,
                }
            }
            None => Line {
                text: rest,
                ending: "",
                start: pos,
            },
        };
        pos = line.next_start();
        Some(line)
    })
}

/// Number of lines as an editor shows them: `""` has 1, `"a\n"` has 2
/// (the cursor line after the final newline), `"a"` has 1.
pub fn line_count(text: &str) -> usize {
    text.bytes().filter(|&b| b == b'\n').count() + 1
}

/// Removes whole blank lines (only spaces, tabs, `\r`) at both ends, and
/// the newline that separated them from the rest; inner text, indentation
/// and the trailing spaces of a non-blank line are kept.
pub fn trim_blank_lines(text: &str) -> &str {
    // By bytes from both ends (every replacement of a block diff goes
    // through here; two passes over its lines with a char-set trim were
    // 4 % of the dry run, docs/PERFORMANCE.md cut 48). A line is blank
    // when it holds only spaces, tabs and CRs.
    let bytes = text.as_bytes();
    let blank = |b: &u8| matches!(b, b' ' | b'\t' | b'\r' | b'\n');
    let Some(first) = bytes.iter().position(|b| !blank(b)) else {
        return "";
    };
    let last = bytes.iter().rposition(|b| !blank(b)).unwrap_or(first);
    // From the start of the first such line to the end of the last one,
    // without its line break (`\n` or `\r\n`).
    let start = bytes[..first]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |nl| nl + 1);
    let end = match bytes[last..].iter().position(|&b| b == b'\n') {
        Some(nl) if bytes[last + nl - 1] == b'\r' => last + nl - 1,
        Some(nl) => last + nl,
        None => bytes.len(),
    };
    &text[start..end]
}

/// Where the two-byte ASCII `pair` first occurs in `text`: `str::find`
/// of a two-character pattern sets up a Two-Way searcher per call, which
/// cost more than the search in the block diff's per-block IAL scans
/// (docs/PERFORMANCE.md cut 47).
pub(crate) fn find_pair(text: &str, pair: [u8; 2]) -> Option<usize> {
    text.as_bytes().windows(2).position(|w| w == pair)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`trim_blank_lines`] as it was written over lines.
    fn trimmed_by_lines(text: &str) -> &str {
        let is_blank = |l: &Line<'_>| l.text.trim_matches([' ', '\t', '\r']).is_empty();
        let first = lines_with_endings(text).find(|l| !is_blank(l));
        let last = lines_with_endings(text).filter(|l| !is_blank(l)).last();
        match (first, last) {
            (Some(first), Some(last)) => &text[first.start..last.start + last.text.len()],
            _ => "",
        }
    }

    proptest::proptest! {
        /// Blank lines are trimmed as a walk over the lines trims them.
        #[test]
        fn blank_lines_are_trimmed_as_by_lines(text in "[ \t\r\na中\u{c}\u{3000}]{0,16}") {
            proptest::prop_assert_eq!(trim_blank_lines(&text), trimmed_by_lines(&text));
        }
    }

    proptest::proptest! {
        /// A pair is found where `str::find` finds it, in any text
        /// (multi-byte characters included).
        #[test]
        fn pairs_are_found_where_find_finds_them(
            text in "[{:=\"a中🙂 ]{0,24}",
            pair in proptest::sample::select(vec!["{:", "=\"", "::", "a{"]),
        ) {
            let bytes: [u8; 2] = pair.as_bytes().try_into().unwrap();
            proptest::prop_assert_eq!(find_pair(&text, bytes), text.find(pair));
        }
    }

    #[test]
    fn lines_round_trip_with_mixed_endings() {
        for text in [
            "",
            "a",
            "a\n",
            "a\r\nb\nc",
            "\n\n",
            "中文\r\n😀\n",
            "\r",
            "x\r",
        ] {
            let joined: String = lines_with_endings(text)
                .map(|l| format!("{}{}", l.text, l.ending))
                .collect();
            assert_eq!(joined, text);
        }
        let lines: Vec<_> = lines_with_endings("a\r\nb\nc")
            .map(|l| (l.text, l.ending, l.start))
            .collect();
        assert_eq!(lines, vec![("a", "\r\n", 0), ("b", "\n", 3), ("c", "", 5)]);
    }

    #[test]
    fn line_endings_are_detected_by_majority() {
        assert_eq!(detect_line_ending("a\r\nb\r\nc\n"), LineEnding::CrLf);
        assert_eq!(detect_line_ending("a\nb\r\n"), LineEnding::Lf);
        assert_eq!(detect_line_ending("abc"), LineEnding::Lf);
    }

    #[test]
    fn blank_lines_are_trimmed_but_inner_text_and_trailing_spaces_are_kept() {
        assert_eq!(trim_blank_lines("\n\n  a\n\nb  \n \n"), "  a\n\nb  ");
        assert_eq!(trim_blank_lines("\r\n\r\nx\r\n\r\n"), "x");
        assert_eq!(trim_blank_lines("   \n\t\n"), "");
        assert_eq!(trim_blank_lines(""), "");
        assert_eq!(trim_blank_lines("a"), "a");
        assert_eq!(trim_blank_lines("中文\n"), "中文");
    }

    #[test]
    fn bom_is_split_off() {
        assert_eq!(split_bom("\u{feff}x"), (true, "x"));
        assert_eq!(split_bom("x"), (false, "x"));
    }
}

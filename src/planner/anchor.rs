//! Anchor lines: which lines of a file an anchor designates.
//!
//! An anchor is one line of text compared with each line of the file
//! (without its line ending) by an [`AnchorMatch`]:
//! - `contains`: the line contains the anchor;
//! - `equals`: the line equals the anchor once trailing whitespace is
//!   removed from both (leading indentation counts);
//! - `regex`: [`super::regex`], linear time, searched within the line.
//!
//! A trailing newline on the anchor is ignored; an anchor spanning lines
//! is refused, as is an empty one. Start/end blocks pair each start line
//! with the first end line after it (a line that matches both, such as
//! `---`, closes an open block before it can open a new one); a start line
//! inside an open block makes that block nested, and a nested block is
//! refused when it is the one selected (`NESTED_ANCHORS`).
//!
//! Cost: one pass over the lines per anchor.

use super::problem::Problem;
use super::render::plain;
use super::types::{AnchorMatch, Occurrence};
use crate::error::{LineRange, Result};
use crate::lang::Lang;
use regex_lite::Regex;

/// Most candidate locations listed in an error.
pub(crate) const MAX_LISTED_CANDIDATES: usize = 50;

pub(crate) enum Matcher {
    Contains(String),
    Equals(String),
    Regex(Regex),
}

impl Matcher {
    /// Builds the matcher for argument `name` (`anchor`, `startAnchor`, …).
    pub fn new(anchor: &str, mode: AnchorMatch, name: &str, lang: Lang) -> Result<Matcher> {
        let anchor = anchor
            .strip_suffix('\n')
            .map(|a| a.strip_suffix('\r').unwrap_or(a))
            .unwrap_or(anchor);
        if anchor.is_empty() {
            return Err(plain(
                lang,
                &Problem::AnchorEmpty {
                    name: name.to_string(),
                },
            ));
        }
        if anchor.contains(['\n', '\r']) {
            return Err(plain(
                lang,
                &Problem::AnchorMultiline {
                    name: name.to_string(),
                },
            ));
        }
        Ok(match mode {
            AnchorMatch::Contains => Matcher::Contains(anchor.to_string()),
            AnchorMatch::Equals => Matcher::Equals(anchor.trim_end().to_string()),
            AnchorMatch::Regex => {
                let regex = Regex::new(anchor).map_err(|e| {
                    plain(
                        lang,
                        &Problem::InvalidRegex {
                            name: name.to_string(),
                            pattern: anchor.to_string(),
                            error: e.to_string(),
                        },
                    )
                })?;
                Matcher::Regex(regex)
            }
        })
    }

    pub fn is_match(&self, line: &str) -> bool {
        match self {
            Matcher::Contains(a) => line.contains(a.as_str()),
            Matcher::Equals(a) => line.trim_end() == a,
            Matcher::Regex(r) => r.is_match(line),
        }
    }

    /// 0-based indices of every matching line.
    pub fn find(&self, lines: &[&str]) -> Vec<usize> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| self.is_match(l))
            .map(|(i, _)| i)
            .collect()
    }
}

/// Resolves `occurrence` among `count` candidates: the 0-based index, or
/// `None` when it is out of range.
pub(crate) fn pick(occurrence: Occurrence, count: usize) -> Option<usize> {
    match occurrence {
        Occurrence::Last => count.checked_sub(1),
        Occurrence::Nth(n) => {
            let index = usize::try_from(n).ok()?.checked_sub(1)?;
            (index < count).then_some(index)
        }
    }
}

/// `"1"`, `"3"` or `"last"` for YAML (`"1"` when there was one candidate).
pub(crate) fn occurrence_label(occurrence: Option<Occurrence>, count: usize) -> String {
    match occurrence {
        _ if count == 1 => "1".to_string(),
        Some(Occurrence::Last) => "last".to_string(),
        Some(Occurrence::Nth(n)) => n.to_string(),
        None => "1".to_string(),
    }
}

pub(crate) fn occurrence_text(occurrence: Occurrence) -> String {
    match occurrence {
        Occurrence::Last => "last".to_string(),
        Occurrence::Nth(n) => n.to_string(),
    }
}

/// Candidate lines as error details (1-based, at most
/// [`MAX_LISTED_CANDIDATES`]).
pub(crate) fn line_candidates(indices: &[usize]) -> Vec<LineRange> {
    indices
        .iter()
        .take(MAX_LISTED_CANDIDATES)
        .map(|&i| {
            let line = super::types::to_u32(i + 1);
            LineRange::new(line, line)
        })
        .collect()
}

/// One start/end anchor block (0-based, inclusive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Block {
    pub start: usize,
    pub end: usize,
    /// The first start-anchor line found inside the block.
    pub nested: Option<usize>,
}

/// The blocks of a file, and whether any start anchor matched at all.
pub(crate) struct Blocks {
    pub blocks: Vec<Block>,
    pub start_found: bool,
}

pub(crate) fn find_blocks(lines: &[&str], start: &Matcher, end: &Matcher) -> Blocks {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    let mut start_found = false;
    for (i, line) in lines.iter().enumerate() {
        match open.as_mut() {
            Some(block) => {
                if end.is_match(line) {
                    block.end = i;
                    blocks.push(*block);
                    open = None;
                } else if start.is_match(line) && block.nested.is_none() {
                    block.nested = Some(i);
                }
            }
            None => {
                if start.is_match(line) {
                    start_found = true;
                    open = Some(Block {
                        start: i,
                        end: i,
                        nested: None,
                    });
                }
            }
        }
    }
    Blocks {
        blocks,
        start_found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    fn m(anchor: &str, mode: AnchorMatch) -> Matcher {
        Matcher::new(anchor, mode, "anchor", Lang::En).unwrap()
    }

    #[test]
    fn match_modes() {
        let lines = ["fn main() {", "  }  ", "}", "// main"];
        assert_eq!(m("main", AnchorMatch::Contains).find(&lines), vec![0, 3]);
        assert_eq!(m("}", AnchorMatch::Equals).find(&lines), vec![2]);
        assert_eq!(m("  }", AnchorMatch::Equals).find(&lines), vec![1]);
        assert_eq!(m(r"^fn \w+", AnchorMatch::Regex).find(&lines), vec![0]);
        assert_eq!(m("main\n", AnchorMatch::Contains).find(&lines), vec![0, 3]);
    }

    #[test]
    fn bad_anchors_are_refused() {
        let e = Matcher::new("", AnchorMatch::Contains, "anchor", Lang::En)
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        let e = Matcher::new("a\nb", AnchorMatch::Contains, "anchor", Lang::En)
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        let e = Matcher::new("(", AnchorMatch::Regex, "anchor", Lang::Zh)
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::InvalidRegex);
        // regex-lite says what it does not support.
        let e = Matcher::new("(?<=## )Done", AnchorMatch::Regex, "anchor", Lang::En)
            .err()
            .unwrap();
        assert_eq!(e.code, ErrorCode::InvalidRegex);
        assert!(e.message.contains("look-around"), "{}", e.message);
    }

    /// regex-lite's whole syntax is accepted: POSIX classes, hex escapes,
    /// verbose mode (the engine editkit had before refused them).
    #[test]
    fn regex_lite_syntax_is_accepted() {
        let lines = ["## Done: 3 items", "## todo", "- [x] ab"];
        for (pattern, found) in [
            (r"^## [[:upper:]]", vec![0]),
            (r"\x5b\x78\x5d", vec![2]),
            (r"(?x) ^ \#\# \s todo  # a comment", vec![1]),
        ] {
            assert_eq!(
                m(pattern, AnchorMatch::Regex).find(&lines),
                found,
                "{pattern}"
            );
        }
    }

    #[test]
    fn blocks_pair_and_detect_nesting() {
        let lines = ["---", "a", "---", "b", "---", "c", "---"];
        let dash = m("---", AnchorMatch::Equals);
        let b = find_blocks(&lines, &dash, &dash);
        assert_eq!(
            b.blocks,
            vec![
                Block {
                    start: 0,
                    end: 2,
                    nested: None
                },
                Block {
                    start: 4,
                    end: 6,
                    nested: None
                }
            ]
        );
        let lines = ["<a>", "<a>", "</a>", "</a>", "<a>"];
        let b = find_blocks(
            &lines,
            &m("<a>", AnchorMatch::Equals),
            &m("</a>", AnchorMatch::Equals),
        );
        assert_eq!(
            b.blocks,
            vec![Block {
                start: 0,
                end: 2,
                nested: Some(1)
            }]
        );
        assert!(b.start_found);
    }

    #[test]
    fn occurrences() {
        assert_eq!(pick(Occurrence::Last, 3), Some(2));
        assert_eq!(pick(Occurrence::Last, 0), None);
        assert_eq!(pick(Occurrence::Nth(3), 3), Some(2));
        assert_eq!(pick(Occurrence::Nth(4), 3), None);
        assert_eq!(pick(Occurrence::Nth(0), 3), None);
    }
}

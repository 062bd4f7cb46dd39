//! The replacement for a token span whose line breaks are not the
//! search's (`token_flexible` over a re-wrapped paragraph, or code the
//! model wrote on fewer lines): written token by token in the file's own
//! line breaks.
//!
//! The span holds exactly the search's tokens, so the search and the
//! replacement are diffed as token sequences, and:
//!
//! - a run of tokens the replacement keeps is written as the file has it,
//!   with the file's whitespace and line breaks between them (unchanged
//!   words stay on their lines; the rest of the paragraph is not
//!   reflowed);
//! - tokens the replacement changes take the file's separators around
//!   them (a word replaced at the end of a line stays at the end of it),
//!   and the model's between them;
//! - tokens the replacement inserts come after the model's separator and
//!   before the file's (they stand where the model put them: a sentence
//!   added after the last word starts a line when the model started one);
//! - a line the model starts takes the indentation its neighbour has in
//!   the file, shifted as the model shifted it.
//!
//! The line-by-line writer (`fuzzy.rs`) cannot do this: it pairs whole
//! lines, so a paragraph quoted on one line stood for only the first of the
//! file's lines, and the others were lost.

use crate::matcher::indent::IndentMap;
use crate::matcher::normalize::tokens;
use crate::text::{align_lines, LineLink};

/// The replacement for the span `region` (from its first token to its last;
/// `lead_indent` is the indentation of the file line it starts on) written
/// in the region's own line breaks, or `None` when the region's tokens are
/// not the search's.
pub(super) fn rewrapped(
    region: &str,
    lead_indent: &str,
    search: &str,
    replace: &str,
) -> Option<String> {
    let mut file = Tokens::of(region);
    file.first_indent = lead_indent;
    let model_search = Tokens::of(search);
    if file.texts() != model_search.texts() {
        return None;
    }
    let model = Tokens::of(replace);
    if model.spans.is_empty() {
        return Some(String::new());
    }
    let s_texts = model_search.texts();
    let r_texts = model.texts();
    let kept: Vec<Option<usize>> = align_lines(&s_texts, &r_texts)
        .into_iter()
        .map(|link| match link {
            LineLink::Equal(i) => Some(i),
            _ => None,
        })
        .collect();
    let writer = Writer {
        file: &file,
        model: &model,
        kept: &kept,
    };
    let mut out = String::with_capacity(region.len() + replace.len());
    for (j, keeps) in kept.iter().enumerate() {
        let text = match *keeps {
            Some(i) => file.text(i),
            None => model.text(j),
        };
        if j > 0 {
            let mut sep = writer.separator_before(j);
            // A token that would start a line it did not start (in the
            // file, or in the model's text) could turn the line into a
            // list item, a heading or a quote: it stays on the line.
            let started = match *keeps {
                Some(i) => file.separator(i).contains('\n'),
                None => model.separator(j).contains('\n'),
            };
            if sep.contains('\n') && !started && opens_block(text) {
                sep = " ".to_string();
            }
            out.push_str(&sep);
        }
        out.push_str(text);
    }
    Some(out)
}

/// A token that, at the start of a line, makes a Markdown block: a bullet,
/// a heading or quote marker, an ordered item's number.
fn opens_block(token: &str) -> bool {
    matches!(token, "-" | "*" | "+" | ">" | "=")
        || token.starts_with('#')
        || (token.len() <= 10
            && token.ends_with(['.', ')'])
            && token[..token.len() - 1].chars().all(|c| c.is_ascii_digit()))
}

/// A text's tokens, by byte span.
struct Tokens<'a> {
    text: &'a str,
    spans: Vec<(usize, usize)>,
    /// The indentation of the text's first line when the text starts
    /// after it (a span from its first token).
    first_indent: &'a str,
}

impl<'a> Tokens<'a> {
    fn of(text: &'a str) -> Tokens<'a> {
        Tokens {
            text,
            spans: tokens(text).collect(),
            first_indent: "",
        }
    }

    fn text(&self, i: usize) -> &'a str {
        self.spans
            .get(i)
            .and_then(|&(s, e)| self.text.get(s..e))
            .unwrap_or("")
    }

    fn texts(&self) -> Vec<&'a str> {
        (0..self.spans.len()).map(|i| self.text(i)).collect()
    }

    /// The whitespace between token `i - 1` and token `i`, line breaks as
    /// LF (the caller writes the region's endings).
    fn separator(&self, i: usize) -> String {
        let (Some(prev), Some(next)) = (
            i.checked_sub(1).and_then(|p| self.spans.get(p)),
            self.spans.get(i),
        ) else {
            return String::new();
        };
        self.text
            .get(prev.1..next.0)
            .unwrap_or("")
            .replace("\r\n", "\n")
    }

    /// The indentation of the line holding token `i`.
    fn indent_at(&self, i: usize) -> &'a str {
        let at = self.spans.get(i).map_or(0, |s| s.0);
        let Some(start) = self.text[..at].rfind('\n').map(|p| p + 1) else {
            let line = self.text;
            let own = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
            return if own.is_empty() {
                self.first_indent
            } else {
                own
            };
        };
        let line = &self.text[start..];
        &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
    }
}

struct Writer<'w, 'a> {
    file: &'w Tokens<'a>,
    model: &'w Tokens<'a>,
    /// For each replacement token, the search token it keeps.
    kept: &'w [Option<usize>],
}

impl Writer<'_, '_> {
    /// The search token kept by the nearest replacement token before `j`
    /// (exclusive), and after `j` (inclusive).
    fn kept_before(&self, j: usize) -> Option<usize> {
        self.kept[..j].iter().rev().find_map(|k| *k)
    }

    fn kept_from(&self, j: usize) -> Option<usize> {
        self.kept[j..].iter().find_map(|k| *k)
    }

    /// What separates replacement tokens `j - 1` and `j`.
    fn separator_before(&self, j: usize) -> String {
        match (self.kept[j - 1], self.kept[j]) {
            // Inside a kept run: the file's own whitespace.
            (Some(a), Some(b)) if b == a + 1 => self.file.separator(b),
            // Search tokens a+1..b dropped: the separator on whichever side
            // breaks the line, so two lines never merge.
            (Some(a), Some(b)) => {
                let (before, after) = (self.file.separator(a + 1), self.file.separator(b));
                if after.contains('\n') && !before.contains('\n') {
                    after
                } else {
                    before
                }
            }
            // Changed or inserted tokens start after kept token a: the file's
            // separator when they replace search tokens, else the model's.
            (Some(a), None) => match self.kept_from(j) {
                Some(b) if b > a + 1 => self.file.separator(a + 1),
                // Up to the end: replacing the search's last tokens, or
                // appended after them.
                None if a + 1 < self.file.spans.len() => self.file.separator(a + 1),
                _ => self.model_separator(j),
            },
            // They end before kept token b: the file's separator unless they
            // were inserted before the very first token.
            (None, Some(b)) => match self.kept_before(j) {
                None if b == 0 => self.model_separator(j),
                _ => self.file.separator(b),
            },
            (None, None) => self.model_separator(j),
        }
    }

    /// The model's separator before its token `j`; a line it starts is
    /// indented like the file's line of the nearest kept token, shifted as
    /// the model shifted it.
    fn model_separator(&self, j: usize) -> String {
        let sep = self.model.separator(j);
        let Some(nl) = sep.rfind('\n') else {
            return sep;
        };
        let anchor = (0..j)
            .rev()
            .chain(j..self.kept.len())
            .find_map(|k| self.kept[k].map(|i| (k, i)));
        let Some((k, i)) = anchor else {
            return sep;
        };
        let (model_indent, file_indent) = (self.model.indent_at(k), self.file.indent_at(i));
        let written = &sep[nl + 1..];
        let indent = IndentMap::infer(&[(model_indent, file_indent)])
            .and_then(|map| map.apply(written))
            .unwrap_or_else(|| file_indent.to_string());
        format!("{}{indent}", &sep[..=nl])
    }
}

#[cfg(test)]
mod tests {
    use super::rewrapped;

    /// (file span, search, replacement, expected).
    const CASES: &[(&str, &str, &str, &str)] = &[
        // A sentence added after a paragraph quoted on one line: the
        // paragraph keeps its break, the sentence starts its own line.
        (
            "see the\n[Test Coverage section][].",
            "see the [Test Coverage section][].",
            "see the [Test Coverage section][].\nThis works on Linux.",
            "see the\n[Test Coverage section][].\nThis works on Linux.",
        ),
        // A word changed at the end of a line stays there; the next line
        // is untouched.
        (
            "one two three\nfour five",
            "one two three four five",
            "one two THREE four five",
            "one two THREE\nfour five",
        ),
        // A word changed at the start of a line stays there.
        (
            "variable on\nWindows.",
            "variable on Windows.",
            "variable on EDITKIT_W9.",
            "variable on\nEDITKIT_W9.",
        ),
        // A word inserted at a line end: after the model's space, before
        // the file's break.
        (
            "alpha beta\ngamma",
            "alpha beta gamma",
            "alpha beta delta gamma",
            "alpha beta delta\ngamma",
        ),
        // A word dropped at the start of a line: the break survives.
        (
            "alpha\nbeta gamma",
            "alpha beta gamma",
            "alpha gamma",
            "alpha\ngamma",
        ),
        // Code written on one line by the model: the file's lines and
        // indentation stay, the changed call is written in place.
        (
            "if (a) {\n    x();\n}",
            "if(a){x();}",
            "if(a){y();}",
            "if (a) {\n    y();\n}",
        ),
        // A new line the model adds takes its neighbour's indentation.
        (
            "first line\n  second line",
            "first line second line",
            "first line second line\nthird line",
            "first line\n  second line\n  third line",
        ),
        // CRLF in the span is written as LF (the caller restores endings).
        ("a b\r\nc d", "a b c d", "a b c d e", "a b\nc d e"),
        // Everything deleted.
        ("a\nb", "a b", "", ""),
        // A deletion never moves a bullet, a number or a heading marker to
        // a line start.
        (
            "first\nthen - as noted - stop.",
            "first then - as noted - stop.",
            "first - as noted - stop.",
            "first - as noted - stop.",
        ),
        (
            "first\nthen 2. stop.",
            "first then 2. stop.",
            "first 2. stop.",
            "first 2. stop.",
        ),
        (
            "first\nthen # note",
            "first then # note",
            "first # note",
            "first # note",
        ),
    ];

    #[test]
    fn replacements_keep_the_files_line_breaks() {
        for &(region, search, replace, expected) in CASES {
            assert_eq!(
                rewrapped(region, "  ", search, replace).as_deref(),
                Some(expected),
                "{region:?} / {replace:?}"
            );
        }
    }

    #[test]
    fn a_span_with_other_tokens_is_not_rewritten() {
        assert_eq!(rewrapped("a b\nc", "", "a b d", "a b d e"), None);
    }
}

//! Typographic quotes in the replacement, written the way the matched
//! region writes them (SPEC §6.1, strategy 7): straight quotes the model
//! typed in changed lines become the region's curly ones (one character,
//! or opening and closing pairs), curly ones it typed where the region is
//! straight become straight, and where the region curls quotes only in
//! code comments, only comments are restyled. A style that is not one
//! of these is refused (`Unmappable::Quotes`), never guessed.
//!
//! Kept apart because it is a concern of its own, asked for by `lines.rs`
//! line by line through [`Quotes`], and its comment finder is a small
//! lexer.

use crate::matcher::fidelity::Piece;
use crate::matcher::normalize::{for_each_key_char, Level};
use crate::matcher::types::Unmappable;

/// How the replacement's own quotes are written in a matched region.
#[derive(Clone, Copy)]
pub(super) struct Quotes {
    /// Curly quotes stand only in the comments of code lines (no sign that
    /// code wants them): new quotes are curled in comments only.
    comments_only: bool,
    /// The region's style of each straight quote.
    styles: [(char, QuoteStyle); 2],
    /// `(ascii, open, close, yes)`: the search wrote curly quotes where the
    /// region is straight, so curly ones the model typed become straight.
    straighten: [(char, char, char, bool); 2],
}

impl Quotes {
    /// The rules for a match; only a folded one (strategy 7) restyles.
    pub(super) fn of(folded: bool, s_lines: &[&str], f_lines: &[&str]) -> Quotes {
        let pairs: Vec<(&str, &str)> = s_lines
            .iter()
            .copied()
            .zip(f_lines.iter().copied())
            .collect();
        let styles = if folded {
            [
                ('"', quote_style(&pairs, '"', '\u{201c}', '\u{201d}')),
                ('\'', quote_style(&pairs, '\'', '\u{2018}', '\u{2019}')),
            ]
        } else {
            [('"', QuoteStyle::Straight), ('\'', QuoteStyle::Straight)]
        };
        let straighten = [
            (
                '"',
                '\u{201c}',
                '\u{201d}',
                folded && straightened(&pairs, '"', '\u{201c}', '\u{201d}'),
            ),
            (
                '\'',
                '\u{2018}',
                '\u{2019}',
                folded && straightened(&pairs, '\'', '\u{2018}', '\u{2019}'),
            ),
        ];
        Quotes {
            comments_only: folded && styled_only_in_comments(f_lines),
            styles,
            straighten,
        }
    }

    fn straighten(&self, mut text: String) -> String {
        for (ascii, open, close, yes) in self.straighten {
            if yes {
                text = text.replace([open, close], ascii.encode_utf8(&mut [0; 4]));
            }
        }
        text
    }

    /// A changed line from its pieces: the file's pieces as they are, the
    /// model's with their quotes in the region's style (`n`: the line's
    /// 1-based number, for a refusal).
    pub(super) fn write_pieces(
        &self,
        indent: &str,
        pieces: Vec<Piece>,
        n: usize,
    ) -> Result<String, Unmappable> {
        let mut written = indent.to_string();
        for piece in pieces {
            if piece.from_file {
                written.push_str(&piece.text);
                continue;
            }
            let text = self.straighten(piece.text);
            // Where quotes are curled in comments only, the part of this
            // piece before the line's comment stays as written.
            let from = match self.comments_only {
                false => 0,
                true => match comment_start(&format!("{written}{text}")) {
                    Some(c) => c.saturating_sub(written.len()).min(text.len()),
                    None => text.len(),
                },
            };
            let (code, mut tail) = (text[..from].to_string(), text[from..].to_string());
            written.push_str(&code);
            for (ascii, style) in self.styles {
                tail = restyle_quotes(written.chars().last(), &tail, ascii, style, n)?;
            }
            written.push_str(&tail);
        }
        Ok(written)
    }

    /// A new or rewritten line with its quotes in the region's style.
    pub(super) fn restyle_line(&self, line: String, n: usize) -> Result<String, Unmappable> {
        let mut written = self.straighten(line);
        let from = match self.comments_only {
            false => 0,
            true => comment_start(&written).unwrap_or(written.len()),
        };
        let mut tail = written.split_off(from);
        for (ascii, style) in self.styles {
            tail = apply_quote_style(&tail, ascii, style, n)?;
        }
        written.push_str(&tail);
        Ok(written)
    }
}

/// Straight-quote style of a matched region, per quote character.
#[derive(Clone, Copy, Debug, PartialEq)]
enum QuoteStyle {
    /// Written straight in the file too (or absent).
    Straight,
    /// Always this one character.
    Single(char),
    /// Opening and closing characters alternating on each line.
    Pair(char, char),
    /// More than one way: cannot be mapped.
    Mixed,
}

fn quote_style(pairs: &[(&str, &str)], ascii: char, open: char, close: char) -> QuoteStyle {
    let mut seen: Vec<Vec<char>> = Vec::new();
    for &(s, f) in pairs {
        let (mut s_orig, mut f_orig) = (Vec::new(), Vec::new());
        for_each_key_char(s, Level::Fold, |k, o| s_orig.push((k, o)));
        for_each_key_char(f, Level::Fold, |k, o| f_orig.push((k, o)));
        let line: Vec<char> = s_orig
            .iter()
            .zip(&f_orig)
            .filter(|((k, so), _)| *k == ascii && *so == ascii)
            .map(|(_, (_, fo))| *fo)
            .collect();
        seen.push(line);
    }
    let all: Vec<char> = seen.iter().flatten().copied().collect();
    if all.iter().all(|&c| c == ascii) {
        return QuoteStyle::Straight;
    }
    if let Some(&first) = all.first() {
        if all.iter().all(|&c| c == first) && first != ascii {
            return QuoteStyle::Single(first);
        }
    }
    let alternates = seen.iter().all(|line| {
        line.len() % 2 == 0
            && line
                .iter()
                .enumerate()
                .all(|(i, &c)| c == if i % 2 == 0 { open } else { close })
    });
    if alternates {
        QuoteStyle::Pair(open, close)
    } else {
        QuoteStyle::Mixed
    }
}

/// Whether the search wrote typographic quotes (`open`/`close`) where the
/// matched region has the straight `ascii` one, every time it did so: then
/// the model's curly quotes in changed replacement lines are a slip to undo.
fn straightened(pairs: &[(&str, &str)], ascii: char, open: char, close: char) -> bool {
    let mut any = false;
    for &(s, f) in pairs {
        let (mut s_orig, mut f_orig) = (Vec::new(), Vec::new());
        for_each_key_char(s, Level::Fold, |k, o| s_orig.push((k, o)));
        for_each_key_char(f, Level::Fold, |k, o| f_orig.push((k, o)));
        for ((k, so), (_, fo)) in s_orig.iter().zip(&f_orig) {
            if *k == ascii && (*so == open || *so == close) {
                if *fo != ascii {
                    return false;
                }
                any = true;
            }
        }
    }
    any
}

fn apply_quote_style(
    line: &str,
    ascii: char,
    style: QuoteStyle,
    n: usize,
) -> Result<String, Unmappable> {
    match style {
        QuoteStyle::Straight => Ok(line.to_string()),
        _ if !line.contains(ascii) => Ok(line.to_string()),
        QuoteStyle::Single(c) => Ok(line.replace(ascii, c.encode_utf8(&mut [0; 4]))),
        QuoteStyle::Pair(open, close) => {
            if line.matches(ascii).count() % 2 != 0 {
                return Err(Unmappable::Quotes(n, ascii));
            }
            let mut k = 0usize;
            Ok(line
                .chars()
                .map(|c| {
                    if c != ascii {
                        return c;
                    }
                    k += 1;
                    if k % 2 == 1 {
                        open
                    } else {
                        close
                    }
                })
                .collect())
        }
        QuoteStyle::Mixed => Err(Unmappable::Quotes(n, ascii)),
    }
}

/// Quotes in a piece of a changed line written in the region's style: a
/// pair's opening or closing form chosen by what precedes each quote (the
/// rest of the line is the file's, so counting cannot decide).
fn restyle_quotes(
    before: Option<char>,
    text: &str,
    ascii: char,
    style: QuoteStyle,
    n: usize,
) -> Result<String, Unmappable> {
    match style {
        QuoteStyle::Pair(open, close) => {
            let mut out = String::with_capacity(text.len());
            let mut prev = before;
            for c in text.chars() {
                let written = if c != ascii {
                    c
                } else if prev.is_none_or(|p| {
                    // After a space, an opening bracket or punctuation, a
                    // dash, or the other kind's opening quote (`“‘`); right
                    // after its own opening quote it closes (`“”`).
                    p.is_whitespace()
                        || "([{<=:,;—–-/".contains(p)
                        || (matches!(p, '\u{201c}' | '\u{2018}') && p != open)
                }) {
                    open
                } else {
                    close
                };
                out.push(written);
                prev = Some(written);
            }
            Ok(out)
        }
        _ => apply_quote_style(text, ascii, style, n),
    }
}

/// Where a code comment starts on `line` (`#`, `//`, `/*`, `--`, `<!--`,
/// or a leading `*` of a block comment), outside straight-quoted strings.
fn comment_start(line: &str) -> Option<usize> {
    let body = line.trim_start();
    let lead = line.len() - body.len();
    if body.starts_with('*') && !body.starts_with("*/") {
        return Some(lead);
    }
    let mut quote: Option<char> = None;
    let mut prev: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        match quote {
            Some(q) => {
                if c == '\\' {
                    chars.next();
                } else if c == q {
                    quote = None;
                }
            }
            None => {
                let spaced = prev.is_none_or(char::is_whitespace);
                let apostrophe = c == '\''
                    && prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric);
                if (c == '"' || c == '\'' || c == '`') && !apostrophe {
                    quote = Some(c);
                } else if (c == '#' && spaced)
                    || (c == '/' && matches!(next, Some('/' | '*')))
                    || (c == '-' && spaced && next == Some('-'))
                    || line[i..].starts_with("<!--")
                {
                    return Some(i);
                }
            }
        }
        prev = Some(c);
    }
    None
}

/// Whether every file line that has a curly quote has it only inside a
/// code comment (and at least one line has one).
fn styled_only_in_comments(f_lines: &[&str]) -> bool {
    let curly = |c: char| matches!(c, '\u{201c}' | '\u{201d}' | '\u{2018}' | '\u{2019}');
    let mut any = false;
    for f in f_lines {
        let Some(first) = f.find(curly) else { continue };
        match comment_start(f) {
            Some(c) if c < first => any = true,
            _ => return false,
        }
    }
    any
}

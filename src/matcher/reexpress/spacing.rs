//! Spacing slips on the lines the model wrote new (issues 35 and 43): the
//! trailing whitespace or the doubled inner spaces its search lines carry
//! where the file's have none, which its new lines carry for the same
//! reason. A new line loses them — outside string literals, in code and in
//! comments alike — when the search shows the slip consistently.
//!
//! Where a space is text and where it is layout is read by a small lexer
//! that knows what every language the matcher sees shares: quoted strings
//! (`"…"`, `'…'`, `` `…` ``, Rust's `r#"…"#`), comments (`//`, `/* */`,
//! `#`), and that a `/` outside them may open a regular expression. It errs
//! towards "text": a span it cannot read (a `'` that may be a lifetime, a
//! string left open at the line's end, a `/` that may start a regex) keeps
//! its spaces as written.

use crate::matcher::normalize::{indent_of, is_blank, key, Level};

/// What the lexer is inside at a line boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Code,
    /// A string or regex that runs on (its spaces are text).
    Text,
    /// A block comment that runs on.
    Comment,
}

/// Which bytes of `line` are text (inside a string, a character literal, a
/// template or a possible regex, where a space is content), starting in
/// `state`; and the state the line ends in.
fn text_bytes(line: &str, state: State) -> (Vec<bool>, State) {
    let b = line.as_bytes();
    let mut text = vec![false; b.len()];
    let mut k = 0;
    let mut state = state;
    while k < b.len() {
        match state {
            State::Comment => match b[k..].windows(2).position(|w| w == b"*/") {
                Some(p) => {
                    k += p + 2;
                    state = State::Code;
                }
                None => return (text, State::Comment),
            },
            State::Text => {
                text[k..].iter_mut().for_each(|t| *t = true);
                return (text, State::Text);
            }
            State::Code => {
                let c = b[k];
                if b[k..].starts_with(b"//") {
                    return (text, State::Code);
                }
                if b[k..].starts_with(b"/*") {
                    state = State::Comment;
                    k += 2;
                    continue;
                }
                if c == b'/' {
                    // A division or a regex: the rest of the line is read
                    // as text (a regex ends on its line).
                    text[k..].iter_mut().for_each(|t| *t = true);
                    return (text, State::Code);
                }
                let close = match c {
                    b'"' => raw_string_end(line, k).or_else(|| quoted_end(b, k, b'"')),
                    b'`' => quoted_end(b, k, b'`'),
                    b'\'' => quoted_end(b, k, b'\''),
                    _ => {
                        k += 1;
                        continue;
                    }
                };
                match close {
                    Some(end) => {
                        text[k..end].iter_mut().for_each(|t| *t = true);
                        k = end;
                    }
                    None => state = State::Text,
                }
            }
        }
    }
    (text, state)
}

/// The end (exclusive) of the string quoted by `q` at `at`, escapes
/// skipped; `None` when it does not close on the line.
fn quoted_end(b: &[u8], at: usize, q: u8) -> Option<usize> {
    let mut k = at + 1;
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            x if x == q => return Some(k + 1),
            _ => k += 1,
        }
    }
    None
}

/// A Rust raw string `r"…"` / `r#"…"#` whose quote is at `at`: its end.
fn raw_string_end(line: &str, at: usize) -> Option<usize> {
    let head = &line[..at];
    let hashes = head.len() - head.trim_end_matches('#').len();
    if !head[..at - hashes].ends_with('r') {
        return None;
    }
    let closing = format!("\"{}", "#".repeat(hashes));
    line[at + 1..]
        .find(&closing)
        .map(|p| at + 1 + p + closing.len())
}

/// A line read from the start of code: which bytes are text; `None` when
/// a string is left open at its end. A line whose every
/// `'` is a Rust lifetime or character literal (`&'a str`, `'x'`) is read
/// with its lifetimes as code; any other `'` quotes a string.
fn read_line(line: &str) -> Option<Vec<bool>> {
    // A block comment's continuation line (` * text`, ` */`): all comment,
    // backticks and quotes included.
    let body = line.trim_start();
    if body == "*" || body.starts_with("* ") || body.starts_with("*/") {
        return Some(vec![false; line.len()]);
    }
    let masked;
    let line_read = match lifetimes(line) {
        Some(at) if !at.is_empty() => {
            let mut bytes = line.as_bytes().to_vec();
            at.iter().for_each(|&k| bytes[k] = b' ');
            masked = String::from_utf8(bytes).ok()?;
            masked.as_str()
        }
        _ => line,
    };
    // A block comment may run on (its spaces are layout); a string may not.
    let (text, end) = text_bytes(line_read, State::Code);
    (end != State::Text).then_some(text)
}

/// The offsets of the line's lifetimes when every `'` on it is one or is
/// part of a character literal; `None` when some `'` is neither (it
/// quotes a string).
fn lifetimes(line: &str) -> Option<Vec<usize>> {
    let b = line.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut at = Vec::new();
    let mut k = 0;
    while k < b.len() {
        if b[k] != b'\'' {
            k += 1;
            continue;
        }
        // A character literal: 'x' or '\…'.
        let char_end = if b.get(k + 1) == Some(&b'\\') {
            quoted_end(b, k, b'\'')
        } else {
            let c = line[k + 1..].chars().next()?;
            (b.get(k + 1 + c.len_utf8()) == Some(&b'\'')).then(|| k + 2 + c.len_utf8())
        };
        if let Some(end) = char_end {
            k = end;
            continue;
        }
        let name = b[k + 1..].iter().take_while(|&&c| ident(c)).count();
        let starts_ident = b
            .get(k + 1)
            .is_some_and(|&c| c.is_ascii_alphabetic() || c == b'_');
        if !starts_ident || b.get(k + 1 + name) == Some(&b'\'') {
            return None;
        }
        at.push(k);
        k += 1 + name;
    }
    Some(at)
}

/// The runs of whitespace between the non-blank characters of `line`.
fn inner_runs(line: &str) -> Vec<&str> {
    let t = line.trim();
    let mut runs = Vec::new();
    let mut start = None;
    for (k, c) in t.char_indices() {
        match (c == ' ' || c == '\t', start) {
            (true, None) => start = Some(k),
            (false, Some(s0)) => {
                runs.push(&t[s0..k]);
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// Spacing the model's search lines carry and the file's lines do not.
#[derive(Default)]
pub(super) struct SpacingSlips {
    /// Trailing whitespace the search lines have where the file's have
    /// none (no file line of the match has any).
    trailing: Vec<String>,
    /// The model doubles single spaces as a habit: every inner run where a
    /// search line differs from its file line is two spaces for one, on
    /// at least two lines; no file line of the match has a run of exactly two outside
    /// its strings, and every file line ends in code (no string of the
    /// match runs over a line end).
    doubled: bool,
}

impl SpacingSlips {
    pub(super) fn of(s_lines: &[&str], f_lines: &[&str]) -> SpacingSlips {
        let tail = |l: &str| l[l.trim_end().len()..].to_string();
        let pairs = || {
            s_lines
                .iter()
                .zip(f_lines)
                .filter(|(s, f)| !is_blank(s) && !is_blank(f))
        };
        let mut out = SpacingSlips::default();
        if pairs().all(|(_, f)| tail(f).is_empty()) {
            for (s, _) in pairs() {
                let t = tail(s);
                if !t.is_empty() && !out.trailing.contains(&t) {
                    out.trailing.push(t);
                }
            }
        }
        // Per line that could show it (a single inner space): whether it
        // shows the slip, and whether every run it changed is "  " for " ".
        let mut shown = Vec::new();
        for (s, f) in pairs() {
            let (rs, rf) = (inner_runs(s), inner_runs(f));
            if !rf.contains(&" ") || key(s, Level::Collapse) != key(f, Level::Collapse) {
                continue;
            }
            let changed: Vec<(&str, &str)> =
                rs.into_iter().zip(rf).filter(|(a, b)| a != b).collect();
            shown.push(
                (!changed.is_empty()).then(|| changed.iter().all(|&(a, b)| a == "  " && b == " ")),
            );
        }
        // One slipped line is no habit: a window inside a docstring cannot
        // tell its column alignment from a slip.
        let slipped = shown.iter().filter(|s| **s == Some(true)).count();
        let consistent = shown.iter().all(|s| *s != Some(false)) && slipped >= 2;
        out.doubled = consistent
            && f_lines
                .iter()
                .all(|f| read_line(f).is_some_and(|text| !has_double_run(f, &text)));
        out
    }

    /// A new line without the slips: its trailing whitespace when the
    /// search lines carry the same; with the doubling habit, its runs of
    /// exactly two spaces outside strings and not before a comment
    /// (`  #`, `  //`, `  /*`: a style of its own).
    pub(super) fn undo(&self, line: String) -> String {
        let mut line = line;
        let body_len = line.trim_end().len();
        if self.trailing.iter().any(|t| line[body_len..] == **t) {
            line.truncate(body_len);
        }
        if self.doubled {
            if let Some(text) = read_line(&line) {
                line = undoubled(&line, &text);
            }
        }
        line
    }
}

/// Whether `line` has a run of exactly two spaces outside its strings,
/// after its indentation.
fn has_double_run(line: &str, text: &[bool]) -> bool {
    double_runs(line, text).next().is_some()
}

/// The byte offsets of the second space of each run of exactly two spaces
/// after the indentation and outside strings, not before a comment.
fn double_runs<'a>(line: &'a str, text: &'a [bool]) -> impl Iterator<Item = usize> + 'a {
    let b = line.as_bytes();
    let indent = indent_of(line).len();
    (indent + 2..b.len()).filter(move |&k| {
        b[k] == b' '
            && b[k - 1] == b' '
            && b[k - 2] != b' '
            && b[k - 2] != b'\t'
            && b.get(k + 1).is_some_and(|&n| n != b' ' && n != b'\t')
            && !text[k]
            && !text[k - 1]
            && ![&b"#"[..], b"//", b"/*"]
                .iter()
                .any(|m| b[k + 1..].starts_with(m))
    })
}

/// `line` with every run of exactly two spaces outside strings and not
/// before a comment written as one space.
fn undoubled(line: &str, text: &[bool]) -> String {
    let drop: Vec<usize> = double_runs(line, text).collect();
    let mut out = String::with_capacity(line.len());
    for (k, c) in line.char_indices() {
        if !drop.contains(&k) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undo(s: &[&str], f: &[&str], line: &str) -> String {
        SpacingSlips::of(s, f).undo(line.to_string())
    }

    #[test]
    fn doubled_spaces_go_outside_strings_comments_included() {
        let f = ["let x = 1;", "/// A doc comment here", "fn go(a: u8) {}"];
        let s = ["let  x = 1;", "///  A doc comment here", "fn  go(a: u8) {}"];
        assert_eq!(undo(&s, &f, "///  New  words"), "/// New words");
        assert_eq!(
            undo(&s, &f, "let  y = \"a  b\";  // note"),
            "let y = \"a  b\";  // note"
        );
        assert_eq!(undo(&s, &f, "let  c = 'a  b';"), "let c = 'a  b';");
        assert_eq!(
            undo(&s, &f, "let  r = r#\"a  \"b\"#;"),
            "let r = r#\"a  \"b\"#;"
        );
        // A lifetime is code; a `/` may open a regex, the rest is text.
        assert_eq!(
            undo(&s, &f, "fn  f<'a>(x:  &'a str)"),
            "fn f<'a>(x: &'a str)"
        );
        assert_eq!(undo(&s, &f, "let  re = /a  b/;"), "let re = /a  b/;");
        // A string left open: the line is not touched.
        assert_eq!(undo(&s, &f, "let  s = \"open  "), "let  s = \"open  ");
    }

    #[test]
    fn one_slipped_line_is_no_habit() {
        let f = ["const N: u8 = 1;", "\"abc\""];
        assert_eq!(
            undo(&["const  N: u8 = 1;", "\"abc\""], &f, "const  M: u8 = 2;"),
            "const  M: u8 = 2;"
        );
        let f = ["const N: u8 = 1;", "let x = 2;"];
        assert_eq!(
            undo(&["const  N: u8 = 1;", "let x = 2;"], &f, "let  y = 3;"),
            "let  y = 3;"
        );
    }

    #[test]
    fn a_string_over_a_line_end_or_a_double_run_in_the_file_keeps_new_lines_as_written() {
        let s = ["let  a = \"", "x  y\";", "let  b = 2;"];
        let f = ["let a = \"", "x  y\";", "let b = 2;"];
        assert_eq!(undo(&s, &f, "let  c = 3;"), "let  c = 3;");
        let f = ["let a  = 1;", "let b = 2;", "let c = 3;"];
        let s = ["let a  = 1;", "let  b = 2;", "let  c = 3;"];
        assert_eq!(undo(&s, &f, "let  d = 4;"), "let  d = 4;");
    }
}

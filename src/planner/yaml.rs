//! A tiny YAML emitter for the agent-facing summaries (seed 001 §8).
//!
//! Only what the summaries need: `key: value` scalars, nested maps by
//! indentation and flow sequences of strings. Strings are always quoted
//! (single quotes, or double quotes with escapes when they hold control
//! characters), so a line of a file can never be mistaken for YAML syntax.
//! The output has no trailing newline.

use std::fmt::Display;

/// Longest preview line, in chars; longer lines end in `…`.
pub(crate) const PREVIEW_MAX_CHARS: usize = 160;

pub(crate) struct Yaml {
    out: String,
    indent: usize,
}

impl Yaml {
    pub fn new() -> Self {
        Yaml {
            out: String::with_capacity(512),
            indent: 0,
        }
    }

    fn key(&mut self, key: &str) {
        if !self.out.is_empty() {
            self.out.push('\n');
        }
        for _ in 0..self.indent {
            self.out.push(' ');
        }
        self.out.push_str(key);
        self.out.push(':');
    }

    /// A plain scalar: numbers, booleans, fixed enum words.
    pub fn raw(&mut self, key: &str, value: impl Display) -> &mut Self {
        self.key(key);
        self.out.push(' ');
        self.out.push_str(&value.to_string());
        self
    }

    /// A quoted string.
    pub fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        self.out.push(' ');
        self.out.push_str(&quote(value));
        self
    }

    /// A flow sequence of quoted strings: `key: ['a', 'b']`.
    pub fn list<S: AsRef<str>>(&mut self, key: &str, items: &[S]) -> &mut Self {
        self.key(key);
        self.out.push_str(" [");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&quote(item.as_ref()));
        }
        self.out.push(']');
        self
    }

    /// A flow sequence of numbers: `key: [3, 9]`.
    pub fn numbers(&mut self, key: &str, items: &[usize]) -> &mut Self {
        self.key(key);
        self.out.push_str(" [");
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(&item.to_string());
        }
        self.out.push(']');
        self
    }

    /// Opens a nested map under `key`; close it with [`Yaml::close`].
    pub fn open(&mut self, key: &str) -> &mut Self {
        self.key(key);
        self.indent += 2;
        self
    }

    pub fn close(&mut self) -> &mut Self {
        self.indent = self.indent.saturating_sub(2);
        self
    }

    pub fn finish(self) -> String {
        self.out
    }
}

/// A YAML string literal for `s`: single-quoted (`'` doubled) when every
/// char is printable, else double-quoted with escapes.
pub(crate) fn quote(s: &str) -> String {
    let needs_escape = |c: char| {
        c != '\t' && (c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{feff}'))
    };
    if !s.chars().any(needs_escape) {
        let mut out = String::with_capacity(s.len() + 2);
        out.push('\'');
        for c in s.chars() {
            if c == '\'' {
                out.push('\'');
            }
            out.push(c);
        }
        out.push('\'');
        return out;
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if needs_escape(c) => {
                let code = u32::from(c);
                if code <= 0xff {
                    out.push_str(&format!("\\x{code:02x}"));
                } else {
                    out.push_str(&format!("\\u{code:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A line shortened to [`PREVIEW_MAX_CHARS`] chars for a preview.
pub(crate) fn preview_line(line: &str) -> String {
    match line.char_indices().nth(PREVIEW_MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_string(),
    }
}

/// Previews of a run of lines: all of them when there are at most six,
/// else the first three, `…`, the last three.
pub(crate) fn preview_block<S: AsRef<str>>(lines: &[S]) -> Vec<String> {
    if lines.len() <= 6 {
        return lines.iter().map(|l| preview_line(l.as_ref())).collect();
    }
    let mut out: Vec<String> = lines[..3]
        .iter()
        .map(|l| preview_line(l.as_ref()))
        .collect();
    out.push("…".to_string());
    out.extend(
        lines[lines.len() - 3..]
            .iter()
            .map(|l| preview_line(l.as_ref())),
    );
    out
}

/// A number as YAML prints it: integral values without a fraction, others
/// to the thousandth (a time in milliseconds, to the microsecond).
pub(crate) fn number(value: f64) -> String {
    let text = format!("{value:.3}");
    match text.split_once('.') {
        Some((whole, fraction)) => {
            let fraction = fraction.trim_end_matches('0');
            if fraction.is_empty() {
                whole.to_string()
            } else {
                format!("{whole}.{fraction}")
            }
        }
        None => text,
    }
}

/// Wraps `body` in a Markdown code fence longer than any backtick run
/// inside it.
pub(crate) fn fence(info: &str, body: &str) -> String {
    let mut longest = 0usize;
    let mut run = 0usize;
    for c in body.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let ticks = "`".repeat(longest.max(2) + 1);
    let newline = if body.ends_with('\n') { "" } else { "\n" };
    format!("{ticks}{info}\n{body}{newline}{ticks}")
}

/// The agent text of a result: the YAML in a `yaml` fence, then the diff
/// (when there is one) in a `diff` fence.
pub(crate) fn agent_text(yaml: &str, diff: &str) -> String {
    let mut text = fence("yaml", yaml);
    if !diff.is_empty() {
        text.push_str("\n\n");
        text.push_str(&fence("diff", diff));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_quoted_safely() {
        assert_eq!(quote("it's"), "'it''s'");
        assert_eq!(quote("中文 😀\ttab"), "'中文 😀\ttab'");
        assert_eq!(
            quote("a\rb\u{1b}\u{feff}\"\\"),
            "\"a\\rb\\x1b\\ufeff\\\"\\\\\""
        );
        assert_eq!(quote(""), "''");
    }

    #[test]
    fn maps_nest_by_two_spaces() {
        let mut y = Yaml::new();
        y.raw("status", "ok")
            .open("lines")
            .raw("old", 1)
            .raw("new", 2)
            .close()
            .list("l", &["a", "b'c"]);
        assert_eq!(
            y.finish(),
            "status: ok\nlines:\n  old: 1\n  new: 2\nl: ['a', 'b''c']"
        );
    }

    #[test]
    fn previews_are_bounded() {
        let long = "中".repeat(200);
        let p = preview_line(&long);
        assert_eq!(p.chars().count(), PREVIEW_MAX_CHARS + 1);
        assert!(p.ends_with('…'));
        let lines: Vec<String> = (1..=8).map(|i| i.to_string()).collect();
        assert_eq!(
            preview_block(&lines),
            vec!["1", "2", "3", "…", "6", "7", "8"]
        );
        assert_eq!(number(3_600_000.0), "3600000");
        assert_eq!(number(1.5), "1.5");
    }

    #[test]
    fn fences_outgrow_backticks_in_the_body() {
        assert_eq!(fence("yaml", "a: 1"), "```yaml\na: 1\n```");
        assert_eq!(fence("diff", "+```\n"), "````diff\n+```\n````");
    }
}

//! The content being searched, with everything the strategies derive from
//! it computed at most once per call (lazily, so an exact hit pays for
//! none of it): line spans, an LF-only view, the per-line fold-key hashes
//! and the token index.

use std::cell::OnceCell;

use super::budget::Budget;
use super::normalize::{fold_hash, token_hash, tokens};

/// One line: `start..end` is its text, `end..next` its ending.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineSpan {
    pub start: usize,
    pub end: usize,
    pub next: usize,
}

/// The content with CRLF turned into LF, and how to map positions back.
pub(crate) struct LfView {
    /// `None` when the content has no `\r\n` (the view is the content).
    text: Option<String>,
    /// View positions of the `\n`s whose `\r` was removed, ascending.
    removed: Vec<usize>,
}

/// Tokens of the content, for `token_flexible` and the similarity filters.
pub(crate) struct TokenIndex {
    /// Byte spans.
    pub spans: Vec<(usize, usize)>,
    pub hashes: Vec<u64>,
    /// Per line, the range of token indices on it.
    pub per_line: Vec<(usize, usize)>,
}

pub(crate) struct Content<'a> {
    /// The content without its BOM.
    pub body: &'a str,
    lines: OnceCell<Vec<LineSpan>>,
    lf: OnceCell<LfView>,
    fold_hashes: OnceCell<Vec<u64>>,
    tokens: OnceCell<TokenIndex>,
}

impl<'a> Content<'a> {
    pub(crate) fn new(body: &'a str) -> Self {
        Content {
            body,
            lines: OnceCell::new(),
            lf: OnceCell::new(),
            fold_hashes: OnceCell::new(),
            tokens: OnceCell::new(),
        }
    }

    pub(crate) fn lines(&self) -> &[LineSpan] {
        self.lines.get_or_init(|| {
            crate::text::lines_with_endings(self.body)
                .map(|l| LineSpan { start: l.start, end: l.start + l.text.len(), next: l.next_start() })
                .collect()
        })
    }

    /// Text of line `i` without its ending (`""` past the end).
    pub(crate) fn line(&self, i: usize) -> &'a str {
        match self.lines().get(i) {
            Some(l) => self.body.get(l.start..l.end).unwrap_or(""),
            None => "",
        }
    }

    /// Index of the line holding byte `pos` (the last line for `pos` at the
    /// end of the text).
    pub(crate) fn line_of(&self, pos: usize) -> usize {
        let lines = self.lines();
        lines.partition_point(|l| l.next <= pos).min(lines.len().saturating_sub(1))
    }

    pub(crate) fn lf(&self) -> &LfView {
        self.lf.get_or_init(|| {
            if !self.body.contains("\r\n") {
                return LfView { text: None, removed: Vec::new() };
            }
            let mut text = String::with_capacity(self.body.len());
            let mut removed = Vec::new();
            let mut rest = self.body;
            while let Some(i) = rest.find("\r\n") {
                text.push_str(&rest[..i]);
                removed.push(text.len());
                text.push('\n');
                rest = &rest[i + 2..];
            }
            text.push_str(rest);
            LfView { text: Some(text), removed }
        })
    }

    /// Fold-key hash of every line; `None` when the budget cannot pay for
    /// the pass.
    pub(crate) fn fold_hashes(&self, budget: &mut Budget) -> Option<&[u64]> {
        if self.fold_hashes.get().is_none() && !budget.spend(self.body.len()) {
            return None;
        }
        Some(self.fold_hashes.get_or_init(|| (0..self.lines().len()).map(|i| fold_hash(self.line(i))).collect()))
    }

    pub(crate) fn tokens(&self, budget: &mut Budget) -> Option<&TokenIndex> {
        if self.tokens.get().is_none() && !budget.spend(self.body.len().saturating_mul(2)) {
            return None;
        }
        Some(self.tokens.get_or_init(|| {
            let spans: Vec<(usize, usize)> = tokens(self.body).collect();
            let hashes = spans.iter().map(|&(s, e)| token_hash(self.body.get(s..e).unwrap_or(""))).collect();
            let mut per_line = Vec::with_capacity(self.lines().len());
            let mut t = 0usize;
            for l in self.lines() {
                let first = t;
                while t < spans.len() && spans[t].0 < l.next {
                    t += 1;
                }
                per_line.push((first, t));
            }
            TokenIndex { spans, hashes, per_line }
        }))
    }
}

impl LfView {
    pub(crate) fn text<'s>(&'s self, body: &'s str) -> &'s str {
        self.text.as_deref().unwrap_or(body)
    }

    /// The content position of view position `x`. A `\r` removed before a
    /// `\n` belongs to whatever starts or ends at that `\n`, so a span never
    /// splits a CRLF.
    pub(crate) fn to_body(&self, x: usize) -> usize {
        x + self.removed.partition_point(|&v| v < x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lf_view_maps_positions_without_splitting_crlf() {
        let c = Content::new("a\r\nb\r\nc");
        let lf = c.lf();
        let view = lf.text(c.body);
        assert_eq!(view, "a\nb\nc");
        let s = view.find("\nb").unwrap();
        assert_eq!(&c.body[lf.to_body(s)..lf.to_body(s + 2)], "\r\nb");
        let s = view.find("a\n").unwrap();
        assert_eq!(&c.body[lf.to_body(s)..lf.to_body(s + 2)], "a\r\n");
        assert_eq!(&c.body[lf.to_body(0)..lf.to_body(1)], "a");
    }

    #[test]
    fn lines_and_tokens_are_indexed() {
        let c = Content::new("ab cd\n\nef(");
        assert_eq!(c.line(0), "ab cd");
        assert_eq!(c.line(2), "ef(");
        assert_eq!(c.line_of(0), 0);
        assert_eq!(c.line_of(6), 1);
        assert_eq!(c.line_of(c.body.len()), 2);
        let mut b = Budget::new(1000);
        let t = c.tokens(&mut b).unwrap();
        assert_eq!(t.per_line, vec![(0, 2), (2, 2), (2, 4)]);
        assert_eq!(c.fold_hashes(&mut b).unwrap().len(), 3);
        assert_eq!(Content::new("").line_of(0), 0);
    }
}

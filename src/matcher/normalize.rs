//! Per-line normalisations, the tokeniser and the unescaper the strategies
//! share.
//!
//! Every line-based strategy compares lines through a *key*. Keys get
//! coarser level by level, and each key is a function of the finer ones
//! (`key(Fold)` of a line equals `key(Fold)` of its `key(Collapse)`, and so
//! on), so lines equal at one level are equal at every later level. That
//! lets the ladder find the candidates of strategies 4–7 once, with the
//! coarsest key, and then filter them level by level.
//!
//! All functions are total and never split a `char`.

/// Line keys, finest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Trailing whitespace removed (strategy 4).
    TrimEnd,
    /// Leading and trailing whitespace removed (strategy 5).
    Trim,
    /// Also runs of spaces and tabs inside the line collapsed (strategy 6).
    Collapse,
    /// Also every whitespace run collapsed, zero-width characters dropped,
    /// typographic quotes, dashes and ellipses folded to ASCII (strategy 7).
    Fold,
}

/// Characters dropped by [`Level::Fold`].
pub(crate) fn is_zero_width(c: char) -> bool {
    matches!(c, '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// The ASCII a typographic character folds to at [`Level::Fold`], if any.
pub(crate) fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => "'",
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        _ => return None,
    })
}

/// Feeds the characters of `line`'s key at `level` to `emit`, each with the
/// original character it comes from (a folded `…` yields three dots, all
/// from `…`).
pub(crate) fn for_each_key_char(line: &str, level: Level, mut emit: impl FnMut(char, char)) {
    match level {
        Level::TrimEnd => line.trim_end().chars().for_each(|c| emit(c, c)),
        Level::Trim => line.trim().chars().for_each(|c| emit(c, c)),
        Level::Collapse => {
            let mut pending = false;
            for c in line.trim().chars() {
                if c == ' ' || c == '\t' {
                    pending = true;
                    continue;
                }
                if pending {
                    emit(' ', ' ');
                    pending = false;
                }
                emit(c, c);
            }
        }
        Level::Fold => {
            let mut pending = false;
            let mut started = false;
            for c in line.chars() {
                if is_zero_width(c) {
                    continue;
                }
                if c.is_whitespace() {
                    pending = started;
                    continue;
                }
                if pending {
                    emit(' ', ' ');
                    pending = false;
                }
                started = true;
                match fold_char(c) {
                    Some(ascii) => ascii.chars().for_each(|a| emit(a, c)),
                    None => emit(c, c),
                }
            }
        }
    }
}

/// The key of `line` at `level`.
pub(crate) fn key(line: &str, level: Level) -> String {
    let mut out = String::with_capacity(line.len());
    for_each_key_char(line, level, |c, _| out.push(c));
    out
}

/// FNV-1a over the UTF-8 bytes of a char stream.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Fnv {
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    pub(crate) fn char(&mut self, c: char) {
        let mut buf = [0u8; 4];
        self.bytes(c.encode_utf8(&mut buf).as_bytes());
    }

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// Hash of `line`'s [`Level::Fold`] key, without allocating it.
pub(crate) fn fold_hash(line: &str) -> u64 {
    let mut h = Fnv::new();
    for_each_key_char(line, Level::Fold, |c, _| h.char(c));
    h.finish()
}

/// Hash of a token's text.
pub(crate) fn token_hash(token: &str) -> u64 {
    let mut h = Fnv::new();
    h.bytes(token.as_bytes());
    h.finish()
}

/// Characters that are tokens of their own in [`tokens`]: whitespace around
/// them is never significant to the `token_flexible` strategy.
pub(crate) fn is_delimiter(c: char) -> bool {
    matches!(c, '(' | ')' | '{' | '}' | '[' | ']' | '<' | '>' | ':' | '=' | ',' | ';')
}

/// Byte spans of the tokens of `text`: maximal runs of characters that are
/// neither whitespace nor delimiters, and every delimiter on its own.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut iter = text.char_indices().peekable();
    std::iter::from_fn(move || {
        while let Some(&(_, c)) = iter.peek() {
            if c.is_whitespace() {
                iter.next();
            } else {
                break;
            }
        }
        let (start, c) = iter.next()?;
        if is_delimiter(c) {
            return Some((start, start + c.len_utf8()));
        }
        let mut end = start + c.len_utf8();
        while let Some(&(i, c)) = iter.peek() {
            if c.is_whitespace() || is_delimiter(c) {
                break;
            }
            end = i + c.len_utf8();
            iter.next();
        }
        Some((start, end))
    })
}

/// Kinds of escape sequence, as bits of [`Unescaped::kinds`].
pub(crate) mod escape {
    pub const NEWLINE: u16 = 1;
    pub const TAB: u16 = 1 << 1;
    pub const CR: u16 = 1 << 2;
    pub const SINGLE_QUOTE: u16 = 1 << 3;
    pub const DOUBLE_QUOTE: u16 = 1 << 4;
    pub const BACKTICK: u16 = 1 << 5;
    pub const BACKSLASH: u16 = 1 << 6;
    pub const DOLLAR: u16 = 1 << 7;
    pub const CONTINUATION: u16 = 1 << 8;

    /// The kind of `\` + `c`, and the character it stands for.
    pub fn of(c: char) -> Option<(u16, char)> {
        Some(match c {
            'n' => (NEWLINE, '\n'),
            't' => (TAB, '\t'),
            'r' => (CR, '\r'),
            '\'' => (SINGLE_QUOTE, '\''),
            '"' => (DOUBLE_QUOTE, '"'),
            '`' => (BACKTICK, '`'),
            '\\' => (BACKSLASH, '\\'),
            '$' => (DOLLAR, '$'),
            '\n' => (CONTINUATION, '\n'),
            _ => return None,
        })
    }
}

/// The result of undoing one level of escaping.
pub(crate) struct Unescaped {
    pub text: String,
    /// Which kinds of sequence were undone (bits of [`escape`]).
    pub kinds: u16,
}

/// Undoes exactly one level of escaping: `\n`, `\t`, `\r`, `\'`, `\"`,
/// `` \` ``, `\\`, `\$` and a backslash before a real newline become the
/// character they stand for; any other backslash is kept. `\\n` becomes
/// `\n` (a backslash and an `n`), not a newline.
pub(crate) fn unescape_once(text: &str) -> Unescaped {
    let mut out = String::with_capacity(text.len());
    let mut kinds = 0u16;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some((kind, ch)) = chars.peek().and_then(|&n| escape::of(n)) {
                chars.next();
                kinds |= kind;
                out.push(ch);
                continue;
            }
        }
        out.push(c);
    }
    Unescaped { text: out, kinds }
}

/// Leading whitespace of a line.
pub(crate) fn indent_of(line: &str) -> &str {
    let body = line.trim_start();
    &line[..line.len() - body.len()]
}

/// A line with nothing but whitespace.
pub(crate) fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_get_coarser_level_by_level() {
        let line = "  x  =\t“a”  — b…  ";
        assert_eq!(key(line, Level::TrimEnd), "  x  =\t“a”  — b…");
        assert_eq!(key(line, Level::Trim), "x  =\t“a”  — b…");
        assert_eq!(key(line, Level::Collapse), "x = “a” — b…");
        assert_eq!(key(line, Level::Fold), "x = \"a\" - b...");
        for level in [Level::TrimEnd, Level::Trim, Level::Collapse] {
            assert_eq!(key(&key(line, level), Level::Fold), key(line, Level::Fold));
        }
        assert_eq!(fold_hash(line), fold_hash("x = \"a\" - b..."));
        assert_eq!(key("a\u{200b}b\u{a0}c", Level::Fold), "ab c");
        assert_eq!(key("中文 😀", Level::Fold), "中文 😀");
    }

    #[test]
    fn tokens_split_at_whitespace_and_delimiters() {
        let text = "if(a ==b){ 中文x }";
        let toks: Vec<&str> = tokens(text).map(|(s, e)| &text[s..e]).collect();
        assert_eq!(toks, vec!["if", "(", "a", "=", "=", "b", ")", "{", "中文x", "}"]);
        assert_eq!(tokens("   ").count(), 0);
    }

    #[test]
    fn unescape_undoes_exactly_one_level() {
        let u = unescape_once(r#"a\nb\t\"c\" \\n \q"#);
        assert_eq!(u.text, "a\nb\t\"c\" \\n \\q");
        assert_eq!(u.kinds, escape::NEWLINE | escape::TAB | escape::DOUBLE_QUOTE | escape::BACKSLASH);
        assert_eq!(unescape_once("tail\\").text, "tail\\");
        assert_eq!(unescape_once("").kinds, 0);
    }
}

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

use crate::text::hash_bytes;

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
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

/// The ASCII a typographic character folds to at [`Level::Fold`], if any.
pub(crate) fn fold_char(c: char) -> Option<&'static str> {
    Some(match c {
        '\u{2018}' | '\u{2019}' | '\u{201a}' | '\u{201b}' | '\u{2032}' => "'",
        '\u{201c}' | '\u{201d}' | '\u{201e}' | '\u{201f}' | '\u{2033}' => "\"",
        '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
        | '\u{2212}' => "-",
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

/// The runs of ASCII word characters (`[A-Za-z0-9_]`) of a fold key,
/// empty ones included. A line whose fold key equals this key holds each
/// run verbatim as long as it has no zero-width character
/// ([`Content::keeps_word_runs`](super::content::Content::keeps_word_runs)):
/// the fold only drops zero-width characters (joining runs), turns
/// whitespace into single spaces and maps typographic punctuation to ASCII
/// punctuation, and spaces and punctuation end runs. So a substring scan
/// for a run finds every line that can equal the key.
pub(crate) fn ascii_word_runs(key: &str) -> impl Iterator<Item = &str> {
    key.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
}

/// The key of `line` at `level`.
pub(crate) fn key(line: &str, level: Level) -> String {
    let mut out = String::with_capacity(line.len());
    for_each_key_char(line, level, |c, _| out.push(c));
    out
}

/// The bytes of `line`'s [`Level::Fold`] key, written into `buf` (cleared
/// first). ASCII lines take a byte path: trim, collapse whitespace runs.
pub(crate) fn fold_key_into(line: &str, buf: &mut Vec<u8>) {
    buf.clear();
    if line.is_ascii() {
        // The same rules as the char path, on bytes (ASCII whitespace is
        // exactly `char::is_whitespace` below 0x80, vertical tab included).
        for word in line
            .as_bytes()
            .split(|&b| b.is_ascii_whitespace() || b == 0x0b)
            .filter(|w| !w.is_empty())
        {
            if !buf.is_empty() {
                buf.push(b' ');
            }
            buf.extend_from_slice(word);
        }
        return;
    }
    let mut tmp = [0u8; 4];
    for_each_key_char(line, Level::Fold, |c, _| {
        buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes())
    });
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

    pub(crate) fn finish(self) -> u64 {
        self.0
    }
}

/// Hash of `line`'s [`Level::Fold`] key.
#[cfg(test)]
pub(crate) fn fold_hash(line: &str) -> u64 {
    fold_hash_with(line, &mut Vec::new())
}

/// Bit masks of an ASCII line of at most 64 bytes: (whitespace, spaces),
/// bit `i` for byte `i`. Branch-free; sixteen bytes per step with `v128`
/// in the wasm build.
#[inline]
fn ascii_space_masks(bytes: &[u8]) -> (u64, u64) {
    let bytes = &bytes[..bytes.len().min(64)];
    let (mut ws, mut sp) = (0u64, 0u64);
    #[allow(unused_mut)]
    let mut done = 0usize;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        while let Some(chunk) = bytes.get(done..done + 16) {
            let (w, s) = simd_space_bits(chunk);
            ws |= u64::from(w) << done;
            sp |= u64::from(s) << done;
            done += 16;
        }
    }
    for (i, &b) in bytes.iter().enumerate().skip(done) {
        ws |= u64::from(CLASS[(b & 0x7f) as usize] == 0) << i;
        sp |= u64::from(b == b' ') << i;
    }
    (ws, sp)
}

/// The whitespace bits (`\t \n \v \f \r` and space) and the space bits of
/// sixteen ASCII bytes.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn simd_space_bits(chunk: &[u8]) -> (u16, u16) {
    use core::arch::wasm32::{i8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, u8x16_sub, v128_or};
    let v = super::scan::load16(chunk);
    let space = u8x16_eq(v, u8x16_splat(b' '));
    // 0x09..=0x0d: one unsigned compare after moving the range to 0.
    let controls = u8x16_lt(u8x16_sub(v, u8x16_splat(0x09)), u8x16_splat(5));
    (
        i8x16_bitmask(v128_or(space, controls)),
        i8x16_bitmask(space),
    )
}

/// Bit mask of the word characters of an ASCII line of at most 64 bytes.
/// The wasm build classifies sixteen bytes per step with `v128`; the
/// bytes past the last full sixteen go one by one.
#[inline]
fn ascii_word_mask(bytes: &[u8]) -> u64 {
    let bytes = &bytes[..bytes.len().min(64)];
    let mut word = 0u64;
    #[allow(unused_mut)]
    let mut done = 0usize;
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        while let Some(chunk) = bytes.get(done..done + 16) {
            word |= u64::from(simd_word_bits(chunk)) << done;
            done += 16;
        }
    }
    for (i, &b) in bytes.iter().enumerate().skip(done) {
        word |= u64::from(CLASS[(b & 0x7f) as usize] == 2) << i;
    }
    word
}

/// Nibble tables of the bytes that end a word (whitespace and the
/// tokeniser's delimiters): a byte is one exactly when the bits its low
/// nibble and its high nibble select share one. Bit 0: `0x09..=0x0d`;
/// bit 1: `0x20 ( ) ,`; bit 2: `: ; < = >`; bit 3: `[ ] { }`.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
const NOT_WORD_BY_LOW: [u8; 16] = [
    0b0010, 0, 0, 0, 0, 0, 0, 0, 0b0010, 0b0011, 0b0101, 0b1101, 0b0111, 0b1101, 0b0100, 0,
];
/// See [`NOT_WORD_BY_LOW`]: high nibble `0x0`, `0x2`, `0x3`, `0x5`/`0x7`.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
const NOT_WORD_BY_HIGH: [u8; 16] = [
    0b0001, 0, 0b0010, 0b0100, 0, 0b1000, 0, 0b1000, 0, 0, 0, 0, 0, 0, 0, 0,
];

/// Whether an ASCII byte is a word character by the nibble tables (the
/// scalar form of what the `v128` path computes, checked against
/// [`CLASS`] in the tests).
#[cfg(test)]
fn word_by_nibbles(b: u8) -> bool {
    NOT_WORD_BY_LOW[usize::from(b & 0x0f)] & NOT_WORD_BY_HIGH[usize::from(b >> 4)] == 0
}

/// The word bits of sixteen ASCII bytes: two table lookups per byte with
/// `i8x16.swizzle`, one compare, one bitmask.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn simd_word_bits(chunk: &[u8]) -> u16 {
    use super::scan::load16;
    use core::arch::wasm32::{
        i8x16_bitmask, i8x16_swizzle, u8x16_eq, u8x16_shr, u8x16_splat, v128_and,
    };
    let v = load16(chunk);
    let low = v128_and(v, u8x16_splat(0x0f));
    let high = u8x16_shr(v, 4);
    let hits = v128_and(
        i8x16_swizzle(load16(&NOT_WORD_BY_LOW), low),
        i8x16_swizzle(load16(&NOT_WORD_BY_HIGH), high),
    );
    i8x16_bitmask(u8x16_eq(hits, u8x16_splat(0)))
}

/// `line` trimmed, when that is already its fold key: inner whitespace is
/// single spaces, and no character folds or drops (zero-width, Unicode
/// whitespace, typographic punctuation). `None` when the key differs (a
/// tab, a run of spaces, such a character), so it must be built. Text
/// outside ASCII is mostly its own key too (CJK, accented letters): only
/// the lead bytes of the characters that change (`0xC2`, `0xE1`–`0xE3`,
/// `0xEF`) are looked at more closely.
fn own_fold_key(line: &str) -> Option<&[u8]> {
    let bytes = line.as_bytes();
    let ws = |b: u8| CLASS[(b & 0x7f) as usize] == 0 && b < 0x80;
    let Some(start) = bytes.iter().position(|&b| !ws(b)) else {
        return Some(&[]);
    };
    let end = bytes.iter().rposition(|&b| !ws(b)).map_or(start, |e| e + 1);
    let inner = &bytes[start..end];
    let mut after_space = false;
    for (k, &b) in inner.iter().enumerate() {
        if b >= 0x80 {
            if matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3 | 0xEF)
                && line[start + k..]
                    .chars()
                    .next()
                    .is_some_and(changes_in_fold)
            {
                return None;
            }
            after_space = false;
            continue;
        }
        if ws(b) && (b != b' ' || after_space) {
            return None;
        }
        after_space = b == b' ';
    }
    Some(inner)
}

/// Whether [`Level::Fold`] drops, collapses or maps `c` (a non-ASCII
/// character).
fn changes_in_fold(c: char) -> bool {
    is_zero_width(c) || c.is_whitespace() || fold_char(c).is_some()
}

/// [`fold_hash`] with a reusable buffer. A line that is its own key once
/// trimmed ([`own_fold_key`]; for ASCII up to 64 bytes decided with bit
/// masks) is hashed in place, without a copy.
pub(crate) fn fold_hash_with(line: &str, buf: &mut Vec<u8>) -> u64 {
    let bytes = line.as_bytes();
    if bytes.len() <= 64 && line.is_ascii() {
        let (ws, sp) = ascii_space_masks(bytes);
        let all = if bytes.len() == 64 {
            u64::MAX
        } else {
            (1u64 << bytes.len()) - 1
        };
        let solid = !ws & all;
        if solid == 0 {
            return hash_bytes(&[]);
        }
        let first = solid.trailing_zeros() as usize;
        let last = 63 - solid.leading_zeros() as usize;
        // Whitespace strictly between the first and last solid bytes.
        let inside = ws & (u64::MAX >> (63 - last)) & !((1u64 << first) - 1);
        if inside & !sp == 0 && inside & (inside >> 1) == 0 {
            return hash_bytes(&bytes[first..=last]);
        }
    } else if let Some(key) = own_fold_key(line) {
        return hash_bytes(key);
    }
    fold_key_into(line, buf);
    hash_bytes(buf)
}

/// Hash of a token's text.
pub(crate) fn token_hash(token: &str) -> u64 {
    hash_bytes(token.as_bytes())
}

/// [`hash_bytes`] of `text[start..end]`, loading a short span (≤ 8 bytes,
/// most words) as one little-endian word masked to its length when the
/// text has 8 bytes from `start`: the same value, without a byte loop.
pub(crate) fn hash_span(text: &[u8], start: usize, end: usize) -> u64 {
    let len = end.saturating_sub(start);
    match text.get(start..start + 8) {
        Some(w) if len <= 8 && len > 0 => {
            const K: u64 = 0x517c_c1b7_2722_0a95;
            let word = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
            let v = if len == 8 {
                word
            } else {
                word & ((1u64 << (8 * len)) - 1)
            };
            let h = ((len as u64).wrapping_mul(K).rotate_left(5) ^ v).wrapping_mul(K);
            h ^ (h >> 29)
        }
        _ => hash_bytes(text.get(start..end).unwrap_or(&[])),
    }
}

/// Class of an ASCII byte for the tokeniser: 0 whitespace, 1 delimiter,
/// 2 word character.
const fn ascii_class(b: u8) -> u8 {
    match b {
        b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c => 0,
        b'(' | b')' | b'{' | b'}' | b'[' | b']' | b'<' | b'>' | b':' | b'=' | b',' | b';' => 1,
        _ => 2,
    }
}

const CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = ascii_class(i as u8);
        i += 1;
    }
    t
};

/// Class and byte length of the character starting at `at` (`(0, 0)` at
/// the end). Only non-ASCII characters are decoded.
#[inline]
fn class_at(text: &str, at: usize) -> (u8, usize) {
    match text.as_bytes().get(at) {
        Some(&b) if b < 0x80 => (CLASS[b as usize], 1),
        Some(_) => match text.get(at..).and_then(|r| r.chars().next()) {
            Some(c) => (if c.is_whitespace() { 0 } else { 2 }, c.len_utf8()),
            None => (2, 1),
        },
        None => (0, 0),
    }
}

/// Class of a character for the tokeniser: 0 whitespace, 1 delimiter,
/// 2 word character.
pub(crate) fn char_class(c: char) -> u8 {
    if c.is_ascii() {
        CLASS[c as usize]
    } else if c.is_whitespace() {
        0
    } else {
        2
    }
}

/// The token ending at byte `end` of `text` (reading backwards, after
/// skipping whitespace before `end`): its span, or `None` at the start.
pub(crate) fn token_before(text: &str, end: usize) -> Option<(usize, usize)> {
    let head = text.get(..end)?;
    let trimmed = head.trim_end_matches(|c: char| char_class(c) == 0);
    let last = trimmed.chars().next_back()?;
    let stop = trimmed.len();
    if char_class(last) == 1 {
        return Some((stop - last.len_utf8(), stop));
    }
    let start = trimmed.trim_end_matches(|c: char| char_class(c) == 2).len();
    Some((start, stop))
}

/// The token starting at or after byte `start` of `text` (after skipping
/// whitespace): its span, or `None` at the end.
pub(crate) fn token_after(text: &str, start: usize) -> Option<(usize, usize)> {
    let tail = text.get(start..)?;
    let skipped = tail.len() - tail.trim_start_matches(|c: char| char_class(c) == 0).len();
    let from = start + skipped;
    let rest = text.get(from..)?;
    let first = rest.chars().next()?;
    if char_class(first) == 1 {
        return Some((from, from + first.len_utf8()));
    }
    let len = rest.len() - rest.trim_start_matches(|c: char| char_class(c) == 2).len();
    Some((from, from + len))
}

/// Calls `emit(start, end, is_word)` for every token of `text`: maximal
/// runs of characters that are neither whitespace nor delimiters (words),
/// and every delimiter on its own. ASCII runs are scanned byte by byte in
/// place; only non-ASCII characters are decoded.
pub(crate) fn for_each_token(text: &str, mut emit: impl FnMut(usize, usize, bool)) {
    let bytes = text.as_bytes();
    let n = bytes.len();
    let mut i = 0usize;
    while i < n {
        let b = bytes[i];
        if b < 0x80 {
            match CLASS[b as usize] {
                0 => {
                    i += 1;
                    continue;
                }
                1 => {
                    emit(i, i + 1, false);
                    i += 1;
                    continue;
                }
                _ => {}
            }
        } else {
            let (k, len) = class_at(text, i);
            if k == 0 {
                i += len.max(1);
                continue;
            }
        }
        let start = i;
        while i < n {
            let b = bytes[i];
            if b < 0x80 {
                if CLASS[b as usize] != 2 {
                    break;
                }
                i += 1;
            } else {
                let (k, len) = class_at(text, i);
                if k != 2 {
                    break;
                }
                i += len.max(1);
            }
        }
        emit(start, i, true);
    }
}

/// Calls `emit(start, end)` for every word token of `text` (delimiters
/// skipped). ASCII texts of ≤ 64 bytes find word boundaries with bit
/// operations on a word mask; others use [`for_each_token`].
#[inline]
pub(crate) fn for_each_word(text: &str, mut emit: impl FnMut(usize, usize)) {
    let bytes = text.as_bytes();
    if bytes.len() <= 64 && text.is_ascii() {
        let word = ascii_word_mask(bytes);
        let mut starts = word & !(word << 1);
        let mut ends = word & !(word >> 1);
        while starts != 0 {
            let s = starts.trailing_zeros() as usize;
            let e = ends.trailing_zeros() as usize;
            starts &= starts - 1;
            ends &= ends - 1;
            emit(s, e + 1);
        }
        return;
    }
    for_each_token(text, |s, e, word| {
        if word {
            emit(s, e);
        }
    });
}

/// Byte spans of the tokens of `text` (see [`for_each_token`]).
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (usize, usize)> {
    let mut spans = Vec::new();
    for_each_token(text, |s, e, _| spans.push((s, e)));
    spans.into_iter()
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
    fn the_nibble_tables_say_what_the_class_table_says() {
        for b in 0u8..128 {
            assert_eq!(
                word_by_nibbles(b),
                CLASS[usize::from(b)] == 2,
                "byte {b:#04x}"
            );
        }
    }

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
        assert_eq!(fold_hash("  a \t b  "), fold_hash("a b"));
        assert_eq!(
            fold_hash("a\u{a0}b"),
            fold_hash("a b"),
            "unicode and ASCII paths agree"
        );
        assert_eq!(
            fold_hash("  a  b\t"),
            fold_hash("a b"),
            "copying and in-place paths agree"
        );
        assert_ne!(fold_hash("ab"), fold_hash("a b"));
        for line in ["\u{b}x\u{b} y\u{b}", "\u{b}", "  ", "\tq\r"] {
            let mut buf = Vec::new();
            fold_key_into(line, &mut buf);
            assert_eq!(
                String::from_utf8(buf).unwrap(),
                key(line, Level::Fold),
                "{line:?}"
            );
        }
        assert_eq!(key("a\u{200b}b\u{a0}c", Level::Fold), "ab c");
        assert_eq!(key("中文 😀", Level::Fold), "中文 😀");
    }

    #[test]
    fn bit_mask_paths_agree_with_the_scalar_ones() {
        let samples = [
            "",
            " ",
            "a",
            "  foo(bar, baz);  ",
            "\tx  =\t1",
            "a b c",
            "x\u{b}y",
            "    return a+b;",
            "0123456789012345678901234567890123456789012345678901234567890123",
            "  0123456789012345678901234567890123456789012345678901234567890123",
            "a                                                              b",
            "((a))",
            "a,b,,c",
            "中文 x",
            // Past 64 bytes the in-place key is decided by a scan.
            "        export function userToorder12(input: userType, opts?: Options): orderType {",
            "export function userToorder12(input: userType,  opts?: Options): orderType {   ",
            "export function userToorder12(input: userType,\topts?: Options): orderType {",
            "export function userToorder12(input: userType, opts?: Options): orderType\u{a0}{",
            "export function userToorder12(input: userType, opts?: Options): orderType {\u{b}x",
            "                                                                                ",
            "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tx",
            "中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文中文 x",
        ];
        for line in samples {
            let mut scalar = Vec::new();
            for_each_token(line, |s, e, w| {
                if w {
                    scalar.push((s, e));
                }
            });
            let mut masked = Vec::new();
            for_each_word(line, |s, e| masked.push((s, e)));
            assert_eq!(masked, scalar, "{line:?}");
            let mut buf = Vec::new();
            fold_key_into(line, &mut buf);
            assert_eq!(
                fold_hash_with(line, &mut Vec::new()),
                hash_bytes(&buf),
                "{line:?}"
            );
        }
    }

    proptest::proptest! {
        /// The in-place key is the built key, on text mixing characters
        /// that fold (typographic punctuation, Unicode spaces, zero-width)
        /// with ones that share their UTF-8 lead bytes and do not (`。`
        /// and U+3000 both start with `0xE3`, `，` and U+FEFF with `0xEF`,
        /// `©` and NBSP with `0xC2`).
        #[test]
        fn in_place_fold_keys_equal_built_ones(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                "a", "x1", "中文", "。", "，", "é", "©", " ", "  ", "\t", "\u{a0}", "\u{85}",
                "\u{3000}", "\u{1680}", "\u{2009}", "\u{200b}", "\u{feff}", "\u{2060}",
                "\u{2019}", "\u{201c}", "\u{2014}", "\u{2026}", "\u{2212}", "\u{b}",
            ]),
            0..12,
        )) {
            let line = parts.concat();
            let mut buf = Vec::new();
            fold_key_into(&line, &mut buf);
            proptest::prop_assert_eq!(fold_hash_with(&line, &mut Vec::new()), hash_bytes(&buf), "{:?}", line);
        }
    }

    #[test]
    fn span_hashes_equal_slice_hashes() {
        let text = b"ab cdefghij klmnopqrstu vw xyz12345 q";
        for s in 0..text.len() {
            for e in s..=text.len() {
                assert_eq!(hash_span(text, s, e), hash_bytes(&text[s..e]), "{s}..{e}");
            }
        }
    }

    #[test]
    fn tokens_split_at_whitespace_and_delimiters() {
        let text = "if(a ==b){ 中文x }\u{a0}y";
        let toks: Vec<&str> = tokens(text).map(|(s, e)| &text[s..e]).collect();
        assert_eq!(
            toks,
            vec!["if", "(", "a", "=", "=", "b", ")", "{", "中文x", "}", "y"]
        );
        assert_eq!(tokens("   ").count(), 0);
    }

    #[test]
    fn tokens_are_read_in_both_directions() {
        let text = "ab (中文x)\n  ;z";
        assert_eq!(token_before(text, text.len()), Some((16, 17)));
        assert_eq!(token_before(text, 16), Some((15, 16)));
        assert_eq!(token_before(text, 15), Some((11, 12)));
        assert_eq!(token_before(text, 12), Some((11, 12)));
        assert_eq!(token_before(text, 11), Some((4, 11)));
        assert_eq!(token_before(text, 2), Some((0, 2)));
        assert_eq!(token_before(text, 0), None);
        assert_eq!(token_after(text, 2), Some((3, 4)));
        assert_eq!(token_after(text, 4), Some((4, 11)));
        assert_eq!(token_after(text, 12), Some((15, 16)));
        assert_eq!(token_after(text, 17), None);
        let forward: Vec<(usize, usize)> = tokens(text).collect();
        let mut at = 0;
        let mut walked = Vec::new();
        while let Some(t) = token_after(text, at) {
            walked.push(t);
            at = t.1;
        }
        assert_eq!(walked, forward);
    }

    #[test]
    fn unescape_undoes_exactly_one_level() {
        let u = unescape_once(r#"a\nb\t\"c\" \\n \q"#);
        assert_eq!(u.text, "a\nb\t\"c\" \\n \\q");
        assert_eq!(
            u.kinds,
            escape::NEWLINE | escape::TAB | escape::DOUBLE_QUOTE | escape::BACKSLASH
        );
        assert_eq!(unescape_once("tail\\").text, "tail\\");
        assert_eq!(unescape_once("").kinds, 0);
    }
}

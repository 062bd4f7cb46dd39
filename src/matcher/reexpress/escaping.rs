//! One level of escaping undone in the replacement (SPEC §6.1 item 8):
//! when the search was found only with its escapes undone (`\n` for a
//! line break, `\"` for a quote), the replacement is unescaped the same
//! way if it shows the same escaping, and the edit is refused where that
//! would be a guess — a real character beside its escaped form, or an
//! escape the replacement adds inside a string literal (the new code's
//! own).
//!
//! Kept apart because it works on the replacement's characters before any
//! plan sees its lines, and its literal-tracking is a small lexer of its
//! own.

use crate::matcher::normalize::{escape, unescape_once};
use crate::matcher::types::Unmappable;

/// The replacement unescaped when it shows the search's over-escaping.
pub(super) fn unescape_replacement(
    r: &str,
    search: &str,
    search_kinds: u16,
) -> Result<String, Unmappable> {
    let u = unescape_once(r);
    if u.kinds & search_kinds == 0 {
        // No sign of the same escaping: written as given.
        return Ok(r.to_string());
    }
    // Kinds the search did not show are the same escaping only if the
    // search never wrote their character bare (a transport that escapes
    // newlines escapes quotes and backslashes with them; a search with a
    // bare `"` shows quotes were not escaped, so a `\"` the replacement
    // adds is its own).
    let new_kinds = u.kinds & !search_kinds;
    if new_kinds != 0 && new_kinds & bare_kinds(search) != 0 {
        return Err(Unmappable::Escaping);
    }
    let search_kinds = search_kinds | new_kinds;
    if let Some(literal) = escape_inside_literal(r, search, search_kinds) {
        return Err(Unmappable::LiteralEscape(literal));
    }
    // The real characters must not appear beside their escaped form.
    let mut bare = String::with_capacity(r.len());
    let mut chars = r.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek().and_then(|&n| escape::of(n)).is_some() {
            chars.next();
            continue;
        }
        bare.push(c);
    }
    for (kind, real) in [
        (escape::NEWLINE, '\n'),
        (escape::TAB, '\t'),
        (escape::DOUBLE_QUOTE, '"'),
        (escape::SINGLE_QUOTE, '\''),
        (escape::BACKTICK, '`'),
        (escape::BACKSLASH, '\\'),
    ] {
        // Kinds the search showed escaped count too: a bare `"` in a
        // replacement whose search wrote `\"` is not the same escaping.
        if (u.kinds | search_kinds) & kind != 0 && bare.contains(real) {
            return Err(Unmappable::Escaping);
        }
    }
    Ok(u.text)
}

/// The escape kinds whose character `text` writes bare (not as part of an
/// escape sequence).
fn bare_kinds(text: &str) -> u16 {
    let mut kinds = 0u16;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if chars.peek().and_then(|&n| escape::of(n)).is_some() {
                chars.next();
                continue;
            }
            kinds |= escape::BACKSLASH;
            continue;
        }
        kinds |= match c {
            '\n' => escape::NEWLINE,
            '\t' => escape::TAB,
            '"' => escape::DOUBLE_QUOTE,
            '\'' => escape::SINGLE_QUOTE,
            '`' => escape::BACKTICK,
            '$' => escape::DOLLAR,
            _ => 0,
        };
    }
    kinds
}

/// Whether a `\n`, `\r` or `\t` the replacement adds (outside the text it
/// shares with the search, whose escapes are the over-escaping being
/// undone) sits inside a string or character literal: there it is the new
/// code's own escape (SPEC §6.1 item 8), and unescaping would break the
/// literal across lines. A quote opens or closes a literal as the search
/// wrote quotes: escaped (`\"`) when the search's escaping covered quotes,
/// bare otherwise; an apostrophe between letters is prose, not a quote.
fn escape_inside_literal(r: &str, search: &str, search_kinds: u16) -> Option<String> {
    let prefix = r
        .char_indices()
        .zip(search.chars())
        .find(|((_, a), b)| a != b)
        .map_or(r.len().min(search.len()), |((i, _), _)| i);
    let suffix = r[prefix..]
        .chars()
        .rev()
        .zip(search[prefix.min(search.len())..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum::<usize>();
    let added = prefix..r.len() - suffix;
    // Is this quote written escaped (`\"`) when it delimits a literal?
    let escaped_quote = |q: char| {
        let kind = if q == '"' {
            escape::DOUBLE_QUOTE
        } else {
            escape::SINGLE_QUOTE
        };
        search_kinds & kind != 0
    };
    // The quote that opened the current literal, and where.
    let mut open: Option<(char, usize)> = None;
    let toggle = |open: Option<(char, usize)>, q: char, at: usize| match open {
        Some((o, _)) if o == q => None,
        None => Some((q, at)),
        other => other,
    };
    let mut prev: Option<char> = None;
    let mut chars = r.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\n' {
            open = None;
        } else if c == '\\' {
            let Some(&(_, n)) = chars.peek() else { break };
            chars.next();
            match n {
                'n' | 'r' | 't' if added.contains(&at) => {
                    // A quote that never closes later (`users' ids`,
                    // `&'static`) opened no literal.
                    let closes = |q: char| match escaped_quote(q) {
                        true => r[at + 2..].contains(&format!("\\{q}")),
                        false => r[at + 2..].contains(q),
                    };
                    if let Some((_, from)) = open.filter(|&(q, _)| closes(q)) {
                        return Some(
                            r[from..]
                                .chars()
                                .take(r[from..at].chars().count() + 12)
                                .collect(),
                        );
                    }
                }
                '"' | '\'' if escaped_quote(n) => open = toggle(open, n, at),
                _ => {}
            }
            if n == 'n' {
                // An escaped line break outside a literal is the
                // over-escaping: a new line, where no literal is open.
                open = None;
            }
            prev = Some(n);
            continue;
        } else if (c == '"' || c == '\'') && !escaped_quote(c) {
            let apostrophe = c == '\''
                && prev.is_some_and(char::is_alphanumeric)
                && chars.peek().is_some_and(|(_, n)| n.is_alphanumeric())
                && !after_string_prefix(&r[..at]);
            if !apostrophe {
                open = toggle(open, c, at);
            }
        }
        prev = Some(c);
    }
    None
}

/// Whether `before` ends in a string prefix standing alone (`f`, `r`,
/// `b`, `u`, `rb`, `fr`, … as in Python's `f'…'`): the quote after it opens
/// a literal, it is no apostrophe.
fn after_string_prefix(before: &str) -> bool {
    let word_len: usize = before
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .map(char::len_utf8)
        .sum();
    let word = before[before.len() - word_len..].to_ascii_lowercase();
    matches!(
        word.as_str(),
        "f" | "r" | "b" | "u" | "rb" | "br" | "fr" | "rf"
    )
}

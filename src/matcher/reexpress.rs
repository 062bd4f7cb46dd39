//! Writing the replacement in the file's own formatting.
//!
//! A strategy that forgave something in the search corrects the same thing
//! in the replacement, so the model's formatting slip never reaches the
//! file:
//!
//! | forgiven in the search | done to the replacement |
//! |---|---|
//! | line endings | every line break becomes the region's ending (done by the caller) |
//! | boundary whitespace | the same leading blank lines, indentation, trailing blank lines removed |
//! | trailing whitespace, inner spacing | lines equal to a search line are written as the file's original line |
//! | indentation shift | every other line re-indented by the same `IndentMap` |
//! | typographic quotes | straight quotes in changed lines become the region's curly ones, and curly ones the model typed where the region is straight become straight |
//! | one level of escaping | undone in the replacement too, when it shows the same escaping |
//!
//! Where a mapping is not well defined the edit is refused
//! (`Unmappable`), never guessed. Fuzzy matches re-indent line by line,
//! from the indentation of the file line each search line paired with.

use super::content::Content;
use super::fidelity::{keep_file_bytes, lead_of, Piece};
use super::indent::IndentMap;
use super::normalize::{escape, for_each_key_char, indent_of, is_blank, key, unescape_once, Level};
use super::strategies::{Candidate, FuzzyPlan, LinesPlan, Needle, Plan, Shift, TrimPlan};
use super::types::Unmappable;
use crate::text::{align_lines, LineLink};

/// The replacement for `candidate`, with LF line breaks (the caller turns
/// them into the region's ending).
pub(crate) fn replacement(
    content: &Content<'_>,
    needle: &Needle,
    candidate: &Candidate,
    replace: &str,
) -> Result<String, Unmappable> {
    let mut r = replace
        .strip_prefix(crate::text::BOM)
        .unwrap_or(replace)
        .replace("\r\n", "\n");
    if candidate.unescaped != 0 {
        r = unescape_replacement(&r, &needle.lf, candidate.unescaped)?;
    }
    match &candidate.plan {
        Plan::Verbatim => Ok(r),
        Plan::Trimmed(plan) => trimmed(&r, plan),
        Plan::Lines(plan) => lines(content, needle, plan, &r),
        Plan::Fuzzy(plan) => fuzzy(content, needle, candidate, plan, &r),
    }
}

/// The replacement unescaped when it shows the search's over-escaping.
fn unescape_replacement(r: &str, search: &str, search_kinds: u16) -> Result<String, Unmappable> {
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

/// Re-indents `line` by `map`; `None` when the map cannot express it.
fn shift_line(line: &str, map: &IndentMap) -> Option<String> {
    let ind = indent_of(line);
    map.apply(ind).map(|i| i + &line[ind.len()..])
}

fn trimmed(r: &str, plan: &TrimPlan) -> Result<String, Unmappable> {
    let mut r = r;
    if plan.lead.contains('\n') {
        let ws = r.len() - r.trim_start().len();
        if let Some(nl) = r[..ws].rfind('\n') {
            r = &r[nl + 1..];
        }
    }
    // The first line's indentation is outside the span: drop it when it is
    // the search's own, or the file's (written in the file's columns).
    let s0 = plan.lead.rsplit('\n').next().unwrap_or("");
    let r0 = indent_of(r);
    if !r0.is_empty() && (r0 == s0 || r0 == plan.indent) {
        r = &r[r0.len()..];
    } else if !s0.is_empty() {
        r = r.strip_prefix(s0).unwrap_or(r);
    }
    let (trail_spaces, trail_breaks) = match plan.trail.find('\n') {
        Some(nl) => (&plan.trail[..nl], true),
        None => (plan.trail.as_str(), false),
    };
    if trail_breaks {
        let body_len = r.trim_end().len();
        if let Some(nl) = r[body_len..].find('\n') {
            r = &r[..body_len + nl];
        }
    }
    if !trail_spaces.is_empty() {
        r = r.strip_suffix(trail_spaces).unwrap_or(r);
    }
    let map = match &plan.shift {
        Shift::AsWritten => return Ok(r.to_string()),
        Shift::Map(map) => Some(map),
        Shift::Unmappable => None,
    };
    let mut out = String::with_capacity(r.len());
    for (i, line) in r.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            if !is_blank(line) {
                let shifted = map
                    .and_then(|m| shift_line(line, m))
                    .ok_or(Unmappable::Indentation(i + 1))?;
                out.push_str(&shifted);
                continue;
            }
        }
        out.push_str(line);
    }
    Ok(out)
}

/// The replacement's lines once the search's surrounding blank lines (and
/// final line break) are removed from it the same way.
fn replacement_lines<'r>(needle: &Needle, r: &'r str) -> Vec<&'r str> {
    let mut r = r;
    let lead_blank = needle.lf.split('\n').next().is_some_and(is_blank) && needle.lf.contains('\n');
    if lead_blank {
        let ws = r.len() - r.trim_start().len();
        if let Some(nl) = r[..ws].rfind('\n') {
            r = &r[nl + 1..];
        }
    }
    let trail_break = needle.lf.trim_end_matches([' ', '\t']).ends_with('\n');
    if trail_break {
        let body_len = r.trim_end().len();
        if let Some(nl) = r[body_len..].find('\n') {
            r = &r[..body_len + nl];
        }
    }
    if r.is_empty() {
        return Vec::new();
    }
    r.split('\n').collect()
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

/// Replacement line `j` under a column shift (tabs and spaces converted
/// unevenly): a line that keeps its search line's indentation gets the
/// file line's own; any other is shifted by the columns and written in the
/// characters of the file line it stands for, or of its nearest neighbour
/// that stands for one (SPEC §6.8).
fn columns_line(
    line: &str,
    j: usize,
    links: &[LineLink],
    s_lines: &[&str],
    f_lines: &[&str],
    map: &IndentMap,
) -> Option<String> {
    let body = &line[indent_of(line).len()..];
    let tied = |k: usize| match links.get(k) {
        Some(LineLink::Equal(i) | LineLink::Changed(i)) => Some(*i),
        _ => None,
    };
    if let Some(i) = tied(j) {
        if indent_of(s_lines.get(i)?) == indent_of(line) {
            return Some(format!("{}{body}", indent_of(f_lines.get(i)?)));
        }
    }
    let near = tied(j)
        .or_else(|| (0..j).rev().find_map(tied))
        .or_else(|| (j + 1..links.len()).find_map(tied));
    let like = near
        .and_then(|i| f_lines.get(i))
        .map_or("", |f| indent_of(f));
    let indent = match near {
        Some(_) => map.apply_like(indent_of(line), like, f_lines)?,
        None => map.apply(indent_of(line))?,
    };
    Some(format!("{indent}{body}"))
}

/// The replacement for a line-by-line match ([`LinesPlan`]): lines equal to
/// a search line are the file's own, the others re-indented and, after a
/// folded match, written with the region's quotes.
fn lines(
    content: &Content<'_>,
    needle: &Needle,
    plan: &LinesPlan,
    r: &str,
) -> Result<String, Unmappable> {
    let s_lines: Vec<&str> = needle.lines.iter().map(String::as_str).collect();
    let f_lines: Vec<&str> = (plan.first..plan.first + plan.count)
        .map(|i| content.line(i))
        .collect();
    let r_lines = replacement_lines(needle, r);
    let links = align_lines(&s_lines, &r_lines);
    // Does the replacement's first line stand where the search's first
    // line stood (so a missing first-line indentation applies to it)?
    let first_is_partial = plan.partial_first.is_some()
        && !matches!(links.first(), Some(LineLink::Equal(i) | LineLink::Changed(i)) if *i > 0);
    let cx = LinesCx {
        plan,
        s_lines: &s_lines,
        f_lines: &f_lines,
        links: &links,
        quotes: Quotes::of(plan.folded, &s_lines, &f_lines),
        first_is_partial,
        dedented_by: dedented_by(plan, &links, &s_lines, &r_lines),
    };
    let mut out: Vec<String> = Vec::with_capacity(r_lines.len());
    for (j, (&line, &link)) in r_lines.iter().zip(&links).enumerate() {
        out.push(cx.write_line(j, line, link)?);
    }
    Ok(out.join("\n"))
}

/// With a search copied from its first non-blank character, the
/// replacement may be written the same way (later lines in the file's
/// columns) or dedented as a whole (every line relative to the first).
/// Lines it repeats with only their indentation changed decide; without
/// such evidence the search's way is assumed. `Some(f0)`: dedented by the
/// file's first-line indentation `f0`.
fn dedented_by<'p>(
    plan: &'p LinesPlan,
    links: &[LineLink],
    s_lines: &[&str],
    r_lines: &[&str],
) -> Option<&'p str> {
    plan.partial_first.as_deref().filter(|f0| {
        let evidence: Vec<bool> = links
            .iter()
            .zip(r_lines)
            .skip(1)
            .filter_map(|(link, r)| match *link {
                LineLink::Changed(i) if i > 0 => {
                    let s = s_lines.get(i)?;
                    (key(s, Level::Fold) == key(r, Level::Fold))
                        .then(|| indent_of(s) == format!("{f0}{}", indent_of(r)))
                }
                _ => None,
            })
            .collect();
        !evidence.is_empty() && evidence.iter().all(|&b| b)
    })
}

/// What [`lines`] knows about the match while it writes each replacement
/// line: the search, file and replacement lines and how they pair, the
/// quote rules, and how the first line was copied.
struct LinesCx<'a> {
    plan: &'a LinesPlan,
    s_lines: &'a [&'a str],
    f_lines: &'a [&'a str],
    /// How each replacement line relates to the search's lines.
    links: &'a [LineLink],
    quotes: Quotes,
    /// The replacement's first line inherits `plan.partial_first`.
    first_is_partial: bool,
    /// See [`dedented_by`].
    dedented_by: Option<&'a str>,
}

impl LinesCx<'_> {
    /// Replacement line `j` (0-based) in the file's formatting.
    fn write_line(&self, j: usize, line: &str, link: LineLink) -> Result<String, Unmappable> {
        if let LineLink::Equal(i) = link {
            return Ok(self.f_lines.get(i).copied().unwrap_or(line).to_string());
        }
        if is_blank(line) {
            return Ok(if self.plan.indent == IndentMap::Identity {
                line.to_string()
            } else {
                String::new()
            });
        }
        let shifted = self.reindent(j, line)?;
        // A changed line keeps the file's bytes wherever it keeps the
        // search's text (SPEC §6.8); only the model's own pieces are
        // re-styled.
        if let LineLink::Changed(i) = link {
            let pair = self.s_lines.get(i).zip(self.f_lines.get(i));
            if let Some(pieces) = pair.and_then(|(s, f)| keep_file_bytes(s, f, line)) {
                // Indentation the model kept is the file's lead, a
                // zero-width character inside it included.
                let kept_indent = pair
                    .filter(|(s, _)| indent_of(s) == indent_of(line))
                    .map(|(_, f)| lead_of(f));
                let indent = kept_indent.unwrap_or(indent_of(&shifted));
                return self.quotes.write_pieces(indent, pieces, j + 1);
            }
        }
        self.quotes.restyle_line(shifted, j + 1)
    }

    /// Line `j`'s indentation in the file's columns.
    fn reindent(&self, j: usize, line: &str) -> Result<String, Unmappable> {
        let plan = self.plan;
        match (&plan.partial_first, j) {
            (Some(f0), 0) if self.first_is_partial => {
                let r0 = indent_of(line);
                Ok(if r0 == f0 {
                    line.to_string()
                } else {
                    format!("{f0}{line}")
                })
            }
            _ if matches!(plan.indent, IndentMap::Columns { .. }) => columns_line(
                line,
                j,
                self.links,
                self.s_lines,
                self.f_lines,
                &plan.indent,
            )
            .ok_or(Unmappable::Indentation(j + 1)),
            _ => {
                let line = match self.dedented_by {
                    Some(f0) => format!("{f0}{line}"),
                    None => line.to_string(),
                };
                shift_line(&line, &plan.indent).ok_or(Unmappable::Indentation(j + 1))
            }
        }
    }
}

/// How the replacement's own quotes are written in a matched region.
#[derive(Clone, Copy)]
struct Quotes {
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
    fn of(folded: bool, s_lines: &[&str], f_lines: &[&str]) -> Quotes {
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
    fn write_pieces(
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
    fn restyle_line(&self, line: String, n: usize) -> Result<String, Unmappable> {
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

/// The replacement for a fuzzy match: a line equal to a search line is the
/// file line that search line stands for; any other is re-indented by the
/// shift of its own pair, else of the nearest paired line.
fn fuzzy(
    content: &Content<'_>,
    needle: &Needle,
    candidate: &Candidate,
    plan: &FuzzyPlan,
    r: &str,
) -> Result<String, Unmappable> {
    let s_lines: Vec<&str> = needle.lines.iter().map(String::as_str).collect();
    let f_lines: Vec<&str> = (plan.first..plan.first + plan.count)
        .map(|i| content.line(i))
        .collect();
    let s_keys: Vec<String> = s_lines.iter().map(|l| key(l, Level::Fold)).collect();
    let f_keys: Vec<String> = f_lines.iter().map(|l| key(l, Level::Fold)).collect();
    // A token span starting mid-line keeps the text before it: the first
    // replacement line continues that text as written.
    let mid_line =
        candidate.replace_start(content) > content.lines().get(plan.first).map_or(0, |l| l.start());

    let s_refs: Vec<&str> = s_keys.iter().map(String::as_str).collect();
    let f_refs: Vec<&str> = f_keys.iter().map(String::as_str).collect();
    let file_of = file_line_of(&s_refs, &f_refs);
    let shifts = implied_shifts(&s_lines, &f_lines, &file_of);

    let r_lines = replacement_lines(needle, r);
    let r_keys: Vec<String> = r_lines.iter().map(|l| key(l, Level::Fold)).collect();
    let r_refs: Vec<&str> = r_keys.iter().map(String::as_str).collect();
    let links = align_lines(&s_refs, &r_refs);
    // Shift in force for each replacement line: its own pair's, else the
    // nearest earlier one, else the nearest later one.
    let own: Vec<Option<&IndentMap>> = links
        .iter()
        .map(|link| match *link {
            LineLink::Equal(i) | LineLink::Changed(i) => shifts.get(i).and_then(Option::as_ref),
            LineLink::Inserted => None,
        })
        .collect();
    let fallback = shifts.iter().flatten().next();
    let mut out = Vec::with_capacity(r_lines.len());
    let mut last: Option<&IndentMap> = None;
    for (j, &line) in r_lines.iter().enumerate() {
        if let Some(LineLink::Equal(i)) = links.get(j) {
            if let Some(f) = file_of
                .get(*i)
                .copied()
                .flatten()
                .and_then(|p| f_lines.get(p))
            {
                if !(j == 0 && mid_line) {
                    out.push(f.to_string());
                    last = own.get(j).copied().flatten().or(last);
                    continue;
                }
            }
        }
        if j == 0 && mid_line {
            out.push(line.trim_start().to_string());
            continue;
        }
        if is_blank(line) {
            out.push(String::new());
            continue;
        }
        let map = own
            .get(j)
            .copied()
            .flatten()
            .or(last)
            .or_else(|| own.iter().skip(j).flatten().next().copied())
            .or(fallback);
        last = own.get(j).copied().flatten().or(last);
        let shifted = match map {
            Some(m) => shift_line(line, m).ok_or(Unmappable::Indentation(j + 1))?,
            None => line.to_string(),
        };
        out.push(shifted);
    }
    Ok(out.join("\n"))
}

/// Which file line (0-based, in the window) each search line stands for,
/// given their fold keys: by position when the counts agree, else by
/// alignment.
fn file_line_of(s_keys: &[&str], f_keys: &[&str]) -> Vec<Option<usize>> {
    if s_keys.len() == f_keys.len() {
        return (0..s_keys.len()).map(Some).collect();
    }
    let mut file_of: Vec<Option<usize>> = vec![None; s_keys.len()];
    for (p, link) in align_lines(s_keys, f_keys).into_iter().enumerate() {
        if let LineLink::Equal(i) | LineLink::Changed(i) = link {
            if let Some(slot) = file_of.get_mut(i) {
                *slot = Some(p);
            }
        }
    }
    file_of
}

/// The indentation shift each search line implies with the file line it
/// stands for (`None` for a blank or unpaired line).
fn implied_shifts(
    s_lines: &[&str],
    f_lines: &[&str],
    file_of: &[Option<usize>],
) -> Vec<Option<IndentMap>> {
    s_lines
        .iter()
        .zip(file_of)
        .map(|(s, f)| {
            let f = f.and_then(|p| f_lines.get(p))?;
            if is_blank(s) || is_blank(f) {
                return None;
            }
            IndentMap::infer(&[(indent_of(s), indent_of(f))])
        })
        .collect()
}

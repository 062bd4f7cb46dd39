//! Prose as the prose tier sees it: units (words, CJK characters,
//! punctuation, Markdown markup, untouchable code) and the gaps between
//! them, each with a key under which two spellings of the same Markdown are
//! equal.
//!
//! What the key forgives, and where (never inside code spans, fenced code,
//! math, URLs, link destinations or HTML tags, which are single units
//! compared byte for byte):
//!
//! | the file | the model | key |
//! |---|---|---|
//! | `，。：；！？（）` | `,.:;!?()` | the half-width form |
//! | `“ ” ‘ ’` | `" '` | the straight form |
//! | `使用 Git` | `使用Git` | no gap between CJK and anything |
//! | a line break inside a paragraph | a space, or nothing between CJK | a soft gap |
//! | two trailing spaces before a break | a backslash before it | a hard break |
//! | `**` / `*` | `__` / `_` | the star form |
//! | `-` / `*` / `+` at a line start | another of them | a bullet |
//! | `3.` at a line start | `1.` | an ordered item |
//! | `<br />`, `<br/>` | `<br>` | `<br>` |
//! | `.` | `\.` (any ASCII punctuation) | the character |
//!
//! Words, CJK characters and the order of everything are compared exactly:
//! the key forgives form, never content.

pub(crate) mod conventions;

use crate::matcher::scan::find_iter;

/// What a unit is; the writer and the gap rule need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Letters and digits outside CJK (with `_` and apostrophes inside).
    Word,
    /// One CJK character (ideograph, kana, hangul).
    Cjk,
    /// One punctuation character (full-width ones included), or an escape.
    Punct,
    /// An emphasis delimiter run or a `<br>` tag.
    Markup,
    /// A bullet, ordered-item number, heading or quote marker at a line
    /// start.
    LineMarker,
    /// Code, math, a URL, a link destination or an HTML tag: byte for byte.
    Verbatim,
}

/// The whitespace between two units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gap {
    /// Nothing between them.
    None,
    /// Spaces, or a line break inside a paragraph.
    Soft,
    /// A hard line break (two trailing spaces or a backslash).
    Hard,
    /// A blank line.
    Para,
}

#[derive(Clone, Debug)]
pub(crate) struct Unit {
    /// Byte span in the text.
    pub start: usize,
    pub end: usize,
    pub class: Class,
    pub key: String,
}

/// A text cut into units.
pub(crate) struct Prose<'a> {
    pub text: &'a str,
    pub units: Vec<Unit>,
    /// `gaps[i]`: what stands between unit `i - 1` and unit `i`.
    pub gaps: Vec<Gap>,
}

// Separators of the key: private-use characters no unit key contains.
const SEP_NONE: char = '\u{E000}';
const SEP_SPACE: char = '\u{E001}';
const SEP_HARD: char = '\u{E002}';
const SEP_PARA: char = '\u{E003}';
const BULLET: &str = "\u{E010}";
const ORDERED: &str = "\u{E011}";
const HEADING: &str = "\u{E012}";
const QUOTE: &str = "\u{E013}";

/// The first character of the key's own vocabulary (separators and
/// markers); text holding one is given another key.
const KEY_RANGE: std::ops::RangeInclusive<char> = '\u{E000}'..='\u{E01F}';

/// A unit compared byte for byte: its text, with CRLF as LF and any
/// character of the key's vocabulary spelled out, so it never reads as a
/// separator.
fn verbatim_key(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    if !text.chars().any(|c| KEY_RANGE.contains(&c)) {
        return text;
    }
    text.chars()
        .map(|c| {
            if KEY_RANGE.contains(&c) {
                format!("\u{FFFD}{:x}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// What the line before was, for the ordered-item and indented-code rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    /// No line, or a blank one.
    Blank,
    /// A list item.
    Item,
    /// Anything else.
    Text,
}

/// The length of a fenced code or math block starting `body` (through its
/// closing fence line, or the end of the text when it is never closed): a
/// closing fence is a line of the same character, at least as long, with
/// at most three spaces before it and nothing after it.
fn fenced_block(body: &str) -> Option<usize> {
    let fence_char = match body.as_bytes().first() {
        Some(b'`') => '`',
        Some(b'~') => '~',
        Some(b'$') if body.starts_with("$$") => '$',
        _ => return None,
    };
    let run = body.len() - body.trim_start_matches(fence_char).len();
    if run < 2 || (fence_char != '$' && run < 3) {
        return None;
    }
    let first_end = body.find('\n').map_or(body.len(), |p| p + 1);
    // `$$x$$` on one line is inline math, not a block.
    if fence_char == '$' && body[run..first_end].contains("$$") {
        return None;
    }
    let mut at = first_end;
    while at < body.len() {
        let end = body[at..].find('\n').map_or(body.len(), |p| at + p + 1);
        let line = body[at..end].trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start_matches(' ');
        let closing_run = trimmed.len() - trimmed.trim_start_matches(fence_char).len();
        if line.len() - trimmed.len() <= 3
            && closing_run >= run
            && trimmed[closing_run..].trim().is_empty()
        {
            return Some(at + line.len());
        }
        at = end;
    }
    Some(body.len())
}

/// The length of a link reference definition's line (`[label]: dest`),
/// when `line` is one.
fn link_definition(line: &str) -> Option<usize> {
    let rest = line.strip_prefix('[')?;
    let close = rest.find("]:")?;
    (close > 0 && !rest[..close].contains(['[', ']'])).then_some(line.len())
}

/// Chinese and Japanese characters: text written without spaces between
/// words. (Korean separates its words with spaces: Hangul is a word
/// character.)
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}'
        | '\u{f900}'..='\u{faff}' | '\u{20000}'..='\u{2fa1f}')
}

/// Full-width punctuation and its half-width counterpart.
pub(crate) const WIDTH_PAIRS: [(char, char); 8] = [
    ('，', ','),
    ('。', '.'),
    ('：', ':'),
    ('；', ';'),
    ('！', '!'),
    ('？', '?'),
    ('（', '('),
    ('）', ')'),
];

pub(crate) fn is_full_width(c: char) -> bool {
    ('\u{3000}'..='\u{303f}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c)
}

/// The key of one punctuation character.
fn punct_key(c: char) -> char {
    match c {
        '“' | '”' => '"',
        '‘' | '’' => '\'',
        _ => WIDTH_PAIRS
            .iter()
            .find(|(full, _)| *full == c)
            .map_or(c, |&(_, half)| half),
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Characters that join a word when letters stand on both sides.
fn joins_word(c: char) -> bool {
    matches!(c, '_' | '\'' | '’')
}

fn is_ignorable(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

impl<'a> Prose<'a> {
    /// `text` cut into units; `at_line_start` says whether its first
    /// character starts a line (where a bullet is a bullet).
    pub(crate) fn of(text: &'a str, at_line_start: bool) -> Prose<'a> {
        let mut cutter = Cutter {
            text,
            pos: 0,
            line_start: at_line_start,
            units: Vec::new(),
            gaps: Vec::new(),
            gap: Gap::None,
            line_kind: LineKind::Blank,
        };
        cutter.run();
        Prose {
            text,
            units: cutter.units,
            gaps: cutter.gaps,
        }
    }

    /// The unit's text as written.
    pub(crate) fn unit_text(&self, i: usize) -> &'a str {
        self.units
            .get(i)
            .and_then(|u| self.text.get(u.start..u.end))
            .unwrap_or("")
    }

    /// The whitespace (and hard-break marker) between unit `i - 1` and `i`.
    pub(crate) fn gap_text(&self, i: usize) -> &'a str {
        match (
            i.checked_sub(1).and_then(|p| self.units.get(p)),
            self.units.get(i),
        ) {
            (Some(a), Some(b)) => self.text.get(a.end..b.start).unwrap_or(""),
            _ => "",
        }
    }

    pub(crate) fn keys(&self) -> Vec<&str> {
        self.units.iter().map(|u| u.key.as_str()).collect()
    }

    /// The key of the whole text, and where each unit's key starts in it.
    pub(crate) fn key(&self) -> (String, Vec<usize>) {
        let mut key = String::with_capacity(self.text.len() + self.units.len() * 3);
        let mut at = Vec::with_capacity(self.units.len());
        for (i, u) in self.units.iter().enumerate() {
            if i > 0 {
                key.push(self.separator(i));
            }
            at.push(key.len());
            key.push_str(&u.key);
        }
        (key, at)
    }

    /// The key's separator before unit `i`: a space counts only between
    /// two words (or code), never next to CJK text or punctuation.
    fn separator(&self, i: usize) -> char {
        match self.gaps[i] {
            Gap::Para => SEP_PARA,
            Gap::Hard => SEP_HARD,
            Gap::None => SEP_NONE,
            Gap::Soft => {
                // Emphasis next to a word depends on the space between them.
                let spaced = |c: Class| matches!(c, Class::Word | Class::Verbatim | Class::Markup);
                if spaced(self.units[i - 1].class) && spaced(self.units[i].class) {
                    SEP_SPACE
                } else {
                    SEP_NONE
                }
            }
        }
    }
}

/// Every place where `search`'s key occurs in `file`'s at unit
/// boundaries, as `(first unit, end unit)` of `file`.
pub(crate) fn occurrences(file: &Prose<'_>, search: &Prose<'_>) -> Vec<(usize, usize)> {
    let (fkey, fat) = file.key();
    let (skey, _) = search.key();
    if skey.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = fkey.get(from..).and_then(|h| find_iter(h, &skey).next()) {
        let start = from + p;
        let end = start + skey.len();
        let boundary =
            end == fkey.len() || fkey[end..].starts_with([SEP_NONE, SEP_SPACE, SEP_HARD, SEP_PARA]);
        if let (Ok(first), true) = (fat.binary_search(&start), boundary) {
            // The unit the match ends in: the last one starting before its end.
            let last = fat.partition_point(|&s| s < end);
            if last > first {
                out.push((first, last));
            }
        }
        from = start + fkey[start..].chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// The cutting state.
struct Cutter<'a> {
    text: &'a str,
    pos: usize,
    line_start: bool,
    units: Vec<Unit>,
    gaps: Vec<Gap>,
    /// The gap since the last unit.
    gap: Gap,
    /// What the line before the current one was.
    line_kind: LineKind,
}

impl Cutter<'_> {
    fn rest(&self) -> &str {
        &self.text[self.pos..]
    }

    fn push(&mut self, len: usize, class: Class, key: String) {
        let gap = if self.units.is_empty() {
            Gap::None
        } else {
            self.gap
        };
        self.units.push(Unit {
            start: self.pos,
            end: self.pos + len,
            class,
            key,
        });
        self.gaps.push(gap);
        self.pos += len;
        self.gap = Gap::None;
        self.line_start = false;
    }

    fn widen(&mut self, gap: Gap) {
        let rank = |g: Gap| match g {
            Gap::None => 0,
            Gap::Soft => 1,
            Gap::Hard => 2,
            Gap::Para => 3,
        };
        if rank(gap) > rank(self.gap) {
            self.gap = gap;
        }
    }

    fn run(&mut self) {
        while let Some(c) = self.rest().chars().next() {
            if self.line_start {
                // Consumes the indentation, and the marker if there is one.
                self.line_marker();
                continue;
            }
            if c == '\n' || c == '\r' {
                self.line_break();
                continue;
            }
            if c.is_whitespace() || is_ignorable(c) {
                self.pos += c.len_utf8();
                if c != '\u{feff}' && !is_ignorable(c) {
                    self.widen(Gap::Soft);
                }
                continue;
            }
            self.unit(c);
        }
    }

    /// A line break: soft, hard (after two spaces or a backslash) or a
    /// paragraph break (a blank line follows).
    fn line_break(&mut self) {
        let before = &self.text[..self.pos];
        let trailing = before.len() - before.trim_end_matches([' ', '\t']).len();
        let hard = trailing >= 2 && !self.units.is_empty();
        self.pos += if self.rest().starts_with("\r\n") {
            2
        } else {
            1
        };
        self.widen(if hard { Gap::Hard } else { Gap::Soft });
        let next = self.rest();
        let line = next.split('\n').next().unwrap_or("");
        if line.trim().is_empty() && next.contains('\n') {
            self.widen(Gap::Para);
        }
        self.line_start = true;
    }

    /// A bullet, ordered number, heading or quote marker at a line start
    /// (after its indentation), or a fenced block; `false` when the line
    /// starts otherwise.
    fn line_marker(&mut self) -> bool {
        let rest = self.rest();
        let body = rest.trim_start_matches([' ', '\t']);
        let indent = rest.len() - body.len();
        let columns = rest[..indent]
            .chars()
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum::<usize>();
        if indent > 0 {
            self.pos += indent;
            self.widen(Gap::Soft);
        }
        let previous = std::mem::replace(&mut self.line_kind, LineKind::Text);
        let body = &self.text[self.pos..];
        let line_end = body.find('\n').unwrap_or(body.len());
        let line = body[..line_end].trim_end_matches('\r');
        if line.trim().is_empty() {
            self.line_kind = LineKind::Blank;
            self.line_start = false;
            return false;
        }
        if let Some(end) = fenced_block(body) {
            let key = verbatim_key(&body[..end]);
            self.push(end, Class::Verbatim, key);
            return true;
        }
        let bullet = matches!(body.chars().next(), Some('-' | '*' | '+'))
            && body[1..].starts_with([' ', '\t']);
        let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        // An ordered item: up to three digits (a year is not an item
        // number), after a blank line, another item or the text's start,
        // or numbered 1 (which may interrupt a paragraph).
        let ordered = (1..=3).contains(&digits)
            && body[digits..].starts_with(['.', ')'])
            && body[digits + 1..].starts_with([' ', '\t'])
            && (previous != LineKind::Text || &body[..digits] == "1");
        // Code indented by four columns (not a list's nested item):
        // compared byte for byte, like fenced code.
        if columns >= 4 && previous == LineKind::Blank && !bullet && !ordered {
            let key = verbatim_key(line);
            self.push(line.len(), Class::Verbatim, key);
            self.line_kind = LineKind::Blank;
            return true;
        }
        // A link reference definition: its destination is untouchable.
        if let Some(def) = link_definition(line) {
            self.push(def, Class::Verbatim, verbatim_key(&line[..def]));
            return true;
        }
        let spaced = |n: usize| body[n..].starts_with([' ', '\t']);
        let marker: Option<(usize, String)> = match body.chars().next() {
            _ if bullet => Some((1, BULLET.into())),
            _ if ordered => Some((digits + 1, ORDERED.into())),
            Some('>') => Some((1, QUOTE.into())),
            Some('#') => {
                let n = body.len() - body.trim_start_matches('#').len();
                (n <= 6 && spaced(n)).then(|| (n, format!("{HEADING}{n}")))
            }
            _ => None,
        };
        self.line_start = false;
        match marker {
            Some((len, key)) => {
                self.push(len, Class::LineMarker, key);
                // A quote marker may be followed by another marker.
                self.line_start = body.starts_with('>');
                self.line_kind = if bullet || ordered {
                    LineKind::Item
                } else {
                    LineKind::Text
                };
                true
            }
            None => false,
        }
    }

    fn unit(&mut self, c: char) {
        let rest = self.rest();
        if let Some(len) = self.verbatim_len(rest).filter(|&l| l > 0) {
            let key = verbatim_key(&rest[..len]);
            self.push(len, Class::Verbatim, key);
            return;
        }
        if c == '\\' {
            if rest.len() == 1 {
                // A hard break whose line break was trimmed off.
                self.pos += 1;
                self.widen(Gap::Hard);
                return;
            }
            if let Some(next) = rest[1..].chars().next() {
                if next == '\n' || rest[1..].starts_with("\r\n") {
                    // A backslash hard break: part of the gap.
                    self.pos += 1;
                    self.widen(Gap::Hard);
                    return;
                }
                if next.is_ascii_punctuation() {
                    self.push(2, Class::Punct, next.to_string());
                    return;
                }
            }
        }
        if let Some(len) = br_tag(rest) {
            self.push(len, Class::Markup, "<br>".into());
            return;
        }
        if c == '*' || c == '_' {
            let prev = self.text[..self.pos].chars().next_back();
            let run = rest.len() - rest.trim_start_matches(c).len();
            let next = rest[run..].chars().next();
            let inside_word =
                c == '_' && prev.is_some_and(is_word_char) && next.is_some_and(is_word_char);
            // Whitespace on both sides (`5 * 3`): a character, not emphasis.
            let white = |c: Option<char>| c.is_none_or(char::is_whitespace);
            let character = white(prev) && white(next);
            if !(inside_word || character) {
                self.push(run, Class::Markup, "*".repeat(run));
                return;
            }
        }
        if is_word_char(c) {
            let len = word_len(rest);
            let key = rest[..len].replace('’', "'");
            self.push(len, Class::Word, key);
            return;
        }
        if is_cjk(c) {
            self.push(c.len_utf8(), Class::Cjk, c.to_string());
            return;
        }
        let key = if KEY_RANGE.contains(&c) {
            // The key's own separators, written in the text: a key of
            // their own, so they never read as a separator.
            format!("\u{FFFD}{:x}", u32::from(c))
        } else {
            punct_key(c).to_string()
        };
        self.push(c.len_utf8(), Class::Punct, key);
    }

    /// The length of a unit compared byte for byte that starts here: an
    /// inline code span, inline math, a URL, a link destination, an HTML
    /// tag (other than `<br>`).
    fn verbatim_len(&self, rest: &str) -> Option<usize> {
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let line = &rest[..line_end];
        if rest.starts_with('`') {
            let run = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..run];
            let mut from = run;
            while let Some(p) = rest[from..].find(fence) {
                let at = from + p;
                let after = rest[at + run..].starts_with('`');
                if !after {
                    return Some(at + run);
                }
                from = at + run + 1;
            }
            return None;
        }
        if rest.starts_with('$') && !rest.starts_with("$ ") {
            let close = line[1..].find('$').map(|p| p + 2)?;
            return (close > 2 && !line[..close - 1].ends_with(' ')).then_some(close);
        }
        if rest.starts_with("http://") || rest.starts_with("https://") || rest.starts_with("www.") {
            // CJK letters may be part of a URL (an IRI); full-width
            // punctuation after one is the sentence's.
            let len = line
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, ')' | '>' | '<' | '"') || is_full_width(c)
                })
                .unwrap_or(line.len());
            // A sentence's full stop or comma after a URL is not part of it.
            let url = line[..len].trim_end_matches(['.', ',', ';', ':', '!', '?']);
            return Some(url.len());
        }
        if rest.starts_with('(') && self.text[..self.pos].ends_with(']') {
            return balanced_parens(line);
        }
        if rest.starts_with('<') && br_tag(rest).is_none() {
            return html_len(rest);
        }
        None
    }
}

/// The length of a link destination `(…)` that starts `line`, with
/// balanced parentheses inside it (`(wiki/Rust_(lang))`).
fn balanced_parens(line: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in line.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Elements whose content is code, compared byte for byte with the tags.
const CODE_ELEMENTS: [&str; 7] = ["code", "pre", "kbd", "samp", "script", "style", "math"];

/// The length of an HTML tag that starts `rest` (over several lines, up to
/// a limit), and for an element whose content is code, through its closing
/// tag; `None` when `<` starts no tag.
fn html_len(rest: &str) -> Option<usize> {
    let second = rest[1..].chars().next()?;
    if !(second.is_ascii_alphabetic() || second == '/' || second == '!') {
        return None;
    }
    const TAG_LIMIT: usize = 4096;
    let window = &rest[..crate::text::floor_char_boundary(rest, TAG_LIMIT.min(rest.len()))];
    let tag_end = window.find('>')? + 1;
    let name: String = rest[1..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    if CODE_ELEMENTS.contains(&name.as_str()) {
        let close = format!("</{name}");
        let lower = rest.to_ascii_lowercase();
        if let Some(at) = lower[tag_end..].find(&close) {
            let from = tag_end + at;
            return Some(rest[from..].find('>').map_or(rest.len(), |p| from + p + 1));
        }
        return Some(rest.len());
    }
    Some(tag_end)
}

/// The length of a `<br>`, `<br/>` or `<br />` tag that starts `rest`.
fn br_tag(rest: &str) -> Option<usize> {
    ["<br />", "<br/>", "<br>"]
        .iter()
        .find(|t| rest.starts_with(**t))
        .map(|t| t.len())
}

/// The length of the word that starts `rest`: letters and digits, with
/// `_` and apostrophes between them.
fn word_len(rest: &str) -> usize {
    let mut end = 0;
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_word_char(c) {
            end = i + c.len_utf8();
            continue;
        }
        if joins_word(c) && chars.peek().is_some_and(|&(_, n)| is_word_char(n)) && end == i {
            continue;
        }
        break;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::{occurrences, Prose};

    fn key(text: &str) -> String {
        Prose::of(text, true)
            .key()
            .0
            .chars()
            .map(|c| match c {
                '\u{E000}' => '|',
                '\u{E001}' => '_',
                '\u{E002}' => 'H',
                '\u{E003}' => 'P',
                '\u{E010}' => 'B',
                '\u{E011}' => 'N',
                c => c,
            })
            .collect()
    }

    /// (file form, model form): the same key.
    const SAME: &[(&str, &str)] = &[
        ("使用 Git 提交，完成。", "使用Git提交,完成."),
        ("one two\nthree", "one two three"),
        ("中文\n换行", "中文换行"),
        ("**must** do", "__must__ do"),
        ("*a* b", "_a_ b"),
        ("- item\n- next", "* item\n+ next"),
        ("3. item\n4. next", "1. item\n2. next"),
        ("a<br />b", "a<br>b"),
        ("version 3.0 (beta)!", "version 3\\.0 \\(beta\\)\\!"),
        ("line  \nnext", "line\\\nnext"),
        ("it’s “here”", "it's \"here\""),
        ("snake_case name", "snake_case name"),
    ];

    /// (file form, model form): different keys.
    const DIFFERENT: &[(&str, &str)] = &[
        // Content.
        ("the cat", "the cot"),
        ("一二三", "一三二"),
        // Inside code, a URL, a link destination, HTML: byte for byte.
        ("run `a，b` now", "run `a,b` now"),
        ("see https://a.b/c_d now", "see https://a.b/c__d now"),
        ("[x](a_b.md)", "[x](a__b.md)"),
        ("<span class=\"a\">", "<span class='a'>"),
        // A soft break is not a hard one, a list typed on one line is not
        // a list.
        ("line  \nnext", "line\nnext"),
        ("- a\n- b", "- a - b"),
        // A space between two words counts.
        ("a b", "ab"),
    ];

    #[test]
    fn keys_forgive_form_not_content() {
        for &(file, model) in SAME {
            assert_eq!(key(file), key(model), "{file:?} vs {model:?}");
        }
        for &(file, model) in DIFFERENT {
            assert_ne!(key(file), key(model), "{file:?} vs {model:?}");
        }
    }

    #[test]
    fn occurrences_start_and_end_on_units() {
        let file = Prose::of("the word sword, words", true);
        let search = Prose::of("word", true);
        assert_eq!(occurrences(&file, &search), vec![(1, 2)]);
        let file = Prose::of("使用 Git 提交。再用 Git 提交。", true);
        let search = Prose::of("用Git提交", true);
        assert_eq!(occurrences(&file, &search).len(), 2);
    }
}

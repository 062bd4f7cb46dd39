//! Match-quality corpus (BENCHMARKS.md §2), shared by `cargo bench --bench
//! quality` (the full table) and the `quality` integration test (a smaller
//! corpus, asserting that no edit ever lands in the wrong place).
//!
//! The sources are real files not written by us, the same on every machine
//! after setup (see `sources.rs`): the Rust crates of editkit's own
//! dependency graph and the npm packages `package-lock.json` pins. From each chosen file we take real spans of 3–10 lines,
//! make the edit a model would make (a marker appended to one line), and
//! then perturb the SEARCH and the REPLACE the way models get them wrong.
//! Each case runs through `replace_text` in every mode and is classified:
//!
//! - `exact`: the result is byte for byte the file with the intended edit in
//!   the file's own formatting (what the safe strategies promise);
//! - `placed`: the edit landed on the right span and nothing outside it
//!   changed, but the result is not byte-identical to the intended one (a
//!   fuzzy strategy wrote the model's text as given);
//! - `refused`: an error, nothing changed (always allowed);
//! - `wrong`: anything else — the edit landed elsewhere, or text outside the
//!   span changed. Must be zero.
//!
//! For the `duplicate` kinds the span occurs twice; the only right outcome is
//! `AMBIGUOUS` listing both places, and any applied edit counts as wrong.

// The bench and the test each use part of this module.
#![allow(dead_code)]

use std::collections::HashMap;

use editkit::{plan_patch, replace_text, MatchMode, MatchOptions, PatchOptions};
use editkit::{Error, ErrorCode};

#[path = "prose.rs"]
pub mod prose;
#[path = "snippets.rs"]
pub mod snippets;
#[path = "sources.rs"]
pub mod sources;
pub use sources::{collect_sources, fingerprint, Source};

/// The text the intended edit appends to one line; it survives every
/// perturbation unchanged (letters, digits and `_` only).
pub const MARKER: &str = " EDITKIT_Q7";

/// How the model got the SEARCH (and its REPLACE) wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    // Formatting only: the safe mode must land these (≥ 97 %).
    IndentAdded,
    IndentDropped,
    TabsSpaces,
    TrailingSpaces,
    LineEndings,
    OverEscaped,
    CurlyQuotes,
    BlankLinesAround,
    // Formatting slips that must keep the file's own bytes (SPEC §6.8).
    UnevenTabsSpaces,
    FirstLineWrapped,
    InnerWhitespace,
    MixedLineEndings,
    TrailingDropped,
    Typographic,
    NormalForms,
    EscapedLiteralAdded,
    // Slips on the lines the edit changes (issue 35): the model's SEARCH
    // and REPLACE carry the same slip, and the edit changes a word inside
    // a line or adds a line; the file's bytes must stay on those lines too.
    TrailingWordChanged,
    InnerDoubledWordChanged,
    NewLineTrailing,
    NewLineInnerDoubled,
    // Content: only the fuzzy mode may land these (≥ 90 %).
    DroppedMiddleLine,
    AlteredMiddleLine,
    WrongNeighbourLine,
    // The span occurs twice: must be refused with both places listed.
    Duplicate,
    DuplicateReindented,
}

impl Kind {
    pub const ALL: [Kind; 25] = [
        Kind::IndentAdded,
        Kind::IndentDropped,
        Kind::TabsSpaces,
        Kind::TrailingSpaces,
        Kind::LineEndings,
        Kind::OverEscaped,
        Kind::CurlyQuotes,
        Kind::BlankLinesAround,
        Kind::UnevenTabsSpaces,
        Kind::FirstLineWrapped,
        Kind::InnerWhitespace,
        Kind::MixedLineEndings,
        Kind::TrailingDropped,
        Kind::Typographic,
        Kind::NormalForms,
        Kind::EscapedLiteralAdded,
        Kind::TrailingWordChanged,
        Kind::InnerDoubledWordChanged,
        Kind::NewLineTrailing,
        Kind::NewLineInnerDoubled,
        Kind::DroppedMiddleLine,
        Kind::AlteredMiddleLine,
        Kind::WrongNeighbourLine,
        Kind::Duplicate,
        Kind::DuplicateReindented,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::IndentAdded => "indent added",
            Kind::IndentDropped => "indent dropped",
            Kind::TabsSpaces => "tabs <-> spaces",
            Kind::TrailingSpaces => "trailing spaces",
            Kind::LineEndings => "CRLF <-> LF",
            Kind::OverEscaped => "over-escaped",
            Kind::CurlyQuotes => "curly quotes",
            Kind::BlankLinesAround => "blank lines around",
            Kind::UnevenTabsSpaces => "uneven tabs/spaces",
            Kind::FirstLineWrapped => "first line wrapped",
            Kind::InnerWhitespace => "inner whitespace",
            Kind::MixedLineEndings => "mixed CRLF/LF",
            Kind::TrailingDropped => "trailing dropped",
            Kind::Typographic => "dashes/NBSP/zero-width",
            Kind::NormalForms => "NFC search, NFD file",
            Kind::EscapedLiteralAdded => "escaped, new literal",
            Kind::TrailingWordChanged => "trailing, word changed",
            Kind::InnerDoubledWordChanged => "inner doubled, word changed",
            Kind::NewLineTrailing => "trailing, line added",
            Kind::NewLineInnerDoubled => "inner doubled, line added",
            Kind::DroppedMiddleLine => "dropped middle line",
            Kind::AlteredMiddleLine => "altered middle line",
            Kind::WrongNeighbourLine => "wrong neighbour line",
            Kind::Duplicate => "duplicate span",
            Kind::DuplicateReindented => "duplicate, reindented",
        }
    }

    pub fn group(self) -> Group {
        match self {
            Kind::DroppedMiddleLine | Kind::AlteredMiddleLine | Kind::WrongNeighbourLine => {
                Group::Content
            }
            Kind::Duplicate | Kind::DuplicateReindented => Group::Ambiguous,
            _ => Group::Formatting,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Formatting,
    Content,
    Ambiguous,
}

/// One perturbed edit and what a right answer looks like.
pub struct Case {
    pub kind: Kind,
    pub file: usize,
    pub search: String,
    pub replace: String,
    /// The file with the intended edit, in the file's own formatting.
    pub expected: String,
    /// Byte range of the region the edit may touch (the span, widened over
    /// the blank lines right around it).
    pub region: (usize, usize),
    /// The file as this case sees it, when the kind rewrites the span in
    /// the file (hard breaks, typographic characters) rather than in the
    /// search: the model then writes the plain form the file does not.
    pub content: Option<String>,
}

impl Case {
    /// The file this case edits.
    pub fn file_text<'a>(&'a self, source: &'a str) -> &'a str {
        self.content.as_deref().unwrap_or(source)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Exact,
    Placed,
    Refused,
    Wrong,
}

/// xorshift64*: deterministic choices without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

pub fn seed_of(text: &str) -> u64 {
    // FNV-1a over the content: the same file gives the same spans anywhere.
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Lines of a file with their byte starts (the last entry is the file end).
struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        if *starts.last().unwrap_or(&0) != text.len() {
            starts.push(text.len());
        }
        Lines { text, starts }
    }

    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` with its line break.
    fn line(&self, i: usize) -> &'a str {
        &self.text[self.starts[i]..self.starts[i + 1]]
    }

    fn span(&self, from: usize, to: usize) -> &'a str {
        &self.text[self.starts[from]..self.starts[to]]
    }

    fn blank(&self, i: usize) -> bool {
        self.line(i).trim().is_empty()
    }
}

/// A line worth anchoring on: some letters, not just punctuation.
fn substantive(line: &str) -> bool {
    line.chars().filter(|c| c.is_alphanumeric()).count() >= 6
}

/// Builds up to `per_file` cases of every kind from each source.
pub fn build_cases(sources: &[Source], per_file: usize) -> Vec<Case> {
    let mut cases = Vec::new();
    for (file, source) in sources.iter().enumerate() {
        let lines = Lines::new(&source.text);
        let mut rng = Rng::new(seed_of(&source.text));
        let unique = unique_spans(&lines, &mut rng, per_file * 6);
        for kind in Kind::ALL {
            let mut made = 0;
            if kind.group() == Group::Ambiguous {
                for (from, to) in duplicate_spans(&lines, per_file) {
                    if let Some(case) = make_case(kind, file, &lines, from, to) {
                        cases.push(case);
                    }
                }
                continue;
            }
            for &(from, to) in &unique {
                if made == per_file {
                    break;
                }
                if let Some(case) = make_case(kind, file, &lines, from, to) {
                    cases.push(case);
                    made += 1;
                }
            }
        }
    }
    cases
}

/// Random spans of 3–10 lines that start and end on substantive lines and
/// occur exactly once in the file.
fn unique_spans(lines: &Lines, rng: &mut Rng, want: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let n = lines.count();
    for _ in 0..want * 8 {
        if out.len() == want || n < 12 {
            break;
        }
        let len = 3 + rng.below(8);
        let from = 1 + rng.below(n.saturating_sub(len + 2));
        let to = from + len;
        if to + 1 >= n || !substantive(lines.line(from)) || !substantive(lines.line(to - 1)) {
            continue;
        }
        let text = lines.span(from, to);
        if lines.text.matches(text).count() != 1 || out.iter().any(|&(f, _)| f == from) {
            continue;
        }
        out.push((from, to));
    }
    out
}

/// Spans of 3–6 whole lines, with at least two substantive ones, whose text
/// occurs at least twice at line starts.
fn duplicate_spans(lines: &Lines, want: usize) -> Vec<(usize, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut out = Vec::new();
    for len in [4, 3, 5, 6] {
        for from in 0..lines.count().saturating_sub(len) {
            let to = from + len;
            if (from..to).filter(|&i| substantive(lines.line(i))).count() < 2
                || lines.blank(from)
                || lines.blank(to - 1)
            {
                continue;
            }
            let text = lines.span(from, to);
            match seen.get(text) {
                Some(&first) if first + len <= from => {
                    if out.len() < want && !out.iter().any(|&(f, t)| f < to && from < t) {
                        out.push((first, first + len));
                    }
                }
                Some(_) => {}
                None => {
                    seen.insert(text, from);
                }
            }
        }
        if out.len() >= want {
            break;
        }
    }
    out
}

fn indent_of(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

/// Applies a per-line transformation to the text of every line, keeping
/// each line break.
/// A line's indentation with tabs written as four spaces, or four spaces
/// as a tab when it has no tab.
fn swap_indent(line: &str) -> String {
    let indent = indent_of(line);
    if indent.contains('\t') {
        indent.replace('\t', "    ")
    } else {
        indent.replace("    ", "\t")
    }
}

fn map_lines(text: &str, mut f: impl FnMut(usize, &str) -> String) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        out.push_str(&f(i, body));
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// The line the intended edit changes, as an index into the span: a
/// substantive middle line where there is one.
fn edited_line(span: &str) -> usize {
    let lines: Vec<&str> = span.split_inclusive('\n').collect();
    let mid = lines.len() / 2;
    (mid..lines.len())
        .chain(0..mid)
        .find(|&i| substantive(lines[i]))
        .unwrap_or(0)
}

/// A substantive line strictly inside a span of at least `min_lines`
/// lines, other than the edited line `at`: the one a content slip changes.
fn other_middle_line(span: &str, at: usize, min_lines: usize) -> Option<usize> {
    let lines: Vec<&str> = span.split_inclusive('\n').collect();
    if lines.len() < min_lines {
        return None;
    }
    (1..lines.len() - 1).find(|&i| i != at && substantive(lines[i]))
}

fn with_marker(span: &str, at: usize) -> String {
    map_lines(span, |i, body| {
        if i == at {
            format!("{body}{MARKER}")
        } else {
            body.to_string()
        }
    })
}

/// Line `at` of `span` with its first word of three or more letters
/// renamed (an edit inside the line, not at its end).
fn with_word_changed(span: &str, at: usize) -> Option<String> {
    let mut changed = false;
    let out = map_lines(span, |i, body| {
        if i != at {
            return body.to_string();
        }
        let mut from = None;
        for (k, c) in body.char_indices() {
            match (c.is_ascii_alphabetic(), from) {
                (true, None) => from = Some(k),
                (false, Some(f)) if k - f >= 3 => {
                    changed = true;
                    return format!("{}_q7{}", &body[..k], &body[k..]);
                }
                (false, Some(_)) => from = None,
                _ => {}
            }
        }
        body.to_string()
    });
    changed.then_some(out)
}

/// `span` with a new line after line `at`: that line again, with the
/// marker (a line written in its neighbour's style).
fn with_line_added(span: &str, at: usize) -> String {
    map_lines(span, |i, body| {
        if i == at {
            format!("{body}\n{body}{MARKER}")
        } else {
            body.to_string()
        }
    })
}

/// Every line with two trailing spaces (blank lines too: a model pads
/// them all).
fn padded(_: usize, b: &str) -> String {
    format!("{b}  ")
}

/// The first single space between two non-blank characters doubled,
/// outside string literals (issue 43: a space inside a string is its
/// text, and no engine may guess it away; comments are included).
fn inner_doubled(_: usize, b: &str) -> String {
    let bytes = b.as_bytes();
    let indent = indent_of(b).len();
    let mut quote: Option<u8> = None;
    let mut k = indent;
    while k + 1 < bytes.len() {
        let c = bytes[k];
        match quote {
            Some(_) if c == b'\\' => k += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, b'"' | b'\'' | b'`') => quote = Some(c),
            None if c == b' ' && k > indent && bytes[k - 1] != b' ' && bytes[k + 1] != b' ' => {
                return format!("{} {}", &b[..k], &b[k..]);
            }
            None => {}
        }
        k += 1;
    }
    b.to_string()
}

fn make_case(kind: Kind, file: usize, lines: &Lines, from: usize, to: usize) -> Option<Case> {
    let text = lines.text;
    let span = lines.span(from, to);
    let at = edited_line(span);
    let mut edited = with_marker(span, at);
    if kind == Kind::EscapedLiteralAdded {
        // The edit adds a string literal with its own escape sequence,
        // which undoing the over-escaping must keep an escape.
        edited = edited.replacen(MARKER, &format!("{MARKER}(\"a\\nb\\t\")"), 1);
    }
    let uses_tabs = (0..lines.count()).any(|i| lines.line(i).starts_with('\t'));
    let (search, replace) = match kind {
        Kind::IndentAdded | Kind::DuplicateReindented => {
            let unit = if uses_tabs { "\t" } else { "    " };
            let f = |_: usize, b: &str| {
                if b.trim().is_empty() {
                    b.to_string()
                } else {
                    format!("{unit}{b}")
                }
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
        Kind::IndentDropped => {
            let common = span
                .split_inclusive('\n')
                .filter(|l| !l.trim().is_empty())
                .map(|l| indent_of(l).len())
                .min()?;
            if common == 0 {
                return None;
            }
            let f = |_: usize, b: &str| {
                b.get(common.min(indent_of(b).len())..)
                    .unwrap_or(b)
                    .to_string()
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
        Kind::TabsSpaces => {
            let f = |_: usize, b: &str| format!("{}{}", swap_indent(b), &b[indent_of(b).len()..]);
            let s = map_lines(span, f);
            if s == span {
                return None;
            }
            (s, map_lines(&edited, f))
        }
        Kind::TrailingSpaces => {
            let f = |i: usize, b: &str| {
                if i % 2 == 0 {
                    format!("{b}  ")
                } else {
                    b.to_string()
                }
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
        Kind::LineEndings => (span.replace('\n', "\r\n"), edited.replace('\n', "\r\n")),
        Kind::OverEscaped | Kind::EscapedLiteralAdded => (over_escape(span), over_escape(&edited)),
        Kind::CurlyQuotes => {
            if !span.contains('"') && !span.contains('\'') {
                return None;
            }
            (curl(span), curl(&edited))
        }
        Kind::BlankLinesAround => (format!("\n{span}\n"), format!("\n{edited}\n")),
        Kind::UnevenTabsSpaces => {
            // Every other line's indentation converted, the rest as in the
            // file; tabs inside those lines expanded too.
            let f = |i: usize, b: &str| {
                if i % 2 == 1 {
                    return b.to_string();
                }
                let rest = b[indent_of(b).len()..].replace('\t', "    ");
                format!("{}{rest}", swap_indent(b))
            };
            let s = map_lines(span, f);
            if s == span {
                return None;
            }
            (s, map_lines(&edited, f))
        }
        Kind::FirstLineWrapped => {
            let wrap = if file % 2 == 0 { "  " } else { "\n    " };
            (format!("{wrap}{span}"), format!("{wrap}{edited}"))
        }
        Kind::InnerWhitespace => {
            let f = |_: usize, b: &str| {
                let indent = indent_of(b);
                let mut out = indent.to_string();
                let mut gap = false;
                for c in b[indent.len()..].chars() {
                    if c == ' ' || c == '\t' {
                        gap = true;
                        continue;
                    }
                    if gap {
                        out.push(' ');
                        gap = false;
                    }
                    out.push(c);
                }
                out
            };
            let s = map_lines(span, f);
            if s == span {
                return None;
            }
            (s, map_lines(&edited, f))
        }
        Kind::MixedLineEndings => {
            // Every other line break written CRLF.
            let f = |t: &str| -> String {
                t.split_inclusive('\n')
                    .enumerate()
                    .map(|(i, l)| match l.strip_suffix('\n') {
                        Some(b) if i % 2 == 0 => format!("{b}\r\n"),
                        _ => l.to_string(),
                    })
                    .collect()
            };
            (f(span), f(&edited))
        }
        Kind::TrailingDropped | Kind::Typographic | Kind::NormalForms => {
            return file_variant_case(kind, file, lines, from, to, at);
        }
        Kind::DroppedMiddleLine => {
            let drop = other_middle_line(span, at, 5)?;
            let keep = |s: &str| {
                s.split_inclusive('\n')
                    .enumerate()
                    .filter(|(i, _)| *i != drop)
                    .map(|(_, l)| l)
                    .collect()
            };
            (keep(span), keep(&edited))
        }
        Kind::AlteredMiddleLine => {
            let alter = other_middle_line(span, at, 4)?;
            let f = |i: usize, b: &str| {
                if i == alter {
                    misremember(b)
                } else {
                    b.to_string()
                }
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
        Kind::WrongNeighbourLine => {
            // The model's span runs one line too far, and it remembers that
            // line wrong: the region it edits includes the neighbour.
            if to >= lines.count() || !substantive(lines.line(to)) {
                return None;
            }
            let neighbour = misremember_line(lines.line(to));
            let with_neighbour = |s: &str| {
                let mut s = s.to_string();
                if !s.ends_with('\n') {
                    s.push('\n');
                }
                s.push_str(&neighbour);
                s
            };
            (with_neighbour(span), with_neighbour(&edited))
        }
        Kind::Duplicate => (span.to_string(), edited.clone()),
        Kind::TrailingWordChanged | Kind::InnerDoubledWordChanged => {
            edited = with_word_changed(span, at)?;
            let f = if kind == Kind::TrailingWordChanged {
                padded
            } else {
                inner_doubled
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
        Kind::NewLineTrailing | Kind::NewLineInnerDoubled => {
            edited = with_line_added(span, at);
            let f = if kind == Kind::NewLineTrailing {
                padded
            } else {
                inner_doubled
            };
            (map_lines(span, f), map_lines(&edited, f))
        }
    };
    if search == replace {
        return None;
    }
    let expected = format!(
        "{}{}{}",
        &text[..lines.starts[from]],
        edited,
        &text[lines.starts[to]..]
    );
    // The edit may also take in the blank lines right around the span.
    let mut up = from;
    while up > 0 && lines.blank(up - 1) {
        up -= 1;
    }
    let mut down = if kind == Kind::WrongNeighbourLine {
        to + 1
    } else {
        to
    };
    while down < lines.count() && lines.blank(down) {
        down += 1;
    }
    let region = (lines.starts[up], lines.starts[down]);
    // A perturbed search that occurs verbatim in the file is no slip: where
    // it occurs elsewhere it names that place, and where it occurs here the
    // perturbation changed nothing that matters. Only the duplicate kind is
    // verbatim on purpose.
    if kind != Kind::Duplicate && text.contains(search.as_str()) {
        return None;
    }
    Some(Case {
        kind,
        file,
        search,
        replace,
        expected,
        region,
        content: None,
    })
}

/// A case whose file carries what models do not type — Markdown hard
/// breaks (two trailing spaces on every other line) or typographic
/// characters (curly quotes, en dashes, an ellipsis, NBSP, a zero-width
/// space) — made from the real span; the search and the replacement are
/// the plain span and its edit. The right result keeps the file's form on
/// the edited line too (SPEC §6.8).
fn file_variant_case(
    kind: Kind,
    file: usize,
    lines: &Lines,
    from: usize,
    to: usize,
    at: usize,
) -> Option<Case> {
    let text = lines.text;
    let span = lines.span(from, to);
    let mut search = span.to_string();
    let (variant, edited_variant) = match kind {
        Kind::TrailingDropped => {
            let f = |i: usize, b: &str| {
                if i % 2 == 0 && !b.trim().is_empty() {
                    format!("{}  ", b.trim_end())
                } else {
                    b.to_string()
                }
            };
            (map_lines(span, f), map_lines(&with_marker(span, at), f))
        }
        Kind::NormalForms => {
            // An accented word on every line: decomposed in the file (as
            // macOS writes file names), precomposed as a model types it.
            // Spans with other non-ASCII text are left out: the file would
            // mix both forms.
            if !span.is_ascii() {
                return None;
            }
            search = accented(span, "\u{e9}");
            let v = accented(span, "e\u{301}");
            let edited = with_marker(&v, at);
            (v, edited)
        }
        _ => {
            let v = typographic(span);
            let edited = with_marker(&v, at);
            (v, edited)
        }
    };
    if variant == span {
        return None;
    }
    let (lo, hi) = (lines.starts[from], lines.starts[to]);
    let content = format!("{}{variant}{}", &text[..lo], &text[hi..]);
    let expected = format!("{}{edited_variant}{}", &text[..lo], &text[hi..]);
    // The plain span elsewhere in the file, even reindented, would be a
    // second place (found by an earlier strategy than this one's).
    if content.contains(search.as_str()) || occurs_trimmed_elsewhere(lines, from, to) {
        return None;
    }
    let mut up = from;
    while up > 0 && lines.blank(up - 1) {
        up -= 1;
    }
    let mut down = to;
    while down < lines.count() && lines.blank(down) {
        down += 1;
    }
    let grown = variant.len() - span.len();
    Some(Case {
        kind,
        file,
        replace: with_marker(&search, at),
        search,
        expected,
        region: (lines.starts[up], lines.starts[down] + grown),
        content: Some(content),
    })
}

/// `accent` (an é, composed or not) after the first word of every line.
fn accented(span: &str, accent: &str) -> String {
    map_lines(span, |_, b| {
        let start = b.find(|c: char| c.is_alphanumeric());
        let Some(start) = start else {
            return b.to_string();
        };
        let end = b[start..]
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .map_or(b.len(), |e| start + e);
        format!("{}{accent}{}", &b[..end], &b[end..])
    })
}

/// Whether the lines `from..to`, each trimmed, occur again elsewhere in
/// the file.
fn occurs_trimmed_elsewhere(lines: &Lines, from: usize, to: usize) -> bool {
    let n = to - from;
    let same = |w: usize| (0..n).all(|i| lines.line(w + i).trim() == lines.line(from + i).trim());
    (0..=lines.count().saturating_sub(n)).any(|w| w != from && same(w))
}

/// The span as a word processor or a careful writer would have it: double
/// quotes curled in pairs, ` - ` as an en dash, `...` as an ellipsis, the
/// space after the first comma of a line as an NBSP, and a zero-width space
/// after the first `(` of a line.
fn typographic(span: &str) -> String {
    map_lines(span, |_, b| {
        let mut line = b.replace(" - ", " \u{2013} ").replace("...", "\u{2026}");
        if line.matches('"').count() % 2 == 0 {
            let mut open = true;
            line = line
                .chars()
                .map(|c| match c {
                    '"' => {
                        let q = if open { '\u{201c}' } else { '\u{201d}' };
                        open = !open;
                        q
                    }
                    c => c,
                })
                .collect();
        }
        if let Some(i) = line.find(", ") {
            line.replace_range(i + 1..i + 2, "\u{a0}");
        }
        if let Some(i) = line.find('(') {
            line.insert(i + 1, '\u{200b}');
        }
        line
    })
}

/// JSON-string style escaping, one level: what a model does when it writes
/// code inside a string.
fn over_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            _ => out.push(c),
        }
    }
    out
}

/// Straight quotes curled as a word processor would.
fn curl(s: &str) -> String {
    let mut open = true;
    s.chars()
        .map(|c| match c {
            '"' => {
                open = !open;
                if open {
                    '\u{201d}'
                } else {
                    '\u{201c}'
                }
            }
            '\'' => '\u{2019}',
            c => c,
        })
        .collect()
}

/// One identifier of the line remembered wrong (the longest word gets a
/// suffix), the rest of the line intact.
fn misremember(body: &str) -> String {
    let mut best: Option<(usize, usize)> = None;
    let mut start = None;
    for (i, c) in body
        .char_indices()
        .chain(std::iter::once((body.len(), ' ')))
    {
        let word = c.is_alphanumeric() || c == '_';
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                if best.is_none_or(|(bs, be)| i - s > be - bs) {
                    best = Some((s, i));
                }
                start = None;
            }
            _ => {}
        }
    }
    match best {
        Some((_, e)) => format!("{}Value{}", &body[..e], &body[e..]),
        None => format!("{body} x"),
    }
}

fn misremember_line(line: &str) -> String {
    let body = line.strip_suffix('\n').unwrap_or(line);
    let mut out = misremember(body);
    if line.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Runs one case in one mode and classifies the outcome; the error code
/// comes with a refusal.
pub fn run_case(case: &Case, source: &str, mode: MatchMode) -> (Outcome, Option<ErrorCode>) {
    let options = MatchOptions {
        mode,
        ..MatchOptions::default()
    };
    let source = case.file_text(source);
    let result = replace_text(source, &case.search, &case.replace, &options);
    classify(
        case,
        source,
        result.as_ref().map(|r| r.content.as_str()).map_err(Some),
    )
}

/// The outcome of one case from what the edit gave: the new text, or the
/// refusal (`None`: refused without an error to name).
fn classify(
    case: &Case,
    source: &str,
    result: Result<&str, Option<&Error>>,
) -> (Outcome, Option<ErrorCode>) {
    let content = match result {
        Ok(content) => content,
        Err(e) => {
            let code = e.map(|e| e.code);
            // An ambiguity must list every place it saw.
            let unlisted =
                e.is_some_and(|e| e.code == ErrorCode::Ambiguous && e.details.candidates.len() < 2);
            return (
                if unlisted {
                    Outcome::Wrong
                } else {
                    Outcome::Refused
                },
                code,
            );
        }
    };
    if case.kind.group() == Group::Ambiguous {
        return (Outcome::Wrong, None);
    }
    if content == case.expected {
        return (Outcome::Exact, None);
    }
    let (lo, hi) = case.region;
    let placed = content.len() >= lo + (source.len() - hi)
        && content.starts_with(&source[..lo])
        && content.ends_with(&source[hi..])
        && content.matches(MARKER.trim()).count() == 1;
    (
        if placed {
            Outcome::Placed
        } else {
            Outcome::Wrong
        },
        None,
    )
}

/// The case as one codex patch hunk: the lines SEARCH and REPLACE share
/// at both ends are context (carrying the same slips as the SEARCH), the
/// rest removed and added lines.
pub fn patch_text(case: &Case) -> String {
    let trim = |t: &str| t.strip_suffix('\n').unwrap_or(t).to_string();
    let (search, replace) = (trim(&case.search), trim(&case.replace));
    let old: Vec<&str> = search.split('\n').collect();
    let new: Vec<&str> = replace.split('\n').collect();
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = String::from("*** Begin Patch\n*** Update File: f\n@@\n");
    let mut line = |prefix: char, l: &str| {
        out.push(prefix);
        out.push_str(l.strip_suffix('\r').unwrap_or(l));
        out.push('\n');
    };
    old[..head].iter().for_each(|l| line(' ', l));
    old[head..old.len() - tail]
        .iter()
        .for_each(|l| line('-', l));
    new[head..new.len() - tail]
        .iter()
        .for_each(|l| line('+', l));
    old[old.len() - tail..].iter().for_each(|l| line(' ', l));
    out.push_str("*** End Patch\n");
    out
}

/// Runs one case as a codex patch (safe mode, the patch planner) and
/// classifies it like [`run_case`].
pub fn run_patch_case(case: &Case, source: &str) -> (Outcome, Option<ErrorCode>) {
    let source = case.file_text(source);
    let files = std::collections::BTreeMap::from([("f".to_string(), source.to_string())]);
    let report = match plan_patch(&files, &patch_text(case), &PatchOptions::default()) {
        Ok(r) => r,
        Err(e) => return (Outcome::Refused, Some(e.code)),
    };
    let file = &report.files[0];
    let result = match file.content.as_deref().filter(|_| report.ok) {
        Some(content) => Ok(content),
        None => Err(file.error.as_ref()),
    };
    classify(case, source, result)
}

/// Every case as a codex patch: a tally per kind, and the cases that went
/// wrong.
pub fn evaluate_patches(sources: &[Source], cases: &[Case]) -> (HashMap<Kind, Tally>, Vec<usize>) {
    let mut tallies: HashMap<Kind, Tally> = HashMap::new();
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let (outcome, code) = run_patch_case(case, &sources[case.file].text);
        tallies.entry(case.kind).or_default().add(outcome, code);
        if outcome == Outcome::Wrong {
            wrong.push(i);
        }
    }
    (tallies, wrong)
}

/// Tallies per perturbation kind and mode.
pub type Tallies = HashMap<(Kind, MatchMode), Tally>;

/// Counts per (kind, mode).
#[derive(Default, Clone, Copy, Debug)]
pub struct Tally {
    pub cases: u32,
    pub exact: u32,
    pub placed: u32,
    pub refused: u32,
    /// Refusals as `AMBIGUOUS` with every place listed.
    pub ambiguous: u32,
    pub wrong: u32,
}

impl Tally {
    pub fn add(&mut self, outcome: Outcome, code: Option<ErrorCode>) {
        self.cases += 1;
        if outcome == Outcome::Refused && code == Some(ErrorCode::Ambiguous) {
            self.ambiguous += 1;
        }
        match outcome {
            Outcome::Exact => self.exact += 1,
            Outcome::Placed => self.placed += 1,
            Outcome::Refused => self.refused += 1,
            Outcome::Wrong => self.wrong += 1,
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.cases += other.cases;
        self.exact += other.exact;
        self.placed += other.placed;
        self.refused += other.refused;
        self.ambiguous += other.ambiguous;
        self.wrong += other.wrong;
    }

    /// Share of cases where the edit landed on the right span.
    pub fn recall(&self) -> f64 {
        if self.cases == 0 {
            return 0.0;
        }
        f64::from(self.exact + self.placed) / f64::from(self.cases)
    }
}

pub const MODES: [MatchMode; 3] = [MatchMode::Exact, MatchMode::Safe, MatchMode::Fuzzy];

/// Runs every case in every mode: tallies per kind and mode, plus the
/// cases that went wrong (for the report).
pub fn evaluate(sources: &[Source], cases: &[Case]) -> (Tallies, Vec<(usize, MatchMode)>) {
    let mut tallies = Tallies::new();
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        for mode in MODES {
            let (outcome, code) = run_case(case, &sources[case.file].text, mode);
            tallies
                .entry((case.kind, mode))
                .or_default()
                .add(outcome, code);
            if outcome == Outcome::Wrong {
                wrong.push((i, mode));
            }
        }
    }
    (tallies, wrong)
}

/// The tally of a whole group of kinds in one mode.
pub fn group_tally(tallies: &Tallies, group: Group, mode: MatchMode) -> Tally {
    let mut total = Tally::default();
    for kind in Kind::ALL.into_iter().filter(|k| k.group() == group) {
        if let Some(t) = tallies.get(&(kind, mode)) {
            total.merge(t);
        }
    }
    total
}

// ---------------------------------------------------------------------------
// The planner corpus (SPEC §7): a range edit planned on a real span, then
// applied after the file changed under it.

/// How the file changed between prepare and apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlannerKind {
    /// Unchanged: applies in place.
    Unchanged,
    /// Lines inserted above the span: the context is found shifted.
    Shifted,
    /// Lines above shifted and the span's context reindented by a tab.
    ShiftedReindented,
    /// `"zz\n" + file + file`: the context is at two places.
    Duplicated,
    /// The span and its context removed.
    Vanished,
    /// The context lines around the span removed, the span kept.
    ContextVanished,
}

impl PlannerKind {
    pub const ALL: [PlannerKind; 6] = [
        PlannerKind::Unchanged,
        PlannerKind::Shifted,
        PlannerKind::ShiftedReindented,
        PlannerKind::Duplicated,
        PlannerKind::Vanished,
        PlannerKind::ContextVanished,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PlannerKind::Unchanged => "unchanged",
            PlannerKind::Shifted => "shifted",
            PlannerKind::ShiftedReindented => "shifted, reindented",
            PlannerKind::Duplicated => "context duplicated",
            PlannerKind::Vanished => "span vanished",
            PlannerKind::ContextVanished => "context vanished",
        }
    }

    /// Whether the only right outcome is `rejected`.
    pub fn must_reject(self) -> bool {
        matches!(
            self,
            PlannerKind::Duplicated | PlannerKind::Vanished | PlannerKind::ContextVanished
        )
    }
}

/// One planned range edit and the file it is applied to.
pub struct PlannerCase {
    pub kind: PlannerKind,
    pub file: usize,
    /// 1-based inclusive range, as `prepareRangeEdit` takes it.
    pub range: String,
    pub new_text: String,
    /// The file when it is applied.
    pub applied_on: String,
    /// The right result when it must apply.
    pub expected: Option<String>,
}

/// Lines the planner keeps as context on each side (seed 001).
const PLANNER_CONTEXT: usize = 3;

pub fn build_planner_cases(sources: &[Source], per_file: usize) -> Vec<PlannerCase> {
    let mut cases = Vec::new();
    for (file, source) in sources.iter().enumerate() {
        let lines = Lines::new(&source.text);
        let mut rng = Rng::new(seed_of(&source.text) ^ 0x9e37_79b9);
        for (from, to) in unique_spans(&lines, &mut rng, per_file) {
            if from < PLANNER_CONTEXT || to + PLANNER_CONTEXT >= lines.count() {
                continue;
            }
            for kind in PlannerKind::ALL {
                if let Some(case) = planner_case(kind, file, &lines, from, to) {
                    cases.push(case);
                }
            }
        }
    }
    cases
}

fn planner_case(
    kind: PlannerKind,
    file: usize,
    lines: &Lines,
    from: usize,
    to: usize,
) -> Option<PlannerCase> {
    let text = lines.text;
    let span = lines.span(from, to);
    let edited = with_marker(span, edited_line(span));
    let new_text = edited.strip_suffix('\n').unwrap_or(&edited).to_string();
    let (before, after) = (&text[..lines.starts[from]], &text[lines.starts[to]..]);
    let inserted = "// inserted above 1\n// inserted above 2\n";
    let (applied_on, expected) = match kind {
        PlannerKind::Unchanged => (text.to_string(), Some(format!("{before}{edited}{after}"))),
        PlannerKind::Shifted => (
            format!("{inserted}{text}"),
            Some(format!("{inserted}{before}{edited}{after}")),
        ),
        PlannerKind::ShiftedReindented => {
            // Everything from the context above to the context below moves
            // in by a tab: found under the safe strategies' normalisation.
            let lo = lines.starts[from - PLANNER_CONTEXT];
            let hi = lines.starts[to + PLANNER_CONTEXT];
            let tab = |t: &str| {
                map_lines(t, |_, b| {
                    if b.is_empty() {
                        String::new()
                    } else {
                        format!("\t{b}")
                    }
                })
            };
            let applied = format!(
                "{inserted}{}{}{}",
                &text[..lo],
                tab(&text[lo..hi]),
                &text[hi..]
            );
            let mid = format!(
                "{}{}{}",
                tab(&text[lo..lines.starts[from]]),
                tab(&edited),
                tab(&text[lines.starts[to]..hi])
            );
            (
                applied,
                Some(format!("{inserted}{}{mid}{}", &text[..lo], &text[hi..])),
            )
        }
        PlannerKind::Duplicated => (format!("zz\n{text}{text}"), None),
        PlannerKind::Vanished => {
            let lo = lines.starts[from - PLANNER_CONTEXT];
            let hi = lines.starts[to + PLANNER_CONTEXT];
            (format!("{}{}", &text[..lo], &text[hi..]), None)
        }
        PlannerKind::ContextVanished => {
            let lo = lines.starts[from - PLANNER_CONTEXT];
            let hi = lines.starts[to + PLANNER_CONTEXT];
            (format!("{}{span}{}", &text[..lo], &text[hi..]), None)
        }
    };
    if !text.ends_with('\n') {
        return None;
    }
    Some(PlannerCase {
        kind,
        file,
        range: format!("{}~{}", from + 1, to),
        new_text,
        applied_on,
        expected,
    })
}

/// Plans the case on the source and applies it to the changed file.
pub fn run_planner_case(case: &PlannerCase, source: &str) -> Outcome {
    use editkit::{FileApplyOptions, FileEditSession, FileEditSessionOptions, RangeEditOptions};
    let mut session = FileEditSession::new(FileEditSessionOptions::default());
    let plan = session.prepare_range_edit(
        RangeEditOptions {
            path: "a.txt".into(),
            content: Some(source.to_string()),
            range: case.range.clone(),
            new_text: case.new_text.clone(),
            owner: "bench".into(),
            ..RangeEditOptions::default()
        },
        0.0,
    );
    let Ok(plan) = plan else {
        return Outcome::Refused;
    };
    let applied = session.apply(
        FileApplyOptions {
            hunk_id: plan.hunk_id,
            owner: "bench".into(),
            content: Some(case.applied_on.clone()),
            ..FileApplyOptions::default()
        },
        1.0,
    );
    match (applied, &case.expected) {
        (Err(_), _) => Outcome::Refused,
        (Ok(r), _) if r.status != "ok" => {
            if case.kind.must_reject() {
                Outcome::Exact
            } else {
                Outcome::Refused
            }
        }
        (Ok(r), Some(expected)) if &r.content == expected => Outcome::Exact,
        (Ok(_), _) => Outcome::Wrong,
    }
}

/// Per planner kind: (cases, right, refused, wrong).
pub fn evaluate_planner(
    sources: &[Source],
    cases: &[PlannerCase],
) -> HashMap<PlannerKind, (u32, u32, u32, u32)> {
    let mut out: HashMap<PlannerKind, (u32, u32, u32, u32)> = HashMap::new();
    for case in cases {
        let t = out.entry(case.kind).or_default();
        t.0 += 1;
        match run_planner_case(case, &sources[case.file].text) {
            Outcome::Exact | Outcome::Placed => t.1 += 1,
            Outcome::Refused => t.2 += 1,
            Outcome::Wrong => t.3 += 1,
        }
    }
    out
}

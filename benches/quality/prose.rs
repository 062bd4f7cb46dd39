//! The prose corpus (issues 36 and 43): Markdown in Chinese and English,
//! with the slips models make when they quote prose back. Two sets of
//! documents:
//!
//! - third-party: the READMEs, guides and change logs of the packages
//!   `Cargo.lock` and `package-lock.json` pin ([`third_party_docs`]; vditor's
//!   README is in Chinese), the same on every machine after setup;
//! - our own: `tests/data/prose/` (see its README), each document keeping
//!   one set of conventions so that a failure points at one behaviour.
//!
//! Shared by `cargo bench --bench quality` (printed beside the code kinds)
//! and the `quality` integration test (no wrong edit in any run).
//!
//! Each case takes a span of a document (a few lines of one block, or one
//! hard-wrapped paragraph), makes the edit a model would make (a marker
//! appended to one line, or a word replaced), and writes the SEARCH and
//! REPLACE with one prose slip. The outcome:
//!
//! - `exact`: byte for byte the document with the edit in the document's
//!   own form (its punctuation width, spacing, markers, line breaks);
//! - `placed`: the document with the edit, where only the text the model
//!   changed (the new word or marker) is written in the model's form;
//! - `refused`: an error, nothing changed;
//! - `wrong`: anything else — text the model did not change written in
//!   the model's form (its line breaks, `__` where the file has `**`, a
//!   half-width comma in a Chinese sentence), text outside the span
//!   changed, or a word lost, repeated or moved. Must be zero in every run.

use std::collections::HashMap;
use std::path::PathBuf;

use editkit::{replace_text, MatchMode, MatchOptions};

use super::sources::collect_markdown;
use super::{Outcome, Tally};

/// Appended to the edited line; letters, digits and `_`, untouched by every
/// slip below.
pub const MARKER: &str = " EDITKIT_Q7";

/// The line the `re-wrapped` kind adds after the paragraph.
const NEW_LINE: &str = "EDITKIT_Q7 works on every platform.";

/// A word the `re-wrapped, word changed` kind writes in place of one.
const NEW_WORD: &str = "EDITKIT_W9";

/// One document of `tests/data/prose/`.
pub struct Doc {
    pub name: String,
    pub text: String,
}

/// Every `.md` document of `tests/data/prose/` except its README, by name.
pub fn load_docs() -> Vec<Doc> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/prose");
    let mut docs: Vec<Doc> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .filter(|p| p.file_name().is_some_and(|n| n != "README.md"))
        .map(|p| Doc {
            name: p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned(),
            text: std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        })
        .collect();
    docs.sort_by(|a, b| a.name.cmp(&b.name));
    docs
}

/// Up to `max_docs` Markdown documents of the locked packages, named
/// `<crate>-<version>/<path>` or `node_modules/<package>/<path>`.
pub fn third_party_docs(max_docs: usize) -> Vec<Doc> {
    collect_markdown(max_docs)
        .into_iter()
        .map(|s| Doc {
            name: s.name,
            text: s.text,
        })
        .collect()
}

/// The slip in the model's SEARCH and REPLACE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProseKind {
    /// A hard-wrapped paragraph quoted on one line, a line added after it.
    ReWrapped,
    /// The same, with a word of the second line changed.
    ReWrappedWordChanged,
    /// Half-width punctuation where the file has full-width.
    Width,
    /// Spaces between CJK and Latin text added or dropped.
    CjkSpacing,
    /// `__` for `**` and back.
    Emphasis,
    /// `*` for `-` list markers and back.
    ListMarkers,
    /// An ordered list renumbered from 1.
    OrderedNumbers,
    /// `<br>` for `<br />` and back.
    BrTags,
    /// Backslash escapes of characters that need none.
    NeedlessEscapes,
    /// A backslash hard break for two trailing spaces and back.
    HardBreaks,
    /// Straight quotes where the line has curly ones, or curly where it
    /// has straight.
    InlineQuotes,
}

impl ProseKind {
    pub const ALL: [ProseKind; 11] = [
        ProseKind::ReWrapped,
        ProseKind::ReWrappedWordChanged,
        ProseKind::Width,
        ProseKind::CjkSpacing,
        ProseKind::Emphasis,
        ProseKind::ListMarkers,
        ProseKind::OrderedNumbers,
        ProseKind::BrTags,
        ProseKind::NeedlessEscapes,
        ProseKind::HardBreaks,
        ProseKind::InlineQuotes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ProseKind::ReWrapped => "prose: re-wrapped",
            ProseKind::ReWrappedWordChanged => "prose: re-wrapped, word",
            ProseKind::Width => "prose: full/half width",
            ProseKind::CjkSpacing => "prose: CJK-Latin spaces",
            ProseKind::Emphasis => "prose: ** vs __",
            ProseKind::ListMarkers => "prose: list markers",
            ProseKind::OrderedNumbers => "prose: list numbers",
            ProseKind::BrTags => "prose: <br> vs <br />",
            ProseKind::NeedlessEscapes => "prose: needless escapes",
            ProseKind::HardBreaks => "prose: hard breaks",
            ProseKind::InlineQuotes => "prose: quotes in a line",
        }
    }
}

/// One prose edit and what a right answer looks like.
pub struct ProseCase {
    pub kind: ProseKind,
    pub doc: usize,
    pub search: String,
    pub replace: String,
    /// The document with the edit in its own form.
    pub expected: String,
}

/// How prose is edited: a mode, with the prose tier (`prose: true`, what
/// the hosts set for Markdown and SiYuan text) or without it (a caller
/// that did not say the text is prose).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Run {
    pub mode: MatchMode,
    pub prose: bool,
}

impl Run {
    pub fn options(self) -> MatchOptions {
        MatchOptions {
            mode: self.mode,
            prose: self.prose,
            ..MatchOptions::default()
        }
    }

    pub fn name(self) -> &'static str {
        match (self.mode, self.prose) {
            (MatchMode::Safe, true) => "safe",
            (MatchMode::Fuzzy, true) => "fuzzy",
            (MatchMode::Safe, false) => "safe, no prose",
            (MatchMode::Fuzzy, false) => "fuzzy, no prose",
            (MatchMode::Exact, _) => "exact",
        }
    }
}

/// The runs prose is measured in: safe and fuzzy, with the prose tier and
/// without it (no wrong edit even where nobody said "prose").
pub const RUNS: [Run; 4] = [
    Run {
        mode: MatchMode::Safe,
        prose: true,
    },
    Run {
        mode: MatchMode::Fuzzy,
        prose: true,
    },
    Run {
        mode: MatchMode::Safe,
        prose: false,
    },
    Run {
        mode: MatchMode::Fuzzy,
        prose: false,
    },
];

// ---------------------------------------------------------------------------
// Documents as blocks.

/// A document's lines with their byte starts, and the blocks (runs of
/// non-blank lines outside fenced code) they form.
struct Layout<'a> {
    text: &'a str,
    starts: Vec<usize>,
    /// `(first line, end line)` of each block.
    blocks: Vec<(usize, usize)>,
}

impl<'a> Layout<'a> {
    fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        if *starts.last().unwrap_or(&0) != text.len() {
            starts.push(text.len());
        }
        let mut layout = Layout {
            text,
            starts,
            blocks: Vec::new(),
        };
        let mut in_fence = false;
        let mut open: Option<usize> = None;
        for i in 0..layout.count() {
            let line = layout.line(i).trim();
            let fence = line.starts_with("```") || line.starts_with("~~~");
            if fence || in_fence || line.is_empty() || line.starts_with('#') {
                if let Some(from) = open.take() {
                    layout.blocks.push((from, i));
                }
                if fence {
                    in_fence = !in_fence;
                }
                continue;
            }
            open.get_or_insert(i);
        }
        if let Some(from) = open {
            layout.blocks.push((from, layout.count()));
        }
        layout
    }

    fn count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Line `i` without its line break.
    fn line(&self, i: usize) -> &'a str {
        let l = &self.text[self.starts[i]..self.starts[i + 1]];
        l.strip_suffix('\n').unwrap_or(l)
    }

    /// Lines `from..to` with their line breaks.
    fn span(&self, from: usize, to: usize) -> &'a str {
        &self.text[self.starts[from]..self.starts[to]]
    }
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}' | '\u{f900}'..='\u{faff}')
}

fn list_marker(line: &str) -> Option<(usize, &str)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    for m in ["- ", "* ", "+ "] {
        if body.starts_with(m) {
            return Some((indent, &m[..1]));
        }
    }
    None
}

/// The digits of an ordered list item's number, with their byte offset.
fn ordered_number(line: &str) -> Option<(usize, &str)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &body[digits..];
    (digits > 0 && (rest.starts_with(". ") || rest.starts_with(") ")))
        .then(|| (indent, &body[..digits]))
}

/// A paragraph line (not a list item, quote, table or HTML line).
fn plain_line(line: &str) -> bool {
    let t = line.trim_start();
    list_marker(line).is_none()
        && ordered_number(line).is_none()
        && !t.starts_with('>')
        && !t.starts_with('|')
        && !t.starts_with('<')
        && prose_line(line)
}

/// A line a prose slip can happen on: not raw HTML, not a link reference
/// definition (`[id]: url`), not indented code.
fn prose_line(line: &str) -> bool {
    let t = line.trim_start();
    let definition = t.starts_with('[') && t.contains("]:");
    !t.starts_with('<') && !definition && line.len() - t.len() < 4
}

/// Applies `f` to the parts of `line` outside code spans, link
/// destinations, HTML tags and bare URLs, where a prose slip happens (an
/// escape or a quote changed there changes the link, not the prose).
fn map_prose(line: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while !rest.is_empty() {
        let stop = ["`", "](", "<", "http://", "https://"]
            .iter()
            .filter_map(|m| rest.find(m))
            .min()
            .unwrap_or(rest.len());
        out.push_str(&f(&rest[..stop]));
        rest = &rest[stop..];
        if rest.is_empty() {
            break;
        }
        let close = if let Some(code) = rest.strip_prefix('`') {
            code.find('`').map(|p| p + 2)
        } else if rest.starts_with("](") {
            rest.find(')').map(|p| p + 1)
        } else if rest.starts_with('<') {
            rest.find('>').map(|p| p + 1)
        } else {
            rest.find(char::is_whitespace)
        };
        let keep = close.unwrap_or(rest.len());
        out.push_str(&rest[..keep]);
        rest = &rest[keep..];
    }
    out
}

/// The byte offset where a line's trailing hard break (two spaces, a
/// backslash, a `<br>` tag) starts, or its length.
fn content_end(line: &str) -> usize {
    let t = line.trim_end_matches(' ');
    let t = t.strip_suffix('\\').unwrap_or(t);
    let t = t
        .strip_suffix("<br />")
        .or_else(|| t.strip_suffix("<br/>"))
        .or_else(|| t.strip_suffix("<br>"))
        .unwrap_or(t);
    t.len()
}

/// `span` (lines with breaks) with the marker appended to line `at`, before
/// its hard break.
pub fn with_marker(span: &str, at: usize) -> String {
    let mut out = String::with_capacity(span.len() + MARKER.len());
    for (i, line) in span.split_inclusive('\n').enumerate() {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if i == at {
            let end = content_end(body);
            out.push_str(&body[..end]);
            out.push_str(MARKER);
            out.push_str(&body[end..]);
        } else {
            out.push_str(body);
        }
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// `span` with a word of line `at` replaced: a Latin word of four letters
/// or more (by `EDITKIT_W9`), else two CJK characters (by `替换`), found
/// once in the span and outside code; `None` when the line has neither.
fn with_word_changed(span: &str, at: usize) -> Option<String> {
    let line = span.split_inclusive('\n').nth(at)?;
    let mut prose_parts = String::new();
    map_prose(line, |part| {
        prose_parts.push_str(part);
        prose_parts.push('\u{0}');
        part.to_string()
    });
    let unique = |w: &str| span.matches(w).count() == 1;
    let latin = prose_parts
        .split(|c: char| !c.is_ascii_alphabetic())
        .find(|w| w.len() >= 4 && unique(w));
    let (old, new) = match latin {
        Some(w) => (w.to_string(), NEW_WORD),
        None => {
            let chars: Vec<char> = prose_parts.chars().collect();
            let pair = chars
                .windows(2)
                .map(|w| w.iter().collect::<String>())
                .find(|p| p.chars().all(is_cjk) && unique(p))?;
            (pair, "替换")
        }
    };
    let start: usize = span.split_inclusive('\n').take(at).map(str::len).sum();
    let in_line = line.find(&old)?;
    let mut out = span.to_string();
    out.replace_range(start + in_line..start + in_line + old.len(), new);
    Some(out)
}

fn map_lines(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        out.push_str(&f(body));
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The slips.

const FULL_HALF: [(char, &str); 8] = [
    ('，', ","),
    ('。', "."),
    ('：', ":"),
    ('；', ";"),
    ('！', "!"),
    ('？', "?"),
    ('（', "("),
    ('）', ")"),
];

fn half_width(s: &str) -> String {
    map_prose(s, |part| {
        part.chars()
            .map(|c| {
                FULL_HALF
                    .iter()
                    .find(|(f, _)| *f == c)
                    .map_or_else(|| c.to_string(), |(_, h)| h.to_string())
            })
            .collect()
    })
}

/// Drops the spaces between CJK and Latin text when the line has them,
/// else adds them.
fn toggle_cjk_spacing(s: &str, drop: bool) -> String {
    map_prose(s, |part| {
        let chars: Vec<char> = part.chars().collect();
        let mut out = String::with_capacity(part.len() + 8);
        let latin = |c: char| c.is_ascii_alphanumeric();
        for (i, &c) in chars.iter().enumerate() {
            if drop && c == ' ' {
                let (prev, next) = (i.checked_sub(1).map(|p| chars[p]), chars.get(i + 1));
                if let (Some(p), Some(&n)) = (prev, next) {
                    if (is_cjk(p) && latin(n)) || (latin(p) && is_cjk(n)) {
                        continue;
                    }
                }
            }
            if !drop {
                if let Some(p) = i.checked_sub(1).map(|p| chars[p]) {
                    if (is_cjk(p) && latin(c)) || (latin(p) && is_cjk(c)) {
                        out.push(' ');
                    }
                }
            }
            out.push(c);
        }
        out
    })
}

fn has_spaced_cjk(s: &str) -> bool {
    toggle_cjk_spacing(s, true) != s
}

fn swap_emphasis(s: &str) -> String {
    map_prose(s, |part| {
        part.replace("**", "\u{0}")
            .replace("__", "**")
            .replace('\u{0}', "__")
    })
}

fn swap_list_marker(line: &str) -> String {
    match list_marker(line) {
        Some((indent, m)) => {
            let new = if m == "-" { "*" } else { "-" };
            format!("{}{new}{}", &line[..indent], &line[indent + 1..])
        }
        None => line.to_string(),
    }
}

fn swap_br(s: &str) -> String {
    s.replace("<br />", "\u{0}")
        .replace("<br/>", "\u{0}")
        .replace("<br>", "<br />")
        .replace('\u{0}', "<br>")
}

/// Escapes `.`, `!`, `(`, `)` and `-` inside the line's prose (never at
/// its start, where an escape can matter: `1\.` is not a list item).
fn needless_escapes(line: &str) -> String {
    let lead = line.len() - line.trim_start().len();
    let (head, body) = line.split_at(lead);
    let number = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let first_len = number + body[number..].chars().next().map_or(0, char::len_utf8);
    let (first, rest) = body.split_at(first_len);
    let escaped = map_prose(rest, |part| {
        let mut out = String::with_capacity(part.len() + 4);
        for c in part.chars() {
            if matches!(c, '.' | '!' | '(' | ')' | '-') {
                out.push('\\');
            }
            out.push(c);
        }
        out
    });
    format!("{head}{first}{escaped}")
}

fn swap_hard_break(line: &str) -> String {
    if let Some(body) = line.strip_suffix("  ") {
        return format!("{}\\", body.trim_end_matches(' '));
    }
    if let Some(body) = line.strip_suffix('\\') {
        return format!("{body}  ");
    }
    line.to_string()
}

fn has_hard_break(line: &str) -> bool {
    swap_hard_break(line) != line
}

/// Curly quotes made straight, or, in a line with none, straight ones made
/// curly (apostrophes as `’`, pairs as `“…”`).
fn swap_quotes(line: &str) -> String {
    let curly = line.contains(['“', '”', '‘', '’']);
    map_prose(line, |part| {
        if curly {
            return part.replace(['“', '”'], "\"").replace(['‘', '’'], "'");
        }
        let mut open = true;
        part.chars()
            .map(|c| match c {
                '\'' => '’',
                '"' => {
                    let q = if open { '“' } else { '”' };
                    open = !open;
                    q
                }
                c => c,
            })
            .collect()
    })
}

/// What the kind does to a span; `None` when it changes nothing there.
pub fn slip(kind: ProseKind, span: &str) -> Option<String> {
    let out = match kind {
        ProseKind::Width => half_width(span),
        ProseKind::CjkSpacing => toggle_cjk_spacing(span, has_spaced_cjk(span)),
        ProseKind::Emphasis => swap_emphasis(span),
        ProseKind::ListMarkers => map_lines(span, swap_list_marker),
        ProseKind::OrderedNumbers => {
            let mut n = 0;
            map_lines(span, |line| match ordered_number(line) {
                Some((indent, digits)) => {
                    n += 1;
                    format!("{}{n}{}", &line[..indent], &line[indent + digits.len()..])
                }
                None => line.to_string(),
            })
        }
        ProseKind::BrTags => swap_br(span),
        ProseKind::NeedlessEscapes => map_lines(span, needless_escapes),
        ProseKind::HardBreaks => map_lines(span, swap_hard_break),
        ProseKind::InlineQuotes => map_lines(span, swap_quotes),
        ProseKind::ReWrapped | ProseKind::ReWrappedWordChanged => return None,
    };
    (out != span).then_some(out)
}

/// Whether line `line` shows the slip of `kind` (the line the edit goes
/// on, so that the edited line itself carries it).
fn shows(kind: ProseKind, line: &str) -> bool {
    if !prose_line(line) {
        return false;
    }
    // The marker goes after the line's last character: keep it off a CJK
    // character, where the document's CJK–Latin spacing decides whether a
    // space goes before it.
    let marker_free = line[..content_end(line)]
        .chars()
        .next_back()
        .is_some_and(|c| !is_cjk(c));
    slip(kind, line).is_some()
        && marker_free
        && (kind != ProseKind::HardBreaks || has_hard_break(line))
}

// ---------------------------------------------------------------------------
// Cases.

/// Up to `per_doc` cases of every kind from each document.
pub fn build(docs: &[Doc], per_doc: usize) -> Vec<ProseCase> {
    let mut cases = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        let layout = Layout::new(&doc.text);
        // Chinese prose is rare among the locked packages (vditor's README
        // is the one long document): it gives five times as many cases.
        let chinese = doc.text.chars().filter(|&c| is_cjk(c)).count() >= 200;
        let per_doc = if chinese { per_doc * 5 } else { per_doc };
        for kind in ProseKind::ALL {
            let mut made = 0;
            for &(from, to) in &layout.blocks {
                let rewrap = matches!(kind, ProseKind::ReWrapped | ProseKind::ReWrappedWordChanged);
                let at_lines: Vec<usize> = if rewrap {
                    vec![from]
                } else {
                    (from..to).collect()
                };
                for at in at_lines {
                    if made == per_doc {
                        break;
                    }
                    let case = if rewrap {
                        rewrapped_case(kind, d, &layout, from, to)
                    } else {
                        line_case(kind, d, &layout, (from, to), at)
                    };
                    if let Some(case) = case {
                        cases.push(case);
                        made += 1;
                    }
                }
            }
        }
    }
    cases
}

/// A case on up to three lines of the block `from..to` around line `at`,
/// when it shows the slip.
fn line_case(
    kind: ProseKind,
    doc: usize,
    layout: &Layout,
    (from, to): (usize, usize),
    at: usize,
) -> Option<ProseCase> {
    if !shows(kind, layout.line(at)) {
        return None;
    }
    let first = at.saturating_sub(1).max(from);
    let end = (at + 2).min(to);
    let span = layout.span(first, end);
    // Every other case changes a word inside the line instead of adding
    // one at its end.
    let edited = if at % 2 == 1 {
        with_word_changed(span, at - first).unwrap_or_else(|| with_marker(span, at - first))
    } else {
        with_marker(span, at - first)
    };
    let search = slip(kind, span)?;
    let replace = slip(kind, &edited)?;
    Some(case(
        kind, doc, layout, first, end, search, replace, &edited,
    ))
}

/// A hard-wrapped paragraph (at least two plain lines) quoted on one line.
fn rewrapped_case(
    kind: ProseKind,
    doc: usize,
    layout: &Layout,
    from: usize,
    to: usize,
) -> Option<ProseCase> {
    if to - from < 2 || !(from..to).all(|i| plain_line(layout.line(i))) {
        return None;
    }
    let lines: Vec<&str> = (from..to).map(|i| layout.line(i)).collect();
    if lines.iter().any(|l| l.ends_with(' ') || l.ends_with('\\')) {
        return None;
    }
    let join = |lines: &[&str]| {
        let mut out = String::new();
        for (i, l) in lines.iter().enumerate() {
            if i > 0 {
                let cjk_seam = out.chars().next_back().is_some_and(is_cjk)
                    && l.chars().next().is_some_and(is_cjk);
                if !cjk_seam {
                    out.push(' ');
                }
            }
            out.push_str(l.trim());
        }
        out.push('\n');
        out
    };
    let span = layout.span(from, to);
    let search = join(&lines);
    let (replace, edited) = match kind {
        // The issue's case: a line added after the paragraph.
        ProseKind::ReWrapped => (
            format!("{search}{NEW_LINE}\n"),
            format!("{span}{NEW_LINE}\n"),
        ),
        _ => {
            // A word of four letters or more, once in the paragraph.
            let word = lines[1]
                .split(|c: char| !c.is_ascii_alphabetic())
                .find(|w| w.len() >= 4 && span.matches(*w).count() == 1)?;
            (search.replace(word, NEW_WORD), span.replace(word, NEW_WORD))
        }
    };
    Some(case(kind, doc, layout, from, to, search, replace, &edited))
}

#[allow(clippy::too_many_arguments)]
fn case(
    kind: ProseKind,
    doc: usize,
    layout: &Layout,
    from: usize,
    to: usize,
    search: String,
    replace: String,
    edited: &str,
) -> ProseCase {
    let (lo, hi) = (layout.starts[from], layout.starts[to]);
    let text = layout.text;
    ProseCase {
        kind,
        doc,
        search,
        replace,
        expected: format!("{}{edited}{}", &text[..lo], &text[hi..]),
    }
}

// ---------------------------------------------------------------------------
// Outcomes.

/// The words of a text in order: its letters and digits (CJK included),
/// with list numbers and everything else dropped.
fn words(text: &str) -> String {
    map_lines(text, |line| match ordered_number(line) {
        Some((indent, digits)) => line[indent + digits.len()..].to_string(),
        None => line.to_string(),
    })
    .chars()
    .filter(|c| c.is_alphanumeric())
    .collect()
}

/// Runs one case in one way.
pub fn run(case: &ProseCase, doc: &Doc, how: Run) -> Outcome {
    match replace_text(&doc.text, &case.search, &case.replace, &how.options()) {
        Ok(r) => classify(case, &doc.text, &r.content),
        Err(_) => Outcome::Refused,
    }
}

/// What a run wrote where the document and the expected text differ, with
/// the expected text beside it (for `QUALITY_VERBOSE`).
pub fn written(case: &ProseCase, doc: &Doc, how: Run) -> String {
    let content = match replace_text(&doc.text, &case.search, &case.replace, &how.options()) {
        Ok(r) => r.content,
        Err(e) => return format!("refused: {e}"),
    };
    let prefix = common_prefix(&content, &case.expected);
    let suffix = common_suffix(&content[prefix..], &case.expected[prefix..]);
    let start = content[..prefix].rfind('\n').map_or(0, |i| i + 1);
    format!(
        "{}\n    EXPECTED:\n{}",
        &content[start..content.len() - suffix],
        &case.expected[start..case.expected.len() - suffix]
    )
}

fn classify(case: &ProseCase, source: &str, content: &str) -> Outcome {
    if content == case.expected {
        return Outcome::Exact;
    }
    // What the model changed: the part of the expected document between
    // its common prefix and suffix with the source. Everything else must
    // come out byte for byte.
    let expected = case.expected.as_str();
    let prefix = common_prefix(source, expected);
    let suffix = common_suffix(&source[prefix..], &expected[prefix..]);
    let (head, tail) = (&expected[..prefix], &expected[expected.len() - suffix..]);
    let kept =
        content.len() >= prefix + suffix && content.starts_with(head) && content.ends_with(tail);
    let changed = |text: &str| words(&text[prefix..text.len() - suffix]);
    if kept && changed(content) == changed(expected) {
        Outcome::Placed
    } else {
        Outcome::Wrong
    }
}

/// Bytes `a` and `b` share at their start, on a char boundary.
fn common_prefix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for (x, y) in a.chars().zip(b.chars()) {
        if x != y {
            break;
        }
        n += x.len_utf8();
    }
    n
}

/// Bytes `a` and `b` share at their end, on a char boundary.
fn common_suffix(a: &str, b: &str) -> usize {
    let mut n = 0;
    for (x, y) in a.chars().rev().zip(b.chars().rev()) {
        if x != y {
            break;
        }
        n += x.len_utf8();
    }
    n
}

pub type ProseTallies = HashMap<(ProseKind, Run), Tally>;

/// Runs every case in every run: tallies per kind and run, and the cases
/// that went wrong.
pub fn evaluate(docs: &[Doc], cases: &[ProseCase]) -> (ProseTallies, Vec<(usize, Run)>) {
    let mut tallies = ProseTallies::new();
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        for how in RUNS {
            let outcome = run(case, &docs[case.doc], how);
            if outcome == Outcome::Wrong {
                wrong.push((i, how));
            }
            tallies
                .entry((case.kind, how))
                .or_default()
                .add(outcome, None);
        }
    }
    (tallies, wrong)
}

/// The kinds' tallies in one run, summed.
pub fn total(tallies: &ProseTallies, how: Run) -> Tally {
    let mut sum = Tally::default();
    for kind in ProseKind::ALL {
        if let Some(t) = tallies.get(&(kind, how)) {
            sum.merge(t);
        }
    }
    sum
}

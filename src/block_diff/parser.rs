//! Format validation and parsing in one linear pass over the tokens.
//!
//! Grammar (per hunk, after the lexer of `lexer.rs`):
//!
//! ```text
//! diff          := preamble? hunk*
//! hunk          := search_hunk | command_hunk
//! search_hunk   := B(id) (S T* D T* R)+          blank or stray text between pairs is ignored
//! command_hunk  := B(CMD:id) T*                  marker lines in the body are text
//! ```
//!
//! Every problem is reported, not just the first; after a problem the
//! parser recovers at the next marker or header so that one mistake does
//! not cascade into many. Bodies are normalised to LF (SiYuan stores LF) and
//! otherwise kept exactly; only the newline after a marker line and the one
//! before the next marker are structural. Blank lines around a command body
//! are trimmed.

use super::lexer::{tokenize, Command, Token, TokenKind};
use super::messages as msg;
use super::refuse;
use super::types::Problem;
use super::types::{BlockEdit, EditKind, ParsedHunk, SearchReplacePair, Warning, WarningCode};
use crate::{Error, Lang};

/// Everything one pass over a diff finds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    pub hunks: Vec<ParsedHunk>,
    pub edits: Vec<BlockEdit>,
    pub errors: Vec<Error>,
    pub warnings: Vec<Warning>,
}

/// What the caller reads of an [`Analysis`]. The format check reads
/// neither list, a dry run or an apply only the edits, `parseBlockDiff`
/// both: a list nobody reads is not built (its texts are most of the
/// pass's copies; docs/PERFORMANCE.md cut 49). Errors and warnings are
/// always complete.
#[derive(Clone, Copy)]
pub struct Keep {
    pub hunks: bool,
    pub edits: bool,
}

/// Where the pass is.
enum State {
    /// Before the first header, or after a SEARCH block that had none.
    Outside,
    /// In a search hunk, waiting for `<<<<<<< SEARCH`.
    AwaitSearch,
    /// Between `SEARCH` and the divider; `start` is the token index of S.
    InSearch { start: usize },
    /// Between the divider and `REPLACE`.
    InReplace { start: usize, divider: usize },
    /// In the body of a command hunk; `start` is the first body token.
    CommandBody { start: usize },
}

struct Pass<'a> {
    tokens: Vec<Token<'a>>,
    lang: Lang,
    keep: Keep,
    out: Analysis,
    /// The hunk being read (index into `out.hunks`), `None` before the
    /// first header or after a SEARCH without one.
    hunk: Option<usize>,
    /// Whether the current hunk's header is valid (edits are only made for
    /// valid headers).
    hunk_valid: bool,
    /// SEARCH/REPLACE pairs closed in the current hunk.
    pairs_in_hunk: usize,
    /// Non-blank text seen in a search hunk before its first pair.
    stray_text_line: Option<u32>,
    state: State,
}

/// Validates and parses a diff. Never fails: problems are in `errors`;
/// `hunks` and `edits` are empty unless `keep` asks for them.
pub fn analyze(text: &str, lang: Lang, keep: Keep) -> Analysis {
    let mut pass = Pass {
        tokens: tokenize(text),
        lang,
        keep,
        out: Analysis::default(),
        hunk: None,
        hunk_valid: false,
        pairs_in_hunk: 0,
        stray_text_line: None,
        state: State::Outside,
    };
    for i in 0..pass.tokens.len() {
        pass.step(i);
    }
    pass.finish_hunk(pass.tokens.len());
    if pass.out.hunks.is_empty() && pass.out.errors.is_empty() {
        pass.out.errors.push(refuse(lang, Problem::EmptyDiff));
    }
    if !pass.out.errors.is_empty() {
        pass.out.edits.clear();
    }
    if !keep.hunks {
        pass.out.hunks.clear();
    }
    // A stable sort: problems on one line stay in the order they were found.
    pass.out.errors.sort_by_key(|e| e.details.line.unwrap_or(0));
    pass.out
}

impl<'a> Pass<'a> {
    /// Token `i` moves the parser's state: a malformed header is reported
    /// wherever it stands, a header closes the hunk before it and opens its
    /// own, a command body takes every other line as text, and elsewhere a
    /// marker or text line moves the SEARCH/REPLACE pair being read (one
    /// method per kind of token, each saying what it does in every state).
    fn step(&mut self, i: usize) {
        let line = self.tokens[i].line;
        match &self.tokens[i].kind {
            TokenKind::Malformed { fix } => {
                let error = refuse(
                    self.lang,
                    Problem::MalformedHeader {
                        line,
                        text: self.tokens[i].text.to_string(),
                        fix: fix.clone(),
                    },
                );
                self.error(error);
            }
            TokenKind::Header(_) => {
                self.finish_hunk(i);
                self.start_hunk(i);
            }
            kind if matches!(self.state, State::CommandBody { .. }) => {
                if !matches!(kind, TokenKind::Text) {
                    self.warn(
                        WarningCode::MarkerInBody,
                        line,
                        msg::marker_in_body(self.lang, line),
                    );
                }
            }
            TokenKind::Text => self.text_line(i),
            TokenKind::Search => self.search_marker(i),
            TokenKind::Divider => self.divider(i, line),
            TokenKind::Replace => self.replace_marker(i),
        }
    }

    /// A text line outside a pair: outside any hunk, non-blank text is
    /// warned about (once); in a search hunk before its next SEARCH, the
    /// first non-blank line is remembered (warned about when the hunk has
    /// pairs). Inside a pair it is body; a command body never gets here.
    fn text_line(&mut self, i: usize) {
        let line = self.tokens[i].line;
        match self.state {
            State::Outside if !self.tokens[i].is_blank() => self.warn_once_outside(line),
            State::AwaitSearch if self.stray_text_line.is_none() && !self.tokens[i].is_blank() => {
                self.stray_text_line = Some(line);
            }
            _ => {}
        }
    }

    /// A SEARCH marker opens a pair in a search hunk; outside any hunk it
    /// opens one too, reported as having no block id; inside a pair it is
    /// nested.
    fn search_marker(&mut self, i: usize) {
        let line = self.tokens[i].line;
        match self.state {
            State::Outside => {
                self.error(refuse(self.lang, Problem::SearchWithoutBlockId { line }));
                self.state = State::InSearch { start: i };
            }
            State::AwaitSearch => self.state = State::InSearch { start: i },
            State::InSearch { .. } | State::InReplace { .. } => {
                self.error(refuse(self.lang, Problem::NestedSearch { line }));
            }
            // A command body's markers are text (see `step`).
            State::CommandBody { .. } => {}
        }
    }

    /// The divider (token `i`, at `line`) turns a SEARCH section into a
    /// REPLACE one; anywhere else it is misplaced (a second one in a
    /// REPLACE section, or one outside a pair).
    fn divider(&mut self, i: usize, line: u32) {
        let extra_in_replace = match self.state {
            State::InSearch { start } => {
                self.state = State::InReplace { start, divider: i };
                return;
            }
            State::InReplace { .. } => true,
            State::Outside | State::AwaitSearch => false,
            // A command body's markers are text (see `step`).
            State::CommandBody { .. } => return,
        };
        self.error(refuse(
            self.lang,
            Problem::MisplacedDelimiter {
                line,
                extra_in_replace,
            },
        ));
    }

    /// A REPLACE marker closes the pair of a REPLACE section; in a SEARCH
    /// section the divider is missing (the pair is dropped), and outside a
    /// pair it is unmatched.
    fn replace_marker(&mut self, i: usize) {
        let line = self.tokens[i].line;
        match self.state {
            State::InSearch { .. } => {
                self.error(refuse(self.lang, Problem::MissingDelimiter { line }));
                self.state = self.after_pair_state();
            }
            State::InReplace { start, divider } => {
                self.close_pair(start, divider, i);
                self.state = self.after_pair_state();
            }
            State::Outside | State::AwaitSearch => {
                self.error(refuse(self.lang, Problem::UnmatchedReplace { line }));
            }
            // A command body's markers are text (see `step`).
            State::CommandBody { .. } => {}
        }
    }

    fn after_pair_state(&self) -> State {
        if self.hunk.is_some() {
            State::AwaitSearch
        } else {
            State::Outside
        }
    }

    fn start_hunk(&mut self, i: usize) {
        let TokenKind::Header(header) = &self.tokens[i].kind else {
            return;
        };
        let line = self.tokens[i].line;
        let header = header.clone();
        let index = u32::try_from(self.out.hunks.len() + 1).unwrap_or(u32::MAX);
        let mut valid = true;
        if let Some(word) = header.unknown_command {
            self.error(refuse(
                self.lang,
                Problem::UnknownCommand {
                    line,
                    word: word.to_string(),
                    hunk: index,
                },
            ));
            valid = false;
        }
        if !header.id_valid {
            self.error(refuse(
                self.lang,
                Problem::InvalidBlockId {
                    line,
                    id: header.id.to_string(),
                    hunk: index,
                },
            ));
            valid = false;
        }
        let command = header.command.unwrap_or(Command::Replace);
        self.out.hunks.push(ParsedHunk {
            index,
            line,
            command: if header.command.is_some() {
                command.name()
            } else {
                "UNKNOWN"
            },
            block_id: header.id.to_string(),
            type_label: header.label.map(str::to_string),
            pairs: Vec::new(),
            body: None,
        });
        self.hunk = Some(self.out.hunks.len() - 1);
        self.hunk_valid = valid;
        self.pairs_in_hunk = 0;
        self.stray_text_line = None;
        self.state = match header.command {
            Some(Command::Search) => State::AwaitSearch,
            _ => State::CommandBody { start: i + 1 },
        };
    }

    /// Closes the current hunk (or orphan SEARCH block) at token `end`.
    fn finish_hunk(&mut self, end: usize) {
        match std::mem::replace(&mut self.state, State::Outside) {
            State::InSearch { start } | State::InReplace { start, .. } => {
                let line = self.tokens[start].line;
                self.error(refuse(self.lang, Problem::UnclosedSearch { line }));
            }
            State::CommandBody { start } => self.close_command(start, end),
            State::AwaitSearch => {}
            State::Outside => {}
        }
        if let Some(h) = self.hunk {
            let hunk = &self.out.hunks[h];
            debug_assert!(!self.keep.hunks || hunk.pairs.len() == self.pairs_in_hunk);
            if hunk.command == "SEARCH"
                && self.pairs_in_hunk == 0
                && !self.has_error_in(hunk.line, end)
            {
                let (line, index, id) = (hunk.line, hunk.index, hunk.block_id.clone());
                self.error(refuse(
                    self.lang,
                    Problem::MissingSearch {
                        line,
                        id: id.clone(),
                        hunk: index,
                    },
                ));
            } else if hunk.command == "SEARCH" && self.pairs_in_hunk > 0 {
                if let Some(stray) = self.stray_text_line {
                    self.warn(
                        WarningCode::TextOutsideHunk,
                        stray,
                        msg::text_between_pairs(self.lang, stray),
                    );
                }
            }
        }
        self.hunk = None;
        self.stray_text_line = None;
    }

    /// Whether an error was already reported between the hunk header's line
    /// and token `end` (then a missing SEARCH is a consequence, not news).
    fn has_error_in(&self, from_line: u32, end: usize) -> bool {
        let to_line = self.tokens.get(end).map_or(u32::MAX, |t| t.line);
        self.out.errors.iter().any(|e| {
            e.details
                .line
                .is_some_and(|l| l >= from_line && l < to_line)
        })
    }

    fn close_pair(&mut self, start: usize, divider: usize, end: usize) {
        let Some(h) = self.hunk else { return };
        let line = self.tokens[start].line;
        self.pairs_in_hunk += 1;
        // Blank lines joined are blank: the SEARCH is empty exactly when
        // every line of it is.
        if self.tokens[start + 1..divider].iter().all(Token::is_blank) {
            let index = self.out.hunks[h].index;
            self.error(refuse(
                self.lang,
                Problem::EmptySearch {
                    line,
                    id: self.out.hunks[h].block_id.clone(),
                    hunk: index,
                },
            ));
        }
        let edit = self.hunk_valid && self.keep.edits;
        if !edit && !self.keep.hunks {
            return;
        }
        let search = join_body(&self.tokens[start + 1..divider]);
        let replace = join_body(&self.tokens[divider + 1..end]);
        let hunk = &mut self.out.hunks[h];
        if self.keep.hunks {
            hunk.pairs.push(SearchReplacePair {
                search: search.clone(),
                replace: replace.clone(),
                line,
            });
        }
        if edit {
            self.out.edits.push(BlockEdit {
                kind: EditKind::Update,
                block_id: hunk.block_id.clone(),
                search: Some(search),
                replacement: Some(replace),
                hunk_index: hunk.index,
                line,
            });
        }
    }

    fn close_command(&mut self, start: usize, end: usize) {
        let Some(h) = self.hunk else { return };
        let body_tokens = &self.tokens[start.min(end)..end];
        let body = crate::text::trim_blank_lines(&join_body(body_tokens)).to_string();
        let hunk = &mut self.out.hunks[h];
        let (index, line, id) = (hunk.index, hunk.line, hunk.block_id.clone());
        let kind = match hunk.command {
            "REPLACE" => EditKind::Update,
            "DELETE" => EditKind::Delete,
            "BEFORE" => EditKind::InsertBefore,
            "AFTER" => EditKind::InsertAfter,
            "PREPEND" => EditKind::Prepend,
            "APPEND" => EditKind::Append,
            _ => return,
        };
        if self.keep.hunks {
            hunk.body = Some(body.clone());
        }
        if kind == EditKind::Delete {
            if !body.is_empty() {
                self.warn(
                    WarningCode::DeleteBodyIgnored,
                    line,
                    msg::delete_body_ignored(self.lang, line),
                );
            }
        } else if body.is_empty() {
            self.error(refuse(
                self.lang,
                Problem::EmptyInsert {
                    line,
                    command: hunk_command_name(kind),
                    id: id.clone(),
                    hunk: index,
                },
            ));
            return;
        }
        if self.hunk_valid && self.keep.edits {
            self.out.edits.push(BlockEdit {
                kind,
                block_id: id,
                search: None,
                replacement: (kind != EditKind::Delete).then_some(body),
                hunk_index: index,
                line,
            });
        }
    }

    fn error(&mut self, error: Error) {
        self.out.errors.push(error);
    }

    fn warn(&mut self, code: WarningCode, line: u32, message: String) {
        let hunk_index = self.hunk.map(|h| self.out.hunks[h].index);
        self.out.warnings.push(Warning {
            code,
            message,
            line: Some(line),
            hunk_index,
            block_id: None,
        });
    }

    fn warn_once_outside(&mut self, line: u32) {
        let already = self
            .out
            .warnings
            .iter()
            .any(|w| w.code == WarningCode::TextOutsideHunk && w.hunk_index.is_none());
        if !already {
            self.out.warnings.push(Warning {
                code: WarningCode::TextOutsideHunk,
                message: msg::text_outside_hunk(self.lang, line),
                line: Some(line),
                hunk_index: None,
                block_id: None,
            });
        }
    }
}

fn hunk_command_name(kind: EditKind) -> &'static str {
    match kind {
        EditKind::Update => "REPLACE",
        EditKind::Delete => "DELETE",
        EditKind::InsertBefore => "BEFORE",
        EditKind::InsertAfter => "AFTER",
        EditKind::Prepend => "PREPEND",
        EditKind::Append => "APPEND",
    }
}

/// Joins body lines with LF; the ending of the last line is structural.
fn join_body(tokens: &[Token<'_>]) -> String {
    let mut out = String::with_capacity(tokens.iter().map(|t| t.text.len() + 1).sum());
    for (k, t) in tokens.iter().enumerate() {
        if k > 0 {
            out.push('\n');
        }
        out.push_str(t.text.strip_suffix('\r').unwrap_or(t.text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{analyze, Keep};
    use crate::{ErrorCode, Lang};

    const LINES: &[&str] = &[
        "@@20240101000000-aaaaaaa@@",
        "@@20240101000000-bbbbbbb@@ 段落",
        "@@REPLACE:20240101000000-aaaaaaa@@",
        "@@DELETE:20240101000000-aaaaaaa@@",
        "@@AFTER:20240101000000-bbbbbbb@@",
        "@@APPEND:20240101000000-aaaaaaa@@",
        "@@20240101000000-bad@@",
        "@@MOVE:20240101000000-aaaaaaa@@",
        "@@ 20240101000000-aaaaaaa",
        "<<<<<<< SEARCH",
        "=======",
        ">>>>>>> REPLACE",
        "<<<<<<< SEARCH\r",
        "text",
        "段落 😀",
        "",
        " ",
        "\t",
        "a\r",
        " \r ",
        "a\rb",
        "\u{feff}@@20240101000000-aaaaaaa@@",
    ];
    const BODY: &[&str] = &[
        "text",
        "段落 😀",
        "",
        " ",
        "\t",
        "\u{3000}",
        "a\r",
        "=======",
    ];

    /// A SEARCH/REPLACE pair whose parts hold blank and non-blank lines (a
    /// SEARCH that is empty only when all of them are blank).
    fn pair() -> impl proptest::strategy::Strategy<Value = Vec<&'static str>> {
        use proptest::prelude::*;
        let body = || proptest::collection::vec(proptest::sample::select(BODY), 0..4);
        (body(), body()).prop_map(|(search, replace)| {
            let mut lines = vec!["<<<<<<< SEARCH"];
            lines.extend(search);
            lines.push("=======");
            lines.extend(replace);
            lines.push(">>>>>>> REPLACE");
            lines
        })
    }

    /// A stray line, a pair, or a SEARCH hunk with one to three pairs, so
    /// that most diffs hold several hunks with pairs.
    fn piece() -> impl proptest::strategy::Strategy<Value = Vec<&'static str>> {
        use proptest::prelude::*;
        let header = proptest::sample::select(&LINES[..2]);
        prop_oneof![
            proptest::sample::select(LINES).prop_map(|l| vec![l]),
            pair(),
            (header, proptest::collection::vec(pair(), 1..4))
                .prop_map(|(h, pairs)| std::iter::once(vec![h]).chain(pairs).flatten().collect()),
        ]
    }

    proptest::proptest! {
        /// Leaving a list out changes nothing else: the errors and warnings
        /// are those of the full pass, and a kept list is the full pass's.
        #[test]
        fn lists_left_out_change_nothing_else(pieces in proptest::collection::vec(piece(), 0..10), crlf in proptest::bool::ANY) {
            let lines: Vec<&str> = pieces.iter().flatten().copied().collect();
            let text = lines.join(if crlf { "\r\n" } else { "\n" });
            let full = analyze(&text, Lang::En, Keep { hunks: true, edits: true });
            // A SEARCH hunk without pairs is refused, unless an error
            // inside it already explains that.
            for (k, hunk) in full.hunks.iter().enumerate() {
                let end = full.hunks.get(k + 1).map_or(u32::MAX, |h| h.line);
                let explained = full.errors.iter().any(|e| {
                    e.code != ErrorCode::MissingSearch
                        && e.details.line.is_some_and(|l| l >= hunk.line && l < end)
                });
                let refused = full.errors.iter().any(|e| {
                    e.code == ErrorCode::MissingSearch && e.details.line == Some(hunk.line)
                });
                let expected = hunk.command == "SEARCH" && hunk.pairs.is_empty() && !explained;
                proptest::prop_assert_eq!(refused, expected, "{:?}", text);
            }
            // The emptiness test on lines is the one on the joined text.
            for pair in full.hunks.iter().flat_map(|h| &h.pairs) {
                let refused = full.errors.iter().any(|e| {
                    e.code == ErrorCode::EmptySearch && e.details.line == Some(pair.line)
                });
                proptest::prop_assert_eq!(refused, pair.search.trim().is_empty(), "{:?}", text);
            }
            for (hunks, edits) in [(false, false), (false, true), (true, false)] {
                let part = analyze(&text, Lang::En, Keep { hunks, edits });
                proptest::prop_assert_eq!(&part.errors, &full.errors);
                proptest::prop_assert_eq!(&part.warnings, &full.warnings);
                proptest::prop_assert_eq!(part.hunks.is_empty(), !hunks || full.hunks.is_empty());
                proptest::prop_assert_eq!(part.edits.is_empty(), !edits || full.edits.is_empty());
                if hunks {
                    proptest::prop_assert_eq!(&part.hunks, &full.hunks);
                }
                if edits {
                    proptest::prop_assert_eq!(&part.edits, &full.edits);
                }
            }
        }
    }
}

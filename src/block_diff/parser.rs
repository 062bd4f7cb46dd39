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
    out: Analysis,
    /// The hunk being read (index into `out.hunks`), `None` before the
    /// first header or after a SEARCH without one.
    hunk: Option<usize>,
    /// Whether the current hunk's header is valid (edits are only made for
    /// valid headers).
    hunk_valid: bool,
    /// Non-blank text seen in a search hunk before its first pair.
    stray_text_line: Option<u32>,
    state: State,
}

/// Validates and parses a diff. Never fails: problems are in `errors`.
pub fn analyze(text: &str, lang: Lang) -> Analysis {
    let mut pass = Pass {
        tokens: tokenize(text),
        lang,
        out: Analysis::default(),
        hunk: None,
        hunk_valid: false,
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
    // A stable sort: problems on one line stay in the order they were found.
    crate::sort::sort_by_key(&mut pass.out.errors, |e| e.details.line.unwrap_or(0));
    pass.out
}

impl<'a> Pass<'a> {
    /// Token `i` moves the parser's state.
    // One piece on purpose: the state machine's transition table, one arm
    // per (state, token) pair.
    fn step(&mut self, i: usize) {
        let line = self.tokens[i].line;
        let blank = || self.tokens[i].is_blank();
        match (&self.state, &self.tokens[i].kind) {
            (_, TokenKind::Malformed { fix }) => {
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
            (_, TokenKind::Header(_)) => {
                self.finish_hunk(i);
                self.start_hunk(i);
            }
            (State::CommandBody { .. }, kind) => {
                if !matches!(kind, TokenKind::Text) {
                    self.warn(
                        WarningCode::MarkerInBody,
                        line,
                        msg::marker_in_body(self.lang, line),
                    );
                }
            }
            (State::Outside, TokenKind::Text) => {
                if !blank() {
                    self.warn_once_outside(line);
                }
            }
            (State::AwaitSearch, TokenKind::Text) => {
                if self.stray_text_line.is_none() && !blank() {
                    self.stray_text_line = Some(line);
                }
            }
            (State::Outside, TokenKind::Search) => {
                self.error(refuse(self.lang, Problem::SearchWithoutBlockId { line }));
                self.state = State::InSearch { start: i };
            }
            (State::AwaitSearch, TokenKind::Search) => self.state = State::InSearch { start: i },
            (State::InSearch { .. } | State::InReplace { .. }, TokenKind::Search) => {
                self.error(refuse(self.lang, Problem::NestedSearch { line }));
            }
            (State::InSearch { start }, TokenKind::Divider) => {
                self.state = State::InReplace {
                    start: *start,
                    divider: i,
                };
            }
            (State::InReplace { .. }, TokenKind::Divider) => {
                self.error(refuse(
                    self.lang,
                    Problem::MisplacedDelimiter {
                        line,
                        extra_in_replace: true,
                    },
                ));
            }
            (State::Outside | State::AwaitSearch, TokenKind::Divider) => {
                self.error(refuse(
                    self.lang,
                    Problem::MisplacedDelimiter {
                        line,
                        extra_in_replace: false,
                    },
                ));
            }
            (State::InSearch { .. }, TokenKind::Replace) => {
                self.error(refuse(self.lang, Problem::MissingDelimiter { line }));
                self.state = self.after_pair_state();
            }
            (State::InReplace { start, divider }, TokenKind::Replace) => {
                let (start, divider) = (*start, *divider);
                self.close_pair(start, divider, i);
                self.state = self.after_pair_state();
            }
            (State::Outside | State::AwaitSearch, TokenKind::Replace) => {
                self.error(refuse(self.lang, Problem::UnmatchedReplace { line }));
            }
            (State::InSearch { .. } | State::InReplace { .. }, TokenKind::Text) => {}
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
            if hunk.command == "SEARCH"
                && hunk.pairs.is_empty()
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
            } else if hunk.command == "SEARCH" && !hunk.pairs.is_empty() {
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
        let search = join_body(&self.tokens[start + 1..divider]);
        let replace = join_body(&self.tokens[divider + 1..end]);
        if search.trim().is_empty() {
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
        let hunk = &mut self.out.hunks[h];
        if self.hunk_valid {
            self.out.edits.push(BlockEdit {
                kind: EditKind::Update,
                block_id: hunk.block_id.clone(),
                search: Some(search.clone()),
                replacement: Some(replace.clone()),
                hunk_index: hunk.index,
                line,
            });
        }
        hunk.pairs.push(SearchReplacePair {
            search,
            replace,
            line,
        });
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
        hunk.body = Some(body.clone());
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
        if self.hunk_valid {
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

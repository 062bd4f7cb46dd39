//! Multi-block SEARCH/REPLACE for files (SPEC §6.5, seed 003) and the
//! JSON edit list of seed 004's MultiEdit.
//!
//! # Grammar
//!
//! ```text
//! text    = { other-line } { block { other-line } }
//! block   = SEARCH-marker NL { line NL } DIVIDER NL { line NL } REPLACE-marker
//! SEARCH  = 5–9 "<" (or "-"), optional space, "SEARCH", optional ">"
//! DIVIDER = 5–9 "="
//! REPLACE = 5–9 ">" (or "+"), optional space, "REPLACE"
//! ```
//!
//! Leniencies, each on purpose:
//! - markers are recognised only as whole lines, starting in column 1;
//!   trailing spaces, tabs and `\r` are tolerated; `<<<<<<<SEARCH` (no
//!   space, seed 003) and `<<<<<<< SEARCH>` are markers;
//! - the cline dialect `------- SEARCH` / `+++++++ REPLACE` is accepted;
//! - a body line that is a marker preceded by a backslash (`\=======`,
//!   `\<<<<<<< HEAD`) is that line as text, so files containing merge
//!   conflict markers or `=======` underlines can be edited;
//! - lines outside blocks (a file name, a code fence, an explanation) are
//!   ignored;
//! - Roo-Code's line hints: `:start_line:N` and `:end_line:N` lines at the
//!   top of a SEARCH section, then a `-------` line, give the block a
//!   [`start_line`](SearchReplaceBlock::start_line) hint (used only to
//!   break a tie between places the search matches; `:end_line:` is read
//!   and ignored). The same lines in a REPLACE section are refused
//!   (`MISPLACED_DELIMITER`) unless escaped with a backslash;
//! - a SEARCH copied from Roo-Code's read view, every line prefixed
//!   `N | `, is searched without the prefixes when it is nowhere as
//!   written (and REPLACE loses them too when all its lines carry them);
//!   the first number is then the line hint.
//!
//! Only the one line break after a marker line and before the next marker
//! is structural; bodies keep every other character. Every format problem
//! is reported at once, each with its line, before anything is applied.
//! Runs of 10 or more marker characters are text (a long `==========` is a
//! Markdown underline, not a divider).

use serde::{Deserialize, Serialize};

use super::messages;
use super::types::FormatProblem;
use super::types::{Match, MatchMode, MatchOptions, Strategy};
use super::{replace_text, Error};
use crate::error::ErrorCode;
use crate::lang::Lang;

/// One parsed block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchReplaceBlock {
    /// The SEARCH text, markers and escapes removed.
    pub search: String,
    /// The REPLACE text, markers and escapes removed.
    pub replace: String,
    /// 1-based line of the block's SEARCH marker in the text.
    pub line: u32,
    /// The `:start_line:` hint: the file line where SEARCH is expected to
    /// start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
}

/// Options of [`apply_search_replace`] and [`apply_edits`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SearchReplaceOptions {
    /// Default `true`: one failed block leaves the content unchanged (every
    /// failure is still reported). `false` keeps the blocks that applied
    /// (seed 003's behaviour).
    pub atomic: bool,
    /// Default `safe`.
    pub mode: MatchMode,
    /// Language of messages (default `en`).
    pub lang: Lang,
    /// Fuzzy mode's minimum score (default [`DEFAULT_FUZZY_THRESHOLD`](crate::DEFAULT_FUZZY_THRESHOLD)).
    pub fuzzy_threshold: Option<f64>,
    /// Fuzzy mode's required lead over the runner-up (default
    /// [`DEFAULT_FUZZY_MARGIN`](crate::DEFAULT_FUZZY_MARGIN)).
    pub fuzzy_margin: Option<f64>,
    /// How much larger or smaller than the search a fuzzy match may be (default
    /// [`DEFAULT_SIZE_RATIO`](crate::DEFAULT_SIZE_RATIO)).
    pub size_ratio: Option<f64>,
    /// Operation budget of each block (default [`DEFAULT_WORK_BUDGET`](crate::DEFAULT_WORK_BUDGET)).
    pub work_budget: Option<u32>,
    /// The content is prose (Markdown, plain text): the `prose` strategy
    /// runs (see [`MatchOptions::prose`]). Default `false`.
    pub prose: bool,
}

impl Default for SearchReplaceOptions {
    fn default() -> Self {
        SearchReplaceOptions {
            atomic: true,
            mode: MatchMode::Safe,
            lang: Lang::En,
            fuzzy_threshold: None,
            fuzzy_margin: None,
            size_ratio: None,
            work_budget: None,
            prose: false,
        }
    }
}

impl SearchReplaceOptions {
    fn replace_options(&self, replace_all: bool, line_hint: Option<u32>) -> MatchOptions {
        MatchOptions {
            mode: self.mode,
            replace_all,
            line_hint,
            fuzzy_threshold: self.fuzzy_threshold,
            fuzzy_margin: self.fuzzy_margin,
            size_ratio: self.size_ratio,
            work_budget: self.work_budget,
            prose: self.prose,
            lang: self.lang,
            ..MatchOptions::default()
        }
    }
}

/// One edit of [`apply_edits`] (seed 004's MultiEdit item). Both strings
/// are required and no other field is accepted (SPEC §6.8): an edit that
/// lacks `newString` or spells it `new_string` is refused, never applied
/// as a deletion.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EditSpec {
    /// The text to find.
    pub old_string: String,
    /// The text to put in its place.
    pub new_string: String,
    /// Replace every place it occurs (default: exactly one place).
    #[serde(default)]
    pub replace_all: bool,
}

/// The fields an edit of [`apply_edits`] accepts.
pub const EDIT_FIELDS: [&str; 3] = ["oldString", "newString", "replaceAll"];

/// Checks the field names of edit number `index` (1-based) before it is
/// read: both strings present, nothing else. The refusal names the field
/// that is missing or unknown and lists the accepted ones.
pub fn check_edit_fields(index: usize, fields: &[&str], lang: Lang) -> Result<(), Error> {
    let unknown: Vec<String> = fields
        .iter()
        .filter(|f| !EDIT_FIELDS.contains(f))
        .map(|f| format!("`{f}`"))
        .collect();
    let missing = ["oldString", "newString"]
        .into_iter()
        .find(|f| !fields.contains(f));
    let list = unknown.join(", ");
    let problem = match (unknown.len(), missing, lang) {
        (1, _, Lang::En) => format!("unknown field {list}"),
        (0, Some(f), Lang::En) => format!("no `{f}`"),
        (_, _, Lang::En) if !unknown.is_empty() => format!("unknown fields {list}"),
        (0, Some(f), Lang::Zh) => format!("缺少 `{f}`"),
        (_, _, Lang::Zh) if !unknown.is_empty() => format!("未知字段 {list}"),
        _ => return Ok(()),
    };
    let message = match lang {
        Lang::En => format!(
            "Edit #{index} has {problem}. An edit has exactly the fields oldString, newString and (optional) replaceAll; nothing was changed. To delete text, pass newString: \"\"."
        ),
        Lang::Zh => format!(
            "第 {index} 个编辑{problem}。编辑只接受 oldString、newString 和（可选的）replaceAll 字段；未做任何修改。如需删除文本，请传入 newString: \"\"。"
        ),
    };
    Err(Error::new(ErrorCode::InvalidArgument, message).with_name("edits"))
}

/// The outcome of one block or edit.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockResult {
    /// 1-based position of the block or edit.
    pub index: u32,
    /// Line of the block's SEARCH marker (absent for [`apply_edits`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The block applied.
    pub ok: bool,
    /// The strategy that located it, when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// How many places it replaced.
    pub occurrences: u32,
    /// Spans replaced, as offsets into the content this block was applied
    /// to (the result of the blocks before it).
    pub matches: Vec<Match>,
    /// Why it did not apply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

/// The outcome of [`apply_search_replace`] or [`apply_edits`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchReplaceReport {
    /// The new content; the original when nothing was applied.
    pub content: String,
    /// Every block applied.
    pub ok: bool,
    /// Blocks applied.
    pub applied: u32,
    /// Blocks that did not apply.
    pub failed: u32,
    /// One result per block, in order.
    pub results: Vec<BlockResult>,
    /// Seed 003's summary line(s), in the requested language.
    pub summary: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Marker {
    Search,
    Divider,
    Replace,
}

/// Length of the run of `c` at the start of `s`.
fn run_of(s: &str, c: char) -> usize {
    s.chars().take_while(|&x| x == c).count()
}

fn marker(line: &str) -> Option<Marker> {
    let t = line.trim_end();
    let first = t
        .chars()
        .next()
        .filter(|c| matches!(c, '<' | '-' | '=' | '>' | '+'))?;
    let n = run_of(t, first);
    if !(5..=9).contains(&n) {
        return None;
    }
    // Marker characters are ASCII: `n` characters are `n` bytes.
    let rest = t.get(n..)?;
    let word = rest.strip_prefix(' ').unwrap_or(rest);
    match first {
        '<' | '-' if word == "SEARCH" || word == "SEARCH>" => Some(Marker::Search),
        '=' if rest.is_empty() => Some(Marker::Divider),
        '>' | '+' if word == "REPLACE" => Some(Marker::Replace),
        _ => None,
    }
}

/// The text of an escaped marker line (`\=======` → `=======`).
fn escaped_marker(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('\\')?;
    let first = rest.chars().next()?;
    let n = run_of(rest, first);
    (marker(rest).is_some() || (matches!(first, '<' | '=' | '>') && (5..=9).contains(&n)))
        .then_some(rest)
}

/// The number of a `:start_line:N` / `:end_line:N` line (`(true, N)` for
/// a start line), spaces around it tolerated.
fn line_hint(line: &str) -> Option<(bool, u32)> {
    let t = line.trim();
    let (is_start, n) = match t.strip_prefix(":start_line:") {
        Some(n) => (true, n),
        None => (false, t.strip_prefix(":end_line:")?),
    };
    let n = n.trim();
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| n.parse().ok())
        .flatten()
        .map(|n| (is_start, n))
}

/// Removes Roo's hint lines (and the `-------` line after them) from the
/// top of a SEARCH body; returns the `:start_line:` value.
fn take_line_hints(body: &mut Vec<(&str, &str)>) -> Option<u32> {
    let hints = body
        .iter()
        .take_while(|(t, _)| line_hint(t).is_some())
        .count();
    if hints == 0 {
        return None;
    }
    let start = body[..hints]
        .iter()
        .filter_map(|(t, _)| line_hint(t))
        .find_map(|(is_start, n)| is_start.then_some(n));
    let separator = body.get(hints).is_some_and(|(t, _)| {
        (5..=9).contains(&t.trim_end().len()) && t.trim_end().bytes().all(|b| b == b'-')
    });
    body.drain(..hints + usize::from(separator));
    start
}

/// The text of an escaped hint line (`\:start_line:5` → `:start_line:5`).
fn escaped_line_hint(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('\\')?;
    line_hint(rest).map(|_| rest)
}

/// Body lines (text, ending) joined back, without the final structural
/// line break.
fn join(lines: &[(&str, &str)]) -> String {
    let mut s = String::new();
    for (i, (text, ending)) in lines.iter().enumerate() {
        s.push_str(text);
        if i + 1 < lines.len() {
            s.push_str(ending);
        }
    }
    s
}

/// Parses a SEARCH/REPLACE text into its blocks, or reports every format
/// problem at once (`INVALID_DIFF_FORMAT` wrapping `NESTED_SEARCH`,
/// `UNCLOSED_SEARCH`, `UNMATCHED_REPLACE`, `MISPLACED_DELIMITER`,
/// `MISSING_DELIMITER`, each with its line), or `EMPTY_DIFF` when there is
/// no block at all.
pub fn parse_search_replace(text: &str, lang: Lang) -> Result<Vec<SearchReplaceBlock>, Error> {
    let (blocks, problems) = scan(text);
    if !problems.is_empty() {
        return Err(format_error(lang, problems));
    }
    if blocks.is_empty() {
        let (message, suggestions) = messages::format_problem(lang, FormatProblem::NoBlocks, 1);
        return Err(Error::new(ErrorCode::EmptyDiff, message).with_suggestions(suggestions));
    }
    Ok(blocks)
}

/// Where [`scan`] is: outside any block, in a block's SEARCH section, or in
/// its REPLACE section; `line` is the block's SEARCH marker line.
enum Section<'t> {
    Outside,
    Search {
        line: u32,
        body: Vec<(&'t str, &'t str)>,
    },
    Replace {
        line: u32,
        start_line: Option<u32>,
        search: String,
        body: Vec<(&'t str, &'t str)>,
    },
}

/// The blocks of a text and its format problems (each with its line), in
/// one pass: a marker line moves the [`Section`] (one method per marker,
/// each saying what it does in every section and the problem it reports
/// there), any other line joins the body of the section it is in.
fn scan(text: &str) -> (Vec<SearchReplaceBlock>, Vec<(FormatProblem, u32)>) {
    let mut found = Scanned::default();
    let mut state = Section::Outside;
    for (i, l) in crate::text::lines_with_endings(text).enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        state = match marker(l.text) {
            Some(Marker::Search) => found.search_marker(state, no),
            Some(Marker::Divider) => found.divider(state, no),
            Some(Marker::Replace) => found.replace_marker(state, no),
            None => found.body_line(state, l.text, l.ending, no),
        };
    }
    match state {
        Section::Outside => {}
        Section::Search { line, .. } | Section::Replace { line, .. } => {
            found.problems.push((FormatProblem::UnclosedSearch, line))
        }
    }
    (found.blocks, found.problems)
}

/// What [`scan`] has found so far: the closed blocks, and the format
/// problems with their lines.
#[derive(Default)]
struct Scanned {
    blocks: Vec<SearchReplaceBlock>,
    problems: Vec<(FormatProblem, u32)>,
}

impl Scanned {
    /// A SEARCH marker at line `no` opens a block. In a SEARCH section it
    /// is nested; in a REPLACE section the open block was never closed.
    fn search_marker<'t>(&mut self, state: Section<'t>, no: u32) -> Section<'t> {
        match state {
            Section::Outside => {}
            Section::Search { .. } => self.problems.push((FormatProblem::NestedSearch, no)),
            Section::Replace { line, .. } => {
                self.problems.push((FormatProblem::UnclosedSearch, line))
            }
        }
        Section::Search {
            line: no,
            body: Vec::new(),
        }
    }

    /// The divider ends a SEARCH section (its leading line hints taken off
    /// as the block's start line); anywhere else it is misplaced and
    /// changes nothing.
    fn divider<'t>(&mut self, state: Section<'t>, no: u32) -> Section<'t> {
        match state {
            Section::Search { line, mut body } => {
                let start_line = take_line_hints(&mut body);
                Section::Replace {
                    line,
                    start_line,
                    search: join(&body),
                    body: Vec::new(),
                }
            }
            s => {
                self.problems.push((FormatProblem::MisplacedDelimiter, no));
                s
            }
        }
    }

    /// A REPLACE marker closes the block of a REPLACE section. Outside a
    /// block it is unmatched; in a SEARCH section the divider is missing
    /// and the block is dropped.
    fn replace_marker<'t>(&mut self, state: Section<'t>, no: u32) -> Section<'t> {
        match state {
            Section::Replace {
                line,
                start_line,
                search,
                body,
            } => self.blocks.push(SearchReplaceBlock {
                search,
                replace: join(&body),
                line,
                start_line,
            }),
            Section::Outside => self.problems.push((FormatProblem::UnmatchedReplace, no)),
            Section::Search { .. } => self.problems.push((FormatProblem::MissingDelimiter, no)),
        }
        Section::Outside
    }

    /// A line that is no marker (`text`, ended by `ending`): ignored outside
    /// a block, else one more line of the section's body (an escaped marker
    /// or line hint unescaped). A line hint in a REPLACE section is
    /// misplaced.
    fn body_line<'t>(
        &mut self,
        state: Section<'t>,
        text: &'t str,
        ending: &'t str,
        no: u32,
    ) -> Section<'t> {
        let body_line = || {
            let unescaped = escaped_marker(text).or_else(|| escaped_line_hint(text));
            (unescaped.unwrap_or(text), ending)
        };
        match state {
            Section::Outside => Section::Outside,
            Section::Search { line, mut body } => {
                body.push(body_line());
                Section::Search { line, body }
            }
            Section::Replace {
                line,
                start_line,
                search,
                mut body,
            } => {
                if line_hint(text).is_some() {
                    self.problems.push((FormatProblem::MisplacedLineHint, no));
                }
                body.push(body_line());
                Section::Replace {
                    line,
                    start_line,
                    search,
                    body,
                }
            }
        }
    }
}

/// `INVALID_DIFF_FORMAT` wrapping one error per problem, in line order
/// (problems on one line in the order they were found).
fn format_error(lang: Lang, mut problems: Vec<(FormatProblem, u32)>) -> Error {
    problems.sort_by_key(|&(_, line)| line); // stable
    let errors: Vec<Error> = problems
        .iter()
        .map(|&(p, line)| {
            let (message, suggestions) = messages::format_problem(lang, p, line);
            let code = match p {
                FormatProblem::NestedSearch => ErrorCode::NestedSearch,
                FormatProblem::UnclosedSearch => ErrorCode::UnclosedSearch,
                FormatProblem::UnmatchedReplace => ErrorCode::UnmatchedReplace,
                FormatProblem::MisplacedDelimiter => ErrorCode::MisplacedDelimiter,
                FormatProblem::MissingDelimiter => ErrorCode::MissingDelimiter,
                FormatProblem::MisplacedLineHint => ErrorCode::MisplacedDelimiter,
                FormatProblem::NoBlocks => ErrorCode::EmptyDiff,
            };
            Error::new(code, message)
                .with_line(line)
                .with_suggestions(suggestions)
        })
        .collect();
    let listed: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
    let first_line = problems.first().map_or(1, |&(_, l)| l);
    Error::new(
        ErrorCode::InvalidDiffFormat,
        messages::format_invalid(lang, &listed),
    )
    .with_line(first_line)
    .with_errors(errors)
}

/// Applies every block of a SEARCH/REPLACE text in order, each against the
/// result of the ones before (SPEC §11 `applySearchReplace`).
///
/// Errors only for a malformed text (see [`parse_search_replace`]) or bad
/// options; blocks that fail are reported in the result, and with
/// `atomic` (the default) the content is then returned unchanged.
pub fn apply_search_replace(
    content: &str,
    text: &str,
    options: &SearchReplaceOptions,
) -> Result<SearchReplaceReport, Error> {
    let blocks = parse_search_replace(text, options.lang)?;
    let edits: Vec<Edit> = blocks
        .into_iter()
        .map(|b| Edit {
            search: b.search,
            replace: b.replace,
            replace_all: false,
            line: Some(b.line),
            line_hint: b.start_line,
        })
        .collect();
    run_edits(content, &edits, options)
}

/// Applies a list of `{ oldString, newString, replaceAll? }` edits in
/// order, with the same rules and report as [`apply_search_replace`]
/// (SPEC §11 `applyEdits`).
pub fn apply_edits(
    content: &str,
    edits: &[EditSpec],
    options: &SearchReplaceOptions,
) -> Result<SearchReplaceReport, Error> {
    if edits.is_empty() {
        return Err(Error::invalid_argument(
            options.lang,
            "edits",
            options
                .lang
                .pick("a non-empty list of edits", "非空的编辑列表"),
        ));
    }
    let edits: Vec<Edit> = edits
        .iter()
        .map(|e| Edit {
            search: e.old_string.clone(),
            replace: e.new_string.clone(),
            replace_all: e.replace_all,
            line: None,
            line_hint: None,
        })
        .collect();
    run_edits(content, &edits, options)
}

/// One edit of a run: a block (with its marker line and line hint) or an
/// item of an edit list.
struct Edit {
    search: String,
    replace: String,
    replace_all: bool,
    line: Option<u32>,
    line_hint: Option<u32>,
}

/// A line of Roo-Code's read view, `N | text` (spaces around the number
/// and before `|` tolerated): the number's digits and the text after the
/// prefix.
fn numbered_line(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = t[digits..].trim_start_matches(' ').strip_prefix('|')?;
    Some((&t[..digits], rest.strip_prefix(' ').unwrap_or(rest)))
}

/// `text` without the `N | ` prefixes of Roo's read view, when every
/// non-blank line has one; the first number.
fn strip_line_numbers(text: &str) -> Option<(String, Option<u32>)> {
    let mut out = String::with_capacity(text.len());
    let mut first = None;
    for l in crate::text::lines_with_endings(text) {
        if l.text.trim().is_empty() {
            out.push_str(l.text);
        } else {
            let (number, rest) = numbered_line(l.text)?;
            if first.is_none() {
                first = number.parse().ok();
            }
            out.push_str(rest);
        }
        out.push_str(l.ending);
    }
    Some((out, first))
}

/// A block whose SEARCH is nowhere as written but every line of which
/// carries a `N | ` prefix copied from Roo-Code's read view: the block
/// again without the prefixes (on REPLACE too, when all its lines have
/// them), the first number as the line hint unless the block has one.
/// The usual rules decide; `None` when the SEARCH has no such prefixes.
fn without_line_numbers(
    current: &str,
    edit: &Edit,
    options: &SearchReplaceOptions,
    shifts: &[(u32, i64)],
) -> Option<Result<super::ReplaceResult, Error>> {
    let (search, first) = strip_line_numbers(&edit.search)?;
    // REPLACE loses its prefixes when all its lines have them, keeps its
    // text when none has; a REPLACE numbered on some lines only cannot be
    // read either way.
    let replace = match strip_line_numbers(&edit.replace) {
        Some((r, _)) => r,
        None if edit.replace.lines().all(|l| numbered_line(l).is_none()) => edit.replace.clone(),
        None => return None,
    };
    let hint = edit.line_hint.or(first).map(|h| shifted(h, shifts));
    let o = options.replace_options(edit.replace_all, hint);
    Some(replace_text(current, &search, &replace, &o))
}

/// A line hint (a line of the text as given) moved by the edits applied
/// before it: each `(first line, lines added)` above the hint shifts it,
/// so a hint keeps naming the line the model read.
fn shifted(hint: u32, shifts: &[(u32, i64)]) -> u32 {
    let mut h = i64::from(hint);
    for &(line, delta) in shifts {
        if i64::from(line) < h {
            h += delta;
        }
    }
    u32::try_from(h.max(1)).unwrap_or(u32::MAX)
}

/// Applies each edit to the result of the ones before; a failed edit is
/// recorded and skipped, an invalid option ends the run.
fn run_edits(
    content: &str,
    edits: &[Edit],
    options: &SearchReplaceOptions,
) -> Result<SearchReplaceReport, Error> {
    let mut current = content.to_string();
    let newlines = |t: &str| crate::matcher::scan::count_newlines(t.as_bytes()) as i64;
    // Line breaks in `current`, carried from edit to edit.
    let mut current_lines = newlines(&current);
    let mut results = Vec::with_capacity(edits.len());
    // Where each applied edit was and how many lines it added.
    let mut shifts: Vec<(u32, i64)> = Vec::new();
    for (i, edit) in edits.iter().enumerate() {
        let index = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = &edit.line;
        let hint = edit.line_hint.map(|h| shifted(h, &shifts));
        let match_options = options.replace_options(edit.replace_all, hint);
        let mut outcome = replace_text(&current, &edit.search, &edit.replace, &match_options);
        if edit.line.is_some()
            && outcome
                .as_ref()
                .is_err_and(|e| e.code == ErrorCode::NotFound)
        {
            if let Some(renumbered) = without_line_numbers(&current, edit, options, &shifts) {
                outcome = renumbered;
            }
        }
        match outcome {
            Ok(r) => {
                let lines = newlines(&r.content);
                if let Some(m) = r.matches.first() {
                    shifts.push((m.start_line, lines - current_lines));
                }
                current_lines = lines;
                current = r.content;
                results.push(BlockResult {
                    index,
                    line: *line,
                    ok: true,
                    strategy: Some(r.strategy),
                    occurrences: r.occurrences,
                    matches: r.matches,
                    error: None,
                });
            }
            Err(e) if e.code == ErrorCode::InvalidArgument => return Err(e),
            Err(e) => results.push(BlockResult {
                index,
                line: *line,
                ok: false,
                strategy: None,
                occurrences: 0,
                matches: Vec::new(),
                error: Some(e),
            }),
        }
    }
    Ok(report(content, current, results, options))
}

/// The report of a run: `current` (every edit that applied, applied) is
/// the new content unless an edit failed and the run is atomic, or none
/// applied; the summary lists every failure.
fn report(
    content: &str,
    current: String,
    results: Vec<BlockResult>,
    options: &SearchReplaceOptions,
) -> SearchReplaceReport {
    let lang = options.lang;
    let n = results.len();
    let applied = results.iter().filter(|r| r.ok).count();
    let failed = n - applied;
    let errors: Vec<String> = results
        .iter()
        .filter_map(|r| {
            let e = r.error.as_ref()?;
            Some(messages::block_failure(
                lang,
                r.index as usize,
                r.line,
                &e.message,
            ))
        })
        .collect();
    let errors = errors.join("\n\n");
    let (content, summary) = if failed == 0 {
        (current, messages::summary_all(lang, n))
    } else if applied == 0 {
        (
            content.to_string(),
            messages::summary_none(lang, n, &errors),
        )
    } else if options.atomic {
        (
            content.to_string(),
            messages::summary_atomic(lang, failed, n, &errors),
        )
    } else {
        (
            current,
            messages::summary_partial(lang, applied, n, &errors),
        )
    };
    let applied_now = if failed > 0 && options.atomic {
        0
    } else {
        applied
    };
    SearchReplaceReport {
        content,
        ok: failed == 0,
        applied: u32::try_from(applied_now).unwrap_or(u32::MAX),
        failed: u32::try_from(failed).unwrap_or(u32::MAX),
        results,
        summary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_are_whole_lines_with_five_to_nine_chars() {
        assert_eq!(marker("<<<<<<< SEARCH"), Some(Marker::Search));
        assert_eq!(marker("<<<<<<<SEARCH  \r"), Some(Marker::Search));
        assert_eq!(marker("<<<<<<< SEARCH>"), Some(Marker::Search));
        assert_eq!(marker("------- SEARCH"), Some(Marker::Search));
        assert_eq!(marker("<<<<<<< SEARCH>>"), None);
        assert_eq!(marker("<<<< SEARCH"), None);
        assert_eq!(marker(" <<<<<<< SEARCH"), None);
        assert_eq!(marker("=========="), None);
        assert_eq!(marker("====="), Some(Marker::Divider));
        assert_eq!(marker("======= x"), None);
        assert_eq!(marker(">>>>>>>>> REPLACE"), Some(Marker::Replace));
        assert_eq!(marker("+++++++ REPLACE"), Some(Marker::Replace));
        assert_eq!(marker(">>>>>>>"), None);
        assert_eq!(marker("中中中中中中 SEARCH"), None);
    }

    #[test]
    fn bodies_keep_their_text_and_escaped_markers() {
        let text =
            "f.py\n```\n<<<<<<< SEARCH\na\n\\=======\n\n=======\nb\r\n\r\n>>>>>>> REPLACE\n```\n";
        let blocks = parse_search_replace(text, Lang::En).unwrap();
        assert_eq!(
            blocks,
            vec![SearchReplaceBlock {
                search: "a\n=======\n".into(),
                replace: "b\r\n".into(),
                line: 3,
                start_line: None,
            }]
        );
    }

    #[test]
    fn every_format_problem_is_reported_with_its_line() {
        let e = parse_search_replace(
            "=======\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nb\n",
            Lang::En,
        )
        .unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidDiffFormat);
        let got: Vec<(ErrorCode, Option<u32>)> = e
            .details
            .errors
            .iter()
            .map(|e| (e.code, e.details.line))
            .collect();
        assert_eq!(
            got,
            vec![
                (ErrorCode::MisplacedDelimiter, Some(1)),
                (ErrorCode::MissingDelimiter, Some(4)),
                (ErrorCode::UnclosedSearch, Some(5)),
            ]
        );
        assert_eq!(
            parse_search_replace("just text", Lang::Zh)
                .unwrap_err()
                .code,
            ErrorCode::EmptyDiff
        );
    }
}

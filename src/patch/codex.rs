//! The codex `apply_patch` envelope, the edit format GPT-4.1 and the codex
//! models write.
//!
//! # Grammar
//!
//! ```text
//! text      = { prose NL } "*** Begin Patch" NL { file } "*** End Patch" { NL prose }
//! file      = add | delete | update
//! add       = "*** Add File: " path NL { "+" line NL }
//! delete    = "*** Delete File: " path NL
//! update    = "*** Update File: " path NL [ "*** Move to: " path NL ] hunk { hunk }
//! hunk      = { "@@" [ " " anchor ] NL } body { body } [ "*** End of File" NL ]
//! body      = ( " " | "-" | "+" ) line NL      context, removed, added
//!           | NL                               an empty context line
//! ```
//!
//! The first hunk of a file may omit its `@@` line; every later one starts
//! with at least one. Stacked `@@ anchor` lines name the enclosing lines
//! outermost first (`@@ class A`, `@@     def f(self):`).
//!
//! Leniencies, each on purpose:
//! - text before `*** Begin Patch` and after `*** End Patch` (an
//!   explanation, a code fence, a shell heredoc's `<<'EOF'` / `EOF`) is
//!   ignored;
//! - structural lines are recognised with surrounding spaces and a `\r`
//!   ending; body lines lose only a trailing `\r`;
//! - blank lines between files are ignored, and blank lines that end a
//!   hunk are dropped rather than required of the file;
//! - a blank line inside an added file's `+` lines is an empty line of it.
//!
//! Every format problem is reported at once, each with its line, before
//! anything is planned.

use super::problem::Problem;
use super::types::{numbered_lines, FileOp, FilePatch, Hunk, Line, Patch};

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";
const END_OF_FILE: &str = "*** End of File";

/// A line that ends a file section: a file header, or any other `***`
/// line but `*** End of File` (reported as a bad header, not as a bad
/// hunk line).
fn is_file_header(text: &str) -> bool {
    let t = text.trim();
    !is_body_line(text) && t.starts_with("***") && t != END_OF_FILE && !t.starts_with(MOVE)
}

/// A hunk's context, removed or added line: never structure, whatever
/// follows its first character (` ***` is a Markdown rule, ` @@` text).
fn is_body_line(text: &str) -> bool {
    text.starts_with([' ', '-', '+'])
}

/// Parses a codex patch into its file operations, or reports every format
/// problem (see the module docs for the grammar).
pub(super) fn parse(text: &str) -> Result<Patch, Vec<Problem>> {
    let all = numbered_lines(text);
    let Some(begin) = all.iter().position(|l| l.text.trim() == BEGIN) else {
        return Err(vec![Problem::NoBegin]);
    };
    let Some(end) = all
        .iter()
        .rposition(|l| l.text.trim() == END)
        .filter(|&e| e > begin)
    else {
        return Err(vec![Problem::NoEnd {
            line: all[begin].no,
        }]);
    };
    let body = &all[begin + 1..end];
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let (file, next) = section(body, i, &mut problems);
        files.extend(file);
        i = next;
    }
    super::parsed(files, problems)
}

/// The file section whose header is at `i` (blank lines before it are
/// skipped); returns the index after it. A line that is no header is
/// reported and skipped to the next header.
fn section(body: &[Line<'_>], i: usize, problems: &mut Vec<Problem>) -> (Option<FilePatch>, usize) {
    let line = body[i];
    let t = line.text.trim();
    let mut i = i + 1;
    let file = |op, path: &str, move_to, content, hunks| FilePatch {
        path: path.trim().to_string(),
        op,
        move_to,
        content,
        copy: false,
        mode: None,
        hunks,
        line: line.no,
    };
    if t.is_empty() {
        return (None, i);
    }
    if let Some(path) = t.strip_prefix(ADD) {
        let (content, next) = add_lines(body, i);
        return (
            Some(file(FileOp::Add, path, None, Some(content), Vec::new())),
            next,
        );
    }
    if let Some(path) = t.strip_prefix(DELETE) {
        return (Some(file(FileOp::Delete, path, None, None, Vec::new())), i);
    }
    if let Some(path) = t.strip_prefix(UPDATE) {
        let mut move_to = None;
        if let Some(to) = body.get(i).and_then(|l| l.text.trim().strip_prefix(MOVE)) {
            // A move onto the file's own path is no move.
            move_to = Some(to.trim().to_string()).filter(|to| to != path.trim());
            i += 1;
        }
        let (hunks, next) = update_hunks(body, i, problems);
        if hunks.is_empty() {
            problems.push(Problem::EmptyUpdate {
                line: line.no,
                path: path.trim().to_string(),
            });
        }
        return (Some(file(FileOp::Update, path, move_to, None, hunks)), next);
    }
    problems.push(Problem::BadFileHeader {
        line: line.no,
        text: line.text.to_string(),
    });
    // Resynchronise at the next file header.
    while i < body.len() && !is_file_header(body[i].text) {
        i += 1;
    }
    (None, i)
}

/// The text of an added file: its `+` lines (a blank line among them is an
/// empty line), each ending in a newline. Returns the index after them.
fn add_lines(body: &[Line<'_>], mut i: usize) -> (String, usize) {
    let mut content = String::new();
    let mut blanks = 0usize;
    while let Some(l) = body.get(i) {
        if let Some(rest) = l.text.strip_prefix('+') {
            for _ in 0..blanks {
                content.push('\n');
            }
            blanks = 0;
            content.push_str(rest);
            content.push('\n');
        } else if l.text.trim().is_empty() {
            blanks += 1;
        } else {
            break;
        }
        i += 1;
    }
    (content, i)
}

/// The hunks of an update section, starting at `i`; returns the index of
/// the next file header (or the end).
fn update_hunks(
    body: &[Line<'_>],
    mut i: usize,
    problems: &mut Vec<Problem>,
) -> (Vec<Hunk>, usize) {
    let mut hunks: Vec<Hunk> = Vec::new();
    while i < body.len() && !is_file_header(body[i].text) {
        let first = body[i];
        if first.text.trim().is_empty() {
            i += 1;
            continue;
        }
        let mut anchors = Vec::new();
        let mut headed = false;
        while let Some(rest) = body
            .get(i)
            .and_then(|l| l.text.trim_end().strip_prefix("@@"))
        {
            headed = true;
            let anchor = rest.trim();
            if !anchor.is_empty() {
                anchors.push(anchor.to_string());
            }
            i += 1;
        }
        if !headed && !hunks.is_empty() {
            problems.push(Problem::BadHunkLine {
                line: first.no,
                text: first.text.to_string(),
            });
            i += 1;
            continue;
        }
        let mut hunk = Hunk {
            anchors,
            appends: true,
            ..Hunk::at(first.no)
        };
        let (body_lines, next) = hunk_body(body, i, &mut hunk, problems);
        i = next;
        if body_lines == 0 {
            problems.push(Problem::EmptyHunk { line: first.no });
        }
        hunks.push(hunk);
    }
    (hunks, i)
}

/// Reads a hunk's body lines from `i` into `hunk` (up to the next `@@`,
/// file header or `*** End of File`, which it consumes); returns how many
/// body lines it read and the index after them.
fn hunk_body(
    body: &[Line<'_>],
    mut i: usize,
    hunk: &mut Hunk,
    problems: &mut Vec<Problem>,
) -> (usize, usize) {
    // Blank lines seen but not yet known to be inside the hunk.
    let mut blanks = 0usize;
    let mut body_lines = 0usize;
    while let Some(l) = body.get(i) {
        let text = l.text;
        if !is_body_line(text) && text.trim() == END_OF_FILE {
            hunk.at_end = true;
            i += 1;
            break;
        }
        if is_file_header(text) || text.trim_end().starts_with("@@") {
            break;
        }
        i += 1;
        if text.is_empty() {
            blanks += 1;
            continue;
        }
        let kind = text.chars().next().unwrap_or(' ');
        let rest = &text[kind.len_utf8()..];
        if !matches!(kind, ' ' | '-' | '+') {
            problems.push(Problem::BadHunkLine {
                line: l.no,
                text: text.to_string(),
            });
            continue;
        }
        for _ in 0..std::mem::take(&mut blanks) {
            hunk.push(' ', "");
        }
        hunk.push(kind, rest);
        body_lines += 1;
    }
    (body_lines, i)
}

//! Unified diffs (`diff -u`, `git diff`), one file or several.
//!
//! # Grammar
//!
//! ```text
//! text    = { prose NL } file { file }
//! file    = "--- " old-path NL "+++ " new-path NL hunk { { prose NL } hunk }
//! path    = "/dev/null" | [ "a/" | "b/" ] name [ TAB timestamp ]
//! hunk    = "@@ -" l [ "," s ] " +" l [ "," s ] " @@" [ section ] NL body
//! body    = { ( " " | "-" | "+" ) line NL | NL | "\ No newline at end of file" NL }
//! ```
//!
//! `/dev/null` as the old path adds a file (its hunks hold only `+`
//! lines), as the new path deletes one (its `-` lines must be the file's
//! text). Different old and new paths rename the file. The `a/` and `b/`
//! prefixes are dropped when the paths carry them (git's form).
//!
//! The counts in `@@ -l,s +l,s @@` delimit the body, so a removed line
//! that reads `-- x` (written `--- x`) is a body line, not a header; a body
//! that ends before its counts, or goes on after them, is refused with the
//! numbers. A bare `@@` (or `@@ … @@` without numbers), as models write
//! it, has no counts: its body runs to the next header. The line numbers
//! are hints: they break a tie between places the hunk matches, and never
//! place a hunk where its lines are not.
//!
//! git's extended headers after `diff --git` (`git.rs`): `rename from`/`to`
//! and `copy from`/`to` (with or without hunks), `new file mode`, `deleted
//! file mode`, `old mode`/`new mode`; a section of them alone is a file
//! operation too.
//!
//! Leniencies: lines that are not part of a file (`index`, an
//! explanation, a code fence) are ignored; an empty line in
//! a body is an empty context line (editors strip the lone space); lines
//! lose a trailing `\r`.

use super::git;
use super::problem::Problem;
use super::types::{numbered_lines, FileOp, FilePatch, Hunk, Line};

const NO_NEWLINE: char = '\\';

/// A `--- ` line followed by a `+++ ` line starts a file.
fn file_header_at(lines: &[Line<'_>], i: usize) -> bool {
    lines.get(i).is_some_and(|l| l.text.starts_with("--- "))
        && lines.get(i + 1).is_some_and(|l| l.text.starts_with("+++ "))
}

/// A header path: `None` for `/dev/null`; the timestamp after a tab and
/// surrounding quotes removed.
fn header_path(raw: &str) -> Option<String> {
    let p = raw.split('\t').next().unwrap_or("").trim();
    let p = p
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .unwrap_or(p);
    (p != "/dev/null").then(|| p.to_string())
}

/// `@@ -l[,s] +l[,s] @@`: `Some(Some(((l, s), (l, s))))`; a bare `@@` or
/// `@@ … @@` without numbers: `Some(None)`; not a hunk header: `None`.
#[allow(clippy::type_complexity)]
fn hunk_header(text: &str) -> Option<Option<((u32, u32), (u32, u32))>> {
    let rest = text.trim_end().strip_prefix("@@")?;
    let inner = rest.split("@@").next().unwrap_or("").trim();
    if !inner.starts_with('-') {
        return Some(None);
    }
    let mut parts = inner.split_whitespace();
    let range = |part: Option<&str>, sign: char| -> Option<(u32, u32)> {
        let r = part?.strip_prefix(sign)?;
        let (l, s) = match r.split_once(',') {
            Some((l, s)) => (l, Some(s)),
            None => (r, None),
        };
        let l: u32 = l.parse().ok()?;
        let s: u32 = match s {
            Some(s) => s.parse().ok()?,
            None => 1,
        };
        Some((l, s))
    };
    let old = range(parts.next(), '-');
    let new = range(parts.next(), '+');
    match (old, new) {
        (Some(o), Some(n)) => Some(Some((o, n))),
        _ => Some(None),
    }
}

/// Parses a unified diff into its file operations, or reports every
/// format problem (see the module docs for the grammar).
/// The file sections of a diff, the `(line, path)` of each section with
/// headers and no hunk (nothing to do), and the format problems.
pub(super) fn parse(text: &str) -> (Vec<FilePatch>, Vec<(u32, String)>, Vec<Problem>) {
    let lines = numbered_lines(text);
    let mut problems = Vec::new();
    let mut files = Vec::new();
    let mut empty = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(git) = git::header_at(&lines, i) {
            // git's extended headers, then its `---`/`+++` section (or none:
            // a rename, copy or mode change alone, an empty file added or
            // deleted).
            let (ext, next) = git::extended(&lines, i + 1);
            if file_header_at(&lines, next) {
                let (file, after) = file(&lines, next, &mut problems);
                match file {
                    Ok(Some(f)) => files.push(git::amend(f, &ext)),
                    Ok(None) => {}
                    Err(section) => match git::alone(&git, &ext, lines[i].no) {
                        Some(f) => files.push(f),
                        None => empty.push(section),
                    },
                }
                i = after;
            } else {
                match git::alone(&git, &ext, lines[i].no) {
                    Some(f) => files.push(f),
                    None => empty.push((lines[i].no, git.new.clone())),
                }
                i = next;
            }
        } else if file_header_at(&lines, i) {
            let (file, next) = file(&lines, i, &mut problems);
            match file {
                Ok(f) => files.extend(f),
                Err(section) => empty.push(section),
            }
            i = next;
        } else {
            if lines[i].text.starts_with("@@") {
                problems.push(Problem::HunkOutsideFile { line: lines[i].no });
            }
            i += 1;
        }
    }
    if files.is_empty() && empty.is_empty() && problems.is_empty() {
        problems.push(Problem::NoFileHeader);
    }
    (files, empty, problems)
}

/// One file from its `---` line at `i`, or (`Err`) the line and path of
/// an update section with no hunk; returns the index after it.
fn file(
    lines: &[Line<'_>],
    i: usize,
    problems: &mut Vec<Problem>,
) -> (Result<Option<FilePatch>, (u32, String)>, usize) {
    let header = lines[i];
    let old_raw = &lines[i].text[4..];
    let new_raw = &lines[i + 1].text[4..];
    let (mut old, mut new) = (header_path(old_raw), header_path(new_raw));
    // git's a/ and b/ prefixes, dropped only when the paths carry them.
    let git = old.as_deref().is_none_or(|p| p.starts_with("a/"))
        && new.as_deref().is_none_or(|p| p.starts_with("b/"))
        && (old.is_some() || new.is_some());
    if git {
        old = old.map(|p| p[2..].to_string());
        new = new.map(|p| p[2..].to_string());
    }
    let mut j = i + 2;
    let mut hunks = Vec::new();
    while j < lines.len() && !file_header_at(lines, j) {
        match hunk_header(lines[j].text) {
            Some(counts) => {
                let (hunk, next) = hunk(lines, j, counts, problems);
                hunks.push(hunk);
                j = next;
            }
            None => j += 1,
        }
    }
    let file = match (old, new) {
        (None, None) => {
            problems.push(Problem::BothDevNull { line: header.no });
            None
        }
        // Both sides name the file and nothing changes it: nothing to do.
        (Some(_), Some(to)) if hunks.is_empty() => return (Err((header.no, to)), j),
        _ if hunks.is_empty() => {
            problems.push(Problem::EmptyUpdate {
                line: header.no,
                path: header_path(new_raw)
                    .or_else(|| header_path(old_raw))
                    .unwrap_or_default(),
            });
            None
        }
        (None, Some(path)) => Some(added(path, &hunks, header.no, problems)),
        (Some(path), None) => Some(FilePatch {
            path,
            op: FileOp::Delete,
            move_to: None,
            content: None,
            copy: false,
            mode: None,
            hunks,
            line: header.no,
        }),
        (Some(path), Some(to)) => Some(FilePatch {
            move_to: (to != path).then_some(to),
            path,
            op: FileOp::Update,
            content: None,
            copy: false,
            mode: None,
            hunks,
            line: header.no,
        }),
    };
    (Ok(file), j)
}

/// A file the diff creates (`--- /dev/null`): its text is the hunks' new
/// lines.
fn added(path: String, hunks: &[Hunk], line: u32, problems: &mut Vec<Problem>) -> FilePatch {
    if let Some(h) = hunks.iter().find(|h| !h.old_lines.is_empty()) {
        problems.push(Problem::AddWithOldLines { line: h.line });
    }
    let mut content = String::new();
    let last = hunks.last().is_some_and(|h| h.new_without_final_newline);
    let all: Vec<&String> = hunks.iter().flat_map(|h| &h.new_lines).collect();
    for (k, l) in all.iter().enumerate() {
        content.push_str(l);
        if k + 1 < all.len() || !last {
            content.push('\n');
        }
    }
    FilePatch {
        path,
        op: FileOp::Add,
        move_to: None,
        content: Some(content),
        copy: false,
        mode: None,
        hunks: Vec::new(),
        line,
    }
}

/// A hunk's counts: `((old start, old count), (new start, new count))`.
type Counts = ((u32, u32), (u32, u32));

/// `\ No newline at end of file` after a line of kind `last` (` `, `-`,
/// `+`): the side(s) that line was on end without a newline.
fn no_newline(h: &mut Hunk, last: char) {
    if last != '+' {
        h.old_without_final_newline = true;
    }
    if last != '-' {
        h.new_without_final_newline = true;
    }
}

/// Most of the patch's lines end with CRLF.
fn mostly_crlf(lines: &[Line<'_>]) -> bool {
    lines.iter().filter(|l| l.crlf).count() * 2 > lines.len()
}

/// One hunk from its `@@` line at `i`; returns the index after its body.
fn hunk(
    lines: &[Line<'_>],
    i: usize,
    counts: Option<Counts>,
    problems: &mut Vec<Problem>,
) -> (Hunk, usize) {
    let header = lines[i];
    let mut h = Hunk {
        line_hint: counts.map(|((l, _), _)| l),
        ..Hunk::at(header.no)
    };
    let wanted = counts.map(|((_, o), (_, n))| (o as usize, n as usize));
    let (mut j, last_kind, context) = read_body(lines, i + 1, wanted, &mut h, problems);
    h.context_free = counts.is_some() && context == 0;
    // A `\ No newline` line right after the counted body belongs to it.
    if lines.get(j).is_some_and(|l| l.text.starts_with(NO_NEWLINE)) {
        // In a patch whose lines end with LF, a `\r` before the line
        // break of the last line is that line's own last character (a
        // file ending in a literal CR), not part of a CRLF.
        if j > i + 1 && lines[j - 1].crlf && !mostly_crlf(lines) {
            let last = lines[j - 1].text.get(1..).unwrap_or("");
            if last_kind != '+' {
                if let Some(l) = h.old_lines.last_mut().filter(|l| l.as_str() == last) {
                    l.push('\r');
                }
            }
            if last_kind != '-' {
                if let Some(l) = h.new_lines.last_mut().filter(|l| l.as_str() == last) {
                    l.push('\r');
                }
            }
        }
        no_newline(&mut h, last_kind);
        j += 1;
    }
    if let Some((o, n)) = wanted {
        let (old_n, new_n) = (h.old_lines.len(), h.new_lines.len());
        // The body goes on when, past any empty lines, the next line is a
        // hunk line (not the next file's header, nor git format-patch's
        // `-- ` signature).
        let next = (j..lines.len()).find(|&k| !lines[k].text.is_empty());
        let goes_on = next.is_some_and(|k| {
            matches!(lines[k].text.chars().next(), Some(' ' | '-' | '+'))
                && !file_header_at(lines, k)
                && lines[k].text.trim_end() != "--"
        });
        if old_n != o || new_n != n || goes_on {
            problems.push(Problem::CountMismatch {
                line: header.no,
                header: (o, n),
                body: (!goes_on).then_some((old_n, new_n)),
            });
        }
    }
    if h.old_lines.is_empty() && h.new_lines.is_empty() {
        problems.push(Problem::EmptyHunk { line: header.no });
    }
    (h, j)
}

/// Reads body lines from `j` into `h`: until the counts are met (`wanted`),
/// or without counts until the next header (blank lines at the end are
/// dropped). Returns the index after the body, the last line's kind and
/// how many context lines it read.
fn read_body(
    lines: &[Line<'_>],
    mut j: usize,
    wanted: Option<(usize, usize)>,
    h: &mut Hunk,
    problems: &mut Vec<Problem>,
) -> (usize, char, usize) {
    let mut last_kind = ' ';
    let mut context = 0usize;
    let mut pending_blanks = 0usize;
    while let Some(l) = lines.get(j) {
        if let Some((o, n)) = wanted {
            if h.old_lines.len() >= o && h.new_lines.len() >= n {
                break;
            }
        }
        // A file header ends the body even before its counts are met: a
        // count one too high is a model's slip far more often than a
        // removed `-- x` line followed by an added `++ y` one.
        if hunk_header(l.text).is_some() || file_header_at(lines, j) {
            break;
        }
        let kind = match l.text.chars().next() {
            // An empty line: an empty context line (its space stripped).
            None if wanted.is_some() => ' ',
            None => {
                pending_blanks += 1;
                j += 1;
                continue;
            }
            Some(NO_NEWLINE) => {
                no_newline(h, last_kind);
                j += 1;
                continue;
            }
            Some(k @ (' ' | '-' | '+')) => k,
            Some(_) => {
                // Without counts, a line that is no hunk line ends the body,
                // unless hunk lines follow it: then it is a slip (a context
                // line that lost its space), refused rather than dropped.
                if wanted.is_none() && more_hunk_lines(lines, j + 1) {
                    problems.push(Problem::BadHunkLine {
                        line: l.no,
                        text: l.text.to_string(),
                    });
                }
                break;
            }
        };
        for _ in 0..std::mem::take(&mut pending_blanks) {
            h.push(' ', "");
            context += 1;
        }
        h.push(kind, l.text.get(1..).unwrap_or(""));
        context += usize::from(kind == ' ');
        last_kind = kind;
        j += 1;
    }
    (j, last_kind, context)
}

/// Whether a `-` or `+` line comes from `j` on before the next header (a
/// hunk or file header) or the end.
fn more_hunk_lines(lines: &[Line<'_>], j: usize) -> bool {
    lines[j.min(lines.len())..]
        .iter()
        .enumerate()
        .take_while(|(k, l)| hunk_header(l.text).is_none() && !file_header_at(lines, j + k))
        .any(|(_, l)| l.text.starts_with(['-', '+']))
}

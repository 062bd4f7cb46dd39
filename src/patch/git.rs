//! git's extended headers in a unified diff (issue 43): what `git diff`
//! writes between `diff --git a/x b/y` and `---`, and the sections it
//! writes with no `---`/`+++` at all.
//!
//! - `rename from x` / `rename to y`: the file moves (its hunks, if any,
//!   apply to its text on the way);
//! - `copy from x` / `copy to y`: `y` is written with `x`'s text (hunks
//!   applied), `x` stays;
//! - `new file mode m` (an added file; with no hunk, an empty one),
//!   `deleted file mode m` (with no hunk, the file must be empty);
//! - `old mode m` / `new mode n`: the file's mode changes, which the host
//!   sets through its optional `setMode` callback or reports.
//!
//! `similarity index`, `dissimilarity index` and `index` lines say nothing
//! the operation needs. A path is taken from the `rename`/`copy` lines
//! where there are some (they are exact), else from the `diff --git` line.

use super::types::{FileOp, FilePatch, Hunk, Line};

/// The two paths of a `diff --git a/x b/y` line.
pub(super) struct GitHeader {
    pub old: String,
    pub new: String,
}

/// The extended header lines that matter.
#[derive(Default)]
pub(super) struct Extended {
    rename: Option<(String, String)>,
    copy: Option<(String, String)>,
    new_file_mode: Option<String>,
    deleted: bool,
    new_mode: Option<String>,
}

/// `diff --git a/x b/y` at line `i`: its paths (a name with spaces is
/// split where the two halves name the same file, as git writes them when
/// the name does not change).
pub(super) fn header_at(lines: &[Line<'_>], i: usize) -> Option<GitHeader> {
    let rest = lines.get(i)?.text.strip_prefix("diff --git ")?;
    let unquote = |p: &str| {
        let p = p.trim();
        p.strip_prefix('"')
            .and_then(|q| q.strip_suffix('"'))
            .unwrap_or(p)
            .to_string()
    };
    let strip = |p: String, prefix: &str| p.strip_prefix(prefix).map(str::to_string).unwrap_or(p);
    // The split where both halves are equal, else the last ` b/`.
    let halves = rest.len().checked_sub(1).map(|n| n / 2);
    let equal_split = halves.and_then(|h| {
        let (a, b) = (rest.get(..h)?, rest.get(h + 1..)?);
        (rest.as_bytes().get(h) == Some(&b' ') && a.get(2..) == b.get(2..)).then_some((a, b))
    });
    let (a, b) = match equal_split {
        Some(pair) => pair,
        None => {
            let at = rest.rfind(" b/").or_else(|| rest.rfind(' '))?;
            (&rest[..at], &rest[at + 1..])
        }
    };
    Some(GitHeader {
        old: strip(unquote(a), "a/"),
        new: strip(unquote(b), "b/"),
    })
}

/// The extended header lines from `i` on: what they say, and the index of
/// the first line that is not one.
pub(super) fn extended(lines: &[Line<'_>], mut i: usize) -> (Extended, usize) {
    let mut ext = Extended::default();
    let (mut rename_from, mut rename_to) = (None, None);
    let (mut copy_from, mut copy_to) = (None, None);
    while let Some(l) = lines.get(i) {
        let t = l.text;
        let value = |prefix: &str| t.strip_prefix(prefix).map(|v| v.trim().to_string());
        if let Some(v) = value("rename from ") {
            rename_from = Some(v);
        } else if let Some(v) = value("rename to ") {
            rename_to = Some(v);
        } else if let Some(v) = value("copy from ") {
            copy_from = Some(v);
        } else if let Some(v) = value("copy to ") {
            copy_to = Some(v);
        } else if let Some(v) = value("new file mode ") {
            ext.new_file_mode = Some(v);
        } else if t.starts_with("deleted file mode ") {
            ext.deleted = true;
        } else if let Some(v) = value("new mode ") {
            ext.new_mode = Some(v);
        } else if !(t.starts_with("old mode ")
            || t.starts_with("similarity index ")
            || t.starts_with("dissimilarity index ")
            || t.starts_with("index "))
        {
            break;
        }
        i += 1;
    }
    ext.rename = rename_from.zip(rename_to);
    ext.copy = copy_from.zip(copy_to);
    (ext, i)
}

/// A `---`/`+++` section with what its extended headers add: the copy
/// flag, the new mode.
pub(super) fn amend(mut f: FilePatch, ext: &Extended) -> FilePatch {
    if let Some((from, to)) = &ext.copy {
        f.path = from.clone();
        f.move_to = Some(to.clone());
        f.copy = true;
    }
    f.mode = ext.new_mode.clone().or_else(|| ext.new_file_mode.clone());
    f
}

/// The file operation of a git section with no `---`/`+++` (or with them
/// and no hunk): a rename, a copy, a mode change, an empty file added or
/// deleted; `None` when its headers say none of these.
pub(super) fn alone(git: &GitHeader, ext: &Extended, line: u32) -> Option<FilePatch> {
    let base = |path: &str, op: FileOp| FilePatch {
        path: path.to_string(),
        op,
        move_to: None,
        content: None,
        copy: false,
        mode: None,
        hunks: Vec::new(),
        line,
    };
    if let Some(mode) = &ext.new_file_mode {
        let mut f = base(&git.new, FileOp::Add);
        f.content = Some(String::new());
        f.mode = Some(mode.clone());
        return Some(f);
    }
    if ext.deleted {
        // No hunk: git deletes an empty file so; a file with text needs
        // its lines shown, so an empty hunk asks for an empty file.
        let mut f = base(&git.old, FileOp::Delete);
        f.hunks.push(Hunk::at(line));
        return Some(f);
    }
    let moved = ext.rename.as_ref().map(|r| (r, false));
    let copied = ext.copy.as_ref().map(|c| (c, true));
    if let Some(((from, to), copy)) = moved.or(copied) {
        let mut f = base(from, FileOp::Update);
        f.move_to = Some(to.clone());
        f.copy = copy;
        f.mode = ext.new_mode.clone();
        return Some(f);
    }
    let mode = ext.new_mode.clone()?;
    let mut f = base(&git.new, FileOp::Update);
    f.mode = Some(mode);
    Some(f)
}

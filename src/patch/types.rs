//! A parsed patch (either format), the options of planning one, and the
//! report a plan returns. A leaf: it imports no other module of `patch`.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::lang::Lang;
use crate::matcher::{MatchMode, Strategy};

crate::wire::wire_enum! {
/// What a patch does to one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileOp {
    /// Create the file (it must not exist).
    Add = "add",
    /// Remove the file (it must exist).
    Delete = "delete",
    /// Change the file's text by hunks, and possibly rename it.
    Update = "update",
}
}

/// One hunk: the lines it expects (`old_lines`: context and removed, in
/// order) and the lines it leaves (`new_lines`: context and added).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hunk {
    /// 1-based line of the hunk's first line (its `@@` line, or its first
    /// body line) in the patch text.
    pub line: u32,
    /// codex `@@ <text>` lines: lines of the file that come before the
    /// hunk, outermost first (a class, then a method in it).
    pub anchors: Vec<String>,
    /// Context and removed lines, in order.
    pub old_lines: Vec<String>,
    /// Context and added lines, in order.
    pub new_lines: Vec<String>,
    /// codex `*** End of File`: the hunk's lines end the file.
    pub at_end: bool,
    /// A hunk of only added lines (and no anchor) goes to the end of the
    /// file: codex's rule. A unified diff's has no such rule (it places
    /// one only in an empty file).
    pub appends: bool,
    /// A unified diff's `@@ -l`: where the old lines start (1-based; 0 for
    /// an empty file). Only breaks a tie between places.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_hint: Option<u32>,
    /// A unified hunk with no context line (`diff -U0`): nothing but its
    /// line number says where it goes, so it is placed at that line (after
    /// the offset) or nowhere.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub context_free: bool,
    /// `\ No newline at end of file` after the hunk's last old line.
    pub old_without_final_newline: bool,
    /// `\ No newline at end of file` after the hunk's last new line.
    pub new_without_final_newline: bool,
    /// Each body line's kind in order (` ` context, `-` removed, `+`
    /// added): what a fuzz factor needs to tell context from removed lines.
    #[serde(skip)]
    pub kinds: Vec<char>,
}

impl Hunk {
    /// A hunk at patch line `line` with no lines yet, every flag off: what
    /// each format's parser fills.
    pub(super) fn at(line: u32) -> Hunk {
        Hunk {
            line,
            anchors: Vec::new(),
            old_lines: Vec::new(),
            new_lines: Vec::new(),
            at_end: false,
            appends: false,
            line_hint: None,
            context_free: false,
            old_without_final_newline: false,
            new_without_final_newline: false,
            kinds: Vec::new(),
        }
    }

    /// Adds one body line of kind ` ` (context: both sides), `-` (old side)
    /// or `+` (new side).
    pub(super) fn push(&mut self, kind: char, text: &str) {
        self.kinds.push(kind);
        if kind != '+' {
            self.old_lines.push(text.to_string());
        }
        if kind != '-' {
            self.new_lines.push(text.to_string());
        }
    }
}

/// A line of a patch text: its 1-based number and its text without the
/// line break (and without a `\r` before it).
#[derive(Clone, Copy)]
pub(super) struct Line<'t> {
    pub no: u32,
    pub text: &'t str,
    /// The line ended with `\r\n` (its `\r` is not in `text`).
    pub crlf: bool,
}

/// The lines of a patch text, numbered.
pub(super) fn numbered_lines(text: &str) -> Vec<Line<'_>> {
    crate::text::lines_with_endings(text)
        .enumerate()
        .map(|(i, l)| Line {
            no: u32::try_from(i + 1).unwrap_or(u32::MAX),
            text: l.text,
            crlf: l.ending == "\r\n",
        })
        .collect()
}

/// What a patch does to one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FilePatch {
    /// The file, as the patch names it.
    pub path: String,
    /// Add, delete or update.
    pub op: FileOp,
    /// codex `*** Move to:` or a unified diff whose `+++` names another
    /// file: the updated text is written there and `path` removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_to: Option<String>,
    /// An added file's text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// git's `copy from`/`copy to`: `move_to` is a copy, `path` stays.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copy: bool,
    /// git's `new mode` or `new file mode` (`100755`, `100644`, `120000`):
    /// the mode the file ends with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The hunks of an update (for a unified diff's deletion: the lines it
    /// expects the file to hold).
    pub hunks: Vec<Hunk>,
    /// 1-based line of the file's header in the patch text.
    pub line: u32,
}

/// A parsed patch: its file operations, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Patch {
    /// One entry per file, in the patch's order.
    pub files: Vec<FilePatch>,
    /// `(line, path)` of each unified-diff file section with headers and
    /// no hunk (a diff of a file that did not change): nothing to do,
    /// reported as a warning.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub empty_sections: Vec<(u32, String)>,
}

/// Something a plan did not do, and why that is not a failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchWarning {
    /// Stable: `NO_HUNKS` (a file section with no hunk: nothing to do).
    pub code: &'static str,
    /// The file the warning is about.
    pub path: String,
    /// 1-based line of the patch text.
    pub line: u32,
    /// The warning in words (also in the report's summary).
    pub message: String,
}

impl Patch {
    /// Every path the patch reads or writes (sources and move targets),
    /// in order, each once: what a host reads before planning.
    pub fn paths(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in &self.files {
            for p in std::iter::once(&f.path).chain(f.move_to.as_ref()) {
                if !out.contains(p) {
                    out.push(p.clone());
                }
            }
        }
        out
    }
}

/// The files a patch is planned over: path → text; a path it has no text
/// for does not exist. A `BTreeMap` or a `HashMap` of paths to texts is
/// one (the wasm binding reads the host's object into a hash map: the
/// report's order comes from the patch, never from the map).
pub trait PatchFiles {
    /// The text of `path`, if that file exists.
    fn text(&self, path: &str) -> Option<&str>;
}

impl PatchFiles for std::collections::BTreeMap<String, String> {
    fn text(&self, path: &str) -> Option<&str> {
        self.get(path).map(String::as_str)
    }
}

impl<S: std::hash::BuildHasher> PatchFiles for std::collections::HashMap<String, String, S> {
    fn text(&self, path: &str) -> Option<&str> {
        self.get(path).map(String::as_str)
    }
}

/// Options of [`plan_patch`](super::plan_patch) and
/// [`plan_unified_diff`](super::plan_unified_diff).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PatchOptions {
    /// Default `true`: nothing is written unless every hunk of every file
    /// applies. `false` writes the files whose hunks all applied.
    pub atomic: bool,
    /// `exact` or `safe` (the default). Hunks are never placed by content
    /// similarity: `fuzzy` is refused.
    pub mode: MatchMode,
    /// Language of messages. Default `en`.
    pub lang: Lang,
    /// jsdiff's `fuzzFactor` for unified diffs (default 0): how many of a
    /// hunk's context lines may be changed, missing or extra in the file
    /// when its lines are found nowhere as they are. Its removed lines must
    /// still be found; it is placed only where one place fits.
    pub fuzz_factor: u32,
}

impl Default for PatchOptions {
    fn default() -> Self {
        PatchOptions {
            atomic: true,
            mode: MatchMode::Safe,
            lang: Lang::En,
            fuzz_factor: 0,
        }
    }
}

/// Where one hunk went, or why it did not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HunkResult {
    /// 1-based position of the hunk in its file's section.
    pub index: u32,
    /// 1-based line of the hunk in the patch text.
    pub line: u32,
    /// The hunk was placed.
    pub ok: bool,
    /// The strategy that located its old lines (absent for an insertion at
    /// the end of the file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// First line of the file (before the patch) the hunk replaced, 1-based.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    /// Last line it replaced (inclusive; `start_line - 1` for an insertion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// Why it was not placed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

/// The outcome for one file.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileResult {
    /// The file, as the patch names it.
    pub path: String,
    /// Add, delete or update.
    pub op: FileOp,
    /// Where the updated text goes instead of `path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_to: Option<String>,
    /// `move_to` is a copy: `path` stays (git's `copy from`/`copy to`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub copy: bool,
    /// The mode the host sets on the file written (git's `new mode`,
    /// `new file mode`), through its optional `setMode` callback; a host
    /// without one reports it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// Every hunk applied (and the file-level checks passed).
    pub ok: bool,
    /// The host performs this file's operation: it is `ok`, and the plan
    /// is not an atomic one that another file failed.
    pub write: bool,
    /// The text to write (to `move_to` when set, else `path`) when
    /// `write`: absent for deletions and for files not written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// The text changes (false for an update whose hunks change nothing).
    pub changed: bool,
    /// One result per hunk.
    pub hunks: Vec<HunkResult>,
    /// A file-level refusal (missing file, existing file, or the first
    /// failed hunk's error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

/// The outcome of planning a patch: what to write, file by file.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchReport {
    /// Every file applied.
    pub ok: bool,
    /// Files that applied (0 when an atomic plan failed).
    pub applied: u32,
    /// Files that did not apply.
    pub failed: u32,
    /// One result per file, in the patch's order.
    pub files: Vec<FileResult>,
    /// One paragraph for the agent: what was applied, every failure with
    /// its file, hunk and line, and what to do next.
    pub summary: String,
    /// What the patch asked for that was nothing to do.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<PatchWarning>,
}

//! What can go wrong in the planner, as data. A leaf: it imports no stage
//! module and no `messages`, so the stages (`prepare`, `apply`, `guards`,
//! `range`, `session`, `view`) and the messages all import it.
//!
//! A stage says what went wrong with a [`Problem`]; `messages::render`
//! turns it into words (both languages side by side); `render::refuse`
//! builds the one `Error` from it, with the agent YAML.

use super::types::AnchorMatch;
use crate::error::{Details, ErrorCode};

/// A kind of diff/patch text found in new file content (see
/// `guards::detect_patch_kinds`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchKind {
    /// `diff --git`, `@@ -a,b +c,d @@`, or `---`/`+++` file headers.
    UnifiedDiff,
    /// `*** Begin Patch` (the codex apply_patch envelope).
    ApplyPatch,
    /// `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` together.
    SearchReplace,
    /// A block-diff header (`@@ <block id> @@`).
    BlockDiff,
}

impl PatchKind {
    /// The kind's name in the agent YAML (`detected:`).
    pub fn as_str(self) -> &'static str {
        match self {
            PatchKind::UnifiedDiff => "unified_diff",
            PatchKind::ApplyPatch => "apply_patch",
            PatchKind::SearchReplace => "search_replace",
            PatchKind::BlockDiff => "block_diff",
        }
    }

    /// editkit's own edit formats.
    pub(crate) fn is_editkit_format(self) -> bool {
        matches!(self, PatchKind::SearchReplace | PatchKind::BlockDiff)
    }
}

/// Why a line range was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeProblem {
    /// No range given.
    Empty,
    /// Not one of the range forms.
    Syntax,
    /// A line number 0 (lines are numbered from 1).
    Zero,
    /// The start is after the end.
    Reversed,
    /// The end is beyond the file's `total` lines.
    OutOfBounds { total: usize },
}

/// Which step the message for a missing file proposes: it depends on what
/// the caller was doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WhileDoing {
    /// Preparing an edit of an existing file.
    Preparing,
    /// Preparing an append without `create: true`.
    Appending,
    /// Applying a plan to a file that is gone.
    Applying,
}

/// An argument the planner checks itself (the message says what it
/// expected).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expected {
    /// `path`: a non-empty file path.
    FilePath,
    /// `now`: a finite number of milliseconds.
    FiniteNow,
    /// `knownOldTotalLines` / `knownOldTotalBytes`: read_file's figures.
    Snapshot,
}

/// Why the planner refused, with what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// The file `path` does not exist.
    FileNotFound { path: String, doing: WhileDoing },
    /// The tool `mode` needs non-empty `newText`.
    ContentRequired { mode: String },
    /// The argument `name` is wrong; see [`Expected`].
    InvalidArgument {
        name: &'static str,
        expected: Expected,
    },
    /// The anchor argument `name` is empty.
    AnchorEmpty { name: String },
    /// The anchor argument `name` spans several lines.
    AnchorMultiline { name: String },
    /// The anchor argument `name` is not a valid regex.
    InvalidRegex {
        name: String,
        pattern: String,
        error: String,
    },
    /// No line matches the anchor argument `name`; `of_block` for the
    /// start/end anchors of a block replace.
    AnchorNotFound {
        name: String,
        anchor: String,
        mode: AnchorMatch,
        of_block: bool,
    },
    /// The anchor matches `count` lines.
    AnchorAmbiguous { anchor: String, count: usize },
    /// The start/end anchors delimit `count` blocks.
    BlocksAmbiguous { count: usize },
    /// `occurrence` names none of the `count` candidates.
    OccurrenceOutOfRange { occurrence: String, count: usize },
    /// The block at lines `start`–`end` holds another start anchor at
    /// line `nested` (1-based).
    NestedAnchors {
        start: usize,
        end: usize,
        nested: usize,
    },
    /// The range text `input` is refused for `why`.
    InvalidRange { input: String, why: RangeProblem },
    /// The hunk `id` expired.
    HunkExpired { id: String },
    /// No plan has the hunk `id` (or it was `applied` already).
    HunkNotFound { id: String, applied: bool },
    /// The hunk `id` belongs to another owner.
    WrongOwner { id: String },
    /// The hunk `id` was made by `old_mode`; `new_mode` cannot revise it.
    HunkKindMismatch {
        id: String,
        old_mode: String,
        new_mode: String,
    },
    /// The hunk `id` is a plan for `old_path`.
    HunkPathMismatch { id: String, old_path: String },
    /// The overwrite's known line and byte counts are not the file's.
    SnapshotMismatch,
    /// The new content looks like a patch of this `kind`.
    SuspiciousDiff { kind: PatchKind },
    /// The path exists and is not a file.
    NotAFile,
    /// The file to create exists.
    FileExists,
}

impl Problem {
    /// The stable code the host sees.
    pub(crate) fn code(&self) -> ErrorCode {
        use Problem::*;
        match self {
            FileNotFound { .. } => ErrorCode::FileNotFound,
            ContentRequired { .. } => ErrorCode::ContentRequired,
            InvalidArgument { .. } | AnchorEmpty { .. } | AnchorMultiline { .. } => {
                ErrorCode::InvalidArgument
            }
            InvalidRegex { .. } => ErrorCode::InvalidRegex,
            AnchorNotFound { .. } => ErrorCode::AnchorNotFound,
            AnchorAmbiguous { .. } | BlocksAmbiguous { .. } => ErrorCode::AnchorAmbiguous,
            OccurrenceOutOfRange { .. } => ErrorCode::OccurrenceOutOfRange,
            NestedAnchors { .. } => ErrorCode::NestedAnchors,
            InvalidRange {
                why: RangeProblem::OutOfBounds { .. },
                ..
            } => ErrorCode::RangeOutOfBounds,
            InvalidRange { .. } => ErrorCode::InvalidRange,
            HunkExpired { .. } | HunkNotFound { .. } => ErrorCode::HunkNotFound,
            WrongOwner { .. } => ErrorCode::WrongOwner,
            HunkKindMismatch { .. } => ErrorCode::HunkKindMismatch,
            HunkPathMismatch { .. } => ErrorCode::HunkPathMismatch,
            SnapshotMismatch => ErrorCode::SnapshotMismatch,
            SuspiciousDiff { .. } => ErrorCode::SuspiciousDiff,
            NotAFile => ErrorCode::NotAFile,
            FileExists => ErrorCode::FileExists,
        }
    }

    /// The structured details a host reads without parsing the message:
    /// the argument's name, why a hunk is not found. (Candidates and the
    /// agent YAML are added by the stage that has them.)
    pub(crate) fn details(&self) -> Details {
        use Problem::*;
        let mut details = Details::default();
        match self {
            InvalidArgument { name, .. } => details.name = Some((*name).to_string()),
            AnchorEmpty { name }
            | AnchorMultiline { name }
            | InvalidRegex { name, .. }
            | AnchorNotFound {
                name,
                of_block: true,
                ..
            } => details.name = Some(name.clone()),
            InvalidRange { .. } => details.name = Some("range".into()),
            HunkExpired { .. } => details.reason = Some("expired".into()),
            _ => {}
        }
        details
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // One piece on purpose: a list, one entry per variant.
    /// One problem of each kind. The `match` has no wildcard, so a new
    /// variant does not compile until it is added here.
    fn one_of_each() -> Vec<Problem> {
        use Problem::*;
        let s = String::new;
        let all = vec![
            FileNotFound {
                path: s(),
                doing: WhileDoing::Preparing,
            },
            ContentRequired { mode: s() },
            InvalidArgument {
                name: "path",
                expected: Expected::FilePath,
            },
            AnchorEmpty { name: s() },
            AnchorMultiline { name: s() },
            InvalidRegex {
                name: s(),
                pattern: s(),
                error: s(),
            },
            AnchorNotFound {
                name: s(),
                anchor: s(),
                mode: AnchorMatch::Contains,
                of_block: false,
            },
            AnchorAmbiguous {
                anchor: s(),
                count: 2,
            },
            BlocksAmbiguous { count: 2 },
            OccurrenceOutOfRange {
                occurrence: s(),
                count: 1,
            },
            NestedAnchors {
                start: 1,
                end: 2,
                nested: 2,
            },
            InvalidRange {
                input: s(),
                why: RangeProblem::Syntax,
            },
            InvalidRange {
                input: s(),
                why: RangeProblem::OutOfBounds { total: 1 },
            },
            HunkExpired { id: s() },
            HunkNotFound {
                id: s(),
                applied: false,
            },
            WrongOwner { id: s() },
            HunkKindMismatch {
                id: s(),
                old_mode: s(),
                new_mode: s(),
            },
            HunkPathMismatch {
                id: s(),
                old_path: s(),
            },
            SnapshotMismatch,
            SuspiciousDiff {
                kind: PatchKind::UnifiedDiff,
            },
            NotAFile,
            FileExists,
        ];
        for p in &all {
            match p {
                FileNotFound { .. }
                | ContentRequired { .. }
                | InvalidArgument { .. }
                | AnchorEmpty { .. }
                | AnchorMultiline { .. }
                | InvalidRegex { .. }
                | AnchorNotFound { .. }
                | AnchorAmbiguous { .. }
                | BlocksAmbiguous { .. }
                | OccurrenceOutOfRange { .. }
                | NestedAnchors { .. }
                | InvalidRange { .. }
                | HunkExpired { .. }
                | HunkNotFound { .. }
                | WrongOwner { .. }
                | HunkKindMismatch { .. }
                | HunkPathMismatch { .. }
                | SnapshotMismatch
                | SuspiciousDiff { .. }
                | NotAFile
                | FileExists => {}
            }
        }
        all
    }

    /// Every code a planner problem can carry has a case with its exact
    /// YAML in `tests/data/planner-refusals/`.
    #[test]
    fn every_code_has_an_exact_yaml_case() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/planner-refusals");
        let mut cases = String::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            cases.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
        }
        let missing: Vec<&str> = one_of_each()
            .iter()
            .map(|p| p.code().as_str())
            .filter(|code| !cases.contains(&format!("\nerror: {code}\n")))
            .collect();
        assert!(missing.is_empty(), "codes without a case: {missing:?}");
    }
}

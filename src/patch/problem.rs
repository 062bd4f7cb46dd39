//! What can be wrong with a patch text: one variant per format problem,
//! each with its line (`messages` words them).

/// A format problem of a patch text, with its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Problem {
    /// codex: no `*** Begin Patch` line.
    NoBegin,
    /// codex: no `*** End Patch` after the Begin line.
    NoEnd { line: u32 },
    /// codex: a line where a file header belongs that is none.
    BadFileHeader { line: u32, text: String },
    /// A file section with no hunk.
    EmptyUpdate { line: u32, path: String },
    /// A hunk line that is not context, removal or addition.
    BadHunkLine { line: u32, text: String },
    /// A hunk with no lines.
    EmptyHunk { line: u32 },
    /// A file header with no path.
    EmptyPath { line: u32 },
    /// One file changed by two sections (or renamed onto another's path).
    SameFileTwice { line: u32, first: u32, path: String },
    /// unified: no `---`/`+++` file header at all.
    NoFileHeader,
    /// A patch that names no file (planning it would change nothing).
    NoFiles,
    /// unified: a hunk before any file header.
    HunkOutsideFile { line: u32 },
    /// unified: `/dev/null` on both sides.
    BothDevNull { line: u32 },
    /// unified: a new file's hunk with removed or context lines.
    AddWithOldLines { line: u32 },
    /// unified: the header's counts and the body disagree; `body` is
    /// `None` when the body goes on past the counts.
    CountMismatch {
        line: u32,
        header: (usize, usize),
        body: Option<(usize, usize)>,
    },
}

impl Problem {
    pub(super) fn line(&self) -> u32 {
        match self {
            Problem::NoBegin | Problem::NoFileHeader | Problem::NoFiles => 1,
            Problem::NoEnd { line }
            | Problem::BadFileHeader { line, .. }
            | Problem::EmptyUpdate { line, .. }
            | Problem::BadHunkLine { line, .. }
            | Problem::EmptyHunk { line }
            | Problem::EmptyPath { line }
            | Problem::SameFileTwice { line, .. }
            | Problem::HunkOutsideFile { line }
            | Problem::BothDevNull { line }
            | Problem::AddWithOldLines { line }
            | Problem::CountMismatch { line, .. } => *line,
        }
    }
}

//! Errors: a stable machine code, a human message in the caller's language,
//! and typed details.
//!
//! Every refusal in editkit is an [`Error`]. The binding layer turns it into a
//! thrown JS `EditkitError` whose fields are exactly the serialised form of
//! this struct (`code`, `message`, then every detail that is set), so the JS
//! side never parses prose. Tests assert on [`ErrorCode`]s and detail fields,
//! not on message text.
//!
//! Messages are rendered once, where the error is made, from the capability's
//! `messages` module (one site per message), in the [`Lang`] the caller asked
//! for.

use serde::Serialize;

use crate::lang::Lang;

crate::wire::wire_enum! {
/// Stable identifiers of everything that can go wrong, serialised as
/// `SCREAMING_SNAKE_CASE` (declared once here: `ALL`, `as_str`, serde and
/// the TypeScript union come from this list). New codes may be added;
/// existing ones never change meaning.
///
/// Grouped by capability; each group is owned by that capability's module.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    // ---- boundary / general -------------------------------------------
    /// An argument had the wrong type or an out-of-range value.
    InvalidArgument = "INVALID_ARGUMENT",
    /// A string contained a lone UTF-16 surrogate (rejected by the JS layer
    /// before it could be silently turned into U+FFFD).
    InvalidText = "INVALID_TEXT",
    /// A bug in editkit (a trapped panic, an impossible state).
    InternalError = "INTERNAL_ERROR",
    /// A host callback threw, rejected or returned malformed data.
    HostError = "HOST_ERROR",
    /// The host object lacks a callback the operation needs.
    HostCapabilityMissing = "HOST_CAPABILITY_MISSING",
    /// A host callback did not settle within `timeoutMs`.
    HostTimeout = "HOST_TIMEOUT",
    // ---- block diff: format (SPEC §3.2) -------------------------------
    NestedSearch = "NESTED_SEARCH",
    UnclosedSearch = "UNCLOSED_SEARCH",
    UnmatchedReplace = "UNMATCHED_REPLACE",
    MisplacedDelimiter = "MISPLACED_DELIMITER",
    MissingDelimiter = "MISSING_DELIMITER",
    SearchWithoutBlockId = "SEARCH_WITHOUT_BLOCK_ID",
    InvalidBlockId = "INVALID_BLOCK_ID",
    UnknownCommand = "UNKNOWN_COMMAND",
    EmptyInsert = "EMPTY_INSERT",
    /// A SEARCH section with nothing in it (the block is not located by
    /// an empty text; use `@@REPLACE:id@@`).
    EmptySearch = "EMPTY_SEARCH",
    /// An `@@id@@` hunk without any SEARCH/REPLACE block.
    MissingSearch = "MISSING_SEARCH",
    /// The diff has no hunk at all.
    EmptyDiff = "EMPTY_DIFF",
    /// A line that looks like a hunk header but is not one (a missing
    /// `@@`, a space inside, a lowercase command).
    MalformedHeader = "MALFORMED_HEADER",
    /// A diff-level format failure that wraps the list of format problems.
    InvalidDiffFormat = "INVALID_DIFF_FORMAT",
    // ---- block diff: content check and execution (SPEC §3.4–3.6) --------
    BlockNotFound = "BLOCK_NOT_FOUND",
    ContentMismatch = "CONTENT_MISMATCH",
    /// SEARCH occurs more than once inside the block.
    AmbiguousMatch = "AMBIGUOUS_MATCH",
    NotAContainer = "NOT_A_CONTAINER",
    ConflictingEdits = "CONFLICTING_EDITS",
    DocumentTarget = "DOCUMENT_TARGET",
    StaleBlock = "STALE_BLOCK",
    WriteVerifyFailed = "WRITE_VERIFY_FAILED",
    /// One or more edits failed the content check (wraps per-edit errors).
    ValidationFailed = "VALIDATION_FAILED",
    /// A host write failed part-way through execution.
    WriteFailed = "WRITE_FAILED",
    /// Rewriting a container would give a referenced or attributed child a
    /// new id (`allowChildReassign` to accept).
    ChildrenWouldBeReassigned = "CHILDREN_WOULD_BE_REASSIGNED",
    // ---- slice (SPEC §4) ------------------------------------------------
    SliceAnchorNotFound = "SLICE_ANCHOR_NOT_FOUND",
    InvalidSlice = "INVALID_SLICE",
    // ---- content tools (SPEC §5) ----------------------------------------
    /// A block given where a document is required (createNewDoc's anchor,
    /// appendContent with `targetType: "document"`); names the actual type.
    NotADocument = "NOT_A_DOCUMENT",
    /// `location: "parent"` for a document at the notebook root.
    NoParentDocument = "NO_PARENT_DOCUMENT",
    // ---- matcher (SPEC §6) ---------------------------------------------
    /// No strategy of the chosen mode located the search text.
    NotFound = "NOT_FOUND",
    /// The search text was located at more than one position.
    Ambiguous = "AMBIGUOUS",
    /// The search text is absent but the replacement is present exactly once.
    AlreadyApplied = "ALREADY_APPLIED",
    /// The self-correction host judged that the edit is already in place.
    CorrectorNoChange = "CORRECTOR_NO_CHANGE",
    /// The search and the replacement are identical, or the edit would leave
    /// the content unchanged.
    NoChange = "NO_CHANGE",
    /// `expectedReplacements = n` was given and a strategy found k ≠ n.
    MatchCountMismatch = "MATCH_COUNT_MISMATCH",
    /// The search was located, but the replacement cannot be re-expressed in
    /// the file's formatting (indentation, quotes, escaping) unambiguously.
    ReplacementNotMappable = "REPLACEMENT_NOT_MAPPABLE",
    /// `replaceAll` or `expectedReplacements` met more locations than the
    /// matcher collects (`MAX_CANDIDATES`): refused rather than cut short.
    TooManyMatches = "TOO_MANY_MATCHES",
    // ---- file-edit planner (SPEC §7) -----------------------------------
    FileNotFound = "FILE_NOT_FOUND",
    ContentRequired = "CONTENT_REQUIRED",
    AnchorNotFound = "ANCHOR_NOT_FOUND",
    AnchorAmbiguous = "ANCHOR_AMBIGUOUS",
    OccurrenceOutOfRange = "OCCURRENCE_OUT_OF_RANGE",
    HunkNotFound = "HUNK_NOT_FOUND",
    WrongOwner = "WRONG_OWNER",
    HunkKindMismatch = "HUNK_KIND_MISMATCH",
    RangeOutOfBounds = "RANGE_OUT_OF_BOUNDS",
    /// The hunk existed but its time to live has passed (re-plan it).
    /// `existingHunkId` names a plan for another file.
    HunkPathMismatch = "HUNK_PATH_MISMATCH",
    /// A line range that is not `N`, `N~M`, `N~`, `~N` or `~`, or is reversed.
    InvalidRange = "INVALID_RANGE",
    /// A `match: "regex"` anchor that does not compile.
    InvalidRegex = "INVALID_REGEX",
    /// The selected start/end anchor block contains another start anchor.
    NestedAnchors = "NESTED_ANCHORS",
    /// `checkOverwrite`: the caller's `knownOldTotalLines/Bytes` do not
    /// describe the current file.
    SnapshotMismatch = "SNAPSHOT_MISMATCH",
    /// `checkOverwrite`: the new content looks like a diff or patch and no
    /// `contentFormat` declares it.
    SuspiciousDiff = "SUSPICIOUS_DIFF",
    /// `checkNewFile`: the path already exists.
    FileExists = "FILE_EXISTS",
    /// `checkNewFile`: the path exists and is not a regular file.
    NotAFile = "NOT_A_FILE",
}}

/// A 1-based, inclusive line range (a candidate location, a hunk's span).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineRange {
    pub start_line: u32,
    pub end_line: u32,
    /// 1-based UTF-16 column of the start, given where several candidates
    /// start on one line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_column: Option<u32>,
}

impl LineRange {
    /// Lines `start_line..=end_line`, no column.
    pub fn new(start_line: u32, end_line: u32) -> Self {
        LineRange {
            start_line,
            end_line,
            start_column: None,
        }
    }
}

/// Typed details an error may carry. Only fields that are set are
/// serialised, so the JS object stays small and every field has one meaning
/// wherever it appears.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Details {
    /// 1-based line in the text the caller gave (diff text, file content).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// SiYuan block id the error is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_id: Option<String>,
    /// 1-based index of the hunk (block diff) or SEARCH/REPLACE block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hunk_index: Option<u32>,
    /// Concrete fixes the reader can apply.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
    /// Every location that matched when one was required.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<LineRange>,
    /// What the error is about by name: a host callback (`getBlocks`), an
    /// argument (`options`), a command word. Serialised as `subject`
    /// because JS errors already have a `name` (`"EditkitError"`).
    #[serde(rename = "subject", skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Sequence similarity in [0, 1] between what was expected and found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub similarity: Option<f64>,
    /// What the caller expected to find (SEARCH text, snapshot, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    /// What was actually there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    /// A compact diff between `expected` and `actual`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Further block ids the error is about (children that would get new
    /// ids, blocks a rollback could not restore).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub block_ids: Vec<String>,
    /// Agent-facing YAML text (file-edit planner refusals, SPEC §7).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yaml: Option<String>,
    /// Why, when one code covers several causes: `"expired"` for a
    /// `HUNK_NOT_FOUND` whose plan outlived its time to live (seed 001).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Nested per-item errors (every format problem, every failed edit).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<Error>,
}

/// An editkit refusal: `code` for programs, `message` for people and agents.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    #[serde(flatten)]
    pub details: Box<Details>,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            details: Box::default(),
        }
    }

    pub fn with_line(mut self, line: u32) -> Self {
        self.details.line = Some(line);
        self
    }

    pub fn with_block_id(mut self, id: impl Into<String>) -> Self {
        self.details.block_id = Some(id.into());
        self
    }

    pub fn with_hunk_index(mut self, index: u32) -> Self {
        self.details.hunk_index = Some(index);
        self
    }

    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.details.name = Some(name.into());
        self
    }

    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> Self {
        self.details.suggestions = suggestions;
        self
    }

    pub fn with_errors(mut self, errors: Vec<Error>) -> Self {
        self.details.errors = errors;
        self
    }

    /// `INVALID_ARGUMENT` naming the argument, in the caller's language.
    /// `expected` is a fill-in of the template, so it is written in `lang`
    /// too: pass `lang.pick("a positive integer", "正整数")`, never an
    /// English phrase alone (the Chinese message would read "应为 a
    /// positive integer").
    pub fn invalid_argument(lang: Lang, name: &str, expected: &str) -> Self {
        Error::new(
            ErrorCode::InvalidArgument,
            invalid_argument_message(lang, name, expected),
        )
        .with_name(name)
    }
}

/// The message of [`Error::invalid_argument`], for a capability that
/// renders its own problems (`expected` in `lang`).
pub(crate) fn invalid_argument_message(lang: Lang, name: &str, expected: &str) -> String {
    match lang {
        Lang::En => format!("Invalid argument `{name}`: expected {expected}."),
        Lang::Zh => format!("参数 `{name}` 无效：应为 {expected}。"),
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_serialise_as_their_wire_names() {
        for code in [
            ErrorCode::BlockNotFound,
            ErrorCode::HostCapabilityMissing,
            ErrorCode::SliceAnchorNotFound,
        ] {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }

    #[test]
    fn only_set_details_are_serialised() {
        let e =
            Error::new(ErrorCode::BlockNotFound, "gone").with_block_id("20240101090000-abcdefg");
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"code": "BLOCK_NOT_FOUND", "message": "gone", "blockId": "20240101090000-abcdefg"})
        );
    }
}

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
    /// A SEARCH marker inside a SEARCH/REPLACE block that is still open.
    NestedSearch = "NESTED_SEARCH",
    /// A SEARCH block never closed by `>>>>>>> REPLACE`.
    UnclosedSearch = "UNCLOSED_SEARCH",
    /// A `>>>>>>> REPLACE` marker with no SEARCH before it.
    UnmatchedReplace = "UNMATCHED_REPLACE",
    /// A `=======` divider outside a block, or a second one in a block.
    MisplacedDelimiter = "MISPLACED_DELIMITER",
    /// A block closed without the `=======` divider.
    MissingDelimiter = "MISSING_DELIMITER",
    /// A SEARCH block before any `@@<block id>@@` header.
    SearchWithoutBlockId = "SEARCH_WITHOUT_BLOCK_ID",
    /// A header names something that is not a SiYuan block id.
    InvalidBlockId = "INVALID_BLOCK_ID",
    /// A header has a command other than REPLACE, DELETE, BEFORE, AFTER, PREPEND
    /// or APPEND.
    UnknownCommand = "UNKNOWN_COMMAND",
    /// An insert command (BEFORE, AFTER, PREPEND, APPEND) with no content.
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
    /// No block has the id.
    BlockNotFound = "BLOCK_NOT_FOUND",
    /// SEARCH does not match the block (details carry both texts and a diff).
    ContentMismatch = "CONTENT_MISMATCH",
    /// SEARCH occurs more than once inside the block.
    AmbiguousMatch = "AMBIGUOUS_MATCH",
    /// PREPEND/APPEND into a block that cannot hold children.
    NotAContainer = "NOT_A_CONTAINER",
    /// Hunks of one diff contradict each other (delete and edit one block,
    /// rewrite a container and edit inside it, …).
    ConflictingEdits = "CONFLICTING_EDITS",
    /// An update, delete or sibling insert aimed at a document.
    DocumentTarget = "DOCUMENT_TARGET",
    /// The block changed between the check and the write (or the rollback
    /// found it changed by someone else); nothing of the edit was written.
    StaleBlock = "STALE_BLOCK",
    /// After writing, the block does not read back as planned.
    WriteVerifyFailed = "WRITE_VERIFY_FAILED",
    /// One or more edits failed the content check (wraps per-edit errors).
    ValidationFailed = "VALIDATION_FAILED",
    /// A host write failed part-way through execution.
    WriteFailed = "WRITE_FAILED",
    /// Rewriting a container would give a referenced or attributed child a
    /// new id (`allowChildReassign` to accept).
    ChildrenWouldBeReassigned = "CHILDREN_WOULD_BE_REASSIGNED",
    /// Deleting or re-IDing a database row (`custom-avs`) or a flashcard
    /// (`custom-riff-decks`) would lose that membership for good
    /// (`allowMembershipLoss` to accept).
    WouldLoseMembership = "WOULD_LOSE_MEMBERSHIP",
    /// New markdown opens a code fence or a `$$` math block it never
    /// closes: the kernel would swallow what follows (the block's
    /// attributes) into the code.
    UnclosedFence = "UNCLOSED_FENCE",
    /// Rewriting a container that holds a folded heading: the kernel would
    /// move the heading's old section in beside the new one.
    FoldedHeading = "FOLDED_HEADING",
    /// A write would change text through the kernel's decoding of
    /// character references (`&amp;` → `&`): an HTML block's on a kernel
    /// whose Lute decodes them again (v3.7.3), or text the edit keeps.
    WouldDecodeEntities = "WOULD_DECODE_ENTITIES",
    /// A write would hold a block reference to an id no block has: the
    /// kernel stores it without the id.
    WouldBreakRef = "WOULD_BREAK_REF",
    // ---- slice (SPEC §4) ------------------------------------------------
    /// A slice names an anchor id that is not among the children.
    SliceAnchorNotFound = "SLICE_ANCHOR_NOT_FOUND",
    /// A slice that is none of the accepted forms.
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
    /// The file to plan on (or to apply to) does not exist.
    FileNotFound = "FILE_NOT_FOUND",
    /// A prepare tool that writes text was given none.
    ContentRequired = "CONTENT_REQUIRED",
    /// No line matches the anchor.
    AnchorNotFound = "ANCHOR_NOT_FOUND",
    /// The anchor matches several lines (or the anchors delimit several blocks)
    /// and no `occurrence` chooses one.
    AnchorAmbiguous = "ANCHOR_AMBIGUOUS",
    /// `occurrence` names none of the candidates.
    OccurrenceOutOfRange = "OCCURRENCE_OUT_OF_RANGE",
    /// No live plan has the hunk id (never issued, applied already, or expired:
    /// `details.reason`).
    HunkNotFound = "HUNK_NOT_FOUND",
    /// The hunk was planned by another owner.
    WrongOwner = "WRONG_OWNER",
    /// `existingHunkId` names a plan made by another tool.
    HunkKindMismatch = "HUNK_KIND_MISMATCH",
    /// A line range beyond the end of the file.
    RangeOutOfBounds = "RANGE_OUT_OF_BOUNDS",
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
    // ---- patches: codex envelopes and unified diffs ---------------------
    /// The patch or diff text is malformed (wraps every format problem,
    /// each with its line).
    InvalidPatch = "INVALID_PATCH",
    /// A hunk with no context or removed lines where nothing else says
    /// where it goes (an `@@` anchor alone, a line number alone).
    HunkWithoutContext = "HUNK_WITHOUT_CONTEXT",
    // ---- hosts of the TypeScript layer (SPEC §9.1) ----------------------
    /// `createNodeFileHost`: the path leads outside the host's root (`..`,
    /// an absolute path elsewhere, a symlink pointing out, a NUL).
    PathOutsideRoot = "PATH_OUTSIDE_ROOT",
    /// `createNodeFileHost`: the file is not text the host can write back
    /// byte for byte (not UTF-8, and no UTF-16 byte order mark).
    NotText = "NOT_TEXT",
}}

/// A 1-based, inclusive line range (a candidate location, a hunk's span).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineRange {
    /// First line, 1-based.
    pub start_line: u32,
    /// Last line, 1-based, inclusive.
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
    /// What went wrong, as a stable code.
    pub code: ErrorCode,
    /// What went wrong, where, and what to do next, in the caller's language.
    pub message: String,
    /// Structured facts a host reads without parsing the message.
    #[serde(flatten)]
    pub details: Box<Details>,
}

impl Error {
    /// An error with this code and message and no details.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
            details: Box::default(),
        }
    }

    /// Adds the 1-based line the error is about.
    pub fn with_line(mut self, line: u32) -> Self {
        self.details.line = Some(line);
        self
    }

    /// Adds the block the error is about.
    pub fn with_block_id(mut self, id: impl Into<String>) -> Self {
        self.details.block_id = Some(id.into());
        self
    }

    /// Adds the 1-based index of the hunk the error is about.
    pub fn with_hunk_index(mut self, index: u32) -> Self {
        self.details.hunk_index = Some(index);
        self
    }

    /// Adds the name of the argument or callback the error is about.
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.details.name = Some(name.into());
        self
    }

    /// Adds the next steps, in the message's language.
    pub fn with_suggestions(mut self, suggestions: Vec<String>) -> Self {
        self.details.suggestions = suggestions;
        self
    }

    /// Adds the errors this one gathers (every format problem of a diff).
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

/// A result whose error is editkit's [`Error`].
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

//! Inputs (`*Options`) and outputs (`*Result`) of the planner.
//!
//! Options are `Deserialize` with camelCase names; every optional field
//! reads `""` (and, for counts, `0`) as unset, see [`super::lenient`].
//! Results are `Serialize` with camelCase names and carry no `u64`: line
//! numbers and counts are `u32`, signed deltas `i32`, times and sequence
//! numbers `f64` (what JS has). Each result also carries its agent text:
//! `yaml` (seed 001 §8 field names), `diff` (unified, 3 lines of context)
//! and `text` (both in Markdown fences).

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize};

use super::lenient::{integer, scalar, Scalar};

use crate::error::LineRange;
use crate::lang::Lang;

/// Default time to live of a plan: one hour.
pub const DEFAULT_TTL_MS: f64 = 3_600_000.0;

// ---------------------------------------------------------------------
// Small enums
// ---------------------------------------------------------------------

crate::wire::wire_enum! {
/// How an anchor is compared with each line of the file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AnchorMatch {
    /// The line contains the anchor text (default).
    #[default]
    Contains = "contains",
    /// The line equals the anchor, ignoring trailing whitespace on both.
    Equals = "equals",
    /// The anchor is a regular expression (`planner::regex`: Rust regex
    /// syntax, ASCII classes) matched against each line without its line
    /// ending.
    Regex = "regex",
}
}

/// Which of several matching anchors (or anchor blocks) to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Occurrence {
    /// 1-based.
    Nth(u32),
    /// The last candidate.
    Last,
}

crate::wire::wire_enum! {
/// The prepare tool that made a plan; a plan can only be revised by the
/// same tool (`HUNK_KIND_MISMATCH`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanMode {
    /// `prepare_file_range_edit`: replace, delete or append by line range.
    PrepareFileRangeEdit = "prepare_file_range_edit",
    /// `prepare_file_append`: add text at the end of the file.
    PrepareFileAppend = "prepare_file_append",
    /// `prepare_file_insert_after`: insert after an anchor line.
    PrepareFileInsertAfter = "prepare_file_insert_after",
    /// `prepare_file_insert_before`: insert before an anchor line.
    PrepareFileInsertBefore = "prepare_file_insert_before",
    /// `prepare_file_block_replace`: replace a start/end anchor block.
    PrepareFileBlockReplace = "prepare_file_block_replace",
}
}

/// The mode name of `apply` in YAML.
pub const APPLY_MODE: &str = "apply_file_modification";

crate::wire::wire_enum! {
/// What a plan does to the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlanAction {
    /// Lines replaced by other lines.
    Replace = "replace",
    /// Lines deleted.
    Delete = "delete",
    /// Lines added at the end of the file.
    Append = "append",
    /// Lines inserted beside an anchor line.
    Insert = "insert",
    /// The inside (or all) of an anchor-delimited block replaced.
    BlockReplace = "block_replace",
}
}

crate::wire::wire_enum! {
/// Where an insert goes relative to its anchor line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// Before the anchor line.
    Before = "before",
    /// After the anchor line.
    After = "after",
}
}

crate::wire::wire_enum! {
/// How `apply` found the planned place (SPEC §7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextMatch {
    /// The planned lines and their context are where the plan saw them,
    /// and nowhere else unless the file is unchanged since the plan (for
    /// appends: the file is unchanged since the plan).
    Exact = "exact",
    /// The planned lines with their whole context were found at exactly
    /// one other place, as written or under the matcher's safe strategies
    /// (for appends: the file changed, the text goes to its current end).
    Fuzz = "fuzz",
    /// Not applied; nothing changed. See [`RejectReason`].
    Rejected = "rejected",
}
}

crate::wire::wire_enum! {
/// Why an apply was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RejectReason {
    /// The planned lines and their context no longer stand together in
    /// the file (edited, deleted, moved apart, or the file was truncated).
    ContentChanged = "CONTENT_CHANGED",
    /// The planned lines with their context stand at several places
    /// (shifted or not); every place is listed.
    AmbiguousMatch = "AMBIGUOUS_MATCH",
}
}

crate::wire::wire_enum! {
/// How `apply` located the change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LocatedBy {
    /// Same lines, same context, same line numbers.
    PlannedPosition = "planned_position",
    /// The planned lines with their whole context found by content, at
    /// exactly one place (another one, or the planned one with a changed
    /// file edge).
    LinesAndContext = "lines_and_context",
    /// Appends: the current end of the file.
    EndOfFile = "end_of_file",
    /// The planned lines with their whole context found, reformatted or
    /// re-indented, by a safe strategy of the matcher at exactly one place
    /// (`apply::safe::relocate_with_safe_strategies`).
    SafeStrategy = "safe_strategy",
}
}

// ---------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------

/// Construction options of a [`super::FileEditSession`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FileEditSessionOptions {
    /// Time to live of a plan in milliseconds. Default 3,600,000 (1 h);
    /// `0`, `""`, negative or non-finite values mean the default.
    #[serde(deserialize_with = "crate::planner::lenient::opt_millis")]
    pub ttl_ms: Option<f64>,
    /// Prefix of the hunk ids this session issues: the host's `randomId()`
    /// or its `now()` in base 36 ([`super::id_prefix_from_now`]). Only
    /// ASCII letters, digits, `_` and `-` are kept (at most 16); empty
    /// becomes `h`. Two sessions with different prefixes never issue the
    /// same id.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub id_prefix: String,
}

/// `prepareRangeEdit`: replace, delete or append by line range.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RangeEditOptions {
    /// The file's path (reported back; the host does the I/O).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// The file's current content; `None` (null/undefined) means the file
    /// does not exist (`FILE_NOT_FOUND`). `""` is an empty file.
    pub content: Option<String>,
    /// `N`, `N~M`, `N~` (with N = last line + 1: append), `~N`, `~`.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub range: String,
    /// Replacement text; `""` deletes the range.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_text: String,
    /// Who plans (an agent id); `apply` must come from the same owner.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub owner: String,
    /// Revise this earlier plan (same tool, same owner, same path) instead
    /// of making a new one. `""` = unset.
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub existing_hunk_id: Option<String>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `prepareAppend`: add text at the end of the file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AppendOptions {
    /// The file's path, as the host names it (shown in the YAML).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// `None` = the file does not exist (allowed with `create: true`).
    pub content: Option<String>,
    /// Text to append (required, `CONTENT_REQUIRED`).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_text: String,
    /// Create the file when it does not exist (default false).
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub create: Option<bool>,
    /// Who plans (an agent id): only the same owner applies or revises a plan.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub owner: String,
    /// A plan of this owner, tool and file to revise (it keeps its id).
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub existing_hunk_id: Option<String>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `prepareInsertAfter` / `prepareInsertBefore`: insert next to an anchor
/// line.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct InsertOptions {
    /// The file's path, as the host names it (shown in the YAML).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// The file's current text; absent when the file does not exist.
    pub content: Option<String>,
    /// One line of text (a trailing newline is ignored) or a regex.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub anchor: String,
    /// `contains` (default, also for `""`), `equals` or `regex`.
    #[serde(rename = "match", deserialize_with = "match_mode")]
    pub match_mode: AnchorMatch,
    /// Which matching line (1-based or `"last"`); required when several
    /// lines match (`ANCHOR_AMBIGUOUS`). `0`/`""` = unset.
    #[serde(deserialize_with = "occurrence")]
    pub occurrence: Option<Occurrence>,
    /// Text to insert (required).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_text: String,
    /// Who plans (an agent id): only the same owner applies or revises a plan.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub owner: String,
    /// A plan of this owner, tool and file to revise (it keeps its id).
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub existing_hunk_id: Option<String>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `prepareBlockReplace`: replace the block between a start and an end
/// anchor line.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BlockReplaceOptions {
    /// The file's path, as the host names it (shown in the YAML).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// The file's current text; absent when the file does not exist.
    pub content: Option<String>,
    /// The line that starts the block.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub start_anchor: String,
    /// The line that ends it (the first match after the start).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub end_anchor: String,
    /// How anchor lines are matched (default `contains`).
    #[serde(rename = "match", deserialize_with = "match_mode")]
    pub match_mode: AnchorMatch,
    /// Default true: keep both anchor lines, replace only the lines
    /// between them. false: the anchor lines are replaced too.
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub include_anchors: Option<bool>,
    /// Default true: several candidate blocks without `occurrence` are
    /// refused (`ANCHOR_AMBIGUOUS`) — when `strict` is also true.
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub require_unique: Option<bool>,
    /// Default true: reject ambiguous plans. With `strict: false` (or
    /// `requireUnique: false`) the first block (or `occurrence`) is used.
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub strict: Option<bool>,
    /// Which block when the anchors delimit several (1-based, or `last`).
    #[serde(deserialize_with = "occurrence")]
    pub occurrence: Option<Occurrence>,
    /// New block text (required).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_text: String,
    /// Who plans (an agent id): only the same owner applies or revises a plan.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub owner: String,
    /// A plan of this owner, tool and file to revise (it keeps its id).
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub existing_hunk_id: Option<String>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `apply`: carry out a plan on the file's current content.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FileApplyOptions {
    /// The plan to apply, as a prepare tool issued it.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub hunk_id: String,
    /// Who applies: the owner that prepared the plan.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub owner: String,
    /// The file's current content; `None` = the file does not exist
    /// (fine for an append planned with `create: true`).
    pub content: Option<String>,
    /// Leave the plan live after a successful apply, until
    /// [`FileEditSession::consume`](super::FileEditSession::consume): a
    /// host that still has to write the result consumes the plan only once
    /// the write succeeded, so a failed write leaves it ready for a retry.
    /// Default `false` (the apply consumes it).
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub defer_consume: Option<bool>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `checkOverwrite`: guard a whole-file overwrite.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OverwriteOptions {
    /// The file's path (shown in the YAML).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// The file's current content.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub content: String,
    /// What the caller wants to write.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_content: String,
    /// `total_lines` of the caller's last `formatFileView` (0 for an empty
    /// file; `""`/null = missing, which is refused).
    #[serde(deserialize_with = "crate::planner::lenient::opt_count")]
    pub known_old_total_lines: Option<u64>,
    /// `size_bytes` of the caller's last `formatFileView` (UTF-8 bytes).
    #[serde(deserialize_with = "crate::planner::lenient::opt_count")]
    pub known_old_total_bytes: Option<u64>,
    /// Declares what the content is. `diff`/`patch` allow any diff text;
    /// `block-diff`/`search-replace` (and aliases, see
    /// `guards::PatchKind`) allow editkit's own edit formats; anything
    /// else, or unset, refuses diff-looking content (`SUSPICIOUS_DIFF`).
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub content_format: Option<String>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `checkNewFile`: guard the creation of a new file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NewFileOptions {
    /// The path to create (shown in the YAML).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// Whether anything exists at the path.
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub exists: Option<bool>,
    /// Whether what exists is a regular file.
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub is_file: Option<bool>,
    /// The new file's text.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub new_content: String,
    /// Keep `new_content` exactly as given: no final newline is added
    /// (Anthropic's text editor `create` writes its `file_text` so).
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub as_given: Option<bool>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

/// `formatFileView`: a bounded, line-numbered view of a file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FileViewOptions {
    /// The file's path (shown in the YAML; may be empty).
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub path: String,
    /// The file's text.
    #[serde(deserialize_with = "crate::planner::lenient::string")]
    pub content: String,
    /// A line range (`N~M`, …); `""` = the whole file. An end beyond the
    /// last line is clamped.
    #[serde(deserialize_with = "crate::planner::lenient::opt_string")]
    pub range: Option<String>,
    /// Most lines shown (default 500; `0`/`""` = default).
    #[serde(deserialize_with = "crate::planner::lenient::opt_positive")]
    pub max_lines: Option<u32>,
    /// Prefix each line with its number (default true).
    #[serde(deserialize_with = "crate::planner::lenient::opt_bool")]
    pub show_line_numbers: Option<bool>,
    /// Language of messages (default `en`).
    #[serde(deserialize_with = "crate::planner::lenient::lang")]
    pub lang: Lang,
}

// ---------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------

/// `lines.old|new|delta`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineCounts {
    /// Lines the change removes.
    pub old: u32,
    /// Lines it writes.
    pub new: u32,
    /// `new - old`.
    pub delta: i32,
}

/// EOF newline analysis (seed 001 §7.1): every written line ends with a
/// line ending; what had to be added is reported here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Normalized {
    /// The file ended with a line ending (an empty file counts as yes).
    pub file_eof_has_newline: bool,
    /// The new text ended with a line ending (`""` counts as yes).
    pub content_eof_has_newline: bool,
    /// The file's unterminated last line got the file's line ending
    /// because text was added after it.
    pub normalized_file_eof_newline_added: bool,
    /// The new text got a final line ending (the file's own).
    pub normalized_content_eof_newline_added: bool,
}

/// An inclusive, 1-based line span in YAML as `start`/`end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// First line.
    pub start: u32,
    /// Last line.
    pub end: u32,
}

/// `replace_slice`: the first replaced line and how many were replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceSlice {
    /// First line replaced, 1-based.
    pub start_line: u32,
    /// Lines replaced.
    pub delete_count: u32,
}

/// Blank-line counts around an append (seed 001 §7.2; observation only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendBlanklineStyle {
    /// Blank lines at the end of the file.
    pub file_trailing_blank_line_count: u32,
    /// Blank lines at the start of the appended text.
    pub content_leading_blank_line_count: u32,
}

/// Blank-line counts around an insert (observation only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InsertBlanklineStyle {
    /// Blank lines in the file right before the insertion point.
    pub file_before_trailing_blank_line_count: u32,
    /// Blank lines in the file right after it.
    pub file_after_leading_blank_line_count: u32,
    /// Blank lines at the start of the inserted text.
    pub content_leading_blank_line_count: u32,
    /// Blank lines at its end.
    pub content_trailing_blank_line_count: u32,
}

/// Plan details of `prepareRangeEdit`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangePlan {
    /// The range as given.
    pub input: String,
    /// The selected lines; for an append both are the append position
    /// (last line + 1).
    pub resolved: Span,
    /// Up to 2 lines before, the selected lines (head/tail), up to 2 after.
    pub evidence_before: Vec<String>,
    /// The selected lines (head and tail of a long range).
    pub evidence_range: Vec<String>,
    /// Up to 2 lines after them.
    pub evidence_after: Vec<String>,
}

/// Plan details of `prepareAppend` (and of a range append).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileAppendPlan {
    /// The append creates the file.
    pub create: bool,
    /// Lines of the file before.
    pub file_line_count_before: u32,
    /// Lines after.
    pub file_line_count_after: u32,
    /// Lines appended.
    pub appended_line_count: u32,
    /// Blank lines where file and text meet.
    pub blankline_style: AppendBlanklineStyle,
    /// The file's last lines (up to 2).
    pub before_tail: Vec<String>,
    /// The appended lines (the first and last three of a long text).
    pub append_preview: Vec<String>,
    /// The file's last lines after the append (up to 2).
    pub after_tail: Vec<String>,
}

/// Plan details of `prepareInsertAfter` / `prepareInsertBefore`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InsertPlan {
    /// Before or after the anchor line.
    pub position: Position,
    /// The anchor as given.
    pub anchor: String,
    /// How anchor lines are matched (default `contains`).
    #[serde(rename = "match")]
    pub match_mode: AnchorMatch,
    /// Lines the anchor matches.
    pub candidates_count: u32,
    /// `"1"`, `"3"` or `"last"`.
    pub occurrence_resolved: String,
    /// The anchor line (1-based, in the planned-on file).
    pub anchor_line: u32,
    /// First inserted line in the new file.
    pub inserted_at_line: u32,
    /// Lines inserted.
    pub inserted_line_count: u32,
    /// Blank lines where file and text meet.
    pub blankline_style: InsertBlanklineStyle,
    /// Up to 2 lines before the change (long lines cut).
    pub before_preview: Vec<String>,
    /// The inserted lines (the first and last three of a long text).
    pub insert_preview: Vec<String>,
    /// Up to 2 lines after the change (long lines cut).
    pub after_preview: Vec<String>,
}

/// Plan details of `prepareBlockReplace`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockReplacePlan {
    /// The start anchor as given.
    pub start_anchor: String,
    /// The end anchor as given.
    pub end_anchor: String,
    /// How anchor lines are matched (default `contains`).
    #[serde(rename = "match")]
    pub match_mode: AnchorMatch,
    /// The anchor lines stay (only the lines between them are replaced).
    pub include_anchors: bool,
    /// Several blocks without an `occurrence` are refused.
    pub require_unique: bool,
    /// With `require_unique`: refuse rather than take the first block.
    pub strict: bool,
    /// Blocks the anchors delimit.
    pub candidates_count: u32,
    /// Which block was taken (`1`, `2`, …, `last`).
    pub occurrence_resolved: String,
    /// The start anchor line to the end anchor line.
    pub block_range: Span,
    /// The lines replaced.
    pub replace_slice: ReplaceSlice,
    /// Up to 2 lines before the change (long lines cut).
    pub before_preview: Vec<String>,
    /// The lines replaced (the first and last three of many).
    pub old_preview: Vec<String>,
    /// The new lines (the first and last three of many).
    pub new_preview: Vec<String>,
    /// Up to 2 lines after the change (long lines cut).
    pub after_preview: Vec<String>,
}

/// What every `prepare*` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanResult {
    /// Always `"ok"` (refusals are errors).
    pub status: &'static str,
    /// The tool that made the plan.
    pub mode: PlanMode,
    /// The file planned on.
    pub path: String,
    /// The plan's id (`<prefix>-<n>`).
    pub hunk_id: String,
    /// Creation order within the session (apply in this order).
    pub seq: f64,
    /// When the plan was made (host ms; a revision keeps the first time).
    pub created_at_ms: f64,
    /// When the plan stops being applicable (host ms).
    pub expires_at_ms: f64,
    /// True when `existingHunkId` revised an earlier plan.
    pub revised: bool,
    /// What the plan does.
    pub action: PlanAction,
    /// FNV-1a 64 digest (`fnv1a64:<16 hex>`) of the content planned on.
    pub file_digest: String,
    /// Lines removed and written.
    pub lines: LineCounts,
    /// Final newlines added to the file or the text.
    pub normalized: Normalized,
    /// Details of a range edit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<RangePlan>,
    /// Details of an append.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub append: Option<FileAppendPlan>,
    /// Details of an insert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insert: Option<InsertPlan>,
    /// Details of a block replace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_replace: Option<BlockReplacePlan>,
    /// Blank-line style warning (appends and inserts); `""` when none.
    pub style_warning: String,
    /// One line an agent can read.
    pub summary: String,
    /// The agent YAML (seed 001).
    pub yaml: String,
    /// A unified diff of the change, with its context lines.
    pub diff: String,
    /// What the agent reads: the YAML, and the diff where there is one.
    pub text: String,
}

/// `apply_evidence`: how the change was located and what changed.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyEvidence {
    /// First line of the change in the planned-on file.
    pub planned_at_line: u32,
    /// First line of the change in the applied-on file (not for rejects).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_at_line: Option<u32>,
    /// Applied line minus planned line (absent when rejected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_shift: Option<i32>,
    /// How the plan's place was found (absent when rejected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub located_by: Option<LocatedBy>,
    /// How many places hold the planned lines now (0 for appends).
    pub candidates_count: u32,
    /// For ambiguous rejections: the places that tied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<LineRange>,
    /// Context lines (and file edges) that agreed at the chosen place /
    /// that the plan recorded. Appends: 1/1 when the file is unchanged
    /// since the plan, 0/1 otherwise.
    pub context_matched: u32,
    /// Context elements the plan recorded: lines around it and file edges.
    pub context_total: u32,
    /// Digest of the file given (`fnv1a64:…`).
    pub file_digest_before: String,
    /// Digest of the content returned.
    pub file_digest_after: String,
    /// Lines just before and after the change (tails for appends).
    pub before_preview: Vec<String>,
    /// Up to 2 lines after the change (an append: the new last lines).
    pub after_preview: Vec<String>,
    /// For rejections: the planned lines and what is at their place now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected_preview: Vec<String>,
    /// What the file has at the planned lines now (rejected only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actual_preview: Vec<String>,
}

/// Insert details of an apply.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyInsert {
    /// Before or after the anchor line.
    pub position: Position,
    /// The anchor as planned.
    pub anchor: String,
    /// First inserted line, 1-based, in the new content.
    pub inserted_at_line: u32,
    /// Lines inserted.
    pub inserted_line_count: u32,
}

/// Block details of an apply.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyBlock {
    /// The block's lines, anchors included, where it was applied.
    pub block_range: Span,
    /// The lines replaced.
    pub replace_slice: ReplaceSlice,
}

/// What `apply` returns. A rejection is a result too (`contextMatch:
/// "rejected"`, `changed: false`, `content` = the given content).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileApplyResult {
    /// `"ok"` or `"rejected"`.
    pub status: &'static str,
    /// `"apply_file_modification"`.
    pub mode: &'static str,
    /// The file of the plan.
    pub path: String,
    /// The plan's id (`<prefix>-<n>`).
    pub hunk_id: String,
    /// What the plan does.
    pub action: PlanAction,
    /// Where the plan landed: as planned, relocated, or rejected.
    pub context_match: ContextMatch,
    /// Why it was rejected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<RejectReason>,
    /// Whether `content` differs from the content given (write it when
    /// true; a rejected apply is always false).
    pub changed: bool,
    /// The file's new content (BOM and line endings kept), or the given
    /// content unchanged when rejected.
    pub content: String,
    /// The file did not exist and the host should create it.
    pub creates_file: bool,
    /// Lines removed and written (absent when rejected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<LineCounts>,
    /// Final newlines added (absent when rejected).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized: Option<Normalized>,
    /// Replace/delete: the replaced lines in the applied-on file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_range: Option<Span>,
    /// Append: where the appended lines are in the new file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub append_range: Option<Span>,
    /// Details of an insert.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub insert: Option<ApplyInsert>,
    /// Details of a block replace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_replace: Option<ApplyBlock>,
    /// How the plan's place was checked.
    pub evidence: ApplyEvidence,
    /// One line an agent can read.
    pub summary: String,
    /// The agent YAML (seed 001).
    pub yaml: String,
    /// A unified diff of the change, with its context lines.
    pub diff: String,
    /// What the agent reads: the YAML, and the diff where there is one.
    pub text: String,
}

/// A live plan, for hosts that queue applies ([`super::FileEditSession::pending`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingHunk {
    /// The plan's id (`<prefix>-<n>`).
    pub hunk_id: String,
    /// Creation order within the session (apply in this order).
    pub seq: f64,
    /// The file of the plan.
    pub path: String,
    /// Who planned it.
    pub owner: String,
    /// The tool that made it.
    pub mode: PlanMode,
    /// What it does.
    pub action: PlanAction,
    /// When the plan was made (host ms; a revision keeps the first time).
    pub created_at_ms: f64,
    /// When the plan stops being applicable (host ms).
    pub expires_at_ms: f64,
}

/// What `checkOverwrite` returns when the overwrite may go ahead.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverwriteCheck {
    /// The file's path, as the host names it (shown in the YAML).
    pub path: String,
    /// What to write: the new content with a final line ending, in the
    /// file's line-ending style, with the file's BOM.
    pub content: String,
    /// Lines of the current file.
    pub old_total_lines: u32,
    /// Bytes of the current file.
    pub old_total_bytes: u32,
    /// Lines of the content to write.
    pub new_total_lines: u32,
    /// Bytes of the content to write.
    pub new_total_bytes: u32,
    /// A final newline was added to the content.
    pub normalized_trailing_newline_added: bool,
    /// The new content's line endings were converted to the file's.
    pub line_endings_converted: bool,
    /// The file's BOM was kept.
    pub bom_kept: bool,
    /// The `contentFormat` given (empty when none).
    pub content_format: String,
    /// One line an agent can read.
    pub summary: String,
    /// The agent YAML (seed 001).
    pub yaml: String,
    /// What the agent reads: the YAML, and the diff where there is one.
    pub text: String,
}

/// What `checkNewFile` returns when the file may be created.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewFileCheck {
    /// The path to create.
    pub path: String,
    /// What to write: the content with a final line ending added when it
    /// was missing (an empty content stays empty).
    pub content: String,
    /// Lines of the content to write.
    pub new_total_lines: u32,
    /// Bytes of the content to write.
    pub new_total_bytes: u32,
    /// A final newline was added to the content.
    pub normalized_trailing_newline_added: bool,
    /// One line an agent can read.
    pub summary: String,
    /// The agent YAML (seed 001).
    pub yaml: String,
    /// What the agent reads: the YAML, and the diff where there is one.
    pub text: String,
}

/// What `formatFileView` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileView {
    /// The file's path as given.
    pub path: String,
    /// Lines as `checkOverwrite` counts them (`""` has 0, `"a\n"` has 1).
    pub total_lines: u32,
    /// UTF-8 bytes, BOM included.
    pub size_bytes: u32,
    /// Lines shown.
    pub shown_lines: u32,
    /// First and last line shown (0 and 0 when none is).
    pub start_line: u32,
    /// Last line shown, 1-based (0 when none is).
    pub end_line: u32,
    /// More lines were asked for than `maxLines` allows.
    pub truncated_by_max_lines: bool,
    /// The shown text reached the character limit.
    pub truncated_by_char_limit: bool,
    /// The range to read next when truncated (`"501~1000"`), else `""`.
    pub next_range: String,
    /// `lf`, `crlf`, `mixed` or `none`.
    pub line_ending: &'static str,
    /// The file starts with a byte order mark.
    pub has_bom: bool,
    /// One line an agent can read.
    pub summary: String,
    /// The agent YAML (seed 001).
    pub yaml: String,
    /// The shown lines (numbered when asked), one per line.
    pub body: String,
    /// What the agent reads: the YAML, and the diff where there is one.
    pub text: String,
}

/// Saturating conversion for counts and line numbers in results.
pub(crate) fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Saturating signed difference `a - b` for deltas in results.
pub(crate) fn delta(a: usize, b: usize) -> i32 {
    if a >= b {
        i32::try_from(a - b).unwrap_or(i32::MAX)
    } else {
        i32::try_from(b - a).map(|d| -d).unwrap_or(i32::MIN)
    }
}

// The lenient readers of this module's own enums (the generic ones are in
// super::lenient, which knows none of these types).
/// `1`, `2`, `"3"` or `"last"`; `null`, `""` and `0` → `None`.
fn occurrence<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Occurrence>, D::Error> {
    let value = scalar(d)?;
    if let Scalar::Str(s) = &value {
        let t = s.trim();
        if t.is_empty() {
            return Ok(None);
        }
        if t.eq_ignore_ascii_case("last") {
            return Ok(Some(Occurrence::Last));
        }
    }
    if let Scalar::Null = value {
        return Ok(None);
    }
    match integer(&value) {
        Some(0) => Ok(None),
        Some(n) => Ok(Some(Occurrence::Nth(u32::try_from(n).unwrap_or(u32::MAX)))),
        None => Err(de::Error::custom(
            "expected a positive integer or \"last\" (0 or \"\" for unset)",
        )),
    }
}

/// `contains` | `equals` | `regex`; `null` and `""` → `contains`.
fn match_mode<'de, D: Deserializer<'de>>(d: D) -> Result<AnchorMatch, D::Error> {
    match scalar(d)? {
        Scalar::Null => Ok(AnchorMatch::Contains),
        Scalar::Str(s) => match s.trim().to_ascii_lowercase().as_str() {
            "" | "contains" => Ok(AnchorMatch::Contains),
            "equals" => Ok(AnchorMatch::Equals),
            "regex" => Ok(AnchorMatch::Regex),
            _ => Err(de::Error::custom(
                "expected \"contains\", \"equals\" or \"regex\"",
            )),
        },
        _ => Err(de::Error::custom(
            "expected \"contains\", \"equals\" or \"regex\"",
        )),
    }
}

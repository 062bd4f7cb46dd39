//! Options, results and the published constants of the matcher, and what
//! can go wrong ([`Problem`], with [`Unmappable`], which `reexpress` finds,
//! and the failure report's [`Hint`]s), which `messages` words. A leaf: it
//! imports no other module of the matcher.

use serde::{Deserialize, Serialize};

use crate::error::{Details, ErrorCode, LineRange};
use crate::lang::Lang;

crate::wire::wire_enum! {
/// How much a match may forgive. Each mode runs a prefix of the ladder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MatchMode {
    /// Strategy 1 only: the search must occur byte for byte.
    Exact = "exact",
    /// Strategies 1–8 (and 9, `prose`, for prose): formatting differences are forgiven, content never.
    #[default]
    Safe = "safe",
    /// Strategies 1–12: also small content differences, under a score
    /// threshold, a margin over the runner-up and a size limit.
    Fuzzy = "fuzzy",
}
}

crate::wire::wire_enum! {
/// The twelve strategies, most exact first (SPEC §6.1; `ALL` is the
/// ladder; `prose` runs for prose only). Serialised as the snake_case names the failure report and
/// `stats()` use (declared once here, like every wire vocabulary).
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// Byte for byte.
    Exact = "exact",
    /// CRLF and LF treated as one.
    LineEndings = "line_endings",
    /// Whitespace at the start and end of the search ignored.
    TrimmedBoundaries = "trimmed_boundaries",
    /// Spaces and tabs at line ends ignored.
    TrailingWhitespace = "trailing_whitespace",
    /// Every line's indentation changed by the same amount (re-indented).
    Indentation = "indentation",
    /// Runs of spaces and tabs inside a line count as one space.
    WhitespaceNormalized = "whitespace_normalized",
    /// Typographic quotes, dashes, NBSP, zero-width characters and NFC/NFD
    /// forms folded.
    UnicodeNormalized = "unicode_normalized",
    /// One level of over-escaping (`\\n`, `\\"`) undone.
    EscapeNormalized = "escape_normalized",
    /// Prose written in another form: punctuation width, CJK–Latin spaces,
    /// line breaks inside a paragraph, Markdown markers, escapes, hard
    /// breaks (safe mode, prose only).
    Prose = "prose",
    /// The same tokens in the same order, any whitespace between them
    /// (fuzzy mode).
    TokenFlexible = "token_flexible",
    /// First and last lines as anchors, the lines between mostly equal
    /// (fuzzy mode).
    ContextAnchored = "context_anchored",
    /// The window of whole lines most similar to the search, above the
    /// threshold and ahead of the runner-up (fuzzy mode).
    BlockSimilarity = "block_similarity",
    /// A unified diff's hunk whose context lines differ from the file by at
    /// most the `fuzzFactor` asked for (changed, missing or extra lines),
    /// its removed lines all found (patches only).
    ContextFuzz = "context_fuzz",
}
}

impl Strategy {
    /// Strategies 10–12 forgive content, not only formatting.
    pub fn is_fuzzy(self) -> bool {
        matches!(
            self,
            Strategy::TokenFlexible | Strategy::ContextAnchored | Strategy::BlockSimilarity
        )
    }

    /// The strategies a mode runs, in order. For prose, `prose` runs
    /// before `escape_normalized`: in Markdown a backslash is markup (an
    /// escape, a hard break), not a JSON string's over-escaping.
    pub fn ladder(mode: MatchMode, prose: bool) -> &'static [Strategy] {
        use Strategy as S;
        const FUZZY_CODE: [Strategy; 11] = [
            S::Exact,
            S::LineEndings,
            S::TrimmedBoundaries,
            S::TrailingWhitespace,
            S::Indentation,
            S::WhitespaceNormalized,
            S::UnicodeNormalized,
            S::EscapeNormalized,
            S::TokenFlexible,
            S::ContextAnchored,
            S::BlockSimilarity,
        ];
        const FUZZY_PROSE: [Strategy; 12] = [
            S::Exact,
            S::LineEndings,
            S::TrimmedBoundaries,
            S::TrailingWhitespace,
            S::Indentation,
            S::WhitespaceNormalized,
            S::UnicodeNormalized,
            S::Prose,
            S::EscapeNormalized,
            S::TokenFlexible,
            S::ContextAnchored,
            S::BlockSimilarity,
        ];
        match (mode, prose) {
            (MatchMode::Exact, _) => &FUZZY_CODE[..1],
            (MatchMode::Safe, false) => &FUZZY_CODE[..8],
            (MatchMode::Safe, true) => &FUZZY_PROSE[..9],
            (MatchMode::Fuzzy, false) => &FUZZY_CODE,
            (MatchMode::Fuzzy, true) => &FUZZY_PROSE,
        }
    }
}

/// Minimum score (sequence similarity of the normalised texts, 0–1) a fuzzy
/// candidate needs.
pub const DEFAULT_FUZZY_THRESHOLD: f64 = 0.85;
/// How far the best fuzzy candidate must score above the best candidate
/// in another place (sharing at most half its lines); closer than this is
/// ambiguous.
pub const DEFAULT_FUZZY_MARGIN: f64 = 0.05;
/// A fuzzy match may differ from the search by at most
/// `max(1, floor(lines · (size_ratio − 1)))` lines.
pub const DEFAULT_SIZE_RATIO: f64 = 1.25;
/// `context_anchored`: share of middle lines that must be equal (seed 004).
pub const CONTEXT_MIDDLE_MIN: f64 = 0.7;
/// `block_similarity`: share of the search's lines that must be equal (in
/// order, under the fold key) in the window, relative to the longer of the
/// two. One altered line in a block of three still passes; three of seven
/// do not.
pub const MIN_EQUAL_LINE_RATIO: f64 = 0.6;
/// Fuzzy block strategies (11, 12) need a search of at least this many
/// non-blank lines: on one or two lines a "small difference" is the edit.
pub const MIN_FUZZY_LINES: usize = 3;
/// Work budget of one call, in operations (roughly bytes scanned plus
/// diff cells). Exhausting it ends the search as not found, never as a
/// guess. At the default, no input of ≤ 10 MB takes more than about a
/// second natively.
pub const DEFAULT_WORK_BUDGET: u32 = 100_000_000;

/// Options of [`find_match`](super::find_match) and
/// [`replace_text`](super::replace_text): what to find, how much to
/// forgive, and the language of messages.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct MatchOptions {
    /// Default `safe`.
    pub mode: MatchMode,
    /// Exactly this many locations are required (one strategy must find
    /// exactly n), and replaced. Default: one.
    pub expected_replacements: Option<u32>,
    /// Every location the first finding strategy sees, all replaced
    /// (exact and safe strategies only). Default `false`.
    pub replace_all: bool,
    /// Default [`DEFAULT_FUZZY_THRESHOLD`].
    pub fuzzy_threshold: Option<f64>,
    /// Default [`DEFAULT_FUZZY_MARGIN`].
    pub fuzzy_margin: Option<f64>,
    /// Default [`DEFAULT_SIZE_RATIO`].
    pub size_ratio: Option<f64>,
    /// Default [`DEFAULT_WORK_BUDGET`].
    pub work_budget: Option<u32>,
    /// A 1-based line where the search is expected to start (Roo's
    /// `:start_line:`, a unified diff's `@@ -l`). It only breaks a tie:
    /// when the search matches several places, the one whose first line
    /// is strictly nearest the hint is used; two equally near ones stay
    /// ambiguous. A single match is used wherever it is: the hint never
    /// moves an edit to a place the search does not match.
    pub line_hint: Option<u32>,
    /// The text is prose (Markdown or plain text, a SiYuan block other
    /// than code, math and HTML): the safe tier also forgives what models
    /// write differently in prose (strategy `prose`). Default `false`.
    pub prose: bool,
    /// Language of messages. Default `en`.
    pub lang: Lang,
}

impl Default for MatchOptions {
    fn default() -> Self {
        MatchOptions {
            mode: MatchMode::Safe,
            expected_replacements: None,
            replace_all: false,
            fuzzy_threshold: None,
            fuzzy_margin: None,
            size_ratio: None,
            work_budget: None,
            line_hint: None,
            prose: false,
            lang: Lang::En,
        }
    }
}

/// One located span of the original content.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Match {
    /// The strategy that located it.
    pub strategy: Strategy,
    /// UTF-16 offset of the first code unit of the span in the content.
    pub start: u32,
    /// UTF-16 offset just past the span.
    pub end: u32,
    /// 1-based first line of the span.
    pub start_line: u32,
    /// 1-based last line of the span (inclusive).
    pub end_line: u32,
    /// 1-based column of the span's first character on its line, in
    /// UTF-16 code units (several places on one line differ here).
    pub start_column: u32,
    /// The original text of the span, byte for byte.
    pub text: String,
    /// 1.0 for exact and safe strategies (equal after the strategy's
    /// normalisation); the sequence similarity of the normalised texts for
    /// fuzzy ones.
    pub score: f64,
    /// Byte offset of the span in the content (a BOM included), for the
    /// crate's callers that work in bytes (the patch planner).
    #[serde(skip)]
    pub(crate) byte_start: usize,
}

/// The region of the content most like the search, reported when nothing
/// matched.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Closest {
    /// First line of the region, 1-based.
    pub start_line: u32,
    /// Last line of the region, 1-based, inclusive.
    pub end_line: u32,
    /// Sequence similarity in [0, 1] between the search and `text`.
    pub similarity: f64,
    /// The region's original text.
    pub text: String,
    /// A unified diff from the search to `text`.
    pub diff: String,
}

/// What [`find_match`](super::find_match) found. "Not found" and
/// "ambiguous" are values here, never errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FindResult {
    /// The search was located as the options require (exactly one location,
    /// exactly `expectedReplacements`, or at least one with `replaceAll`).
    pub found: bool,
    /// The strategy that located it (also set when it found the wrong
    /// number of locations).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strategy: Option<Strategy>,
    /// Every location that strategy found (several when ambiguous).
    pub matches: Vec<Match>,
    /// Strategies run, in order.
    pub tried: Vec<Strategy>,
    /// When nothing matched: the most similar region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closest: Option<Closest>,
    /// Why `found` is false: `NOT_FOUND`, `AMBIGUOUS`, `MATCH_COUNT_MISMATCH`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<ErrorCode>,
    /// The failure report (SPEC §6.3) in the requested language.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The work budget ran out before every strategy finished.
    pub budget_exhausted: bool,
}

/// What [`replace_text`](super::replace_text) did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceResult {
    /// The new content (BOM, line endings and final-newline state kept).
    pub content: String,
    /// The strategy that located the search.
    pub strategy: Strategy,
    /// Number of locations replaced.
    pub occurrences: u32,
    /// The replaced spans, as offsets into the *original* content.
    pub matches: Vec<Match>,
}

/// Why a replacement cannot be written in the file's formatting
/// (`REPLACEMENT_NOT_MAPPABLE`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unmappable {
    /// Line `n` (1-based, in the replacement) cannot be re-indented by the
    /// shift the match established.
    Indentation(usize),
    /// Line `n` uses a quote character the matched region writes in more
    /// than one way (or an unpaired one where the region pairs them).
    Quotes(usize, char),
    /// The replacement mixes escaped and real characters, or escapes kinds
    /// the search did not.
    Escaping,
    /// The replacement adds an escape sequence inside this string literal:
    /// the new code's own escape, which undoing the search's over-escaping
    /// would turn into a real character.
    LiteralEscape(String),
    /// A fuzzy replacement would drop this word: of the file (one the
    /// model kept) or of the model's new text.
    LosesText(String),
    /// A fuzzy replacement would write this word more often than the
    /// model and the file have it.
    RepeatsText(String),
}

/// A candidate place: first and last line, and the start column where
/// several places start on one line.
pub(crate) type Place = (u32, u32, Option<u32>);

/// A near miss explained in one sentence.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Hint {
    Indentation {
        start_line: u32,
        end_line: u32,
    },
    Weak {
        start_line: u32,
        end_line: u32,
        score: f64,
        threshold: f64,
    },
    TooClose {
        start_line: u32,
        end_line: u32,
        score: f64,
        runner_up: f64,
    },
    /// The closest region differs from the search only by characters a
    /// reader cannot see.
    Invisible {
        start_line: u32,
        end_line: u32,
        kinds: Vec<Invisible>,
    },
}

/// Differences a reader cannot see.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Invisible {
    Nbsp,
    ZeroWidth,
    NormalForm,
    CarriageReturn,
}

/// Which marker a format problem is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FormatProblem {
    /// A SEARCH marker inside a SEARCH section.
    NestedSearch,
    /// A SEARCH section that is never closed.
    UnclosedSearch,
    /// A REPLACE marker with no open block.
    UnmatchedReplace,
    /// A `=======` outside a block, or a second one in a block.
    MisplacedDelimiter,
    /// A REPLACE marker before the `=======`.
    MissingDelimiter,
    /// A `:start_line:`/`:end_line:` line in a REPLACE section (hints
    /// belong at the top of SEARCH).
    MisplacedLineHint,
    /// No block at all.
    NoBlocks,
}

/// Why the matcher refused (or, for `find_match`, why `found` is false),
/// with what was wrong and where. `messages::render` words it; the error
/// is built from it in one place (`matcher::refuse`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Problem {
    /// The search is empty.
    EmptySearch,
    /// The replacement leaves the text unchanged.
    NoChange,
    /// `strategy` found several `places` where one was required.
    Ambiguous {
        strategy: Strategy,
        places: Vec<Place>,
        /// The line hint that did not choose one (two places equally near).
        hint: Option<u32>,
    },
    /// `strategy` found more than `cap` places.
    TooManyMatches { strategy: Strategy, cap: usize },
    /// `strategy` found `places`, not the `expected` count.
    CountMismatch {
        strategy: Strategy,
        expected: u32,
        places: Vec<Place>,
    },
    /// The search is not there, but the replacement is, once, at `places`.
    AlreadyApplied { places: Vec<Place> },
    /// The match at lines `at` (by `strategy`) cannot take the replacement
    /// in the file's formatting, for `why`.
    Unmappable {
        strategy: Strategy,
        at: (u32, u32),
        why: Unmappable,
    },
    /// Nothing matched: the failure report's facts.
    NotFound(Box<NotFound>),
}

/// The facts of a failure report (SPEC §6.3).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct NotFound {
    /// The search as given.
    pub search: String,
    pub mode: MatchMode,
    /// Strategies run, in order.
    pub tried: Vec<Strategy>,
    /// The work budget ran out.
    pub exhausted: bool,
    /// Near misses, each explained in one sentence.
    pub hints: Vec<Hint>,
    /// The region most like the search.
    pub closest: Option<Closest>,
}

impl Problem {
    /// The stable code the host sees.
    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            Problem::EmptySearch => ErrorCode::EmptySearch,
            Problem::NoChange => ErrorCode::NoChange,
            Problem::Ambiguous { .. } => ErrorCode::Ambiguous,
            Problem::TooManyMatches { .. } => ErrorCode::TooManyMatches,
            Problem::CountMismatch { .. } => ErrorCode::MatchCountMismatch,
            Problem::AlreadyApplied { .. } => ErrorCode::AlreadyApplied,
            Problem::Unmappable { .. } => ErrorCode::ReplacementNotMappable,
            Problem::NotFound(_) => ErrorCode::NotFound,
        }
    }

    /// The structured details a host reads without parsing the message:
    /// every candidate place and the first one's line; for a failure
    /// report, the search and the closest region.
    pub(crate) fn details(&self) -> Details {
        let mut details = Details::default();
        match self {
            Problem::Ambiguous { places, .. } | Problem::CountMismatch { places, .. } => {
                details.candidates = line_ranges(places);
                details.line = places.first().map(|p| p.0);
            }
            Problem::AlreadyApplied { places } => {
                details.candidates = line_ranges(places);
                details.line = places.first().map(|p| p.0);
            }
            Problem::Unmappable { at, .. } => details.line = Some(at.0),
            Problem::NotFound(report) => {
                details.expected = Some(report.search.clone());
                if let Some(c) = &report.closest {
                    details.line = Some(c.start_line);
                    details.similarity = Some(c.similarity);
                    details.actual = Some(c.text.clone());
                    details.diff = Some(c.diff.clone());
                }
            }
            Problem::EmptySearch | Problem::NoChange | Problem::TooManyMatches { .. } => {}
        }
        details
    }
}

fn line_ranges(places: &[Place]) -> Vec<LineRange> {
    places
        .iter()
        .map(|&(start_line, end_line, start_column)| LineRange {
            start_line,
            end_line,
            start_column,
        })
        .collect()
}

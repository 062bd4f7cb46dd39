//! The text matcher (SPEC §6): locate a search text in a content even when
//! the model got its formatting slightly wrong, and replace it without ever
//! editing the wrong place.
//!
//! ```
//! use editkit::{replace_text, MatchOptions};
//!
//! let file = "fn main() {\r\n    let x = 1;\r\n}\r\n";
//! // The model dropped the indentation and used LF line breaks.
//! let r = replace_text(file, "let x = 1;\n", "let x = 2;\n", &MatchOptions::default()).unwrap();
//! assert_eq!(r.content, "fn main() {\r\n    let x = 2;\r\n}\r\n");
//! ```
//!
//! # The ladder
//!
//! Strategies run most exact first; the first that finds anything decides,
//! and its count is final. Each forgives what the earlier ones forgive plus
//! one more kind of difference (every module documents what it forgives,
//! what it never forgives, and its cost):
//!
//! | # | strategy | tier | forgives |
//! |---|---|---|---|
//! | 1 | [`exact`](strategies::exact) | exact | nothing |
//! | 2 | [`line_endings`](strategies::line_endings) | safe | CRLF vs LF |
//! | 3 | [`trimmed_boundaries`](strategies::trimmed_boundaries) | safe | whitespace around the search |
//! | 4 | [`trailing_whitespace`](strategies::trailing_whitespace) | safe | trailing spaces per line |
//! | 5 | [`indentation`](strategies::indentation) | safe | a uniform indentation shift |
//! | 6 | [`whitespace_normalized`](strategies::whitespace_normalized) | safe | the width of inner whitespace runs |
//! | 7 | [`unicode_normalized`](strategies::unicode_normalized) | safe | curly quotes, dashes, NBSP, zero-width |
//! | 8 | [`escape_normalized`](strategies::escape_normalized) | safe | one level of over-escaping |
//! | 9 | [`prose`](strategies::prose) | safe, prose only (runs before 8) | punctuation width, CJK–Latin spaces, re-wrapped lines, Markdown markers, escapes, hard breaks |
//! | 10 | [`token_flexible`](strategies::token_flexible) | fuzzy | any whitespace between tokens |
//! | 11 | [`context_anchored`](strategies::context_anchored) | fuzzy | changed middle lines between exact anchors |
//! | 12 | [`block_similarity`](strategies::block_similarity) | fuzzy | small differences anywhere |
//!
//! Safe strategies forgive formatting only, and re-express the replacement
//! in the file's formatting ([`reexpress`]); where that is not well
//! defined they refuse (`REPLACEMENT_NOT_MAPPABLE`). Fuzzy strategies also
//! forgive content, under the published limits [`DEFAULT_FUZZY_THRESHOLD`],
//! [`DEFAULT_FUZZY_MARGIN`], [`DEFAULT_SIZE_RATIO`], [`CONTEXT_MIDDLE_MIN`],
//! [`MIN_EQUAL_LINE_RATIO`] and [`MIN_FUZZY_LINES`] (the first three
//! overridable per call).
//!
//! # Safety rules (SPEC §6.2)
//!
//! - Uniqueness is by position: a strategy that finds two places is
//!   ambiguous (`AMBIGUOUS`, every candidate's line range listed), unless
//!   `expectedReplacements = n` (exactly n) or `replaceAll` (exact and safe
//!   strategies only).
//! - The replacement is inserted literally: `$&`, `$1`, `\n` mean nothing.
//! - Empty search: `EMPTY_SEARCH`. Identical search and replacement, or an
//!   edit that changes nothing: `NO_CHANGE`.
//! - Not found, but the replacement is present exactly once:
//!   `ALREADY_APPLIED` (for a replacement of at least
//!   [`ALREADY_APPLIED_MIN_CHARS`] non-blank characters, or as many as a
//!   shorter search has, and never fewer than
//!   [`ALREADY_APPLIED_FLOOR_CHARS`]: a short replacement found once proves
//!   nothing).
//! - BOM, each line's ending and the final-newline state of the content are
//!   kept; inserted lines take the matched region's ending; deleting whole
//!   lines removes their line breaks too; a replacement never merges into a
//!   neighbouring non-empty line through a boundary line break only the
//!   search had.
//! - Every result names the strategy, the matched original text, its line
//!   range, its UTF-16 offsets and a score. A refused edit returns no
//!   content at all, so nothing can be half-applied.
//! - Work is bounded by an operation budget ([`DEFAULT_WORK_BUDGET`]), not
//!   a clock; running out means "not found", never a guess.
//!
//! # Which mode should you use?
//!
//! - **`safe`** (the default) for files and for SiYuan blocks. It accepts
//!   everything a model commonly gets wrong about *formatting* (indentation,
//!   line endings, trailing spaces, quotes, escaping) and never an edit
//!   whose search differs in content. Its misses come with a report that
//!   tells the model what to fix.
//! - **`exact`** when the caller has just produced the search text itself
//!   (a program, not a model) and any difference means the content changed
//!   under it.
//! - **`fuzzy`** when a retry costs more than a refusal risks: a model
//!   editing prose or large blocks from memory. It also accepts small
//!   content drift in blocks of three or more lines, but only for a clearly
//!   best candidate; it never accepts `replaceAll`.
//!
//! # Other entry points
//!
//! [`apply_search_replace`] applies a multi-block `<<<<<<< SEARCH` text
//! (seed 003), [`apply_edits`] a list of `{oldString, newString}` edits,
//! [`replace_text_with_correction`] asks a host LLM to repair a failed
//! search once (seed 002), and [`stats`] reports what matched how.

mod budget;
mod content;
mod corrector;
mod fidelity;
mod indent;
mod ladder;
mod messages;
mod normalize;
mod prose;

/// The line's fold key, the matcher's loosest safe normalisation
/// (indentation, inner spacing, typographic characters, zero-width
/// characters): two lines with the same key are one line reformatted.
pub(crate) fn fold_key(line: &str) -> String {
    normalize::key(line, normalize::Level::Fold)
}
mod reexpress;
mod report;
mod scan;
mod search_replace;
mod snippet;
mod stats;
mod strategies;
mod types;
mod unicode_forms;

pub use corrector::{
    clear_correction_cache, replace_text_with_correction, CorrectionOptions, CorrectionRequest,
    Corrector, CORRECTION_CACHE_SIZE,
};
pub use search_replace::{
    apply_edits, apply_search_replace, check_edit_fields, parse_search_replace, BlockResult,
    EditSpec, SearchReplaceBlock, SearchReplaceOptions, SearchReplaceReport, EDIT_FIELDS,
};
pub use snippet::{
    is_elision_marker, plan_edit_snippet, SnippetOptions, SnippetRegion, SnippetResult,
};
pub use stats::{reset_stats, stats, CorrectionCounts, Stats, StrategyCounts};
pub use types::{
    Closest, FindResult, Match, MatchMode, MatchOptions, ReplaceResult, Strategy,
    CONTEXT_MIDDLE_MIN, DEFAULT_FUZZY_MARGIN, DEFAULT_FUZZY_THRESHOLD, DEFAULT_SIZE_RATIO,
    DEFAULT_WORK_BUDGET, MIN_EQUAL_LINE_RATIO, MIN_FUZZY_LINES,
};

use content::Content;
pub(crate) use content::ContentIndex;
pub(crate) use ladder::nearest_to_hint;
use ladder::{Positions, Run, Settings, Verdict};
use strategies::{Candidate, Needle, Plan};
pub(crate) use types::Problem;
use types::{Place, Unmappable};

use crate::error::Error;
use crate::lang::Lang;
use crate::text::{split_bom, LineLink, BOM};

/// Locates `search` in `content` (SPEC §11 `findMatch`).
///
/// Never an error for "not found" or "ambiguous": those are
/// `found: false` with `code` and the failure report in `message`. Errors
/// only for invalid input: an empty `search` (`EMPTY_SEARCH`) or
/// out-of-range options (`INVALID_ARGUMENT`).
pub fn find_match(
    content: &str,
    search: &str,
    options: &MatchOptions,
) -> Result<FindResult, Error> {
    find_match_indexed(content, None, search, options, false)
}

/// [`find_match`] with the index of `content` kept from an earlier call on
/// the same text (see [`ContentIndex`]), and whether the caller already
/// knows `search` is not in `content` byte for byte: the same answer,
/// sooner.
pub(crate) fn find_match_indexed(
    content: &str,
    index: Option<&ContentIndex>,
    search: &str,
    options: &MatchOptions,
    exact_absent: bool,
) -> Result<FindResult, Error> {
    let settings = Settings::new(options)?;
    let search = search.strip_prefix(BOM).unwrap_or(search);
    if search.is_empty() {
        return Err(refuse(settings.lang, Problem::EmptySearch));
    }
    ladder::check_size(settings.lang, content)?;
    let (bom, body) = split_bom(content);
    let content_ix = Content::maybe_indexed(body, index);
    let (needle, run, _) = locate(&content_ix, search, &settings, exact_absent);
    let strategy = run.strategy;
    let bom_units = usize::from(bom);
    let mut result = FindResult {
        found: false,
        strategy,
        matches: Vec::new(),
        tried: run.tried.clone(),
        closest: None,
        code: None,
        message: None,
        budget_exhausted: run.exhausted,
    };
    let lang = settings.lang;
    match (strategy, ladder::decide(&settings, run.candidates.clone())) {
        (Some(s), Verdict::Accept(cands)) => {
            stats::count_strategy(s);
            result.found = true;
            result.matches = matches(body, bom_units, s, &cands);
        }
        (Some(s), Verdict::Ambiguous(cands)) => {
            let found = matches(body, bom_units, s, &cands);
            result.ambiguous_or_hinted(&settings, s, found);
        }
        (Some(s), Verdict::TooMany) => result.note(
            lang,
            Problem::TooManyMatches {
                strategy: s,
                cap: strategies::MAX_CANDIDATES,
            },
        ),
        (Some(s), Verdict::CountMismatch(cands)) => {
            result.matches = matches(body, bom_units, s, &cands);
            result.note(
                lang,
                Problem::CountMismatch {
                    strategy: s,
                    expected: settings.expected.unwrap_or(1),
                    places: ranges(&result.matches),
                },
            );
        }
        _ => {
            stats::update(|st| st.not_found += 1);
            let report = report::not_found(&content_ix, &needle, &settings, &run);
            result.closest = report.closest.clone();
            result.note(lang, Problem::NotFound(Box::new(report)));
        }
    }
    Ok(result)
}

/// Replaces `search` with `replace` in `content` (SPEC §11 `replaceText`).
///
/// Refusals are errors: `EMPTY_SEARCH`, `NO_CHANGE`, `NOT_FOUND` (with the
/// failure report), `AMBIGUOUS` (with every candidate in
/// `details.candidates`), `MATCH_COUNT_MISMATCH`, `ALREADY_APPLIED`,
/// `REPLACEMENT_NOT_MAPPABLE`, `INVALID_ARGUMENT`. A refusal never returns
/// content, so the caller's text stays as it was.
pub fn replace_text(
    content: &str,
    search: &str,
    replace: &str,
    options: &MatchOptions,
) -> Result<ReplaceResult, Error> {
    replace_text_indexed(content, None, search, replace, options)
}

/// [`replace_text`] with the index of `content` kept from an earlier call
/// on the same text (see [`ContentIndex`]).
pub(crate) fn replace_text_indexed(
    content: &str,
    index: Option<&ContentIndex>,
    search: &str,
    replace: &str,
    options: &MatchOptions,
) -> Result<ReplaceResult, Error> {
    replace_or_refusal(content, index, search, replace, options).map_err(|r| match r {
        Refusal::Problem(problem) => refuse(options.lang, problem),
        Refusal::Argument(error) => error,
    })
}

/// Why [`replace_or_refusal`] did not replace: one of the matcher's
/// problems, for a caller that words its own refusal (the block-diff
/// check does), or an argument it cannot take (an option out of range,
/// text over 4 GiB), already an error.
pub(crate) enum Refusal {
    Problem(Problem),
    Argument(Error),
}

impl From<Error> for Refusal {
    fn from(error: Error) -> Self {
        Refusal::Argument(error)
    }
}

/// [`replace_text_indexed`] with the refusal as data.
pub(crate) fn replace_or_refusal(
    content: &str,
    index: Option<&ContentIndex>,
    search: &str,
    replace: &str,
    options: &MatchOptions,
) -> Result<ReplaceResult, Refusal> {
    let settings = Settings::new(options)?;
    let lang = settings.lang;
    let search = search.strip_prefix(BOM).unwrap_or(search);
    let replace = replace.strip_prefix(BOM).unwrap_or(replace);
    if search.is_empty() {
        return Err(Refusal::Problem(Problem::EmptySearch));
    }
    if search == replace {
        return Err(Refusal::Problem(Problem::NoChange));
    }
    ladder::check_size(lang, content)?;
    let (bom, body) = split_bom(content);
    let content_ix = Content::maybe_indexed(body, index);
    let (needle, run, form) = locate(&content_ix, search, &settings, false);
    // Found in the file's other normalisation form: the replacement is
    // written in that form too.
    let converted;
    let replace = match form {
        Some(to_form) => {
            converted = to_form(replace);
            converted.as_str()
        }
        None => replace,
    };
    let bom_units = usize::from(bom);
    let (strategy, chosen) =
        chosen_or_refusal(&content_ix, bom_units, &needle, replace, &settings, &run)
            .map_err(Refusal::Problem)?;
    let new_body = apply(&content_ix, &needle, &chosen, replace).map_err(|(cand, why)| {
        Refusal::Problem(unmappable(body, bom_units, strategy, cand, &why))
    })?;
    if new_body == body {
        return Err(Refusal::Problem(Problem::NoChange));
    }
    stats::count_strategy(strategy);
    let found = matches(body, bom_units, strategy, &chosen);
    let mut out = String::with_capacity(new_body.len() + 3);
    if bom {
        out.push_str(BOM);
    }
    out.push_str(&new_body);
    Ok(ReplaceResult {
        content: out,
        strategy,
        occurrences: u32::try_from(found.len()).unwrap_or(u32::MAX),
        matches: found,
    })
}

/// The strategy and the candidates `replace_text` replaces, or the
/// refusal the run's verdict is: `AMBIGUOUS`, `TOO_MANY_MATCHES`,
/// `MATCH_COUNT_MISMATCH`, or (nothing found) `ALREADY_APPLIED` or
/// `NOT_FOUND`.
fn chosen_or_refusal(
    content: &Content<'_>,
    bom_units: usize,
    needle: &Needle,
    replace: &str,
    settings: &Settings,
    run: &Run,
) -> Result<(Strategy, Vec<Candidate>), Problem> {
    let body = content.body;
    match (
        run.strategy,
        ladder::decide(settings, run.candidates.clone()),
    ) {
        (Some(s), Verdict::Accept(c)) => Ok((s, c)),
        (Some(s), Verdict::Ambiguous(mut c)) => {
            let found = matches(body, bom_units, s, &c);
            if let Some(i) = hinted(settings, &found) {
                return Ok((s, vec![c.swap_remove(i)]));
            }
            stats::update(|st| st.ambiguous += 1);
            Err(Problem::Ambiguous {
                strategy: s,
                places: ranges(&found),
                hint: settings.line_hint,
            })
        }
        (Some(s), Verdict::TooMany) => Err(Problem::TooManyMatches {
            strategy: s,
            cap: strategies::MAX_CANDIDATES,
        }),
        (Some(s), Verdict::CountMismatch(c)) => {
            let places = ranges(&matches(body, bom_units, s, &c));
            Err(Problem::CountMismatch {
                strategy: s,
                expected: settings.expected.unwrap_or(1),
                places,
            })
        }
        _ => Err(not_found_or_applied(
            content, needle, replace, settings, run,
        )),
    }
}

impl FindResult {
    /// Several places: the one the line hint chooses, when it chooses;
    /// else `AMBIGUOUS` with all of them.
    fn ambiguous_or_hinted(&mut self, settings: &Settings, strategy: Strategy, found: Vec<Match>) {
        if let Some(i) = hinted(settings, &found) {
            stats::count_strategy(strategy);
            self.found = true;
            self.matches = vec![found[i].clone()];
            return;
        }
        stats::update(|st| st.ambiguous += 1);
        self.matches = found;
        self.note(
            settings.lang,
            Problem::Ambiguous {
                strategy,
                places: ranges(&self.matches),
                hint: settings.line_hint,
            },
        );
    }
}

/// The one of several places the line hint chooses (strictly nearest its
/// first line), when there is a hint. Overlapping places too: repeated
/// lines read at two offsets, of which the line number names one.
fn hinted(settings: &Settings, found: &[Match]) -> Option<usize> {
    let hint = settings.line_hint?;
    let first_lines: Vec<u32> = found.iter().map(|m| m.start_line).collect();
    ladder::nearest_to_hint(&first_lines, hint)
}

/// `REPLACEMENT_NOT_MAPPABLE` for the candidate whose replacement could
/// not be written in the file's formatting.
fn unmappable(
    body: &str,
    bom_units: usize,
    strategy: Strategy,
    cand: &Candidate,
    why: &Unmappable,
) -> Problem {
    let m = matches(body, bom_units, strategy, std::slice::from_ref(cand));
    let at = ranges(&m).first().map_or((1, 1), |&(a, b, _)| (a, b));
    Problem::Unmappable {
        strategy,
        at,
        why: why.clone(),
    }
}

/// A conversion of text to one Unicode normalisation form.
type ToForm = fn(&str) -> String;

/// Runs the ladder for `search`: its safe tier; then, when nothing is
/// found and the search has characters NFC and NFD write differently, the
/// safe tier again with the search in each form (SPEC §6.8); then the
/// fuzzy tier, if the mode has one. Returns the needle that was found (or
/// the original), the run, and the conversion that found it.
fn locate(
    content: &Content<'_>,
    search: &str,
    settings: &Settings,
    exact_absent: bool,
) -> (Needle, Run, Option<ToForm>) {
    let ladder = settings.ladder();
    let mut needle = Needle::new(search);
    needle.exact_absent = exact_absent;
    if settings.mode == MatchMode::Exact || !unicode_forms::has_forms(search) {
        let run = ladder::run(content, &needle, settings, ladder);
        return (needle, run, None);
    }
    let safe_len = ladder
        .len()
        .min(Strategy::ladder(MatchMode::Safe, settings.prose).len());
    let (safe, fuzzy) = ladder.split_at(safe_len);
    let mut run = ladder::run(content, &needle, settings, safe);
    if run.strategy.is_some() || run.exhausted {
        return (needle, run, None);
    }
    {
        for to_form in [unicode_forms::nfc as ToForm, unicode_forms::nfd] {
            let alt = to_form(search);
            if alt == search {
                continue;
            }
            let alt_needle = Needle::new(&alt);
            let mut alt_run = ladder::run(content, &alt_needle, settings, safe);
            if let Some(found) = alt_run.strategy {
                // Honest about the forgiveness: at least unicode_normalized.
                alt_run.strategy = Some(found.max(Strategy::UnicodeNormalized));
                alt_run.tried = run.tried.clone();
                return (alt_needle, alt_run, Some(to_form));
            }
        }
    }
    if !fuzzy.is_empty() {
        let more = ladder::run(content, &needle, settings, fuzzy);
        let mut tried = std::mem::take(&mut run.tried);
        tried.extend(more.tried.iter().copied());
        let mut near = std::mem::take(&mut run.near);
        near.extend(more.near);
        run = Run {
            tried,
            near,
            ..more
        };
    }
    (needle, run, None)
}

/// A replacement found once counts as "already applied" only with at least
/// this many non-blank characters (or as many as the search has, when the
/// search is shorter) …
pub const ALREADY_APPLIED_MIN_CHARS: usize = 8;

/// … and never with fewer than this many: a one-to-three-character
/// replacement ("d", "x=1") found once somewhere proves nothing, and a false
/// `ALREADY_APPLIED` makes an agent stop short of an edit it still owes.
pub const ALREADY_APPLIED_FLOOR_CHARS: usize = 4;

fn non_blank_chars(s: &str) -> usize {
    s.chars().filter(|c| !c.is_whitespace()).count()
}

/// Whether the search and the replacement begin or end with the same
/// non-blank line (under the fold key): only then does finding the
/// replacement show the edit in its place — the shared lines surround the
/// changed ones. A replacement that is all new text found once may just as
/// well be a copy elsewhere (another function's `return a * b`).
fn shares_a_line(search: &str, replace: &str) -> bool {
    let lines = |t: &str| -> Vec<String> {
        t.replace("\r\n", "\n")
            .split('\n')
            .map(|l| normalize::key(l, normalize::Level::Fold))
            .filter(|k| !k.is_empty())
            .collect()
    };
    let (s, r) = (lines(search), lines(replace));
    if s.len() < 2 && r.len() < 2 {
        return false;
    }
    let first = s.first().zip(r.first()).is_some_and(|(a, b)| a == b);
    let last = s.last().zip(r.last()).is_some_and(|(a, b)| a == b);
    first || last
}

/// `ALREADY_APPLIED` when the replacement (not the search) is present
/// exactly once under the safe strategies and shares a first or last line
/// with the search, else `NOT_FOUND` with the report (SPEC §6.8).
fn not_found_or_applied(
    content: &Content<'_>,
    needle: &Needle,
    replace: &str,
    settings: &Settings,
    run: &Run,
) -> Problem {
    let needed = ALREADY_APPLIED_MIN_CHARS
        .min(non_blank_chars(&needle.exact))
        .max(ALREADY_APPLIED_FLOOR_CHARS);
    let substantial = non_blank_chars(replace) >= needed;
    if substantial && shares_a_line(&needle.lf, replace) {
        let probe = Needle::new(replace);
        let single = Settings {
            expected: None,
            replace_all: false,
            ..*settings
        };
        let again = ladder::run(
            content,
            &probe,
            &single,
            Strategy::ladder(settings.mode.min(MatchMode::Safe), settings.prose),
        );
        if let (Some(s), Verdict::Accept(c)) =
            (again.strategy, ladder::decide(&single, again.candidates))
        {
            let places = ranges(&matches(content.body, 0, s, &c));
            if !places.is_empty() {
                stats::update(|st| st.already_applied += 1);
                return Problem::AlreadyApplied { places };
            }
        }
    }
    stats::update(|st| st.not_found += 1);
    let report = report::not_found(content, needle, settings, run);
    Problem::NotFound(Box::new(report))
}

/// The new body with every chosen candidate replaced, or the candidate
/// whose replacement could not be re-expressed.
fn apply<'c>(
    content: &Content<'_>,
    needle: &Needle,
    chosen: &'c [Candidate],
    replace: &str,
) -> Result<String, (&'c Candidate, Unmappable)> {
    let body = content.body;
    let mut out = String::with_capacity(body.len() + replace.len());
    let mut pos = 0usize;
    for cand in chosen {
        let text = reexpress::replacement(content, needle, cand, replace).map_err(|e| (cand, e))?;
        let text = with_endings(body, cand.start, cand.end, &text);
        let (mut start, mut end) = (cand.replace_start(content), cand.end);
        if cand.plan == Plan::Verbatim {
            (start, end) = keep_boundary_breaks(body, start, end, &needle.lf, &text);
        }
        if text.is_empty() {
            (start, end) = whole_line_deletion(body, start, end);
        }
        let start = start.max(pos);
        out.push_str(body.get(pos..start).unwrap_or(""));
        out.push_str(&text);
        pos = end.max(start);
    }
    out.push_str(body.get(pos..).unwrap_or(""));
    Ok(out)
}

/// The replacement (LF breaks) with the region's line endings. A region
/// that writes one ending gives it to every break; in a mixed region each
/// replacement line keeps the ending of the region line it stands for, and
/// an inserted line takes the ending of the line it follows (SPEC §6.8).
fn with_endings(body: &str, start: usize, end: usize, text: &str) -> String {
    let region = body.get(start..end).unwrap_or("");
    let lines: Vec<crate::text::Line<'_>> = crate::text::lines_with_endings(region).collect();
    let mixed = lines.iter().any(|l| l.ending == "\r\n") && lines.iter().any(|l| l.ending == "\n");
    if !mixed || !text.contains('\n') {
        let ending = region_ending(body, start, end);
        return if ending == "\n" {
            text.to_string()
        } else {
            text.replace('\n', ending)
        };
    }
    let key = |l: &str| normalize::key(l, normalize::Level::Fold);
    let old_keys: Vec<String> = lines.iter().map(|l| key(l.text)).collect();
    let new_lines: Vec<&str> = text.split('\n').collect();
    let new_keys: Vec<String> = new_lines.iter().map(|l| key(l)).collect();
    let old_refs: Vec<&str> = old_keys.iter().map(String::as_str).collect();
    let new_refs: Vec<&str> = new_keys.iter().map(String::as_str).collect();
    let links = crate::text::align_lines(&old_refs, &new_refs);
    let before = body
        .get(..start)
        .and_then(|b| b.strip_suffix('\n'))
        .map(|b| if b.ends_with('\r') { "\r\n" } else { "\n" });
    let mut previous = before.unwrap_or_else(|| region_ending(body, start, end));
    let mut out = String::with_capacity(text.len() + new_lines.len());
    for (j, line) in new_lines.iter().enumerate() {
        out.push_str(line);
        if j + 1 == new_lines.len() {
            break;
        }
        let own = match links.get(j) {
            Some(LineLink::Equal(i) | LineLink::Changed(i)) => {
                lines.get(*i).map(|l| l.ending).filter(|e| !e.is_empty())
            }
            _ => None,
        };
        let ending = own.unwrap_or(previous);
        out.push_str(ending);
        previous = ending;
    }
    out
}

/// The line ending of a matched region: the majority inside it, else the
/// ending of the line it ends on, else of the line before it, else the
/// content's dominant one.
fn region_ending(body: &str, start: usize, end: usize) -> &'static str {
    let bytes = body.as_bytes();
    let is_crlf = |i: usize| i > 0 && bytes.get(i - 1) == Some(&b'\r');
    let (mut crlf, mut lf) = (0usize, 0usize);
    for (i, &b) in bytes.iter().enumerate().take(end).skip(start) {
        if b == b'\n' {
            if is_crlf(i) {
                crlf += 1;
            } else {
                lf += 1;
            }
        }
    }
    if crlf + lf > 0 {
        return if crlf >= lf { "\r\n" } else { "\n" };
    }
    if let Some(i) = body.get(end..).and_then(|r| r.find('\n')) {
        return if is_crlf(end + i) { "\r\n" } else { "\n" };
    }
    if let Some(i) = body.get(..start).and_then(|r| r.rfind('\n')) {
        return if is_crlf(i) { "\r\n" } else { "\n" };
    }
    crate::text::detect_line_ending(body).as_str()
}

/// Leading (trailing) line breaks of a text, counted.
fn leading_breaks(t: &str) -> usize {
    t.bytes().take_while(|&b| b == b'\n').count()
}

fn trailing_breaks(t: &str) -> usize {
    t.bytes().rev().take_while(|&b| b == b'\n').count()
}

/// A replacement never merges into a neighbouring non-empty line through a
/// line break that only the search had at its boundary: a search starting
/// with the line break that ends a non-empty line, or ending with the one
/// before a non-empty line, keeps that break in the file when the
/// replacement lacks it. (A break next to an empty line is the model's to
/// remove: that deletes a blank line.)
fn keep_boundary_breaks(
    body: &str,
    start: usize,
    end: usize,
    search_lf: &str,
    text: &str,
) -> (usize, usize) {
    let bytes = body.as_bytes();
    let break_len = |at: usize| -> usize {
        if body.get(at..).is_some_and(|r| r.starts_with("\r\n")) {
            2
        } else {
            usize::from(bytes.get(at) == Some(&b'\n'))
        }
    };
    let (mut s, mut e) = (start, end);
    let mid_line = s > 0 && bytes.get(s - 1) != Some(&b'\n');
    if leading_breaks(search_lf) > leading_breaks(text) && mid_line {
        s += break_len(s);
    }
    let before_break = if body.get(..e).is_some_and(|b| b.ends_with("\r\n")) {
        2
    } else {
        usize::from(e > 0 && bytes.get(e - 1) == Some(&b'\n'))
    };
    let next_line_text = e < body.len() && break_len(e) == 0;
    if trailing_breaks(search_lf) > trailing_breaks(text)
        && before_break > 0
        && next_line_text
        && e - before_break >= s
    {
        e -= before_break;
    }
    (s, e)
}

/// A deletion of whole lines takes one line break with it: the one after
/// the span, or before it on a last line without an ending.
fn whole_line_deletion(body: &str, start: usize, end: usize) -> (usize, usize) {
    let bytes = body.as_bytes();
    let at_line_start = start == 0 || bytes.get(start - 1) == Some(&b'\n');
    if !at_line_start || end <= start || bytes.get(end - 1) == Some(&b'\n') {
        return (start, end);
    }
    if body.get(end..).is_some_and(|r| r.starts_with("\r\n")) {
        return (start, end + 2);
    }
    if bytes.get(end) == Some(&b'\n') {
        return (start, end + 1);
    }
    if end == body.len() {
        if start >= 2 && body.get(start - 2..start) == Some("\r\n") {
            return (start - 2, end);
        }
        if start >= 1 && bytes.get(start - 1) == Some(&b'\n') {
            return (start - 1, end);
        }
    }
    (start, end)
}

/// Results for candidates: UTF-16 offsets (shifted by the BOM), 1-based
/// lines, original text.
fn matches(body: &str, bom_units: usize, strategy: Strategy, cands: &[Candidate]) -> Vec<Match> {
    let line_start = |at: usize| {
        body.get(..at)
            .and_then(|b| b.rfind('\n'))
            .map_or(0, |i| i + 1)
    };
    let mut points = Vec::with_capacity(cands.len() * 4);
    for c in cands {
        points.extend([
            c.start,
            c.end,
            c.end.saturating_sub(1).max(c.start),
            line_start(c.start),
        ]);
    }
    let pos = Positions::new(body, points);
    let u32_of = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
    cands
        .iter()
        .map(|c| {
            let (line, start16) = pos.get(c.start);
            let (_, end16) = pos.get(c.end);
            let (last, _) = pos.get(c.end.saturating_sub(1).max(c.start));
            let (_, line16) = pos.get(line_start(c.start));
            Match {
                strategy,
                start: u32_of(start16 + bom_units),
                end: u32_of(end16 + bom_units),
                start_line: u32_of(line + 1),
                end_line: u32_of(last + 1),
                start_column: u32_of(start16 - line16 + 1),
                text: body.get(c.start..c.end).unwrap_or("").to_string(),
                score: c.score,
                byte_start: c.start + bom_units * BOM.len(),
            }
        })
        .collect()
}

/// The places of `found` for messages and details: lines, and the column
/// where another place starts on the same line.
fn ranges(found: &[Match]) -> Vec<Place> {
    found
        .iter()
        .map(|m| {
            let shared = found
                .iter()
                .filter(|o| o.start_line == m.start_line)
                .count()
                > 1;
            (m.start_line, m.end_line, shared.then_some(m.start_column))
        })
        .collect()
}

/// The matcher's refusal of `problem`: the message and next steps in
/// `lang`, the problem's details. Every matcher error is built here.
pub(crate) fn refuse(lang: Lang, problem: Problem) -> Error {
    let (message, steps) = words(&problem, lang);
    let mut error = Error::new(problem.code(), message);
    *error.details = problem.details();
    error.details.suggestions = steps;
    error
}

/// The message and the next steps of `problem` in `lang`, for a caller
/// that builds its own refusal around a matcher's problem (the block-diff
/// check).
pub(crate) fn words(problem: &Problem, lang: Lang) -> (String, Vec<String>) {
    (
        messages::render(problem, lang),
        messages::next_steps(problem, lang),
    )
}

impl FindResult {
    /// Records why `found` is false: the problem's code and its words.
    fn note(&mut self, lang: Lang, problem: Problem) {
        self.code = Some(problem.code());
        self.message = Some(messages::render(&problem, lang));
    }
}

#[cfg(test)]
mod tests;

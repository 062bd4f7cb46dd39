//! Applying a plan to the file's current content (SPEC §7).
//!
//! The plan remembers its *core* (the lines it replaces, or the anchor
//! line(s) it inserts next to), up to three context lines on each side,
//! and whether the file's start or end was part of that context.
//! Relocation, in order (SPEC §7):
//!
//! 1. **exact** — the file is byte for byte the one the plan was made on,
//!    or the core and every context element are where the plan saw them
//!    and the window stands nowhere else;
//! 2. **fuzz** — the plan's whole window (its context lines before, the
//!    core, its context lines after), in order, at exactly one other
//!    place: as written (KMP over lines, linear), or else under the
//!    matcher's safe strategies ([`relocate_with_safe_strategies`]: trailing
//!    or inner whitespace, line endings, typographic characters, a
//!    uniformly changed indentation — then the new text is re-indented
//!    the same way);
//! 3. **rejected** — `AMBIGUOUS_MATCH` when the window stands at several
//!    places, shifted or not (all listed), `CONTENT_CHANGED` when it
//!    stands nowhere; a place with only some of the context, or the core
//!    alone somewhere else, is never taken. Nothing is changed.
//!
//! A core at the very start or end of the file has context on one side
//! only; the window is then that context and the core, and the same rule
//! holds for it. A core with no context line on either side (the whole
//! file) is confirmed by the file's edges alone: once the file changed it
//! is taken only where it is still the whole file ([`locate_by_edges`]),
//! else rejected (`CONTENT_CHANGED`) — never by its lines found elsewhere.
//!
//! Appends are exact when the file is byte-for-byte what the plan saw
//! (length and FNV-1a digest, and existence), fuzz otherwise (the text goes
//! to the current end). Cost: O(file) per apply.

use super::doc::{digest_string, find_all, fnv1a64, new_text_lines, splice, Doc, Spliced};
use super::messages as msg;
use super::prepare::{counts, previews, tail_after};
use super::problem::{Problem, WhileDoing};
use super::registry::{Hunk, HunkInfo, LinesEdit, PlannedEdit};
use super::render::{self, refuse, Ctx};
use super::types::*;
use super::yaml::preview_block;
use crate::error::{LineRange, Result};

/// Lines shown before/after the change in apply evidence.
const PREVIEW_CONTEXT: usize = 2;

/// A location found by a safe strategy of the matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SafeMatch {
    /// 0-based first line of the located core.
    pub core_start: usize,
    /// Lines the located core spans (must equal the planned core's).
    pub core_len: usize,
    /// The planned new text re-expressed at the file's indentation, when
    /// the window was found re-indented (`None`: written as planned).
    pub new_text: Option<String>,
}

/// What the matcher's safe strategies found for the plan's window.
pub(crate) enum Relocated {
    At(SafeMatch),
    /// The window at several places: 0-based core starts.
    Several(Vec<usize>),
    Nowhere,
}

/// Relocates a plan whose window (context before, core, context after) is
/// not in the file as written with the matcher's *safe* strategies (SPEC
/// §6.1): the same lines, reformatted by a formatter or an editor
/// (trailing spaces, inner spacing, line endings, typographic characters,
/// a uniformly changed indentation), found at exactly one place.
///
/// Accepted only when the match covers whole lines, as many as the
/// window. Strategies that leave indentation alone keep the planned new
/// text as planned; a re-indented window (the `indentation` strategy) has
/// the new text re-indented the same way by the matcher's own
/// re-expression ([`reindented_new_text`]), and is rejected when that is
/// not well defined. Matches found by forgiving escapes or the search's
/// boundaries are never taken: the window is whole lines of the file the
/// plan was made on, not a model's retyping of them.
pub(crate) fn relocate_with_safe_strategies(
    lines: &[&str],
    edit: &LinesEdit,
    new_text: &str,
) -> Relocated {
    use crate::error::ErrorCode as Code;
    use crate::matcher::{find_match, MatchMode, MatchOptions};
    if edit.twin_when_folded {
        // Reformatted, the window stood at two places of the planned-on
        // file: a reformatted one found now may be the other.
        return Relocated::Nowhere;
    }
    let window: Vec<&str> = edit
        .before
        .iter()
        .chain(&edit.core)
        .chain(&edit.after)
        .map(String::as_str)
        .collect();
    let search = window.join("\n");
    if edit.core.join("\n").trim().is_empty() {
        return Relocated::Nowhere;
    }
    let content = lines.join("\n");
    let Ok(found) = find_match(
        &content,
        &search,
        &MatchOptions {
            mode: MatchMode::Safe,
            ..MatchOptions::default()
        },
    ) else {
        return Relocated::Nowhere;
    };
    if found.code == Some(Code::Ambiguous) {
        return Relocated::Several(
            found
                .matches
                .iter()
                .filter_map(|m| {
                    let (start, len) = span_of(m)?;
                    let at = window_start(lines, start, len, &window).unwrap_or(start);
                    Some(at + edit.before.len())
                })
                .collect(),
        );
    }
    match found.matches.as_slice() {
        [m] if found.found => accept_safe_match(lines, m, &window, edit, new_text)
            .map_or(Relocated::Nowhere, Relocated::At),
        _ => Relocated::Nowhere,
    }
}

/// 0-based first line and line count of a match.
fn span_of(m: &crate::matcher::Match) -> Option<(usize, usize)> {
    let start = usize::try_from(m.start_line).ok()?.checked_sub(1)?;
    let len = usize::try_from(m.end_line.checked_sub(m.start_line)?).ok()? + 1;
    Some((start, len))
}

/// The one safe match `m` of the window, taken when its strategy keeps the
/// lines whole (or re-indents them all alike, the new text re-indented the
/// same way) and it covers whole lines.
fn accept_safe_match(
    lines: &[&str],
    m: &crate::matcher::Match,
    window: &[&str],
    edit: &LinesEdit,
    new_text: &str,
) -> Option<SafeMatch> {
    use crate::matcher::Strategy;
    let keeps_indentation = matches!(
        m.strategy,
        Strategy::LineEndings
            | Strategy::TrailingWhitespace
            | Strategy::WhitespaceNormalized
            | Strategy::UnicodeNormalized
    );
    let reindented = m.strategy == Strategy::Indentation;
    let (start, len) = span_of(m)?;
    let matched = lines.get(start..start.checked_add(len)?)?;
    let whole_lines = matched.join("\n").trim() == m.text.trim();
    if !((keeps_indentation || reindented) && whole_lines) {
        return None;
    }
    let at = window_start(lines, start, len, window)?;
    let region = lines.get(at..at.checked_add(window.len())?)?;
    let new_text = if reindented {
        Some(reindented_new_text(region, window, edit, new_text)?)
    } else {
        None
    };
    Some(SafeMatch {
        core_start: at + edit.before.len(),
        core_len: edit.core.len(),
        new_text,
    })
}

/// The 0-based first line of the plan's whole `window` around a match the
/// matcher found at lines `start..start + len`. The matcher leaves blank
/// lines at the edges of a search out of its match, so the window's own
/// blank edge lines are looked for right next to it (blank in the file
/// too). `None` when they are not there, or fit more than one way: then
/// the window is not at this place.
fn window_start(lines: &[&str], start: usize, len: usize, window: &[&str]) -> Option<usize> {
    let blank = |l: &&str| l.trim().is_empty();
    let lead = window.iter().take_while(|l| blank(l)).count();
    let trail = window.iter().rev().take_while(|l| blank(l)).count();
    let missing = window.len().checked_sub(len)?;
    let end = start.checked_add(len)?;
    let mut fits = (0..=lead.min(missing)).filter(|&d| {
        let e = missing - d;
        e <= trail
            && d <= start
            && end + e <= lines.len()
            && lines[start - d..start].iter().all(blank)
            && lines[end..end + e].iter().all(blank)
    });
    let d = fits.next()?;
    fits.next().is_none().then(|| start - d)
}

/// The planned new text at the indentation of `region`, the file's lines
/// where the plan's `window` was found re-indented: the matcher replaces
/// the window, inside those lines alone, by the planned window (the kept
/// lines, the new text in place of the deleted ones) and re-indents the
/// new lines by the same change (SPEC §6.1, `indentation`). `None` when
/// the matcher does not find it that way, cannot map the indentation, or
/// would touch a kept line: the plan is then rejected, never guessed.
fn reindented_new_text(
    region: &[&str],
    window: &[&str],
    edit: &LinesEdit,
    new_text: &str,
) -> Option<String> {
    use crate::error::ErrorCode as Code;
    use crate::matcher::{replace_text, MatchMode, MatchOptions, Strategy};
    let cut = edit.before.len() + edit.del_offset;
    let cut_end = cut.checked_add(edit.del_count)?;
    let new_lines = new_text_lines(new_text);
    let planned: Vec<&str> = window
        .get(..cut)?
        .iter()
        .chain(&new_lines)
        .chain(window.get(cut_end..)?)
        .copied()
        .collect();
    let written: Vec<String> = match replace_text(
        &format!("{}\n", region.join("\n")),
        &window.join("\n"),
        &planned.join("\n"),
        &MatchOptions {
            mode: MatchMode::Safe,
            ..MatchOptions::default()
        },
    ) {
        Ok(r) if r.strategy == Strategy::Indentation && r.occurrences == 1 => {
            let out: Vec<&str> = match r.content.strip_suffix('\n') {
                _ if r.content.is_empty() => Vec::new(),
                Some(body) => body.split('\n').collect(),
                None => return None,
            };
            let kept_after = window.len() - cut_end;
            let new_end = cut.checked_add(new_lines.len())?;
            let kept = out.len() == new_end + kept_after
                && out.get(..cut)? == region.get(..cut)?
                && out.get(new_end..)? == region.get(cut_end..)?;
            if !kept {
                return None;
            }
            out.get(cut..new_end)?
                .iter()
                .map(|l| l.to_string())
                .collect()
        }
        // The planned lines are the ones they replace: the file's own.
        Err(e) if e.code == Code::NoChange => region
            .get(cut..cut_end)?
            .iter()
            .map(|l| l.to_string())
            .collect(),
        _ => return None,
    };
    let mut text = written.join("\n");
    if new_text.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

enum Located {
    At {
        core_start: usize,
        by: LocatedBy,
        context_matched: usize,
        candidates: usize,
        /// The new text to write when it is not the planned one (a
        /// re-indented window).
        new_text: Option<String>,
    },
    Rejected {
        reason: RejectReason,
        candidates: Vec<usize>,
        context_matched: usize,
    },
}

fn matches_at(lines: &[&str], at: usize, core: &[String]) -> bool {
    at.checked_add(core.len())
        .is_some_and(|end| end <= lines.len())
        && lines[at..at + core.len()]
            .iter()
            .zip(core)
            .all(|(a, b)| *a == b.as_str())
}

/// Context elements (lines, file edges) that agree when the core starts at
/// `at`.
fn context_score(lines: &[&str], at: usize, e: &LinesEdit) -> usize {
    let line_is = |index: Option<usize>, want: &str| {
        index.and_then(|i| lines.get(i)).is_some_and(|l| *l == want)
    };
    let n = e.before.len();
    let mut score = 0;
    for (i, want) in e.before.iter().enumerate() {
        score += usize::from(line_is((at + i).checked_sub(n), want));
    }
    let after_start = at + e.core.len();
    for (i, want) in e.after.iter().enumerate() {
        score += usize::from(line_is(Some(after_start + i), want));
    }
    score += usize::from(e.bof && at == n);
    score += usize::from(e.eof && after_start + e.after.len() == lines.len());
    score
}

/// Where the plan's window — its context lines before, its core, its
/// context lines after — stands in `lines` (SPEC §7):
///
/// 1. **exact**: the file is byte for byte the one the plan was made on
///    (`unchanged`), or the window stands at the planned position, every
///    context element (file edges included) agreeing, and nowhere else;
/// 2. **fuzz**: the whole window, in order, at exactly one other place —
///    as written, or else under the matcher's safe strategies;
/// 3. **rejected**: the window at several places, shifted or not
///    (`AMBIGUOUS_MATCH`, every place listed), or nowhere
///    (`CONTENT_CHANGED`). A place holding only some of the context, or
///    the core alone, is not the plan's place.
fn locate(lines: &[&str], e: &LinesEdit, new_text: &str, unchanged: bool) -> Located {
    let total = e.context_total();
    let core: Vec<&str> = e.core.iter().map(String::as_str).collect();
    let candidates = find_all(lines, &core);
    let intact =
        matches_at(lines, e.core_start, &e.core) && context_score(lines, e.core_start, e) == total;
    let exact = || Located::At {
        core_start: e.core_start,
        by: LocatedBy::PlannedPosition,
        context_matched: total,
        candidates: candidates.len(),
        new_text: None,
    };
    if unchanged && intact {
        // The plan's own content: its line numbers hold, even where its
        // window was never unique.
        return exact();
    }
    if e.before.is_empty() && e.after.is_empty() {
        // No context line on either side (the span is the whole file):
        // only the file's edges can confirm a place, and the core alone
        // somewhere else is never taken.
        return locate_by_edges(lines, e, new_text, &candidates, intact);
    }
    let window: Vec<&str> = e
        .before
        .iter()
        .chain(&e.core)
        .chain(&e.after)
        .map(String::as_str)
        .collect();
    let places: Vec<usize> = find_all(lines, &window)
        .into_iter()
        .map(|w| w + e.before.len())
        .collect();
    match places.as_slice() {
        // `intact` puts the window at the planned position, so the one
        // place is that one.
        [_] if intact => return exact(),
        // The window stood at two places of the planned-on file: the one
        // left may be the other.
        [_] if e.twin_as_written => {
            return Located::Rejected {
                reason: RejectReason::ContentChanged,
                context_matched: e.before.len() + e.after.len(),
                candidates: Vec::new(),
            }
        }
        [at] => {
            return Located::At {
                core_start: *at,
                by: LocatedBy::LinesAndContext,
                context_matched: context_score(lines, *at, e),
                candidates: candidates.len(),
                new_text: None,
            }
        }
        [] => {}
        _ => {
            return Located::Rejected {
                reason: RejectReason::AmbiguousMatch,
                context_matched: e.before.len() + e.after.len(),
                candidates: places,
            }
        }
    }
    located_by_safe_strategies(lines, e, new_text, &candidates)
}

/// Step 2 of [`locate`] for a window not found as written: under the
/// matcher's safe strategies, at exactly one place, or rejected.
/// `candidates` are the places of the core alone, for the evidence.
fn located_by_safe_strategies(
    lines: &[&str],
    e: &LinesEdit,
    new_text: &str,
    candidates: &[usize],
) -> Located {
    match relocate_with_safe_strategies(lines, e, new_text) {
        Relocated::At(found) => Located::At {
            core_start: found.core_start,
            by: LocatedBy::SafeStrategy,
            context_matched: context_score(lines, found.core_start, e),
            candidates: 1,
            new_text: found.new_text,
        },
        Relocated::Several(places) => Located::Rejected {
            reason: RejectReason::AmbiguousMatch,
            context_matched: e.before.len() + e.after.len(),
            candidates: places,
        },
        Relocated::Nowhere => Located::Rejected {
            reason: RejectReason::ContentChanged,
            candidates: Vec::new(),
            context_matched: candidates
                .iter()
                .map(|&c| context_score(lines, c, e))
                .max()
                .unwrap_or(0),
        },
    }
}

/// [`locate`] for a plan with no context line on either side: its window is
/// the core and the file edges the plan recorded (the core started at the
/// file's start, ended at its end). The core must stand there — as
/// written (`exact`: the same lines, other bytes such as line endings),
/// or under the matcher's safe strategies (`fuzz`) — or the plan is
/// `rejected` (`CONTENT_CHANGED`), wherever else its lines stand. A plan
/// that recorded no edge has nothing to confirm any place with.
fn locate_by_edges(
    lines: &[&str],
    e: &LinesEdit,
    new_text: &str,
    candidates: &[usize],
    intact: bool,
) -> Located {
    let total = e.context_total();
    let anchored = |at: usize, len: usize| {
        (e.bof || e.eof)
            && (!e.bof || at == 0)
            && (!e.eof || at.checked_add(len) == Some(lines.len()))
    };
    if intact && anchored(e.core_start, e.core.len()) {
        return Located::At {
            core_start: e.core_start,
            by: LocatedBy::PlannedPosition,
            context_matched: total,
            candidates: candidates.len(),
            new_text: None,
        };
    }
    if let Relocated::At(found) = relocate_with_safe_strategies(lines, e, new_text) {
        if anchored(found.core_start, found.core_len) {
            return Located::At {
                core_start: found.core_start,
                by: LocatedBy::SafeStrategy,
                context_matched: context_score(lines, found.core_start, e),
                candidates: 1,
                new_text: found.new_text,
            };
        }
    }
    Located::Rejected {
        reason: RejectReason::ContentChanged,
        candidates: Vec::new(),
        context_matched: candidates
            .iter()
            .map(|&c| context_score(lines, c, e))
            .max()
            .unwrap_or(0),
    }
}

/// Where an apply changed the file: lines `at..at + old` of the content it
/// was given became lines `at..at + new` of the result (the splice's own
/// range, not a diff of the two texts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SplicedRange {
    pub at: usize,
    pub old: usize,
    pub new: usize,
}

impl SplicedRange {
    fn of(s: &Spliced) -> Self {
        SplicedRange {
            at: s.at,
            old: s.old_line_count,
            new: s.new_line_count,
        }
    }
}

/// Carries plans over an apply that turned `before` into `after` by the
/// one splice `change`. The caller passes the plans to carry: the same
/// session's (the registry is per session), for the same file, by the
/// owner whose apply it was — another owner never saw this change, so its
/// plans keep their own context and relocate by the normal rule.
///
/// A plan made on `before` whose planned lines lie wholly outside the
/// replaced lines now sees `after`: its position moves by the splice (kept
/// above it, shifted by the splice's line delta below it) and its context
/// lines are re-read there, so plans made from one read apply one after
/// the other even when one's context holds lines another changed. The
/// mapping comes from the splice's exact range, never from comparing the
/// two texts (which misplaces plans among repeated lines). A plan whose
/// planned lines the splice touched is left alone (it is rejected: the two
/// conflict), and so is one made on other content; and when `after` is
/// not `before` with that range spliced, no plan is moved at all.
pub(crate) fn rebase<'h>(
    hunks: impl Iterator<Item = &'h mut Hunk>,
    before: &str,
    after: &str,
    change: SplicedRange,
) {
    let digest = fnv1a64(before.as_bytes());
    let (old, new) = (Doc::new(before), Doc::new(after));
    let (old_lines, new_lines) = (old.texts(), new.texts());
    let SplicedRange {
        at,
        old: removed,
        new: added,
    } = change;
    let old_end = at.saturating_add(removed);
    let new_end = at.saturating_add(added);
    let consistent = old_end <= old_lines.len()
        && new_end <= new_lines.len()
        && old_lines.len() - removed == new_lines.len() - added
        && old_lines[..at] == new_lines[..at]
        && old_lines[old_end..] == new_lines[new_end..];
    if !consistent {
        return;
    }
    for hunk in hunks {
        if hunk.base.digest != digest || hunk.base.bytes != before.len() {
            continue;
        }
        let moved = match &hunk.edit {
            PlannedEdit::Lines(e) => {
                let end = e.core_start + e.core.len();
                let start = if end <= at {
                    e.core_start
                } else if e.core_start >= old_end {
                    e.core_start - removed + added
                } else {
                    continue;
                };
                PlannedEdit::Lines(super::prepare::lines_edit(
                    &new_lines,
                    start,
                    e.core.len(),
                    e.del_offset,
                    e.del_count,
                ))
            }
            PlannedEdit::Append { create } => PlannedEdit::Append { create: *create },
            PlannedEdit::EmptyFile => continue,
        };
        hunk.edit = moved;
        hunk.base = super::prepare::base(after, true, &new);
    }
}

/// What an apply returns: the result, and the range the splice replaced
/// (`None` when rejected), for [`rebase`].
type Applied = (FileApplyResult, Option<SplicedRange>);

/// Applies `hunk` to `current` (`None`: the file does not exist). `Err`
/// only for refusals (`FILE_NOT_FOUND`); a rejection is an `Ok` result.
/// With the result comes the range the splice replaced (`None` when
/// rejected), for [`rebase`].
pub(crate) fn apply_hunk(hunk: &Hunk, current: Option<&str>, lang: crate::Lang) -> Result<Applied> {
    let ctx = Ctx {
        mode: APPLY_MODE,
        path: &hunk.path,
        lang,
    };
    let missing = || {
        refuse(
            &ctx,
            Problem::FileNotFound {
                path: hunk.path.clone(),
                doing: WhileDoing::Applying,
            },
            |y| {
                y.str("hunk_id", &hunk.id);
            },
        )
    };
    match &hunk.edit {
        PlannedEdit::Append { create } => {
            let (content, exists) = match current {
                Some(c) => (c, true),
                None if *create => ("", false),
                None => return Err(missing()),
            };
            Ok(apply_append(hunk, content, exists, lang))
        }
        PlannedEdit::EmptyFile => {
            let content = current.ok_or_else(missing)?;
            Ok(apply_to_empty_file(hunk, content, lang))
        }
        PlannedEdit::Lines(e) => {
            let content = current.ok_or_else(missing)?;
            Ok(apply_lines(hunk, e, content, lang))
        }
    }
}

/// An append lands at the end of the file as it is now (`exact` when the
/// file is the planned-on one, else `fuzz`); `exists: false` creates it.
fn apply_append(hunk: &Hunk, content: &str, exists: bool, lang: crate::Lang) -> Applied {
    let unchanged = exists == hunk.base.existed
        && content.len() == hunk.base.bytes
        && fnv1a64(content.as_bytes()) == hunk.base.digest;
    let doc = Doc::new(content);
    let s = splice(&doc, doc.len(), 0, &hunk.new_text, &hunk.path);
    let (matched, context_match) = if unchanged {
        (1, ContextMatch::Exact)
    } else {
        (0, ContextMatch::Fuzz)
    };
    let texts = doc.texts();
    let new_lines = new_text_lines(&hunk.new_text);
    let evidence = ApplyEvidence {
        planned_at_line: to_u32(hunk.base.line_count + 1),
        applied_at_line: Some(to_u32(doc.len() + 1)),
        line_shift: Some(delta(doc.len(), hunk.base.line_count)),
        located_by: Some(LocatedBy::EndOfFile),
        candidates_count: 0,
        candidates: Vec::new(),
        context_matched: matched,
        context_total: 1,
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: previews(&doc, doc.len().saturating_sub(PREVIEW_CONTEXT), doc.len()),
        after_preview: tail_after(&texts, &new_lines),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    };
    let mut result = applied(hunk, content, &s, context_match, evidence);
    result.creates_file = !exists;
    let start = to_u32(doc.len() + 1);
    result.append_range = Some(Span {
        start,
        end: start
            .saturating_add(to_u32(s.new_line_count))
            .saturating_sub(1),
    });
    (finish(result, lang), Some(SplicedRange::of(&s)))
}

/// A plan made on an empty file applies only while the file is still the
/// planned-on one: an empty file has no context to relocate by.
fn apply_to_empty_file(hunk: &Hunk, content: &str, lang: crate::Lang) -> Applied {
    let doc = Doc::new(content);
    if content.len() != hunk.base.bytes || fnv1a64(content.as_bytes()) != hunk.base.digest {
        let evidence = rejected_evidence(
            content,
            1,
            Vec::new(),
            previews(&doc, 0, PREVIEW_CONTEXT),
            0,
            1,
        );
        let result = rejected(hunk, content, RejectReason::ContentChanged, evidence);
        return (finish(result, lang), None);
    }
    let s = splice(&doc, 0, 0, &hunk.new_text, &hunk.path);
    let evidence = ApplyEvidence {
        planned_at_line: 1,
        applied_at_line: Some(1),
        line_shift: Some(0),
        located_by: Some(LocatedBy::PlannedPosition),
        candidates_count: 1,
        candidates: Vec::new(),
        context_matched: 1,
        context_total: 1,
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: Vec::new(),
        after_preview: Vec::new(),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    };
    let result = applied(hunk, content, &s, ContextMatch::Exact, evidence);
    (
        finish(with_lines_details(result, hunk, &s, 0), lang),
        Some(SplicedRange::of(&s)),
    )
}

/// A lines plan: located by its window ([`locate`]), then spliced there
/// or rejected with the evidence.
fn apply_lines(hunk: &Hunk, e: &LinesEdit, content: &str, lang: crate::Lang) -> Applied {
    let doc = Doc::new(content);
    let lines = doc.texts();
    let unchanged = hunk.base.existed
        && content.len() == hunk.base.bytes
        && fnv1a64(content.as_bytes()) == hunk.base.digest;
    match locate(&lines, e, &hunk.new_text, unchanged) {
        Located::Rejected {
            reason,
            candidates,
            context_matched,
        } => {
            let evidence = lines_rejected_evidence(&doc, e, content, &candidates, context_matched);
            (
                finish(rejected(hunk, content, reason, evidence), lang),
                None,
            )
        }
        Located::At {
            core_start,
            by,
            context_matched,
            candidates,
            new_text,
        } => {
            let del_start = core_start + e.del_offset;
            let new_text = new_text.as_deref().unwrap_or(&hunk.new_text);
            let s = splice(&doc, del_start, e.del_count, new_text, &hunk.path);
            let context_match = if by == LocatedBy::PlannedPosition {
                ContextMatch::Exact
            } else {
                ContextMatch::Fuzz
            };
            let found = Found {
                del_start,
                by,
                context_matched,
                candidates,
            };
            let evidence = lines_applied_evidence(&doc, e, content, &s, &found);
            let result = applied(hunk, content, &s, context_match, evidence);
            (
                finish(with_lines_details(result, hunk, &s, core_start), lang),
                Some(SplicedRange::of(&s)),
            )
        }
    }
}

/// Where [`locate`] put a lines plan, for its evidence.
struct Found {
    del_start: usize,
    by: LocatedBy,
    context_matched: usize,
    candidates: usize,
}

fn lines_applied_evidence(
    doc: &Doc<'_>,
    e: &LinesEdit,
    content: &str,
    s: &Spliced,
    found: &Found,
) -> ApplyEvidence {
    let planned_at = e.core_start + e.del_offset;
    let del_start = found.del_start;
    let del_end = del_start + s.old_line_count;
    ApplyEvidence {
        planned_at_line: to_u32(planned_at + 1),
        applied_at_line: Some(to_u32(del_start + 1)),
        line_shift: Some(delta(del_start, planned_at)),
        located_by: Some(found.by),
        candidates_count: to_u32(found.candidates),
        candidates: Vec::new(),
        context_matched: to_u32(found.context_matched),
        context_total: to_u32(e.context_total()),
        file_digest_before: digest_string(content),
        file_digest_after: digest_string(&s.content),
        before_preview: previews(doc, del_start.saturating_sub(PREVIEW_CONTEXT), del_start),
        after_preview: previews(doc, del_end, del_end + PREVIEW_CONTEXT),
        expected_preview: Vec::new(),
        actual_preview: Vec::new(),
    }
}

fn lines_rejected_evidence(
    doc: &Doc<'_>,
    e: &LinesEdit,
    content: &str,
    candidates: &[usize],
    context_matched: usize,
) -> ApplyEvidence {
    let planned_at = e.core_start + e.del_offset;
    let ranges: Vec<LineRange> = candidates
        .iter()
        .take(super::anchor::MAX_LISTED_CANDIDATES)
        .map(|&c| LineRange::new(to_u32(c + 1), to_u32(c + e.core.len())))
        .collect();
    let mut evidence = rejected_evidence(
        content,
        planned_at + 1,
        ranges,
        previews(doc, e.core_start, e.core_start + e.core.len()),
        context_matched,
        e.context_total(),
    );
    evidence.expected_preview = preview_block(&e.core);
    evidence.actual_preview = preview_block(&doc.slice(e.core_start, e.core_start + e.core.len()));
    evidence.candidates_count = to_u32(candidates.len());
    evidence
}

fn rejected_evidence(
    content: &str,
    planned_at_line: usize,
    candidates: Vec<LineRange>,
    actual: Vec<String>,
    context_matched: usize,
    context_total: usize,
) -> ApplyEvidence {
    let digest = digest_string(content);
    ApplyEvidence {
        planned_at_line: to_u32(planned_at_line),
        applied_at_line: None,
        line_shift: None,
        located_by: None,
        candidates_count: to_u32(candidates.len()),
        candidates,
        context_matched: to_u32(context_matched),
        context_total: to_u32(context_total),
        file_digest_before: digest.clone(),
        file_digest_after: digest,
        before_preview: Vec::new(),
        after_preview: Vec::new(),
        expected_preview: Vec::new(),
        actual_preview: actual,
    }
}

fn base_result(hunk: &Hunk, content: String, evidence: ApplyEvidence) -> FileApplyResult {
    FileApplyResult {
        status: "ok",
        mode: APPLY_MODE,
        path: hunk.path.clone(),
        hunk_id: hunk.id.clone(),
        action: hunk.action,
        context_match: ContextMatch::Exact,
        reason: None,
        changed: false,
        content,
        creates_file: false,
        lines: None,
        normalized: None,
        applied_range: None,
        append_range: None,
        insert: None,
        block_replace: None,
        evidence,
        summary: String::new(),
        yaml: String::new(),
        diff: String::new(),
        text: String::new(),
    }
}

fn rejected(
    hunk: &Hunk,
    content: &str,
    reason: RejectReason,
    evidence: ApplyEvidence,
) -> FileApplyResult {
    let mut r = base_result(hunk, content.to_string(), evidence);
    r.status = "rejected";
    r.context_match = ContextMatch::Rejected;
    r.reason = Some(reason);
    r
}

fn applied(
    hunk: &Hunk,
    before: &str,
    s: &Spliced,
    context_match: ContextMatch,
    evidence: ApplyEvidence,
) -> FileApplyResult {
    let mut r = base_result(hunk, s.content.clone(), evidence);
    r.context_match = context_match;
    r.changed = s.content != before;
    r.lines = Some(counts(s));
    r.normalized = Some(s.normalized);
    r.diff = s.diff.clone();
    r
}

/// Fills the per-action location fields of a located-lines apply.
fn with_lines_details(
    mut r: FileApplyResult,
    hunk: &Hunk,
    s: &Spliced,
    core_start: usize,
) -> FileApplyResult {
    let at = to_u32(s.at + 1);
    match &hunk.info {
        HunkInfo::Range | HunkInfo::Append => {
            // An empty file's one (empty) line counts as the replaced line.
            let end = if s.old_line_count == 0 {
                at
            } else {
                to_u32(s.at + s.old_line_count)
            };
            r.applied_range = Some(Span { start: at, end });
        }
        HunkInfo::Insert { position, anchor } => {
            r.insert = Some(ApplyInsert {
                position: *position,
                anchor: anchor.clone(),
                inserted_at_line: at,
                inserted_line_count: to_u32(s.new_line_count),
            });
        }
        HunkInfo::Block => {
            let core_len = match &hunk.edit {
                PlannedEdit::Lines(e) => e.core.len(),
                _ => 0,
            };
            r.block_replace = Some(ApplyBlock {
                block_range: Span {
                    start: to_u32(core_start + 1),
                    end: to_u32(core_start + core_len),
                },
                replace_slice: ReplaceSlice {
                    start_line: at,
                    delete_count: to_u32(s.old_line_count),
                },
            });
        }
    }
    r
}

/// Summary, YAML and agent text.
fn finish(mut r: FileApplyResult, lang: crate::Lang) -> FileApplyResult {
    r.summary = msg::apply_summary(lang, &r);
    r.yaml = render::apply_yaml(&r, lang);
    r.text = super::yaml::agent_text(&r.yaml, &r.diff);
    r
}

//! Relocation under the matcher's safe strategies (SPEC §6.1, §7 step 2):
//! a plan's window not found as written is looked for reformatted — the
//! same lines after a formatter or an editor — and taken only at exactly
//! one place, as whole lines; a re-indented window has the planned new
//! text re-indented the same way by the matcher's own re-expression.
//!
//! Kept apart from `locate.rs` because it is the one stage that calls into
//! the matcher (`find_match`, `replace_text`) and translates its matches
//! (1-based lines, blank edge lines left out) back into the plan's window.

use crate::planner::doc::new_text_lines;
use crate::planner::registry::LinesEdit;

/// A location found by a safe strategy of the matcher.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SafeMatch {
    /// 0-based first line of the located core.
    pub core_start: usize,
    /// Lines the located core spans (must equal the planned core's).
    pub core_len: usize,
    /// The planned new text re-expressed at the file's indentation, when
    /// the window was found re-indented (`None`: written as planned).
    pub new_text: Option<String>,
}

/// What the matcher's safe strategies found for the plan's window.
pub(super) enum Relocated {
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
pub(super) fn relocate_with_safe_strategies(
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

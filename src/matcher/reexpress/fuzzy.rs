//! The replacement for a fuzzy match ([`FuzzyPlan`]): the search's lines
//! paired with the file's (by position, else by alignment), a replacement
//! line equal to a search line written as the file line it stands for, and
//! any other re-indented by the shift its own pair implies, else the
//! nearest paired line's.
//!
//! Kept apart as one of the three plan writers (`trimmed`, `lines`,
//! `fuzzy`): each reads against its own strategy.

use super::{paired_lines, replacement_lines, shift_line};
use crate::matcher::content::Content;
use crate::matcher::fidelity::{lead_of, transplant};
use crate::matcher::indent::IndentMap;
use crate::matcher::normalize::{indent_of, is_blank, key, Level};
use crate::matcher::strategies::{Candidate, FuzzyPlan, Needle};
use crate::matcher::types::Unmappable;
use crate::text::{align_lines, LineLink};

/// The replacement for a fuzzy match: a line equal to a search line is the
/// file line that search line stands for; any other is re-indented by the
/// shift of its own pair, else of the nearest paired line.
pub(super) fn fuzzy(
    content: &Content<'_>,
    needle: &Needle,
    candidate: &Candidate,
    plan: &FuzzyPlan,
    r: &str,
) -> Result<String, Unmappable> {
    let (s_lines, f_lines) = paired_lines(content, needle, plan.first, plan.count);
    let s_keys: Vec<String> = s_lines.iter().map(|l| key(l, Level::Fold)).collect();
    let f_keys: Vec<String> = f_lines.iter().map(|l| key(l, Level::Fold)).collect();
    // A token span starting mid-line keeps the text before it: the first
    // replacement line continues that text as written.
    let mid_line =
        candidate.replace_start(content) > content.lines().get(plan.first).map_or(0, |l| l.start());

    let s_refs: Vec<&str> = s_keys.iter().map(String::as_str).collect();
    let f_refs: Vec<&str> = f_keys.iter().map(String::as_str).collect();
    let file_of = file_line_of(&s_refs, &f_refs);
    let shifts = implied_shifts(&s_lines, &f_lines, &file_of);

    let r_lines = replacement_lines(needle, r);
    let r_keys: Vec<String> = r_lines.iter().map(|l| key(l, Level::Fold)).collect();
    let r_refs: Vec<&str> = r_keys.iter().map(String::as_str).collect();
    let links = align_lines(&s_refs, &r_refs);
    // Shift in force for each replacement line: its own pair's, else the
    // nearest earlier one, else the nearest later one.
    let own: Vec<Option<&IndentMap>> = links
        .iter()
        .map(|link| match *link {
            LineLink::Equal(i) | LineLink::Changed(i) => shifts.get(i).and_then(Option::as_ref),
            LineLink::Inserted => None,
        })
        .collect();
    let fallback = shifts.iter().flatten().next();
    let skipped = skipped_file_lines(&links, &file_of);
    let mut out = Vec::with_capacity(r_lines.len());
    let mut last: Option<&IndentMap> = None;
    for (j, &line) in r_lines.iter().enumerate() {
        if let Some(range) = skipped.get(j).cloned().flatten() {
            out.extend(f_lines[range].iter().map(|l| l.to_string()));
        }
        if let Some(LineLink::Equal(i)) = links.get(j) {
            if let Some(f) = file_of.get(*i).and_then(|p| f_lines.get((*p)?)) {
                if !(j == 0 && mid_line) {
                    out.push(f.to_string());
                    last = own.get(j).copied().flatten().or(last);
                    continue;
                }
            }
        }
        if j == 0 && mid_line {
            out.push(line.trim_start().to_string());
            continue;
        }
        if is_blank(line) {
            out.push(String::new());
            continue;
        }
        let map = own
            .get(j)
            .copied()
            .flatten()
            .or(last)
            .or_else(|| own.iter().skip(j).flatten().next().copied())
            .or(fallback);
        last = own.get(j).copied().flatten().or(last);
        let shifted = match map {
            Some(m) => shift_line(line, m).ok_or(Unmappable::Indentation(j + 1))?,
            None => line.to_string(),
        };
        let merged = changed_pair(links.get(j), &s_lines, &f_lines, &file_of)
            .and_then(|(s, f)| merged_line(s, f, line, &shifted));
        out.push(merged.unwrap_or(shifted));
    }
    Ok(out.join("\n"))
}

/// The search line a changed replacement line stands for, and the file
/// line that search line stands for.
fn changed_pair<'s, 'f>(
    link: Option<&LineLink>,
    s_lines: &[&'s str],
    f_lines: &[&'f str],
    file_of: &[Option<usize>],
) -> Option<(&'s str, &'f str)> {
    let Some(LineLink::Changed(i)) = link else {
        return None;
    };
    let f = f_lines.get(file_of.get(*i).copied().flatten()?)?;
    Some((s_lines.get(*i)?, f))
}

/// A changed line in the file line's form wherever the model kept its
/// search line's text (`transplant`), indented as the file line when the
/// model kept the search line's indentation, else as `shifted`.
fn merged_line(s: &str, f: &str, line: &str, shifted: &str) -> Option<String> {
    let body = transplant(s, f, line)?;
    let indent = if indent_of(s) == indent_of(line) {
        lead_of(f)
    } else {
        indent_of(shifted)
    };
    Some(format!("{indent}{body}"))
}

/// File lines the search skipped between two of its lines that the
/// replacement keeps next to each other (a line the model left out of its
/// search, not out of the file): for each replacement line, the file lines
/// written before it. The model said nothing about them, so they stay.
fn skipped_file_lines(
    links: &[LineLink],
    file_of: &[Option<usize>],
) -> Vec<Option<std::ops::Range<usize>>> {
    let search_line = |link: Option<&LineLink>| match link {
        Some(LineLink::Equal(i) | LineLink::Changed(i)) => Some(*i),
        _ => None,
    };
    (0..links.len())
        .map(|j| {
            let i = search_line(links.get(j))?;
            let prev = search_line(links.get(j.checked_sub(1)?))?;
            let (a, b) = (file_of.get(prev).copied()??, file_of.get(i).copied()??);
            (prev + 1 == i && b > a + 1).then_some(a + 1..b)
        })
        .collect()
}

/// Which file line (0-based, in the window) each search line stands for,
/// given their fold keys: by position when the counts agree, else by
/// alignment.
fn file_line_of(s_keys: &[&str], f_keys: &[&str]) -> Vec<Option<usize>> {
    if s_keys.len() == f_keys.len() {
        return (0..s_keys.len()).map(Some).collect();
    }
    let mut file_of: Vec<Option<usize>> = vec![None; s_keys.len()];
    for (p, link) in align_lines(s_keys, f_keys).into_iter().enumerate() {
        if let LineLink::Equal(i) | LineLink::Changed(i) = link {
            if let Some(slot) = file_of.get_mut(i) {
                *slot = Some(p);
            }
        }
    }
    file_of
}

/// The indentation shift each search line implies with the file line it
/// stands for (`None` for a blank or unpaired line).
fn implied_shifts(
    s_lines: &[&str],
    f_lines: &[&str],
    file_of: &[Option<usize>],
) -> Vec<Option<IndentMap>> {
    s_lines
        .iter()
        .zip(file_of)
        .map(|(s, f)| {
            let f = f.and_then(|p| f_lines.get(p))?;
            if is_blank(s) || is_blank(f) {
                return None;
            }
            IndentMap::infer(&[(indent_of(s), indent_of(f))])
        })
        .collect()
}

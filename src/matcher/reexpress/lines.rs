//! The replacement for a line-by-line match ([`LinesPlan`]): a line equal
//! to a search line is the file's own; a changed line keeps the file's
//! bytes wherever it keeps the search's text; every other line is
//! re-indented (by the plan's indentation map, by columns when tabs and
//! spaces were converted unevenly, or relative to a first line copied from
//! its first non-blank character) and, after a folded match, written with
//! the region's quotes.
//!
//! Kept apart as one of the three plan writers (`trimmed`, `lines`,
//! `fuzzy`); the quotes it restyles with are `quotes.rs`.

use super::quotes::Quotes;
use super::spacing::SpacingSlips;
use super::{paired_lines, replacement_lines, shift_line};
use crate::matcher::content::Content;
use crate::matcher::fidelity::{keep_file_bytes, lead_of};
use crate::matcher::indent::IndentMap;
use crate::matcher::normalize::{indent_of, is_blank, key, Level};
use crate::matcher::strategies::{LinesPlan, Needle};
use crate::matcher::types::Unmappable;
use crate::text::{align_lines, LineLink};

/// The replacement for a line-by-line match ([`LinesPlan`]): lines equal to
/// a search line are the file's own, the others re-indented and, after a
/// folded match, written with the region's quotes.
pub(super) fn lines(
    content: &Content<'_>,
    needle: &Needle,
    plan: &LinesPlan,
    r: &str,
) -> Result<String, Unmappable> {
    let (s_lines, f_lines) = paired_lines(content, needle, plan.first, plan.count);
    let r_lines = replacement_lines(needle, r);
    let links = align_lines(&s_lines, &r_lines);
    // Does the replacement's first line stand where the search's first
    // line stood (so a missing first-line indentation applies to it)?
    let first_is_partial = plan.partial_first.is_some()
        && !matches!(links.first(), Some(LineLink::Equal(i) | LineLink::Changed(i)) if *i > 0);
    let cx = LinesCx {
        plan,
        s_lines: &s_lines,
        f_lines: &f_lines,
        links: &links,
        quotes: Quotes::of(plan.folded, &s_lines, &f_lines),
        first_is_partial,
        dedented_by: dedented_by(plan, &links, &s_lines, &r_lines),
        slips: SpacingSlips::of(&s_lines, &f_lines),
    };
    let mut out: Vec<String> = Vec::with_capacity(r_lines.len());
    for (j, (&line, &link)) in r_lines.iter().zip(&links).enumerate() {
        out.push(cx.write_line(j, line, link)?);
    }
    Ok(out.join("\n"))
}

/// With a search copied from its first non-blank character, the
/// replacement may be written the same way (later lines in the file's
/// columns) or dedented as a whole (every line relative to the first).
/// Lines it repeats with only their indentation changed decide; without
/// such evidence the search's way is assumed. `Some(f0)`: dedented by the
/// file's first-line indentation `f0`.
fn dedented_by<'p>(
    plan: &'p LinesPlan,
    links: &[LineLink],
    s_lines: &[&str],
    r_lines: &[&str],
) -> Option<&'p str> {
    plan.partial_first.as_deref().filter(|f0| {
        let evidence: Vec<bool> = links
            .iter()
            .zip(r_lines)
            .skip(1)
            .filter_map(|(link, r)| match *link {
                LineLink::Changed(i) if i > 0 => {
                    let s = s_lines.get(i)?;
                    (key(s, Level::Fold) == key(r, Level::Fold))
                        .then(|| indent_of(s) == format!("{f0}{}", indent_of(r)))
                }
                _ => None,
            })
            .collect();
        !evidence.is_empty() && evidence.iter().all(|&b| b)
    })
}

/// What [`lines`] knows about the match while it writes each replacement
/// line: the search, file and replacement lines and how they pair, the
/// quote rules, and how the first line was copied.
struct LinesCx<'a> {
    plan: &'a LinesPlan,
    s_lines: &'a [&'a str],
    f_lines: &'a [&'a str],
    /// How each replacement line relates to the search's lines.
    links: &'a [LineLink],
    quotes: Quotes,
    /// The replacement's first line inherits `plan.partial_first`.
    first_is_partial: bool,
    /// See [`dedented_by`].
    dedented_by: Option<&'a str>,
    slips: SpacingSlips,
}

impl LinesCx<'_> {
    /// Replacement line `j` (0-based) in the file's formatting.
    fn write_line(&self, j: usize, line: &str, link: LineLink) -> Result<String, Unmappable> {
        if let LineLink::Equal(i) = link {
            return Ok(self.f_lines.get(i).copied().unwrap_or(line).to_string());
        }
        if is_blank(line) {
            return Ok(if self.plan.indent == IndentMap::Identity {
                line.to_string()
            } else {
                String::new()
            });
        }
        let shifted = self.reindent(j, line)?;
        // A changed line keeps the file's bytes wherever it keeps the
        // search's text (SPEC §6.8); only the model's own pieces are
        // re-styled.
        if let LineLink::Changed(i) = link {
            let pair = self.s_lines.get(i).zip(self.f_lines.get(i));
            if let Some(pieces) = pair.and_then(|(s, f)| keep_file_bytes(s, f, line)) {
                // Indentation the model kept is the file's lead, a
                // zero-width character inside it included.
                let kept_indent = pair
                    .filter(|(s, _)| indent_of(s) == indent_of(line))
                    .map(|(_, f)| lead_of(f));
                let indent = kept_indent.unwrap_or(indent_of(&shifted));
                return self.quotes.write_pieces(indent, pieces, j + 1);
            }
        }
        self.quotes.restyle_line(self.slips.undo(shifted), j + 1)
    }

    /// Line `j`'s indentation in the file's columns.
    fn reindent(&self, j: usize, line: &str) -> Result<String, Unmappable> {
        let plan = self.plan;
        match (&plan.partial_first, j) {
            (Some(f0), 0) if self.first_is_partial => {
                let r0 = indent_of(line);
                Ok(if r0 == f0 {
                    line.to_string()
                } else {
                    format!("{f0}{line}")
                })
            }
            _ if matches!(plan.indent, IndentMap::Columns { .. }) => columns_line(
                line,
                j,
                self.links,
                self.s_lines,
                self.f_lines,
                &plan.indent,
            )
            .ok_or(Unmappable::Indentation(j + 1)),
            _ => {
                let line = match self.dedented_by {
                    Some(f0) => format!("{f0}{line}"),
                    None => line.to_string(),
                };
                shift_line(&line, &plan.indent).ok_or(Unmappable::Indentation(j + 1))
            }
        }
    }
}

/// Replacement line `j` under a column shift (tabs and spaces converted
/// unevenly): a line that keeps its search line's indentation gets the
/// file line's own; any other is shifted by the columns and written in the
/// characters of the file line it stands for, or of its nearest neighbour
/// that stands for one (SPEC §6.8).
fn columns_line(
    line: &str,
    j: usize,
    links: &[LineLink],
    s_lines: &[&str],
    f_lines: &[&str],
    map: &IndentMap,
) -> Option<String> {
    let body = &line[indent_of(line).len()..];
    let tied = |k: usize| match links.get(k) {
        Some(LineLink::Equal(i) | LineLink::Changed(i)) => Some(*i),
        _ => None,
    };
    if let Some(i) = tied(j) {
        if indent_of(s_lines.get(i)?) == indent_of(line) {
            return Some(format!("{}{body}", indent_of(f_lines.get(i)?)));
        }
    }
    let near = tied(j)
        .or_else(|| (0..j).rev().find_map(tied))
        .or_else(|| (j + 1..links.len()).find_map(tied));
    let like = near
        .and_then(|i| f_lines.get(i))
        .map_or("", |f| indent_of(f));
    let indent = match near {
        Some(_) => map.apply_like(indent_of(line), like, f_lines)?,
        None => map.apply(indent_of(line))?,
    };
    Some(format!("{indent}{body}"))
}

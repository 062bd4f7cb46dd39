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

/// Spacing the model's search lines carry and the file's lines do not:
/// what its new lines carry for the same reason, and lose (issue 35: a new
/// line between lines written in the file's style follows them).
#[derive(Default)]
struct SpacingSlips {
    /// Trailing whitespace the search lines have where the file's have
    /// none (no file line of the match has any).
    trailing: Vec<String>,
    /// The model doubles single spaces as a habit: on at least two search
    /// lines, every inner run that differs from the file's is two spaces
    /// for one, no file line of the match has a run of exactly two, and
    /// every file line's quotes are plain and paired (no string of the
    /// match runs over a line end, none holds an escape).
    doubled: bool,
}

/// The runs of whitespace between the non-blank characters of `line`.
fn inner_runs(line: &str) -> Vec<&str> {
    let t = line.trim();
    let mut runs = Vec::new();
    let mut start = None;
    for (k, c) in t.char_indices() {
        match (c == ' ' || c == '\t', start) {
            (true, None) => start = Some(k),
            (false, Some(s0)) => {
                runs.push(&t[s0..k]);
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// Whether every string on `line` opens and closes on it, with no escape
/// and no backtick (a template literal may span lines), and no `/` but a
/// `//` comment's (a regex literal's spaces are its text): the quotes
/// [`undoubled`] can trust.
fn plain_quotes(line: &str) -> bool {
    !line.contains(['\\', '`'])
        && !line.replace("//", "").contains('/')
        && !line.contains("\"\"\"")
        && !line.contains("\'\'\'")
        && line.matches('"').count() % 2 == 0
        && line.matches('\'').count() % 2 == 0
}

impl SpacingSlips {
    fn of(s_lines: &[&str], f_lines: &[&str]) -> SpacingSlips {
        let tail = |l: &str| l[l.trim_end().len()..].to_string();
        let pairs = || {
            s_lines
                .iter()
                .zip(f_lines)
                .filter(|(s, f)| !is_blank(s) && !is_blank(f))
        };
        let mut out = SpacingSlips::default();
        if pairs().all(|(_, f)| tail(f).is_empty()) {
            for (s, _) in pairs() {
                let t = tail(s);
                if !t.is_empty() && !out.trailing.contains(&t) {
                    out.trailing.push(t);
                }
            }
        }
        // Per slipped line: whether every run it changed is "  " for " ".
        let slipped: Vec<bool> = pairs()
            .filter(|(s, f)| key(s, Level::Collapse) == key(f, Level::Collapse))
            .filter_map(|(s, f)| {
                let (rs, rf) = (inner_runs(s), inner_runs(f));
                let changed: Vec<(&str, &str)> =
                    rs.into_iter().zip(rf).filter(|(a, b)| a != b).collect();
                (!changed.is_empty()).then(|| changed.iter().all(|&(a, b)| a == "  " && b == " "))
            })
            .collect();
        out.doubled = slipped.len() >= 2
            && slipped.iter().all(|&d| d)
            && pairs().all(|(_, f)| !inner_runs(f).contains(&"  ") && plain_quotes(f));
        out
    }

    /// A new line without the slips: its trailing whitespace when the
    /// search lines carry the same; with the doubling habit, and when its
    /// own quotes are plain, its runs of exactly two spaces outside quotes
    /// and not before a comment (`  #`, `  //`: a style of its own).
    fn undo(&self, line: String) -> String {
        let mut line = line;
        let body_len = line.trim_end().len();
        if self.trailing.iter().any(|t| line[body_len..] == **t) {
            line.truncate(body_len);
        }
        if self.doubled && plain_quotes(&line) {
            line = undoubled(&line);
        }
        line
    }
}

/// `line` with every run of exactly two spaces after its indentation,
/// outside quotes and not before a comment, written as one space.
fn undoubled(line: &str) -> String {
    let indent = indent_of(line);
    let body = &line[indent.len()..];
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(line.len());
    out.push_str(indent);
    let mut quote: Option<u8> = None;
    for (k, c) in body.char_indices() {
        let b = bytes[k];
        match quote {
            Some(q) if b == q => quote = None,
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b' '
                && k >= 2
                && bytes[k - 1] == b' '
                && bytes[k - 2] != b' '
                && bytes.get(k + 1).is_some_and(|&n| n != b' ' && n != b'\t')
                && !body[k + 1..].starts_with('#')
                && !body[k + 1..].starts_with("//") =>
            {
                continue
            }
            _ => {}
        }
        out.push(c);
    }
    out
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

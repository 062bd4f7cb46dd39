//! `formatFileView`: a bounded view of a file for an agent, with the YAML
//! header (`total_lines`, `size_bytes`, …) whose two numbers are exactly
//! what [`super::check_overwrite`] expects as its snapshot.
//!
//! Counting: `total_lines` counts lines as they are terminated (`""` has
//! 0, `"a"` and `"a\n"` have 1); `size_bytes` is UTF-8 bytes, BOM included.
//! The body shows at most `maxLines` lines (default 500) and about 100,000
//! chars; when it stops early, `next_range` says what to read next.

use super::doc::Doc;
use super::messages as msg;
use super::range::{self, LineRangeSpec, RangeProblem};
use super::render::{ensure_yaml, Ctx};
use super::types::*;
use super::yaml::{fence, Yaml};
use crate::error::Result;

/// Default `maxLines`.
pub const DEFAULT_MAX_LINES: u32 = 500;

/// Body size cap in chars (line numbers included).
const MAX_BODY_CHARS: usize = 100_000;

/// Renders a view of `options.content`; refuses only a malformed range
/// (`INVALID_RANGE`) or one starting past the end (`RANGE_OUT_OF_BOUNDS`).
pub fn format_file_view(options: FileViewOptions) -> Result<FileView> {
    let ctx = Ctx {
        mode: "read_file",
        path: &options.path,
        lang: options.lang,
    };
    view(&ctx, &options).map_err(|e| ensure_yaml(e, &ctx))
}

fn view(ctx: &Ctx<'_>, o: &FileViewOptions) -> Result<FileView> {
    let lang = ctx.lang;
    let doc = Doc::new(&o.content);
    let total = doc.len();
    let (first, last) = match o.range.as_deref().map(str::trim).filter(|r| !r.is_empty()) {
        None => (1, total),
        Some(input) => {
            let spec = range::parse(input).map_err(|p| range::range_error(p, input, lang))?;
            let (start, end) = match spec {
                LineRangeSpec::Single(n) => (n, n),
                LineRangeSpec::Between(a, b) if a > b => {
                    return Err(range::range_error(RangeProblem::Reversed, input, lang));
                }
                LineRangeSpec::Between(a, b) => (a, b),
                LineRangeSpec::From(a) => (a, total as u64),
                LineRangeSpec::To(b) => (1, b),
                LineRangeSpec::Whole => (1, total as u64),
            };
            if start > (total.max(1)) as u64 {
                return Err(range::range_error(
                    RangeProblem::OutOfBounds { total },
                    input,
                    lang,
                ));
            }
            (start as usize, (end.min(total as u64)) as usize)
        }
    };
    let max_lines = o.max_lines.unwrap_or(DEFAULT_MAX_LINES).max(1) as usize;
    let numbered = o.show_line_numbers.unwrap_or(true);
    let width = last.max(1).to_string().len().max(4);
    let mut body = String::new();
    let mut chars = 0usize;
    let mut shown = 0usize;
    let (mut by_lines, mut by_chars) = (false, false);
    for n in first..=last {
        if n == 0 || n > total {
            continue;
        }
        if shown >= max_lines {
            by_lines = true;
            break;
        }
        let text = doc.text(n - 1);
        let line = if numbered {
            format!("{n:>width$}| {text}\n")
        } else {
            format!("{text}\n")
        };
        let len = line.chars().count();
        if chars + len > MAX_BODY_CHARS {
            by_chars = true;
            if shown == 0 {
                // One line longer than the whole budget: show its start.
                let cut = line
                    .char_indices()
                    .nth(MAX_BODY_CHARS)
                    .map_or(line.len(), |(i, _)| i);
                body.push_str(&line[..cut]);
                body.push_str("…\n");
                shown = 1;
            }
            break;
        }
        chars += len;
        body.push_str(&line);
        shown += 1;
    }
    let (start_line, end_line) = if shown == 0 {
        (0, 0)
    } else {
        (first, first + shown - 1)
    };
    let next_range = if by_lines || by_chars {
        let next = end_line + 1;
        format!("{next}~{}", last.min(next + max_lines - 1))
    } else {
        String::new()
    };
    let summary = msg::view_summary(lang, &o.path, total, o.content.len(), start_line, end_line);
    let mut y = Yaml::new();
    y.raw("status", "ok").raw("mode", "read_file");
    if !o.path.is_empty() {
        y.str("path", &o.path);
    }
    y.raw("size_bytes", o.content.len())
        .raw("total_lines", total)
        .raw("shown_lines", shown)
        .open("shown_range")
        .raw("start", start_line)
        .raw("end", end_line)
        .close()
        .raw("truncated_by_max_lines", by_lines)
        .raw("truncated_by_char_limit", by_chars)
        .str("next_range", &next_range)
        .raw("line_ending", doc.ending_name())
        .raw("has_bom", doc.bom)
        .raw("file_eof_has_newline", doc.has_final_newline())
        .str("summary", &summary);
    let yaml = y.finish();
    let mut text = fence("yaml", &yaml);
    text.push_str("\n\n");
    if total == 0 {
        text.push_str(&msg::empty_file(lang));
    } else if shown == 0 {
        text.push_str(&msg::nothing_shown(lang));
    } else {
        text.push_str(&fence("", &body));
    }
    if !next_range.is_empty() {
        text.push_str("\n\n");
        text.push_str(&msg::view_truncated(lang, &next_range));
    }
    Ok(FileView {
        path: o.path.clone(),
        total_lines: to_u32(total),
        size_bytes: to_u32(o.content.len()),
        shown_lines: to_u32(shown),
        start_line: to_u32(start_line),
        end_line: to_u32(end_line),
        truncated_by_max_lines: by_lines,
        truncated_by_char_limit: by_chars,
        next_range,
        line_ending: doc.ending_name(),
        has_bom: doc.bom,
        summary,
        yaml,
        body,
        text,
    })
}

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
use crate::Lang;

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
    let (first, last) = requested_lines(o, total, lang)?;
    let max_lines = o.max_lines.unwrap_or(DEFAULT_MAX_LINES).max(1) as usize;
    let body = numbered_body(
        &doc,
        first,
        last,
        max_lines,
        o.show_line_numbers.unwrap_or(true),
    );
    let shown = body.shown;
    let (start_line, end_line) = if shown == 0 {
        (0, 0)
    } else {
        (first, first + shown - 1)
    };
    let next_range = if body.by_lines || body.by_chars {
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
        .raw("truncated_by_max_lines", body.by_lines)
        .raw("truncated_by_char_limit", body.by_chars)
        .str("next_range", &next_range)
        .raw("line_ending", doc.ending_name())
        .raw("has_bom", doc.bom)
        .raw("file_eof_has_newline", doc.has_final_newline())
        .str("summary", &summary);
    let yaml = y.finish();
    let text = view_text(lang, &yaml, total, &body, &next_range);
    Ok(FileView {
        path: o.path.clone(),
        total_lines: to_u32(total),
        size_bytes: to_u32(o.content.len()),
        shown_lines: to_u32(shown),
        start_line: to_u32(start_line),
        end_line: to_u32(end_line),
        truncated_by_max_lines: body.by_lines,
        truncated_by_char_limit: body.by_chars,
        next_range,
        line_ending: doc.ending_name(),
        has_bom: doc.bom,
        summary,
        yaml,
        body: body.text,
        text,
    })
}

/// The first and last line (1-based) the range asks for, the last clamped
/// to the file; the whole file without a range. A start past the end is
/// `RANGE_OUT_OF_BOUNDS`.
fn requested_lines(o: &FileViewOptions, total: usize, lang: Lang) -> Result<(usize, usize)> {
    let Some(input) = o.range.as_deref().map(str::trim).filter(|r| !r.is_empty()) else {
        return Ok((1, total));
    };
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
    Ok((start as usize, (end.min(total as u64)) as usize))
}

/// The lines shown, and whether the line or character limit cut them.
struct Body {
    text: String,
    shown: usize,
    by_lines: bool,
    by_chars: bool,
}

/// Lines `first..=last`, numbered or not, up to `max_lines` lines and
/// [`MAX_BODY_CHARS`] characters (a single longer line shows its start).
fn numbered_body(
    doc: &Doc<'_>,
    first: usize,
    last: usize,
    max_lines: usize,
    numbered: bool,
) -> Body {
    let total = doc.len();
    let width = last.max(1).to_string().len().max(4);
    let mut body = Body {
        text: String::new(),
        shown: 0,
        by_lines: false,
        by_chars: false,
    };
    let mut chars = 0usize;
    for n in first..=last {
        if n == 0 || n > total {
            continue;
        }
        if body.shown >= max_lines {
            body.by_lines = true;
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
            body.by_chars = true;
            if body.shown == 0 {
                // One line longer than the whole budget: show its start.
                let cut = line
                    .char_indices()
                    .nth(MAX_BODY_CHARS)
                    .map_or(line.len(), |(i, _)| i);
                body.text.push_str(&line[..cut]);
                body.text.push_str("…\n");
                body.shown = 1;
            }
            break;
        }
        chars += len;
        body.text.push_str(&line);
        body.shown += 1;
    }
    body
}

/// The agent text: the YAML fenced, then the lines fenced (or why none
/// are shown), then where to read on.
fn view_text(lang: Lang, yaml: &str, total: usize, body: &Body, next_range: &str) -> String {
    let mut text = fence("yaml", yaml);
    text.push_str("\n\n");
    if total == 0 {
        text.push_str(&msg::empty_file(lang));
    } else if body.shown == 0 {
        text.push_str(&msg::nothing_shown(lang));
    } else {
        text.push_str(&fence("", &body.text));
    }
    if !next_range.is_empty() {
        text.push_str("\n\n");
        text.push_str(&msg::view_truncated(lang, next_range));
    }
    text
}

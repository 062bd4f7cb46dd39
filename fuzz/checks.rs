//! The fuzz checks, one plain function per cargo-fuzz target, shared by
//! the fuzz targets (`fuzz/fuzz_targets/<target>.rs`, which only call
//! `checks::<target>(data)`) and by the regression replay
//! (`tests/suite/fuzz_regressions.rs`, which calls the same function on
//! every file in `tests/fuzz-regressions/<target>/`). A crash the fuzzer
//! finds is therefore the same crash in `cargo test`.
//!
//! Each function decodes the raw fuzzer bytes itself:
//!
//! - **Text** is converted from UTF-8 lossily (invalid bytes become
//!   U+FFFD), so every input is exercised.
//! - **Parts** are separated by a `0x00` byte. A target with `k` parts
//!   splits at the first `k - 1` zero bytes; missing parts are empty and
//!   the last part keeps any further zero bytes.
//!
//! | target           | encoding                                                        |
//! |------------------|-----------------------------------------------------------------|
//! | `block_diff`     | all bytes = diff text                                           |
//! | `block_split`    | all bytes = markdown                                            |
//! | `slice`          | byte 0 = list length (0–255); rest = slice text                 |
//! | `line_range`     | bytes 0–1 = file line count (u16 big-endian); rest = range text |
//! | `search_replace` | content `00` SEARCH/REPLACE text                                |
//! | `matcher`        | byte 0 = mode (% 3: exact, safe, fuzzy); rest = content `00` search `00` replacement |
//! | `patch`          | content `00` codex patch text (every path it names holds the content) |
//! | `unified_diff`   | content `00` unified diff text (every path it names holds the content) |
//!
//! Missing leading bytes count as 0 (empty input: length 0, mode exact).
//! To hand-make an input: `printf '\x01content\0search\0replace' > file`.

// Each fuzz binary uses one of these functions.
#![allow(dead_code)]

use std::borrow::Cow;

use editkit::Lang;
use editkit::{
    apply_search_replace, find_match, parse_search_replace, replace_text, MatchMode, MatchOptions,
    SearchReplaceOptions,
};
use editkit::{evaluate_slice, SliceOptions};
use editkit::{parse_block_diff, split_blocks, validate_block_diff_format, FormatOptions};
use editkit::{parse_line_range, ResolvedRange};
use editkit::{
    parse_patch, parse_unified_diff, plan_patch, plan_unified_diff, Error, FileOp, Patch,
    PatchOptions, PatchReport,
};

/// Text from bytes, lossily.
fn text(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

/// `N` text parts separated by the first `N - 1` zero bytes.
fn parts<const N: usize>(bytes: &[u8]) -> [Cow<'_, str>; N] {
    let mut split = bytes.splitn(N, |b| *b == 0);
    std::array::from_fn(|_| text(split.next().unwrap_or_default()))
}

/// The block-diff lexer and parser: any text either parses or yields
/// format errors with a line inside the text; never a panic.
pub fn block_diff(data: &[u8]) {
    let text = text(data);
    let text = text.as_ref();
    let lines = text.split('\n').count() as u32;
    for lang in [Lang::En, Lang::Zh] {
        let report = validate_block_diff_format(text, &FormatOptions { lang });
        for e in &report.errors {
            assert!(
                e.details.line.unwrap_or(0) <= lines,
                "error line outside the text"
            );
        }
        let parsed = parse_block_diff(text, &FormatOptions { lang });
        assert_eq!(parsed.is_ok(), report.valid, "parse and validate disagree");
    }
}

/// The CommonMark block splitter used for multi-block replacements: the
/// blocks are in order, non-overlapping, and cover every non-blank line.
pub fn block_split(data: &[u8]) {
    let markdown = text(data);
    let markdown = markdown.as_ref();
    let blocks = split_blocks(markdown);
    let mut at = 0usize;
    for b in &blocks {
        let offset = (b.as_ptr() as usize).wrapping_sub(markdown.as_ptr() as usize);
        assert!(
            offset <= markdown.len() && b.len() <= markdown.len() - offset,
            "block is not inside the markdown"
        );
        assert!(offset >= at, "blocks overlap or are out of order");
        at = offset + b.len();
        assert!(!b.trim().is_empty(), "blank block");
    }
    let covered: usize = blocks.iter().map(|b| b.split_whitespace().count()).sum();
    assert_eq!(
        covered,
        markdown.split_whitespace().count(),
        "every word is in some block"
    );
}

/// The slice parser and evaluator: any slice over any child list gives a
/// contiguous run of the list or a typed error; never a panic.
pub fn slice(data: &[u8]) {
    let (n, rest) = data
        .split_first()
        .map_or((0, &[][..]), |(n, rest)| (*n, rest));
    let slice = text(rest);
    let ids: Vec<String> = (0..n).map(|i| format!("20240101000000-{i:07}")).collect();
    if let Ok(r) = evaluate_slice(&ids, &slice, &SliceOptions::default()) {
        let (start, end) = (r.start as usize, r.end as usize);
        assert!(start <= end && end <= ids.len(), "range outside the list");
        assert_eq!(r.total as usize, ids.len(), "total is the list length");
        assert_eq!(
            r.blocks.as_slice(),
            &ids[start..end],
            "blocks are the run start..end"
        );
    }
}

/// The line-range parser of the file-edit planner (`N`, `N~M`, `N~`, `~N`,
/// `~`) and its resolution against a file length: a resolved range lies in
/// the file (an empty file is one line) or is the append position after it.
pub fn line_range(data: &[u8]) {
    let total = usize::from(data.first().copied().unwrap_or(0)) << 8
        | usize::from(data.get(1).copied().unwrap_or(0));
    let input = text(data.get(2..).unwrap_or_default());
    if let Ok(spec) = parse_line_range(&input, Lang::En) {
        let lines = total.max(1);
        match spec.resolve(total, &input, Lang::Zh) {
            Ok(ResolvedRange::Lines { start, end }) => {
                assert!(
                    1 <= start && start <= end && end as usize <= lines,
                    "lines {start}~{end} outside 1~{lines}"
                );
            }
            Ok(ResolvedRange::Append { at }) => {
                assert_eq!(at as usize, lines + 1, "append is after the last line")
            }
            Err(_) => {}
        }
    }
}

/// The multi-block SEARCH/REPLACE parser and its application: any text
/// parses or yields format errors with a line inside it; an atomic apply
/// that fails leaves the content unchanged.
pub fn search_replace(data: &[u8]) {
    let [content, text] = parts::<2>(data);
    let (content, text) = (content.as_ref(), text.as_ref());
    let lines = text.split('\n').count() as u32;
    if let Err(e) = parse_search_replace(text, Lang::Zh) {
        for inner in &e.details.errors {
            assert!(
                inner.details.line.unwrap_or(0) <= lines + 1,
                "error line outside the text"
            );
        }
    }
    if let Ok(report) = apply_search_replace(content, text, &SearchReplaceOptions::default()) {
        if !report.ok {
            assert_eq!(report.content, content, "an atomic failure changes nothing");
        }
    }
}

/// The matcher over arbitrary content, search, replacement and mode: never
/// a panic; a found match is inside the content; text before the first
/// and after the last matched line is never changed (except the one line
/// break next to a deleted final line, which goes with it so the file's
/// final-newline state is kept).
pub fn matcher(data: &[u8]) {
    let (m, rest) = data
        .split_first()
        .map_or((0, &[][..]), |(m, rest)| (*m, rest));
    let mode = match m % 3 {
        0 => MatchMode::Exact,
        1 => MatchMode::Safe,
        _ => MatchMode::Fuzzy,
    };
    // Bit 2 turns the prose tier on.
    let prose = m & 4 != 0;
    let [content, search, replace] = parts::<3>(rest);
    let (content, search, replace) = (content.as_ref(), search.as_ref(), replace.as_ref());
    let utf16_len = content.encode_utf16().count() as u32;
    if let Ok(r) = find_match(
        content,
        search,
        &MatchOptions {
            mode,
            prose,
            ..MatchOptions::default()
        },
    ) {
        for m in &r.matches {
            assert!(
                m.start <= m.end && m.end <= utf16_len,
                "match outside the content"
            );
        }
    }
    if let Ok(r) = replace_text(
        content,
        search,
        replace,
        &MatchOptions {
            mode,
            prose,
            ..MatchOptions::default()
        },
    ) {
        let lines: Vec<&str> = content.split_inclusive('\n').collect();
        let first = r.matches.iter().map(|m| m.start_line).min();
        let last = r.matches.iter().map(|m| m.end_line).max();
        if let (Some(first), Some(last)) = (first, last) {
            let before: String = lines
                .iter()
                .take(first.saturating_sub(1) as usize)
                .copied()
                .collect();
            let after: String = lines.iter().skip(last as usize).copied().collect();
            let before = before
                .strip_suffix('\n')
                .map_or(before.as_str(), |b| b.strip_suffix('\r').unwrap_or(b));
            assert!(
                r.content.starts_with(before),
                "text before the match changed"
            );
            assert!(r.content.ends_with(&after), "text after the match changed");
        }
    }
}

/// The codex patch parser and planner: see [`check_patch`].
pub fn patch(data: &[u8]) {
    let [content, text] = parts::<2>(data);
    check_patch(content.as_ref(), text.as_ref(), parse_patch, plan_patch);
}

/// The unified diff parser and planner: see [`check_patch`].
pub fn unified_diff(data: &[u8]) {
    let [content, text] = parts::<2>(data);
    check_patch(
        content.as_ref(),
        text.as_ref(),
        parse_unified_diff,
        plan_unified_diff,
    );
}

type Parse = fn(&str, Lang) -> Result<Patch, Error>;
type Plan = fn(
    &std::collections::BTreeMap<String, String>,
    &str,
    &PatchOptions,
) -> Result<PatchReport, Error>;

/// Any text parses, or yields format problems each with a line inside
/// the text; planning it over files that all hold `content` never panics;
/// a failed atomic plan writes nothing; an update keeps every line before
/// its first placed hunk (but the line break next to a deleted final
/// line, which goes with it).
fn check_patch(content: &str, text: &str, parse: Parse, plan: Plan) {
    let lines = text.split('\n').count() as u32;
    let parsed = parse(text, Lang::Zh);
    match &parsed {
        Err(e) => {
            for inner in &e.details.errors {
                let line = inner.details.line.unwrap_or(0);
                assert!(line >= 1 && line <= lines, "error line outside the text");
            }
        }
        Ok(p) => {
            for h in p.files.iter().flat_map(|f| &f.hunks) {
                assert!(h.line >= 1 && h.line <= lines, "hunk line outside the text");
            }
        }
    }
    let Ok(p) = parsed else { return };
    let files = p
        .files
        .iter()
        .filter(|f| f.op != FileOp::Add)
        .map(|f| (f.path.clone(), content.to_string()))
        .collect();
    let Ok(report) = plan(&files, text, &PatchOptions::default()) else {
        return;
    };
    if !report.ok {
        assert!(
            report.files.iter().all(|f| !f.write),
            "an atomic failure writes nothing"
        );
    }
    for f in report
        .files
        .iter()
        .filter(|f| f.write && f.op == FileOp::Update)
    {
        let new = f.content.as_deref().expect("a written update has its text");
        let Some(first) = f.hunks.iter().filter_map(|h| h.start_line).min() else {
            continue;
        };
        let kept: String = editkit_lines(content, first.saturating_sub(1) as usize);
        let kept = kept
            .strip_suffix("\r\n")
            .or_else(|| kept.strip_suffix('\n'))
            .unwrap_or(&kept);
        assert!(
            new.starts_with(kept),
            "a line before the first hunk changed"
        );
    }
}

/// The first `n` lines of `text`, with their line breaks.
fn editkit_lines(text: &str, n: usize) -> String {
    text.split_inclusive('\n').take(n).collect()
}

//! Replays every input kept in `tests/fuzz-regressions/<target>/` (crashes
//! `scripts/fuzz.sh` found, and hand-made seeds) through the same entry
//! points the fuzz targets call, so a fixed crash stays fixed.

use std::path::PathBuf;

use editkit::block_diff::{parse_block_diff, split_blocks, validate_block_diff_format, FormatOptions};
use editkit::planner::parse_line_range;
use editkit::slice::{evaluate_slice, SliceOptions};
use editkit::Lang;

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions").join(target);
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no regression inputs for {target}");
    out
}

/// libFuzzer's `&str` input: the bytes when they are UTF-8.
fn text(bytes: &[u8]) -> Option<&str> {
    std::str::from_utf8(bytes).ok()
}

#[test]
fn block_diff_regressions() {
    for (path, bytes) in inputs("block_diff") {
        let Some(t) = text(&bytes) else { continue };
        let report = validate_block_diff_format(t, &FormatOptions { lang: Lang::Zh });
        assert_eq!(parse_block_diff(t, &FormatOptions::default()).is_ok(), report.valid, "{}", path.display());
    }
}

#[test]
fn block_split_regressions() {
    for (path, bytes) in inputs("block_split") {
        let Some(t) = text(&bytes) else { continue };
        let covered: usize = split_blocks(t).iter().map(|b| b.split_whitespace().count()).sum();
        assert_eq!(covered, t.split_whitespace().count(), "{}", path.display());
    }
}

#[test]
fn slice_regressions() {
    for (_, bytes) in inputs("slice") {
        // (u8, &str) as libfuzzer's Arbitrary reads it: first byte, rest.
        let (n, rest) = bytes.split_first().map_or((0, &[][..]), |(n, r)| (*n, r));
        let Some(slice) = text(rest) else { continue };
        let ids: Vec<String> = (0..n).map(|i| format!("20240101000000-{i:07}")).collect();
        let _ = evaluate_slice(&ids, slice, &SliceOptions::default());
    }
}

#[test]
fn line_range_regressions() {
    for (_, bytes) in inputs("line_range") {
        let total = bytes.iter().take(2).fold(0usize, |acc, b| acc * 256 + *b as usize);
        let Some(t) = text(bytes.get(2..).unwrap_or(&[])) else { continue };
        if let Ok(spec) = parse_line_range(t, Lang::En) {
            let _ = spec.resolve(total, t, Lang::En);
        }
    }
}

#[test]
fn search_replace_regressions() {
    use editkit::matcher::{apply_search_replace, parse_search_replace, SearchReplaceOptions};
    for (_, bytes) in inputs("search_replace") {
        let Some(t) = text(&bytes) else { continue };
        let _ = parse_search_replace(t, Lang::En);
        let _ = apply_search_replace(t, t, &SearchReplaceOptions::default());
    }
}

#[test]
fn matcher_regressions() {
    use editkit::matcher::{find_match, replace_text, FindOptions, Mode, ReplaceOptions};
    for (_, bytes) in inputs("matcher") {
        let Some(t) = text(&bytes) else { continue };
        // Split the input into content, search and replacement at NULs.
        let mut parts = t.splitn(3, '\0');
        let (content, search, replace) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        for mode in [Mode::Exact, Mode::Safe, Mode::Fuzzy] {
            let _ = find_match(content, search, &FindOptions { mode, ..FindOptions::default() });
            let _ = replace_text(content, search, replace, &ReplaceOptions { mode, ..ReplaceOptions::default() });
        }
    }
}

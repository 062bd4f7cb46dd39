//! Replays every input kept in `tests/fuzz-regressions/<target>/` (crashes
//! `scripts/fuzz.sh` found, and hand-made seeds) through the very function
//! the fuzz target runs (`fuzz/checks.rs`, included as `fuzz_checks`), with
//! the same byte decoding and the same assertions, so a crash the fuzzer
//! found fails here until it is fixed, and stays fixed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use super::fuzz_checks as checks;

/// Runs `check` on every kept input of `target`; fails naming each input
/// that panics.
fn replay(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-regressions")
        .join(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no regression inputs for {target}");
    let failed: Vec<String> = paths
        .iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap();
            catch_unwind(AssertUnwindSafe(|| check(&bytes))).is_err()
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        failed.is_empty(),
        "{target}: {} of {} inputs fail:\n{}",
        failed.len(),
        paths.len(),
        failed.join("\n")
    );
}

#[test]
fn block_diff_regressions() {
    replay("block_diff", checks::block_diff);
}

#[test]
fn block_split_regressions() {
    replay("block_split", checks::block_split);
}

#[test]
fn slice_regressions() {
    replay("slice", checks::slice);
}

#[test]
fn line_range_regressions() {
    replay("line_range", checks::line_range);
}

#[test]
fn search_replace_regressions() {
    replay("search_replace", checks::search_replace);
}

#[test]
fn matcher_regressions() {
    replay("matcher", checks::matcher);
}

#[test]
fn patch_regressions() {
    replay("patch", checks::patch);
}

#[test]
fn unified_diff_regressions() {
    replay("unified_diff", checks::unified_diff);
}

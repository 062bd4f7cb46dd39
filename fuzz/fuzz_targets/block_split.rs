//! The CommonMark block splitter used for multi-block replacements: the
//! blocks are in order, non-overlapping, and cover every non-blank line.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::block_split(data));

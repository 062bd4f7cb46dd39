//! The multi-block SEARCH/REPLACE parser and its application: any text
//! parses or yields format errors with a line inside it; an atomic apply
//! that fails leaves the content unchanged.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::search_replace(data));

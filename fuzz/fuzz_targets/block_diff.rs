//! The block-diff lexer and parser: any text either parses or yields
//! format errors with a line inside the text; never a panic.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::block_diff(data));

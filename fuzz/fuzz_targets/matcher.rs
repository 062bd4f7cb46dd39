//! The matcher over arbitrary content, search, replacement and mode: never
//! a panic; a found match is inside the content; text before the first
//! and after the last matched line is never changed (except the one line
//! break next to a deleted final line, which goes with it so the file's
//! final-newline state is kept).
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::matcher(data));

//! The line-range parser of the file-edit planner (`N`, `N~M`, `N~`, `~N`,
//! `~`) and its resolution against a file length.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::line_range(data));

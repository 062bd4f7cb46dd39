//! The unified diff parser and planner: any text parses or yields problems
//! with lines inside it; planning never panics; a failed atomic plan
//! writes nothing; lines before the first hunk stay.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::unified_diff(data));

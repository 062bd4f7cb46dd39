//! The slice parser and evaluator: any slice over any child list gives a
//! contiguous run of the list or a typed error; never a panic.
//!
//! The check and its input encoding are in `fuzz/checks.rs`, shared with
//! the regression replay in `cargo test`.
#![no_main]
use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| checks::slice(data));

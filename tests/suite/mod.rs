pub mod support;

mod block_diff;
mod block_diff_props;
mod conformance;
mod content;
mod fidelity;
#[path = "../../fuzz/checks.rs"]
mod fuzz_checks;
mod fuzz_regressions;
pub mod kernel_host;
mod matcher;
mod patch;
mod patch_props;
mod planner;
mod planner_refusals;
mod prose_props;
mod quality;
/// The match-quality corpus, shared with `cargo bench --bench quality`.
#[path = "../../benches/quality/corpus.rs"]
mod quality_corpus;
mod scenarios;
mod shape;
mod slice;
mod snippet;
mod wire;

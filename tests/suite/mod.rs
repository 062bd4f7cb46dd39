pub mod support;

mod block_diff;
mod content;
pub mod fixture_host;
mod planner;
mod slice;

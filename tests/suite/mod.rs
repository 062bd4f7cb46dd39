pub mod support;

mod block_diff;
pub mod fixture_host;
mod slice;

//! Shared helpers for the integration suites: the shared fixture folder and
//! a minimal executor for the core's async operations.

use std::future::Future;
use std::path::PathBuf;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

/// `../shared` beside the repository (fixtures and conformance cases are
/// read in place, never copied into the repo).
#[allow(dead_code)]
pub fn shared_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shared")
}

/// Reads and parses a JSON file under `../shared`.
#[allow(dead_code)]
pub fn shared_json(relative: &str) -> serde_json::Value {
    let path = shared_dir().join(relative);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()))
}

/// Drives a future whose host callbacks resolve immediately (in-memory
/// test hosts), so tests need no async runtime.
#[allow(dead_code)]
pub fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    for _ in 0..1_000_000 {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
    panic!("future did not complete: a test host must resolve immediately");
}

//! The binding layer: converts JS values to core types and back (texts as
//! strings, every other value as JSON text, see `convert.rs`), adapts JS
//! host objects to [`crate::host::SiyuanHost`], and turns core errors into
//! JSON the TS layer rethrows as `EditkitError`. No business logic lives
//! here. Compiled for wasm32 only; the raw exports are for the TS layer,
//! not for callers.

mod block_diff;
mod content;
mod convert;
mod host;
mod matcher;
mod patch;
mod planner;
mod text;

use wasm_bindgen::prelude::*;

/// The allocator: talc in place of std's dlmalloc (docs/PERFORMANCE.md cut
/// 41). A dry run of a 1,000-hunk diff makes some hundred thousand small
/// allocations; talc serves them faster, in less code. Single-threaded
/// wasm: no lock.
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// The version of this build (for bug reports and cache keys).
#[wasm_bindgen(js_name = version)]
pub fn version() -> Result<JsValue, JsValue> {
    convert::to_js(env!("CARGO_PKG_VERSION"))
}

#[cfg(feature = "debug-panic-hook")]
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// Traps on purpose, so the JS layer's recovery from a trapped instance
/// (re-instantiate, throw `INTERNAL_ERROR`) is tested for real. Only in the
/// test build (`--features test-hooks`), never in the package (SPEC §12).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen(js_name = __trapForTests)]
pub fn trap_for_tests() {
    core::arch::wasm32::unreachable()
}

/// Traps inside an async call, after the host's `getBlocks` answered: the
/// future is polled from a microtask, outside the JS caller's stack, so the
/// TS layer's recovery of async calls (the glue reports the trap, the
/// pending calls reject with `INTERNAL_ERROR`, a fresh instance follows)
/// is tested for real. Test build only, like `__trapForTests`.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen(js_name = __trapAfterHostForTests)]
pub async fn trap_after_host_for_tests(host: JsValue) -> Result<JsValue, JsValue> {
    use crate::host::SiyuanHost;
    let host = host::JsHost::new(host);
    let _ = host.get_blocks(&[]).await;
    core::arch::wasm32::unreachable()
}

# Shared helpers for the project scripts (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"

# Each step says when it starts, in seconds since the first script of
# this run started (scripts call one another; the start is shared).
EDITKIT_T0="${EDITKIT_T0:-$(date +%s)}"
export EDITKIT_T0
step() { printf '\n\033[1m==> %s\033[0m  (+%ss)\n' "$*" "$(($(date +%s) - EDITKIT_T0))"; }

# The exact wasm-bindgen version Cargo.lock pins (the CLI must match it).
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

# Builds the release wasm as shipped into target/shipped/ with the stable
# toolchain; extra arguments go to cargo (size-grid.sh varies the
# opt-level through the environment). `cargo rustc --crate-type cdylib`
# keeps LTO, which listing both crate types in Cargo.toml would turn off
# (cargo #9672). A `RUSTFLAGS` in the environment would replace
# .cargo/config.toml's wasm flags (simd128), so it is not passed on.
build_shipped_wasm() {
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS cargo rustc --quiet --lib --release --target wasm32-unknown-unknown \
    --crate-type cdylib --target-dir "${CARGO_TARGET_DIR:-target}/shipped" "$@"
}
SHIPPED_WASM="${CARGO_TARGET_DIR:-target}/shipped/wasm32-unknown-unknown/release/editkit.wasm"

# The same crate for the SiYuan kernel plugin, whose JavaScript runtime
# (goja) has no WebAssembly: binaryen's wasm2js turns it into JavaScript,
# and wasm2js reads the wasm MVP only (one table, no SIMD). Stable Rust
# builds it: `target-cpu=mvp` keeps simd128 and the newer features out of
# the crate's own code, and the lowering passes in scripts/build.sh take
# out what the precompiled std still uses (docs/siyuan-plugin.md). An
# exported CARGO_ENCODED_RUSTFLAGS would win over RUSTFLAGS and bring
# simd128 back, so it is not passed on.
build_plugin_wasm() {
  env -u CARGO_ENCODED_RUSTFLAGS RUSTFLAGS="-C target-cpu=mvp" cargo rustc --quiet --lib --release --target wasm32-unknown-unknown \
    --crate-type cdylib --target-dir "${CARGO_TARGET_DIR:-target}/plugin"
}
PLUGIN_WASM="${CARGO_TARGET_DIR:-target}/plugin/wasm32-unknown-unknown/release/editkit.wasm"

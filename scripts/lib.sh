# Shared helpers for the project scripts (sourced, not run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$ROOT/node_modules/.bin:$PATH"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

# The exact wasm-bindgen version Cargo.lock pins (the CLI must match it).
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock
}

# The toolchain the shipped wasm is built with: a pinned nightly, because
# rebuilding std with the crate (-Z build-std, size-optimised, panics that
# abort at once) takes 60 KB raw / 22 KB gzip off the package at the same
# speed (docs/PERFORMANCE.md cut 33). Tests, lints and the native core use
# stable; setup.sh installs this one (minimal profile, rust-src, wasm32).
SHIPPED_TOOLCHAIN=nightly-2026-05-20

# Builds the release wasm as shipped into target/shipped/; extra arguments
# go to cargo (size-grid.sh varies the opt-level through the environment).
# `--config` adds the panic strategy std is rebuilt for to the target's
# rustflags (cargo appends it to .cargo/config.toml's; simd128 is named
# again so the build does not hang on that file). A `RUSTFLAGS` in the
# environment would replace both, so it is not passed on. A panic aborts
# before any hook runs, so the `debug-panic-hook` feature prints nothing
# in this build.
build_shipped_wasm() {
  env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS cargo "+$SHIPPED_TOOLCHAIN" rustc --quiet --lib --release --target wasm32-unknown-unknown \
    --crate-type cdylib --target-dir "${CARGO_TARGET_DIR:-target}/shipped" \
    -Z build-std=std,panic_abort -Z build-std-features=optimize_for_size \
    --config 'target.wasm32-unknown-unknown.rustflags=["-C", "target-feature=+simd128", "-Z", "unstable-options", "-C", "panic=immediate-abort"]' \
    "$@"
}
SHIPPED_WASM="${CARGO_TARGET_DIR:-target}/shipped/wasm32-unknown-unknown/release/editkit.wasm"

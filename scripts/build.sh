#!/usr/bin/env bash
# Builds the wasm core and assembles the npm package in pkg/.
#   cargo rustc --crate-type cdylib (stable; keeps LTO, cargo #9672;
#   lib.sh's build_shipped_wasm) → wasm-bindgen
#   --target web → wasm-opt -Oz, twice (npm binaryen) → pkg-template/build.mjs
source "$(dirname "$0")/lib.sh"
scripts/setup.sh

step "cargo rustc --release --target wasm32-unknown-unknown --crate-type cdylib"
build_shipped_wasm

step "wasm-bindgen --target web"
mkdir -p target/bindgen
wasm-bindgen --target web --out-dir target/bindgen --out-name editkit \
  --experimental-reset-state-function --omit-default-module-path \
  "$SHIPPED_WASM"

# -Oz twice around --flatten --rereloop: the restructured control flow
# shrinks again, 5 KB raw / 2 KB gzip at the same speed
# (docs/PERFORMANCE.md cut 31).
step "wasm-opt -Oz --flatten --rereloop -Oz"
wasm-opt -Oz --flatten --rereloop -Oz --strip-debug --strip-producers --enable-simd \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  target/bindgen/editkit_bg.wasm -o target/bindgen/editkit_bg.opt.wasm

# The test build (SPEC §12: no test hook in the package): the same crate
# with the trap hook, unoptimised, for the recovery test only.
step "cargo rustc --features test-hooks (the test build's wasm)"
cargo rustc --quiet --lib --target wasm32-unknown-unknown --crate-type cdylib --features test-hooks \
  --target-dir "${CARGO_TARGET_DIR:-target}/test-hooks"
mkdir -p target/bindgen-test
wasm-bindgen --target web --out-dir target/bindgen-test --out-name editkit \
  --experimental-reset-state-function --omit-default-module-path \
  "${CARGO_TARGET_DIR:-target}/test-hooks/wasm32-unknown-unknown/debug/editkit.wasm"

step "assemble pkg/"
node pkg-template/build.mjs
raw=$(wc -c < pkg/dist/editkit_bg.wasm)
gz=$(gzip -9 -c pkg/dist/editkit_bg.wasm | wc -c)
echo "editkit_bg.wasm: $raw bytes raw, $gz bytes gzip"

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

# The SiYuan kernel plugin (SPEC §13): the same crate without WebAssembly.
# Std is precompiled with the features stable Rust enables for wasm32; its
# target_features section would make wasm-bindgen emit an externref table
# (wasm2js takes one table), so the section goes before wasm-bindgen, and
# sign extension, saturating float conversions and bulk memory are
# lowered to MVP instructions before wasm2js.
step "cargo rustc (target-cpu=mvp) → wasm-bindgen → wasm2js: the kernel plugin's core"
build_plugin_wasm
STD_FEATURES=(--enable-mutable-globals --enable-nontrapping-float-to-int --enable-bulk-memory
  --enable-bulk-memory-opt --enable-sign-ext --enable-reference-types --enable-multivalue)
mkdir -p target/plugin/bindgen
wasm-opt "${STD_FEATURES[@]}" --strip-target-features "$PLUGIN_WASM" -o target/plugin/mvp.wasm
wasm-bindgen --target web --out-dir target/plugin/bindgen --out-name editkit \
  --experimental-reset-state-function --omit-default-module-path target/plugin/mvp.wasm
wasm-opt "${STD_FEATURES[@]}" --signext-lowering --llvm-nontrapping-fptoint-lowering \
  --llvm-memory-copy-fill-lowering target/plugin/bindgen/editkit_bg.wasm -o target/plugin/lowered.wasm
wasm-opt --mvp-features --enable-mutable-globals -Oz --strip-debug --strip-producers \
  target/plugin/lowered.wasm -o target/plugin/lowered.opt.wasm
wasm2js --enable-mutable-globals -Oz target/plugin/lowered.opt.wasm -o target/plugin/editkit_bg.asm.js

step "assemble pkg-plugin/ (the SiYuan plugin and its bazaar zip)"
node pkg-template/plugin/build.mjs
raw=$(wc -c < pkg/dist/editkit_bg.wasm)
gz=$(gzip -9 -c pkg/dist/editkit_bg.wasm | wc -c)
echo "editkit_bg.wasm: $raw bytes raw, $gz bytes gzip"

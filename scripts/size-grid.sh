#!/usr/bin/env bash
# The size × speed grid of BENCHMARKS §4 (issue 16): the wasm built at
# opt-level s, z and 3, each through wasm-opt -Oz and -O3, then the Node
# bench over each variant (the same glue; only the wasm differs). Prints one
# bench table per variant; asserts nothing.
#   bash scripts/size-grid.sh            (after scripts/build.sh)
source "$(dirname "$0")/lib.sh"
out=target/size-grid
mkdir -p "$out"
WASM_OPT_FLAGS=(--strip-debug --strip-producers --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int
  --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue)
for level in s z 3; do
  step "cargo rustc opt-level=$level"
  CARGO_PROFILE_RELEASE_OPT_LEVEL=$level build_shipped_wasm
  wasm-bindgen --target web --out-dir "$out/bindgen-$level" --out-name editkit \
    --experimental-reset-state-function --omit-default-module-path \
    "$SHIPPED_WASM"
  for opt in Oz O3; do
    # The glue belongs to its wasm (closure shims are named per build).
    wasm-opt "-$opt" "${WASM_OPT_FLAGS[@]}" "$out/bindgen-$level/editkit_bg.wasm" \
      -o "$out/bindgen-$level/editkit_bg.opt.wasm"
    EDITKIT_BINDGEN="$PWD/$out/bindgen-$level" EDITKIT_PKG_OUT="$PWD/$out/$level-$opt" node pkg-template/build.mjs
  done
done
for level in s z 3; do
  for opt in Oz O3; do
    step "bench: opt-level=$level, wasm-opt -$opt"
    BENCH_DIST="$PWD/$out/$level-$opt/dist" node bench/node/bench.mjs | grep -E "^matcher [a-f]\. .*10k|^block diff|^editkit_bg"
  done
done
# pkg/ and target/bindgen are left as they were; target/shipped holds the
# last variant built (opt-level 3): scripts/build.sh rebuilds it.

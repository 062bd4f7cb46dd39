#!/usr/bin/env bash
# Builds release artefacts and prints every benchmark next to its target
# (BENCHMARKS.md) and an in-run baseline. Numbers only; nothing asserted.
#   scripts/bench.sh
source "$(dirname "$0")/lib.sh"
scripts/setup.sh --browser
scripts/build.sh

step "Rust: matcher cases a–f, 10k and 100k lines (native)"
cargo bench --quiet --bench matcher

step "Rust: block diff 1,000 hunks, slice 10k/100k children (native)"
cargo bench --quiet --bench block_diff

step "Rust: match quality over real source files (BENCHMARKS.md §2)"
cargo bench --quiet --bench quality

step "wasm in Node: matcher a–f with scaling, block diff, slice, package size"
node bench/node/bench.mjs

step "the SiYuan kernel plugin in goja: kernel.js size, load, a 10-hunk apply beside wasm"
(cd tests/goja && go run ./bench)

step "wasm in headless Chromium: cold start"
node bench/browser/cold-start.mjs

#!/usr/bin/env bash
# Runs every test: the Rust core (native), the Node suite against the built
# package, and the browser suite (headless Chromium) against the demo page.
source "$(dirname "$0")/lib.sh"
scripts/setup.sh --browser

step "cargo test (native core)"
cargo test --quiet

step "cargo check --target wasm32-unknown-unknown"
cargo check --quiet --target wasm32-unknown-unknown

scripts/build.sh

step "typecheck the TypeScript layer"
tsc -p pkg-template/tsconfig.json --noEmit

step "node --test tests/node"
node --test tests/node/

step "node --test tests/package (npm pack → ESM, CJS, Vite SiYuan-plugin bundle)"
node --test tests/package/

step "node --test tests/browser (headless Chromium)"
node --test tests/browser/
echo
echo "All tests passed. Browser screenshots: test-output/browser/"

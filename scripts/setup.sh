#!/usr/bin/env bash
# Installs what a fresh machine lacks to build and test editkit; fast and
# quiet when everything is already there. Everything comes from the package
# registries (crates.io, npm, the Go module proxy, Debian).
#   scripts/setup.sh            the wasm32 target, rustfmt, clippy, wasm-bindgen-cli, Node packages, Go modules
#   scripts/setup.sh --browser  … and Chromium + ChromeDriver for browser tests
source "$(dirname "$0")/lib.sh"

if ! grep -qx wasm32-unknown-unknown <<<"$(rustup target list --installed)"; then
  step "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

# rustfmt and clippy: the formatting and lint gates of scripts/test.sh.
for component in rustfmt clippy; do
  if ! grep -q "^$component" <<<"$(rustup component list --installed)"; then
    step "rustup component add $component"
    rustup component add "$component"
  fi
done

want="$(wasm_bindgen_version)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
if [ "$have" != "$want" ]; then
  step "cargo install wasm-bindgen-cli $want (have: ${have:-none})"
  # Not --locked: the registry mirror lacks a crate its lockfile pins.
  cargo install wasm-bindgen-cli --version "$want" --no-default-features --force
fi

if [ ! -x node_modules/.bin/esbuild ] || [ ! -x node_modules/.bin/prettier ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

# The Go modules of the kernel plugin's goja harness (tests/goja: goja and
# goja_nodejs at the versions SiYuan v3.7.3 pins), so the tests need no
# network. Go itself is on every machine of the project's kind.
# `go mod download` is a no-op when the module cache has them.
if ! command -v go >/dev/null; then
  echo "setup: Go is missing (the SiYuan plugin's tests, tests/goja, need Go 1.25+: https://go.dev/dl/)" >&2
  exit 1
fi
(cd tests/goja && go mod download)

# Chromium for the browser tests; a CJK font so screenshots show the
# Chinese text instead of empty boxes.
BROWSER_PACKAGES="chromium chromium-driver fonts-wqy-zenhei"
if [ "${1:-}" = "--browser" ] && ! { command -v chromium >/dev/null && command -v chromedriver >/dev/null && [ -d /usr/share/fonts/truetype/wqy ]; }; then
  step "apt-get install $BROWSER_PACKAGES"
  export DEBIAN_FRONTEND=noninteractive
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get install -y --no-install-recommends $BROWSER_PACKAGES >/dev/null 2>&1 ||
    { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y --no-install-recommends $BROWSER_PACKAGES >/dev/null; }
fi

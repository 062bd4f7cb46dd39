#!/usr/bin/env bash
# Builds editkit and serves the demo page (sample notebook: the shared
# fixtures in ../shared/fixtures/siyuan/ when present, else the built-in one)
# on http://127.0.0.1:${PORT:-8080}/.
source "$(dirname "$0")/lib.sh"
scripts/build.sh
step "serving the demo"
exec node scripts/serve.mjs "${PORT:-8080}"

#!/usr/bin/env bash
# Builds editkit and serves the demo page (with the built-in sample notebook)
# on http://127.0.0.1:${PORT:-8080}/.
source "$(dirname "$0")/lib.sh"
scripts/build.sh
step "serving the demo"
exec node scripts/serve.mjs "${PORT:-8080}"

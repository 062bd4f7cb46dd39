#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (not part of CI's default
# path). A crash is copied to tests/fuzz-regressions/<target>/, where
# `cargo test` replays it from then on.
#   scripts/fuzz.sh [seconds per target, default 60] [target …]
# The toolchain is stable: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its
# instrumentation flags; panics (not memory errors) are what we hunt in safe
# Rust, so the sanitizer is off for speed.
source "$(dirname "$0")/lib.sh"
seconds="${1:-60}"
shift || true
command -v cargo-fuzz >/dev/null || { step "cargo install cargo-fuzz"; cargo install cargo-fuzz; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz list)
status=0
for t in "${targets[@]}"; do
  step "fuzz $t for ${seconds}s"
  mkdir -p "fuzz/corpus/$t" "tests/fuzz-regressions/$t"
  # Start from the kept regressions as seeds.
  cp -n tests/fuzz-regressions/"$t"/* "fuzz/corpus/$t/" 2>/dev/null || true
  if ! (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none -O "$t" -- \
        -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 2>&1 | tail -n 25); then
    status=1
  fi
  for crash in fuzz/artifacts/"$t"/crash-* fuzz/artifacts/"$t"/timeout-*; do
    [ -e "$crash" ] || continue
    cp "$crash" "tests/fuzz-regressions/$t/"
    echo "kept $(basename "$crash") as a regression test"
    status=1
  done
done
exit $status

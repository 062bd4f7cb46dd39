#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (a documented manual
# command, not part of CI). A crash is copied to
# tests/fuzz-regressions/<target>/, where `cargo test --test all
# fuzz_regressions` replays it from then on through the very same check
# (fuzz/checks.rs, which also documents each target's input encoding).
#   scripts/fuzz.sh [seconds per target, default 60] [target …]
# Exits 1 if any target crashed.
#
# Toolchain: cargo-fuzz needs nightly-only rustc flags: an installed
# `nightly` channel (`cargo +nightly fuzz`), otherwise stable with
# RUSTC_BOOTSTRAP=1 (the package and the tests build on stable). cargo-fuzz itself is installed
# from crates.io when missing.
# Build: release with debug assertions and overflow checks (-O -a), so an
# overflow the `cargo test` replay would panic on is a crash here too; no
# sanitizer, since panics (not memory errors) are what we hunt in safe Rust.
source "$(dirname "$0")/lib.sh"
seconds="${1:-60}"
shift || true
command -v cargo-fuzz >/dev/null || { step "cargo install cargo-fuzz"; cargo install cargo-fuzz; }
if grep -q '^nightly-x86_64\|^nightly ' <<<"$(rustup toolchain list 2>/dev/null)"; then
  fuzz=(cargo +nightly fuzz)
else
  fuzz=(env RUSTC_BOOTSTRAP=1 cargo fuzz)
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cd fuzz && "${fuzz[@]}" list)
status=0
for t in "${targets[@]}"; do
  step "fuzz $t for ${seconds}s"
  mkdir -p "fuzz/corpus/$t" "tests/fuzz-regressions/$t"
  # Start from the kept regressions as seeds.
  cp -n tests/fuzz-regressions/"$t"/* "fuzz/corpus/$t/" 2>/dev/null || true
  if ! (cd fuzz && "${fuzz[@]}" run --sanitizer none -O -a "$t" -- \
        -max_total_time="$seconds" -max_len=8192 -print_final_stats=1 2>&1 | tail -n 25); then
    status=1
  fi
  for crash in fuzz/artifacts/"$t"/crash-* fuzz/artifacts/"$t"/timeout-* fuzz/artifacts/"$t"/oom-*; do
    [ -e "$crash" ] || continue
    mv -f "$crash" "tests/fuzz-regressions/$t/"
    echo "kept $(basename "$crash") as a regression test"
    status=1
  done
done
exit $status

#!/usr/bin/env bash
# Runs the cargo-fuzz targets, each for the given number of seconds (default 60).
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(never_panic differential output_valid guided verify)
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  cp -n seeds/* "corpus/$target/" 2>/dev/null || true
  echo "== fuzzing $target for ${seconds}s"
  cargo +nightly fuzz run "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=2048
done

#!/usr/bin/env bash
# Compares every outcome of the parser (value and full repair log, or error) at BASE (a commit,
# default HEAD) with the working tree's, on the inputs of crates/llmjson/examples/outcomes.rs
# (21,600 generated cases, long replies, the benchmark families, every corpus case at two
# levels). A change meant only to make the parser faster must print "identical".
# Usage: scripts/outcomes.sh [BASE]   (env SEEDS, LARGE, LLMJSON_CORPORA as the example reads)
# The example is copied into BASE's tree, so BASE needs the APIs it uses (any commit since it
# was added).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
base="${1:-HEAD}"
work="$root/target/outcomes"
mkdir -p "$work"
export LLMJSON_CORPORA="${LLMJSON_CORPORA:-$root/../shared/corpora}"

tree="$work/base-tree"
git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git worktree add --detach --quiet "$tree" "$base"
trap 'git -C "$root" worktree remove --force "$tree" 2>/dev/null || true' EXIT
cp crates/llmjson/examples/outcomes.rs "$tree/crates/llmjson/examples/outcomes.rs"

echo "== outcomes at $base ($(git rev-parse --short "$base"))"
(cd "$tree" && CARGO_TARGET_DIR="$work/base-target" cargo run -q --release -p llmjson --example outcomes) > "$work/base.tsv"
echo "== outcomes of the working tree"
cargo run -q --release -p llmjson --example outcomes > "$work/head.tsv"

total=$(wc -l < "$work/head.tsv")
if cmp -s "$work/base.tsv" "$work/head.tsv"; then
  echo "identical: $total outcomes"
  exit 0
fi
changed=$(diff "$work/base.tsv" "$work/head.tsv" | grep -c '^>' || true)
echo "DIFFERENT: $changed of $total outcomes changed (base: $work/base.tsv, now: $work/head.tsv); the first:"
diff "$work/base.tsv" "$work/head.tsv" | head -n 8 | cut -c1-400
exit 1

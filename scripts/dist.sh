#!/usr/bin/env bash
# Builds what a user installs without a Rust toolchain, into dist/ (or the folder given):
#
#   llmjson-<v>-cp311-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl   pip install it (CPython 3.11+)
#   llmjson-<v>.tar.gz                            the Python sdist (builds with cargo)
#   llmjson-<v>.tgz                               npm install it (Node 18+): a prebuilt addon for
#                                                 linux-x64-gnu, and the Rust sources to build one elsewhere
#   llmjson-<v>-x86_64-unknown-linux-gnu.tar.gz   the llmjson command, with README, licences, the examples
#   SHA256SUMS, and <archive>.sha256 beside the CLI archive
#
# Every binary is linked against glibc 2.17 (manylinux2014) by zig: the ziglang, maturin and
# cargo-zigbuild packages from PyPI, installed into target/dist-tools. The version is the cargo
# workspace's (Cargo.toml), written into the npm package here. Needs the Rust toolchain, Python
# 3.11+ with pip, and npm. scripts/dist_check.py tests the result where no cargo is on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
OUT="$(mkdir -p "${1:-dist}" && cd "${1:-dist}" && pwd)"
PYTHON="${PYTHON:-python3}"
TRIPLE=x86_64-unknown-linux-gnu
GLIBC=2.17
STAGE="$ROOT/target/dist-stage"

VERSION="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' Cargo.toml)"
[ -n "$VERSION" ] || { echo "dist: no version in Cargo.toml's [workspace.package]" >&2; exit 1; }
grep -q "^## \[$VERSION\]" CHANGELOG.md || { echo "dist: CHANGELOG.md has no section for $VERSION" >&2; exit 1; }
echo "== llmjson $VERSION into $OUT"
rm -f "$OUT"/llmjson-*

echo "== tools: maturin, ziglang, cargo-zigbuild (PyPI) in target/dist-tools"
TOOLS="$ROOT/target/dist-tools"
[ -x "$TOOLS/bin/python" ] || "$PYTHON" -m venv "$TOOLS"
"$TOOLS/bin/python" -m pip install -q --disable-pip-version-check \
  "maturin==1.16.0" "ziglang==0.17.1" "cargo-zigbuild==0.24.1" "auditwheel==6.8.2"
export PATH="$TOOLS/bin:$PATH"

echo "== the Python wheel (abi3, manylinux2014) and sdist"
# A target folder of its own: maturin's zig linker settings and cargo-zigbuild's differ, and in
# one folder each build would throw the other's away.
CARGO_TARGET_DIR="$ROOT/target/dist-py" maturin build --profile dist --locked --zig \
  --compatibility manylinux2014 --target "$TRIPLE" -m crates/llmjson-py/Cargo.toml --out "$OUT"
maturin sdist -m crates/llmjson-py/Cargo.toml --out "$OUT"

echo "== the CLI and the Node addon (glibc $GLIBC)"
cargo zigbuild --profile dist --locked -p llmjson-cli -p llmjson-node --target "$TRIPLE.$GLIBC"
BIN="${CARGO_TARGET_DIR:-$ROOT/target}/$TRIPLE/dist"

echo "== the CLI archive"
rm -rf "$STAGE" && mkdir -p "$STAGE"
CLI="llmjson-$VERSION-$TRIPLE"
mkdir -p "$STAGE/$CLI"
cp "$BIN/llmjson" README.md LICENSE-MIT LICENSE-APACHE CHANGELOG.md "$STAGE/$CLI/"
# The examples the README's command-line examples use, beside the command.
cp -R examples "$STAGE/$CLI/examples"
tar -C "$STAGE" -czf "$OUT/$CLI.tar.gz" "$CLI"
(cd "$OUT" && sha256sum "$CLI.tar.gz" > "$CLI.tar.gz.sha256")

echo "== the npm package: prebuilt linux-x64-gnu addon, and the Rust sources for other platforms"
NPM="$STAGE/npm"
mkdir -p "$NPM"
# The files package.json lists (what `npm pack` of the folder would take), with the version
# written in; the addon, prebuilt, in place of a source build.
"$PYTHON" - crates/llmjson-node "$NPM" "$VERSION" <<'PY'
import json, shutil, sys
from pathlib import Path
source, stage, version = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
package = json.loads((source / "package.json").read_text(encoding="utf-8"))
for name in package["files"]:
    if name != "llmjson.node":
        shutil.copy2(source / name, stage / name)
package["version"] = version
package.pop("private", None)
package["files"] = [f for f in package["files"] if f != "llmjson.node"] + [
    "llmjson.linux-x64-gnu.node", "rust/", "CHANGELOG.md", "LICENSE-MIT", "LICENSE-APACHE"]
# A user's install needs none of the development tools, and runs only the install script.
package.pop("devDependencies", None)
package["scripts"] = {"install": package["scripts"]["install"]}
(stage / "package.json").write_text(json.dumps(package, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
PY
cp README.md LICENSE-MIT LICENSE-APACHE CHANGELOG.md "$NPM/"
cp "$BIN/libllmjson_node.so" "$NPM/llmjson.linux-x64-gnu.node"
# The Rust sources of the addon, as a workspace of their own: the crates' manifests without
# what only this repository's tests and benchmarks use.
"$PYTHON" scripts/dist_vendor.py "$ROOT" "$NPM/rust"
cp Cargo.lock "$NPM/rust/Cargo.lock"
# cargo drops the lock entries of the crates left out (offline: every crate is already known).
(cd "$NPM/rust" && cargo metadata --offline --format-version 1 >/dev/null)
(cd "$NPM" && npm pack --silent --pack-destination "$OUT" >/dev/null)

(cd "$OUT" && sha256sum llmjson-* | grep -v '\.sha256$' > SHA256SUMS)
echo "== dist:"
(cd "$OUT" && ls -l llmjson-* SHA256SUMS)

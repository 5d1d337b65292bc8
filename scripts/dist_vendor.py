"""Writes the Rust sources of the Node addon as a cargo workspace of their own, for the npm
package that scripts/dist.sh builds: where no prebuilt addon fits the platform, its install
script builds one from these (`napi build --manifest-path rust/llmjson-node/Cargo.toml`).

The crates keep their manifests, less what only this repository's tests and benchmarks use
(dev-dependencies, test and bench targets, the README the doctests read); the workspace keeps
the shared versions, lints and profiles of the repository's own Cargo.toml.

Usage: python3 scripts/dist_vendor.py REPO_ROOT OUT_DIR
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

CRATES = {"llmjson": ["src"], "llmjson-node": ["src", "build.rs"]}
DROPPED_SECTIONS = ("[dev-dependencies]", "[[test]]", "[[bench]]", "[[example]]")


def without_sections(manifest: str, dropped: tuple[str, ...]) -> str:
    """The manifest less the TOML tables whose header is in `dropped` (each up to the next header)."""
    out, skipping = [], False
    for line in manifest.splitlines(keepends=True):
        header = line.strip()
        if header.startswith("["):
            skipping = header in dropped
        if not skipping:
            out.append(line)
    return "".join(out)


def workspace_manifest(root_manifest: str) -> str:
    """The repository's workspace manifest with only the vendored crates as members."""
    members = ", ".join(f'"{name}"' for name in CRATES)
    lines = []
    for line in root_manifest.splitlines(keepends=True):
        if line.startswith("members = "):
            line = f"members = [{members}]\n"
        lines.append(line)
    return "".join(lines)


def main(root: Path, out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "Cargo.toml").write_text(
        workspace_manifest((root / "Cargo.toml").read_text(encoding="utf-8")), encoding="utf-8"
    )
    for crate, parts in CRATES.items():
        source, target = root / "crates" / crate, out / crate
        target.mkdir()
        manifest = without_sections((source / "Cargo.toml").read_text(encoding="utf-8"), DROPPED_SECTIONS)
        manifest = "".join(l for l in manifest.splitlines(keepends=True) if not l.startswith("readme = "))
        (target / "Cargo.toml").write_text(manifest, encoding="utf-8")
        for part in parts:
            if (source / part).is_dir():
                shutil.copytree(source / part, target / part)
            else:
                shutil.copy2(source / part, target / part)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))

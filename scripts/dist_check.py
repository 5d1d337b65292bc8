"""Installs what scripts/dist.sh wrote to dist/ the way a user without Rust would, and runs each.

Every install and run happens with no cargo, rustc or rustup on PATH (and CARGO_HOME and
RUSTUP_HOME pointing at empty folders), in fresh places under a temporary folder, without
downloading anything (pip's and npm's offline settings):

- the Python wheel in a new virtualenv: its tags (abi3, manylinux_2_17 as `auditwheel show`
  reads the binary), its size, `llmjson.__version__`, a parse; the same file in a virtualenv of
  every other CPython from 3.11 found on the machine (PATH, pyenv), and refused by older ones;
- the npm tarball in an empty project: its install script must use the prebuilt addon (no
  build), `package.json`'s version, a parse;
- the CLI archive unpacked: `llmjson --version`, a repair of the example the archive carries,
  the examples the README's command-line examples use; its SHA-256 file and SHA256SUMS;
- the sdist holds the Rust sources it builds from;
- one version everywhere: the cargo workspace's, in the CHANGELOG, the npm package.json of this
  checkout, and every artifact.

With --source-build (cargo is then needed), the npm tarball is also installed with
LLMJSON_BUILD_FROM_SOURCE=1: its install script builds the addon from the Rust sources it
carries, as it does where no prebuilt addon fits the platform.

The README's own Install commands and every other example of it run as written in
scripts/readme_check.py, which .ci/run runs next.

Usage: python3 scripts/dist_check.py [DIST] [--source-build]
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRIPLE = "x86_64-unknown-linux-gnu"
WHEEL_SIZE_LIMIT = 5 * 1024 * 1024
RUST_TOOLS = ("cargo", "rustc", "rustup")


class CheckFailed(Exception):
    pass


def check(condition: bool, message: str) -> None:
    if not condition:
        raise CheckFailed(message)


def workspace_version() -> str:
    manifest = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    return manifest["workspace"]["package"]["version"]


def rustless_env(home: Path) -> dict[str, str]:
    """This process's environment with no Rust toolchain reachable, and installers offline."""
    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not any((Path(d) / t).exists() for t in RUST_TOOLS)]
    env = dict(os.environ)
    env.update(
        PATH=os.pathsep.join(keep),
        CARGO_HOME=str(home / "no-cargo"),
        RUSTUP_HOME=str(home / "no-rustup"),
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        npm_config_offline="true",
        npm_config_audit="false",
        npm_config_fund="false",
        npm_config_update_notifier="false",
    )
    for name in ("RUSTC", "RUSTC_WRAPPER", "CARGO", "CARGO_TARGET_DIR", "LLMJSON_BUILD_FROM_SOURCE"):
        env.pop(name, None)
    for tool in RUST_TOOLS:
        check(shutil.which(tool, path=env["PATH"]) is None, f"{tool} is still on the PATH of the rustless environment")
    for tool in ("node", "npm", "tar", "sh"):
        check(shutil.which(tool, path=env["PATH"]) is not None,
              f"{tool} is lost with the folders that hold a Rust toolchain ({shutil.which(tool)}): "
              "install the toolchain apart from it (rustup's ~/.cargo/bin) to run this check")
    return env


def run(args: list[str] | str, env: dict[str, str], cwd: Path, **kw) -> subprocess.CompletedProcess:
    result = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, shell=isinstance(args, str), **kw)
    if result.returncode != 0:
        raise CheckFailed(f"`{args if isinstance(args, str) else ' '.join(args)}` failed ({result.returncode}):\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result


def one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    check(len(found) == 1, f"expected one {pattern} in {dist}, found {[f.name for f in found]}")
    return found[0]


def check_sums(dist: Path, cli: Path) -> None:
    sums = (dist / "SHA256SUMS").read_text(encoding="utf-8").split("\n")
    listed = {}
    for line in filter(None, sums):
        digest, name = line.split(maxsplit=1)
        listed[name] = digest
    artifacts = [p for p in dist.glob("llmjson-*") if not p.name.endswith(".sha256")]
    check(sorted(listed) == sorted(p.name for p in artifacts), f"SHA256SUMS lists {sorted(listed)}, dist holds {sorted(p.name for p in artifacts)}")
    for path in artifacts:
        check(hashlib.sha256(path.read_bytes()).hexdigest() == listed[path.name], f"{path.name}: its SHA-256 is not the one SHA256SUMS gives")
    own = (dist / f"{cli.name}.sha256").read_text(encoding="utf-8").split()
    check(own == [listed[cli.name], cli.name], f"{cli.name}.sha256 does not hold the archive's SHA-256")


def check_wheel(wheel: Path, version: str) -> str:
    # PEP 427 name: the abi3 tag is what makes one file serve every CPython from 3.11.
    check(wheel.name.startswith(f"llmjson-{version}-cp311-abi3-"), f"the wheel is not abi3 for CPython 3.11+: {wheel.name}")
    check("manylinux_2_17_x86_64" in wheel.name, f"the wheel is not manylinux_2_17 (manylinux2014): {wheel.name}")
    size = wheel.stat().st_size
    check(size < WHEEL_SIZE_LIMIT, f"the wheel is {size} bytes, over {WHEEL_SIZE_LIMIT}")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        check(any(n.startswith("llmjson/_llmjson") and n.endswith(".so") for n in names), "the wheel has no native module")
        check("llmjson/py.typed" in names, "the wheel lacks py.typed")
    auditwheel = shutil.which("auditwheel") or str(ROOT / "target/dist-tools/bin/auditwheel")
    if Path(auditwheel).exists():
        shown = subprocess.run([auditwheel, "show", str(wheel)], capture_output=True, text=True)
        text = " ".join(shown.stdout.split())
        check(shown.returncode == 0 and 'consistent with the following platform tag: "manylinux_2_17_x86_64"' in text,
              f"auditwheel does not accept the wheel as manylinux_2_17_x86_64:\n{shown.stdout}{shown.stderr}")
        audited = "auditwheel: manylinux_2_17_x86_64"
    else:
        raise CheckFailed("auditwheel is not installed (scripts/dist.sh installs it in target/dist-tools)")
    return f"wheel {size / 1e6:.2f} MB, {audited}"


def other_cpythons() -> dict[tuple[int, int], Path]:
    """CPython interpreters on this machine besides the one running this (python3.N on PATH or
    under pyenv's versions folder), by version."""
    found: dict[tuple[int, int], Path] = {}
    places = []
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    if pyenv.is_dir():
        places += sorted(v / "bin" for v in pyenv.iterdir())
    # (pyenv's shims run the selected version, whatever their name says.)
    places += [Path(d) for d in os.environ.get("PATH", "").split(os.pathsep) if d and "shims" not in Path(d).parts]
    for place in places:
        for minor in range(8, 20):
            exe = place / f"python3.{minor}"
            if (3, minor) not in found and exe.is_file() and os.access(exe, os.X_OK) and (3, minor) != sys.version_info[:2]:
                found[(3, minor)] = exe
    return found


def check_wheel_across_pythons(wheel: Path, env: dict[str, str], home: Path) -> str:
    """The one abi3 wheel installs and runs on every other CPython from 3.11 found here, and the
    newest CPython older than 3.11 refuses it (the tag says so, before any code runs)."""
    tried, refused = [], []
    found = other_cpythons()
    # Every newer one, and the newest older one (each virtualenv costs seconds).
    older = [v for v in found if v < (3, 11)]
    chosen = {v: exe for v, exe in found.items() if v >= (3, 11) or v == max(older, default=None)}
    for (major, minor), exe in sorted(chosen.items()):
        venv = home / f"venv{major}{minor}"
        made = subprocess.run([str(exe), "-m", "venv", str(venv)], env=env, capture_output=True, text=True)
        if made.returncode != 0:
            print(f"dist check: {exe} cannot make a virtualenv, not tried ({made.stderr.strip()[-200:]})", file=sys.stderr)
            continue
        pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", str(wheel)], env=env, capture_output=True, text=True)
        if minor >= 11:
            check(pip.returncode == 0, f"the wheel does not install on CPython {major}.{minor}:\n{pip.stdout[-2000:]}{pip.stderr[-2000:]}")
            out = run([str(venv / "bin" / "python"), "-c", "import llmjson; print(llmjson.loads(\"{'a': [1, 2,], b: True}\"))"], env, home)
            check(out.stdout.strip() == "{'a': [1, 2], 'b': True}", f"CPython {major}.{minor}: {out.stdout!r}")
            tried.append(f"{major}.{minor}")
        else:
            check(pip.returncode != 0, f"CPython {major}.{minor} installed a wheel made for 3.11 and later")
            refused.append(f"{major}.{minor}")
    return f"the same wheel on CPython {', '.join(tried) or 'no other version'} (refused by {', '.join(refused) or 'none older found'})"


def check_sdist(sdist: Path, version: str) -> None:
    with tarfile.open(sdist) as t:
        names = t.getnames()
    top = f"llmjson-{version}"
    for needed in ("pyproject.toml", "crates/llmjson/src/lib.rs", "crates/llmjson-py/src/lib.rs", "Cargo.lock"):
        check(f"{top}/{needed}" in names or any(n.endswith("/" + needed) for n in names), f"the sdist lacks {needed}")


def main(argv: list[str]) -> int:
    source_build = "--source-build" in argv
    args = [a for a in argv if not a.startswith("--")]
    dist = Path(args[0] if args else ROOT / "dist").resolve()
    version = workspace_version()
    report = []

    # One version everywhere.
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    check(re.search(rf"^## \[{re.escape(version)}\]", changelog, flags=re.M) is not None, f"CHANGELOG.md has no section for {version}")
    node_package = json.loads((ROOT / "crates/llmjson-node/package.json").read_text(encoding="utf-8"))
    check(node_package["version"] == version, f"crates/llmjson-node/package.json says {node_package['version']}, the workspace {version}")

    wheel = one(dist, f"llmjson-{version}-*.whl")
    sdist = one(dist, f"llmjson-{version}.tar.gz")
    npm = one(dist, f"llmjson-{version}.tgz")
    cli = one(dist, f"llmjson-{version}-{TRIPLE}.tar.gz")
    check_sums(dist, cli)
    report.append(check_wheel(wheel, version))
    check_sdist(sdist, version)

    with tempfile.TemporaryDirectory(prefix="llmjson-dist-") as tmp:
        home = Path(tmp)
        env = rustless_env(home)
        venv = home / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
        env["VIRTUAL_ENV"] = str(venv)
        user = home / "user"
        user.mkdir()

        # Each file installed as a user without Rust installs it, offline.
        timings = {}
        for tool, command in (
            ("pip", ["pip", "install", str(wheel)]),
            ("npm", ["npm", "install", str(npm), "--no-audit", "--no-fund", "--loglevel=error"]),
            ("tar", ["tar", "-xzf", str(cli)]),
        ):
            started = time.monotonic()
            run(command, env, user)
            timings[tool] = time.monotonic() - started
        report.append("install: " + ", ".join(f"{tool} {secs:.1f} s" for tool, secs in timings.items()))

        # Python: the wheel in the fresh virtualenv.
        py = str(venv / "bin" / "python")
        got = run([py, "-c", "import llmjson; print(llmjson.__version__)"], env, home).stdout.strip()
        check(got == version, f"llmjson.__version__ is {got}, not {version}")
        got = run([py, "-c", "import llmjson; print(llmjson.parse(\"{'a': [1, 2,],}\").value)"], env, home).stdout.strip()
        check(got == "{'a': [1, 2]}", f"the wheel's parse gave {got!r}")
        report.append(check_wheel_across_pythons(wheel, env, home))

        # Node: installed by the README's command into `user`; the prebuilt addon, no build.
        package = user / "node_modules" / "llmjson"
        check((package / "llmjson.linux-x64-gnu.node").exists(), "the npm package has no prebuilt addon")
        check(not (package / "llmjson.node").exists(), "npm install built the addon instead of using the prebuilt one")
        check(not (package / "rust" / "target").exists(), "npm install ran cargo")
        got = json.loads((package / "package.json").read_text(encoding="utf-8"))["version"]
        check(got == version, f"the npm package's version is {got}, not {version}")
        got = run(["node", "-p", "require('llmjson').version"], env, user).stdout.strip()
        check(got == version, f"the npm package's addon says version {got}, not {version}")
        got = run(["node", "-p", "JSON.stringify(require('llmjson').parse(\"{'a': [1, 2,],}\").value)"], env, user).stdout.strip()
        check(got == '{"a":[1,2]}', f"the npm package's parse gave {got!r}")

        # The CLI: unpacked by the README's command into `user`.
        folder = user / f"llmjson-{version}-{TRIPLE}"
        binary = folder / "llmjson"
        got = run([str(binary), "--version"], env, folder).stdout.strip()
        check(got == f"llmjson {version}", f"`llmjson --version` says {got!r}")
        out = run([str(binary), "repair", "--log", "examples/truncated-plan.txt"], env, folder)
        value = json.loads(out.stdout)
        check(isinstance(value, dict) and "dataModel" in value, f"the CLI's repair printed {out.stdout[:200]!r}")
        check("closed_truncated_object" in out.stderr, "the CLI's repair log is missing")
        # The files the README's command-line examples name, beside the command.
        named = set(re.findall(r"examples/[\w./-]+\.\w+", (ROOT / "README.md").read_text(encoding="utf-8")))
        missing = sorted(n for n in named if (ROOT / n).is_file() and not (folder / n).is_file())
        check(not missing, f"the CLI archive lacks the README's examples {missing}")
        report.append(f"CLI {binary.stat().st_size / 1e6:.1f} MB")

        if source_build:
            # Where no prebuilt addon fits, the install script builds from the Rust sources the
            # tarball carries: forced here, with cargo back on PATH.
            project = home / "source-build"
            project.mkdir()
            (project / "package.json").write_text('{"name": "consumer", "version": "1.0.0", "private": true}')
            build_env = dict(os.environ, LLMJSON_BUILD_FROM_SOURCE="1")
            started = time.monotonic()
            run(["npm", "install", str(npm), "--no-audit", "--no-fund", "--loglevel=error"], build_env, project)
            built = project / "node_modules" / "llmjson"
            check((built / "llmjson.node").exists(), "LLMJSON_BUILD_FROM_SOURCE=1 did not build the addon")
            check(not (built / "rust" / "target").exists(), "the source build left its target folder in node_modules")
            out = run(["node", "-e", "const l = require('llmjson'); console.log(JSON.stringify(l.parse('{a: 1,}').value))"], build_env, project)
            check(json.loads(out.stdout) == {"a": 1}, f"the addon built from source answered {out.stdout!r}")
            report.append(f"npm source build {time.monotonic() - started:.0f} s")

    print(f"dist check: llmjson {version}, installed and run with no Rust toolchain: " + "; ".join(report))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except CheckFailed as e:
        print(f"dist check FAILED: {e}", file=sys.stderr)
        sys.exit(1)

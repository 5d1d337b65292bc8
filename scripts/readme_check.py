"""Runs every code block of the README as a newcomer would: in order, from a clean folder, against
the files scripts/dist.sh wrote (installed by the README's own Install block), and fails if one
fails or prints other than the README shows.

    python3 scripts/readme_check.py [DIST]

How each block runs:
- ```sh: `bash -e` in the user's folder, with no Rust toolchain on PATH, `DIST` set to the dist
  folder (the Install block's first line says what it is) and `/path/to/llmjson` meaning this
  checkout. The Install block installs the wheel into the user's virtualenv, the npm package into
  the user's folder and unpacks the command, whose folder the later blocks find on PATH.
- ```python: the virtualenv's python runs it, in the user's folder.
- ```js: written to a file in the user's folder and run by node (`require('llmjson')` is the
  package the Install block put there).
- ```console: each `$ command` runs in the command's folder (the unpacked archive: its examples);
  what it prints, standard output and error in the order written, must be the lines the README
  shows under it (a `...` line ends the comparison; a duration and rate such as
  `0.02 s (15812/s)` match any other).
- ```text, ```toml, ```rust are not run here: text blocks are synopses, and the Rust blocks run
  as the llmjson crate's doctests (`cargo test --doc`: the README is its documentation).

A comment on the line before a block says how else to treat it:
- `<!-- readme-check: skip REASON -->`: not run, REASON printed (a block that needs a network, a
  model, or a crash; the command that runs this check).
- `<!-- readme-check: checkout -->`: a sh block run in this checkout, with cargo.
- `<!-- readme-check: with-cargo -->`: a sh block run with cargo, in a folder, virtualenv and
  CARGO_INSTALL_ROOT of its own (a source build must not replace what the Install block
  installed).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = "/path/to/llmjson"
TIMING = re.compile(r"\d+(?:\.\d+)? s \(\d+/s\)")


def _dist_check():
    """scripts/dist_check.py, for its rustless environment and its failure type."""
    spec = importlib.util.spec_from_file_location("dist_check", ROOT / "scripts" / "dist_check.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


dist_check = _dist_check()
CheckFailed = dist_check.CheckFailed


@dataclass
class Block:
    language: str
    text: str
    line: int
    mark: str  # "", "skip …", "checkout", "with-cargo"


def blocks(readme: str) -> list[Block]:
    """The README's fenced blocks, in order, each with the mark of the comment before it."""
    out = []
    lines = readme.splitlines()
    i = 0
    while i < len(lines):
        opening = re.fullmatch(r"(\s*)```(\w*)\s*", lines[i])
        if not opening:
            i += 1
            continue
        indent, language = opening.group(1), opening.group(2)
        previous = next((l.strip() for l in reversed(lines[:i]) if l.strip()), "")
        mark = re.fullmatch(r"<!-- readme-check: (.*?) -->", previous)
        body = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j])
            j += 1
        if j == len(lines):
            raise CheckFailed(f"README.md:{i + 1}: a block that never closes")
        out.append(Block(language, "\n".join(body) + "\n", i + 1, mark.group(1) if mark else ""))
        i = j + 1
    return out


def console_steps(text: str) -> list[tuple[str, list[str]]]:
    """A console block's commands, each with the lines shown under it."""
    steps: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise CheckFailed(f"a console block starts with output, not a `$ ` command: {line!r}")
    return steps


def same_output(shown: list[str], printed: list[str]) -> str | None:
    """Why what a command printed is not what the README shows (None when it is)."""
    printed = [l.rstrip() for l in printed]
    for i, want in enumerate(l.rstrip() for l in shown):
        if want == "...":
            return None
        got = printed[i] if i < len(printed) else "<nothing more>"
        if TIMING.sub("<time>", want) != TIMING.sub("<time>", got):
            return f"line {i + 1}: the README shows\n    {want}\n  it printed\n    {got}"
    if len(printed) > len(shown):
        return f"it printed more lines than the README shows, from\n    {printed[len(shown)]}"
    return None


class Walkthrough:
    def __init__(self, dist: Path, home: Path) -> None:
        self.dist = dist
        self.home = home
        self.user = home / "user"
        self.user.mkdir()
        base = dist_check.rustless_env(home)
        # A newcomer's installers reach their registries (pydantic and zod come from them).
        for offline in ("PIP_NO_INDEX", "npm_config_offline"):
            base.pop(offline, None)
        venv = home / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=base)
        self.python = venv / "bin" / "python"
        base["PATH"] = f"{venv / 'bin'}{os.pathsep}{base['PATH']}"
        base["VIRTUAL_ENV"] = str(venv)
        base["DIST"] = str(dist)
        self.env = base

    def cli_folder(self) -> Path:
        found = sorted(self.user.glob("llmjson-*-x86_64-unknown-linux-gnu"))
        if len(found) != 1:
            raise CheckFailed(f"the Install block left no one unpacked command in {self.user}: {found}")
        return found[0]

    def user_env(self) -> dict[str, str]:
        env = dict(self.env)
        folders = sorted(self.user.glob("llmjson-*-x86_64-unknown-linux-gnu"))
        if folders:
            env["PATH"] = f"{folders[0]}{os.pathsep}{env['PATH']}"
        return env

    def sh(self, block: Block) -> str:
        script = block.text.replace(PLACEHOLDER, str(ROOT))
        if block.mark == "checkout":
            env, cwd = dict(os.environ), ROOT
        elif block.mark == "with-cargo":
            # A folder, a virtualenv and an install root of its own; cargo builds into this
            # checkout's target folder, so that what CI built already is not built again.
            cwd = self.home / "with-cargo"
            cwd.mkdir(exist_ok=True)
            venv = cwd / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            env = dict(os.environ, VIRTUAL_ENV=str(venv), CARGO_INSTALL_ROOT=str(cwd / "cargo"))
            env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
            env.setdefault("CARGO_TARGET_DIR", str(ROOT / "target"))
        else:
            env, cwd = self.user_env(), self.user
        self.run(["bash", "-e", "-c", script], env, cwd, block)
        if block.mark == "with-cargo" and not (cwd / "cargo" / "bin" / "llmjson").exists():
            raise CheckFailed(f"README.md:{block.line}: cargo install put no llmjson in its install root")
        return "ran" + (f" ({block.mark})" if block.mark else "")

    def python_block(self, block: Block) -> str:
        path = self.user / f"readme_{block.line}.py"
        path.write_text(block.text, encoding="utf-8")
        self.run([str(self.python), path.name], self.user_env(), self.user, block)
        return "ran"

    def js_block(self, block: Block) -> str:
        path = self.user / f"readme_{block.line}.js"
        path.write_text(block.text, encoding="utf-8")
        self.run(["node", path.name], self.user_env(), self.user, block)
        return "ran"

    def console(self, block: Block) -> str:
        folder = self.cli_folder()
        status = 0
        for command, shown in console_steps(block.text):
            # `$?` is the status of the command before, as in the shell the README shows.
            script = f"(exit {status}); {command}"
            result = subprocess.run(
                ["bash", "-c", script], env=self.user_env(), cwd=folder,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )
            status = result.returncode
            why = same_output(shown, result.stdout.splitlines())
            if why:
                raise CheckFailed(f"README.md:{block.line}: `$ {command}` (exit {status}): {why}")
        return "output as shown"

    def run(self, args: list[str], env: dict[str, str], cwd: Path, block: Block) -> None:
        try:
            dist_check.run(args, env, cwd)
        except CheckFailed as failed:
            raise CheckFailed(f"README.md:{block.line}: the ```{block.language} block\n{block.text}failed: {failed}") from None


def main(argv: list[str]) -> int:
    dist = Path(argv[0] if argv else ROOT / "dist").resolve()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    report = []
    counts: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="llmjson-readme-") as tmp:
        walk = Walkthrough(dist, Path(tmp))
        for block in blocks(readme):
            started = time.monotonic()
            if block.mark.startswith("skip"):
                outcome = "skipped: " + block.mark.removeprefix("skip").strip()
            elif block.language == "sh":
                outcome = walk.sh(block)
            elif block.language == "python":
                outcome = walk.python_block(block)
            elif block.language in ("js", "javascript"):
                outcome = walk.js_block(block)
            elif block.language == "console":
                outcome = walk.console(block)
            elif block.language in ("rust", "toml", "text", ""):
                outcome = "not run here" + (" (a doctest)" if block.language == "rust" else "")
            else:
                raise CheckFailed(f"README.md:{block.line}: no way to run a ```{block.language} block")
            what = outcome.split(" (")[0].split(":")[0]
            counts[what] = counts.get(what, 0) + 1
            report.append(f"  README.md:{block.line:<4} {block.language or 'text':<8} {outcome} ({time.monotonic() - started:.1f} s)")
    print("README check: every block of the README, in order, from a clean folder:")
    print("\n".join(report))
    print("README check: " + ", ".join(f"{n} {what}" for what, n in counts.items()))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except CheckFailed as e:
        print(f"README check FAILED: {e}", file=sys.stderr)
        sys.exit(1)

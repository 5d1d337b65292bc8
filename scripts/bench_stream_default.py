#!/usr/bin/env python3
"""What streaming costs a user who reads no option: `StreamParser()` with its defaults (events on,
never read), a reply fed in chunks and finished, against one `parse` of the whole reply, in Rust
(`examples/stream_cost.rs`) and in Python (the package installed in target/py-venv), in one run.
Writes the "Streaming with the default options" section of docs/benchmarks.md (between its
markers).

    python3 scripts/bench_stream_default.py

Replies: the benchmark generator's plan (`examples/bench_input.rs`) valid, convention-written
(`broken`: bare keys, single quotes, comments, Python literals, trailing commas) and with every
fault at once (`all`), 1 MiB and 4 MiB; chunks of 256 and 16 bytes. Best of 5; the two sizes take
turns (a slow moment of a shared machine falls on both).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- streaming-default: scripts/bench_stream_default.py -->", "<!-- /streaming-default -->"
FAMILIES = [("valid", "valid"), ("broken", "convention-written"), ("all", "every fault at once")]
SIZES = [("1 MiB", 1 << 20), ("4 MiB", 4 << 20)]
CHUNKS = [256, 16]

PYTHON_RUNNER = r'''
import json, sys, time
import llmjson
chunk, paths = int(sys.argv[1]), sys.argv[2:]
texts = [open(p, encoding="utf-8").read() for p in paths]
pieces = {id(t): [t[i:i + chunk] for i in range(0, len(t), chunk)] for t in texts}
def streamed(text):
    parser = llmjson.StreamParser()
    for piece in pieces[id(text)]:
        parser.feed(piece)
    parser.finish()
def loads(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        return False
valid = [loads(t) for t in texts]
best = [{"one_shot": float("inf"), "streamed": float("inf"), "json_loads": float("inf")} for _ in texts]
for _ in range(5):
    for k, text in enumerate(texts):
        for name, f in (("one_shot", llmjson.parse), ("streamed", streamed), ("json_loads", json.loads)):
            if name == "json_loads" and not valid[k]:
                continue
            t = time.perf_counter(); f(text); best[k][name] = min(best[k][name], time.perf_counter() - t)
for k in range(len(texts)):
    if not valid[k]:
        best[k]["json_loads"] = None
print(json.dumps(best))
'''



def run(*args: str, **kw: object) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True, cwd=ROOT, **kw).stdout  # type: ignore[call-overload, no-any-return]


def main() -> None:
    python = ROOT / "target" / "py-venv" / "bin" / "python"
    if not python.exists():
        sys.exit("target/py-venv is missing: run .ci/run (or make the venv and install crates/llmjson-py) first")
    run("cargo", "build", "-q", "--release", "-p", "llmjson", "--example", "bench_input", "--example", "stream_cost")
    inputs = ROOT / "target" / "bench-stream"
    inputs.mkdir(parents=True, exist_ok=True)
    rows = []
    for family, label in FAMILIES:
        paths = []
        for size_label, size in SIZES:
            path = inputs / f"default-{family}-{size}.txt"
            path.write_text(
                run(str(ROOT / "target" / "release" / "examples" / "bench_input"), env={**os.environ, "FAMILY": family, "SIZE": str(size)}),
                encoding="utf-8",
            )
            paths.append(path)
        for chunk in CHUNKS:
            pys = json.loads(run(str(python), "-c", PYTHON_RUNNER, str(chunk), *map(str, paths)))
            rusts = json.loads(run(str(ROOT / "target" / "release" / "examples" / "stream_cost"), str(chunk), *map(str, paths)))
            for (size_label, _), rust, py in zip(SIZES, rusts, pys):
                rows.append((label, size_label, chunk, rust, py))
                print(label, size_label, chunk, f"rust {rust['streamed'] / rust['one_shot']:.2f}x", f"python {py['streamed'] / py['one_shot']:.2f}x", flush=True)
    rows.sort(key=lambda r: ([f[1] for f in FAMILIES].index(r[0]), r[1], -r[2]))
    lines = [
        BEGIN,
        "",
        "## Streaming with the default options",
        "",
        "`StreamParser()` as a user gets it (events on, never read), the reply fed in chunks and "
        "finished, against one `parse` of the whole reply, same run. Events are made only when "
        "read, so these equal the figures with `events=False`. Command: "
        "`python3 scripts/bench_stream_default.py` (best of 5, the two sizes taking turns).",
        "",
        "| reply | size | chunks | Rust `parse` | Rust streamed | ratio | Python `parse` | Python streamed | ratio |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, size_label, chunk, rust, py in rows:
        lines.append(
            f"| {label} | {size_label} | {chunk} B | {rust['one_shot'] * 1e3:.1f} ms | {rust['streamed'] * 1e3:.1f} ms "
            f"| **{rust['streamed'] / rust['one_shot']:.2f}×** | {py['one_shot'] * 1e3:.1f} ms | {py['streamed'] * 1e3:.1f} ms "
            f"| **{py['streamed'] / py['one_shot']:.2f}×** |"
        )
    growth = []
    for label, _ in [(f[1], f[0]) for f in FAMILIES]:
        for chunk in CHUNKS:
            small = next(r for r in rows if r[0] == label and r[1] == "1 MiB" and r[2] == chunk)
            large = next(r for r in rows if r[0] == label and r[1] == "4 MiB" and r[2] == chunk)
            growth.append(
                f"{label}, {chunk} B: Rust {large[3]['streamed'] / small[3]['streamed']:.2f}× "
                f"(`parse` {large[3]['one_shot'] / small[3]['one_shot']:.2f}×), Python "
                f"{large[4]['streamed'] / small[4]['streamed']:.2f}× (`parse` {large[4]['one_shot'] / small[4]['one_shot']:.2f}×"
                + (
                    f", the standard library's `json.loads` {large[4]['json_loads'] / small[4]['json_loads']:.2f}×)"
                    if large[4].get("json_loads") and small[4].get("json_loads")
                    else ")"
                )
            )
    lines += [
        "",
        "4× the size (4 MiB against 1 MiB), streamed time: " + "; ".join(growth) + ".",
        "",
        "One `parse` grows past 4× as well on this machine (a 1 MiB reply and its value stay in the "
        "processor's caches, a 4 MiB one does not; Python's own `json.loads` likewise): read each "
        "streamed growth against the `parse` growth beside it.",
        "",
        END,
    ]
    section = "\n".join(lines)
    doc = DOC.read_text(encoding="utf-8")
    if BEGIN in doc and END in doc:
        doc = doc[: doc.index(BEGIN)] + section + doc[doc.index(END) + len(END) :]
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    DOC.write_text(doc, encoding="utf-8")


if __name__ == "__main__":
    main()

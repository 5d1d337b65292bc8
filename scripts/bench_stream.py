#!/usr/bin/env python3
"""Streaming, timed: a reply fed in small chunks against a one-shot parse, and against the peers
that stream by parsing the whole prefix again at every chunk (partial-json-parser's `loads`,
json_repair's `repair_json(..., stream_stable=True)`), in one run. Writes the "Streaming"
section of docs/benchmarks.md (between its markers; `scripts/bench.py` keeps it).

    python3 scripts/bench_stream.py [--budget SECONDS]

Rust figures come from criterion (`cargo bench -p llmjson --bench stream`, run by this script);
the Python figures from the peers' virtualenv (target/peers/venv, llmjson installed from this
checkout). A peer that re-parses is quadratic: it gets `--budget` seconds per input, and when it
has not finished, the table gives how far it got and the total its own growth predicts
(time ∝ bytes², fitted on its measured part).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "target" / "peers"
DOC = ROOT / "docs" / "benchmarks.md"
BEGIN, END = "<!-- streaming: scripts/bench_stream.py -->", "<!-- /streaming -->"

CASES = [("100KB", 100 << 10, 4), ("1MB", 1 << 20, 16)]

RUNNER = r'''
import json, sys, time
kind, tool, path, chunk, budget = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5])
text = open(path, encoding="utf-8").read()
pieces = [text[i:i + chunk] for i in range(0, len(text), chunk)]

def best(f, runs=3):
    times = []
    for _ in range(runs):
        t = time.perf_counter(); f(); times.append(time.perf_counter() - t)
    return min(times)

out = {"tool": tool, "input": kind, "chunk": chunk, "bytes": len(text.encode())}
if tool == "llmjson":
    import llmjson
    expected = llmjson.parse(text).value
    out["one_shot"] = best(lambda: llmjson.parse(text))
    def fed():
        p = llmjson.StreamParser(events=False)
        for piece in pieces:
            p.feed(piece)
        assert p.finish().value == expected
    out["streamed"] = best(fed)
    def yielded():
        last = None
        for last in llmjson.stream(pieces):
            pass
        assert last == expected
    out["stream_yields"] = best(yielded, runs=1)
else:
    if tool == "json_repair":
        import json_repair
        parse_prefix = lambda s: json_repair.repair_json(s, stream_stable=True, return_objects=True)
        one = lambda: json_repair.loads(text)
    else:
        import partial_json_parser
        parse_prefix = partial_json_parser.loads
        one = lambda: partial_json_parser.loads(text)
    try:
        out["one_shot"] = best(one, runs=1)
    except Exception as e:  # partial-json-parser reads valid JSON prefixes only
        out["one_shot"] = None
        out["one_shot_error"] = type(e).__name__
    started = time.perf_counter()
    done = 0
    for i, piece in enumerate(pieces):
        try:
            parse_prefix(text[: (i + 1) * chunk])
        except Exception:
            pass
        done = i + 1
        if time.perf_counter() - started > budget:
            break
    elapsed = time.perf_counter() - started
    out["streamed"] = elapsed
    out["reached"] = min(done * chunk, len(text))
    out["finished"] = done == len(pieces)
print(json.dumps(out))
'''


def sh(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(args, check=True, **kw)


def fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.1f} µs"


def criterion(group: str, bench: str) -> float | None:
    path = ROOT / "target" / "criterion" / group / bench / "new" / "estimates.json"
    if not path.exists():
        return None
    return json.loads(path.read_text())["median"]["point_estimate"] / 1e9


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=20.0, help="seconds per re-parsing peer per input")
    ap.add_argument("--skip-criterion", action="store_true")
    args = ap.parse_args()

    venv = PEERS / "venv"
    if not (venv / "bin" / "python").exists():
        sh(sys.executable, "-m", "venv", str(venv))
    py = str(venv / "bin" / "python")
    sh(py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "json-repair", "partial-json-parser")
    sh(py, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(ROOT / "crates" / "llmjson-py"))
    versions = {}
    for pkg in ["json-repair", "partial-json-parser"]:
        shown = subprocess.run([py, "-m", "pip", "show", pkg], capture_output=True, text=True).stdout
        versions[pkg] = next((l.split(": ")[1] for l in shown.splitlines() if l.startswith("Version")), "?")

    if not args.skip_criterion:
        sh("cargo", "bench", "-q", "-p", "llmjson", "--bench", "stream", "--", "--warm-up-time", "2",
           "--measurement-time", "5", cwd=ROOT, stdout=subprocess.DEVNULL)

    inputs = ROOT / "target" / "bench-stream"
    inputs.mkdir(parents=True, exist_ok=True)
    rows = []
    for label, size, chunk in CASES:
        for family in ["valid", "broken"]:
            path = inputs / f"{family}-{label}.txt"
            with path.open("w", encoding="utf-8") as f:
                sh("cargo", "run", "-q", "--release", "-p", "llmjson", "--example", "bench_input",
                   cwd=ROOT, stdout=f, env={**os.environ, "FAMILY": family, "SIZE": str(size)})
            for tool in ["llmjson", "json_repair", "partial_json_parser"]:
                out = subprocess.run([py, "-c", RUNNER, f"{family}-{label}", tool, str(path), str(chunk),
                                      str(args.budget)], capture_output=True, text=True, check=True).stdout
                rows.append(json.loads(out))

    lines = [BEGIN, "", "## Streaming", "",
             "A reply fed in small chunks, in total, against one parse of the whole reply. Generated by "
             "`python3 scripts/bench_stream.py` (criterion's medians for Rust; best of 3 in Python, "
             "one run for the peers); same machine, same run.", "",
             "### Rust (`StreamParser`, criterion: `cargo bench -p llmjson --bench stream`)", "",
             "| reply | one-shot `parse` | fed in chunks, no events | ratio | with `events()` after every chunk | one chunk |",
             "|---|---:|---:|---:|---:|---:|"]
    for label, _, chunk in CASES:
        for family in ["valid", "broken"]:
            group = f"stream_{label}_{family}"
            one = criterion(group, "one-shot/parse")
            fed = criterion(group, f"{chunk}B chunks/no events")
            ev = criterion(group, f"{chunk}B chunks/events")
            whole = criterion(group, "one chunk/no events")
            if one and fed:
                lines.append(f"| {label} {family}, {chunk}-byte chunks | {fmt(one)} | {fmt(fed)} | "
                             f"**{fed / one:.2f}×** | {fmt(ev) if ev else '–'} | {fmt(whole) if whole else '–'} |")
    snap = criterion("snapshot_100KB", "snapshot")
    build = criterion("snapshot_100KB", "build the value once (parse_value of the same text)")
    copy = criterion("snapshot_100KB", "copy the value (Value__clone)")
    if snap and copy:
        lines += ["", f"A snapshot of a 100 KB partial value: {fmt(snap)}; copying the value once "
                      f"(`Value::clone`): {fmt(copy)} (**{snap / copy:.2f}×**); `parse_value` of the same "
                      f"cut text: {fmt(build) if build else '–'}."]
    lines += ["", "### Python, against the peers that re-parse the prefix at every chunk", "",
              f"json_repair {versions['json-repair']} (`repair_json(prefix, stream_stable=True, "
              f"return_objects=True)`), partial-json-parser {versions['partial-json-parser']} (`loads(prefix)`). "
              f"A peer gets {args.budget:.0f} s per input; past that, the table says how far it got and "
              "the total its quadratic growth predicts.", "",
              "| reply | tool | one-shot | fed in chunks, in total | ratio to its one-shot |",
              "|---|---|---:|---:|---:|"]
    for r in rows:
        name = f"{r['input']}, {r['chunk']}-byte chunks"
        if r["tool"] == "llmjson":
            lines.append(f"| {name} | llmjson `StreamParser.feed` + `finish` | {fmt(r['one_shot'])} | "
                         f"{fmt(r['streamed'])} | **{r['streamed'] / r['one_shot']:.2f}×** |")
            lines.append(f"| {name} | llmjson `stream()` (yields the value as it grows) | {fmt(r['one_shot'])} | "
                         f"{fmt(r['stream_yields'])} | {r['stream_yields'] / r['one_shot']:.2f}× |")
        elif r["one_shot"] is None:
            lines.append(f"| {name} | {r['tool']} | fails ({r['one_shot_error']}) | – | – |")
        elif r["finished"]:
            lines.append(f"| {name} | {r['tool']} | {fmt(r['one_shot'])} | {fmt(r['streamed'])} | "
                         f"{r['streamed'] / r['one_shot']:.0f}× |")
        else:
            predicted = r["streamed"] * (r["bytes"] / max(r["reached"], 1)) ** 2
            lines.append(f"| {name} | {r['tool']} | {fmt(r['one_shot'])} | stopped after {fmt(r['streamed'])} "
                         f"at {r['reached'] * 100 // r['bytes']}% of the reply; predicted {fmt(predicted)} | "
                         f"~{predicted / r['one_shot']:.0f}× |")
    lines += ["", END]
    block = "\n".join(lines)
    doc = DOC.read_text(encoding="utf-8")
    if BEGIN in doc:
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1] if END in rest else ""
        doc = head.rstrip() + "\n\n" + block + tail
    else:
        doc = doc.rstrip() + "\n\n" + block + "\n"
    DOC.write_text(doc, encoding="utf-8")
    (ROOT / "target" / "bench-stream.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    print(block)


if __name__ == "__main__":
    main()

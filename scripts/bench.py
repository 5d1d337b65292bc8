#!/usr/bin/env python3
"""Times llmjson and its peers on the same inputs in one run; writes docs/benchmarks.md.

    python3 scripts/bench.py [--out docs/benchmarks.md]

Peers: the Rust crates jsonrepair-rs and llm_json (in-process, through bench/peers-rs), the
Python packages json_repair and fast-json-repair (PyPI), and jsonrepair (npm); llmjson through
its library (value and text) and its CLI (a process per run). Inputs (bench/peers-rs generate):
LLM-plan-like documents at 1 KB, 64 KB, 1 MB and 10 MB - valid, broken (unquoted keys, single
quotes, comments, Python literals, trailing commas) and all faults at once inside prose and a
fence - each with the value it should repair to, and 10,000 small broken replies (0.5-4 KB).

Every time is the best of several rounds. Ratios are to serde_json parsing the *valid* twin of the
same document into a Value, measured in the same run. A tool's speed counts only where its value
equals the expected one: other cells are marked "wrong".
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from conformance import PEERS, install_peers  # noqa: E402  (shared peer installation)

INPUTS = ROOT / "target" / "bench-inputs"
SIZES = ["1KB", "64KB", "1MB", "10MB"]
FAMILIES = ["valid", "broken", "all-faults"]


def lines_of(command: list[str], **kw) -> list[dict]:
    out = subprocess.run(command, capture_output=True, text=True, check=True, **kw).stdout
    return [json.loads(l) for l in out.split("\n") if l.strip()]


def time_cli(exe: str) -> list[dict]:
    """llmjson through its command line: one process per run, output to /dev/null."""
    rows = []
    for family in FAMILIES:
        for size in SIZES:
            name = f"{family}-{size}"
            path = INPUTS / f"{name}.txt"
            rounds = 10 if size in ("1KB", "64KB") else 3
            best = float("inf")
            for _ in range(rounds):
                start = time.perf_counter()
                p = subprocess.run([exe, "repair", str(path)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                best = min(best, time.perf_counter() - start)
            expected = json.loads((INPUTS / f"{name}.expected.json").read_text(encoding="utf-8"))
            correct = p.returncode == 0 and json.loads(p.stdout) == expected
            rows.append({"tool": "llmjson (CLI)", "input": name, "bytes": path.stat().st_size, "seconds": best, "correct": correct})
    return rows


def fmt_time(s: float) -> str:
    if s < 1e-3:
        return f"{s * 1e6:.1f} µs"
    if s < 1:
        return f"{s * 1e3:.2f} ms"
    return f"{s:.2f} s"


SECTION_MARKERS = (
    "<!-- batch: written by scripts/bench_batch.py -->",
    "<!-- node: written by crates/llmjson-node/bench/compare.js -->",
    "<!-- streaming: scripts/bench_stream.py -->",
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    args = ap.parse_args()

    versions = install_peers()
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "llmjson-cli"], cwd=ROOT, check=True)
    peers_rs = ROOT / "bench" / "peers-rs"
    subprocess.run(["cargo", "build", "-q", "--release"], cwd=peers_rs, check=True)
    exe_rs = str(peers_rs / "target" / "release" / "peers-rs")
    subprocess.run([exe_rs, "generate", str(INPUTS)], check=True)

    py = str(PEERS / "venv" / "bin" / "python")
    # The Python package, built from this checkout, beside the Python peers.
    subprocess.run([py, "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(ROOT / "crates" / "llmjson-py")], check=True)
    rows: list[dict] = []
    rows += lines_of([exe_rs, "run", str(INPUTS)])
    rows += time_cli(str(ROOT / "target" / "release" / "llmjson"))
    for tool in ["llmjson", "fast_json_repair", "json_repair"]:
        rows += lines_of([py, str(ROOT / "scripts" / "peers" / "python_bench.py"), tool, str(INPUTS)])
    rows += lines_of(["node", str(ROOT / "scripts" / "peers" / "jsonrepair_bench.js"), str(PEERS), str(INPUTS)])

    results = ROOT / "target" / "bench-results.jsonl"
    results.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    docs = {(r["tool"], r["input"]): r for r in rows if "seconds" in r}
    latencies = [r for r in rows if r.get("input") == "replies"]
    tools = []
    for r in rows:
        if "seconds" in r and r["tool"] not in tools and not r["tool"].startswith("serde_json"):
            tools.append(r["tool"])

    def cell(tool: str, name: str) -> str:
        r = docs.get((tool, name))
        if r is None or r.get("seconds") is None:
            return "skipped (too slow)"
        base = docs.get(("serde_json (valid twin)", name))
        ratio = f" ({r['seconds'] / base['seconds']:.2f}×)" if base else ""
        if not r["correct"]:
            return f"wrong ({fmt_time(r['seconds'])})"
        return f"{fmt_time(r['seconds'])}{ratio}"

    out = [
        "# Benchmarks",
        "",
        "llmjson against its peers, on the same inputs, in one run. Generated by:",
        "",
        "```sh",
        "python3 scripts/bench.py",
        "```",
        "",
        f"Run on {datetime.date.today().isoformat()}, {platform.machine()}, {os.cpu_count()} cores, a shared machine "
        "(every figure is the best of several rounds; compare ratios, not absolute times). Peers: "
        f"jsonrepair-rs and llm_json (crates registry, in-process), json-repair {versions['json-repair']} and "
        f"fast-json-repair {versions['fast-json-repair']} (PyPI), jsonrepair {versions['jsonrepair']} (npm).",
        "",
        "Each cell: best time, and in brackets the ratio to serde_json parsing the *valid* twin of the",
        "same document into a `Value` in the same run (1.00× = as fast as a strict parser that needs no",
        "repair). \"wrong\" means the tool's value differs from the expected one: its speed does not count.",
        "",
    ]
    for family, title in [
        ("valid", "Valid documents"),
        ("broken", "Broken: unquoted keys, single quotes, comments, Python literals, trailing commas"),
        ("all-faults", "Every fault at once (smart quotes, unescaped quotes in code, missing commas, raw newlines), in prose and a fence, cut short"),
    ]:
        out += [f"## {title}", "", "| tool | " + " | ".join(SIZES) + " |", "|---|" + "---:|" * len(SIZES)]
        base = " | ".join(fmt_time(docs[("serde_json (valid twin)", f"{family}-{s}")]["seconds"]) if ("serde_json (valid twin)", f"{family}-{s}") in docs else "—" for s in SIZES)
        out.append(f"| serde_json (valid twin: the baseline) | {base} |")
        for tool in tools:
            out.append(f"| {tool} | " + " | ".join(cell(tool, f"{family}-{s}") for s in SIZES) + " |")
        out.append("")
    twin = next((r for r in latencies if r["tool"] == "serde_json (valid twin)"), None)

    def vs_twin(r: dict, key: str) -> str:
        if not twin or r is twin:
            return fmt_time(r[key])
        return f"{fmt_time(r[key])} ({r[key] / twin[key]:.2f}×)"

    out += [
        "## 10,000 small broken replies (0.5–4 KB)",
        "",
        "Per-reply time, best of three rounds for each reply; \"correct\" counts replies whose value equals",
        "the expected one. In brackets: the ratio to serde_json reading the replies' valid twins (same",
        "percentile). A third of the replies hold every fault at once, so the median falls among the",
        "replies with the common faults and the p99 among those with every fault.",
        "",
        "| tool | median | p99 | correct |",
        "|---|---:|---:|---:|",
    ]
    for r in latencies:
        out.append(f"| {r['tool']} | {vs_twin(r, 'median')} | {vs_twin(r, 'p99')} | {r['correct']}/{r['count']} |")
    out.append("")

    # The harness issue's targets, checked against this run.
    def ratios(family: str, tool: str = "llmjson (library, value)", sizes: list[str] = SIZES) -> list[float]:
        found = []
        for size in sizes:
            r, base = docs.get((tool, f"{family}-{size}")), docs.get(("serde_json (valid twin)", f"{family}-{size}"))
            if r and base and r.get("seconds") and r["correct"]:
                found.append(r["seconds"] / base["seconds"])
        return found

    def span(values: list[float]) -> str:
        return f"{min(values):.2f}–{max(values):.2f}×" if values else "—"

    ours = next((r for r in latencies if r["tool"] == "llmjson (library, value)"), None)
    checks = [
        ("valid → value", ratios("valid"), 1.05),
        ("valid → text", ratios("valid", "llmjson (library, text)"), 0.5),
        # The speed issue's target names these sizes: a 1 KB input is one step of the plan,
        # which measures the per-parse costs (the small replies' rows below) more than parsing.
        ("broken → value, 64 KB–10 MB", ratios("broken", sizes=["64KB", "1MB", "10MB"]), 2.0),
        ("every fault at once → value", ratios("all-faults"), 5.0),
    ]
    out += ["## Targets", "", "| measure | llmjson in this run | target | met |", "|---|---:|---:|:---:|"]
    for name, values, target in checks:
        met = "yes" if values and max(values) <= target else "no"
        out.append(f"| {name} (ratio to serde_json) | {span(values)} | ≤ {target}× | {met} |")
    if ours and twin:
        for key, target in (("median", 2.5), ("p99", 4.0)):
            ratio = ours[key] / twin[key]
            out.append(f"| small replies, {key} (ratio to serde_json on the twins) | {ratio:.2f}× | ≤ {target}× | {'yes' if ratio <= target else 'no'} |")
    # The Python package's targets: llmjson.loads against the Python peers, same inputs, same run.
    py_tool, jr, fjr = "llmjson.loads (Python)", "json_repair", "fast_json_repair"
    out += [
        "",
        "## Python: `llmjson.loads` against `json_repair.loads` and `fast_json_repair.loads`",
        "",
        "Same inputs, same run; conversion to Python objects included. \"×\" is how many times faster",
        "llmjson is (a peer's time over llmjson's); \"wrong\" marks a peer whose value differs from the",
        "expected one (its time is shown, but it did not do the job).",
        "",
        "| input | llmjson.loads | json_repair.loads | fast_json_repair.loads | × json_repair | × fast_json_repair |",
        "|---|---:|---:|---:|---:|---:|",
    ]

    def py_cell(tool: str, name: str) -> str:
        r = docs.get((tool, name))
        if r is None or r.get("seconds") is None:
            return "skipped (too slow)"
        return fmt_time(r["seconds"]) + ("" if r["correct"] else " (wrong)")

    def speedup(tool: str, name: str) -> float | None:
        ours_r, peer_r = docs.get((py_tool, name)), docs.get((tool, name))
        if not ours_r or not peer_r or not ours_r.get("seconds") or not peer_r.get("seconds"):
            return None
        return peer_r["seconds"] / ours_r["seconds"]

    for family in ["valid", "broken", "all-faults"]:
        for size in SIZES:
            name = f"{family}-{size}"
            if (py_tool, name) not in docs:
                continue
            ups = [speedup(t, name) for t in (jr, fjr)]
            out.append(
                f"| {name} | {py_cell(py_tool, name)} | {py_cell(jr, name)} | {py_cell(fjr, name)} | "
                + " | ".join(f"{u:.1f}×" if u else "—" for u in ups)
                + " |"
            )
    py_replies = next((r for r in latencies if r["tool"] == py_tool), None)
    up_jr, up_fjr = speedup(jr, "broken-64KB"), speedup(fjr, "broken-64KB")
    out += ["", "| Python target | in this run | target | met |", "|---|---:|---:|:---:|"]
    if up_jr:
        out.append(f"| broken 64 KB: faster than json_repair | {up_jr:.0f}× | ≥ 100× | {'yes' if up_jr >= 100 else 'no'} |")
    if up_fjr:
        out.append(f"| broken 64 KB: faster than fast-json-repair | {up_fjr:.1f}× | ≥ 3× | {'yes' if up_fjr >= 3 else 'no'} |")
    fjr_replies = next((r for r in latencies if r["tool"] == fjr), None)
    if py_replies and fjr_replies:
        met = py_replies["median"] <= fjr_replies["median"]
        out.append(f"| small broken replies, median: `llmjson.loads` at or below fast-json-repair's ({fmt_time(fjr_replies['median'])}) | {fmt_time(py_replies['median'])} | ≤ 1.00× | {'yes' if met else 'no'} |")
    out += [
        "",
        "## Notes",
        "",
        "- json_repair is \"wrong\" on the broken inputs because it drops the trailing newline inside",
        "  string values (`\"…return doc\\n\"` comes back as `\"…return doc\"`); the Rust peers misplace or",
        "  lose members when every fault comes at once.",
        "- A budget of 5 s per run: a peer that exceeds it on one size is not run on the larger ones.",
        "- The CLI figures include starting a process and writing the output.",
        "- Library-only figures (criterion, peak memory): [benchmarks-library.md](benchmarks-library.md).",
        "",
    ]
    # The sections other scripts write (batch: scripts/bench_batch.py; Node:
    # crates/llmjson-node/bench/compare.js; streaming: scripts/bench_stream.py) are kept as they
    # are.
    previous = Path(args.out).read_text(encoding="utf-8") if Path(args.out).exists() else ""
    found = [i for i in (previous.find(m) for m in SECTION_MARKERS) if i >= 0]
    marker = min(found, default=-1)
    if marker >= 0:
        out.append(previous[marker:].rstrip("\n"))
        out.append("")
    Path(args.out).write_text("\n".join(out), encoding="utf-8")
    print("\n".join(out))


if __name__ == "__main__":
    main()

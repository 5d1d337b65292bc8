#!/usr/bin/env python3
"""Times `llmjson batch` on 100,000 logged replies of about 1 KB, to JSON Lines, into SQLite and
into PostgreSQL, and measures its peak memory on inputs of growing length; writes the batch
section of docs/benchmarks.md (everything from its marker on).

    cargo build --release -p llmjson-cli -p llmjson-faults
    python3 scripts/bench_batch.py [--postgres URL]
    python3 scripts/bench_batch.py --compare OTHER_LLMJSON [--postgres URL]

With --compare, nothing is written: the two binaries run in turns on the same input (JSON Lines
to /dev/null and to a file, SQLite and PostgreSQL with a results file), and the ratio of their
median rates is printed (above 1: this checkout's binary is faster).

Without --postgres, a throwaway cluster is started with scripts/throwaway-postgres.sh (and
stopped). The input is the same mix as examples/replies.jsonl (valid, fenced, with prose,
faulted, cut off, refusals, empty), from replies of 700-1600 bytes (the short refusals and
empty replies kept in their share): generated once into target/bench-batch/.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = ROOT / "target/release/llmjson"
WORK = ROOT / "target/bench-batch"
MARKER = "<!-- batch: written by scripts/bench_batch.py -->"
RUNS = 3


def make_input(count: int) -> Path:
    path = WORK / f"replies-{count}.jsonl"
    if path.exists():
        return path
    WORK.mkdir(parents=True, exist_ok=True)
    pool = WORK / "pool.jsonl"
    subprocess.run(
        [sys.executable, str(ROOT / "scripts/make_example_replies.py"), "--count", str(count * 10), "--out", str(pool)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    kept = []
    short = 0
    for line in pool.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        size = len(record["reply"].encode())
        # Refusals and empty replies keep the share they have in the mix (8%), no more.
        is_short = len(record["reply"].strip()) < 120 and short < 0.08 * count
        short += is_short
        if 700 <= size <= 1600 or is_short:
            record["id"] = f"req-{len(kept) + 1:06d}"
            kept.append(json.dumps(record, ensure_ascii=False))
        if len(kept) == count:
            break
    if len(kept) < count:
        sys.exit(f"only {len(kept)} replies of the wanted size in the pool")
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    pool.unlink()
    return path


def timed(args: list[str], binary: Path = BIN) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in KB, and the summary line of one run."""
    start = time.perf_counter()
    proc = subprocess.run(
        ["/usr/bin/time", "-f", "%M", str(binary), *args, "--summary", "--fail-on", "none"],
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"llmjson {' '.join(args)} failed: {proc.stderr}")
    lines = proc.stderr.strip().splitlines()
    return seconds, int(lines[-1]), next(l for l in lines if l.startswith("llmjson:"))


def best_of(args_for_run, runs: int = RUNS) -> tuple[float, float, int, str]:
    """Median and best seconds over `runs`, the largest peak RSS, the last summary."""
    times, peak, summary = [], 0, ""
    for i in range(runs):
        seconds, rss, summary = timed(args_for_run(i))
        times.append(seconds)
        peak = max(peak, rss)
    return statistics.median(times), min(times), peak, summary


@contextlib.contextmanager
def postgres(url: str | None):
    """The PostgreSQL URL given, or a throwaway cluster's (started here, stopped after)."""
    if url is not None:
        yield url
        return
    cluster = tempfile.mkdtemp()
    script = str(ROOT / "scripts/throwaway-postgres.sh")
    started = subprocess.run([script, "start", cluster, "54391"], check=True, capture_output=True, text=True)
    try:
        yield started.stdout.strip()
    finally:
        subprocess.run([script, "stop", cluster], check=False)


def compare(other: Path, data: Path, url: str, runs: int) -> None:
    """This checkout's binary against `other`, in turns, on the same input: the ratio of rates."""
    modes = {
        "JSON Lines to /dev/null": lambda d, i: ["--out", "/dev/null"],
        "JSON Lines to a file": lambda d, i: ["--out", f"{d}/o-{i}.jsonl"],
        "SQLite and a results file": lambda d, i: ["--out", f"{d}/o-{i}.jsonl", "--db", f"sqlite:{d}/r-{i}.db"],
        "PostgreSQL and a results file": lambda d, i: ["--out", f"{d}/o-{i}.jsonl", "--db", url],
    }
    records = len(data.read_text(encoding="utf-8").splitlines())
    for mode, args in modes.items():
        times: dict[str, list[float]] = {"this": [], "other": []}
        for i in range(runs):
            order = [("this", BIN), ("other", other)]
            for name, binary in order if i % 2 == 0 else reversed(order):
                with tempfile.TemporaryDirectory() as tmp:
                    times[name].append(timed(["batch", str(data), *args(tmp, i)], binary)[0])
        this, them = statistics.median(times["this"]), statistics.median(times["other"])
        print(f"{mode:32} this {records / this:9,.0f}/s  other {records / them:9,.0f}/s  this/other {them / this:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", type=Path, help="another llmjson binary to time in turns with this one")
    ap.add_argument("--postgres", help="a PostgreSQL URL (default: a throwaway cluster)")
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--out", default=str(ROOT / "docs/benchmarks.md"))
    args = ap.parse_args()
    if not BIN.exists():
        sys.exit("build first: cargo build --release -p llmjson-cli -p llmjson-faults")
    data = make_input(args.count)
    if args.compare:
        with postgres(args.postgres) as url:
            compare(args.compare.resolve(), data, url, 5)
        return
    sizes = [len(json.loads(l)["reply"].encode()) for l in data.read_text(encoding="utf-8").splitlines()]
    mean_size = statistics.mean(sizes)

    rows = []
    median, best, peak, summary = best_of(lambda i: ["batch", str(data), "--out", "/dev/null"])
    rows.append(("JSON Lines (to /dev/null)", median, best, peak, 50_000))
    with tempfile.TemporaryDirectory() as tmp:
        median, best, peak, _ = best_of(lambda i: ["batch", str(data), "--out", f"{tmp}/results-{i}.jsonl"])
        rows.append(("JSON Lines (to a file)", median, best, peak, None))
    with tempfile.TemporaryDirectory() as tmp:
        median, best, peak, _ = best_of(
            lambda i: ["batch", str(data), "--out", "/dev/null", "--db", f"sqlite:{tmp}/runs-{i}.db"]
        )
        rows.append(("SQLite (`--db sqlite:…`)", median, best, peak, 20_000))

    # What --resume costs on a run of this size (SQLite store, results file): reading a whole
    # file back (nothing to do), a file cut at its middle by a crash (the stored half after the
    # cut parsed again for the file), and a lost file (every stored record parsed again).
    resumes = []
    with tempfile.TemporaryDirectory() as tmp:
        db, out = f"sqlite:{tmp}/runs.db", f"{tmp}/results.jsonl"
        timed(["batch", str(data), "--out", out, "--db", db])
        whole = Path(out).read_bytes()
        for name, damage in (
            ("the file whole (read back, nothing to do)", lambda: None),
            ("the file cut at its middle, mid-line", lambda: Path(out).write_bytes(whole[: len(whole) // 2])),
            ("the file lost", lambda: Path(out).unlink()),
        ):
            times = []
            for _ in range(RUNS):
                damage()
                seconds, _, _ = timed(["batch", str(data), "--out", out, "--db", db, "--resume", "1"])
                times.append(seconds)
                if Path(out).read_bytes() != whole:
                    sys.exit(f"--resume ({name}) did not give back the run's file")
            resumes.append((name, statistics.median(times)))

    with postgres(args.postgres) as url:
        median, best, peak, _ = best_of(lambda i: ["batch", str(data), "--out", "/dev/null", "--db", url])
        rows.append(("PostgreSQL (`--db postgresql://…`, COPY)", median, best, peak, 10_000))

    # Peak memory against the input's length: the same replies, 1×, 4× and 16× as many.
    memory = []
    for factor in (1, 4, 16):
        path = WORK / f"repeat-{factor}.jsonl"
        if not path.exists():
            with path.open("w", encoding="utf-8") as f:
                for _ in range(factor):
                    f.write(data.read_text(encoding="utf-8"))
        _, rss, _ = timed(["batch", str(path), "--out", "/dev/null"])
        memory.append((factor * args.count, path.stat().st_size, rss))
        if factor > 1:
            path.unlink()

    out = [
        MARKER,
        "",
        "## Batch runs (`llmjson batch`)",
        "",
        f"{args.count:,} logged replies (mean {mean_size:.0f} bytes; the mix of examples/replies.jsonl: "
        "valid, fenced, with prose, faulted, cut off, refusals, empty), one process, "
        f"{os.cpu_count()} cores, {platform.machine()}; median of {RUNS} runs (best in brackets). "
        "Command: `python3 scripts/bench_batch.py`.",
        "",
        f"Outcome of the run: {summary.removeprefix('llmjson: ')}",
        "",
        "| output | replies/s | target | met | peak memory |",
        "|---|---:|---:|:---:|---:|",
    ]
    for name, median, best, peak, target in rows:
        rate, best_rate = args.count / median, args.count / best
        goal, met = (f"≥ {target:,}", "yes" if rate >= target else "no") if target else ("—", "—")
        out.append(f"| {name} | {rate:,.0f} ({best_rate:,.0f}) | {goal} | {met} | {peak / 1024:.0f} MB |")
    out += [
        "",
        f"Resuming a finished run of {args.count:,} records with `--resume` (SQLite store, results file; "
        "median of 3; the file given back byte for byte each time):",
        "",
        "| the results file | resume takes |",
        "|---|---:|",
    ]
    for name, seconds in resumes:
        out.append(f"| {name} | {seconds:.2f} s |")
    out += [
        "",
        "Peak memory (RSS) against the input's length (JSON Lines output):",
        "",
        "| records | input | peak memory |",
        "|---:|---:|---:|",
    ]
    for records, size, rss in memory:
        out.append(f"| {records:,} | {size / 1e6:.0f} MB | {rss / 1024:.0f} MB |")
    out += [
        "",
        "- The PostgreSQL server runs on the same 2 cores (a throwaway cluster, default settings);",
        "  its work (parsing the `jsonb` columns) competes with the parser's threads. The run",
        "  stores over one connection per worker (the server converts `jsonb` in one process per",
        "  connection) and the large columns compress with lz4 (pglz cost a fifth of the time).",
        "- Every result is stored whole: value, repair log and diagnostics as JSON (`jsonb`).",
        "",
    ]
    target = Path(args.out)
    previous = target.read_text(encoding="utf-8") if target.exists() else ""
    head = previous[: previous.find(MARKER)] if MARKER in previous else previous
    # Sections other scripts write after this one (each starts with its own marker) stay.
    after = previous.find("\n<!-- ", previous.find(MARKER) + 1) if MARKER in previous else -1
    rest = previous[after:] if after >= 0 else ""
    target.write_text(head.rstrip("\n") + "\n\n" + "\n".join(out) + rest, encoding="utf-8")
    print("\n".join(out))


if __name__ == "__main__":
    main()

"""Throughput and peak memory of llmjson's column engines on one machine: Polars and DuckDB
against `llmjson.batch`, all on the same N replies made from examples/replies.jsonl (as
scripts/bench_spark.py makes them), all cores.

    target/py-venv/bin/python scripts/bench_columns.py [--rows 1000000] [--rounds 3]

Each path runs in a process of its own (its peak resident memory is that process's, the
replies' loading included); what is timed is the parse and the results, not the loading:
- `llmjson.batch`: the records (dicts read from the Parquet file) through `llmjson.batch`,
  every result taken (a Python object per row: its API);
- the Arrow kernel alone (`llmjson.arrow.parse_struct` on the whole column): the floor;
- Polars: `df.select(pl.col("reply").llmjson.parse())` on the DataFrame read from Parquet, and
  `pl.scan_parquet(...).select(...).collect(engine="streaming")` (reading included); and the
  same `map_batches` returning nulls: what the expression itself costs, all a native Polars
  plugin could save;
- DuckDB: `SELECT llmjson_parse(reply) FROM read_parquet(...)` fetched as an Arrow table
  (reading included).
Best of --rounds after one warm-up. A benchmark, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

PATHS = {
    "batch": "`llmjson.batch` (records in, a result object per row)",
    "kernel": "the Arrow kernel alone (`llmjson.arrow.parse_struct`, whole column)",
    "polars": "Polars, `df.select(pl.col(\"reply\").llmjson.parse())`",
    "polars-streaming": "Polars, `scan_parquet` → `llmjson.parse()` → `collect(engine=\"streaming\")`",
    "polars-passthrough": "Polars, the same expression returning nulls (its own cost, no parse)",
    "duckdb": "DuckDB, `SELECT llmjson_parse(reply) FROM read_parquet(…)` to Arrow",
}


def one(path: str, parquet: str, rounds: int) -> dict[str, float]:
    """Runs one path in this process: its best time, and this process's peak memory."""
    import pyarrow.parquet as pq
    from bench_spark import best

    threads = os.cpu_count() or 1
    if path == "batch":
        import llmjson

        records = pq.read_table(parquet).to_pylist()

        def run() -> None:
            for _ in llmjson.batch(records):
                pass

    elif path == "kernel":
        from llmjson.arrow import parse_struct

        column = pq.read_table(parquet).column("reply")

        def run() -> None:
            parse_struct(column, threads=threads)

    elif path.startswith("polars"):
        import polars as pl

        import llmjson.polars  # noqa: F401

        if path == "polars":
            frame = pl.read_parquet(parquet)

            def run() -> None:
                frame.select(pl.col("reply").llmjson.parse())

        elif path == "polars-passthrough":
            import pyarrow as pa

            from llmjson.arrow import result_type

            frame = pl.read_parquet(parquet)
            kind = result_type(None, large=True)

            def nulls(series: list) -> pl.Series:
                return pl.Series("llmjson", pa.nulls(len(series[0]), type=kind))

            def run() -> None:
                frame.select(
                    pl.map_batches([pl.col("reply")], nulls, return_dtype=llmjson.polars._dtype(None), is_elementwise=True)
                )

        else:

            def run() -> None:
                pl.scan_parquet(parquet).select(pl.col("reply").llmjson.parse()).collect(engine="streaming")

    elif path == "duckdb":
        import duckdb

        import llmjson.duckdb

        con = llmjson.duckdb.register(duckdb.connect())

        def run() -> None:
            con.sql(f"SELECT llmjson_parse(reply) FROM read_parquet('{parquet}')").fetch_arrow_table()

    else:
        raise SystemExit(f"no path {path!r}")
    seconds = best(rounds, run)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak_mb}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--parquet", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.parquet, args.rounds)))
        return

    from bench_spark import make_inputs

    folder = Path(tempfile.mkdtemp(prefix="llmjson-bench-columns-"))
    jsonl, parquet = make_inputs(args.rows, folder)
    print(f"{args.rows:,} replies, {jsonl.stat().st_size / 1e6:.0f} MB as JSON Lines; {os.cpu_count()} cores", flush=True)
    figures = {}
    for path in PATHS:
        done = subprocess.run(
            [sys.executable, __file__, "--one", path, "--parquet", str(parquet), "--rounds", str(args.rounds)],
            capture_output=True,
            text=True,
            check=True,
        )
        figures[path] = json.loads(done.stdout.strip().splitlines()[-1])
        print(path, figures[path], flush=True)
    base = args.rows / figures["batch"]["seconds"]
    print(f"\nbest of {args.rounds} after a warm-up\n")
    print("| path | seconds | replies/s | vs `llmjson.batch` | peak memory |")
    print("|---|---:|---:|---:|---:|")
    for path, name in PATHS.items():
        seconds, peak = figures[path]["seconds"], figures[path]["peak_mb"]
        rate = args.rows / seconds
        print(f"| {name} | {seconds:.2f} | {rate:,.0f} | {rate / base:.2f}× | {peak:,.0f} MB |")
    subprocess.run(["rm", "-rf", str(folder)], check=False)


if __name__ == "__main__":
    main()

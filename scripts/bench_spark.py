"""Throughput of llmjson on Spark, per executor core, against `llmjson batch` on one core.

    cargo build --release -p llmjson-cli
    target/py-venv/bin/python scripts/bench_spark.py [--rows 1000000] [--rounds 3] [--master URL]

Measures, on the same N replies made from examples/replies.jsonl (each with its own id):
- `llmjson batch -j 1` (the release CLI, one core) on the JSON Lines file;
- a Spark job, `llmjson.spark.parse_column` over the replies read from Parquet, results
  written nowhere (Spark's `noop` sink), so that what is timed is reading, parsing and moving
  the results;
- the same job with a pass-through instead of the parse (`mapInArrow` returning its batches
  with four empty columns): Spark's own cost of moving the rows through Python workers;
- the mapPartitions path (`df.rdd.mapPartitions` over `llmjson.batch`, as the example did before
  `parse_column`), counted.
Without --master it starts a throwaway standalone cluster (scripts/throwaway-spark.sh: two
workers of one core, on this machine) and stops it at the end. Each figure is the best of
--rounds runs after one warm-up. A benchmark, not a test: run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_inputs(rows: int, folder: Path) -> tuple[Path, Path]:
    import pyarrow as pa
    import pyarrow.parquet as pq

    records = [json.loads(line) for line in (ROOT / "examples" / "replies.jsonl").read_text(encoding="utf-8").splitlines()]
    jsonl, parquet = folder / "replies.jsonl", folder / "replies.parquet"
    ids = [f"{records[n % len(records)]['id']}#{n}" for n in range(rows)]
    replies = [records[n % len(records)]["reply"] for n in range(rows)]
    with jsonl.open("w", encoding="utf-8") as out:
        for i, r in zip(ids, replies):
            out.write(json.dumps({"id": i, "reply": r}, ensure_ascii=False) + "\n")
    # Neither dictionary-encoded nor compressed (the replies repeat): the file's size is the
    # data's, so that Spark splits it into many tasks (one per row group of 25,000).
    pq.write_table(
        pa.table({"id": ids, "reply": replies}),
        parquet,
        row_group_size=25_000,
        use_dictionary=False,
        compression="none",
    )
    return jsonl, parquet


def best(rounds: int, run) -> float:
    run()  # warm-up
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--master", help="a running cluster's URL (default: start a throwaway one)")
    parser.add_argument("--cli", default=str(ROOT / "target" / "release" / "llmjson"))
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="llmjson-bench-spark-"))
    cluster_dir = folder / "cluster"
    jsonl, parquet = make_inputs(args.rows, folder)
    print(f"{args.rows:,} replies, {jsonl.stat().st_size / 1e6:.0f} MB of JSON Lines", flush=True)

    cli = best(
        args.rounds,
        lambda: subprocess.run(
            [args.cli, "batch", "-j", "1", "--fail-on", "none", str(jsonl)], stdout=subprocess.DEVNULL, check=True
        ),
    )

    master = args.master
    if master is None:
        master = subprocess.run(
            [str(ROOT / "scripts" / "throwaway-spark.sh"), "start", str(cluster_dir), sys.executable],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    try:
        figures = spark_figures(master, parquet, args.rounds)
    finally:
        if args.master is None:
            subprocess.run([str(ROOT / "scripts" / "throwaway-spark.sh"), "stop", str(cluster_dir)], check=False)
    cores = figures.pop("cores")
    partitions = figures.pop("partitions")

    rows = args.rows
    print(f"\nexecutor cores: {cores}; tasks: {partitions}; best of {args.rounds} after a warm-up\n")
    print("| path | seconds | replies/s | replies/s per core | per core vs `llmjson batch -j 1` |")
    print("|---|---:|---:|---:|---:|")
    print(f"| `llmjson batch -j 1` (CLI, one core) | {cli:.2f} | {rows / cli:,.0f} | {rows / cli:,.0f} | 1.00× |")
    for name, seconds in figures.items():
        per_core = rows / seconds / cores
        print(f"| {name} | {seconds:.2f} | {rows / seconds:,.0f} | {per_core:,.0f} | {per_core / (rows / cli):.2f}× |")
    subprocess.run(["rm", "-rf", str(folder)], check=False)


def spark_figures(master: str, parquet: Path, rounds: int) -> dict:
    import pyarrow as pa
    from pyspark.sql import SparkSession

    import llmjson
    from llmjson.spark import COLUMNS, parse_column

    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master(master)
        .appName("llmjson-bench")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.executor.memory", "1g")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.files.maxPartitionBytes", str(16 * 1024 * 1024))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        deadline = time.monotonic() + 60
        while spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        cores = spark.sparkContext.defaultParallelism
        df = spark.read.parquet(str(parquet))

        def parse(method: str):
            return lambda: parse_column(df, "reply", method=method).write.format("noop").mode("overwrite").save()

        parsed_schema = parse_column(df, "reply").schema

        def passing(batches):
            for batch in batches:
                empty = pa.nulls(len(batch), pa.string())
                repairs = pa.nulls(len(batch), pa.list_(pa.struct([("kind", pa.string()), ("path", pa.string()), ("start", pa.int64()), ("end", pa.int64())])))
                yield pa.RecordBatch.from_arrays([*batch.columns, empty, empty, repairs, empty], names=[*batch.schema.names, *COLUMNS])

        def pass_through() -> None:
            df.mapInArrow(passing, parsed_schema).write.format("noop").mode("overwrite").save()

        def partition(rows):
            for result in llmjson.batch({"id": row["id"], "reply": row["reply"]} for row in rows):
                yield json.dumps(result.to_dict(), ensure_ascii=False)

        def map_partitions() -> None:
            df.rdd.mapPartitions(partition).count()

        return {
            "cores": cores,
            "partitions": df.rdd.getNumPartitions(),
            "Spark, `parse_column` (mapInArrow, one native call per Arrow batch)": best(rounds, parse("map")),
            "Spark, `parse_column(method='udf')` (the Arrow UDF of `parse`, one native call per batch)": best(
                rounds, parse("udf")
            ),
            "Spark, pass-through (Spark's own cost: the rows through Python workers)": best(rounds, pass_through),
            "Spark, mapPartitions over `llmjson.batch` (rows as Python objects)": best(rounds, map_partitions),
        }
    finally:
        spark.stop()


if __name__ == "__main__":
    main()

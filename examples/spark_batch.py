"""llmjson.batch inside a PySpark job: replies spread over a cluster, each partition parsed by
llmjson's Rust engine on every core of its executor.

    pip install pyspark llmjson        # every executor needs llmjson too
    python examples/spark_batch.py examples/replies.jsonl results/   # local[*] by default

Each partition is one ``llmjson.batch`` call over its rows (streamed in chunks of 1024), so a
partition of any size runs in bounded memory; the results are written as JSON Lines, one
directory of part files, in the same shape as ``llmjson batch``. The same pattern fits Ray:
``ray.data.read_json(path).map_batches(lambda b: ...)`` calling ``llmjson.batch`` per batch.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from typing import Any


def parse_partition(rows: Iterable[Any]) -> Iterator[str]:
    """One partition: its rows (each a JSON Lines record) through ``llmjson.batch``."""
    import llmjson

    records = (json.loads(row) if isinstance(row, str) else row.asDict() for row in rows)
    for result in llmjson.batch(records):
        yield json.dumps(result.to_dict(), ensure_ascii=False)


def main(source: str, target: str, master: str = "local[*]") -> None:
    from pyspark.sql import SparkSession

    # Local runs: the workers use this interpreter (the one llmjson is installed in).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master(master).appName("llmjson-batch").getOrCreate()
    try:
        lines = spark.sparkContext.textFile(source)
        lines.mapPartitions(parse_partition).saveAsTextFile(target)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:3])

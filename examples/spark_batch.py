"""Replies parsed where they are, on a Spark cluster: ``llmjson.spark.parse_column`` adds the
value, the outcome, the repairs and the diagnostics record as columns of the DataFrame.

    pip install "llmjson" pyspark pyarrow "pandas<3"   # on the driver and every executor
    python examples/spark_batch.py examples/replies.jsonl results/              # local[*]
    python examples/spark_batch.py examples/replies.jsonl results/ spark://host:7077

Each Arrow batch a Python worker receives (``mapInArrow``, 10,000 rows by default) is one
native call with the GIL released, so a partition of any size runs in bounded memory. The
results are written as JSON Lines part files (``id``, ``llmjson_value`` as JSON text,
``llmjson_outcome``, ``llmjson_repairs``, ``llmjson_diagnostics``); Parquet is one word away.
"""

from __future__ import annotations

import os
import sys


def main(source: str, target: str, master: str = "local[*]") -> None:
    from pyspark.sql import SparkSession

    from llmjson.spark import parse_column

    # The executors' Python workers use this interpreter (the one llmjson is installed in); on
    # a managed cluster, spark.pyspark.python names the executors' own.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master(master).appName("llmjson-batch").getOrCreate()
    try:
        replies = spark.read.schema("id string, reply string").json(source)
        parsed = parse_column(replies, "reply")
        parsed.drop("reply").write.mode("overwrite").json(target)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:4])

"""llmjson.spark: parse_batch on Arrow batches (no Spark), then parse_column on a Spark cluster:
100,000 replies equal to ``llmjson batch`` row for row, a schema's column typed, and a job that
loses a worker mid-run and still writes every row exactly once.

The cluster is the one ``.ci/run`` starts (scripts/throwaway-spark.sh: a master and two workers,
each its own JVM) and names in LLMJSON_TEST_SPARK, with its directory in LLMJSON_TEST_SPARK_DIR
(the workers' pids). Without one, the Spark tests run on ``local[2]`` where Java and pyspark are
there (the worker-loss test needs the cluster and says SKIPPED why); LLMJSON_REQUIRE_SPARK=1
turns every skip into a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import llmjson
from llmjson import metrics

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
from llmjson.spark import COLUMNS, parse_batch, spark_type  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
REPLIES = ROOT / "examples" / "replies.jsonl"
ROWS = 100_000
REQUIRED = os.environ.get("LLMJSON_REQUIRE_SPARK") == "1"
CLUSTER = os.environ.get("LLMJSON_TEST_SPARK")
CLUSTER_DIR = os.environ.get("LLMJSON_TEST_SPARK_DIR")


def _records() -> list[dict]:
    return [json.loads(line) for line in REPLIES.read_text(encoding="utf-8").splitlines()]


def _skip(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"LLMJSON_REQUIRE_SPARK=1 but {why}")
    pytest.skip(why)


def _expected(result: llmjson.BatchResult) -> tuple:
    """What parse_column must give for a reply ``llmjson.batch`` gave ``result`` for."""
    return (result.value, result.outcome, [r["kind"] for r in result.repairs])


# --- parse_batch: one Arrow batch, no Spark ---------------------------------------------------


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string(), pa.binary()])
def test_a_batch_gives_what_llmjson_batch_gives_row_for_row(kind):
    records = _records()
    replies = pa.array([r["reply"] for r in records] + [None], type=kind)
    batch = pa.RecordBatch.from_arrays([pa.array([r["id"] for r in records] + ["null"]), replies], ["id", "reply"])
    out = parse_batch(batch, "reply").to_pylist()
    reference = {r.id: r for r in llmjson.batch(records)}
    outcomes = set()
    for row in out[:-1]:
        value = None if row["llmjson_value"] is None else json.loads(row["llmjson_value"])
        got = (value, row["llmjson_outcome"], [r["kind"] for r in row["llmjson_repairs"]])
        assert got == _expected(reference[row["id"]]), row["id"]
        outcomes.add(row["llmjson_outcome"])
        diagnostics = json.loads(row["llmjson_diagnostics"])
        assert diagnostics["outcome"] == reference[row["id"]].diagnostics["outcome"], row["id"]
    assert {"ok", "repaired", "no_json", "empty"} <= outcomes
    assert {k: out[-1][k] for k in COLUMNS} == dict.fromkeys(COLUMNS), "a null reply gives nulls"


def test_a_batch_parsed_on_two_threads_is_the_same_batch():
    records = _records()
    batch = pa.RecordBatch.from_pydict({"reply": [r["reply"] for r in records]})
    one, two = (parse_batch(batch, "reply", threads=n) for n in (1, 2))
    for name in ("llmjson_value", "llmjson_outcome", "llmjson_repairs"):
        assert one.column(name) == two.column(name), name


def test_a_repair_has_its_kind_path_and_span_in_the_reply():
    reply = "Here it is: {'name': 'Ana', 'tags': ['a',]}"
    out = parse_batch(pa.RecordBatch.from_pydict({"reply": [reply]}), "reply").to_pylist()[0]
    parsed = llmjson.parse(reply)
    assert [(r["kind"], r["path"], r["start"], r["end"]) for r in out["llmjson_repairs"]] == [
        (r.kind, r.path, r.span[0], r.span[1]) for r in parsed.repairs
    ]
    assert json.loads(out["llmjson_value"]) == {"name": "Ana", "tags": ["a"]}


def test_a_sliced_batch_and_bytes_that_are_not_utf8():
    replies = pa.array([b"{'a': 1}", b"[1, 2]", b'{"b": "\xff"}', None], type=pa.binary()).slice(1)
    out = parse_batch(pa.RecordBatch.from_arrays([replies], ["reply"]), "reply").to_pylist()
    # Bytes that are not UTF-8 are read as every door reads them: replaced and logged.
    assert [r["llmjson_value"] for r in out] == ["[1,2]", '{"b":"\ufffd"}', None]
    assert [r["llmjson_outcome"] for r in out] == ["ok", "repaired", None]
    assert [r["kind"] for r in out[1]["llmjson_repairs"]] == ["invalid_utf8"]
    assert json.loads(out[1]["llmjson_diagnostics"])["outcome"] == "repaired"
    assert llmjson.parse(b'{"b": "\xff"}').diagnostics["outcome"] == "repaired"


def test_options_schema_and_evidence_apply_to_each_row():
    batch = pa.RecordBatch.from_pydict(
        {
            "reply": ['{"revenue": 4817}', '{"revenue": 9999}', "{'revenue': '12'}", "{'a': 1}"],
            "evidence": [["Revenue was 4817 units."], ["Sales: 10", "Revenue was 4817 units."], None, None],
            "text": ["Revenue was 4817 units.", "Revenue was 4817 units.", None, None],
        }
    )
    for column in ("evidence", "text"):  # an array of texts, or a text
        grounded = parse_batch(batch, "reply", evidence=column).to_pylist()
        assert [r["llmjson_outcome"] for r in grounded] == ["ok", "grounding", "repaired", "repaired"]
        assert "numeric_grounding_failed" in grounded[1]["llmjson_diagnostics"]
    reported = parse_batch(batch, "reply", evidence="text", fail_closed=False).to_pylist()
    assert [r["llmjson_outcome"] for r in reported][:2] == ["ok", "ok"]
    assert json.loads(reported[1]["llmjson_diagnostics"])["verification_passed"] is False
    schema = {"type": "object", "properties": {"revenue": {"type": "integer"}}, "required": ["revenue"]}
    fitted = parse_batch(batch, "reply", schema=schema).to_pylist()
    assert [r["llmjson_outcome"] for r in fitted] == ["ok", "ok", "repaired", "schema"]
    assert fitted[2]["llmjson_value"] == '{"revenue":12}'
    strict = parse_batch(batch, "reply", level="none").to_pylist()
    assert [r["llmjson_outcome"] for r in strict] == ["ok", "ok", "syntax", "syntax"]
    with pytest.raises(ValueError, match="level"):
        parse_batch(batch, "reply", level="lenient")
    with pytest.raises(TypeError, match="string or binary"):
        parse_batch(pa.RecordBatch.from_pydict({"n": [1]}), "n")


def test_which_schemas_map_to_a_spark_type():
    pytest.importorskip("pyspark", reason="pyspark is not installed")
    from pydantic import BaseModel

    class Step(BaseModel):
        title: str
        minutes: int | None = None

    class Plan(BaseModel):
        goal: str
        steps: list[Step]
        score: float
        done: bool
        extra: dict[str, int]
        note: str | int

    mapped = spark_type(Plan)
    assert mapped.simpleString() == (
        "struct<goal:string,steps:array<struct<title:string,minutes:bigint>>,score:double,"
        "done:boolean,extra:map<string,bigint>,note:string>"
    ), "fields in the model's order; a union of types is its JSON text"
    assert spark_type({"type": "array", "items": {"type": "integer"}}).simpleString() == "array<bigint>"
    assert spark_type({"type": "string"}) is None, "a scalar root stays JSON text"
    assert spark_type({"enum": ["a", "b"]}) is None
    recursive = {"$defs": {"N": {"type": "object", "properties": {"next": {"$ref": "#/$defs/N"}}}}, "$ref": "#/$defs/N"}
    assert spark_type(recursive) is not None, "a recursive model is cut off as JSON text, not refused"


# --- parse_column on Spark ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def spark():
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None:
        _skip("Spark needs a Java runtime (Debian's default-jre-headless)")
    from pyspark.sql import SparkSession

    # The executors' Python workers: this interpreter, the one llmjson is installed in (a plain
    # Python driver passes PYSPARK_PYTHON on; spark-submit reads spark.pyspark.python).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master(CLUSTER or "local[2]")
        .appName("llmjson-tests")
        .config("spark.pyspark.python", sys.executable)
        .config("spark.pyspark.driver.python", sys.executable)
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.executor.memory", "1g")
        # Small input splits: many tasks, so that a lost worker has some running.
        .config("spark.sql.files.maxPartitionBytes", str(2 * 1024 * 1024))
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    if CLUSTER:
        # Both workers' executors registered before the first job (the driver counts itself).
        deadline = time.monotonic() + 60
        while _executors(session) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _executors(session) == 2, "the cluster's two executors did not register"
    yield session
    session.stop()


def _executors(session) -> int:
    return session.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1


@pytest.fixture(scope="module")
def replies_file(tmp_path_factory) -> Path:
    """ROWS replies made from examples/replies.jsonl, each with its own id."""
    records = _records()
    path = tmp_path_factory.mktemp("spark") / "replies.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for n in range(ROWS):
            record = records[n % len(records)]
            out.write(json.dumps({"id": f"{record['id']}#{n}", "reply": record["reply"]}, ensure_ascii=False))
            out.write("\n")
    return path


def _run(spark, source: Path, target: Path, **options) -> None:
    from pyspark.sql import functions as F

    from llmjson.spark import parse_column

    df = spark.read.schema("id string, reply string").json(str(source))
    parsed = parse_column(df, "reply", **options)
    parsed.select(
        "id", "llmjson_value", "llmjson_outcome", F.col("llmjson_repairs.kind").alias("kinds")
    ).write.mode("overwrite").parquet(str(target))


def _read(target: Path) -> list[dict]:
    import pyarrow.parquet as pq

    return pq.read_table(str(target)).to_pylist()


def _cli() -> str | None:
    for candidate in (os.environ.get("LLMJSON_CLI"), shutil.which("llmjson"), ROOT / "target" / "debug" / "llmjson"):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return None


def test_a_cluster_job_equals_llmjson_batch_row_for_row(spark, replies_file, tmp_path):
    _run(spark, replies_file, tmp_path / "out")
    rows = _read(tmp_path / "out")
    assert len(rows) == ROWS and len({r["id"] for r in rows}) == ROWS
    by_id = {r["id"]: (None if r["llmjson_value"] is None else json.loads(r["llmjson_value"]), r["llmjson_outcome"], r["kinds"]) for r in rows}
    cli = _cli()
    if cli is not None:
        # `llmjson batch`, the command, on the same file.
        done = subprocess.run([cli, "batch", "--fail-on", "none", str(replies_file)], capture_output=True, check=True, timeout=900)
        reference = [json.loads(line) for line in done.stdout.decode().splitlines()]
        expected = {
            r["id"]: (
                r["value"],
                r["outcome"],
                [k["kind"] for k in r["repairs"]],
            )
            for r in reference
        }
    else:
        if REQUIRED:
            pytest.fail("LLMJSON_REQUIRE_SPARK=1 but no llmjson CLI was found (LLMJSON_CLI)")
        with replies_file.open(encoding="utf-8") as lines:
            expected = {r.id: _expected(r) for r in llmjson.batch(json.loads(line) for line in lines)}
    assert len(expected) == ROWS
    differing = [key for key in expected if by_id[key] != expected[key]]
    assert not differing, (len(differing), differing[:3], [by_id[k] for k in differing[:1]], [expected[k] for k in differing[:1]])
    # The outcome is the reply's, as every door names it: an empty or blank reply is `empty`.
    assert {o for _, o, _ in by_id.values()} >= {"ok", "repaired", "no_json", "empty"}


@pytest.mark.parametrize("method", ["map", "udf"])
def test_a_schema_column_comes_back_typed(spark, method):
    from pyspark.sql.types import LongType, StructType

    from llmjson.spark import parse_column

    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "id": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["id"],
    }
    df = spark.createDataFrame(
        [(1, "```json\n{'name': 'Ana', 'id': '7', tags: ['x',],}\n```"), (2, "{\"name\": \"Bo\"}"), (3, None)],
        "n int, reply string",
    )
    parsed = parse_column(df, "reply", schema=schema, method=method)
    value = parsed.schema["llmjson_value"].dataType
    assert isinstance(value, StructType) and isinstance(value["id"].dataType, LongType)
    rows = {r["n"]: r for r in parsed.collect()}
    assert rows[1]["llmjson_value"].asDict() == {"name": "Ana", "id": 7, "tags": ["x"]}
    assert json.loads(rows[1]["llmjson_json"]) == {"name": "Ana", "id": 7, "tags": ["x"]}
    assert rows[1]["llmjson_outcome"] == "repaired"
    assert (rows[2]["llmjson_value"], rows[2]["llmjson_outcome"]) == (None, "schema")
    assert json.loads(rows[2]["llmjson_diagnostics"])["schema_errors"], "the schema's errors are in the record"
    assert rows[3]["llmjson_outcome"] is None
    untyped = parse_column(df, "reply", schema=schema, typed=False, method=method)
    assert untyped.schema["llmjson_value"].dataType.simpleString() == "string"
    with pytest.raises(ValueError, match="not in the DataFrame"):
        parse_column(df, "text")
    with pytest.raises(ValueError, match="already has"):
        parse_column(parsed.drop("llmjson_json"), "reply")


def test_the_column_function_and_both_methods_give_what_batch_gives(spark):
    from pyspark.sql import functions as F

    from llmjson.spark import parse, parse_column

    records = _records()
    df = spark.createDataFrame(
        [(r["id"], r["reply"], "Revenue was 4817 units.") for r in records]
        + [("grounded", '{"revenue": 4817}', "Revenue was 4817 units."), ("made up", '{"revenue": 9999}', "Revenue was 4817 units.")],
        "id string, reply string, evidence string",
    )
    expected = {r.id: _expected(r) for r in llmjson.batch(records)}
    with_column = df.withColumn("parsed", parse("reply")).select(
        "id", F.col("parsed.value").alias("value"), F.col("parsed.outcome").alias("outcome"), F.col("parsed.repairs.kind").alias("kinds")
    )
    for method, frame in [
        ("parse()", with_column),
        *[
            (m, parse_column(df, "reply", method=m).select("id", F.col("llmjson_value").alias("value"), F.col("llmjson_outcome").alias("outcome"), F.col("llmjson_repairs.kind").alias("kinds")))
            for m in ("map", "udf")
        ],
    ]:
        got = {r["id"]: (None if r["value"] is None else json.loads(r["value"]), r["outcome"], list(r["kinds"] or [])) for r in frame.collect()}
        assert all(got[k] == v for k, v in expected.items()), method
    grounded = {r["id"]: r["llmjson_outcome"] for m in ("map", "udf") for r in parse_column(df, "reply", evidence="evidence", method=m).where(F.col("id").isin("grounded", "made up")).collect()}
    assert grounded == {"grounded": "ok", "made up": "grounding"}
    with pytest.raises(ValueError, match="method"):
        parse_column(df, "reply", method="rdd")


def _descendants(pid: int) -> list[int]:
    """Every process below `pid` (a worker's executor JVM and its Python workers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, stack = [], [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def test_a_job_that_loses_a_worker_mid_run_finishes_with_every_row_once(spark, replies_file, tmp_path):
    """Run last in this module: it leaves the cluster one worker short."""
    if not (CLUSTER and CLUSTER_DIR):
        _skip("no standalone cluster (LLMJSON_TEST_SPARK and LLMJSON_TEST_SPARK_DIR; .ci/run starts one)")
    worker = int((Path(CLUSTER_DIR) / "worker-1.pid").read_text())
    tracker = spark.sparkContext.statusTracker()
    failure: list[BaseException] = []

    def job() -> None:
        try:
            _run(spark, replies_file, tmp_path / "out")
        except BaseException as e:  # noqa: BLE001 - reported by the test's thread
            failure.append(e)

    running = threading.Thread(target=job)
    running.start()
    # Kill once the job is under way: some tasks done, some running, on both executors.
    deadline = time.monotonic() + 300
    killed: list[int] = []
    while running.is_alive() and time.monotonic() < deadline:
        stages = [tracker.getStageInfo(s) for s in tracker.getActiveStageIds()]
        if any(s is not None and s.numCompletedTasks >= 1 and s.numActiveTasks >= 2 for s in stages):
            killed = [worker, *_descendants(worker)]
            for pid in killed:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            break
        time.sleep(0.05)
    running.join(timeout=900)
    assert killed, "the job ended before a worker could be killed mid-run"
    assert len(killed) >= 2, f"the worker had no executor below it: {killed}"
    assert not running.is_alive(), "the job did not finish after the worker was lost"
    assert not failure, failure
    assert _executors(spark) == 1, "the lost worker's executor is gone"
    rows = _read(tmp_path / "out")
    ids = [r["id"] for r in rows]
    assert len(ids) == ROWS and len(set(ids)) == ROWS, "every row exactly once"
    records = _records()
    assert set(ids) == {f"{records[n % len(records)]['id']}#{n}" for n in range(ROWS)}

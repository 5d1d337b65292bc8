"""llmjson.batch: results in order, the same as parse, bad records, streaming, metrics, and the
PySpark example (when pyspark is installed)."""

import itertools
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import llmjson

ROOT = Path(__file__).resolve().parents[3]
REPLIES = ROOT / "examples" / "replies.jsonl"


def _records():
    return [json.loads(line) for line in REPLIES.read_text(encoding="utf-8").splitlines()]


def test_each_result_is_what_parse_gives_in_input_order():
    records = _records()
    results = list(llmjson.batch(records))
    assert [r.seq for r in results] == list(range(len(records)))
    assert [r.id for r in results] == [r["id"] for r in records]
    outcomes = set()
    for record, result in zip(records, results):
        outcomes.add(result.outcome)
        try:
            parsed = llmjson.parse(record["reply"])
        except llmjson.LLMJSONError as e:
            assert not result.ok
            assert result.value is None
            assert result.error is not None and result.error.kind == e.kind, record["id"]
            continue
        assert result.ok, (record["id"], result.error)
        assert result.value == parsed.value, record["id"]
        assert [r["kind"] for r in result.repairs] == [r.kind for r in parsed.repairs]
        assert result.diagnostics["outcome"] == result.outcome
    assert {"ok", "repaired", "no_json", "empty"} <= outcomes


def test_bad_records_are_their_own_results():
    cycle: dict = {}
    cycle["self"] = cycle
    results = list(
        llmjson.batch(
            [
                "{'bare': 'string'}",
                {"id": "x"},
                {"id": "y", "reply": 42},
                7,
                cycle,
                {"id": "z", "reply": "[1,]"},
            ]
        )
    )
    assert [r.outcome for r in results] == [
        "repaired",
        "missing_field",
        "bad_record",
        "bad_record",
        "bad_record",
        "repaired",
    ]
    assert results[0].id == "records:1"
    assert results[0].value == {"bare": "string"}
    # A record that could not be read has its record too: its outcome, and no stage ran.
    assert (results[1].diagnostics["outcome"], results[1].diagnostics["stages"]) == ("missing_field", [])
    assert "reply_field=" in results[1].error.message
    assert results[5].to_dict()["value"] == [1]
    assert json.dumps(results[2].to_dict())


def test_fields_schema_and_options_apply():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    results = list(
        llmjson.batch(
            [{"key": "a", "text": '{"n": "5"}'}, {"key": "b", "text": '{"m": 1}'}],
            id_field="key",
            reply_field="text",
            schema=schema,
        )
    )
    assert results[0].value == {"n": 5}
    assert results[1].error.kind == "schema"
    strict = list(llmjson.batch(["{'a': 1}"], level="none"))
    assert strict[0].error.kind == "syntax"
    assert strict[0].error.line == 1
    with pytest.raises(ValueError):
        list(llmjson.batch([], level="lenient"))


def test_an_endless_input_is_read_a_chunk_at_a_time():
    endless = ({"id": i, "reply": f"[{i},]"} for i in itertools.count())
    first = list(itertools.islice(llmjson.batch(endless, chunk_size=100), 250))
    assert [r.value for r in first[:3]] == [[0], [1], [2]]
    assert first[-1].id == 249


def test_every_record_is_counted_in_the_metrics():
    list(llmjson.batch(["[1]", "[1,]", "", "nothing"]))
    snap = llmjson.metrics.snapshot()
    assert (snap["ok"], snap["repaired"], snap["empty"], snap["no_json"], snap["calls"]) == (1, 1, 1, 1, 4)
    assert 'llmjson_failures_total{kind="empty"} 1' in llmjson.metrics.prometheus()


def test_the_kill_switch_applies(monkeypatch):
    monkeypatch.setenv("LLMJSON_REPAIR", "0")
    assert next(llmjson.batch(["{'a': 1}"])).outcome == "syntax"


def test_the_spark_example_parses_every_reply(tmp_path):
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    pytest.importorskip("pyarrow", reason="pyarrow is not installed (pip install pyarrow)")
    if shutil.which("java") is None:
        pytest.skip("pyspark needs a Java runtime")
    target = tmp_path / "out"
    subprocess.run(
        [sys.executable, str(ROOT / "examples" / "spark_batch.py"), str(REPLIES), str(target), "local[2]"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    lines = [
        json.loads(line)
        for part in sorted(target.glob("part-*"))
        for line in part.read_text(encoding="utf-8").splitlines()
    ]
    assert len(lines) == len(_records())
    by_id = {line["id"]: line for line in lines}
    for result in llmjson.batch(_records()):
        row = by_id[result.id]
        value = row.get("llmjson_value")
        assert (None if value is None else json.loads(value)) == result.value, result.id
        outcome = result.outcome if result.ok else llmjson.metrics.outcome_of_error_kind(result.outcome)
        assert row["llmjson_outcome"] == outcome, result.id

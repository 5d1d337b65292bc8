"""llmjson.metrics: one outcome per call, retries, latency; reset."""

import pytest

import llmjson


def test_each_call_counts_once_in_its_outcome():
    llmjson.loads('{"a": 1}')
    llmjson.loads("{'a': 1}")
    llmjson.repair_json("[1,")
    for bad, kind in [("no json", llmjson.NoJSONError), ("", llmjson.EmptyResponseError)]:
        with pytest.raises(kind):
            llmjson.loads(bad)
    with pytest.raises(llmjson.JSONParseError):
        llmjson.parse("{'a'}", level="none")
    with pytest.raises(llmjson.JSONRepairFailed):
        llmjson.parse('{"a": 1 /* ' + "x " * 100 + "*/}")
    with pytest.raises(llmjson.JSONSchemaError):
        llmjson.parse('{"a": 1}', schema={"type": "integer"})
    snap = llmjson.metrics.snapshot()
    assert {k: snap[k] for k in llmjson.metrics.OUTCOMES} == {
        "ok": 1,
        "repaired": 2,
        "no_json": 2,
        "parse_fail": 1,
        "repair_rejected": 1,
        "schema_fail": 1,
        "verify_fail": 0,
    }
    assert snap["calls"] == 8 and snap["retry"] == 0
    assert snap["latency_total_s"] > 0 and snap["latency_max_s"] <= snap["latency_total_s"]


def test_reset():
    llmjson.loads("[1]")
    llmjson.metrics.reset()
    assert llmjson.metrics.snapshot()["calls"] == 0

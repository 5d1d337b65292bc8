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
        llmjson.parse('{"a": 1 /* "b": "' + "x " * 100 + '", */}')
    with pytest.raises(llmjson.JSONSchemaError):
        llmjson.parse('{"a": 1}', schema={"type": "integer"})
    snap = llmjson.metrics.snapshot()
    assert {k: snap[k] for k in llmjson.metrics.OUTCOMES} == {
        "ok": 1,
        "repaired": 2,
        "empty": 1,
        "no_json": 1,
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


def _series(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def test_prometheus_text_uses_the_rust_names_and_counts_every_outcome():
    llmjson.loads('{"a": 1}')
    llmjson.loads('{"a": [1, 2')
    llmjson.parse("{'a': 1,}")
    with pytest.raises(llmjson.NoJSONError):
        llmjson.loads("no json")
    with pytest.raises(llmjson.JSONRepairFailed):
        llmjson.parse('{"a": 1 /* "b": "' + "x " * 100 + '", */}')
    text = llmjson.metrics.prometheus()
    for name in llmjson.metrics.NAMES:
        assert f"# TYPE {name} " in text
    assert llmjson.metrics.NAMES[0] == "llmjson_replies_total"
    s = _series(text)
    assert s['llmjson_replies_total{outcome="ok"}'] == 1
    assert s['llmjson_replies_total{outcome="repaired"}'] == 2
    assert s['llmjson_replies_total{outcome="failed"}'] == 2
    assert s['llmjson_failures_total{kind="no_json"}'] == 1
    assert s["llmjson_guard_rejections_total"] == 1
    assert s["llmjson_truncated_total"] == 1
    # loads builds no repair log, and its repairs are counted all the same.
    assert s['llmjson_repairs_total{kind="single_quotes"}'] == 1
    assert s['llmjson_repairs_total{kind="trailing_comma"}'] == 1
    assert s["llmjson_latency_seconds_count"] == 5
    llmjson.metrics.reset()
    assert _series(llmjson.metrics.prometheus())["llmjson_latency_seconds_count"] == 0


def test_a_blocked_answer_counts_its_fail_closed_reason():
    with pytest.raises(llmjson.GroundingError):
        llmjson.parse('{"revenue": 9999}', evidence=["Revenue was 4817."], fail_closed=True)
    s = _series(llmjson.metrics.prometheus())
    assert s['llmjson_fail_closed_total{reason="numeric_grounding_failed"}'] == 1
    assert s['llmjson_failures_total{kind="grounding"}'] == 1


def test_prometheus_client_scrapes_the_same_counters():
    prometheus_client = pytest.importorskip("prometheus_client")
    registry = prometheus_client.CollectorRegistry()
    llmjson.metrics.register(registry)
    llmjson.metrics.register(registry)  # twice: no duplicate error
    llmjson.loads("{'a': 1}")
    with pytest.raises(llmjson.EmptyResponseError):
        llmjson.loads("")
    scraped = _series(prometheus_client.generate_latest(registry).decode())
    assert scraped['llmjson_replies_total{outcome="repaired"}'] == 1
    assert scraped['llmjson_failures_total{kind="empty"}'] == 1
    assert scraped['llmjson_repairs_total{kind="single_quotes"}'] == 1
    assert scraped["llmjson_latency_seconds_count"] == 2
    assert scraped['llmjson_latency_seconds_bucket{le="+Inf"}'] == 2


def test_counts_from_many_threads_are_exact():
    # The counters live in the native module behind its locks; loads counts itself there
    # without the GIL held around the parse.
    from concurrent.futures import ThreadPoolExecutor

    def work(i: int) -> None:
        for _ in range(250):
            llmjson.loads('{"a": 1}' if i % 2 else "{'a': 1,}")
            llmjson.metrics.record_retry()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(work, range(8)))
    snap = llmjson.metrics.snapshot()
    assert (snap["ok"], snap["repaired"], snap["calls"], snap["retry"]) == (1000, 1000, 2000, 2000)
    s = _series(llmjson.metrics.prometheus())
    assert s['llmjson_replies_total{outcome="repaired"}'] == 1000
    assert s["llmjson_retries_total"] == 2000


def test_an_unknown_outcome_is_refused():
    with pytest.raises(ValueError, match="outcome must be one of"):
        llmjson.metrics.record_outcome("fine", 0.1)
    assert llmjson.metrics.snapshot()["calls"] == 0

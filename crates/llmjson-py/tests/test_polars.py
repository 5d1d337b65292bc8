"""llmjson.polars: the `llmjson` expression namespace, with the real Polars package (installed by
.ci/run; LLMJSON_REQUIRE_ENGINES=1 makes its absence a failure, not a skip). Every corpus reply
against `parse` is in tests/doors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import llmjson

try:
    import polars as pl
except ImportError:  # pragma: no cover - CI installs it
    if os.environ.get("LLMJSON_REQUIRE_ENGINES") == "1":
        raise
    pytest.skip("polars is not installed", allow_module_level=True)

import llmjson.polars  # noqa: E402,F401  (registers the namespace)
from llmjson.polars import dtype  # noqa: E402

PLAN = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "priority": {"enum": ["low", "high"]},
        "budget": {"type": "number"},
        "steps": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "done": {"type": "boolean"}},
            },
        },
        "extra": {},
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
    },
    "required": ["title"],
}

REPLIES = [
    'Here is the plan:\n```json\n{"title": "Ship", "priority": "high", "budget": 12.5, '
    '"steps": [{"id": 1, "done": true}, {"id": 2}], "extra": {"k": [1, 2]}, "tags": {"a": "b"},}\n```',
    None,
    "Sorry, I cannot help with that.",
    '{"title": "Cut", "steps": [{"id": 1, "done": false}, {"id": 2',
    '{"priority": "low"}',
    "",
]


def _parse(reply: Any, **options: Any) -> tuple[str, Any]:
    try:
        result = llmjson.parse(reply, **options)
    except llmjson.LLMJSONError as e:
        return e.kind, None
    return result.diagnostics["outcome"], result.value


def test_every_row_is_parse_of_its_reply_and_a_null_stays_null():
    frame = pl.DataFrame({"reply": REPLIES})
    out = frame.with_columns(pl.col("reply").llmjson.parse())
    assert out.columns == ["reply", "llmjson"]
    rows = out["llmjson"].to_list()
    for reply, row in zip(REPLIES, rows):
        if reply is None:
            assert row is None
            continue
        outcome, value = _parse(reply)
        assert row["outcome"] == outcome
        assert (None if row["value"] is None else json.loads(row["value"])) == value
        assert json.loads(row["diagnostics"])["outcome"] == outcome
    assert rows[0]["outcome"] == "repaired"
    assert [r["kind"] for r in rows[0]["repairs"]] == ["trailing_comma"]
    assert out["llmjson"].is_null().to_list() == [r is None for r in REPLIES]


def test_a_schema_gives_a_typed_value_and_keeps_the_text():
    frame = pl.DataFrame({"reply": REPLIES})
    out = frame.select(pl.col("reply").llmjson.parse(schema=PLAN)).unnest("llmjson")
    assert out.schema["value"] == pl.Struct(
        {
            "title": pl.String,
            "priority": pl.String,
            "budget": pl.Float64,
            "steps": pl.List(pl.Struct({"id": pl.Int64, "done": pl.Boolean})),
            "extra": pl.String,
            "tags": pl.String,
        }
    )
    first = out.row(0, named=True)
    assert first["value"] == {
        "title": "Ship",
        "priority": "high",
        "budget": 12.5,
        "steps": [{"id": 1, "done": True}, {"id": 2, "done": None}],
        # Parts that map to no column type are their JSON text (Polars has no map type).
        "extra": '{"k":[1,2]}',
        "tags": '{"a":"b"}',
    }
    assert json.loads(first["json"])["extra"] == {"k": [1, 2]}
    # A reply cut off mid-item: the item completed as far as it goes, typed.
    assert out.row(3, named=True)["value"]["steps"] == [{"id": 1, "done": False}, {"id": 2, "done": None}]
    # Against the schema: the missing title is a schema failure, with no value.
    assert out["outcome"].to_list()[4] == "schema"
    assert out["value"].to_list()[4] is None
    assert out.schema["value"] == dtype(PLAN).to_schema()["value"]  # type: ignore[attr-defined]


def test_a_value_that_does_not_fit_its_type_is_null_in_the_typed_value_only():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}, "s": {}}}
    frame = pl.DataFrame({"reply": ['{"n": 123456789012345678901234567890, "s": "plain"}']})
    row = frame.select(pl.col("reply").llmjson.parse(schema=schema)).unnest("llmjson").row(
        0, named=True
    )
    assert row["value"] == {"n": None, "s": "plain"}
    assert "123456789012345678901234567890" in row["json"]


def test_a_pydantic_model_is_a_schema():
    pydantic = pytest.importorskip("pydantic")

    class Step(pydantic.BaseModel):
        id: int
        note: str | None = None

    class Plan(pydantic.BaseModel):
        title: str
        steps: list[Step]

    frame = pl.DataFrame({"reply": ["{'title': 'x', 'steps': [{'id': '3'}]}"]})
    row = frame.select(pl.col("reply").llmjson.parse(schema=Plan)).unnest("llmjson").row(0, named=True)
    assert row["value"] == {"title": "x", "steps": [{"id": 3, "note": None}]}
    assert row["outcome"] == "repaired"


def test_evidence_blocks_a_number_it_does_not_hold():
    frame = pl.DataFrame(
        {
            "reply": ['{"revenue": 4817}', '{"revenue": 9999}', '{"revenue": 4817}'],
            "evidence": ["Revenue was 4817 units.", "Revenue was 4817 units.", None],
            "sources": [["a", "Revenue: 4,817"], ["x"], []],
        }
    )
    outcomes = frame.select(pl.col("reply").llmjson.outcome(evidence="evidence"))["llmjson_outcome"].to_list()
    assert outcomes[:2] == ["ok", "grounding"]
    listed = frame.select(pl.col("reply").llmjson.outcome(evidence=pl.col("sources")))["llmjson_outcome"]
    assert listed.to_list()[:2] == ["ok", "grounding"]
    reported = frame.select(pl.col("reply").llmjson.outcome(evidence="evidence", fail_closed=False))
    assert reported["llmjson_outcome"].to_list()[1] == "ok"


def test_bad_rows_give_their_outcome_in_their_row():
    replies = [
        b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
        b'{"name": "Jos\xe9"}',
        b'{"a": "' + b"x" * (20 << 20) + b'"}',
        b'{"ok": true}',
        None,
    ]
    frame = pl.DataFrame({"reply": replies}, schema={"reply": pl.Binary})
    out = frame.select(pl.col("reply").llmjson.parse()).unnest("llmjson")
    assert out["outcome"].to_list() == ["binary", "repaired", "too_large", "ok", None]
    assert out["value"].to_list()[1] == '{"name":"Jos\ufffd"}'


def test_it_runs_in_lazy_plans_and_the_streaming_engine(tmp_path: Path):
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps({"id": i, "reply": r}) + "\n" for i, r in enumerate(REPLIES * 50)))
    plan = (
        pl.scan_ndjson(path)
        .with_columns(pl.col("reply").llmjson.parse(schema=PLAN))
        .select("id", pl.col("llmjson").struct.field("outcome"), pl.col("llmjson").struct.field("value"))
    )
    assert plan.collect_schema()["value"] == dtype(PLAN).to_schema()["value"]  # type: ignore[attr-defined]
    eager = plan.collect()
    streamed = plan.collect(engine="streaming")
    assert streamed.sort("id").equals(eager.sort("id"))
    assert eager.height == len(REPLIES) * 50
    wanted = [None if r is None else _parse(r, schema=PLAN)[0] for r in REPLIES] * 50
    assert eager.sort("id")["outcome"].to_list() == wanted


def test_options_and_schemas_are_checked_when_the_expression_is_made():
    with pytest.raises(ValueError):
        pl.col("reply").llmjson.parse(level="lenient")
    with pytest.raises(Exception):
        pl.col("reply").llmjson.parse(schema={"type": 12})


def test_repair_and_outcome_alone():
    frame = pl.DataFrame({"reply": ["{'a': 1,}", "nothing", None]})
    out = frame.select(pl.col("reply").llmjson.repair(), pl.col("reply").llmjson.outcome())
    assert out.rows() == [('{"a":1}', "repaired"), (None, "no_json"), (None, None)]

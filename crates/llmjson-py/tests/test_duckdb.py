"""llmjson.duckdb: SQL functions over the Arrow kernel, with the real DuckDB package (installed by
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
    import duckdb
except ImportError:  # pragma: no cover - CI installs it
    if os.environ.get("LLMJSON_REQUIRE_ENGINES") == "1":
        raise
    pytest.skip("duckdb is not installed", allow_module_level=True)

import llmjson.duckdb  # noqa: E402

PLAN = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "budget": {"type": "number"},
        "steps": {
            "type": "array",
            "items": {"type": "object", "properties": {"id": {"type": "integer"}, "done": {"type": "boolean"}}},
        },
        "extra": {},
    },
    "required": ["title"],
}

REPLIES = [
    'Plan:\n```json\n{"title": "Ship", "budget": 12.5, "steps": [{"id": 1, "done": true}], "extra": [1, {"a": 2}],}\n```',
    None,
    "Sorry, I cannot help with that.",
    "{'title': 'Cut', 'steps': [{'id': 1}, {'id': 2",
    '{"budget": 3}',
    "",
]


@pytest.fixture
def con(tmp_path: Path) -> Any:
    con = llmjson.duckdb.register(duckdb.connect(), schemas={"plan": PLAN})
    path = tmp_path / "replies.jsonl"
    path.write_text("".join(json.dumps({"id": i, "reply": r}) + "\n" for i, r in enumerate(REPLIES)))
    con.sql(f"CREATE TABLE replies AS SELECT * FROM read_json_auto('{path}')")
    return con


def _parse(reply: Any, **options: Any) -> tuple[str, Any]:
    try:
        result = llmjson.parse(reply, **options)
    except llmjson.LLMJSONError as e:
        return e.kind, None
    return result.diagnostics["outcome"], result.value


def test_every_row_is_parse_of_its_reply_and_a_null_stays_null(con: Any):
    rows = con.sql("SELECT reply, llmjson_parse(reply) FROM replies ORDER BY id").fetchall()
    for reply, parsed in rows:
        if reply is None:
            assert parsed is None
            continue
        outcome, value = _parse(reply)
        assert parsed["outcome"] == outcome
        assert (None if parsed["value"] is None else json.loads(parsed["value"])) == value
        assert json.loads(parsed["diagnostics"])["outcome"] == outcome
    assert [r["kind"] for r in rows[0][1]["repairs"]] == ["trailing_comma"]
    alone = con.sql("SELECT llmjson_outcome(reply), llmjson_repair(reply) FROM replies ORDER BY id").fetchall()
    assert alone == [(p["outcome"], p["value"]) if p is not None else (None, None) for _, p in rows]


def test_a_registered_schema_gives_a_typed_value(con: Any):
    kind = con.sql("SELECT llmjson_parse_plan(reply).value FROM replies").types[0]
    assert str(kind) == 'STRUCT(title VARCHAR, budget DOUBLE, steps STRUCT(id BIGINT, done BOOLEAN)[], extra VARCHAR)'
    rows = con.sql(
        "SELECT p.value, p.json, p.outcome FROM (SELECT llmjson_parse_plan(reply) AS p, id FROM replies) ORDER BY id"
    ).fetchall()
    assert rows[0][0] == {"title": "Ship", "budget": 12.5, "steps": [{"id": 1, "done": True}], "extra": '[1,{"a":2}]'}
    assert json.loads(rows[0][1])["extra"] == [1, {"a": 2}]
    assert rows[3][0]["steps"] == [{"id": 1, "done": None}, {"id": 2, "done": None}]
    assert rows[4][2] == "schema" and rows[4][0] is None
    assert con.sql("SELECT llmjson_parse_plan(reply).value.steps[1].id FROM replies ORDER BY id").fetchall()[0] == (1,)


def test_a_schema_per_row_applies_to_its_row(con: Any):
    strict = json.dumps({"type": "object", "required": ["title"]})
    loose = json.dumps({"type": "object"})
    con.sql(f"CREATE TABLE rules AS SELECT id, reply, CASE WHEN id % 2 = 0 THEN '{strict}' ELSE '{loose}' END AS schema FROM replies")
    got = con.sql("SELECT id, reply, schema, llmjson_outcome(reply, schema) FROM rules ORDER BY id").fetchall()
    for _, reply, schema, outcome in got:
        assert outcome == (None if reply is None else _parse(reply, schema=schema)[0])
    # A constant schema, and none (NULL) in some rows.
    mixed = con.sql(f"SELECT llmjson_outcome(reply, CASE WHEN id < 3 THEN NULL ELSE '{strict}' END) FROM replies ORDER BY id")
    assert [o for (o,) in mixed.fetchall()] == [
        None if r is None else _parse(r, schema=None if i < 3 else strict)[0] for i, r in enumerate(REPLIES)
    ]


def test_evidence_blocks_a_number_it_does_not_hold(con: Any):
    got = con.sql(
        "SELECT llmjson_parse('{\"revenue\": 4817}', NULL, 'Revenue was 4817.').outcome,"
        " llmjson_parse('{\"revenue\": 9999}', NULL, 'Revenue was 4817.').outcome,"
        " llmjson_parse('{\"revenue\": 9999}', NULL, NULL).outcome"
    ).fetchall()
    assert got == [("ok", "grounding", "ok")]


def test_bad_rows_give_their_outcome_in_their_row():
    con = llmjson.duckdb.register(duckdb.connect())
    con.sql("CREATE TABLE raw (reply BLOB)")
    for reply in [b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)), b'{"name": "Jos\xe9"}', b'{"ok": true}', None]:
        con.execute("INSERT INTO raw VALUES (?)", [reply])
    con.execute("INSERT INTO raw SELECT ('{\"a\": \"' || repeat('x', 20 * 1024 * 1024) || '\"}')::BLOB")
    got = [o for (o,) in con.sql("SELECT llmjson_outcome(reply) FROM raw").fetchall()]
    assert got == ["binary", "repaired", "ok", None, "too_large"]


def test_a_schema_that_does_not_map_or_a_bad_name_is_refused_at_register():
    with pytest.raises(ValueError):
        llmjson.duckdb.register(duckdb.connect(), schemas={"n": {"type": "integer"}})
    with pytest.raises(ValueError):
        llmjson.duckdb.register(duckdb.connect(), schemas={"a b": PLAN})
    with pytest.raises(ValueError):
        llmjson.duckdb.register(duckdb.connect(), level="lenient")


def test_many_rows_across_batches_keep_their_order():
    con = llmjson.duckdb.register(duckdb.connect())
    got = con.sql(
        "SELECT i, llmjson_repair('{n: ' || i || ',}') FROM range(10000) t(i) ORDER BY i"
    ).fetchall()
    assert all(json.loads(text) == {"n": i} for i, text in got)

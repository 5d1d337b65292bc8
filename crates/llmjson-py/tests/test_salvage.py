"""Salvage with a schema: ``invalid_items="drop"`` returns the valid items of a list and names
the others; the default stays fail-closed."""

import json

import pytest
from pydantic import BaseModel

import llmjson

SCHEMA = {
    "type": "object",
    "required": ["records"],
    "properties": {
        "records": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "name"],
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            },
        }
    },
}


def record(i: int, bad: bool) -> str:
    # Non-ASCII names: spans are character offsets in the reply, not bytes.
    return f'{{"id": {i}}}' if bad else f'{{"id": {i}, "name": "Zoë nº {i}"}}'


def reply(n: int, bad: set[int]) -> tuple[str, list[str]]:
    records = [record(i, i in bad) for i in range(n)]
    text = "Voilà les données :\n```json\n{\"records\": [\n  " + ",\n  ".join(records) + "\n]}\n```"
    return text, records


def test_a_hundred_records_with_three_invalid_return_ninety_seven_and_name_three() -> None:
    bad = {3, 41, 99}
    text, records = reply(100, bad)
    result = llmjson.parse(text, schema=SCHEMA, invalid_items="drop")
    kept = result.value["records"]
    assert len(kept) == 97
    assert [r["id"] for r in kept] == [i for i in range(100) if i not in bad]
    assert [d.path for d in result.dropped] == ["/records/3", "/records/41", "/records/99"]
    for item, i in zip(result.dropped, sorted(bad)):
        start, end = item.span
        assert text[start:end] == records[i]
        assert (item.line, item.column) == (4 + i, 3)
        assert [str(e) for e in item.errors] == [f"/records/{i}: the required property 'name' is missing"]
    assert [r.kind for r in result.repairs].count("dropped_invalid_item") == 3
    assert result.repaired
    assert [d["path"] for d in result.diagnostics["dropped_items"]] == ["/records/3", "/records/41", "/records/99"]
    assert result.diagnostics["outcome"] == "repaired"
    assert str(result.dropped[0]).startswith("7:3 dropped /records/3: ")


def test_the_default_raises_with_every_violation() -> None:
    text, _ = reply(100, {3, 41, 99})
    with pytest.raises(llmjson.JSONSchemaError) as caught:
        llmjson.parse(text, schema=SCHEMA)
    assert [e.path for e in caught.value.errors] == ["/records/3", "/records/41", "/records/99"]


def test_a_list_that_is_mostly_invalid_still_raises() -> None:
    text, _ = reply(10, set(range(7)))
    with pytest.raises(llmjson.JSONSchemaError):
        llmjson.parse(text, schema=SCHEMA, invalid_items="drop")
    opened = llmjson.parse(text, schema=SCHEMA, invalid_items="drop", max_removed_ratio=1.0)
    assert len(opened.value["records"]) == 3


def test_a_valid_reply_has_nothing_dropped() -> None:
    text, _ = reply(5, set())
    result = llmjson.parse(text, schema=SCHEMA, invalid_items="drop")
    assert result.dropped == []
    assert result.diagnostics["dropped_items"] == []
    assert llmjson.parse('{"a": 1}').diagnostics["dropped_items"] == []


class Record(BaseModel):
    id: int
    name: str


class Records(BaseModel):
    records: list[Record]


def test_a_pydantic_model_gets_its_valid_records() -> None:
    text, _ = reply(20, {7})
    result = llmjson.parse(text, model=Records, invalid_items="drop")
    assert isinstance(result.value, Records)
    assert len(result.value.records) == 19
    assert result.dropped[0].path == "/records/7"


def test_parse_all_batch_and_stream_take_the_option() -> None:
    text, _ = reply(20, {2})
    (value,) = llmjson.parse_all(text, schema=SCHEMA, invalid_items="drop").value
    assert len(value["records"]) == 19
    results = list(llmjson.batch([{"id": "a", "reply": text}], schema=SCHEMA, invalid_items="drop"))
    assert results[0].ok
    assert results[0].diagnostics["dropped_items"][0]["path"] == "/records/2"
    parser = llmjson.StreamParser(schema=SCHEMA, invalid_items="drop")
    for i in range(0, len(text), 7):
        parser.feed(text[i : i + 7])
    finished = parser.finish()
    assert [d.path for d in finished.dropped] == ["/records/2"]


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="invalid_items"):
        llmjson.parse("[1]", schema={"type": "array"}, invalid_items="skip")  # type: ignore[arg-type]


def test_the_record_is_json() -> None:
    text, _ = reply(20, {2})
    result = llmjson.parse(text, schema=SCHEMA, invalid_items="drop")
    assert json.loads(json.dumps(result.diagnostics))["dropped_items"][0]["errors"] == [
        "/records/2: the required property 'name' is missing"
    ]

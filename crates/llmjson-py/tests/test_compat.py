"""The json_repair drop-in: ``import llmjson as json_repair``. Cases written from json_repair's
documented behaviour (its README and signatures), and the differences we chose, with
``compat="json_repair"`` restoring json_repair's answer where that is cheap."""

import io
import json

import pytest

import llmjson
import llmjson as json_repair


def test_repair_json_returns_json_text_like_json_dumps():
    assert json_repair.repair_json("{'a': 1, 'b': [1, 2,],}") == '{"a": 1, "b": [1, 2]}'
    # ensure_ascii defaults to True, as in json.dumps and json_repair.
    assert json_repair.repair_json("{'name': 'José'}") == '{"name": "Jos\\u00e9"}'
    assert json_repair.repair_json("{'name': 'José'}", ensure_ascii=False) == '{"name": "José"}'
    assert json_repair.repair_json('{"a": [1]}', indent=2) == '{\n  "a": [\n    1\n  ]\n}'
    # Any other json.dumps argument passes through.
    assert json_repair.repair_json('{"b": 1, "a": 2}', sort_keys=True) == '{"a": 2, "b": 1}'


def test_repair_json_objects_and_logging():
    assert json_repair.repair_json("[1, 2, 3,", return_objects=True) == [1, 2, 3]
    value, log = json_repair.repair_json("{'a': True}", logging=True)
    assert value == {"a": True}
    assert all({"text", "context"} <= entry.keys() for entry in log)
    assert [entry["kind"] for entry in log] == ["single_quotes", "python_literal"]
    assert json_repair.repair_json('{"a": 1}', logging=True) == ({"a": 1}, [])


def test_loads_load_and_from_file(tmp_path):
    assert json_repair.loads('{"a": "b",}') == {"a": "b"}
    assert json_repair.load(io.StringIO("[1, 2,]")) == [1, 2]
    path = tmp_path / "reply.txt"
    path.write_text("```json\n{'ok': True}\n```", encoding="utf-8")
    assert json_repair.from_file(path) == {"ok": True}
    assert json_repair.from_file(str(path), logging=True)[0] == {"ok": True}
    assert json_repair.repair_json(json_fd=io.StringIO("{'x': 1}")) == '{"x": 1}'


def test_the_repairs_json_repair_documents():
    cases = {
        "{'key': 'string', 'key2': False, \"key3\": None}": {"key": "string", "key2": False, "key3": None},
        '{"name": "John", "age": 30, "city": "New York"': {"name": "John", "age": 30, "city": "New York"},
        "[1, 2, 3, 4": [1, 2, 3, 4],
        '{"employees":["John", "Anna",': {"employees": ["John", "Anna"]},
        '{key: "value"}': {"key": "value"},
        '{"text": "The quick brown fox jumps over the lazy dog"': {
            "text": "The quick brown fox jumps over the lazy dog"
        },
        "```json\n{\"a\": 1}\n```": {"a": 1},
        '{"a": 1} // trailing comment': {"a": 1},
        '{"a": "b" /* inline */, "c": 1}': {"a": "b", "c": 1},
        "{\"value\": “smart”}": {"value": "smart"},
        '{"key": "value\nwith newline"}': {"key": "value\nwith newline"},
    }
    for broken, expected in cases.items():
        assert json_repair.loads(broken) == expected, broken


def test_valid_json_is_returned_as_json_loads_reads_it():
    text = '{"a": [1, 2.5, true, null, "x"], "b": {"c": "d"}}'
    assert json_repair.loads(text) == json.loads(text)
    assert json_repair.loads(text, skip_json_loads=True) == json.loads(text)


def test_strict_repairs_nothing():
    with pytest.raises(ValueError):
        json_repair.loads("{'a': 1}", strict=True)
    assert json_repair.loads('{"a": 1}', strict=True) == {"a": 1}


def test_schema_accepts_a_dict_or_a_model():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    assert json_repair.loads("{n: '7'}", schema=schema) == {"n": 7}


# Deliberate differences, each restored by compat="json_repair".


def test_no_json_is_an_error_not_an_empty_string():
    with pytest.raises(llmjson.NoJSONError):
        json_repair.repair_json("I cannot help with that.")
    with pytest.raises(llmjson.EmptyResponseError):
        json_repair.loads("")
    assert json_repair.repair_json("I cannot help with that.", compat="json_repair") == ""
    assert json_repair.loads("", compat="json_repair") == ""
    assert json_repair.loads("nothing", logging=True, compat="json_repair") == ("", [])
    # A real empty string is still one.
    assert json_repair.repair_json('""', compat="json_repair") == '""'


def test_several_values_give_the_first_or_a_list_in_compat():
    text = '{"a": 1} {"b": 2}'
    assert json_repair.loads(text) == {"a": 1}
    assert json_repair.loads(text, compat="json_repair") == [{"a": 1}, {"b": 2}]
    assert json_repair.loads('{"a": 1}', compat="json_repair") == {"a": 1}


def test_a_dangling_key_is_dropped():
    # json_repair gives {"a": 1, "b": ""}; the seeds ask for the incomplete member to go.
    assert json_repair.loads('{"a": 1, "b":') == {"a": 1}


def test_every_json_repair_argument_is_accepted():
    # json_repair 0.5x keyword arguments, all accepted (the tuning knobs have no effect here).
    kwargs = dict(skip_json_loads=True, strict=False, schema=None, schema_repair_mode="salvage")
    assert json_repair.repair_json("[1,", chunk_length=10, stream_stable=True, **kwargs) == "[1]"
    assert json_repair.loads("[1,", stream_stable=True, **kwargs) == [1]
    assert json_repair.load(io.StringIO("[1,"), chunk_length=10, **kwargs) == [1]


VALID_DOCUMENTS = [
    '{"a": 1, "b": [true, false, null], "c": {"d": "e"}}',
    '[1, -0, 1.50, 1e400, -1e-7, 123456789012345678901234567890, -9223372036854775809]',
    '{"k": "\\u00e9\\ud83d\\ude00 \\" \\\\ \\/ \\b\\f\\n\\r\\t", "é": "日本語"}',
    '{"dup": 1, "other": 2, "dup": 3}',
    '  \n[[], {}, [[{}]], ""]  \n',
    '{"steps": [' + ", ".join('{"id": "s%d", "tool": "shell"}' % i for i in range(200)) + "]}",
]


@pytest.mark.parametrize("text", VALID_DOCUMENTS)
def test_a_valid_document_loads_exactly_as_json_loads_reads_it(text):
    expected = json.loads(text)
    value = llmjson.loads(text)
    assert value == expected or (value != value and expected != expected)
    # Same types too: ints stay ints (any size), floats floats, key order kept.
    assert json.dumps(value) == json.dumps(expected)
    assert llmjson.loads(text, logging=True) == (expected, [])


def test_the_valid_fast_path_is_counted():
    before = llmjson.metrics.snapshot()["ok"]
    llmjson.loads('{"a": 1}')
    assert llmjson.metrics.snapshot()["ok"] == before + 1


@pytest.mark.parametrize(
    ("text", "expected"),
    [('{"a": "\\ud800"}', {"a": "\ufffd"}), ("[1,]", [1]), ('{"a": NaN}', {"a": None})],
)
def test_what_the_strict_reader_refuses_takes_the_full_path(text, expected):
    # A lone surrogate is replaced, a trailing comma removed, NaN read as null: the full path's
    # decisions, not json.loads's.
    assert llmjson.loads(text) == expected


def test_a_document_nested_deeper_than_the_limit_is_refused_not_read():
    with pytest.raises(ValueError, match="nesting deeper than 127"):
        llmjson.loads("[" * 200 + "]" * 200)

"""llmjson's own API: parse, results, repairs, diagnostics, errors, options, threads."""

import threading

import pytest

import llmjson
from llmjson import (
    EmptyResponseError,
    InputTooLargeError,
    JSONParseError,
    JSONRepairFailed,
    JSONSchemaError,
    LLMJSONError,
    NoJSONError,
)


def test_parse_returns_value_repairs_and_diagnostics():
    reply = "Here is the plan:\n```json\n{\"steps\": [{\"id\": \"s1\", \"done\": True},]}\n```"
    result = llmjson.parse(reply)
    assert result.value == {"steps": [{"id": "s1", "done": True}]}
    assert [r.kind for r in result.repairs] == ["python_literal", "trailing_comma"]
    first = result.repairs[0]
    assert (first.line, first.column, first.path) == (3, 33, "/steps/0/done")
    assert reply[first.span[0] : first.span[1]] == "True"
    assert str(first) == "3:33 python_literal at /steps/0/done: 'True' became true"
    assert result.repaired
    d = result.diagnostics
    assert d["outcome"] == "repaired"
    assert d["json_source"] == "fence:json"
    assert d["repairs_by_kind"] == {"python_literal": 1, "trailing_comma": 1}
    assert d["stages"] == ["locate", "repair"]
    assert d["latency_ms"] >= 0


def test_spans_are_character_offsets_even_after_non_ascii_text():
    reply = "日本語の説明: {'キー': True}"
    result = llmjson.parse(reply)
    quote = next(r for r in result.repairs if r.kind == "single_quotes")
    assert reply[quote.span[0] : quote.span[1]] == "'"
    literal = next(r for r in result.repairs if r.kind == "python_literal")
    assert reply[literal.span[0] : literal.span[1]] == "True"
    start, end = result.span
    assert reply[start:end] == "{'キー': True}"
    # The record counts bytes, as at every door.
    span = result.diagnostics["json_span"]
    assert reply.encode()[span["start"] : span["end"]].decode() == "{'キー': True}"


def test_valid_json_has_no_repairs_and_exact_numbers():
    result = llmjson.parse('{"big": 123456789012345678901234567890, "f": 1.5, "e": 1e3, "n": null}')
    assert result.value == {"big": 123456789012345678901234567890, "f": 1.5, "e": 1000.0, "n": None}
    assert isinstance(result.value["e"], float)
    assert result.repairs == [] and not result.repaired
    assert result.diagnostics["outcome"] == "ok"


def test_each_failure_has_its_own_exception_with_diagnostics():
    with pytest.raises(EmptyResponseError) as empty:
        llmjson.parse("   ")
    assert isinstance(empty.value, NoJSONError)
    assert empty.value.kind == "empty"

    with pytest.raises(NoJSONError) as no_json:
        llmjson.parse("Sorry, I can't help with that.")
    assert not isinstance(no_json.value, EmptyResponseError)
    assert no_json.value.diagnostics["failed_stage"] == "locate"

    with pytest.raises(JSONParseError) as syntax:
        llmjson.parse('{\n  "a": 1,\n}', level="none")
    e = syntax.value
    assert (e.line, e.column) == (2, 9)
    assert "trailing comma" in str(e)
    assert e.excerpt.endswith("^")
    assert isinstance(e, ValueError) and isinstance(e, LLMJSONError)

    with pytest.raises(JSONRepairFailed) as guard:
        # A member the model commented out is data: the guard counts it (prose it would not).
        llmjson.parse('{"a": 1, /* "c": "' + "a long aside " * 10 + '", */ "b": 2}')
    assert guard.value.removed_share > 0.3

    with pytest.raises(InputTooLargeError):
        llmjson.parse('{"a": 1}', max_size=4)


def test_options_are_passed_through():
    assert llmjson.parse('{"a": 1, "b": "cut', truncation="drop").value == {"a": 1}
    assert llmjson.parse('{"a": 1, "b": "cut').value == {"a": 1, "b": "cut"}
    assert llmjson.parse('{"a": 1, "a": 2}', duplicate_keys="first").value == {"a": 1}
    with pytest.raises(JSONParseError, match="duplicate key"):
        llmjson.parse('{"a": 1, "a": 2}', duplicate_keys="error")
    with pytest.raises(JSONParseError):
        llmjson.parse("{'a': 1}", level="conservative")
    assert llmjson.parse('{"a": 1 // note\n}', level="conservative").value == {"a": 1}
    with pytest.raises(ValueError, match="level must be one of"):
        llmjson.parse("{}", level="lenient")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        llmjson.parse(42)  # type: ignore[call-overload]


@pytest.mark.parametrize("setting, disabled", [("0", True), (" Off ", True), ("FALSE", True), ("no", True), ("1", False), ("", False), ("yes", False)])
def test_the_kill_switch_spellings(monkeypatch, setting, disabled):
    monkeypatch.setenv("LLMJSON_REPAIR", setting)
    if disabled:
        with pytest.raises(JSONParseError):
            llmjson.loads("{'a': 1}")
    else:
        assert llmjson.loads("{'a': 1}") == {"a": 1}


def test_options_are_compiled_once_per_distinct_set(monkeypatch):
    """A call passes one native options object, compiled the first time its set of options is
    seen (issue 61); the kill switch still takes effect at the next call, and another set of
    options is another object."""
    compiled = llmjson._compiled_options
    compiled.cache_clear()
    for _ in range(3):
        assert llmjson.parse("{'a': [1, 2,]}", duplicate_keys="first").value == {"a": [1, 2]}
    assert compiled.cache_info().misses == 1 and compiled.cache_info().hits == 2
    assert llmjson.parse("{'a': 1}", duplicate_keys="error").value == {"a": 1}
    assert compiled.cache_info().misses == 2
    monkeypatch.setenv("LLMJSON_REPAIR", "0")
    with pytest.raises(JSONParseError):
        llmjson.parse("{'a': [1, 2,]}", duplicate_keys="first")
    assert compiled.cache_info().misses == 3
    # A bad option is refused before any options are compiled.
    with pytest.raises(ValueError):
        llmjson.parse("{}", truncation="sometimes")
    assert compiled.cache_info().misses == 3
    # An argument of the wrong type is refused whether or not an equal value of the right type
    # is cached (`0 == False`: the cache is typed).
    monkeypatch.delenv("LLMJSON_REPAIR")
    assert llmjson.parse("{'a': 1}", latex=False).value == {"a": 1}
    with pytest.raises(TypeError):
        llmjson.parse("{'a': 1}", latex=0)  # type: ignore[arg-type]


def test_the_kill_switch_forces_level_none(monkeypatch):
    assert llmjson.loads("{'a': 1}") == {"a": 1}
    monkeypatch.setenv("LLMJSON_REPAIR", "0")
    with pytest.raises(JSONParseError):
        llmjson.loads("{'a': 1}")
    assert llmjson.loads('{"a": 1}') == {"a": 1}
    with pytest.raises(JSONParseError):
        llmjson.parse("{'a': 1}", level="full")
    # Strict mode validates without coercing (seed 001: json.loads, then the schema).
    schema = {"type": "object", "properties": {"version": {"type": "string"}}, "additionalProperties": False}
    with pytest.raises(JSONSchemaError) as info:
        llmjson.parse('{"version": 1, "extra": true}', schema=schema)
    assert len(info.value.errors) == 2


def test_schema_coerces_and_validates():
    schema = {
        "type": "object",
        "properties": {"retries": {"type": "integer"}, "tool": {"enum": ["python", "shell"]}},
        "required": ["retries", "tool"],
        "additionalProperties": False,
    }
    result = llmjson.parse("{retries: '3', Tool: 'Python'}", schema=schema)
    assert result.value == {"retries": 3, "tool": "python"}
    assert "coerced_number" in [r.kind for r in result.repairs]
    assert result.diagnostics["stages"] == ["locate", "repair", "coerce", "validate"]

    with pytest.raises(JSONSchemaError) as err:
        llmjson.parse('{"retries": 1, "tool": "perl"}', schema=schema)
    assert [str(v) for v in err.value.errors] == ["/tool: 'perl' is not one of 'python', 'shell'"]
    assert err.value.errors[0].keyword == "enum"
    assert err.value.value == {"retries": 1, "tool": "perl"}
    assert "does not match the required schema" in err.value.feedback

    with pytest.raises(JSONSchemaError):
        llmjson.parse('{"retries": "3", "tool": "shell"}', schema=schema, coercion="validate_only")


def test_schemas_are_compiled_once_and_can_be_shared():
    compiled = llmjson.Schema('{"type": "array", "items": {"type": "integer"}}')
    assert llmjson.parse("['1', 2]", schema=compiled).value == [1, 2]
    assert llmjson.parse("[3]", schema='{"type": "array"}').value == [3]
    with pytest.raises(LLMJSONError, match="invalid schema") as err:
        llmjson.Schema('{"type": "strnig"}')
    assert err.value.kind == "invalid_schema"
    assert compiled.validate([1, "x"]) == [llmjson.SchemaViolation("/1", "type", "'x' is a string, not an integer")]
    assert compiled.is_valid([1, 2])
    assert llmjson.Schema({"type": "object"}).is_valid({})
    with pytest.raises(TypeError):
        llmjson.parse("{}", schema=42)


def test_threads_run_in_parallel_safely():
    reply = '{"items": [' + ",".join(f"{{id: {i}, ok: True}}" for i in range(2000)) + "]}"
    results = []

    def work():
        for _ in range(5):
            results.append(len(llmjson.loads(reply)["items"]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [2000] * 20
    assert llmjson.metrics.snapshot()["repaired"] == 20


def test_repair_kinds_are_listed():
    from llmjson._llmjson import repair_kinds

    kinds = repair_kinds()
    assert "trailing_comma" in kinds and "coerced_number" in kinds
    assert len(kinds) == len(set(kinds))


def test_the_valid_document_fast_path_agrees_with_the_full_parser():
    # Valid replies are read by the standard library's C parser; the value must be what
    # llmjson's own parser gives (checked here through a fence, which takes the full path).
    documents = [
        '{"a": [1, 2.5, -0.0, 1e400, true, null], "b": {"c": "d\\u00e9\\n"}}',
        '[{"x": 123456789012345678901234567890}, "\\ud83d\\ude00"]',
        '  {"dup": 1, "dup": 2}\n',
    ]
    for text in documents:
        fast = llmjson.parse(text)
        full = llmjson.parse("```json\n" + text + "\n```")
        assert fast.value == full.value, text
        assert fast.repairs == [] and fast.diagnostics["outcome"] == "ok"
    # What json.loads accepts but JSON does not, and lone surrogates, take the full path.
    assert llmjson.parse('{"a": NaN}').value == {"a": None}
    assert llmjson.parse('{"a": NaN}').repairs[0].kind == "javascript_literal"
    with pytest.raises(JSONParseError):
        llmjson.parse('{"a": Infinity}', level="none")
    assert llmjson.parse('["\\ud800"]').value == ["\ufffd"]


def test_a_str_with_lone_surrogates_is_parsed_with_replacement_characters():
    # Such a str cannot be UTF-8; json_repair accepts it, so must a drop-in.
    assert llmjson.loads('{"a": "x\ud800y"}') == {"a": "x\ufffdy"}
    result = llmjson.parse("{a: '\udfff'}")
    assert result.value == {"a": "\ufffd"}
    assert result.diagnostics["replaced_lone_surrogates"] is True


def test_hostile_inputs_give_typed_errors_or_values():
    with pytest.raises(JSONParseError, match="nesting deeper than 127"):
        llmjson.loads("[" * 100_000)
    with pytest.raises(JSONParseError):
        llmjson.loads("[" * 200 + "]" * 200)  # valid, but deeper than the limit
    assert llmjson.loads("[" * 100 + "]" * 100) is not None
    huge = '{"content": "' + 'print("hi") ' * 200_000 + '", "n": 1}'
    assert llmjson.loads(huge)["n"] == 1
    with pytest.raises(InputTooLargeError):
        llmjson.loads("[" + "1," * 6_000_000 + "1]")


def _answer(call):
    try:
        return ("value", call())
    except LLMJSONError as e:
        return ("error", type(e).__name__, e.kind)


def test_loads_answers_as_parse_does_and_counts_each_call_once():
    # loads without a log is one native call (valid read, parse, conversion, counting); it must
    # give parse's value, or raise parse's error, on every reply, and count each call once.
    import json
    from pathlib import Path

    replies = [
        json.loads(line)["reply"]
        for line in (Path(__file__).resolve().parents[3] / "examples" / "replies.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    replies += [
        '{"a": 1}',
        ' \n\t[1, 2]\r\n',
        '"just a string"',
        "42",
        "\ufeff{'a': 1}",
        "",
        "   ",
        "no json here",
        "{'a': 'x\ud800'}",
        '{"a": 1, "a": 2}',
        "[1, 2",
        "{a: True, b: None, /* c */ d: 'e',}",
        "x" * 10 + '{"k": "' + "v" * 1000 + '"}',
    ]
    for reply in replies:
        for strict, level in ((False, "full"), (True, "none")):
            calls = llmjson.metrics.snapshot()["calls"]
            lean = _answer(lambda: llmjson.loads(reply, strict=strict))
            assert llmjson.metrics.snapshot()["calls"] == calls + 1, reply
            full = _answer(lambda: llmjson.parse(reply, level=level).value)
            assert lean == full, reply


def test_an_option_that_would_do_nothing_is_refused():
    for kwargs in [
        {"fail_closed": False},
        {"locale": "de"},
        {"language": "pt"},
        {"coercion": "validate_only"},
        {"invalid_items": "drop"},
    ]:
        with pytest.raises(TypeError, match="does nothing without"):
            llmjson.parse("{'a': 1}", **kwargs)
    # With what they act on, they are taken.
    assert llmjson.parse('{"a": 1}', schema={"type": "object"}, coercion="validate_only").value == {"a": 1}
    assert llmjson.parse('{"a": 1}', evidence="a was 1", fail_closed=False).value == {"a": 1}

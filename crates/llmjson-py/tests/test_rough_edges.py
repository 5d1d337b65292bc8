"""Issue 11's rough edges as a new user meets them from Python."""

import json
import pickle

import pytest

import llmjson


def test_parse_errors_are_json_decode_errors_with_their_fields():
    reply = '{"a": 1,\n "b": 1 2 ]]'
    with pytest.raises(json.JSONDecodeError) as info:
        llmjson.parse(reply, level="none")
    e = info.value
    assert isinstance(e, llmjson.JSONParseError)
    assert e.doc == reply
    assert (e.lineno, e.colno) == (2, 9)
    assert reply[e.pos] == "2"
    assert e.msg == str(e)
    again = pickle.loads(pickle.dumps(e))
    assert isinstance(again, json.JSONDecodeError) and again.pos == e.pos
    with pytest.raises(json.JSONDecodeError):
        llmjson.loads("")
    with pytest.raises(json.JSONDecodeError):
        llmjson.parse("no json here")


@pytest.mark.parametrize("ratio", [1.5, -0.1, float("nan")])
def test_max_removed_ratio_out_of_range_is_refused(ratio):
    with pytest.raises(ValueError, match="max_removed_ratio"):
        llmjson.parse("[1]", max_removed_ratio=ratio)


def test_bytes_input_and_parse_all_and_truncated():
    assert llmjson.parse(b'{"a": 1,}').value == {"a": 1}
    assert llmjson.parse(b'{"a": "caf\xff"}').value == {"a": "caf\ufffd"}
    with pytest.raises(json.JSONDecodeError):
        llmjson.parse(b'{"a": "caf\xff"}', level="none")
    both = llmjson.parse_all('first {"a": 1} then {"b": 2}')
    assert both.value == [{"a": 1}, {"b": 2}]
    assert llmjson.parse('{"a": [1, 2').truncated
    assert not llmjson.parse('{"a": [1, 2]}').truncated


def test_retries_exhausted_is_exported_and_an_invalid_schema_calls_no_model():
    assert issubclass(llmjson.RetriesExhausted, llmjson.LLMJSONError)
    calls = []

    def generate(feedback):
        calls.append(feedback)
        return '{"a": 1}'

    with pytest.raises(llmjson.InvalidSchemaError):
        llmjson.parse_with_retries(generate, schema={"type": 12})
    assert calls == []


def test_drop_element_policy():
    cut = '{"steps": [{"id": 1, "tool": "a"}, {"id": 2, "tool": "b'
    assert llmjson.parse(cut, truncation="drop").value == {"steps": [{"id": 1, "tool": "a"}, {"id": 2}]}
    assert llmjson.parse(cut, truncation="drop_element").value == {"steps": [{"id": 1, "tool": "a"}]}


def test_an_escaping_failure_has_an_envelope_naming_the_rule():
    reply = '{"path": "a.py", "content": "print("hi")\n", "n": 1}'
    with pytest.raises(llmjson.LLMJSONError) as info:
        llmjson.parse(reply, level="conservative", request_id="req-7")
    envelope = info.value.envelope()
    assert envelope["status"] == "FAIL"
    assert envelope["summary"].startswith("invalid JSON — probably an escaping problem")
    assert envelope["request_id"] == "req-7"
    assert "escaping rule" in envelope["next_actions"][0]
    assert set(envelope) >= {"status", "summary", "errors", "next_actions", "request_id"}
    assert r"a double quote as \"" in info.value.feedback
    # The retry loop sends that feedback.
    seen = []

    def generate(feedback):
        seen.append(feedback)
        return reply if len(seen) == 1 else '{"path": "a.py", "content": "ok", "n": 1}'

    llmjson.parse_with_retries(generate, level="conservative")
    assert "must be escaped" in seen[1]


def test_parse_all_with_a_schema_fits_every_value():
    schema = {"type": "object", "properties": {"version": {"type": "string"}}}
    result = llmjson.parse_all('{"version": 1}\nand {"version": "2"}', schema=schema)
    assert result.value == [{"version": "1"}, {"version": "2"}]
    with pytest.raises(llmjson.JSONSchemaError):
        llmjson.parse_all('{"version": 1}\nand {"version": [2]}', schema=schema)


@pytest.mark.parametrize("reply", ["it is not true.", "Yes and no"])
def test_prose_negation_and_ambiguity_are_not_answers(reply):
    with pytest.raises(llmjson.JSONSchemaError) as info:
        llmjson.parse(reply, schema={"type": "boolean"})
    assert "negates" in str(info.value) or "ambiguous" in str(info.value)
    assert llmjson.parse("It is true.", schema={"type": "boolean"}).value is True

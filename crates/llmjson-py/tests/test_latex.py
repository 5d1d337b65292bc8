"""LaTeX written with single backslashes reads as LaTeX (``latex=True``, the default) in every
entry point; ``latex=False`` and level none keep RFC 8259's reading; real tabs stay."""

import json

import pytest

import llmjson

REPLY = r'{"answer": "$\frac{a}{b} + \beta$", "table": "Name\tScore\nAna\t91"}'
LATEX = {"answer": r"$\frac{a}{b} + \beta$", "table": "Name\tScore\nAna\t91"}


def test_parse_and_loads_read_latex_and_keep_real_tabs():
    result = llmjson.parse(REPLY)
    assert result.value == LATEX
    assert [r.kind for r in result.repairs] == ["latex_escape"]
    assert llmjson.loads(REPLY) == LATEX
    assert llmjson.loads(r'{"a": "$\alpha + \beta$"}') == {"a": r"$\alpha + \beta$"}, "one reading"
    assert llmjson.loads(r'{"a": "Send\tto the team"}') == {"a": "Send\tto the team"}


def test_latex_false_and_level_none_are_rfc_8259():
    assert llmjson.parse(REPLY, latex=False).value == json.loads(REPLY)
    assert llmjson.parse(REPLY, level="none").value == json.loads(REPLY)
    assert llmjson.parse_all(REPLY, latex=False).value == [json.loads(REPLY)]


def test_batch_and_stream_agree_with_parse():
    [result] = llmjson.batch([{"id": 1, "reply": REPLY}])
    assert result.value == LATEX
    [rfc] = llmjson.batch([REPLY], latex=False)
    assert rfc.value == json.loads(REPLY)
    parser = llmjson.StreamParser()
    for i in range(0, len(REPLY), 7):
        parser.feed(REPLY[i : i + 7])
    assert parser.finish().value == LATEX
    parser = llmjson.StreamParser(latex=False)
    parser.feed(REPLY)
    assert parser.finish().value == json.loads(REPLY)


def test_a_schema_and_the_arrow_step_read_it_too():
    schema = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"]}
    assert llmjson.parse(REPLY, schema=schema).value["answer"] == LATEX["answer"]
    pa = pytest.importorskip("pyarrow")
    from llmjson.spark import parse_batch

    batch = pa.RecordBatch.from_pydict({"reply": [REPLY]})
    [row] = parse_batch(batch, "reply").to_pylist()
    assert json.loads(row["llmjson_value"]) == LATEX
    [row] = parse_batch(batch, "reply", latex=False).to_pylist()
    assert json.loads(row["llmjson_value"]) == json.loads(REPLY)

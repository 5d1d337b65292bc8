"""A caller who reads only ``.value`` pays for no repair object: the log is made when read."""

import pytest

import llmjson
from llmjson.errors import NoJSONError


def test_repairs_are_made_when_first_read_and_say_what_they_said() -> None:
    result = llmjson.parse("{a: 1, 'b': [1, 2,],}")
    assert result.value == {"a": 1, "b": [1, 2]}
    assert result.repaired
    assert result._repairs_made is None, "nothing made before the log is read"
    log = result.repairs
    assert result.repairs is log, "made once"
    assert [(r.kind, r.span, r.line, r.column, r.path, r.detail) for r in log] == [
        ("unquoted_key", (1, 2), 1, 2, "/a", "quoted"),
        ("single_quotes", (7, 8), 1, 8, "/b", "replaced by '\"'"),
        ("trailing_comma", (17, 18), 1, 18, "/b", "removed"),
        ("trailing_comma", (19, 20), 1, 20, "", "removed"),
    ]
    assert result.diagnostics["repairs_by_kind"] == {"unquoted_key": 1, "single_quotes": 1, "trailing_comma": 2}


def test_results_compare_and_print_by_their_repairs() -> None:
    a = llmjson.parse("{'x': 1}")
    b = llmjson.parse("{'x': 1}")
    # The same repairs, one side still native, the other a list: equal (diagnostics aside,
    # which hold timings).
    same = llmjson.ParseResult(b.value, b.repairs, a.diagnostics, b.verification, b.dropped, b.span)
    assert a == same
    assert a != llmjson.ParseResult(b.value, [], a.diagnostics)
    assert "single_quotes" in repr(a)
    clean = llmjson.parse('{"x": 1}')
    assert not clean.repaired and clean.repairs == []


def test_a_repair_span_counts_characters_past_non_ascii_text() -> None:
    # CJK, accented and astral characters (one character each in Python) before every repair;
    # the spans are worked out only when the log is read.
    text = '{"名前": “太郎”, "😀": \'Tōkyō\', /* 注 */ "x": [1, 2,], "y": True, "z": "終"'
    result = llmjson.parse(text)
    assert result._repairs_made is None
    assert [(r.kind, text[r.span[0] : r.span[1]]) for r in result.repairs] == [
        ("smart_quotes", "“"),
        ("single_quotes", "'"),
        ("comment", "/* 注 */"),
        ("trailing_comma", ","),
        ("python_literal", "True"),
        ("closed_truncated_object", ""),
    ]
    assert result.repairs[-1].span == (len(text), len(text))


# The record's keys, in order, as the eager record had them before it was made when read.
RECORD_KEYS = [
    "request_id", "stages", "outcome", "error", "failed_stage", "json_source", "json_span",
    "repairs", "repairs_by_kind", "coercions", "schema_errors", "dropped_items",
    "verification_passed", "verification_numbers_extracted", "verification_matched",
    "verification_unmatched", "verification_issue_types", "verification_unmatched_examples",
    "fail_closed_triggered", "fail_closed_reason", "fail_closed_stage", "latency_ms",
]  # fmt: skip


def test_diagnostics_are_made_when_first_read_and_are_the_record_they_were() -> None:
    made = []
    blank = llmjson._blank_record

    def counting(*args: object) -> dict[str, object]:
        made.append(args)
        return blank(*args)  # type: ignore[arg-type]

    llmjson._blank_record = counting  # type: ignore[assignment]
    try:
        repaired = llmjson.parse("Sure: ```json\n{a: 1, 'b': [1, 2,],}\n```", request_id="r-1")
        valid = llmjson.parse(' {"a": 1} ')
        assert made == [], "no record made before one is read"
        record = repaired.diagnostics
        assert repaired.diagnostics is record and len(made) == 1, "made once, the same dict after"
        assert list(record) == RECORD_KEYS
        assert record["request_id"] == "r-1"
        assert (record["outcome"], record["repairs"], record["json_source"]) == ("repaired", 4, "fence:json")
        assert record["repairs_by_kind"] == {"unquoted_key": 1, "single_quotes": 1, "trailing_comma": 2}
        assert record["coercions"] == 0 and record["latency_ms"] > 0
        assert record["stages"] == ["locate", "repair"]
        # A valid document's record: no dropped items written, its span the document's.
        clean = valid.diagnostics
        assert list(clean) == RECORD_KEYS and clean["dropped_items"] == []
        assert (clean["outcome"], clean["json_span"]) == ("ok", {"start": 1, "end": 9})
        assert clean["request_id"] != "" and clean["request_id"] != repaired.diagnostics["request_id"]
        # A failure's error carries its record at once; a lone surrogate's replacement is noted.
        with pytest.raises(NoJSONError) as failure:
            llmjson.parse("no json here")
        assert failure.value.diagnostics["outcome"] == "no_json"
        assert llmjson.parse('{"a": "x\ud800"}').diagnostics["replaced_lone_surrogates"] is True
        # A caller may add to it (the retry loop does), and reads it back.
        repaired.diagnostics["attempts"] = 2
        assert repaired.diagnostics["attempts"] == 2
    finally:
        llmjson._blank_record = blank


def test_threads_reading_diagnostics_first_see_one_record() -> None:
    import threading

    for _ in range(20):
        result = llmjson.parse("{a: 1}")
        seen: list[str] = []
        start = threading.Barrier(8)

        def read() -> None:
            start.wait()
            seen.append(result.diagnostics["request_id"])

        threads = [threading.Thread(target=read) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(set(seen)) == 1, seen


def test_a_result_pickles_and_copies_with_its_repairs_and_record() -> None:
    # What a worker process sends back: the native log and the record's maker are made into
    # the repairs and the record first (a native log cannot be pickled).
    import copy
    import pickle

    for reply in ("{a: 1, 'b': [1, 2,],}", ' {"a": 1} ', '[1, {"x": "cut'):
        result = llmjson.parse(reply)
        back = pickle.loads(pickle.dumps(result))
        assert back == result
        assert [r.kind for r in back.repairs] == [r.kind for r in result.repairs]
        assert back.diagnostics == result.diagnostics and back.truncated == result.truncated
        deep = copy.deepcopy(result)
        assert deep == result and deep.diagnostics is not result.diagnostics

"""A caller who reads only ``.value`` pays for no repair object: the log is made when read."""

import llmjson


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
    same = llmjson.ParseResult(b.value, b.repairs, a.diagnostics, b.verification, b.dropped)
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

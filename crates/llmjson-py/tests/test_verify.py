"""The verify stage from Python: typed results, fail-closed parse, diagnostics on every call."""

import json

import pytest

import llmjson
from llmjson import Evidence, GroundingError, LLMJSONError

IDER_EVIDENCE = (
    "Experimento 12, aba Resistência\n"
    "Amostra A (PP + 2% talco): resistência à tração 41,8 MPa; alongamento 12,4 %.\n"
    "Amostra B (PP + 5% talco): resistência à tração 38,2 MPa; alongamento 9,1 %.\n"
)


def test_a_grounded_answer_is_verified_with_every_number_located():
    result = llmjson.verify("Sample B reached 38.2 MPa and 9.1 % elongation.", IDER_EVIDENCE)
    assert result.verified
    assert (result.numbers_extracted, result.matched, result.unmatched) == (2, 2, 0)
    assert result.numbers[0]["evidence"]["text"] == "38,2 MPa"
    assert result.output.startswith("Sample B")
    assert result.diagnostics["verification_passed"] is True
    assert result.diagnostics["fail_closed_triggered"] is False


def test_an_unmatched_number_blocks_the_answer_in_portuguese():
    result = llmjson.verify(
        "A amostra B atingiu 39,5 MPa.", IDER_EVIDENCE, fail_closed=True, language="pt"
    )
    assert not result.verified
    assert result.issue_types == ["not_in_evidence"]
    example = result.unmatched_examples[0]
    assert example.number == "39,5 MPa"
    assert "39,5 MPa" in example.context
    assert result.output.startswith("VERIFICAÇÃO FALHOU: 1 número(s)")
    assert result.fail_closed_reason == "numeric_grounding_failed"
    assert result.fail_closed_stage == "verification"
    d = result.diagnostics
    assert d["fail_closed_triggered"] and d["verification_unmatched"] == 1
    assert d["verification_unmatched_examples"][0]["number"] == "39,5 MPa"


def test_parse_with_evidence_fails_closed_with_a_grounding_error():
    reply = '```json\n{"answer": "B reached 39.5 MPa", "sample": "B"}\n```'
    # Seed 004's hard rule is the default: no flag needed to block.
    with pytest.raises(GroundingError) as info:
        llmjson.parse(reply, evidence=IDER_EVIDENCE)
    error = info.value
    assert isinstance(error, LLMJSONError) and error.kind == "grounding"
    assert error.reason == "numeric_grounding_failed"
    assert error.result.unmatched_examples[0].path == "/answer"
    assert error.diagnostics["stages"] == ["locate", "repair", "verify"]
    assert error.diagnostics["fail_closed_stage"] == "verification"
    # Reported, not raised, when the caller opts out.
    result = llmjson.parse(reply, evidence=IDER_EVIDENCE, fail_closed=False)
    assert result.verification is not None and not result.verification.verified


def test_diagnostics_have_the_same_keys_with_and_without_failure():
    ok = llmjson.parse('{"a": 41.8}', evidence=IDER_EVIDENCE).diagnostics
    with pytest.raises(LLMJSONError) as info:
        llmjson.parse("no json at all")
    for key in ("request_id", "verification_passed", "fail_closed_reason", "latency_ms", "outcome"):
        assert key in ok and key in info.value.diagnostics
    assert ok["verification_passed"] is True


def test_evidence_kinds_and_bad_input():
    ev = Evidence()
    ev.add_json("table", {"rows": [{"x": 12.5}]})
    ev.add_csv("sheet", "name,value\nA,1.234,5\n")
    ev.add_text("note", "total R$ 1.234,56")
    assert ev.numbers >= 3
    assert llmjson.verify("x = 12.5 and R$ 1.234,56", ev).verified
    assert llmjson.verify({"x": 12.5, "n": 3}, ev).verified
    assert Evidence().is_empty
    empty = llmjson.verify("it costs 12.5", Evidence())
    assert empty.fail_closed_reason == "no_evidence"
    nothing = llmjson.verify("No numbers here.", "some evidence")
    assert nothing.verified and nothing.numbers_extracted == 0
    with pytest.raises(llmjson.InputTooLargeError):
        llmjson.verify("1" * 100, "x", max_size=10)


def test_evidence_files(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe 12")
    with pytest.raises(ValueError, match="not UTF-8"):
        Evidence().add_file(bad)
    good = tmp_path / "data.json"
    good.write_text(json.dumps({"v": 44.1}))
    assert llmjson.verify("v is 44.1", Evidence().add_file(good)).verified


def test_verify_blocks_by_default_and_reports_when_asked():
    blocked = llmjson.verify("B reached 36.9 MPa.", IDER_EVIDENCE)
    assert blocked.fail_closed_triggered
    assert blocked.output.startswith("VERIFICATION FAILED")
    reported = llmjson.verify("B reached 36.9 MPa.", IDER_EVIDENCE, fail_closed=False)
    assert not reported.verified and not reported.fail_closed_triggered
    assert reported.output == "B reached 36.9 MPa."


def test_prose_comments_are_not_counted_by_the_guard_unless_asked():
    from llmjson import JSONRepairFailed

    note = "this value comes from the Q3 report and may change after the audit"
    reply = '{"a": 1, // ' + note + '\n "b": 2}'
    assert llmjson.parse(reply).value == {"a": 1, "b": 2}
    with pytest.raises(JSONRepairFailed):
        llmjson.parse(reply, guard_comments="all")
    with pytest.raises(ValueError):
        llmjson.parse(reply, guard_comments="some")


def test_a_percentage_is_its_fraction_and_percent_fraction_is_deprecated():
    evidence = Evidence("Return rate: 0.07")
    assert llmjson.verify("Returns were 7%.", evidence).verified
    with pytest.warns(DeprecationWarning):
        apart = llmjson.verify("Returns were 7%.", evidence, percent_fraction=False)
    assert not apart.verified


def test_a_blocked_number_says_why_and_whose_it_is():
    evidence = Evidence("Lisbon: 84 staff; Porto: 61 staff")
    result = llmjson.verify("The Porto office has 84 staff.", evidence)
    assert not result.verified
    example = result.unmatched_examples[0]
    assert example.reason == "wrong_subject"
    assert (example.subject, example.evidence_subject) == ("Porto", "Lisbon")

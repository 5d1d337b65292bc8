"""What real users feed the package by mistake: binary files, text in another encoding, inputs
over the size limit, option values spelled the CLI's way; and what a newcomer reads first
(``help``, ``dir``)."""

import json
import random
import shutil
from pathlib import Path

import pytest

import llmjson

# The head of an executable with a JSON-looking `[]` inside (what `llmjson.parse` once returned).
ELF = b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00GLIBC_2.17 [] main"


@pytest.mark.parametrize("level", ["full", "conservative", "none"])
def test_binary_bytes_are_refused_as_not_text(level):
    with pytest.raises(llmjson.BinaryInputError) as info:
        llmjson.parse(ELF, level=level)
    e = info.value
    assert e.kind == "binary"
    assert str(e) == "the input is binary, not text (a NUL byte at offset 7)"
    assert isinstance(e, llmjson.NoJSONError)  # `except NoJSONError` still catches it
    assert e.diagnostics["outcome"] == "binary"


def test_random_bytes_and_a_real_executable_are_refused():
    noise = random.Random(7).randbytes(4096)
    with pytest.raises(llmjson.BinaryInputError, match="the input is binary, not text"):
        llmjson.parse(noise)
    without_nul = bytes(b for b in noise if b)
    with pytest.raises(llmjson.BinaryInputError, match=r"% of its bytes are not UTF-8\)$"):
        llmjson.parse(without_nul)
    ls = shutil.which("ls")
    if ls:
        with pytest.raises(llmjson.BinaryInputError):
            llmjson.parse(Path(ls).read_bytes()[:1_000_000])
    # A str holding a NUL is refused the same way.
    with pytest.raises(llmjson.BinaryInputError):
        llmjson.parse('{"a": "x\x00y"}')
    with pytest.raises(llmjson.BinaryInputError):
        llmjson.loads('{"a": "x\x00y"}')


def test_bytes_that_are_not_utf8_are_repaired_and_logged_never_in_silence():
    result = llmjson.parse(b'{"name": "Jo\xe3o"}')
    assert result.value == {"name": "Jo\ufffdo"}
    assert [r.kind for r in result.repairs] == ["invalid_utf8"]
    assert str(result.repairs[0]) == "1:13 invalid_utf8 at (root): bytes that are not UTF-8 became U+FFFD"
    assert result.diagnostics["outcome"] == "repaired"
    assert result.repaired
    # The same with parse_all, and as the CLI and Node do: refused at level none.
    assert [r.kind for r in llmjson.parse_all(b'[1] ["\xff"]').repairs][:1] == ["invalid_utf8"]
    with pytest.raises(llmjson.JSONParseError) as info:
        llmjson.parse(b'{"name": "Jo\xe3o"}', level="none")
    assert info.value.kind == "invalid_utf8"
    assert str(info.value) == "input is not valid UTF-8 at byte 12"
    # Valid UTF-8 bytes are their text: nothing logged.
    assert llmjson.parse('{"name": "João"}'.encode()).repairs == []


def test_a_size_error_names_the_option_and_loads_takes_it():
    big = json.dumps({"a": "x" * 100})
    with pytest.raises(llmjson.InputTooLargeError) as info:
        llmjson.loads(big, max_size=50)
    assert str(info.value) == f"input is {len(big)} bytes, over the limit of 50 bytes (the max_size option raises it)"
    assert llmjson.loads(big, max_size=200) == {"a": "x" * 100}
    assert llmjson.repair_json("{'a': 1}", max_size=4096) == '{"a": 1}'
    with pytest.raises(llmjson.InputTooLargeError):
        llmjson.repair_json("{'a': 1}", max_size=3)
    with pytest.raises(llmjson.InputTooLargeError, match="max_size"):
        llmjson.parse(big.encode(), max_size=10)


@pytest.mark.parametrize("spelling", ["validate_only", "validate-only"])
def test_coercion_takes_either_spelling(spelling):
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    with pytest.raises(llmjson.JSONSchemaError):
        llmjson.parse('{"n": "5"}', schema=schema, coercion=spelling)
    assert llmjson.parse('{"n": "5"}', schema=schema).value == {"n": 5}


@pytest.mark.parametrize("spelling", ["drop_element", "drop-element"])
def test_truncation_takes_either_spelling(spelling):
    assert llmjson.parse("[[1], [2, 3", truncation=spelling).value == [[1]]


def test_a_misspelt_option_is_refused_before_any_work():
    with pytest.raises(ValueError, match="coercion must be one of fit, validate_only"):
        llmjson.parse("[1]", schema={"type": "array"}, coercion="validate only")


def test_dir_shows_the_public_api_only():
    names = dir(llmjson)
    for inside in ("os", "json", "time", "functools", "Any", "Path", "dataclass", "overload"):
        assert inside not in names
    for public in ("parse", "loads", "repair_json", "StreamParser", "BinaryInputError", "metrics"):
        assert public in names


def test_help_texts_use_words_a_user_knows():
    for thing in (llmjson.parse, llmjson.verify, llmjson.VerifyResult, llmjson.GroundingError, llmjson.LLMJSONError.envelope):
        doc = thing.__doc__ or ""
        for internal in ("seed 0", "Seed 0", "seed's", "the letter of"):
            assert internal not in doc, f"{thing.__qualname__}: {internal!r}"

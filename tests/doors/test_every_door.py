"""One reply, one outcome and one diagnostics record, whatever the door it comes through.

Every corpus reply (the shared corpora, when they are there), the example replies shipped in
the repository, and the hard ones — empty, blank, binary, bytes that are not UTF-8, 20 MB, no
JSON — go through every door: `llmjson repair`, `llmjson batch`, Python's `parse`, `loads`,
`from_file` and `batch`, Node's `parse`, and the Arrow kernel under `llmjson.spark`, Polars'
`llmjson` expression and DuckDB's `llmjson_parse`. Each must give the same outcome, and the doors
that return a diagnostics record the same record, key by key (in the same order), with the same
values but the request id and the latency; the column engines also the same value and repairs.

Run last by `.ci/run`, once the CLI, the Python package and the Node addon are all built.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

import llmjson

ROOT = Path(__file__).resolve().parents[2]
CLI = Path(os.environ.get("LLMJSON_CLI") or ROOT / "target" / "debug" / "llmjson")
NODE_PACKAGE = ROOT / "crates" / "llmjson-node"
CORPORA = Path(os.environ.get("LLMJSON_CORPORA") or ROOT.parent / "shared" / "corpora")
REQUIRED = os.environ.get("LLMJSON_REQUIRE_DOORS") == "1"

#: What differs from one call to the next by design.
PER_CALL = ("request_id", "latency_ms")


def _hard_replies() -> list[tuple[str, bytes]]:
    return [
        ("empty", b""),
        ("blank", b"  \n\t \r\n"),
        ("binary", b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00" + bytes(range(256))),
        ("latin-1", b'{"name": "Jos\xe9", "city": "S\xe3o Paulo"}'),
        ("bad byte in prose", b"Voil\xe0 : ```json\n{\"ok\": true,}\n```"),
        ("no json", b"Sorry, I cannot help with that request."),
        ("20 MB", b'{"a": "' + b"x" * (20 << 20) + b'"}'),
    ]


def _replies() -> list[tuple[str, bytes]]:
    replies = _hard_replies()
    for line in (ROOT / "examples" / "replies.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        replies.append((record["id"], record["reply"].encode("utf-8")))
    if CORPORA.is_dir():
        for path in sorted(CORPORA.glob("*.jsonl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                case = json.loads(line)
                if case.get("input_b64"):
                    replies.append((case["id"], base64.b64decode(case["input_b64"])))
                elif isinstance(case.get("input"), str):
                    replies.append((case["id"], case["input"].encode("utf-8", "surrogatepass")))
    elif os.environ.get("LLMJSON_REQUIRE_CORPORA") == "1":
        pytest.fail(f"LLMJSON_REQUIRE_CORPORA=1 but no corpora at {CORPORA}")
    return replies


REPLIES = _replies()


def _skip(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"LLMJSON_REQUIRE_DOORS=1 but {why}")
    pytest.skip(why)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Each reply as a file of its own bytes, in a folder of nothing else (named in order)."""
    folder = tmp_path_factory.mktemp("replies")
    paths = []
    for i, (_, reply) in enumerate(REPLIES):
        path = folder / f"{i:05}.txt"
        path.write_bytes(reply)
        paths.append(path)
    return paths


def _python_parse(reply: bytes) -> tuple[str, dict[str, Any]]:
    try:
        result = llmjson.parse(reply)
    except llmjson.LLMJSONError as e:
        return e.kind, e.diagnostics
    return result.diagnostics["outcome"], result.diagnostics


@pytest.fixture(scope="module")
def reference_values() -> list[tuple[Any, list[tuple[str, str, int, int]]] | None]:
    """Python's `parse` of the bytes: the value and the repairs (kind, path, start, end), or None
    when it gives no value. The columns count a span in UTF-8 bytes of the reply as read (a bad
    byte as U+FFFD), Python in characters: converted here."""
    out: list[tuple[Any, list[tuple[str, str, int, int]]] | None] = []
    for _, reply in REPLIES:
        try:
            result = llmjson.parse(reply)
        except llmjson.LLMJSONError:
            out.append(None)
            continue
        text = reply.decode("utf-8", errors="replace")

        def at(char: int) -> int:
            return len(text[:char].encode("utf-8", "surrogatepass"))

        out.append((result.value, [(r.kind, r.path, at(r.span[0]), at(r.span[1])) for r in result.repairs]))
    return out


def _same_rows(door: str, rows: list[dict[str, Any]], reference, reference_values) -> None:
    """Each row of a column engine's result against `parse`: outcome, record, value, repairs."""
    assert len(rows) == len(REPLIES)
    for (name, _), row, (outcome, record), wanted in zip(REPLIES, rows, reference, reference_values):
        assert row["outcome"] == outcome, (door, name)
        _same_record(door, name, json.loads(row["diagnostics"]), record)
        if wanted is None:
            assert row["value"] is None, (door, name)
            continue
        value, repairs = wanted
        assert row["value"] is not None and json.loads(row["value"]) == value, (door, name)
        assert [(r["kind"], r["path"], r["start"], r["end"]) for r in row["repairs"]] == repairs, (door, name)


@pytest.fixture(scope="module")
def reference() -> list[tuple[str, dict[str, Any]]]:
    """Python's `parse` of the bytes: what every other door is compared with."""
    return [_python_parse(reply) for _, reply in REPLIES]


def _json_lines(command: list[str]) -> list[dict[str, Any]]:
    """What `command` writes: one JSON line per reply (split on newlines only: a value may hold
    U+2028, which `str.splitlines` would split on)."""
    done = subprocess.run(command, capture_output=True, check=True, timeout=600)
    lines = [json.loads(line) for line in done.stdout.decode("utf-8").split("\n") if line]
    assert len(lines) == len(REPLIES)
    return lines


def _same_record(door: str, name: str, got: dict[str, Any], want: dict[str, Any]) -> None:
    assert list(got) == list(want), f"{door}, {name}: the record's keys differ"
    differing = {k: (got[k], want[k]) for k in want if k not in PER_CALL and got[k] != want[k]}
    assert not differing, f"{door}, {name}: {differing}"


def test_the_hard_replies_have_the_outcomes_the_table_gives(reference):
    outcomes = {name: outcome for (name, _), (outcome, _) in zip(REPLIES, reference)}
    assert {name: outcomes[name] for name, _ in _hard_replies()} == {
        "empty": "empty",
        "blank": "empty",
        "binary": "binary",
        "latin-1": "repaired",
        "bad byte in prose": "repaired",
        "no json": "no_json",
        "20 MB": "too_large",
    }
    latin1 = reference[3][1]
    assert latin1["repairs_by_kind"] == {"invalid_utf8": 1}


def test_llmjson_repair_gives_each_reply_its_outcome_and_record(files, reference, tmp_path):
    if not CLI.is_file():
        _skip(f"no llmjson CLI at {CLI} (set LLMJSON_CLI)")
    record_file = tmp_path / "record.json"
    for (name, _), path, (outcome, record) in zip(REPLIES, files, reference):
        done = subprocess.run(
            [str(CLI), "repair", "--diagnostics", str(record_file), str(path)],
            capture_output=True,
            timeout=120,
        )
        got = json.loads(record_file.read_text(encoding="utf-8"))
        assert got["outcome"] == outcome, (name, done.stderr)
        assert done.returncode == (0 if outcome in ("ok", "repaired") else 1), name
        if done.returncode:
            assert done.stderr.startswith(b"llmjson: "), (name, done.stderr)
        _same_record("llmjson repair", name, got, record)


def test_llmjson_batch_gives_each_reply_its_outcome_and_record(files, reference):
    if not CLI.is_file():
        _skip(f"no llmjson CLI at {CLI} (set LLMJSON_CLI)")
    lines = _json_lines([str(CLI), "batch", "--input-format", "text", "--fail-on", "none", str(files[0].parent)])
    for (name, _), line, (outcome, record) in zip(REPLIES, lines, reference):
        assert line["outcome"] == outcome, name
        _same_record("llmjson batch", name, line["diagnostics"], record)


def test_python_batch_loads_and_from_file_count_each_reply_in_its_outcome(files, reference):
    texts = []
    for (name, reply), (outcome, record) in zip(REPLIES, reference):
        try:
            texts.append((name, reply.decode("utf-8"), outcome, record))
        except UnicodeDecodeError:
            continue
    results = list(llmjson.batch(text for _, text, _, _ in texts))
    for (name, _, outcome, record), result in zip(texts, results):
        assert result.outcome == outcome, name
        _same_record("llmjson.batch", name, result.diagnostics, record)

    def counted(call: Any) -> str:
        before = llmjson.metrics.snapshot()
        try:
            call()
        except llmjson.LLMJSONError:
            pass
        after = llmjson.metrics.snapshot()
        moved = [k for k in llmjson.metrics.OUTCOMES if after[k] != before[k]]
        assert len(moved) == 1, moved
        return moved[0]

    for (name, reply), path, (outcome, _) in zip(REPLIES, files, reference):
        counter = llmjson.metrics.outcome_of_error_kind(outcome) if outcome not in ("ok", "repaired") else outcome
        assert counted(lambda: llmjson.from_file(path)) == counter, f"from_file, {name}"
        try:
            text = reply.decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert counted(lambda: llmjson.loads(text)) == counter, f"loads, {name}"


def test_node_parse_gives_each_reply_its_outcome_and_record(reference, tmp_path):
    node = shutil.which("node")
    addon = NODE_PACKAGE / "llmjson.node"
    if node is None or not addon.is_file():
        _skip("no Node.js, or the Node addon is not built (npm install in crates/llmjson-node)")
    replies = tmp_path / "replies.json"
    replies.write_text(json.dumps([base64.b64encode(reply).decode() for _, reply in REPLIES]))
    lines = _json_lines([node, str(Path(__file__).with_name("node_door.js")), str(replies), str(NODE_PACKAGE)])
    for (name, _), line, (outcome, record) in zip(REPLIES, lines, reference):
        assert line["outcome"] == outcome, name
        _same_record("Node parse", name, line["record"], record)


def test_the_arrow_kernel_gives_each_reply_its_outcome_and_record(reference):
    pa = pytest.importorskip("pyarrow")
    from llmjson.spark import parse_batch

    column = pa.array([reply for _, reply in REPLIES], type=pa.large_binary())
    rows = parse_batch(pa.RecordBatch.from_arrays([column], ["reply"]), "reply").to_pylist()
    for (name, _), row, (outcome, record) in zip(REPLIES, rows, reference):
        assert row["llmjson_outcome"] == outcome, name
        _same_record("Arrow kernel", name, json.loads(row["llmjson_diagnostics"]), record)


def _engine(name: str) -> Any:
    try:
        return pytest.importorskip(name)
    except pytest.skip.Exception:
        if os.environ.get("LLMJSON_REQUIRE_ENGINES") == "1":
            pytest.fail(f"LLMJSON_REQUIRE_ENGINES=1 but {name} is not installed")
        raise


def test_polars_gives_each_reply_its_outcome_record_value_and_repairs(reference, reference_values):
    pl = _engine("polars")
    import llmjson.polars  # noqa: F401  (registers the namespace)

    frame = pl.DataFrame({"reply": [reply for _, reply in REPLIES]}, schema={"reply": pl.Binary})
    rows = frame.select(pl.col("reply").llmjson.parse()).to_series().to_list()
    _same_rows("Polars", rows, reference, reference_values)


def test_duckdb_gives_each_reply_its_outcome_record_value_and_repairs(reference, reference_values):
    duckdb = _engine("duckdb")
    import llmjson.duckdb

    con = llmjson.duckdb.register(duckdb.connect())
    pa = pytest.importorskip("pyarrow")
    replies = pa.table({"i": list(range(len(REPLIES))), "reply": pa.array([r for _, r in REPLIES], pa.binary())})
    con.register("replies", replies)
    found = con.sql("SELECT llmjson_parse(reply) AS r FROM replies ORDER BY i").fetchall()
    _same_rows("DuckDB", [r for (r,) in found], reference, reference_values)

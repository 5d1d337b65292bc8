"""Streaming: StreamParser, stream and astream give what parse gives for the whole reply, and
show the value while it arrives."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from types import SimpleNamespace

import pytest

import llmjson

REPLIES = Path(__file__).resolve().parents[3] / "examples" / "replies.jsonl"


def _replies() -> list[str]:
    return [json.loads(line)["reply"] for line in REPLIES.read_text(encoding="utf-8").splitlines() if line.strip()]


def _pieces(data, rng: random.Random):
    at = 0
    while at < len(data):
        step = rng.randint(1, 24)
        yield data[at : at + step]
        at += step


def _outcome(call):
    try:
        result = call()
    except llmjson.LLMJSONError as e:
        return ("error", type(e).__name__, str(e))
    return ("ok", result.value, [(r.kind, r.span, r.path, r.detail) for r in result.repairs])


@pytest.mark.parametrize("as_bytes", [False, True])
def test_every_logged_reply_fed_in_random_chunks_finishes_as_parse(as_bytes):
    rng = random.Random(20261125)
    for reply in _replies():
        data = reply.encode() if as_bytes else reply
        parser = llmjson.StreamParser()
        for piece in _pieces(data, rng):
            parser.feed(piece)
            parser.snapshot()
        assert _outcome(parser.finish) == _outcome(lambda: llmjson.parse(reply)), reply[:80]


def test_snapshot_value_complete_and_provisional():
    parser = llmjson.StreamParser()
    parser.feed('Sure! ```json\n{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, "title": "Add pas')
    snap = parser.snapshot()
    assert snap.value == {"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, "title": "Add pas"}]}
    assert "/steps/0" in snap.complete
    assert "/steps/1/title" in snap.provisional
    assert not snap.done
    assert not snap.is_settled("/steps/1/title")
    parser.feed('ta"}]}\n```')
    assert parser.snapshot().done
    result = parser.finish()
    assert result.value["steps"][1]["title"] == "Add pasta"
    assert result.diagnostics["stream_chunks"] == 2
    assert result.diagnostics["stream_first_value_ms"] >= 0
    assert result.diagnostics["outcome"] == "ok"


def test_events_say_what_happened():
    # Events say what the decision procedure settled: a window behind what has arrived, so a
    # short reply's come with its end.
    parser = llmjson.StreamParser()
    parser.feed('{"name": "Ad')
    assert parser.events() == []
    parser.feed('a", "tags": ["x"]}')
    parser.finish()
    told = [(e.kind, e.path, e.text) for e in parser.last_events]
    assert told[:2] == [("key_started", "/name", None), ("string_grew", "/name", "Ada")]
    assert ("value_completed", "/tags/0", None) in told
    # A long reply: the first items are told before it ends; a repeated key revises the value
    # shown before it.
    pad = "x" * 600
    reply = f'{{"name": "A", "pad": "{pad}", "name": "B", "tail": "{pad}"}}'
    parser = llmjson.StreamParser()
    early: list[tuple[str, str]] = []
    for i in range(0, len(reply), 64):
        parser.feed(reply[i : i + 64])
        early += [(e.kind, e.path) for e in parser.events()]
    assert ("value_completed", "/name") in early
    parser.finish()
    assert ("revised", "/name") in [(e.kind, e.path) for e in parser.last_events]


def test_a_split_character_and_escape_arrive_whole():
    text = '{"city": "東京", "e": "\\ud83d\\ude00"}'
    data = text.encode()
    parser = llmjson.StreamParser()
    for i in range(len(data)):
        parser.feed(data[i : i + 1])
        value = parser.snapshot().value
        if value is not None:
            # Never a half character or half an escape.
            json.dumps(value, ensure_ascii=False).encode()
    assert parser.finish().value == {"city": "東京", "e": "😀"}


def test_limits_and_misuse():
    parser = llmjson.StreamParser(max_size=10)
    parser.feed('{"a": ')
    with pytest.raises(llmjson.InputTooLargeError):
        parser.feed('"0123456789"}')
    parser = llmjson.StreamParser()
    for _ in range(50):
        parser.feed("[" * 10)  # the live view stops at the depth limit; the verdict comes at the end
    with pytest.raises(llmjson.JSONParseError, match="nesting deeper"):
        parser.finish()
    parser = llmjson.StreamParser()
    parser.feed("no json here")
    with pytest.raises(llmjson.NoJSONError):
        parser.finish()
    with pytest.raises(RuntimeError):
        parser.finish()
    with pytest.raises(TypeError):
        llmjson.StreamParser().feed(12)  # type: ignore[arg-type]


def test_schema_events_and_coerced_snapshots():
    schema = {
        "type": "object",
        "properties": {
            "count": {"type": "integer"},
            "steps": {"type": "array", "items": {"type": "object", "required": ["id", "title"]}},
        },
        "required": ["steps"],
    }
    parser = llmjson.StreamParser(schema=schema)
    # The last title is long: the first step is settled while it arrives.
    parser.feed('{"count": "3", "steps": [{"id": 1}, {"title": "x' + "y" * 700)
    snap = parser.snapshot()
    assert snap.value["count"] == 3
    missing = [(e.path, e.property) for e in parser.events() if e.kind == "required_missing"]
    assert missing == [("/steps/0", "title")]
    with pytest.raises(llmjson.JSONSchemaError):
        parser.finish()


OPENAI_STYLE = [
    {"choices": [{"delta": {"role": "assistant"}}]},
    {"choices": [{"delta": {"content": "Here is the plan:\n```json\n{\"goal\": \"Ship"}}]},
    {"choices": [{"delta": {"content": " it\", \"steps\": [{\"id\": 1, \"title\": \"Build\"},"}}]},
    {"choices": [{"delta": {"content": " {\"id\": 2, \"title\": \"Test\"}]}\n```"}}]},
    {"choices": [{"delta": {}}]},
]


def test_stream_yields_partial_values_then_the_final_one():
    values = list(llmjson.stream(OPENAI_STYLE))
    whole = "".join(c["choices"][0]["delta"].get("content", "") for c in OPENAI_STYLE)
    assert values[-1] == llmjson.parse(whole).value
    assert values[0] == {"goal": "Ship"}
    assert len(values) == 4
    # Objects with attributes (the OpenAI SDK's chunk objects) work too.
    objects = [
        SimpleNamespace(choices=[SimpleNamespace(delta=SimpleNamespace(content=c["choices"][0]["delta"].get("content")))])
        for c in OPENAI_STYLE
    ]
    assert list(llmjson.stream(objects)) == values


def test_astream_yields_the_same():
    async def chunks():
        for c in OPENAI_STYLE:
            await asyncio.sleep(0)
            yield c

    async def collect():
        return [v async for v in llmjson.astream(chunks())]

    assert asyncio.run(collect()) == list(llmjson.stream(OPENAI_STYLE))


def test_stream_with_a_model_yields_partial_instances():
    pydantic = pytest.importorskip("pydantic")

    class Step(pydantic.BaseModel):
        id: int
        title: str

    class Plan(pydantic.BaseModel):
        goal: str
        steps: list[Step]

    values = list(llmjson.stream(OPENAI_STYLE, model=Plan))
    assert isinstance(values[-1], Plan)
    assert values[-1].steps[1].title == "Test"
    first = values[0]
    assert isinstance(first, Plan) and first.goal == "Ship"
    assert "steps" not in first.model_fields_set
    # A partial instance whose steps are still arriving: the open field is the raw value.
    partial = values[1]
    assert partial.goal == "Ship it"
    # The final value is validated: a reply that does not fit raises.
    with pytest.raises(llmjson.JSONSchemaError):
        list(llmjson.stream(['{"goal": 1, "steps": "none"}'], model=Plan))


def test_partial_instances_are_typed_all_the_way_down():
    pydantic = pytest.importorskip("pydantic")

    class Stop(pydantic.BaseModel):
        place: str
        minutes: int

    class Day(pydantic.BaseModel):
        plan: str
        stops: list[Stop] = []

    class Trip(pydantic.BaseModel):
        title: str
        days: list[Day]
        note: Day | None = None

    reply = (
        '{"title": "Lisbon", "days": [{"plan": "Old town", "stops": [{"place": "Alfama", "minutes": "90"}, '
        '{"place": "Baixa", "minutes": 45}]}, {"plan": "Belém", "stops": [{"place": "Torre", "minutes": 30}, '
        '{"place": "Jerónimos", "minutes": 6'
    )
    seen = list(llmjson.stream([reply[i : i + 17] for i in range(0, len(reply), 17)] + ["0}]}]}"], model=Trip))
    # Once days[0] is complete, it is a validated Day (its "90" a number), its stops Stops.
    typed = [v for v in seen[:-1] if isinstance(v, Trip) and len(getattr(v, "days", [])) >= 2]
    assert typed, seen
    partial = typed[-1]
    day = partial.days[0]
    assert isinstance(day, Day) and day.plan == "Old town"
    assert isinstance(day.stops[0], Stop) and day.stops[0].minutes == 90
    # days[1] is still arriving: a model_construct Day, its complete stops typed, the open one
    # constructed from what has arrived.
    open_day = partial.days[1]
    assert isinstance(open_day, Day) and open_day.plan == "Belém"
    assert isinstance(open_day.stops[0], Stop) and open_day.stops[0].minutes == 30
    assert all(isinstance(s, Stop) for s in open_day.stops)
    final = seen[-1]
    assert isinstance(final, Trip) and final.days[1].stops[1].minutes == 60


def _joined(events: list[llmjson.Event]) -> list[tuple[str, str, str | None]]:
    """Events with each string's growth joined (how many pieces depends on when they are read)."""
    out: list[tuple[str, str, str | None]] = []
    for e in events:
        if e.kind == "string_grew" and out and out[-1][0] == "string_grew" and out[-1][1] == e.path:
            out[-1] = (e.kind, e.path, (out[-1][2] or "") + (e.text or ""))
        else:
            out.append((e.kind, e.path, e.text if e.kind == "string_grew" else e.property))
    return out


def test_events_nobody_reads_are_made_when_first_read() -> None:
    reply = 'Sure:\n```json\n{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, \'n\': 3,}], "done": tru'
    live = llmjson.StreamParser()
    told: list[llmjson.Event] = []
    for i in range(0, len(reply), 5):
        live.feed(reply[i : i + 5])
        told += live.events()
    live.finish()
    told += live.last_events
    late = llmjson.StreamParser()
    for i in range(0, len(reply), 5):
        late.feed(reply[i : i + 5])
    assert late.finish().value == live_value(reply)
    assert _joined(late.last_events) == _joined(told)
    assert late.last_events is late.last_events, "made once"
    # A repeated key replaced a value nobody was shown: the events tell the final value only.
    repeated = llmjson.StreamParser()
    repeated.feed('{"a": 1, "a": 2}')
    repeated.finish()
    told = [(e.kind, e.path) for e in repeated.last_events]
    assert ("revised", "/a") not in told
    assert told[0] == ("key_started", "/a")


def live_value(reply: str) -> object:
    return llmjson.parse(reply).value


def _openai_tool_chunks() -> list[dict[str, object]]:
    """Two parallel tool calls, their arguments interleaved in small pieces, as OpenAI streams."""
    first = '{"location": "Lisboa", "unit": "celsius", "days": "3"}'
    second = "{'query': 'tram 28', 'limit': 5,}"
    chunks: list[dict[str, object]] = [{"choices": [{"delta": {"role": "assistant", "content": None}}]}]
    chunks.append({"choices": [{"delta": {"tool_calls": [
        {"index": 0, "id": "call_a", "type": "function", "function": {"name": "weather", "arguments": ""}}]}}]})
    chunks.append({"choices": [{"delta": {"tool_calls": [
        {"index": 1, "id": "call_b", "type": "function", "function": {"name": "search", "arguments": ""}}]}}]})
    for i in range(0, max(len(first), len(second)), 6):
        for index, text in ((0, first), (1, second)):
            piece = text[i : i + 6]
            if piece:
                chunks.append({"choices": [{"delta": {"tool_calls": [{"index": index, "function": {"arguments": piece}}]}}]})
    chunks.append({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]})
    return chunks


def test_stream_reads_openai_tool_calls_one_parser_per_call() -> None:
    weather = {"type": "object", "properties": {"days": {"type": "integer"}}}
    yielded = list(llmjson.stream(_openai_tool_chunks(), tools={"weather": weather}))
    final = yielded[-1]
    assert final == [
        llmjson.ToolCall(0, "call_a", "weather", {"location": "Lisboa", "unit": "celsius", "days": 3}),
        llmjson.ToolCall(1, "call_b", "search", {"query": "tram 28", "limit": 5}),
    ]
    partial = yielded[:-1]
    assert len(partial) > 5, "the arguments are shown as they grow"
    assert all(isinstance(p, list) and all(isinstance(c, llmjson.ToolCall) for c in p) for p in partial)
    # The first call's location shows before its text is whole, beside the second call.
    assert any(p[0].arguments == {"location": "Lisb"} for p in partial)
    assert any(len(p) == 2 and p[1].arguments is not None for p in partial)


class _Event:
    """An SDK object: attributes, not keys."""

    def __init__(self, **fields: object) -> None:
        for k, v in fields.items():
            setattr(self, k, _Event(**v) if isinstance(v, dict) else v)


def _anthropic_events(as_objects: bool) -> list[object]:
    arguments = '{"city": "Porto", "when": ["today", "tomorrow"]}'
    events: list[dict[str, object]] = [
        {"type": "message_start", "message": {"id": "msg_1"}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me check."}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "forecast", "input": {}}},
    ]
    for i in range(0, len(arguments), 4):
        events.append({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": arguments[i : i + 4]}})
    events += [
        {"type": "content_block_stop", "index": 1},
        {"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_2", "name": "now", "input": {}}},
        {"type": "content_block_stop", "index": 2},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}},
        {"type": "message_stop"},
    ]
    return [_Event(**e) for e in events] if as_objects else list(events)


@pytest.mark.parametrize("as_objects", [False, True])
def test_stream_reads_anthropic_tool_use_blocks(as_objects: bool) -> None:
    yielded = list(llmjson.stream(_anthropic_events(as_objects)))
    assert yielded[-1] == [
        llmjson.ToolCall(1, "toolu_1", "forecast", {"city": "Porto", "when": ["today", "tomorrow"]}),
        llmjson.ToolCall(2, "toolu_2", "now", {}),
    ]
    assert any(p[0].arguments == {"city": "Porto", "when": ["today"]} for p in yielded[:-1])


def test_astream_reads_tool_calls_too() -> None:
    import asyncio

    async def chunks():  # type: ignore[no-untyped-def]
        for chunk in _openai_tool_chunks():
            yield chunk

    async def collect() -> list[object]:
        return [v async for v in llmjson.astream(chunks())]

    assert asyncio.run(collect())[-1] == list(llmjson.stream(_openai_tool_chunks()))[-1]


def test_a_done_only_field_is_absent_until_complete_and_malformed_is_said() -> None:
    from pydantic import BaseModel, Field

    class Plan(BaseModel):
        title: str = ""
        summary: str = Field("", json_schema_extra={llmjson.DONE_ONLY: True})

    reply = '{"title": "Deploy", "summary": "Build, test and ship"}'
    shown = False
    for end in range(1, len(reply) + 1):
        parser = llmjson.StreamParser(model=Plan)
        parser.feed(reply[:end])
        value = parser.snapshot().value
        if isinstance(value, dict) and "summary" in value:
            assert value["summary"] == "Build, test and ship", f"never half of it (at {end})"
            shown = True
    assert shown
    partial = list(llmjson.stream([reply[:30], reply[30:]], model=Plan))
    assert partial[0].summary == "" and partial[-1].summary == "Build, test and ship"
    incomplete = llmjson.StreamParser()
    incomplete.feed('{"a": [1, 2')
    assert incomplete.snapshot().malformed is False
    malformed = llmjson.StreamParser()
    malformed.feed("{'a': [1, 2,")
    assert malformed.snapshot().malformed is True


def _plans(n: int) -> str:
    step = {"id": "s1", "title": "Normalise the 日本語 documents", "params": {"retries": 3, "dry_run": False}, "tags": ["a", "b"]}
    return "Here it is:\n```json\n" + json.dumps({"objective": "Migrate", "steps": [dict(step, id=f"s{i}") for i in range(n)]}, ensure_ascii=False) + "\n```"


@pytest.mark.parametrize("chunk", [1, 7, 64, 256])
def test_snapshots_kept_never_change_and_each_is_the_value_so_far(chunk):
    # Snapshots share the members that were complete; a later chunk must never change one a
    # caller kept, and each must be what a parser given the same text at once shows.
    replies = [_plans(40), '{"a": [1, 2, {"b": "x\\ny"}], "c": {"d": [[], {}]}, "e": "end"}'] + _replies()[:30]
    for text in replies:
        parser = llmjson.StreamParser()
        kept = []
        for at in range(0, len(text), chunk):
            parser.feed(text[at : at + chunk])
            snapshot = parser.snapshot()
            kept.append((snapshot, json.dumps(snapshot.value, sort_keys=True)))
            if at % (chunk * 9) == 0:
                fresh = llmjson.StreamParser()
                fresh.feed(text[: at + chunk])
                again = fresh.snapshot()
                if not again.malformed:
                    assert snapshot.value == again.value, (text[: at + chunk],)
                    # (Which values are provisional depends on where the decision procedure
                    # last stopped: on the history, not only the text.)
                    assert snapshot.complete == again.complete
        for snapshot, as_written in kept:
            assert json.dumps(snapshot.value, sort_keys=True) == as_written
        try:
            expected = llmjson.parse(text).value
        except llmjson.LLMJSONError:
            with pytest.raises(llmjson.LLMJSONError):
                parser.finish()
            continue
        assert parser.finish().value == expected


def test_complete_follows_from_the_open_value():
    parser = llmjson.StreamParser()
    parser.feed('{"steps": [{"id": 1, "title": "Boil water"}, {"id": 2, "title": "Add pa')
    snapshot = parser.snapshot()
    assert snapshot.open == "/steps/1/title"
    assert snapshot.complete == ["/steps/0", "/steps/1/id"]
    assert snapshot.is_complete("/steps/0/title") and not snapshot.is_complete("/steps/1")
    assert snapshot.is_settled("/steps/0") is (not any(p.startswith("/steps/0") for p in snapshot.provisional))


def _shown_of(value, final):
    """Whether `value` (a partial value shown) is `final` as far as it goes."""
    if isinstance(value, dict):
        return isinstance(final, dict) and all(k in final and _shown_of(v, final[k]) for k, v in value.items())
    if isinstance(value, list):
        return isinstance(final, list) and len(value) <= len(final) and all(map(_shown_of, value, final))
    if isinstance(value, str):
        return isinstance(final, str) and final.startswith(value)
    return not isinstance(final, (dict, list, str))


@pytest.mark.parametrize("chunk", [1, 7, 64])
def test_a_repeated_keys_open_value_is_kept_in_the_first_ones_place(chunk):
    # A repeated key's value replaces the first one's where it stands: while it is still open
    # (longer than the lag, so settled while open) the kept value writes into that member, not
    # into the object's last one.
    items = ", ".join('{"step": %d, "note": "item %d"}' % (i, i) for i in range(120))
    # (Members after it: the view leaves it for them while the settled part still holds it open.)
    others = ", ".join('{"id": "other %d"}' % i for i in range(120))
    text = '{"a": 1, "b": 2, "a": {"x": [%s], "z": 3}, "c": [%s], "d": 4}' % (items, others)
    final = llmjson.parse(text).value
    parser, most = llmjson.StreamParser(), 0
    for at in range(0, len(text), chunk):
        parser.feed(text[at : at + chunk])
        value = parser.live().value
        if isinstance(value, dict) and isinstance(value.get("a"), dict):
            assert _shown_of(value, final), text[: at + chunk][-60:]
            most = max(most, len(value["a"].get("x", [])))
        else:
            assert value is None or _shown_of({**value, "a": final["a"]}, final)
    assert most >= 100
    assert list(parser.finish().value) == ["a", "b", "c", "d"]


@pytest.mark.parametrize("chunk", [3, 64, 256])
def test_provisional_listed_when_read_is_the_librarys_list(chunk):
    # A snapshot kept in place says what is provisional as where it starts and lists it when
    # read; a parser that builds its snapshots whole (any schema) gets the library's list. On
    # JSON read as written both show the live reader's own view, whatever the history.
    text = _plans(30) + "\nThat is the plan."
    in_place, whole = llmjson.StreamParser(), llmjson.StreamParser(schema={})
    for at in range(0, len(text), chunk):
        in_place.feed(text[at : at + chunk])
        whole.feed(text[at : at + chunk])
        a, b = in_place.snapshot(), whole.snapshot()
        assert a.value == b.value
        assert a.provisional == b.provisional, text[: at + chunk][-80:]
        for pointer in b.provisional + b.complete[-5:]:
            assert a.is_settled(pointer) == b.is_settled(pointer), pointer
    assert a.done and a.provisional == [""]


@pytest.mark.parametrize("chunk", [1, 16, 256])
def test_live_is_the_value_kept_in_place_and_equals_the_snapshot(chunk):
    # `live()` hands out the objects the package keeps up to date: later chunks change them, and
    # after every chunk they are what `snapshot()` shows.
    for text in [_plans(20), '{"a": [1, 2, {"b": "x\\ny"}], "c": {"d": [[], {}]}, "e": "end"}'] + _replies()[:20]:
        parser = llmjson.StreamParser()
        first = None
        for at in range(0, len(text), chunk):
            parser.feed(text[at : at + chunk])
            live = parser.live()
            snapshot = parser.snapshot()
            assert live.value == snapshot.value
            assert (live.done, live.malformed, live.open) == (snapshot.done, snapshot.malformed, snapshot.open)
            assert live.provisional == snapshot.provisional
            if isinstance(live.value, dict) and first is None:
                first = live.value
        if text.startswith("Here it is"):
            # The same root object all along, changed in place (a reply whose reading changes
            # course, a LaTeX-like escape, a repeated key, starts it again once).
            assert parser.live().value is first

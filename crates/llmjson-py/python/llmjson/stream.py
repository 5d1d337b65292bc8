"""Streaming: a reply read while the model is still writing it.

``StreamParser`` takes chunks as they arrive (``feed``), shows the value so far (``snapshot``)
and what changed (``events``), and at the end (``finish``) returns what ``llmjson.parse`` returns
for the whole reply. ``stream`` and ``astream`` wrap it for an iterable (or async iterable) of
chunks — an OpenAI-style delta stream, an HTTP body — yielding the partial value each time it
changes, then the final one.
"""

from __future__ import annotations

import collections.abc
import functools
import time
import typing
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from . import (
    CoercionPolicy,
    DuplicateKeysPolicy,
    GuardCommentsPolicy,
    Level,
    ParseResult,
    TruncationPolicy,
    _checked_level,
    _compiled_options,
    _diagnostics,
    _failure,
    _result,
    _schema_of,
)
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE, NativeError
from ._llmjson import StreamParser as _NativeStreamParser

__all__ = ["DONE_ONLY", "Event", "Snapshot", "StreamParser", "ToolCall", "stream", "astream"]

#: The JSON Schema keyword that marks a property to be shown in snapshots only once its value is
#: complete: ``Field(json_schema_extra={llmjson.DONE_ONLY: True})`` in a Pydantic model, or
#: ``{"type": "string", "x-llmjson-done-only": true}`` in a JSON Schema.
DONE_ONLY = "x-llmjson-done-only"

EventKind = Literal[
    "key_started", "element_appended", "string_grew", "value_completed", "revised", "required_missing"
]


def _covers(outer: str, inner: str) -> bool:
    """``inner`` is the JSON Pointer ``outer`` or points inside it."""
    return inner == outer or (inner.startswith(outer) and inner[len(outer) : len(outer) + 1] == "/")


class Snapshot:
    """The value so far.

    Each snapshot is a fresh value: a later chunk never changes one you kept. Members that were
    complete when it was taken are shared with later snapshots (the same ``dict``/``list``/``str``
    objects, made once when they completed), so taking a snapshot after every chunk costs what
    arrived, not the whole value again; only the containers a later chunk may still change are
    copied. Treat a snapshot's value as read-only (or ``copy.deepcopy`` it)."""

    __slots__ = ("value", "done", "malformed", "open", "_complete", "_provisional")

    def __init__(
        self,
        value: Any,
        complete: list[str] | None,
        provisional: list[str] | tuple[list[tuple[str, int]], list[str]],
        done: bool,
        malformed: bool = False,
        open: str | None = None,
    ) -> None:
        self.value = value
        """The partial value, closed the way ``truncation`` says (``None`` before the JSON starts)."""
        self._provisional = provisional
        self.done = done
        """The root value closed (the final parse may still read the reply otherwise)."""
        self.malformed = malformed
        """What has arrived already needs a repair (a comment, another quote, a bare key, a
        trailing or missing comma, a Python literal, a spot read with a guess), rather than being
        merely incomplete (a prefix of valid JSON, with prose or a fence around it)."""
        self.open = open
        """The JSON Pointer of the innermost value still being written (an open container, or the
        string or number being written), or ``None``: it and the containers around it are the
        only values not complete."""
        self._complete = complete

    @property
    def provisional(self) -> list[str]:
        """Pointers a later byte may still change, sorted: open values, values read with a guess,
        the values completed in the last window the decision procedure has not settled yet, and
        a root that closed (until the end: what follows it may still be the answer instead).
        Made when first read."""
        if isinstance(self._provisional, tuple):
            self._provisional = _provisional_of(self.value, *self._provisional)
        return self._provisional

    @property
    def complete(self) -> list[str]:
        """JSON Pointers of the complete values (the largest: everything inside one is complete).
        Made when first read (it lists every member of every open container)."""
        if self._complete is None:
            self._complete = _complete_of(self.value, self.open, self.done)
        return self._complete

    def is_complete(self, pointer: str) -> bool:
        """The value at ``pointer`` is complete (it is not the innermost open value nor a
        container around it)."""
        if self._complete is not None:
            return any(_covers(c, pointer) for c in self._complete)
        return self.value is not None and (self.open is None or not _covers(pointer, self.open))

    def is_settled(self, pointer: str) -> bool:
        """The value at ``pointer`` is complete and nothing in it is provisional."""
        return self.is_complete(pointer) and not any(_covers(pointer, p) for p in self.provisional)

    def _key(self) -> tuple[Any, ...]:
        return (self.value, self.complete, self.provisional, self.done, self.malformed)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Snapshot(value={self.value!r}, complete={self.complete!r}, provisional={self.provisional!r}, "
            f"done={self.done!r}, malformed={self.malformed!r})"
        )


def _provisional_of(value: Any, open: list[tuple[str, int]], other: list[str]) -> list[str]:
    """The provisional pointers of ``value``: ``other``, and each open container's with its
    members or elements from the first provisional one on."""
    out = set(other)
    for pointer, first in open:
        out.add(pointer)
        node = _resolve(value, pointer)
        if isinstance(node, dict):
            out.update(f"{pointer}/{_escape(key)}" for key in list(node)[first:])
        elif isinstance(node, list):
            out.update(f"{pointer}/{i}" for i in range(first, len(node)))
    return sorted(out)


def _resolve(value: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``value`` (``None`` where there is none)."""
    node = value
    for token in pointer.split("/")[1:]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            node = node.get(token)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _complete_of(value: Any, open: str | None, done: bool) -> list[str]:
    """The largest complete values of ``value`` whose innermost open value is at ``open``."""
    if value is None:
        return []
    if open is None:  # (done, or nothing left open)
        return [""]
    out: list[str] = []
    node, pointer = value, ""
    while isinstance(node, (dict, list)):
        items = node.items() if isinstance(node, dict) else enumerate(node)
        following = None
        for key, item in items:
            child = f"{pointer}/{_escape(key) if isinstance(key, str) else key}"
            if _covers(child, open):
                following = (child, item)
            else:
                out.append(child)
        if following is None:
            break
        pointer, node = following
    out.sort()
    return out


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in the stream. ``path`` is a JSON Pointer."""

    kind: EventKind
    path: str
    text: str | None = None
    """``string_grew``: the new text."""
    property: str | None = None
    """``required_missing``: the property the schema requires that can no longer appear."""


def _event(raw: tuple[str, str, str | None]) -> Event:
    kind, path, extra = raw
    if kind == "string_grew":
        return Event(kind, path, text=extra)  # type: ignore[arg-type]
    if kind == "required_missing":
        return Event(kind, path, property=extra)  # type: ignore[arg-type]
    return Event(kind, path)  # type: ignore[arg-type]


class StreamParser:
    """Parses a reply while it arrives. Takes ``llmjson.parse``'s options; ``events=False``
    saves recording events when only snapshots are wanted.

    >>> p = StreamParser()
    >>> p.feed('Sure: {"steps": [{"id": 1}, {"id": 2, "title": "Boil wa')
    >>> p.snapshot().value
    {'steps': [{'id': 1}, {'id': 2, 'title': 'Boil wa'}]}
    >>> p.feed('ter"}]}')
    >>> p.finish().value["steps"][1]["title"]
    'Boil water'
    """

    def __init__(
        self,
        *,
        schema: Any = None,
        model: Any = None,
        level: Level = "full",
        truncation: TruncationPolicy = "complete",
        max_removed_ratio: float = 0.3,
        guard_comments: GuardCommentsPolicy = "data",
        latex: bool = True,
        invalid_items: str = "fail",
        max_size: int = DEFAULT_MAX_SIZE,
        max_depth: int = DEFAULT_MAX_DEPTH,
        duplicate_keys: DuplicateKeysPolicy = "last",
        coercion: CoercionPolicy = "fit",
        request_id: str | None = None,
        events: bool = True,
    ) -> None:
        self._level = _checked_level(level, truncation, duplicate_keys, coercion, max_removed_ratio)
        self._model = model
        self._schema = _schema_of(schema if schema is not None else model)
        # Snapshots kept up to date in place (else the value is built whole at each one).
        self._in_place = self._schema is None and truncation != "drop_element"
        self._request_id = request_id
        self._started = time.perf_counter()
        self._last_events: list[Event] | None = []
        self._later: Any = None
        self._native = _NativeStreamParser(
            _compiled_options(
                level=self._level,
                truncation=truncation,
                max_removed_ratio=max_removed_ratio,
                max_size=max_size,
                max_depth=max_depth,
                duplicate_keys=duplicate_keys,
                schema=self._schema._native if self._schema is not None else None,
                coercion=coercion,
                guard_comments=guard_comments,
                latex=latex,
                invalid_items=invalid_items,
            ),
            events=events,
            on_error=functools.partial(_feed_failure, request_id, self._level, self._started),
        )
        # Called once per token: the native method itself, no Python frame around it (a failed
        # feed raises the typed error `_feed_failure` makes).
        self.feed = self._native.feed  # type: ignore[method-assign]

    def feed(self, chunk: str | bytes) -> None:
        """Reads the next chunk. Raises ``InputTooLargeError`` as soon as the reply goes over
        ``max_size``. Nesting past ``max_depth`` stops the live view there; ``finish`` then gives
        ``parse``'s verdict."""
        self._native.feed(chunk)  # (replaced by the native method in __init__)

    def snapshot(self) -> Snapshot:
        """The value so far, and which paths are complete or still provisional."""
        return Snapshot(*self._native.snapshot())

    def live(self) -> Snapshot:
        """The value so far as the package keeps it, not copied: the same ``dict`` and ``list``
        objects every call, changed in place by later chunks (read it after each chunk; do not
        keep it, or ``copy.deepcopy`` it). Costs what arrived, however many members the
        containers still open hold; ``snapshot()`` copies those containers so that a snapshot
        kept never changes. With a schema that shapes the value, or ``drop_element``, it is
        built whole, as ``snapshot()``'s."""
        return Snapshot(*self._native.snapshot(True))

    def events(self) -> list[Event]:
        """What was settled since the last call: the decision procedure's reading, about 512
        bytes behind what has arrived (a short reply's events come with ``last_events``), never
        taken back but by a ``revised`` event."""
        return [_event(raw) for raw in self._native.events()]

    @property
    def last_events(self) -> list[Event]:
        """After ``finish``: the events not taken before it (the rest of the final value), then
        its ``revised`` events. Made
        when first read (a long reply has hundreds of thousands; most callers never read them)."""
        if self._last_events is None:
            later, self._later = self._later, None
            self._last_events = [_event(raw) for raw in later.take()] if later is not None else []
        return self._last_events

    def _later_events(self, later: Any) -> None:
        self._later = later
        self._last_events = None

    def finish(self) -> ParseResult[Any]:
        """Ends the stream: ``llmjson.parse``'s result for the whole reply (its value, repairs and
        errors; with ``model=`` the model instance). The diagnostics also hold ``stream_chunks`` and
        ``stream_first_value_ms``. Events not taken yet, and one ``revised`` event per value a
        snapshot showed as complete that the final parse reads otherwise, are kept in
        ``last_events``."""
        stages = ["locate", "repair"] + (["coerce", "validate"] if self._schema is not None else [])
        started = time.perf_counter()
        try:
            text, native_result, events, (chunks, first_ms) = self._native.finish()
        except NativeError as native:
            self._later_events(getattr(native, "stream_events", None))
            text = getattr(native, "stream_text", "")
            diagnostics = _diagnostics(stages, request_id=self._request_id)
            raise _failure(native, diagnostics, text, started) from None
        self._later_events(events)
        diagnostics = _diagnostics(stages, request_id=self._request_id)
        diagnostics.update(stream_chunks=chunks, stream_first_value_ms=first_ms)
        return _result(native_result, diagnostics, started, text, model=self._model, grounding=None, stages=stages)


def _feed_failure(request_id: str | None, level: str, started: float, native: NativeError) -> Exception:
    """The typed error a failed ``feed`` raises (the reply went over ``max_size``)."""
    text = getattr(native, "stream_text", "")
    diagnostics = _diagnostics(["locate"], request_id=request_id)
    return _failure(native, diagnostics, text, started)


def _partial_model(model: Any, snapshot: Snapshot) -> Any:
    """A partial ``model`` instance, typed all the way down: a settled value that validates is
    the validated object (a nested model's instance), an unsettled object of a model type is
    ``model_construct`` of its parts, each again typed as its field says; a settled value that
    does not validate is left out (the final value raises the error)."""
    value = snapshot.value
    if not isinstance(value, dict):
        return value
    return _partial(model, value, "", snapshot, 0)


#: How deep a partial value is typed (deeper parts stay plain values).
_PARTIAL_DEPTH = 64

_UNSET = object()


def _partial(annotation: Any, value: Any, pointer: str, snapshot: Snapshot, depth: int) -> Any:
    """``value`` (at ``pointer``) as ``annotation`` says, as far as it has arrived."""
    if depth > 0 and snapshot.is_settled(pointer):
        validated = _validated(annotation, value)
        return value if validated is _UNSET else validated
    if depth > _PARTIAL_DEPTH:
        return value
    model = _model_in(annotation)
    if model is not None and isinstance(value, dict):
        fields = model.model_fields
        by_alias = {f.alias: name for name, f in fields.items() if f.alias}
        parts: dict[str, Any] = {}
        for key, item in value.items():
            name = key if key in fields else by_alias.get(key)
            child = pointer + "/" + _escape(key)
            if name is None:
                continue
            part = _partial(fields[name].annotation, item, child, snapshot, depth + 1)
            if part is not _UNSET:
                parts[name] = part
        return model.model_construct(**parts)
    item_type = _item_type(annotation)
    if item_type is not None and isinstance(value, list):
        items = (_partial(item_type, v, f"{pointer}/{i}", snapshot, depth + 1) for i, v in enumerate(value))
        return [v for v in items if v is not _UNSET]
    return value


@functools.lru_cache(maxsize=512)
def _adapter(annotation: Any) -> Any:
    from pydantic import TypeAdapter

    return TypeAdapter(annotation)


def _validated(annotation: Any, value: Any) -> Any:
    """``value`` validated as ``annotation`` (a settled part), or ``_UNSET`` when it does not
    fit."""
    try:
        return _adapter(annotation).validate_python(value)
    except TypeError:  # an annotation pydantic cannot adapt (or not hashable): kept as is
        return value
    except Exception:  # pydantic.ValidationError, without importing pydantic
        return _UNSET


def _model_in(annotation: Any) -> Any:
    """The pydantic model class ``annotation`` is, or holds as an ``Optional``/union member."""
    if isinstance(annotation, type) and hasattr(annotation, "model_construct"):
        return annotation
    for arg in getattr(annotation, "__args__", ()) or ():
        if isinstance(arg, type) and hasattr(arg, "model_construct"):
            return arg
    return None


_SEQUENCES = (list, tuple, set, frozenset, collections.abc.Sequence)


def _item_type(annotation: Any) -> Any:
    """The item type of a ``list[X]`` (or ``Optional[list[X]]``) annotation, else None."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(candidate) in _SEQUENCES:
            args = typing.get_args(candidate)
            return args[0] if args else None
    return None


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _field(obj: Any, name: str) -> Any:
    """``obj[name]`` for a dict, ``obj.name`` for an SDK object, else None."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call streamed by the model: its arguments so far (the partial value while they
    arrive, ``llmjson.parse``'s value of the whole arguments text at the end)."""

    index: int
    """The call's place in the message (OpenAI's ``tool_calls[i].index``, Anthropic's content
    block index)."""
    id: str | None
    name: str | None
    arguments: Any


#: One piece of a tool call: (index, id, name, arguments text).
_Piece = tuple[int, "str | None", "str | None", str]


def _delta(chunk: Any) -> str | bytes | list[_Piece]:
    """What a chunk carries: text (``str``/``bytes``, an OpenAI-style ``delta.content``, an
    Anthropic ``text_delta``), or pieces of tool calls (OpenAI ``delta.tool_calls``, Anthropic
    ``tool_use`` blocks and their ``input_json_delta``), as dicts or SDK objects."""
    if isinstance(chunk, (str, bytes)):
        return chunk
    choices = _field(chunk, "choices")
    if choices:
        delta = _field(choices[0], "delta")
        calls = _field(delta, "tool_calls")
        if calls:
            pieces: list[_Piece] = []
            for call in calls:
                function = _field(call, "function")
                pieces.append(
                    (
                        int(_field(call, "index") or 0),
                        _field(call, "id"),
                        _field(function, "name"),
                        _field(function, "arguments") or "",
                    )
                )
            return pieces
        return _field(delta, "content") or ""
    kind = _field(chunk, "type")
    if kind == "content_block_start":
        block = _field(chunk, "content_block")
        if _field(block, "type") in ("tool_use", "server_tool_use"):
            return [(int(_field(chunk, "index") or 0), _field(block, "id"), _field(block, "name"), "")]
        return ""
    if kind == "content_block_delta":
        delta = _field(chunk, "delta")
        if _field(delta, "type") == "input_json_delta":
            return [(int(_field(chunk, "index") or 0), None, None, _field(delta, "partial_json") or "")]
        return _field(delta, "text") or ""
    if isinstance(kind, str):  # another Anthropic event (message_start, ping, *_stop, ...)
        return ""
    raise TypeError(
        f"expected str, bytes, an OpenAI-style chunk or an Anthropic stream event, got {type(chunk).__name__}"
    )


#: ``stream``/``astream`` look at the value after every chunk up to this many characters.
_EVERY_CHUNK_UP_TO = 1024


class _Watched:
    """One streamed value (the reply's text, or one tool call's arguments) and when it was last
    looked at."""

    def __init__(self, model: Any, options: dict[str, Any]) -> None:
        self.model = model
        self.parser = StreamParser(model=model, events=False, **options)
        self.last: Any = None
        self.fed = 0
        self.shown_at = 0

    def feed(self, text: str | bytes) -> bool:
        """Feeds ``text``; whether the value shown changed. Looked at after every chunk when the
        snapshots are kept up to date in place and no model types them (a snapshot and the
        comparison with the last one cost what arrived: complete members are shared, and ``==``
        passes over a shared member at once); otherwise after every chunk of the first kilobyte,
        then once per sixteenth of what arrived, so that the values built whole cost a bounded
        multiple of the reply."""
        self.parser.feed(text)
        self.fed += len(text)
        every_chunk = self.model is None and self.parser._in_place
        if not every_chunk and self.fed > _EVERY_CHUNK_UP_TO and self.fed - self.shown_at < self.fed // 16:
            return False
        self.shown_at = self.fed
        snapshot = self.parser.snapshot()
        if snapshot.value is None or snapshot.value == self.last:
            return False
        self.last = _partial_model(self.model, snapshot) if self.model is not None else snapshot.value
        return True

    def finish(self) -> Any:
        return self.parser.finish().value


class _Call:
    def __init__(self, index: int) -> None:
        self.index = index
        self.id: str | None = None
        self.name: str | None = None
        self.watched: _Watched | None = None
        self.pending = ""


class _Yielder:
    """What ``stream``/``astream`` yield: the partial value when it changed, then the final; for
    a stream of tool calls, the list of calls each time one's arguments changed."""

    def __init__(self, model: Any, tools: dict[str, Any] | None, options: dict[str, Any]) -> None:
        self.model = model
        self.tools = tools or {}
        self.options = options
        self.text = _Watched(model, options)
        self.calls: dict[int, _Call] = {}

    def _watched(self, call: _Call) -> _Watched:
        if call.watched is None:
            tool = self.tools.get(call.name or "")
            model = tool if tool is not None and hasattr(tool, "model_json_schema") else None
            options = dict(self.options)
            if tool is not None and model is None:
                options["schema"] = tool
            call.watched = _Watched(model, options)
        return call.watched

    def calls_now(self) -> list[ToolCall]:
        return [
            ToolCall(c.index, c.id, c.name, c.watched.last if c.watched is not None else None)
            for c in sorted(self.calls.values(), key=lambda c: c.index)
        ]

    def feed(self, chunk: Any) -> Any | None:
        carried = _delta(chunk)
        if isinstance(carried, list):
            changed = False
            for index, call_id, name, arguments in carried:
                call = self.calls.setdefault(index, _Call(index))
                call.id = call.id or call_id
                call.name = call.name or name
                if arguments:
                    changed = self._watched(call).feed(arguments) or changed
            return self.calls_now() if changed else None
        if not carried or self.calls:
            return None
        return self.text.last if self.text.feed(carried) else None

    def finish(self) -> Any:
        if not self.calls:
            return self.text.finish()
        finished = []
        for call in sorted(self.calls.values(), key=lambda c: c.index):
            watched = self._watched(call)
            # A tool without arguments streams none (or "{}").
            arguments = watched.finish() if watched.fed else {}
            finished.append(ToolCall(call.index, call.id, call.name, arguments))
        return finished


def stream(
    chunks: Iterable[Any], *, model: Any = None, tools: dict[str, Any] | None = None, **options: Any
) -> Iterator[Any]:
    """Yields the value so far each time it changes while ``chunks`` arrive (strings, bytes,
    OpenAI-style delta chunks or Anthropic stream events), then the final value —
    ``llmjson.parse(whole).value``. The value is looked at after every chunk of the first 1024
    characters, then once per sixteenth of the reply so far (each look costs the value: this
    keeps a long reply linear). With ``model=P`` (a Pydantic v2 model) partial values are
    ``P.model_construct`` instances whose settled fields are validated, and the final one is
    ``P`` validated (or raises).

    **Tool calls**: when the chunks carry tool calls (OpenAI ``delta.tool_calls[i].function``,
    Anthropic ``tool_use`` blocks and ``input_json_delta`` events), each call's arguments are
    read by a parser of their own, and what is yielded is the list of ``ToolCall(index, id, name,
    arguments)`` each time a call's arguments changed, then the final list (each call's
    arguments ``llmjson.parse``'s value; a call that streamed no arguments has ``{}``).
    ``tools={"name": schema or model}`` gives the arguments of the calls to that tool a schema
    (or a Pydantic model). Text around the calls is not parsed once a call has started. Takes
    ``StreamParser``'s options."""
    yielder = _Yielder(model, tools, options)
    for chunk in chunks:
        partial = yielder.feed(chunk)
        if partial is not None:
            yield partial
    yield yielder.finish()


async def astream(
    chunks: AsyncIterable[Any], *, model: Any = None, tools: dict[str, Any] | None = None, **options: Any
) -> AsyncIterator[Any]:
    """``stream`` for an async iterable of chunks."""
    yielder = _Yielder(model, tools, options)
    async for chunk in chunks:
        partial = yielder.feed(chunk)
        if partial is not None:
            yield partial
    yield yielder.finish()

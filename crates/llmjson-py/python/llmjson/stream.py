"""Streaming: a reply read while the model is still writing it.

``StreamParser`` takes chunks as they arrive (``feed``), shows the value so far (``snapshot``)
and what changed (``events``), and at the end (``finish``) returns what ``llmjson.parse`` returns
for the whole reply. ``stream`` and ``astream`` wrap it for an iterable (or async iterable) of
chunks — an OpenAI-style delta stream, an HTTP body — yielding the partial value each time it
changes, then the final one.
"""

from __future__ import annotations

import functools

import time
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
    _diagnostics,
    _failure,
    _result,
    _schema_of,
)
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE, NativeError
from ._llmjson import StreamParser as _NativeStreamParser

__all__ = ["Event", "Snapshot", "StreamParser", "stream", "astream"]

EventKind = Literal[
    "key_started", "element_appended", "string_grew", "value_completed", "revised", "required_missing"
]


def _covers(outer: str, inner: str) -> bool:
    """``inner`` is the JSON Pointer ``outer`` or points inside it."""
    return inner == outer or (inner.startswith(outer) and inner[len(outer) : len(outer) + 1] == "/")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The value so far."""

    value: Any
    """The partial value, closed the way ``truncation`` says (``None`` before the JSON starts)."""
    complete: list[str]
    """JSON Pointers of the complete values (the largest: everything inside one is complete)."""
    provisional: list[str]
    """Pointers a later byte may still change: open values, values read with a guess, and the
    last value completed in each open container within the last 256 bytes."""
    done: bool
    """The root value closed (the final parse may still read the reply otherwise)."""

    def is_settled(self, pointer: str) -> bool:
        """The value at ``pointer`` is complete and nothing in it is provisional."""
        return any(_covers(c, pointer) for c in self.complete) and not any(
            _covers(pointer, p) for p in self.provisional
        )


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
        self._request_id = request_id
        self._started = time.perf_counter()
        self._last_events: list[Event] | None = []
        self._later: Any = None
        self._native = _NativeStreamParser(
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
        value, complete, provisional, done = self._native.snapshot()
        return Snapshot(value, complete, provisional, done)

    def events(self) -> list[Event]:
        """What happened since the last call."""
        return [_event(raw) for raw in self._native.events()]

    @property
    def last_events(self) -> list[Event]:
        """After ``finish``: the events not taken before it, then its ``revised`` events. Made
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
            diagnostics = _diagnostics(text, stages, request_id=self._request_id, level=self._level)
            raise _failure(native, diagnostics, text, started) from None
        self._later_events(events)
        diagnostics = _diagnostics(text, stages, request_id=self._request_id, level=self._level)
        diagnostics.update(stream_chunks=chunks, stream_first_value_ms=first_ms)
        return _result(native_result, diagnostics, started, model=self._model, grounding=None, stages=stages)


def _feed_failure(request_id: str | None, level: str, started: float, native: NativeError) -> Exception:
    """The typed error a failed ``feed`` raises (the reply went over ``max_size``)."""
    text = getattr(native, "stream_text", "")
    diagnostics = _diagnostics(text, ["locate"], request_id=request_id, level=level)
    return _failure(native, diagnostics, text, started)


def _partial_model(model: Any, snapshot: Snapshot) -> Any:
    """A partial ``model`` instance: ``model_construct`` of the value so far, each settled
    top-level field validated (a settled field that does not validate is left out: the final
    value raises the error)."""
    value = snapshot.value
    if not isinstance(value, dict):
        return value
    settled = {k: v for k, v in value.items() if snapshot.is_settled("/" + _escape(k))}
    open_fields = {k: v for k, v in value.items() if k not in settled}
    instance = model.model_construct(**open_fields)
    validator = model.__pydantic_validator__
    for name, field_value in settled.items():
        try:
            instance = validator.validate_assignment(instance, name, field_value)
        except Exception:  # pydantic.ValidationError, without importing pydantic
            continue
    return instance


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _delta_text(chunk: Any) -> str | bytes:
    """The text of a chunk: ``str``/``bytes``, or an OpenAI-style delta
    (``chunk.choices[0].delta.content``, as an object or a dict)."""
    if isinstance(chunk, (str, bytes)):
        return chunk
    choices = chunk["choices"] if isinstance(chunk, dict) else getattr(chunk, "choices", None)
    if choices:
        delta = choices[0]["delta"] if isinstance(choices[0], dict) else choices[0].delta
        content = delta.get("content") if isinstance(delta, dict) else getattr(delta, "content", None)
        return content or ""
    raise TypeError(f"expected str, bytes or an OpenAI-style chunk, got {type(chunk).__name__}")


#: ``stream``/``astream`` look at the value after every chunk up to this many characters.
_EVERY_CHUNK_UP_TO = 1024


class _Yielder:
    """What ``stream``/``astream`` yield: the partial value when it changed, then the final."""

    def __init__(self, model: Any, options: dict[str, Any]) -> None:
        self.model = model
        self.parser = StreamParser(model=model, events=False, **options)
        self.last: Any = None
        self.fed = 0
        self.shown_at = 0

    def feed(self, chunk: Any) -> Any | None:
        text = _delta_text(chunk)
        if not text:
            return None
        self.parser.feed(text)
        self.fed += len(text)
        # A snapshot costs the value so far: after every chunk of the first kilobyte, then once
        # per sixteenth of what arrived, so that the snapshots of a long reply cost a bounded
        # multiple of the reply (not one value per chunk).
        if self.fed > _EVERY_CHUNK_UP_TO and self.fed - self.shown_at < self.fed // 16:
            return None
        self.shown_at = self.fed
        snapshot = self.parser.snapshot()
        if snapshot.value is None or snapshot.value == self.last:
            return None
        self.last = snapshot.value
        return _partial_model(self.model, snapshot) if self.model is not None else snapshot.value

    def finish(self) -> Any:
        return self.parser.finish().value


def stream(chunks: Iterable[Any], *, model: Any = None, **options: Any) -> Iterator[Any]:
    """Yields the value so far each time it changes while ``chunks`` arrive (strings, bytes or
    OpenAI-style delta chunks), then the final value — ``llmjson.parse(whole).value``. The value
    is looked at after every chunk of the first 1024 characters, then once per sixteenth of the
    reply so far (each look costs the value: this keeps a long reply linear). With
    ``model=P`` (a Pydantic v2 model) partial values are ``P.model_construct`` instances whose
    settled fields are validated, and the final one is ``P`` validated (or raises). Takes
    ``StreamParser``'s options."""
    yielder = _Yielder(model, options)
    for chunk in chunks:
        partial = yielder.feed(chunk)
        if partial is not None:
            yield partial
    yield yielder.finish()


async def astream(chunks: AsyncIterable[Any], *, model: Any = None, **options: Any) -> AsyncIterator[Any]:
    """``stream`` for an async iterable of chunks."""
    yielder = _Yielder(model, options)
    async for chunk in chunks:
        partial = yielder.feed(chunk)
        if partial is not None:
            yield partial
    yield yielder.finish()

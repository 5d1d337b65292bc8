"""llmjson: turn what a large language model wrote into JSON a program can trust, or say clearly
why it cannot.

A drop-in for json_repair (``import llmjson as json_repair``: ``repair_json``, ``loads``,
``load``, ``from_file``), and its own API: ``parse`` (repair log, diagnostics, JSON Schema or a
Pydantic model), ``parse_with_retries`` (and its async twin), typed exceptions, and
``llmjson.metrics``. Parsing runs in Rust with the GIL released.
"""

from __future__ import annotations

import functools
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, Generic, Literal, TypeVar, overload

from . import errors, metrics
from .batch import BatchError, BatchResult, batch
from ._llmjson import COERCION_KINDS as _COERCION_KINDS
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE, NativeError, __version__
from ._llmjson import CompiledOptions as _CompiledOptions
from ._llmjson import Schema as _NativeSchema
from ._llmjson import read_valid_document as _read_valid_document
from ._llmjson import repair_disabled as _repair_disabled
from ._llmjson import parse as _native_parse
from ._llmjson import loads_value as _native_loads_value
from .errors import (
    BinaryInputError,
    EmptyResponseError,
    GroundingError,
    InputTooLargeError,
    JSONParseError,
    JSONRepairFailed,
    JSONSchemaError,
    LLMJSONError,
    NoJSONError,
    SchemaViolation,
    from_native,
)
from .errors import InvalidSchemaError
from .retry import Attempt, RetriesExhausted, parse_with_retries, parse_with_retries_async
from .verify import (
    Evidence,
    EvidenceLike,
    NumberExample,
    VerifyResult,
    as_evidence,
    blank_diagnostics,
    record_verification,
    verify,
)

__all__ = [
    "Event",
    "Snapshot",
    "StreamParser",
    "ToolCall",
    "DONE_ONLY",
    "astream",
    "stream",
    "__version__",
    "parse",
    "ParseResult",
    "Repair",
    "DroppedItem",
    "Schema",
    "repair_json",
    "loads",
    "load",
    "from_file",
    "parse_with_retries",
    "parse_all",
    "RetriesExhausted",
    "Attempt",
    "InvalidSchemaError",
    "parse_with_retries_async",
    "metrics",
    "batch",
    "BatchResult",
    "BatchError",
    "DIAGNOSTICS_SCHEMA_VERSION",
    "verify",
    "Evidence",
    "VerifyResult",
    "NumberExample",
    *errors.__all__,
]

#: The version of the ``diagnostics`` record's layout; it changes when a field changes meaning.
DIAGNOSTICS_SCHEMA_VERSION = 1

Level = Literal["none", "conservative", "full"]
TruncationPolicy = Literal["complete", "drop", "drop_element", "drop-element"]
DuplicateKeysPolicy = Literal["last", "first", "error"]
GuardCommentsPolicy = Literal["data", "all"]
CoercionPolicy = Literal["fit", "validate_only", "validate-only"]
InvalidItemsPolicy = Literal["fail", "drop"]


@dataclass(frozen=True, slots=True)
class Repair:
    """One change the repair (or, with a schema, the coercion) made."""

    kind: str
    """Stable snake_case name: ``trailing_comma``, ``python_literal``, ``coerced_number``, ..."""
    span: tuple[int, int]
    """Character offsets ``(start, end)`` in the reply (end == start for an insertion)."""
    line: int
    """1-based line of ``span[0]``."""
    column: int
    """1-based column of ``span[0]``, in characters."""
    path: str
    """JSON Pointer to the value concerned (``""`` is the root)."""
    detail: str
    """A short description: ``added '}'``, ``'True' became true``."""

    def __str__(self) -> str:
        return f"{self.line}:{self.column} {self.kind} at {self.path or '(root)'}: {self.detail}"


@dataclass(frozen=True, slots=True)
class DroppedItem:
    """An array item left out because it failed its item schema (``invalid_items="drop"``)."""

    path: str
    """JSON Pointer of the item as the reply wrote it (``/records/3``: the fourth record)."""
    span: tuple[int, int]
    """Character offsets ``(start, end)`` of the item's text in the reply."""
    line: int
    """1-based line of ``span[0]``."""
    column: int
    """1-based column of ``span[0]``, in characters."""
    errors: list[SchemaViolation]
    """Why: every violation inside the item."""

    def __str__(self) -> str:
        return f"{self.line}:{self.column} dropped {self.path}: " + "; ".join(str(e) for e in self.errors)


T = TypeVar("T")

#: The repair kinds that complete or cut a reply the model stopped early (Rust's
#: ``RepairKind::is_truncation``).
TRUNCATION_KINDS = frozenset(
    {
        "closed_truncated_object",
        "closed_truncated_array",
        "closed_truncated_string",
        "completed_truncated_value",
        "dropped_truncated_member",
    }
)


#: Held while a result's diagnostics record is made on its first read (rarely contended: only a
#: first read takes it).
_MAKING_DIAGNOSTICS = threading.Lock()


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class ParseResult(Generic[T]):
    """A successful parse: the value (or, with ``model=P``, the ``P`` instance: the result is
    ``ParseResult[P]`` to a type checker), every repair, the diagnostics. The repairs are made
    into Python objects when ``repairs`` is first read, and the diagnostics record when
    ``diagnostics`` is: a caller who only wants the value pays for neither."""

    value: T
    _repair_log: Any
    """The repairs: a list of ``Repair``, or the native log they are made from when read."""
    _diagnostics: dict[str, Any] | Callable[[], dict[str, Any]]
    """The diagnostics record, or what makes it when first read."""
    verification: VerifyResult | None = None
    """The verify stage's result, when ``evidence`` was given."""
    dropped: list[DroppedItem] = field(default_factory=list)
    """With ``invalid_items="drop"``: the array items left out because they failed their item
    schema, in text order (each also has a ``dropped_invalid_item`` repair)."""
    span: tuple[int, int] | None = None
    """Where the JSON was found: ``reply[start:end]`` (character offsets, like each repair's;
    the diagnostics record's ``json_span`` counts UTF-8 bytes, as at every door)."""
    _repairs_made: list[Repair] | None = None

    @property
    def diagnostics(self) -> dict[str, Any]:
        """The diagnostics record (one dict, made on first read and the same one after)."""
        made = self._diagnostics
        if callable(made):
            # Made under a lock: two threads reading it first must see one record (its request
            # id is drawn when it is made).
            with _MAKING_DIAGNOSTICS:
                made = self._diagnostics
                if callable(made):
                    made = made()
                    object.__setattr__(self, "_diagnostics", made)
        return made

    @property
    def repairs(self) -> list[Repair]:
        """Every repair, in the order of the text."""
        made = self._repairs_made
        if made is None:
            log = self._repair_log
            made = log if isinstance(log, list) else _repairs(log.tuples())
            object.__setattr__(self, "_repairs_made", made)
        return made

    @property
    def repaired(self) -> bool:
        """At least one repair or coercion was needed."""
        log = self._repair_log
        return bool(log if isinstance(log, list) else len(log))

    @property
    def truncated(self) -> bool:
        """The reply was cut off (the model stopped at its token limit) and was completed or
        cut back: the value may lack what the model meant to write last."""
        return any(r.kind in TRUNCATION_KINDS for r in self.repairs)

    def _fields(self) -> tuple[Any, ...]:
        return (self.value, self.repairs, self.diagnostics, self.verification, self.dropped, self.span)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Pickled (and deep-copied) whole: the native log and the record's maker become the
        # repairs and the record, which any process can read.
        return (self.__class__, self._fields())

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, ParseResult)
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"ParseResult(value={self.value!r}, repairs={self.repairs!r}, "
            f"diagnostics={self.diagnostics!r}, verification={self.verification!r}, "
            f"dropped={self.dropped!r})"
        )


def _kill_switch_level(level: str) -> str:
    """``LLMJSON_REPAIR=0`` (or false/off/no) forces level ``none``: an operator's kill switch."""
    return "none" if _repair_disabled() else level


class Schema:
    """A JSON Schema (drafts 7 and 2020-12, ``$ref``/``$defs`` included), compiled once and
    shared by every call that uses it. Built from a dict or JSON text; raises ``LLMJSONError``
    (kind ``invalid_schema``) if it is not a valid schema."""

    __slots__ = ("_native", "document")

    def __init__(self, document: dict[str, Any] | str) -> None:
        text = document if isinstance(document, str) else json.dumps(document)
        try:
            self._native = _NativeSchema(text)
        except NativeError as native:
            raise from_native(native, {}) from None
        self.document: dict[str, Any] = json.loads(text)

    def validate(self, value: Any) -> list[SchemaViolation]:
        """Every way ``value`` (Python objects, as ``json.loads`` gives) violates the schema."""
        return [SchemaViolation(p, k, m) for (p, k, m) in self._native.validate(json.dumps(value))]

    def is_valid(self, value: Any) -> bool:
        return not self.validate(value)

    def __repr__(self) -> str:
        return f"llmjson.Schema({json.dumps(self.document)[:60]!r})"


@functools.lru_cache(maxsize=256)
def _compiled(document: str) -> Schema:
    return Schema(document)


def _schema_of(schema: Any) -> Schema | None:
    """A compiled schema from a ``Schema``, a JSON Schema dict or JSON text, or a Pydantic model
    class (its ``model_json_schema()``). Compiled once per distinct schema."""
    if schema is None or isinstance(schema, Schema):
        return schema
    if isinstance(schema, str):
        return _compiled(schema)
    if isinstance(schema, dict):
        return _compiled(json.dumps(schema, sort_keys=True))
    model_json_schema = getattr(schema, "model_json_schema", None)
    if callable(model_json_schema):
        return _model_schema(schema)
    raise TypeError(
        f"schema must be a JSON Schema (dict or JSON text), an llmjson.Schema, or a Pydantic "
        f"model class; got {type(schema).__name__}"
    )


@functools.lru_cache(maxsize=256)
def _model_schema(model: Any) -> Schema:
    return _compiled(json.dumps(model.model_json_schema(), sort_keys=True))


def _pointer(loc: tuple[Any, ...]) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in loc)


def _repairs(raw: list[tuple[str, int, int, int, int, str, str]]) -> list[Repair]:
    return [Repair(k, (s, e), line, col, path, detail) for (k, s, e, line, col, path, detail) in raw]


def _diagnostics(stages: list[str], *, request_id: str | None) -> dict[str, Any]:
    return _blank_record(stages, request_id)


def _blank_record(stages: list[str], request_id: str | None, replaced_lone_surrogates: bool = False) -> dict[str, Any]:
    """The diagnostics record of a call before its outcome is known: the documented record (the
    CLI's and Node's, key for key), and ``replaced_lone_surrogates`` when a str held some."""
    record = blank_diagnostics(request_id, stages)
    if replaced_lone_surrogates:
        record["replaced_lone_surrogates"] = True
    return record


@dataclass(frozen=True, slots=True)
class _Grounding:
    """The verify stage of ``parse``: the value's numbers against the evidence."""

    evidence: Evidence
    fail_closed: bool
    locale: str
    language: str

    def check(self, value: Any, diagnostics: dict[str, Any], started: float) -> VerifyResult:
        result = verify(
            value,
            self.evidence,
            locale=self.locale,  # type: ignore[arg-type]
            fail_closed=self.fail_closed,
            language=self.language,  # type: ignore[arg-type]
        )
        diagnostics["stages"] = [*diagnostics.get("stages", []), "verify"]
        record_verification(diagnostics, result)
        if result.fail_closed_triggered:
            diagnostics["outcome"] = "grounding"
            diagnostics["error"] = f"answer blocked ({result.fail_closed_reason})"
            diagnostics["latency_ms"] = (time.perf_counter() - started) * 1000
            metrics.record(
                "verify_fail",
                time.perf_counter() - started,
                error_kind="grounding",
                fail_closed=result.fail_closed_reason,
            )
            raise GroundingError(result.output, result=result, diagnostics=diagnostics)
        return result


def _grounding(
    evidence: EvidenceLike | None, fail_closed: bool, locale: str, language: str
) -> _Grounding | None:
    if evidence is None:
        return None
    return _Grounding(as_evidence(evidence, locale), fail_closed, locale, language)


def _run(
    text: str | bytes,
    *,
    schema: Any = None,
    model: Any = None,
    level: str = "full",
    truncation: str = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: str = "data",
    latex: bool = True,
    invalid_items: InvalidItemsPolicy = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    duplicate_keys: str = "last",
    coercion: str = "fit",
    with_repairs: bool = True,
    all_values: bool = False,
    value_only: bool = False,
    request_id: str | None = None,
    grounding: _Grounding | None = None,
) -> ParseResult[Any]:
    """The one path every public function takes: parse, convert, validate, count. With
    ``value_only`` the caller keeps only ``.value``: a valid reply skips building diagnostics."""
    # Bytes that are UTF-8 are read as their text. Others go to Rust as bytes, read as the CLI
    # reads them: bad bytes become U+FFFD and an `invalid_utf8` repair (refused at level
    # none), and bytes that are not text at all (binary) are refused. Never replaced in silence.
    raw: bytes | None = None
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raw = data
            text = data.decode("utf-8", "replace")
    if not isinstance(text, str):
        raise TypeError(f"expected str or bytes, got {type(text).__name__}")
    level = _checked_level(level, truncation, duplicate_keys, coercion, max_removed_ratio)
    _check_choice("invalid_items", invalid_items, ("fail", "drop"))
    started = time.perf_counter()
    if model is not None and schema is None:
        schema = model
    compiled = _schema_of(schema)
    if compiled is None and duplicate_keys == "last" and raw is None:
        fast = _valid_document(text, max_size)
        if fast is not None:
            # The most common reply: one valid document, nothing to repair.
            value, span = fast
            elapsed = time.perf_counter() - started
            whole = [value] if all_values else value
            if grounding is not None:
                record = _blank_record(["locate", "repair"], request_id)
                verification = grounding.check(value, record, started)
                metrics.record("ok", elapsed)
                if not value_only:
                    _completed(record, text, "ok", 0, "text", span, (), None, elapsed)
                return ParseResult(whole, [], record, verification, span=span)
            metrics.record("ok", elapsed)
            if value_only:
                return ParseResult(whole, [], {}, span=span)
            blank = functools.partial(_blank_record, ["locate", "repair"], request_id)
            return ParseResult(
                whole, [], functools.partial(_completed, blank, text, "ok", 0, "text", span, (), None, elapsed), span=span
            )
    stages = ["locate", "repair"] + (["coerce", "validate"] if compiled is not None else [])
    # The record is made only when something reads it: a failure's error, a stage that writes
    # to it (verify, the model), or the caller reading `diagnostics` (about 5 µs a call saved).
    blank = functools.partial(_blank_record, stages, request_id)
    try:
        options = _compiled_options(
            level=level,
            truncation=truncation,
            max_removed_ratio=max_removed_ratio,
            max_size=max_size,
            max_depth=DEFAULT_MAX_DEPTH,
            duplicate_keys=duplicate_keys,
            schema=compiled._native if compiled is not None else None,
            coercion=coercion,
            guard_comments=guard_comments,
            latex=latex,
            invalid_items=invalid_items,
        )
        call = functools.partial(_native_parse, options=options, with_repairs=with_repairs, all=all_values)
        try:
            native_result = call(text if raw is None else raw)
        except UnicodeEncodeError:
            # A str holding lone surrogates (not UTF-8): each becomes U+FFFD, as bad bytes do.
            text = _without_lone_surrogates(text)
            blank = functools.partial(_blank_record, stages, request_id, True)
            native_result = call(text)
    except NativeError as native:
        raise _failure(native, blank(), text, started) from None
    return _result(native_result, blank, started, text, model=model, grounding=grounding, stages=stages)


def _failure(native: NativeError, diagnostics: dict[str, Any], text: str, started: float) -> LLMJSONError:
    """The error of a failed native parse of ``text``, its diagnostics completed and counted."""
    error = from_native(native, diagnostics, doc=text)
    diagnostics["latency_ms"] = (time.perf_counter() - started) * 1000
    # The stages that ran: those up to the one that refused the reply.
    failed = _stage_of(error.kind)
    stages = diagnostics["stages"]
    diagnostics["stages"] = stages[: stages.index(failed) + 1] if failed in stages else stages
    diagnostics["failed_stage"] = diagnostics["stages"][-1] if diagnostics["stages"] else failed
    metrics.record(metrics.outcome_of_error_kind(error.kind), time.perf_counter() - started, error_kind=error.kind)
    return error


def _result(
    native_result: tuple[Any, ...],
    diagnostics: dict[str, Any] | Callable[[], dict[str, Any]],
    started: float,
    text: str,
    *,
    model: Any,
    grounding: _Grounding | None,
    stages: list[str],
) -> ParseResult[Any]:
    """A successful native parse as a ParseResult: repairs, verification, the model, the
    diagnostics completed (when read, unless a stage here writes to them: ``diagnostics`` may
    be what makes the blank record), the outcome counted."""
    value, repair_log, span, source, _removed, _located, repair_count, repair_kinds, raw_dropped = native_result
    dropped = [
        DroppedItem(path, (start, end), line, column, [SchemaViolation(p, k, m) for (p, k, m) in errors])
        for (path, start, end, line, column, errors) in raw_dropped
    ]
    verification = None
    if grounding is not None or model is not None:
        # These stages write to the record: it is made now.
        record = diagnostics() if callable(diagnostics) else diagnostics
        diagnostics = record
        if grounding is not None:
            verification = grounding.check(value, record, started)
        if model is not None:
            stages.append("model")
            value = _validate_model(model, value, record, started)
    outcome = "repaired" if repair_count else "ok"
    elapsed = time.perf_counter() - started
    metrics.record(
        outcome,
        elapsed,
        repair_kinds=repair_kinds,
        truncated=not TRUNCATION_KINDS.isdisjoint(repair_kinds),
    )
    made = functools.partial(
        _completed, diagnostics, text, outcome, repair_count, source, span, repair_kinds, dropped, elapsed
    )
    return ParseResult(value, repair_log, made if callable(diagnostics) else made(), verification, dropped, span)


_COERCION_SET = frozenset(_COERCION_KINDS)


def _byte_span(text: str, span: tuple[int, int]) -> dict[str, int]:
    """A character range of ``text`` as the record writes ranges at every door: byte offsets in
    its UTF-8 form, ``{start, end}``."""
    start, end = span
    if text.isascii():
        return {"start": start, "end": end}
    before = len(text[:start].encode("utf-8", "surrogatepass"))
    return {"start": before, "end": before + len(text[start:end].encode("utf-8", "surrogatepass"))}


def _completed(
    diagnostics: dict[str, Any] | Callable[[], dict[str, Any]],
    text: str,
    outcome: str,
    repair_count: int,
    source: str,
    span: tuple[int, int],
    repair_kinds: Any,
    dropped: list[DroppedItem] | None,
    elapsed: float,
) -> dict[str, Any]:
    """The diagnostics record of a success: the blank record (or what makes it) completed with
    the outcome. ``dropped`` None: a valid document read whole (no dropped items key)."""
    record = diagnostics() if callable(diagnostics) else diagnostics
    kinds: dict[str, int] = {}
    for kind in repair_kinds:
        kinds[kind] = kinds.get(kind, 0) + 1
    record.update(
        outcome=outcome,
        json_source=source,
        json_span=_byte_span(text, span),
        repairs=repair_count,
        repairs_by_kind=dict(sorted(kinds.items())),
        coercions=sum(n for kind, n in kinds.items() if kind in _COERCION_SET),
    )
    if dropped is not None:
        record["dropped_items"] = [
            {"path": d.path, "span": _byte_span(text, d.span), "errors": [str(e) for e in d.errors]} for d in dropped
        ]
    record["latency_ms"] = elapsed * 1000
    return record


def _without_lone_surrogates(text: str) -> str:
    """``text`` with every surrogate code point (which UTF-8 cannot hold) replaced by U+FFFD."""
    return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)


# One native options object per distinct set of keyword arguments, compiled the first time and
# kept: a call passes the object, not eleven arguments to convert again. Callers pass the level
# in force (after the kill switch), so switching it takes effect at the next call. Typed:
# `latex=0` is not `latex=False` (the native call refuses the int, cached or not).
_compiled_options = functools.lru_cache(maxsize=64, typed=True)(_CompiledOptions)


def _checked_level(
    level: str, truncation: str, duplicate_keys: str, coercion: str, max_removed_ratio: float
) -> str:
    """Checks the policy arguments every parsing call takes; returns the level in force (the
    kill switch may force ``none``)."""
    if not 0.0 <= max_removed_ratio <= 1.0:  # NaN fails both comparisons
        raise ValueError(f"max_removed_ratio must be between 0 and 1, got {max_removed_ratio!r}")
    _check_choice("level", level, ("none", "conservative", "full"))
    # Either spelling of a two-word value: `drop_element` or `drop-element`, as in the CLI.
    _check_choice("truncation", truncation.replace("-", "_"), ("complete", "drop", "drop_element"))
    _check_choice("duplicate_keys", duplicate_keys, ("last", "first", "error"))
    _check_choice("coercion", coercion.replace("-", "_"), ("fit", "validate_only"))
    return _kill_switch_level(level)


def _check_choice(name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {value!r}")


_WHITESPACE = " \t\n\r"


def _valid_document(text: str, max_size: int) -> tuple[Any, tuple[int, int]] | None:
    """A reply that is one valid JSON document: the most common reply, with nothing to repair.
    Rust reads it in one pass straight into Python objects (a broken reply stops at its first
    defect, cheaply, and takes the full path; so do lone surrogate escapes, which llmjson
    replaces)."""
    start = len(text) - len(text.lstrip(_WHITESPACE))
    if start >= len(text) or text[start] not in "{[":
        return None
    try:
        value = _read_valid_document(text, max_size)
    except UnicodeEncodeError:  # lone surrogates in the str itself: the full path replaces them
        return None
    if value is None:
        return None
    return value, (start, len(text.rstrip(_WHITESPACE)))


def _stage_of(kind: str) -> str:
    """The stage an error kind stops in (Rust's ``Diagnostics`` says the same)."""
    return {
        "empty": "locate",
        "no_json": "locate",
        "too_large": "locate",
        "binary": "locate",
        "invalid_utf8": "locate",
        "schema": "validate",
        "invalid_schema": "validate",
        "deserialize": "validate",
        "grounding": "verify",
    }.get(kind, "repair")


def _validate_model(model: Any, value: Any, diagnostics: dict[str, Any], started: float) -> Any:
    """``model.model_validate(value)``; Pydantic's errors become a JSONSchemaError with paths."""
    try:
        return model.model_validate(value)
    except Exception as error:  # pydantic.ValidationError, without importing pydantic
        errors_method = getattr(error, "errors", None)
        if not callable(errors_method):
            raise
        violations = [
            SchemaViolation(_pointer(tuple(e.get("loc", ()))), str(e.get("type", "")), str(e.get("msg", "")))
            for e in errors_method()
        ]
        from ._llmjson import schema_feedback

        lines = [str(v) for v in violations]
        diagnostics.update(outcome="schema", failed_stage="model", schema_errors=lines)
        diagnostics["error"] = "the JSON does not fit the model: " + "; ".join(lines[:5])
        diagnostics["latency_ms"] = (time.perf_counter() - started) * 1000
        metrics.record("schema_fail", time.perf_counter() - started)
        raise JSONSchemaError(
            "the JSON does not fit the model: " + "; ".join(lines[:5]),
            errors=violations,
            value=value,
            diagnostics=diagnostics,
            feedback=schema_feedback(lines),
        ) from None


@overload
def parse(
    text: str | bytes,
    *,
    schema: Any = None,
    model: type[T],
    level: Level = "full",
    truncation: TruncationPolicy = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: GuardCommentsPolicy = "data",
    latex: bool = True,
    invalid_items: InvalidItemsPolicy = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    duplicate_keys: DuplicateKeysPolicy = "last",
    coercion: CoercionPolicy = "fit",
    request_id: str | None = None,
    evidence: EvidenceLike | None = None,
    fail_closed: bool = True,
    locale: str = "auto",
    language: Literal["en", "pt"] = "en",
) -> ParseResult[T]: ...
@overload
def parse(
    text: str | bytes,
    *,
    schema: Any = None,
    model: None = None,
    level: Level = "full",
    truncation: TruncationPolicy = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: GuardCommentsPolicy = "data",
    latex: bool = True,
    invalid_items: InvalidItemsPolicy = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    duplicate_keys: DuplicateKeysPolicy = "last",
    coercion: CoercionPolicy = "fit",
    request_id: str | None = None,
    evidence: EvidenceLike | None = None,
    fail_closed: bool = True,
    locale: str = "auto",
    language: Literal["en", "pt"] = "en",
) -> ParseResult[Any]: ...
def parse(
    text: str | bytes,
    *,
    schema: Any = None,
    model: Any = None,
    level: Level = "full",
    truncation: TruncationPolicy = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: GuardCommentsPolicy = "data",
    latex: bool = True,
    invalid_items: InvalidItemsPolicy = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    duplicate_keys: DuplicateKeysPolicy = "last",
    coercion: CoercionPolicy = "fit",
    request_id: str | None = None,
    evidence: EvidenceLike | None = None,
    fail_closed: bool = True,
    locale: str = "auto",
    language: Literal["en", "pt"] = "en",
) -> ParseResult[Any]:
    """Locates the JSON in a model's reply, repairs it, and (with ``schema`` or ``model``) fits it
    to the schema and validates it. With ``evidence``, the value's numbers are then verified
    against it (``.verification``): a value whose numbers the evidence does not hold raises
    ``GroundingError`` (``fail_closed=False`` returns it with its verification instead).
    ``guard_comments`` says which comments the safety guard counts: ``"data"`` (members or
    values the model commented out; prose loses nothing) or ``"all"``. ``latex`` (default
    true) reads a LaTeX command written with one backslash where JSON has an escape
    (``\\frac``, ``\\beta``; ``\\theta`` where the string shows maths) as the command, logged as
    ``latex_escape``; ``latex=False`` keeps RFC 8259's form feed, backspace, tab and newline.
    ``invalid_items="drop"`` (with a schema or model) leaves out the array items that fail their
    item schema and returns the rest, each left-out item in ``.dropped`` (path, span, its
    violations); the items count as discarded text for the safety guard, so a list that is
    mostly invalid still raises ``JSONSchemaError``. The default ``"fail"`` raises on any.

    ``text`` is a str, or bytes: UTF-8, where bad bytes become U+FFFD and an ``invalid_utf8``
    repair (an error at level ``none``), and bytes that are not text (binary) raise
    ``BinaryInputError``. ``max_size`` (bytes, default 10 MiB) refuses a larger input.

    ``schema`` is a JSON Schema (dict or JSON text) or an ``llmjson.Schema``; ``model`` a
    Pydantic v2 model class, whose JSON Schema guides the repair and which validates the result
    (``.value`` is then the model instance). Raises an ``LLMJSONError`` subclass when no usable
    JSON comes out.
    """
    _refuse_idle(
        schema is not None or model is not None,
        evidence is not None,
        coercion=coercion != "fit",
        invalid_items=invalid_items != "fail",
        fail_closed=fail_closed is not True,
        locale=locale != "auto",
        language=language != "en",
    )
    return _run(
        text,
        schema=schema,
        model=model,
        level=level,
        truncation=truncation,
        max_removed_ratio=max_removed_ratio,
        guard_comments=guard_comments,
        latex=latex,
        invalid_items=invalid_items,
        max_size=max_size,
        duplicate_keys=duplicate_keys,
        coercion=coercion,
        request_id=request_id,
        grounding=_grounding(evidence, fail_closed, locale, language),
    )


def _refuse_idle(has_schema: bool, has_evidence: bool, **set_: bool) -> None:
    """Raises ``TypeError`` for an option set to something other than its default where it
    would do nothing: ``coercion`` and ``invalid_items`` without a schema or model,
    ``fail_closed``, ``locale`` and ``language`` without evidence (as the CLI refuses them)."""
    needs = {"coercion": "schema", "invalid_items": "schema", "fail_closed": "evidence", "locale": "evidence", "language": "evidence"}
    given = {"schema": has_schema, "evidence": has_evidence}
    idle = [name for name, on in set_.items() if on and not given[needs[name]]]
    if idle:
        need = needs[idle[0]]
        raise TypeError(f"{', '.join(idle)} does nothing without {need}= (give {need}=, or leave {idle[0]} out)")


def parse_all(
    text: str | bytes,
    *,
    schema: Any = None,
    level: Level = "full",
    truncation: TruncationPolicy = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: GuardCommentsPolicy = "data",
    latex: bool = True,
    invalid_items: InvalidItemsPolicy = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    duplicate_keys: DuplicateKeysPolicy = "last",
    coercion: CoercionPolicy = "fit",
    request_id: str | None = None,
) -> ParseResult[list[Any]]:
    """Every JSON value in the reply, in order, as ``.value`` (a list); the repairs of all of
    them. With ``schema``, each value is fitted to it and validated."""
    return _run(
        text,
        schema=schema,
        level=level,
        truncation=truncation,
        max_removed_ratio=max_removed_ratio,
        guard_comments=guard_comments,
        latex=latex,
        invalid_items=invalid_items,
        max_size=max_size,
        duplicate_keys=duplicate_keys,
        coercion=coercion,
        all_values=True,
        request_id=request_id,
    )


# ------------------------------------------------------------------------------------------
# The json_repair drop-in.

Compat = Literal["json_repair"] | None


def _json_repair_log(text: str, repairs: list[Repair]) -> list[dict[str, Any]]:
    """json_repair's log entries (``text``, ``context``) with llmjson's fields beside them."""
    out = []
    for r in repairs:
        start, end = r.span
        context = text[max(0, start - 10) : end + 10]
        out.append(
            {
                "text": f"{r.kind}: {r.detail}",
                "context": context,
                "kind": r.kind,
                "path": r.path,
                "line": r.line,
                "column": r.column,
            }
        )
    return out


def _loads(
    json_str: str | bytes,
    *,
    logging: bool,
    strict: bool,
    schema: Any,
    compat: Compat,
    max_size: int = DEFAULT_MAX_SIZE,
) -> Any:
    level: Level = "none" if strict else "full"
    want_all = compat == "json_repair"
    if schema is None and type(json_str) is str:
        if not logging and not want_all:
            # The value alone, in one native call that counts itself: a valid document read
            # straight into Python objects, else the value with no log, span or diagnostics. A
            # failure takes the full path below, which raises it with its diagnostics and
            # counts it.
            try:
                return _native_loads_value(json_str, metrics._prometheus, level=level, max_size=max_size)
            except (NativeError, UnicodeEncodeError):
                pass
        else:
            # One valid document (the commonest reply) is the same value at every level and
            # in every compatibility mode: read straight into Python objects, counted.
            started = time.perf_counter()
            fast = _valid_document(json_str, max_size)
            if fast is not None:
                metrics.record("ok", time.perf_counter() - started)
                return (fast[0], []) if logging else fast[0]
    try:
        result = _run(
            json_str,
            schema=schema,
            level=level,
            with_repairs=logging,
            all_values=want_all and schema is None,
            value_only=not logging,
            max_size=max_size,
        )
    except NoJSONError:
        if compat != "json_repair":
            raise
        return ("", []) if logging else ""
    value = result.value
    if want_all and schema is None and isinstance(value, list):
        # json_repair: one value alone, several as a list.
        value = value[0] if len(value) == 1 else value
    if logging:
        text = json_str if isinstance(json_str, str) else json_str.decode("utf-8", "replace")
        return value, _json_repair_log(text, result.repairs)
    return value


def repair_json(
    json_str: str = "",
    *,
    return_objects: bool = False,
    skip_json_loads: bool = False,
    logging: bool = False,
    ensure_ascii: bool = True,
    indent: int | str | None = None,
    strict: bool = False,
    schema: Any = None,
    json_fd: IO[str] | None = None,
    chunk_length: int = 0,
    stream_stable: bool = False,
    schema_repair_mode: str = "standard",
    compat: Compat = None,
    max_size: int = DEFAULT_MAX_SIZE,
    **json_dumps_args: Any,
) -> Any:
    """json_repair's ``repair_json``: the repaired JSON as text (``json.dumps`` with
    ``ensure_ascii``, ``indent`` and any other ``json.dumps`` argument), the object with
    ``return_objects=True``, ``(object, log)`` with ``logging=True``.

    ``strict=True`` repairs nothing (level ``none``): the JSON must be valid. ``schema`` takes a
    JSON Schema, an ``llmjson.Schema`` or a Pydantic model class. ``skip_json_loads``,
    ``chunk_length``, ``stream_stable`` and ``schema_repair_mode`` are accepted for compatibility: valid JSON always
    takes the fast path, and the input is read whole. Where llmjson differs from json_repair
    (no JSON at all is an error, several values give the first, ...), ``compat="json_repair"``
    restores json_repair's answer; the README lists every difference.
    """
    del skip_json_loads, chunk_length, stream_stable, schema_repair_mode
    if json_fd is not None:
        json_str = json_fd.read()
    value = _loads(json_str, logging=logging, strict=strict, schema=schema, compat=compat, max_size=max_size)
    if logging or return_objects:
        return value
    if compat == "json_repair" and value == "" and not json_str.strip().startswith('"'):
        return ""
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent, **json_dumps_args)


def loads(
    json_str: str,
    *,
    skip_json_loads: bool = False,
    logging: bool = False,
    stream_stable: bool = False,
    strict: bool = False,
    schema: Any = None,
    schema_repair_mode: str = "standard",
    compat: Compat = None,
    max_size: int = DEFAULT_MAX_SIZE,
) -> Any:
    """json_repair's ``loads``: the repaired value as Python objects (``(value, log)`` with
    ``logging=True``). ``max_size`` (bytes, default 10 MiB) refuses a larger input."""
    del skip_json_loads, stream_stable, schema_repair_mode
    return _loads(json_str, logging=logging, strict=strict, schema=schema, compat=compat, max_size=max_size)


def load(
    fd: IO[str],
    *,
    skip_json_loads: bool = False,
    logging: bool = False,
    chunk_length: int = 0,
    strict: bool = False,
    schema: Any = None,
    schema_repair_mode: str = "standard",
    compat: Compat = None,
    max_size: int = DEFAULT_MAX_SIZE,
) -> Any:
    """json_repair's ``load``: ``loads`` of a text file object's content."""
    del skip_json_loads, chunk_length, schema_repair_mode
    return _loads(fd.read(), logging=logging, strict=strict, schema=schema, compat=compat, max_size=max_size)


def from_file(
    filename: str | os.PathLike[str],
    *,
    skip_json_loads: bool = False,
    logging: bool = False,
    chunk_length: int = 0,
    strict: bool = False,
    schema: Any = None,
    schema_repair_mode: str = "standard",
    compat: Compat = None,
    max_size: int = DEFAULT_MAX_SIZE,
) -> Any:
    """json_repair's ``from_file``: ``loads`` of a file's content, read as bytes are at every
    door: bytes that are not UTF-8 become U+FFFD with an ``invalid_utf8`` repair (refused with
    ``strict=True``), a file that is not text is a ``BinaryInputError``."""
    del skip_json_loads, chunk_length, schema_repair_mode
    data = Path(filename).read_bytes()
    try:
        text: str | bytes = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data
    return _loads(text, logging=logging, strict=strict, schema=schema, compat=compat, max_size=max_size)


# Streaming builds on the parse path above.
from .stream import DONE_ONLY, Event, Snapshot, StreamParser, ToolCall, astream, stream  # noqa: E402

#: What ``dir(llmjson)`` lists: the public API, its submodules and the policy types of its
#: signatures; not the standard modules and helpers the package uses inside.
_PUBLIC = sorted(
    {
        *__all__,
        "errors",
        "DEFAULT_MAX_SIZE",
        "Level",
        "TruncationPolicy",
        "DuplicateKeysPolicy",
        "GuardCommentsPolicy",
        "CoercionPolicy",
        "Compat",
    }
)


def __dir__() -> list[str]:
    return list(_PUBLIC)

"""The native module (Rust, PyO3). Use the ``llmjson`` package's API instead."""

from collections.abc import Callable
from typing import Any, final

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_SIZE",
    "Evidence",
    "verify",
    "feedback_message",
    "is_valid_document",
    "read_valid_document",
    "NativeError",
    "Schema",
    "CompiledOptions",
    "StreamParser",
    "LaterEvents",
    "RepairLog",
    "__version__",
    "parse",
    "loads_value",
    "repair_disabled",
    "repair_kinds",
    "schema_feedback",
    "truncation_feedback",
    "METRIC_NAMES",
    "Metrics",
    "batch_chunk",
    "OUTCOME_OF_ERROR_KIND",
    "COERCION_KINDS",
    "parse_arrow_strings",
]

__version__: str
DEFAULT_MAX_SIZE: int
DEFAULT_MAX_DEPTH: int

class NativeError(ValueError):
    """``args`` are ``(kind, message, details)``."""

@final
class Schema:
    """A compiled JSON Schema, shared by every call that uses it."""

    def __new__(cls, document: str) -> Schema: ...
    def validate(self, value: str) -> list[tuple[str, str, str]]:
        """Every violation by the JSON text ``value``, as ``(path, keyword, message)``."""

@final
class CompiledOptions:
    """A call's options, checked and compiled once (``llmjson._compiled_options`` keeps one per
    distinct set)."""

    def __new__(
        cls,
        *,
        level: str = "full",
        truncation: str = "complete",
        max_removed_ratio: float = 0.3,
        max_size: int = ...,
        max_depth: int = ...,
        duplicate_keys: str = "last",
        schema: Schema | None = None,
        coercion: str = "fit",
        guard_comments: str = "data",
        latex: bool = True,
        invalid_items: str = "fail",
        fail_closed: bool = True,
        locale: str = "auto",
    ) -> CompiledOptions: ...

@final
class StreamParser:
    """A reply parsed while it arrives (see ``llmjson.StreamParser``)."""

    def __new__(
        cls,
        options: CompiledOptions,
        *,
        events: bool = True,
        on_error: Callable[[NativeError], Exception] | None = None,
    ) -> StreamParser: ...
    def feed(self, chunk: str | bytes) -> None: ...
    def snapshot(
        self,
        live: bool = False,
    ) -> tuple[
        Any,
        list[str] | None,
        list[str] | tuple[list[tuple[str, int]], list[str]],
        bool,
        bool,
        str | None,
    ]:
        """(value or None, complete pointers or None, provisional pointers, done, malformed,
        innermost open pointer or None). Complete pointers are None when the value is kept up
        to date in place (they follow from the open pointer), and the provisional ones are then
        ([(open container, first provisional member)], [other pointers]); the value is a fresh
        copy of the containers a later chunk may change, sharing every complete member (with
        ``live``, the value kept up to date itself, changed by later chunks)."""
    def events(self) -> list[tuple[str, str, str | None]]:
        """(kind, path, text or property or None) per event."""
    def stats(self) -> tuple[int, int, float | None]:
        """(chunks, bytes, milliseconds to the first complete value)."""
    def finish(
        self,
    ) -> tuple[
        str,
        tuple[Any, RepairLog, tuple[int, int], str, int, int, int, list[str], list[Any]],
        LaterEvents,
        tuple[int, float | None],
    ]:
        """(the whole text, ``parse``'s tuple, the last events (made when taken), (chunks, ms to
        the first value))."""

@final
class RepairLog:
    """A result's repairs, kept natively until read."""

    def tuples(self) -> list[tuple[str, int, int, int, int, str, str]]:
        """(kind, start, end, line, column, path, detail) per repair, in the order of the text."""
    def __len__(self) -> int: ...

@final
class LaterEvents:
    """A finished stream's last events, made and converted when taken."""

    def take(self) -> list[tuple[str, str, str | None]]:
        """(kind, path, text or property or None) per event; once (then an empty list)."""

def loads_value(text: str, metrics: Metrics, *, level: str = "full", max_size: int = ...) -> Any: ...
def repair_disabled() -> bool: ...
def parse(
    text: str | bytes,
    options: CompiledOptions,
    *,
    with_repairs: bool = True,
    all: bool = False,
) -> tuple[
    Any,
    RepairLog,
    tuple[int, int],
    str,
    int,
    int,
    int,
    list[str],
]: ...
def repair_kinds() -> list[str]: ...
def is_valid_document(text: str) -> bool: ...
def read_valid_document(text: str, max_size: int) -> Any | None: ...
def schema_feedback(violations: list[str]) -> str: ...
def feedback_message(attempt: int, budget: int, body: str, repeated: bool) -> str: ...
def truncation_feedback() -> tuple[str, str | None]: ...

@final
class Evidence:
    """Evidence to verify answers against, indexed as it is added."""

    def __new__(cls, *, locale: str = "auto", max_size: int = ...) -> Evidence: ...
    def add_text(self, name: str, text: str) -> None: ...
    def add_json(self, name: str, document: str) -> None: ...
    def add_csv(self, name: str, text: str) -> None: ...
    def is_empty(self) -> bool: ...
    def numbers(self) -> int: ...

def verify(
    answer: str,
    evidence: Evidence,
    *,
    as_json: bool = False,
    locale: str = "auto",
    small_counts: int = 10,
    check_years: bool = False,
    percent_fraction: bool | None = None,
    fail_closed: bool = True,
    language: str = "en",
    max_size: int = ...,
) -> tuple[str, str | None, str]:
    """``(output, fail_closed_reason, verification as JSON text)``."""

METRIC_NAMES: list[str]
OUTCOME_OF_ERROR_KIND: list[tuple[str, str]]
COERCION_KINDS: list[str]

@final
class Metrics:
    def __init__(self) -> None: ...
    def count(
        self,
        outcome: str,
        seconds: float,
        *,
        failure_kind: str | None = None,
        repair_kinds: list[str] = ...,
        truncated: bool = False,
        fail_closed: str | None = None,
    ) -> None: ...
    def count_outcome(self, outcome: str, seconds: float) -> None: ...
    def count_retry(self) -> None: ...
    def reset(self) -> None: ...
    def outcomes(self) -> dict[str, Any]: ...
    def prometheus(self) -> str: ...
    def families(self) -> dict[str, Any]: ...

def batch_chunk(
    lines: list[str],
    *,
    first_seq: int,
    source: str,
    id_field: str,
    reply_field: str,
    options: CompiledOptions,
) -> list[
    tuple[
        int,
        Any,
        bool,
        str,
        Any,
        str,
        tuple[str, str, int | None, int | None] | None,
        str | None,
        bool,
        str | None,
        list[str],
        float,
    ]
]: ...

_StringBuffers = tuple[bytes | None, bytes, bytes, int]

def parse_arrow_strings(
    offsets: Any,
    data: Any,
    validity: Any | None,
    *,
    offset: int,
    length: int,
    large: bool,
    evidence: list[Any] | None,
    threads: int,
    options: CompiledOptions,
    shape: str | None = None,
) -> tuple[
    _StringBuffers,
    _StringBuffers,
    tuple[bytes | None, bytes, int, tuple[_StringBuffers, _StringBuffers, bytes, bytes]],
    _StringBuffers,
    _StringBuffers | None,
]:
    """An Arrow string column's replies parsed: (value, outcome, repairs, diagnostics, shaped) as
    Arrow buffers; ``shaped`` (with a ``shape``) each value written in that shape, else None."""

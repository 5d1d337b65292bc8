"""Many replies at once: ``llmjson.batch(records)`` yields one result per record, in order.

The records are parsed by the same Rust engine as ``llmjson batch`` (the command): in chunks,
in parallel over every core, with the GIL released. A record that cannot be read (not an
object, no reply field) is that record's failed result; the iteration goes on.

>>> import llmjson
>>> results = llmjson.batch([{"id": 1, "reply": "{'a': 1,}"}, {"id": 2, "reply": ""}])
>>> [(r.id, r.outcome, r.value) for r in results]
[(1, 'repaired', {'a': 1}), (2, 'empty', None)]
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from . import metrics
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE
from ._llmjson import batch_chunk as _batch_chunk

__all__ = ["batch", "BatchResult", "BatchError"]


@dataclass(frozen=True)
class BatchError:
    """Why a record gave no value: the error's kind, its message, and where in the reply."""

    kind: str
    message: str
    line: int | None
    column: int | None


@dataclass(frozen=True)
class BatchResult:
    """One record's result: the same fields as a line of ``llmjson batch``."""

    seq: int
    """The record's place in the input (0-based)."""
    id: Any
    """The record's id field, or ``records:N`` (N 1-based) when it has none."""
    ok: bool
    outcome: str
    """``ok``, ``repaired``, or the error's kind."""
    value: Any
    repairs: list[dict[str, Any]]
    error: BatchError | None
    diagnostics: dict[str, Any] | None
    """The pipeline's diagnostics record (None for a record that could not be read)."""

    def to_dict(self) -> dict[str, Any]:
        """The result as the JSON object ``llmjson batch`` writes for it."""
        return {
            "seq": self.seq,
            "id": self.id,
            "ok": self.ok,
            "outcome": self.outcome,
            "value": self.value,
            "repairs": self.repairs,
            "error": None if self.error is None else self.error.__dict__.copy(),
            "diagnostics": self.diagnostics,
        }


def _line(record: Any, reply_field: str) -> str:
    """A record as the JSON Lines text the engine reads; a bare string is the reply itself."""
    if isinstance(record, str):
        record = {reply_field: record}
    elif isinstance(record, Mapping):
        record = dict(record)
    try:
        return json.dumps(record, ensure_ascii=False, default=str)
    except (TypeError, ValueError) as e:
        # Not serializable (a cycle): the engine reports it as that record's bad_record.
        return f"unreadable record: {e}"


def batch(
    records: Iterable[Mapping[str, Any] | str],
    *,
    id_field: str = "id",
    reply_field: str = "reply",
    schema: Any = None,
    level: str = "full",
    truncation: str = "complete",
    max_removed_ratio: float = 0.3,
    guard_comments: str = "data",
    latex: bool = True,
    invalid_items: str = "fail",
    max_size: int = DEFAULT_MAX_SIZE,
    max_depth: int = DEFAULT_MAX_DEPTH,
    duplicate_keys: str = "last",
    coercion: str = "fit",
    chunk_size: int = 1024,
) -> Iterator[BatchResult]:
    """Parses every record and yields its result, in input order.

    A record is a mapping (``{"id": …, "reply": "…"}``, field names configurable; it may carry
    its own ``schema``) or a string (the reply itself). ``schema`` (a JSON Schema dict, a
    :class:`llmjson.Schema`, or a Pydantic model's schema) applies to every record without its
    own. The other options are :func:`llmjson.parse`'s. The input is read ``chunk_size``
    records at a time, so an iterator of any length runs in bounded memory.
    """
    from . import _checked_level, _compiled_options, _schema_of

    level = _checked_level(level, truncation, duplicate_keys, coercion, max_removed_ratio)
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1, got {chunk_size!r}")
    compiled = _schema_of(schema)
    options: dict[str, Any] = dict(
        source="records",
        id_field=id_field,
        reply_field=reply_field,
        options=_compiled_options(
            level=level,
            truncation=truncation,
            max_removed_ratio=max_removed_ratio,
            max_size=max_size,
            max_depth=max_depth,
            duplicate_keys=duplicate_keys,
            schema=compiled._native if compiled is not None else None,
            coercion=coercion,
            guard_comments=guard_comments,
            latex=latex,
            invalid_items=invalid_items,
        ),
    )
    iterator = iter(records)
    seq = 0
    while True:
        lines = [_line(r, reply_field) for r in islice(iterator, chunk_size)]
        if not lines:
            return
        results = _batch_chunk(lines, first_seq=seq, **options)
        seq += len(lines)
        for (
            number,
            record_id,
            ok,
            outcome,
            value,
            repairs_json,
            error,
            diagnostics_json,
            truncated,
            fail_closed,
            repair_kinds,
            seconds,
        ) in results:
            if ok:
                metrics.record(outcome, seconds, repair_kinds=repair_kinds, truncated=truncated)
            else:
                metrics.record(
                    metrics.outcome_of_error_kind(outcome),
                    seconds,
                    error_kind=outcome,
                    fail_closed=fail_closed,
                )
            yield BatchResult(
                seq=number,
                id=record_id,
                ok=ok,
                outcome=outcome,
                value=value,
                repairs=json.loads(repairs_json),
                error=None if error is None else BatchError(*error),
                diagnostics=None if diagnostics_json is None else json.loads(diagnostics_json),
            )

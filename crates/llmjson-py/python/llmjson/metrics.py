"""Process-wide counters of outcomes and latency, for dashboards and alerts.

>>> import llmjson
>>> llmjson.metrics.reset()
>>> _ = llmjson.loads('{"a": 1,}')
>>> llmjson.metrics.snapshot()["repaired"]
1

Every call of ``parse``, ``loads``, ``load``, ``from_file`` and ``repair_json`` counts once, in
exactly one outcome; ``retry`` counts the attempts after the first in ``parse_with_retries``.
Latency covers the whole call (parsing, conversion to Python objects, Pydantic validation).
"""

from __future__ import annotations

import threading
from typing import TypedDict

__all__ = ["snapshot", "reset", "Snapshot", "OUTCOMES"]

#: Every outcome counted. ``no_json`` includes empty replies.
OUTCOMES = ("ok", "repaired", "no_json", "parse_fail", "repair_rejected", "schema_fail", "verify_fail")


class Snapshot(TypedDict):
    ok: int
    repaired: int
    no_json: int
    parse_fail: int
    repair_rejected: int
    schema_fail: int
    verify_fail: int
    retry: int
    calls: int
    latency_total_s: float
    latency_max_s: float


_lock = threading.Lock()
_counts: dict[str, int] = {}
_latency_total = 0.0
_latency_max = 0.0

# The error kinds of the native module, by outcome.
_OUTCOME_OF_KIND = {
    "empty": "no_json",
    "no_json": "no_json",
    "repair_rejected": "repair_rejected",
    "schema": "schema_fail",
    "grounding": "verify_fail",
}


def reset() -> None:
    """Sets every counter to zero."""
    global _latency_total, _latency_max
    with _lock:
        _counts.clear()
        for name in (*OUTCOMES, "retry", "calls"):
            _counts[name] = 0
        _latency_total = 0.0
        _latency_max = 0.0


def snapshot() -> Snapshot:
    """The counters now: outcomes, retries, calls, and latency totals in seconds."""
    with _lock:
        return Snapshot(
            ok=_counts["ok"],
            repaired=_counts["repaired"],
            no_json=_counts["no_json"],
            parse_fail=_counts["parse_fail"],
            repair_rejected=_counts["repair_rejected"],
            schema_fail=_counts["schema_fail"],
            verify_fail=_counts["verify_fail"],
            retry=_counts["retry"],
            calls=_counts["calls"],
            latency_total_s=_latency_total,
            latency_max_s=_latency_max,
        )


def record(outcome: str, seconds: float) -> None:
    """Counts one call (internal)."""
    global _latency_total, _latency_max
    with _lock:
        _counts[outcome] = _counts.get(outcome, 0) + 1
        _counts["calls"] += 1
        _latency_total += seconds
        if seconds > _latency_max:
            _latency_max = seconds


def record_retry() -> None:
    """Counts one retry (internal)."""
    with _lock:
        _counts["retry"] += 1


def outcome_of_error_kind(kind: str) -> str:
    """The outcome an error kind counts as (internal)."""
    return _OUTCOME_OF_KIND.get(kind, "parse_fail")


reset()

"""Process-wide counters of outcomes and latency, for dashboards and alerts.

>>> import llmjson
>>> llmjson.metrics.reset()
>>> _ = llmjson.loads('{"a": 1,}')
>>> llmjson.metrics.snapshot()["repaired"]
1

Every call of ``parse``, ``loads``, ``load``, ``from_file`` and ``repair_json`` counts once, in
exactly one outcome, and so does every record of ``batch``; ``retry`` counts the attempts after
the first in ``parse_with_retries``. Latency covers the whole call (parsing, conversion to Python
objects, Pydantic validation); for a batch record, its time in the pipeline.

The same counters, with the names Rust and ``llmjson batch --metrics`` use
(``llmjson_replies_total{outcome}``, ``llmjson_repairs_total{kind}``,
``llmjson_failures_total{kind}``, ``llmjson_guard_rejections_total``, ``llmjson_truncated_total``,
``llmjson_fail_closed_total{reason}``, ``llmjson_retries_total``, ``llmjson_latency_seconds``), are
written by :func:`prometheus` and exported by :func:`register` to ``prometheus_client``:

>>> "llmjson_replies_total{outcome=\"repaired\"} 1" in llmjson.metrics.prometheus()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, TypedDict, cast

from ._llmjson import METRIC_NAMES, OUTCOME_OF_ERROR_KIND
from ._llmjson import Metrics as _NativeMetrics

__all__ = ["snapshot", "reset", "Snapshot", "OUTCOMES", "NAMES", "prometheus", "register"]

#: The Prometheus metric names, the same as Rust's ``llmjson::metrics::NAMES``.
NAMES: tuple[str, ...] = tuple(METRIC_NAMES)

# Every counter lives in the native module, behind its locks: the Prometheus ones (Rust's
# `Metrics`) and the outcomes of `snapshot`, so that a call answered in one native step
# (`loads`) counts itself there.
_prometheus = _NativeMetrics()

#: Every outcome counted: each reply's outcome (``llmjson::OUTCOMES``, as the diagnostics record and
#: a batch name it) adds to one of these. An empty or blank reply is ``empty``, not ``no_json``.
OUTCOMES = ("ok", "repaired", "empty", "no_json", "parse_fail", "repair_rejected", "schema_fail", "verify_fail")


class Snapshot(TypedDict):
    ok: int
    repaired: int
    empty: int
    no_json: int
    parse_fail: int
    repair_rejected: int
    schema_fail: int
    verify_fail: int
    retry: int
    calls: int
    latency_total_s: float
    latency_max_s: float


# The counter each outcome adds to (every other: parse_fail): the library's table.
_OUTCOME_OF_KIND = dict(OUTCOME_OF_ERROR_KIND)


def reset() -> None:
    """Sets every counter to zero."""
    _prometheus.reset()


def snapshot() -> Snapshot:
    """The counters now: outcomes, retries, calls, and latency totals in seconds."""
    return cast(Snapshot, _prometheus.outcomes())


# The error kind an outcome counts under when the caller gives none.
_KIND_OF_OUTCOME = {
    "empty": "empty",
    "no_json": "no_json",
    "parse_fail": "syntax",
    "repair_rejected": "repair_rejected",
    "schema_fail": "schema",
    "verify_fail": "grounding",
}


def record_outcome(outcome: str, seconds: float) -> None:
    """Counts one call in the outcomes only (internal)."""
    _prometheus.count_outcome(outcome, seconds)


def record(
    outcome: str,
    seconds: float,
    *,
    error_kind: str | None = None,
    repair_kinds: Iterable[str] = (),
    truncated: bool = False,
    fail_closed: str | None = None,
) -> None:
    """Counts one call (internal)."""
    record_outcome(outcome, seconds)
    if outcome in ("ok", "repaired"):
        kinds = repair_kinds if isinstance(repair_kinds, list) else list(repair_kinds)
        _prometheus.count(outcome, seconds, repair_kinds=kinds, truncated=truncated)
    else:
        _prometheus.count(
            "failed",
            seconds,
            failure_kind=error_kind or _KIND_OF_OUTCOME.get(outcome, outcome),
            fail_closed=fail_closed,
        )


def record_retry() -> None:
    """Counts one retry (internal)."""
    _prometheus.count_retry()


def prometheus() -> str:
    """The counters in Prometheus text exposition format (what ``llmjson batch --metrics``
    writes), for a ``/metrics`` endpoint or a node-exporter textfile."""
    return _prometheus.prometheus()


class _Collector:
    """A ``prometheus_client`` collector reading the counters at each scrape."""

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily

        f = _prometheus.families()
        replies = CounterMetricFamily(NAMES[0], "Replies read, by outcome.", labels=["outcome"])
        for outcome in ("ok", "repaired", "failed"):
            replies.add_metric([outcome], f[outcome])
        yield replies
        for name, key, label, text in (
            (NAMES[1], "repairs", "kind", "Repairs applied, by kind."),
            (NAMES[2], "failures", "kind", "Replies that gave no value, by error kind."),
            (NAMES[5], "fail_closed", "reason", "Answers blocked by the verify stage, by reason."),
        ):
            family = CounterMetricFamily(name, text, labels=[label])
            for value, n in sorted(f[key].items()):
                family.add_metric([value], n)
            yield family
        for name, key, text in (
            (NAMES[3], "guard_rejections", "Repairs refused by the safety guard."),
            (NAMES[4], "truncated", "Replies cut off and completed."),
            (NAMES[6], "retries", "Attempts after the first in a retry loop."),
        ):
            yield CounterMetricFamily(name, text, value=f[key])
        buckets = [(repr(bound), n) for bound, n in f["latency_buckets"]]
        buckets.append(("+Inf", f["latency_count"]))
        yield HistogramMetricFamily(
            NAMES[7], "Time per reply, in seconds.", buckets=buckets, sum_value=f["latency_sum"]
        )


_registered: set[int] = set()


def register(registry: Any = None) -> None:
    """Exports the counters to ``prometheus_client`` (its default registry, or ``registry``).
    Needs the ``prometheus_client`` package; registering twice with one registry does nothing."""
    try:
        from prometheus_client import REGISTRY
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("llmjson.metrics.register needs prometheus_client (pip install prometheus-client)") from e
    target = REGISTRY if registry is None else registry
    if id(target) in _registered:
        return
    target.register(_Collector())
    _registered.add(id(target))


def outcome_of_error_kind(kind: str) -> str:
    """The outcome an error kind counts as (internal)."""
    return _OUTCOME_OF_KIND.get(kind, "parse_fail")

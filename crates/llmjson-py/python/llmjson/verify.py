"""The verify stage from Python: numeric grounding of an answer against its evidence, failing
closed when asked. The work is done in Rust (``llmjson._llmjson.verify``, GIL released)."""

from __future__ import annotations

import json
import time
import warnings
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from ._llmjson import DEFAULT_MAX_SIZE, NativeError
from ._llmjson import Evidence as _NativeEvidence
from ._llmjson import verify as _native_verify
from .errors import from_native

__all__ = ["Evidence", "NumberExample", "VerifyResult", "verify", "EvidenceLike"]

LocaleName = Literal["auto", "en", "pt-BR", "pt", "de", "es", "it", "fr"]


class Evidence:
    """Evidence to ground answers in: texts, JSON documents and CSV files, each named. Build it
    once and verify many answers against it (its numbers are indexed as they are added)."""

    def __init__(
        self,
        texts: Iterable[str] | str | None = None,
        *,
        locale: LocaleName = "auto",
        max_size: int = DEFAULT_MAX_SIZE,
    ) -> None:
        self._native = _NativeEvidence(locale=locale, max_size=max_size)
        if isinstance(texts, str):
            texts = [texts]
        for i, text in enumerate(texts or []):
            self.add_text(f"text {i + 1}", text)

    def add_text(self, name: str, text: str) -> Evidence:
        self._call(self._native.add_text, name, text)
        return self

    def add_json(self, name: str, document: Any) -> Evidence:
        """Adds a JSON document: a Python value, or its JSON text."""
        text = document if isinstance(document, str) else json.dumps(document)
        self._call(self._native.add_json, name, text)
        return self

    def add_csv(self, name: str, text: str) -> Evidence:
        """Adds a CSV file's text (first row a header): numbers are located by row and column."""
        self._call(self._native.add_csv, name, text)
        return self

    def add_file(self, path: str | Path) -> Evidence:
        """Adds a file by its extension: ``.json``, ``.csv``, anything else as text (UTF-8)."""
        path = Path(path)
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"the evidence {path} is not UTF-8 (invalid byte at offset {e.start})") from None
        suffix = path.suffix.lower()
        if suffix == ".json":
            return self.add_json(str(path), text)
        if suffix == ".csv":
            return self.add_csv(str(path), text)
        return self.add_text(str(path), text)

    @property
    def is_empty(self) -> bool:
        """No evidence at all (nothing added, or only blank text)."""
        return bool(self._native.is_empty())

    @property
    def numbers(self) -> int:
        """How many numbers the evidence states."""
        return int(self._native.numbers())

    @staticmethod
    def _call(method: Any, *args: Any) -> None:
        try:
            method(*args)
        except NativeError as native:
            raise from_native(native, {}) from None

    def __repr__(self) -> str:
        return f"Evidence(numbers={self.numbers})"


EvidenceLike = Evidence | str | Iterable[str]


def as_evidence(evidence: EvidenceLike, locale: str = "auto") -> Evidence:
    """``evidence`` as an :class:`Evidence` (a text or a list of texts is indexed once here)."""
    if isinstance(evidence, Evidence):
        return evidence
    return Evidence(evidence, locale=locale)  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class NumberExample:
    """A number of the answer with about 30 characters of context."""

    number: str
    context: str
    path: str
    """JSON Pointer to the string or number holding it (``""`` for a text answer)."""
    span: tuple[int, int]
    """Byte offsets in the answer text (for a JSON value, within the string at ``path``)."""
    subject: str | None = None
    """For a ``cross_variant_mix``: the subject the answer binds the number to (``"Variant A"``),
    as the evidence writes it."""
    evidence_subject: str | None = None
    """For a ``cross_variant_mix``: the subject the evidence gives the value to."""
    reason: str | None = None
    """Why the number is not grounded: ``wrong_subject``, ``wrong_sign``, ``wrong_unit``,
    ``wrong_currency``, ``percent_not_points``, ``fraction_not_percent``, ``label_not_measurement``, ``less_precise``, ``ambiguous_locale``,
    ``not_in_evidence``, ``not_read`` or ``no_evidence``."""


def _examples(raw: list[dict[str, Any]]) -> list[NumberExample]:
    return [
        NumberExample(
            e["number"],
            e["context"],
            e["path"],
            (e["span"]["start"], e["span"]["end"]),
            e.get("subject"),
            e.get("evidence_subject"),
            e.get("reason"),
        )
        for e in raw
    ]


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """The verification of one answer: what was checked and what failed, every number, and the text to
    deliver (the answer, or the blocking message when it failed closed)."""

    verified: bool
    issues: list[str]
    numbers_extracted: int
    matched: int
    unmatched: int
    skipped: int
    issue_types: list[str]
    unmatched_examples: list[NumberExample]
    ambiguous: list[NumberExample]
    numbers: list[dict[str, Any]]
    output: str
    fail_closed_reason: str | None
    fail_closed_stage: str | None
    diagnostics: dict[str, Any] = field(default_factory=dict)

    @property
    def fail_closed_triggered(self) -> bool:
        return self.fail_closed_reason is not None


def verify(
    answer: Any,
    evidence: EvidenceLike,
    *,
    locale: LocaleName = "auto",
    fail_closed: bool = True,
    language: Literal["en", "pt"] = "en",
    percent_fraction: bool | None = None,
    check_years: bool = False,
    small_counts: int = 10,
    max_size: int = DEFAULT_MAX_SIZE,
    request_id: str | None = None,
) -> VerifyResult:
    """Checks that every non-trivial number of ``answer`` (a text, or a JSON value: its strings
    and numbers) is in ``evidence``. Never raises for an ungrounded answer: the result says so,
    and its ``output`` is the blocking message (an ungrounded answer is not delivered; with
    ``fail_closed=False`` it is the answer)."""
    if percent_fraction is not None:
        warnings.warn(
            "percent_fraction is deprecated: a percentage and its fraction bound to the same "
            "claim are one quantity by default; percent_fraction=False keeps them apart",
            DeprecationWarning,
            stacklevel=2,
        )
    started = time.perf_counter()
    as_json = not isinstance(answer, str)
    text = json.dumps(answer) if as_json else answer
    ev = as_evidence(evidence, locale)
    try:
        output, reason, raw = _native_verify(
            text,
            ev._native,
            as_json=as_json,
            locale=locale,
            small_counts=small_counts,
            check_years=check_years,
            percent_fraction=percent_fraction,
            fail_closed=fail_closed,
            language=language,
            max_size=max_size,
        )
    except NativeError as native:
        raise from_native(native, blank_diagnostics(request_id, ["verify"])) from None
    v = json.loads(raw)
    if as_json and reason is None:
        output = answer
    result = VerifyResult(
        verified=v["verified"],
        issues=v["issues"],
        numbers_extracted=v["numbers_extracted"],
        matched=v["matched"],
        unmatched=v["unmatched"],
        skipped=v["skipped"],
        issue_types=v["issue_types"],
        unmatched_examples=_examples(v["unmatched_examples"]),
        ambiguous=_examples(v["ambiguous"]),
        numbers=v["numbers"],
        output=output,
        fail_closed_reason=reason,
        fail_closed_stage="verification" if reason else None,
    )
    d = blank_diagnostics(request_id, ["verify"])
    d["outcome"] = "verified" if result.verified else "not_verified"
    record_verification(d, result)
    d["latency_ms"] = (time.perf_counter() - started) * 1000
    result.diagnostics.update(d)
    return result


def blank_diagnostics(request_id: str | None, stages: list[str]) -> dict[str, Any]:
    """The diagnostics record before the call's outcome is known: every key of the documented
    record (docs/diagnostics.md; Rust's ``llmjson::Diagnostics``, which the CLI and Node write),
    in its order, with its values for "did not run"."""
    return {
        "request_id": request_id or str(uuid.uuid4()),
        "stages": stages,
        "outcome": None,
        "error": None,
        "failed_stage": None,
        "json_source": None,
        "json_span": None,
        "repairs": 0,
        "repairs_by_kind": {},
        "coercions": 0,
        "schema_errors": [],
        "dropped_items": [],
        "verification_passed": None,
        "verification_numbers_extracted": 0,
        "verification_matched": 0,
        "verification_unmatched": 0,
        "verification_issue_types": [],
        "verification_unmatched_examples": [],
        "fail_closed_triggered": False,
        "fail_closed_reason": None,
        "fail_closed_stage": None,
        "latency_ms": None,
    }


def _example_record(e: NumberExample) -> dict[str, Any]:
    """An unmatched number as the record writes it (Rust's ``NumberExample``): the optional
    fields only when they have a value."""
    record: dict[str, Any] = {"number": e.number, "context": e.context, "path": e.path}
    record["span"] = {"start": e.span[0], "end": e.span[1]}
    for key in ("subject", "evidence_subject", "reason"):
        value = getattr(e, key, None)
        if value is not None:
            record[key] = value
    return record


def record_verification(d: dict[str, Any], result: VerifyResult) -> None:
    d.update(
        verification_passed=result.verified,
        verification_numbers_extracted=result.numbers_extracted,
        verification_matched=result.matched,
        verification_unmatched=result.unmatched,
        verification_issue_types=list(result.issue_types),
        verification_unmatched_examples=[_example_record(e) for e in result.unmatched_examples],
        fail_closed_triggered=result.fail_closed_triggered,
        fail_closed_reason=result.fail_closed_reason,
        fail_closed_stage=result.fail_closed_stage,
    )
    if result.fail_closed_triggered:
        d["failed_stage"] = "verify"

"""The exceptions: one base class (a ``ValueError``, as ``json.JSONDecodeError`` is), one subclass
per reason a reply gave no usable JSON. Each carries the call's diagnostics."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "LLMJSONError",
    "NoJSONError",
    "EmptyResponseError",
    "BinaryInputError",
    "InputTooLargeError",
    "JSONParseError",
    "JSONRepairFailed",
    "JSONSchemaError",
    "SchemaViolation",
    "GroundingError",
    "InvalidSchemaError",
]


class LLMJSONError(ValueError):
    """No usable JSON came out of the reply.

    ``kind`` is a stable name for metrics (``no_json``, ``syntax``, ``schema``, ...);
    ``diagnostics`` is the same record a successful parse returns, with the failure's stage and
    reason; ``feedback`` is what a retry would tell the model.
    """

    kind: str
    diagnostics: dict[str, Any]
    feedback: str | None
    advice: str | None
    details: dict[str, Any]
    """What the native layer knows of the failure beyond the record (place, excerpt, the
    guard's figures, the failure envelope): kept here, so that ``diagnostics`` is the
    documented record, key for key the CLI's and Node's."""

    def __init__(
        self,
        message: str,
        *,
        kind: str = "error",
        diagnostics: dict[str, Any] | None = None,
        feedback: str | None = None,
        advice: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        # ValueError's own init: a subclass may also be a json.JSONDecodeError, whose init
        # wants (msg, doc, pos); `_DecodeError` fills those in itself.
        ValueError.__init__(self, message)
        self.message = message
        self.kind = kind
        self.diagnostics = diagnostics or {}
        self.feedback = feedback
        self.advice = advice
        self.details = details or {}

    @property
    def truncated(self) -> bool:
        """The reply was cut off (for example at the model's output token limit)."""
        return bool(self.details.get("truncated"))

    def envelope(self) -> dict[str, Any]:
        """The failure envelope, a record to log or return to a caller: ``{"status": "FAIL", "summary", "errors",
        "next_actions", "request_id"}`` (plus ``failure`` and ``feedback``). An escaping
        failure — a string holding an unescaped quote, a raw newline, a lone backslash — says
        so and names the escaping rule, read from the reply's own repair log."""
        envelope = dict(self.details.get("envelope") or {})
        if not envelope:
            envelope = {
                "status": "FAIL",
                "summary": self.message,
                "failure": self.kind,
                "errors": [self.message],
                "next_actions": [a for a in (self.advice,) if a],
                "feedback": self.feedback,
            }
        envelope["request_id"] = self.diagnostics.get("request_id") or ""
        return envelope


class _DecodeError(LLMJSONError, json.JSONDecodeError):
    """An error that is also a ``json.JSONDecodeError``: code written for ``json.loads`` (and
    json_repair users) catches it, and finds ``msg``, ``doc``, ``pos``, ``lineno``, ``colno``."""

    def __init__(self, message: str, **kwargs: Any) -> None:
        LLMJSONError.__init__(self, message, **kwargs)
        self.msg = message
        self.doc = ""
        self.pos = 0
        self.lineno = 1
        self.colno = 1

    def locate(self, doc: str, pos: int | None, lineno: int | None, colno: int | None) -> None:
        """Where in ``doc`` (the reply) the error is: character offset, 1-based line and column."""
        self.doc = doc
        self.pos = pos if pos is not None else 0
        self.lineno = lineno or doc.count("\n", 0, self.pos) + 1
        self.colno = colno or self.pos - (doc.rfind("\n", 0, self.pos) + 1) + 1

    def __reduce__(self) -> Any:
        return (type(self), (self.message,), self.__dict__)

    def __str__(self) -> str:
        return self.message


class NoJSONError(_DecodeError):
    """The reply holds no JSON at all."""


class EmptyResponseError(NoJSONError):
    """The reply is empty or only whitespace (a kind of "no JSON", told apart)."""


class BinaryInputError(NoJSONError):
    """The input is not text: it holds a NUL byte, or a third or more of its bytes are not
    UTF-8 (a file of another kind, read by mistake). Refused before any parsing."""


class InputTooLargeError(LLMJSONError):
    """The reply is over the size limit; it was refused before any parsing."""


class JSONParseError(_DecodeError):
    """The JSON has a defect the repair level does not repair (or nests too deep, repeats a key
    under ``duplicate_keys="error"``, ...). ``line`` and ``column`` are 1-based; ``excerpt`` is
    the line with a caret under the spot."""

    @property
    def line(self) -> int | None:
        line = self.details.get("line")
        return int(line) if line is not None else None

    @property
    def column(self) -> int | None:
        column = self.details.get("column")
        return int(column) if column is not None else None

    @property
    def excerpt(self) -> str | None:
        excerpt = self.details.get("excerpt")
        return str(excerpt) if excerpt is not None else None


class JSONRepairFailed(_DecodeError):
    """The repair would discard more of the JSON text than the safety guard allows."""

    @property
    def removed_share(self) -> float:
        return float(self.details.get("removed_share", 0.0))


class InvalidSchemaError(LLMJSONError):
    """The schema given is not a valid JSON Schema: the caller's bug, raised before any parse
    (and before any model call in ``parse_with_retries``)."""


class GroundingError(LLMJSONError):
    """The answer's numbers are not grounded in the evidence and the call fails closed.

    ``result`` is the verification (which numbers, with context); ``message`` the blocking
    message (in the chosen language); ``reason`` is ``numeric_grounding_failed``,
    ``cross_variant_mix`` (every ungrounded number is another subject's value) or ``no_evidence``.
    """

    def __init__(self, message: str, *, result: Any, diagnostics: dict[str, Any]) -> None:
        super().__init__(message, kind="grounding", diagnostics=diagnostics)
        self.result = result
        self.reason: str = result.fail_closed_reason or "numeric_grounding_failed"


@dataclass(frozen=True, slots=True)
class SchemaViolation:
    """One way the value does not fit the schema (or the Pydantic model)."""

    path: str
    """JSON Pointer of the value at fault (``""`` is the root)."""
    keyword: str
    """The schema keyword (``type``, ``enum``, ...) or Pydantic's error type."""
    message: str
    """What is wrong, in words that can be sent back to the model."""

    def __str__(self) -> str:
        return f"{self.path or '(root)'}: {self.message}"


class JSONSchemaError(LLMJSONError):
    """The JSON was found (and repaired) but does not fit the schema or the model.
    ``errors`` lists every violation; ``value`` is the value that was checked."""

    errors: list[SchemaViolation]
    value: Any

    def __init__(
        self,
        message: str,
        *,
        errors: list[SchemaViolation],
        value: Any = None,
        kind: str = "schema",
        diagnostics: dict[str, Any] | None = None,
        feedback: str | None = None,
        advice: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(
            message, kind=kind, diagnostics=diagnostics, feedback=feedback, advice=advice, details=details
        )
        self.errors = errors
        self.value = value


_BY_KIND: dict[str, type[LLMJSONError]] = {
    "empty": EmptyResponseError,
    "no_json": NoJSONError,
    "binary": BinaryInputError,
    "too_large": InputTooLargeError,
    "syntax": JSONParseError,
    "too_deep": JSONParseError,
    "duplicate_key": JSONParseError,
    "invalid_utf8": JSONParseError,
    "repair_rejected": JSONRepairFailed,
    "invalid_schema": InvalidSchemaError,
}


def from_native(error: BaseException, diagnostics: dict[str, Any], doc: str | None = None) -> LLMJSONError:
    """The native module's ``NativeError(kind, message, details)`` as the matching exception."""
    kind, message, details = error.args
    diagnostics["outcome"] = kind
    diagnostics["error"] = message
    feedback = details.get("feedback")
    advice = details.get("advice")
    if kind == "schema":
        violations = [SchemaViolation(p, k, m) for (p, k, m) in details.get("errors", [])]
        diagnostics["schema_errors"] = [str(v) for v in violations]
        return JSONSchemaError(
            message,
            errors=violations,
            value=details.get("value"),
            diagnostics=diagnostics,
            feedback=feedback,
            advice=advice,
            details=details,
        )
    cls = _BY_KIND.get(kind, LLMJSONError)
    result = cls(message, kind=kind, diagnostics=diagnostics, feedback=feedback, advice=advice, details=details)
    if isinstance(result, _DecodeError) and doc is not None:
        offset = details.get("offset")
        pos = len(doc.encode("utf-8")[:offset].decode("utf-8", "ignore")) if offset is not None else 0
        result.locate(doc, pos, details.get("line") or None, details.get("column") or None)
    return result

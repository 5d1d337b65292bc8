"""The exceptions: one base class (a ``ValueError``, as ``json.JSONDecodeError`` is), one subclass
per reason a reply gave no usable JSON. Each carries the call's diagnostics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "LLMJSONError",
    "NoJSONError",
    "EmptyResponseError",
    "InputTooLargeError",
    "JSONParseError",
    "JSONRepairFailed",
    "JSONSchemaError",
    "SchemaViolation",
    "GroundingError",
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

    def __init__(
        self,
        message: str,
        *,
        kind: str = "error",
        diagnostics: dict[str, Any] | None = None,
        feedback: str | None = None,
        advice: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.diagnostics = diagnostics or {}
        self.feedback = feedback
        self.advice = advice

    @property
    def truncated(self) -> bool:
        """The reply was cut off (for example at the model's output token limit)."""
        return bool(self.diagnostics.get("truncated"))


class NoJSONError(LLMJSONError):
    """The reply holds no JSON at all."""


class EmptyResponseError(NoJSONError):
    """The reply is empty or only whitespace (a kind of "no JSON", told apart)."""


class InputTooLargeError(LLMJSONError):
    """The reply is over the size limit; it was refused before any parsing."""


class JSONParseError(LLMJSONError):
    """The JSON has a defect the repair level does not repair (or nests too deep, repeats a key
    under ``duplicate_keys="error"``, ...). ``line`` and ``column`` are 1-based; ``excerpt`` is
    the line with a caret under the spot."""

    @property
    def line(self) -> int | None:
        line = self.diagnostics.get("line")
        return int(line) if line is not None else None

    @property
    def column(self) -> int | None:
        column = self.diagnostics.get("column")
        return int(column) if column is not None else None

    @property
    def excerpt(self) -> str | None:
        excerpt = self.diagnostics.get("excerpt")
        return str(excerpt) if excerpt is not None else None


class JSONRepairFailed(LLMJSONError):
    """The repair would discard more of the JSON text than the safety guard allows."""

    @property
    def removed_share(self) -> float:
        return float(self.diagnostics.get("removed_share", 0.0))


class GroundingError(LLMJSONError):
    """The answer's numbers are not grounded in the evidence and the call fails closed.

    ``result`` is the verification (which numbers, with context); ``message`` the blocking
    message (seed 004's text in the chosen language); ``reason`` is ``numeric_grounding_failed``
    or ``no_evidence``.
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
    ) -> None:
        super().__init__(
            message, kind=kind, diagnostics=diagnostics, feedback=feedback, advice=advice
        )
        self.errors = errors
        self.value = value


_BY_KIND: dict[str, type[LLMJSONError]] = {
    "empty": EmptyResponseError,
    "no_json": NoJSONError,
    "too_large": InputTooLargeError,
    "syntax": JSONParseError,
    "too_deep": JSONParseError,
    "duplicate_key": JSONParseError,
    "invalid_utf8": JSONParseError,
    "repair_rejected": JSONRepairFailed,
    "invalid_schema": LLMJSONError,
}


def from_native(error: BaseException, diagnostics: dict[str, Any]) -> LLMJSONError:
    """The native module's ``NativeError(kind, message, details)`` as the matching exception."""
    kind, message, details = error.args
    diagnostics.update(details)
    diagnostics["outcome"] = kind
    feedback = details.get("feedback")
    advice = details.get("advice")
    if kind == "schema":
        violations = [SchemaViolation(p, k, m) for (p, k, m) in details.get("errors", [])]
        diagnostics["errors"] = [str(v) for v in violations]
        value = diagnostics.pop("value", None)
        return JSONSchemaError(
            message,
            errors=violations,
            value=value,
            diagnostics=diagnostics,
            feedback=feedback,
            advice=advice,
        )
    cls = _BY_KIND.get(kind, LLMJSONError)
    return cls(message, kind=kind, diagnostics=diagnostics, feedback=feedback, advice=advice)

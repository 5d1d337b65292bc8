"""The native module (Rust, PyO3). Use the ``llmjson`` package's API instead."""

from typing import Any, final

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_SIZE",
    "feedback_message",
    "is_valid_document",
    "NativeError",
    "Schema",
    "__version__",
    "parse",
    "repair_kinds",
    "schema_feedback",
    "truncation_feedback",
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

def parse(
    text: str,
    *,
    level: str = "full",
    truncation: str = "complete",
    max_removed_ratio: float = 0.3,
    max_size: int = ...,
    max_depth: int = ...,
    duplicate_keys: str = "last",
    schema: Schema | None = None,
    coercion: str = "fit",
    with_repairs: bool = True,
    all: bool = False,
) -> tuple[
    Any,
    list[tuple[str, int, int, int, int, str, str]],
    tuple[int, int],
    str,
    int,
    int,
    int,
]: ...
def repair_kinds() -> list[str]: ...
def is_valid_document(text: str) -> bool: ...
def schema_feedback(violations: list[str]) -> str: ...
def feedback_message(attempt: int, budget: int, body: str, repeated: bool) -> str: ...
def truncation_feedback() -> tuple[str, str | None]: ...

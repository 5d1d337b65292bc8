"""Retry with feedback, as the Rust retry loop does it: the generator is called with ``None``,
then with feedback built from the previous reply's own errors (numbered, so never the same text
twice); a reply cut off by the token limit gets advice to raise the limit or ask for less."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from . import metrics
from ._llmjson import feedback_message, truncation_feedback
from .errors import LLMJSONError

if TYPE_CHECKING:
    from . import ParseResult

__all__ = ["parse_with_retries", "parse_with_retries_async", "Attempt", "RetriesExhausted"]


@dataclass(frozen=True, slots=True)
class Attempt:
    """One attempt: the reply, and (if it failed) the error and the feedback sent about it."""

    reply: str
    error: LLMJSONError | None = None
    feedback: str | None = None


class RetriesExhausted(LLMJSONError):
    """Every attempt in the budget failed. ``attempts`` holds each reply, error and feedback;
    ``last_reply`` is the model's last answer."""

    def __init__(self, attempts: list[Attempt]) -> None:
        last = attempts[-1].error if attempts else None
        super().__init__(
            f"no usable JSON after {len(attempts)} attempts; last: {last}",
            kind="retries_exhausted",
            diagnostics=dict(last.diagnostics) if last else {},
            feedback=attempts[-1].feedback if attempts else None,
            advice=last.advice if last else None,
        )
        self.attempts = attempts

    @property
    def last_reply(self) -> str | None:
        return self.attempts[-1].reply if self.attempts else None

    @property
    def errors(self) -> list[LLMJSONError]:
        return [a.error for a in self.attempts if a.error is not None]


@dataclass
class _Loop:
    """The loop's bookkeeping, shared by the sync and async drivers."""

    budget: int
    options: dict[str, Any]
    attempts: list[Attempt] = field(default_factory=list)
    previous_failure: str | None = None

    def feedback(self) -> str | None:
        return self.attempts[-1].feedback if self.attempts else None

    def judge(self, reply: Any) -> "ParseResult[Any] | None":
        """Parses one reply; on failure records the attempt with its feedback and returns None."""
        from . import parse

        number = len(self.attempts) + 1
        text, hit_limit = _reply_text(reply)
        try:
            result = parse(text, **self.options)
        except LLMJSONError as error:
            failure = str(error.details.get("failure", error.kind))
            body = error.feedback or f"Your reply could not be used: {error}."
            if hit_limit:
                failure = "truncated"
                body, advice = truncation_feedback()
                error.advice = advice
            message = feedback_message(number, self.budget, body, self.previous_failure == failure)
            self.previous_failure = failure
            self.attempts.append(Attempt(text, error, message))
            return None
        self.attempts.append(Attempt(text))
        result.diagnostics["attempts"] = len(self.attempts)
        return result


def _check_schema(model: Any, schema: Any) -> None:
    """An invalid schema is the caller's bug: ``InvalidSchemaError`` now, before any model call
    (the model cannot fix it, and every attempt would be spent telling it so)."""
    from . import _schema_of

    _schema_of(schema if schema is not None else model)


def _reply_text(reply: Any) -> tuple[str, bool]:
    """A reply is a ``str``, or ``(text, hit_token_limit)`` when the caller knows the model
    stopped at its output limit (``finish_reason == "length"``)."""
    if isinstance(reply, tuple):
        text, hit_limit = reply
        return str(text), bool(hit_limit)
    return str(reply), False


def parse_with_retries(
    generate: Callable[[str | None], Any],
    *,
    model: Any = None,
    schema: Any = None,
    max_retries: int = 2,
    **options: Any,
) -> "ParseResult[Any]":
    """Calls ``generate(feedback)`` until its reply parses (and fits ``model``/``schema``), at
    most ``1 + max_retries`` times. ``generate`` gets ``None`` first, then the feedback about
    the previous reply; it returns the reply text, or ``(text, hit_token_limit)``.

    Returns the ``ParseResult`` (``diagnostics["attempts"]`` says how many it took); raises
    ``RetriesExhausted`` with every attempt when the budget runs out.
    """
    _check_schema(model, schema)
    loop = _Loop(budget=1 + max(0, max_retries), options=dict(options, model=model, schema=schema))
    for number in range(loop.budget):
        if number > 0:
            metrics.record_retry()
        result = loop.judge(generate(loop.feedback()))
        if result is not None:
            return result
    raise RetriesExhausted(loop.attempts)


async def parse_with_retries_async(
    generate: Callable[[str | None], Awaitable[Any]],
    *,
    model: Any = None,
    schema: Any = None,
    max_retries: int = 2,
    **options: Any,
) -> "ParseResult[Any]":
    """``parse_with_retries`` for an ``async def generate(feedback)``."""
    _check_schema(model, schema)
    loop = _Loop(budget=1 + max(0, max_retries), options=dict(options, model=model, schema=schema))
    for number in range(loop.budget):
        if number > 0:
            metrics.record_retry()
        reply = generate(loop.feedback())
        if inspect.isawaitable(reply):
            reply = await reply
        result = loop.judge(reply)
        if result is not None:
            return result
    raise RetriesExhausted(loop.attempts)

"""Replies in a Polars DataFrame parsed where they are: ``import llmjson.polars`` registers the
expression namespace ``llmjson``.

>>> import polars as pl                                             # doctest: +SKIP
>>> import llmjson.polars                                           # doctest: +SKIP
>>> df.with_columns(pl.col("reply").llmjson.parse(schema=Plan))     # doctest: +SKIP

``pl.col("reply").llmjson.parse(...)`` is a struct column named ``llmjson`` (added beside the
replies; ``.alias`` renames it) with the fields of :mod:`llmjson.arrow`: ``value`` (the value as
JSON text; with a ``schema`` that maps to a column type, that type, and the text as ``json``),
``outcome``, ``repairs`` (``kind``, ``path``, ``start``, ``end``) and ``diagnostics`` (JSON
text). ``.struct.unnest()`` spreads them into columns. ``.llmjson.outcome()`` and
``.llmjson.repair()`` are the outcome (``llmjson_outcome``) and the value's JSON text
(``llmjson_json``) alone. A null reply is a null struct (null in the others).

Each batch Polars hands the expression is one call of the Arrow kernel: the column's buffers go
to Rust as they are, the parse runs with the GIL released on ``threads`` cores (default: Polars'
thread pool), and the result comes back as Arrow buffers — no Python object per row. The
expression is elementwise, so it runs in lazy plans and the streaming engine
(``pl.scan_ndjson(...).with_columns(...)``) and Polars may split the column across batches.
Replies may be a string or a binary column (bytes that are not UTF-8 are read as
:func:`llmjson.parse` reads them); a bad row gives its outcome in its row, never an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Unpack

import polars as pl

from . import _schema_of, arrow

__all__ = ["LLMJSONNamespace", "dtype"]

NAME = "llmjson"
"""The name of the struct column :meth:`LLMJSONNamespace.parse` makes."""


def dtype(schema: Any = None, *, typed: bool = True) -> pl.DataType:
    """The Polars type of :meth:`LLMJSONNamespace.parse`'s struct column with this schema."""
    return _dtype(arrow.typed(schema) if typed and schema is not None else None)


def _dtype(typed_as: arrow.Typed | None) -> pl.DataType:
    empty = arrow._pa().array([], type=arrow.result_type(typed_as, large=True))
    kind: pl.DataType = pl.Series(NAME, empty).dtype
    return kind


class _Parser:
    """What Polars calls for each batch: the replies (and the evidence) of one batch, one call
    of the kernel, a struct Series back."""

    def __init__(self, schema: Any, typed_as: arrow.Typed | None, threads: int | None, options: dict[str, Any]):
        self.schema = schema
        self.typed_as = typed_as
        self.threads = threads
        self.options = options

    def __call__(self, series: Sequence[pl.Series]) -> pl.Series:
        replies = series[0].to_arrow(compat_level=pl.CompatLevel.oldest())
        evidence = series[1].to_arrow(compat_level=pl.CompatLevel.oldest()) if len(series) > 1 else None
        result = arrow.parse_struct(
            replies,
            evidence=evidence,
            schema=self.schema,
            typed_as=self.typed_as,
            threads=self.threads or pl.thread_pool_size(),
            large=True,
            **self.options,
        )
        return pl.Series(NAME, result)


@pl.api.register_expr_namespace("llmjson")
class LLMJSONNamespace:
    """``pl.col(...).llmjson``: replies parsed, validated and verified as :func:`llmjson.parse`
    does, as a column."""

    def __init__(self, expr: pl.Expr):
        self._expr = expr

    def parse(
        self,
        *,
        schema: Any = None,
        evidence: pl.Expr | str | None = None,
        typed: bool = True,
        threads: int | None = None,
        **options: Unpack[arrow.Options],
    ) -> pl.Expr:
        """The replies parsed: a struct column ``llmjson`` (see the module's documentation).

        ``schema`` (a JSON Schema dict or text, an :class:`llmjson.Schema`, or a Pydantic
        model class) fits and validates every value, as :func:`llmjson.parse` does; when it
        maps to a column type (:mod:`llmjson.arrow`) and ``typed`` is true, ``value`` is that
        type and ``json`` the text. ``evidence`` (an expression or a column name: a string, or
        a list of strings, per row) verifies the value's numbers against it (``fail_closed``,
        ``locale`` as in :func:`llmjson.parse`). The other options are :func:`llmjson.parse`'s
        (:class:`llmjson.arrow.Options`). Options and schema are checked here, before any row
        is parsed.
        """
        checked = arrow.options(**options)
        compiled = _schema_of(schema)
        typed_as = arrow.typed(schema) if typed and schema is not None else None
        inputs: list[pl.Expr] = [self._expr]
        if evidence is not None:
            inputs.append(pl.col(evidence) if isinstance(evidence, str) else evidence)
        return pl.map_batches(
            inputs,
            _Parser(compiled, typed_as, threads, checked),
            return_dtype=_dtype(typed_as),
            is_elementwise=True,
        ).alias(NAME)

    def outcome(self, *, schema: Any = None, evidence: pl.Expr | str | None = None, **options: Unpack[arrow.Options]) -> pl.Expr:
        """The replies' outcomes alone (``ok``, ``repaired``, or the failure's kind), as
        ``llmjson_outcome``; takes :meth:`parse`'s options."""
        parsed = self.parse(schema=schema, evidence=evidence, typed=False, **options)
        return parsed.struct.field("outcome").alias("llmjson_outcome")

    def repair(self, *, schema: Any = None, evidence: pl.Expr | str | None = None, **options: Unpack[arrow.Options]) -> pl.Expr:
        """The repaired values as JSON text alone (null where the reply gave none), as
        ``llmjson_json``; takes :meth:`parse`'s options but ``typed``."""
        parsed = self.parse(schema=schema, evidence=evidence, typed=False, **options)
        return parsed.struct.field("value").alias("llmjson_json")

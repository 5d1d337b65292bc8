"""Replies in a Spark DataFrame parsed where they are: ``parse_column(df, "reply")``, or the
column function ``parse("reply")`` inside any ``select``/``withColumn``.

Each Arrow batch Spark hands a Python worker is one native call: the column's buffers go to Rust
as they are, the parse runs with the GIL released, and the result columns come back as Arrow
buffers. No Python object is made per row. ``parse_column`` runs through ``mapInArrow``
(PySpark 3.3 or later); ``parse`` is an Arrow UDF (PySpark 4.1 or later), which measured about
5% slower than ``mapInArrow`` on the same job (docs/benchmarks.md). PySpark and pyarrow are
imported only when a function here is called: ``import llmjson`` never needs them.

>>> from llmjson.spark import parse_column                         # doctest: +SKIP
>>> parsed = parse_column(df, "reply", schema=Plan)                # doctest: +SKIP
>>> parsed.groupBy("llmjson_outcome").count().show()               # doctest: +SKIP

The columns added:

``llmjson_value``
    The value as JSON text (null when the reply gave none); with a ``schema`` that maps to a
    Spark type (:func:`spark_type`), a struct (or array, or map) of that type, read from the
    JSON text by Spark's ``from_json``, and the text is kept beside it as ``llmjson_json``.
``llmjson_outcome``
    The reply's outcome, named as every door names it (``llmjson batch``'s ``outcome``, the
    diagnostics record's, the error's ``kind``): ``ok``, ``repaired``, or the failure's kind
    (``empty``, ``no_json``, ``binary``, ``syntax``, ``repair_rejected``, ``schema``,
    ``grounding``, …; the table is in docs/diagnostics.md).
``llmjson_repairs``
    Every repair made: an array of structs ``kind``, ``path`` (a JSON Pointer), ``start`` and
    ``end`` (the span in the reply, in bytes).
``llmjson_diagnostics``
    The pipeline's diagnostics record as JSON text (what ``llmjson batch`` writes in its
    ``diagnostics`` field; see docs/diagnostics.md), the error's kind, message and place
    included.

A null reply gives nulls in every column. Executors count nothing in :mod:`llmjson.metrics` (the
counters of a worker process are not the driver's): the outcome column is the count.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from . import _schema_of
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE
from .arrow import Kinds, map_schema, parse_array, whole
from .arrow import parse_batch as _parse_batch
from .arrow import options as options_of
from .arrow import schema_text as _schema_text

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pyspark.sql import Column, DataFrame  # type: ignore[import-not-found, unused-ignore]
    from pyspark.sql.types import DataType  # type: ignore[import-not-found, unused-ignore]


def _module(name: str) -> Any:
    """pyarrow or a PySpark module, imported when first needed (both are optional, and neither
    ships types that fit every version in use)."""
    return importlib.import_module(name)

__all__ = ["parse_column", "parse", "parse_batch", "parse_array", "spark_type", "COLUMNS"]

VALUE = "llmjson_value"
JSON = "llmjson_json"
OUTCOME = "llmjson_outcome"
REPAIRS = "llmjson_repairs"
DIAGNOSTICS = "llmjson_diagnostics"
COLUMNS = (VALUE, OUTCOME, REPAIRS, DIAGNOSTICS)
"""The columns :func:`parse_column` adds (and ``llmjson_json`` with a typed value)."""

_FIELDS = ("value", "outcome", "repairs", "diagnostics")
_REPAIRS_DDL = "array<struct<kind: string, path: string, start: bigint, end: bigint>>"
_RESULT_DDL = f"struct<value: string, outcome: string, repairs: {_REPAIRS_DDL}, diagnostics: string>"


def _options(**options: Any) -> dict[str, Any]:
    """The parse options, checked (on the driver, so that a bad one fails before any job)."""
    return options_of(**options)


def _has_arrow_udf() -> bool:
    return hasattr(_module("pyspark.sql.functions"), "arrow_udf")  # PySpark 4.1 or later


def parse(column: str | Column, *, evidence: str | Column | None = None, schema: Any = None, **options: Any) -> Column:
    """A column function: the replies of ``column`` parsed, as a struct column ``value`` (JSON
    text), ``outcome``, ``repairs`` and ``diagnostics`` (what the columns of
    :func:`parse_column` hold). ``df.withColumn("parsed", parse("reply"))``. ``evidence``,
    ``schema`` and the options are :func:`parse_column`'s. Needs PySpark 4.1 or later (an
    Arrow UDF); on older ones use :func:`parse_column`.
    """
    udf = _udf(_schema_text(schema), _options(**options))
    result: Column = udf(column) if evidence is None else udf(column, evidence)
    return result


def _udf(schema_text: str | None, options: dict[str, Any]) -> Any:
    """The Arrow UDF that parses a batch's replies into the result struct."""
    if not _has_arrow_udf():
        raise RuntimeError("this needs PySpark 4.1 or later (arrow_udf); parse_column(method='map') does not")
    import warnings

    functions = _module("pyspark.sql.functions")
    with warnings.catch_warnings():
        # PySpark prefers type hints to the UDF type; a callable's hints are not read.
        warnings.simplefilter("ignore", UserWarning)
        return functions.arrow_udf(
            _ArrayParser(schema_text, options),
            returnType=_RESULT_DDL,
            functionType=functions.ArrowUDFType.SCALAR,
        )


def parse_column(
    df: DataFrame,
    column: str,
    *,
    schema: Any = None,
    evidence: str | None = None,
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
    fail_closed: bool = True,
    locale: str = "auto",
    typed: bool = True,
    method: Literal["map", "udf"] = "map",
) -> DataFrame:
    """``df`` with the replies of ``column`` (a string or binary column) parsed: the columns
    ``llmjson_value``, ``llmjson_outcome``, ``llmjson_repairs`` and ``llmjson_diagnostics`` added
    after ``df``'s own (see the module's documentation).

    ``schema`` (a JSON Schema dict or text, an :class:`llmjson.Schema`, or a Pydantic model
    class) fits and validates every value, as :func:`llmjson.parse` does; when it maps to a
    Spark type (:func:`spark_type`) and ``typed`` is true, ``llmjson_value`` comes back as that
    type and the JSON text as ``llmjson_json``. ``evidence`` names a column holding each row's
    evidence (a string, or an array of strings): the value's numbers are verified against it
    (``fail_closed``, ``locale`` as in :func:`llmjson.parse`). The other options are
    :func:`llmjson.parse`'s. ``method``: ``map`` (``mapInArrow``, PySpark 3.3 or later; every
    column of a row crosses to Python and back) or ``udf`` (the Arrow UDF of :func:`parse`,
    PySpark 4.1 or later; only the replies cross, but Spark joins the results back to the rows,
    which measured slower). Nothing runs until Spark runs the plan.
    """
    F, T = _module("pyspark.sql.functions"), _module("pyspark.sql.types")

    checked = _options(
        level=level,
        truncation=truncation,
        max_removed_ratio=max_removed_ratio,
        guard_comments=guard_comments,
        latex=latex,
        invalid_items=invalid_items,
        max_size=max_size,
        max_depth=max_depth,
        duplicate_keys=duplicate_keys,
        coercion=coercion,
        fail_closed=fail_closed,
        locale=locale,
    )
    schema_text = _schema_text(schema)
    names = df.schema.names
    for name, wanted in ((column, "the replies"), (evidence, "the evidence")):
        if name is not None and name not in names:
            raise ValueError(f"{wanted} column {name!r} is not in the DataFrame ({names})")
    kind = df.schema[column].dataType
    if not isinstance(kind, (T.StringType, T.BinaryType)):
        raise TypeError(f"the replies column {column!r} must be string or binary, not {kind.simpleString()}")
    taken = [c for c in (*COLUMNS, JSON) if c in names]
    if taken:
        raise ValueError(f"the DataFrame already has {taken}: rename them first")
    own = [F.col(f"`{n}`") for n in names]
    if method == "udf":
        udf = _udf(schema_text, checked)
        result = udf(F.col(f"`{column}`")) if evidence is None else udf(F.col(f"`{column}`"), F.col(f"`{evidence}`"))
        # One projection holds the UDF, the next reads its fields: Spark evaluates it once.
        hidden = "__llmjson_result"
        parsed = df.select(*own, result.alias(hidden)).select(
            *own, *[F.col(f"{hidden}.{field}").alias(name) for field, name in zip(_FIELDS, COLUMNS)]
        )
    elif method == "map":
        if not hasattr(df, "mapInArrow"):
            raise RuntimeError("llmjson.spark needs PySpark 3.3 or later (DataFrame.mapInArrow)")
        out_schema = T.StructType(
            [
                *df.schema.fields,
                T.StructField(VALUE, T.StringType()),
                T.StructField(OUTCOME, T.StringType()),
                T.StructField(REPAIRS, T._parse_datatype_string(_REPAIRS_DDL)),
                T.StructField(DIAGNOSTICS, T.StringType()),
            ]
        )
        parsed = df.mapInArrow(_BatchParser(column, evidence, schema_text, checked), out_schema)
    else:
        raise ValueError(f"method must be map or udf; got {method!r}")
    value_type = spark_type(schema) if typed else None
    if value_type is None:
        return parsed
    return parsed.select(
        *own,
        F.from_json(F.col(VALUE), value_type).alias(VALUE),
        F.col(VALUE).alias(JSON),
        F.col(OUTCOME),
        F.col(REPAIRS),
        F.col(DIAGNOSTICS),
    )


class _ArrayParser:
    """What each Python worker runs for the Arrow UDF: the replies (and the evidence) of one
    Arrow batch, one native call, a struct array back. Holds only plain data, so that Spark
    can pickle it to the executors."""

    def __init__(self, schema: str | None, options: dict[str, Any]):
        self.schema = schema
        self.options = options

    def __call__(self, replies: Any, evidence: Any = None) -> pa.Array:
        pa = _module("pyarrow")

        arrays = parse_array(
            whole(replies),
            evidence=None if evidence is None else whole(evidence),
            schema=_schema_of(self.schema),
            threads=_task_cpus(),
            **self.options,
        )
        return pa.StructArray.from_arrays(arrays, names=list(_FIELDS))


class _BatchParser:
    """What each Python worker runs for ``mapInArrow``: every Arrow batch of a partition, one
    native call each. Holds only plain data, so that Spark can pickle it to the executors."""

    def __init__(self, column: str, evidence: str | None, schema: str | None, options: dict[str, Any]):
        self.column = column
        self.evidence = evidence
        self.schema = schema
        self.options = options

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        compiled = _schema_of(self.schema)  # compiled once per worker process (cached)
        threads = _task_cpus()
        for batch in batches:
            yield parse_batch(
                batch,
                self.column,
                evidence=self.evidence,
                schema=compiled,
                threads=threads,
                **self.options,
            )


def _task_cpus() -> int:
    """The cores Spark gave this task (``spark.task.cpus``): the native call uses that many."""
    try:
        context = _module("pyspark").TaskContext.get()
        return max(1, int(context.cpus())) if context is not None else 1
    except Exception:  # pragma: no cover - an old PySpark without TaskContext.cpus
        return 1


def parse_batch(
    batch: pa.RecordBatch,
    column: str,
    *,
    evidence: str | None = None,
    schema: Any = None,
    threads: int = 1,
    **options: Any,
) -> pa.RecordBatch:
    """One Arrow record batch with its ``column`` parsed: the batch's columns and the four of
    :func:`parse_column` (``llmjson_value`` as JSON text). Usable on its own with any Arrow
    source (a Parquet file read with pyarrow, say); the options are :func:`parse_column`'s.
    The kernel is :mod:`llmjson.arrow`'s, as Polars' and DuckDB's are."""
    return _parse_batch(batch, column, evidence=evidence, schema=schema, threads=threads, names=COLUMNS, **options)


def spark_type(schema: Any) -> DataType | None:
    """The Spark type a JSON Schema's values map to, or None when they do not map (the value
    then stays JSON text). ``schema`` is a JSON Schema dict (or anything :func:`llmjson.parse`
    takes as one).

    What maps: at the root an object (``properties`` → a struct whose fields are nullable, in
    the schema's order; ``additionalProperties`` with a schema and no ``properties`` → a map
    from string) or an array (``items`` → an array); inside them also ``string`` (enums and
    formats included) → string, ``integer`` → bigint, ``number`` → double, ``boolean`` →
    boolean. ``$ref`` to ``$defs``/``definitions`` (Pydantic's nested models) is followed, and
    ``["T", "null"]``, ``anyOf``/``oneOf`` of one type and null (Pydantic's ``Optional``) and
    a one-item ``allOf`` read as that type. Anything else inside a struct (a union of types, a
    recursive model, a schema with no type) becomes a string field holding that part's JSON
    text, so that no value is lost. A scalar at the root does not map.
    """
    T = _module("pyspark.sql.types")

    if schema is None:
        return None
    mapped = map_schema(
        schema,
        Kinds(
            text=T.StringType(),
            string=T.StringType(),
            integer=T.LongType(),
            number=T.DoubleType(),
            boolean=T.BooleanType(),
            list_of=lambda item: T.ArrayType(item, True),
            struct_of=lambda fields: T.StructType([T.StructField(name, kind, True) for name, kind in fields]),
            map_of=lambda value: T.MapType(T.StringType(), value, True),
        ),
    )
    return mapped if isinstance(mapped, (T.StructType, T.ArrayType, T.MapType)) else None

"""Replies in DuckDB parsed in SQL: ``llmjson.duckdb.register(con)`` adds the functions.

>>> import duckdb, llmjson.duckdb                                   # doctest: +SKIP
>>> con = llmjson.duckdb.register(duckdb.connect())                 # doctest: +SKIP
>>> con.sql("SELECT llmjson_parse(reply).outcome FROM read_json_auto('replies.jsonl')")  # doctest: +SKIP

The functions (``reply`` a ``VARCHAR`` or a ``BLOB``; bytes that are not UTF-8 are read as
:func:`llmjson.parse` reads them):

``llmjson_parse(reply [, schema [, evidence]])``
    A struct: ``value`` (the value as JSON text, null when the reply gave none), ``outcome``
    (``ok``, ``repaired``, or the failure's kind), ``repairs`` (a list of ``kind``, ``path``,
    ``start``, ``end``) and ``diagnostics`` (the pipeline's record as JSON text). ``schema``
    (JSON Schema text) fits and validates the value as :func:`llmjson.parse` does;
    ``evidence`` (a text) verifies its numbers.
``llmjson_outcome(reply [, schema])``
    The outcome alone.
``llmjson_repair(reply)``
    The value's JSON text alone (null when the reply gave none).
``llmjson_parse_NAME(reply [, evidence])``
    For each ``NAME: schema`` of ``register(con, schemas=...)``: ``llmjson_parse``'s struct
    with ``value`` typed as the schema maps (:mod:`llmjson.arrow`: structs, lists, ``VARCHAR``,
    ``BIGINT``, ``DOUBLE``, ``BOOLEAN``, and JSON text where a part does not map) and the text
    as ``json``. A function's return type is fixed when it is made, so a typed value needs its
    schema at ``register``.

Each batch DuckDB hands a function (2,048 rows) is one call of the Arrow kernel, the GIL
released while it parses; DuckDB runs batches on its threads. A null reply gives null; a bad
row (binary, too large, not JSON) gives its outcome in its row, never a failed query.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Unpack

import duckdb
from duckdb.func import FunctionNullHandling, PythonUDFType

from . import _schema_of, arrow

__all__ = ["register"]

_REPLY = "UNION(text VARCHAR, bytes BLOB)"
_REPAIRS = 'STRUCT(kind VARCHAR, path VARCHAR, "start" BIGINT, "end" BIGINT)[]'


def _result(value: str, typed: bool) -> str:
    json = ", json VARCHAR" if typed else ""
    return f"STRUCT(value {value}{json}, outcome VARCHAR, repairs {_REPAIRS}, diagnostics VARCHAR)"


def register(
    con: duckdb.DuckDBPyConnection | None = None,
    *,
    schemas: Mapping[str, Any] | None = None,
    threads: int = 1,
    **options: Unpack[arrow.Options],
) -> duckdb.DuckDBPyConnection:
    """Adds the functions (see the module's documentation) to ``con`` (default: DuckDB's
    default connection) and returns it. ``schemas`` maps names to schemas (a JSON Schema dict
    or text, an :class:`llmjson.Schema`, or a Pydantic model class): each adds
    ``llmjson_parse_NAME``. ``threads``: the cores each batch is parsed on (DuckDB already runs
    batches in parallel). The other options are :func:`llmjson.parse`'s
    (:class:`llmjson.arrow.Options`), for every function; they are checked here."""
    con = con if con is not None else duckdb.default_connection()
    checked = arrow.options(**options)
    varchar = duckdb.sqltype("VARCHAR")
    parse = _Parse(None, None, threads, checked)
    con.create_function(
        "__llmjson_parse",
        parse,
        [duckdb.sqltype(_REPLY), varchar, varchar],
        duckdb.sqltype(_result("VARCHAR", typed=False)),
        type=PythonUDFType.ARROW,
        null_handling=FunctionNullHandling.SPECIAL,
        side_effects=False,
    )
    # Typed parameters: DuckDB binds a macro's body when it is made, and a reply of unknown type
    # cannot become the union of text and bytes.
    reply, text = f"reply {_REPLY}", "VARCHAR"
    con.sql(
        f"CREATE OR REPLACE MACRO llmjson_parse({reply}) AS __llmjson_parse(reply, NULL, NULL),"
        f" ({reply}, schema {text}) AS __llmjson_parse(reply, schema, NULL),"
        f" ({reply}, schema {text}, evidence {text}) AS __llmjson_parse(reply, schema, evidence)"
    )
    con.sql(
        f"CREATE OR REPLACE MACRO llmjson_outcome({reply}) AS __llmjson_parse(reply, NULL, NULL).outcome,"
        f" ({reply}, schema {text}) AS __llmjson_parse(reply, schema, NULL).outcome"
    )
    con.sql(f"CREATE OR REPLACE MACRO llmjson_repair({reply}) AS __llmjson_parse(reply, NULL, NULL).value")
    for name, schema in (schemas or {}).items():
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise ValueError(f"a schema's name makes a function's name: letters, digits and _; got {name!r}")
        typed_as = arrow.typed(schema)
        if typed_as is None:
            raise ValueError(f"the schema {name!r} does not map to a column type (a scalar at its root?)")
        value_type = arrow.map_schema(schema, _duckdb_kinds())
        con.create_function(
            f"__llmjson_parse_{name}",
            _Parse(_schema_of(schema), typed_as, threads, checked),
            [duckdb.sqltype(_REPLY), varchar, varchar],
            duckdb.sqltype(_result(value_type, typed=True)),
            type=PythonUDFType.ARROW,
            null_handling=FunctionNullHandling.SPECIAL,
            side_effects=False,
        )
        con.sql(
            f"CREATE OR REPLACE MACRO llmjson_parse_{name}({reply}) AS __llmjson_parse_{name}(reply, NULL, NULL),"
            f" ({reply}, evidence {text}) AS __llmjson_parse_{name}(reply, NULL, evidence)"
        )
    return con


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _duckdb_kinds() -> arrow.Kinds:
    """DuckDB's column types, as SQL type text (a map is JSON text, as in Polars)."""
    return arrow.Kinds(
        text="VARCHAR",
        string="VARCHAR",
        integer="BIGINT",
        number="DOUBLE",
        boolean="BOOLEAN",
        list_of=lambda item: f"{item}[]",
        struct_of=lambda fields: "STRUCT(" + ", ".join(f"{_quoted(n)} {t}" for n, t in fields) + ")",
    )


class _Parse:
    """What DuckDB calls for each batch: the replies (a union of text and bytes), the schema
    text and the evidence of each row, one kernel call per distinct schema in the batch."""

    def __init__(self, schema: Any, typed_as: arrow.Typed | None, threads: int, options: dict[str, Any]):
        self.schema = schema
        self.typed_as = typed_as
        self.threads = threads
        self.options = options

    def __call__(self, replies: Any, schemas: Any, evidence: Any) -> Any:
        pa = arrow._pa()
        pc = arrow._pc()
        replies = _one_array(arrow.whole(replies))
        schemas = arrow.whole(schemas)
        evidence = arrow.whole(evidence)
        if evidence.null_count == len(evidence):
            evidence = None
        distinct = [s for s in pc.unique(schemas).to_pylist() if s is not None] if self.schema is None else []
        if len(distinct) <= 1 and (not distinct or schemas.null_count == 0):
            return self._parse(replies, distinct[0] if distinct else self.schema, evidence)
        # Rows with different schemas in one batch: each group parsed with its own, the results
        # put back in the rows' order.
        parts, places = [], []
        for schema in [None, *distinct]:
            chosen = pc.is_null(schemas) if schema is None else pc.fill_null(pc.equal(schemas, schema), False)
            rows = pc.indices_nonzero(chosen)
            if len(rows) == 0:
                continue
            part_evidence = None if evidence is None else pc.take(evidence, rows)
            parts.append(self._parse(pc.take(replies, rows), schema, part_evidence))
            places.append(rows)
        order = pc.sort_indices(pa.concat_arrays(places))
        return pc.take(pa.concat_arrays(parts), order)

    def _parse(self, replies: Any, schema: Any, evidence: Any) -> Any:
        return arrow.parse_struct(
            replies,
            evidence=evidence,
            schema=schema,
            typed_as=self.typed_as,
            threads=self.threads,
            large=False,
            **self.options,
        )


def _one_array(union: Any) -> Any:
    """The replies of a batch as one array: DuckDB passes a union of the text and the bytes."""
    pa = arrow._pa()
    pc = arrow._pc()
    if not pa.types.is_union(union.type):
        return union
    text, data = union.field(0), union.field(1)
    codes = union.type_codes
    if pc.all(pc.equal(codes, 0)).as_py() is not False:
        return text
    if pc.all(pc.equal(codes, 1)).as_py():
        return data
    return pc.if_else(pc.equal(codes, 0), text.cast(pa.binary()), data)

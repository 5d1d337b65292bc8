"""The one Arrow kernel every column engine calls (``llmjson.spark``, ``llmjson.polars``,
``llmjson.duckdb``): a column of replies parsed in one native call with the GIL released, the
result columns built from Arrow buffers. No Python object is made per row.

>>> import pyarrow as pa                                            # doctest: +SKIP
>>> from llmjson.arrow import parse_struct                          # doctest: +SKIP
>>> parse_struct(pa.array(["{'a': 1,}", None])).to_pylist()         # doctest: +SKIP
[{'value': '{"a":1}', 'outcome': 'repaired', 'repairs': [...], 'diagnostics': '{...}'}, None]

The result's fields: ``value`` (the value as JSON text, null when the reply gave none; with a
``schema`` that maps to a column type and ``typed``, the typed value, and the text as ``json``),
``outcome`` (``ok``, ``repaired``, or the failure's kind, as every door names it), ``repairs``
(a list of ``kind``, ``path``, ``start``, ``end``: UTF-8 byte offsets in the reply as read, where
a byte that is not UTF-8 counts as U+FFFD's three) and ``diagnostics`` (the pipeline's record as
JSON text).

What a schema maps to (:func:`map_schema`; the same for every engine): an object with
``properties`` → a struct of nullable fields in the schema's order; ``items`` → a list;
``string`` (enums and formats too) → string; ``integer`` → 64-bit integer; ``number`` → 64-bit
float; ``boolean`` → boolean; ``$ref`` into ``$defs``/``definitions``, ``["T", "null"]``,
``anyOf``/``oneOf`` of one type and null, and a one-item ``allOf`` read through. Anything else
inside (a union of types, a recursive model, a schema with no type, and — where the engine has
no map type — ``additionalProperties`` alone) is a string holding that part's JSON text (a
string part as itself), so that no value is lost. A part whose value does not fit its type (an
integer beyond 64 bits) is null in the typed value; ``json`` keeps it. A scalar at the root
does not map: the value stays JSON text.

pyarrow is imported when a function here is first called: ``import llmjson`` never needs it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypedDict

from . import _checked_level, _compiled_options, _schema_of
from ._llmjson import DEFAULT_MAX_DEPTH, DEFAULT_MAX_SIZE

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa  # type: ignore[import-untyped, import-not-found, unused-ignore]

__all__ = ["parse_array", "parse_batch", "parse_struct", "arrow_type", "map_schema", "Kinds", "Options", "options"]

FIELDS = ("value", "outcome", "repairs", "diagnostics")
"""The result's fields (and ``json`` after ``value`` when the value is typed)."""


def _pa() -> Any:
    return importlib.import_module("pyarrow")


def _pc() -> Any:
    return importlib.import_module("pyarrow.compute")


class Options(TypedDict, total=False):
    """The options every column engine takes (``**options``), with :func:`options`' defaults:
    :func:`llmjson.parse`'s, and ``fail_closed`` and ``locale`` for the evidence."""

    level: str
    truncation: str
    max_removed_ratio: float
    guard_comments: str
    latex: bool
    invalid_items: str
    max_size: int
    max_depth: int
    duplicate_keys: str
    coercion: str
    fail_closed: bool
    locale: str


def options(
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
) -> dict[str, Any]:
    """The parse options (:func:`llmjson.parse`'s, and ``fail_closed`` and ``locale`` for the
    evidence), checked once, before any row is parsed: a bad one fails the call, not a row."""
    level = _checked_level(level, truncation, duplicate_keys, coercion, max_removed_ratio)
    return dict(
        level=level,
        truncation=truncation,
        max_removed_ratio=max_removed_ratio,
        max_size=max_size,
        max_depth=max_depth,
        duplicate_keys=duplicate_keys,
        coercion=coercion,
        guard_comments=guard_comments,
        latex=latex,
        invalid_items=invalid_items,
        fail_closed=fail_closed,
        locale=locale,
    )


def schema_text(schema: Any) -> str | None:
    """The schema as JSON text, compiled here once so that a bad schema fails at once (a Spark
    worker compiles it again from the text, once per process: compiled schemas are cached)."""
    compiled = _schema_of(schema)
    return None if compiled is None else json.dumps(compiled.document, sort_keys=True)


# ---------------------------------------------------------------------------------------------
# The kernel


def whole(array: Any) -> Any:
    """An array in one piece (a chunked array's chunks joined; an array as it is)."""
    combine = getattr(array, "combine_chunks", None)
    return combine() if callable(combine) else array


def _replies(replies: Any) -> Any:
    """The replies as one Arrow array of a layout the native call reads: string, large string,
    binary or large binary (a chunked array joined, a view type cast)."""
    pa = _pa()
    array = whole(replies)
    kind = array.type
    if pa.types.is_string_view(kind):
        array = array.cast(pa.large_string())
    elif pa.types.is_binary_view(kind):
        array = array.cast(pa.large_binary())
    elif pa.types.is_null(kind):
        array = array.cast(pa.string())
    return array


def parse_array(
    replies: pa.Array,
    *,
    evidence: pa.Array | None = None,
    schema: Any = None,
    threads: int = 1,
    shape: str | None = None,
    **options_: Any,
) -> list[pa.Array]:
    """The replies of one Arrow string (or binary) array parsed, in one native call with the
    GIL released: the arrays value, outcome, repairs and diagnostics (the value as JSON text),
    and with a ``shape`` (:func:`shape_of`) a fifth, each value written in that shape.
    ``evidence``: each row's evidence (strings, or lists of strings). ``threads`` > 1 parses
    on that many cores."""
    pa = _pa()
    from ._llmjson import parse_arrow_strings

    replies = _replies(replies)
    kind = replies.type
    if pa.types.is_string(kind) or pa.types.is_binary(kind):
        large = False
    elif pa.types.is_large_string(kind) or pa.types.is_large_binary(kind):
        large = True
    else:
        raise TypeError(f"the replies must be string or binary, not {kind}")
    validity, offsets, data = replies.buffers()
    compiled = _schema_of(schema)
    value, outcome, repairs, diagnostics, shaped = parse_arrow_strings(
        _bytes(offsets),
        # An all-empty array may have no data buffer at all.
        _bytes(data) if data is not None else b"",
        None if validity is None else _bytes(validity),
        offset=replies.offset,
        length=len(replies),
        large=large,
        evidence=None if evidence is None else whole(evidence).to_pylist(),
        threads=max(1, threads),
        options=_compiled_options(schema=None if compiled is None else compiled._native, **options(**options_)),
        shape=shape,
    )
    rows = len(replies)
    string = pa.large_string() if large else pa.string()
    arrays = [
        _strings(value, rows, string),
        _strings(outcome, rows, string),
        _repairs(repairs, rows),
        _strings(diagnostics, rows, string),
    ]
    if shaped is not None:
        arrays.append(_strings(shaped, rows, string))
    return arrays


def parse_batch(
    batch: pa.RecordBatch,
    column: str,
    *,
    evidence: str | None = None,
    schema: Any = None,
    threads: int = 1,
    names: tuple[str, ...] = ("llmjson_value", "llmjson_outcome", "llmjson_repairs", "llmjson_diagnostics"),
    **options_: Any,
) -> pa.RecordBatch:
    """One Arrow record batch with its ``column`` parsed: the batch's columns and the four of
    :func:`parse_array`, named ``names`` (the value as JSON text). Usable on its own with any
    Arrow source (a Parquet file read with pyarrow, say); the options are :func:`options`'."""
    pa = _pa()
    arrays = parse_array(
        batch.column(column),
        evidence=None if evidence is None else batch.column(evidence),
        schema=schema,
        threads=threads,
        **options_,
    )
    return pa.RecordBatch.from_arrays([*batch.columns, *arrays], names=[*batch.schema.names, *names])


@dataclass(frozen=True)
class Typed:
    """A schema's column type, as the kernel writes it (``shape``) and as Arrow holds it."""

    shape: str
    arrow: Any


def typed(schema: Any) -> Typed | None:
    """The typed column a schema's values map to (:func:`map_schema` with maps as text), or None
    when they do not map (no schema, or a scalar at the root)."""
    document = _document(schema)
    if document is None:
        return None
    shape = map_schema(document, _SHAPES)
    if not isinstance(shape, dict):
        return None
    return Typed(json.dumps(shape), map_schema(document, _arrow_kinds()))


def arrow_type(schema: Any) -> Any:
    """The Arrow type of :func:`parse_struct`'s result with this schema (typed), or without one."""
    return result_type(typed(schema))


def result_type(typed_: Typed | None, large: bool = False) -> Any:
    """The Arrow type of the result struct: ``value`` typed (and ``json``) or as text."""
    pa = _pa()
    string = pa.large_string() if large else pa.string()
    repair = pa.struct([("kind", pa.string()), ("path", pa.string()), ("start", pa.int64()), ("end", pa.int64())])
    fields = [("value", typed_.arrow), ("json", string)] if typed_ is not None else [("value", string)]
    return pa.struct([*fields, ("outcome", string), ("repairs", pa.list_(repair)), ("diagnostics", string)])


def parse_struct(
    replies: pa.Array,
    *,
    evidence: pa.Array | None = None,
    schema: Any = None,
    typed_as: Typed | None = None,
    threads: int = 1,
    large: bool | None = None,
    **options_: Any,
) -> pa.StructArray:
    """The replies parsed into one struct array (:data:`FIELDS`; see the module's
    documentation), null where the reply is null. ``typed_as`` (:func:`typed` of ``schema``)
    makes ``value`` that type and adds ``json``. ``large``: 64-bit offsets in the result's
    strings (default: as the replies')."""
    pa = _pa()
    replies = _replies(replies)
    if large is not None:
        binary = pa.types.is_binary(replies.type) or pa.types.is_large_binary(replies.type)
        wanted = {(False, False): pa.string(), (False, True): pa.binary()}
        wanted.update({(True, False): pa.large_string(), (True, True): pa.large_binary()})
        if replies.type != wanted[(large, binary)]:
            replies = replies.cast(wanted[(large, binary)])
    arrays = parse_array(
        replies,
        evidence=evidence,
        schema=schema,
        threads=threads,
        shape=None if typed_as is None else typed_as.shape,
        **options_,
    )
    names = list(FIELDS)
    if typed_as is not None:
        text = arrays[0]
        arrays = [_typed_values(arrays.pop(), typed_as.arrow), text, *arrays[1:]]
        names.insert(1, "json")
    mask = replies.is_null() if replies.null_count else None
    return pa.StructArray.from_arrays(arrays, names=names, mask=mask)


def _typed_values(shaped: pa.Array, kind: Any) -> pa.Array:
    """The typed values of texts written in their shape: each row wrapped as ``{"v": …}``, one
    line each, read by Arrow's JSON reader with the type given (in C++, on its threads)."""
    pa = _pa()
    pc = _pc()
    pj = importlib.import_module("pyarrow.json")
    rows = len(shaped)
    if rows == 0:
        return pa.array([], type=kind)
    def text(s: str) -> Any:
        return pa.scalar(s, type=shaped.type)

    lines = pc.fill_null(pc.binary_join_element_wise(text('{"v":'), shaped, text("}\n"), text("")), text("{}\n"))
    longest = pc.max(pc.binary_length(lines)).as_py() or 0
    total = pc.sum(pc.binary_length(lines)).as_py() or 0
    _, offsets, data = lines.buffers()
    width = 8 if pa.types.is_large_string(lines.type) else 4
    start = int.from_bytes(offsets.slice((lines.offset) * width, width).to_pybytes(), "little")
    table = pj.read_json(
        pa.BufferReader(data.slice(start, total)),
        read_options=pj.ReadOptions(block_size=max(1 << 20, 2 * longest + 16)),
        parse_options=pj.ParseOptions(
            explicit_schema=pa.schema([pa.field("v", kind)]),
            unexpected_field_behavior="ignore",
            newlines_in_values=False,
        ),
    )
    values = table.column("v").combine_chunks()
    if len(values) != rows:  # pragma: no cover - one line per row, always
        raise AssertionError(f"{len(values)} typed values for {rows} rows")
    return values


def _bytes(buffer: pa.Buffer) -> memoryview:
    """An Arrow buffer as unsigned bytes, not copied (pyarrow exports signed ones)."""
    return memoryview(buffer).cast("B")


def _buffer(data: bytes | None) -> pa.Buffer | None:
    return None if data is None else _pa().py_buffer(data)


def _strings(buffers: tuple[bytes | None, bytes, bytes, int], rows: int, kind: pa.DataType) -> pa.Array:
    pa = _pa()
    validity, offsets, data, nulls = buffers
    return pa.Array.from_buffers(kind, rows, [_buffer(validity), _buffer(offsets), _buffer(data)], null_count=nulls)


def _repairs(buffers: Any, rows: int) -> pa.Array:
    pa = _pa()
    validity, offsets, nulls, (kind, path, start, end) = buffers
    count = len(start) // 8
    fields = pa.StructArray.from_arrays(
        [
            _strings(kind, count, pa.string()),
            _strings(path, count, pa.string()),
            pa.Array.from_buffers(pa.int64(), count, [None, pa.py_buffer(start)]),
            pa.Array.from_buffers(pa.int64(), count, [None, pa.py_buffer(end)]),
        ],
        names=["kind", "path", "start", "end"],
    )
    return pa.Array.from_buffers(
        pa.list_(fields.type), rows, [_buffer(validity), _buffer(offsets)], null_count=nulls, children=[fields]
    )


# ---------------------------------------------------------------------------------------------
# What a schema maps to


@dataclass(frozen=True)
class Kinds:
    """One engine's column types, for :func:`map_schema`: the scalars, a text part, and how to
    make a list, a struct, and a map from strings (``map_of`` None: the engine has none, a map
    is text)."""

    text: Any
    string: Any
    integer: Any
    number: Any
    boolean: Any
    list_of: Callable[[Any], Any]
    struct_of: Callable[[list[tuple[str, Any]]], Any]
    map_of: Callable[[Any], Any] | None = None


_SHAPES = Kinds(
    text="text",
    string="string",
    integer="integer",
    number="number",
    boolean="boolean",
    list_of=lambda item: {"list": item},
    struct_of=lambda fields: {"struct": [[name, shape] for name, shape in fields]},
)


def _arrow_kinds() -> Kinds:
    pa = _pa()
    return Kinds(
        text=pa.string(),
        string=pa.string(),
        integer=pa.int64(),
        number=pa.float64(),
        boolean=pa.bool_(),
        list_of=pa.list_,
        struct_of=pa.struct,
    )


_MAX_DEPTH = 32


def _document(schema: Any) -> dict[str, Any] | None:
    """A schema as its JSON Schema dict, in the order its properties were written (a compiled
    schema's document has sorted keys)."""
    if schema is None or isinstance(schema, dict):
        return schema
    document: dict[str, Any]
    if isinstance(schema, str):
        document = json.loads(schema)
        return document
    model_json_schema = getattr(schema, "model_json_schema", None)
    if callable(model_json_schema):
        document = model_json_schema()
        return document
    compiled = _schema_of(schema)
    return None if compiled is None else compiled.document


def map_schema(schema: Any, kinds: Kinds) -> Any:
    """A JSON Schema's column type in ``kinds`` (see the module's documentation); ``kinds.text``
    where a part does not map. ``schema`` is a JSON Schema dict or anything
    :func:`llmjson.parse` takes as one."""
    document = _document(schema)
    if document is None:
        return kinds.text
    defs = {**document.get("definitions", {}), **document.get("$defs", {})}
    return _map(document, defs, 0, kinds)


def _map(schema: Any, defs: dict[str, Any], depth: int, kinds: Kinds) -> Any:
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return kinds.text
    resolved = _resolved(schema, defs, depth)
    if resolved is None:
        return kinds.text
    kind = _single_type(resolved)
    if kind is None:
        values = resolved.get("enum", [resolved["const"]] if "const" in resolved else None)
        kind = _enum_type(values)
    if kind == "object":
        properties = resolved.get("properties")
        if isinstance(properties, dict) and properties:
            return kinds.struct_of([(name, _map(sub, defs, depth + 1, kinds)) for name, sub in properties.items()])
        extra = resolved.get("additionalProperties")
        if isinstance(extra, dict) and kinds.map_of is not None:
            return kinds.map_of(_map(extra, defs, depth + 1, kinds))
        return kinds.text
    if kind == "array":
        items = resolved.get("items")
        return kinds.list_of(_map(items, defs, depth + 1, kinds) if isinstance(items, dict) else kinds.text)
    scalars = {"string": kinds.string, "integer": kinds.integer, "number": kinds.number, "boolean": kinds.boolean}
    return scalars.get(kind or "", kinds.text)


def _resolved(schema: dict[str, Any], defs: dict[str, Any], depth: int) -> dict[str, Any] | None:
    """``schema`` with ``$ref``, a one-item ``allOf`` and ``anyOf``/``oneOf`` of one schema and
    null read through; None for a reference that cannot be followed or a union of types."""
    for _ in range(_MAX_DEPTH - depth):
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = ref.rsplit("/", 1)[-1]
            if not (ref.startswith("#/$defs/") or ref.startswith("#/definitions/")) or name not in defs:
                return None
            schema = defs[name]
            continue
        for union in ("allOf", "anyOf", "oneOf"):
            alternatives = schema.get(union)
            if isinstance(alternatives, list):
                kept = [o for o in alternatives if not (isinstance(o, dict) and o.get("type") == "null")]
                if len(kept) != 1 or not isinstance(kept[0], dict):
                    return None
                schema = kept[0]
                break
        else:
            return schema
    return None


def _single_type(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        kind = kinds[0] if len(kinds) == 1 else None
    return kind if isinstance(kind, str) else None


def _enum_type(values: Any) -> str | None:
    if not isinstance(values, list) or not values:
        return None
    if all(isinstance(v, str) for v in values):
        return "string"
    if all(isinstance(v, bool) for v in values):
        return "boolean"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return "integer"
    return None

//! `llmjson.spark`'s native step: a column of replies (an Arrow string array's buffers) parsed
//! in one call with the GIL released ([`llmjson_batch::parse_column`]); the result columns come
//! back as Arrow buffers (`bytes`) that `pyarrow.Array.from_buffers` takes as they are. No
//! Python object is made per row.

use crate::CompiledOptions;
use llmjson_batch::{Context, RepairBuffers, ReplyColumn, StringBuffers};
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};

/// Parses every reply of an Arrow string column. `offsets`, `data` and `validity` are its
/// buffers, `offset` and `length` its slice, `large` says 64-bit offsets; `evidence` holds each
/// row's evidence (a text, a list of texts, or None). Returns `(value, outcome, repairs,
/// diagnostics, shaped)`: `value`, `outcome` and `diagnostics` as `(validity, offsets, data,
/// null_count)`, `repairs` as `(validity, offsets, null_count, (kind, path, start, end))` with
/// `kind` and `path` string columns and `start` and `end` 64-bit integers, and `shaped` (with
/// a `shape`: each value written in it, as `value`; else None). The parse runs on
/// `threads` threads (a Spark task passes the cores it was given). `shape`: the type of a typed
/// value column (`llmjson_batch::Shape::parse`'s description).
#[pyfunction]
#[pyo3(signature = (offsets, data, validity, *, offset, length, large, evidence, threads,
    options, shape=None))]
#[allow(clippy::too_many_arguments)]
pub fn parse_arrow_strings<'py>(
    py: Python<'py>,
    offsets: PyBuffer<u8>,
    data: PyBuffer<u8>,
    validity: Option<PyBuffer<u8>>,
    offset: usize,
    length: usize,
    large: bool,
    evidence: Option<Vec<Option<Bound<'py, PyAny>>>>,
    threads: usize,
    options: &CompiledOptions,
    shape: Option<&str>,
) -> PyResult<Bound<'py, PyTuple>> {
    let shape = shape
        .map(llmjson_batch::Shape::parse)
        .transpose()
        .map_err(PyValueError::new_err)?;
    let options = options.inner.clone();
    let evidence = evidence
        .unwrap_or_default()
        .iter()
        .map(|cell| cell.as_ref().map(evidence_value).transpose())
        .collect::<PyResult<Vec<_>>>()?;
    // Copied out of Python's buffers (a memcpy, far cheaper than the parse) so that the parse
    // runs without the GIL.
    let (offsets, data) = (offsets.to_vec(py)?, data.to_vec(py)?);
    let validity = validity.map(|v| v.to_vec(py)).transpose()?;
    let columns = py.detach(|| {
        let column = ReplyColumn {
            offsets: &offsets,
            data: &data,
            validity: validity.as_deref(),
            offset,
            length,
            large,
        };
        llmjson_batch::parse_column(
            &column,
            evidence,
            &Context::new(options),
            threads,
            shape.as_ref(),
        )
    });
    let columns = columns.map_err(PyValueError::new_err)?;
    (
        strings(py, columns.value),
        strings(py, columns.outcome),
        repairs(py, columns.repairs),
        strings(py, columns.diagnostics),
        columns.shaped.map(|shaped| strings(py, shaped)),
    )
        .into_pyobject(py)
}

/// A row's evidence cell as the batch engine reads it: a text, or an array of texts.
fn evidence_value(cell: &Bound<'_, PyAny>) -> PyResult<serde_json::Value> {
    if let Ok(text) = cell.extract::<String>() {
        return Ok(serde_json::Value::String(text));
    }
    match cell.extract::<Vec<Option<String>>>() {
        Ok(texts) => Ok(serde_json::Value::Array(
            texts
                .into_iter()
                .flatten()
                .map(serde_json::Value::String)
                .collect(),
        )),
        Err(_) => Err(PyValueError::new_err(format!(
            "an evidence cell must be a string or a list of strings, got {}",
            cell.get_type().name()?
        ))),
    }
}

type StringTuple<'py> = (
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
);

fn strings(py: Python<'_>, column: StringBuffers) -> StringTuple<'_> {
    (
        column.validity.map(|v| PyBytes::new(py, &v)),
        PyBytes::new(py, &column.offsets),
        PyBytes::new(py, &column.data),
        column.nulls,
    )
}

#[allow(clippy::type_complexity)]
fn repairs(
    py: Python<'_>,
    column: RepairBuffers,
) -> (
    Option<Bound<'_, PyBytes>>,
    Bound<'_, PyBytes>,
    usize,
    (
        StringTuple<'_>,
        StringTuple<'_>,
        Bound<'_, PyBytes>,
        Bound<'_, PyBytes>,
    ),
) {
    (
        column.validity.map(|v| PyBytes::new(py, &v)),
        PyBytes::new(py, &column.offsets),
        column.nulls,
        (
            strings(py, column.kind),
            strings(py, column.path),
            PyBytes::new(py, &column.start),
            PyBytes::new(py, &column.end),
        ),
    )
}

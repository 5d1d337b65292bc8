//! The native half of the Python package `llmjson` (`llmjson._llmjson`): parsing runs in Rust
//! with the GIL released; values come back as Python objects built directly (no JSON text in
//! between). The Python half (`python/llmjson/`) holds the public API, the exceptions, retries
//! and metrics; this module stays small and typed (`_llmjson.pyi`).

use llmjson::{Coercion, DuplicateKeys, Error, Options, Parsed, RepairLevel, Truncation, Value};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use std::sync::Arc;

mod batch;
mod columns;
mod stream;

/// The parser allocates a string per key and value and a map per object: mimalloc's small-object
/// paths are much faster than glibc's for that (the library itself leaves the choice to its
/// user; this extension module is such a user).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pyo3::create_exception!(
    _llmjson,
    NativeError,
    PyValueError,
    "A parse failed: args are (kind, message, details). The Python layer re-raises it as the \
     matching LLMJSONError subclass."
);

/// A compiled JSON Schema, shared by every call that uses it.
#[pyclass(frozen, name = "Schema", module = "llmjson._llmjson")]
struct PySchema {
    inner: Arc<llmjson::Schema>,
}

#[pymethods]
impl PySchema {
    /// Compiles a schema from its JSON text.
    #[new]
    fn new(py: Python<'_>, document: &str) -> PyResult<Self> {
        let schema = llmjson::Schema::from_json(document).map_err(|e| native_error(py, &e))?;
        Ok(PySchema {
            inner: Arc::new(schema),
        })
    }

    /// Every violation of the schema by the JSON text `value`, as (path, keyword, message).
    fn validate(&self, value: &str) -> PyResult<Vec<(String, String, String)>> {
        let value: Value = value
            .parse()
            .map_err(|e| PyValueError::new_err(format!("not JSON: {e}")))?;
        Ok(match self.inner.validate(&value) {
            Ok(()) => Vec::new(),
            Err(errors) => errors
                .into_iter()
                .map(|e| (e.instance_path, e.keyword, e.message))
                .collect(),
        })
    }
}

/// Parses `text`: returns (value, repairs, span, source, removed_bytes, located_bytes,
/// repair_count, repair_kinds, dropped). Repairs are (kind, start, end, line, column, path, detail) tuples, built only
/// when asked for (the count is always there).
#[pyfunction]
#[pyo3(signature = (text, options, *, with_repairs=true, all=false))]
fn parse<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
    options: &CompiledOptions,
    with_repairs: bool,
    all: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let options = &options.inner;
    // Bytes are read as the CLI reads them: bad bytes logged (`invalid_utf8`) and refused at
    // level none, binary input refused; offsets then count in the decoded text.
    let (text, bytes) = match text.cast::<PyBytes>() {
        Ok(bytes) => {
            let bytes = bytes.as_bytes();
            (String::from_utf8_lossy(bytes), Some(bytes))
        }
        Err(_) => (
            std::borrow::Cow::Borrowed(text.cast::<PyString>()?.to_str()?),
            None,
        ),
    };
    let text = text.as_ref();
    // The GIL is released while Rust parses: other Python threads run meanwhile.
    let result = py.detach(|| match (bytes, all) {
        (Some(bytes), true) => llmjson::parse_all_bytes(bytes, options),
        (Some(bytes), false) => llmjson::parse_bytes(bytes, options).map(|p| vec![p]),
        (None, true) => llmjson::parse_all(text, options),
        (None, false) => llmjson::parse(text, options).map(|p| vec![p]),
    });
    let mut parsed = result.map_err(|e| parse_error(py, &e, text, options))?;
    parsed_tuple(py, text, &mut parsed, all, with_repairs)
}

/// What `parse` returns to Python for `parsed` (one value, or every value with `all`):
/// (value, repairs, span, source, removed_bytes, located_bytes, repair_count, repair_kinds,
/// dropped): `dropped` as `dropped_tuples` gives them.
pub(crate) fn parsed_tuple<'py>(
    py: Python<'py>,
    text: &str,
    parsed: &mut [Parsed],
    all: bool,
    with_repairs: bool,
) -> PyResult<Bound<'py, PyTuple>> {
    let (Some(first), Some(last)) = (parsed.first(), parsed.last()) else {
        return Err(PyValueError::new_err("no value"));
    };
    let value = if all {
        let values = PyList::empty(py);
        for p in parsed.iter() {
            values.append(to_python(py, &p.value)?)?;
        }
        values.into_any()
    } else {
        to_python(py, &first.value)?
    };
    let mut dropped = Vec::new();
    for p in parsed.iter() {
        dropped.extend(dropped_tuples(py, text, p)?);
    }
    let to_chars = CharOffsets::new(text);
    let span = (to_chars.of(first.span.start), to_chars.of(last.span.end));
    // As the diagnostics record writes it at every door: `fence:json` for a labelled fence.
    let source = if all {
        "text".to_string()
    } else {
        first.source.to_string()
    };
    let removed: usize = parsed.iter().map(|p| p.removed_bytes).sum();
    let located: usize = parsed.iter().map(|p| p.located_bytes).sum();
    let count: usize = parsed.iter().map(|p| p.repairs.len()).sum();
    // The kinds always (for the metrics), even when the log itself is not built.
    let kinds: Vec<&str> = parsed
        .iter()
        .flat_map(|p| p.repairs.iter().map(|r| r.kind.as_str()))
        .collect();
    // Last: the log moves out of `parsed`, which everything above reads.
    let log = Bound::new(py, PyRepairLog::of(text, parsed, with_repairs))?;
    PyTuple::new(
        py,
        [
            value,
            log.into_any(),
            span.into_pyobject(py)?.into_any(),
            source.into_pyobject(py)?.into_any(),
            removed.into_pyobject(py)?.into_any(),
            located.into_pyobject(py)?.into_any(),
            count.into_pyobject(py)?.into_any(),
            PyList::new(py, kinds)?.into_any(),
            PyList::new(py, dropped)?.into_any(),
        ],
    )
}

/// The guard's comment policy by name (`data` or `all`).
fn parse_guard_comments(name: &str) -> PyResult<llmjson::GuardComments> {
    name.parse()
        .map_err(|_| bad_choice("guard_comments", name, "data, all"))
}

/// A call's options, checked and compiled once: the Python package keeps one per distinct set
/// of keyword arguments (`llmjson._compiled_options`) and hands it to every native call, which
/// reads it as it is (the Node package's `CompiledOptions`).
#[pyclass(frozen, name = "CompiledOptions", module = "llmjson._llmjson")]
pub(crate) struct CompiledOptions {
    pub(crate) inner: Options,
}

#[pymethods]
impl CompiledOptions {
    /// The options of `llmjson.parse` (and `fail_closed`, `locale` for per-row evidence).
    #[new]
    #[pyo3(signature = (*, level="full", truncation="complete", max_removed_ratio=0.3,
        max_size=llmjson::DEFAULT_MAX_SIZE, max_depth=llmjson::DEFAULT_MAX_DEPTH,
        duplicate_keys="last", schema=None, coercion="fit", guard_comments="data", latex=true,
        invalid_items="fail", fail_closed=true, locale="auto"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        level: &str,
        truncation: &str,
        max_removed_ratio: f64,
        max_size: usize,
        max_depth: usize,
        duplicate_keys: &str,
        schema: Option<&PySchema>,
        coercion: &str,
        guard_comments: &str,
        latex: bool,
        invalid_items: &str,
        fail_closed: bool,
        locale: &str,
    ) -> PyResult<Self> {
        let mut options = Options::default()
            .level(parse_level(level)?)
            .truncation(match truncation {
                "complete" => Truncation::Complete,
                "drop" => Truncation::Drop,
                "drop_element" | "drop-element" => Truncation::DropElement,
                other => {
                    return Err(bad_choice(
                        "truncation",
                        other,
                        "complete, drop, drop_element",
                    ))
                }
            })
            .max_removed_ratio(max_removed_ratio)
            .max_size(max_size)
            .max_depth(max_depth)
            .duplicate_keys(match duplicate_keys {
                "last" => DuplicateKeys::Last,
                "first" => DuplicateKeys::First,
                "error" => DuplicateKeys::Error,
                other => return Err(bad_choice("duplicate_keys", other, "last, first, error")),
            })
            .coercion(match coercion {
                "fit" => Coercion::Fit,
                "validate_only" | "validate-only" => Coercion::ValidateOnly,
                other => return Err(bad_choice("coercion", other, "fit, validate_only")),
            })
            .guard_comments(parse_guard_comments(guard_comments)?)
            .latex(latex)
            .invalid_items(
                invalid_items
                    .parse()
                    .map_err(|_| bad_choice("invalid_items", invalid_items, "fail, drop"))?,
            );
        if let Some(schema) = schema {
            options.schema = Some(Arc::clone(&schema.inner));
        }
        let verify = options
            .verify
            .locale(locale.parse().map_err(PyValueError::new_err)?);
        options.verify = if fail_closed {
            verify.fail_closed()
        } else {
            verify.report_only()
        };
        Ok(CompiledOptions { inner: options })
    }
}

/// Evidence to verify answers against: texts, JSON documents and CSV files, indexed as added.
#[pyclass(name = "Evidence", module = "llmjson._llmjson")]
struct PyEvidence {
    inner: std::sync::RwLock<llmjson::verify::Evidence>,
}

#[pymethods]
impl PyEvidence {
    /// Empty evidence whose numbers are read with `locale`.
    #[new]
    #[pyo3(signature = (*, locale="auto", max_size=llmjson::DEFAULT_MAX_SIZE))]
    fn new(locale: &str, max_size: usize) -> PyResult<Self> {
        let locale: llmjson::verify::Locale = locale.parse().map_err(PyValueError::new_err)?;
        Ok(PyEvidence {
            inner: std::sync::RwLock::new(
                llmjson::verify::Evidence::with_locale(locale).max_size(max_size),
            ),
        })
    }

    fn add_text(&self, py: Python<'_>, name: &str, text: &str) -> PyResult<()> {
        self.with(py, |e| e.add_text(name, text).map(|_| ()))
    }

    /// Adds a JSON document given as JSON text.
    fn add_json(&self, py: Python<'_>, name: &str, document: &str) -> PyResult<()> {
        let value: Value = document
            .parse()
            .map_err(|e| PyValueError::new_err(format!("the evidence {name} is not JSON: {e}")))?;
        self.with(py, |e| e.add_json(name, &value).map(|_| ()))
    }

    fn add_csv(&self, py: Python<'_>, name: &str, text: &str) -> PyResult<()> {
        self.with(py, |e| e.add_csv(name, text).map(|_| ()))
    }

    /// Whether there is no evidence at all.
    fn is_empty(&self) -> bool {
        self.inner.read().map(|e| e.is_empty()).unwrap_or(true)
    }

    /// How many numbers the evidence states.
    fn numbers(&self) -> usize {
        self.inner.read().map(|e| e.numbers()).unwrap_or(0)
    }
}

impl PyEvidence {
    fn with(
        &self,
        py: Python<'_>,
        add: impl FnOnce(&mut llmjson::verify::Evidence) -> Result<(), Error>,
    ) -> PyResult<()> {
        let mut guard = self
            .inner
            .write()
            .map_err(|_| PyValueError::new_err("the evidence is unusable after a failed call"))?;
        add(&mut guard).map_err(|e| native_error(py, &e))
    }
}

/// Verifies `answer` (a text, or with `as_json` a JSON value's text) against `evidence`:
/// returns (output, fail_closed_reason, verification as JSON text). The GIL is released.
#[pyfunction]
#[pyo3(signature = (answer, evidence, *, as_json=false, locale="auto", small_counts=10,
    check_years=false, percent_fraction=None, fail_closed=true, language="en",
    max_size=llmjson::DEFAULT_MAX_SIZE))]
#[allow(clippy::too_many_arguments)]
fn verify(
    py: Python<'_>,
    answer: &str,
    evidence: &PyEvidence,
    as_json: bool,
    locale: &str,
    small_counts: u32,
    check_years: bool,
    percent_fraction: Option<bool>,
    fail_closed: bool,
    language: &str,
    max_size: usize,
) -> PyResult<(String, Option<&'static str>, String)> {
    let mut options = llmjson::verify::VerifyOptions::default()
        .locale(locale.parse().map_err(PyValueError::new_err)?)
        .language(language.parse().map_err(PyValueError::new_err)?)
        .small_counts(llmjson::verify::SmallCounts::UpTo(small_counts));
    options.max_size = max_size;
    if check_years {
        options = options.years(llmjson::verify::Years::Check);
    }
    // A percentage is its fraction by default; `percent_fraction=False` keeps them apart.
    if percent_fraction == Some(false) {
        options = options.percent(llmjson::verify::PercentForms::Distinct);
    }
    options = if fail_closed {
        options.fail_closed()
    } else {
        options.report_only()
    };
    let guard = evidence
        .inner
        .read()
        .map_err(|_| PyValueError::new_err("the evidence is unusable after a failed call"))?;
    let evidence: &llmjson::verify::Evidence = &guard;
    let verdict = py.detach(|| {
        if as_json {
            let value: Value = answer.parse().map_err(|e: Error| Error::NoJson {
                hint: Some(e.to_string()),
            })?;
            let v = llmjson::verify::verify_value(&value, evidence, &options)?;
            Ok(llmjson::verify::Verdict::of(
                answer.to_string(),
                v,
                &options,
            ))
        } else {
            llmjson::verify::verify(answer, evidence, &options)
        }
    });
    let verdict = verdict.map_err(|e| native_error(py, &e))?;
    let json = serde_json::to_string(&verdict.verification)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((verdict.output, verdict.fail_closed.map(|f| f.reason), json))
}

/// Whether `text` is exactly one valid JSON document (checked without building a value; the
/// GIL is released meanwhile).
#[pyfunction]
fn is_valid_document(py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<bool> {
    let text = text.to_str()?;
    Ok(py.detach(|| llmjson::is_valid_document(text)))
}

/// `text` as Python objects when it is one valid JSON document (nested at most the default
/// depth, at most `max_size` bytes of UTF-8), read in one pass by the library's strict reader
/// straight into Python objects (no validation pass before, no Rust value in between); `None`
/// otherwise (the full path decides, and says why).
#[pyfunction]
fn read_valid_document<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    max_size: usize,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    read_valid(py, text.to_str()?, max_size)
}

/// `text` as Python objects when it is one valid JSON document within `max_size`; `None`
/// otherwise.
fn read_valid<'py>(
    py: Python<'py>,
    text: &str,
    max_size: usize,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if text.len() > max_size {
        return Ok(None);
    }
    let mut sink = PythonSink {
        py,
        keys: KeyCache::default(),
    };
    match llmjson::sink::read_valid(text, llmjson::DEFAULT_MAX_DEPTH, &mut sink) {
        Ok(value) => Ok(Some(value)),
        Err(llmjson::sink::Refused::Invalid) => Ok(None),
        Err(llmjson::sink::Refused::Sink(e)) => Err(e),
    }
}

/// Builds what `json.loads` builds: dict (ordered; a repeated key keeps its first place and its
/// last value), list, str, int (any size), float, bool, None.
struct PythonSink<'py> {
    py: Python<'py>,
    keys: KeyCache<'py>,
}

impl<'py> llmjson::sink::Sink for PythonSink<'py> {
    type Value = Bound<'py, PyAny>;
    type Key = Bound<'py, PyString>;
    type Error = PyErr;

    fn null(&mut self) -> PyResult<Self::Value> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn bool(&mut self, value: bool) -> PyResult<Self::Value> {
        Ok(value.into_pyobject(self.py)?.to_owned().into_any())
    }
    fn number(&mut self, text: &str, integer: bool) -> PyResult<Self::Value> {
        python_number(self.py, text, integer)
    }
    fn string(&mut self, value: std::borrow::Cow<'_, str>) -> PyResult<Self::Value> {
        Ok(PyString::new(self.py, &value).into_any())
    }
    fn key(&mut self, key: std::borrow::Cow<'_, str>) -> PyResult<Self::Key> {
        Ok(self.keys.get(self.py, &key))
    }
    fn array(&mut self, items: std::vec::Drain<'_, Self::Value>) -> PyResult<Self::Value> {
        Ok(PyList::new(self.py, items)?.into_any())
    }
    fn object(
        &mut self,
        members: std::vec::Drain<'_, (Self::Key, Self::Value)>,
    ) -> PyResult<Self::Value> {
        let dict = PyDict::new(self.py);
        for (key, value) in members {
            dict.set_item(key, value)?;
        }
        Ok(dict.into_any())
    }
}

/// A JSON number as `json.loads` makes it: integer text an `int` of any size, anything else a
/// `float` (beyond its range, infinite).
fn python_number<'py>(py: Python<'py>, text: &str, integer: bool) -> PyResult<Bound<'py, PyAny>> {
    if integer {
        if text.len() <= 18 {
            if let Ok(small) = text.parse::<i64>() {
                return Ok(small.into_pyobject(py)?.into_any());
            }
        }
        // Beyond 64 bits: Python ints have no limit.
        return py.get_type::<pyo3::types::PyInt>().call1((text,));
    }
    let float: f64 = text
        .parse()
        .map_err(|_| PyValueError::new_err("number out of range"))?;
    Ok(float.into_pyobject(py)?.into_any())
}

/// The retry feedback for schema violations given as `path: message` lines.
#[pyfunction]
fn schema_feedback(violations: Vec<String>) -> String {
    llmjson::retry::schema_feedback(&violations)
}

/// The feedback text for attempt `attempt` of `budget` (the Rust retry loop's words).
#[pyfunction]
fn feedback_message(attempt: usize, budget: usize, body: &str, repeated: bool) -> String {
    llmjson::retry::feedback_message(attempt, budget, body, repeated)
}

/// The feedback body for a reply the caller knows was cut off at the token limit, whatever
/// the parse said: (message, advice).
#[pyfunction]
fn truncation_feedback() -> (String, Option<String>) {
    llmjson::retry::feedback_body(llmjson::retry::Failure::Truncated, &Error::Empty)
}

/// Every repair kind's stable name, in declaration order.
#[pyfunction]
fn repair_kinds() -> Vec<&'static str> {
    llmjson::RepairKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect()
}

/// One repair as Python sees it: (kind, start, end, line, column, path, detail), the span in
/// characters.
type RepairEntry<'r> = (&'static str, usize, usize, usize, usize, &'r str, &'r str);

/// A result's repairs, kept natively until Python first reads `ParseResult.repairs`: a caller
/// who only wants the value pays for no Python object per repair, nor for its span in
/// characters, path or detail (the repairs move here from the parse, as they are).
#[pyclass(frozen, name = "RepairLog", module = "llmjson._llmjson")]
pub struct PyRepairLog {
    repairs: Vec<llmjson::Repair>,
    /// The text the spans point into, kept only when it is not ASCII (elsewhere a byte offset
    /// is already a character offset).
    text: Option<Box<str>>,
}

impl PyRepairLog {
    /// The repairs of `parsed`, moved out of it (none kept without `with_repairs`). Call it
    /// after everything else that reads them.
    fn of(text: &str, parsed: &mut [Parsed], with_repairs: bool) -> Self {
        let repairs: Vec<llmjson::Repair> = if with_repairs {
            parsed
                .iter_mut()
                .flat_map(|p| std::mem::take(&mut p.repairs))
                .collect()
        } else {
            Vec::new()
        };
        let text = (!repairs.is_empty() && !text.is_ascii()).then(|| text.into());
        PyRepairLog { repairs, text }
    }
}

#[pymethods]
impl PyRepairLog {
    /// (kind, start, end, line, column, path, detail) per repair, in the order of the text.
    fn tuples<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // Starts come in order; ends nearly so: one cursor each.
        let text = self.text.as_deref().unwrap_or("");
        let (starts, ends) = (CharOffsets::new(text), CharOffsets::new(text));
        let at = |offsets: &CharOffsets<'_>, byte: usize| match self.text {
            Some(_) => offsets.of(byte),
            None => byte,
        };
        PyList::new(
            py,
            self.repairs.iter().map(|r| -> RepairEntry<'_> {
                (
                    r.kind.as_str(),
                    at(&starts, r.span.start),
                    at(&ends, r.span.end),
                    r.line,
                    r.column,
                    &r.path,
                    &r.detail,
                )
            }),
        )
    }

    fn __len__(&self) -> usize {
        self.repairs.len()
    }
}

/// The items a salvage left out, as (path, start, end, line, column, errors) with errors as
/// (path, keyword, message) tuples.
fn dropped_tuples<'py>(
    py: Python<'py>,
    text: &str,
    p: &Parsed,
) -> PyResult<Vec<Bound<'py, PyTuple>>> {
    let (starts, ends) = (CharOffsets::new(text), CharOffsets::new(text));
    p.dropped
        .iter()
        .map(|item| {
            let errors: Vec<(&str, &str, &str)> = item
                .errors
                .iter()
                .map(|e| {
                    (
                        e.instance_path.as_str(),
                        e.keyword.as_str(),
                        e.message.as_str(),
                    )
                })
                .collect();
            (
                item.path.as_str(),
                starts.of(item.span.start),
                ends.of(item.span.end),
                item.line,
                item.column,
                errors,
            )
                .into_pyobject(py)
        })
        .collect()
}

/// Byte offsets (Rust) to character offsets (Python `str` indices). Keeps a cursor, so offsets
/// asked in increasing order cost one pass over the text in all.
struct CharOffsets<'t> {
    text: &'t str,
    ascii: bool,
    /// The last offset asked: (byte, characters before it).
    cursor: std::cell::Cell<(usize, usize)>,
}

impl<'t> CharOffsets<'t> {
    fn new(text: &'t str) -> Self {
        CharOffsets {
            text,
            ascii: text.is_ascii(),
            cursor: std::cell::Cell::new((0, 0)),
        }
    }

    fn of(&self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        if self.ascii {
            return byte;
        }
        let (mut from, mut chars) = self.cursor.get();
        if byte < from {
            (from, chars) = (0, 0);
        }
        // Count the bytes that start a character (not UTF-8 continuation bytes).
        chars += self.text.as_bytes()[from..byte]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        self.cursor.set((byte, chars));
        chars
    }
}

fn parse_level(level: &str) -> PyResult<RepairLevel> {
    level
        .parse()
        .map_err(|_| bad_choice("level", level, "none, conservative, full"))
}

fn bad_choice(name: &str, got: &str, allowed: &str) -> PyErr {
    PyValueError::new_err(format!("{name} must be one of {allowed}; got {got:?}"))
}

/// An `llmjson::Value` as the Python object `json.loads` would give: dict (ordered), list,
/// str, int (any size), float, bool, None.
fn to_python<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    Converter {
        py,
        keys: KeyCache::default(),
    }
    .convert(value)
}

/// Keys repeat (every step of a plan has "id", "tool", …): the first [`KEY_CACHE`] distinct keys
/// are kept as Python strings and reused, which saves an allocation and a hash per member.
#[derive(Default)]
struct KeyCache<'py>(Vec<(Box<str>, Bound<'py, PyString>)>);

const KEY_CACHE: usize = 64;

impl<'py> KeyCache<'py> {
    fn get(&mut self, py: Python<'py>, key: &str) -> Bound<'py, PyString> {
        if let Some((_, cached)) = self.0.iter().find(|(k, _)| **k == *key) {
            return cached.clone();
        }
        let fresh = PyString::new(py, key);
        if self.0.len() < KEY_CACHE {
            self.0.push((key.into(), fresh.clone()));
        }
        fresh
    }
}

struct Converter<'py> {
    py: Python<'py>,
    keys: KeyCache<'py>,
}

impl<'py> Converter<'py> {
    fn convert(&mut self, value: &Value) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        Ok(match value {
            Value::Null => py.None().into_bound(py),
            Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
            // Integers the value holds as integers need no text.
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => i.into_pyobject(py)?.into_any(),
                (None, Some(u)) => u.into_pyobject(py)?.into_any(),
                _ => python_number(py, &n.to_text(), n.is_integer_text())?,
            },
            Value::String(s) => PyString::new(py, s).into_any(),
            Value::Array(items) => {
                let list = PyList::empty(py);
                for item in items {
                    list.append(self.convert(item)?)?;
                }
                list.into_any()
            }
            Value::Object(map) => {
                let dict = PyDict::new(py);
                for (k, v) in map {
                    let key = self.keys.get(py, k);
                    dict.set_item(key, self.convert(v)?)?;
                }
                dict.into_any()
            }
        })
    }
}

/// The library's error as `NativeError(kind, message, details)`.
fn native_error(py: Python<'_>, error: &Error) -> PyErr {
    native_error_diagnosed(py, error, None)
}

/// The error of a failed parse of `reply`: diagnosed from the reply itself (an escaping failure
/// is read from its repair log), with the failure envelope in the details.
fn parse_error(py: Python<'_>, error: &Error, reply: &str, options: &Options) -> PyErr {
    let reply = llmjson::retry::Reply::from(reply);
    let diagnosis = py.detach(|| llmjson::retry::diagnose(&reply, options, error));
    native_error_diagnosed(py, error, Some(diagnosis))
}

fn native_error_diagnosed(
    py: Python<'_>,
    error: &Error,
    diagnosis: Option<llmjson::retry::Diagnosis>,
) -> PyErr {
    let details = PyDict::new(py);
    let filled: PyResult<()> = (|| {
        // What a retry tells the model (the Python retry loop adds the attempt header).
        let diagnosis = diagnosis.unwrap_or_else(|| llmjson::retry::Diagnosis {
            failure: llmjson::retry::failure_of(error, false),
            escaping: Vec::new(),
        });
        let (feedback, advice) = diagnosis.feedback(error);
        details.set_item("failure", diagnosis.failure.as_str())?;
        details.set_item("feedback", feedback)?;
        details.set_item("advice", advice)?;
        // The envelope's request id is filled in by the Python layer (its own or the caller's).
        let envelope = serde_json::to_value(diagnosis.envelope(error, ""))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        details.set_item("envelope", to_python(py, &Value::from(envelope))?)?;
        if let Some(p) = error.position() {
            details.set_item("offset", p.offset)?;
            details.set_item("line", p.line)?;
            details.set_item("column", p.column)?;
        }
        match error {
            Error::Syntax(s) => {
                details.set_item("excerpt", &s.excerpt)?;
                details.set_item("reason", &s.message)?;
                details.set_item("truncated", s.truncated)?;
            }
            Error::RepairRejected {
                removed_share,
                limit,
                removed_bytes,
                located_bytes,
            } => {
                details.set_item("removed_share", removed_share)?;
                details.set_item("limit", limit)?;
                details.set_item("removed_bytes", removed_bytes)?;
                details.set_item("located_bytes", located_bytes)?;
            }
            Error::Schema {
                errors,
                value,
                truncated,
            } => {
                let list = PyList::empty(py);
                for e in errors {
                    list.append((
                        e.instance_path.as_str(),
                        e.keyword.as_str(),
                        e.message.as_str(),
                    ))?;
                }
                details.set_item("errors", list)?;
                details.set_item("value", to_python(py, value)?)?;
                details.set_item("truncated", truncated)?;
            }
            Error::NoJson { hint } => details.set_item("hint", hint)?,
            Error::TooLarge { size, limit } => {
                details.set_item("size", size)?;
                details.set_item("limit", limit)?;
            }
            _ => {}
        }
        Ok(())
    })();
    if let Err(e) = filled {
        return e;
    }
    NativeError::new_err((error.kind(), error.to_string(), details.unbind()))
}

/// `loads` when only the value is wanted, in one native call: a reply that is one valid document
/// (a list or an object) read straight into Python objects, otherwise parsed with the default
/// policies at `level` (`none` while the kill switch is set) and converted; the call counted in
/// `metrics`, both the Prometheus counters and the outcomes (the time covers the parse and the
/// conversion). No log, span or diagnostics are built. A failure raises as `parse` does and is
/// not counted: the caller's full path raises it again, with its diagnostics, and counts it.
#[pyfunction]
#[pyo3(signature = (text, metrics, *, level="full", max_size=llmjson::DEFAULT_MAX_SIZE))]
fn loads_value<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    metrics: &batch::PyMetrics,
    level: &str,
    max_size: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let started = std::time::Instant::now();
    let text = text.to_str()?;
    let first = text
        .bytes()
        .find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
    if matches!(first, Some(b'{' | b'[')) {
        if let Some(value) = read_valid(py, text, max_size)? {
            metrics.record_valid(started.elapsed());
            return Ok(value);
        }
    }
    let level = if llmjson::repair_disabled_by_env() {
        llmjson::RepairLevel::None
    } else {
        parse_level(level)?
    };
    let options = llmjson::Options::default().level(level).max_size(max_size);
    let parsed = py
        .detach(|| llmjson::parse_value(text, &options))
        .map_err(|e| parse_error(py, &e, text, &options))?;
    let value = to_python(py, &parsed.value)?;
    metrics.record(&parsed, started.elapsed());
    Ok(value)
}

/// The operator's kill switch (`LLMJSON_REPAIR=0`, read now): the library's own rule.
#[pyfunction]
fn repair_disabled() -> bool {
    llmjson::repair_disabled_by_env()
}

/// The native module.
#[pymodule]
fn _llmjson(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySchema>()?;
    m.add_class::<CompiledOptions>()?;
    m.add_class::<PyRepairLog>()?;
    m.add_class::<stream::PyStreamParser>()?;
    m.add_class::<stream::PyLaterEvents>()?;
    m.add_class::<batch::PyMetrics>()?;
    m.add_function(wrap_pyfunction!(batch::batch_chunk, m)?)?;
    m.add_function(wrap_pyfunction!(columns::parse_arrow_strings, m)?)?;
    m.add("OUTCOME_OF_ERROR_KIND", llmjson::OUTCOMES.to_vec())?;
    // The repair kinds the diagnostics record counts as `coercions`.
    let coercions: Vec<&str> = llmjson::RepairKind::ALL
        .iter()
        .filter(|k| k.is_coercion())
        .map(|k| k.as_str())
        .collect();
    m.add("COERCION_KINDS", coercions)?;
    m.add("METRIC_NAMES", llmjson::metrics::NAMES.to_vec())?;
    m.add_class::<PyEvidence>()?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(loads_value, m)?)?;
    m.add_function(wrap_pyfunction!(repair_disabled, m)?)?;
    m.add_function(wrap_pyfunction!(repair_kinds, m)?)?;
    m.add_function(wrap_pyfunction!(schema_feedback, m)?)?;
    m.add_function(wrap_pyfunction!(feedback_message, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid_document, m)?)?;
    m.add_function(wrap_pyfunction!(read_valid_document, m)?)?;
    m.add_function(wrap_pyfunction!(truncation_feedback, m)?)?;
    m.add("NativeError", m.py().get_type::<NativeError>())?;
    m.add("DEFAULT_MAX_SIZE", llmjson::DEFAULT_MAX_SIZE)?;
    m.add("DEFAULT_MAX_DEPTH", llmjson::DEFAULT_MAX_DEPTH)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

//! `llmjson.StreamParser`'s native half: the library's `StreamParser` behind a Python object.
//! A chunk of at least [`DETACH_AT`] bytes is read with the GIL released; a token-sized chunk is
//! read in less time than releasing and taking the GIL back costs.

use crate::{options_from, parse_error, parsed_tuple, to_python, PySchema};
use llmjson::{Event, LaterEvents, Options, StreamParser};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};

/// Chunks this long or longer are fed with the GIL released.
const DETACH_AT: usize = 4096;

#[pyclass(name = "StreamParser", module = "llmjson._llmjson")]
pub struct PyStreamParser {
    /// `None` once finished.
    inner: Option<StreamParser>,
    options: Options,
    /// Makes the exception a failed `feed` raises from the native one (the Python package's
    /// typed errors, with diagnostics): `feed` is then called straight from Python, with no
    /// wrapper around every token.
    on_error: Option<Py<PyAny>>,
}

impl PyStreamParser {
    fn inner(&mut self) -> PyResult<&mut StreamParser> {
        self.inner
            .as_mut()
            .ok_or_else(|| PyRuntimeError::new_err("the stream was finished"))
    }
}

#[pymethods]
impl PyStreamParser {
    #[new]
    #[pyo3(signature = (*, level="full", truncation="complete", max_removed_ratio=0.3,
        max_size=llmjson::DEFAULT_MAX_SIZE, max_depth=llmjson::DEFAULT_MAX_DEPTH,
        duplicate_keys="last", schema=None, coercion="fit", guard_comments="data", events=true,
        latex=true, invalid_items="fail", on_error=None))]
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
        events: bool,
        latex: bool,
        invalid_items: &str,
        on_error: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        let options = options_from(
            level,
            truncation,
            max_removed_ratio,
            max_size,
            max_depth,
            duplicate_keys,
            schema,
            coercion,
            guard_comments,
            latex,
            invalid_items,
        )?;
        let mut inner = StreamParser::new(options.clone());
        if !events {
            inner = inner.without_events();
        }
        Ok(PyStreamParser {
            inner: Some(inner),
            options,
            on_error,
        })
    }

    /// Feeds a chunk (`str`, or `bytes` whose split characters are held until complete).
    fn feed(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        // Called once per token by a streaming client: nothing here but the feed itself.
        let Some(inner) = self.inner.as_mut() else {
            return Err(PyRuntimeError::new_err("the stream was finished"));
        };
        let result = if let Ok(text) = chunk
            .cast_exact::<PyString>()
            .or_else(|_| chunk.cast::<PyString>())
        {
            let text = text.to_str()?;
            if text.len() >= DETACH_AT {
                py.detach(|| inner.feed(text))
            } else {
                inner.feed(text)
            }
        } else if let Ok(bytes) = chunk.cast::<PyBytes>() {
            let bytes = bytes.as_bytes();
            if bytes.len() >= DETACH_AT {
                py.detach(|| inner.feed_bytes(bytes))
            } else {
                inner.feed_bytes(bytes)
            }
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "expected str or bytes, got {}",
                chunk.get_type().name()?
            )));
        };
        result.map_err(|e| {
            let error = parse_error(py, &e, inner.text(), &self.options);
            let _ = error.value(py).setattr("stream_text", inner.text());
            match &self.on_error {
                Some(hook) => match hook.call1(py, (error.value(py),)) {
                    Ok(typed) => PyErr::from_value(typed.into_bound(py)),
                    Err(failed) => failed,
                },
                None => error,
            }
        })
    }

    /// (value or None, complete pointers, provisional pointers, done, malformed).
    fn snapshot<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let inner = self.inner()?;
        let snapshot = inner.snapshot();
        let value = match &snapshot.value {
            Some(v) => to_python(py, v)?,
            None => py.None().into_bound(py),
        };
        PyTuple::new(
            py,
            [
                value,
                PyList::new(py, &snapshot.complete)?.into_any(),
                PyList::new(py, &snapshot.provisional)?.into_any(),
                snapshot.done.into_pyobject(py)?.to_owned().into_any(),
                snapshot.malformed.into_pyobject(py)?.to_owned().into_any(),
            ],
        )
    }

    /// The events since the last call, as (kind, path, text or property or None) tuples.
    fn events<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let events = self.inner()?.events();
        event_list(py, &events)
    }

    /// (chunks, bytes, milliseconds to the first complete value or None).
    fn stats(&mut self) -> PyResult<(usize, usize, Option<f64>)> {
        let stats = self.inner()?.stats();
        Ok((
            stats.chunks,
            stats.bytes,
            stats.first_value.map(|t| t.as_secs_f64() * 1000.0),
        ))
    }

    /// Ends the stream: (the whole text, `parse`'s tuple for it, the last events as a
    /// `LaterEvents` (made when read), (chunks, milliseconds to the first value)); a failed
    /// parse raises NativeError as `parse` does, with `stream_events` (a `LaterEvents`) and
    /// `stream_text` on it.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let inner = self
            .inner
            .take()
            .ok_or_else(|| PyRuntimeError::new_err("the stream was finished"))?;
        let mut finished = py.detach(|| inner.finish_later());
        let stats = (
            finished.stats.chunks,
            finished.stats.first_value.map(|t| t.as_secs_f64() * 1000.0),
        );
        let text = PyString::new(py, &finished.text);
        let parsed = match &mut finished.result {
            Ok(parsed) => Ok(parsed_tuple(
                py,
                &finished.text,
                std::slice::from_mut(parsed),
                false,
                true,
            )?),
            Err(e) => Err(parse_error(py, e, &finished.text, &self.options)),
        };
        let events = PyLaterEvents {
            later: Some(Later {
                value: match finished.result {
                    Ok(parsed) => Some(parsed.value),
                    Err(error) => error.value().cloned(),
                },
                events: finished.events,
                text: finished.text,
            }),
        };
        match parsed {
            Ok(parsed) => PyTuple::new(
                py,
                [
                    text.into_any(),
                    parsed.into_any(),
                    Bound::new(py, events)?.into_any(),
                    stats.into_pyobject(py)?.into_any(),
                ],
            ),
            Err(error) => {
                // The last events (a `Revised` for everything shown) and the reply ride on
                // the error.
                error
                    .value(py)
                    .setattr("stream_events", Bound::new(py, events)?)?;
                error.value(py).setattr("stream_text", text)?;
                Err(error)
            }
        }
    }
}

/// What a finished stream keeps to make its last events when they are read.
struct Later {
    value: Option<llmjson::Value>,
    events: LaterEvents,
    text: String,
}

/// The last events of a finished stream, made and converted when first read: most callers
/// never read them, and a long reply has hundreds of thousands.
#[pyclass(name = "LaterEvents", module = "llmjson._llmjson")]
pub struct PyLaterEvents {
    /// `None` once taken.
    later: Option<Later>,
}

#[pymethods]
impl PyLaterEvents {
    /// The events as (kind, path, text or property or None) tuples (once: later calls give
    /// an empty list).
    fn take<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let Some(later) = self.later.take() else {
            return Ok(PyList::empty(py));
        };
        let events = py.detach(|| later.events.resolve(&later.text, later.value.as_ref()));
        event_list(py, &events)
    }
}

fn event_list<'py>(py: Python<'py>, events: &[Event]) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for event in events {
        let (kind, path, extra) = match event {
            Event::KeyStarted { path } => ("key_started", path, None),
            Event::ElementAppended { path } => ("element_appended", path, None),
            Event::StringGrew { path, text } => ("string_grew", path, Some(text)),
            Event::ValueCompleted { path } => ("value_completed", path, None),
            Event::Revised { path } => ("revised", path, None),
            Event::RequiredMissing { path, property } => ("required_missing", path, Some(property)),
        };
        list.append((kind, path, extra))?;
    }
    Ok(list)
}

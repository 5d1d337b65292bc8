//! `llmjson.StreamParser`'s native half: the library's `StreamParser` behind a Python object.
//! A chunk of at least [`DETACH_AT`] bytes is read with the GIL released; a token-sized chunk is
//! read in less time than releasing and taking the GIL back costs.

use crate::{parse_error, parsed_tuple, to_python, CompiledOptions};
use llmjson::{Change, Event, LaterEvents, Options, StreamParser};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};

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
    /// The value the snapshots copy from, kept up to date by the library's `changes()`.
    view: View,
}

/// Where a container sits in its parent.
enum Slot {
    Root,
    Index(usize),
    Key(Py<PyString>),
}

/// The Python objects of the value a stream shows, kept up to date in place: each complete
/// member is made once. A snapshot copies only the containers a later change may touch (those
/// on the settled path and on the cursor's) and shares every other member.
#[derive(Default)]
struct View {
    root: Option<Py<PyAny>>,
    /// The containers from the root to the cursor's.
    cursor: Vec<(Py<PyAny>, Slot)>,
    /// The cursor's path where the settled part ended (the containers the next update
    /// truncates and appends to).
    settled: Vec<(Py<PyAny>, Slot)>,
}

fn clone_path(py: Python<'_>, path: &[(Py<PyAny>, Slot)]) -> Vec<(Py<PyAny>, Slot)> {
    path.iter()
        .map(|(node, slot)| {
            let slot = match slot {
                Slot::Root => Slot::Root,
                Slot::Index(i) => Slot::Index(*i),
                Slot::Key(key) => Slot::Key(key.clone_ref(py)),
            };
            (node.clone_ref(py), slot)
        })
        .collect()
}

impl View {
    /// Applies an update; the first `settled` changes are the settled part's (the cursor is
    /// then on the innermost container it holds open: that path is kept; `None`: the path kept
    /// last stands).
    fn apply(
        &mut self,
        py: Python<'_>,
        changes: Vec<Change>,
        settled: Option<usize>,
    ) -> PyResult<()> {
        let count = changes.len();
        for (i, change) in changes.into_iter().enumerate() {
            if settled == Some(i) {
                self.settled = clone_path(py, &self.cursor);
            }
            self.change(py, change)?;
        }
        if settled.is_some_and(|s| s >= count) {
            self.settled = clone_path(py, &self.cursor);
        }
        Ok(())
    }

    fn top<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyAny>> {
        self.cursor.last().map(|(node, _)| node.bind(py).clone())
    }

    /// Puts `value` last in the container at the cursor; where it went.
    fn push(
        &self,
        py: Python<'_>,
        key: Option<String>,
        value: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Slot>> {
        let Some(top) = self.top(py) else {
            return Ok(None);
        };
        if let Ok(list) = top.cast::<PyList>() {
            list.append(value)?;
            return Ok(Some(Slot::Index(list.len() - 1)));
        }
        if let Ok(dict) = top.cast::<PyDict>() {
            let key = PyString::new(py, key.as_deref().unwrap_or_default());
            dict.set_item(&key, value)?;
            return Ok(Some(Slot::Key(key.unbind())));
        }
        Ok(None)
    }

    fn change(&mut self, py: Python<'_>, change: Change) -> PyResult<()> {
        match change {
            Change::Root(value) => {
                self.cursor.clear();
                self.settled.clear();
                self.root = match value {
                    Some(value) => {
                        let root = to_python(py, &value)?.unbind();
                        self.cursor.push((root.clone_ref(py), Slot::Root));
                        Some(root)
                    }
                    None => None,
                };
            }
            Change::Up => {
                if self.cursor.len() > 1 {
                    self.cursor.pop();
                }
            }
            Change::Enter { key, index } => {
                let Some(top) = self.top(py) else {
                    return Ok(());
                };
                let entered = if let Ok(list) = top.cast::<PyList>() {
                    match index < list.len() {
                        true => Some((list.get_item(index)?, Slot::Index(index))),
                        false => None,
                    }
                } else if let Ok(dict) = top.cast::<PyDict>() {
                    let key = PyString::new(py, key.as_deref().unwrap_or_default());
                    dict.get_item(&key)?
                        .map(|child| (child, Slot::Key(key.unbind())))
                } else {
                    None
                };
                if let Some((child, slot)) = entered {
                    self.cursor.push((child.unbind(), slot));
                }
            }
            Change::Truncate(len) => {
                let Some(top) = self.top(py) else {
                    return Ok(());
                };
                if let Ok(list) = top.cast::<PyList>() {
                    if list.len() > len {
                        list.del_slice(len, list.len())?;
                    }
                } else if let Ok(dict) = top.cast::<PyDict>() {
                    while dict.len() > len {
                        dict.call_method0("popitem")?;
                    }
                }
            }
            Change::Push { key, value } => {
                let value = to_python(py, &value)?;
                self.push(py, key, &value)?;
            }
            Change::Open { key, object } => {
                let container = if object {
                    PyDict::new(py).into_any()
                } else {
                    PyList::empty(py).into_any()
                };
                if let Some(slot) = self.push(py, key, &container)? {
                    self.cursor.push((container.unbind(), slot));
                }
            }
        }
        Ok(())
    }

    /// A fresh value: the containers a later change may touch copied (the settled path's and
    /// the cursor's), every other member shared.
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(root) = &self.root else {
            return Ok(py.None().into_bound(py));
        };
        copy_along(py, root.bind(py), 1, &self.settled, &self.cursor)
    }
}

/// `node` (at `depth` of both paths) shallow-copied, its children on either path copied the
/// same way.
fn copy_along<'py>(
    py: Python<'py>,
    node: &Bound<'py, PyAny>,
    depth: usize,
    settled: &[(Py<PyAny>, Slot)],
    cursor: &[(Py<PyAny>, Slot)],
) -> PyResult<Bound<'py, PyAny>> {
    let copy = if let Ok(list) = node.cast::<PyList>() {
        list.get_slice(0, list.len()).into_any()
    } else if let Ok(dict) = node.cast::<PyDict>() {
        dict.copy()?.into_any()
    } else {
        return Ok(node.clone());
    };
    let mut done: Option<&Py<PyAny>> = None;
    let next = [settled, cursor].map(|path| on_path(py, path, depth, node));
    for next in next.into_iter().flatten() {
        let (child, slot) = next;
        if done.is_some_and(|d| d.bind(py).is(child.bind(py))) {
            continue;
        }
        done = Some(child);
        let child_copy = copy_along(py, child.bind(py), depth + 1, settled, cursor)?;
        match slot {
            Slot::Index(i) => {
                if let Ok(list) = copy.cast::<PyList>() {
                    if *i < list.len() && list.get_item(*i)?.is(child.bind(py)) {
                        list.set_item(*i, child_copy)?;
                    }
                }
            }
            Slot::Key(key) => {
                if let Ok(dict) = copy.cast::<PyDict>() {
                    if dict.get_item(key)?.is_some_and(|v| v.is(child.bind(py))) {
                        dict.set_item(key, child_copy)?;
                    }
                }
            }
            Slot::Root => {}
        }
    }
    Ok(copy)
}

/// The child `path` goes through below `node`, when `node` is on it at `depth - 1`.
fn on_path<'a>(
    py: Python<'_>,
    path: &'a [(Py<PyAny>, Slot)],
    depth: usize,
    node: &Bound<'_, PyAny>,
) -> Option<&'a (Py<PyAny>, Slot)> {
    let parent = &path.get(depth - 1)?.0;
    if parent.bind(py).is(node) {
        path.get(depth)
    } else {
        None
    }
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
    #[pyo3(signature = (options, *, events=true, on_error=None))]
    fn new(options: &CompiledOptions, events: bool, on_error: Option<Py<PyAny>>) -> PyResult<Self> {
        let options = options.inner.clone();
        let mut inner = StreamParser::new(options.clone());
        if !events {
            inner = inner.without_events();
        }
        Ok(PyStreamParser {
            inner: Some(inner),
            options,
            on_error,
            view: View::default(),
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

    /// (value or None, complete pointers or None, provisional pointers, done, malformed, the
    /// innermost open pointer or None). Without a schema that shapes the value and without
    /// `drop_element`, the value is kept up to date in place from what arrived and copied along
    /// the paths later changes touch (complete members shared between snapshots); the
    /// complete pointers are then None (they follow from the open pointer), and the
    /// provisional ones are given as where they start — ([(open container, first provisional
    /// member)], [other pointers]) — listed by `Snapshot.provisional` when read. With `live`,
    /// the value kept up to date is handed out itself, not copied (later chunks change it).
    #[pyo3(signature = (live=false))]
    fn snapshot<'py>(&mut self, py: Python<'py>, live: bool) -> PyResult<Bound<'py, PyTuple>> {
        let whole = self.options.schema.is_some()
            || self.options.truncation == llmjson::Truncation::DropElement;
        if !whole {
            let changes = self.inner()?.changes();
            self.view.apply(py, changes.changes, changes.settled)?;
            let value = match (&self.view.root, live) {
                (Some(root), true) => root.bind(py).clone(),
                (None, true) => py.None().into_bound(py),
                (_, false) => self.view.copy(py)?,
            };
            return PyTuple::new(
                py,
                [
                    value,
                    py.None().into_bound(py),
                    PyTuple::new(
                        py,
                        [
                            PyList::new(py, &changes.provisional.open)?.into_any(),
                            PyList::new(py, &changes.provisional.other)?.into_any(),
                        ],
                    )?
                    .into_any(),
                    changes.done.into_pyobject(py)?.to_owned().into_any(),
                    changes.malformed.into_pyobject(py)?.to_owned().into_any(),
                    changes.open.into_pyobject(py)?.into_any(),
                ],
            );
        }
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
                py.None().into_bound(py),
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

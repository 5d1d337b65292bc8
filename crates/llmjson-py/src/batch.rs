//! `llmjson.batch` (records in chunks, parsed in parallel with the GIL released, by the same
//! engine as `llmjson batch`) and the Prometheus counters behind `llmjson.metrics`.

use crate::{to_python, CompiledOptions};
use llmjson::metrics::{Ending, Metrics};
use llmjson::Value;
use llmjson_batch::{Context, Fields, Line, Pending};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::Mutex;
use std::time::Duration;

/// Parses a chunk of JSON Lines records (each a JSON object text) in parallel. Returns one tuple
/// per record, in order: (seq, id, ok, outcome, value, repairs_json, error, diagnostics_json,
/// truncated, fail_closed_reason, repair_kinds, seconds); `error` is (kind, message, line,
/// column) or None.
#[pyfunction]
#[pyo3(signature = (lines, *, first_seq, source, id_field, reply_field, options))]
pub fn batch_chunk<'py>(
    py: Python<'py>,
    lines: Vec<String>,
    first_seq: u64,
    source: &str,
    id_field: String,
    reply_field: String,
    options: &CompiledOptions,
) -> PyResult<Bound<'py, PyList>> {
    let options = options.inner.clone();
    let fields = Fields {
        id: id_field,
        reply: reply_field,
    };
    let source: std::sync::Arc<str> = source.into();
    let processed = py.detach(|| {
        let records = lines
            .into_iter()
            .enumerate()
            .map(|(i, line)| {
                let seq = first_seq + i as u64;
                Pending::Line {
                    seq,
                    source: source.clone(),
                    line_number: seq + 1,
                    line: Line::Bytes(line.into_bytes()),
                }
            })
            .collect();
        llmjson_batch::process_all(records, &fields, &Context::new(options))
    });
    let out = PyList::empty(py);
    for p in processed {
        let rendered = p.render();
        let error = match &p.failure {
            Some(f) => (f.kind, f.message.as_str(), f.line, f.column)
                .into_pyobject(py)?
                .into_any(),
            None => py.None().into_bound(py),
        };
        let value = match &p.value {
            Some(v) => to_python(py, v)?,
            None => py.None().into_bound(py),
        };
        let kinds: Vec<&str> = p.repairs.iter().map(|r| r.kind.as_str()).collect();
        let item = PyTuple::new(
            py,
            [
                p.seq.into_pyobject(py)?.into_any(),
                to_python(py, &Value::from(p.id.clone()))?,
                p.ok().into_pyobject(py)?.to_owned().into_any(),
                p.outcome().into_pyobject(py)?.into_any(),
                value,
                rendered.repairs().into_pyobject(py)?.into_any(),
                error,
                rendered.diagnostics().into_pyobject(py)?.into_any(),
                p.truncated.into_pyobject(py)?.to_owned().into_any(),
                p.failure
                    .as_ref()
                    .and_then(|f| f.fail_closed)
                    .into_pyobject(py)?
                    .into_any(),
                PyList::new(py, kinds)?.into_any(),
                p.elapsed.as_secs_f64().into_pyobject(py)?.into_any(),
            ],
        )?;
        out.append(item)?;
    }
    Ok(out)
}

/// The process's counters: the Prometheus ones (`llmjson::metrics::Metrics`) and the outcomes
/// `llmjson.metrics.snapshot()` reports, each behind its own lock. Both live here so that a
/// call made in one native step (`loads_value`) counts itself without returning to Python.
#[pyclass(frozen, name = "Metrics", module = "llmjson._llmjson")]
#[derive(Default)]
pub struct PyMetrics {
    inner: Mutex<Metrics>,
    outcomes: Mutex<Outcomes>,
}

/// The outcomes of `llmjson.metrics.snapshot()`, in its order: every call counts in one.
pub(crate) const OUTCOMES: [&str; 8] = [
    "ok",
    "repaired",
    "empty",
    "no_json",
    "parse_fail",
    "repair_rejected",
    "schema_fail",
    "verify_fail",
];

/// [`OUTCOMES`]' indices of the outcomes a value counts in (checked when compiling).
const OK: usize = 0;
const REPAIRED: usize = 1;
const _: () = assert!(same(OUTCOMES[OK], "ok") && same(OUTCOMES[REPAIRED], "repaired"));

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Calls by outcome, retries, and the calls' latency.
#[derive(Default, Clone)]
struct Outcomes {
    counts: [u64; OUTCOMES.len()],
    retry: u64,
    calls: u64,
    latency_total: f64,
    latency_max: f64,
}

impl PyMetrics {
    /// Counts one call that gave a parsed value, in both sets of counters.
    pub(crate) fn record(&self, parsed: &llmjson::ParsedValue, elapsed: Duration) {
        self.record_value(
            parsed.is_repaired(),
            parsed.repairs.iter().map(|(kind, _)| kind.as_str()),
            parsed.is_truncated(),
            elapsed,
        );
    }

    /// Counts one call whose reply was one valid document, in both sets of counters.
    pub(crate) fn record_valid(&self, elapsed: Duration) {
        self.record_value(false, std::iter::empty(), false, elapsed);
    }

    fn record_value<'k>(
        &self,
        repaired: bool,
        repair_kinds: impl Iterator<Item = &'k str>,
        truncated: bool,
        elapsed: Duration,
    ) {
        self.lock().count(
            Ending::Value {
                repaired,
                repair_kinds,
                truncated,
            },
            elapsed,
        );
        let outcome = if repaired { REPAIRED } else { OK };
        self.record_outcome(outcome, elapsed.as_secs_f64());
    }

    /// Counts one call in `outcome` (an index into [`OUTCOMES`]).
    pub(crate) fn record_outcome(&self, outcome: usize, seconds: f64) {
        let mut o = lock(&self.outcomes);
        o.counts[outcome] += 1;
        o.calls += 1;
        o.latency_total += seconds;
        o.latency_max = o.latency_max.max(seconds);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Metrics> {
        lock(&self.inner)
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Each update is whole under the lock: a poisoned lock still holds good counts.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[pymethods]
impl PyMetrics {
    #[new]
    fn new() -> Self {
        PyMetrics::default()
    }

    /// Counts one reply: `outcome` is ok, repaired or failed.
    #[pyo3(signature = (outcome, seconds, *, failure_kind=None, repair_kinds=Vec::new(),
        truncated=false, fail_closed=None))]
    fn count(
        &self,
        outcome: &str,
        seconds: f64,
        failure_kind: Option<&str>,
        repair_kinds: Vec<String>,
        truncated: bool,
        fail_closed: Option<&str>,
    ) -> PyResult<()> {
        let kinds = repair_kinds.iter().map(String::as_str);
        let ending = match (outcome, failure_kind) {
            ("ok" | "repaired", None) => Ending::Value {
                repaired: outcome == "repaired",
                repair_kinds: kinds,
                truncated,
            },
            ("failed", Some(kind)) => Ending::Failed { kind, fail_closed },
            _ => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "outcome must be ok or repaired (without a failure kind) or failed (with \
                     one); got {outcome:?} and {failure_kind:?}"
                )))
            }
        };
        self.lock()
            .count(ending, Duration::from_secs_f64(seconds.max(0.0)));
        Ok(())
    }

    /// Counts one call in `outcome` (one of `OUTCOMES`) for `llmjson.metrics.snapshot()`.
    fn count_outcome(&self, outcome: &str, seconds: f64) -> PyResult<()> {
        let Some(i) = OUTCOMES.iter().position(|&o| o == outcome) else {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "outcome must be one of {OUTCOMES:?}; got {outcome:?}"
            )));
        };
        self.record_outcome(i, seconds.max(0.0));
        Ok(())
    }

    /// Counts one retry, in both sets of counters.
    fn count_retry(&self) {
        self.lock().retries += 1;
        lock(&self.outcomes).retry += 1;
    }

    /// Sets every counter to zero.
    fn reset(&self) {
        *self.lock() = Metrics::default();
        *lock(&self.outcomes) = Outcomes::default();
    }

    /// The outcome counters as `llmjson.metrics.snapshot()` returns them.
    fn outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let o = lock(&self.outcomes).clone();
        let d = PyDict::new(py);
        for (name, n) in OUTCOMES.iter().zip(o.counts) {
            d.set_item(name, n)?;
        }
        d.set_item("retry", o.retry)?;
        d.set_item("calls", o.calls)?;
        d.set_item("latency_total_s", o.latency_total)?;
        d.set_item("latency_max_s", o.latency_max)?;
        Ok(d)
    }

    /// The counters in Prometheus text exposition format.
    fn prometheus(&self) -> String {
        self.lock().to_prometheus()
    }

    /// The counters as a dict: ok, repaired, failed, repairs, failures, guard_rejections,
    /// truncated, fail_closed, retries, latency_buckets [(upper bound, cumulative count)],
    /// latency_sum, latency_count.
    fn families<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let m = self.lock().clone();
        let replies = m.replies();
        let d = PyDict::new(py);
        d.set_item("ok", m.ok)?;
        d.set_item("repaired", m.repaired)?;
        d.set_item("failed", m.failed)?;
        d.set_item("repairs", m.repairs.into_pyobject(py)?)?;
        d.set_item("failures", m.failures.into_pyobject(py)?)?;
        d.set_item("guard_rejections", m.guard_rejections)?;
        d.set_item("truncated", m.truncated)?;
        d.set_item("fail_closed", m.fail_closed.into_pyobject(py)?)?;
        d.set_item("retries", m.retries)?;
        let mut cumulative = 0;
        let buckets: Vec<(f64, u64)> = llmjson::metrics::LATENCY_BUCKETS
            .iter()
            .zip(m.latency_counts)
            .map(|(bound, n)| {
                cumulative += n;
                (*bound, cumulative)
            })
            .collect();
        d.set_item("latency_buckets", buckets)?;
        d.set_item("latency_sum", m.latency_sum)?;
        d.set_item("latency_count", replies)?;
        Ok(d)
    }
}

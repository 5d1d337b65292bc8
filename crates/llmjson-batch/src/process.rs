//! One record through the pipeline, and the result line it becomes.

use crate::record::{Fields, Input, Pending, Record};
use llmjson::metrics::{Ending, Metrics};
use llmjson::verify::Evidence;
use llmjson::{Diagnostics, Error, Options, Repair, Schema, Value};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What every record of a run shares: the options, and the compiled per-record schemas.
pub struct Context {
    options: Options,
    schemas: Mutex<HashMap<String, Arc<Schema>>>,
}

/// Distinct per-record schemas kept compiled; past this, the cache starts over (a run usually
/// has a handful, and a compile costs far more than a parse).
const SCHEMA_CACHE: usize = 64;

impl Context {
    /// A context whose records are parsed with `options` (a record's own `schema` and
    /// `evidence` replace the options' for that record).
    pub fn new(options: Options) -> Self {
        Context {
            options,
            schemas: Mutex::new(HashMap::new()),
        }
    }

    /// The options every record starts from.
    pub fn options(&self) -> &Options {
        &self.options
    }

    fn schema(&self, document: &serde_json::Value) -> Result<Arc<Schema>, Error> {
        let key = document.to_string();
        if let Some(schema) = self.lock().get(&key) {
            return Ok(Arc::clone(schema));
        }
        let schema = Arc::new(Schema::new(document.clone())?);
        let mut cache = self.lock();
        if cache.len() >= SCHEMA_CACHE {
            cache.clear();
        }
        cache.insert(key, Arc::clone(&schema));
        Ok(schema)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Schema>>> {
        // A panic while holding the lock cannot leave the map half-written (insert and clear
        // are whole), so a poisoned lock is still a good cache.
        self.schemas
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn options_for(
        &self,
        schema: Option<&serde_json::Value>,
        evidence: Option<&serde_json::Value>,
    ) -> Result<Options, Error> {
        let mut options = self.options.clone();
        if let Some(document) = schema {
            options = options.schema(self.schema(document)?);
        }
        if let Some(evidence) = evidence {
            let evidence = record_evidence(evidence, &options)?;
            options = options.evidence(evidence);
        }
        Ok(options)
    }
}

/// A record's evidence: a text, an array (texts, or JSON values), or any other JSON value.
fn record_evidence(value: &serde_json::Value, options: &Options) -> Result<Evidence, Error> {
    let mut evidence = Evidence::with_locale(options.verify.locale).max_size(options.max_size);
    let mut add = |name: &str, item: &serde_json::Value| -> Result<(), Error> {
        match item {
            serde_json::Value::String(text) => evidence.add_text(name, text).map(|_| ()),
            other => evidence
                .add_json(name, &Value::from(other.clone()))
                .map(|_| ()),
        }
    };
    match value {
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                add(&format!("evidence[{i}]"), item)?;
            }
        }
        other => add("evidence", other)?,
    }
    Ok(evidence)
}

/// Why a record gave no value.
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// The error's kind: the library's (`no_json`, `syntax`, `schema`, …) or the record's
    /// (`invalid_utf8`, `too_large`, `bad_record`, `missing_field`).
    pub kind: &'static str,
    /// The message.
    pub message: String,
    /// 1-based line in the reply, when the error has a place.
    pub line: Option<usize>,
    /// 1-based column in the reply, when the error has a place.
    pub column: Option<usize>,
    /// Why the verify stage blocked the answer, when it did.
    #[serde(skip)]
    pub fail_closed: Option<&'static str>,
}

impl Failure {
    fn of(error: &Error) -> Self {
        let (line, column) = match error.position() {
            Some(p) if p.line > 0 => (Some(p.line), Some(p.column)),
            _ => (None, None),
        };
        Failure {
            kind: error.kind(),
            message: error.to_string(),
            line,
            column,
            fail_closed: match error {
                Error::Grounding { reason, .. } => Some(reason),
                _ => None,
            },
        }
    }
}

/// The counter an outcome adds to in the outcome counters (`llmjson.metrics`):
/// [`llmjson::OUTCOMES`], and `parse_fail` for a record that could not be read.
pub fn outcome_of_error_kind(kind: &str) -> &'static str {
    llmjson::outcome_counter(kind)
}

/// One record's result.
#[derive(Debug, Clone)]
pub struct Processed {
    /// The record's place in the run.
    pub seq: u64,
    /// The record's id.
    pub id: serde_json::Value,
    /// The value, when one came out.
    pub value: Option<Value>,
    /// Every repair (empty on failure).
    pub repairs: Vec<Repair>,
    /// Why no value came out.
    pub failure: Option<Failure>,
    /// The pipeline's diagnostics record (a record that could not be read has one too: its
    /// outcome and message, no stage).
    pub diagnostics: Option<Diagnostics>,
    /// At least one repair was made ([`llmjson::Parsed::is_repaired`]).
    pub repaired: bool,
    /// The reply was cut off and completed.
    pub truncated: bool,
    /// Time spent in the pipeline.
    pub elapsed: Duration,
    /// The reply's first [`EXCERPT_CHARS`] characters (for a report's worst replies).
    pub excerpt: String,
}

/// How much of each reply a result keeps for reports.
pub const EXCERPT_CHARS: usize = 600;

impl Processed {
    /// `ok`, `repaired`, or the failure's kind.
    pub fn outcome(&self) -> &'static str {
        match &self.failure {
            Some(f) => f.kind,
            None if self
                .repairs
                .iter()
                .any(|r| r.kind != llmjson::RepairKind::DuplicateKey) =>
            {
                "repaired"
            }
            None => "ok",
        }
    }

    /// The outcome as `llmjson.metrics` and `llmjson.spark` name it: `ok`, `repaired`, or
    /// the counter its failure adds to ([`llmjson::OUTCOMES`]).
    pub fn metrics_outcome(&self) -> &'static str {
        match &self.failure {
            None => self.outcome(),
            Some(f) => outcome_of_error_kind(f.kind),
        }
    }

    /// Whether a value came out.
    pub fn ok(&self) -> bool {
        self.failure.is_none()
    }

    /// Adds this result to `metrics`.
    pub fn count(&self, metrics: &mut Metrics) {
        let ending = match &self.failure {
            Some(failure) => Ending::Failed {
                kind: failure.kind,
                fail_closed: failure.fail_closed,
            },
            None => Ending::Value {
                repaired: self.repaired,
                repair_kinds: self.repairs.iter().map(|r| r.kind.as_str()),
                truncated: self.truncated,
            },
        };
        metrics.count(ending, self.elapsed);
    }

    /// The result as its JSON Lines text, which holds the pieces a store keeps.
    pub fn render(&self) -> Rendered {
        // The value is about as long as the reply, the diagnostics record under 1 KB: one
        // allocation for most lines.
        let mut line = String::with_capacity(1024 + 2 * self.excerpt.len());
        let _ = write!(line, "{{\"seq\":{},\"id\":", self.seq);
        line.push_str(&json(&self.id));
        let _ = write!(
            line,
            ",\"ok\":{},\"outcome\":\"{}\",\"value\":",
            self.ok(),
            self.outcome()
        );
        let value = match &self.value {
            Some(v) => {
                let start = line.len();
                v.write_json(&mut line);
                Some(start..line.len())
            }
            None => {
                line.push_str("null");
                None
            }
        };
        line.push_str(",\"repairs\":");
        let start = line.len();
        Repair::write_log_json(&self.repairs, &mut line);
        let repairs = start..line.len();
        line.push_str(",\"error\":");
        match &self.failure {
            Some(f) => line.push_str(&json(f)),
            None => line.push_str("null"),
        }
        line.push_str(",\"diagnostics\":");
        let diagnostics = match &self.diagnostics {
            Some(d) => {
                let start = line.len();
                d.write_json(&mut line);
                Some(start..line.len())
            }
            None => {
                line.push_str("null");
                None
            }
        };
        line.push_str("}\n");
        Rendered {
            line,
            value,
            repairs,
            diagnostics,
        }
    }
}

/// A part of a result line as JSON (none can fail: plain data with string keys).
fn json<T: Serialize + ?Sized>(part: &T) -> String {
    serde_json::to_string(part).unwrap_or_else(|_| "null".into())
}

/// A result as its JSON Lines text, with where its parts are in it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The JSON Lines result, with its newline.
    pub line: String,
    value: Option<Range<usize>>,
    repairs: Range<usize>,
    diagnostics: Option<Range<usize>>,
}

impl Rendered {
    /// The value's JSON text.
    pub fn value(&self) -> Option<&str> {
        self.value.clone().map(|r| &self.line[r])
    }

    /// The repair log as a JSON array.
    pub fn repairs(&self) -> &str {
        &self.line[self.repairs.clone()]
    }

    /// The diagnostics record as a JSON object.
    pub fn diagnostics(&self) -> Option<&str> {
        self.diagnostics.clone().map(|r| &self.line[r])
    }
}

/// Runs one record through the pipeline.
pub fn process(record: Record, context: &Context) -> Processed {
    let start = Instant::now();
    let text;
    let options;
    let result = match record.input {
        Input::Unreadable { kind, message } => {
            let elapsed = start.elapsed();
            return Processed {
                seq: record.seq,
                id: record.id,
                value: None,
                repairs: Vec::new(),
                diagnostics: Some(Diagnostics::of_unread(kind, &message, elapsed)),
                failure: Some(Failure {
                    kind,
                    message,
                    line: None,
                    column: None,
                    fail_closed: None,
                }),
                repaired: false,
                truncated: false,
                elapsed,
                excerpt: String::new(),
            };
        }
        Input::TooLarge { size } => {
            text = String::new();
            options = Ok(context.options.clone());
            Err(Error::TooLarge {
                size,
                limit: context.options.max_size,
            })
        }
        Input::Reply {
            text: reply,
            invalid_utf8_at,
            schema,
            evidence,
        } => {
            options = context.options_for(schema.as_ref(), evidence.as_ref());
            text = reply;
            match &options {
                Ok(options) => llmjson::parse_decoded(&text, invalid_utf8_at, options),
                Err(e) => Err(clone_setup_error(e)),
            }
        }
    };
    let elapsed = start.elapsed();
    let diagnostics = Diagnostics::of_parse(
        &result,
        options.as_ref().unwrap_or(&context.options),
        elapsed,
    );
    let excerpt = excerpt(&text);
    match result {
        Ok(parsed) => Processed {
            seq: record.seq,
            id: record.id,
            repaired: parsed.is_repaired(),
            truncated: parsed.is_truncated(),
            value: Some(parsed.value),
            repairs: parsed.repairs,
            failure: None,
            diagnostics: Some(diagnostics),
            elapsed,
            excerpt,
        },
        Err(error) => Processed {
            seq: record.seq,
            id: record.id,
            value: None,
            repairs: Vec::new(),
            failure: Some(Failure::of(&error)),
            diagnostics: Some(diagnostics),
            repaired: false,
            truncated: false,
            elapsed,
            excerpt,
        },
    }
}

/// A record's schema or evidence failed to build: the error that becomes its failure.
fn clone_setup_error(error: &Error) -> Error {
    match error {
        Error::InvalidSchema { message } => Error::InvalidSchema {
            message: format!("the record's schema: {message}"),
        },
        other => Error::InvalidSchema {
            message: format!("the record's evidence: {other}"),
        },
    }
}

fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// Decodes and runs every record, in parallel over the rayon pool, and returns the results in
/// input order.
pub fn process_all(records: Vec<Pending>, fields: &Fields, context: &Context) -> Vec<Processed> {
    use rayon::prelude::*;
    records
        .into_par_iter()
        .map(|pending| process(pending.decode(fields), context))
        .collect()
}

/// [`process_all`], each result also rendered (in the workers, where the time is spread). The
/// value is then in the rendered line ([`Rendered::value`]) only: [`Processed::value`] is
/// `None`, its tree freed by the worker that built it (a free from another thread costs the
/// allocator more).
pub fn process_and_render(
    records: Vec<Pending>,
    fields: &Fields,
    context: &Context,
) -> Vec<(Processed, Rendered)> {
    process_and_render_with(records, fields, context, &|_| {})
}

/// [`process_and_render`], each result handed to `adjust` before it is rendered (a resumed run
/// gives a result parsed again the request id and latency its store kept).
pub fn process_and_render_with(
    records: Vec<Pending>,
    fields: &Fields,
    context: &Context,
    adjust: &(dyn Fn(&mut Processed) + Sync),
) -> Vec<(Processed, Rendered)> {
    use rayon::prelude::*;
    records
        .into_par_iter()
        .map(|pending| {
            let mut processed = process(pending.decode(fields), context);
            adjust(&mut processed);
            let rendered = processed.render();
            processed.value = None;
            (processed, rendered)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Line;

    fn run(lines: &[&str], options: Options) -> Vec<Processed> {
        let source: std::sync::Arc<str> = "t".into();
        let records = lines
            .iter()
            .enumerate()
            .map(|(i, l)| Pending::Line {
                seq: i as u64,
                source: source.clone(),
                line_number: i as u64 + 1,
                line: Line::Bytes(l.as_bytes().to_vec()),
            })
            .collect();
        process_all(records, &Fields::default(), &Context::new(options))
    }

    fn line(p: &Processed) -> serde_json::Value {
        serde_json::from_str(&p.render().line).expect("the result line is JSON")
    }

    #[test]
    fn results_come_back_in_input_order_with_their_outcomes() {
        let out = run(
            &[
                r#"{"id": "a", "reply": "{\"x\": 1}"}"#,
                r#"{"id": "b", "reply": "```json\n{'x': 2,}\n```"}"#,
                r#"{"id": "c", "reply": ""}"#,
                r#"not a record"#,
            ],
            Options::default(),
        );
        let outcomes: Vec<_> = out.iter().map(Processed::outcome).collect();
        assert_eq!(outcomes, ["ok", "repaired", "empty", "bad_record"]);
        let b = line(&out[1]);
        assert_eq!(b["id"], "b");
        assert_eq!(b["value"], serde_json::json!({"x": 2}));
        assert_eq!(b["repairs"][0]["kind"], "single_quotes");
        assert_eq!(b["diagnostics"]["outcome"], "repaired");
        let c = line(&out[2]);
        assert_eq!(c["ok"], false);
        assert_eq!(c["error"]["kind"], "empty");
        assert_eq!(c["value"], serde_json::Value::Null);
        let d = line(&out[3]);
        assert_eq!(d["id"], "t:4");
        // A record that could not be read has its record too: nothing ran.
        assert_eq!(d["diagnostics"]["outcome"], "bad_record");
        assert_eq!(d["diagnostics"]["stages"], serde_json::json!([]));
    }

    #[test]
    fn a_syntax_error_has_its_line_and_column() {
        let out = run(
            &[r#"{"reply": "{\n  \"a\": 1 \"b\""}"#],
            Options::default().level(llmjson::RepairLevel::None),
        );
        let value = line(&out[0]);
        assert_eq!(value["error"]["kind"], "syntax");
        assert_eq!(value["error"]["line"], 2);
        assert!(value["error"]["column"].as_u64().is_some());
    }

    #[test]
    fn a_records_schema_coerces_and_a_bad_one_is_its_error() {
        let out = run(
            &[
                r#"{"reply": "{\"n\": \"5\"}", "schema": {"type": "object", "properties": {"n": {"type": "integer"}}}}"#,
                r#"{"reply": "{\"n\": 5}", "schema": {"type": 12}}"#,
            ],
            Options::default(),
        );
        assert_eq!(out[0].value, Some("{\"n\": 5}".parse().unwrap()));
        assert_eq!(out[1].outcome(), "invalid_schema");
        assert!(out[1]
            .failure
            .as_ref()
            .unwrap()
            .message
            .contains("record's schema"));
    }

    #[test]
    fn a_records_evidence_fails_closed_on_an_ungrounded_number() {
        let options =
            Options::default().verify(llmjson::verify::VerifyOptions::default().fail_closed());
        let out = run(
            &[
                r#"{"reply": "{\"revenue\": 4817}", "evidence": ["Revenue was 4817 units."]}"#,
                r#"{"reply": "{\"revenue\": 9999}", "evidence": "Revenue was 4817 units."}"#,
            ],
            options,
        );
        assert_eq!(out[0].outcome(), "ok");
        assert_eq!(out[1].outcome(), "grounding");
        let mut metrics = Metrics::default();
        for p in &out {
            p.count(&mut metrics);
        }
        assert_eq!(metrics.fail_closed["numeric_grounding_failed"], 1);
    }

    #[test]
    fn counting_results_equals_counting_the_library_calls() {
        let replies = ["{\"a\": 1}", "{'a': [1, 2", "", "nothing", "[1,,2]"];
        let lines: Vec<String> = replies
            .iter()
            .map(|r| serde_json::json!({ "reply": r }).to_string())
            .collect();
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut from_batch = Metrics::default();
        for p in run(&refs, Options::default()) {
            p.count(&mut from_batch);
        }
        let mut direct = Metrics::default();
        for r in replies {
            direct.record(&llmjson::parse(r, &Options::default()), Duration::ZERO);
        }
        // Latency differs; everything else is the same.
        from_batch.latency_counts = direct.latency_counts;
        from_batch.latency_sum = direct.latency_sum;
        assert_eq!(from_batch, direct);
    }

    #[test]
    fn the_excerpt_is_cut_on_a_character_boundary() {
        let long = "é".repeat(EXCERPT_CHARS + 5);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), EXCERPT_CHARS + 1);
        assert_eq!(excerpt("short"), "short");
    }
}

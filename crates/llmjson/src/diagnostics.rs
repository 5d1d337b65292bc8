//! The diagnostics record: one JSON object per call (parse, repair, validate, verify) with the
//! same keys on success and on failure, so a log table can hold every call in one schema. The
//! verification and fail-closed fields carry the names RAG pipelines already log in their
//! `_diagnostics`. Field by field in
//! docs/diagnostics.md.

use crate::verify::{IssueType, NumberExample, Verdict, Verification};
use crate::{Error, Options, Parsed};
use serde::Serialize;
use std::collections::BTreeMap;
use std::ops::Range;
use std::time::{Duration, Instant};

/// An item left out under [`crate::InvalidItems::Drop`], as the record has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DroppedRecord {
    /// JSON Pointer of the item, as the reply wrote it.
    pub path: String,
    /// Byte range of its text in the input.
    pub span: Range<usize>,
    /// Its violations, `path: message` each.
    pub errors: Vec<String>,
}

/// What one call did, and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostics {
    /// A fresh UUID v4 per call.
    pub request_id: String,
    /// The stages that ran, in order (`locate`, `repair`, `coerce`, `validate`, `verify`).
    pub stages: Vec<&'static str>,
    /// `ok` (valid as written), `repaired`, or the error's kind (`no_json`, `syntax`, `schema`,
    /// `grounding`, …); a verify call: `verified` or `not_verified`.
    pub outcome: &'static str,
    /// The error's message, when the call failed.
    pub error: Option<String>,
    /// The stage that refused the reply (the last of `stages`), when the call failed.
    pub failed_stage: Option<&'static str>,
    /// Where the JSON was found: `text`, `fence` (with its label: `fence:json`), `tool_call`.
    pub json_source: Option<String>,
    /// Byte range of the located JSON in the input.
    pub json_span: Option<Range<usize>>,
    /// How many repairs were applied.
    pub repairs: usize,
    /// Repairs by kind (`trailing_comma: 2`), coercions included.
    pub repairs_by_kind: BTreeMap<&'static str, usize>,
    /// How many of the repairs were schema coercions.
    pub coercions: usize,
    /// Schema violations, one message each.
    pub schema_errors: Vec<String>,
    /// The array items left out because they failed their item schema
    /// ([`crate::InvalidItems::Drop`]).
    pub dropped_items: Vec<DroppedRecord>,
    /// Whether the answer's numbers are grounded (`null` when verify did not run).
    pub verification_passed: Option<bool>,
    /// Non-trivial numbers in the answer.
    pub verification_numbers_extracted: usize,
    /// How many the evidence grounds.
    pub verification_matched: usize,
    /// How many it does not.
    pub verification_unmatched: usize,
    /// The kinds of problem (`not_in_evidence`, `rounding_mismatch`, …).
    pub verification_issue_types: Vec<IssueType>,
    /// The first five ungrounded numbers, each with about 30 characters of context.
    pub verification_unmatched_examples: Vec<NumberExample>,
    /// Whether the answer was blocked.
    pub fail_closed_triggered: bool,
    /// `numeric_grounding_failed`, `cross_variant_mix` or `no_evidence`, when blocked.
    pub fail_closed_reason: Option<&'static str>,
    /// `verification`, when blocked.
    pub fail_closed_stage: Option<&'static str>,
    /// Wall time of the call, in milliseconds (a streamed parse: from the parser's creation to
    /// the end of `finish`).
    pub latency_ms: f64,
    /// A streamed parse only: how many chunks were fed (absent from a one-shot record).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_chunks: Option<usize>,
    /// A streamed parse only: milliseconds from the parser's creation to the first complete
    /// value (absent when none completed, and from a one-shot record).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stream_first_value_ms: Option<f64>,
}

impl Diagnostics {
    /// Appends the record as compact JSON, byte for byte what `serde_json::to_string` gives,
    /// without serde's generic path: a batch writes one per reply.
    pub fn write_json(&self, out: &mut String) {
        use crate::value::write::{write_array, Members};
        let mut m = Members::open(out);
        m.str("request_id", &self.request_id);
        m.strs("stages", self.stages.iter().copied());
        m.str("outcome", self.outcome);
        m.opt_str("error", self.error.as_deref());
        m.opt_str("failed_stage", self.failed_stage);
        m.opt_str("json_source", self.json_source.as_deref());
        match &self.json_span {
            Some(span) => m.range("json_span", span),
            None => m.key("json_span").push_str("null"),
        }
        m.usize("repairs", self.repairs);
        let by_kind = m.key("repairs_by_kind");
        let mut kinds = Members::open(by_kind);
        for (kind, count) in &self.repairs_by_kind {
            kinds.usize(kind, *count);
        }
        kinds.close();
        m.usize("coercions", self.coercions);
        m.strs(
            "schema_errors",
            self.schema_errors.iter().map(String::as_str),
        );
        write_array(m.key("dropped_items"), &self.dropped_items, |item, out| {
            let mut e = Members::open(out);
            e.str("path", &item.path);
            e.range("span", &item.span);
            e.strs("errors", item.errors.iter().map(String::as_str));
            e.close();
        });
        match self.verification_passed {
            Some(passed) => m.bool("verification_passed", passed),
            None => m.key("verification_passed").push_str("null"),
        }
        m.usize(
            "verification_numbers_extracted",
            self.verification_numbers_extracted,
        );
        m.usize("verification_matched", self.verification_matched);
        m.usize("verification_unmatched", self.verification_unmatched);
        m.strs(
            "verification_issue_types",
            self.verification_issue_types.iter().map(|t| t.as_str()),
        );
        let examples = m.key("verification_unmatched_examples");
        write_array(
            examples,
            &self.verification_unmatched_examples,
            |example, out| {
                let mut e = Members::open(out);
                e.str("number", &example.number);
                e.str("context", &example.context);
                e.str("path", &example.path);
                e.range("span", &example.span);
                // Only when bound: the record keeps its shape for answers that name no subject.
                if let Some(subject) = &example.subject {
                    e.str("subject", subject);
                }
                if let Some(theirs) = &example.evidence_subject {
                    e.str("evidence_subject", theirs);
                }
                if let Some(reason) = example.reason {
                    e.str("reason", reason);
                }
                e.close();
            },
        );
        m.bool("fail_closed_triggered", self.fail_closed_triggered);
        m.opt_str("fail_closed_reason", self.fail_closed_reason);
        m.opt_str("fail_closed_stage", self.fail_closed_stage);
        m.f64("latency_ms", self.latency_ms);
        if let Some(chunks) = self.stream_chunks {
            m.usize("stream_chunks", chunks);
        }
        if let Some(ms) = self.stream_first_value_ms {
            m.f64("stream_first_value_ms", ms);
        }
        m.close();
    }

    fn blank(elapsed: Duration) -> Self {
        Diagnostics {
            request_id: uuid::Uuid::new_v4().to_string(),
            stages: Vec::new(),
            outcome: "ok",
            error: None,
            failed_stage: None,
            json_source: None,
            json_span: None,
            repairs: 0,
            repairs_by_kind: BTreeMap::new(),
            coercions: 0,
            schema_errors: Vec::new(),
            dropped_items: Vec::new(),
            verification_passed: None,
            verification_numbers_extracted: 0,
            verification_matched: 0,
            verification_unmatched: 0,
            verification_issue_types: Vec::new(),
            verification_unmatched_examples: Vec::new(),
            fail_closed_triggered: false,
            fail_closed_reason: None,
            fail_closed_stage: None,
            latency_ms: elapsed.as_secs_f64() * 1000.0,
            stream_chunks: None,
            stream_first_value_ms: None,
        }
    }

    /// The record of a streamed parse ([`crate::StreamParser::finish_with_events`]): the
    /// one-shot record of its result, plus the chunks and the time to the first complete value.
    pub fn of_stream(finished: &crate::Finished, options: &Options) -> Self {
        Diagnostics::of_streamed(&finished.result, &finished.stats, options)
    }

    /// The record of a streamed parse that ended with `result` and `stats` (what
    /// [`crate::StreamParser::finish_later`] returns).
    pub fn of_streamed(
        result: &Result<Parsed, Error>,
        stats: &crate::StreamStats,
        options: &Options,
    ) -> Self {
        let mut d = Diagnostics::of_parse(result, options, stats.elapsed);
        d.stream_chunks = Some(stats.chunks);
        d.stream_first_value_ms = stats.first_value.map(|t| t.as_secs_f64() * 1000.0);
        d
    }

    /// The record of a [`crate::parse`] call that returned `result` after `elapsed`.
    pub fn of_parse(result: &Result<Parsed, Error>, options: &Options, elapsed: Duration) -> Self {
        let parsed = match result {
            Ok(parsed) => parsed,
            Err(e) => return Diagnostics::of_error(e, options, elapsed),
        };
        let mut d = Diagnostics::blank(elapsed);
        d.stages = stages(
            options.schema.is_some(),
            options.evidence.is_some(),
            Reached::All,
        );
        d.outcome = crate::outcome(result);
        d.json_source = Some(parsed.source.to_string());
        d.json_span = Some(parsed.span.clone());
        d.count_repairs(parsed);
        d.dropped_items = parsed
            .dropped
            .iter()
            .map(|item| DroppedRecord {
                path: item.path.clone(),
                span: item.span.clone(),
                errors: item.errors.iter().map(ToString::to_string).collect(),
            })
            .collect();
        if let Some(v) = &parsed.verification {
            d.verification(v);
        }
        d
    }

    /// The record of a parse that failed with `error` after `elapsed` (the failure part of
    /// [`Diagnostics::of_parse`], for a caller that refused the input before parsing it).
    pub fn of_error(error: &Error, options: &Options, elapsed: Duration) -> Self {
        let mut d = Diagnostics::blank(elapsed);
        d.outcome = error.kind();
        d.error = Some(error.to_string());
        d.stages = stages(
            options.schema.is_some(),
            options.evidence.is_some(),
            reached(error),
        );
        d.failed_stage = d.stages.last().copied();
        match error {
            Error::Schema { errors, .. } => {
                d.schema_errors = errors.iter().map(|s| s.to_string()).collect();
            }
            Error::Grounding {
                reason,
                verification,
                ..
            } => {
                d.verification(verification);
                d.fail_closed(reason);
            }
            _ => {}
        }
        d
    }

    /// The record of an input refused before any stage ran, for a reason of the caller's own
    /// (a batch's record that is not a JSON object, or lacks its reply field): `outcome` is
    /// that reason's kind, `stages` is empty.
    pub fn of_unread(kind: &'static str, message: &str, elapsed: Duration) -> Self {
        let mut d = Diagnostics::blank(elapsed);
        d.outcome = kind;
        d.error = Some(message.to_string());
        d
    }

    /// The record of a [`crate::verify::verify`] call.
    pub fn of_verify(result: &Result<Verdict, Error>, elapsed: Duration) -> Self {
        let mut d = Diagnostics::blank(elapsed);
        d.stages = vec!["verify"];
        match result {
            Ok(verdict) => {
                d.outcome = if verdict.verification.verified {
                    "verified"
                } else {
                    "not_verified"
                };
                d.verification(&verdict.verification);
                if let Some(f) = &verdict.fail_closed {
                    d.fail_closed(f.reason);
                    d.failed_stage = Some("verify");
                }
            }
            Err(e) => {
                d.outcome = e.kind();
                d.error = Some(e.to_string());
                d.failed_stage = Some("verify");
            }
        }
        d
    }

    fn count_repairs(&mut self, parsed: &Parsed) {
        self.repairs = parsed.repairs.len();
        for r in &parsed.repairs {
            *self.repairs_by_kind.entry(r.kind.as_str()).or_default() += 1;
            self.coercions += usize::from(r.kind.is_coercion());
        }
    }

    fn verification(&mut self, v: &Verification) {
        self.verification_passed = Some(v.verified);
        self.verification_numbers_extracted = v.numbers_extracted;
        self.verification_matched = v.matched;
        self.verification_unmatched = v.unmatched;
        self.verification_issue_types = v.issue_types.clone();
        self.verification_unmatched_examples = v.unmatched_examples.clone();
    }

    fn fail_closed(&mut self, reason: &'static str) {
        self.fail_closed_triggered = true;
        self.fail_closed_reason = Some(reason);
        self.fail_closed_stage = Some("verification");
    }

    /// The record as one JSON object.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

/// How far a failed call got.
enum Reached {
    Locate,
    Repair,
    Validate,
    All,
}

fn reached(e: &Error) -> Reached {
    match e {
        Error::Empty
        | Error::NoJson { .. }
        | Error::TooLarge { .. }
        | Error::InvalidUtf8 { .. }
        | Error::Binary { .. } => Reached::Locate,
        Error::Schema { .. } | Error::InvalidSchema { .. } | Error::Deserialize { .. } => {
            Reached::Validate
        }
        Error::Grounding { .. } => Reached::All,
        _ => Reached::Repair,
    }
}

fn stages(schema: bool, verify: bool, reached: Reached) -> Vec<&'static str> {
    let mut out = vec!["locate"];
    if matches!(reached, Reached::Locate) {
        return out;
    }
    out.push("repair");
    if matches!(reached, Reached::Repair) {
        return out;
    }
    if schema {
        out.extend(["coerce", "validate"]);
    }
    if verify && matches!(reached, Reached::All) {
        out.push("verify");
    }
    out
}

/// [`crate::parse`], timed, with its diagnostics record (on success and on failure alike).
pub fn parse_diagnosed(text: &str, options: &Options) -> (Result<Parsed, Error>, Diagnostics) {
    let start = Instant::now();
    let result = crate::parse(text, options);
    let d = Diagnostics::of_parse(&result, options, start.elapsed());
    (result, d)
}

/// [`crate::verify::verify`], timed, with its diagnostics record.
pub fn verify_diagnosed(
    answer: &str,
    evidence: &crate::verify::Evidence,
    options: &crate::verify::VerifyOptions,
) -> (Result<Verdict, Error>, Diagnostics) {
    let start = Instant::now();
    let result = crate::verify::verify(answer, evidence, options);
    let d = Diagnostics::of_verify(&result, start.elapsed());
    (result, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::{Evidence, VerifyOptions};
    use std::sync::Arc;

    #[test]
    fn the_same_keys_on_success_and_on_failure() {
        let options = Options::default();
        let (_, ok) = parse_diagnosed("{'a': 1,}", &options);
        let (_, failed) = parse_diagnosed("no json here", &options);
        let keys = |d: &Diagnostics| {
            d.to_json()
                .as_object()
                .unwrap()
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(keys(&ok), keys(&failed));
        assert_eq!(ok.outcome, "repaired");
        assert_eq!(ok.repairs_by_kind.get("trailing_comma"), Some(&1));
        assert_eq!(failed.outcome, "no_json");
        assert_eq!(failed.stages, ["locate"]);
        assert_ne!(ok.request_id, failed.request_id);
        assert_eq!(ok.request_id.len(), 36);
    }

    #[test]
    fn a_blocked_answer_records_the_seed_fields() {
        let mut evidence = Evidence::new();
        evidence.add_text("lab", "Sample A: 41.8 MPa").unwrap();
        let options = Options::default()
            .evidence(Arc::new(evidence))
            .verify(VerifyOptions::default().fail_closed());
        let (result, d) = parse_diagnosed(r#"{"answer": "A reached 44.1 MPa"}"#, &options);
        assert!(matches!(result, Err(Error::Grounding { .. })));
        assert_eq!(d.outcome, "grounding");
        assert_eq!(d.stages, ["locate", "repair", "verify"]);
        assert_eq!(d.verification_passed, Some(false));
        assert_eq!(d.verification_unmatched, 1);
        assert_eq!(d.verification_unmatched_examples[0].path, "/answer");
        assert!(d.fail_closed_triggered);
        assert_eq!(d.fail_closed_reason, Some("numeric_grounding_failed"));
        assert_eq!(d.fail_closed_stage, Some("verification"));
    }

    /// What the hand-written writers give, against serde_json's text of the same record.
    fn assert_written_as_serde(d: &Diagnostics, repairs: &[crate::Repair], case: &str) {
        let mut written = String::new();
        d.write_json(&mut written);
        assert_eq!(written, serde_json::to_string(d).unwrap(), "{case}");
        let mut written = String::new();
        crate::Repair::write_log_json(repairs, &mut written);
        assert_eq!(written, serde_json::to_string(repairs).unwrap(), "{case}");
    }

    #[test]
    fn write_json_is_serdes_text_on_generated_replies_and_every_stage() {
        let options = Options::default();
        for case in llmjson_faults::generate(91, 800) {
            let (result, d) = parse_diagnosed(&case.input, &options);
            let repairs = result.map(|p| p.repairs).unwrap_or_default();
            assert_written_as_serde(&d, &repairs, &case.input);
        }
        // Schema errors, a verification with unmatched examples, odd latencies, keys and
        // strings that need escaping.
        let schema = crate::Schema::new(serde_json::json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s\"q": {"type": "string"}},
            "required": ["n", "s\"q"]
        }))
        .unwrap();
        let with_schema = Options::default().schema(Arc::new(schema));
        let (_, d) = parse_diagnosed("```json\n{'n': \"x\\u0001\", }\n```", &with_schema);
        assert!(!d.schema_errors.is_empty());
        assert_written_as_serde(&d, &[], "schema");
        let mut evidence = Evidence::new();
        evidence.add_text("lab", "Sample A: 41.8 MPa").unwrap();
        let verify = Options::default()
            .evidence(Arc::new(evidence))
            .verify(VerifyOptions::default().fail_closed());
        let (_, mut d) = parse_diagnosed(r#"{"answer": "A \"reached\" 44.1 MPa, 12%"}"#, &verify);
        assert!(!d.verification_unmatched_examples.is_empty());
        for latency in [0.0, 1e-7, 123456.789, f64::NAN, f64::INFINITY] {
            d.latency_ms = latency;
            assert_written_as_serde(&d, &[], "verify");
        }
    }
}

//! llmjson turns what a large language model wrote into JSON a program can trust, or says
//! clearly why it cannot.
//!
//! ```text
//! text ─► locate ─► repair ─► (coerce ─► validate ─► verify: later stages)
//!         where is    make it
//!         the JSON?   JSON, and log every change
//! ```
//!
//! ```
//! use llmjson::{Options, RepairKind};
//!
//! let reply = "Here is the plan:\n```json\n{\"steps\": [{\"id\": \"s1\", \"done\": True},]}\n```";
//! let parsed = llmjson::parse(reply, &Options::default())?;
//! assert_eq!(parsed.value["steps"][0]["done"], true);
//! let kinds: Vec<_> = parsed.repairs.iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [RepairKind::PythonLiteral, RepairKind::TrailingComma]);
//! # Ok::<(), llmjson::Error>(())
//! ```
#![deny(missing_docs)]

mod diagnostics;
mod error;
mod locate;
pub mod metrics;
mod options;
mod pipeline;
mod position;
mod repair;
mod retry;
mod schema;
mod spelling;
mod stream;
mod value;
mod verify;

pub use diagnostics::{parse_diagnosed, verify_diagnosed, Diagnostics, DroppedRecord};
pub use error::{Error, SyntaxError};
pub use locate::Source;
pub use options::{
    repair_disabled_by_env, Coercion, DuplicateKeys, GuardComments, InvalidItems, Options,
    RepairLevel, Truncation, DEFAULT_MAX_DEPTH, DEFAULT_MAX_REMOVED_RATIO, DEFAULT_MAX_SIZE,
    KILL_SWITCH_VAR, MAX_DEPTH_CEILING,
};
pub use position::Position;
pub use repair::{Repair, RepairKind};
pub use retry::{
    diagnose, escaping_feedback, failure_of, feedback_body, feedback_for, feedback_message, retry,
    schema_feedback, Attempt, Diagnosis, Envelope, Failure, Feedback, Reply, RetryError, Success,
    ESCAPING_RULE,
};
pub use schema::{DroppedItem, Schema, SchemaError};
pub use stream::{
    Event, Finished, FinishedLater, LaterEvents, Snapshot, StreamParser, StreamStats, DONE_ONLY,
    PROVISIONAL_LAG,
};
pub use value::{DeserializeError, Map, Number, NumberError, Style, Value};

/// The strict reader and what it builds into: llmjson's [`Value`] ([`sink::ValueSink`]) or any
/// other representation (the Python package builds Python objects with it).
pub mod sink {
    /// The LaTeX command names (`frac`, `theta`, `nabla`, …) whose first letter JSON reads as an
    /// escape (`\f`, `\t`, `\n`, …), sorted. In a string, a backslash before one of them
    /// followed by a non-letter may be LaTeX written with one backslash, which the repair stage
    /// decides (`Options::latex`); [`read_valid`] refuses such a document rather than read a
    /// form feed. A caller that reads valid JSON with another parser (the Node package with
    /// `JSON.parse`) hands a document holding one to llmjson instead.
    pub use crate::repair::latex::COLLIDING as LATEX_COLLISIONS;
    pub use crate::value::parse::{read_valid, CheckSink, Refused, Sink, ValueSink};
}

/// The iterators and entries of [`Map`].
pub mod map {
    pub use crate::value::{Entry, IntoIter, Iter, IterMut, OccupiedEntry, VacantEntry};
}
pub use verify::{
    blocking_message, verify, verify_value, CheckedNumber, Evidence, EvidenceLocation, FailClosed,
    IssueType, Language, Locale, NumberExample, OnUngrounded, PercentForms, SmallCounts, Verdict,
    Verification, VerifyOptions, Years, UNMATCHED_EXAMPLES,
};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

pub use pipeline::MIN_GUARDED_BYTES;

pub(crate) use pipeline::parse_unguided;
use pipeline::{parse_with, valid_whole_text, Detail, FastPath, Whole};
use std::ops::Range;

/// The result of one parse: the value, every repair made, and where the JSON was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The value (key order preserved, numbers with their exact digits).
    pub value: Value,
    /// Every repair, in text order. Empty when the located JSON was already valid.
    pub repairs: Vec<Repair>,
    /// Byte range of the located JSON text in the input.
    pub span: Range<usize>,
    /// Where the JSON was found.
    pub source: Source,
    /// Non-whitespace bytes of the located JSON text that the repair discarded.
    pub removed_bytes: usize,
    /// Non-whitespace bytes of the located JSON text (the safety guard's denominator).
    pub located_bytes: usize,
    /// The verify stage's result, when [`Options::evidence`] was set.
    pub verification: Option<Verification>,
    /// The array items left out because they failed their item schema, in text order (only
    /// with [`Options::invalid_items`] set to [`InvalidItems::Drop`]). Their bytes count in
    /// [`Parsed::removed_bytes`]; each also has a `dropped_invalid_item` entry in the log.
    pub dropped: Vec<DroppedItem>,
}

impl Parsed {
    /// The value needed at least one repair.
    pub fn is_repaired(&self) -> bool {
        repaired(self.repairs.iter().map(|r| r.kind))
    }

    /// The reply was cut off (it ended inside a string, object or array).
    pub fn is_truncated(&self) -> bool {
        truncated(self.repairs.iter().map(|r| r.kind))
    }

    /// The share of the located JSON text the repair discarded (0.0–1.0).
    pub fn removed_share(&self) -> f64 {
        if self.located_bytes == 0 {
            0.0
        } else {
            self.removed_bytes as f64 / self.located_bytes as f64
        }
    }
}

/// The located JSON text, untouched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located<'t> {
    /// The JSON text as it appears in the input.
    pub text: &'t str,
    /// Its byte range in the input.
    pub span: Range<usize>,
    /// Where it was found.
    pub source: Source,
}

/// Locates the first JSON value in `text`, repairs it as `options` allow, and returns it with
/// its repair log.
///
/// # Errors
/// [`Error::Empty`], [`Error::NoJson`], [`Error::TooLarge`] (checked before any work),
/// [`Error::TooDeep`], [`Error::Syntax`] (a defect the level does not repair),
/// [`Error::RepairRejected`] (the safety guard), [`Error::DuplicateKey`].
pub fn parse(text: &str, options: &Options) -> Result<Parsed, Error> {
    let parsed = match &options.schema {
        Some(schema) => schema::stage::parse_guided(text, options, schema),
        None => parse_unguided(text, options),
    }?;
    match &options.evidence {
        Some(evidence) => verify::stage(parsed, evidence, &options.verify),
        None => Ok(parsed),
    }
}

/// [`parse`] for a caller that keeps only the value (a drop-in for `json.loads`): the same
/// value and the same errors, with the kind and span of every repair made but none of the
/// log's JSON paths, lines or columns, which are not computed.
///
/// ```
/// let parsed = llmjson::parse_value("{'a': [1, 2,]}", &llmjson::Options::default()).unwrap();
/// assert_eq!(parsed.value.to_string(), r#"{"a":[1,2]}"#);
/// assert!(parsed.is_repaired());
/// ```
///
/// # Errors
/// As [`parse`].
pub fn parse_value(text: &str, options: &Options) -> Result<ParsedValue, Error> {
    let parsed = if options.schema.is_some() || options.evidence.is_some() {
        parse(text, options)?
    } else {
        parse_with(text, options, FastPath::Try, Detail::Kinds)?
    };
    Ok(ParsedValue {
        value: parsed.value,
        repairs: parsed
            .repairs
            .iter()
            .map(|r| (r.kind, r.span.clone()))
            .collect(),
    })
}

/// The result of [`parse_value`]: the value, and the kind and span of every repair made.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedValue {
    /// The value.
    pub value: Value,
    /// What each repair was, and where (byte range in the input), in the order of the text.
    pub repairs: Vec<(RepairKind, Range<usize>)>,
}

impl ParsedValue {
    /// Something was repaired (as [`Parsed::is_repaired`]).
    pub fn is_repaired(&self) -> bool {
        repaired(self.repairs.iter().map(|(kind, _)| *kind))
    }

    /// The reply was cut off (as [`Parsed::is_truncated`]).
    pub fn is_truncated(&self) -> bool {
        truncated(self.repairs.iter().map(|(kind, _)| *kind))
    }
}

/// A log of these kinds repaired something: a duplicate key applied under its policy is not a
/// repair of the text.
fn repaired(mut kinds: impl Iterator<Item = RepairKind>) -> bool {
    kinds.any(|kind| kind != RepairKind::DuplicateKey)
}

/// A log of these kinds completed a reply that was cut off.
fn truncated(mut kinds: impl Iterator<Item = RepairKind>) -> bool {
    kinds.any(RepairKind::is_truncation)
}

/// Like [`parse`], but returns every JSON value in the reply, in order. The first is the one
/// [`parse`] returns; the others are found the same way: when it came from a fence or a
/// tool-call block, the values in the rest of that block and in the later blocks; otherwise the
/// values in the rest of the text.
///
/// A schema in the options guides the repair of each value (which keys exist), but values are
/// neither coerced nor validated: [`parse`] chooses among them by the schema.
///
/// # Errors
/// As [`parse`]; an error in any value fails the call.
pub fn parse_all(text: &str, options: &Options) -> Result<Vec<Parsed>, Error> {
    match &options.schema {
        Some(schema) => schema::stage::parse_all_guided(text, options, schema),
        None => pipeline::parse_all(text, options),
    }
}

/// Like [`parse`], for bytes that may not be UTF-8. At level `none` invalid UTF-8 is an
/// error; at other levels bad bytes become U+FFFD (logged as [`RepairKind::InvalidUtf8`]; spans
/// then refer to the decoded text, `String::from_utf8_lossy(bytes)`). Bytes a third or more of
/// which are not UTF-8 are not text: [`Error::Binary`].
///
/// # Errors
/// As [`parse`], plus [`Error::InvalidUtf8`] at level `none`.
pub fn parse_bytes(bytes: &[u8], options: &Options) -> Result<Parsed, Error> {
    let (text, invalid_at) = decode(bytes, options)?;
    parse_decoded(&text, invalid_at, options)
}

/// [`parse_all`] for bytes that may not be UTF-8, read as [`parse_bytes`] reads them (the
/// first value's log holds the `invalid_utf8` entry).
///
/// # Errors
/// As [`parse_bytes`].
pub fn parse_all_bytes(bytes: &[u8], options: &Options) -> Result<Vec<Parsed>, Error> {
    let (text, invalid_at) = decode(bytes, options)?;
    check_decoded(&text, invalid_at, options)?;
    let mut all = parse_all(&text, options)?;
    if let (Some(at), Some(first)) = (invalid_at, all.first_mut()) {
        first.repairs.insert(0, invalid_utf8_repair(&text, at));
    }
    Ok(all)
}

/// Bytes as text: the text (bad bytes as U+FFFD) and where the first bad byte was.
fn decode<'b>(
    bytes: &'b [u8],
    options: &Options,
) -> Result<(std::borrow::Cow<'b, str>, Option<usize>), Error> {
    if bytes.len() > options.max_size {
        return Err(Error::TooLarge {
            size: bytes.len(),
            limit: options.max_size,
        });
    }
    Ok(match std::str::from_utf8(bytes) {
        Ok(text) => (text.into(), None),
        Err(e) => (String::from_utf8_lossy(bytes), Some(e.valid_up_to())),
    })
}

/// Decoded text that had bad bytes: binary when a third or more were, refused at level `none`.
fn check_decoded(text: &str, invalid_at: Option<usize>, options: &Options) -> Result<(), Error> {
    let Some(at) = invalid_at else {
        return Ok(());
    };
    pipeline::check_decoded(text, text.matches('\u{fffd}').count())?;
    if options.level == RepairLevel::None {
        return Err(Error::InvalidUtf8 { offset: at });
    }
    Ok(())
}

fn invalid_utf8_repair(text: &str, at: usize) -> Repair {
    let pos = Position::of(text, at);
    Repair {
        kind: RepairKind::InvalidUtf8,
        span: at..at + 3,
        line: pos.line,
        column: pos.column,
        path: String::new(),
        detail: "bytes that are not UTF-8 became U+FFFD".into(),
    }
}

/// [`parse`] of text decoded from bytes whose first invalid sequence (now U+FFFD) was at
/// `invalid_at`: what [`parse_bytes`] does after decoding (the stream parser decodes as bytes
/// arrive).
pub(crate) fn parse_decoded(
    text: &str,
    invalid_at: Option<usize>,
    options: &Options,
) -> Result<Parsed, Error> {
    check_decoded(text, invalid_at, options)?;
    let mut parsed = parse(text, options)?;
    if let Some(at) = invalid_at {
        parsed.repairs.insert(0, invalid_utf8_repair(text, at));
    }
    Ok(parsed)
}

/// Repairs the first JSON value in `text` and returns it as JSON text. Already-valid JSON is
/// returned exactly as written (a copy of the located text); repaired JSON is compact.
///
/// # Errors
/// As [`parse`].
pub fn repair_to_string(text: &str, options: &Options) -> Result<String, Error> {
    if options.schema.is_some() {
        let parsed = parse(text, options)?;
        if parsed.repairs.is_empty() {
            return Ok(text[parsed.span].to_string());
        }
        return Ok(parsed.value.to_json());
    }
    let fast = match valid_whole_text(text, options) {
        Whole::Valid(copy) => return Ok(copy.to_string()),
        Whole::Invalid => FastPath::Skip,
        Whole::NotChecked => FastPath::Try,
    };
    let parsed = parse_with(text, options, fast, Detail::Kinds)?;
    if parsed.repairs.is_empty() {
        return Ok(text[parsed.span].to_string());
    }
    Ok(parsed.value.to_json())
}

/// Whether `text` is exactly one valid JSON document (RFC 8259, surrounding whitespace allowed;
/// `\u` surrogates only in pairs) nested at most [`DEFAULT_MAX_DEPTH`] deep, checked in one pass
/// without building a value: a cheap test for "nothing to locate or repair" under the default
/// options. So a string holding a LaTeX command that collides with an escape (`"\frac{a}{b}"`,
/// which the default options read as LaTeX: the `latex` option) makes it false.
///
/// ```
/// assert!(llmjson::is_valid_document(" {\"a\": [1, 2]}\n"));
/// assert!(!llmjson::is_valid_document(r#"{"f": "\frac{a}{b}"}"#));
/// assert!(!llmjson::is_valid_document("{'a': 1}"));
/// assert!(!llmjson::is_valid_document("Sure: {\"a\": 1}"));
/// ```
pub fn is_valid_document(text: &str) -> bool {
    sink::read_valid(text, DEFAULT_MAX_DEPTH, &mut sink::CheckSink).is_ok()
}

/// Locates the first JSON value and returns its text untouched (nothing is repaired; the
/// parser only finds where the value ends).
///
/// # Errors
/// As [`parse`].
pub fn extract<'t>(text: &'t str, options: &Options) -> Result<Located<'t>, Error> {
    let parsed = parse(text, options)?;
    Ok(Located {
        text: &text[parsed.span.clone()],
        span: parsed.span,
        source: parsed.source,
    })
}

/// Repairs the first JSON value in `text` with default options and deserialises it into `T`.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Step { id: String }
/// let step: Step = llmjson::from_str("Sure! {id: 's1',}")?;
/// assert_eq!(step.id, "s1");
/// # Ok::<(), llmjson::Error>(())
/// ```
///
/// # Errors
/// As [`parse`], plus [`Error::Deserialize`] with the JSON path of the value that did not fit.
pub fn from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Error> {
    from_str_with(text, &Options::default())
}

/// [`from_str`] with explicit options.
///
/// # Errors
/// As [`from_str`].
pub fn from_str_with<T: serde::de::DeserializeOwned>(
    text: &str,
    options: &Options,
) -> Result<T, Error> {
    from_value(parse(text, options)?.value)
}

/// Deserialises a [`Value`] into `T` (no serde_json value in between).
///
/// # Errors
/// [`Error::Deserialize`] with the JSON path of the value that did not fit.
pub fn from_value<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, Error> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = pointer_of(e.path());
        Error::Deserialize {
            path,
            message: e.into_inner().to_string(),
        }
    })
}

/// Repairs the first JSON value in `text`, fits it to the schema derived from `T` (coercion,
/// then validation), and deserialises it into `T`. The schema is derived once per type.
///
/// ```
/// #[derive(serde::Deserialize, schemars::JsonSchema)]
/// struct Step { id: String, retries: u32 }
/// let step: Step = llmjson::from_str_guided("{id: 's1', Retries: '3'}")?;
/// assert_eq!(step.retries, 3);
/// # Ok::<(), llmjson::Error>(())
/// ```
///
/// # Errors
/// As [`parse`] with a schema: [`Error::Schema`] lists every violation; [`Error::Deserialize`]
/// carries the JSON path of a value that validated but did not fit the type.
pub fn from_str_guided<T>(text: &str) -> Result<T, Error>
where
    T: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
{
    from_str_guided_with(text, &Options::default())
}

/// [`from_str_guided`] with explicit options (a schema in them is replaced by `T`'s).
///
/// # Errors
/// As [`from_str_guided`].
pub fn from_str_guided_with<T>(text: &str, options: &Options) -> Result<T, Error>
where
    T: serde::de::DeserializeOwned + schemars::JsonSchema + 'static,
{
    let options = options.clone().schema(schema::for_type_cached::<T>()?);
    from_str_with(text, &options)
}

fn pointer_of(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("/{index}")),
            Segment::Map { key } => {
                out.push('/');
                value::push_pointer_token(&mut out, key);
            }
            Segment::Enum { variant } => out.push_str(&format!("/{variant}")),
            Segment::Unknown => out.push_str("/?"),
        }
    }
    out
}

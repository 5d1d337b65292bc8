//! The private native module of the npm package `llmjson` (`llmjson.node`): the library's
//! pipeline for JavaScript. The package's JavaScript layer (`index.js` over `core.js`) is the
//! public API: it compiles options once into [`CompiledOptions`] (from [`NativeOptions`]), builds values with `JSON.parse` from the
//! compact JSON returned here (V8's own parser is the fastest way to make JavaScript objects),
//! and throws the typed errors from [`NativeError`].
//!
//! Offsets given to JavaScript are UTF-16 code units (what JavaScript string indices count),
//! not the library's UTF-8 bytes.

use llmjson::{Coercion, Diagnostics, DuplicateKeys, Error, Options, Truncation};
use napi::bindgen_prelude::*;
use napi_derive::napi;
use std::sync::Arc;
use std::time::Instant;

/// The parser allocates a string per key and value and a map per object, and a broken reply
/// allocates about 2.5 times as many blocks as its valid twin (values a lane read and then gave
/// up, the repair log): mimalloc's small-object paths are much faster than glibc's for that
/// (3.5-5 µs less a small broken reply's parse, measured). The library leaves the allocator to
/// its users; this addon is one, as the CLI and the Python extension are.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod stream;

/// The options every call takes (the JavaScript layer fills in the defaults it documents).
#[napi(object)]
pub struct NativeOptions {
    /// `none`, `conservative` or `full`.
    pub level: Option<String>,
    /// `complete`, `drop` or `drop_element`.
    pub truncation: Option<String>,
    /// The safety guard's limit: the share of the located text a repair may discard.
    pub max_removed_ratio: Option<f64>,
    /// `last`, `first` or `error`.
    pub duplicate_keys: Option<String>,
    /// Inputs longer than this many bytes of UTF-8 are refused.
    pub max_size: Option<f64>,
    /// The deepest nesting accepted.
    pub max_depth: Option<u32>,
    /// `fit` or `validate_only`.
    pub coercion: Option<String>,
    /// Which comments the safety guard counts: `data` (the default) or `all`.
    pub guard_comments: Option<String>,
    /// Read LaTeX commands that collide with JSON escapes as LaTeX (the default, `true`).
    pub latex: Option<bool>,
    /// With a schema: `fail` (the default) or `drop` the array items that fail their item
    /// schema.
    pub invalid_items: Option<String>,
    /// Evidence texts the value's numbers are verified against (the verify stage runs last).
    pub evidence: Option<Vec<String>>,
    /// With evidence: block an ungrounded value (the default, `true`) or only report it.
    pub fail_closed: Option<bool>,
}

/// Options read once: JavaScript keeps one per distinct set of options and passes it to every
/// call, so a call does not read an options object field by field (a dozen property reads and
/// string conversions: more than the parse of a small valid reply).
#[napi]
pub struct CompiledOptions {
    inner: Options,
}

#[napi]
impl CompiledOptions {
    /// Checks and compiles the options (a `TypeError`-like `InvalidArg` error names a bad one).
    #[napi(constructor)]
    pub fn new(options: NativeOptions) -> Result<Self> {
        Ok(CompiledOptions {
            inner: options_from(&options)?,
        })
    }
}

/// The package's default options, compiled once by JavaScript ([`set_default_options`]): a
/// call with no options of its own passes none, and Node unwraps no object for it (0.2-0.3 µs
/// of a small reply's parse, measured).
static DEFAULT_OPTIONS: std::sync::OnceLock<Options> = std::sync::OnceLock::new();

/// Makes `options` the ones a call without options uses (JavaScript's defaults, compiled).
/// Only the first call counts: every copy of the package has the same defaults.
#[napi]
pub fn set_default_options(options: &CompiledOptions) {
    let _ = DEFAULT_OPTIONS.set(options.inner.clone());
}

/// The options of a call that passed none.
fn default_options() -> Result<&'static Options> {
    DEFAULT_OPTIONS
        .get()
        .ok_or_else(|| napi::Error::from_reason("the default options were not set"))
}

/// The options of one call: the compiled ones (the defaults when none), with the call's schema
/// when it has one.
fn with_schema<'o>(
    options: Option<&'o CompiledOptions>,
    schema: Option<&Schema>,
) -> Result<std::borrow::Cow<'o, Options>> {
    let options = match options {
        Some(options) => &options.inner,
        None => default_options()?,
    };
    Ok(match schema {
        None => std::borrow::Cow::Borrowed(options),
        Some(schema) => {
            let mut options = options.clone();
            options.schema = Some(Arc::clone(&schema.inner));
            std::borrow::Cow::Owned(options)
        }
    })
}

/// A compiled JSON Schema.
#[napi]
pub struct Schema {
    inner: Arc<llmjson::Schema>,
}

#[napi]
impl Schema {
    /// Compiles a schema from its JSON text.
    #[napi(constructor)]
    pub fn new(document: String) -> Result<Self> {
        let document: serde_json::Value = serde_json::from_str(&document)
            .map_err(|e| invalid(format!("the schema is not JSON: {e}")))?;
        let inner = llmjson::Schema::new(document).map_err(|e| invalid(e.to_string()))?;
        Ok(Schema {
            inner: Arc::new(inner),
        })
    }

    /// The violations of a value (its JSON text), none when it fits.
    #[napi]
    pub fn validate(&self, value: String) -> Result<Vec<Violation>> {
        let value: llmjson::Value = value
            .parse()
            .map_err(|e| invalid(format!("not JSON: {e}")))?;
        Ok(match self.inner.validate(&value) {
            Ok(()) => Vec::new(),
            Err(errors) => errors.iter().map(violation).collect(),
        })
    }
}

/// One way a value does not fit a schema.
#[napi(object)]
pub struct Violation {
    /// JSON Pointer to the value at fault (`""` for the root).
    pub path: String,
    /// The keyword that failed (`type`, `required`, …).
    pub keyword: String,
    /// What is wrong.
    pub message: String,
}

fn violation(e: &llmjson::SchemaError) -> Violation {
    Violation {
        path: e.instance_path.clone(),
        keyword: e.keyword.clone(),
        message: e.message.clone(),
    }
}

/// One item a salvage left out, as JavaScript sees it: its span in UTF-16 code units.
#[derive(serde::Serialize)]
struct JsDropped<'a> {
    path: &'a str,
    start: u32,
    end: u32,
    line: usize,
    column: usize,
    errors: Vec<JsViolation<'a>>,
}

#[derive(serde::Serialize)]
struct JsViolation<'a> {
    path: &'a str,
    keyword: &'a str,
    message: &'a str,
}

/// Why no value came out: what the JavaScript layer turns into a typed error.
#[napi(object)]
pub struct NativeError {
    /// The library's error kind (`empty`, `no_json`, `syntax`, `schema`, …).
    pub kind: String,
    /// The error's message.
    pub message: String,
    /// Where, when the error has a place: 1-based line and column (in characters), and the
    /// offset in UTF-16 code units.
    pub line: Option<u32>,
    /// See `line`.
    pub column: Option<u32>,
    /// See `line`.
    pub position: Option<u32>,
    /// The line holding the spot and a caret under it.
    pub excerpt: Option<String>,
    /// The reply was cut off.
    pub truncated: bool,
    /// What a schema refused.
    pub schema_errors: Vec<Violation>,
    /// The value a schema refused (compact JSON).
    pub value: Option<String>,
    /// The failure's name for retries (`no_json`, `truncated`, `schema`, …).
    pub failure: String,
    /// What a retry tells the model about this reply (the attempt header is added by the
    /// retry loop).
    pub feedback: String,
    /// Advice for the caller (raise the token limit, …), when there is some.
    pub advice: Option<String>,
    /// A grounding failure: the verification that failed (JSON) and why
    /// (`numeric_grounding_failed`, `cross_variant_mix` or `no_evidence`).
    pub verification: Option<String>,
    /// See `verification`.
    pub reason: Option<String>,
}

/// What one call gives back. Only what the call has is set (an unset field costs no property
/// on the JavaScript object): a valid reply read as it is comes back as `{ flags: VALID }`.
#[napi(object, object_from_js = false)]
pub struct Outcome {
    /// The value as compact JSON (for `parseAll`, an array of the values), or the repaired or
    /// extracted text; `None` on failure.
    pub json: Option<String>,
    /// Every repair, kept natively until read: the ticket [`repair_log`] takes; unset when
    /// there is none.
    pub repairs: Option<i64>,
    /// The array items a salvage left out: a JSON array of `{path, start, end, line, column,
    /// errors: [{path, keyword, message}]}`; unset when there is none.
    pub dropped: Option<String>,
    /// Where the JSON was (UTF-16 code units): from the first value's start to the last one's
    /// end.
    pub start: Option<u32>,
    /// See `start`.
    pub end: Option<u32>,
    /// Where it was found: `text`, `fence:json`, `tool_call`, …
    pub source: Option<String>,
    /// [`REPAIRED`], [`TRUNCATED`] and [`VALID`], or-ed (one property, not three).
    pub flags: u32,
    /// The diagnostics record as JSON (when asked for).
    pub diagnostics: Option<String>,
    /// The verification of the value's numbers against the evidence, as JSON (with evidence).
    pub verification: Option<String>,
    /// Why no value came out.
    pub error: Option<NativeError>,
}

/// At least one repair changed the value ([`llmjson::Parsed::is_repaired`]).
#[napi]
pub const REPAIRED: u32 = 1;
/// The reply was cut off and completed.
#[napi]
pub const TRUNCATED: u32 = 2;
/// The reply is one valid JSON document, to be read as it is (`json` is not set): with
/// `valid_as_is`, when nothing (schema, duplicate-key policy, evidence) asks for more.
#[napi]
pub const VALID: u32 = 4;
/// The result has repairs whose log was not kept ([`CALL_LOG_LATER`]): JavaScript parses
/// again to read it.
#[napi]
pub const LOG_LATER: u32 = 8;

impl Outcome {
    /// Nothing yet: no value, no repairs, no error (each call fills in what it has).
    fn blank() -> Self {
        Outcome {
            json: None,
            repairs: None,
            dropped: None,
            start: None,
            end: None,
            source: None,
            flags: 0,
            diagnostics: None,
            verification: None,
            error: None,
        }
    }
}

/// A result's repairs, kept natively until JavaScript first reads them: a caller who only
/// wants the value pays for no repair's fields. Offsets are already UTF-16 code units.
pub struct RepairLog {
    repairs: Vec<llmjson::Repair>,
    /// The text the spans point into, kept only when it is not ASCII (elsewhere a byte offset
    /// is already a UTF-16 one) and JavaScript does not hand it back when it reads the log.
    text: Option<Box<str>>,
    /// The repairs' lines and columns are left to the read (`parse`'s log: most callers never
    /// read it), which hands the text back.
    positions_pending: bool,
}

/// One repair as JavaScript sees it: its span in UTF-16 code units.
#[derive(serde::Serialize)]
struct LoggedRepair<'r> {
    kind: &'static str,
    start: u32,
    end: u32,
    line: usize,
    column: usize,
    path: &'r str,
    detail: &'r str,
}

/// The repair logs of recent results, kept natively by ticket until JavaScript reads one (and
/// takes it). A ring, not a JavaScript object per result: a napi `External` costs a weak handle
/// and a finalizer (about 1.4 µs a parse, measured), paid by every caller though most read only
/// the value. The oldest logs go past [`LOGS_KEPT`] or [`LOG_BYTES_KEPT`]; JavaScript rebuilds
/// one it finds gone by parsing the same text again (a parse is deterministic).
struct Logs {
    /// The next ticket: counts up and never wraps in practice (2^53 parses at a million a
    /// second is three centuries), so that a stale ticket never names a newer log.
    next: i64,
    bytes: usize,
    kept: std::collections::VecDeque<(i64, usize, RepairLog)>,
}

const LOGS_KEPT: usize = 1024;
const LOG_BYTES_KEPT: usize = 16 << 20;

static LOGS: std::sync::Mutex<Logs> = std::sync::Mutex::new(Logs {
    next: 0,
    bytes: 0,
    kept: std::collections::VecDeque::new(),
});

impl RepairLog {
    /// The repairs of `parsed` (moved out), over `text`; `None` when there is none. A log
    /// whose lines and columns the parse left out (they are 1-based: 0 is "not computed",
    /// `llmjson::bindings::Hints::positions_later`) keeps no text: the read hands it back.
    fn of(text: &str, parsed: &mut [llmjson::Parsed]) -> Option<Self> {
        let repairs: Vec<llmjson::Repair> = parsed
            .iter_mut()
            .flat_map(|p| std::mem::take(&mut p.repairs))
            .collect();
        let positions_pending = repairs.iter().any(|r| r.line == 0);
        (!repairs.is_empty()).then(|| RepairLog {
            repairs,
            text: (!positions_pending && !text.is_ascii()).then(|| text.into()),
            positions_pending,
        })
    }

    /// About what the log holds in memory.
    fn bytes(&self) -> usize {
        let repairs: usize = self
            .repairs
            .iter()
            .map(|r| std::mem::size_of::<llmjson::Repair>() + r.path.len() + r.detail.len())
            .sum();
        repairs + self.text.as_deref().map_or(0, str::len)
    }

    /// Kept until read: its ticket.
    fn keep(self) -> i64 {
        let size = self.bytes();
        let mut logs = LOGS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let ticket = logs.next;
        logs.next = (logs.next + 1) % (1 << 53);
        logs.bytes += size;
        logs.kept.push_back((ticket, size, self));
        while logs.kept.len() > LOGS_KEPT || (logs.bytes > LOG_BYTES_KEPT && logs.kept.len() > 1) {
            if let Some((_, gone, _)) = logs.kept.pop_front() {
                logs.bytes -= gone;
            }
        }
        ticket
    }

    /// The log of `ticket`, taken out of the ring; `None` when it was let go.
    fn take(ticket: i64) -> Option<RepairLog> {
        let mut logs = LOGS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // From the newest: a log is most often read soon after its parse.
        let k = logs.kept.iter().rposition(|&(t, _, _)| t == ticket)?;
        let (_, size, log) = logs.kept.remove(k)?;
        logs.bytes -= size;
        Some(log)
    }
}

/// The repairs of a result as a JSON array of `{kind, start, end, line, column, path,
/// detail}`, made when JavaScript first reads `repairs` (a caller who reads only the value
/// pays for none of it); `null` when the log was let go (JavaScript then parses again). `text`:
/// the reply parsed, which a `parse` log's lines and columns are computed from now.
#[napi]
pub fn repair_log(ticket: i64, text: Option<String>) -> Result<Option<String>> {
    let Some(mut log) = RepairLog::take(ticket) else {
        return Ok(None);
    };
    let text = if log.positions_pending {
        let Some(text) = text.as_deref() else {
            return Err(invalid("the log's lines need the text parsed".to_string()));
        };
        llmjson::bindings::fill_positions(text, &mut log.repairs);
        Some(text)
    } else {
        log.text.as_deref()
    };
    let mut offsets = Utf16Offsets::new(text.unwrap_or(""));
    let unit = |offsets: &mut Utf16Offsets<'_>, byte: usize| match text {
        Some(_) => offsets.of(byte),
        None => small(byte),
    };
    let repairs: Vec<LoggedRepair<'_>> = log
        .repairs
        .iter()
        .map(|r| LoggedRepair {
            kind: r.kind.as_str(),
            start: unit(&mut offsets, r.span.start),
            end: unit(&mut offsets, r.span.end),
            line: r.line,
            column: r.column,
            path: &r.path,
            detail: &r.detail,
        })
        .collect();
    serde_json::to_string(&repairs)
        .map(Some)
        .map_err(|e| napi::Error::from_reason(e.to_string()))
}

fn invalid(message: String) -> napi::Error {
    napi::Error::new(Status::InvalidArg, message)
}

fn choice<T>(
    name: &str,
    value: Option<&str>,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>> {
    value
        .map(|v| parse(v).ok_or_else(|| invalid(format!("{name}: unknown value {v:?}"))))
        .transpose()
}

fn options_from(native: &NativeOptions) -> Result<Options> {
    let mut options = Options::default();
    if let Some(level) = choice("level", native.level.as_deref(), |v| v.parse().ok())? {
        options = options.level(level);
    }
    let truncation = choice("truncation", native.truncation.as_deref(), |v| match v {
        "complete" => Some(Truncation::Complete),
        "drop" => Some(Truncation::Drop),
        "drop_element" => Some(Truncation::DropElement),
        _ => None,
    })?;
    if let Some(truncation) = truncation {
        options = options.truncation(truncation);
    }
    let duplicates = choice(
        "duplicateKeys",
        native.duplicate_keys.as_deref(),
        |v| match v {
            "last" => Some(DuplicateKeys::Last),
            "first" => Some(DuplicateKeys::First),
            "error" => Some(DuplicateKeys::Error),
            _ => None,
        },
    )?;
    if let Some(duplicates) = duplicates {
        options = options.duplicate_keys(duplicates);
    }
    let coercion = choice("coercion", native.coercion.as_deref(), |v| match v {
        "fit" => Some(Coercion::Fit),
        "validate_only" => Some(Coercion::ValidateOnly),
        _ => None,
    })?;
    if let Some(coercion) = coercion {
        options = options.coercion(coercion);
    }
    if let Some(ratio) = native.max_removed_ratio {
        options = options.max_removed_ratio(ratio);
    }
    if let Some(size) = native.max_size {
        // NaN is refused too.
        if size.is_nan() || size < 0.0 {
            return Err(invalid(format!("maxSize: {size} is not a size")));
        }
        // Saturates: a limit past usize::MAX is no limit.
        options = options.max_size(size as usize);
    }
    if let Some(depth) = native.max_depth {
        options = options.max_depth(depth as usize);
    }
    let guard = choice("guardComments", native.guard_comments.as_deref(), |v| {
        v.parse::<llmjson::GuardComments>().ok()
    })?;
    if let Some(guard) = guard {
        options = options.guard_comments(guard);
    }
    if let Some(latex) = native.latex {
        options = options.latex(latex);
    }
    let invalid_items = choice("invalidItems", native.invalid_items.as_deref(), |v| {
        v.parse::<llmjson::InvalidItems>().ok()
    })?;
    if let Some(policy) = invalid_items {
        options = options.invalid_items(policy);
    }
    if let Some(texts) = &native.evidence {
        let mut evidence = llmjson::verify::Evidence::new();
        for (i, text) in texts.iter().enumerate() {
            evidence
                .add_text(&format!("evidence[{i}]"), text)
                .map_err(|e| invalid(format!("evidence: {e}")))?;
        }
        options = options.evidence(evidence);
    }
    if native.fail_closed == Some(false) {
        let verify = options.verify.clone().report_only();
        options = options.verify(verify);
    }
    Ok(options)
}

/// Byte offsets of one text as UTF-16 offsets, walking from the last one asked (forward or
/// back: offsets asked in nearly the order of the text cost what lies between them).
struct Utf16Offsets<'t> {
    text: &'t str,
    ascii: bool,
    byte: usize,
    unit: usize,
}

impl<'t> Utf16Offsets<'t> {
    fn new(text: &'t str) -> Self {
        Utf16Offsets {
            text,
            ascii: text.is_ascii(),
            byte: 0,
            unit: 0,
        }
    }

    fn of(&mut self, byte: usize) -> u32 {
        let byte = floor_boundary(self.text, byte.min(self.text.len()));
        if self.ascii {
            return small(byte);
        }
        if byte < self.byte {
            self.unit -= llmjson::bindings::utf16_len(&self.text[byte..self.byte]);
        } else {
            self.unit += llmjson::bindings::utf16_len(&self.text[self.byte..byte]);
        }
        self.byte = byte;
        small(self.unit)
    }
}

fn floor_boundary(text: &str, mut at: usize) -> usize {
    while at > 0 && !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A count for JavaScript (saturating: no reply has four billion lines).
fn small(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn native_error(text: &str, error: &Error, options: &Options) -> NativeError {
    let diagnosis = llmjson::retry::diagnose(&llmjson::retry::Reply::from(text), options, error);
    let (feedback, advice) = diagnosis.feedback(error);
    let position = error.position().filter(|p| p.line > 0);
    let (excerpt, truncated) = match error {
        Error::Syntax(e) => (Some(e.excerpt.clone()), e.truncated),
        _ => (None, false),
    };
    let (schema_errors, value) = match error {
        Error::Schema { errors, value, .. } => (
            errors.iter().map(violation).collect(),
            Some(value.to_json()),
        ),
        _ => (Vec::new(), None),
    };
    NativeError {
        kind: error.kind().to_string(),
        // A blocked answer's message is the blocking message.
        message: match error {
            Error::Grounding { message, .. } => message.clone(),
            _ => error.to_string(),
        },
        line: position.map(|p| small(p.line)),
        column: position.map(|p| small(p.column)),
        position: position.map(|p| Utf16Offsets::new(text).of(p.offset)),
        excerpt,
        truncated,
        schema_errors,
        value,
        failure: diagnosis.failure.as_str().to_string(),
        feedback,
        advice,
        verification: match error {
            Error::Grounding { verification, .. } => serde_json::to_string(verification).ok(),
            _ => None,
        },
        reason: match error {
            Error::Grounding { reason, .. } => Some((*reason).to_string()),
            _ => None,
        },
    }
}

fn failed(text: &str, error: &Error, options: &Options, diagnostics: Option<String>) -> Outcome {
    Outcome {
        diagnostics,
        error: Some(native_error(text, error, options)),
        ..Outcome::blank()
    }
}

/// What a parse reads: text, or bytes that may not be UTF-8.
#[derive(Clone, Copy)]
enum Input<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

/// An input owned, for a parse on another thread.
enum OwnedInput {
    Text(String),
    Bytes(Vec<u8>),
}

impl OwnedInput {
    fn of(input: Either<Utf16String, Buffer>) -> Self {
        match input {
            Either::A(units) => OwnedInput::Text(utf8_of(&units)),
            Either::B(bytes) => OwnedInput::Bytes(bytes.to_vec()),
        }
    }

    fn borrowed(&self) -> Input<'_> {
        match self {
            OwnedInput::Text(text) => Input::Text(text),
            OwnedInput::Bytes(bytes) => Input::Bytes(bytes),
        }
    }
}

/// Which parse, and what it gives back: the bits of a call's `call` argument.
#[derive(Clone, Copy)]
struct Call {
    /// Every value, not only the first.
    all: bool,
    /// The diagnostics record even on success.
    diagnose: bool,
    /// A valid document only says so (see [`parse`]).
    valid_as_is: bool,
    /// JavaScript's `JSON.parse` refused the whole reply: the strict reader is not tried on
    /// it again.
    refused_whole: bool,
    /// No caller has read a repair log yet: none is kept (a result that has repairs says
    /// [`LOG_LATER`], and JavaScript parses again if its log is read).
    log_later: bool,
}

/// `call` bit: every value, not only the first (`parseAll`).
#[napi]
pub const CALL_ALL: u32 = 1;
/// `call` bit: the diagnostics record even on success.
#[napi]
pub const CALL_DIAGNOSE: u32 = 2;
/// `call` bit: a valid document only says so ([`VALID`]).
#[napi]
pub const CALL_VALID_AS_IS: u32 = 4;
/// `call` bit: JavaScript's `JSON.parse` refused the whole reply.
#[napi]
pub const CALL_REFUSED_WHOLE: u32 = 8;
/// `call` bit: keep no repair log ([`LOG_LATER`] says a result had one).
#[napi]
pub const CALL_LOG_LATER: u32 = 16;

impl Call {
    fn of(bits: u32) -> Self {
        Call {
            all: bits & CALL_ALL != 0,
            diagnose: bits & CALL_DIAGNOSE != 0,
            valid_as_is: bits & CALL_VALID_AS_IS != 0,
            refused_whole: bits & CALL_REFUSED_WHOLE != 0,
            log_later: bits & CALL_LOG_LATER != 0,
        }
    }
}

/// Parses the first JSON value of `text` (every value with [`CALL_ALL`]), with the diagnostics
/// record when it fails or [`CALL_DIAGNOSE`] asks for it. With [`CALL_VALID_AS_IS`], a reply
/// that is one valid JSON document, under options that read it as JSON.parse does (no schema,
/// the last of repeated keys), only says so: JavaScript's own parser builds it fastest. With
/// [`CALL_REFUSED_WHOLE`], JavaScript's `JSON.parse` has refused the whole reply already: the
/// strict reader's fast path is not taken only to fail again. With [`CALL_LOG_LATER`], no
/// repair log is made beyond its kinds and spans (no paths), nor kept.
#[napi]
pub fn parse(
    input: Either<Utf16String, Buffer>,
    options: Option<&CompiledOptions>,
    schema: Option<&Schema>,
    call: u32,
) -> Result<Either<JsText, Outcome>> {
    let options = with_schema(options, schema)?;
    let (text, bytes);
    let input = match input {
        Either::A(units) => {
            // The UTF-16 copy goes as soon as it is converted.
            text = utf8_of(&units);
            Input::Text(&text)
        }
        Either::B(buffer) => {
            bytes = buffer;
            Input::Bytes(&bytes)
        }
    };
    run_parse(input, options.as_ref(), Call::of(call))
}

/// [`parse`] of the first value on the libuv thread pool: the event loop goes on meanwhile.
#[napi]
pub fn parse_async(
    input: Either<Utf16String, Buffer>,
    options: Option<&CompiledOptions>,
    schema: Option<&Schema>,
    call: u32,
) -> Result<AsyncTask<ParseTask>> {
    Ok(AsyncTask::new(ParseTask {
        input: OwnedInput::of(input),
        options: with_schema(options, schema)?.into_owned(),
        call: Call {
            all: false,
            ..Call::of(call)
        },
    }))
}

/// A parse run by [`parse_async`].
pub struct ParseTask {
    input: OwnedInput,
    options: Options,
    call: Call,
}

impl Task for ParseTask {
    type Output = Either<JsText, Outcome>;
    type JsValue = Either<JsText, Outcome>;

    fn compute(&mut self) -> Result<Self::Output> {
        run_parse(self.input.borrowed(), &self.options, self.call)
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> Result<Self::JsValue> {
        Ok(output)
    }
}

fn run_parse(input: Input<'_>, options: &Options, call: Call) -> Result<Either<JsText, Outcome>> {
    let Call {
        all,
        diagnose,
        valid_as_is,
        refused_whole,
        log_later,
    } = call;
    // Only a JavaScript string can be handed back when the log is read (to place its
    // repairs): bytes get their lines and columns now.
    let from_string = matches!(input, Input::Text(_));
    // Bytes that are not UTF-8 go through `parse_bytes` (an error at level `none`, else U+FFFD
    // and an `invalid_utf8` repair); offsets then count in the decoded text.
    let decoded;
    let (text, from_bytes) = match input {
        Input::Text(text) => (text, None),
        Input::Bytes(bytes) => match std::str::from_utf8(bytes) {
            Ok(text) => (text, None),
            Err(_) if all => {
                return Err(invalid(
                    "parseAll takes a string, or bytes that are UTF-8".to_string(),
                ))
            }
            Err(_) => {
                decoded = String::from_utf8_lossy(bytes).into_owned();
                (decoded.as_str(), Some(bytes))
            }
        },
    };
    if valid_as_is
        && !all
        && options.schema.is_none()
        && options.evidence.is_none()
        && options.duplicate_keys == DuplicateKeys::Last
        && text.len() <= options.max_size
        && llmjson::sink::read_valid(text, options.max_depth, &mut llmjson::sink::CheckSink).is_ok()
    {
        return Ok(Either::B(Outcome {
            flags: VALID,
            ..Outcome::blank()
        }));
    }
    // Where the library follows the hint (`llmjson::bindings::hints_apply`): then no log is kept,
    // whatever the outcome.
    let log_later = log_later
        && !all
        && !diagnose
        && from_bytes.is_none()
        && llmjson::bindings::hints_apply(options);
    let (result, diagnostics) = if all {
        (llmjson::parse_all(text, options), None)
    } else {
        let started = Instant::now();
        let result = match from_bytes {
            Some(bytes) => llmjson::parse_bytes(bytes, options),
            // The log's lines and columns when it is read (JavaScript hands the text back),
            // unless the diagnostics record, made now, shows them, or the reply came as bytes.
            None => llmjson::bindings::parse_hinted(
                text,
                options,
                llmjson::bindings::Hints {
                    refused_whole,
                    positions_later: !diagnose && from_string,
                    log_later,
                },
            ),
        };
        let elapsed = started.elapsed();
        // A failure always carries its record (the error's `diagnostics`); a success only when
        // asked (JavaScript asks when its `diagnostics` is first read).
        let diagnostics = (diagnose || result.is_err()).then(|| {
            let mut json = String::new();
            Diagnostics::of_parse(&result, options, elapsed).write_json(&mut json);
            json
        });
        (result.map(|p| vec![p]), diagnostics)
    };
    let mut parsed = match result {
        Ok(parsed) => parsed,
        Err(error) => return Ok(Either::B(failed(text, &error, options, diagnostics))),
    };
    if let [only] = parsed.as_mut_slice() {
        // Where hints apply (as `log_later` says), no schema or evidence: nothing is dropped
        // or verified.
        if log_later
            || !all
                && diagnostics.is_none()
                && only.verification.is_none()
                && only.dropped.is_empty()
        {
            return Ok(Either::A(success_line(text, only, !log_later)));
        }
    }
    outcome_of(text, &mut parsed, all, diagnostics).map(Either::B)
}

/// A success with nothing to say but the value, its span, source, flags and repairs (most
/// parses) as one string: `flags start end ticket source`, a line feed, then the value as
/// compact JSON (which holds no line feed; a fence label holds no space either); `ticket` is
/// the repair log's ticket plus one, 0 when there is none or it is not kept (`keep` false:
/// [`LOG_LATER`] then says whether there was one). One string crosses to JavaScript instead
/// of an object of six properties, each a call into Node (about 1 µs of a small reply's
/// parse, measured); V8 parses the JSON in place, as a slice of it.
fn success_line(text: &str, parsed: &mut llmjson::Parsed, keep: bool) -> JsText {
    use std::fmt::Write as _;
    let mut offsets = Utf16Offsets::new(text);
    let start = offsets.of(parsed.span.start);
    let end = offsets.of(parsed.span.end);
    let flags = value_flags(std::slice::from_ref(parsed))
        | if !keep && !parsed.repairs.is_empty() {
            LOG_LATER
        } else {
            0
        };
    let ticket = if keep {
        RepairLog::of(text, std::slice::from_mut(parsed)).map_or(0, |log| log.keep() + 1)
    } else {
        0
    };
    let mut line = String::with_capacity(text.len() + 48);
    // Writing to a String cannot fail.
    let _ = writeln!(line, "{flags} {start} {end} {ticket} {}", parsed.source);
    parsed.value.write_json(&mut line);
    js_text(line)
}

/// A JavaScript string as UTF-8 (a lone surrogate becomes U+FFFD, as Node's own conversion
/// makes it). Taken as UTF-16, which V8 copies out as it holds it, and converted here in one
/// pass: V8's conversion to UTF-8 walks the string twice (to size it, then to write it).
fn utf8_of(units: &[u16]) -> String {
    // A UTF-16 unit is at most three bytes of UTF-8.
    let mut text = "\0".repeat(units.len() * 3);
    let written = encoding_rs::mem::convert_utf16_to_str(units, &mut text);
    text.truncate(written);
    // A big reply does not hold on to three bytes a unit while it is parsed (a small one's
    // room is not worth a copy).
    if text.capacity() > 2 * text.len() + (64 << 10) {
        text.shrink_to_fit();
    }
    text
}

/// A string for JavaScript in the form V8 makes it from fastest: Latin-1 when it is ASCII (a
/// copy), else UTF-16 (a copy). From UTF-8, V8 decodes every byte twice (to size the string,
/// then to fill it): 1.3 µs for the JSON of a 1.5 KB reply, 0.26 µs from UTF-16 (measured);
/// encoding_rs makes the UTF-16 in one pass, eight ASCII bytes at a time.
type JsText = Either<Latin1String, Utf16String>;

/// `text` for JavaScript (see [`JsText`]).
fn js_text(line: String) -> JsText {
    if line.is_ascii() {
        return Either::A(Latin1String::from(line));
    }
    // A UTF-8 string never has more UTF-16 units than bytes.
    let mut units = vec![0u16; line.len()];
    let written = encoding_rs::mem::convert_str_to_utf16(&line, &mut units);
    units.truncate(written);
    Either::B(Utf16String::from(units))
}

/// [`REPAIRED`] and [`TRUNCATED`] of what `parsed` holds (read before its log moves out).
fn value_flags(parsed: &[llmjson::Parsed]) -> u32 {
    let flag = |on: bool, flag: u32| if on { flag } else { 0 };
    flag(parsed.iter().any(llmjson::Parsed::is_repaired), REPAIRED)
        | flag(parsed.iter().any(llmjson::Parsed::is_truncated), TRUNCATED)
}

/// The outcome of a successful parse of `text` (`parsed`: one value, or every value with `all`).
fn outcome_of(
    text: &str,
    parsed: &mut [llmjson::Parsed],
    all: bool,
    diagnostics: Option<String>,
) -> Result<Outcome> {
    let (Some(first), Some(last)) = (parsed.first(), parsed.last()) else {
        return Err(napi::Error::from_reason("no value"));
    };
    let json = if all {
        let mut json = String::from("[");
        for (i, p) in parsed.iter().enumerate() {
            if i > 0 {
                json.push(',');
            }
            p.value.write_json(&mut json);
        }
        json.push(']');
        json
    } else {
        first.value.to_json()
    };
    let mut offsets = Utf16Offsets::new(text);
    let start = offsets.of(first.span.start);
    let end = offsets.of(last.span.end);
    let dropped: Vec<JsDropped<'_>> = parsed
        .iter()
        .flat_map(|p| p.dropped.iter())
        .map(|item| JsDropped {
            path: &item.path,
            start: offsets.of(item.span.start),
            end: offsets.of(item.span.end),
            line: item.line,
            column: item.column,
            errors: item
                .errors
                .iter()
                .map(|e| JsViolation {
                    path: &e.instance_path,
                    keyword: &e.keyword,
                    message: &e.message,
                })
                .collect(),
        })
        .collect();
    let dropped = if dropped.is_empty() {
        None
    } else {
        Some(serde_json::to_string(&dropped).map_err(|e| napi::Error::from_reason(e.to_string()))?)
    };
    let outcome = Outcome {
        json: Some(json),
        dropped,
        start: Some(start),
        end: Some(end),
        source: Some(if all {
            "text".to_string()
        } else {
            first.source.to_string()
        }),
        flags: value_flags(parsed),
        diagnostics,
        verification: first
            .verification
            .as_ref()
            .and_then(|v| serde_json::to_string(v).ok()),
        ..Outcome::blank()
    };
    // Last: the log moves out of `parsed`, whose flags above read it.
    Ok(Outcome {
        repairs: RepairLog::of(text, parsed).map(RepairLog::keep),
        ..outcome
    })
}

/// The first JSON value of `text` as JSON text: valid JSON exactly as written, repaired JSON
/// compact; the text alone on success (no object to build). With `valid_within` (the
/// jsonrepair drop-in), a `text` that is one valid JSON document nested at most that deep only
/// says so (`{ flags: VALID }`): JavaScript hands its own string back, and the text crosses
/// once.
#[napi]
pub fn repair(
    text: Utf16String,
    options: Option<&CompiledOptions>,
    schema: Option<&Schema>,
    valid_within: Option<u32>,
) -> Result<Either<JsText, Outcome>> {
    let text = utf8_of(&text);
    if let Some(max_depth) = valid_within {
        if llmjson::sink::read_valid(&text, max_depth as usize, &mut llmjson::sink::CheckSink)
            .is_ok()
        {
            return Ok(Either::B(Outcome {
                flags: VALID,
                ..Outcome::blank()
            }));
        }
    }
    let options = with_schema(options, schema)?;
    if valid_within.is_some() {
        // The drop-in: a repaired value is written in the layout the reply had (its
        // indentation, its spacing), as jsonrepair keeps the input's whitespace.
        return Ok(match llmjson::parse(&text, &options) {
            Ok(parsed) if parsed.repairs.is_empty() => {
                Either::A(js_text(text[parsed.span].to_string()))
            }
            Ok(parsed) => {
                let layout = llmjson::Layout::of(&text[parsed.span.clone()]);
                // The whitespace around the value stays too, when that is all there is.
                let (before, after) = (&text[..parsed.span.start], &text[parsed.span.end..]);
                let blank = |s: &str| s.chars().all(char::is_whitespace);
                let mut json = String::new();
                if blank(before) {
                    json.push_str(before);
                }
                json.push_str(&parsed.value.to_json_in(&layout));
                if blank(after) {
                    json.push_str(after);
                }
                Either::A(js_text(json))
            }
            Err(error) => Either::B(failed(&text, &error, &options, None)),
        });
    }
    Ok(match llmjson::repair_to_string(&text, &options) {
        Ok(json) => Either::A(js_text(json)),
        Err(error) => Either::B(failed(&text, &error, &options, None)),
    })
}

/// The first JSON value's text, untouched, and where it was.
#[napi]
pub fn extract(text: String, options: &CompiledOptions) -> Result<Outcome> {
    let options = &options.inner;
    Ok(match llmjson::extract(&text, options) {
        Ok(located) => {
            let mut offsets = Utf16Offsets::new(&text);
            Outcome {
                json: Some(located.text.to_string()),
                start: Some(offsets.of(located.span.start)),
                end: Some(offsets.of(located.span.end)),
                source: Some(located.source.to_string()),
                ..Outcome::blank()
            }
        }
        Err(error) => failed(&text, &error, options, None),
    })
}

/// Whether `text` is exactly one valid JSON document nested at most `max_depth` deep (checked
/// without building a value).
#[napi]
pub fn is_valid_document(text: String, max_depth: u32) -> bool {
    llmjson::sink::read_valid(&text, max_depth as usize, &mut llmjson::sink::CheckSink).is_ok()
}

/// The retry feedback for violations of a schema (the same text as Rust and Python).
#[napi]
pub fn schema_feedback(violations: Vec<String>) -> String {
    llmjson::retry::schema_feedback(&violations)
}

/// The feedback message of a retry (the same text as Rust and Python).
#[napi]
pub fn feedback_message(attempt: u32, budget: u32, body: String, repeated: bool) -> String {
    llmjson::retry::feedback_message(attempt as usize, budget as usize, &body, repeated)
}

/// The feedback for a cut-off reply, and the hint that goes with it.
#[napi]
pub fn truncation_feedback() -> Vec<String> {
    let (body, hint) =
        llmjson::retry::feedback_body(llmjson::retry::Failure::Truncated, &Error::Empty);
    let mut out = vec![body];
    out.extend(hint);
    out
}

/// Every repair kind's name.
#[napi]
pub fn repair_kinds() -> Vec<&'static str> {
    llmjson::RepairKind::ALL
        .iter()
        .map(|k| k.as_str())
        .collect()
}

/// The library's version.
#[napi]
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The LaTeX command names a valid document's escapes may begin
/// ([`llmjson::sink::LATEX_COLLISIONS`]): JavaScript hands a document holding one to the
/// native path instead of reading it with `JSON.parse` alone.
#[napi]
pub fn latex_collisions() -> Vec<&'static str> {
    llmjson::sink::LATEX_COLLISIONS.to_vec()
}

/// How `verify` checks a text answer (every field optional: the CLI's defaults).
#[napi(object)]
pub struct NativeVerifyOptions {
    /// Block an ungrounded answer (the default) or only report it.
    pub fail_closed: Option<bool>,
    /// How numbers are spelled: `auto`, `en`, `pt-BR`, `de`, `es`, `it`, `fr`.
    pub locale: Option<String>,
    /// The blocking message's language: `en` or `pt`.
    pub language: Option<String>,
    /// Skip bare integer counts up to this value (default 10).
    pub small_counts: Option<u32>,
    /// Check years (1900-2100) like any number.
    pub check_years: Option<bool>,
    /// A percentage and its fraction are different quantities (45% is not 0.45).
    pub percent_distinct: Option<bool>,
}

/// What `verify` returns: the output (the answer, or the blocking message), the reason it was
/// blocked, the verification and the diagnostics record, each as JSON.
#[napi(object)]
pub struct NativeVerdict {
    /// The answer, or the blocking message.
    pub output: String,
    /// Why it was blocked, when it was.
    pub fail_closed_reason: Option<String>,
    /// The verification, as JSON.
    pub verification: String,
    /// The diagnostics record, as JSON.
    pub diagnostics: String,
}

/// Checks the numbers of a text answer against evidence texts, as `llmjson verify` does.
#[napi]
pub fn verify(
    answer: String,
    evidence: Vec<String>,
    options: Option<NativeVerifyOptions>,
) -> Result<NativeVerdict> {
    let o = options.unwrap_or(NativeVerifyOptions {
        fail_closed: None,
        locale: None,
        language: None,
        small_counts: None,
        check_years: None,
        percent_distinct: None,
    });
    let locale: llmjson::verify::Locale = o
        .locale
        .as_deref()
        .unwrap_or("auto")
        .parse()
        .map_err(|e: String| invalid(format!("locale: {e}")))?;
    let language: llmjson::verify::Language = o
        .language
        .as_deref()
        .unwrap_or("en")
        .parse()
        .map_err(|e: String| invalid(format!("language: {e}")))?;
    let mut verify = llmjson::verify::VerifyOptions::default()
        .locale(locale)
        .language(language)
        .small_counts(llmjson::verify::SmallCounts::UpTo(
            o.small_counts.unwrap_or(10),
        ));
    if o.check_years == Some(true) {
        verify = verify.years(llmjson::verify::Years::Check);
    }
    if o.percent_distinct == Some(true) {
        verify = verify.percent(llmjson::verify::PercentForms::Distinct);
    }
    verify = if o.fail_closed == Some(false) {
        verify.report_only()
    } else {
        verify.fail_closed()
    };
    let mut index = llmjson::verify::Evidence::with_locale(locale);
    for (i, text) in evidence.iter().enumerate() {
        index
            .add_text(&format!("evidence[{i}]"), text)
            .map_err(|e| invalid(format!("evidence: {e}")))?;
    }
    let start = Instant::now();
    let result = llmjson::verify::verify(&answer, &index, &verify);
    let mut diagnostics = String::new();
    Diagnostics::of_verify(&result, start.elapsed()).write_json(&mut diagnostics);
    let verdict = result.map_err(|e| invalid(e.to_string()))?;
    let verification = serde_json::to_string(&verdict.verification)
        .map_err(|e| invalid(format!("the verification: {e}")))?;
    Ok(NativeVerdict {
        output: verdict.output,
        fail_closed_reason: verdict.fail_closed.map(|f| f.reason.to_string()),
        verification,
        diagnostics,
    })
}

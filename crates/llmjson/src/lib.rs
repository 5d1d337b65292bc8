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

mod error;
mod locate;
mod options;
mod position;
mod repair;
mod retry;
mod schema;

pub use error::{Error, SyntaxError};
pub use locate::Source;
pub use options::{
    Coercion, DuplicateKeys, Options, RepairLevel, Truncation, DEFAULT_MAX_DEPTH,
    DEFAULT_MAX_REMOVED_RATIO, DEFAULT_MAX_SIZE, MAX_DEPTH_CEILING,
};
pub use position::Position;
pub use repair::{Repair, RepairKind};
pub use retry::{
    failure_of, feedback_body, feedback_for, feedback_message, retry, schema_feedback, Attempt,
    Failure, Feedback, Reply, RetryError, Success,
};
pub use schema::{Schema, SchemaError};
pub use serde_json::Value;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

use locate::Scan;
use repair::{Config, Fail, Output};
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
}

impl Parsed {
    /// The value needed at least one repair.
    pub fn is_repaired(&self) -> bool {
        self.repairs
            .iter()
            .any(|r| r.kind != RepairKind::DuplicateKey)
    }

    /// The reply was cut off (it ended inside a string, object or array).
    pub fn is_truncated(&self) -> bool {
        self.repairs.iter().any(|r| r.kind.is_truncation())
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
    match &options.schema {
        Some(schema) => schema::stage::parse_guided(text, options, schema),
        None => parse_unguided(text, options),
    }
}

/// Locate and repair only (the schema, if any, still guides the parser's quote decisions).
pub(crate) fn parse_unguided(text: &str, options: &Options) -> Result<Parsed, Error> {
    parse_with(text, options, FastPath::Try)
}

/// Whether to try serde_json on the whole reply first.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FastPath {
    Try,
    /// serde_json already refused this reply.
    Skip,
}

fn parse_with(text: &str, options: &Options, fast: FastPath) -> Result<Parsed, Error> {
    check_input(text, options)?;
    // The most common reply is one valid document: take it before any scanning.
    if fast == FastPath::Try {
        if let Some(found) = serde_whole(text, options) {
            return finish(text, found, options);
        }
    }
    let scan = Scan::new(text);
    let found = locate_first(&scan, options)?;
    finish(text, found, options)
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
    check_input(text, options)?;
    if let Some(found) = serde_whole(text, options) {
        return Ok(vec![finish(text, found, options)?]);
    }
    let scan = Scan::new(text);
    let first = locate_first(&scan, options)?;
    let mut from = first.out.end;
    let in_blocks = first.source != Source::Text;
    let mut results = vec![finish(text, first, options)?];
    if options.level == RepairLevel::None {
        return Ok(results);
    }
    let mut more = |from: usize, to: usize, region_end: usize, fence, source: &Source| {
        let mut from = from;
        while let Some(start) = scan.find_candidate(from, to) {
            let out = parse_candidate(text, start, region_end, fence, config(options))
                .map_err(|f| to_error(text, f, options))?;
            from = out.end.max(start + 1);
            results.push(finish(text, found(out, source.clone()), options)?);
        }
        Ok::<usize, Error>(from)
    };
    if in_blocks {
        for block in scan.blocks() {
            if block.content_end <= from {
                continue;
            }
            let start = from.max(block.content_start);
            from = more(
                start,
                block.content_end,
                block.region_end,
                block.fence,
                &block.source,
            )?;
        }
    } else {
        more(from, text.len(), text.len(), None, &Source::Text)?;
    }
    Ok(results)
}

/// Like [`parse`], for bytes that may not be UTF-8. At level `none` invalid UTF-8 is an
/// error; at other levels bad bytes become U+FFFD (logged as [`RepairKind::InvalidUtf8`]; spans
/// then refer to the decoded text).
///
/// # Errors
/// As [`parse`], plus [`Error::InvalidUtf8`] at level `none`.
pub fn parse_bytes(bytes: &[u8], options: &Options) -> Result<Parsed, Error> {
    if bytes.len() > options.max_size {
        return Err(Error::TooLarge {
            size: bytes.len(),
            limit: options.max_size,
        });
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text, options),
        Err(e) if options.level == RepairLevel::None => Err(Error::InvalidUtf8 {
            offset: e.valid_up_to(),
        }),
        Err(e) => {
            let text = String::from_utf8_lossy(bytes);
            let mut parsed = parse(&text, options)?;
            let at = e.valid_up_to();
            let pos = Position::of(&text, at);
            parsed.repairs.insert(
                0,
                Repair {
                    kind: RepairKind::InvalidUtf8,
                    span: at..at + 3,
                    line: pos.line,
                    column: pos.column,
                    path: String::new(),
                    detail: "bytes that are not UTF-8 became U+FFFD".into(),
                },
            );
            Ok(parsed)
        }
    }
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
        return serde_json::to_string(&parsed.value)
            .map_err(|_| Error::Internal("serialisation failed"));
    }
    let fast = match valid_whole_text(text, options) {
        Whole::Valid(copy) => return Ok(copy.to_string()),
        Whole::Invalid => FastPath::Skip,
        Whole::NotChecked => FastPath::Try,
    };
    let parsed = parse_with(text, options, fast)?;
    if parsed.repairs.is_empty() {
        return Ok(text[parsed.span].to_string());
    }
    serde_json::to_string(&parsed.value).map_err(|_| Error::Internal("serialisation failed"))
}

/// Whether `text` is exactly one valid JSON document (RFC 8259, surrounding whitespace allowed)
/// nested at most [`DEFAULT_MAX_DEPTH`] deep, checked without building a value: a cheap test for
/// "nothing to locate or repair" under the default options.
///
/// ```
/// assert!(llmjson::is_valid_document(" {\"a\": [1, 2]}\n"));
/// assert!(!llmjson::is_valid_document("{'a': 1}"));
/// assert!(!llmjson::is_valid_document("Sure: {\"a\": 1}"));
/// ```
pub fn is_valid_document(text: &str) -> bool {
    serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
        && nesting_within(text.as_bytes(), DEFAULT_MAX_DEPTH)
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
    let parsed = parse(text, options)?;
    serde_path_to_error::deserialize(parsed.value).map_err(|e| {
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
                out.push_str(&format!("/{}", key.replace('~', "~0").replace('/', "~1")))
            }
            Segment::Enum { variant } => out.push_str(&format!("/{variant}")),
            Segment::Unknown => out.push_str("/?"),
        }
    }
    out
}

// ------------------------------------------------------------------------------------------
// The pipeline.

/// The fast path's precondition: the default duplicate-key policy (serde_json keeps the last
/// value and says nothing) and a depth limit no lower than serde_json's own.
fn serde_fast_path_applies(options: &Options) -> bool {
    options.duplicate_keys == DuplicateKeys::Last && options.max_depth >= DEFAULT_MAX_DEPTH
}

/// What serde_json says of the whole reply, checked without building a value.
enum Whole<'t> {
    /// One valid JSON document (minus surrounding JSON whitespace).
    Valid(&'t str),
    /// serde_json refused it: the fast path cannot apply.
    Invalid,
    /// Not checked (policy, size, or a shape serde_json would not judge like llmjson).
    NotChecked,
}

fn valid_whole_text<'t>(text: &'t str, options: &Options) -> Whole<'t> {
    if text.len() > options.max_size || !serde_fast_path_applies(options) {
        return Whole::NotChecked;
    }
    let doc = text.trim_matches([' ', '\t', '\n', '\r']);
    if !matches!(doc.as_bytes().first(), Some(b'{' | b'[')) {
        return Whole::NotChecked;
    }
    // serde_json does not check that `\u` surrogates come in pairs when it skips a string;
    // llmjson's parser does. Such (rare) documents take the full path.
    let bytes = doc.as_bytes();
    if memchr::memmem::find(bytes, b"\\ud").is_some()
        || memchr::memmem::find(bytes, b"\\uD").is_some()
    {
        return Whole::NotChecked;
    }
    match serde_json::from_str::<serde::de::IgnoredAny>(doc) {
        // Skipping a value has no depth limit in serde_json: the depth promise is checked here.
        Ok(_) if nesting_within(bytes, options.max_depth.clamp(1, MAX_DEPTH_CEILING)) => {
            Whole::Valid(doc)
        }
        Ok(_) => Whole::NotChecked,
        Err(_) => Whole::Invalid,
    }
}

/// Containers in valid JSON `bytes` nest at most `limit` deep. Linear; strings are skipped with
/// a vectorised search.
fn nesting_within(bytes: &[u8], limit: usize) -> bool {
    // Most documents have fewer brackets in all than the limit: nothing to walk.
    if bytecount_openers(bytes) <= limit {
        return true;
    }
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                // Jump over the string: to its closing quote, past escapes. (The text is valid
                // JSON; on anything else this still stays in bounds.)
                i += 1;
                while let Some(k) = bytes
                    .get(i..)
                    .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
                {
                    i += k;
                    if bytes[i] == b'"' {
                        break;
                    }
                    i += 2;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return false;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    true
}

fn bytecount_openers(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'[' || b == b'{').count()
}

/// A reply that is one valid JSON document, parsed by serde_json itself: the fast path for the
/// most common case. Same features, so the same value (key order, exact digits) llmjson's parser
/// gives, which JSONTestSuite and the property tests check.
fn serde_whole(text: &str, options: &Options) -> Option<Found> {
    let start = text.len() - text.trim_start_matches([' ', '\t', '\n', '\r']).len();
    if !serde_fast_path_applies(options) || !matches!(text.as_bytes().get(start), Some(b'{' | b'['))
    {
        return None;
    }
    let end = text.trim_end_matches([' ', '\t', '\n', '\r']).len();
    let value: Value = serde_json::from_str(&text[start..end]).ok()?;
    let out = Output {
        value,
        start,
        end,
        repairs: Vec::new(),
        removed: 0,
    };
    Some(found(out, Source::Text))
}

fn check_input(text: &str, options: &Options) -> Result<(), Error> {
    if text.len() > options.max_size {
        return Err(Error::TooLarge {
            size: text.len(),
            limit: options.max_size,
        });
    }
    if text.trim().is_empty() {
        return Err(Error::Empty);
    }
    Ok(())
}

fn config(options: &Options) -> Config<'_> {
    Config {
        schema: options.schema.as_deref(),
        level: options.level,
        truncation: options.truncation,
        duplicate_keys: options.duplicate_keys,
        // The field is public: clamp here too, not only in the setter.
        max_depth: options.max_depth.clamp(1, MAX_DEPTH_CEILING),
        only_truncation: false,
        inside_object: false,
    }
}

/// The safety guard ignores repairs that discard at most this many non-whitespace bytes: on
/// tiny inputs a ratio is noise (a 6-byte comment in a 20-byte object is not a destructive edit).
pub const MIN_GUARDED_BYTES: usize = 32;

/// Parses the value at a candidate start: a line that starts with a quoted key is an object
/// whose `{` is missing.
fn parse_candidate(
    text: &str,
    start: usize,
    region_end: usize,
    fence: Option<repair::Fence>,
    config: Config<'_>,
) -> Result<Output, Fail> {
    if repair::parser_starts_quote(text.as_bytes(), start) {
        let inside = Config {
            inside_object: true,
            ..config
        };
        return repair::parse_once(text, start, region_end, inside);
    }
    repair::parse_at(text, start, region_end, fence, config)
}

/// A value found and parsed, before the guard and the log's positions.
struct Found {
    start: usize,
    out: Output,
    source: Source,
}

fn found(out: Output, source: Source) -> Found {
    Found {
        start: out.start,
        out,
        source,
    }
}

fn locate_first(scan: &Scan<'_>, options: &Options) -> Result<Found, Error> {
    let text = scan.text;
    let config = config(options);
    let to_err = |f: Fail| to_error(text, f, options);
    if options.level == RepairLevel::None {
        return locate_exact(scan, options);
    }

    // A value that opens the reply is parsed first: fences and tags *inside* it (markdown in a
    // string value) are text, not blocks.
    let mut leading_error = None;
    // A bracket at the start that did not look like JSON, read anyway: if the JSON found
    // later lies inside it, it was the document all along (`[⏎ (⏎ 9⏎ 7⏎ ), [9]]`).
    let mut enclosing = None;
    let leading = match scan.first_content() {
        Some(start) if matches!(text.as_bytes()[start], b'{' | b'[') => {
            // A reply that is one valid JSON document is exactly that, whatever it looks like
            // (the callers tried serde_json on it first; llmjson's parser repairs nothing in
            // valid JSON). Otherwise the bracket must look like JSON to be taken.
            let json_like = scan.opens_with_json(start);
            match repair::parse_at(text, start, text.len(), None, config) {
                Ok(out)
                    if json_like
                        || (out.repairs.is_empty() && text[out.end..].trim().is_empty()) =>
                {
                    Some(found(out, Source::Text))
                }
                Ok(out) => {
                    enclosing = Some(out);
                    None
                }
                Err(fail) => {
                    if json_like {
                        leading_error = Some(fail);
                    }
                    None
                }
            }
        }
        Some(start) if scan.is_scalar_at(start) => match leading_scalar(scan, start, config) {
            Ok(found) => found,
            Err(fail) => {
                leading_error = Some(fail);
                None
            }
        },
        _ => None,
    };
    // A reply that begins with `"key":` is an object whose `{` is missing (prefilled).
    let leading = match (leading, scan.first_content()) {
        (None, Some(start)) if scan.key_at(start) => {
            let inside = Config {
                inside_object: true,
                ..config
            };
            match repair::parse_once(text, start, text.len(), inside) {
                Ok(out) => Some(found(out, Source::Text)),
                Err(_) => None,
            }
        }
        (leading, _) => leading,
    };
    // 1. A ```json fence or a tool-call block is preferred, even over a leading value. Blocks
    // inside the leading value (markdown in its strings) are text: only look after it.
    let blocks = scan.blocks_from(leading.as_ref().map_or(0, |f| f.out.end));
    for block in blocks.iter().filter(|b| b.preferred) {
        if let Some(start) = scan.find_candidate(block.content_start, block.content_end) {
            let out = parse_candidate(text, start, block.region_end, block.fence, config)
                .map_err(to_err)?;
            return Ok(found(out, block.source.clone()));
        }
    }
    if let Some(found) = leading {
        return Ok(found);
    }
    // 2. Any other fence whose content is a JSON value.
    let other_fences = || blocks.iter().filter(|b| !b.preferred);
    for block in other_fences() {
        if let Some(start) = scan.find_candidate(block.content_start, block.content_end) {
            if scan.starts_block(block, start) {
                let out = parse_candidate(text, start, block.region_end, block.fence, config)
                    .map_err(to_err)?;
                return Ok(found(out, block.source.clone()));
            }
        }
    }
    let inside_enclosing = |start: usize| {
        enclosing
            .as_ref()
            .is_some_and(|e: &Output| e.start <= start && start < e.end)
    };
    // 3. The first thing in the prose that looks like JSON.
    if let Some(start) = scan.find_candidate_outside(&blocks, 0) {
        if inside_enclosing(start) {
            return Ok(found(enclosing.take().ok_or(Error::Internal("enclosing"))?, Source::Text));
        }
        let out = parse_candidate(text, start, text.len(), None, config).map_err(to_err)?;
        return Ok(found(out, Source::Text));
    }
    // 4. JSON inside a line of code in a fence (a command's payload): the answer only when
    // nothing else holds JSON.
    for block in other_fences() {
        if let Some(start) = scan.find_candidate(block.content_start, block.content_end) {
            let out = parse_candidate(text, start, block.region_end, block.fence, config)
                .map_err(to_err)?;
            return Ok(found(out, block.source.clone()));
        }
    }
    // 5. A reply that starts with a bracket (`[a, b]`, `{,"a":1}`) is JSON even if its first
    // bytes look odd.
    let bracket_start = scan
        .first_content()
        .filter(|&i| matches!(text.as_bytes()[i], b'{' | b'['));
    if let Some(start) = bracket_start {
        let out = repair::parse_at(text, start, text.len(), None, config).map_err(to_err)?;
        return Ok(found(out, Source::Text));
    }
    if let Some(fail) = leading_error {
        return Err(to_err(fail));
    }
    Err(no_json(scan))
}

/// A reply that starts with a scalar is that scalar only if nothing but noise follows (or
/// several scalars form a list): `3 reasons: {...}` is prose. The fast path may stop early
/// (`"a" + "b"`, a quote inside the text): then the tolerant parse decides.
fn leading_scalar(
    scan: &Scan<'_>,
    start: usize,
    config: Config<'_>,
) -> Result<Option<Found>, Fail> {
    let text = scan.text;
    let whole = |out: &Output| scan.only_trailing_noise(out.end, text.len());
    let out = match repair::parse_at(text, start, text.len(), None, config) {
        Ok(out) if !whole(&out) => repair::parse_once(text, start, text.len(), config)?,
        other => other?,
    };
    if whole(&out) {
        return Ok(Some(found(out, Source::Text)));
    }
    Ok(scalar_list(scan, start, out, config).map(|list| found(list, Source::Text)))
}

/// A reply made only of scalars separated by commas or newlines (`1, 2, 3`) is one list.
fn scalar_list(scan: &Scan<'_>, start: usize, first: Output, config: Config<'_>) -> Option<Output> {
    let text = scan.text;
    let b = text.as_bytes();
    let mut items = vec![first.value];
    let mut repairs = first.repairs;
    let mut removed = first.removed;
    let mut pos = first.end;
    loop {
        let mut separated = false;
        while pos < b.len() && matches!(b[pos], b' ' | b'\t' | b'\r' | b'\n' | b',') {
            separated |= matches!(b[pos], b',' | b'\n');
            pos += 1;
        }
        if pos >= b.len() {
            break;
        }
        if !separated || !scan.is_scalar_at(pos) {
            return None;
        }
        let out = repair::parse_at(text, pos, text.len(), None, config).ok()?;
        if matches!(out.value, Value::Object(_) | Value::Array(_)) {
            return None;
        }
        items.push(out.value);
        repairs.extend(out.repairs);
        removed += out.removed;
        pos = out.end;
    }
    if config.level < RepairLevel::Full || items.len() < 2 {
        return None;
    }
    repairs.push(repair::parser::RawRepair::at_root(
        RepairKind::WrappedInArray,
        start,
        pos,
        "several top-level values became an array",
    ));
    Some(Output {
        value: Value::Array(items),
        start,
        end: pos,
        repairs,
        removed,
    })
}

/// Level `none`: the located region (the whole reply, else a block's content) must hold exactly
/// one JSON value.
fn locate_exact(scan: &Scan<'_>, options: &Options) -> Result<Found, Error> {
    let text = scan.text;
    let first = scan.first_content().ok_or(Error::Empty)?;
    // The whole reply first: a valid document may hold fences inside its strings.
    let whole = exact_in(text, first, text.len(), None, Source::Text, options);
    if whole.is_ok() {
        return whole;
    }
    let blocks = scan.blocks();
    let block = blocks
        .iter()
        .find(|b| b.preferred)
        .or_else(|| blocks.first());
    match block {
        Some(b) => {
            let start = text[b.content_start..b.content_end]
                .find(|c: char| !c.is_ascii_whitespace())
                .map(|i| b.content_start + i)
                .ok_or_else(|| no_json(scan))?;
            exact_in(
                text,
                start,
                b.region_end,
                b.fence,
                b.source.clone(),
                options,
            )
        }
        None => whole,
    }
}

fn exact_in(
    text: &str,
    start: usize,
    region_end: usize,
    fence: Option<repair::Fence>,
    source: Source,
    options: &Options,
) -> Result<Found, Error> {
    let out = repair::parse_at(text, start, region_end, fence, config(options))
        .map_err(|f| to_error(text, f, options))?;
    let rest = text[out.end..region_end].trim_start_matches([' ', '\t', '\n', '\r']);
    let at_fence = fence.is_some_and(|f| rest.as_bytes().starts_with(&[f.byte; 3]));
    if !rest.is_empty() && !at_fence {
        let offset = region_end - rest.len();
        return Err(to_error(
            text,
            Fail::Syntax {
                offset,
                message: "unexpected text after the JSON value".into(),
                truncated: false,
            },
            options,
        ));
    }
    Ok(found(out, source))
}

fn no_json(scan: &Scan<'_>) -> Error {
    let hint = if scan.has_masks() && scan.json_only_in_masks() {
        Some("JSON appears only inside a <think> block, which is skipped".to_string())
    } else {
        None
    };
    Error::NoJson { hint }
}

fn finish(text: &str, found: Found, options: &Options) -> Result<Parsed, Error> {
    let Found { start, out, source } = found;
    let span = start..out.end;
    let located = &text.as_bytes()[span.clone()];
    let located_bytes = located.len() - repair::parser::json_whitespace(located);
    if out.removed > MIN_GUARDED_BYTES && located_bytes > 0 {
        let share = out.removed as f64 / located_bytes as f64;
        if share > options.max_removed_ratio {
            return Err(Error::RepairRejected {
                removed_share: share,
                limit: options.max_removed_ratio,
                removed_bytes: out.removed,
                located_bytes,
            });
        }
    }
    Ok(Parsed {
        value: out.value,
        repairs: repair::finish_log(text, out.repairs),
        span,
        source,
        removed_bytes: out.removed,
        located_bytes,
    })
}

fn to_error(text: &str, fail: Fail, options: &Options) -> Error {
    match fail {
        Fail::Syntax {
            offset,
            message,
            truncated,
        } => {
            // A cut-off reply is reported just after its last character, not on the empty line
            // a final newline makes.
            let offset = if truncated {
                let clamped = position::floor_char_boundary(text, offset.min(text.len()));
                text[..clamped].trim_end().len()
            } else {
                offset
            };
            Error::Syntax(Box::new(SyntaxError::new(
                text,
                offset,
                message.into_owned(),
                options.level,
                truncated,
            )))
        }
        Fail::TooDeep { offset } => Error::TooDeep {
            limit: options.max_depth.clamp(1, MAX_DEPTH_CEILING),
            position: Position::of(text, offset),
        },
        Fail::DuplicateKey { offset, key } => Error::DuplicateKey {
            key,
            position: Position::of(text, offset),
        },
        Fail::Internal(what) => Error::Internal(what),
    }
}

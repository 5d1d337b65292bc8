//! The parse family: what `llmjson::parse` and its siblings do, and what they return. The
//! crate root re-exports all of it (`lib.rs` declares and re-exports; nothing is defined there).

use crate::parsed::{Located, Parsed, ParsedValue};
use crate::pipeline::{self, parse_unguided};
use crate::pipeline::{parse_with, valid_whole_text, Detail, FastPath, Whole};
use crate::schema;
use crate::value::parse as sink;
use crate::verify;
use crate::{
    value, Error, Options, Position, Repair, RepairKind, RepairLevel, Value, DEFAULT_MAX_DEPTH,
};

/// Locates the first JSON value in `text`, repairs it as `options` allow, and returns it with
/// its repair log.
///
/// # Errors
/// [`Error::Empty`], [`Error::NoJson`], [`Error::TooLarge`] (checked before any work),
/// [`Error::TooDeep`], [`Error::Syntax`] (a defect the level does not repair),
/// [`Error::RepairRejected`] (the safety guard), [`Error::DuplicateKey`].
pub fn parse(text: &str, options: &Options) -> Result<Parsed, Error> {
    let mut parsed = match &options.schema {
        Some(schema) => schema::stage::parse_guided(text, &options.settings(), schema),
        None => parse_unguided(text, &options.settings()),
    }?;
    if let Some(evidence) = &options.evidence {
        parsed.verification = Some(verify::stage(&parsed.value, evidence, &options.verify)?);
    }
    Ok(parsed)
}

/// What a language package knows of a reply before the library parses it, and what it will
/// ask of the result: hints for [`parse_hinted`], which change the time a parse takes, never
/// its result (for the language packages: `llmjson::bindings`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    /// A strict JSON parser of the caller's own refused the whole reply (the Node package tries
    /// V8's on a reply that looks like one document): the strict reader's fast path, which
    /// would read it again only to fail too, is skipped. The tolerant parser reads a valid
    /// document as the strict reader does, so a wrong hint costs time only.
    pub refused_whole: bool,
    /// The repairs' lines and columns are not computed (left at 0): the caller fills them in
    /// with [`fill_positions`] when the log is read, if it is.
    pub positions_later: bool,
    /// The log is not kept: each repair's kind and span only (no JSON path, line or column;
    /// [`crate::Parsed::is_repaired`] and [`crate::Parsed::is_truncated`] still tell). A caller
    /// that reads the log after all parses again without this hint: the parse is
    /// deterministic.
    pub log_later: bool,
}

/// [`parse`] with what the caller knows and will ask ([`Hints`]): the same value, repairs (but
/// for the lines and columns [`Hints::positions_later`] leaves to [`fill_positions`], and the
/// paths [`Hints::log_later`] leaves out), span and errors.
///
/// # Errors
/// As [`parse`].
pub fn parse_hinted(text: &str, options: &Options, hints: Hints) -> Result<Parsed, Error> {
    if !hints_apply(options) {
        return parse(text, options);
    }
    let fast = if hints.refused_whole {
        FastPath::Skip
    } else {
        FastPath::Try
    };
    let detail = if hints.log_later {
        Detail::Kinds
    } else if hints.positions_later {
        Detail::Paths
    } else {
        Detail::Log
    };
    parse_with(text, &options.settings(), fast, detail)
}

/// Whether [`parse_hinted`] follows its hints under `options` (and [`parse_value`] leaves the
/// log's paths out): not with a schema or evidence, whose stages need the whole log.
pub fn hints_apply(options: &Options) -> bool {
    options.schema.is_none() && options.evidence.is_none()
}

/// Fills in the lines and columns of `repairs`, made from `text` by [`parse_hinted`] with
/// [`Hints::positions_later`]: one forward walk when they are in the order of the text, as the
/// log is.
pub fn fill_positions(text: &str, repairs: &mut [Repair]) {
    let mut cursor = crate::position::PositionCursor::new(text);
    for repair in repairs {
        let at = cursor.seek(repair.span.start);
        repair.line = at.line;
        repair.column = at.column;
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
    let parsed = if !hints_apply(options) {
        parse(text, options)?
    } else {
        parse_with(text, &options.settings(), FastPath::Try, Detail::Kinds)?
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
        Some(schema) => schema::stage::parse_all_guided(text, &options.settings(), schema),
        None => pipeline::parse_all(text, &options.settings()),
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
    if options.level == RepairLevel::None || options.strict_utf8 {
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
/// `invalid_at` (`None`: the bytes were UTF-8): what [`parse_bytes`] does after decoding, for a
/// caller that decoded them itself (the stream parser as bytes arrive, a batch record read
/// from a file or an Arrow column). Bad bytes are refused with [`Error::InvalidUtf8`] at level
/// `none` or with [`Options::strict_utf8`], else logged as one `invalid_utf8` repair; mostly
/// replaced text is [`Error::Binary`].
///
/// # Errors
/// As [`parse_bytes`].
pub fn parse_decoded(
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
    let fast = match valid_whole_text(text, &options.settings()) {
        Whole::Valid(copy) => return Ok(copy.to_string()),
        Whole::Invalid => FastPath::Skip,
        Whole::NotChecked => FastPath::Try,
    };
    let parsed = parse_with(text, &options.settings(), fast, Detail::Kinds)?;
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

impl std::str::FromStr for Value {
    type Err = crate::Error;

    /// Reads one valid JSON document strictly (nothing located, nothing repaired), keeping key
    /// order and exact digits; nested at most [`DEFAULT_MAX_DEPTH`] deep.
    ///
    /// ```
    /// let v: llmjson::Value = r#"{"b": 1.50, "a": 2}"#.parse()?;
    /// assert_eq!(v.to_string(), r#"{"b":1.50,"a":2}"#);
    /// assert!("{'a': 1}".parse::<llmjson::Value>().is_err());
    /// # Ok::<(), llmjson::Error>(())
    /// ```
    fn from_str(text: &str) -> Result<Value, crate::Error> {
        if let Some(value) =
            value::parse::document(text, DEFAULT_MAX_DEPTH, crate::DuplicateKeys::Last)
        {
            return Ok(value);
        }
        // Refused: the strict level of the full pipeline says where and why.
        let strict = crate::Options::default().level(crate::RepairLevel::None);
        match parse(text, &strict) {
            Ok(parsed) if parsed.span.start == 0 && text[parsed.span.end..].trim().is_empty() => {
                Ok(parsed.value)
            }
            Ok(parsed) => Err(crate::Error::Syntax(Box::new(crate::SyntaxError::new(
                text,
                if parsed.span.start == 0 {
                    parsed.span.end
                } else {
                    0
                },
                "the text is not one JSON document".into(),
                crate::RepairLevel::None,
                false,
            )))),
            Err(e) => Err(e),
        }
    }
}

//! The pipeline behind the public functions: the input checks, the strict reader's fast path for
//! a reply that is one valid document, then locate and repair — locate proposes where values
//! start (`crate::locate`), `choose.rs` decides which is the answer by parsing them —, and
//! `found.rs`: the parser's settings, the safety guard, and the turn from internal failures into
//! [`Error`]s. The schema stage (`crate::schema::stage`) runs on top of it.

mod choose;
pub(crate) mod decoys;
mod found;

use crate::locate::{Scan, Source};
use crate::repair::Output;
use crate::settings::Settings;
use crate::{DuplicateKeys, Error, Parsed, RepairLevel, Value, MAX_DEPTH_CEILING};
use choose::{locate_answer, parse_candidate};
pub use found::MIN_GUARDED_BYTES;
pub(crate) use found::{config, finish, found, guard_refuses, to_error, Detail, Found};

/// Locate and repair only (the schema, if any, still guides the parser's quote decisions).
pub(crate) fn parse_unguided(text: &str, options: &Settings<'_>) -> Result<Parsed, Error> {
    parse_with(text, options, FastPath::Try, Detail::Log)
}

/// Whether to try the strict reader on the whole reply first.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum FastPath {
    Try,
    /// The strict check already refused this reply.
    Skip,
}

pub(crate) fn parse_with(
    text: &str,
    options: &Settings<'_>,
    fast: FastPath,
    detail: Detail,
) -> Result<Parsed, Error> {
    check_input(text, options)?;
    // The most common reply is one valid document: take it before any scanning.
    if fast == FastPath::Try {
        if let Some(found) = strict_whole(text, options) {
            return finish(text, found, options, detail);
        }
    }
    let scan = Scan::new(text);
    let found = locate_answer(&scan, options, detail)?;
    finish(text, found, options, detail)
}

/// Every value in the reply, in order (see [`crate::parse_all`]).
pub(crate) fn parse_all(text: &str, options: &Settings<'_>) -> Result<Vec<Parsed>, Error> {
    let (first, rest) = first_and_rest(text, options)?;
    let mut results = vec![first];
    rest.values(text, options, &mut results)?;
    Ok(results)
}

/// The reply's first value — what [`crate::parse`] returns — and where the walk over the reply
/// stands after it, so that a caller who wants the others too (the schema stage, when the first
/// does not fit) goes on from there instead of reading the reply again.
pub(crate) fn first_and_rest<'t>(
    text: &'t str,
    options: &Settings<'_>,
) -> Result<(Parsed, Rest<'t>), Error> {
    check_input(text, options)?;
    if let Some(found) = strict_whole(text, options) {
        let whole = finish(text, found, options, Detail::Log)?;
        return Ok((whole, Rest { after: None }));
    }
    let scan = Scan::new(text);
    let first = locate_answer(&scan, options, Detail::Log)?;
    let from = first.out.end;
    let in_blocks = first.source != Source::Text;
    let first = finish(text, first, options, Detail::Log)?;
    Ok((
        first,
        Rest {
            after: Some((scan, from, in_blocks)),
        },
    ))
}

/// The walk over a reply after its first value: the scan, where the first value ended, and
/// whether it came from a fence or a tool-call block (`None`: the reply was one document).
pub(crate) struct Rest<'t> {
    after: Option<(Scan<'t>, usize, bool)>,
}

impl Rest<'_> {
    /// The values after the first, in order, pushed onto `results`: the rest of the first
    /// value's block and the later blocks when it came from one, else the rest of the text.
    pub(crate) fn values(
        self,
        text: &str,
        options: &Settings<'_>,
        results: &mut Vec<Parsed>,
    ) -> Result<(), Error> {
        let Some((scan, mut from, in_blocks)) = self.after else {
            return Ok(());
        };
        if options.level == RepairLevel::None {
            return Ok(());
        }
        let mut more = |from: usize, to: usize, region_end: usize, fence, source: &Source| {
            let mut from = from;
            while let Some(start) = scan.find_candidate(from, to) {
                let out =
                    parse_candidate(text, start, region_end, fence, config(options, Detail::Log))
                        .map_err(|f| to_error(text, f, options))?;
                from = out.end.max(start + 1);
                results.push(finish(
                    text,
                    found(out, source.clone()),
                    options,
                    Detail::Log,
                )?);
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
        Ok(())
    }
}

/// Returning a valid reply's text as it is needs the default duplicate-key policy (the last
/// value wins and nothing is said; under the others a repeated key changes the output).
fn copy_applies(options: &Settings<'_>) -> bool {
    options.duplicate_keys == DuplicateKeys::Last
}

/// What the strict reader says of the whole reply, checked without building a value.
pub(crate) enum Whole<'t> {
    /// One valid JSON document (minus surrounding JSON whitespace).
    Valid(&'t str),
    /// The strict reader refused it: the fast path cannot apply.
    Invalid,
    /// Not checked (policy, size, or not a container: the full path decides).
    NotChecked,
}

pub(crate) fn valid_whole_text<'t>(text: &'t str, options: &Settings<'_>) -> Whole<'t> {
    if text.len() > options.max_size || !copy_applies(options) {
        return Whole::NotChecked;
    }
    let Some(span) = document_span(text) else {
        return Whole::NotChecked;
    };
    let doc = &text[span];
    let depth = options.max_depth.clamp(1, MAX_DEPTH_CEILING);
    match crate::value::parse::read_valid(doc, depth, &mut crate::value::parse::CheckSink) {
        Ok(()) => Whole::Valid(doc),
        Err(_) => Whole::Invalid,
    }
}

/// A reply that is one valid JSON document, read by the strict reader in one pass: the fast
/// path for the most common case. It gives the value llmjson's tolerant parser gives (key order,
/// exact digits), which JSONTestSuite and the property tests check; anything it does not accept
/// takes the tolerant path.
pub(crate) fn strict_whole(text: &str, options: &Settings<'_>) -> Option<Found> {
    let span = document_span(text)?;
    let value = crate::value::parse::document(
        &text[span.clone()],
        options.max_depth.clamp(1, MAX_DEPTH_CEILING),
        options.duplicate_keys,
    )?;
    Some(whole_document(value, span))
}

/// Where a reply that may be one document lies: from its first byte that is not JSON whitespace
/// (when it opens a container) to its last.
fn document_span(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.len() - text.trim_start_matches([' ', '\t', '\n', '\r']).len();
    if !matches!(text.as_bytes().get(start), Some(b'{' | b'[')) {
        return None;
    }
    Some(start..text.trim_end_matches([' ', '\t', '\n', '\r']).len())
}

/// The reply as one valid document holding `value`, found where `span` says.
fn whole_document(value: Value, span: std::ops::Range<usize>) -> Found {
    let out = Output {
        value,
        start: span.start,
        end: span.end,
        repairs: Vec::new(),
        removed: 0,
    };
    found(out, Source::Text)
}

/// [`crate::parse`]'s result for a reply a caller already read into `value` as one document
/// spanning `read` (the stream's live reader, with no guess made): the fast path would give this
/// value when the strict reader accepts the whole text. That is checked without building, unless
/// the caller read it `strict`ly itself (the live reader keeps that account) up to the reply's
/// last non-blank byte. The value comes back when anything else could apply (a schema, evidence,
/// another duplicate-key policy, text before or after the document, text the strict reader
/// refuses).
pub(crate) fn strict_whole_read(
    text: &str,
    options: &Settings<'_>,
    value: Value,
    read: std::ops::Range<usize>,
    strict: bool,
) -> Result<Result<Parsed, Error>, Value> {
    if options.later_stages || !copy_applies(options) {
        return Err(value);
    }
    if let Err(e) = check_input(text, options) {
        return Ok(Err(e));
    }
    let Some(span) = document_span(text).filter(|span| span.start == read.start) else {
        return Err(value);
    };
    let depth = options.max_depth.clamp(1, MAX_DEPTH_CEILING);
    let certified = strict && read.end == span.end;
    if !certified
        && crate::value::parse::read_valid(
            &text[span.clone()],
            depth,
            &mut crate::value::parse::CheckSink,
        )
        .is_err()
    {
        return Err(value);
    }
    Ok(finish(
        text,
        whole_document(value, span),
        options,
        Detail::Log,
    ))
}

pub(crate) fn check_input(text: &str, options: &Settings<'_>) -> Result<(), Error> {
    if text.len() > options.max_size {
        return Err(Error::TooLarge {
            size: text.len(),
            limit: options.max_size,
        });
    }
    // Text never holds a NUL byte; binary files (executables, images, archives) nearly always
    // do, early (git and ripgrep tell binary files the same way).
    if let Some(at) = memchr::memchr(0, text.as_bytes()) {
        return Err(Error::Binary {
            nul_at: Some(at),
            invalid_share: 0.0,
        });
    }
    if text.trim().is_empty() {
        return Err(Error::Empty);
    }
    Ok(())
}

/// Bytes a third or more of which are not UTF-8 are not text in another encoding (a Latin-1
/// reply has a few percent) but some other kind of file: `replaced` U+FFFD in `decoded`, each
/// for at least one such byte.
pub(crate) fn check_decoded(decoded: &str, replaced: usize) -> Result<(), Error> {
    // Each U+FFFD takes 3 bytes of `decoded` for the one invalid byte it stands for (or more).
    let original = decoded.len().saturating_sub(2 * replaced).max(1);
    if replaced * 3 >= original {
        return Err(Error::Binary {
            nul_at: None,
            invalid_share: replaced as f64 / original as f64,
        });
    }
    Ok(())
}

//! The error type: one enum, each variant a distinct reason why no usable JSON came out.

use crate::position::{excerpt, Position};
use crate::RepairLevel;
use serde::Serialize;
use std::fmt;

/// Why a reply gave no usable JSON. Messages are plain English and say where and why.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The response is empty or only whitespace.
    #[error("empty response: the input is empty or only whitespace")]
    Empty,

    /// The response holds text but nothing that looks like JSON.
    #[error("no JSON in the response{}", .hint.as_deref().map(|h| format!(": {h}")).unwrap_or_default())]
    NoJson {
        /// A hint about what was seen (for example, JSON only inside a `<think>` block).
        hint: Option<String>,
    },

    /// The input is over the size limit; it was refused before any parsing.
    #[error(
        "input is {size} bytes, over the limit of {limit} bytes (the max_size option raises it)"
    )]
    TooLarge {
        /// The input's size in bytes.
        size: usize,
        /// The limit in force ([`crate::Options::max_size`]).
        limit: usize,
    },

    /// Containers are nested deeper than the limit.
    #[error("nesting deeper than {limit} levels at line {} column {}", .position.line, .position.column)]
    TooDeep {
        /// The limit in force ([`crate::Options::max_depth`]).
        limit: usize,
        /// Where the container that went over the limit opens.
        position: Position,
    },

    /// The repair would discard more of the JSON text than the safety guard allows.
    #[error(
        "repair rejected by the safety guard: it would discard {:.1}% of the located JSON text \
         ({removed_bytes} of {located_bytes} non-whitespace bytes), over the limit of {:.1}%",
        .removed_share * 100.0, .limit * 100.0
    )]
    RepairRejected {
        /// The share of the located JSON text the repair discards (0.0–1.0).
        removed_share: f64,
        /// The threshold in force ([`crate::Options::max_removed_ratio`]).
        limit: f64,
        /// Non-whitespace bytes discarded.
        removed_bytes: usize,
        /// Non-whitespace bytes in the located JSON text.
        located_bytes: usize,
    },

    /// The JSON has a defect that the current repair level does not repair.
    #[error("{0}")]
    Syntax(Box<SyntaxError>),

    /// An object has the same key twice and the policy is [`crate::DuplicateKeys::Error`].
    #[error("duplicate key {key:?} at line {} column {}", .position.line, .position.column)]
    DuplicateKey {
        /// The repeated key.
        key: String,
        /// Where the second occurrence starts.
        position: Position,
    },

    /// The repaired value does not fit the caller's Rust type.
    #[error("the JSON does not fit the requested type at {path}: {message}")]
    Deserialize {
        /// JSON Pointer to the value that did not fit ("" is the root).
        path: String,
        /// serde's message.
        message: String,
    },

    /// The JSON was found (and repaired) but does not fit the schema. Every violation is listed.
    #[error("the JSON does not fit the schema: {}", join_errors(.errors))]
    Schema {
        /// Every violation, in the order the validator found them.
        errors: Vec<SchemaError>,
        /// The value that was validated (after repair and coercion).
        value: Box<crate::Value>,
        /// The reply was cut off and completed: the violations may only say that it is
        /// incomplete (a retry should ask for less, or raise the token limit).
        truncated: bool,
    },

    /// The schema given is not a valid JSON Schema (or not JSON).
    #[error("invalid schema: {message}")]
    InvalidSchema {
        /// What the schema compiler said.
        message: String,
    },

    /// The input is not text: it holds a NUL byte, or a third or more of its bytes are not
    /// UTF-8 (a file of another kind, read by mistake). Refused before any parsing, at every
    /// level: JSON found inside such bytes would be an accident.
    #[error("the input is binary, not text ({})", binary_reason(*.nul_at, *.invalid_share))]
    Binary {
        /// Where its first NUL byte is, when that is what shows it.
        nul_at: Option<usize>,
        /// The share of its bytes that are not UTF-8 (0.0–1.0).
        invalid_share: f64,
    },

    /// The input bytes are not UTF-8 and the level is `none` or
    /// [`Options::strict_utf8`](crate::Options::strict_utf8) is on (otherwise bad bytes are
    /// replaced, and logged).
    #[error("input is not valid UTF-8 at byte {offset}")]
    InvalidUtf8 {
        /// Offset of the first invalid byte.
        offset: usize,
    },

    /// The answer's numbers are not grounded in the evidence and the verify stage fails closed:
    /// the value is withheld. The verification says which numbers, with context.
    #[error("answer blocked ({reason}): {}", .verification.issues.first().map(String::as_str).unwrap_or("not verified"))]
    Grounding {
        /// `numeric_grounding_failed`, `cross_variant_mix` or `no_evidence`.
        reason: &'static str,
        /// The blocking message (in the configured language).
        message: String,
        /// What was checked and what failed.
        verification: Box<crate::verdict::Verification>,
    },

    /// A bug guard: the parser stopped making progress. Never expected; please report it.
    #[error("internal error: {0} (please report this input)")]
    Internal(&'static str),
}

impl Error {
    /// The category, stable and machine-readable (for metrics and logs).
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Empty => "empty",
            Error::NoJson { .. } => "no_json",
            Error::TooLarge { .. } => "too_large",
            Error::TooDeep { .. } => "too_deep",
            Error::RepairRejected { .. } => "repair_rejected",
            Error::Syntax(_) => "syntax",
            Error::DuplicateKey { .. } => "duplicate_key",
            Error::Deserialize { .. } => "deserialize",
            Error::InvalidUtf8 { .. } => "invalid_utf8",
            Error::Binary { .. } => "binary",
            Error::Schema { .. } => "schema",
            Error::InvalidSchema { .. } => "invalid_schema",
            Error::Grounding { .. } => "grounding",
            Error::Internal(_) => "internal",
        }
    }

    /// Where the error is, when it has a place in the input.
    pub fn position(&self) -> Option<Position> {
        match self {
            Error::TooDeep { position, .. } | Error::DuplicateKey { position, .. } => {
                Some(*position)
            }
            Error::Syntax(e) => Some(e.position),
            Error::InvalidUtf8 { offset }
            | Error::Binary {
                nul_at: Some(offset),
                ..
            } => Some(Position {
                offset: *offset,
                line: 0,
                column: 0,
            }),
            _ => None,
        }
    }

    /// The value that was read, when the reply was read whole but refused for it (it does not
    /// fit the schema).
    pub fn value(&self) -> Option<&crate::Value> {
        match self {
            Error::Schema { value, .. } => Some(value),
            _ => None,
        }
    }

    /// The reply ended inside a string, object or array at a level that does not complete it.
    pub fn is_truncation(&self) -> bool {
        matches!(self, Error::Syntax(e) if e.truncated)
    }
}

fn binary_reason(nul_at: Option<usize>, invalid_share: f64) -> String {
    match nul_at {
        Some(at) => format!("a NUL byte at offset {at}"),
        None => format!("{:.0}% of its bytes are not UTF-8", invalid_share * 100.0),
    }
}

/// A defect the current level does not repair, with its place and a context excerpt.
#[derive(Debug, Clone, PartialEq)]
pub struct SyntaxError {
    /// What is wrong, in plain English ("trailing comma", "unquoted object key", ...).
    pub message: String,
    /// Where.
    pub position: Position,
    /// The level that refused to repair it.
    pub level: RepairLevel,
    /// The line holding the spot, and a caret under it (two lines).
    pub excerpt: String,
    /// The defect is that the reply was cut off.
    pub truncated: bool,
}

impl SyntaxError {
    pub(crate) fn new(
        text: &str,
        offset: usize,
        message: String,
        level: RepairLevel,
        truncated: bool,
    ) -> Self {
        SyntaxError {
            message,
            position: Position::of(text, offset),
            level,
            excerpt: excerpt(text, offset),
            truncated,
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {} (byte {})",
            self.message, self.position.line, self.position.column, self.position.offset
        )?;
        if self.level != RepairLevel::Full {
            write!(f, "; not repaired at level {}", self.level.as_str())?;
        }
        for line in self.excerpt.lines() {
            write!(f, "\n    {line}")?;
        }
        Ok(())
    }
}

/// `a; b; c`, at most five, then how many more.
fn join_errors(errors: &[SchemaError]) -> String {
    const SHOWN: usize = 5;
    let mut text = errors
        .iter()
        .take(SHOWN)
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    if errors.len() > SHOWN {
        text.push_str(&format!(" (and {} more)", errors.len() - SHOWN));
    }
    text
}

/// One schema violation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SchemaError {
    /// JSON Pointer of the value at fault (`""` is the root).
    pub instance_path: String,
    /// JSON Pointer of the schema keyword that failed (`/properties/steps/items/required`).
    pub schema_path: String,
    /// The keyword (`type`, `required`, `enum`, …).
    pub keyword: String,
    /// What is wrong, in words a model can act on (without the path).
    pub message: String,
}

impl fmt::Display for SchemaError {
    /// `/steps/0/tool: 'pyhton' is not one of 'python', 'shell', 'browser'`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.instance_path.is_empty() {
            "(root)"
        } else {
            &self.instance_path
        };
        write!(f, "{path}: {}", self.message)
    }
}

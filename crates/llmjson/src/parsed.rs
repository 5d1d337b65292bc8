//! What a parse returns: [`Parsed`], [`ParsedValue`], [`Located`]. Data only: every stage may
//! build one, and this imports none of them.

use crate::locate::Source;
use crate::repair::{Repair, RepairKind};
use crate::value::Value;
use crate::verify::Verification;
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
    /// The verify stage's result, when [`Options::evidence`](crate::Options::evidence) was set.
    pub verification: Option<Verification>,
    /// The array items left out because they failed their item schema, in text order (only
    /// with [`Options::invalid_items`](crate::Options::invalid_items) set to
    /// [`InvalidItems::Drop`](crate::InvalidItems::Drop)). Their bytes count in
    /// [`Parsed::removed_bytes`]; each also has a `dropped_invalid_item` entry in the log.
    pub dropped: Vec<DroppedItem>,
}

/// The outcome of one reply, whatever the door it came through (the CLI, a batch, Python,
/// Node, a Spark column): `ok` (valid as written), `repaired`, or the error's
/// [`kind`](crate::Error::kind). Every door names a reply's outcome with this function, so the
/// same reply has the same outcome everywhere; [`OUTCOMES`] lists them.
pub fn outcome(result: &Result<Parsed, crate::Error>) -> &'static str {
    match result {
        Ok(parsed) if parsed.is_repaired() => "repaired",
        Ok(_) => "ok",
        Err(e) => e.kind(),
    }
}

/// Every outcome [`outcome`] gives, with the counter it adds to in the outcome counters
/// (`ok`, `repaired`, `empty`, `no_json`, `parse_fail`, `repair_rejected`, `schema_fail`,
/// `verify_fail`): `(outcome, counter)`. A batch adds its record-level outcomes
/// (`bad_record`, `missing_field`), counted as `parse_fail` like any outcome not listed.
pub const OUTCOMES: [(&str, &str); 16] = [
    ("ok", "ok"),
    ("repaired", "repaired"),
    ("empty", "empty"),
    ("no_json", "no_json"),
    ("binary", "no_json"),
    ("too_large", "parse_fail"),
    ("too_deep", "parse_fail"),
    ("syntax", "parse_fail"),
    ("invalid_utf8", "parse_fail"),
    ("duplicate_key", "parse_fail"),
    ("deserialize", "parse_fail"),
    ("internal", "parse_fail"),
    ("repair_rejected", "repair_rejected"),
    ("schema", "schema_fail"),
    ("invalid_schema", "parse_fail"),
    ("grounding", "verify_fail"),
];

/// The counter `outcome` adds to ([`OUTCOMES`]; `parse_fail` for one not listed).
pub fn outcome_counter(outcome: &str) -> &'static str {
    OUTCOMES
        .iter()
        .find(|(o, _)| *o == outcome)
        .map_or("parse_fail", |(_, counter)| counter)
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

/// The result of [`parse_value`](crate::parse_value): the value, and the kind and span of every
/// repair made.
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

/// An array item left out under [`crate::InvalidItems::Drop`] because it failed its item
/// schema.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DroppedItem {
    /// JSON Pointer of the item in the value as the reply wrote it (`/records/3` is the fourth
    /// record written, whatever else was dropped).
    pub path: String,
    /// Byte range of the item's text in the input. Empty (at the start of the nearest
    /// enclosing value the text shows) when the repaired text does not show the item where the
    /// value has it.
    pub span: std::ops::Range<usize>,
    /// 1-based line of `span.start`.
    pub line: usize,
    /// 1-based column of `span.start`, in characters.
    pub column: usize,
    /// Why it was dropped: every violation inside it, with paths as the reply wrote them.
    pub errors: Vec<crate::SchemaError>,
}

//! The policies a call runs under: how lenient it is, what the schema stage may do, what a
//! cut-off reply or a repeated key becomes. Plain enums, low in the layers so that every stage
//! reads them; [`crate::Options`] holds one of each.

pub(crate) mod grounding;

use serde::{Deserialize, Serialize};
/// What the schema stage may do before validating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Coercion {
    /// Fit the value to the schema (numeric strings to numbers, enum values up to case, a lone
    /// value into a list, …), each change logged; then validate.
    #[default]
    Fit,
    /// Validate only: the value is returned as repaired, or refused.
    ValidateOnly,
}

/// How much the repair stage may change.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum RepairLevel {
    /// Locate the JSON (fences, `<think>` blocks) and parse it strictly (RFC 8259). The located
    /// region must hold exactly one JSON value; any defect is a syntax error with its position.
    None,
    /// Cosmetic repairs only: smart quotes used as delimiters, comments, trailing commas, raw
    /// control characters in strings, unusual whitespace, and at most one missing closer at the
    /// end. Everything else is a syntax error.
    Conservative,
    /// Every repair llmjson knows (the default). See [`crate::RepairKind`].
    #[default]
    Full,
}

impl RepairLevel {
    /// The level's name as used on the command line and in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            RepairLevel::None => "none",
            RepairLevel::Conservative => "conservative",
            RepairLevel::Full => "full",
        }
    }
}

impl std::str::FromStr for RepairLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" | "strict" | "0" => Ok(RepairLevel::None),
            "conservative" => Ok(RepairLevel::Conservative),
            "full" | "1" => Ok(RepairLevel::Full),
            other => Err(format!(
                "unknown repair level '{other}' (expected none, conservative or full)"
            )),
        }
    }
}

/// What to do with a value that the reply cut off (the model hit its token limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Truncation {
    /// Keep everything that was written: close the open string, complete a partial number or
    /// literal (`2.` → `2.0`, `tru` → `true`) and close the open containers. A key that never got
    /// a value is still dropped: there is nothing to keep.
    #[default]
    Complete,
    /// Keep only what was written completely: the last member whose value was cut (a string,
    /// number or literal that did not end) is removed, then the open containers are closed.
    Drop,
    /// Like `Drop`, and an array element the reply cut off is left out whole (a plan cut inside
    /// its last step keeps the complete steps only: a strict schema then still fits). With a
    /// schema, `Drop` falls back to this reading when the member-drop does not validate.
    DropElement,
}

impl Truncation {
    /// Whether a value that was cut is left out (rather than completed).
    pub fn drops(self) -> bool {
        matches!(self, Truncation::Drop | Truncation::DropElement)
    }
}

/// What to do when an object has the same key twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DuplicateKeys {
    /// The last value wins, at the position of the first occurrence (what `json.loads` and
    /// serde_json do).
    #[default]
    Last,
    /// The first value wins; later ones are ignored.
    First,
    /// A duplicate key is an error.
    Error,
}

/// Which comments the safety guard counts as discarded text.
///
/// The safety guard exists to stop repairs that throw data away. A comment of prose loses
/// nothing when it is removed, however long it is (models annotate JSON, often at length and
/// in the user's language); a member or value the model commented out is data. By default only
/// the latter counts; every comment is logged either way (kind `comment`, with its span).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GuardComments {
    /// Only comments that hold JSON data (`// "age": 31,`, `/* 3, */`) count.
    #[default]
    Data,
    /// Every comment's text counts, prose included (the strictest reading of the guard).
    All,
}

impl std::str::FromStr for GuardComments {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "data" => Ok(GuardComments::Data),
            "all" => Ok(GuardComments::All),
            other => Err(format!(
                "unknown comment policy '{other}' (expected data or all)"
            )),
        }
    }
}

/// What the schema stage does with array items that fail their item schema.
///
/// A list of extracted records where one record lacks a required field fails as a whole by
/// default: the caller gets every error and no value. With [`InvalidItems::Drop`] those items
/// are left out and reported ([`crate::Parsed::dropped`]), and the rest is returned — as long as
/// what is left validates and the dropped items, counted as discarded text, stay within the
/// safety guard ([`Options::max_removed_ratio`](crate::Options::max_removed_ratio)): a list that is mostly invalid still fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvalidItems {
    /// One invalid item fails the call ([`crate::Error::Schema`], every error). The default.
    #[default]
    Fail,
    /// Invalid items are left out and reported; the rest is returned. Never at level
    /// [`RepairLevel::None`] (strict mode is parse, then validate).
    Drop,
}

impl InvalidItems {
    /// The policy's name (`fail`, `drop`).
    pub fn as_str(self) -> &'static str {
        match self {
            InvalidItems::Fail => "fail",
            InvalidItems::Drop => "drop",
        }
    }
}

impl std::str::FromStr for InvalidItems {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "fail" => Ok(InvalidItems::Fail),
            "drop" => Ok(InvalidItems::Drop),
            other => Err(format!(
                "unknown invalid-items policy '{other}' (expected fail or drop)"
            )),
        }
    }
}

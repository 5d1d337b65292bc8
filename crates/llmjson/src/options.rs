//! Policies: how lenient a call is, and the limits it works within.
//!
//! Every policy is an enum or a number in [`Options`]; there are no boolean switches in the API.

pub use crate::limits::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_REMOVED_RATIO, DEFAULT_MAX_SIZE, MAX_DEPTH_CEILING,
};
use crate::{Evidence, Schema, VerifyOptions};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

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
/// safety guard ([`Options::max_removed_ratio`]): a list that is mostly invalid still fails.
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

/// The options of one call. Build with [`Options::default`] and the setters.
///
/// ```
/// use llmjson::{Options, RepairLevel, Truncation};
/// let opts = Options::default().level(RepairLevel::Conservative).truncation(Truncation::Drop);
/// assert_eq!(opts.level, RepairLevel::Conservative);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Options {
    /// How much the repair stage may change. Default: [`RepairLevel::Full`].
    pub level: RepairLevel,
    /// What to do with a value cut off at the end. Default: [`Truncation::Complete`].
    pub truncation: Truncation,
    /// The safety guard: the largest share (0.0–1.0) of the located JSON text that a repair may
    /// discard before the result is refused. Default 0.3. See `ARCHITECTURE.md` ("Safety guard")
    /// for exactly what counts; 1.0 turns the guard off.
    pub max_removed_ratio: f64,
    /// Which comments the safety guard counts. Default [`GuardComments::Data`]: commented-out
    /// members and values, not prose.
    pub guard_comments: GuardComments,
    /// What to do with duplicate keys. Default: [`DuplicateKeys::Last`].
    pub duplicate_keys: DuplicateKeys,
    /// Inputs longer than this many bytes are refused before any work. Default 10 MiB.
    pub max_size: usize,
    /// Containers nested deeper than this are refused. Default 127 (serde_json's limit), at most
    /// [`MAX_DEPTH_CEILING`].
    pub max_depth: usize,
    /// The schema the value must fit. With one, the parse also coerces (unless [`Self::coercion`]
    /// is off) and validates, and returns [`crate::Error::Schema`] when the value does not fit.
    /// Shared, so that one compiled schema serves every call.
    pub schema: Option<Arc<Schema>>,
    /// With a schema: whether to fit the value to it first. Default [`Coercion::Fit`].
    pub coercion: Coercion,
    /// Evidence to verify the value's numbers against: when set, `parse` runs the verify
    /// stage last (see [`crate::verify_value`]).
    pub evidence: Option<Arc<Evidence>>,
    /// How the verify stage reads and judges numbers, and whether it fails closed.
    pub verify: VerifyOptions,
    /// Read a LaTeX command written with one backslash where JSON has an escape (`\frac`,
    /// `\beta`; `\theta`, `\nabla`, `\rho` in a string that shows maths) as the command, not
    /// as a form feed, backspace, tab or line break. Default on; off keeps RFC 8259's reading.
    /// Never at level [`RepairLevel::None`].
    pub latex: bool,
    /// With a schema: what to do with array items that fail their item schema. Default
    /// [`InvalidItems::Fail`].
    pub invalid_items: InvalidItems,
    /// Bytes that are not UTF-8 ([`crate::parse_bytes`]): off (the default), each bad sequence
    /// becomes U+FFFD and the log holds one `invalid_utf8` repair (the outcome is `repaired`);
    /// on, the reply is refused with [`crate::Error::InvalidUtf8`] (as at level `none`).
    pub strict_utf8: bool,
}

/// The environment variable of the operator's kill switch ([`repair_disabled_by_env`]).
pub const KILL_SWITCH_VAR: &str = "LLMJSON_REPAIR";

/// The operator's kill switch: `LLMJSON_REPAIR=0` (or `false`, `off`, `no`, in any case) in the
/// environment forces [`RepairLevel::None`] in the CLI and the Python package, without a
/// deploy. Read at each call, so that setting it takes effect at once.
pub fn repair_disabled_by_env() -> bool {
    std::env::var(KILL_SWITCH_VAR).is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "off" | "no"
        )
    })
}

impl Default for Options {
    fn default() -> Self {
        Options {
            level: RepairLevel::Full,
            truncation: Truncation::Complete,
            max_removed_ratio: DEFAULT_MAX_REMOVED_RATIO,
            guard_comments: GuardComments::Data,
            duplicate_keys: DuplicateKeys::Last,
            max_size: DEFAULT_MAX_SIZE,
            max_depth: DEFAULT_MAX_DEPTH,
            schema: None,
            coercion: Coercion::Fit,
            evidence: None,
            verify: VerifyOptions::default(),
            latex: true,
            invalid_items: InvalidItems::Fail,
            strict_utf8: false,
        }
    }
}

impl Options {
    /// Options for a strict parse: level [`RepairLevel::None`].
    pub fn strict() -> Self {
        Options::default().level(RepairLevel::None)
    }
    /// Sets the repair level.
    pub fn level(mut self, level: RepairLevel) -> Self {
        self.level = level;
        self
    }
    /// Sets the truncation policy.
    pub fn truncation(mut self, truncation: Truncation) -> Self {
        self.truncation = truncation;
        self
    }
    /// Sets the safety-guard threshold (clamped to 0.0–1.0).
    pub fn max_removed_ratio(mut self, ratio: f64) -> Self {
        self.max_removed_ratio = if ratio.is_nan() {
            DEFAULT_MAX_REMOVED_RATIO
        } else {
            ratio.clamp(0.0, 1.0)
        };
        self
    }
    /// Reads LaTeX commands that collide with JSON escapes as LaTeX (default), or not (see
    /// the `latex` field).
    pub fn latex(mut self, on: bool) -> Self {
        self.latex = on;
        self
    }
    /// Refuses bytes that are not UTF-8 instead of replacing them (see the `strict_utf8` field).
    pub fn strict_utf8(mut self, on: bool) -> Self {
        self.strict_utf8 = on;
        self
    }
    /// Sets what the schema stage does with array items that fail their item schema.
    pub fn invalid_items(mut self, policy: InvalidItems) -> Self {
        self.invalid_items = policy;
        self
    }
    /// Sets which comments the safety guard counts.
    pub fn guard_comments(mut self, policy: GuardComments) -> Self {
        self.guard_comments = policy;
        self
    }
    /// Sets the duplicate-key policy.
    pub fn duplicate_keys(mut self, policy: DuplicateKeys) -> Self {
        self.duplicate_keys = policy;
        self
    }
    /// Sets the input size limit in bytes.
    pub fn max_size(mut self, bytes: usize) -> Self {
        self.max_size = bytes;
        self
    }
    /// Sets the schema (a compiled [`Schema`], or an `Arc` of one to share it).
    pub fn schema(mut self, schema: impl Into<Arc<Schema>>) -> Self {
        self.schema = Some(schema.into());
        self
    }
    /// Sets the evidence the verify stage checks the value's numbers against.
    pub fn evidence(mut self, evidence: impl Into<Arc<Evidence>>) -> Self {
        self.evidence = Some(evidence.into());
        self
    }
    /// Sets how the verify stage judges numbers (and whether it fails closed).
    pub fn verify(mut self, verify: VerifyOptions) -> Self {
        self.verify = verify;
        self
    }
    /// Sets the coercion policy.
    pub fn coercion(mut self, coercion: Coercion) -> Self {
        self.coercion = coercion;
        self
    }
    /// Sets the nesting depth limit (clamped to 1–[`MAX_DEPTH_CEILING`]).
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth.clamp(1, MAX_DEPTH_CEILING);
        self
    }
}

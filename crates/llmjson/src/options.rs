//! The options of a call: its policies (`policy.rs`), its limits, and the schema and evidence
//! it checks against. Above every stage: the stages read [`Settings`] (`settings.rs`), which
//! [`Options::settings`] builds.
//!
//! Every policy is an enum or a number in [`Options`]; there are no boolean switches in the API.

pub use crate::limits::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_REMOVED_RATIO, DEFAULT_MAX_SIZE, MAX_DEPTH_CEILING,
};
use crate::policy::grounding::VerifyOptions;
use crate::policy::{
    Coercion, DuplicateKeys, GuardComments, InvalidItems, RepairLevel, Truncation,
};
use crate::repair::KeyNames;
use crate::settings::Settings;
use crate::verify::Evidence;
use crate::Schema;
use std::sync::Arc;

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
    /// stage last (see [`crate::verify::verify_value`]).
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
        // One place holds the defaults: the stages' settings.
        let stages = Settings::default();
        Options {
            level: stages.level,
            truncation: stages.truncation,
            max_removed_ratio: stages.max_removed_ratio,
            guard_comments: stages.guard_comments,
            duplicate_keys: stages.duplicate_keys,
            max_size: stages.max_size,
            max_depth: stages.max_depth,
            schema: None,
            coercion: stages.coercion,
            evidence: None,
            verify: VerifyOptions::default(),
            latex: stages.latex,
            invalid_items: stages.invalid_items,
            strict_utf8: false,
        }
    }
}

impl Options {
    /// What the stages below the options read of them (see `settings.rs`): built at the top of
    /// each call, a few words copied.
    pub(crate) fn settings(&self) -> Settings<'_> {
        Settings {
            level: self.level,
            truncation: self.truncation,
            max_removed_ratio: self.max_removed_ratio,
            guard_comments: self.guard_comments,
            duplicate_keys: self.duplicate_keys,
            max_size: self.max_size,
            max_depth: self.max_depth,
            coercion: self.coercion,
            latex: self.latex,
            invalid_items: self.invalid_items,
            keys: self.schema.as_deref().map(|s| s as &dyn KeyNames),
            later_stages: self.schema.is_some() || self.evidence.is_some(),
        }
    }
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

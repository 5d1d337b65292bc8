//! What the verify stage found: plain data (which numbers were checked, which the evidence
//! holds and where, the verdict), low in the layers so that an error and a result can hold it
//! without reaching the stage that makes it (`verify/`).

use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Why a number is not grounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueType {
    /// The evidence does not state the number.
    NotInEvidence,
    /// The evidence states it less precisely (`12.3` for an answer of `12.34`).
    RoundingMismatch,
    /// The evidence states the value in another unit.
    UnitMismatch,
    /// The evidence states the magnitude with the opposite sign or direction (`−$340,000`
    /// for a profit of `$340,000`).
    SignMismatch,
    /// The evidence states the value for another subject (variant B's, for variant A): seed
    /// 004's `cross_variant_mix`.
    CrossVariantMix,
    /// The number's decimal mark is ambiguous and neither reading is in the evidence.
    AmbiguousLocale,
    /// There is no evidence at all.
    NoEvidence,
    /// The evidence writes the value only as a label, an identifier or a year (`Vortex 900`,
    /// `p. 212`, `in 2021`), never as a measurement.
    LabelNotMeasurement,
}

impl IssueType {
    /// The snake_case name used in results and diagnostics.
    pub fn as_str(self) -> &'static str {
        match self {
            IssueType::NotInEvidence => "not_in_evidence",
            IssueType::RoundingMismatch => "rounding_mismatch",
            IssueType::UnitMismatch => "unit_mismatch",
            IssueType::SignMismatch => "sign_mismatch",
            IssueType::CrossVariantMix => "cross_variant_mix",
            IssueType::AmbiguousLocale => "ambiguous_locale",
            IssueType::NoEvidence => "no_evidence",
            IssueType::LabelNotMeasurement => "label_not_measurement",
        }
    }
}

/// A number of the answer, with about 30 characters of context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NumberExample {
    /// The number as the answer wrote it (with its sign, currency, unit).
    pub number: String,
    /// About 30 characters around it, on character boundaries, blanks collapsed.
    pub context: String,
    /// JSON Pointer to the string or number holding it (`""` for a text answer).
    pub path: String,
    /// Byte range in the answer text (for a JSON value, within the string at `path`).
    pub span: Range<usize>,
    /// The subject the answer binds the number to (`variant A`), when it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    /// For a `cross_variant_mix`: the subject the evidence gives the value to (`variant B`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence_subject: Option<String>,
    /// Which part of the claim's frame failed, when it failed: `wrong_subject`, `wrong_sign`,
    /// `wrong_unit`, `wrong_currency`, `percent_not_points`, `fraction_not_percent`,
    /// `label_not_measurement`, `less_precise`, `ambiguous_locale`, `not_in_evidence`,
    /// `no_evidence`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// One checked number: its reading(s), and what the evidence says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedNumber {
    /// Where it is, as written.
    #[serde(flatten)]
    pub at: NumberExample,
    /// The value(s) it was read as (`.` decimal mark): two when the spelling is ambiguous.
    pub readings: Vec<String>,
    /// Its unit, currency code or `%`, normalised.
    pub unit: Option<String>,
    /// Whether the evidence grounds it.
    pub matched: bool,
    /// Why not, when not.
    pub issue: Option<IssueType>,
    /// Where the evidence states it, when it does.
    pub evidence: Option<EvidenceLocation>,
}

/// The verification of one answer: what RAG pipelines log, and every number checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verification {
    /// Every non-trivial number is grounded (and there is evidence).
    pub verified: bool,
    /// One sentence per problem.
    pub issues: Vec<String>,
    /// Non-trivial numbers in the answer.
    pub numbers_extracted: usize,
    /// How many of them the evidence grounds.
    pub matched: usize,
    /// How many it does not.
    pub unmatched: usize,
    /// Numbers skipped as trivial (list markers, small counts, years, dates, names).
    pub skipped: usize,
    /// The kinds of problem found, each once, in a fixed order.
    pub issue_types: Vec<IssueType>,
    /// The first five ungrounded numbers.
    pub unmatched_examples: Vec<NumberExample>,
    /// Numbers whose spelling was ambiguous (`1,234`) and which the evidence grounded under one
    /// reading: never decided silently.
    pub ambiguous: Vec<NumberExample>,
    /// Every non-trivial number, in the answer's order.
    pub numbers: Vec<CheckedNumber>,
}

/// Why an answer was blocked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailClosed {
    /// `numeric_grounding_failed`, `cross_variant_mix` or `no_evidence`.
    pub reason: &'static str,
    /// The stage that blocked it: `verification`.
    pub stage: &'static str,
}

/// What [`verify`](crate::verify::verify) returns: the verification, and the text to deliver.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The answer, or (failing closed) the blocking message.
    pub output: String,
    /// Set when the answer was blocked.
    pub fail_closed: Option<FailClosed>,
    /// The verification.
    pub verification: Verification,
}

/// Where in the evidence a number was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EvidenceLocation {
    /// The name the evidence was added under.
    pub source: String,
    /// The number as the evidence wrote it.
    pub text: String,
    /// Byte range in the text (for JSON, within the string at `path`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Range<usize>>,
    /// JSON Pointer to the value holding it (JSON evidence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// 1-based data row (CSV evidence; the header is row 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<usize>,
    /// Column name, or its 1-based number when the file has no header (CSV evidence).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
}

//! How the verify stage reads and judges: [`VerifyOptions`] and its settings. Plain settings,
//! low in the layers beside the other policies, so that [`crate::Options`] holds them without
//! reaching the stage (`verify/` re-exports them: `llmjson::verify::VerifyOptions`).

use serde::{Deserialize, Serialize};

/// How numbers are spelled: which mark is the decimal one and which groups thousands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Locale {
    /// Each number decides where its spelling is unambiguous (`1,234.5`, `12,5`, `1.5`); where
    /// it is not (`1,234`, `1.500`) both readings are kept and the ambiguity is reported.
    #[default]
    Auto,
    /// `1,234.5`.
    En,
    /// `1.234,5` (also de, es, it).
    #[serde(rename = "pt-BR")]
    Pt,
    /// `1 234,5` with a (narrow) no-break or a plain space.
    Fr,
}

impl std::str::FromStr for Locale {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        let lang = lower.split(['-', '_']).next().unwrap_or_default();
        match lang {
            "auto" => Ok(Locale::Auto),
            "en" => Ok(Locale::En),
            "pt" | "de" | "es" | "it" | "nl" | "id" => Ok(Locale::Pt),
            "fr" => Ok(Locale::Fr),
            _ => Err(format!(
                "unknown locale '{s}' (expected auto, en, pt-BR, de, es, it or fr)"
            )),
        }
    }
}

/// Counts too small to check: integers up to this value with no decimals, unit, currency or
/// `%` ("3 samples", "2 steps"). `UpTo(0)` checks every number but zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SmallCounts {
    /// Skip counts up to this value.
    UpTo(u32),
}

impl Default for SmallCounts {
    fn default() -> Self {
        SmallCounts::UpTo(10)
    }
}

/// Four-digit years (1900-2100, bare): skipped by default, like dates and times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Years {
    /// A year is a date, not a quantity.
    #[default]
    Skip,
    /// A year must be in the evidence like any number.
    Check,
}

/// Whether `45%` and `0.45` are the same quantity.
///
/// They are, by default: a percentage is grounded by the same fraction bound to the same claim
/// (a rate, a share, a `*_rate` key, a value in (0, 1] of the same subject), and a fraction by
/// the same percentage; `0.62%` is never `0.62`. `Distinct` is kept for callers that opted in
/// to the old rule; it will go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PercentForms {
    /// A percentage is grounded by the same percentage only (the old rule, deprecated).
    Distinct,
    /// `45%` is also grounded by `0.45`, and `0.45` by `45%`. The default.
    #[default]
    Equivalent,
}

/// What an answer that is not grounded becomes.
///
/// Failing closed is the default: an answer with numbers the evidence does not support
/// is not delivered. Reporting only is the caller's explicit choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnUngrounded {
    /// The answer is returned with the verification (the caller decides).
    Report,
    /// The answer is replaced by the blocking message (fail closed). The default.
    #[default]
    FailClosed,
}

/// The language of the blocking message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    /// English.
    #[default]
    En,
    /// Portuguese.
    Pt,
}

impl std::str::FromStr for Language {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().split(['-', '_']).next() {
            Some("en") => Ok(Language::En),
            Some("pt") => Ok(Language::Pt),
            _ => Err(format!(
                "unknown message language '{s}' (expected en or pt)"
            )),
        }
    }
}

/// How [`verify`](crate::verify::verify) reads and judges numbers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[non_exhaustive]
pub struct VerifyOptions {
    /// How the answer's numbers are spelled.
    pub locale: Locale,
    /// Counts too small to check.
    pub small_counts: SmallCounts,
    /// Whether years are checked.
    pub years: Years,
    /// Whether a percentage and its fraction are one quantity.
    pub percent: PercentForms,
    /// Report, or fail closed.
    pub on_ungrounded: OnUngrounded,
    /// The blocking message's language.
    pub language: Language,
    /// The largest answer accepted, in bytes (checked before work).
    pub max_size: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            locale: Locale::Auto,
            small_counts: SmallCounts::default(),
            years: Years::Skip,
            percent: PercentForms::Equivalent,
            on_ungrounded: OnUngrounded::FailClosed,
            language: Language::En,
            max_size: crate::limits::DEFAULT_MAX_SIZE,
        }
    }
}

impl VerifyOptions {
    /// The same options, failing closed (the default).
    pub fn fail_closed(mut self) -> Self {
        self.on_ungrounded = OnUngrounded::FailClosed;
        self
    }
    /// The same options, reporting an ungrounded answer instead of blocking it: the caller
    /// receives the answer and its verification, and decides.
    pub fn report_only(mut self) -> Self {
        self.on_ungrounded = OnUngrounded::Report;
        self
    }
    /// The same options with `locale`.
    pub fn locale(mut self, locale: Locale) -> Self {
        self.locale = locale;
        self
    }
    /// The same options with the blocking message in `language`.
    pub fn language(mut self, language: Language) -> Self {
        self.language = language;
        self
    }
    /// The same options with percentages and fractions as one quantity (or not).
    pub fn percent(mut self, percent: PercentForms) -> Self {
        self.percent = percent;
        self
    }
    /// The same options with the small-count threshold.
    pub fn small_counts(mut self, small_counts: SmallCounts) -> Self {
        self.small_counts = small_counts;
        self
    }
    /// The same options with a limit on the answer's size, in bytes.
    pub fn max_size(mut self, bytes: usize) -> Self {
        self.max_size = bytes;
        self
    }
    /// The same options checking (or skipping) years.
    pub fn years(mut self, years: Years) -> Self {
        self.years = years;
        self
    }
}

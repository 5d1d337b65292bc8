//! A seeded generator of labelled grounding pairs: evidence, an answer citing it, and whether
//! every number of the answer is supported by the evidence for the same claim — llmjson's
//! instrument for the verify stage, as `llmjson-faults` is for the parser.
//!
//! Each pair starts from a small fact table (rows: places, arms, plots, conditions, periods,
//! products; columns: what is measured, with units, currencies, scales, signs, fractions),
//! rendered as evidence in one format (prose, labelled lines, a one-line labelled list,
//! markdown, CSV, TSV, semicolon CSV, a CSV file, flat, keyed or array JSON) and one locale
//! (en, pt-BR, es, fr, de, de-CH). The answer cites some of its facts, in the same locale or
//! another, either correctly — re-spelled: locale, scale word, rounding, an approximation word,
//! a unit word, a fraction as a percentage, a date in another format — or with one fact wrong
//! the way its class says (another row's, column's, period's value; a sign flipped; a unit, a
//! prefix or a currency changed; precision added; a sum; a label's or a year's digits used as
//! a measurement; percent for points). The label is known by construction.
//!
//! The generator knows nothing of the verifier: it is written from the rules of
//! docs/verify.md, so a rule the verifier implements differently shows as a failing class.
#![deny(missing_docs)]

mod build;
mod render;
pub mod spell;
pub mod vocab;

pub use llmjson_faults::Rng;
use serde_json::json;
pub use spell::Lang;

/// What a pair tests: the scoreboard's rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// A value bound to its row (a place, an arm, a model, a week, a condition, a period, the
    /// label before a colon): another row's value is not grounded.
    Binding,
    /// Digits in a name, a standard, a page, an address, an order number are no measurement.
    Label,
    /// A count that equals a year is a count.
    CountYear,
    /// A date in another spelling is the same date.
    Date,
    /// A percentage and the same fraction; percent is not points.
    PercentFraction,
    /// Tables bind rows and columns; a header's or caption's scale and unit apply to its cells.
    Table,
    /// JSON binds by key.
    Json,
    /// Signs, also in words, in every language; accounting parentheses.
    Sign,
    /// Currencies and their spellings.
    Currency,
    /// A unit word and its symbol are one unit; prefixes are not.
    Unit,
    /// Approximation words round at the precision they show.
    Approximation,
    /// Scale words across spellings.
    Scale,
    /// Sums, differences, averages and added precision are not in the evidence.
    Arithmetic,
}

impl Class {
    /// Every class, in the scoreboard's order.
    pub const ALL: [Class; 13] = [
        Class::Binding,
        Class::Label,
        Class::CountYear,
        Class::Date,
        Class::PercentFraction,
        Class::Table,
        Class::Json,
        Class::Sign,
        Class::Currency,
        Class::Unit,
        Class::Approximation,
        Class::Scale,
        Class::Arithmetic,
    ];

    /// Its name in results.
    pub fn name(self) -> &'static str {
        match self {
            Class::Binding => "binding",
            Class::Label => "label",
            Class::CountYear => "count_year",
            Class::Date => "date",
            Class::PercentFraction => "percent_fraction",
            Class::Table => "table",
            Class::Json => "json",
            Class::Sign => "sign",
            Class::Currency => "currency",
            Class::Unit => "unit",
            Class::Approximation => "approximation",
            Class::Scale => "scale",
            Class::Arithmetic => "arithmetic",
        }
    }

    /// The class of a name.
    pub fn by_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// How the evidence is written, and how it is given to the verifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// Sentences.
    Prose,
    /// One labelled line per row (`Porto: 84 staff`).
    Lines,
    /// One line listing labelled values (`Staff — Lisbon: 84; Porto: 61`).
    List,
    /// A markdown table in a text.
    Markdown,
    /// Comma-separated rows in a text.
    CsvText,
    /// Tab-separated rows in a text.
    Tsv,
    /// Semicolon-separated rows with decimal commas, in a text.
    Semicolon,
    /// A CSV file (given to the verifier as CSV, not text).
    CsvFile,
    /// One JSON object of keys and numbers.
    JsonFlat,
    /// A JSON object keyed by row.
    JsonKeyed,
    /// A JSON array of row objects.
    JsonArray,
}

impl Format {
    /// Every format.
    pub const ALL: [Format; 11] = [
        Format::Prose,
        Format::Lines,
        Format::List,
        Format::Markdown,
        Format::CsvText,
        Format::Tsv,
        Format::Semicolon,
        Format::CsvFile,
        Format::JsonFlat,
        Format::JsonKeyed,
        Format::JsonArray,
    ];

    /// Its name in results.
    pub fn name(self) -> &'static str {
        match self {
            Format::Prose => "prose",
            Format::Lines => "lines",
            Format::List => "list",
            Format::Markdown => "markdown",
            Format::CsvText => "csv-text",
            Format::Tsv => "tsv",
            Format::Semicolon => "semicolon",
            Format::CsvFile => "csv-file",
            Format::JsonFlat => "json-flat",
            Format::JsonKeyed => "json-keyed",
            Format::JsonArray => "json-array",
        }
    }

    /// How the verifier is given the evidence: `text`, `csv` or `json`.
    pub fn source(self) -> &'static str {
        match self {
            Format::CsvFile => "csv",
            Format::JsonFlat | Format::JsonKeyed | Format::JsonArray => "json",
            _ => "text",
        }
    }
}

/// One labelled pair.
#[derive(Debug, Clone)]
pub struct Pair {
    /// `<seed>-<index>`: enough to make it again.
    pub id: String,
    /// What it tests.
    pub class: Class,
    /// How, within the class (`other_row`, `respelled`, `label_digits`…).
    pub variant: &'static str,
    /// How the evidence is written.
    pub format: Format,
    /// The evidence's language.
    pub evidence_lang: Lang,
    /// The answer's language.
    pub answer_lang: Lang,
    /// The evidence (for JSON formats, the JSON text).
    pub evidence: String,
    /// The answer.
    pub answer: String,
    /// Whether every number of the answer is supported for its claim.
    pub grounded: bool,
    /// The number of the answer that is not (ungrounded pairs).
    pub wrong: Option<String>,
}

impl Pair {
    /// The pair as one JSON line.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "id": self.id,
            "class": self.class.name(),
            "variant": self.variant,
            "format": self.format.name(),
            "source": self.format.source(),
            "language": self.answer_lang.tag(),
            "evidence_language": self.evidence_lang.tag(),
            "evidence": self.evidence,
            "answer": self.answer,
            "grounded": self.grounded,
            "wrong": self.wrong,
        })
    }
}

/// Pairs in the fixed set the scoreboard scores: 80 of each class.
pub fn fixed_count() -> usize {
    80 * Class::ALL.len()
}

/// `count` pairs for `seed`; pair `i` is made for class `Class::ALL[i % 13]`, grounded when
/// `(i / 13)` is even.
pub fn generate(seed: u64, count: usize) -> Vec<Pair> {
    (0..count).map(|i| pair(seed, i)).collect()
}

/// Pair `index` of `seed`.
pub fn pair(seed: u64, index: usize) -> Pair {
    let class = Class::ALL[index % Class::ALL.len()];
    let grounded = (index / Class::ALL.len()) % 2 == 0;
    let mut rng = Rng::new(seed ^ (index as u64).wrapping_mul(0x9E6C_63D0_676A_9A99));
    for _ in 0..400 {
        if let Some(mut p) = build::attempt(&mut rng, class, grounded) {
            p.id = format!("{seed}-{index}");
            return p;
        }
    }
    // Every class can be built: reaching this is a generator bug, shown as an empty pair.
    Pair {
        id: format!("{seed}-{index}"),
        class,
        variant: "none",
        format: Format::Prose,
        evidence_lang: Lang::En,
        answer_lang: Lang::En,
        evidence: String::new(),
        answer: String::new(),
        grounded,
        wrong: None,
    }
}

//! The evidence, indexed once: every number it states (texts, JSON documents, CSV files), by
//! value, with where it was found. An answer's number is then looked up, not searched for.

use super::decimal::Decimal;
use super::extract::{self, Found};
use super::Locale;
use crate::value::Value;
use crate::Error;
use serde::Serialize;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::OnceLock;

/// Evidence to ground answers in: one or more texts, JSON documents or CSV files, each named.
///
/// Build it once and verify many answers against it: its numbers are indexed as they are added.
///
/// ```
/// use llmjson::{verify, Evidence, VerifyOptions};
/// let mut evidence = Evidence::new();
/// evidence.add_text("lab report", "Tensile strength: 41,8 MPa (sample B)").unwrap();
/// let verdict = verify("Sample B reached 41.8 MPa.", &evidence, &VerifyOptions::default()).unwrap();
/// assert!(verdict.verification.verified);
/// ```
#[derive(Debug, Default)]
pub struct Evidence {
    locale: Locale,
    max_size: usize,
    sources: Vec<String>,
    /// Each text source, kept to quote its numbers (empty for JSON and CSV sources).
    texts: Vec<String>,
    numbers: Vec<EvidenceNumber>,
    /// Canonical value → first entry in `numbers`; `next` chains entries of equal value.
    exact: HashMap<(i128, i32), u32, ahash::RandomState>,
    next: Vec<u32>,
    /// Numbers by value, built on the first lookup that needs rounding.
    sorted: OnceLock<Vec<(f64, u32)>>,
    bytes: usize,
    /// Reused between texts: extraction's output.
    scratch: Vec<Found>,
    /// Non-blank bytes over all sources: zero means there is no evidence at all.
    substance: usize,
}

/// Two evidence sets are equal when they are the same set (so [`crate::Options`] can compare):
/// an index is not compared number by number.
impl PartialEq for Evidence {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

#[derive(Debug, Clone)]
struct EvidenceNumber {
    value: Decimal,
    unit: Option<&'static str>,
    at: Place,
}

/// Where a number is; a text's numbers point into its copy in `Evidence::texts`, the others
/// carry the cell or string they came from.
#[derive(Debug, Clone)]
enum Place {
    Text {
        source: u32,
        span: Range<usize>,
    },
    Json {
        source: u32,
        path: Box<str>,
        text: Box<str>,
        span: Range<usize>,
    },
    Csv {
        source: u32,
        row: u32,
        column: Box<str>,
        text: Box<str>,
    },
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

/// What the evidence says about one reading of an answer's number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lookup {
    Found(u32),
    /// The value is there, but stated in another unit.
    OtherUnit,
    /// The evidence states it less precisely than the answer (`12.3` for `12.34`).
    LessPrecise,
    Absent,
}

/// How many candidates within rounding distance are checked before giving up (each needs
/// exact arithmetic); keeps a lookup bounded whatever the evidence holds.
const ROUNDING_CANDIDATES: usize = 256;

impl Evidence {
    /// Empty evidence, numbers read with the `auto` locale and the default size limit.
    pub fn new() -> Self {
        Evidence::with_locale(Locale::Auto)
    }

    /// Empty evidence whose numbers are read with `locale` (`auto` indexes both readings of
    /// an ambiguous number).
    pub fn with_locale(locale: Locale) -> Self {
        Evidence {
            locale,
            max_size: crate::DEFAULT_MAX_SIZE,
            ..Default::default()
        }
    }

    /// The limit on all evidence together, in bytes (default 10 MiB), checked before work.
    pub fn max_size(mut self, bytes: usize) -> Self {
        self.max_size = bytes;
        self
    }

    /// Whether there is no evidence at all (nothing added, or only blank text).
    pub fn is_empty(&self) -> bool {
        self.substance == 0
    }

    /// How many numbers the evidence states (an ambiguous one counts once per reading).
    pub fn numbers(&self) -> usize {
        self.numbers.len()
    }

    /// The names the evidence was added under, in order.
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    fn admit(&mut self, name: &str, len: usize) -> Result<u32, Error> {
        let total = self.bytes.saturating_add(len);
        if total > self.max_size {
            return Err(Error::TooLarge {
                size: total,
                limit: self.max_size,
            });
        }
        self.bytes = total;
        self.sources.push(name.to_string());
        self.texts.push(String::new());
        Ok((self.sources.len() - 1) as u32)
    }

    /// Adds a text (a report, a table pasted as text, a transcript).
    pub fn add_text(&mut self, name: &str, text: &str) -> Result<&mut Self, Error> {
        let source = self.admit(name, text.len())?;
        self.substance += substance(text);
        self.index_text(text, |span, _| Place::Text { source, span });
        self.texts[source as usize] = text.to_string();
        Ok(self)
    }

    /// Adds a text given as bytes: refused with [`Error::InvalidUtf8`] unless it is UTF-8
    /// (evidence is not repaired: a replaced byte could be a digit).
    pub fn add_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<&mut Self, Error> {
        if bytes.len() > self.max_size.saturating_sub(self.bytes) {
            return Err(Error::TooLarge {
                size: self.bytes.saturating_add(bytes.len()),
                limit: self.max_size,
            });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| Error::InvalidUtf8 {
            offset: e.valid_up_to(),
        })?;
        self.add_text(name, text)
    }

    /// Adds a JSON document: its numbers as numbers, its strings as text (keys are names,
    /// not evidence).
    pub fn add_json(&mut self, name: &str, value: &Value) -> Result<&mut Self, Error> {
        let approx = value.to_json().len();
        let source = self.admit(name, approx)?;
        super::walk_leaves(value, |path, leaf| {
            let (text, counted) = match leaf {
                super::Leaf::Number(digits) => (digits, digits.len()),
                super::Leaf::Text(s) => (s, substance(s)),
            };
            self.substance += counted;
            let p: Box<str> = path.into();
            self.index_text(text, |span, written| Place::Json {
                source,
                path: p.clone(),
                text: written.into(),
                span,
            });
            Ok(())
        })?;
        Ok(self)
    }

    /// Adds a CSV file (comma-separated, first row a header): every cell is text, and a
    /// number found in it is located by row and column.
    pub fn add_csv(&mut self, name: &str, text: &str) -> Result<&mut Self, Error> {
        let source = self.admit(name, text.len())?;
        self.substance += substance(text);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(text.as_bytes());
        let headers: Vec<String> = reader
            .headers()
            .map(|h| h.iter().map(str::to_string).collect())
            .unwrap_or_default();
        // Numbers in the header (`2023`, `Q3 2024`) are evidence too.
        for (c, cell) in headers.iter().enumerate() {
            let column: Box<str> = column_name(&headers, c).into();
            self.index_text(cell, |_, written| Place::Csv {
                source,
                row: 0,
                column: column.clone(),
                text: written.into(),
            });
        }
        for (r, record) in reader.records().enumerate() {
            let Ok(record) = record else {
                continue;
            };
            for (c, cell) in record.iter().enumerate() {
                let column: Box<str> = column_name(&headers, c).into();
                let row = (r + 1) as u32;
                self.index_text(cell, |_, written| Place::Csv {
                    source,
                    row,
                    column: column.clone(),
                    text: written.into(),
                });
            }
        }
        Ok(self)
    }

    fn index_text(&mut self, text: &str, place: impl Fn(Range<usize>, &str) -> Place) {
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        extract::scan(text, self.locale, None, &mut found);
        for f in &found {
            // Dates, times and names are not quantities (a version `v2` grounds nothing).
            if f.class != extract::Class::Quantity {
                continue;
            }
            for value in f.readings.iter() {
                self.insert(EvidenceNumber {
                    value,
                    unit: f.unit,
                    at: place(f.span.clone(), &text[f.span.clone()]),
                });
            }
        }
        self.scratch = found;
        self.sorted = OnceLock::new();
    }

    fn insert(&mut self, n: EvidenceNumber) {
        let id = self.numbers.len() as u32;
        let key = n.value.canonical();
        let head = self.exact.insert(key, id);
        self.next.push(head.unwrap_or(u32::MAX));
        self.numbers.push(n);
    }

    fn chain(&self, key: (i128, i32)) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.exact.get(&key).copied().unwrap_or(u32::MAX);
        std::iter::from_fn(move || {
            if at == u32::MAX {
                return None;
            }
            let id = at;
            at = self.next[id as usize];
            Some(id)
        })
    }

    /// Looks up one reading of an answer's number: the same value (in a compatible unit), or
    /// a more precise one that rounds to it.
    pub(crate) fn lookup(&self, answer: Decimal, unit: Option<&str>) -> Lookup {
        let mut other_unit = false;
        for id in self.chain(answer.canonical()) {
            if compatible(unit, self.numbers[id as usize].unit) {
                return Lookup::Found(id);
            }
            other_unit = true;
        }
        // More precise evidence within half the answer's last unit.
        let sorted = self.sorted.get_or_init(|| {
            let mut v: Vec<(f64, u32)> = self
                .numbers
                .iter()
                .enumerate()
                .map(|(i, n)| (n.value.to_f64(), i as u32))
                .filter(|(x, _)| x.is_finite())
                .collect();
            v.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
            v
        });
        let centre = answer.to_f64();
        let half = 10f64.powi(answer.exp) / 2.0;
        let slack = centre.abs() * 1e-12 + f64::MIN_POSITIVE;
        let (lo, hi) = (centre - half - slack, centre + half + slack);
        let first = sorted.partition_point(|&(x, _)| x < lo);
        for &(x, id) in sorted[first..].iter().take(ROUNDING_CANDIDATES) {
            if x > hi {
                break;
            }
            let n = &self.numbers[id as usize];
            if n.value.grounds(answer) {
                if compatible(unit, n.unit) {
                    return Lookup::Found(id);
                }
                other_unit = true;
            }
        }
        if other_unit {
            return Lookup::OtherUnit;
        }
        // Less precise evidence the answer rounds to (`12.3` for an answer of `12.34`).
        for exp in answer.exp + 1..=answer.exp.saturating_add(3) {
            let Some(coarse) = answer.rounded(exp) else {
                continue;
            };
            if coarse.mant == 0 {
                break;
            }
            if self
                .chain(coarse.canonical())
                .any(|id| self.numbers[id as usize].value.exp >= exp)
            {
                return Lookup::LessPrecise;
            }
        }
        Lookup::Absent
    }

    /// Where the number `id` was found.
    pub(crate) fn location(&self, id: u32) -> EvidenceLocation {
        let n = &self.numbers[id as usize];
        let name = |s: u32| self.sources[s as usize].clone();
        let mut loc = EvidenceLocation {
            source: String::new(),
            text: String::new(),
            span: None,
            path: None,
            row: None,
            column: None,
        };
        match &n.at {
            Place::Text { source, span } => {
                loc.source = name(*source);
                loc.text = self.texts[*source as usize]
                    .get(span.clone())
                    .unwrap_or_default()
                    .to_string();
                loc.span = Some(span.clone());
            }
            Place::Json {
                source,
                path,
                text,
                span,
            } => {
                loc.source = name(*source);
                loc.text = text.to_string();
                loc.path = Some(path.to_string());
                loc.span = Some(span.clone());
            }
            Place::Csv {
                source,
                row,
                column,
                text,
            } => {
                loc.source = name(*source);
                loc.text = text.to_string();
                loc.row = Some(*row as usize);
                loc.column = Some(column.to_string());
            }
        }
        loc
    }
}

/// Units agree unless both are stated and differ (a table often states the unit once, in its
/// header, and the numbers bare).
fn compatible(answer: Option<&str>, evidence: Option<&str>) -> bool {
    match (answer, evidence) {
        (Some(a), Some(e)) => a == e,
        _ => true,
    }
}

fn column_name(headers: &[String], c: usize) -> String {
    match headers.get(c) {
        Some(h) if !h.trim().is_empty() => h.clone(),
        _ => (c + 1).to_string(),
    }
}

fn substance(text: &str) -> usize {
    text.bytes().filter(|b| !b.is_ascii_whitespace()).count()
}

//! The evidence, indexed once: every number it states (texts, JSON documents, CSV files), by
//! value, with where it was found. An answer's number is then looked up, not searched for.

use super::decimal::Decimal;
use super::extract::{self, Found, Polarity};
use super::options::Locale;
use super::subject::Subject;
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
    /// The subjects numbers are bound to (index 0: none; a run of numbers under one subject
    /// shares an entry), each with its fingerprint.
    subjects: Vec<(Subject, u64)>,
    /// (canonical value, subject fingerprint) → a number of that value bound to that subject:
    /// an answer's number bound to a subject finds its own without walking every number of
    /// its value (a report states a value for many samples). Built on the first lookup that
    /// has a subject: evidence asked only about unbound numbers never pays for it.
    by_subject: OnceLock<HashMap<u64, u32, ahash::RandomState>>,
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
    /// The magnitude (the sign is in `polarity`).
    value: Decimal,
    unit: Option<&'static str>,
    polarity: Polarity,
    /// Index into `Evidence::subjects`.
    subject: u32,
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
    /// The value is there, but for another subject (`Variant B`'s, not `Variant A`'s).
    OtherSubject(u32),
    /// The value is there, but stated in another unit.
    OtherUnit,
    /// The magnitude is there, with the opposite sign or direction.
    OtherSign,
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
            max_size: crate::limits::DEFAULT_MAX_SIZE,
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
        self.index_text(text, Subject::default(), None, |span, _| Place::Text {
            source,
            span,
        });
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
    /// not evidence). An object's members that name a subject (`"variant": "B"`, `"year":
    /// 2023`, a key `"Variant B"`) bind the numbers inside it.
    pub fn add_json(&mut self, name: &str, value: &Value) -> Result<&mut Self, Error> {
        let approx = value.to_json().len();
        let source = self.admit(name, approx)?;
        super::leaves::walk_leaves(value, |path, leaf, subject| {
            let (text, counted, locale) = match leaf {
                super::leaves::Leaf::Number(digits) => (digits, digits.len(), Some(Locale::En)),
                super::leaves::Leaf::Text(s) => (s, substance(s), None),
            };
            self.substance += counted;
            let p: Box<str> = path.into();
            self.index_text(text, subject, locale, |span, written| Place::Json {
                source,
                path: p.clone(),
                text: written.into(),
                span,
            });
            Ok(())
        })?;
        Ok(self)
    }

    /// Adds a CSV file (first row a header; comma-separated, or semicolon-separated with
    /// decimal commas as pt-BR, de and fr spreadsheets export, or tab-separated): every cell is
    /// text, and a number found in it is located by row and column. A row's label (its first
    /// cell, under a header such as `Variant` or `Year`) and a column's header (`2023`,
    /// `Variant B`) bind the numbers of the cell.
    pub fn add_csv(&mut self, name: &str, text: &str) -> Result<&mut Self, Error> {
        let source = self.admit(name, text.len())?;
        self.substance += substance(text);
        let header_line = text.lines().next().unwrap_or_default();
        let count = |c: char| header_line.matches(c).count();
        let (delimiter, cell_locale) = if count('\t') > 0 {
            (b'\t', None)
        } else if count(';') > count(',') {
            (b';', Some(Locale::Pt))
        } else {
            (b',', None)
        };
        let cell_locale = match self.locale {
            Locale::Auto => cell_locale,
            fixed => Some(fixed),
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(text.as_bytes());
        let headers: Vec<String> = reader
            .headers()
            .map(|h| h.iter().map(str::to_string).collect())
            .unwrap_or_default();
        let table = super::tables::Header::new(headers.iter().map(String::as_str));
        // Numbers in the header (`2023`, `Q3 2024`) are evidence too.
        for (c, cell) in headers.iter().enumerate() {
            let column: Box<str> = column_name(&headers, c).into();
            self.index_text(cell, Subject::default(), cell_locale, |_, written| {
                Place::Csv {
                    source,
                    row: 0,
                    column: column.clone(),
                    text: written.into(),
                }
            });
        }
        for (r, record) in reader.records().enumerate() {
            let Ok(record) = record else {
                continue;
            };
            let row_subject = table.row(record.iter());
            for (c, cell) in record.iter().enumerate() {
                let column: Box<str> = column_name(&headers, c).into();
                let row = (r + 1) as u32;
                let subject = table.cell(row_subject, c);
                self.index_text(cell, subject, cell_locale, |_, written| Place::Csv {
                    source,
                    row,
                    column: column.clone(),
                    text: written.into(),
                });
            }
        }
        Ok(self)
    }

    /// Indexes the numbers of `text` (under `base`'s subject; read with `locale` when given,
    /// else the evidence's).
    fn index_text(
        &mut self,
        text: &str,
        base: Subject,
        locale: Option<Locale>,
        place: impl Fn(Range<usize>, &str) -> Place,
    ) {
        let mut found = std::mem::take(&mut self.scratch);
        let locale = locale.unwrap_or(self.locale);
        super::tables::scan_parts(text, locale, None, base, &mut found, |f| {
            // Dates, times, names and labels are not quantities (`v2`, `Table 45` ground
            // nothing).
            if f.class != extract::Class::Quantity {
                return;
            }
            let subject = self.intern(f.subject);
            for value in f.readings.iter() {
                self.insert(EvidenceNumber {
                    value: value.magnitude(),
                    unit: f.unit,
                    polarity: f.polarity,
                    subject,
                    at: place(f.span.clone(), &text[f.span.clone()]),
                });
            }
        });
        self.scratch = found;
        self.sorted = OnceLock::new();
        self.by_subject = OnceLock::new();
    }

    /// The index of `subject` in `subjects`: numbers in a row share one entry.
    fn intern(&mut self, subject: Subject) -> u32 {
        if subject.is_empty() {
            return 0;
        }
        if self.subjects.is_empty() {
            self.subjects.push((Subject::default(), 0));
        }
        let last = self.subjects.len() - 1;
        if last == 0 || self.subjects[last].0 != subject {
            self.subjects.push((subject, subject.fingerprint()));
        }
        (self.subjects.len() - 1) as u32
    }

    fn subject_of(&self, n: &EvidenceNumber) -> Subject {
        self.subjects
            .get(n.subject as usize)
            .map(|s| s.0)
            .unwrap_or_default()
    }

    fn insert(&mut self, n: EvidenceNumber) {
        let id = self.numbers.len() as u32;
        let key = n.value.canonical();
        let head = self.exact.insert(key, id);
        self.next.push(head.unwrap_or(u32::MAX));
        self.numbers.push(n);
    }

    /// The (value, subject) index: the first number of each value bound to each subject.
    fn index_by_subject(&self) -> HashMap<u64, u32, ahash::RandomState> {
        let mut map = HashMap::with_capacity_and_hasher(self.numbers.len(), Default::default());
        for (id, n) in self.numbers.iter().enumerate() {
            if n.subject != 0 {
                let fingerprint = self.subjects[n.subject as usize].1;
                map.entry(value_subject_key(n.value.canonical(), fingerprint))
                    .or_insert(id as u32);
            }
        }
        map
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

    /// Looks up one reading of an answer's number: the same value (in a compatible unit, with
    /// an agreeing sign, for a compatible subject), or a more precise one that rounds to it.
    /// `exact_unit`: the evidence's unit must be the answer's, stated or not (a percentage's
    /// fraction is `0.25`, not `0.25 %`).
    pub(crate) fn lookup(&self, answer: &Claim, exact_unit: bool) -> Lookup {
        let magnitude = answer.value.magnitude();
        let mut why = Miss::default();
        if !answer.subject.is_empty() {
            let key = magnitude.canonical();
            let own = self
                .by_subject
                .get_or_init(|| self.index_by_subject())
                .get(&value_subject_key(key, answer.subject.fingerprint()))
                .filter(|&&id| self.numbers[id as usize].value.canonical() == key);
            if let Some(&id) = own {
                if let Some(found) = self.judge(id, answer, exact_unit, &mut Miss::default()) {
                    return found;
                }
            }
        }
        for id in self.chain(magnitude.canonical()) {
            if let Some(found) = self.judge(id, answer, exact_unit, &mut why) {
                return found;
            }
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
        let centre = magnitude.to_f64();
        let half = 10f64.powi(magnitude.exp) / 2.0;
        let slack = centre.abs() * 1e-12 + f64::MIN_POSITIVE;
        let (lo, hi) = (centre - half - slack, centre + half + slack);
        let first = sorted.partition_point(|&(x, _)| x < lo);
        for &(x, id) in sorted[first..].iter().take(ROUNDING_CANDIDATES) {
            if x > hi {
                break;
            }
            if self.numbers[id as usize].value.grounds(magnitude) {
                if let Some(found) = self.judge(id, answer, exact_unit, &mut why) {
                    return found;
                }
            }
        }
        if let Some(id) = why.other_subject {
            return Lookup::OtherSubject(id);
        }
        if why.other_unit {
            return Lookup::OtherUnit;
        }
        if why.other_sign {
            return Lookup::OtherSign;
        }
        // Less precise evidence the answer rounds to (`12.3` for an answer of `12.34`).
        for exp in magnitude.exp + 1..=magnitude.exp.saturating_add(3) {
            let Some(coarse) = magnitude.rounded(exp) else {
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

    /// Whether evidence number `id` (of the answer's magnitude) grounds `answer`; else notes
    /// why not in `why`.
    fn judge(&self, id: u32, answer: &Claim, exact_unit: bool, why: &mut Miss) -> Option<Lookup> {
        let n = &self.numbers[id as usize];
        let unit_ok = if exact_unit {
            answer.unit.map(str::as_ptr) == n.unit.map(str::as_ptr) || answer.unit == n.unit
        } else {
            compatible(answer.unit, n.unit)
        };
        if !unit_ok {
            why.other_unit = true;
            return None;
        }
        if !answer.polarity.agrees(n.polarity) {
            why.other_sign = true;
            return None;
        }
        if answer.subject.conflict(&self.subject_of(n)).is_some() {
            why.other_subject.get_or_insert(id);
            return None;
        }
        Some(Lookup::Found(id))
    }

    /// The subject evidence number `id` is bound to, described (`variant B`).
    pub(crate) fn subject_described(&self, id: u32) -> String {
        self.subject_of(&self.numbers[id as usize]).describe()
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

/// One key for a value and a subject (checked against the value on a hit: a collision costs a
/// walk, never a wrong answer).
fn value_subject_key((mant, exp): (i128, i32), fingerprint: u64) -> u64 {
    let h = (mant as u64) ^ ((mant >> 64) as u64).rotate_left(17) ^ u64::from(exp as u32) << 40;
    (h ^ fingerprint).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// An answer's number as the evidence is asked about it: one reading, its unit, its direction
/// and its subject.
pub(crate) struct Claim {
    pub value: Decimal,
    pub unit: Option<&'static str>,
    pub polarity: Polarity,
    pub subject: Subject,
}

/// Why the candidates of one lookup did not ground the answer.
#[derive(Default)]
struct Miss {
    other_subject: Option<u32>,
    other_unit: bool,
    other_sign: bool,
}

/// Units agree unless both are stated and differ (a table often states the unit once, in its
/// header, and the numbers bare).
/// A bare `°` (`45 degrees`) agrees with either scale.
fn compatible(answer: Option<&str>, evidence: Option<&str>) -> bool {
    match (answer, evidence) {
        (Some(a), Some(e)) => {
            std::ptr::eq(a, e)
                || a == e
                || (a == "°" && e.starts_with('°'))
                || (e == "°" && a.starts_with('°'))
        }
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

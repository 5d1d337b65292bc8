//! The evidence, indexed once: every quantity it states (texts, JSON documents, CSV files), by
//! value, with its frame (unit, currency, direction, fraction) and the labels the evidence binds
//! it to — each a label among the alternatives of a dimension (a table's rows, its columns, a
//! list's items, a paragraph's years or places, an object's keys). An answer's number is then
//! looked up, not searched for, and its binding compared with the labels' alternatives.

use super::decimal::Decimal;
use super::frame::{self, Frame, Kind, Polarity, Spec};
use super::layout::{self, Bind, Config, Item, Reach, Role};
use super::leaves::{walk_leaves, Leaf};
use super::lex::Readings;
use crate::policy::grounding::Locale;
use crate::value::Value;
use crate::verdict::EvidenceLocation;
use crate::Error;
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, OnceLock};

type Fast = ahash::RandomState;

/// Evidence to ground answers in: one or more texts, JSON documents or CSV files, each named.
///
/// Build it once and verify many answers against it: its numbers are indexed as they are added.
///
/// ```
/// use llmjson::verify::{verify, Evidence, VerifyOptions};
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
    /// Each text source, kept to quote its numbers (empty for JSON sources).
    texts: Vec<String>,
    numbers: Vec<EvidenceNumber>,
    /// Canonical value → first entry in `numbers`; `next` chains entries of equal value.
    exact: HashMap<(i128, i32), u32, Fast>,
    next: Vec<u32>,
    /// Numbers by value, built on the first lookup that needs rounding.
    sorted: OnceLock<Vec<(f64, u32)>>,
    bytes: usize,
    /// Non-blank bytes over all sources: zero means there is no evidence at all.
    substance: usize,
    /// Atoms (`w:porto`, `y:2021`, …) by text, and back.
    atoms: HashMap<Box<str>, u32, Fast>,
    atom_names: Vec<Box<str>>,
    /// Labels: a dimension and its atoms (sorted); `label_ids` finds a label again (by the
    /// hash of its dimension and atoms; the label is in `labels`).
    labels: Vec<(u64, Box<[u32]>)>,
    label_ids: hashbrown::HashTable<u32>,
    /// Atom ids of the label being interned (kept: a buffer, not a value).
    label_scratch: Vec<u32>,
    /// How many labels each dimension has.
    dim_labels: HashMap<u64, u32, Fast>,
    /// Per dimension and atom: how many labels hold it, and the first [`POSTINGS`] of them.
    postings: HashMap<(u64, u32), Posting, Fast>,
    /// Every number's labels, `EvidenceNumber::groups` ranges into it.
    groups: Vec<u32>,
    /// Each label and the measures of the numbers it labels (by [`measure_of`]): a label
    /// is an alternative subject only for a claim of a measure it labels (`Herdengröße 86
    /// Kühe` is no other subject for `9.412 kg`).
    label_measures: HashSet<(u32, u64), Fast>,
    /// Per label, what the numbers it labels are.
    label_facts: Vec<LabelFacts>,
    /// Per label, its text as written (empty when it has none), for diagnostics.
    label_texts: Vec<Option<Arc<str>>>,
    /// Decimals written with a comma and with a dot: the convention an answer that shows none
    /// of its own is read by.
    decimal_marks: (u32, u32),
    /// The last bindings interned, as written, and their labels.
    recent_labels: Vec<(u64, u32)>,
    label_hasher: Fast,
    /// Per label, the numbers it labels (the first [`LABEL_NUMBERS`]); per atom, the labels
    /// holding it (the first [`POSTINGS`], one more marking a common atom): a claim's own
    /// number is looked for among the numbers its context names before any other.
    label_numbers: Vec<LabelNumbers>,
    /// Each number's value, canonical (`Decimal::canonical`: a division to find).
    keys: Vec<(i128, i32)>,
    /// The judgements of the numbers looked up (see `index_item`).
    judgements: HashSet<u64, Fast>,
    atom_labels: HashMap<u32, Vec<u32>, Fast>,
    /// Atoms of numbers that label or date something (`n:401e0`, `y:2021`): an answer's number
    /// in a label's place that the evidence holds so is that label.
    label_atoms: HashSet<Box<str>, Fast>,
    /// Values the evidence writes as labels, years or identifiers only.
    label_values: HashSet<(i128, i32), Fast>,
    /// A label's counts with the noun they count (`Leather repairs to 12 folios`: 12, `folio`),
    /// which an answer may state as counts of the same noun.
    label_counts: HashSet<((i128, i32), Box<str>), Fast>,
    /// Words the evidence counts (`staff` in `84 staff`).
    count_nouns: HashSet<Box<str>, Fast>,
    /// Dimensions of headings and captions: they frame, they exclude nothing.
    title_dims: HashSet<u64, Fast>,
    /// Dimensions of prose clauses' words: soft bindings.
    soft_dims: HashSet<u64, Fast>,
    /// Dimensions of table rows' names.
    row_dims: HashSet<u64, Fast>,
    /// Names and the bare integers after them (`Kestrel 2400`), as [`Evidence::name_key`]s.
    names: HashSet<(u64, i128, i32), Fast>,
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
    per: Option<&'static str>,
    polarity: Polarity,
    fraction: bool,
    /// Its labels: a range of `Evidence::groups`.
    groups: Range<u32>,
    at: Place,
}

/// Where a number is.
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

/// An answer's number as the evidence is asked about it.
pub(crate) struct Claim<'c> {
    pub value: Decimal,
    pub unit: Option<&'static str>,
    pub per: Option<&'static str>,
    pub polarity: Polarity,
    pub fraction: bool,
    /// Its context: atoms of the evidence's (ids), how strongly the answer binds each, and the
    /// mention each comes from.
    pub context: &'c [Mention],
    /// Rounding allowed down to its last significant digit (an approximation word).
    pub approx: bool,
    /// Written without a unit and followed by a word the evidence counts (`12 mil pessoas`,
    /// `60 puestos`): a count, which a measurement with a unit (`12.000 m²`) does not ground.
    pub counted: bool,
    /// Written without a unit and followed by a content word (`2 400 huîtres`): a count of
    /// things, whatever the evidence counts.
    pub noun: bool,
    /// With a unit, the digits of a name the answer writes as the evidence does (`Kestrel
    /// 2400`): a bare number of the evidence does not ground it.
    pub name_digits: bool,
    /// A statistic of parts the answer counts (`the three specimens averaged`: `w:~avg`):
    /// only a number the evidence labels with it grounds it.
    pub parts: Option<&'static str>,
    /// An average per a period (`una media de 150 visitantes por día`: `d`; `wk`, `mo`): one
    /// period's value (`martes: 150`) does not ground it, unless labelled an average.
    pub period_parts: Option<&'static str>,
    /// Its periods and numbered things (`y:2021`, `q:3`, `r:batch:13e0`), known to the evidence
    /// or not, with their weights: one year excludes another wherever the evidence states it.
    pub exclusive: &'c [(super::layout::Atom, f32)],
}

/// Ids kept in order, the first `CAP` of them, the first one inline: most labels label one
/// number and most atoms of a dimension are held by one label, and need no list.
#[derive(Debug)]
struct FirstIds<const CAP: usize> {
    /// `u32::MAX` while empty.
    first: u32,
    more: Vec<u32>,
}

impl<const CAP: usize> Default for FirstIds<CAP> {
    fn default() -> Self {
        FirstIds {
            first: u32::MAX,
            more: Vec::new(),
        }
    }
}

impl<const CAP: usize> FirstIds<CAP> {
    fn len(&self) -> usize {
        usize::from(self.first != u32::MAX) + self.more.len()
    }

    fn push(&mut self, id: u32) {
        if self.first == u32::MAX {
            self.first = id;
        } else if self.more.len() + 1 < CAP {
            self.more.push(id);
        }
    }

    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (self.first != u32::MAX)
            .then_some(self.first)
            .into_iter()
            .chain(self.more.iter().copied())
    }
}

/// The numbers a label labels (the first [`LABEL_NUMBERS`]).
type LabelNumbers = FirstIds<LABEL_NUMBERS>;

/// The labels of a dimension that hold one atom: how many, and the first [`POSTINGS`].
#[derive(Debug, Default)]
struct Posting {
    holders: u32,
    labels: FirstIds<POSTINGS>,
}

/// What the numbers a label labels are.
#[derive(Debug, Clone, Copy, Default)]
struct LabelFacts {
    /// It labels a number.
    numbers: bool,
    /// One of them is negative (a loss, a fall, `(2,317)`).
    negative: bool,
    /// One of them is not money (`chiffre d'affaires : 3 400 M€` labels money only).
    not_money: bool,
}

/// What the evidence says about one reading of an answer's number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Lookup {
    Found(u32),
    /// The value is there, but bound to another subject (`Porto`'s, not `Lisbon`'s).
    OtherSubject(Clash),
    /// The value is there, but in another unit or currency.
    OtherUnit,
    /// The magnitude is there, with the opposite direction.
    OtherSign,
    /// The evidence states it less precisely than the answer (`12.3` for `12.34`).
    LessPrecise,
    Absent,
}

/// Whose value a number is, by the answer and by the evidence: the labels that clashed, as
/// written (`Variant A` against `Variant B`, `2021` against `2019`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Clash {
    /// What the answer binds the number to.
    pub ours: String,
    /// What the evidence binds it to.
    pub theirs: String,
}

/// How many candidates within rounding distance are checked before giving up (each needs
/// exact arithmetic); keeps a lookup bounded whatever the evidence holds.
const ROUNDING_CANDIDATES: usize = 256;
/// How strongly an answer must name an alternative label to bind its number to it.
const MENTION: f32 = 0.25;
/// The atom of a total (`Total`, `together`, `insgesamt`).
const TOTAL: &str = "w:~total";
/// A mention of a table row's name ([`MENTION`] for a row).
const ROW_MENTION: f32 = 0.2;
/// One word of an answer's context, as the evidence knows it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mention {
    /// The evidence's atom id.
    pub atom: u32,
    /// How strongly the answer binds it to the number.
    pub weight: f32,
    /// Which mention of the answer it belongs to (one date is several atoms).
    pub mention: u32,
    /// Where the answer names it (see `layout::Reach`).
    pub reach: super::layout::Reach,
}

/// How much more strongly it must name the alternative than the number's own label: the
/// alternative must outweigh this many times the own label's mention (and a little more).
const DOMINANT: f32 = 1.5;
/// How many numbers a label remembers for a claim's first look (a heading may label thousands).
const LABEL_NUMBERS: usize = 256;
/// How many labels of a dimension an atom's postings keep: an atom held by more is common
/// there, and names no alternative.
const POSTINGS: usize = 64;
/// How many numbers of one value are judged for one reading (a report may state a value
/// thousands of times): bounded work per answer number.
const SAME_VALUE_CANDIDATES: usize = 4096;

/// How many numbers of the labels an answer names a lookup reads before it reads the value's
/// own chain: a bound per claim, so that a verify stays linear however often a label repeats.
const FIRST_LOOK: usize = 2048;

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
        self.reserve_for(text.len());
        self.index_text(
            text,
            source,
            self.locale,
            &[],
            Spec::default(),
            |span, _| Place::Text { source, span },
        );
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

    /// Adds a JSON document: its numbers as numbers, its strings as text. Keys are names, not
    /// evidence: each number is bound to its key among its object's keys, to its object's key
    /// among its parent's, and to an array item's names (`{"region": "North", …}`) among the
    /// array's; a key's unit applies (`output_mwh`, `revenue_eur_m`, `rate_pct`).
    pub fn add_json(&mut self, name: &str, value: &Value) -> Result<&mut Self, Error> {
        let approx = value.to_json().len();
        let source = self.admit(name, approx)?;
        let salt = u64::from(source).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x15;
        let mut leaves = Vec::new();
        let walked = walk_leaves(value, salt, |leaf| {
            leaves.push(leaf);
            Ok::<(), std::convert::Infallible>(())
        });
        if let Err(never) = walked {
            match never {}
        }
        self.sorted = OnceLock::new();
        for leaf in leaves {
            let path: Box<str> = leaf.path.clone().into();
            match leaf.leaf {
                Leaf::Text(s) => {
                    self.substance += substance(&s);
                    self.index_text(
                        &s,
                        source,
                        self.locale,
                        &leaf.binds,
                        leaf.spec,
                        |span, written| Place::Json {
                            source,
                            path: path.clone(),
                            text: written.into(),
                            span,
                        },
                    );
                }
                Leaf::Number(digits) => {
                    self.substance += digits.len();
                    let Some(mut item) =
                        layout::json_number(&digits, leaf.spec, leaf.year_key, leaf.negative)
                    else {
                        continue;
                    };
                    item.binds = leaf.binds;
                    let span = 0..digits.len();
                    let at = |_: Range<usize>, written: &str| Place::Json {
                        source,
                        path: path.clone(),
                        text: written.into(),
                        span: span.clone(),
                    };
                    self.index_item(item, &digits, &at);
                }
            }
        }
        Ok(self)
    }

    /// Adds a CSV file (first row a header; comma-separated, or semicolon-separated with
    /// decimal commas as pt-BR, de and fr spreadsheets export, or tab-separated): read as a
    /// table, each number bound to its row and its column, located by row and column.
    pub fn add_csv(&mut self, name: &str, text: &str) -> Result<&mut Self, Error> {
        let source = self.admit(name, text.len())?;
        self.substance += substance(text);
        let header_line = text.lines().next().unwrap_or_default();
        let count = |c: char| header_line.matches(c).count();
        let (delimiter, cell_locale) = if count('\t') > 0 {
            (b'\t', Locale::Auto)
        } else if count(';') > count(',') {
            (b';', Locale::Pt)
        } else {
            // (Quoted cells may show another convention: `"3.905.120"` groups by dots, so
            // `"1.204"` beside it is 1204.)
            // (Read in the quoted cells alone: the delimiters between bare cells are no
            // decimal marks.)
            let quoted: String = text
                .split('"')
                .skip(1)
                .step_by(2)
                .collect::<Vec<_>>()
                .join("\n");
            match super::lex::numbers_convention(&quoted) {
                (Some(false), _) | (None, Some(false)) => (b',', Locale::Pt),
                _ => (b',', Locale::En),
            }
        };
        let locale = match self.locale {
            Locale::Auto => cell_locale,
            fixed => fixed,
        };
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .delimiter(delimiter)
            .from_reader(text.as_bytes());
        // The file as a tab-separated table (quotes resolved), and where each cell is.
        let mut table = String::new();
        let mut cells: Vec<(usize, u32, u32)> = Vec::new();
        let mut headers: Vec<String> = Vec::new();
        for (r, record) in reader.records().enumerate() {
            let Ok(record) = record else {
                continue;
            };
            if r == 0 {
                headers = record.iter().map(str::to_string).collect();
            }
            for (c, cell) in record.iter().enumerate() {
                if c > 0 {
                    table.push('\t');
                }
                cells.push((table.len(), r as u32, c as u32));
                table.push_str(&cell.replace(['\t', '\n', '\r'], " "));
            }
            table.push('\n');
        }
        let column = |c: u32| -> Box<str> {
            match headers.get(c as usize) {
                Some(h) if !h.trim().is_empty() => h.as_str().into(),
                _ => (c + 1).to_string().into(),
            }
        };
        self.index_text(
            &table,
            source,
            locale,
            &[],
            Spec::default(),
            |span, written| {
                let k = cells
                    .partition_point(|&(at, _, _)| at <= span.start)
                    .saturating_sub(1);
                let (_, row, col) = cells.get(k).copied().unwrap_or((0, 0, 0));
                Place::Csv {
                    source,
                    row,
                    column: column(col),
                    text: written.into(),
                }
            },
        );
        Ok(self)
    }

    /// Indexes the numbers of `text`.
    fn index_text(
        &mut self,
        text: &str,
        source: u32,
        locale: Locale,
        base: &[Bind],
        spec: Spec,
        place: impl Fn(Range<usize>, &str) -> Place,
    ) {
        let salt = u64::from(source).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x7e;
        let hints = layout::no_hints();
        let cfg = Config {
            locale,
            role: Role::Evidence,
            salt,
            base,
            spec,
            hints: &hints,
        };
        // Each number is indexed as it is read (not collected first: a megabyte's numbers
        // would be copied twice).
        layout::read(text, &cfg, &mut |item| {
            // The decimal marks the text writes (a JSON document's dots are no language's).
            if let Readings::One(d) = item.frame.readings {
                let digits = text.get(item.num.digits.clone()).unwrap_or_default();
                if d.exp < 0 && !item.num.scaled {
                    match (digits.contains(','), digits.contains('.')) {
                        (true, false) => self.decimal_marks.0 += 1,
                        (false, true) => self.decimal_marks.1 += 1,
                        _ => {}
                    }
                }
            }
            self.index_item(item, text, &place);
        });
        self.sorted = OnceLock::new();
    }

    /// Room for the numbers of `bytes` more text (a dense report states one every 16 bytes or
    /// so; half that is reserved, so that a sparse text does not hold what it never uses).
    fn reserve_for(&mut self, bytes: usize) {
        let numbers = bytes / 32;
        if numbers < 1024 {
            return;
        }
        self.numbers.reserve(numbers);
        self.keys.reserve(numbers);
        self.next.reserve(numbers);
        self.exact.reserve(numbers);
        self.judgements.reserve(numbers);
        self.groups.reserve(2 * numbers);
        // A line and each of its segments bind a label of their own: about one per number.
        // (Growing these tables as they fill rehashed every entry a dozen times.)
        self.labels.reserve(numbers);
        let (labels, hasher) = (&self.labels, &self.label_hasher);
        self.label_ids.reserve(numbers, |&id| {
            let (dim, atoms) = &labels[id as usize];
            hasher.hash_one((*dim, &atoms[..]))
        });
        self.label_facts.reserve(numbers);
        self.label_texts.reserve(numbers);
        self.label_numbers.reserve(numbers);
        self.label_measures.reserve(numbers);
        self.dim_labels.reserve(numbers);
        self.postings.reserve(2 * numbers);
        self.atoms.reserve(numbers / 2);
        self.atom_names.reserve(numbers / 2);
        self.atom_labels.reserve(numbers / 2);
    }

    fn index_item(&mut self, item: Item, text: &str, place: &impl Fn(Range<usize>, &str) -> Place) {
        let Item {
            num,
            frame,
            binds,
            atom,
            noun,
            name,
        } = item;
        if let Kind::Trivial(why) = frame.kind {
            if let Some(a) = atom {
                self.label_atoms.insert(a.into());
            }
            for d in frame.readings.iter() {
                self.label_values.insert(d.magnitude().canonical());
            }
            // (Not a name's digits: `Class 66 locomotives` names a class, it counts none.)
            if let (super::frame::Trivial::Label, Some(w), None) = (why, noun.as_deref(), &name) {
                if self.label_counts.len() < 1 << 16 {
                    for d in frame.readings.iter() {
                        self.label_counts
                            .insert((d.magnitude().canonical(), noun_key(w).into()));
                    }
                }
            }
            return;
        }
        // A noun counted: the word after a number without a unit (`412 heures perdues` counts
        // hours, not `perdues`; `+21 noites` is a duration).
        if let Some(w) = noun.filter(|_| frame.unit.is_none()) {
            if w.len() > 2
                && super::words::flags(&w) & super::words::flag::STOP == 0
                && !self.count_nouns.contains(w.as_str())
            {
                self.count_nouns.insert(w.as_str().into());
            }
        }
        // A bare integer after a capitalised word (`Kestrel 2400 axial fan`) may be a name's
        // digits: an answer that writes the name so and the digits with a unit elsewhere
        // (`rated at 2400 kW`) measures nothing with it.
        if let Some(name) = name {
            let key = self.name_key(&name, frame.readings.first());
            self.names.insert(key);
        }
        let start = self.groups.len() as u32;
        let not_money = frame
            .unit
            .is_none_or(|u| super::words::currency_word(u).is_none());
        let measure = measure_of(frame.unit, frame.per, frame.fraction);
        for b in &binds {
            // A label's numbers and codes (`Titan 2400`, `Site 203`, `S14`, `Forfait 3 días`)
            // are labels.
            for a in b.atoms.iter() {
                if (a.starts_with("n:") || a.starts_with("c:"))
                    && !self.label_atoms.contains(a.as_str())
                {
                    self.label_atoms.insert(a.as_str().into());
                }
            }
            let id = self.label(b);
            self.label_measures.insert((id, measure));
            let facts = &mut self.label_facts[id as usize];
            facts.numbers = true;
            facts.negative |= matches!(
                frame.polarity,
                Polarity::MinusSign | Polarity::MinusWord | Polarity::Outflow
            );
            facts.not_money |= not_money;
            if !self.groups[start as usize..].contains(&id) {
                self.groups.push(id);
            }
        }
        let groups = start..self.groups.len() as u32;
        let span = num.span.clone();
        let written = text.get(span.clone()).unwrap_or_default();

        for value in frame.readings.iter() {
            let id = self.numbers.len() as u32;
            // A number judged as an earlier one would be (the same value, unit, direction and
            // labels: `2025` in every dated line of a log) is kept for its place but not looked
            // up again: a lookup walks each distinct judgement once, not each repetition.
            let key = value.magnitude().canonical();
            let judged_as = self.label_hasher.hash_one((
                key,
                frame.unit,
                frame.per,
                frame.polarity as u8,
                frame.fraction,
                &self.groups[groups.start as usize..groups.end as usize],
            ));
            let new_judgement = self.judgements.insert(judged_as);
            if new_judgement {
                for &label in &self.groups[groups.start as usize..groups.end as usize] {
                    self.label_numbers[label as usize].push(id);
                }
            }
            let number = EvidenceNumber {
                value: value.magnitude(),
                unit: frame.unit,
                per: frame.per,
                polarity: frame.polarity,
                fraction: frame.fraction,
                groups: groups.clone(),
                at: place(span.clone(), written),
            };
            self.insert(number, key, new_judgement);
        }
    }

    /// The id of a label (interned), counted in its dimension.
    fn label(&mut self, b: &Bind) -> u32 {
        // A line's, a row's or a section's binding repeats for each of its numbers: the last
        // few are remembered as written.
        let hash = self.label_hasher.hash_one((b.dim, &b.atoms));
        if let Some(&(_, id)) = self.recent_labels.iter().find(|(h, id)| {
            *h == hash
                && self.labels[*id as usize].0 == b.dim
                && self.labels[*id as usize].1.len() <= b.atoms.len()
        }) {
            return id;
        }
        let id = self.intern_label(b);
        if self.recent_labels.len() == 16 {
            self.recent_labels.remove(0);
        }
        self.recent_labels.push((hash, id));
        id
    }

    fn intern_label(&mut self, b: &Bind) -> u32 {
        if b.title {
            self.title_dims.insert(b.dim);
        }
        if b.soft {
            self.soft_dims.insert(b.dim);
        }
        if b.row {
            self.row_dims.insert(b.dim);
        }
        let mut ids = std::mem::take(&mut self.label_scratch);
        ids.clear();
        ids.extend(b.atoms.iter().map(|a| self.atom(a)));
        ids.sort_unstable();
        ids.dedup();
        let hash = self.label_hasher.hash_one((b.dim, &ids[..]));
        let labels = &self.labels;
        if let Some(&id) = self.label_ids.find(hash, |&id| {
            let (dim, atoms) = &labels[id as usize];
            *dim == b.dim && atoms[..] == ids[..]
        }) {
            self.label_scratch = ids;
            return id;
        }
        let id = self.labels.len() as u32;
        *self.dim_labels.entry(b.dim).or_default() += 1;
        for &a in &ids {
            let labels = self.atom_labels.entry(a).or_default();
            if labels.len() <= POSTINGS {
                labels.push(id);
            }
            let p = self.postings.entry((b.dim, a)).or_default();
            p.labels.push(id);
            p.holders += 1;
        }
        self.labels.push((b.dim, ids[..].into()));
        self.label_numbers.push(LabelNumbers::default());
        self.label_facts.push(LabelFacts::default());
        self.label_texts.push(b.text.clone());
        let (labels, hasher) = (&self.labels, &self.label_hasher);
        self.label_ids.insert_unique(hash, id, |&id| {
            let (dim, atoms) = &labels[id as usize];
            hasher.hash_one((*dim, &atoms[..]))
        });
        self.label_scratch = ids;
        id
    }

    fn atom(&mut self, a: &str) -> u32 {
        if let Some(&id) = self.atoms.get(a) {
            return id;
        }
        let id = self.atoms.len() as u32;
        self.atoms.insert(a.into(), id);
        self.atom_names.push(a.into());
        id
    }

    /// The id of an atom the evidence knows.
    pub(crate) fn atom_id(&self, a: &str) -> Option<u32> {
        self.atoms.get(a).copied()
    }

    /// Whether the evidence holds `atom` as a label's number (`n:401e0`).
    /// A name and the value of the bare integer after it, as the index keeps them.
    fn name_key(&self, name: &str, value: Decimal) -> (u64, i128, i32) {
        let (m, e) = value.magnitude().canonical();
        (self.label_hasher.hash_one(name), m, e)
    }

    /// Whether the evidence writes this name with this number after it (`Kestrel 2400`).
    pub(crate) fn is_named(&self, name: &str, value: Decimal) -> bool {
        !self.names.is_empty() && self.names.contains(&self.name_key(name, value))
    }

    pub(crate) fn is_label_atom(&self, atom: &str) -> bool {
        self.label_atoms.contains(atom)
    }

    /// Whether the evidence writes this value only as a label, a year or an identifier.
    /// Whether a label of the evidence counts `noun` by `value` (`12 folios`).
    pub(crate) fn is_label_count(&self, value: Decimal, noun: &str) -> bool {
        !self.label_counts.is_empty()
            && self
                .label_counts
                .contains(&(value.magnitude().canonical(), noun_key(noun).into()))
    }

    pub(crate) fn is_label_value(&self, value: Decimal) -> bool {
        self.label_values.contains(&value.magnitude().canonical())
    }

    /// The decimal mark the evidence writes, when it clearly writes one: `Some(false)` for a
    /// comma.
    pub(crate) fn convention(&self) -> Option<bool> {
        let (comma, dot) = self.decimal_marks;
        if comma > 2 * dot {
            Some(false)
        } else if dot > 2 * comma {
            Some(true)
        } else {
            None
        }
    }

    /// Whether the evidence states `value` as a quantity.
    pub(crate) fn states(&self, value: Decimal) -> bool {
        self.exact.contains_key(&value.magnitude().canonical())
    }

    /// The counts the evidence writes right before a share equal to `share`, in its
    /// parenthesis (`9 (2,9 %)`: a table cell's count and its share), for an answer that pairs
    /// a count and a share the same way (`16 Patienten (2,9 %)`).
    pub(crate) fn share_partners(&self, share: Decimal) -> Vec<Decimal> {
        let mut out = Vec::new();
        // (Bounded: a share repeated in a thousand cells is asked of its first few.)
        for id in self.chain(share.magnitude().canonical()).take(64) {
            let n = &self.numbers[id as usize];
            let Place::Text { source, span } = &n.at else {
                continue;
            };
            if n.unit != Some("%") {
                continue;
            }
            let Some(before) = self.texts[*source as usize].get(..span.start) else {
                continue;
            };
            let Some(open) = before.trim_end().strip_suffix('(') else {
                continue;
            };
            let count_end = open.trim_end().len();
            // The number just before the parenthesis (not this one's other reading).
            for p in (id.saturating_sub(4)..id).rev() {
                let m = &self.numbers[p as usize];
                if let Place::Text {
                    source: s,
                    span: at,
                } = &m.at
                {
                    if s == source && at.end <= count_end {
                        if at.end == count_end && m.unit.is_none() {
                            out.push(m.value);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// Whether the evidence counts `word` (`staff` after `84`).
    pub(crate) fn counts(&self, word: &str) -> bool {
        self.count_nouns.contains(word)
    }

    /// Stores number `n` (`key`: its value, canonical); `looked_up`: it joins its value's
    /// chain (a repetition of an earlier judgement does not).
    fn insert(&mut self, n: EvidenceNumber, key: (i128, i32), looked_up: bool) {
        let id = self.numbers.len() as u32;
        self.keys.push(key);
        let head = if looked_up {
            self.exact.insert(key, id)
        } else {
            None
        };
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

    /// Looks up one reading of an answer's number: the same value (in a compatible unit, with
    /// an agreeing direction, bound compatibly), or a more precise one that rounds to it.
    /// `fraction_twin`: the claim is a percentage's fraction (or a fraction's percentage), so the
    /// evidence number must be a fraction (or a percentage).
    pub(crate) fn lookup(&self, claim: &Claim, twin: Twin) -> Lookup {
        let magnitude = claim.value.magnitude();
        let magnitude = if claim.approx {
            let (m, e) = magnitude.canonical();
            Decimal { mant: m, exp: e }
        } else {
            magnitude
        };
        let mut why = Miss::default();
        let key = magnitude.canonical();
        // A value stated many times (a report's `41.8 MPa` for a hundred samples): the numbers
        // of this value that the labels the answer names hold are judged first, so that the
        // claim's own is found without judging every other subject's.
        // The walk is bounded (`FIRST_LOOK`): past it, the chain of the value below finds the
        // rest.
        let mut first: Vec<u32> = Vec::new();
        let mut looked = 0usize;
        'atoms: for &Mention { atom, .. } in claim.context {
            let Some(labels) = self.atom_labels.get(&atom).filter(|l| l.len() <= POSTINGS) else {
                continue;
            };
            for &label in labels {
                let numbers = &self.label_numbers[label as usize];
                looked += numbers.len();
                for id in numbers.iter() {
                    if self.keys[id as usize] == key && !first.contains(&id) {
                        first.push(id);
                    }
                }
                if looked >= FIRST_LOOK || first.len() >= SAME_VALUE_CANDIDATES {
                    break 'atoms;
                }
            }
        }
        for &id in &first {
            if let Some(found) = self.judge(id, claim, twin, &mut why) {
                return found;
            }
        }
        for id in self.chain(key).take(SAME_VALUE_CANDIDATES) {
            if first.contains(&id) {
                continue;
            }
            if let Some(found) = self.judge(id, claim, twin, &mut why) {
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
            // (A rounding is of a number stated in the claim's unit: `4,7` of a review's score
            // is not rounded to `5 %`.)
            let n = &self.numbers[id as usize];
            if n.value.grounds(magnitude) && !(claim.unit == Some("%") && n.unit.is_none()) {
                if let Some(found) = self.judge(id, claim, twin, &mut why) {
                    return found;
                }
            }
        }
        if let Some(clash) = why.other_subject.take() {
            return Lookup::OtherSubject(clash);
        }
        if why.other_sign {
            return Lookup::OtherSign;
        }
        if why.other_unit {
            return Lookup::OtherUnit;
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
                .take(SAME_VALUE_CANDIDATES)
                .any(|id| self.numbers[id as usize].value.exp >= exp)
            {
                return Lookup::LessPrecise;
            }
        }
        Lookup::Absent
    }

    /// Whether evidence number `id` (of the answer's magnitude) grounds `claim`; else notes
    /// why not in `why`.
    fn judge(&self, id: u32, claim: &Claim, twin: Twin, why: &mut Miss) -> Option<Lookup> {
        let n = &self.numbers[id as usize];
        let unit_ok = match twin {
            Twin::No => {
                frame::units_per_agree((claim.unit, claim.per), (n.unit, n.per))
                    // A percentage is not its fraction's digits (`0.62%` is not `0.62`).
                    && !(claim.unit == Some("%") && n.unit.is_none() && n.fraction)
                    && !(claim.fraction && matches!(n.unit, Some("%" | "pp" | "pt")))
                    && !(claim.counted && n.unit.is_some())
                    && !(claim.name_digits && n.unit.is_none())
                    // Dozens are no count of the things (`2 400 douzaines` is not `2 400
                    // huîtres`).
                    && !(n.unit == Some("doz") && claim.unit.is_none() && claim.noun)
            }
            Twin::FractionOfPercent => n.unit.is_none() && n.fraction,
            Twin::PercentOfFraction => n.unit == Some("%"),
        };
        if !unit_ok {
            why.other_unit = true;
            return None;
        }
        if !claim.polarity.agrees(n.polarity) {
            why.other_sign = true;
            return None;
        }
        // (A part's number is no statistic of the parts: `the three specimens averaged 505
        // MPa` against `T1–T3: 512, 498, 505 MPa`.)
        if let Some(stat) = claim.parts {
            let stated = self.atom_id(stat).is_some_and(|s| {
                self.groups[n.groups.start as usize..n.groups.end as usize]
                    .iter()
                    .any(|&l| self.labels[l as usize].1.binary_search(&s).is_ok())
            });
            if !stated {
                why.other_subject.get_or_insert(Clash {
                    ours: stat.trim_start_matches("w:~").to_string(),
                    theirs: String::new(),
                });
                return None;
            }
        }
        // (One period's value is no average over the periods: `una media de 150 visitantes
        // por día` against `lunes: 120; martes: 150; miércoles: 180`.)
        if let Some(period) = claim.period_parts {
            let labels = &self.groups[n.groups.start as usize..n.groups.end as usize];
            let stated = self.atom_id("w:~avg").is_some_and(|s| {
                labels
                    .iter()
                    .any(|&l| self.labels[l as usize].1.binary_search(&s).is_ok())
            });
            // (A period of the kind averaged over, that the answer does not name: `Februar`
            // above a list of daily yields is the month they are of, not a day.)
            let kinds: &[&str] = match period {
                "d" => &["wd:", "d:", "md:"],
                "wk" => &["wk:"],
                _ => &["m:"],
            };
            let of_a_period = labels.iter().any(|&l| {
                self.labels[l as usize].1.iter().any(|&a| {
                    let name = &self.atom_names[a as usize];
                    kinds.iter().any(|p| name.starts_with(p))
                        && !claim.context.iter().any(|m| m.atom == a)
                })
            });
            if !stated && of_a_period {
                why.other_subject.get_or_insert(Clash {
                    ours: "avg".to_string(),
                    theirs: String::new(),
                });
                return None;
            }
        }
        let clash = self
            .conflict(
                n,
                claim.context,
                (claim.unit, claim.per, claim.fraction),
                claim.polarity,
            )
            .or_else(|| self.exclusive_conflict(n, claim.exclusive, claim.context))
            .or_else(|| self.unconditioned(n, claim.context));
        if let Some(clash) = clash {
            why.other_subject.get_or_insert(clash);
            return None;
        }
        Some(Lookup::Found(id))
    }

    /// Whether the answer binds its number to another label than evidence number `n`'s, in any
    /// of `n`'s dimensions: the answer's words around the number match an alternative label
    /// (another row, another year, another key) better than `n`'s own. A label's match is the
    /// sum of the weights of the answer's atoms it holds (`19 April 2024` matches a label
    /// `19.04.2024` by its date, month and year; a label `2023-04-21` by its month alone).
    fn conflict(
        &self,
        n: &EvidenceNumber,
        context: &[Mention],
        claim_unit: (Option<&str>, Option<&str>, bool),
        polarity: Polarity,
    ) -> Option<Clash> {
        if context.is_empty() {
            return None;
        }
        for &label in &self.groups[n.groups.start as usize..n.groups.end as usize] {
            let (dim, own_atoms) = &self.labels[label as usize];
            let total = self.dim_labels.get(dim).copied().unwrap_or(0);
            if total < 2 {
                continue;
            }
            // The answer's mentions this dimension knows: each mention's atoms here (a date is
            // its day, month and year), and its weight.
            // The families of atoms the number's own label has: a label that states no month
            // is not contradicted by the answer's month (`OTIF de março: 91,6%` / `Avarias:
            // 0,3%` against `Em março … as avarias afetaram 0,3%`).
            let families = own_atoms
                .iter()
                .fold(0u8, |f, &a| f | family(&self.atom_names[a as usize]));
            let mut mentions: Vec<(u32, f32, Vec<u32>, Reach)> = Vec::new();
            for &Mention {
                atom,
                weight: w,
                mention,
                reach,
            } in context
            {
                let holders = self.postings.get(&(*dim, atom)).map_or(0, |p| p.holders);
                if holders == 0 || holders == total {
                    continue;
                }
                match mentions.iter_mut().find(|(m, ..)| *m == mention) {
                    Some((_, mw, atoms, _)) => {
                        *mw = mw.max(w);
                        atoms.push(atom);
                    }
                    None => mentions.push((mention, w, vec![atom], reach)),
                }
            }
            if mentions.is_empty() {
                continue;
            }
            // A label's score: for each mention, its weight times the share of its atoms the
            // label holds (`19 April 2024` is all of `19.04.2024` and a quarter of `2024-09-28`).
            // Of a mention, only the atoms that tell the two labels apart count: `12/04/2025`
            // against rows dated 2025-04-12 and 2025-04-19 is all of the first's day, though
            // both hold its month and year.
            let score = |holds: &dyn Fn(u32) -> bool,
                         shared: &dyn Fn(u32) -> bool,
                         reaches: &[Reach]|
             -> f32 {
                mentions
                    .iter()
                    .filter(|m| reaches.contains(&m.3))
                    .map(|(_, w, atoms, _)| {
                        let held = atoms.iter().filter(|a| holds(**a)).count();
                        let apart = atoms.iter().filter(|a| !shared(**a)).count().max(1);
                        w * held as f32 / apart as f32
                    })
                    .sum()
            };
            // An alternative contradicts the number's label only in the families of atoms
            // that label has.
            // (A statistic, `média`, `max`, tells two labels apart whatever else the number's
            // own states, `2º tri: 4.480` is no average of the quarters; unless another of its
            // labels states it, `tiempo_medio_min` over the row `agosto`.)
            let like = |a: u32| {
                let name = &self.atom_names[a as usize];
                family(name) & families != 0
                    || name.starts_with("w:~")
                        && !self.groups[n.groups.start as usize..n.groups.end as usize]
                            .iter()
                            .any(|&l| self.labels[l as usize].1.binary_search(&a).is_ok())
            };
            let mut candidates: Vec<u32> = Vec::new();
            for (_, _, atoms, _) in &mentions {
                for a in atoms {
                    let Some(posting) = self.postings.get(&(*dim, *a)) else {
                        continue;
                    };
                    if posting.holders as usize > POSTINGS {
                        continue;
                    }
                    for other in posting.labels.iter() {
                        if other != label && !candidates.contains(&other) {
                            candidates.push(other);
                        }
                    }
                }
            }
            // A claim without a unit may be of any measure.
            let measure = match claim_unit {
                (None, _, false) => None,
                (u, per, fraction) => Some(measure_of(u, per, fraction)),
            };
            // A clause's words bind softly: their alternative must be named clearly.
            // A table's rows are named plainly: a fainter mention of another row's name than
            // a prose label's, an earlier clause's subject (`La piscina de Moratalaz, con 3
            // vasos …, y el agua se mantuvo de media a 26,9 °C`), tells them apart.
            let (mention, dominant) = if self.soft_dims.contains(dim) {
                (2.0 * MENTION, 2.0 * DOMINANT)
            } else if self.row_dims.contains(dim) {
                (ROW_MENTION, DOMINANT)
            } else {
                (MENTION, DOMINANT)
            };
            // Against each alternative, only what tells the two apart counts: the answer names
            // what the alternative has and the number's own label lacks (`avanço físico` against
            // `avanço financeiro`), and names what its own label has and the alternative lacks
            // not at all, or far less.
            let own_has = |a: u32| own_atoms.binary_search(&a).is_ok();
            let clash = candidates
                .iter()
                .filter(|&&other| {
                    // Numbers without a unit may be of the claim's measure (a JSON key's).
                    let has = |m| self.label_measures.contains(&(other, m));
                    match measure {
                        // A claim without a unit (`avec 11 200 salariés`) is not a label's
                        // that states only money (`chiffre d'affaires : 3 400 M€`).
                        None => {
                            let facts = self.label_facts[other as usize];
                            facts.numbers && facts.not_money
                        }
                        // (A claim per a unit the evidence states once, in its caption: `8,4 t
                        // por hectárea` against `por hectárea: 6,1 t (cebada)`.)
                        // (Unitless numbers only when the number found states no unit either:
                        // a `temp_C` column's `31 °C` is not a `pH` column's.)
                        Some(m) => {
                            has(m)
                                || (n.unit.is_none() || !physical(claim_unit.0))
                                    && has(measure_of(None, None, false))
                                || claim_unit.1.is_some()
                                    && has(measure_of(claim_unit.0, None, claim_unit.2))
                        }
                    }
                })
                .filter_map(|&other| {
                    let atoms = &self.labels[other as usize].1;
                    let alt_has = |a: u32| atoms.binary_search(&a).is_ok();
                    let shared = |a: u32| own_has(a) && alt_has(a);
                    // What the number's own clause names decides over what an earlier clause
                    // named (`für Pkw 11,50 €, Lkw zahlen 88,70 €`): when the own clause tells
                    // this label and the alternative apart, carried words do not count.
                    // Either way: the own clause naming the alternative against this label
                    // before the number (`… de 88,5 % e disponibilidade de 88,5 %`) is not
                    // outweighed by the subject an earlier clause named; a word after it is
                    // what it counts (`655 quarantined emails`), too weak to overrule alone.
                    // A loss named in the own clause (`… e prejuízo de R$ 2,3 milhões`) tells
                    // the number apart from a label that states no negative number
                    // (`Receita líquida: 184.220`), whatever an earlier clause named.
                    let loss_apart = polarity == Polarity::MinusWord
                        && !self.label_facts[other as usize].negative;
                    let near = loss_apart
                        || score(
                            &|a| own_has(a) && !alt_has(a),
                            &shared,
                            &[Reach::Own, Reach::After],
                        ) >= MENTION
                        || score(
                            &|a| like(a) && alt_has(a) && !own_has(a),
                            &shared,
                            &[Reach::Own],
                        ) >= MENTION;
                    let reaches: &[Reach] = if near {
                        &[Reach::Own, Reach::After]
                    } else {
                        &[Reach::Own, Reach::After, Reach::Carried]
                    };
                    let theirs_only =
                        score(&|a| like(a) && alt_has(a) && !own_has(a), &shared, reaches);
                    let own_only = score(&|a| own_has(a) && !alt_has(a), &shared, reaches);
                    // A total the answer names in the number's own clause, that the
                    // alternative states and none of the number's labels does, decides alone:
                    // a total is no part's (`together handled 8,412 washes` against `Tunnel
                    // wash: 8,412 … Total: 11,602`).
                    let statistic = score(
                        &|a| {
                            &*self.atom_names[a as usize] == TOTAL
                                && alt_has(a)
                                && !own_has(a)
                                && like(a)
                        },
                        &shared,
                        &[Reach::Own, Reach::After],
                    );
                    (theirs_only >= mention && theirs_only > 0.15 + dominant * own_only
                        || statistic >= MENTION)
                        .then_some((theirs_only, other))
                })
                .fold(None, |b: Option<(f32, u32)>, x| match b {
                    Some(b) if b.0 >= x.0 => Some(b),
                    _ => Some(x),
                });
            if let Some((_, other)) = clash {
                return Some(Clash {
                    ours: self.label_text(other),
                    theirs: self.label_text(label),
                });
            }
        }
        None
    }

    /// Whether the answer states its number under a condition (`older than 90 days`, `at
    /// 120 °C`, in its own clause) that the evidence gives other numbers and not this one:
    /// `1,940 claims, of which 377 were older than 90 days` does not ground `claims older than
    /// 90 days numbered 1,940`.
    fn unconditioned(&self, n: &EvidenceNumber, context: &[Mention]) -> Option<Clash> {
        for m in context.iter().filter(|m| m.weight >= 0.6) {
            let name = &*self.atom_names[m.atom as usize];
            let Some((_, unit)) = name.strip_prefix("n:").and_then(|v| v.split_once('|')) else {
                continue;
            };
            // (Not a number of the condition's own measure: `25` of `até 25 km`, a range's
            // other end.)
            if !super::layout::CONDITION_UNITS.contains(&unit)
                || n.unit == Some(unit)
                || self.atom_labels.get(&m.atom).is_none_or(|l| l.is_empty())
            {
                continue;
            }
            let own = self.groups[n.groups.start as usize..n.groups.end as usize]
                .iter()
                .flat_map(|&label| self.labels[label as usize].1.iter())
                .any(|&a| {
                    self.atom_names[a as usize]
                        .strip_prefix("n:")
                        .and_then(|v| v.split_once('|'))
                        .is_some_and(|(_, u)| u == unit)
                });
            if !own {
                return Some(Clash {
                    ours: atom_text(name),
                    theirs: String::new(),
                });
            }
        }
        None
    }

    /// A label as written, or its atoms where it has no one text.
    fn label_text(&self, label: u32) -> String {
        match self.label_texts.get(label as usize) {
            Some(Some(t)) if !t.is_empty() => t.to_string(),
            _ => self
                .labels
                .get(label as usize)
                .map_or_else(String::new, |(_, atoms)| {
                    atoms
                        .iter()
                        .map(|&a| atom_text(&self.atom_names[a as usize]))
                        .collect::<Vec<_>>()
                        .join(" ")
                }),
        }
    }

    /// Whether the answer gives its number a period or a numbered thing that excludes the
    /// evidence number's (`In 2021 … 41.8 MPa` against `the 2019 cohort: 41.8 MPa`; `batch 13`
    /// against `Batch 12`), even where the evidence names no alternative.
    fn exclusive_conflict(
        &self,
        n: &EvidenceNumber,
        exclusive: &[(super::layout::Atom, f32)],
        context: &[Mention],
    ) -> Option<Clash> {
        if exclusive.is_empty() {
            return None;
        }
        let mut own: Vec<&str> = Vec::new();
        // The periods and things a title over the number names (`Q3 2024 production summary`).
        let mut titled: Vec<&str> = Vec::new();
        // How strongly the answer names a code of the number's own (`C1` of the row `C1 |
        // Cabernet | … | 2024-10-01`): a period named less strongly is not its.
        let mut own_code = 0f32;
        for &label in &self.groups[n.groups.start as usize..n.groups.end as usize] {
            if self.title_dims.contains(&self.labels[label as usize].0) {
                titled.extend(
                    self.labels[label as usize]
                        .1
                        .iter()
                        .map(|&a| &*self.atom_names[a as usize])
                        .filter(|name| exclusive_kind(name).is_some()),
                );
                continue;
            }
            for &a in self.labels[label as usize].1.iter() {
                let name = &*self.atom_names[a as usize];
                if exclusive_kind(name).is_some() {
                    own.push(name);
                }
                if name.starts_with("c:") {
                    for m in context.iter().filter(|m| m.atom == a) {
                        own_code = own_code.max(m.weight);
                    }
                }
            }
        }
        if own.is_empty() {
            return None;
        }
        for (kind, _) in exclusive
            .iter()
            .filter_map(|(a, _)| exclusive_kind(a).map(|k| (k, ())))
        {
            if !own.iter().any(|o| exclusive_kind(o) == Some(kind)) {
                continue;
            }
            let (mut own_w, mut alt_w, mut alt) = (0f32, 0f32, "");
            for (a, w) in exclusive
                .iter()
                .filter(|(a, _)| exclusive_kind(a) == Some(kind))
            {
                if own.contains(&a.as_str()) {
                    own_w = own_w.max(*w);
                } else if *w > alt_w {
                    alt_w = *w;
                    alt = a;
                }
            }
            // A number whose own period differs from its title's (`(Q2: 12,950)` under `Q3 2024
            // production summary`) is the exception: an answer that names the title's period,
            // even in an earlier sentence, and never the number's, means the title's.
            let title_period = own_w == 0.0 && alt_w > 0.0 && titled.contains(&alt);
            if (alt_w >= MENTION && alt_w > 0.15 + DOMINANT * own_w || title_period)
                && alt_w > own_code
            {
                let theirs = own
                    .iter()
                    .find(|o| exclusive_kind(o) == Some(kind))
                    .map_or_else(String::new, |o| atom_text(o));
                return Some(Clash {
                    ours: atom_text(alt),
                    theirs,
                });
            }
        }
        None
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

/// The family of an atom, a bit: words, codes, times (a date, a month, a year), quarters and
/// weeks, numbers (a condition, a named number), numbered things.
fn family(atom: &str) -> u8 {
    match atom.split_once(':').map_or("", |(k, _)| k) {
        "w" => 1,
        "c" => 2,
        "d" | "dd" | "dm" | "md" | "m" | "y" | "wd" | "sn" => 4,
        "q" | "wk" => 8,
        "n" => 16,
        "r" => 32,
        _ => 64,
    }
}

/// A unit of a physical measure (`°C`, `m/s`, `m³`): not a share, a count's or money's, whose
/// numbers a table often writes bare beside others of theirs.
fn physical(unit: Option<&str>) -> bool {
    unit.map(|u| u.split('/').next().unwrap_or(u))
        .is_some_and(super::words::is_measure)
}

/// An atom as a reader would write it: `y:2021` → `2021`, `q:3` → `Q3`, `w:porto` → `porto`.
fn atom_text(atom: &str) -> String {
    let (kind, v) = atom.split_once(':').unwrap_or(("", atom));
    match kind {
        "q" => format!("Q{v}"),
        "wk" => format!("week {v}"),
        "m" => format!("month {v}"),
        "r" => v.replace(':', " ").replace("e0", ""),
        "n" => v.split('|').next().unwrap_or(v).replace("e0", ""),
        _ => v.to_string(),
    }
}

/// The key of a measure (a unit and what it is per; a percentage and a fraction are one
/// measure, and so are percentage points): which numbers a label can be another subject for.
fn measure_of(unit: Option<&str>, per: Option<&str>, fraction: bool) -> u64 {
    let unit = match unit {
        Some("%") | None if fraction => Some("%"),
        Some("pt") => Some("pp"),
        u => u,
    };
    // One measure however written: `kg/ha` is `kg` per `ha`.
    let (unit, per) = match (unit, per) {
        (Some(u), None) if u.len() > 1 && u.contains('/') => {
            let (a, b) = u.split_once('/').unwrap_or((u, ""));
            (Some(a), Some(b))
        }
        other => other,
    };
    // FNV-1a: called for every number, on a few bytes; a keyed hash costs more than it protects.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in [unit, per] {
        let tag = [part.is_some() as u8, 0xff];
        for &b in part.unwrap_or("").as_bytes().iter().chain(&tag) {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The kind of an exclusive atom: years exclude years, quarters quarters, a batch's number
/// another batch's (`r:batch:12e0` and `r:batch:13e0` are of kind `r:batch`).
/// The measures one condition of excludes another of (see [`exclusive_kind`]).
const EXCLUSIVE_CONDITIONS: &[&str] = &[
    "°C", "°F", "K", "h", "min", "d", "wk", "mo", "yr", "km/h", "mph", "m/s", "kn", "mg", "mg/kg",
    "µg", "µg/kg", "bar", "rpm", "kV",
];

/// A counted noun as compared: folded, without a plural's `s` (`folios`, `Folio`).
fn noun_key(noun: &str) -> String {
    let folded = super::words::fold(noun);
    folded.trim_end_matches('s').to_string()
}

pub(crate) fn exclusive_kind(atom: &str) -> Option<&str> {
    let (kind, rest) = atom.split_once(':')?;
    match kind {
        "y" | "q" | "wk" | "d" | "sn" => Some(kind),
        // A condition of a measure experiments are run under (`n:18e0|°C`, `n:28e0|d`): one
        // temperature, duration, speed, dose or pressure excludes another. (Not a length, a
        // mass or a volume: those are as often the values a sentence states beside another,
        // `with 112.8 mm over 18 rain days`.)
        "n" => rest
            .split_once('|')
            .filter(|(_, unit)| EXCLUSIVE_CONDITIONS.contains(unit))
            .map(|(value, _)| &atom[2 + value.len()..]),
        "r" => rest
            .split_once(':')
            .map(|(noun, _)| &atom[..2 + noun.len()]),
        _ => None,
    }
}

/// Whether a lookup asks for a percentage's other form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Twin {
    No,
    /// The answer's percentage, asked as a fraction (`62%` → `0.62`).
    FractionOfPercent,
    /// The answer's fraction, asked as a percentage (`0.916` → `91.6%`).
    PercentOfFraction,
}

/// Why the candidates of one lookup did not ground the answer.
#[derive(Default)]
struct Miss {
    other_subject: Option<Clash>,
    other_unit: bool,
    other_sign: bool,
}

fn substance(text: &str) -> usize {
    text.bytes().filter(|b| !b.is_ascii_whitespace()).count()
}

/// For the answer's reader: what the evidence knows of labels and counted words.
impl Evidence {
    pub(crate) fn frame_of_claim<'c>(
        &self,
        frame: &Frame,
        context: &'c [Mention],
        exclusive: &'c [(super::layout::Atom, f32)],
        noun: Option<&str>,
    ) -> Claim<'c> {
        Claim {
            counted: frame.unit.is_none() && noun.is_some_and(|w| self.counts(w)),
            noun: frame.unit.is_none()
                && noun.is_some_and(|w| {
                    w.chars().count() > 2 && super::words::flags(w) & super::words::flag::STOP == 0
                }),
            name_digits: false,
            parts: None,
            period_parts: None,
            exclusive,
            value: frame.readings.first(),
            unit: frame.unit,
            per: frame.per,
            polarity: frame.polarity,
            fraction: frame.fraction,
            context,
            approx: frame.approx,
        }
    }
}

//! Number extraction: every number a text states, with its span, its value(s), its unit, its
//! sign or direction, the subject it belongs to, and whether it is a quantity at all (a year, a
//! date, a list marker, a label, a version are not).
//!
//! One forward pass: each number is read once with its context (sign, currency, unit) within a
//! few bytes of it, and each word once, as the pass meets it ([`super::words`]): the words keep
//! the state every later number asks (the clause's subject, a loss just named, a label before
//! it). Extraction is linear in the text.

use super::decimal::Decimal;
use super::options::{Locale, SmallCounts, Years};
use super::subject::{Subject, MANY};
use super::words::{self, Kind, Plural, Word};
use std::ops::Range;

/// A number found in a text.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The whole token: sign, currency, digits, unit.
    pub span: Range<usize>,
    /// One reading, or two when the decimal mark is ambiguous (`1,234` en or pt).
    pub readings: Readings,
    /// The unit, currency or `%`, normalised (`ºC` → `°C`, `R$` → `BRL`).
    pub unit: Option<&'static str>,
    pub class: Class,
    /// Its sign, or the direction a word gives it (`a loss of $340,000`).
    pub polarity: Polarity,
    /// The subject the text binds it to (`Variant B: 44.2 MPa`, `$5.1M in 2023`).
    pub subject: Subject,
    /// Which decimal mark its spelling proves the text uses.
    proves: Proves,
}

/// The value(s) a token can mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Readings {
    One(Decimal),
    /// `(dot-decimal reading, comma-decimal reading)`: the locale is `auto`, both are valid,
    /// and the text's other numbers do not show its convention.
    Ambiguous(Decimal, Decimal),
}

impl Readings {
    pub fn iter(self) -> impl Iterator<Item = Decimal> {
        let (a, b) = match self {
            Readings::One(a) => (a, None),
            Readings::Ambiguous(a, b) => (a, Some(b)),
        };
        std::iter::once(a).chain(b)
    }

    fn map(self, f: impl Fn(Decimal) -> Decimal) -> Readings {
        match self {
            Readings::One(d) => Readings::One(f(d)),
            Readings::Ambiguous(a, b) => Readings::Ambiguous(f(a), f(b)),
        }
    }
}

/// A number's direction: what its sign says, or the words before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Polarity {
    /// No sign, no direction word.
    #[default]
    Neutral,
    /// `+3.2%`, `a profit of`, `rose`.
    Plus,
    /// `−$340,000`, `-3.5 kg`.
    MinusSign,
    /// `a loss of $340,000`, `fell 3.2%` (the number itself is written unsigned).
    MinusWord,
}

impl Polarity {
    /// Whether an answer's number of this direction can be grounded by an evidence number of
    /// `evidence`'s (their magnitudes equal): a minus sign never meets an unsigned number, a
    /// loss never meets a gain; a direction word meets an unsigned number (`fell 3.2%` and
    /// `3.2%` state the same change).
    pub fn agrees(self, evidence: Polarity) -> bool {
        use Polarity::*;
        !matches!(
            (self, evidence),
            (MinusSign, Neutral)
                | (Neutral, MinusSign)
                | (Plus, MinusSign | MinusWord)
                | (MinusSign | MinusWord, Plus)
        )
    }
}

/// The decimal mark a number's spelling proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Proves {
    #[default]
    Nothing,
    /// `41.8`, `1,234.5`, `1,234,567`.
    DotDecimal,
    /// `41,8`, `1.234,5`, `1.234.567`.
    CommaDecimal,
}

/// What a number is, for the trivial-number rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    /// A quantity: it must be grounded.
    Quantity,
    /// Skipped, and why.
    Trivial(Trivial),
}

/// Why a number is not checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trivial {
    ListMarker,
    SmallCount,
    Year,
    Date,
    Time,
    /// Part of a name: `ISO-9001`, `v2`, `H2O`, `#3`.
    Identifier,
    Ordinal,
    /// Numbers a label, a reference or a subject: `Table 45`, `Figure 3`, `Specimen 12`.
    Label,
}

/// The rule that decides what is trivial (answers only: evidence keeps every number).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    pub small_counts: SmallCounts,
    pub years: Years,
}

/// A separator between digit groups, and where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Dot,
    Comma,
    /// A space inside a number: NBSP, narrow NBSP or thin space (and a plain space in `fr`).
    Space,
}

const MAX_SEPS: usize = 12;
/// Words back from a number within which a direction word gives it its direction.
const CUE_REACH: u32 = 6;
/// Words (connectors only) after a number within which a subject named is its own
/// (`$5.1M in 2023`, `44.2 MPa for variant B`).
const POSTPOSED_REACH: u32 = 2;

/// Appends every number in `text` to `out`. `rule` marks trivial numbers (`None`: evidence,
/// everything is a quantity but dates, names and labels). `base` is the subject the text sits
/// under (a JSON object's, a table row's).
pub(crate) fn scan(
    text: &str,
    locale: Locale,
    rule: Option<Rule>,
    base: Subject,
    out: &mut Vec<Found>,
) {
    let mut cx = Context::new(base);
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            i = read(text, i, locale, rule, &mut cx, out);
            continue;
        }
        if c.is_ascii_alphabetic() || c >= 0xC3 {
            let end = word_end(text, i);
            if end > i {
                cx.word(text, i, end, out);
                i = end;
                continue;
            }
        }
        match c {
            b'\n' => cx.line_break(i + 1),
            b';' | b'!' | b'?' => cx.clause_break(),
            // `Fig. 3`, `Nr. 12`: an abbreviation's dot ends no sentence.
            b'.' if b.get(i + 1).is_none_or(|n| n.is_ascii_whitespace())
                && !cx
                    .prev
                    .is_some_and(|(w, end)| end == i && (w.label || w.kind.is_some())) =>
            {
                cx.clause_break();
            }
            // `41.8 MPa, B 44.2 MPa`: what follows a comma is not the number's before it.
            // A direction word does not reach past a comma either (`despite the loss of
            // two clients, revenue reached $5.1M`).
            b',' => {
                cx.after_comma = true;
                cx.after_number = None;
                cx.negative_at = None;
                cx.positive_at = None;
            }
            _ => {}
        }
        i += if c < 0x80 {
            1
        } else {
            text[i..].chars().next().map_or(1, char::len_utf8)
        };
    }
}

/// Where the word starting at `s` ends: letters (and `'`-free marks like `º`); `s` itself when
/// no letter starts there.
fn word_end(text: &str, s: usize) -> usize {
    let b = text.as_bytes();
    let mut end = s;
    while end < b.len() && b[end].is_ascii_alphabetic() {
        end += 1;
    }
    if end == b.len() || b[end] < 0x80 {
        return end;
    }
    let ascii_end = end;
    for (k, c) in text[ascii_end..].char_indices() {
        if c.is_alphabetic() {
            end = ascii_end + k + c.len_utf8();
        } else {
            break;
        }
    }
    end
}

/// In `auto`, a text shows its decimal mark through its unambiguous numbers: when they all
/// show one convention, its ambiguous numbers are read by it (`1.234 kg` in a text that also
/// writes `3.5%` is 1.234).
pub(crate) fn settle(found: &mut [Found]) {
    let (mut dot, mut comma) = (false, false);
    for f in found.iter() {
        match f.proves {
            Proves::DotDecimal => dot = true,
            Proves::CommaDecimal => comma = true,
            Proves::Nothing => {}
        }
    }
    if dot == comma {
        return;
    }
    for f in found.iter_mut() {
        if let Readings::Ambiguous(d, c) = f.readings {
            f.readings = Readings::One(if dot { d } else { c });
        }
    }
}

/// What the words passed so far say about the next number: the scan's memory. Everything in
/// it is a few words old at most, or a subject in force (clause, line, section).
struct Context {
    base: Subject,
    /// Subjects named in this clause, on this line's label, under this heading.
    clause: Subject,
    line: Subject,
    section: Subject,
    line_start: usize,
    /// Words since the clause began; where the last direction words were.
    clause_words: u32,
    negative_at: Option<u32>,
    positive_at: Option<u32>,
    /// The previous word and where it ended.
    prev: Option<(Word, usize)>,
    /// A kind word waiting for its code (`Variant` before `B`), where its word started and
    /// ended.
    kind_pending: Option<(Kind, usize, usize)>,
    /// The last kind named in this sentence (`Variant A …, B …`: `B` is a variant).
    sentence_kind: Option<Kind>,
    after_comma: bool,
    after_conjunction: bool,
    /// The last number (its index in the output), the words since it, and whether they were
    /// only connectors: a subject or direction named right after it is its own.
    after_number: Option<(usize, u32, bool)>,
}

impl Context {
    fn new(base: Subject) -> Self {
        Context {
            base,
            clause: Subject::default(),
            line: Subject::default(),
            section: Subject::default(),
            line_start: 0,
            clause_words: 0,
            negative_at: None,
            positive_at: None,
            prev: None,
            kind_pending: None,
            sentence_kind: None,
            after_comma: false,
            after_conjunction: false,
            after_number: None,
        }
    }

    fn clause_break(&mut self) {
        self.passed();
        self.clause = Subject::default();
        self.clause_words = 0;
        self.negative_at = None;
        self.positive_at = None;
        self.sentence_kind = None;
    }

    fn line_break(&mut self, next: usize) {
        self.clause_break();
        self.line = Subject::default();
        self.line_start = next;
    }

    /// The subject in force here: the clause's, else the line's label, else the heading's,
    /// else the caller's.
    fn subject(&self) -> Subject {
        self.clause
            .over(self.line)
            .over(self.section)
            .over(self.base)
    }

    /// The direction the words just before a number give it.
    fn polarity(&self) -> Polarity {
        let near = |at: Option<u32>| at.filter(|&a| self.clause_words - a <= CUE_REACH);
        match (near(self.negative_at), near(self.positive_at)) {
            (Some(n), Some(p)) if p > n => Polarity::Plus,
            (Some(_), _) => Polarity::MinusWord,
            (None, Some(_)) => Polarity::Plus,
            (None, None) => Polarity::Neutral,
        }
    }

    /// The previous word, when only blanks (or `#`) separate it from `s`.
    fn adjacent_word(&self, text: &str, s: usize) -> Option<Word> {
        let (w, end) = self.prev?;
        let gap = text.get(end..s)?;
        (gap.len() <= 4 && gap.chars().all(|c| c.is_whitespace() || c == '#')).then_some(w)
    }

    /// The kind word waiting right before `s` (blanks, `#`, `nº` or `Nr.` between).
    fn pending_kind(&self, text: &str, s: usize) -> Option<(Kind, usize)> {
        let (kind, start, end) = self.kind_pending?;
        let gap = text.get(end..s)?;
        let gap = gap.trim_start();
        let ok = gap.len() <= 8
            && gap
                .trim_start_matches(['n', 'N'])
                .trim_start_matches(['º', '°', 'o', 'r', '.', '#'])
                .trim()
                .is_empty();
        ok.then_some((kind, start))
    }

    fn word(&mut self, text: &str, s: usize, e: usize, out: &mut [Found]) {
        let word = &text[s..e];
        let info = words::lookup(word);
        // The common word: no table holds it and nothing waits for one.
        if info.is_none()
            && e - s > 1
            && self.kind_pending.is_none()
            && self.after_number.is_none()
            && !self.after_comma
            && !self.after_conjunction
        {
            self.clause_words += 1;
            self.prev = Some((Word::default(), e));
            return;
        }
        let info = info.unwrap_or_default();
        // A code right after a kind word is a subject (`Variant B`, `amostra A`); after a
        // comma or a conjunction, in a sentence that named a kind, a bare code is one of that
        // kind (`Variant A …, B …`).
        let code = is_code(text, s, e);
        // Right after a kind word, a capitalised name is a code too (`Site North`).
        let named = (2..=12).contains(&word.len())
            && !text[e..].starts_with(|c: char| c.is_alphanumeric())
            && word.as_bytes()[0].is_ascii_uppercase()
            && word.as_bytes()[1..].iter().all(u8::is_ascii_lowercase);
        if let (Some((kind, start)), true) = (self.pending_kind(text, s), code || named) {
            if let Some(id) = super::subject::pack(word) {
                self.mention(text, kind, id, start, e, out);
            }
        } else if code
            && (self.after_comma || self.after_conjunction)
            && word.bytes().all(|c| c.is_ascii_uppercase())
        {
            if let Some(kind) = self.sentence_kind {
                let followed = text[e..].trim_start_matches(' ');
                let clear = followed.starts_with(|c: char| c.is_ascii_digit() || c == ':')
                    || followed.starts_with("'s")
                    || followed.starts_with("’s");
                // Mid-sentence, an article is written in lower case; `I` may be the pronoun.
                let vowel = matches!(word, "I" | "a" | "e" | "o" | "y");
                match super::subject::pack(word) {
                    Some(id) if clear || !vowel => self.mention(text, kind, id, s, e, out),
                    // `…, A reached`: the article or the variant; bound to neither.
                    _ => self.clause.set(kind, MANY),
                }
            }
        }
        if info.conjunction {
            self.clause = Subject::default();
            self.after_conjunction = true;
        } else {
            self.after_conjunction = false;
        }
        self.after_comma = false;
        if let Some((kind, plural)) = info.kind {
            if plural == Plural::Many {
                // `Variants A and B reached 41.8 and 44.2 MPa`: bound to neither.
                self.clause.set(kind, MANY);
                self.kind_pending = None;
            } else {
                self.kind_pending = Some((kind, s, e));
            }
            self.sentence_kind = Some(kind);
        } else if !((info.label || glued_to_digits(text, e)) && self.kind_pending.is_some()) {
            // `amostra nº 12` keeps the kind waiting over `nº`; `Variant V4`, `lote L-07`
            // over the code's letters.
            self.kind_pending = None;
        }
        if info.negative {
            self.negative_at = Some(self.clause_words);
        }
        if info.positive {
            self.positive_at = Some(self.clause_words);
        }
        if let Some((at, n, connectors)) = self.after_number {
            let n = n + 1;
            // `$340,000 loss`, `340.000 € de prejuízo`: a direction right after a number.
            if connectors && n <= POSTPOSED_REACH && (info.negative || info.positive) {
                if let Some(f) = out.get_mut(at) {
                    if f.polarity == Polarity::Neutral {
                        f.polarity = if info.negative {
                            Polarity::MinusWord
                        } else {
                            Polarity::Plus
                        };
                    }
                }
            }
            // `1,580 units in 2022`: what the number counts stands between it and its subject.
            let n = if info.count_noun && n == 1 { 0 } else { n };
            let connectors = connectors && (info.connector || info.kind.is_some() || n == 0);
            self.after_number = (n <= POSTPOSED_REACH).then_some((at, n, connectors));
        }
        self.clause_words += 1;
        self.prev = Some((info, e));
    }

    /// A subject named at `start..end`: in force for the rest of the clause; a line's label
    /// when it opens a line and a `:` or a dash follows; a heading's when it is the whole line;
    /// the number just before's when only connectors separate them.
    fn mention(
        &mut self,
        text: &str,
        kind: Kind,
        id: super::subject::Id,
        start: usize,
        end: usize,
        out: &mut [Found],
    ) {
        self.mention_at(kind, id, start, out);
        self.kind_pending = None;
        self.sentence_kind = Some(kind)
            .filter(|k| *k != Kind::Year)
            .or(self.sentence_kind);
        let opens_line = start >= self.line_start
            && start - self.line_start <= 16
            && text[self.line_start..start]
                .chars()
                .all(|c| c.is_whitespace() || matches!(c, '-' | '*' | '•' | '#' | '>' | '_'));
        if !opens_line {
            return;
        }
        let rest = text[end..].trim_start_matches([' ', '*', '_', '\t']);
        if rest.starts_with([':', '-', '–', '—', ')', '|', '=']) {
            self.line.set(kind, id);
        }
        let rest = rest.trim_start_matches([':', '*', '_', '#', ' ', '\t', '\r']);
        if rest.is_empty() || rest.starts_with('\n') {
            self.section.set(kind, id);
        }
    }

    /// A number that is no quantity was passed: nothing after it is its.
    fn passed(&mut self) {
        self.after_number = None;
        self.prev = None;
        self.kind_pending = None;
        self.after_comma = false;
        self.after_conjunction = false;
    }

    /// A number was pushed as `out[at]`: words after it may still name its subject.
    fn pushed(&mut self, at: usize) {
        self.passed();
        self.after_number = Some((at, 0, true));
    }
}

/// Digits (or a dash and digits) follow the word ending at `e`: it starts a code (`V4`, `L-07`).
fn glued_to_digits(text: &str, e: usize) -> bool {
    let rest = text.as_bytes().get(e..).unwrap_or_default();
    match rest {
        [d, ..] if d.is_ascii_digit() => true,
        [b'-', d, ..] => d.is_ascii_digit(),
        _ => false,
    }
}

/// `B`, `IV`, `AB`, or one letter of either case: a code that names a subject, not a word.
fn is_code(text: &str, s: usize, e: usize) -> bool {
    let w = &text.as_bytes()[s..e];
    let boundary = !text[e..].starts_with(|c: char| c.is_alphanumeric());
    boundary
        && (w.len() == 1 && w[0].is_ascii_alphabetic()
            || (2..=3).contains(&w.len()) && w.iter().all(u8::is_ascii_uppercase))
}

/// Reads the token whose digits start at `s`; returns where scanning goes on.
fn read(
    text: &str,
    s: usize,
    locale: Locale,
    rule: Option<Rule>,
    cx: &mut Context,
    out: &mut Vec<Found>,
) -> usize {
    let b = text.as_bytes();
    // Digits and the separators between them.
    let mut seps = [(0usize, Sep::Dot); MAX_SEPS];
    let mut nseps = 0;
    let mut j = s;
    loop {
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let Some((sep, len)) = separator_at(b, j, locale) else {
            break;
        };
        if !b.get(j + len).is_some_and(u8::is_ascii_digit) || nseps == MAX_SEPS {
            break;
        }
        seps[nseps] = (j, sep);
        nseps += 1;
        j += len;
    }
    let seps = &seps[..nseps];
    let before = prev_char(text, s);

    // A number right after a kind word names its subject (`Specimen 12`, `year 2023`); after a
    // label word it names a table, a figure, a section (`Table 45`, `Fig. 3`, `§ 4.2`).
    let adjacent = cx.adjacent_word(text, s);
    let labelled = adjacent.is_some_and(|w| w.label) || before == Some('§');
    if let Some((kind, start)) = cx.pending_kind(text, s) {
        let end = skip_word(text, j);
        let id = if kind == Kind::Year {
            text[s..end].parse().ok().and_then(year_of)
        } else {
            super::subject::pack(&text[s..end])
        };
        if let Some(id) = id {
            cx.mention(text, kind, id, start, end, out);
        }
        push_trivial(out, s..end, Trivial::Label, rule);
        cx.passed();
        return end;
    }
    if labelled {
        let end = skip_word(text, j);
        push_trivial(out, s..end, Trivial::Label, rule);
        cx.passed();
        return end;
    }

    // Tokens that are not quantities: times, dates, names.
    if let Some(end) = time_or_date(b, s, j, seps) {
        let class = if b[s..end].contains(&b':') {
            Trivial::Time
        } else {
            Trivial::Date
        };
        push_trivial(out, s..end, class, rule);
        return end;
    }
    let (sign_at, negative, identifier_left) = left_context(text, s, before);
    if identifier_left {
        let end = skip_word(text, j);
        // `Variant V4`, `lote L-07`: the code after a kind word is its subject.
        let code_start = s - text[..s]
            .bytes()
            .rev()
            .take(16)
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'-')
            .count();
        match cx.pending_kind(text, code_start) {
            Some((kind, start)) => {
                let id = if kind == Kind::Year {
                    text[s..end].parse().ok().and_then(year_of)
                } else {
                    super::subject::pack(&text[code_start..end])
                };
                if let Some(id) = id {
                    cx.mention(text, kind, id, start, end, out);
                }
            }
            None => glued_subject(text, s, end, cx, out),
        }
        push_trivial(out, s..end, Trivial::Identifier, rule);
        return end;
    }
    // `.5`: a decimal with no integer part.
    let bare_fraction = before == Some('.')
        && nseps == 0
        && !prev_char(text, s - 1).is_some_and(|c| c.is_alphanumeric());

    // The value(s) the digits and separators can mean.
    let read = if bare_fraction {
        let digits = &b[s..j];
        Decimal::from_digits(digits, digits.len(), negative, 0)
            .map(|d| (Readings::One(d), Proves::DotDecimal))
    } else {
        readings(b, s, j, seps, locale, negative)
    };
    let Some((mut readings, proves)) = read else {
        // No convention reads it whole: `41.8,7.5` is a row of numbers split at its commas;
        // `1,2,3` too; else the first group is a number of its own.
        let end = seps
            .iter()
            .find(|&&(_, sep)| sep == Sep::Comma)
            .or(seps.first())
            .map_or(j, |&(at, _)| at);
        let cut = seps.iter().take_while(|&&(at, _)| at < end).count();
        if let Some((r, proves)) =
            readings(b, s, end, &seps[..cut], locale, negative).or_else(|| {
                let first = seps.first().map_or(end, |&(at, _)| at);
                Decimal::from_digits(&b[s..first], 0, negative, 0)
                    .map(|v| (Readings::One(v), Proves::Nothing))
            })
        {
            let end = if cut == 0 {
                seps.first().map_or(end, |&(at, _)| at)
            } else {
                end
            };
            let start = sign_at.unwrap_or(s);
            let class = classify(text, start, s, end, &r, None, cut > 0, rule, false);
            push_number(out, cx, start..end, r, None, class, negative, proves, false);
            return end.max(s + 1);
        }
        return j.max(s + 1);
    };

    // An exponent (`1.5e-3`), only after plain digits or a `.` decimal.
    let mut end = j;
    if seps.iter().all(|&(_, sep)| sep == Sep::Dot) && seps.len() <= 1 {
        if let Some((power, len)) = exponent_at(b, j) {
            readings = match readings {
                Readings::One(d) => Readings::One(Decimal {
                    exp: d.exp.saturating_add(power),
                    ..d
                }),
                other => other,
            };
            end = j + len;
        }
    }

    // What precedes: a currency, perhaps itself after a sign (`−$340,000`, `-R$ 12`).
    let currency = currency_before(text, sign_at.unwrap_or(s));
    let mut negative = negative;
    let mut start = currency
        .map(|(at, _)| at)
        .unwrap_or_else(|| sign_at.unwrap_or(s));
    if let (Some((at, _)), None) = (currency, sign_at) {
        if let Some(sign) = prev_char(text, at).filter(|c| matches!(c, '-' | '−' | '+')) {
            let sign_start = at - sign.len_utf8();
            if !prev_char(text, sign_start).is_some_and(|p| p.is_alphanumeric()) {
                start = sign_start;
                if sign != '+' {
                    negative = true;
                    readings = readings.map(|d| Decimal { mant: -d.mant, ..d });
                }
            }
        }
    }
    // What follows: `%`, a scale word, a unit, a currency, an ordinal suffix, more of a name.
    let after = right_context(text, end, currency.is_some(), locale);
    let (unit, scale, end) = match after {
        Right::Identifier(e) => {
            push_trivial(out, start..e, Trivial::Identifier, rule);
            return e;
        }
        Right::Ordinal(e) => {
            push_trivial(out, start..e, Trivial::Ordinal, rule);
            return e;
        }
        Right::Unit {
            unit,
            scale,
            end: e,
        } => (unit.or(currency.map(|c| c.1)), scale, e),
    };
    if scale != 0 {
        readings = readings.map(|d| d.shifted(scale));
    }
    let plain = nseps == 0 && !bare_fraction && scale == 0 && end == j;
    let year = plain && unit.is_none() && start == s && year_shaped(text, s, j, adjacent);
    let class = classify(text, start, s, j, &readings, unit, !plain, rule, year);
    push_number(
        out,
        cx,
        start..end,
        readings,
        unit,
        class,
        negative,
        proves,
        year,
    );
    end
}

/// Appends a number with the context's subject and direction, and tells the context.
#[allow(clippy::too_many_arguments)]
fn push_number(
    out: &mut Vec<Found>,
    cx: &mut Context,
    span: Range<usize>,
    readings: Readings,
    unit: Option<&'static str>,
    class: Class,
    negative: bool,
    proves: Proves,
    year: bool,
) {
    let polarity = if negative {
        Polarity::MinusSign
    } else {
        cx.polarity()
    };
    let mut subject = cx.subject();
    if year {
        // A year names the subject of what follows in its clause (`In 2023, revenue …`), and
        // of the number just before it (`$5.1M in 2023`).
        if let Some(id) = year_id(&readings) {
            let at = span.start;
            cx.mention_at(Kind::Year, id, at, out);
            subject = cx.subject();
        }
    }
    out.push(Found {
        span,
        readings,
        unit,
        class,
        polarity,
        subject,
        proves,
    });
    cx.pushed(out.len() - 1);
}

/// A year 1900-2100 as a subject id.
fn year_of(y: u16) -> Option<super::subject::Id> {
    (1900..=2100).contains(&y).then(|| super::subject::year(y))
}

fn year_id(readings: &Readings) -> Option<super::subject::Id> {
    let Readings::One(d) = readings else {
        return None;
    };
    (d.exp == 0 && (1900..=2100).contains(&d.mant)).then(|| super::subject::year(d.mant as u16))
}

impl Context {
    /// A subject named at `at`: in force for the rest of the clause, and the number just
    /// before's when only connectors separate them (`$5.1M in 2023`).
    fn mention_at(&mut self, kind: Kind, id: super::subject::Id, at: usize, out: &mut [Found]) {
        self.clause.set(kind, id);
        if let Some((last, n, true)) = self.after_number {
            if n <= POSTPOSED_REACH {
                if let Some(f) = out.get_mut(last) {
                    if f.span.end <= at {
                        f.subject.set(kind, id);
                    }
                }
            }
        }
    }
}

/// `Q3`, `T2` (a quarter), `FY2023` (a year): a name glued to digits that is a subject.
fn glued_subject(text: &str, s: usize, end: usize, cx: &mut Context, out: &mut [Found]) {
    let head = &text[..s];
    let digits = &text[s..end];
    let glued = |p: &str| {
        head.strip_suffix(p)
            .is_some_and(|h| !h.ends_with(|c: char| c.is_alphanumeric()))
    };
    let all_digits = digits.bytes().all(|c| c.is_ascii_digit());
    if all_digits
        && digits.len() == 1
        && (glued("Q") || glued("T"))
        && matches!(digits, "1" | "2" | "3" | "4")
    {
        if let Some(id) = super::subject::pack(&format!("Q{digits}")) {
            cx.mention_at(Kind::Quarter, id, s - 1, out);
        }
    } else if all_digits && digits.len() == 4 && (glued("FY") || glued("fy")) {
        if let Ok(y) = digits.parse::<u16>() {
            cx.mention_at(Kind::Year, super::subject::year(y), s - 2, out);
        }
    }
}

/// Appends a number that is not a quantity, for an answer (it is counted as skipped);
/// evidence keeps only quantities, so there it is not kept at all.
fn push_trivial(out: &mut Vec<Found>, span: Range<usize>, why: Trivial, rule: Option<Rule>) {
    if rule.is_none() {
        return;
    }
    out.push(Found {
        span,
        readings: Readings::One(Decimal { mant: 0, exp: 0 }),
        unit: None,
        class: Class::Trivial(why),
        polarity: Polarity::Neutral,
        subject: Subject::default(),
        proves: Proves::Nothing,
    });
}

/// The separator at `j`, if any, and its length in bytes.
fn separator_at(b: &[u8], j: usize, locale: Locale) -> Option<(Sep, usize)> {
    match b.get(j..)? {
        [b'.', ..] => Some((Sep::Dot, 1)),
        [b',', ..] => Some((Sep::Comma, 1)),
        [0xC2, 0xA0, ..] => Some((Sep::Space, 2)),
        [0xE2, 0x80, 0xAF | 0x89, ..] => Some((Sep::Space, 3)),
        [b' ', ..] if locale == Locale::Fr => Some((Sep::Space, 1)),
        _ => None,
    }
}

/// The values the digits `b[s..j]` with separators `seps` can mean under the conventions the
/// locale allows: `None` when no convention reads them whole.
fn readings(
    b: &[u8],
    s: usize,
    j: usize,
    seps: &[(usize, Sep)],
    locale: Locale,
    negative: bool,
) -> Option<(Readings, Proves)> {
    if seps.is_empty() {
        return Decimal::from_digits(&b[s..j], 0, negative, 0)
            .map(|d| (Readings::One(d), Proves::Nothing));
    }
    // The commonest spelling: one mark not followed by exactly three digits is a decimal mark
    // in every convention that reads it (`41.8`, `12,50`); a space can be no decimal mark.
    if let [(at, sep)] = *seps {
        let after = j - at - sep_len(b, at);
        if after != 3 {
            if sep == Sep::Space {
                return None;
            }
            let mut digits = [0u8; 64];
            let (int, frac) = (&b[s..at], &b[at + 1..j]);
            if int.len() + frac.len() <= digits.len() {
                digits[..int.len()].copy_from_slice(int);
                digits[int.len()..int.len() + frac.len()].copy_from_slice(frac);
                let n = int.len() + frac.len();
                let proves = if sep == Sep::Dot {
                    Proves::DotDecimal
                } else {
                    Proves::CommaDecimal
                };
                return Decimal::from_digits(&digits[..n], frac.len(), negative, 0)
                    .map(|d| (Readings::One(d), proves));
            }
        }
    }
    let read = |group: Sep, decimal: &[Sep]| -> Option<Decimal> {
        conventional(b, s, j, seps, group, decimal, negative)
    };
    let en = read(Sep::Comma, &[Sep::Dot]);
    let pt = read(Sep::Dot, &[Sep::Comma]);
    let fr = read(Sep::Space, &[Sep::Comma, Sep::Dot]);
    let own = match locale {
        Locale::En => en,
        Locale::Pt => pt,
        Locale::Fr => fr,
        Locale::Auto => None,
    };
    if let Some(v) = own {
        return Some((Readings::One(v), Proves::Nothing));
    }
    let mut valid = [en, pt, fr].into_iter().flatten();
    let first = valid.next()?;
    match valid.find(|v| v.canonical() != first.canonical() || v.exp != first.exp) {
        Some(second) => Some((Readings::Ambiguous(first, second), Proves::Nothing)),
        None => {
            let has = |mark: Sep| seps.iter().any(|&(_, sep)| sep == mark);
            let proves = match (en.is_some(), pt.is_some()) {
                (true, false) if has(Sep::Comma) || has(Sep::Dot) => Proves::DotDecimal,
                (false, true) => Proves::CommaDecimal,
                (false, false) if has(Sep::Comma) => Proves::CommaDecimal,
                (false, false) if has(Sep::Dot) => Proves::DotDecimal,
                _ => Proves::Nothing,
            };
            Some((Readings::One(first), proves))
        }
    }
}

/// The digits read with `group` as the thousands separator and one of `decimal` as the mark.
fn conventional(
    b: &[u8],
    s: usize,
    j: usize,
    seps: &[(usize, Sep)],
    group: Sep,
    decimal: &[Sep],
    negative: bool,
) -> Option<Decimal> {
    let mut digits = [0u8; 64];
    let mut n = 0;
    let mut decimals = None;
    let mut from = s;
    let mut groups = 0;
    for (k, &(at, sep)) in seps.iter().enumerate() {
        let run = &b[from..at];
        if sep == group && decimals.is_none() {
            // The first group has 1-3 digits and is not a lone 0; the others have exactly 3.
            let ok = if groups == 0 {
                (1..=3).contains(&run.len()) && run != b"0"
            } else {
                run.len() == 3
            };
            if !ok {
                return None;
            }
            groups += 1;
        } else if decimal.contains(&sep) && k == seps.len() - 1 {
            if groups > 0 && run.len() != 3 {
                return None;
            }
            decimals = Some(j - at - 1);
        } else {
            return None;
        }
        for &d in run {
            if n < digits.len() {
                digits[n] = d;
                n += 1;
            }
        }
        from = at + sep_len(b, at);
    }
    let last = &b[from..j];
    if groups > 0 && decimals.is_none() && last.len() != 3 {
        return None;
    }
    let mut dropped = 0;
    for &d in last {
        if n < digits.len() {
            digits[n] = d;
            n += 1;
        } else {
            dropped += 1;
        }
    }
    let decimals = decimals.unwrap_or(0);
    // Digits past the buffer: the integer part grows (decimals past it are simply dropped).
    let (decimals, power) = if dropped > decimals {
        (0, (dropped - decimals) as i32)
    } else {
        (decimals - dropped, 0)
    };
    Decimal::from_digits(&digits[..n], decimals, negative, power)
}

fn sep_len(b: &[u8], at: usize) -> usize {
    match b[at] {
        0xC2 => 2,
        0xE2 => 3,
        _ => 1,
    }
}

/// `12:30`, `12:30:45`, `2024-03-15`, `15/03/2024`, `2024/03/15`, `15.03.2024`: where it ends.
fn time_or_date(b: &[u8], s: usize, j: usize, seps: &[(usize, Sep)]) -> Option<usize> {
    let digits_at = |k: usize, min: usize, max: usize| -> Option<usize> {
        let n = b
            .get(k..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        (min..=max).contains(&n).then_some(k + n)
    };
    let head = j - s;
    if seps.is_empty() && head <= 2 && b.get(j) == Some(&b':') {
        let mut end = digits_at(j + 1, 2, 2)?;
        if b.get(end) == Some(&b':') {
            end = digits_at(end + 1, 2, 2).unwrap_or(end);
        }
        return Some(end);
    }
    if seps.is_empty() && matches!(b.get(j), Some(b'-' | b'/')) {
        let mark = b[j];
        let (mid_min, last_min, last_max) = if head == 4 { (1, 1, 2) } else { (1, 2, 4) };
        if head == 4 || (1..=2).contains(&head) {
            let mid = digits_at(j + 1, mid_min, 2)?;
            if b.get(mid) == Some(&mark) {
                return digits_at(mid + 1, last_min, last_max);
            }
        }
        return None;
    }
    // `15.03.2024`: two dots around day and month groups.
    if let [(a, Sep::Dot), (c, Sep::Dot)] = seps {
        let (d, m, y) = (a - s, c - a - 1, j - c - 1);
        if (1..=2).contains(&d) && (1..=2).contains(&m) && y == 4 {
            return Some(j);
        }
    }
    None
}

/// The sign before `s` (where it starts, and whether it is a minus) and whether the number is
/// glued to a name on its left (`v2`, `ISO-9001`, `#3`).
fn left_context(text: &str, s: usize, before: Option<char>) -> (Option<usize>, bool, bool) {
    match before {
        Some(c) if c.is_alphabetic() || c == '_' || c == '#' => (None, false, true),
        Some(c @ ('-' | '+' | '−')) => {
            let at = s - c.len_utf8();
            match prev_char(text, at) {
                // `10-20`: a range; the dash is no sign.
                Some(p) if p.is_ascii_digit() => (None, false, false),
                // `ISO-9001`, `COVID-19`.
                Some(p) if c == '-' && (p.is_alphabetic() || p == '_') => (None, false, true),
                _ => (Some(at), c != '+', false),
            }
        }
        _ => (None, false, false),
    }
}

/// A currency written before the number (`R$ 1.234,56`, `€12,50`, `USD 40`): where it starts
/// and its code.
fn currency_before(text: &str, at: usize) -> Option<(usize, &'static str)> {
    let b = text.as_bytes();
    let mut k = at;
    if k > 0 && b[k - 1] == b' ' {
        k -= 1;
    } else if k > 1 && b[k - 2..k] == [0xC2, 0xA0] {
        k -= 2;
    }
    // Every symbol and code ends in one of these bytes: most numbers stop here.
    if k == 0
        || !(matches!(b[k - 1], b'$' | 0xAC | 0xA3 | 0xA5 | 0xB9) || b[k - 1].is_ascii_uppercase())
    {
        return None;
    }
    let head = &text[..at];
    let head = head
        .strip_suffix(' ')
        .or_else(|| head.strip_suffix('\u{a0}'))
        .unwrap_or(head);
    const SYMBOLS: &[(&str, &str)] = &[
        ("R$", "BRL"),
        ("US$", "USD"),
        ("$", "USD"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("¥", "JPY"),
        ("₹", "INR"),
        ("USD", "USD"),
        ("EUR", "EUR"),
        ("BRL", "BRL"),
        ("GBP", "GBP"),
        ("JPY", "JPY"),
        ("CHF", "CHF"),
    ];
    for &(symbol, code) in SYMBOLS {
        if let Some(rest) = head.strip_suffix(symbol) {
            // A code is a word of its own (`XUSD 5` is not dollars).
            let word = symbol.as_bytes()[0].is_ascii_alphabetic();
            if word
                && rest
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric())
            {
                continue;
            }
            return Some((rest.len(), code));
        }
    }
    None
}

enum Right {
    Unit {
        unit: Option<&'static str>,
        /// A power of ten (`3.2M` with a currency, `12 mil`, `1,5 milhões`).
        scale: i32,
        end: usize,
    },
    Identifier(usize),
    Ordinal(usize),
}

impl Right {
    /// Nothing that belongs to the number follows: it ends at `end`.
    fn nothing(end: usize) -> Right {
        Right::Unit {
            unit: None,
            scale: 0,
            end,
        }
    }
}

/// What follows the digits at `j`.
fn right_context(text: &str, j: usize, currency: bool, locale: Locale) -> Right {
    let rest = &text[j..];
    if let Some((code, len)) = currency_symbol_after(rest) {
        // `12,50€`, `3.200.000 €`.
        return Right::Unit {
            unit: Some(code),
            scale: 0,
            end: j + len,
        };
    }
    let glued = word_prefix(rest, 12, |c| {
        c.is_alphabetic() || matches!(c, '°' | 'º' | 'ª' | 'µ' | '²' | '³' | '%')
    });
    let after_glued = j + glued.len();
    if !glued.is_empty() {
        // More digits right after the letters: a name (`3D5`, `2x4`, `A4B2`).
        if text[after_glued..].starts_with(|c: char| c.is_ascii_digit()) {
            return Right::Identifier(skip_word(text, after_glued));
        }
        let g = glued;
        if matches!(
            g,
            "st" | "nd" | "rd" | "th" | "º" | "ª" | "o" | "a" | "ª." | "º."
        ) {
            return Right::Ordinal(after_glued);
        }
        if let Some(unit) = unit_named(g) {
            let (unit, end) = per_unit(text, unit, after_glued);
            return Right::Unit {
                unit: Some(unit),
                scale: 0,
                end,
            };
        }
        // `7B parameters`, `1.4T tokens`: a scale letter before a counted word.
        let counted = !currency
            && after_blank(&text[after_glued..])
                .is_some_and(|(_, w)| w.starts_with(|c: char| c.is_lowercase()));
        let scale = match g {
            "k" | "K" => 3,
            "M" | "MM" | "mn" if currency || counted => 6,
            "B" | "bn" | "bi" if currency || counted => 9,
            "T" | "tn" if currency || counted => 12,
            "mi" if currency => 6,
            _ => 0,
        };
        if scale != 0 {
            let (unit, end) = currency_after_scale(text, after_glued);
            return Right::Unit { unit, scale, end };
        }
        return Right::Unit {
            unit: words::unit_word(g),
            scale: 0,
            end: after_glued,
        };
    }
    // One space (or NBSP) and a word: `%`, a unit, a scale word.
    let Some((gap, spaced)) = after_blank(rest) else {
        return Right::nothing(j);
    };
    let word = word_prefix(spaced, 14, |c| {
        c.is_alphabetic() || matches!(c, '°' | 'º' | 'µ' | '²' | '³' | '%' | '/')
    });
    let boundary = !spaced[word.len()..].starts_with(|c: char| c.is_alphanumeric());
    if word.is_empty() || !boundary {
        return Right::nothing(j);
    }
    let end = j + gap + word.len();
    if let Some(mut scale) = words::scale_word(word, locale == Locale::Fr) {
        // `R$ 1,2 bilhão`, `3 million users`, `3,2 mil millones de euros`, `2 Mio. €`.
        let mut end = end;
        if scale == 3 {
            if let Some((g, next)) = after_blank(&text[end..]) {
                let w = word_prefix(next, 14, char::is_alphabetic);
                if let Some(more @ 6..) = words::scale_word(w, false) {
                    scale += more;
                    end += g + w.len();
                }
            }
        }
        if text[end..].starts_with('.')
            && !text[end + 1..].starts_with(|c: char| c.is_alphanumeric())
        {
            end += 1;
        }
        let (unit, end) = currency_after_scale(text, end);
        return Right::Unit { unit, scale, end };
    }
    if matches!(word, "per" | "por" | "pour") {
        if let Some((g, next)) = after_blank(&spaced[word.len()..]) {
            let w = word_prefix(next, 8, char::is_alphabetic);
            if matches!(w, "cent" | "cento" | "ciento") {
                return Right::Unit {
                    unit: Some("%"),
                    scale: 0,
                    end: end + g + w.len(),
                };
            }
        }
    }
    match unit_named(word).or_else(|| words::unit_word(word)) {
        Some(unit) => {
            let (unit, end) = per_unit(text, unit, end);
            Right::Unit {
                unit: Some(unit),
                scale: 0,
                end,
            }
        }
        None => Right::nothing(j),
    }
}

/// One blank (space, NBSP, narrow NBSP) at the start of `s`: its length and what follows.
fn after_blank(s: &str) -> Option<(usize, &str)> {
    let rest = s
        .strip_prefix(' ')
        .or_else(|| s.strip_prefix('\u{a0}'))
        .or_else(|| s.strip_prefix('\u{202f}'))?;
    Some((s.len() - rest.len(), rest))
}

/// A currency symbol or code right after a number, glued or after one blank: its code and
/// length.
fn currency_symbol_after(rest: &str) -> Option<(&'static str, usize)> {
    let (gap, r) = after_blank(rest).unwrap_or((0, rest));
    // Every symbol and code starts with one of these bytes: most numbers stop here.
    if !matches!(
        r.as_bytes().first(),
        Some(0xE2 | 0xC2 | b'$' | b'E' | b'U' | b'B' | b'G' | b'C')
    ) {
        return None;
    }
    const AFTER: &[(&str, &str)] = &[
        ("€", "EUR"),
        ("$", "USD"),
        ("£", "GBP"),
        ("EUR", "EUR"),
        ("USD", "USD"),
        ("BRL", "BRL"),
        ("GBP", "GBP"),
        ("CHF", "CHF"),
    ];
    AFTER.iter().find_map(|&(symbol, code)| {
        let tail = r.strip_prefix(symbol)?;
        let word = symbol.as_bytes()[0].is_ascii_alphabetic();
        // `2023 $5.1M`: a symbol before digits is the next number's.
        let next_number = tail.trim_start().starts_with(|c: char| c.is_ascii_digit());
        (!next_number && (!word || !tail.starts_with(|c: char| c.is_alphanumeric())))
            .then_some((code, gap + symbol.len()))
    })
}

/// After a scale word, the currency it counts (`millones de euros`, `Mio. €`, `million
/// dollars`): its code and where the token ends.
fn currency_after_scale(text: &str, end: usize) -> (Option<&'static str>, usize) {
    let rest = &text[end..];
    if let Some((code, len)) = currency_symbol_after(rest) {
        return (Some(code), end + len);
    }
    let Some((gap, mut r)) = after_blank(rest) else {
        return (None, end);
    };
    let mut skip = gap;
    for of in ["de ", "of ", "d'", "d’"] {
        if let Some(t) = r.strip_prefix(of) {
            skip += of.len();
            r = t;
            break;
        }
    }
    let w = word_prefix(r, 10, char::is_alphabetic);
    match words::unit_word(w) {
        Some(code @ ("EUR" | "USD" | "BRL")) => (Some(code), end + skip + w.len()),
        _ => (None, end),
    }
}

/// A bare integer 1900-2100 that no count noun follows: a calendar year (`in 2015`), not a
/// count (`survived 2015 cycles`).
fn year_shaped(text: &str, s: usize, j: usize, adjacent: Option<Word>) -> bool {
    let digits = &text.as_bytes()[s..j];
    if digits.len() != 4 || !(&b"1900"[..]..=&b"2100"[..]).contains(&digits) {
        return false;
    }
    let dated = adjacent.is_some_and(|w| w.year_before);
    let Some((_, next)) = after_blank(&text[j..]) else {
        return true;
    };
    let noun = word_prefix(next, 24, char::is_alphabetic);
    let counted =
        words::lookup(noun).is_some_and(|w| w.count_noun) || words::unit_word(noun).is_some();
    dated || !counted
}

/// `mg per kg`, `mg por kg`, `km/h`: a unit divided by the unit that follows, when that makes
/// a known compound unit.
fn per_unit(text: &str, unit: &'static str, end: usize) -> (&'static str, usize) {
    let rest = &text[end..];
    let Some(tail) = ["/", " per ", " por ", " / "]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
    else {
        return (unit, end);
    };
    let word: String = tail
        .chars()
        .take_while(|c| c.is_alphabetic() || matches!(c, '²' | '³'))
        .take(6)
        .collect();
    match unit_named(&format!("{unit}/{word}")) {
        Some(compound) if !word.is_empty() => {
            (compound, end + (rest.len() - tail.len()) + word.len())
        }
        _ => (unit, end),
    }
}

/// The longest prefix of `s` made of at most `max` characters that satisfy `keep`.
fn word_prefix(s: &str, max: usize, keep: impl Fn(char) -> bool) -> &str {
    let end = s
        .char_indices()
        .take(max)
        .find(|&(_, c)| !keep(c))
        .map_or_else(
            || s.char_indices().nth(max).map_or(s.len(), |(k, _)| k),
            |(k, _)| k,
        );
    &s[..end]
}

/// Units a quantity can be stated in, each spelling with its normal form, sorted by spelling
/// (bytes) for a binary search.
const UNITS: &[(&str, &str)] = &[
    ("%", "%"),
    ("A", "A"),
    ("GB", "GB"),
    ("GHz", "GHz"),
    ("GPa", "GPa"),
    ("Hz", "Hz"),
    ("J", "J"),
    ("K", "K"),
    ("KB", "kB"),
    ("L", "L"),
    ("MB", "MB"),
    ("MHz", "MHz"),
    ("MPa", "MPa"),
    ("MW", "MW"),
    ("N", "N"),
    ("Pa", "Pa"),
    ("TB", "TB"),
    ("V", "V"),
    ("W", "W"),
    ("bar", "bar"),
    ("cal", "cal"),
    ("cm", "cm"),
    ("dB", "dB"),
    ("ft", "ft"),
    ("g", "g"),
    ("g/L", "g/L"),
    ("g/cm3", "g/cm³"),
    ("g/cm³", "g/cm³"),
    ("h", "h"),
    ("in", "in"),
    ("kB", "kB"),
    ("kHz", "kHz"),
    ("kJ", "kJ"),
    ("kN", "kN"),
    ("kPa", "kPa"),
    ("kW", "kW"),
    ("kWh", "kWh"),
    ("kcal", "kcal"),
    ("kg", "kg"),
    ("kg/m3", "kg/m³"),
    ("kg/m³", "kg/m³"),
    ("km", "km"),
    ("km/h", "km/h"),
    ("l", "L"),
    ("lb", "lb"),
    ("lbs", "lb"),
    ("m", "m"),
    ("m/s", "m/s"),
    ("m2", "m²"),
    ("m3", "m³"),
    ("mA", "mA"),
    ("mL", "mL"),
    ("mV", "mV"),
    ("mg", "mg"),
    ("mg/L", "mg/L"),
    ("mg/kg", "mg/kg"),
    ("min", "min"),
    ("ml", "mL"),
    ("mm", "mm"),
    ("mmol", "mmol"),
    ("mol", "mol"),
    ("mph", "mph"),
    ("ms", "ms"),
    ("m²", "m²"),
    ("m³", "m³"),
    ("nm", "nm"),
    ("ppb", "ppb"),
    ("ppm", "ppm"),
    ("psi", "psi"),
    ("rpm", "rpm"),
    ("s", "s"),
    ("t", "t"),
    ("uL", "µL"),
    ("ug", "µg"),
    ("um", "µm"),
    ("x", "x"),
    ("°", "°"),
    ("°C", "°C"),
    ("°F", "°F"),
    ("µL", "µL"),
    ("µg", "µg"),
    ("µm", "µm"),
    ("º", "°"),
    ("ºC", "°C"),
    ("ºF", "°F"),
    ("μL", "µL"),
    ("μg", "µg"),
    ("μm", "µm"),
    ("℃", "°C"),
];

/// The normal form of a unit's spelling (`ºC` → `°C`, `ml` → `mL`), if it is one.
fn unit_named(w: &str) -> Option<&'static str> {
    UNITS
        .binary_search_by(|(spelling, _)| spelling.as_bytes().cmp(w.as_bytes()))
        .ok()
        .map(|i| UNITS[i].1)
}

/// `1.5e-3`'s exponent at `j`: its value and length.
fn exponent_at(b: &[u8], j: usize) -> Option<(i32, usize)> {
    if !matches!(b.get(j), Some(b'e' | b'E')) {
        return None;
    }
    let mut k = j + 1;
    let negative = match b.get(k) {
        Some(b'-') => {
            k += 1;
            true
        }
        Some(b'+') => {
            k += 1;
            false
        }
        _ => false,
    };
    let digits = b
        .get(k..)?
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if digits == 0 || digits > 4 || b.get(k + digits).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut power: i32 = 0;
    for &d in &b[k..k + digits] {
        power = power * 10 + i32::from(d - b'0');
    }
    Some((if negative { -power } else { power }, k + digits - j))
}

/// Whether the number `b[s..j]` (token from `start`) is a quantity, under `rule`.
#[allow(clippy::too_many_arguments)]
fn classify(
    text: &str,
    start: usize,
    s: usize,
    j: usize,
    readings: &Readings,
    unit: Option<&str>,
    decorated: bool,
    rule: Option<Rule>,
    year: bool,
) -> Class {
    let Some(rule) = rule else {
        return Class::Quantity;
    };
    let b = text.as_bytes();
    let Readings::One(value) = *readings else {
        return Class::Quantity;
    };
    let integer = value.exp >= 0 || value.canonical().1 >= 0;
    if list_marker(text, start, j) && integer && unit.is_none() {
        return Class::Trivial(Trivial::ListMarker);
    }
    // A citation marker (`[12]`, `[3, 4]`) points at a source; it states no quantity.
    let cited = start > 0
        && matches!(b[start - 1], b'[' | b',' | b' ')
        && matches!(b.get(j), Some(b']' | b','))
        && citation(b, start, j);
    if cited && integer && unit.is_none() {
        return Class::Trivial(Trivial::Identifier);
    }
    if decorated || unit.is_some() || start != s {
        return Class::Quantity;
    }
    let digits = &b[s..j];
    if rule.years == Years::Skip && year {
        return Class::Trivial(Trivial::Year);
    }
    let SmallCounts::UpTo(max) = rule.small_counts;
    if digits.len() <= 20 && value.exp == 0 && (0..=i128::from(max)).contains(&value.mant) {
        return Class::Trivial(Trivial::SmallCount);
    }
    Class::Quantity
}

/// `b[start..j]` sits inside square brackets that hold only integers, commas and blanks
/// (`[12]`, `[3, 4]`), within a few bytes.
fn citation(b: &[u8], start: usize, j: usize) -> bool {
    let inside = |c: &u8| c.is_ascii_digit() || matches!(c, b',' | b' ' | b'-');
    let open = b[start.saturating_sub(16)..start]
        .iter()
        .rposition(|c| !inside(c))
        .map(|k| start.saturating_sub(16) + k);
    let close = b[j..b.len().min(j + 16)]
        .iter()
        .position(|c| !inside(c))
        .map(|k| j + k);
    matches!((open, close), (Some(o), Some(c)) if b[o] == b'[' && b[c] == b']')
}

/// The number at `start..j` numbers a list item: first on its line (after blanks or a bullet)
/// and followed by `.` or `)` and a blank.
fn list_marker(text: &str, start: usize, j: usize) -> bool {
    let b = text.as_bytes();
    let followed = matches!(b.get(j), Some(b'.' | b')'))
        && b.get(j + 1).is_none_or(|c| c.is_ascii_whitespace());
    if !followed {
        return false;
    }
    let line = &text[..start];
    let line = &line[line.rfind('\n').map_or(0, |n| n + 1)..];
    line.trim_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '•' | '(' | '#'))
        .is_empty()
}

/// The end of the word (letters, digits, `-`, `.`, `_` between them) that continues at `j`.
fn skip_word(text: &str, j: usize) -> usize {
    let rest = &text[j..];
    let mut end = 0;
    let mut chars = rest.char_indices().peekable();
    while let Some((k, c)) = chars.next() {
        let joins =
            matches!(c, '-' | '.' | '_') && chars.peek().is_some_and(|&(_, n)| n.is_alphanumeric());
        if c.is_alphanumeric() || joins {
            end = k + c.len_utf8();
        } else {
            break;
        }
    }
    j + end
}

fn prev_char(text: &str, at: usize) -> Option<char> {
    text.get(..at)?.chars().next_back()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &str, locale: Locale) -> Vec<(String, String, Option<&'static str>, Class)> {
        let mut out = Vec::new();
        super::super::tables::scan_text(
            text,
            locale,
            Some(Rule {
                small_counts: SmallCounts::UpTo(10),
                years: Years::Skip,
            }),
            Subject::default(),
            &mut out,
        );
        out.into_iter()
            .map(|f| {
                let values = f
                    .readings
                    .iter()
                    .map(Decimal::plain)
                    .collect::<Vec<_>>()
                    .join("|");
                (text[f.span].to_string(), values, f.unit, f.class)
            })
            .collect()
    }

    fn quantities(text: &str, locale: Locale) -> Vec<(String, String, Option<&'static str>)> {
        all(text, locale)
            .into_iter()
            .filter(|f| f.3 == Class::Quantity)
            .map(|f| (f.0, f.1, f.2))
            .collect()
    }

    fn q(
        token: &str,
        value: &str,
        unit: Option<&'static str>,
    ) -> (String, String, Option<&'static str>) {
        (token.to_string(), value.to_string(), unit)
    }

    #[test]
    fn locale_forms() {
        let auto = Locale::Auto;
        assert_eq!(
            quantities("1,234.5 kg", auto),
            [q("1,234.5 kg", "1234.5", Some("kg"))]
        );
        assert_eq!(
            quantities("1.234,5 kg", auto),
            [q("1.234,5 kg", "1234.5", Some("kg"))]
        );
        assert_eq!(
            quantities("12,5 mm", auto),
            [q("12,5 mm", "12.5", Some("mm"))]
        );
        assert_eq!(
            quantities("1\u{a0}234,5", auto),
            [q("1\u{a0}234,5", "1234.5", None)]
        );
        assert_eq!(
            quantities("1 234,5", Locale::Fr),
            [q("1 234,5", "1234.5", None)]
        );
        // Ambiguous in auto; decided by a fixed locale.
        assert_eq!(quantities("1,234", auto), [q("1,234", "1234|1.234", None)]);
        assert_eq!(quantities("1,234", Locale::Pt), [q("1,234", "1.234", None)]);
        assert_eq!(quantities("1.500", Locale::En), [q("1.500", "1.500", None)]);
        // A lone zero group is no thousands group.
        assert_eq!(quantities("0,500", auto), [q("0,500", "0.500", None)]);
    }

    #[test]
    fn currency_percent_scale_and_ranges() {
        let auto = Locale::Auto;
        assert_eq!(
            quantities("R$ 1.234,56", auto),
            [q("R$ 1.234,56", "1234.56", Some("BRL"))]
        );
        assert_eq!(
            quantities("€12,50", auto),
            [q("€12,50", "12.50", Some("EUR"))]
        );
        assert_eq!(
            quantities("$3.2M", auto),
            [q("$3.2M", "3200000", Some("USD"))]
        );
        assert_eq!(quantities("45%", auto), [q("45%", "45", Some("%"))]);
        assert_eq!(quantities("12,5 %", auto), [q("12,5 %", "12.5", Some("%"))]);
        assert_eq!(quantities("45 °C", auto), [q("45 °C", "45", Some("°C"))]);
        assert_eq!(
            quantities("-3.5 kg", auto),
            [q("-3.5 kg", "-3.5", Some("kg"))]
        );
        assert_eq!(
            quantities("entre 15–20 mm e 30-40", auto),
            [
                q("15", "15", None),
                q("20 mm", "20", Some("mm")),
                q("30", "30", None),
                q("40", "40", None)
            ]
        );
        assert_eq!(
            quantities("1,5 milhões", auto),
            [q("1,5 milhões", "1500000", None)]
        );
        assert_eq!(quantities("1.5e-3", auto), [q("1.5e-3", "0.0015", None)]);
    }

    #[test]
    fn trivial_numbers_are_classified() {
        let kinds = |t: &str| {
            all(t, Locale::Auto)
                .into_iter()
                .map(|f| match f.3 {
                    Class::Quantity => "quantity".to_string(),
                    Class::Trivial(t) => format!("{t:?}"),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(kinds("1. Intro\n2) Next"), ["ListMarker", "ListMarker"]);
        assert_eq!(kinds("3 samples, 12 samples"), ["SmallCount", "quantity"]);
        assert_eq!(
            kinds("in 2023 and 2024-03-15 at 14:30"),
            ["Year", "Date", "Time"]
        );
        assert_eq!(kinds("ISO-9001 v2 H2O COVID-19 #3"), ["Identifier"; 5]);
        assert_eq!(kinds("the 2nd and 3º"), ["Ordinal", "Ordinal"]);
        assert_eq!(kinds("15/03/2024 15.03.2024"), ["Date", "Date"]);
        assert_eq!(kinds("5 kg"), ["quantity"]);
        assert_eq!(
            kinds("as shown [12] and [3, 14]; 15 [a]"),
            ["Identifier", "Identifier", "Identifier", "quantity"]
        );
    }

    #[test]
    fn the_unit_table_is_sorted_for_its_binary_search() {
        assert!(UNITS
            .windows(2)
            .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes()));
        assert_eq!(unit_named("ºC"), Some("°C"));
        assert_eq!(unit_named("ml"), Some("mL"));
        assert_eq!(unit_named("parsecs"), None);
    }

    #[test]
    fn hostile_text_is_read_in_one_pass() {
        for text in [
            "",
            "1",
            "-",
            "1,",
            ",1",
            "1e",
            "1e+",
            "$",
            "R$",
            "1.2.3.4.5.6.7.8.9.0.1.2.3.4.5",
            "9999999999999999999999999999999999999999999999",
            "٣٤٥",
            "1\u{a0}",
            "12:",
            "2024-",
        ] {
            let mut out = Vec::new();
            super::super::tables::scan_text(text, Locale::Auto, None, Subject::default(), &mut out);
            for f in &out {
                assert!(f.span.end <= text.len() && text.is_char_boundary(f.span.start));
            }
        }
    }
}

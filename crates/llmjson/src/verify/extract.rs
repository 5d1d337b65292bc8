//! Number extraction: every number a text states, with its span, its value(s), its unit and
//! whether it is a quantity at all (a year, a date, a list marker, a version are not).
//!
//! One forward pass; each token is read once and its context (sign, currency, unit) within a
//! few bytes of it, so extraction is linear in the text.

use super::decimal::Decimal;
use super::{Locale, SmallCounts, Years};
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
}

/// The value(s) a token can mean.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Readings {
    One(Decimal),
    /// `(en reading, pt/de/fr reading)`: the locale is `auto` and both are valid.
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

/// Appends every number in `text` to `out`. `rule` marks trivial numbers (`None`: evidence,
/// everything is a quantity).
pub(crate) fn scan(text: &str, locale: Locale, rule: Option<Rule>, out: &mut Vec<Found>) {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        i = read(text, i, locale, rule, out);
    }
}

/// Reads the token whose digits start at `s`; returns where scanning goes on.
fn read(text: &str, s: usize, locale: Locale, rule: Option<Rule>, out: &mut Vec<Found>) -> usize {
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

    // Tokens that are not quantities: times, dates, names.
    if let Some(end) = time_or_date(b, s, j, seps) {
        let class = if b[s..end].contains(&b':') {
            Trivial::Time
        } else {
            Trivial::Date
        };
        push_trivial(out, s..end, class);
        return end;
    }
    let (sign_at, negative, identifier_left) = left_context(text, s, before);
    if identifier_left {
        let end = skip_word(text, j);
        push_trivial(out, s..end, Trivial::Identifier);
        return end;
    }
    // `.5`: a decimal with no integer part.
    let bare_fraction = before == Some('.')
        && nseps == 0
        && !prev_char(text, s - 1).is_some_and(|c| c.is_alphanumeric());

    // The value(s) the digits and separators can mean.
    let readings = if bare_fraction {
        let digits = &b[s..j];
        Decimal::from_digits(digits, digits.len(), negative, 0).map(Readings::One)
    } else {
        readings(b, s, j, seps, locale, negative)
    };
    let Some(mut readings) = readings else {
        // No convention reads it whole (`1,2,3`): the first group is a number of its own.
        let end = seps.first().map_or(j, |&(at, _)| at);
        let value = Decimal::from_digits(&b[s..end], 0, negative, 0);
        if let Some(v) = value {
            let start = sign_at.unwrap_or(s);
            let class = classify(text, start, s, end, &Readings::One(v), None, false, rule);
            out.push(Found {
                span: start..end,
                readings: Readings::One(v),
                unit: None,
                class,
            });
        }
        return end.max(s + 1);
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

    // What follows: `%`, a scale word, a unit, an ordinal suffix, more of a name.
    let currency = currency_before(text, sign_at.unwrap_or(s));
    let start = currency
        .map(|(at, _)| at)
        .unwrap_or_else(|| sign_at.unwrap_or(s));
    let after = right_context(text, end, currency.is_some());
    let (unit, scale, end) = match after {
        Right::Identifier(e) => {
            push_trivial(out, start..e, Trivial::Identifier);
            return e;
        }
        Right::Ordinal(e) => {
            push_trivial(out, start..e, Trivial::Ordinal);
            return e;
        }
        Right::Unit {
            unit,
            scale,
            end: e,
        } => (unit.or(currency.map(|c| c.1)), scale, e),
    };
    if scale != 0 {
        readings = match readings {
            Readings::One(d) => Readings::One(d.shifted(scale)),
            Readings::Ambiguous(a, b) => Readings::Ambiguous(a.shifted(scale), b.shifted(scale)),
        };
    }
    let plain = nseps == 0 && !bare_fraction && scale == 0 && end == j;
    let class = classify(text, start, s, j, &readings, unit, !plain, rule);
    out.push(Found {
        span: start..end,
        readings,
        unit,
        class,
    });
    end
}

fn push_trivial(out: &mut Vec<Found>, span: Range<usize>, why: Trivial) {
    out.push(Found {
        span,
        readings: Readings::One(Decimal { mant: 0, exp: 0 }),
        unit: None,
        class: Class::Trivial(why),
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
) -> Option<Readings> {
    if seps.is_empty() {
        return Decimal::from_digits(&b[s..j], 0, negative, 0).map(Readings::One);
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
                return Decimal::from_digits(&digits[..n], frac.len(), negative, 0)
                    .map(Readings::One);
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
        return Some(Readings::One(v));
    }
    let mut valid = [en, pt, fr].into_iter().flatten();
    let first = valid.next()?;
    match valid.find(|v| v.canonical() != first.canonical() || v.exp != first.exp) {
        Some(second) => Some(Readings::Ambiguous(first, second)),
        None => Some(Readings::One(first)),
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
fn right_context(text: &str, j: usize, currency: bool) -> Right {
    let rest = &text[j..];
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
        let scale = match g {
            "k" | "K" => 3,
            "M" | "MM" | "mn" if currency => 6,
            "B" | "bn" | "bi" if currency => 9,
            "mi" if currency => 6,
            _ => 0,
        };
        return Right::Unit {
            unit: None,
            scale,
            end: after_glued,
        };
    }
    // One space (or NBSP) and a word: `%`, a unit, a scale word.
    let spaced = rest
        .strip_prefix(' ')
        .or_else(|| rest.strip_prefix('\u{a0}'))
        .or_else(|| rest.strip_prefix('\u{202f}'));
    let Some(spaced) = spaced else {
        return Right::nothing(j);
    };
    let gap = rest.len() - spaced.len();
    let word = word_prefix(spaced, 14, |c| {
        c.is_alphabetic() || matches!(c, '°' | 'º' | 'µ' | '²' | '³' | '%' | '/')
    });
    let boundary = !spaced[word.len()..].starts_with(|c: char| c.is_alphanumeric());
    if word.is_empty() || !boundary {
        return Right::nothing(j);
    }
    let end = j + gap + word.len();
    if let Some(scale) = scale_word(word) {
        // `R$ 1,2 bilhão`, `3 million users`.
        return Right::Unit {
            unit: None,
            scale,
            end,
        };
    }
    if matches!(word, "percent" | "pct" | "porcento") {
        return Right::Unit {
            unit: Some("%"),
            scale: 0,
            end,
        };
    }
    if word == "por" && spaced[3..].starts_with(" cento") {
        return Right::Unit {
            unit: Some("%"),
            scale: 0,
            end: end + " cento".len(),
        };
    }
    match unit_named(word) {
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

fn scale_word(w: &str) -> Option<i32> {
    Some(match w {
        "thousand" | "mil" => 3,
        "million" | "millions" | "milhão" | "milhões" | "milhao" | "milhoes" | "mi" | "mn" => 6,
        "billion" | "billions" | "bilhão" | "bilhões" | "bilhao" | "bilhoes" | "bi" | "bn" => 9,
        "trillion" | "trillions" | "trilhão" | "trilhões" | "tri" => 12,
        _ => return None,
    })
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
    if rule.years == Years::Skip
        && digits.len() == 4
        && (&b"1900"[..]..=&b"2100"[..]).contains(&digits)
        && !b.get(j).is_some_and(|&c| c == b'.' || c == b',')
    {
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
        scan(
            text,
            locale,
            Some(Rule {
                small_counts: SmallCounts::UpTo(10),
                years: Years::Skip,
            }),
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
            scan(text, Locale::Auto, None, &mut out);
            for f in &out {
                assert!(f.span.end <= text.len() && text.is_char_boundary(f.span.start));
            }
        }
    }
}

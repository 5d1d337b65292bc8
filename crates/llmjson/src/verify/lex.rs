//! Lexing: a text as a stream of words, numbers and punctuation, each number read with the
//! context a few bytes either side (sign, currency, unit, scale, percent) and classified by form
//! (a date, a time, an identifier glued to letters, an ordinal, a list marker, a citation).
//!
//! What a number is *about* is not decided here: `layout` reads the tokens with the document's
//! structure. One forward pass; every look-around is bounded.

use super::decimal::Decimal;
use super::words::{self, flag};
use crate::policy::grounding::Locale;
use std::ops::Range;

/// A text's tokens.
#[derive(Debug, Default)]
pub(crate) struct Lexed {
    pub toks: Vec<Tok>,
    pub nums: Vec<Num>,
    /// The folded words, one after the other (a word's `folded` range points here).
    pub folded: String,
}

impl Lexed {
    /// Empties it, keeping what it has allocated.
    pub fn clear(&mut self) {
        self.toks.clear();
        self.nums.clear();
        self.folded.clear();
    }
}

/// One token: where it is and what it is.
#[derive(Debug, Clone)]
pub(crate) struct Tok {
    pub span: Range<usize>,
    pub kind: TokKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokKind {
    /// A word: its folded form (in `Lexed::folded`), its flags ([`flag`]), whether it starts
    /// with a capital and whether it is all capitals.
    Word {
        folded: (u32, u32),
        flags: u32,
        cap: bool,
        upper: bool,
    },
    /// A number: its index in `Lexed::nums`.
    Num(u32),
    /// Punctuation that structures a text (see [`P`]).
    Punct(P),
}

/// Punctuation that structures a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum P {
    /// `.`, `!`, `?` ending a sentence.
    Stop,
    Semi,
    Comma,
    Colon,
    /// A dash between words (`—`, `–`, ` - `).
    Dash,
    Pipe,
    Tab,
    Line,
    Open,
    Close,
    /// `=`, `→`, `->`.
    Eq,
    Slash,
}

/// The value(s) a number can mean.
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

    pub fn map(self, f: impl Fn(Decimal) -> Decimal) -> Readings {
        match self {
            Readings::One(d) => Readings::One(f(d)),
            Readings::Ambiguous(a, b) => Readings::Ambiguous(f(a), f(b)),
        }
    }

    /// The first reading.
    pub fn first(self) -> Decimal {
        match self {
            Readings::One(d) | Readings::Ambiguous(d, _) => d,
        }
    }
}

/// The decimal mark a number's spelling proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Proves {
    #[default]
    Nothing,
    /// `41.8`, `1,234.5`, `1,234,567`.
    DotDecimal,
    /// `41,8`, `1.234,5`, `1.234.567`.
    CommaDecimal,
}

/// What a number is by its form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    /// A number that may state a quantity (the layout decides: a year, a label, a count).
    Number,
    /// A numeric date (`2024-03-15`, `15/03/2024`), or a day, month or year inside one.
    Date,
    /// `14:30`.
    Time,
    /// Digits glued to a name (`ISO-9001`, `v2`, `S14`, `CP-28`).
    Identifier,
    /// `2nd`, `3º`.
    Ordinal,
    /// A list item's number (`1.` first on its line).
    ListMarker,
    /// A citation marker (`[12]`).
    Citation,
}

/// The written sign of a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Sign {
    #[default]
    None,
    Minus,
    Plus,
}

/// A number as written.
#[derive(Debug, Clone)]
pub(crate) struct Num {
    /// The whole token: sign, currency, digits, unit.
    pub span: Range<usize>,
    /// From the first digit to the last (separators and exponent included).
    pub digits: Range<usize>,
    /// For an identifier: the whole name (`CP-28`, `S14`).
    pub code: Range<usize>,
    pub readings: Readings,
    /// Its unit, currency code, `%` or `pp`, normalised.
    pub unit: Option<&'static str>,
    /// The unit it is per (`€/MWh`: `MWh`).
    pub per: Option<&'static str>,
    pub form: Form,
    pub sign: Sign,
    /// Written between parentheses alone (`(2,317)`): accounting's negative, in a table or
    /// after a label.
    pub paren: bool,
    pub proves: Proves,
    /// Plain digits: no separator, decimal, exponent, scale, unit or currency.
    pub plain: bool,
    /// Scaled by a word or letter (`3.2M`, `1,5 milhões`).
    pub scaled: bool,
    /// A plain integer 1900-2100.
    pub year_shaped: bool,
}

impl Num {
    /// An integer with no decimals.
    pub fn integer(&self) -> bool {
        self.readings
            .iter()
            .all(|d| d.exp >= 0 || d.canonical().1 >= 0)
    }
}

/// A separator between digit groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sep {
    Dot,
    Comma,
    /// A space inside a number: NBSP, narrow NBSP or thin space (and a plain space where the
    /// text groups with it).
    Space,
    /// `'` or `’` (Swiss grouping).
    Apos,
}

const MAX_SEPS: usize = 12;

/// How a text is read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mode {
    pub locale: Locale,
    /// A table cell: a plain space between three-digit groups groups them (`1 842`).
    pub cell: bool,
}

/// Lexes `text`; the numbers' ambiguous readings are then settled by the convention the text's
/// other numbers show ([`settle`]) when the locale is `auto`.
pub(crate) fn lex(text: &str, mode: Mode, out: &mut Lexed) {
    let first_num = out.nums.len();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            i = read(text, i, mode, out);
            continue;
        }
        if c.is_ascii_alphabetic()
            || c >= 0xC3
            || (c == 0xC2 && matches!(b.get(i + 1), Some(0xBA | 0xAA | 0xB5)))
        {
            let end = word_end(text, i);
            if end > i {
                // An English possessive's `s` (`Harbourline's 2023 inventory`) is no word: it
                // would number a thing `s`.
                if !possessive_s(b, i, end) {
                    push_word(text, i, end, out);
                }
                i = end;
                continue;
            }
        }
        let p = match c {
            b'\n' => Some(P::Line),
            b';' => Some(P::Semi),
            b'!' | b'?' => Some(P::Stop),
            b'.' if b
                .get(i + 1)
                .is_none_or(|n| n.is_ascii_whitespace() || *n == b'"' || *n == b')')
                && !abbreviation_before(out, i, b) =>
            {
                Some(P::Stop)
            }
            b',' => Some(P::Comma),
            b':' => Some(P::Colon),
            b'|' => Some(P::Pipe),
            b'\t' => Some(P::Tab),
            b'(' | b'[' => Some(P::Open),
            b')' | b']' => Some(P::Close),
            b'=' => Some(P::Eq),
            b'/' => Some(P::Slash),
            b'-' if i > 0
                && b[i - 1] == b' '
                && b.get(i + 1)
                    .is_some_and(|n| *n == b' ' || *n == b'-' || *n == b'>') =>
            {
                if b.get(i + 1) == Some(&b'>') {
                    Some(P::Eq)
                } else {
                    Some(P::Dash)
                }
            }
            // A middle dot or a bullet between items (`Tosca 96,1 % · Rigoletto 91,4 %`).
            0xC2 if b.get(i + 1) == Some(&0xB7) => Some(P::Semi),
            0xE2 => match b.get(i + 1..i + 3) {
                Some([0x80, 0x94 | 0x93]) => Some(P::Dash),
                Some([0x80, 0xA2]) if i > 0 && b[i - 1] == b' ' => Some(P::Semi),
                Some([0x86, 0x92]) => Some(P::Eq),
                _ => None,
            },
            _ => None,
        };
        let len = if c < 0x80 {
            1
        } else {
            text[i..].chars().next().map_or(1, char::len_utf8)
        };
        if let Some(p) = p {
            out.toks.push(Tok {
                span: i..i + len,
                kind: TokKind::Punct(p),
            });
        }
        i += len;
    }
    if mode.locale == Locale::Auto {
        settle(&mut out.nums[first_num..]);
    }
    // Two values a slash pairs share the unit written after the second (`16/17 km/h`, laden and
    // unladen; `12/15 °C`).
    for k in first_num + 1..out.nums.len() {
        let (a, b2) = (&out.nums[k - 1], &out.nums[k]);
        if a.unit.is_none()
            && a.form == Form::Number
            && b2.form == Form::Number
            && b2
                .unit
                .is_some_and(|u| u != "%" && words::currency_word(u).is_none())
            && text.get(a.span.end..b2.span.start) == Some("/")
            && a.sign == Sign::None
        {
            let (unit, per) = (b2.unit, b2.per);
            out.nums[k - 1].unit = unit;
            out.nums[k - 1].per = per;
        }
    }
}

/// Whether the number ending at `j` follows a capitalised word (`Vega 1.6T`): a model's.
fn after_name(text: &str, j: usize) -> bool {
    let head = text[..j].trim_end_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | ','));
    let head = head.strip_suffix(' ').unwrap_or(head);
    last_word(head).starts_with(char::is_uppercase)
}

/// The previous token is a word that abbreviates (`Fig.`, `p.`, `Nr.`, `ca.`, `Mio.`): its
/// dot ends no sentence.
fn abbreviation_before(out: &Lexed, dot: usize, b: &[u8]) -> bool {
    let after = &b[dot + 1..];
    let Some(t) = out.toks.last() else {
        return false;
    };
    // A capital after it starts a sentence (`… en Kestrel Bay. Carga punta …`), but after a
    // title (`Dr. Silva`).
    let capital = after
        .iter()
        .find(|c| !c.is_ascii_whitespace())
        .is_some_and(u8::is_ascii_uppercase);
    // A German scale's abbreviation before the noun it counts (`3,1 Mio. Münzen`, `2,4 Mrd.
    // Fahrgäste`): not before a function word, which opens the next sentence (`… 3,1 Mio. Die
    // Zahl …`).
    if let TokKind::Num(_) = t.kind {
        let head = &b[..dot];
        let start = head
            .iter()
            .rposition(|c| !c.is_ascii_alphabetic())
            .map_or(0, |k| k + 1);
        let glued = &head[start..];
        if t.span.end == dot && matches!(glued, b"Mio" | b"Mrd" | b"Tsd" | b"Mill") && capital {
            let gap = after
                .iter()
                .position(|c| !c.is_ascii_whitespace())
                .unwrap_or(after.len());
            let next = &after[gap..];
            let end = next
                .iter()
                .position(|c| !(c.is_ascii_alphabetic() || *c >= 0x80))
                .unwrap_or(next.len());
            let word = std::str::from_utf8(&next[..end]).unwrap_or("");
            return !word.is_empty()
                && !after[..gap].contains(&b'\n')
                && words::flags(&words::fold(word)) & (flag::STOP | flag::CONJ) == 0;
        }
        return false;
    }
    let TokKind::Word { folded, flags, .. } = t.kind else {
        return false;
    };
    if t.span.end != dot {
        return false;
    }
    let w = &out.folded[folded.0 as usize..folded.1 as usize];
    if capital && !matches!(w, "dr" | "mr" | "ms" | "mrs" | "st" | "prof" | "sr" | "sra") {
        return false;
    }
    w.len() <= 4
        && (flags & (flag::REF | flag::APPROX | flag::STREET) != 0
            || words::scale_word(w, false).is_some()
            || words::month_abbrev(w).is_some()
            || matches!(
                w,
                "vs" | "ggu"
                    | "approx"
                    | "aprox"
                    | "no"
                    | "nr"
                    | "n"
                    | "etc"
                    | "dr"
                    | "st"
                    | "mr"
                    | "ms"
                    | "co"
                    | "inc"
                    | "ltd"
                    | "corp"
                    | "sr"
                    | "sra"
            ))
}

fn push_word(text: &str, s: usize, e: usize, out: &mut Lexed) {
    let word = &text[s..e];
    let from = out.folded.len();
    words::fold_into(word, &mut out.folded);
    let to = out.folded.len();
    let mut flags = words::flags(&out.folded[from..to]);
    if word.ends_with(['ó', 'Ó']) {
        flags |= words::flag::NOT_MONTH;
    }
    // Portuguese `é` (is) folds to `e` (and): a verb, which joins no clauses.
    if matches!(word, "é" | "É") {
        flags &= !words::flag::CONJ;
    }
    let mut chars = word.chars();
    let cap = chars.next().is_some_and(char::is_uppercase);
    let upper = cap && word.chars().all(|c| !c.is_lowercase());
    out.toks.push(Tok {
        span: s..e,
        kind: TokKind::Word {
            folded: (from as u32, to as u32),
            flags,
            cap,
            upper,
        },
    });
}

/// The word `s..e` is the `s` of a possessive: `'s` or `’s` right after a letter.
fn possessive_s(b: &[u8], s: usize, e: usize) -> bool {
    if e != s + 1 || !matches!(b[s], b's' | b'S') {
        return false;
    }
    let before = match b[..s] {
        [.., l, b'\''] => l,
        [.., l, 0xE2, 0x80, 0x99] => l,
        _ => return false,
    };
    before.is_ascii_alphabetic() || before >= 0x80
}

/// Where the word starting at `s` ends: letters (and `º`, `ª`, `µ`); `s` itself when no letter
/// starts there.
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
pub(crate) fn settle(nums: &mut [Num]) {
    let (mut dot, mut comma) = (false, false);
    for n in nums.iter() {
        match n.proves {
            Proves::DotDecimal => dot = true,
            Proves::CommaDecimal => comma = true,
            Proves::Nothing => {}
        }
    }
    if dot == comma {
        return;
    }
    for n in nums.iter_mut() {
        if let Readings::Ambiguous(d, c) = n.readings {
            n.readings = Readings::One(if dot { d } else { c });
        }
    }
}

/// The decimal mark a text's unambiguous numbers show, read without its words (the first look
/// at a document, before its parts are read in full): `Some(true)` a dot, `Some(false)` a comma,
/// `None` both or neither. Second, a weaker sign for a text that shows neither: its numbers
/// grouped by dots that end in zero (`1.240`, `1.430`: nobody writes a decimal's trailing zero
/// where a group's is), so that `2.015` beside them is read as they are.
pub(crate) fn numbers_convention(text: &str) -> (Option<bool>, Option<bool>) {
    let mut out = Lexed::default();
    let mode = Mode {
        locale: Locale::Auto,
        cell: false,
    };
    let b = text.as_bytes();
    let mut i = 0;
    let (mut dot, mut comma) = (false, false);
    let (mut dots_group, mut commas_group) = (false, false);
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() {
            let first = out.nums.len();
            i = read(text, i, mode, &mut out);
            for n in &out.nums[first..] {
                dot |= n.proves == Proves::DotDecimal;
                comma |= n.proves == Proves::CommaDecimal;
                if matches!(n.readings, Readings::Ambiguous(..)) {
                    let digits = text.get(n.digits.clone()).unwrap_or_default();
                    match (digits.contains('.'), digits.contains(',')) {
                        (true, false) => dots_group |= digits.ends_with('0'),
                        (false, true) => commas_group = true,
                        _ => {}
                    }
                }
            }
            // Both marks shown: the text has no convention, whatever the rest holds.
            if dot && comma {
                return (None, None);
            }
            continue;
        }
        // Words are stepped over whole (digits inside them are names: `H2O`, `ISO-9001`).
        if c.is_ascii_alphabetic() || c >= 0xC3 {
            let end = word_end(text, i);
            if end > i {
                i = end;
                continue;
            }
        }
        i += if c < 0x80 {
            1
        } else {
            text[i..].chars().next().map_or(1, char::len_utf8)
        };
    }
    let grouped = (dots_group && !commas_group).then_some(false);
    ((dot != comma).then_some(dot), grouped)
}

/// Reads the ambiguous numbers left by the convention of the document they are in.
pub(crate) fn settle_by(nums: &mut [Num], dot: bool) {
    for n in nums.iter_mut() {
        if let Readings::Ambiguous(d, c) = n.readings {
            n.readings = Readings::One(if dot { d } else { c });
        }
    }
}

/// Reads the ambiguous numbers of a document whose convention nothing shows: a comma before
/// three digits groups them (`$8,900m`, `1,200` under `USD millions`) — the writers who mark
/// decimals with a comma write `1,2`, not `1,200` — and so does a dot before digits that end
/// in zero (`8.100 M EUR`); another dot stays ambiguous (`1.412` is as likely German
/// thousands as an English decimal).
pub(crate) fn settle_commas(nums: &mut [Num], text: &str) {
    for n in nums.iter_mut() {
        if let Readings::Ambiguous(d, _) = n.readings {
            let digits = text.get(n.digits.clone()).unwrap_or_default();
            if digits.contains(',') && !digits.contains('.') {
                n.readings = Readings::One(d);
            } else if digits.contains('.') && !digits.contains(',') && digits.ends_with('0') {
                // `8.100 M EUR`: nobody writes a decimal's trailing zero where a group's is.
                if let Readings::Ambiguous(_, c) = n.readings {
                    n.readings = Readings::One(c);
                }
            }
        }
    }
}

/// The scale a letter glued to a number writes (`29.7m km`, `3.4bn kWh`, `850k t`), when a unit
/// follows it.
fn scale_letter(g: &str) -> Option<i32> {
    match g {
        "k" | "K" => Some(3),
        "m" | "M" | "mn" | "MM" => Some(6),
        "bn" | "B" => Some(9),
        _ => None,
    }
}

/// 1 when `rest` starts with an abbreviation's dot: a sentence does not go on in lower case
/// (`-277,9 Mio. im Jahr 2019`).
fn abbreviation_dot(rest: &str) -> usize {
    let after = rest.strip_prefix('.').map(|r| r.trim_start_matches(' '));
    usize::from(after.is_some_and(|r| r.starts_with(|c: char| c.is_lowercase())))
}

/// The unit of energy a unit of power makes with hours.
fn energy_of(power: &str) -> Option<&'static str> {
    match power {
        "W" => Some("Wh"),
        "kW" => Some("kWh"),
        "MW" => Some("MWh"),
        "GW" => Some("GWh"),
        _ => None,
    }
}

/// Reads the token whose digits start at `s`; returns where lexing goes on.
fn read(text: &str, s: usize, mode: Mode, out: &mut Lexed) -> usize {
    let locale = mode.locale;
    let b = text.as_bytes();
    // Digits and the separators between them.
    let mut seps = [(0usize, Sep::Dot); MAX_SEPS];
    let mut nseps = 0;
    let mut j = s;
    loop {
        let group = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        let Some((sep, len)) = separator_at(b, j, mode, s) else {
            break;
        };
        // A space or an apostrophe groups only groups of one to three digits (`2025 412,6`
        // is a year and a number).
        if matches!(sep, Sep::Space | Sep::Apos) && !(1..=3).contains(&(j - group)) {
            break;
        }
        if !b.get(j + len).is_some_and(u8::is_ascii_digit) || nseps == MAX_SEPS {
            break;
        }
        seps[nseps] = (j, sep);
        nseps += 1;
        j += len;
    }
    // A plain space groups only three-digit groups that end the number (`3 400 M€`, not the
    // `3 400 500` of a list): dropped otherwise.
    if seps[..nseps]
        .iter()
        .any(|&(_, sep)| sep == Sep::Space && b[seps[0].0] == b' ')
        && !plain_space_grouping(text, s, j, &seps[..nseps], mode)
    {
        let first_space = seps[..nseps]
            .iter()
            .position(|&(at, sep)| sep == Sep::Space && b[at] == b' ')
            .unwrap_or(nseps);
        j = seps[first_space].0;
        nseps = first_space;
    }
    let seps = &seps[..nseps];
    let before = prev_char(text, s);

    let num = |span: Range<usize>, form: Form| Num {
        span: span.clone(),
        digits: span.clone(),
        code: span,
        readings: Readings::One(Decimal { mant: 0, exp: 0 }),
        unit: None,
        per: None,
        form,
        sign: Sign::None,
        paren: false,
        proves: Proves::Nothing,
        plain: false,
        scaled: false,
        year_shaped: false,
    };
    let push = |out: &mut Lexed, n: Num| {
        // A currency's letters before the digits (`R$`, `USD`), a code's (`FY2023`), are the
        // number's, not words.
        let start = n.span.start.min(n.code.start);
        while out.toks.last().is_some_and(|t| t.span.start >= start) {
            out.toks.pop();
        }
        let id = out.nums.len() as u32;
        out.toks.push(Tok {
            span: n.span.clone(),
            kind: TokKind::Num(id),
        });
        out.nums.push(n);
    };

    // Tokens that are not quantities by their form: times, dates, names.
    if let Some(end) = time_or_date(b, s, j, seps) {
        let form = if b[s..end].contains(&b':') {
            Form::Time
        } else {
            Form::Date
        };
        push(out, num(s..end, form));
        return end;
    }
    // (After dates and times, whose parts are padded.)
    // A number padded with zeros (`0871`, `007`), or digits a dash joins to such a number
    // (`2024-0871`, a file's number): an identifier, never a quantity.
    let padded = |at: usize| {
        b.get(at) == Some(&b'0')
            && b.get(at + 1).is_some_and(u8::is_ascii_digit)
            && !matches!(b.get(at + 1..at + 2), Some([b'.' | b',']))
    };
    // (Not a code's digits, `W01`, nor a telephone's groups, `020 7946 0958`.)
    // (Nor a year and its month, `2024-01`.)
    let year_month = j - s == 4
        && b.get(j) == Some(&b'-')
        && b.get(j + 1..j + 3).is_some_and(|m| {
            m.iter().all(u8::is_ascii_digit) && (&b"01"[..]..=&b"12"[..]).contains(&m)
        })
        && !b.get(j + 3).is_some_and(u8::is_ascii_digit);
    // A year and its month written as an ISO date's start (`2024-07`, alone): a date.
    if nseps == 0
        && year_month
        && (&b"1900"[..]..=&b"2100"[..]).contains(&&b[s..j])
        && !prev_char(text, s).is_some_and(|c| c.is_alphanumeric() || "-/.".contains(c))
        && !b
            .get(j + 3)
            .is_some_and(|c| matches!(c, b'-' | b'/' | b'.'))
    {
        push(out, num(s..j + 3, Form::Date));
        return j + 3;
    }
    // A reference's number joined by a dash (`Auftrag 4471-23`, `order 2291-7`): one code.
    let ref_before = || {
        let before = text[..s].trim_end_matches([' ', '\u{a0}']);
        let word = last_word(before);
        !word.is_empty()
            && before.len() < text[..s].len()
            && words::flags(&words::fold(word)) & flag::REF != 0
    };
    if nseps == 0
        && !year_month
        && (padded(s)
            && !matches!(b.get(j), Some(b'.' | b',' | b':' | b'/'))
            && !(b.get(j) == Some(&b' ') && b.get(j + 1).is_some_and(u8::is_ascii_digit))
            || b.get(j) == Some(&b'-') && padded(j + 1)
            // (Of three digits or more before the dash: `lot 24-118` stays a lot's number and a
            // sub-lot's, as labels read it.)
            || matches!(b.get(j), Some(b'-' | b'/'))
                && j - s >= 3
                && b.get(j + 1).is_some_and(u8::is_ascii_digit)
                && ref_before()
            // (`2024/118`, `2023-4471`: a year and a serial number, with or without its word;
            // not a range of years, `2019-2023`, nor a season, `2024/25`.)
            || matches!(b.get(j), Some(b'-' | b'/'))
                && j - s == 4
                && (&b"1900"[..]..=&b"2100"[..]).contains(&&b[s..j])
                && {
                    let n = b[j + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                    // (Four digits with a leading zero are no year: `SNT 2024/0318`.)
                    n == 3 || (5..=6).contains(&n) || n == 4 && b.get(j + 1) == Some(&b'0')
                })
        && !prev_char(text, s).is_some_and(|c| c.is_alphanumeric() || ".,:/-_".contains(c))
    {
        let mut end = j;
        while matches!(b.get(end), Some(b'-' | b'/'))
            && b.get(end + 1).is_some_and(u8::is_ascii_digit)
        {
            end += 1;
            while b.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
        }
        if !b.get(end).is_some_and(u8::is_ascii_alphanumeric) {
            let mut n = num(s..end, Form::Identifier);
            n.code = s..end;
            push(out, n);
            return end;
        }
    }
    // A chainage (`PK 47+300`, `km 12+450`): a place on a line, a label.
    if seps.is_empty() && b.get(j) == Some(&b'+') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        let end = j + 1 + b[j + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if !b
            .get(end)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'+')
        {
            let mut n = num(s..end, Form::Identifier);
            n.code = s..end;
            push(out, n);
            return end;
        }
    }
    let (sign_at, negative, identifier_left) = left_context(text, s, before);
    // `active_10mg`, `dose-20mg`: a quantity written into a name; read as the quantity.
    let glued_quantity = identifier_left && matches!(before, Some('_')) && nseps <= 1 && {
        let g = word_prefix(&text[j..], 6, |c| {
            c.is_alphabetic() || matches!(c, 'µ' | '°')
        });
        !g.is_empty()
            && unit_named(g).is_some()
            && !text[j + g.len()..].starts_with(|c: char| c.is_alphanumeric())
    };
    if identifier_left && !glued_quantity {
        let code_start = s - text[..s]
            .bytes()
            .rev()
            .take(16)
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'#' | b'+'))
            .count();
        // A code's digits end at a blank: `K2 455 kg` is the code `K2`, then a quantity.
        let blank = seps
            .iter()
            .position(|&(at, sep)| sep == Sep::Space && b[at] == b' ');
        let (digits_end, seps, end) = match blank {
            Some(k) => (seps[k].0, &seps[..k], seps[k].0),
            None => (j, seps, skip_word(text, j)),
        };
        let mut n = num(s..end, Form::Identifier);
        n.code = code_start..end;
        if let Some(r) = integer_readings(b, s, digits_end, seps) {
            n.readings = r;
        }
        push(out, n);
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
            let mut n = num(start..end, Form::Number);
            n.digits = s..end;
            n.readings = r;
            n.proves = proves;
            n.sign = if negative { Sign::Minus } else { Sign::None };
            n.plain = cut == 0;
            push(out, n);
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
    let digits_end = end;

    // What precedes: a currency, perhaps itself after a sign (`−$340,000`, `-R$ 12`).
    let mut currency = currency_before(text, sign_at.unwrap_or(s));
    let mut negative = negative;
    // A currency before an amount in parentheses (`CHF (57'300)`, `€ (1.204)`): accounting's
    // negative amount.
    let mut paren_money = false;
    if currency.is_none()
        && sign_at.is_none()
        && s > 0
        && b[s - 1] == b'('
        && b.get(end) == Some(&b')')
    {
        if let Some(found) = currency_before(text, s - 1) {
            currency = Some(found);
            paren_money = true;
            negative = true;
            readings = readings.map(|d| Decimal { mant: -d.mant, ..d });
        }
    }
    let mut sign_written = sign_at.map(|at| {
        if text[at..].starts_with('+') {
            Sign::Plus
        } else {
            Sign::Minus
        }
    });
    if paren_money {
        sign_written = Some(Sign::Minus);
    }
    let mut start = currency
        .map(|(at, _)| at)
        .unwrap_or_else(|| sign_at.unwrap_or(s));
    if let (Some((at, _)), None) = (currency, sign_at) {
        if let Some(sign) = prev_char(text, at).filter(|c| matches!(c, '-' | '−' | '+')) {
            let sign_start = at - sign.len_utf8();
            if !prev_char(text, sign_start).is_some_and(|p| p.is_alphanumeric()) {
                start = sign_start;
                sign_written = Some(if sign == '+' { Sign::Plus } else { Sign::Minus });
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
            let mut n = num(start..e, Form::Identifier);
            n.code = start..e;
            n.digits = s..digits_end;
            n.readings = readings;
            push(out, n);
            return e;
        }
        Right::Ordinal(e) => {
            let mut n = num(start..e, Form::Ordinal);
            n.readings = readings;
            push(out, n);
            return e;
        }
        Right::Unit {
            unit,
            scale,
            end: e,
        } => (unit.or(currency.map(|c| c.1)), scale, e),
    };
    // `(2 150) k€`, `(415) $k`: accounting's negative, its money written after the parenthesis.
    let (unit, scale, end) = match (unit, currency, sign_at) {
        (None, None, None) if s > 0 && b[s - 1] == b'(' && end == j && b.get(j) == Some(&b')') => {
            match right_context(text, j + 1, false, locale) {
                Right::Unit {
                    unit: Some(u),
                    scale,
                    end: e,
                } if e > j + 1 && (u == "$" || words::is_currency_code(u)) => {
                    paren_money = true;
                    sign_written = Some(Sign::Minus);
                    negative = true;
                    readings = readings.map(|d| Decimal { mant: -d.mant, ..d });
                    (Some(u), scale, e)
                }
                _ => (unit, scale, end),
            }
        }
        _ => (unit, scale, end),
    };
    // (The closing parenthesis of `CHF (57'300)` is the amount's.)
    let end = if paren_money && b.get(end) == Some(&b')') {
        end + 1
    } else {
        end
    };
    if scale != 0 {
        readings = readings.map(|d| d.shifted(scale));
    }
    // A unit per another (`€/MWh`, `mg/kg`, `USD/kW-mes`).
    let (per, end) = per_after(text, end);
    let per = per.or_else(|| unit.and_then(|_| per_ahead(text, end)));
    // `1.º`, `4.ª`, `1.er`: a Spanish ordinal.
    let er =
        text[j..].starts_with(".er") && !text[j + 3..].starts_with(|c: char| c.is_alphanumeric());
    if nseps == 0
        && j - s <= 2
        && (text[j..].starts_with(".º") || text[j..].starts_with(".ª") || er)
    {
        let mut n = num(s..j + 3, Form::Ordinal);
        n.readings = readings;
        push(out, n);
        return j + 3;
    }
    // `3. Quartal`, `3. März`: a German ordinal (its dot ends no sentence).
    if nseps == 0 && j - s <= 2 && end == j && unit.is_none() && currency.is_none() {
        if let Some(rest) = text[j..].strip_prefix(". ") {
            let w = word_prefix(rest, 12, char::is_alphabetic);
            let f = words::fold(w);
            if words::month(&f).is_some() || words::flags(&f) & (flag::QUARTER | flag::WEEK) != 0 {
                let mut n = num(s..j + 1, Form::Ordinal);
                n.readings = readings;
                push(out, n);
                return j + 1;
            }
        }
    }
    let plain = nseps == 0 && !bare_fraction && scale == 0 && end == j && currency.is_none();
    // (An older year where only a year stands: alone in its parentheses, `Silbermann (1766)`,
    // or after a year's preposition, `de 1766`, `since 1852`.)
    let older_year = || {
        (&b"1500"[..]..&b"1900"[..]).contains(&&b[s..j])
            && (start > 0 && b[start - 1] == b'(' && b.get(j) == Some(&b')')
                || words::flags(&words::fold(last_word(text[..start].trim_end())))
                    & flag::YEAR_PREP
                    != 0)
    };
    let year_shaped = plain
        && sign_at.is_none()
        && j - s == 4
        && ((&b"1900"[..]..=&b"2100"[..]).contains(&&b[s..j]) || older_year());
    let integer = readings.iter().all(|d| d.exp >= 0 || d.canonical().1 >= 0);
    let form = if list_marker(text, start, j) && integer && unit.is_none() && plain {
        Form::ListMarker
    } else if start > 0
        && matches!(b[start - 1], b'[' | b',' | b' ')
        && matches!(b.get(j), Some(b']' | b','))
        && citation(b, start, j)
        && integer
        && unit.is_none()
    {
        Form::Citation
    } else {
        Form::Number
    };
    let paren = start > 0 && b[..start].ends_with(b"(") && b.get(end) == Some(&b')') && !negative;
    push(
        out,
        Num {
            span: start..end,
            digits: s..digits_end,
            code: s..digits_end,
            readings,
            unit,
            per,
            form,
            sign: sign_written.unwrap_or_default(),
            paren,
            proves,
            plain,
            scaled: scale != 0,
            year_shaped,
        },
    );
    end
}

/// The readings of an identifier's digits (its label value: `S14` → 14).
fn integer_readings(b: &[u8], s: usize, j: usize, seps: &[(usize, Sep)]) -> Option<Readings> {
    if !seps.is_empty() || j - s > 12 {
        return None;
    }
    Decimal::from_digits(&b[s..j], 0, false, 0).map(Readings::One)
}

/// Whether a plain space between digit groups groups them here: in a table cell, with `--locale
/// fr`, when the number ends its item (`;`, a line's or the text's end, a sentence's stop or a
/// comma), or when it ends in a decimal comma, a unit, a currency, a percent or a scale word
/// (`3 400 M€`, `12 500 €`, `1 234,5`), never when a further digit group follows.
fn plain_space_grouping(text: &str, s: usize, j: usize, seps: &[(usize, Sep)], mode: Mode) -> bool {
    let b = text.as_bytes();
    if mode.cell || mode.locale == Locale::Fr {
        return true;
    }
    // The groups after spaces are three digits each: checked by `conventional`; here, what ends
    // the number.
    if seps.last().is_some_and(|&(_, sep)| sep == Sep::Comma) {
        return true;
    }
    let rest = &text[j..];
    let after = rest.trim_start_matches([' ', '\u{a0}', '\u{202f}']);
    let _ = b;
    // A value that ends its item (`Nord 1 240 ;`, `Est, 1 515.`, `total : 12 480⏎`): nothing
    // after it could be another group of its, and a list's value is written whole.
    // Nor does a run that another number stands right before (`3 400 500`, read from `400`).
    // (A code's digits are no number: `la T3 22 450.`)
    let before = text[..s].trim_end_matches(' ');
    let after_number = before.len() < s
        && before.ends_with(|c: char| c.is_ascii_digit())
        && !before
            .trim_end_matches(|c: char| c.is_ascii_digit())
            .ends_with(|c: char| c.is_alphabetic() || c == '-');
    let ends_item = !after_number
        && (after.is_empty()
            || after.starts_with([';', '\n', '\r', ')', '('])
            || rest
                .strip_prefix(['.', ','])
                .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\n', '\r'])));
    if ends_item {
        return true;
    }
    // `6 420 salariés`, `21 184 finishers`: a counted word.
    if after.len() < rest.len()
        && after.starts_with(|c: char| c.is_alphabetic() && c.is_lowercase())
    {
        return true;
    }
    after.starts_with(['%', '€', '$', '£'])
        || after.starts_with("M€")
        || after.starts_with("Md")
        || after.starts_with("k€")
        // (`16 700 M$`, `850 k$`: Quebec's and the markets' millions and thousands of dollars.)
        || after.starts_with("M$")
        || after.starts_with("k$")
        || {
            let w = word_prefix(after, 14, |c| {
                c.is_alphabetic() || matches!(c, '°' | 'µ' | '²' | '³')
            });
            !w.is_empty()
                && (unit_named(w).is_some()
                    || words::unit_word(&words::fold(w)).is_some()
                    || words::scale_word(w, false).is_some()
                    || words::currency_word(w).is_some())
        }
}

/// A unit it is per, a few words on (`2,5 toneladas de calcário por hectare`, `45 t je
/// Hektar`, `R$ 6,85 por quilômetro`): the words between stay out of the token.
fn per_ahead(text: &str, end: usize) -> Option<&'static str> {
    let rest = text.get(end..)?;
    let window: String = rest.chars().take(48).collect();
    let mut words = window
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '.'))
        .filter(|w| !w.is_empty());
    for _ in 0..4 {
        let w = words.next()?;
        if matches!(w, "per" | "por" | "pro" | "par" | "je" | "pour" | "a" | "à") {
            let unit_word = words.next()?;
            let unit_word = unit_word.trim_start_matches("l'");
            // (`a year earlier`, `un an plus tard`: a time, not a rate.)
            if words.next().is_some_and(|w| {
                matches!(
                    &*words::fold(w),
                    "earlier"
                        | "later"
                        | "ago"
                        | "before"
                        | "after"
                        | "antes"
                        | "despues"
                        | "depois"
                        | "plus"
                        | "auparavant"
                        | "fruher"
                        | "spater"
                        | "zuvor"
                        | "vorher"
                )
            }) {
                return None;
            }
            return unit_named(unit_word)
                .or_else(|| words::unit_word(&words::fold(unit_word)))
                .filter(|u| !matches!(*u, "%" | "pp" | "pt"));
        }
        if w.chars().any(|c| c.is_ascii_digit()) {
            return None;
        }
    }
    None
}

/// `/MWh`, `/kg`, ` per kg`, ` por kg` after a unit or currency: the unit it is per.
fn per_after(text: &str, end: usize) -> (Option<&'static str>, usize) {
    let rest = &text[end..];
    let Some(tail) = ["/", " per ", " por ", " / ", " pro ", " par ", " je "]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep))
    else {
        return (None, end);
    };
    let word = word_prefix(tail, 8, |c| {
        c.is_alphabetic() || matches!(c, '²' | '³' | 'µ')
    });
    if word.is_empty() {
        return (None, end);
    }
    let unit = unit_named(word)
        .or_else(|| words::unit_word(&words::fold(word)))
        .or(match word {
            "kWp" | "MWp" | "kW" => unit_named(word),
            // After a slash, a period's letter: `m³/j` (jour), `t/a` (German: per year).
            "j" | "d" if rest.starts_with('/') => Some("d"),
            "a" if rest.starts_with('/') => Some("yr"),
            _ => None,
        });
    match unit {
        // `por metro cúbico`, `par mètre cube`: a cubic (or square) metre.
        Some("m") => {
            let end = end + (rest.len() - tail.len()) + word.len();
            match power_after(text, end) {
                Some((unit, e)) => (Some(unit), e),
                None => (Some("m"), end),
            }
        }
        Some(u) => (Some(u), end + (rest.len() - tail.len()) + word.len()),
        None => (None, end),
    }
}

/// `cúbico`, `cubique`, `quadrado`, `carré` … after a metre ending at `end`: `m³` or `m²`, and
/// where the word ends.
fn power_after(text: &str, end: usize) -> Option<(&'static str, usize)> {
    let (gap, rest) = after_blank(&text[end..])?;
    let word = word_prefix(rest, 12, char::is_alphabetic);
    let unit = match &*words::fold(word) {
        "cubico" | "cubicos" | "cubique" | "cubiques" | "cube" | "cubes" => "m³",
        "quadrado" | "quadrados" | "cuadrado" | "cuadrados" | "carre" | "carres" => "m²",
        _ => return None,
    };
    Some((unit, end + gap + word.len()))
}

/// The separator at `j`, if any, and its length in bytes. A plain space or an apostrophe
/// counts only before exactly three digits (`3 400`, `2'480'000`).
fn separator_at(b: &[u8], j: usize, mode: Mode, s: usize) -> Option<(Sep, usize)> {
    let _ = (mode, s);
    let three_after = |len: usize| {
        b.get(j + len..j + len + 3)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
            && !b.get(j + len + 3).is_some_and(u8::is_ascii_digit)
    };
    match b.get(j..)? {
        [b'.', ..] => Some((Sep::Dot, 1)),
        [b',', ..] => Some((Sep::Comma, 1)),
        [0xC2, 0xA0, ..] => Some((Sep::Space, 2)),
        [0xE2, 0x80, 0xAF | 0x89, ..] => Some((Sep::Space, 3)),
        [b' ', ..] if three_after(1) => Some((Sep::Space, 1)),
        [b'\'', ..] if three_after(1) => Some((Sep::Apos, 1)),
        [0xE2, 0x80, 0x99, ..] if three_after(3) => Some((Sep::Apos, 3)),
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
            if matches!(sep, Sep::Space | Sep::Apos) {
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
    // Swiss grouping: `2'480'000`, `1'842,6`, `CHF 57'300.50`.
    let ch = seps
        .iter()
        .any(|&(_, sep)| sep == Sep::Apos)
        .then(|| read(Sep::Apos, &[Sep::Dot, Sep::Comma]))
        .flatten();
    let own = match locale {
        Locale::En => en,
        Locale::Pt => pt,
        Locale::Fr => fr,
        Locale::Auto => None,
    };
    if let Some(v) = own.or(ch) {
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

/// The letters that end `text` (`Auftrag` of `… Auftrag`).
pub(crate) fn last_word(text: &str) -> &str {
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphabetic())
        .last()
        .map_or(text.len(), |(i, _)| i);
    &text[start..]
}

/// `12:30`, `12:30:45`, `2024-03-15`, `15/03/2024`, `2024/03/15`, `15.03.2024`: where it ends.
/// Whether the word before `s` puts a date (`em`, `de`, `le`, `on`, `am`, `el`, `du`, `since`,
/// `until`, a weekday …).
fn date_word_before(b: &[u8], s: usize) -> bool {
    let Ok(head) = std::str::from_utf8(&b[s.saturating_sub(24)..s]) else {
        return false;
    };
    let head = head.trim_end();
    let folded = words::fold(last_word(head));
    matches!(
        &*folded,
        "em" | "de"
            | "le"
            | "on"
            | "am"
            | "el"
            | "du"
            | "del"
            | "do"
            | "da"
            | "dia"
            | "since"
            | "until"
            | "desde"
            | "depuis"
            | "seit"
            | "vom"
            | "bis"
            | "ate"
            | "hasta"
            | "au"
            | "dated"
            | "data"
            | "fecha"
            | "datum"
    ) || words::weekday_abbrev(&folded).is_some()
        || words::weekday(&folded).is_some()
}

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
    // `2025/26`, `2023-24`, `2025–26`: a season.
    let dash = match b.get(j) {
        Some(b'/' | b'-') => 1,
        _ if b.get(j..j + 3) == Some("–".as_bytes()) => 3,
        _ => 0,
    };
    if seps.is_empty()
        && head == 4
        && dash > 0
        && b.get(j + dash..j + dash + 2)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
        && !b
            .get(j + dash + 2)
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'/' | b'-'))
        && matches!(&b[s..s + 2], b"19" | b"20")
    {
        return Some(j + dash + 2);
    }
    // `em 25/08`, `le 12/08`, `on 03/14`: a day and a month after a date's preposition.
    if seps.is_empty() && (1..=2).contains(&head) && b.get(j) == Some(&b'/') {
        if let Some(end) = digits_at(j + 1, 2, 2) {
            let closed = !b
                .get(end)
                .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'/' | b'-' | b'.' | b','))
                || b.get(end) == Some(&b',') && !b.get(end + 1).is_some_and(u8::is_ascii_digit)
                || b.get(end) == Some(&b'.') && !b.get(end + 1).is_some_and(u8::is_ascii_digit);
            let part = |r: std::ops::Range<usize>| {
                std::str::from_utf8(&b[r])
                    .ok()
                    .and_then(|d| d.parse::<u32>().ok())
            };
            let (first, second) = (part(s..j), part(j + 1..end));
            let plausible = first.is_some_and(|d| (1..=31).contains(&d))
                && second.is_some_and(|m| (1..=31).contains(&m))
                && (first.is_some_and(|d| d <= 12) || second.is_some_and(|m| m <= 12));
            // Or a line's label (`12/08 : 2,14 m`, `| 25/08 |`).
            let line_label = {
                let before = b[..s]
                    .iter()
                    .rev()
                    .find(|c| !matches!(c, b' ' | b'\t' | b'-' | b'*'));
                let after = b[end..].iter().find(|c| !matches!(c, b' ' | b'\t'));
                // (Shaped as a date, not a score: `12/08`, `25/08`; not `7/10`.)
                let dated = b[s] == b'0' || b[j + 1] == b'0' || first.is_some_and(|d| d > 12);
                dated
                    && before.is_none_or(|c| matches!(c, b'\n' | b'|'))
                    && after.is_none_or(|c| matches!(c, b':' | b'|'))
            };
            if closed && plausible && (date_word_before(b, s) || line_label) {
                return Some(end);
            }
        }
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
                // `J+1`, `D+2`: a day counted from an event, a label.
                Some(p)
                    if c == '+'
                        && p.is_ascii_uppercase()
                        && !prev_char(text, at - 1).is_some_and(char::is_alphanumeric) =>
                {
                    (None, false, true)
                }
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
        || !(matches!(b[k - 1], b'$' | b'.' | 0xAC | 0xA3 | 0xA5 | 0xB9)
            || b[k - 1].is_ascii_uppercase())
    {
        return None;
    }
    let head = &text[..at];
    let head = head
        .strip_suffix(' ')
        .or_else(|| head.strip_suffix('\u{a0}'))
        .unwrap_or(head);
    // A bare `$` is `$` here: the layout reads it as the text's dollar (USD unless the text
    // names another).
    const SYMBOLS: &[(&str, &str)] = &[
        ("R$", "BRL"),
        ("US$", "USD"),
        ("CA$", "CAD"),
        ("C$", "CAD"),
        ("AU$", "AUD"),
        ("A$", "AUD"),
        ("NZ$", "NZD"),
        ("MX$", "MXN"),
        ("HK$", "HKD"),
        ("NT$", "TWD"),
        ("S$", "SGD"),
        ("$", "$"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("¥", "JPY"),
        ("₹", "INR"),
        ("Fr.", "CHF"),
    ];
    for &(symbol, code) in SYMBOLS {
        if let Some(rest) = head.strip_suffix(symbol) {
            return Some((rest.len(), code));
        }
    }
    // A code of the table, a word of its own (`USD 12`, `COP 2.900`, `PEN 14,50`; `XUSD 5` is
    // not dollars).
    let rest = head.get(..head.len().checked_sub(3)?)?;
    let code = words::currency_code(&head[rest.len()..])?;
    (!rest.ends_with(|c: char| c.is_alphanumeric())).then_some((rest.len(), code))
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
            "st" | "nd"
                | "rd"
                | "th"
                | "º"
                | "ª"
                | "o"
                | "a"
                | "ª."
                | "º."
                | "e"
                | "er"
                | "re"
                | "eme"
                | "ème"
                | "ᵉ"
                | "ter"
                | "te"
        ) {
            return Right::Ordinal(after_glued);
        }
        // `7B parameters`, `1.4T tokens`: a scale letter before a counted word.
        let counted = !currency
            && after_blank(&text[after_glued..])
                .is_some_and(|(_, w)| w.starts_with(|c: char| c.is_lowercase()));
        // `App downloads: 3.8M`, `Besucher: 1.2M;`, `subscribers: 412K`: a scale letter that
        // ends its item (not a concentration's, `0.5M HCl`). (Asked only of the letters it
        // concerns: most glued units are not.)
        let ends = || {
            text[after_glued..]
                .split('\n')
                .next()
                .unwrap_or_default()
                .trim_start()
                .chars()
                .next()
                .is_none_or(|c| !c.is_alphanumeric())
        };
        // After a currency, `m` and `K` are scales (`$585,942K`), not metres and kelvins; so is
        // a `K` that ends its item or comes before a counted word (`412K subscribers`).
        // (Not before a function word: `cooled to 77K before the run` is kelvins.)
        let next_word = || {
            after_blank(&text[after_glued..])
                .map(|(_, w)| word_prefix(w, 20, char::is_alphabetic))
                .filter(|_| counted)
        };
        let counts_noun = || {
            next_word()
                .is_some_and(|w| words::flags(&words::fold(w)) & (flag::STOP | flag::CONJ) == 0)
        };
        // (Nor an `m` before a plural noun: `486m toys` are millions; a length is followed by
        // what it measures, `12m high`, `400m of cable`.)
        let plural_noun = || {
            counts_noun()
                && next_word().is_some_and(|w| {
                    w.len() > 3
                        && w.ends_with('s')
                        && words::unit_word(&words::fold(w)).is_none()
                        && words::scale_word(w, false).is_none()
                })
        };
        // A scale letter before a unit (`29.7m km`, `3.4bn kWh`, `850k t`): millions of it.
        if !currency {
            if let Some(scale) = scale_letter(g) {
                if let Some((unit, end)) = unit_after_scale(text, after_glued) {
                    return Right::Unit {
                        unit: Some(unit),
                        scale,
                        end,
                    };
                }
            }
        }
        if let Some(unit) = unit_named(g).filter(|_| {
            !(currency && matches!(g, "m" | "K")
                || g == "K" && (counts_noun() || ends())
                || g == "m" && plural_noun())
        }) {
            let (unit, end) = per_unit(text, unit, after_glued);
            return Right::Unit {
                unit: Some(unit),
                scale: 0,
                end,
            };
        }
        let scale = match g {
            "k" | "K" => 3,
            "M" | "MM" | "mn" if currency || counted || ends() => 6,
            "m" if currency || plural_noun() => 6,
            "B" | "bn" | "bi" if currency || counted => 9,
            // (`1.8T tokens`; not a model's `3.0T` before its verb.)
            "T" | "tn" if currency || counted && plural_noun() && !after_name(text, j) => 12,
            "mi" if currency => 6,
            _ => 0,
        };
        if scale != 0 {
            let (unit, end) = currency_after_scale(text, after_glued);
            return Right::Unit { unit, scale, end };
        }
        return Right::Unit {
            unit: words::unit_word(&words::fold(g)),
            scale: 0,
            end: after_glued,
        };
    }
    // One space (or NBSP) and a word: `%`, a unit, a scale word.
    let Some((gap, spaced)) = after_blank(rest) else {
        return Right::nothing(j);
    };
    // `8 420 tCO2e`, `1,2 kg CO₂e`: a mass of greenhouse gas (digits inside the unit).
    if let Some((unit, len)) = co2_unit(spaced) {
        return Right::Unit {
            unit: Some(unit),
            scale: 0,
            end: j + gap + len,
        };
    }
    let word = word_prefix(spaced, 20, |c| {
        c.is_alphabetic() || matches!(c, '°' | 'º' | 'µ' | '²' | '³' | '%' | '/')
    });
    // (`28 l/100 km`: a slash before digits ends the unit; what it is per is read after.)
    let word = if spaced[word.len()..].starts_with(|c: char| c.is_ascii_digit()) {
        word.trim_end_matches('/')
    } else {
        word
    };
    let boundary = !spaced[word.len()..].starts_with(|c: char| c.is_alphanumeric());
    if word.is_empty() || !boundary {
        return Right::nothing(j);
    }
    // `4 g/dia`, `12 t/Jahr`: a unit per a unit word the table does not hold as one; the
    // unit, and the per after it (read as `/dia` is).
    if let Some((left, _)) = word.split_once('/') {
        if unit_named(word).is_none() {
            if let Some(unit) = unit_named(left) {
                return Right::Unit {
                    unit: Some(unit),
                    scale: 0,
                    end: j + gap + left.len(),
                };
            }
        }
    }
    let end = j + gap + word.len();
    // `90 basis points`, `15 Basispunkte`.
    if matches!(word, "basis" | "Basispunkte" | "basispunkte") {
        let (w, g) = if word == "basis" {
            match after_blank(&text[end..]) {
                Some((g, next)) if next.starts_with("point") => {
                    (word_prefix(next, 8, char::is_alphabetic), g)
                }
                _ => ("", 0),
            }
        } else {
            ("", 0)
        };
        if word != "basis" || !w.is_empty() {
            return Right::Unit {
                unit: Some("bp"),
                scale: 0,
                end: end + g + w.len(),
            };
        }
    }
    // `12,500 sq ft`, `85 square metres`, `40 cubic metres`: an area or a volume in two words.
    if matches!(word, "sq" | "square" | "cubic") {
        let cubic = word == "cubic";
        let unit = unit_in_two_words(text, end, |w| match w {
            "ft" | "feet" | "foot" if cubic => Some("ft³"),
            "m" | "metres" | "meters" | "metre" | "meter" if cubic => Some("m³"),
            _ if cubic => None,
            "ft" | "feet" | "foot" => Some("ft²"),
            "m" | "metres" | "meters" | "metre" | "meter" => Some("m²"),
            "km" | "kilometres" | "kilometers" => Some("km²"),
            "mi" | "miles" | "mile" => Some("mi²"),
            _ => None,
        });
        if let Some(unit) = unit {
            return unit;
        }
    }
    // `3 400 M€`, `3,4 Md€`, `850 k€`, `2074,5 M €`: a scale letter and a currency.
    if let Some(scale) = match word {
        "k" | "K" => Some(3),
        "M" | "Mio" | "MM" | "mn" => Some(6),
        "Md" | "Mrd" | "bn" | "B" => Some(9),
        _ => None,
    } {
        let after = &text[end..];
        let after_sym = after.strip_prefix(' ').unwrap_or(after);
        if let Some((code, len)) = currency_symbol_after(after_sym).filter(|_| {
            after_sym.starts_with(['€', '$', '£'])
                || after_sym.starts_with("EUR")
                || after_sym.starts_with("USD")
                || after_sym.starts_with("CHF")
        }) {
            return Right::Unit {
                unit: Some(code),
                scale,
                end: end + (after.len() - after_sym.len()) + len,
            };
        }
        // `US$ 9.484,8 M`, `EUR -277,9 Mio. im Jahr`: the currency was written before.
        if currency {
            return Right::Unit {
                unit: None,
                scale,
                end: end + abbreviation_dot(&text[end..]),
            };
        }
        // `71,2 Mio. t`, `4,2 M km`: a unit after the scale.
        let dot = abbreviation_dot(&text[end..]);
        if let Some((unit, end)) = unit_after_scale(text, end + dot) {
            return Right::Unit {
                unit: Some(unit),
                scale,
                end,
            };
        }
        // `6.033,1 M euros`, `2,4 Mio. Franken`.
        let w = word_prefix(after_sym, 12, char::is_alphabetic);
        if after.starts_with(' ') {
            if let Some(code) = words::currency_word(w) {
                return Right::Unit {
                    unit: Some(code),
                    scale,
                    end: end + 1 + w.len(),
                };
            }
        }
    }
    // Miles: `18 miles`, `22 milles nautiques`, `38 millas náuticas`, `14 nautical miles`; the
    // Spanish `miles` is a thousand only before `de` (`18 miles de toneladas`).
    let folded_word = words::fold(word);
    if matches!(
        &*folded_word,
        "mile"
            | "miles"
            | "milla"
            | "millas"
            | "milha"
            | "milhas"
            | "mille"
            | "milles"
            | "nautical"
            | "meile"
            | "meilen"
    ) {
        let nautical = |w: &str| words::fold(w).starts_with("nauti");
        let next = after_blank(&text[end..]).map(|(g, next)| {
            let w = word_prefix(next, 14, char::is_alphabetic);
            (g, w)
        });
        match (&*folded_word, next) {
            ("nautical", Some((g, w))) if matches!(w, "mile" | "miles") => {
                return Right::Unit {
                    unit: Some("nmi"),
                    scale: 0,
                    end: end + g + w.len(),
                };
            }
            ("nautical", _) => {}
            (_, Some((g, w))) if nautical(w) => {
                return Right::Unit {
                    unit: Some("nmi"),
                    scale: 0,
                    end: end + g + w.len(),
                };
            }
            ("miles", Some((_, "de"))) => {}
            // (`mille` alone is French for a thousand: `12 mille visiteurs`; the French
            // `milles` of a distance are nautical, `Portée : 32 milles`.)
            ("mille", _) => {}
            ("milles", _) => {
                return Right::Unit {
                    unit: Some("nmi"),
                    scale: 0,
                    end,
                };
            }
            _ => {
                return Right::Unit {
                    unit: Some("mi"),
                    scale: 0,
                    end,
                };
            }
        }
    }
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
        // An abbreviation's dot belongs to it when a currency follows (`2 Mio. €`); else it
        // may end the sentence (`R$ 341,9 mi. Porto: …`), and stays punctuation.
        if text[end..].starts_with('.')
            && !text[end + 1..].starts_with(|c: char| c.is_alphanumeric())
        {
            if let (Some(unit), after) = currency_after_scale(text, end + 1) {
                return Right::Unit {
                    unit: Some(unit),
                    scale,
                    end: after,
                };
            }
            if abbreviation_dot(&text[end..]) == 1 {
                let (unit, end) = currency_after_scale(text, end + 1);
                return Right::Unit { unit, scale, end };
            }
        }
        let (unit, end) = currency_after_scale(text, end);
        if unit.is_none() && !currency {
            // Or a unit (`150 mil m³`, `150 mil litros`, `2 millones de toneladas`); not after
            // money (`R$ 457.619 mil segundo …`: according to).
            if let Some((unit, end)) = unit_after_scale(text, end) {
                return Right::Unit {
                    unit: Some(unit),
                    scale,
                    end,
                };
            }
        }
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
    // Percentage points: `p.p.`, `pp`, `Pp.`, `%-Punkte`, `puntos porcentuales`.
    let spaced_rest = &text[j + gap..];
    for (form, unit) in [
        ("p.p.", "pp"),
        ("p. p.", "pp"),
        ("p.p", "pp"),
        ("Pp.", "pp"),
        ("%-Punkte", "pp"),
        ("%-punkte", "pp"),
    ] {
        if spaced_rest.starts_with(form) {
            return Right::Unit {
                unit: Some(unit),
                scale: 0,
                end: j + gap + form.len(),
            };
        }
    }
    // `in` after a blank is a preposition, not inches; after a currency written before the
    // number, a unit word or symbol is the next word of the sentence (`US$ 544.259.000
    // segundo os números…`: `according to`, not seconds; `setzte CHF 48'200 um`: a verb's
    // particle, not micrometres): money is not measured in seconds or lengths.
    // A dollar of a named country (`420 dollars canadiens`, `420 Canadian dollars`).
    if !currency {
        if let Some((code, len)) = whose_dollar(&text[j + gap..]) {
            return Right::Unit {
                unit: Some(code),
                scale: 0,
                end: j + gap + len,
            };
        }
    }
    // Nor is an elided word (`2025 s'élève`, `2024 n'a`, `m'a`): a pronoun, not seconds.
    let elided = text[end..].starts_with(['\'', '’'])
        // German `um` before a number is `by` (`2024 um 4,2 % unter Plan`), not micrometres.
        || word == "um" && text[end..].trim_start().starts_with(|c: char| c.is_ascii_digit());
    // (`38 in.` closing a line or sentence, `(38 in)`, `38 in;`: inches, a preposition has its
    // object.)
    let inches = word == "in" && {
        let after = &text[end..];
        after.is_empty()
            || after.starts_with([')', ';'])
            || after.starts_with('.') && after[1..].chars().next().is_none_or(char::is_whitespace)
    };
    let word_unit = if word == "in" && !inches || currency || elided {
        None
    } else {
        let folded = words::fold(word);
        unit_named(word)
            .or_else(|| words::unit_word(&folded))
            .or_else(|| words::unit_word_after_number(&folded))
    };
    // `metros cúbicos`, `mètres carrés`: a volume or an area in two words.
    if word_unit == Some("m") {
        let unit = unit_in_two_words(text, end, |w| match &*words::fold(w) {
            "cubicos" | "cubico" | "cubes" | "cube" | "cubi" => Some("m³"),
            "quadrados" | "quadrado" | "carres" | "carre" | "cuadrados" | "quadrati" => Some("m²"),
            _ => None,
        });
        if let Some(unit) = unit {
            return unit;
        }
    }
    match word_unit {
        Some("pt") => {
            // `puntos porcentuales`, `pontos percentuais`, `points de pourcentage`.
            let after = &text[end..];
            let more = after.trim_start_matches(' ').trim_start_matches("de ");
            let pp = after.starts_with(' ')
                && ["porcent", "percent", "pourcent"]
                    .iter()
                    .any(|p| more.starts_with(p));
            let end = if pp {
                end + (after.len() - more.len()) + word_prefix(more, 14, char::is_alphabetic).len()
            } else {
                end
            };
            Right::Unit {
                unit: Some(if pp { "pp" } else { "pt" }),
                scale: 0,
                end,
            }
        }
        Some(unit) => {
            // `megawatt-hours`, `kilowatt hours`: energy, not power.
            let (unit, end) = match energy_of(unit) {
                Some(energy) => {
                    let after = &text[end..];
                    let rest = after.strip_prefix(['-', ' ']).unwrap_or("");
                    let w = word_prefix(rest, 8, char::is_alphabetic);
                    if matches!(
                        &*words::fold(w),
                        "hour" | "hours" | "heure" | "heures" | "hora" | "horas"
                    ) {
                        (energy, end + 1 + w.len())
                    } else {
                        (unit, end)
                    }
                }
                None => (unit, end),
            };
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

/// A unit written in two words, the second after a blank at `end` (`square metres`, `metros
/// cúbicos`): the unit `pick` makes of that word, ending after it.
fn unit_in_two_words(
    text: &str,
    end: usize,
    pick: impl Fn(&str) -> Option<&'static str>,
) -> Option<Right> {
    let (g, next) = after_blank(&text[end..])?;
    let w = word_prefix(next, 12, char::is_alphabetic);
    pick(w).map(|unit| Right::Unit {
        unit: Some(unit),
        scale: 0,
        end: end + g + w.len(),
    })
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
    if !r
        .as_bytes()
        .first()
        .is_some_and(|&c| matches!(c, 0xE2 | 0xC2 | b'$') || c.is_ascii_uppercase())
    {
        return None;
    }
    const AFTER: &[(&str, &str)] = &[
        ("€", "EUR"),
        ("US-Dollar", "USD"),
        ("US-dollar", "USD"),
        ("$ US", "USD"),
        ("$US", "USD"),
        ("US$", "USD"),
        ("R$", "BRL"),
        ("CA$", "CAD"),
        ("C$", "CAD"),
        ("A$", "AUD"),
        // French Canadian and others write the country after the sign (`14,50 $ CA`).
        ("$ CAN", "CAD"),
        ("$CAN", "CAD"),
        ("$ CA", "CAD"),
        ("$CA", "CAD"),
        ("$ AU", "AUD"),
        ("$AU", "AUD"),
        ("$ NZ", "NZD"),
        ("$", "$"),
        ("£", "GBP"),
    ];
    AFTER
        .iter()
        .find_map(|&(symbol, code)| {
            let tail = r.strip_prefix(symbol)?;
            let word = symbol.as_bytes()[0].is_ascii_alphabetic();
            // `2023 $5.1M`: a symbol before digits is the next number's.
            let next_number = tail.trim_start().starts_with(|c: char| c.is_ascii_digit());
            (!next_number && (!word || !tail.starts_with(|c: char| c.is_alphanumeric())))
                .then_some((code, gap + symbol.len()))
        })
        // A code of the table, a word of its own (`12 EUR`, `19,40 MAD/kg`, `2.900 COP`).
        .or_else(|| {
            let code = words::currency_code(r.get(..3)?)?;
            let tail = &r[3..];
            let next_number = tail.trim_start().starts_with(|c: char| c.is_ascii_digit());
            (!next_number && !tail.starts_with(|c: char| c.is_alphanumeric()))
                .then_some((code, gap + 3))
        })
}

/// A dollar or a peso and whose it is, at the start of `r` (`dollars canadiens`, `Canadian
/// dollars`, `dólares australianos`, `US dollars`, `pesos argentinos`): its code and length.
fn whose_dollar(r: &str) -> Option<(&'static str, usize)> {
    let country = |w: &str| match &*words::fold(w) {
        "canadian" | "canadien" | "canadiens" | "canadiense" | "canadienses" | "canadense"
        | "canadenses" | "kanadische" | "kanadischen" => Some("CAD"),
        "australian" | "australien" | "australiens" | "australiano" | "australianos"
        | "australische" | "australischen" => Some("AUD"),
        "us" | "american" | "americains" | "americanos" | "estadounidenses" => Some("USD"),
        "neo-zelandais" | "neozelandais" | "neozelandes" | "neozelandeses" | "neozelandesa"
        | "neozelandesas" | "neuseelandische" | "neuseelandischen" => Some("NZD"),
        "singapore" | "singapour" | "singapur" | "singapurenses" | "singapurense" => Some("SGD"),
        _ => None,
    };
    let peso_country = |w: &str| match &*words::fold(w) {
        "mexicanos" | "mexicano" | "mexican" | "mexicains" => Some("MXN"),
        "argentinos" | "argentino" | "argentine" | "argentinian" | "argentins" => Some("ARS"),
        "chilenos" | "chileno" | "chilean" | "chiliens" => Some("CLP"),
        "colombianos" | "colombiano" | "colombian" | "colombiens" => Some("COP"),
        "uruguayos" | "uruguayo" | "uruguayan" | "uruguayens" => Some("UYU"),
        _ => None,
    };
    let dollar = |w: &str| matches!(&*words::fold(w), "dollar" | "dollars" | "dolar" | "dolares");
    let peso = |w: &str| matches!(&*words::fold(w), "peso" | "pesos");
    let first = word_prefix(r, 14, char::is_alphabetic);
    let (gap, rest) = after_blank(&r[first.len()..])?;
    // (`néo-zélandais`: a nationality may be hyphenated.)
    let second = word_prefix(rest, 20, |c| c.is_alphabetic() || c == '-');
    // `New Zealand dollars`, `Hong Kong dollars`: a country of two words.
    let two = match (&*words::fold(first), &*words::fold(second)) {
        ("new", "zealand") => Some("NZD"),
        ("hong", "kong") => Some("HKD"),
        _ => None,
    };
    if let Some(code) = two {
        let (gap2, rest2) = after_blank(&rest[second.len()..])?;
        let third = word_prefix(rest2, 14, char::is_alphabetic);
        return dollar(third)
            .then_some((code, first.len() + gap + second.len() + gap2 + third.len()));
    }
    let code = if dollar(first) {
        country(second)
    } else if dollar(second) {
        country(first)
    } else if peso(first) {
        peso_country(second)
    } else if peso(second) {
        peso_country(first)
    } else {
        None
    }?;
    Some((code, first.len() + gap + second.len()))
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
    if let Some((code, len)) = whose_dollar(r) {
        return (Some(code), end + skip + len);
    }
    match words::currency_word(w) {
        Some(code) => (Some(code), end + skip + w.len()),
        _ => (None, end),
    }
}

/// A bare integer 1900-2100 that no count noun follows: a calendar year (`in 2015`), not a
/// count (`survived 2015 cycles`).
fn per_unit(text: &str, unit: &'static str, end: usize) -> (&'static str, usize) {
    let rest = &text[end..];
    // `l/100 km`, `kWh/100km`, `28 Liter auf 100 Kilometer`, `41 L a cada 100 km`: per hundred
    // kilometres.
    let hundred_per = match unit {
        "L" => Some("L/100km"),
        "kWh" => Some("kWh/100km"),
        _ => None,
    };
    if let Some(per) = hundred_per {
        let tail = [
            "/",
            " / ",
            " per ",
            " por ",
            " auf ",
            " a cada ",
            " por cada ",
            " pour ",
            " aux ",
            " every ",
        ]
        .iter()
        .find_map(|sep| rest.strip_prefix(sep));
        if let Some(km) = tail.and_then(|t| t.strip_prefix("100")) {
            let km_word = km.trim_start_matches(' ');
            let w = km_word
                .split(|c: char| !c.is_alphabetic())
                .next()
                .unwrap_or_default();
            if matches!(
                w,
                "km" | "Kilometer" | "kilometres" | "kilometers" | "kilómetros" | "quilômetros"
            ) {
                return (per, end + (rest.len() - km_word.len()) + w.len());
            }
        }
    }
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
    ("EB", "EB"),
    ("GB", "GB"),
    ("GB/s", "GB/s"),
    ("GHz", "GHz"),
    ("GJ", "GJ"),
    ("GPa", "GPa"),
    ("GW", "GW"),
    ("GWh", "GWh"),
    ("Gb/s", "Gbit/s"),
    ("Gbit", "Gbit"),
    ("Gbit/s", "Gbit/s"),
    ("Gbps", "Gbit/s"),
    ("GiB", "GiB"),
    ("HV", "HV"),
    ("Hz", "Hz"),
    ("IE", "IU"),
    ("IU", "IU"),
    ("J", "J"),
    ("K", "K"),
    ("KB", "kB"),
    ("KB/s", "kB/s"),
    ("KiB", "KiB"),
    ("L", "L"),
    ("L/h", "L/h"),
    ("L/ha", "L/ha"),
    ("MB", "MB"),
    ("MB/s", "MB/s"),
    ("MHz", "MHz"),
    ("MJ", "MJ"),
    ("MPa", "MPa"),
    ("MW", "MW"),
    ("MWh", "MWh"),
    ("MWp", "MWp"),
    ("Mb/s", "Mbit/s"),
    ("Mbit", "Mbit"),
    ("Mbit/s", "Mbit/s"),
    ("Mbps", "Mbit/s"),
    ("MiB", "MiB"),
    ("N", "N"),
    ("NM", "nmi"),
    ("PB", "PB"),
    ("Pa", "Pa"),
    ("S/m", "S/m"),
    ("TB", "TB"),
    ("TEU", "TEU"),
    ("TWh", "TWh"),
    ("Tbit", "Tbit"),
    ("TiB", "TiB"),
    ("U/L", "U/L"),
    ("UI", "IU"),
    ("V", "V"),
    ("W", "W"),
    ("Wh", "Wh"),
    ("bar", "bar"),
    ("bit", "bit"),
    ("bp", "bp"),
    ("bps", "bp"),
    ("cL", "cL"),
    ("cal", "cal"),
    ("cl", "cL"),
    ("cm", "cm"),
    ("ct", "ct"),
    ("ct/kg", "ct/kg"),
    ("dB", "dB"),
    ("dL", "dL"),
    ("dS/m", "dS/m"),
    ("dl", "dL"),
    ("dt", "dt"),
    ("dt/ha", "dt/ha"),
    ("ft", "ft"),
    ("ft²", "ft²"),
    ("g", "g"),
    ("g/L", "g/L"),
    ("g/cm3", "g/cm³"),
    ("g/cm³", "g/cm³"),
    ("g/dL", "g/dL"),
    ("g/kg", "g/kg"),
    ("g/m2", "g/m²"),
    ("g/m²", "g/m²"),
    ("gal", "gal"),
    ("h", "h"),
    ("hL", "hL"),
    ("ha", "ha"),
    ("hl", "hL"),
    ("in", "in"),
    ("kB", "kB"),
    ("kB/s", "kB/s"),
    ("kHz", "kHz"),
    ("kJ", "kJ"),
    ("kN", "kN"),
    ("kPa", "kPa"),
    ("kV", "kV"),
    ("kVA", "kVA"),
    ("kW", "kW"),
    ("kWh", "kWh"),
    ("kWp", "kWp"),
    ("kbit", "kbit"),
    ("kbit/s", "kbit/s"),
    ("kbps", "kbit/s"),
    ("kcal", "kcal"),
    ("kg", "kg"),
    ("kg/ha", "kg/ha"),
    ("kg/m2", "kg/m²"),
    ("kg/m3", "kg/m³"),
    ("kg/m²", "kg/m²"),
    ("kg/m³", "kg/m³"),
    ("km", "km"),
    ("km/h", "km/h"),
    ("kn", "kn"),
    ("kt", "kt"),
    ("l", "L"),
    ("lb", "lb"),
    ("lbs", "lb"),
    ("m", "m"),
    ("m/s", "m/s"),
    ("m2", "m²"),
    ("m3", "m³"),
    ("m3/h", "m³/h"),
    ("m3/s", "m³/s"),
    ("mA", "mA"),
    ("mL", "mL"),
    ("mL/min", "mL/min"),
    ("mS/cm", "mS/cm"),
    ("mS/m", "mS/m"),
    ("mV", "mV"),
    ("mW", "mW"),
    ("mbar", "mbar"),
    ("mg", "mg"),
    ("mg/L", "mg/L"),
    ("mg/dL", "mg/dL"),
    ("mg/g", "mg/g"),
    ("mg/kg", "mg/kg"),
    ("mg/l", "mg/L"),
    ("mg/mL", "mg/mL"),
    ("min", "min"),
    ("ml", "mL"),
    ("mm", "mm"),
    ("mmHg", "mmHg"),
    ("mmol", "mmol"),
    ("mmol/L", "mmol/L"),
    ("mol", "mol"),
    ("mph", "mph"),
    ("ms", "ms"),
    ("m²", "m²"),
    ("m³", "m³"),
    ("m³/h", "m³/h"),
    ("m³/s", "m³/s"),
    ("ng/mL", "ng/mL"),
    ("nm", "nm"),
    ("nmi", "nmi"),
    ("oz", "oz"),
    ("pp", "pp"),
    ("ppb", "ppb"),
    ("ppm", "ppm"),
    ("ppt", "ppt"),
    ("psi", "psi"),
    ("pt", "pt"),
    ("pts", "pt"),
    ("q", "q"),
    ("q/ha", "q/ha"),
    ("rpm", "rpm"),
    ("s", "s"),
    ("sm", "nmi"),
    ("t", "t"),
    ("t/ha", "t/ha"),
    ("uL", "µL"),
    ("uS/cm", "µS/cm"),
    ("ug", "µg"),
    ("ug/kg", "µg/kg"),
    ("ug/mL", "µg/mL"),
    ("um", "µm"),
    ("umol/L", "µmol/L"),
    ("x", "x"),
    ("yd", "yd"),
    ("°", "°"),
    ("°C", "°C"),
    ("°F", "°F"),
    ("µL", "µL"),
    ("µS/cm", "µS/cm"),
    ("µg", "µg"),
    ("µg/kg", "µg/kg"),
    ("µg/mL", "µg/mL"),
    ("µm", "µm"),
    ("µmol/L", "µmol/L"),
    ("µs", "µs"),
    ("º", "°"),
    ("ºC", "°C"),
    ("ºF", "°F"),
    ("μL", "µL"),
    ("μg", "µg"),
    ("μg/kg", "µg/kg"),
    ("μg/mL", "µg/mL"),
    ("μm", "µm"),
    ("‰", "‰"),
    ("℃", "°C"),
];

/// The normal form of a unit's spelling (`ºC` → `°C`, `ml` → `mL`), for the layout's headers.
pub(crate) fn unit_symbol(w: &str) -> Option<&'static str> {
    unit_named(w)
}

/// The normal form of a unit's spelling (`ºC` → `°C`, `ml` → `mL`), if it is one.
fn unit_named(w: &str) -> Option<&'static str> {
    UNITS
        .binary_search_by(|(spelling, _)| spelling.as_bytes().cmp(w.as_bytes()))
        .ok()
        .map(|i| UNITS[i].1)
}

/// A mass of CO₂ or of its equivalent at the start of `s` (`tCO2e`, `kg CO₂e`, `MtCO2eq`,
/// `t CO2`): the mass's unit (the gas is what is weighed, as in `412 Tonnen CO2e` or `598 kg
/// de CO₂`) and the length.
fn co2_unit(s: &str) -> Option<(&'static str, usize)> {
    const MASSES: [&str; 5] = ["Mt", "kt", "kg", "t", "g"];
    let mass = MASSES.iter().find(|m| s.starts_with(*m))?;
    let mut k = mass.len();
    if s[k..].starts_with(' ') {
        k += 1;
    }
    k += ["CO2", "CO₂"]
        .iter()
        .find(|c| s[k..].starts_with(*c))?
        .len();
    if let Some(x) = ["-eq", "eq", "e"].iter().find(|x| s[k..].starts_with(*x)) {
        k += x.len();
    }
    if s[k..].starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    Some((unit_named(mass)?, k))
}

/// A unit after a scale word ending at `end` (` m³`, ` litros`, ` de toneladas`, ` of
/// tonnes`), normalised, and where it ends.
fn unit_after_scale(text: &str, end: usize) -> Option<(&'static str, usize)> {
    let (mut gap, mut rest) = after_blank(&text[end..])?;
    let joined = word_prefix(rest, 4, char::is_alphabetic);
    if matches!(joined, "de" | "of" | "d") {
        let (g, r) = after_blank(&rest[joined.len()..])?;
        gap += joined.len() + g;
        rest = r;
    }
    let word = word_prefix(rest, 16, |c| {
        c.is_alphabetic() || matches!(c, '²' | '³' | 'µ')
    });
    if word.is_empty() || rest[word.len()..].starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    // (Not a word that is also a symbol: `$1.26 million in indemnity` is not inches.)
    let folded = words::fold(word);
    if words::flags(&folded) & words::flag::STOP != 0 || word.len() < 2 && !one_letter_unit(word) {
        return None;
    }
    // (Miles are read apart from the unit words, for Spanish `miles`; after a scale they are
    // miles: `29.7 million miles`.)
    let unit = unit_named(word)
        .or_else(|| words::unit_word(&folded))
        .or_else(|| matches!(word, "miles" | "mile").then_some("mi"))?;
    (!matches!(unit, "%" | "pp" | "pt")).then_some((unit, end + gap + word.len()))
}

/// A one-letter unit symbol that reads as nothing else after a scale word (`t`, `h`, `L`).
fn one_letter_unit(word: &str) -> bool {
    matches!(word, "t" | "h" | "L" | "l" | "g" | "m")
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

/// The number at `start..j` numbers a list item: first on its line (after blanks or a bullet),
/// followed by `.` or `)`, a blank and a word (`1. Intro`, `2) Next`; `(412)` is no marker).
fn list_marker(text: &str, start: usize, j: usize) -> bool {
    let b = text.as_bytes();
    let followed = matches!(b.get(j), Some(b'.' | b')'))
        && b.get(j + 1).is_some_and(|c| *c == b' ' || *c == b'\t')
        && text[j + 2..]
            .trim_start()
            .starts_with(|c: char| c.is_alphabetic() || c == '*' || c == '"');
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

    type Seen = (String, String, Option<&'static str>, Form);

    fn nums(text: &str, locale: Locale) -> Vec<Seen> {
        let mut out = Lexed::default();
        lex(
            text,
            Mode {
                locale,
                cell: false,
            },
            &mut out,
        );
        out.nums
            .iter()
            .map(|n| {
                let values = n
                    .readings
                    .iter()
                    .map(Decimal::plain)
                    .collect::<Vec<_>>()
                    .join("|");
                (text[n.span.clone()].to_string(), values, n.unit, n.form)
            })
            .collect()
    }

    fn q(token: &str, value: &str, unit: Option<&'static str>) -> Seen {
        (token.to_string(), value.to_string(), unit, Form::Number)
    }

    #[test]
    fn locale_forms() {
        let auto = Locale::Auto;
        assert_eq!(
            nums("1,234.5 kg", auto),
            [q("1,234.5 kg", "1234.5", Some("kg"))]
        );
        assert_eq!(
            nums("1.234,5 kg", auto),
            [q("1.234,5 kg", "1234.5", Some("kg"))]
        );
        assert_eq!(nums("12,5 mm", auto), [q("12,5 mm", "12.5", Some("mm"))]);
        assert_eq!(
            nums("1\u{a0}234,5", auto),
            [q("1\u{a0}234,5", "1234.5", None)]
        );
        assert_eq!(nums("1 234,5", Locale::Fr), [q("1 234,5", "1234.5", None)]);
        assert_eq!(nums("1,234", auto), [q("1,234", "1234|1.234", None)]);
        assert_eq!(nums("1,234", Locale::Pt), [q("1,234", "1.234", None)]);
        assert_eq!(nums("0,500", auto), [q("0,500", "0.500", None)]);
        // Swiss and French grouping, in any text.
        assert_eq!(
            nums("CHF 2'480'000", auto),
            [q("CHF 2'480'000", "2480000", Some("CHF"))]
        );
        assert_eq!(
            nums("3 400 M€", auto),
            [q("3 400 M€", "3400000000", Some("EUR"))]
        );
        assert_eq!(
            nums("12 500 €", auto),
            [q("12 500 €", "12500", Some("EUR"))]
        );
        // A plain space after a group of four digits is no grouping (a year, then a count).
        assert_eq!(nums("in 2023 400 patients", auto).len(), 2);
        // A value that ends its item is written whole (`Nord 1 240 ; Est 1 515.`).
        assert_eq!(
            nums("Nord 1 240 ; Sud 980 ; Est 1 515.", auto),
            [
                q("1 240", "1240", None),
                q("980", "980", None),
                q("1 515", "1515", None)
            ]
        );
        assert_eq!(
            nums("septembre : 2 310\noctobre : 12 845 000\n", auto),
            [q("2 310", "2310", None), q("12 845 000", "12845000", None)]
        );
    }

    #[test]
    fn currency_percent_scale_and_units() {
        let auto = Locale::Auto;
        assert_eq!(
            nums("R$ 1.234,56", auto),
            [q("R$ 1.234,56", "1234.56", Some("BRL"))]
        );
        assert_eq!(nums("$3.2M", auto), [q("$3.2M", "3200000", Some("$"))]);
        assert_eq!(nums("45%", auto), [q("45%", "45", Some("%"))]);
        assert_eq!(nums("+2,0 p.p.", auto)[0].2, Some("pp"));
        assert_eq!(nums("19,1 points", auto)[0].2, Some("pt"));
        assert_eq!(nums("12 puntos porcentuales", auto)[0].2, Some("pp"));
        assert_eq!(
            nums("1,5 milhões", auto),
            [q("1,5 milhões", "1500000", None)]
        );
        assert_eq!(nums("C$923.84", auto)[0].2, Some("CAD"));
        // After money, a unit's spelling is the sentence's next word (a verb's particle).
        assert_eq!(
            nums("setzte CHF 48'200 um", auto),
            [q("CHF 48'200", "48200", Some("CHF"))]
        );
        let mut out = Lexed::default();
        lex(
            "112,40 €/MWh",
            Mode {
                locale: auto,
                cell: false,
            },
            &mut out,
        );
        assert_eq!(
            (out.nums[0].unit, out.nums[0].per),
            (Some("EUR"), Some("MWh"))
        );
    }

    #[test]
    fn forms() {
        let forms = |t: &str| {
            nums(t, Locale::Auto)
                .into_iter()
                .map(|n| n.3)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            forms("1. Intro\n2) Next"),
            [Form::ListMarker, Form::ListMarker]
        );
        assert_eq!(forms("2024-03-15 at 14:30"), [Form::Date, Form::Time]);
        assert_eq!(forms("ISO-9001 v2 H2O S14 CP-28"), [Form::Identifier; 5]);
        assert_eq!(forms("the 2nd and 3º"), [Form::Ordinal, Form::Ordinal]);
        assert_eq!(forms("as shown [12] and [3, 14]"), [Form::Citation; 3]);
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
            "1 2 3 4 5 6 7 8 9",
            "1'2'3",
            "(((1)))",
            "—1—",
            "€",
            "1/",
            "1/x",
        ] {
            let mut out = Lexed::default();
            lex(
                text,
                Mode {
                    locale: Locale::Auto,
                    cell: true,
                },
                &mut out,
            );
            for n in &out.nums {
                assert!(n.span.end <= text.len() && text.is_char_boundary(n.span.start));
            }
        }
    }
}

//! A number's claim frame: its value (with the precision it shows), its kind, its unit,
//! currency and scale, its direction, and — kept beside it by `layout` — what it is bound to.
//! Two numbers can state the same claim only when their frames agree: the rules are here.

use super::lex::{self, Readings};
use super::words;

/// What a number is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A quantity: checked in an answer, indexed in evidence.
    Quantity,
    /// Not a quantity, and why (skipped in an answer; a label in evidence).
    Trivial(Trivial),
}

/// Why a number states no quantity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trivial {
    ListMarker,
    SmallCount,
    Year,
    Date,
    Time,
    /// Digits glued to a name (`ISO-9001`, `S14`).
    Identifier,
    Ordinal,
    Citation,
    /// Numbers a reference or a thing (`p. 212`, `§ 4.3`, `order no. 48213`, `Vortex 900`).
    Label,
    /// A street number or a postal code (`88 Quay Street`).
    Address,
    /// A telephone number.
    Phone,
    /// What a rate is per (`per 1,000 catheter-days`, `pour 100 000 habitants`, `4,2/10`).
    Denominator,
}

/// A number's direction: its sign, or the words about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Polarity {
    /// No sign, no direction: a positive amount.
    #[default]
    Neutral,
    /// `+3.2%`, `a profit of`, `rose`.
    Plus,
    /// `−$340,000`, `(2,317)`.
    MinusSign,
    /// `a loss of $340,000`, `fell 3.2%`, `Fehlbetrag 12,8 Mio. €`.
    MinusWord,
    /// Evidence: an outflow shown negative by presentation (`Staff costs (488)`, `Grants paid
    /// −640`): the amount paid, whether the answer says it plain or as a loss.
    Outflow,
    /// A level a change reached, its words naming no loss (`steigerte sein Ergebnis auf 63,5
    /// Mio.`, `fell to 71.5%`): a plain amount, but not one a loss names.
    Level,
    /// The level a loss's noun reached (`o prejuízo líquido chegou a R$ 4,1 milhões`, `network
    /// losses stood at 18.2%`): the loss, however the evidence signs it; never a gain.
    LossLevel,
}

impl Polarity {
    /// Whether an answer's number of this direction can state an evidence number of
    /// `evidence`'s (their magnitudes equal). A negative claim needs a negative number; a minus
    /// sign is never met by a plain number; a plain number may state an amount the evidence calls
    /// a loss in words (the answer names no direction).
    pub fn agrees(self, evidence: Polarity) -> bool {
        use Polarity::*;
        match (self, evidence) {
            (LossLevel, Plus | Level) => false,
            (LossLevel, _) => true,
            // (Evidence: `les pertes sont estimées à 9 %` is a loss's level, stated plain or as
            // a loss; never a gain.)
            (Plus, LossLevel) => false,
            (_, LossLevel) => true,
            (Level, MinusWord) => false,
            (Level, other) => Neutral.agrees(other),
            (other, Level) => other.agrees(Neutral),
            (Neutral | MinusSign | MinusWord | Outflow, Outflow) => true,
            (Plus, Outflow) => false,
            // (An answer's number is never an outflow: its direction is in its words.)
            (Outflow, _) => false,
            (MinusSign | MinusWord, MinusSign | MinusWord) => true,
            (MinusSign | MinusWord, Neutral | Plus) => false,
            (Plus, MinusSign | MinusWord) => false,
            (Neutral, MinusSign) => false,
            (Neutral, MinusWord) => true,
            (Neutral | Plus, Neutral | Plus) => true,
        }
    }
}

/// A number's frame.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    /// The value(s), scaled (`3.2M` → 3 200 000 with the precision 10⁵), with the sign written.
    pub readings: Readings,
    pub kind: Kind,
    /// Its unit, currency code, `%`, `pp` or `pt`, normalised (`$` already resolved).
    pub unit: Option<&'static str>,
    /// The unit it is per (`€/MWh`).
    pub per: Option<&'static str>,
    pub polarity: Polarity,
    /// An approximation word before it: its precision is its last significant digit.
    pub approx: bool,
    /// A bare decimal in (0, 1] with no unit: a fraction, whose percentage is the same claim.
    pub fraction: bool,
}

/// Units agree unless both are stated and differ (a table often states its unit once, in its
/// header). A bare `°` agrees with `°C` and `°F`; points agree with percentage points.
/// Units and the units they are per agree: `t` per `ha` is `t/ha`.
pub(crate) fn units_per_agree(
    answer: (Option<&str>, Option<&str>),
    evidence: (Option<&str>, Option<&str>),
) -> bool {
    let split = |(u, per): (Option<&str>, Option<&str>)| -> (Option<String>, Option<String>) {
        match (u, per) {
            (Some(u), None) if u.contains('/') && u != "%" => {
                let (a, b) = u.split_once('/').unwrap_or((u, ""));
                (Some(a.to_string()), Some(b.to_string()))
            }
            (u, per) => (u.map(str::to_string), per.map(str::to_string)),
        }
    };
    let (au, ap) = split(answer);
    let (eu, ep) = split(evidence);
    units_agree_one(au.as_deref(), eu.as_deref()) && (ap.is_none() || ep.is_none() || ap == ep)
}

fn units_agree_one(answer: Option<&str>, evidence: Option<&str>) -> bool {
    match (answer, evidence) {
        (Some(a), Some(e)) => {
            a == e
                || (a == "°" && e.starts_with('°'))
                || (e == "°" && a.starts_with('°'))
                || (matches!(a, "pt" | "pp") && matches!(e, "pt" | "pp"))
        }
        _ => true,
    }
}

/// What a caption, a table header, a heading or a JSON key says of the numbers under it: their
/// currency, scale and unit (`Revenue (k€)`, `(USD millions)`, `durations in hours`,
/// `output_mwh`, `[MPa]`, `(%)`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Spec {
    pub currency: Option<&'static str>,
    /// A power of ten.
    pub scale: i32,
    pub unit: Option<&'static str>,
    /// The unit its money is per (`avg_price_brl_dozen`, `farmgate_usd_t`).
    pub per: Option<&'static str>,
}

impl Spec {
    pub fn is_empty(&self) -> bool {
        self.currency.is_none() && self.scale == 0 && self.unit.is_none()
    }

    /// `self`, with what it does not say taken from `under`.
    pub fn over(self, under: Spec) -> Spec {
        Spec {
            currency: self.currency.or(under.currency),
            scale: if self.scale != 0 || self.currency.is_some() || self.unit.is_some() {
                self.scale
            } else {
                under.scale
            },
            unit: self.unit.or(under.unit),
            per: if self.currency.is_some() || self.unit.is_some() {
                self.per
            } else {
                under.per
            },
        }
    }
}

/// Reads the currency, scale and unit a header or caption states: inside parentheses or
/// brackets, after `in`/`em`/`en`/`(in)`, or glued (`k€`, `TEUR`, `$000s`, `USD millions`).
/// Groups holding digits other than `000` are not specs (`(n=148)`, `(2023: 3.655)`).
pub(crate) fn spec_of(text: &str) -> Spec {
    let mut spec = Spec::default();
    // A period's noun alone, in the singular (`Día | Semana | Mes`, `Day`, `Monat`): what a
    // rate's column is per, not a unit of days (`Días de mar`, `Days` count them).
    let folded = words::fold(text.trim());
    let period = match folded.as_ref() {
        "daily" => Some("d"),
        "weekly" => Some("wk"),
        "monthly" => Some("mo"),
        f => words::period_word(f).filter(|p| matches!(*p, "d" | "wk" | "mo")),
    };
    if period.is_some() {
        spec.per = period;
        return spec;
    }
    let mut parts: Vec<&str> = Vec::new();
    // Bracketed groups.
    let mut rest = text;
    while let Some(open) = rest.find(['(', '[']) {
        let close_char = if rest.as_bytes()[open] == b'(' {
            ')'
        } else {
            ']'
        };
        let Some(len) = rest[open + 1..].find(close_char) else {
            break;
        };
        parts.push(&rest[open + 1..open + 1 + len]);
        rest = &rest[open + 1 + len + 1..];
    }
    // `values in € thousands`, `durations in hours`, `all amounts in AUD`, `em R$ mil`.
    // (Looked for only where `in `, `em ` or `en ` occurs: most labels have none.)
    let marked = text
        .as_bytes()
        .windows(3)
        .any(|w| matches!(w, [b'i' | b'I' | b'e', b'n' | b'm', b' ']));
    for marker in [" in ", " em ", " en ", "In ", "in ", "(in "]
        .into_iter()
        .filter(|_| marked)
    {
        if let Some(at) = text.rfind(marker) {
            let tail = &text[at + marker.len()..];
            // (`durations in hours, Q3`: the unit ends at the comma.)
            let tail = tail
                .split([')', ']', ';', ':', ','])
                .next()
                .unwrap_or_default();
            if tail.split_whitespace().count() <= 4 {
                parts.push(tail);
            }
        }
    }
    // A header is often its unit alone (`%`, `MWh`) or ends with it (`Screen-fail %`) — not a
    // quantity's unit: `30 mg: 825 patients` is a condition, its value counts patients.
    // Nor what a header groups by (`Shipments by week`, `Vendas por semana`): a period.
    let last = text.rsplit([' ', ',']).next().unwrap_or_default();
    let head = text[..text.len() - last.len()].trim_end();
    // Nor the noun a phrase ends in (`Net assets, beginning of year`, `fim do mês`).
    let grouped = head.rsplit(' ').next().is_some_and(|w| {
        [
            "by", "per", "por", "par", "pro", "je", "nach", "of", "de", "do", "da", "des", "du",
            "del",
        ]
        .iter()
        .any(|g| w.eq_ignore_ascii_case(g))
    });
    // Nor a period a word before it places (`Prior year`, `Vorjahr`, `Ano anterior`): a
    // column of another year's values, not of years.
    let placed_period =
        // (A label's last number, `Amostra 1234`, is no such word: not asked, nor remembered.)
        !head.is_empty()
            && last.starts_with(char::is_alphabetic)
            && words::flags(&words::fold(last)) & words::flag::YEAR_WORD != 0;
    if !head.ends_with(|c: char| c.is_ascii_digit()) && !grouped && !placed_period {
        parts.push(last);
    }
    // A CSV header written as a key (`reach_000`, `revenue_eur_m`).
    if !text.contains(' ') && text.contains('_') {
        let key = key_spec(text);
        if !key.is_empty() {
            return key;
        }
    }
    for part in parts {
        if part
            .bytes()
            .any(|c| c.is_ascii_digit() || c == b'=' || c == b'<' || c == b'>')
            && !part.contains("000")
            || thousand_quantity(part)
        {
            continue;
        }
        let found = spec_words(part);
        if !found.is_empty() {
            spec = found.over(spec);
        }
    }
    spec
}

/// `(1,000 IU)`, `(1 000 mg)`, `(1,000 patients)`: a quantity whose number ends in `000`, not
/// a scale — the number is followed by a word that is neither a currency nor a unit a table
/// counts in thousands of (`(1,000 t)`, `(1.000 m³)` stay scales), or by a dose's unit.
fn thousand_quantity(part: &str) -> bool {
    let part = part.trim();
    let Some(at) = part.find("000") else {
        return false;
    };
    let number = &part[..at];
    if number.is_empty()
        || !number.starts_with(|c: char| c.is_ascii_digit())
        || !number
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | ' ' | '\'' | '’'))
    {
        return false;
    }
    let Some(next) = part[at + 3..]
        .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, ',' | '.' | ' '))
        .split_whitespace()
        .next()
    else {
        return false;
    };
    if !next.starts_with(char::is_alphabetic)
        || words::currency_word(next).is_some()
        || glued_money(next).is_some()
    {
        return false;
    }
    let folded = words::fold(next);
    match lex::unit_symbol(next).or_else(|| words::unit_word(&folded)) {
        Some(unit) => matches!(unit, "mg" | "µg" | "mL" | "g" | "IU"),
        None => words::flags(&folded) & words::flag::STOP == 0,
    }
}

/// What a caption says of several columns at once (`distance in km, HSR in m, top speed in
/// km/h`, `durations in hours`): each column's words (folded) and their spec.
pub(crate) fn spec_pairs(text: &str) -> Vec<(Vec<String>, Spec)> {
    let mut out = Vec::new();
    // A legend's items (`GP games played, PTS points, PIM penalty minutes`): each column's
    // abbreviation and what its words state, read when there are two or more of them.
    let mut legend: Vec<(&str, &str)> = Vec::new();
    for part in text.split([',', ';', '(', ')', ':']) {
        // (`Depots, fiscal 2024. Fuel cost in USD thousands`: the sentence that names it.)
        let part = part.rsplit(". ").next().unwrap_or(part);
        let part = part.rsplit(" — ").next().unwrap_or(part).trim();
        let mut marked = false;
        for marker in [" in ", " em ", " en "] {
            if let Some((what, unit)) = part.split_once(marker) {
                marked = true;
                let spec = spec_words(unit);
                let words: Vec<String> = what
                    .split_whitespace()
                    .map(|w| words::fold(w).into_owned())
                    .filter(|w| w.len() > 1 && words::flags(w) & words::flag::STOP == 0)
                    .collect();
                if !spec.is_empty() && !words.is_empty() && words.len() <= 4 {
                    out.push((words, spec));
                }
                break;
            }
        }
        if let Some(item) = legend_item(part) {
            // (One read above, `TST total sleep time in minutes`, is counted as an item.)
            legend.push(if marked { ("", "") } else { item });
        }
    }
    if legend.len() >= 2 {
        for (abbreviation, meaning) in legend.into_iter().filter(|(a, _)| !a.is_empty()) {
            let spec = spec_words(meaning);
            if !spec.is_empty() {
                out.push((vec![words::fold(abbreviation).into_owned()], spec));
            }
        }
    }
    out
}

/// A legend's item: an abbreviation, then the words it stands for, the first of them starting
/// with its letter (`PIM penalty minutes`, `Pkt Punkte`, `SG saldo de gols`; not `Net sales
/// €m`).
fn legend_item(part: &str) -> Option<(&str, &str)> {
    let (abbreviation, meaning) = part.split_once(' ')?;
    let meaning = meaning.trim();
    let first = abbreviation.chars().next()?;
    let capitals = abbreviation
        .chars()
        .all(|c| c.is_uppercase() || c.is_ascii_digit() || matches!(c, '+' | '/' | '-'));
    let short = abbreviation.chars().count() <= 3 && first.is_uppercase();
    let same_letter = meaning
        .chars()
        .next()
        .is_some_and(|c| c.to_lowercase().eq(first.to_lowercase()));
    (abbreviation.chars().count() <= 5
        && first.is_alphabetic()
        && (capitals || short)
        && same_letter
        && meaning.chars().any(char::is_alphabetic))
    .then_some((abbreviation, meaning))
}

/// A name's initial: one capital and its dot (`L.`, `W.:`).
fn initial(raw: &str) -> bool {
    let mut chars = raw.trim_end_matches(':').chars();
    matches!(
        (chars.next(), chars.next(), chars.next()),
        (Some(c), Some('.'), None) if c.is_uppercase()
    )
}

/// The spec the words of one group state. A lone `m`, `M`, `k`, `mn`, `bn` is a scale only
/// beside a currency (`€ m`, `USD k`); function words (`in`, `em`) are never units.
fn spec_words(part: &str) -> Spec {
    let mut spec = Spec::default();
    // `(USD 1,000,000)`, `(EUR 1.000.000)`: millions, however grouped (the tokens below split
    // at commas).
    let millions = [
        "1,000,000",
        "1.000.000",
        "1'000'000",
        "1’000’000",
        "1 000 000",
    ]
    .iter()
    .any(|m| part.contains(m));
    let tokens: Vec<&str> = part
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';'))
        // (A name's initial is no unit: `Nguyen, L.`, `Sato, N.`, `Patel, W.` are not litres,
        // newtons or watts.)
        .filter(|raw| !initial(raw))
        .map(|raw| raw.trim_matches(|c: char| matches!(c, '.' | '\'' | '’' | '"' | ':')))
        .filter(|w| !w.is_empty())
        .collect();
    let has_currency = tokens.iter().any(|w| {
        glued_money(w).is_some_and(|(c, _)| c.is_some()) || words::currency_word(w).is_some()
    });
    // (`(en horas)`: a group of one word but its function words names a one-letter unit.)
    // (Not `(per hour)`: what a rate is per, not its unit.)
    let content_words = if tokens.iter().any(|w| {
        matches!(
            w.to_lowercase().as_str(),
            "per" | "por" | "pro" | "par" | "je" | "pour" | "a" | "à"
        )
    }) {
        0
    } else {
        tokens
            .iter()
            .filter(|w| words::flags(&words::fold(w)) & words::flag::STOP == 0)
            .count()
    };
    for w in tokens {
        // `(in CHF 1'000)`, `(EUR 1.000)`, `(USD 1,000,000)`: the scale written as its unit.
        let grouped: String = w
            .chars()
            .filter(|c| !matches!(c, '\'' | '’' | '.'))
            .collect();
        if has_currency && w.starts_with('1') && matches!(grouped.as_str(), "1000" | "1000000") {
            spec.scale = if grouped.len() == 4 { 3 } else { 6 };
            continue;
        }
        // `(US$ 000)`, `(R$ mil)`, `(€ 000.000)`: the zeros a value leaves out.
        if has_currency && !millions && matches!(w, "000" | "'000" | "000s") {
            spec.scale = 3;
            continue;
        }
        if has_currency && matches!(w, "000.000" | "000,000" | "000'000") {
            spec.scale = 6;
            continue;
        }
        if millions && has_currency && matches!(w, "1" | "000") {
            spec.scale = 6;
            continue;
        }
        if w.ends_with('%') && w.len() <= 3 || w == "%" {
            spec.unit = Some("%");
            continue;
        }
        if w.ends_with('%') {
            spec.unit = Some("%");
            continue;
        }
        if has_currency {
            if let Some(scale) = match w {
                "k" | "K" | "mil" => Some(3),
                "m" | "M" | "mn" | "Mn" | "mm" | "MM" => Some(6),
                "bn" | "B" | "Md" | "Mrd" => Some(9),
                _ => None,
            } {
                spec.scale = scale;
                continue;
            }
        }
        if let Some((currency, scale)) = glued_money(w) {
            if currency.is_some() || has_currency || scale != 0 && w.len() > 1 {
                spec.currency = currency.or(spec.currency);
                if scale != 0 {
                    spec.scale = scale;
                }
                continue;
            }
        }
        let folded = words::fold(w);
        // (`Real` over a column is what was spent, beside `Presupuesto`/`Planejado`, not
        // Brazil's currency: a header names reais in the plural or by `R$`.)
        if folded == "real" {
            continue;
        }
        if let Some(c) = words::currency_word(w) {
            spec.currency = Some(c);
            continue;
        }
        if words::flags(&folded) & words::flag::STOP != 0 {
            continue;
        }
        // A rate or an intensity (`m³/día`, `kWh/m³`, `t/h`): the unit and its per.
        if let Some((left, right)) = folded.split_once('/') {
            let right = match right {
                "dias" | "j" => "d",
                r => words::period_word(r)
                    .filter(|p| matches!(*p, "d" | "h"))
                    .unwrap_or(r),
            };
            let compound = format!("{left}/{right}")
                .replace('³', "3")
                .replace('²', "2");
            if let Some(u) = unit_lower(&compound) {
                spec.unit = Some(u);
                continue;
            }
        }
        // (Not a quarter's abbreviation: `Vendas 1º tri`; nor English miles, `route length in
        // miles`: the Spanish `miles` is thousands of something, `miles de euros`, `miles €`.)
        if let Some(s) = words::scale_word(w, false).filter(|_| {
            words::flags(&folded) & words::flag::QUARTER == 0
                && (folded != "miles" || has_currency || part.contains("miles de"))
        }) {
            spec.scale = s;
            continue;
        }
        // (`in miles`, `in nautical miles`: the unit words read apart from Spanish `miles`.)
        let miles = match &*folded {
            "miles" | "mile" if part.contains("nautical") => Some("nmi"),
            "miles" | "mile" if !part.contains("miles de") && !has_currency => Some("mi"),
            _ => None,
        };
        if let Some(u) = miles
            .or_else(|| lex::unit_symbol(w))
            .or_else(|| words::unit_word(&folded))
        {
            if u.len() == 3 && u.chars().all(|c| c.is_ascii_uppercase()) && u != "TEU" {
                spec.currency = Some(u);
            } else if u.chars().count() > 1 || u == "%" || part.trim() == w || content_words == 1 {
                spec.unit = Some(u);
            }
            continue;
        }
    }
    spec
}

/// `k€`, `M€`, `Md€`, `T€`, `TEUR`, `kEUR`, `MEUR`, `TCHF`, `$M`, `$m`, `$bn`, `$k`, `€m`,
/// `£m`, `$000s`, `000s`, `USDm`, `EURbn`, `R$`, `US$`: a currency and a scale.
fn glued_money(w: &str) -> Option<(Option<&'static str>, i32)> {
    const SYMBOLS: &[(&str, &str)] = &[
        ("R$", "BRL"),
        ("US$", "USD"),
        ("C$", "CAD"),
        ("A$", "AUD"),
        ("$", "$"),
        ("€", "EUR"),
        ("£", "GBP"),
        ("EUR", "EUR"),
        ("USD", "USD"),
        ("CHF", "CHF"),
        ("GBP", "GBP"),
        ("BRL", "BRL"),
        ("CAD", "CAD"),
        ("AUD", "AUD"),
    ];
    const SCALES: &[(&str, i32)] = &[
        ("000s", 3),
        ("000", 3),
        ("bn", 9),
        ("Md", 9),
        ("Mrd", 9),
        ("mn", 6),
        ("M", 6),
        ("m", 6),
        ("k", 3),
        ("K", 3),
        ("T", 3),
        ("B", 9),
    ];
    if w == "000s" || w == "000" {
        return Some((None, 3));
    }
    for &(sym, code) in SYMBOLS {
        if w == sym {
            return Some((Some(code), 0));
        }
        if let Some(rest) = w.strip_prefix(sym) {
            if let Some(&(_, s)) = SCALES.iter().find(|(p, _)| *p == rest) {
                return Some((Some(code), s));
            }
        }
        if let Some(rest) = w.strip_suffix(sym) {
            if let Some(&(_, s)) = SCALES.iter().find(|(p, _)| *p == rest) {
                return Some((Some(code), s));
            }
        }
    }
    None
}

/// The unit a JSON key's last parts name (`output_mwh`, `area_ha`, `fc_mpa`, `density_kg_m3`,
/// `revenue_eur_m`, `response_rate_pct`, `yield_t_per_ha`, `avg_dwell_days`), with a currency's
/// scale (`_meur`, `_eur_m`, `_k`).
pub(crate) fn key_spec(key: &str) -> Spec {
    let parts: Vec<String> = key
        .split(['_', '-', ' ', '.'])
        .filter(|p| !p.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let mut spec = Spec::default();
    let n = parts.len();
    // A key that counts (`ciclos`, `charge_cycles`, `count`): its number is a count, no
    // measure in a unit (`312 Wh` is not 312 cycles).
    if parts.last().is_some_and(|p| {
        matches!(
            p.as_str(),
            "cycles" | "ciclos" | "zyklen" | "count" | "qty" | "anzahl" | "cantidad" | "quantidade"
        )
    }) {
        spec.unit = Some("count");
        return spec;
    }
    if n < 2 {
        return spec;
    }
    let last = parts[n - 1].as_str();
    let prev = parts[n - 2].as_str();
    let currency = |p: &str| -> Option<(&'static str, i32)> {
        // (`meur`, `kusd`, `tchf`: a scale letter glued to a major currency's code; not a
        // word that happens to end in one, `mars` is March, not millions of pesos.)
        let (scale, code) = match p.len() {
            4 if (p.starts_with('m') || p.starts_with('k') || p.starts_with('t'))
                && matches!(
                    &p[1..],
                    "eur" | "usd" | "chf" | "gbp" | "brl" | "cad" | "aud"
                ) =>
            {
                (if p.starts_with('m') { 6 } else { 3 }, &p[1..])
            }
            _ => (0, p),
        };
        let code = words::currency_word(&code.to_ascii_uppercase())?;
        Some((code, scale))
    };
    // `_eur_m`, `_usd_k`, `_brl_bn`.
    if let (Some((code, 0)), Some(scale)) = (
        currency(prev),
        match last {
            "k" | "mil" | "thousand" | "thousands" => Some(3),
            // (`ventas_mxn_mm`: millions, as Latin American accounts write them.)
            "m" | "mn" | "mm" | "mio" | "million" | "millions" => Some(6),
            "bn" | "b" | "mrd" | "billion" => Some(9),
            _ => None,
        },
    ) {
        spec.currency = Some(code);
        spec.scale = scale;
        return spec;
    }
    if let Some((code, scale)) = currency(last) {
        spec.currency = Some(code);
        spec.scale = scale;
        // `revenue_k_usd`, `cost_m_eur`: the scale before the currency; after a price, `m`
        // is what it is per (`precio_m_eur`: euros a metre).
        let price = matches!(
            parts[0].as_str(),
            "price" | "precio" | "preco" | "prix" | "preis" | "tarifa" | "tariff" | "tarif"
        );
        if scale == 0 && price && prev == "m" {
            spec.per = Some("m");
            return spec;
        }
        if scale == 0 {
            spec.scale = match prev {
                "k" | "mil" | "thousand" | "thousands" | "000" => 3,
                "m" | "mn" | "mio" | "million" | "millions" => 6,
                "bn" | "mrd" | "billion" => 9,
                _ => 0,
            };
        }
        return spec;
    }
    if matches!(last, "pct" | "percent" | "pc") {
        spec.unit = Some("%");
        return spec;
    }
    // `reach_000`, `revenue_000s`: in thousands.
    if matches!(last, "000" | "000s" | "k") {
        spec.scale = 3;
        return spec;
    }
    // A scale written as a word (`visitors_mn`, `downloads_million`); `_m` after a plural noun
    // (`downloads_m`, `words_m`) is millions, after a measure (`tower_height_m`) metres; after
    // a unit (`azucar_t_mil`, `kg_dispensed_k`), that unit in thousands.
    let scale = match last {
        "mn" | "mio" | "million" | "millions" => 6,
        "bn" | "billion" | "billions" => 9,
        "m" if prev.len() > 3
            && prev.ends_with('s')
            && !prev.ends_with("ss")
            && unit_lower(prev).is_none()
            && words::unit_word(prev).is_none() =>
        {
            6
        }
        "mil" | "thousand" | "thousands" => 3,
        _ => 0,
    };
    if scale != 0 {
        spec.scale = scale;
        spec.unit = unit_lower(prev)
            .or_else(|| (prev.len() <= 3).then(|| words::unit_word(prev)).flatten());
        return spec;
    }
    if matches!(last, "pp" | "pts") {
        spec.unit = Some("pp");
        return spec;
    }
    // `kwh_per_pallet_month`: the unit before `per`, per what follows when that is a unit.
    // (`futterverbrauch_kg_pro_tag`, `racao_kg_por_dia`: the per word of any language.)
    if let Some(p) = parts
        .iter()
        .position(|x| matches!(x.as_str(), "per" | "pro" | "por" | "par" | "je"))
        .filter(|&p| p > 0 && p + 1 < n)
    {
        let unit_of = |w: &str| {
            unit_lower(w)
                .or_else(|| words::unit_word(w))
                .or(words::period_word(w).filter(|p| matches!(*p, "d" | "h")))
        };
        // (A compound the symbols know stays one: `t_per_ha` is `t/ha`.)
        if let Some(u) =
            unit_lower(&format!("{}/{}", parts[p - 1], parts[p + 1])).filter(|_| p + 2 == n)
        {
            spec.unit = Some(u);
            return spec;
        }
        if let Some(u) = unit_of(&parts[p - 1]) {
            spec.unit = Some(u);
            spec.per = unit_of(&parts[p + 1]).filter(|_| p + 2 == n);
            return spec;
        }
    }
    // `t_ha`, `kg_m3`, `t_per_ha`; a period in words (`racao_kg_dia`, `output_t_day`).
    let period = match last {
        "dias" => "d",
        other => words::period_word(other)
            .filter(|p| matches!(*p, "d" | "h"))
            .unwrap_or(other),
    };
    let compound = if n >= 3 && parts[n - 2] == "per" {
        Some(format!("{}/{}", parts[n - 3], period))
    } else {
        Some(format!("{prev}/{period}"))
    };
    if let Some(u) = compound.and_then(|c| unit_lower(&c)) {
        spec.unit = Some(u);
        return spec;
    }
    // Money per a unit (`avg_price_brl_dozen`, `farmgate_usd_t`): the money, per the unit.
    if let Some((code, scale)) = currency(prev) {
        spec.currency = Some(code);
        spec.scale = scale;
        spec.per = unit_lower(last).or_else(|| words::unit_word(last));
        return spec;
    }
    if let Some(u) = unit_lower(last).or_else(|| words::unit_word(last)) {
        // A key's single letter is a unit only where keys are written so (`_t`, `_h`).
        spec.unit = Some(u);
    }
    spec
}

/// A unit symbol written in lower case (`mwh`, `mpa`, `kg/m3`), as its symbol: the common
/// reading where case tells prefixes apart.
fn unit_lower(w: &str) -> Option<&'static str> {
    Some(match w {
        "mwh" => "MWh",
        "gwh" => "GWh",
        "twh" => "TWh",
        "kwh" => "kWh",
        "kt" => "kt",
        "mw" => "MW",
        "gw" => "GW",
        "kw" => "kW",
        "mwp" => "MWp",
        "kwp" => "kWp",
        "mpa" => "MPa",
        "kpa" => "kPa",
        "gpa" => "GPa",
        "kn" => "kN",
        "teu" => "TEU",
        "kg/m3" => "kg/m³",
        "t/ha" => "t/ha",
        "kg/ha" => "kg/ha",
        "l/ha" => "L/ha",
        "m3" => "m³",
        "m2" => "m²",
        "m3/h" => "m³/h",
        // Rates and intensities (`permeate_m3_d`, `sec_kwh_m3`): the unit and its per.
        // A mass of CO₂ (equivalent) is a mass (`emissions_tco2e`; `412 t CO2e`).
        "tco2e" | "tco2" | "tco2eq" => "t",
        "kgco2e" | "kgco2" | "kgco2eq" => "kg",
        "ktco2e" | "ktco2" => "kt",
        "mtco2e" | "mtco2" => "Mt",
        "m3/d" | "m3/day" => "m³/d",
        "m3/s" => "m³/s",
        "l/s" => "L/s",
        "l/h" => "L/h",
        "l/d" => "L/d",
        "t/d" | "t/day" => "t/d",
        "t/h" => "t/h",
        "kwh/m3" => "kWh/m³",
        "kwh/t" => "kWh/t",
        "kwh/m2" => "kWh/m²",
        "mg/l" => "mg/L",
        "g/l" => "g/L",
        "kg/d" => "kg/d",
        "kg/h" => "kg/h",
        "km/h" | "kmh" => "km/h",
        "mmhg" => "mmHg",
        "degc" | "c" => "°C",
        "days" | "d" => "d",
        "hours" | "hrs" | "h" => "h",
        "min" | "mins" | "minutes" => "min",
        "km" => "km",
        "mm" => "mm",
        "cm" => "cm",
        "kg" => "kg",
        "t" => "t",
        "ha" => "ha",
        "l" => "L",
        "ml" => "mL",
        "mg" => "mg",
        "g" => "g",
        "db" => "dB",
        "w" => "W",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(c: Option<&'static str>, scale: i32, u: Option<&'static str>) -> Spec {
        Spec {
            currency: c,
            scale,
            unit: u,
            per: None,
        }
    }

    #[test]
    fn headers_and_captions_state_currency_scale_and_unit() {
        assert_eq!(spec_of("Revenue (k€)"), s(Some("EUR"), 3, None));
        assert_eq!(
            spec_of("Segment results FY2024 (USD millions)"),
            s(Some("USD"), 6, None)
        );
        assert_eq!(
            spec_of("Staff cost by department ($000s)"),
            s(Some("$"), 3, None)
        );
        assert_eq!(spec_of("Konzern-GuV (in TEUR)"), s(Some("EUR"), 3, None));
        assert_eq!(
            spec_of("Rechnung 2024 (in CHF Mio.)"),
            s(Some("CHF"), 6, None)
        );
        assert_eq!(
            spec_of("Despesas por função — 2024 (valores em R$ mil)"),
            s(Some("BRL"), 3, None)
        );
        assert_eq!(
            spec_of("Maintenance downtime by unit (durations in hours)"),
            s(None, 0, Some("h"))
        );
        assert_eq!(spec_of("Rp0,2 [MPa]"), s(None, 0, Some("MPa")));
        assert_eq!(spec_of("Gross margin (%)"), s(None, 0, Some("%")));
        assert_eq!(spec_of("Screen-fail %"), s(None, 0, Some("%")));
        assert_eq!(spec_of("Placebo arm (n=148)"), s(None, 0, None));
        assert_eq!(
            spec_of("Freight quote #Q-5531 (all amounts in AUD)"),
            s(Some("AUD"), 0, None)
        );
        assert_eq!(spec_of("Área (mil ha)"), s(None, 3, Some("ha")));
    }

    #[test]
    fn json_keys_state_units() {
        assert_eq!(key_spec("output_mwh").unit, Some("MWh"));
        assert_eq!(key_spec("density_kg_m3").unit, Some("kg/m³"));
        assert_eq!(key_spec("yield_t_per_ha").unit, Some("t/ha"));
        assert_eq!(key_spec("kwh_per_pallet_month").unit, Some("kWh"));
        assert_eq!(key_spec("betteraves_kt").unit, Some("kt"));
        assert_eq!(key_spec("downloads_m").scale, 6);
        assert_eq!(key_spec("tower_height_m").scale, 0);
        assert_eq!(key_spec("entrees_mars").currency, None);
        let per = key_spec("farmgate_usd_t");
        assert_eq!((per.currency, per.per), (Some("USD"), Some("t")));
        assert_eq!(key_spec("revenue_eur_m"), s(Some("EUR"), 6, None));
        assert_eq!(key_spec("cost_m_eur"), s(Some("EUR"), 6, None));
        // (A price's `m` is a metre: euros a metre.)
        let per_metre = key_spec("precio_m_eur");
        assert_eq!(
            (per_metre.currency, per_metre.scale, per_metre.per),
            (Some("EUR"), 0, Some("m"))
        );
        assert_eq!(key_spec("chiffre_affaires_meur"), s(Some("EUR"), 6, None));
        assert_eq!(key_spec("response_rate_pct").unit, Some("%"));
        assert_eq!(key_spec("avg_dwell_days").unit, Some("d"));
        assert!(key_spec("revenue").is_empty());
    }

    #[test]
    fn directions_agree_as_claims_do() {
        use Polarity::*;
        assert!(MinusWord.agrees(MinusSign));
        assert!(!MinusWord.agrees(Neutral));
        assert!(!Plus.agrees(MinusSign));
        assert!(!Neutral.agrees(MinusSign));
        assert!(Neutral.agrees(MinusWord));
    }
}

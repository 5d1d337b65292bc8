//! Facts written down: a row's label, a value with its unit, currency or scale, sentences of
//! evidence and of answers, and the evidence formats (prose, lines, tables, JSON).

use crate::spell::{self, Currency, Lang, Scale, Q};
use crate::vocab::{self, Attr, Domain, Kind, Row};
use crate::Format;
use llmjson_faults::Rng;

/// A fact table: rows × attributes.
#[derive(Debug, Clone)]
pub(crate) struct Grid {
    #[allow(dead_code)]
    pub domain: &'static Domain,
    pub rows: Vec<Row>,
    pub attrs: Vec<&'static Attr>,
    /// `values[row][attr]`: money in `scale` units, fractions as fractions.
    pub values: Vec<Vec<Q>>,
    pub currency: Currency,
    /// The scale money is counted in (`None`: plain units).
    pub scale: Option<Scale>,
}

impl Grid {
    /// The true value of a cell in plain units (money times its scale).
    pub fn plain(&self, r: usize, a: usize) -> Q {
        let q = self.values[r][a];
        match (self.attrs[a].kind, self.scale) {
            (Kind::Money, Some(s)) => q.shift(s.power()),
            _ => q,
        }
    }

    /// Whether any cell of an attribute of the same kind holds a value that `q` (plain units)
    /// could be read as: equal, or a rounding of it at `q`'s precision.
    pub fn holds(&self, q: Q, kind_of: usize) -> bool {
        let kind = self.attrs[kind_of].kind;
        (0..self.rows.len()).any(|r| {
            (0..self.attrs.len()).any(|a| {
                let same_kind =
                    std::mem::discriminant(&self.attrs[a].kind) == std::mem::discriminant(&kind);
                same_kind && rounds_to(self.plain(r, a), q)
            })
        })
    }
}

/// Whether `evidence` rounded at `answer`'s precision is `answer` (or equal).
pub(crate) fn rounds_to(evidence: Q, answer: Q) -> bool {
    let (e, a) = (evidence.abs(), answer.abs());
    if e.same(a) {
        return true;
    }
    let a = a.trimmed();
    // The answer's precision: its decimals, or its trailing zeros for an integer.
    let mut places = a.dec as i32;
    if a.dec == 0 {
        let mut m = a.mant;
        while m != 0 && m % 10 == 0 {
            m /= 10;
            places -= 1;
        }
    }
    e.dec as i32 > places && e.round(places).same(a)
}

/// A sentence's first letter in upper case.
pub(crate) fn cap(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A row's label in `lang` (`arm B`, `120 °C`, `Q3 2024`, `3 March 2025`).
pub(crate) fn label(lang: Lang, row: &Row, rng: &mut Rng) -> String {
    let i = vocab::word_index(lang);
    match row {
        Row::Name(n) => n.to_string(),
        Row::Code(noun, c) => format!("{} {c}", noun[i]),
        Row::Numbered(noun, n) => format!("{} {n}", noun[i]),
        Row::Condition(unit, q) => format!("{} {unit}", spell::num(lang, *q, rng)),
        Row::Year(y) => y.to_string(),
        Row::Quarter(q, y) => vocab::quarter(lang, *q, *y, rng),
        Row::Day(d) => spell::date(lang, *d, rng),
        Row::Model(name, n) => format!("{name} {n}"),
    }
}

/// `in Porto`, `for arm B`, `at 120 °C`, `in 2023`, `on 3 March 2025`.
pub(crate) fn at(lang: Lang, row: &Row, rng: &mut Rng) -> String {
    let l = label(lang, row, rng);
    let kind = match row {
        Row::Name(_) => 0,
        Row::Code(..) | Row::Numbered(..) | Row::Model(..) => 1,
        Row::Condition(..) => 2,
        Row::Year(_) | Row::Quarter(..) => 3,
        Row::Day(_) => 4,
    };
    let prep = match (lang.words(), kind) {
        (Lang::En, 0) => "in",
        (Lang::En, 1) => "for",
        (Lang::En, 2) => "at",
        (Lang::En, 3) => "in",
        (Lang::En, _) => "on",
        (Lang::Pt, 1) => "para",
        (Lang::Pt, 2) => "a",
        (Lang::Pt, _) => "em",
        (Lang::Es, 1) => "para",
        (Lang::Es, 2) => "a",
        (Lang::Es, 4) => "el",
        (Lang::Es, _) => "en",
        (Lang::Fr, 0) => "à",
        (Lang::Fr, 1) => "pour",
        (Lang::Fr, 2) => "à",
        (Lang::Fr, 3) => "en",
        (Lang::Fr, _) => "le",
        (_, 0) => "in",
        (_, 1) => "für",
        (_, 2) => "bei",
        (_, 3) => {
            if matches!(row, Row::Year(_)) {
                return format!("im Jahr {l}");
            }
            "im"
        }
        (_, _) => "am",
    };
    // `au 2e trimestre`, `im 3. Quartal` already carry their preposition's shape.
    if l.starts_with("au ") || l.starts_with("el ") {
        return l;
    }
    format!("{prep} {l}")
}

/// A value of `attr` in `lang`, with its unit, currency or scale as evidence or an answer
/// writes it in running text. `q` is the value in the grid's units.
pub(crate) fn value(
    lang: Lang,
    grid: &Grid,
    attr: &Attr,
    q: Q,
    style: Style,
    rng: &mut Rng,
) -> String {
    let n = |q: Q, rng: &mut Rng| spell::num(lang, q, rng);
    match attr.kind {
        Kind::Count(nouns) => {
            let digits = n(q, rng);
            if style.bare {
                digits
            } else {
                format!("{digits} {}", nouns[vocab::word_index(lang)])
            }
        }
        Kind::Unit(symbol, words) => {
            let digits = n(q, rng);
            let word = words[vocab::word_index(lang)];
            if style.bare {
                digits
            } else if style.unit_word && !word.is_empty() {
                format!("{digits} {word}")
            } else if symbol.len() <= 2
                && symbol.chars().all(char::is_alphabetic)
                && rng.chance(0.3)
            {
                format!("{digits}{symbol}")
            } else {
                format!("{digits} {symbol}")
            }
        }
        Kind::Money => money(lang, grid, q, style, rng),
        Kind::Percent => {
            if style.bare {
                n(q, rng)
            } else {
                format!("{}{}", n(q, rng), spell::percent(lang, rng))
            }
        }
        Kind::Fraction => {
            if style.as_percent {
                format!("{}{}", n(q.shift(2), rng), spell::percent(lang, rng))
            } else {
                n(q, rng)
            }
        }
    }
}

/// An amount of money: with its scale word, or written out in full.
fn money(lang: Lang, grid: &Grid, q: Q, style: Style, rng: &mut Rng) -> String {
    if style.bare {
        return spell::num(lang, q, rng);
    }
    match grid.scale {
        Some(scale) if !style.full => {
            let digits = spell::num(lang, q, rng);
            spell::scaled(lang, scale, &digits, Some(grid.currency), rng)
        }
        Some(scale) => {
            let digits = spell::num(lang, q.shift(scale.power()), rng);
            spell::money(lang, grid.currency, &digits, rng)
        }
        None => {
            let digits = spell::num(lang, q, rng);
            spell::money(lang, grid.currency, &digits, rng)
        }
    }
}

/// How a value is written.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Style {
    /// Digits only (a table cell; the unit is in the header).
    pub bare: bool,
    /// A unit's word instead of its symbol.
    pub unit_word: bool,
    /// Money in full (`€3,215,000`), not with a scale word.
    pub full: bool,
    /// A fraction as a percentage.
    pub as_percent: bool,
}

/// A sentence stating `value` of `attr` for `row`, as evidence writes it.
pub(crate) fn evidence_sentence(
    lang: Lang,
    row: &Row,
    parts: &[(&Attr, String)],
    rng: &mut Rng,
) -> String {
    let at_row = at(lang, row, rng);
    let lab = label(lang, row, rng);
    let was = join_parts(lang, parts, Join::Was);
    let of = join_parts(lang, parts, Join::Of);
    let bare = join_parts(lang, parts, Join::Bare);
    let forms: &[&str] = match lang.words() {
        Lang::En => &["{At}, {was}.", "{Label}: {bare}.", "{At} we recorded {of}."],
        Lang::Pt => &[
            "{At}, {was}.",
            "{Label}: {bare}.",
            "{At} registrou-se {of}.",
        ],
        Lang::Es => &["{At}, {was}.", "{Label}: {bare}.", "{At} se registró {of}."],
        Lang::Fr => &[
            "{At}, {was}.",
            "{Label} : {bare}.",
            "{At}, on a relevé {of}.",
        ],
        _ => &[
            "{At}: {bare}.",
            "{Label}: {bare}.",
            "{At} wurden {of} gemessen.",
        ],
    };
    one_period(
        rng.pick(forms)
            .replace("{At}", &cap(&at_row))
            .replace("{Label}", &cap(&lab))
            .replace("{was}", &was)
            .replace("{of}", &of)
            .replace("{bare}", &bare),
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Join {
    /// `output was 410 t and peak load 12 MW`.
    Was,
    /// `output of 410 t and peak load of 12 MW`.
    Of,
    /// `output 410 t, peak load 12 MW`.
    Bare,
}

fn join_parts(lang: Lang, parts: &[(&Attr, String)], join: Join) -> String {
    let (was, of, and) = match lang.words() {
        Lang::En => (" was ", " of ", " and "),
        Lang::Pt => (" foi de ", " de ", " e "),
        Lang::Es => (" fue de ", " de ", " y "),
        Lang::Fr => (" était de ", " de ", " et "),
        _ => (" lag bei ", " von ", " und "),
    };
    let mut out = String::new();
    for (k, (attr, v)) in parts.iter().enumerate() {
        if k > 0 {
            out.push_str(if join == Join::Bare {
                ", "
            } else if k + 1 == parts.len() {
                and
            } else {
                ", "
            });
        }
        out.push_str(attr.name(lang));
        out.push_str(match join {
            Join::Was if k == 0 => was,
            Join::Was | Join::Bare => " ",
            Join::Of => of,
        });
        out.push_str(v);
    }
    out
}

/// A sentence of an answer stating `v` as `attr` of `row`.
pub(crate) fn answer_sentence(
    lang: Lang,
    row: Option<&Row>,
    attr: &Attr,
    v: &str,
    rng: &mut Rng,
) -> String {
    let name = attr.name(lang);
    let Some(row) = row else {
        let forms: &[&str] = match lang.words() {
            Lang::En => &[
                "The {attr} was {v}.",
                "{Attr}: {v}.",
                "It reported {attr} of {v}.",
            ],
            Lang::Pt => &[
                "{Attr} foi de {v}.",
                "{Attr}: {v}.",
                "Registrou {attr} de {v}.",
            ],
            Lang::Es => &[
                "{Attr} fue de {v}.",
                "{Attr}: {v}.",
                "Se registró {attr} de {v}.",
            ],
            Lang::Fr => &[
                "{Attr} était de {v}.",
                "{Attr} : {v}.",
                "On relève {attr} de {v}.",
            ],
            _ => &[
                "{Attr} betrug {v}.",
                "{Attr}: {v}.",
                "Gemeldet wurde {attr} von {v}.",
            ],
        };
        return one_period(
            rng.pick(forms)
                .replace("{Attr}", &cap(name))
                .replace("{attr}", name)
                .replace("{v}", v),
        );
    };
    let at_row = at(lang, row, rng);
    let lab = label(lang, row, rng);
    let subject_first = matches!(
        row,
        Row::Name(_) | Row::Code(..) | Row::Model(..) | Row::Numbered(..)
    );
    let forms: &[&str] = match (lang.words(), subject_first) {
        (Lang::En, true) => &[
            "{At}, {attr} was {v}.",
            "{Attr} {at} came to {v}.",
            "{Attr} reached {v} {at}.",
            "{Label} recorded {attr} of {v}.",
            "{At} the {attr} stood at {v} over the period.",
            "{At}, after the usual checks by the team, {attr} came to {v}.",
            "{Attr} came to {v} according to the figures reported {at}.",
        ],
        (Lang::En, false) => &[
            "{At}, {attr} was {v}.",
            "{Attr} {at} came to {v}.",
            "{Attr} reached {v} {at}.",
            "{At} the {attr} stood at {v} over the period.",
            "{At}, after the usual checks by the team, {attr} came to {v}.",
            "{Attr} came to {v} according to the figures reported {at}.",
        ],
        (Lang::Pt, true) => &[
            "{At}, {attr} foi de {v}.",
            "{Attr} {at} chegou a {v}.",
            "{Attr} ficou em {v} {at}.",
            "{Label} registrou {attr} de {v}.",
            "{At} o indicador de {attr} ficou em {v}.",
            "{At}, depois das verificações de rotina da equipe, {attr} chegou a {v}.",
            "{Attr} chegou a {v} segundo os números informados {at}.",
        ],
        (Lang::Pt, false) => &[
            "{At}, {attr} foi de {v}.",
            "{Attr} {at} chegou a {v}.",
            "{Attr} ficou em {v} {at}.",
            "{At} o indicador de {attr} ficou em {v}.",
            "{At}, depois das verificações de rotina da equipe, {attr} chegou a {v}.",
            "{Attr} chegou a {v} segundo os números informados {at}.",
        ],
        (Lang::Es, true) => &[
            "{At}, {attr} fue de {v}.",
            "{Attr} {at} llegó a {v}.",
            "{Attr} se situó en {v} {at}.",
            "{Label} registró {attr} de {v}.",
            "{At} el dato de {attr} se situó en {v}.",
            "{At}, tras las revisiones habituales del equipo, {attr} llegó a {v}.",
            "{Attr} llegó a {v} según las cifras publicadas {at}.",
        ],
        (Lang::Es, false) => &[
            "{At}, {attr} fue de {v}.",
            "{Attr} {at} llegó a {v}.",
            "{Attr} se situó en {v} {at}.",
            "{At} el dato de {attr} se situó en {v}.",
            "{At}, tras las revisiones habituales del equipo, {attr} llegó a {v}.",
            "{Attr} llegó a {v} según las cifras publicadas {at}.",
        ],
        (Lang::Fr, true) => &[
            "{At}, {attr} s'élève à {v}.",
            "{Attr} {at} atteint {v}.",
            "{Attr} s'est établi à {v} {at}.",
            "{Label} affiche {attr} de {v}.",
            "{At} la mesure de {attr} s'établit à {v}.",
            "{At}, après les vérifications habituelles de l'équipe, {attr} atteint {v}.",
            "{Attr} atteint {v} selon les chiffres publiés {at}.",
        ],
        (Lang::Fr, false) => &[
            "{At}, {attr} s'élève à {v}.",
            "{Attr} {at} atteint {v}.",
            "{Attr} s'est établi à {v} {at}.",
            "{At} la mesure de {attr} s'établit à {v}.",
            "{At}, après les vérifications habituelles de l'équipe, {attr} atteint {v}.",
            "{Attr} atteint {v} selon les chiffres publiés {at}.",
        ],
        (_, true) => &[
            "{At} lag {attr} bei {v}.",
            "{Attr} {at} betrug {v}.",
            "{Attr} erreichte {v} {at}.",
            "{Label} meldete {attr} von {v}.",
            "{At} lag der Wert für {attr} bei {v}.",
            "{At}, nach den üblichen Prüfungen durch das Team, erreichte {attr} {v}.",
            "{Attr} erreichte {v} laut den gemeldeten Zahlen {at}.",
        ],
        (_, false) => &[
            "{At} lag {attr} bei {v}.",
            "{Attr} {at} betrug {v}.",
            "{Attr} erreichte {v} {at}.",
            "{At} lag der Wert für {attr} bei {v}.",
            "{At}, nach den üblichen Prüfungen durch das Team, erreichte {attr} {v}.",
            "{Attr} erreichte {v} laut den gemeldeten Zahlen {at}.",
        ],
    };
    let s = rng
        .pick(forms)
        .replace("{At}", &cap(&at_row))
        .replace("{at}", &at_row)
        .replace("{Label}", &cap(&lab))
        .replace("{Attr}", &cap(name))
        .replace("{attr}", name)
        .replace("{v}", v);
    one_period(s)
}

/// A sentence ending in an abbreviation's period (`5,2 p.p.`) takes no second one.
pub(crate) fn one_period(s: String) -> String {
    match s.strip_suffix("..") {
        Some(t) => format!("{t}."),
        None => s,
    }
}

/// The header of a table's first column, naming what its rows are.
fn row_header(lang: Lang, row: &Row) -> String {
    let i = vocab::word_index(lang);
    let words: [&str; 5] = match row {
        Row::Name(_) => ["Site", "Unidade", "Sede", "Site", "Standort"],
        Row::Code(noun, _) | Row::Numbered(noun, _) => *noun,
        Row::Condition(unit, _) => {
            let what = match *unit {
                "°C" => [
                    "Temperature",
                    "Temperatura",
                    "Temperatura",
                    "Température",
                    "Temperatur",
                ],
                "km" => [
                    "Distance",
                    "Distância",
                    "Distancia",
                    "Distance",
                    "Laufleistung",
                ],
                _ => ["Dose", "Dose", "Dosis", "Dose", "Dosis"],
            };
            return format!("{} ({unit})", what[i]);
        }
        Row::Year(_) => ["Year", "Ano", "Año", "Année", "Jahr"],
        Row::Quarter(..) => ["Quarter", "Trimestre", "Trimestre", "Trimestre", "Quartal"],
        Row::Day(_) => ["Date", "Data", "Fecha", "Date", "Datum"],
        Row::Model(..) => ["Model", "Modelo", "Modelo", "Modèle", "Modell"],
    };
    cap(words[i])
}

/// A row's label in a table cell (a condition's unit is in the header).
fn cell_label(lang: Lang, row: &Row, rng: &mut Rng) -> String {
    match row {
        Row::Condition(_, q) => spell::num(lang, *q, rng),
        Row::Code(_, c) => c.clone(),
        _ => cap(&label(lang, row, rng)),
    }
}

/// What a column's header says of its unit or scale (`(MWh)`, `(€ m)`, `(%)`), when it says.
fn header_unit(lang: Lang, grid: &Grid, attr: &Attr, rng: &mut Rng) -> String {
    match attr.kind {
        Kind::Unit(symbol, _) => format!(" ({symbol})"),
        Kind::Percent => " (%)".to_string(),
        Kind::Count(_) | Kind::Fraction => String::new(),
        Kind::Money => {
            let c = grid.currency;
            let sym = match c {
                Currency::Usd => "$",
                Currency::Eur => "€",
                Currency::Brl => "R$",
                Currency::Chf => "CHF",
                Currency::Gbp => "£",
                Currency::Cad => "CAD",
            };
            let forms: Vec<String> = match (grid.scale, lang.words()) {
                (None, _) => vec![format!(" ({sym})"), format!(" ({})", c.code())],
                (Some(Scale::Thousand), Lang::En) => {
                    vec![format!(" ({sym}k)"), format!(" ({} thousands)", c.code())]
                }
                (Some(Scale::Thousand), Lang::Pt) => vec![format!(" ({sym} mil)")],
                (Some(Scale::Thousand), Lang::Es) => vec![format!(" (miles de {sym})")],
                (Some(Scale::Thousand), Lang::Fr) => {
                    vec![format!(" (k{sym})"), format!(" (milliers de {sym})")]
                }
                (Some(Scale::Thousand), _) => vec![format!(" (Tsd. {sym})"), format!(" (T{sym})")],
                (Some(Scale::Million), Lang::En) => {
                    vec![
                        format!(" ({sym} m)"),
                        format!(" ({} millions)", c.code()),
                        format!(" ({sym}M)"),
                    ]
                }
                (Some(Scale::Million), Lang::Pt) => {
                    vec![format!(" ({sym} milhões)"), format!(" ({sym} mi)")]
                }
                (Some(Scale::Million), Lang::Es) => {
                    vec![format!(" (millones de {sym})"), format!(" (M{sym})")]
                }
                (Some(Scale::Million), Lang::Fr) => {
                    vec![format!(" (M{sym})"), format!(" (millions de {sym})")]
                }
                (Some(Scale::Million), _) => {
                    vec![format!(" (Mio. {sym})"), format!(" (in Mio. {sym})")]
                }
                (Some(Scale::Billion), Lang::En) => vec![format!(" ({sym} bn)")],
                (Some(Scale::Billion), Lang::Fr) => vec![format!(" (Md{sym})")],
                (Some(Scale::Billion), _) => vec![format!(" (Mrd. {sym})")],
            };
            rng.pick(&forms).clone()
        }
    }
}

/// A column's header: the attribute's name and its unit or scale.
fn header(lang: Lang, grid: &Grid, attr: &Attr, rng: &mut Rng) -> String {
    format!(
        "{}{}",
        cap(attr.name(lang)),
        header_unit(lang, grid, attr, rng)
    )
}

/// A cell's digits in a table of `format` (CSV numbers are written as a program exports them).
fn cell(lang: Lang, format: Format, q: Q, rng: &mut Rng) -> String {
    match format {
        Format::CsvText | Format::CsvFile => {
            let plain = spell::number(Lang::En, q, spell::Grouping::None, rng);
            if q.abs().mant >= 10_000 && q.dec == 0 && rng.chance(0.3) {
                format!("\"{}\"", spell::num(Lang::En, q, rng))
            } else {
                plain
            }
        }
        Format::Semicolon => spell::number(Lang::De, q, spell::Grouping::None, rng),
        Format::Tsv if rng.chance(0.5) => spell::number(lang, q, spell::Grouping::None, rng),
        _ => spell::num(lang, q, rng),
    }
}

/// A signed cell as accountants write it: `(2,317)` for a negative number, sometimes.
fn signed_cell(lang: Lang, format: Format, q: Q, rng: &mut Rng) -> String {
    if q.mant < 0 && matches!(format, Format::Markdown | Format::Tsv) && rng.chance(0.4) {
        format!("({})", cell(lang, format, q.abs(), rng))
    } else {
        cell(lang, format, q, rng)
    }
}

/// The evidence for `grid` in `format` and `lang`: every cell, each row under its label.
pub(crate) fn evidence(lang: Lang, grid: &Grid, format: Format, rng: &mut Rng) -> String {
    match format {
        Format::Prose => {
            let mut out = Vec::new();
            for (r, row) in grid.rows.iter().enumerate() {
                let parts: Vec<(&Attr, String)> = grid
                    .attrs
                    .iter()
                    .enumerate()
                    .map(|(a, attr)| {
                        (
                            *attr,
                            value(lang, grid, attr, grid.values[r][a], prose_style(rng), rng),
                        )
                    })
                    .collect();
                out.push(evidence_sentence(lang, row, &parts, rng));
            }
            out.join(" ")
        }
        Format::Lines => {
            let mut out = Vec::new();
            let bullet = *rng.pick(&["", "- ", "* ", "• "]);
            // ` - ` before a signed number would read as its minus.
            let signed = grid.attrs.iter().any(|a| a.signed);
            let sep = if signed {
                *rng.pick(&[": ", " — "])
            } else {
                *rng.pick(&[": ", " — ", " - "])
            };
            for (r, row) in grid.rows.iter().enumerate() {
                let parts: Vec<String> = grid
                    .attrs
                    .iter()
                    .enumerate()
                    .map(|(a, attr)| {
                        let v = value(lang, grid, attr, grid.values[r][a], prose_style(rng), rng);
                        if grid.attrs.len() == 1 {
                            v
                        } else {
                            format!("{} {v}", attr.name(lang))
                        }
                    })
                    .collect();
                out.push(format!(
                    "{bullet}{}{sep}{}",
                    cap(&label(lang, row, rng)),
                    parts.join("; ")
                ));
            }
            if grid.attrs.len() == 1 {
                out.insert(0, format!("{}:", cap(grid.attrs[0].name(lang))));
            }
            out.join("\n")
        }
        Format::List => {
            let attr = grid.attrs[0];
            let sep = *rng.pick(&["; ", "; ", " | "]);
            let colon = if lang == Lang::Fr { " : " } else { ": " };
            let items: Vec<String> = grid
                .rows
                .iter()
                .enumerate()
                .map(|(r, row)| {
                    let v = value(lang, grid, attr, grid.values[r][0], prose_style(rng), rng);
                    format!("{}{colon}{v}", label(lang, row, rng))
                })
                .collect();
            let dash = *rng.pick(&[" — ", ": ", " – "]);
            format!("{}{dash}{}", cap(attr.name(lang)), items.join(sep))
        }
        Format::Markdown | Format::CsvText | Format::Tsv | Format::Semicolon | Format::CsvFile => {
            table(lang, grid, format, rng)
        }
        Format::JsonFlat | Format::JsonKeyed | Format::JsonArray => json(lang, grid, format, rng),
    }
}

fn prose_style(rng: &mut Rng) -> Style {
    Style {
        unit_word: rng.chance(0.25),
        full: rng.chance(0.3),
        ..Style::default()
    }
}

fn table(lang: Lang, grid: &Grid, format: Format, rng: &mut Rng) -> String {
    let delim = match format {
        Format::Markdown => " | ",
        Format::CsvText | Format::CsvFile => ",",
        Format::Tsv => "\t",
        _ => ";",
    };
    let mut head = vec![row_header(lang, &grid.rows[0])];
    for attr in &grid.attrs {
        head.push(header(lang, grid, attr, rng));
    }
    let quote = |s: String| {
        if matches!(format, Format::CsvText | Format::CsvFile) && s.contains(',') {
            format!("\"{s}\"")
        } else {
            s
        }
    };
    let mut lines = Vec::new();
    let md = format == Format::Markdown;
    let join = |cells: Vec<String>| {
        if md {
            format!("| {} |", cells.join(delim))
        } else {
            cells.join(delim)
        }
    };
    lines.push(join(head.into_iter().map(quote).collect()));
    if md {
        let rule: Vec<String> = (0..=grid.attrs.len())
            .map(|k| if k == 0 { "---".into() } else { "---:".into() })
            .collect();
        lines.push(format!("|{}|", rule.join("|")));
    }
    for (r, row) in grid.rows.iter().enumerate() {
        let mut cells = vec![quote(cell_label(lang, row, rng))];
        for (a, attr) in grid.attrs.iter().enumerate() {
            let q = grid.values[r][a];
            let written = if attr.signed {
                signed_cell(lang, format, q, rng)
            } else {
                cell(lang, format, q, rng)
            };
            cells.push(written);
        }
        lines.push(join(cells));
    }
    lines.join("\n")
}

/// A JSON key for `attr` (English snake case, or the language's words).
fn key(lang: Lang, grid: &Grid, attr: &Attr, english: bool) -> String {
    let base = if english {
        attr.key.to_string()
    } else {
        attr.name(lang)
            .to_lowercase()
            .replace(['\'', '’'], "_")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("_")
    };
    match attr.kind {
        Kind::Money => {
            let scale = match grid.scale {
                Some(Scale::Thousand) => "_k",
                Some(Scale::Million) => "_m",
                Some(Scale::Billion) => "_bn",
                None => "",
            };
            format!("{base}_{}{scale}", grid.currency.code().to_lowercase())
        }
        Kind::Percent => format!("{base}_pct"),
        _ => base,
    }
}

/// The JSON number of a value (a `.` mark, exact digits).
pub(crate) fn json_number(q: Q) -> serde_json::Value {
    let mut rng = Rng::new(0);
    let text = spell::number(Lang::En, q, spell::Grouping::None, &mut rng).replace('−', "-");
    serde_json::from_str(&text).unwrap_or(serde_json::Value::Null)
}

fn row_key(lang: Lang, row: &Row) -> &'static str {
    let i = vocab::word_index(lang);
    let words: [&str; 5] = match row {
        Row::Name(_) => ["site", "unidade", "sede", "site", "standort"],
        Row::Code(..) => ["group", "grupo", "grupo", "groupe", "gruppe"],
        Row::Numbered(..) => ["period", "periodo", "periodo", "periode", "periode"],
        Row::Condition(..) => [
            "condition",
            "condicao",
            "condicion",
            "condition",
            "bedingung",
        ],
        Row::Year(_) => ["year", "ano", "anio", "annee", "jahr"],
        Row::Quarter(..) => ["quarter", "trimestre", "trimestre", "trimestre", "quartal"],
        Row::Day(_) => ["date", "data", "fecha", "date", "datum"],
        Row::Model(..) => ["model", "modelo", "modelo", "modele", "modell"],
    };
    words[i]
}

fn json(lang: Lang, grid: &Grid, format: Format, rng: &mut Rng) -> String {
    use serde_json::{Map, Value};
    let english = rng.chance(0.6);
    let object = |r: usize, rng: &mut Rng, with_row: bool| {
        let mut m = Map::new();
        if with_row {
            let row = &grid.rows[r];
            let v = match row {
                Row::Year(y) => Value::from(*y),
                Row::Condition(_, q) => json_number(*q),
                _ => Value::from(label(lang, row, rng)),
            };
            m.insert(row_key(lang, row).to_string(), v);
        }
        for (a, attr) in grid.attrs.iter().enumerate() {
            m.insert(
                key(lang, grid, attr, english),
                json_number(grid.values[r][a]),
            );
        }
        m
    };
    let value = match format {
        Format::JsonFlat => Value::Object(object(0, rng, true)),
        Format::JsonKeyed => {
            let mut m = Map::new();
            for (r, row) in grid.rows.iter().enumerate() {
                let name = match row {
                    Row::Condition(unit, q) => format!("{} {unit}", spell::num(Lang::En, *q, rng)),
                    _ => label(lang, row, rng),
                };
                m.insert(name, Value::Object(object(r, rng, false)));
            }
            Value::Object(m)
        }
        _ => {
            let items: Vec<Value> = (0..grid.rows.len())
                .map(|r| Value::Object(object(r, rng, true)))
                .collect();
            if rng.chance(0.5) {
                Value::Array(items)
            } else {
                let mut m = Map::new();
                m.insert(
                    (*rng.pick(&["rows", "data", "results", "items"])).to_string(),
                    Value::Array(items),
                );
                Value::Object(m)
            }
        }
    };
    if rng.chance(0.5) {
        serde_json::to_string_pretty(&value).unwrap_or_default()
    } else {
        value.to_string()
    }
}

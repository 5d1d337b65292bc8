//! One builder per class: a fact table, its evidence, and an answer that cites it correctly
//! or with one fact wrong the way the class says.

use crate::render::{self, cap, rounds_to, Grid, Style};
use crate::spell::{self, Currency, Lang, Scale, Q};
use crate::vocab::{self, Attr, Domain, Kind, Row, RowKind, DOMAINS};
use crate::{Class, Format, Pair};
use llmjson_faults::Rng;

/// One try at a pair of `class`; `None` when the draw cannot make one (the caller draws again).
pub(crate) fn attempt(rng: &mut Rng, class: Class, grounded: bool) -> Option<Pair> {
    let ev = Lang::random(rng);
    let ans = if rng.chance(0.15) {
        Lang::random(rng)
    } else {
        ev
    };
    let b = Builder { ev, ans, grounded };
    match class {
        Class::Binding => b.binding(rng),
        Class::Label => b.label(rng),
        Class::CountYear => b.count_year(rng),
        Class::Date => b.date(rng),
        Class::PercentFraction => b.percent_fraction(rng),
        Class::Table => b.table(rng),
        Class::Json => b.json(rng),
        Class::Sign => b.sign(rng),
        Class::Currency => b.currency(rng),
        Class::Unit => b.unit(rng),
        Class::Approximation => b.approximation(rng),
        Class::Scale => b.scale(rng),
        Class::Arithmetic => b.arithmetic(rng),
    }
}

struct Builder {
    ev: Lang,
    ans: Lang,
    grounded: bool,
}

/// A fact table of `domain`: `rows` rows of `kind`, the attributes `attrs`, values drawn so that
/// no value of an attribute's kind rounds to another (a wrong value is never a right one in
/// another spelling).
fn grid(
    rng: &mut Rng,
    domain: &'static Domain,
    kind: RowKind,
    rows: usize,
    attrs: Vec<&'static Attr>,
    currency: Currency,
) -> Option<Grid> {
    let mut taken: Vec<Row> = Vec::new();
    for _ in 0..rows {
        // A kind with fewer rows than asked for: the attempt is drawn again.
        taken.push(Row::random(kind, rng, &taken)?);
    }
    if matches!(kind, RowKind::Year) {
        taken.sort_by_key(|r| match r {
            Row::Year(y) => *y,
            _ => 0,
        });
    }
    let mut values: Vec<Vec<Q>> = vec![Vec::new(); rows];
    for attr in &attrs {
        for row_values in values.iter_mut() {
            let mut q = attr.value(rng);
            if attr.signed && rng.chance(0.5) {
                q = q.negated();
            }
            row_values.push(q);
        }
    }
    let g = Grid {
        domain,
        rows: taken,
        attrs,
        values,
        currency,
        scale: domain.money_scale,
    };
    well_separated(&g).then_some(g)
}

/// No two values of one kind within 3% of each other, and no value that is a row's label
/// digits or a year (so a wrong answer is wrong for one reason).
fn well_separated(g: &Grid) -> bool {
    let mut cells = Vec::new();
    for r in 0..g.rows.len() {
        for a in 0..g.attrs.len() {
            cells.push((r, a, g.plain(r, a).abs().f()));
        }
    }
    for (i, &(_, a1, x)) in cells.iter().enumerate() {
        if x == 0.0 {
            return false;
        }
        for &(_, a2, y) in &cells[i + 1..] {
            let same_kind = std::mem::discriminant(&g.attrs[a1].kind)
                == std::mem::discriminant(&g.attrs[a2].kind);
            if same_kind && (x - y).abs() <= 0.03 * x.max(y) {
                return false;
            }
        }
        for row in &g.rows {
            let digits = match row {
                Row::Model(_, n) | Row::Numbered(_, n) | Row::Year(n) => Some(f64::from(*n)),
                Row::Condition(_, q) => Some(q.f()),
                _ => None,
            };
            if digits.is_some_and(|d| (d - x).abs() < 1e-9) {
                return false;
            }
        }
    }
    true
}

fn pick_domain(rng: &mut Rng, ok: impl Fn(&Domain) -> bool) -> Option<&'static Domain> {
    let fitting: Vec<&'static Domain> = DOMAINS.iter().filter(|d| ok(d)).collect();
    (!fitting.is_empty()).then(|| *rng.pick(&fitting))
}

/// `n` distinct attributes of `domain` that satisfy `ok`, in a random order.
fn pick_attrs(
    rng: &mut Rng,
    domain: &'static Domain,
    n: usize,
    ok: impl Fn(&Attr) -> bool,
) -> Option<Vec<&'static Attr>> {
    let mut fitting: Vec<&'static Attr> = domain.attrs.iter().filter(|a| ok(a)).collect();
    if fitting.len() < n {
        return None;
    }
    let mut out = Vec::new();
    for _ in 0..n {
        let k = rng.below(fitting.len());
        out.push(fitting.remove(k));
    }
    Some(out)
}

fn row_kind(rng: &mut Rng, domain: &Domain, ok: impl Fn(&RowKind) -> bool) -> Option<RowKind> {
    let fitting: Vec<RowKind> = domain.rows.iter().copied().filter(|k| ok(k)).collect();
    (!fitting.is_empty()).then(|| *rng.pick(&fitting))
}

impl Builder {
    fn pair(
        &self,
        class: Class,
        variant: &'static str,
        format: Format,
        evidence: String,
        answer: String,
        wrong: Option<String>,
    ) -> Option<Pair> {
        if !self.grounded && wrong.as_ref().is_none_or(|w| !answer.contains(w.as_str())) {
            return None;
        }
        Some(Pair {
            id: String::new(),
            class,
            variant,
            format,
            evidence_lang: self.ev,
            answer_lang: self.ans,
            evidence,
            answer,
            grounded: self.grounded,
            wrong: if self.grounded { None } else { wrong },
        })
    }

    /// The value of cell (r, a) as an answer re-spells it: another locale's marks, a unit word,
    /// money in full or with another scale word, a fraction as a percentage, or one decimal
    /// fewer (a rounding).
    fn respell(&self, rng: &mut Rng, g: &Grid, r: usize, a: usize) -> String {
        let attr = g.attrs[a];
        let mut q = g.values[r][a];
        // A rounding that keeps at least two significant digits (`41.8` for `41.83`); never
        // of a wrong answer's value, which rounded may meet the right one (`13` from another
        // row's `13,1` is also this row's `12,7` rounded).
        if self.grounded
            && q.dec > 0
            && q.abs().mant >= 100
            && rng.chance(0.25)
            && !matches!(attr.kind, Kind::Fraction)
        {
            q = q.round(q.dec as i32 - 1);
        }
        let rounded = q != g.values[r][a];
        let style = Style {
            unit_word: rng.chance(0.4),
            // A rounded amount written out in full would claim digits the evidence lacks.
            full: !rounded && rng.chance(0.4),
            as_percent: rng.chance(0.6),
            ..Style::default()
        };
        render::value(self.ans, g, attr, q, style, rng)
    }

    /// Another correct claim of `g` (not row `r0`'s attribute `a0`), as a sentence.
    fn extra_claim(&self, rng: &mut Rng, g: &Grid, r0: usize, a0: usize) -> Option<String> {
        let mut cells = Vec::new();
        for r in 0..g.rows.len() {
            for a in 0..g.attrs.len() {
                if (r, a) != (r0, a0) {
                    cells.push((r, a));
                }
            }
        }
        if cells.is_empty() {
            return None;
        }
        let (r, a) = *rng.pick(&cells);
        let v = self.respell(rng, g, r, a);
        Some(render::answer_sentence(
            self.ans,
            Some(&g.rows[r]),
            g.attrs[a],
            &v,
            rng,
        ))
    }

    fn with_extra(&self, rng: &mut Rng, g: &Grid, r: usize, a: usize, main: String) -> String {
        if rng.chance(0.4) {
            if let Some(extra) = self.extra_claim(rng, g, r, a) {
                return if rng.chance(0.5) {
                    format!("{main} {extra}")
                } else {
                    format!("{extra} {main}")
                };
            }
        }
        main
    }

    fn binding(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |_| true)?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let nattrs = rng.range(1, 2);
        let attrs = pick_attrs(rng, domain, nattrs, |_| true)?;
        let rows = rng.range(2, 5);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&if nattrs == 1 {
            vec![
                Format::Prose,
                Format::Lines,
                Format::List,
                Format::List,
                Format::JsonKeyed,
            ]
        } else {
            vec![
                Format::Prose,
                Format::Lines,
                Format::JsonArray,
                Format::Markdown,
            ]
        });
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let a = rng.below(nattrs);
        let (variant, value_of, wrong) = if self.grounded {
            ("own_row", r, false)
        } else {
            let other = (r + 1 + rng.below(rows - 1)) % rows;
            ("other_row", other, true)
        };
        let v = self.respell(rng, &g, value_of, a);
        let main = render::answer_sentence(self.ans, Some(&g.rows[r]), g.attrs[a], &v, rng);
        let answer = self.with_extra(rng, &g, r, a, main);
        self.pair(
            Class::Binding,
            variant,
            format,
            evidence,
            answer,
            wrong.then_some(v),
        )
    }

    fn table(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| d.attrs.len() >= 2)?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let nattrs = rng.range(2, domain.attrs.len().min(4));
        let attrs = pick_attrs(rng, domain, nattrs, |_| true)?;
        let rows = rng.range(2, 6);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[
            Format::Markdown,
            Format::Markdown,
            Format::CsvText,
            Format::Tsv,
            Format::Semicolon,
            Format::CsvFile,
        ]);
        let mut evidence = render::evidence(self.ev, &g, format, rng);
        if rng.chance(0.2) {
            evidence = format!("{}\n\n{evidence}", caption(self.ev, domain, rng));
        }
        let r = rng.below(rows);
        let a = rng.below(nattrs);
        let attr = g.attrs[a];
        let (variant, v) = if self.grounded {
            ("cell", self.respell(rng, &g, r, a))
        } else {
            let same_kind: Vec<usize> = (0..nattrs)
                .filter(|&b| {
                    b != a
                        && std::mem::discriminant(&g.attrs[b].kind)
                            == std::mem::discriminant(&attr.kind)
                        && unit_of(g.attrs[b]) == unit_of(attr)
                })
                .collect();
            match rng.below(4) {
                0 if !same_kind.is_empty() => {
                    let b = *rng.pick(&same_kind);
                    ("other_column", self.respell(rng, &g, r, b))
                }
                1 => {
                    let q = g.values[r][a];
                    match attr.kind {
                        Kind::Unit(symbol, _) => {
                            let other = other_unit(symbol)?;
                            (
                                "header_unit",
                                format!("{} {other}", spell::num(self.ans, q, rng)),
                            )
                        }
                        Kind::Money if g.scale.is_some() => {
                            let digits = spell::num(self.ans, q, rng);
                            (
                                "header_scale",
                                spell::money(self.ans, g.currency, &digits, rng),
                            )
                        }
                        _ => return None,
                    }
                }
                _ => {
                    let other = (r + 1 + rng.below(rows - 1)) % rows;
                    ("other_row", self.respell(rng, &g, other, a))
                }
            }
        };
        let main = render::answer_sentence(self.ans, Some(&g.rows[r]), attr, &v, rng);
        let answer = self.with_extra(rng, &g, r, a, main);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Table, variant, format, evidence, answer, wrong)
    }

    fn json(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| d.attrs.len() >= 2)?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let format = *rng.pick(&[Format::JsonFlat, Format::JsonKeyed, Format::JsonArray]);
        let rows = if format == Format::JsonFlat {
            1
        } else {
            rng.range(2, 4)
        };
        let nattrs = rng.range(2, domain.attrs.len().min(4));
        let attrs = pick_attrs(rng, domain, nattrs, |_| true)?;
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let a = rng.below(nattrs);
        let attr = g.attrs[a];
        let (variant, v) = if self.grounded {
            ("own_key", self.respell(rng, &g, r, a))
        } else {
            let same_kind: Vec<usize> = (0..nattrs)
                .filter(|&b| b != a && unit_of(g.attrs[b]) == unit_of(attr))
                .collect();
            if !same_kind.is_empty() && (rows == 1 || rng.chance(0.5)) {
                let b = *rng.pick(&same_kind);
                ("other_key", self.respell(rng, &g, r, b))
            } else if rows > 1 {
                let other = (r + 1 + rng.below(rows - 1)) % rows;
                ("other_object", self.respell(rng, &g, other, a))
            } else {
                return None;
            }
        };
        let row = (rows > 1 || rng.chance(0.5)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, attr, &v, rng);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Json, variant, format, evidence, answer, wrong)
    }

    fn label(&self, rng: &mut Rng) -> Option<Pair> {
        if rng.chance(0.4) {
            return self.model_label(rng);
        }
        // A reference that carries digits, next to a measurement.
        let domain = pick_domain(rng, |_| true)?;
        let kind = row_kind(rng, domain, |k| {
            matches!(k, RowKind::Name(_) | RowKind::Code(_))
        })?;
        let attrs = pick_attrs(rng, domain, 1, |a| {
            matches!(a.kind, Kind::Count(_) | Kind::Unit(..)) && a.dec == 0
        })?;
        let g = grid(rng, domain, kind, 1, attrs, Currency::home(self.ev))?;
        let attr = g.attrs[0];
        let q = g.values[0][0];
        let digits: u32 = rng.range(112, 968) as u32;
        if rounds_to(q, Q::int(i64::from(digits))) || rounds_to(Q::int(i64::from(digits)), q) {
            return None;
        }
        let i = vocab::word_index(self.ev);
        let (variant, reference) = match rng.below(5) {
            0 => (
                "page",
                format!("{} {digits}", ["p.", "p.", "pág.", "p.", "S."][i]),
            ),
            1 => (
                "address",
                [
                    format!("{digits} Quay Street"),
                    format!("Rua das Flores, {digits}"),
                    format!("Calle Mayor {digits}"),
                    format!("{digits} rue Victor-Hugo"),
                    format!("Hauptstraße {digits}"),
                ][i]
                    .clone(),
            ),
            2 => (
                "order_number",
                format!(
                    "{} {}{digits}",
                    [
                        "order no.",
                        "pedido nº",
                        "pedido n.º",
                        "commande n°",
                        "Auftrag Nr."
                    ][i],
                    rng.range(11, 97)
                ),
            ),
            3 => (
                "case_number",
                format!(
                    "{} 2024-{digits}",
                    ["case", "processo", "expediente", "dossier", "Fall"][i]
                ),
            ),
            _ => (
                "section",
                format!(
                    "{} {digits}",
                    ["Section", "Seção", "Sección", "Section", "Abschnitt"][i]
                ),
            ),
        };
        let label_number = if variant == "order_number" {
            reference.rsplit(' ').next().unwrap_or_default().to_string()
        } else {
            digits.to_string()
        };
        let value = render::value(self.ev, &g, attr, q, Style::default(), rng);
        let row = render::label(self.ev, &g.rows[0], rng);
        let name = attr.name(self.ev);
        let evidence = match (self.ev.words(), variant) {
            (Lang::En, "address") => {
                format!("The {row} office at {reference} reports {name} of {value}.")
            }
            (Lang::En, _) => format!("{} ({reference}): {name} {value}.", cap(&row)),
            (Lang::Pt, "address") => {
                format!("A unidade {row}, na {reference}, informa {name} de {value}.")
            }
            (Lang::Pt, _) => format!("{} ({reference}): {name} de {value}.", cap(&row)),
            (Lang::Es, "address") => {
                format!("La sede {row}, en {reference}, informa {name} de {value}.")
            }
            (Lang::Es, _) => format!("{} ({reference}): {name} de {value}.", cap(&row)),
            (Lang::Fr, "address") => {
                format!("Le site {row}, au {reference}, déclare {name} de {value}.")
            }
            (Lang::Fr, _) => format!("{} ({reference}) : {name} de {value}.", cap(&row)),
            (_, "address") => {
                format!("Der Standort {row} in der {reference} meldet {name} von {value}.")
            }
            (_, _) => format!("{} ({reference}): {name} {value}.", cap(&row)),
        };
        let (shown, wrong) = if self.grounded {
            (self.respell(rng, &g, 0, 0), None)
        } else {
            let n: i64 = label_number.parse().ok()?;
            let fake = render::value(self.ans, &g, attr, Q::int(n), Style::default(), rng);
            (fake.clone(), Some(fake))
        };
        let answer = render::answer_sentence(self.ans, Some(&g.rows[0]), attr, &shown, rng);
        let variant = if self.grounded {
            "label_repeated"
        } else {
            variant
        };
        self.pair(
            Class::Label,
            variant,
            Format::Prose,
            evidence,
            answer,
            wrong,
        )
    }

    /// Products whose names carry digits (`Vortex 900`): the digits are no measurement.
    fn model_label(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = DOMAINS.iter().find(|d| d.name == "products")?;
        let rows = rng.range(1, 3);
        let n = rng.range(1, 2);
        let attrs = pick_attrs(rng, domain, n, |a| matches!(a.kind, Kind::Unit(..)))?;
        let g = grid(
            rng,
            domain,
            RowKind::Model(&[
                "Vortex", "Kestrel", "Nimbus", "Aurora", "Titan", "Zephyr", "Orion", "Falcon",
                "Atlas", "Helix",
            ]),
            rows,
            attrs,
            Currency::home(self.ev),
        )?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::Markdown]);
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let a = rng.below(g.attrs.len());
        let attr = g.attrs[a];
        let Row::Model(_, digits) = g.rows[r] else {
            return None;
        };
        let (variant, v, wrong) = if self.grounded {
            ("name_repeated", self.respell(rng, &g, r, a), None)
        } else {
            let fake = render::value(
                self.ans,
                &g,
                attr,
                Q::int(i64::from(digits)),
                Style::default(),
                rng,
            );
            ("model_digits", fake.clone(), Some(fake))
        };
        let answer = render::answer_sentence(self.ans, Some(&g.rows[r]), attr, &v, rng);
        self.pair(Class::Label, variant, format, evidence, answer, wrong)
    }

    fn count_year(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| d.rows.contains(&RowKind::Year))?;
        let attrs = pick_attrs(rng, domain, 1, |a| {
            matches!(a.kind, Kind::Count(_) | Kind::Unit("h", _)) && a.dec == 0 && a.hi > 2100
        })?;
        let rows = rng.range(1, 3);
        let g = grid(
            rng,
            domain,
            RowKind::Year,
            rows,
            attrs,
            Currency::home(self.ev),
        )?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::List, Format::Prose]);
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let Row::Year(year) = g.rows[r] else {
            return None;
        };
        if (0..rows).any(|k| g.values[k][0].same(Q::int(i64::from(year)))) {
            return None;
        }
        let attr = g.attrs[0];
        let (variant, v, wrong) = if self.grounded {
            ("count_with_year", self.respell(rng, &g, r, 0), None)
        } else {
            // The count written as the year's digits (`logged 2021 hours`), never grouped.
            let style = Style {
                unit_word: true,
                ..Style::default()
            };
            let with_unit = render::value(self.ans, &g, attr, Q::int(1), style, rng);
            let unit = with_unit.trim_start_matches('1').trim_start();
            let fake = format!("{year} {unit}");
            ("year_as_count", fake.clone(), Some(fake))
        };
        let row = (self.grounded || rng.chance(0.5)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, attr, &v, rng);
        self.pair(Class::CountYear, variant, format, evidence, answer, wrong)
    }

    fn date(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |_| true)?;
        let attrs = pick_attrs(rng, domain, 1, |a| {
            !matches!(a.kind, Kind::Money | Kind::Fraction) && !a.signed
        })?;
        let rows = rng.range(2, 4);
        let g = grid(
            rng,
            domain,
            RowKind::Day,
            rows,
            attrs,
            Currency::home(self.ev),
        )?;
        let format = *rng.pick(&[
            Format::Lines,
            Format::List,
            Format::Prose,
            Format::Markdown,
            Format::JsonArray,
        ]);
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let (variant, value_of) = if self.grounded {
            ("respelled_date", r)
        } else {
            ("other_date", (r + 1 + rng.below(rows - 1)) % rows)
        };
        let v = self.respell(rng, &g, value_of, 0);
        let answer = render::answer_sentence(self.ans, Some(&g.rows[r]), g.attrs[0], &v, rng);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Date, variant, format, evidence, answer, wrong)
    }

    fn percent_fraction(&self, rng: &mut Rng) -> Option<Pair> {
        if !self.grounded && rng.chance(0.4) {
            return self.points(rng);
        }
        let domain = pick_domain(rng, |d| d.attrs.iter().any(|a| a.kind == Kind::Fraction))?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| a.kind == Kind::Fraction)?;
        let rows = rng.range(1, 3);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[
            Format::Prose,
            Format::Lines,
            Format::Markdown,
            Format::JsonArray,
            Format::JsonKeyed,
            Format::CsvFile,
        ]);
        let format = if rows == 1 && matches!(format, Format::JsonArray | Format::JsonKeyed) {
            Format::JsonFlat
        } else {
            format
        };
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let q = g.values[r][0];
        let (variant, v, wrong) = if self.grounded {
            let mut pct = q.shift(2);
            if pct.dec > 0 && pct.mant >= 100 && rng.chance(0.3) {
                pct = pct.round(pct.dec as i32 - 1);
            }
            let v = format!(
                "{}{}",
                spell::num(self.ans, pct, rng),
                spell::percent(self.ans, rng)
            );
            ("fraction_as_percent", v, None)
        } else {
            // The fraction's digits with a percent sign: a hundred times smaller.
            let v = format!(
                "{}{}",
                spell::num(self.ans, q, rng),
                spell::percent(self.ans, rng)
            );
            ("fraction_digits_percent", v.clone(), Some(v))
        };
        let row = (rows > 1 || rng.chance(0.6)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, g.attrs[0], &v, rng);
        self.pair(
            Class::PercentFraction,
            variant,
            format,
            evidence,
            answer,
            wrong,
        )
    }

    /// Percentage points are not percent: a change stated in points, claimed in percent, or
    /// a relative change claimed in points.
    fn points(&self, rng: &mut Rng) -> Option<Pair> {
        let lang = self.ev;
        let magnitude = Q::new(rng.range(3, 94) as i64, 1);
        let subject = *rng.pick(&[
            [
                "The EBITDA margin",
                "A margem EBITDA",
                "El margen EBITDA",
                "La marge d'EBITDA",
                "Die EBITDA-Marge",
            ],
            [
                "The vacancy rate",
                "A taxa de vacância",
                "La tasa de desocupación",
                "Le taux de vacance",
                "Die Leerstandsquote",
            ],
            [
                "The on-time rate",
                "A taxa de pontualidade",
                "La tasa de puntualidad",
                "Le taux de ponctualité",
                "Die Pünktlichkeitsquote",
            ],
        ]);
        let year = rng.range(2019, 2025);
        let negative = rng.chance(0.5);
        let in_points = rng.chance(0.5);
        let (ev_phrase, _) = spell::direction_phrase(lang, negative, rng);
        let unit = if in_points {
            spell::points(lang, rng).to_string()
        } else {
            spell::percent(lang, rng).to_string()
        };
        let digits = spell::num(lang, magnitude, rng);
        let ev_amount = format!("{digits}{unit}");
        let i = vocab::word_index(lang);
        let evidence = format!(
            "{} {year}: {}.",
            subject[i],
            ev_phrase.replace("{}", &ev_amount)
        );
        let ans_unit = if in_points {
            spell::percent(self.ans, rng).to_string()
        } else {
            spell::points(self.ans, rng).to_string()
        };
        let ans_amount = format!("{}{ans_unit}", spell::num(self.ans, magnitude, rng));
        let (phrase, verb) = spell::direction_phrase(self.ans, negative, rng);
        let phrase = phrase.replace("{}", &ans_amount);
        let j = vocab::word_index(self.ans);
        let who = subject[j];
        let answer = match (self.ans.words(), verb) {
            (Lang::En, true) => format!("In {year}, {} {phrase}.", who.to_lowercase()),
            (Lang::En, false) => format!("In {year}, {} showed {phrase}.", who.to_lowercase()),
            (Lang::Pt, true) => format!("Em {year}, {} {phrase}.", who.to_lowercase()),
            (Lang::Pt, false) => format!("Em {year}, {} teve {phrase}.", who.to_lowercase()),
            (Lang::Es, true) => format!("En {year}, {} {phrase}.", who.to_lowercase()),
            (Lang::Es, false) => format!("En {year}, {} registró {phrase}.", who.to_lowercase()),
            (Lang::Fr, true) => format!("En {year}, {} {phrase}.", who.to_lowercase()),
            (Lang::Fr, false) => format!("En {year}, {} a connu {phrase}.", who.to_lowercase()),
            (_, true) => format!("{who} {phrase} ({year})."),
            (_, false) => format!("{year} verzeichnete {who} einen {phrase}."),
        };
        let answer = render::one_period(answer);
        let variant = if in_points {
            "points_as_percent"
        } else {
            "percent_as_points"
        };
        self.pair(
            Class::PercentFraction,
            variant,
            Format::Prose,
            evidence,
            answer,
            Some(ans_amount),
        )
    }

    fn sign(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| d.attrs.iter().any(|a| a.signed))?;
        let kind = row_kind(rng, domain, |k| {
            matches!(k, RowKind::Year | RowKind::Name(_) | RowKind::Quarter)
        })?;
        let attrs = pick_attrs(rng, domain, 1, |a| a.signed)?;
        let rows = rng.range(1, 3);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[
            Format::Markdown,
            Format::Lines,
            Format::Prose,
            Format::Tsv,
            Format::JsonArray,
        ]);
        let format = if rows == 1 && format == Format::JsonArray {
            Format::JsonFlat
        } else {
            format
        };
        let r = rng.below(rows);
        let q = g.values[r][0];
        // Prose states the direction in words (`a loss of €2.3 million`), as reports do.
        let evidence = if format == Format::Prose {
            let mut sentences = Vec::new();
            for (k, row) in g.rows.iter().enumerate() {
                let v = g.values[k][0];
                let amount = render::value(self.ev, &g, g.attrs[0], v.abs(), Style::default(), rng);
                let (phrase, verb) = spell::direction_phrase(self.ev, v.mant < 0, rng);
                let phrase = phrase.replace("{}", &amount);
                let name = g.attrs[0].name(self.ev);
                let label = cap(&render::label(self.ev, row, rng));
                sentences.push(if verb {
                    format!("{label}: {name} {phrase}.")
                } else {
                    format!("{label}: {name}, {phrase}.")
                });
            }
            sentences.join(" ")
        } else {
            render::evidence(self.ev, &g, format, rng)
        };
        let negative = q.mant < 0;
        let (variant, says_negative) = if self.grounded {
            ("same_direction", negative)
        } else {
            ("flipped", !negative)
        };
        let mut shown = q.abs();
        if shown.dec > 0 && shown.mant >= 100 && rng.chance(0.25) {
            shown = shown.round(shown.dec as i32 - 1);
        }
        let amount = render::value(self.ans, &g, g.attrs[0], shown, Style::default(), rng);
        let (phrase, verb) = spell::direction_phrase(self.ans, says_negative, rng);
        let phrase = phrase.replace("{}", &amount);
        let at = cap(&render::at(self.ans, &g.rows[r], rng));
        let name = g.attrs[0].name(self.ans);
        let answer = match (self.ans.words(), verb) {
            (_, true) => format!("{at}, {name} {phrase}."),
            (Lang::En, false) => format!("{at}, {name} showed {phrase}."),
            (Lang::Pt, false) => format!("{at}, {name} registrou {phrase}."),
            (Lang::Es, false) => format!("{at}, {name} registró {phrase}."),
            (Lang::Fr, false) => format!("{at}, {name} affiche {phrase}."),
            (_, false) => format!("{at} meldete {name}: {phrase}."),
        };
        let wrong = (!self.grounded).then_some(amount);
        self.pair(Class::Sign, variant, format, evidence, answer, wrong)
    }

    fn currency(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| {
            d.attrs.iter().any(|a| a.kind == Kind::Money && !a.signed)
        })?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| a.kind == Kind::Money && !a.signed)?;
        let currency = *rng.pick(&[
            Currency::Usd,
            Currency::Usd,
            Currency::Eur,
            Currency::Chf,
            Currency::Cad,
            Currency::Brl,
            Currency::Gbp,
        ]);
        let rows = rng.range(1, 3);
        let g = grid(rng, domain, kind, rows, attrs, currency)?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::List]);
        let format = if rows == 1 && format == Format::List {
            Format::Lines
        } else {
            format
        };
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let (variant, shown) = if self.grounded {
            ("respelled", currency)
        } else {
            let other = match currency {
                Currency::Cad => Currency::Usd,
                Currency::Usd => *rng.pick(&[Currency::Cad, Currency::Eur]),
                Currency::Eur => *rng.pick(&[Currency::Usd, Currency::Gbp]),
                Currency::Chf => Currency::Eur,
                Currency::Brl => Currency::Usd,
                Currency::Gbp => Currency::Eur,
            };
            ("other_currency", other)
        };
        let mut g2 = g.clone();
        g2.currency = shown;
        let v = self.respell(rng, &g2, r, 0);
        let row = (rows > 1 || rng.chance(0.5)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, g.attrs[0], &v, rng);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Currency, variant, format, evidence, answer, wrong)
    }

    fn unit(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| {
            d.attrs.iter().any(|a| matches!(a.kind, Kind::Unit(..)))
        })?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| matches!(a.kind, Kind::Unit(..)))?;
        let rows = rng.range(1, 3);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::List, Format::Markdown]);
        let format = if rows == 1 && format == Format::List {
            Format::Lines
        } else {
            format
        };
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let attr = g.attrs[0];
        let Kind::Unit(symbol, words) = attr.kind else {
            return None;
        };
        let q = g.values[r][0];
        let (variant, v) = if self.grounded {
            let word = words[vocab::word_index(self.ans)];
            let unit = if !word.is_empty() && rng.chance(0.7) {
                word.to_string()
            } else {
                symbol.to_string()
            };
            (
                "word_or_symbol",
                format!("{} {unit}", spell::num(self.ans, q, rng)),
            )
        } else {
            let other = other_unit(symbol)?;
            (
                "prefix_or_unit_changed",
                format!("{} {other}", spell::num(self.ans, q, rng)),
            )
        };
        let row = (rows > 1 || rng.chance(0.6)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, attr, &v, rng);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Unit, variant, format, evidence, answer, wrong)
    }

    fn approximation(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |_| true)?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| {
            matches!(a.kind, Kind::Count(_) | Kind::Unit(..)) && a.hi >= 1000 && a.dec == 0
        })?;
        let rows = rng.range(1, 3);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::Markdown, Format::List]);
        let format = if rows == 1 && format == Format::List {
            Format::Lines
        } else {
            format
        };
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let q = g.values[r][0];
        if q.mant < 1000 {
            return None;
        }
        let digits = q.mant.to_string().len() as i32;
        let places = -(digits - 2);
        let rounded = q.round(places);
        if rounded.same(q) {
            return None;
        }
        let attr = g.attrs[0];
        let with_unit =
            |x: Q, rng: &mut Rng| render::value(self.ans, &g, attr, x, Style::default(), rng);
        let word = spell::approx_word(self.ans, rng);
        let (variant, v, wrong) = if self.grounded {
            let text = with_unit(rounded, rng);
            ("approx_word", format!("{word} {text}"), None)
        } else if rng.chance(0.5) {
            // The rounded figure stated as exact: the integer gained zeros.
            let text = with_unit(rounded, rng);
            ("bare_rounding", text.clone(), Some(text))
        } else {
            // About a figure the evidence is not near.
            let far = Q::int(q.mant + q.mant / 5 + 10i64.pow((digits - 2) as u32)).round(places);
            if g.holds(far, 0) {
                return None;
            }
            let text = with_unit(far, rng);
            ("approx_far", format!("{word} {text}"), Some(text))
        };
        let row = (rows > 1 || rng.chance(0.6)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, attr, &v, rng);
        self.pair(
            Class::Approximation,
            variant,
            format,
            evidence,
            answer,
            wrong,
        )
    }

    fn scale(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |d| d.money_scale == Some(Scale::Million))?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| a.kind == Kind::Money && !a.signed)?;
        let rows = rng.range(1, 3);
        let mut g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        // Millions with a few significant digits: `3 400 M€`, `1,200 million`.
        for row in g.values.iter_mut() {
            row[0] = Q::int(rng.range(11, 98) as i64 * 100);
        }
        if !well_separated(&g) {
            return None;
        }
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::Markdown]);
        let evidence = render::evidence(self.ev, &g, format, rng);
        let r = rng.below(rows);
        let millions = g.values[r][0];
        let billions = millions.shift(-3).trimmed();
        let (variant, v) = if self.grounded {
            let digits = spell::num(self.ans, billions, rng);
            (
                "to_billions",
                spell::scaled(self.ans, Scale::Billion, &digits, Some(g.currency), rng),
            )
        } else {
            // The billions' digits under the millions' scale word.
            let digits = spell::num(self.ans, billions, rng);
            (
                "scale_changed",
                spell::scaled(self.ans, Scale::Million, &digits, Some(g.currency), rng),
            )
        };
        let row = (rows > 1 || rng.chance(0.6)).then_some(&g.rows[r]);
        let answer = render::answer_sentence(self.ans, row, g.attrs[0], &v, rng);
        let wrong = (!self.grounded).then_some(v);
        self.pair(Class::Scale, variant, format, evidence, answer, wrong)
    }

    fn arithmetic(&self, rng: &mut Rng) -> Option<Pair> {
        let domain = pick_domain(rng, |_| true)?;
        let kind = row_kind(rng, domain, |k| !matches!(k, RowKind::Day))?;
        let attrs = pick_attrs(rng, domain, 1, |a| {
            matches!(a.kind, Kind::Count(_) | Kind::Unit(..)) && !a.signed
        })?;
        let rows = rng.range(2, 4);
        let g = grid(rng, domain, kind, rows, attrs, Currency::home(self.ev))?;
        let format = *rng.pick(&[Format::Prose, Format::Lines, Format::List, Format::Markdown]);
        let evidence = render::evidence(self.ev, &g, format, rng);
        let attr = g.attrs[0];
        let (x, y) = (rng.below(rows), rng.below(rows));
        if x == y {
            return None;
        }
        let (qx, qy) = (g.values[x][0], g.values[y][0]);
        if self.grounded {
            let vx = self.respell(rng, &g, x, 0);
            let vy = self.respell(rng, &g, y, 0);
            let first = render::answer_sentence(self.ans, Some(&g.rows[x]), attr, &vx, rng);
            let second = render::answer_sentence(self.ans, Some(&g.rows[y]), attr, &vy, rng);
            return self.pair(
                Class::Arithmetic,
                "cited_separately",
                format,
                evidence,
                format!("{first} {second}"),
                None,
            );
        }
        let dec = qx.dec.max(qy.dec);
        let scale = |q: Q| q.mant * 10i64.pow(dec - q.dec);
        let (variant, result) = match rng.below(4) {
            0 => ("sum", Q::new(scale(qx) + scale(qy), dec)),
            1 => ("difference", Q::new((scale(qx) - scale(qy)).abs(), dec)),
            2 => {
                // One more digit than the evidence gives.
                let extra = rng.range(1, 9) as i64;
                ("precision_added", Q::new(qx.mant * 10 + extra, qx.dec + 1))
            }
            _ => {
                let total = scale(qx) + scale(qy);
                if total % 2 != 0 {
                    return None;
                }
                ("average", Q::new(total / 2, dec))
            }
        };
        if g.holds(result, 0) || result.mant == 0 {
            return None;
        }
        let v = render::value(self.ans, &g, attr, result, Style::default(), rng);
        let i = vocab::word_index(self.ans);
        let lx = render::label(self.ans, &g.rows[x], rng);
        let ly = render::label(self.ans, &g.rows[y], rng);
        let name = attr.name(self.ans);
        let answer = match variant {
            "sum" => [
                format!("{lx} and {ly} together had {name} of {v}."),
                format!("{lx} e {ly} somaram {name} de {v}."),
                format!("{lx} y {ly} sumaron {name} de {v}."),
                format!("{lx} et {ly} totalisent {name} de {v}."),
                format!("{lx} und {ly} kamen zusammen auf {name} von {v}."),
            ][i]
                .clone(),
            "difference" => [
                format!("The gap in {name} between {lx} and {ly} was {v}."),
                format!("A diferença de {name} entre {lx} e {ly} foi de {v}."),
                format!("La diferencia de {name} entre {lx} y {ly} fue de {v}."),
                format!("L'écart de {name} entre {lx} et {ly} est de {v}."),
                format!("Der Unterschied bei {name} zwischen {lx} und {ly} betrug {v}."),
            ][i]
                .clone(),
            "average" => [
                format!("Across {lx} and {ly}, {name} averaged {v}."),
                format!("Entre {lx} e {ly}, {name} teve média de {v}."),
                format!("Entre {lx} y {ly}, {name} promedió {v}."),
                format!("Pour {lx} et {ly}, {name} était en moyenne de {v}."),
                format!("Über {lx} und {ly} lag {name} im Mittel bei {v}."),
            ][i]
                .clone(),
            _ => render::answer_sentence(self.ans, Some(&g.rows[x]), attr, &v, rng),
        };
        let answer = cap(&answer);
        self.pair(
            Class::Arithmetic,
            variant,
            format,
            evidence,
            answer,
            Some(v),
        )
    }
}

/// The unit a careless answer swaps in: another prefix of the same unit, or a neighbour.
fn other_unit(symbol: &str) -> Option<&'static str> {
    Some(match symbol {
        "MWh" => "kWh",
        "kWh" => "MWh",
        "MW" => "kW",
        "t" => "kg",
        "h" => "min",
        "min" => "h",
        "km" => "m",
        "mm" => "cm",
        "ha" => "m²",
        "MPa" => "kPa",
        "W" => "kW",
        "dB" => "Hz",
        "m³/h" => "L/h",
        "mmHg" => "kPa",
        "km/h" => "m/s",
        "t/ha" => "kg/ha",
        "m²" => "ha",
        _ => return None,
    })
}

/// The unit an attribute is stated in, for "same kind" comparisons.
fn unit_of(attr: &Attr) -> String {
    match attr.kind {
        Kind::Unit(s, _) => s.to_string(),
        Kind::Count(nouns) => nouns[0].to_string(),
        Kind::Money => "money".into(),
        Kind::Percent => "%".into(),
        Kind::Fraction => "fraction".into(),
    }
}

/// A caption above a table (what it is, where it came from).
fn caption(lang: Lang, domain: &Domain, rng: &mut Rng) -> String {
    let year = rng.range(2020, 2025);
    match lang.words() {
        Lang::En => format!("Table: {} indicators, {year} report.", domain.name),
        Lang::Pt => format!("Tabela: indicadores, relatório de {year}."),
        Lang::Es => format!("Tabla: indicadores, informe {year}."),
        Lang::Fr => format!("Tableau : indicateurs, rapport {year}."),
        _ => format!("Tabelle: Kennzahlen, Bericht {year}."),
    }
}

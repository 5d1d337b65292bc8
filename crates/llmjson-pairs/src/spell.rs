//! How each locale writes a number, an amount of money, a scale, a date, an approximation and a
//! direction: the spellings an answer may re-spell a fact in.
//!
//! Written from the locales' conventions, not from any reader's tables: a spelling the verifier
//! does not know is a case it should fail.

use llmjson_faults::Rng;

/// The languages and number conventions pairs are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// English (`1,234.5`; `$`; month-first numeric dates).
    En,
    /// Brazilian Portuguese (`1.234,5`; `R$`).
    Pt,
    /// Spanish (`1.234,5`; `€` after the amount).
    Es,
    /// French (`1 234,5` with a no-break, narrow or plain space).
    Fr,
    /// German (`1.234,5`; `Mio.`, `Mrd.`).
    De,
    /// Swiss German (`1'234.5`; `CHF`).
    DeCh,
}

impl Lang {
    /// Every language, in the scoreboard's order.
    pub const ALL: [Lang; 6] = [Lang::En, Lang::Pt, Lang::Es, Lang::Fr, Lang::De, Lang::DeCh];

    /// The tag used in results (`pt-BR`, `de-CH`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Pt => "pt-BR",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::De => "de",
            Lang::DeCh => "de-CH",
        }
    }

    /// The language whose words it uses (Swiss German writes German words).
    pub fn words(self) -> Lang {
        match self {
            Lang::DeCh => Lang::De,
            l => l,
        }
    }

    /// A language picked with the weights real traffic has (English first).
    pub fn random(rng: &mut Rng) -> Lang {
        match rng.below(100) {
            0..=31 => Lang::En,
            32..=51 => Lang::Pt,
            52..=66 => Lang::Es,
            67..=81 => Lang::Fr,
            82..=93 => Lang::De,
            _ => Lang::DeCh,
        }
    }
}

/// A decimal quantity as written: `mant × 10^-dec` (`41.80` is 4180, 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Q {
    /// The digits, signed.
    pub mant: i64,
    /// Digits after the decimal mark.
    pub dec: u32,
}

impl Q {
    /// `mant × 10^-dec`.
    pub fn new(mant: i64, dec: u32) -> Q {
        Q { mant, dec }
    }

    /// An integer.
    pub fn int(n: i64) -> Q {
        Q { mant: n, dec: 0 }
    }

    /// The value as a float (for comparisons in the generator only).
    pub fn f(self) -> f64 {
        self.mant as f64 / 10f64.powi(self.dec as i32)
    }

    /// The same value without its sign.
    pub fn abs(self) -> Q {
        Q {
            mant: self.mant.abs(),
            dec: self.dec,
        }
    }

    /// The same value negated.
    pub fn negated(self) -> Q {
        Q {
            mant: -self.mant,
            dec: self.dec,
        }
    }

    /// Rounded (half away from zero) to `dec` decimals; `dec` may be negative (`-2`: hundreds).
    pub fn round(self, dec: i32) -> Q {
        let have = self.dec as i32;
        if dec >= have {
            return self;
        }
        let unit = 10i64.pow((have - dec) as u32);
        let q = self.mant / unit;
        let r = self.mant % unit;
        let mant = if r.abs() * 2 >= unit {
            q + self.mant.signum()
        } else {
            q
        };
        if dec >= 0 {
            Q {
                mant,
                dec: dec as u32,
            }
        } else {
            Q {
                mant: mant * 10i64.pow((-dec) as u32),
                dec: 0,
            }
        }
    }

    /// The same value times `10^by` (a scale word, or a fraction as a percentage).
    pub fn shift(self, by: i32) -> Q {
        if by >= 0 {
            let by = by as u32;
            if self.dec >= by {
                Q {
                    mant: self.mant,
                    dec: self.dec - by,
                }
            } else {
                Q {
                    mant: self.mant * 10i64.pow(by - self.dec),
                    dec: 0,
                }
            }
        } else {
            Q {
                mant: self.mant,
                dec: self.dec + (-by) as u32,
            }
        }
    }

    /// Trailing zeros after the mark dropped (`41.80` → `41.8`).
    pub fn trimmed(self) -> Q {
        let mut q = self;
        while q.dec > 0 && q.mant % 10 == 0 {
            q.mant /= 10;
            q.dec -= 1;
        }
        q
    }

    /// Whether two quantities have the same value, whatever their precision.
    pub fn same(self, other: Q) -> bool {
        let (a, b) = (self.trimmed(), other.trimmed());
        a == b
    }
}

/// How a number's digits are grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// The locale's thousands separator from 1,000 (or 10,000 where the locale skips four
    /// digits).
    Locale,
    /// No separator at all (`4812`).
    None,
}

/// The digits of `q` as `lang` writes them.
pub fn number(lang: Lang, q: Q, grouping: Grouping, rng: &mut Rng) -> String {
    let (group, mark) = marks(lang, rng);
    let negative = q.mant < 0;
    let digits = q.mant.unsigned_abs().to_string();
    let dec = q.dec as usize;
    let padded = format!("{digits:0>width$}", width = dec + 1);
    let (int, frac) = padded.split_at(padded.len() - dec);
    // Spanish and French often leave a four-digit integer ungrouped.
    let skip_four = matches!(lang, Lang::Es) && int.len() == 4 && rng.chance(0.5);
    let mut out = String::new();
    if negative {
        out.push(if rng.chance(0.2) { '−' } else { '-' });
    }
    if grouping == Grouping::None || int.len() <= 3 || skip_four {
        out.push_str(int);
    } else {
        let first = int.len() % 3;
        if first > 0 {
            out.push_str(&int[..first]);
        }
        for (k, chunk) in int.as_bytes()[first..].chunks(3).enumerate() {
            if k > 0 || first > 0 {
                out.push_str(group);
            }
            out.push_str(std::str::from_utf8(chunk).unwrap_or_default());
        }
    }
    if dec > 0 {
        out.push_str(mark);
        out.push_str(frac);
    }
    out
}

/// The thousands separator and the decimal mark of `lang` (French picks its space).
fn marks(lang: Lang, rng: &mut Rng) -> (&'static str, &'static str) {
    match lang {
        Lang::En => (",", "."),
        Lang::Pt | Lang::Es | Lang::De => (".", ","),
        Lang::Fr => (*rng.pick(&["\u{a0}", "\u{202f}", " "]), ","),
        Lang::DeCh => (*rng.pick(&["'", "'", "’"]), "."),
    }
}

/// A number written plainly in `lang` (grouped as the locale groups).
pub fn num(lang: Lang, q: Q, rng: &mut Rng) -> String {
    number(lang, q, Grouping::Locale, rng)
}

/// Currencies an amount is stated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Currency {
    /// US dollars.
    Usd,
    /// Euros.
    Eur,
    /// Brazilian reais.
    Brl,
    /// Swiss francs.
    Chf,
    /// Pounds sterling.
    Gbp,
    /// Canadian dollars.
    Cad,
}

impl Currency {
    /// The ISO code.
    pub fn code(self) -> &'static str {
        match self {
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
            Currency::Brl => "BRL",
            Currency::Chf => "CHF",
            Currency::Gbp => "GBP",
            Currency::Cad => "CAD",
        }
    }

    /// The currency a language's own amounts are usually in.
    pub fn home(lang: Lang) -> Currency {
        match lang {
            Lang::En => Currency::Usd,
            Lang::Pt => Currency::Brl,
            Lang::Es | Lang::Fr | Lang::De => Currency::Eur,
            Lang::DeCh => Currency::Chf,
        }
    }
}

/// `digits` (already spelled, with its scale word if any) as an amount in `currency`, the way
/// `lang` places symbols and codes; `style` picks among the locale's usual forms.
pub fn money(lang: Lang, currency: Currency, digits: &str, rng: &mut Rng) -> String {
    let symbol_forms: &[&str] = match (currency, lang) {
        (Currency::Usd, Lang::En) => &["${}", "${}", "US${}", "USD {}", "{} USD"],
        (Currency::Usd, Lang::Pt) => &["US$ {}", "US$ {}", "USD {}"],
        (Currency::Usd, Lang::Es) => &["{} USD", "US$ {}", "{} dólares"],
        (Currency::Usd, Lang::Fr) => &["{} USD", "{} $ US", "{} dollars US"],
        (Currency::Usd, _) => &["{} USD", "USD {}", "{} US-Dollar"],
        (Currency::Eur, Lang::En) => &["€{}", "EUR {}", "€{}"],
        (Currency::Eur, Lang::Pt) => &["€ {}", "EUR {}", "{} euros"],
        (Currency::Eur, Lang::Es) => &["{} €", "{} €", "{} euros", "{} EUR"],
        (Currency::Eur, Lang::Fr) => &["{} €", "{} €", "{} euros", "{} EUR"],
        (Currency::Eur, _) => &["{} €", "{} EUR", "{} Euro", "EUR {}"],
        (Currency::Brl, Lang::Pt) => &["R$ {}", "R$ {}", "R${}", "{} reais"],
        (Currency::Brl, _) => &["R$ {}", "BRL {}", "{} BRL"],
        (Currency::Chf, Lang::DeCh | Lang::De) => &["CHF {}", "CHF {}", "{} CHF", "Fr. {}"],
        (Currency::Chf, _) => &["CHF {}", "{} CHF"],
        (Currency::Gbp, Lang::En) => &["£{}", "GBP {}"],
        (Currency::Gbp, _) => &["{} GBP", "£{}"],
        (Currency::Cad, Lang::En) => &["CAD {}", "C${}", "CA${}"],
        (Currency::Cad, _) => &["{} CAD", "CAD {}"],
    };
    rng.pick(symbol_forms).replace("{}", digits)
}

/// A scale: thousands, millions, billions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// ×10³.
    Thousand,
    /// ×10⁶.
    Million,
    /// ×10⁹.
    Billion,
}

impl Scale {
    /// The power of ten.
    pub fn power(self) -> i32 {
        match self {
            Scale::Thousand => 3,
            Scale::Million => 6,
            Scale::Billion => 9,
        }
    }
}

/// `digits` followed by a scale word of `lang` for `scale` (`3,4 Mrd.`, `1.2 bn`), for an
/// amount in `currency` when given (some forms glue the symbol: `M€`, `Md€`, `$1.2bn`).
pub fn scaled(
    lang: Lang,
    scale: Scale,
    digits: &str,
    currency: Option<Currency>,
    rng: &mut Rng,
) -> String {
    let words: &[&str] = match (lang.words(), scale) {
        (Lang::En, Scale::Thousand) => &["{} thousand", "{}k", "{}K"],
        (Lang::En, Scale::Million) => &["{} million", "{}M", "{}m", "{} mn"],
        (Lang::En, Scale::Billion) => &["{} billion", "{}bn", "{} bn", "{}B"],
        (Lang::Pt, Scale::Thousand) => &["{} mil"],
        (Lang::Pt, Scale::Million) => &["{} milhões", "{} mi", "{} milhões"],
        (Lang::Pt, Scale::Billion) => &["{} bilhões", "{} bi", "{} bilhões"],
        (Lang::Es, Scale::Thousand) => &["{} mil"],
        (Lang::Es, Scale::Million) => &["{} millones", "{} M", "{} millones"],
        (Lang::Es, Scale::Billion) => &["{} mil millones", "{} mil millones"],
        (Lang::Fr, Scale::Thousand) => &["{} k", "{} mille"],
        (Lang::Fr, Scale::Million) => &["{} millions", "{} M"],
        (Lang::Fr, Scale::Billion) => &["{} milliards", "{} Md"],
        (Lang::De, Scale::Thousand) => &["{} Tsd.", "{} Tausend"],
        (Lang::De, Scale::Million) => &["{} Mio.", "{} Millionen", "{} Mio"],
        (Lang::De, Scale::Billion) => &["{} Mrd.", "{} Milliarden", "{} Mrd"],
        (_, _) => &["{}"],
    };
    let form = *rng.pick(words);
    let Some(c) = currency else {
        return form.replace("{}", digits);
    };
    // Glued forms: `3,4 M€`, `3 400 M€`, `$1.2bn`, `€3.9M`.
    let glued = form.ends_with("M")
        || form.ends_with("Md")
        || form.ends_with("k")
        || form.ends_with("bn")
        || form.ends_with("m")
        || form.ends_with("B")
        || form.ends_with("K");
    let scaled = form.replace("{}", digits);
    if glued && c == Currency::Eur && lang.words() == Lang::Fr {
        return format!("{scaled}€");
    }
    if glued && lang.words() == Lang::En {
        return match c {
            Currency::Usd => format!("${scaled}"),
            Currency::Eur => format!("€{scaled}"),
            Currency::Gbp => format!("£{scaled}"),
            other => format!("{} {scaled}", other.code()),
        };
    }
    // A word scale: the currency as the locale places it (`R$ 2,4 bilhões`, `3,2 Mio. €`,
    // `2,5 milliards d'euros`).
    match (lang.words(), c) {
        (Lang::Fr, Currency::Eur) if !glued && rng.chance(0.5) => format!("{scaled} d'euros"),
        (Lang::Es, Currency::Eur) if !glued && rng.chance(0.5) => format!("{scaled} de euros"),
        (Lang::Pt, Currency::Brl) if rng.chance(0.3) => format!("{scaled} de reais"),
        _ => money(lang, c, &scaled, rng),
    }
}

/// Months, in each language.
pub fn month(lang: Lang, m: u32) -> &'static str {
    const EN: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    const PT: [&str; 12] = [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ];
    const ES: [&str; 12] = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ];
    const FR: [&str; 12] = [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ];
    const DE: [&str; 12] = [
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ];
    let i = (m.clamp(1, 12) - 1) as usize;
    match lang.words() {
        Lang::En => EN[i],
        Lang::Pt => PT[i],
        Lang::Es => ES[i],
        Lang::Fr => FR[i],
        _ => DE[i],
    }
}

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    /// The year.
    pub y: u32,
    /// The month, 1-12.
    pub m: u32,
    /// The day, 1-28.
    pub d: u32,
}

/// `date` as `lang` writes it, in one of its usual forms (ISO, numeric in the locale's order,
/// or with the month's name).
pub fn date(lang: Lang, date: Date, rng: &mut Rng) -> String {
    let Date { y, m, d } = date;
    let name = month(lang, m);
    let forms: Vec<String> = match lang.words() {
        Lang::En => vec![
            format!("{y}-{m:02}-{d:02}"),
            format!("{name} {d}, {y}"),
            format!("{d} {name} {y}"),
            format!("{m:02}/{d:02}/{y}"),
        ],
        Lang::Pt => vec![
            format!("{y}-{m:02}-{d:02}"),
            format!("{d} de {name} de {y}"),
            format!("{d:02}/{m:02}/{y}"),
        ],
        Lang::Es => vec![
            format!("{y}-{m:02}-{d:02}"),
            format!("{d} de {name} de {y}"),
            format!("{d:02}/{m:02}/{y}"),
        ],
        Lang::Fr => vec![
            format!("{y}-{m:02}-{d:02}"),
            format!("{d} {name} {y}"),
            format!("{d:02}/{m:02}/{y}"),
        ],
        _ => vec![
            format!("{y}-{m:02}-{d:02}"),
            format!("{d}. {name} {y}"),
            format!("{d:02}.{m:02}.{y}"),
        ],
    };
    rng.pick(&forms).clone()
}

/// A word (or sign) saying the number after it is approximate.
pub fn approx_word(lang: Lang, rng: &mut Rng) -> &'static str {
    let forms: &[&str] = match lang.words() {
        Lang::En => &["about", "roughly", "around", "approximately", "~", "some"],
        Lang::Pt => &["cerca de", "aproximadamente", "por volta de", "em torno de"],
        Lang::Es => &["alrededor de", "aproximadamente", "cerca de", "unos"],
        Lang::Fr => &["environ", "près de", "autour de", "approximativement"],
        _ => &["rund", "etwa", "ca.", "ungefähr", "circa"],
    };
    rng.pick::<&str>(forms)
}

/// A phrase of a negative amount (`a loss of {}`, `fell {}`) or of a positive one, and whether
/// it is a verb phrase (`fell {}`) rather than a noun phrase (`a loss of {}`).
pub fn direction_phrase(lang: Lang, negative: bool, rng: &mut Rng) -> (&'static str, bool) {
    let (nouns, verbs): (&[&str], &[&str]) = match (lang.words(), negative) {
        (Lang::En, true) => (
            &[
                "a loss of {}",
                "a deficit of {}",
                "a decline of {}",
                "a shortfall of {}",
            ],
            &["fell {}", "dropped by {}", "declined by {}"],
        ),
        (Lang::En, false) => (
            &[
                "a profit of {}",
                "a surplus of {}",
                "a gain of {}",
                "an increase of {}",
            ],
            &["rose {}", "grew by {}", "climbed {}"],
        ),
        (Lang::Pt, true) => (
            &[
                "prejuízo de {}",
                "queda de {}",
                "déficit de {}",
                "recuo de {}",
                "perda de {}",
            ],
            &["caiu {}", "recuou {}"],
        ),
        (Lang::Pt, false) => (
            &[
                "lucro de {}",
                "superávit de {}",
                "alta de {}",
                "crescimento de {}",
            ],
            &["subiu {}", "cresceu {}"],
        ),
        (Lang::Es, true) => (
            &[
                "una pérdida de {}",
                "una caída de {}",
                "un déficit de {}",
                "un descenso de {}",
            ],
            &["cayó un {}", "bajó un {}"],
        ),
        (Lang::Es, false) => (
            &[
                "un beneficio de {}",
                "un superávit de {}",
                "un aumento de {}",
                "un crecimiento de {}",
            ],
            &["subió un {}", "creció un {}"],
        ),
        (Lang::Fr, true) => (
            &[
                "une perte de {}",
                "une baisse de {}",
                "un déficit de {}",
                "un recul de {}",
            ],
            &["a reculé de {}", "a baissé de {}"],
        ),
        (Lang::Fr, false) => (
            &[
                "un bénéfice de {}",
                "un excédent de {}",
                "une hausse de {}",
                "une croissance de {}",
            ],
            &["a progressé de {}", "a augmenté de {}"],
        ),
        (_, true) => (
            &[
                "Verlust von {}",
                "Fehlbetrag von {}",
                "Rückgang um {}",
                "Defizit von {}",
            ],
            &["sank um {}", "fiel um {}"],
        ),
        (_, false) => (
            &[
                "Gewinn von {}",
                "Überschuss von {}",
                "Anstieg um {}",
                "Zuwachs von {}",
            ],
            &["stieg um {}", "wuchs um {}"],
        ),
    };
    if rng.chance(0.35) {
        (*rng.pick(verbs), true)
    } else {
        (*rng.pick(nouns), false)
    }
}

/// Percentage points, as `lang` writes them after a number.
pub fn points(lang: Lang, rng: &mut Rng) -> &'static str {
    let forms: &[&str] = match lang.words() {
        Lang::En => &[" pp", " percentage points", " pts", " p.p."],
        Lang::Pt => &[" p.p.", " pontos percentuais"],
        Lang::Es => &[" p.p.", " puntos porcentuales"],
        Lang::Fr => &[" pt", " points de pourcentage", " points"],
        _ => &[" Prozentpunkte", " Pp.", " %-Punkte"],
    };
    rng.pick::<&str>(forms)
}

/// The percent sign as `lang` writes it after a number (French puts a space before it).
pub fn percent(lang: Lang, rng: &mut Rng) -> &'static str {
    let forms: &[&str] = match lang {
        Lang::Fr => &["\u{a0}%", " %", "\u{202f}%"],
        Lang::De | Lang::DeCh => &[" %", "%", "\u{a0}%"],
        Lang::En => &["%", "%", " percent"],
        Lang::Pt => &["%", "%", " por cento"],
        Lang::Es => &["%", " %", " por ciento"],
    };
    rng.pick::<&str>(forms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_spelled_by_locale() {
        let mut rng = Rng::new(1);
        let q = Q::new(1_234_567, 1);
        assert_eq!(number(Lang::En, q, Grouping::Locale, &mut rng), "123,456.7");
        assert_eq!(number(Lang::De, q, Grouping::Locale, &mut rng), "123.456,7");
        assert_eq!(number(Lang::En, q, Grouping::None, &mut rng), "123456.7");
        let ch = number(Lang::DeCh, Q::int(2_480_000), Grouping::Locale, &mut rng);
        assert!(ch == "2'480'000" || ch == "2’480’000", "{ch}");
        assert_eq!(
            number(Lang::En, Q::new(5, 2), Grouping::Locale, &mut rng),
            "0.05"
        );
    }

    #[test]
    fn rounding_and_shifts() {
        assert_eq!(Q::int(4762).round(-2), Q::int(4800));
        assert_eq!(Q::new(4183, 2).round(1), Q::new(418, 1));
        assert_eq!(Q::new(-4185, 2).round(1), Q::new(-419, 1));
        assert_eq!(Q::new(62, 2).shift(2), Q::int(62));
        assert_eq!(Q::int(3905).shift(-3), Q::new(3905, 3));
        assert!(Q::new(4180, 2).same(Q::new(418, 1)));
    }
}

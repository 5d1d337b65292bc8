//! The facts pairs are made of: domains, what their rows are (places, arms, plots, conditions,
//! periods), and what is measured of them, named in each language.

use crate::spell::{Date, Lang, Scale, Q};
use llmjson_faults::Rng;

/// What a measured value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A count of things, written with their noun (`84 staff`).
    Count([&'static str; 5]),
    /// A measurement in a unit: its symbol and its word in each language (empty: none).
    Unit(&'static str, [&'static str; 5]),
    /// An amount of money (written with a currency, often with a scale).
    Money,
    /// A percentage.
    Percent,
    /// A fraction of one, labelled as a rate or share (its percentage is the same claim).
    Fraction,
}

/// A measured attribute.
#[derive(Debug, Clone, Copy)]
pub struct Attr {
    /// Its key in JSON and CSV (`on_time_rate`).
    pub key: &'static str,
    /// Its name in en, pt, es, fr, de (lower case, a noun phrase).
    pub names: [&'static str; 5],
    /// What it is.
    pub kind: Kind,
    /// The range of its digits (before the decimals).
    pub lo: i64,
    /// The top of that range.
    pub hi: i64,
    /// Decimals written.
    pub dec: u32,
    /// Whether it may be negative (a result, a balance, a change).
    pub signed: bool,
}

impl Attr {
    /// Its name in `lang`.
    pub fn name(&self, lang: Lang) -> &'static str {
        self.names[word_index(lang)]
    }

    /// A random value of it.
    pub fn value(&self, rng: &mut Rng) -> Q {
        let span = (self.hi - self.lo).max(1) as usize;
        let mant = self.lo + rng.below(span + 1) as i64;
        Q::new(mant, self.dec)
    }
}

/// 0..5: the index of `lang`'s words in a five-language array.
pub fn word_index(lang: Lang) -> usize {
    match lang.words() {
        Lang::En => 0,
        Lang::Pt => 1,
        Lang::Es => 2,
        Lang::Fr => 3,
        _ => 4,
    }
}

/// What a domain's rows are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// Named places or people (the same in every language).
    Name(&'static [&'static str]),
    /// Codes under a noun (`arm B`, `Plot C`): the noun in each language.
    Code([&'static str; 5]),
    /// Numbered things (`week 12`, `matchday 7`).
    Numbered([&'static str; 5]),
    /// A condition that is itself a quantity (`at 120 °C`, `at 40,000 km`, `10 mg`): its unit,
    /// the lowest value, the step.
    Condition(&'static str, i64, i64),
    /// Calendar years.
    Year,
    /// Quarters of one year.
    Quarter,
    /// Days of audits or readings.
    Day,
    /// Products whose names carry digits (`Vortex 900`).
    Model(&'static [&'static str]),
}

/// A domain: what its rows are and what is measured of them.
#[derive(Debug, Clone, Copy)]
pub struct Domain {
    /// Its name, for the scoreboard.
    pub name: &'static str,
    /// What its rows can be.
    pub rows: &'static [RowKind],
    /// What is measured.
    pub attrs: &'static [Attr],
    /// The currency scale its money is usually stated in.
    pub money_scale: Option<Scale>,
}

/// One row of a fact table.
#[derive(Debug, Clone, PartialEq)]
pub enum Row {
    /// A name (`Porto`).
    Name(&'static str),
    /// A code under a noun (`arm B`).
    Code([&'static str; 5], String),
    /// A numbered thing (`week 12`).
    Numbered([&'static str; 5], u32),
    /// A condition (`120 °C`).
    Condition(&'static str, Q),
    /// A year.
    Year(u32),
    /// A quarter of a year.
    Quarter(u32, u32),
    /// A day.
    Day(Date),
    /// A product whose name carries digits.
    Model(&'static str, u32),
}

const NAMES_PLACES: &[&str] = &[
    "Porto", "Braga", "Faro", "Lyon", "Nantes", "Bremen", "Kassel", "Bilbao", "Murcia", "Austin",
    "Tulsa", "Leeds", "Cork", "Graz", "Malmö", "Aveiro", "Rennes", "Zaragoza", "Toledo", "Dayton",
];
const NAMES_SITES: &[&str] = &[
    "Alto Vale",
    "Serra Norte",
    "Ridgeback",
    "Kestrel Bay",
    "Monte Claro",
    "Pinewood",
    "Lagoa Seca",
    "Ostwind",
    "Vallée Verte",
    "Los Arcos",
];
const NAMES_PEOPLE: &[&str] = &[
    "Okafor",
    "Lindqvist",
    "Moreira",
    "Dubois",
    "Haddad",
    "Kowalski",
    "Nakamura",
    "Ferreira",
    "Schneider",
    "Castillo",
    "Brennan",
    "Rossi",
];
const MODELS: &[&str] = &[
    "Vortex", "Kestrel", "Nimbus", "Aurora", "Titan", "Zephyr", "Orion", "Falcon", "Atlas", "Helix",
];

const ARM: [&str; 5] = ["arm", "braço", "brazo", "bras", "Arm"];
const PLOT: [&str; 5] = ["plot", "parcela", "parcela", "parcelle", "Parzelle"];
const VARIANT: [&str; 5] = ["variant", "variante", "variante", "variante", "Variante"];
const LINE: [&str; 5] = ["line", "linha", "línea", "ligne", "Linie"];
const WEEK: [&str; 5] = ["week", "semana", "semana", "semaine", "Woche"];
const MATCHDAY: [&str; 5] = ["matchday", "rodada", "jornada", "journée", "Spieltag"];
const BLOCK: [&str; 5] = ["block", "bloco", "bloque", "bloc", "Block"];

/// Counted nouns.
const PATIENTS: [&str; 5] = [
    "patients",
    "pacientes",
    "pacientes",
    "patients",
    "Patienten",
];
const EVENTS: [&str; 5] = ["events", "eventos", "eventos", "événements", "Ereignisse"];
const STAFF: [&str; 5] = [
    "staff",
    "funcionários",
    "empleados",
    "salariés",
    "Beschäftigte",
];
const UNITS_SOLD: [&str; 5] = ["units", "unidades", "unidades", "logements", "Einheiten"];
const SPRINTS: [&str; 5] = ["sprints", "sprints", "sprints", "sprints", "Sprints"];
const DEFECTS: [&str; 5] = ["defects", "defeitos", "defectos", "défauts", "Mängel"];
const SHIPMENTS: [&str; 5] = [
    "shipments",
    "remessas",
    "envíos",
    "expéditions",
    "Sendungen",
];
const HOURS: [&str; 5] = ["hours", "horas", "horas", "heures", "Stunden"];
const MINUTES: [&str; 5] = ["minutes", "minutos", "minutos", "minutes", "Minuten"];

const fn attr(
    key: &'static str,
    names: [&'static str; 5],
    kind: Kind,
    lo: i64,
    hi: i64,
    dec: u32,
) -> Attr {
    Attr {
        key,
        names,
        kind,
        lo,
        hi,
        dec,
        signed: false,
    }
}

const fn signed(a: Attr) -> Attr {
    Attr { signed: true, ..a }
}

const NO_WORD: [&str; 5] = ["", "", "", "", ""];

/// Every domain.
pub const DOMAINS: &[Domain] = &[
    Domain {
        name: "clinical",
        rows: &[
            RowKind::Code(ARM),
            RowKind::Condition("mg", 5, 5),
            RowKind::Numbered(WEEK),
        ],
        attrs: &[
            attr(
                "response_rate",
                [
                    "response rate",
                    "taxa de resposta",
                    "tasa de respuesta",
                    "taux de réponse",
                    "Ansprechrate",
                ],
                Kind::Percent,
                150,
                820,
                1,
            ),
            attr(
                "systolic_drop_mmhg",
                [
                    "mean systolic reduction",
                    "redução média da pressão sistólica",
                    "reducción media de la presión sistólica",
                    "baisse moyenne de la pression systolique",
                    "mittlere Senkung des systolischen Drucks",
                ],
                Kind::Unit("mmHg", NO_WORD),
                42,
                248,
                1,
            ),
            attr(
                "adverse_events",
                [
                    "adverse events",
                    "eventos adversos",
                    "eventos adversos",
                    "événements indésirables",
                    "unerwünschte Ereignisse",
                ],
                Kind::Count(EVENTS),
                12,
                240,
                0,
            ),
            attr(
                "enrolled",
                [
                    "patients enrolled",
                    "pacientes incluídos",
                    "pacientes incluidos",
                    "patients inclus",
                    "eingeschlossene Patienten",
                ],
                Kind::Count(PATIENTS),
                40,
                960,
                0,
            ),
        ],
        money_scale: None,
    },
    Domain {
        name: "energy",
        rows: &[RowKind::Name(NAMES_SITES), RowKind::Year, RowKind::Quarter],
        attrs: &[
            attr(
                "output_mwh",
                ["output", "geração", "generación", "production", "Erzeugung"],
                Kind::Unit(
                    "MWh",
                    [
                        "megawatt-hours",
                        "megawatts-hora",
                        "megavatios hora",
                        "mégawattheures",
                        "Megawattstunden",
                    ],
                ),
                1200,
                98000,
                0,
            ),
            attr(
                "capacity_factor",
                [
                    "capacity factor",
                    "fator de capacidade",
                    "factor de capacidad",
                    "facteur de charge",
                    "Kapazitätsfaktor",
                ],
                Kind::Fraction,
                180,
                640,
                3,
            ),
            attr(
                "peak_load_mw",
                [
                    "peak load",
                    "carga de pico",
                    "carga punta",
                    "pointe de charge",
                    "Spitzenlast",
                ],
                Kind::Unit("MW", NO_WORD),
                120,
                9400,
                1,
            ),
            attr(
                "consumption_kwh",
                [
                    "auxiliary consumption",
                    "consumo auxiliar",
                    "consumo auxiliar",
                    "consommation auxiliaire",
                    "Eigenverbrauch",
                ],
                Kind::Unit("kWh", NO_WORD),
                210,
                9800,
                0,
            ),
        ],
        money_scale: Some(Scale::Million),
    },
    Domain {
        name: "logistics",
        rows: &[RowKind::Name(NAMES_PLACES), RowKind::Numbered(WEEK)],
        attrs: &[
            attr(
                "inbound_t",
                [
                    "inbound volume",
                    "volume de entrada",
                    "volumen de entrada",
                    "volume entrant",
                    "Eingangsvolumen",
                ],
                Kind::Unit(
                    "t",
                    ["tonnes", "toneladas", "toneladas", "tonnes", "Tonnen"],
                ),
                140,
                4800,
                0,
            ),
            attr(
                "outbound_t",
                [
                    "outbound volume",
                    "volume de saída",
                    "volumen de salida",
                    "volume sortant",
                    "Ausgangsvolumen",
                ],
                Kind::Unit(
                    "t",
                    ["tonnes", "toneladas", "toneladas", "tonnes", "Tonnen"],
                ),
                140,
                4800,
                0,
            ),
            attr(
                "on_time_rate",
                [
                    "on-time rate",
                    "taxa de pontualidade",
                    "tasa de puntualidad",
                    "taux de ponctualité",
                    "Pünktlichkeitsquote",
                ],
                Kind::Fraction,
                710,
                990,
                3,
            ),
            attr(
                "dwell_h",
                [
                    "average dwell time",
                    "tempo médio de permanência",
                    "tiempo medio de permanencia",
                    "temps moyen d'immobilisation",
                    "mittlere Standzeit",
                ],
                Kind::Unit("h", HOURS),
                31,
                980,
                1,
            ),
            attr(
                "shipments",
                [
                    "shipments",
                    "remessas",
                    "envíos",
                    "expéditions",
                    "Sendungen",
                ],
                Kind::Count(SHIPMENTS),
                120,
                9900,
                0,
            ),
        ],
        money_scale: None,
    },
    Domain {
        name: "sport",
        rows: &[RowKind::Name(NAMES_PEOPLE), RowKind::Numbered(MATCHDAY)],
        attrs: &[
            attr(
                "distance_km",
                [
                    "distance covered",
                    "distância percorrida",
                    "distancia recorrida",
                    "distance parcourue",
                    "Laufdistanz",
                ],
                Kind::Unit(
                    "km",
                    [
                        "kilometres",
                        "quilômetros",
                        "kilómetros",
                        "kilomètres",
                        "Kilometer",
                    ],
                ),
                81,
                134,
                1,
            ),
            attr(
                "top_speed_kmh",
                [
                    "top speed",
                    "velocidade máxima",
                    "velocidad máxima",
                    "vitesse maximale",
                    "Höchstgeschwindigkeit",
                ],
                Kind::Unit("km/h", NO_WORD),
                281,
                362,
                1,
            ),
            attr(
                "pass_accuracy",
                [
                    "pass accuracy",
                    "precisão de passe",
                    "precisión de pase",
                    "précision des passes",
                    "Passquote",
                ],
                Kind::Percent,
                640,
                950,
                1,
            ),
            attr(
                "sprints",
                ["sprints", "sprints", "sprints", "sprints", "Sprints"],
                Kind::Count(SPRINTS),
                14,
                61,
                0,
            ),
        ],
        money_scale: None,
    },
    Domain {
        name: "real estate",
        rows: &[RowKind::Name(NAMES_PLACES), RowKind::Quarter],
        attrs: &[
            attr(
                "vacancy_rate",
                [
                    "vacancy rate",
                    "taxa de vacância",
                    "tasa de desocupación",
                    "taux de vacance",
                    "Leerstandsquote",
                ],
                Kind::Fraction,
                18,
                140,
                3,
            ),
            attr(
                "units_sold",
                [
                    "units sold",
                    "unidades vendidas",
                    "viviendas vendidas",
                    "logements vendus",
                    "verkaufte Einheiten",
                ],
                Kind::Count(UNITS_SOLD),
                35,
                2400,
                0,
            ),
            attr(
                "median_price",
                [
                    "median price",
                    "preço mediano",
                    "precio mediano",
                    "prix médian",
                    "Medianpreis",
                ],
                Kind::Money,
                182_000,
                948_000,
                0,
            ),
            attr(
                "floor_area_m2",
                [
                    "average floor area",
                    "área média",
                    "superficie media",
                    "surface moyenne",
                    "durchschnittliche Wohnfläche",
                ],
                Kind::Unit("m²", NO_WORD),
                420,
                1480,
                1,
            ),
        ],
        money_scale: Some(Scale::Thousand),
    },
    Domain {
        name: "agriculture",
        rows: &[
            RowKind::Code(PLOT),
            RowKind::Year,
            RowKind::Name(NAMES_SITES),
        ],
        attrs: &[
            attr(
                "yield_t_ha",
                [
                    "yield",
                    "produtividade",
                    "rendimiento",
                    "rendement",
                    "Ertrag",
                ],
                Kind::Unit("t/ha", NO_WORD),
                180,
                1240,
                2,
            ),
            attr(
                "rainfall_mm",
                [
                    "rainfall",
                    "precipitação",
                    "precipitación",
                    "précipitations",
                    "Niederschlag",
                ],
                Kind::Unit(
                    "mm",
                    [
                        "millimetres",
                        "milímetros",
                        "milímetros",
                        "millimètres",
                        "Millimeter",
                    ],
                ),
                110,
                1490,
                0,
            ),
            attr(
                "area_ha",
                [
                    "harvested area",
                    "área colhida",
                    "superficie cosechada",
                    "surface récoltée",
                    "Erntefläche",
                ],
                Kind::Unit(
                    "ha",
                    ["hectares", "hectares", "hectáreas", "hectares", "Hektar"],
                ),
                120,
                8800,
                1,
            ),
        ],
        money_scale: None,
    },
    Domain {
        name: "public budget",
        rows: &[RowKind::Name(NAMES_PLACES), RowKind::Year],
        attrs: &[
            attr(
                "spending",
                ["spending", "despesa", "gasto", "dépenses", "Ausgaben"],
                Kind::Money,
                1200,
                98000,
                1,
            ),
            attr(
                "revenue",
                ["revenue", "receita", "ingresos", "recettes", "Einnahmen"],
                Kind::Money,
                1200,
                98000,
                1,
            ),
            signed(attr(
                "balance",
                [
                    "budget balance",
                    "saldo orçamentário",
                    "saldo presupuestario",
                    "solde budgétaire",
                    "Haushaltssaldo",
                ],
                Kind::Money,
                110,
                9800,
                1,
            )),
        ],
        money_scale: Some(Scale::Million),
    },
    Domain {
        name: "filings",
        rows: &[
            RowKind::Year,
            RowKind::Quarter,
            RowKind::Name(&["Europe", "Americas", "Asia-Pacific", "Iberia", "Nordics"]),
        ],
        attrs: &[
            attr(
                "revenue",
                [
                    "revenue",
                    "receita",
                    "ingresos",
                    "chiffre d'affaires",
                    "Umsatz",
                ],
                Kind::Money,
                1200,
                98000,
                1,
            ),
            signed(attr(
                "net_income",
                [
                    "net income",
                    "lucro líquido",
                    "resultado neto",
                    "résultat net",
                    "Nettoergebnis",
                ],
                Kind::Money,
                110,
                9800,
                1,
            )),
            attr(
                "ebitda_margin",
                [
                    "EBITDA margin",
                    "margem EBITDA",
                    "margen EBITDA",
                    "marge d'EBITDA",
                    "EBITDA-Marge",
                ],
                Kind::Percent,
                41,
                389,
                1,
            ),
            attr(
                "headcount",
                [
                    "headcount",
                    "número de funcionários",
                    "plantilla",
                    "effectif",
                    "Mitarbeiterzahl",
                ],
                Kind::Count(STAFF),
                120,
                48000,
                0,
            ),
            signed(attr(
                "revenue_growth",
                [
                    "revenue growth",
                    "crescimento da receita",
                    "crecimiento de los ingresos",
                    "croissance du chiffre d'affaires",
                    "Umsatzwachstum",
                ],
                Kind::Percent,
                5,
                189,
                1,
            )),
        ],
        money_scale: Some(Scale::Million),
    },
    Domain {
        name: "materials",
        rows: &[
            RowKind::Condition("°C", 80, 20),
            RowKind::Code(VARIANT),
            RowKind::Condition("km", 20000, 20000),
        ],
        attrs: &[
            attr(
                "cure_min",
                [
                    "cure time",
                    "tempo de cura",
                    "tiempo de curado",
                    "temps de durcissement",
                    "Aushärtezeit",
                ],
                Kind::Unit("min", MINUTES),
                12,
                95,
                0,
            ),
            attr(
                "tensile_mpa",
                [
                    "tensile strength",
                    "resistência à tração",
                    "resistencia a la tracción",
                    "résistance à la traction",
                    "Zugfestigkeit",
                ],
                Kind::Unit("MPa", NO_WORD),
                212,
                688,
                1,
            ),
            attr(
                "wear_mm",
                [
                    "brake wear",
                    "desgaste do freio",
                    "desgaste del freno",
                    "usure des freins",
                    "Bremsverschleiß",
                ],
                Kind::Unit("mm", NO_WORD),
                11,
                64,
                1,
            ),
            attr(
                "defects",
                [
                    "defects found",
                    "defeitos encontrados",
                    "defectos detectados",
                    "défauts relevés",
                    "festgestellte Mängel",
                ],
                Kind::Count(DEFECTS),
                11,
                96,
                0,
            ),
        ],
        money_scale: None,
    },
    Domain {
        name: "staffing",
        rows: &[
            RowKind::Name(NAMES_PLACES),
            RowKind::Year,
            RowKind::Code(LINE),
        ],
        attrs: &[
            attr(
                "staff",
                [
                    "staff",
                    "funcionários",
                    "empleados",
                    "salariés",
                    "Beschäftigte",
                ],
                Kind::Count(STAFF),
                24,
                960,
                0,
            ),
            attr(
                "turnover_rate",
                [
                    "staff turnover",
                    "rotatividade",
                    "rotación de personal",
                    "taux de rotation",
                    "Fluktuationsrate",
                ],
                Kind::Fraction,
                21,
                290,
                3,
            ),
            attr(
                "overtime_h",
                [
                    "overtime",
                    "horas extras",
                    "horas extra",
                    "heures supplémentaires",
                    "Überstunden",
                ],
                Kind::Unit("h", HOURS),
                140,
                9600,
                0,
            ),
            attr(
                "payroll",
                [
                    "payroll",
                    "folha de pagamento",
                    "nómina",
                    "masse salariale",
                    "Lohnsumme",
                ],
                Kind::Money,
                1100,
                89000,
                0,
            ),
        ],
        money_scale: Some(Scale::Thousand),
    },
    Domain {
        name: "products",
        rows: &[RowKind::Model(MODELS), RowKind::Code(BLOCK)],
        attrs: &[
            attr(
                "airflow",
                [
                    "airflow",
                    "vazão de ar",
                    "caudal de aire",
                    "débit d'air",
                    "Luftleistung",
                ],
                Kind::Unit("m³/h", NO_WORD),
                220,
                2400,
                0,
            ),
            attr(
                "noise_db",
                [
                    "noise level",
                    "nível de ruído",
                    "nivel de ruido",
                    "niveau sonore",
                    "Schallpegel",
                ],
                Kind::Unit("dB", NO_WORD),
                198,
                612,
                1,
            ),
            attr(
                "power_w",
                [
                    "power draw",
                    "consumo de potência",
                    "consumo de potencia",
                    "puissance absorbée",
                    "Leistungsaufnahme",
                ],
                Kind::Unit("W", NO_WORD),
                14,
                2200,
                0,
            ),
            attr(
                "price",
                [
                    "list price",
                    "preço de tabela",
                    "precio de lista",
                    "prix catalogue",
                    "Listenpreis",
                ],
                Kind::Money,
                8900,
                249_000,
                2,
            ),
        ],
        money_scale: None,
    },
];

impl Row {
    /// A random row of `kind`, different from those in `taken`; none when the kind has no
    /// other (a year has four quarters).
    pub fn random(kind: RowKind, rng: &mut Rng, taken: &[Row]) -> Option<Row> {
        for _ in 0..64 {
            let row = match kind {
                RowKind::Name(names) => Row::Name(rng.pick::<&str>(names)),
                RowKind::Code(noun) => {
                    let letters = ["A", "B", "C", "D", "E", "F"];
                    let code = if rng.chance(0.3) {
                        format!("{}{}", rng.pick(&letters), rng.range(1, 4))
                    } else {
                        rng.pick(&letters).to_string()
                    };
                    Row::Code(noun, code)
                }
                RowKind::Numbered(noun) => Row::Numbered(noun, rng.range(2, 48) as u32),
                RowKind::Condition(unit, lo, step) => {
                    Row::Condition(unit, Q::int(lo + step * rng.range(0, 5) as i64))
                }
                RowKind::Year => Row::Year(rng.range(2016, 2025) as u32),
                RowKind::Quarter => Row::Quarter(rng.range(1, 4) as u32, 2024),
                RowKind::Day => Row::Day(Date {
                    y: rng.range(2023, 2025) as u32,
                    m: rng.range(1, 12) as u32,
                    d: rng.range(13, 28) as u32,
                }),
                RowKind::Model(names) => Row::Model(
                    rng.pick::<&str>(names),
                    *rng.pick(&[300, 450, 600, 900, 1200, 1800, 2400]),
                ),
            };
            if !taken.iter().any(|t| t.same_label(&row)) {
                return Some(row);
            }
        }
        None
    }

    /// Whether two rows would be written with a label of the same words (`arm B` and
    /// `arm B`, or two models of one family).
    fn same_label(&self, other: &Row) -> bool {
        match (self, other) {
            (Row::Model(a, x), Row::Model(b, y)) => a == b || x == y,
            (Row::Quarter(a, _), Row::Quarter(b, _)) => a == b,
            _ => self == other,
        }
    }

    /// Whether the row is a calendar period (it binds through a date, a year or a quarter).
    pub fn is_period(&self) -> bool {
        matches!(self, Row::Year(_) | Row::Quarter(..) | Row::Day(_))
    }

    /// The number in the label, if it is a measurement-free label with digits (a model's
    /// name, a week's number).
    pub fn label_digits(&self) -> Option<u32> {
        match self {
            Row::Model(_, n) => Some(*n),
            Row::Numbered(_, n) => Some(*n),
            _ => None,
        }
    }
}

/// Years or quarters, and days: spelled per language by the renderers.
pub fn quarter(lang: Lang, q: u32, y: u32, rng: &mut Rng) -> String {
    match lang.words() {
        Lang::En => rng
            .pick(&[format!("Q{q} {y}"), format!("Q{q}"), format!("{y} Q{q}")])
            .clone(),
        Lang::Pt => rng
            .pick(&[
                format!("{q}º trimestre de {y}"),
                format!("T{q} {y}"),
                format!("{q}T{}", y % 100),
            ])
            .clone(),
        Lang::Es => rng
            .pick(&[format!("T{q} {y}"), format!("{q}.º trimestre de {y}")])
            .clone(),
        Lang::Fr => {
            let nth = if q == 1 {
                "1er".to_string()
            } else {
                format!("{q}e")
            };
            rng.pick(&[format!("T{q} {y}"), format!("{nth} trimestre {y}")])
                .clone()
        }
        _ => rng
            .pick(&[format!("Q{q} {y}"), format!("{q}. Quartal {y}")])
            .clone(),
    }
}

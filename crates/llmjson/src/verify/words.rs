//! The closed classes of words that change what a number means, in every supported language
//! (en, pt, es, fr, de): a direction before it (`a loss of`, `fell`, `Fehlbetrag`), an
//! approximation (`about`, `rund`, `cerca de`), a reference it numbers (`p. 212`, `§ 4.3`,
//! `order no.`), a street it is the number of, a preposition that makes it a year (`in 2021`) or a
//! level (`fell to 3.1%`), a month, a unit or a scale written as a word, a currency's name, and
//! the function words that bind nothing.
//!
//! No table here names a domain's things: what a number is *about* is read from the evidence's
//! own labels (`layout`), so a new domain needs no new word. Words are compared folded (lower
//! case, diacritics stripped: [`fold`]); the scan asks about each word once.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// What a word can be (several at once).
pub(crate) mod flag {
    /// Gives the number after it a negative direction (`loss`, `fell`, `queda`).
    pub const NEG: u32 = 1;
    /// A positive direction (`profit`, `rose`, `alta`).
    pub const POS: u32 = 1 << 1;
    /// The number after it is approximate (`about`, `rund`).
    pub const APPROX: u32 = 1 << 2;
    /// The number after it numbers a reference or a thing (`page`, `section`, `order`, `site`).
    pub const REF: u32 = 1 << 3;
    /// A street: the number beside it is an address.
    pub const STREET: u32 = 1 << 4;
    /// A preposition before a year (`in`, `since`, `em`, `seit`).
    pub const YEAR_PREP: u32 = 1 << 5;
    /// A preposition that makes the number after a direction word a level (`fell to`).
    pub const LEVEL_PREP: u32 = 1 << 6;
    /// A function word: binds nothing.
    pub const STOP: u32 = 1 << 7;
    /// Counted things (`patients`, `Beschäftigte`): a number before it is a count.
    pub const COUNT: u32 = 1 << 8;
    /// Joins clauses: what follows may be about something else (`and`, `while`, `während`).
    pub const CONJ: u32 = 1 << 9;
    /// A period noun (`week`, `semana`, `KW`): the number after it names a period.
    pub const WEEK: u32 = 1 << 10;
    /// `quarter`, `trimestre`, `Quartal`.
    pub const QUARTER: u32 = 1 << 11;
    /// `year`, `FY`, `exercício`.
    pub const YEAR_WORD: u32 = 1 << 12;
    /// Written with a month's letters but not one (`marcó`, a Spanish verb, is not `março`):
    /// set by the lexer from the word as written.
    pub const NOT_MONTH: u32 = 1 << 13;
    /// An outflow (`expenses`, `paid`, `Kosten`, `despesas`): a line so named shows its amounts
    /// negative by presentation (`Staff costs (488)`), and an answer states them plain.
    pub const COST: u32 = 1 << 14;
    /// A share (`share`, `part`, `taux`, `Anteil`): a value in [0, 1] under it is a fraction.
    pub const SHARE: u32 = 1 << 15;
}

/// `Prejuízo` → `prejuizo`, `Straße` → `strasse`, `Œuvre` → `oeuvre`: lower case, the
/// diacritics of Latin scripts dropped (other scripts kept as they are).
pub(crate) fn fold(word: &str) -> Cow<'_, str> {
    // Most words are folded already: they are borrowed, not copied.
    if word
        .bytes()
        .all(|c| !c.is_ascii_uppercase() && c.is_ascii())
    {
        return Cow::Borrowed(word);
    }
    let mut out = String::with_capacity(word.len());
    fold_into(word, &mut out);
    Cow::Owned(out)
}

/// Appends `word` folded to `out`.
pub(crate) fn fold_into(word: &str, out: &mut String) {
    if word
        .bytes()
        .all(|c| !c.is_ascii_uppercase() && c.is_ascii())
    {
        out.push_str(word);
        return;
    }
    for c in word.chars() {
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            continue;
        }
        let base = match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => {
                "a"
            }
            'ç' | 'Ç' => "c",
            'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => "e",
            'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => "i",
            'ñ' | 'Ñ' => "n",
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => {
                "o"
            }
            'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => "u",
            'ý' | 'ÿ' | 'Ý' => "y",
            'ß' => "ss",
            'æ' | 'Æ' => "ae",
            'œ' | 'Œ' => "oe",
            'º' | 'ª' => "o",
            _ => {
                for l in c.to_lowercase() {
                    out.push(l);
                }
                continue;
            }
        };
        out.push_str(base);
    }
}

/// The statistic a folded word names (`largest`, `máximo`, `höchste` → `max`; `averaged`,
/// `media`, `Durchschnitt` → `avg`): a claim of one is not a label's of another.
pub(crate) fn statistic(folded: &str) -> Option<&'static str> {
    Some(match folded {
        "max" | "maximum" | "maxima" | "maximo" | "maximos" | "maximal" | "maximale"
        | "maximalen" | "largest" | "highest" | "biggest" | "greatest" | "longest" | "hochste"
        | "hochsten" | "hochster" | "hochstens" | "hochstwert" | "groesste" | "grosste"
        | "grossten" | "peak" | "peaks" | "pico" | "spitzenwert" | "worst" => "max",
        "min" | "minimum" | "minima" | "minimo" | "minimos" | "minimal" | "minimale" | "lowest"
        | "smallest" | "shortest" | "niedrigste" | "niedrigsten" | "geringste" | "geringsten"
        | "mindestens" => "min",
        "avg" | "average" | "averages" | "averaged" | "averaging" | "mean" | "media" | "medio"
        | "medios" | "medias" | "promedio" | "promedios" | "moyenne" | "moyennes" | "moyen"
        | "durchschnitt" | "durchschnittlich" | "durchschnittliche" | "durchschnittlichen"
        | "mittel" | "mittlere" | "mittleren" | "schnitt" => "avg",
        "median" | "mediana" | "mediane" => "median",
        // A sum of the parts (`Total: 11,602` and `together`, `Gesamt` and `zusammen`).
        "total" | "totals" | "together" | "combined" | "altogether" | "gesamt" | "insgesamt"
        | "zusammen" | "summe" | "juntos" | "juntas" | "conjunto" | "somados" | "somadas"
        | "somaram" | "ensemble" | "both" | "beide" | "beiden" | "ambos" | "ambas" => "total",
        // A flow's direction, in any language and spelling (`outbound_t` and `shipped out`,
        // `paletes_expedidos`, `Salidas (t)` and `despachó`, `ausgang_t` and `verschickte`).
        "outbound" | "outgoing" | "dispatched" | "shipped" | "expedidos" | "expedido"
        | "expedidas" | "expedida" | "expedicao" | "expedicoes" | "despachado" | "despachados"
        | "despacho" | "despacharon" | "salidas" | "sorties" | "expedies" | "expedie"
        | "expediees" | "expediee" | "ausgang" | "ausgange" | "ausgehend" | "ausgehende"
        | "versand" | "versandt" | "verschickt" | "verschickte" | "verschickten" => "out",
        "inbound" | "incoming" | "received" | "recebidos" | "recebido" | "recebidas"
        | "recebida" | "recebimento" | "recibidos" | "recibido" | "recibidas" | "recibio"
        | "recepcion" | "entradas" | "recus" | "recues" | "receptionnes" | "eingang"
        | "eingange" | "eingehend" | "eingehende" | "eingegangen" | "empfangen" => "in",
        _ => return None,
    })
}

/// The flags of a folded word.
pub(crate) fn flags(folded: &str) -> u32 {
    // Words repeat: their flags are remembered per thread (the stems are many).
    thread_local! {
        static SEEN: std::cell::RefCell<HashMap<Box<str>, u32, ahash::RandomState>> =
            std::cell::RefCell::new(HashMap::with_hasher(ahash::RandomState::with_seeds(1, 2, 3, 4)));
    }
    if folded.len() > 40 {
        return flags_of(folded);
    }
    SEEN.with(|seen| {
        if let Some(&f) = seen.borrow().get(folded) {
            return f;
        }
        let f = flags_of(folded);
        let mut seen = seen.borrow_mut();
        // Bounded: a text of many distinct words starts the memory again.
        if seen.len() >= 1 << 16 {
            seen.clear();
        }
        seen.insert(folded.into(), f);
        f
    })
}

fn flags_of(folded: &str) -> u32 {
    let mut f = table().get(folded).copied().unwrap_or(0);
    if f & (flag::NEG | flag::POS) == 0 {
        f |= direction_by_stem(folded);
    }
    if f & flag::STREET == 0 && street_suffix(folded) {
        f |= flag::STREET;
    }
    f
}

/// Conjugations and derivations of direction words, by stem (`declin-`, `aument-`, `steig-`).
fn direction_by_stem(w: &str) -> u32 {
    const NEG: &[&str] = &[
        "declin",
        "decreas",
        "dropp",
        "shrink",
        "shrank",
        "shrunk",
        "reduc",
        "contracti",
        "contracte",
        "slump",
        "plung",
        "tumbl",
        "slipp",
        "lowered",
        "lowering",
        "prejuiz",
        "diminu",
        "redu",
        "retrac",
        "encolh",
        "retroce",
        "descens",
        "disminu",
        "reducc",
        "verlust",
        "ruckgang",
        "gesunk",
        "gefall",
        "einbruch",
        "eingebroch",
        "fehlbetrag",
        // (`Produktionsausfall`, `Umsatzausfälle`: what was lost.)
        "ausfall",
        "outflow",
        "senkung",
        "gesenkt",
        "minderung",
        "verringer",
        "reduzier",
        "schrumpf",
        "verlor",
        "abnahm",
        "baiss",
        "recul",
        "chute",
        "chuta",
        "regress",
        "deficit",
        "defizit",
        "defice",
        "negativ",
        "negatif",
        "perdid",
        "perdie",
        "perdeu",
        "perdi",
    ];
    const POS: &[&str] = &[
        "increas",
        "inflow",
        "improv",
        "climb",
        "jump",
        "soar",
        "boost",
        "expand",
        "lucr",
        "ganh",
        "aument",
        "cresc",
        "crec",
        "avanc",
        "avanz",
        "gananci",
        "benefic",
        "gewinn",
        "gagn",
        "uberschuss",
        "anstieg",
        "gestieg",
        "steig",
        "stieg",
        "wachstum",
        "zuwachs",
        "erhoh",
        "zuleg",
        "hauss",
        "augment",
        "croiss",
        "progress",
        "excedent",
        "superavit",
        "surplus",
        "profit",
        "positiv",
        "grimp",
    ];
    if w.len() < 4 {
        return 0;
    }
    // A German compound ends in its head (`Jahresfehlbetrag`, `Umsatzrückgang`).
    let compound = |s: &&str| s.len() >= 7 && w.len() > s.len() + 3 && w.ends_with(*s);
    if NEG.iter().any(|s| w.starts_with(s) || compound(s)) {
        return flag::NEG;
    }
    if POS.iter().any(|s| w.starts_with(s) || compound(s)) {
        return flag::POS;
    }
    0
}

/// German and Dutch street names are one word (`Bahnhofstrasse`, `Hauptstraße`, `Kirchweg`).
fn street_suffix(w: &str) -> bool {
    w.len() > 6
        && [
            "strasse", "weg", "platz", "gasse", "allee", "damm", "ufer", "chaussee", "straat",
        ]
        .iter()
        .any(|s| w.ends_with(s))
}

const NEG_WORDS: &[&str] = &[
    "loss",
    "losses",
    "lost",
    "lose",
    "loses",
    "losing",
    "fell",
    "fall",
    "falls",
    "falling",
    "drop",
    "drops",
    "down",
    "minus",
    "shortfall",
    "shortfalls",
    "drawdown",
    "drawdowns",
    "downturn",
    "dip",
    "dipped",
    "dips",
    "cut",
    "cuts",
    "slid",
    "sank",
    "sink",
    "sinks",
    "eased",
    "easing",
    "deficits",
    "perda",
    "perdas",
    "queda",
    "quedas",
    "caiu",
    "cairam",
    "cair",
    "cai",
    "caem",
    "recuo",
    "recuou",
    "recuar",
    "baixa",
    "baixou",
    "perdeu",
    "perdida",
    "caida",
    "caidas",
    "cayo",
    "cayeron",
    "bajo",
    "bajaron",
    "bajada",
    "sinkt",
    "sinken",
    "fiel",
    "fielen",
    "fallt",
    "fallen",
    "perte",
    "pertes",
    "repli",
    "tombe",
    "tombee",
    "tombes",
    "contraction",
    "contracted",
    // A variance against a budget: `écart défavorable`, `adverse variance`.
    "unfavourable",
    "unfavorable",
    "adverse",
    "defavorable",
    "defavorables",
    "desfavorable",
    "desfavorables",
    "desfavoravel",
    "desfavoraveis",
    "ungunstig",
    "ungunstige",
    "ungunstiger",
];
const SHARE_WORDS: &[&str] = &[
    "share",
    "shares",
    "part",
    "parts",
    "parte",
    "partes",
    "parcela",
    "taux",
    "taxa",
    "tasa",
    "rate",
    "ratio",
    "anteil",
    "quote",
    "quota",
    "cuota",
    "proporcao",
    "proporcion",
    "proportion",
    "fraction",
    "fracao",
    "fraccion",
    "participacao",
    "participacion",
];
const COST_WORDS: &[&str] = &[
    "expense",
    "expenses",
    "expenditure",
    "expenditures",
    "cost",
    "costs",
    "paid",
    "payment",
    "payments",
    "spent",
    "spending",
    "outflow",
    "outflows",
    "purchases",
    "salaries",
    "wages",
    "despesa",
    "despesas",
    "custo",
    "custos",
    "pagamentos",
    "pagos",
    "gasto",
    "gastos",
    "saidas",
    "coste",
    "costes",
    "costo",
    "costos",
    "egresos",
    "salidas",
    "depense",
    "depenses",
    "charges",
    "cout",
    "couts",
    "paiements",
    "sorties",
    "achats",
    "aufwand",
    "aufwendungen",
    "kosten",
    "ausgaben",
    "auszahlungen",
    "zahlungen",
    // Charges against income, shown in parentheses as costs are (`Depreciation (3,115)`).
    "depreciation",
    "amortisation",
    "amortization",
    "depreciacao",
    "amortizacao",
    "depreciacion",
    "amortizacion",
    "amortissement",
    "amortissements",
    "abschreibung",
    "abschreibungen",
];
const POS_WORDS: &[&str] = &[
    "gain", "gains", "gained", "rise", "rises", "rose", "risen", "rising", "grew", "grow", "grows",
    "grown", "growth", "growing", "up", "plus", "earned", "earnings", "added", "adds", "alta",
    "altas", "subiu", "subir", "sobe", "sobem", "subiram", "mais", "subio", "sube", "suben",
    "subieron", "alza", "wuchs", "wachst", "wachsen", "gagne", "gagnes", "monte", "hausse",
    // (Spanish `ganar`'s forms; not `ganado`, cattle.)
    "gano", "gana", "ganan", "ganaron", "ganaba",
    // A verb that raises a level (`elevó su resultado hasta`, `raised its output to`).
    "elevo", "elevou", "elevaron", "elevaram", "raised", "lifted",
];
const APPROX_WORDS: &[&str] = &[
    "about",
    "roughly",
    "around",
    "approximately",
    "approx",
    "nearly",
    "almost",
    "some",
    "circa",
    "ca",
    "cerca",
    "aproximadamente",
    "aprox",
    "quase",
    "volta",
    "torno",
    "uns",
    "umas",
    "alrededor",
    "casi",
    "unos",
    "unas",
    "environ",
    "pres",
    "presque",
    "autour",
    "approximativement",
    "quelque",
    "rund",
    "etwa",
    "ungefahr",
    "knapp",
    "zirka",
];
const REF_WORDS: &[&str] = &[
    // References into a document.
    "table",
    "tab",
    "figure",
    "fig",
    "chart",
    "graph",
    "section",
    "sec",
    "chapter",
    "page",
    "pages",
    "pp",
    "p",
    "appendix",
    "annex",
    "exhibit",
    "equation",
    "eq",
    "item",
    "article",
    "art",
    "paragraph",
    "ref",
    "reference",
    "footnote",
    "note",
    "line",
    "row",
    "column",
    "clause",
    "nr",
    "n",
    // `Nro. 88` (Spanish; `nº` folds to `no`, a preposition: the reader checks its sign).
    "nro",
    "number",
    "num",
    "id",
    "code",
    "question",
    "step",
    "version",
    "release",
    // A work's number in its composer's catalogue (`op. 18`, `BWV 1007`, `K. 525`).
    "op",
    "opus",
    "bwv",
    "hob",
    "protocol",
    "slide",
    "panel",
    "tabela",
    "quadro",
    "figura",
    "grafico",
    "secao",
    "seccao",
    "capitulo",
    "pagina",
    "pag",
    "apendice",
    "anexo",
    "equacao",
    "artigo",
    "paragrafo",
    "referencia",
    "nota",
    "linha",
    "coluna",
    "clausula",
    "numero",
    "questao",
    "versao",
    "aba",
    "tabla",
    "cuadro",
    "seccion",
    "ecuacion",
    "articulo",
    "parrafo",
    "fila",
    "columna",
    "pregunta",
    "version",
    "tabelle",
    "abbildung",
    "abb",
    "grafik",
    "abschnitt",
    "kapitel",
    "seite",
    "s",
    "anhang",
    "gleichung",
    "artikel",
    "absatz",
    "zeile",
    "spalte",
    "klausel",
    "frage",
    "tableau",
    "graphique",
    "chapitre",
    "annexe",
    "paragraphe",
    "ligne",
    "colonne",
    // Things numbered, not measured: orders, cases, invoices, places in a site.
    "order",
    "orders",
    "pedido",
    "commande",
    "auftrag",
    "bestellung",
    "contract",
    "contrato",
    "contrat",
    "vertrag",
    "devis",
    "convenio",
    "case",
    "processo",
    "expediente",
    "dossier",
    "fall",
    "invoice",
    "fatura",
    "factura",
    "facture",
    "rechnung",
    "ticket",
    "listing",
    "lot",
    "lote",
    "batch",
    "gate",
    "dock",
    "doca",
    "muelle",
    "quai",
    "platform",
    "unit",
    "room",
    "sala",
    "floor",
    "store",
    "loja",
    "tienda",
    "depot",
    "route",
    "rota",
    "ruta",
    "site",
    "plot",
    "parcela",
    "parcelle",
    "parzelle",
    "visit",
    "visita",
    "visite",
    "subject",
    "patient",
    "paciente",
    "specimen",
    "probe",
    "zone",
    "zona",
    "bay",
    "lane",
    "station",
    "tube",
    "matchday",
    "rodada",
    "jornada",
    "journee",
    "spieltag",
    "stage",
    "etapa",
    "etape",
    "phase",
    "fase",
    "hall",
    "halle",
    "block",
    "bloco",
    "bloque",
    "bloc",
    "lane",
    "pier",
    "berth",
    "terminal",
    "building",
    "predio",
    "edificio",
    "batiment",
    "gebaude",
    "apartment",
    "apartamento",
    "wohnung",
    "shelf",
    "aisle",
    "rack",
    "bin",
    "feeder",
    "well",
    "pozo",
    "poco",
    "pit",
    "shaft",
    "seat",
    "stand",
    "booth",
    "tag",
    "serial",
    "model",
    "modelo",
    "modele",
    "modell",
    "type",
    "tipo",
    "typ",
    "series",
    "serie",
    "flight",
    "voo",
    "vuelo",
    "vol",
    "flug",
    "bus",
    "train",
    "line",
    "linha",
    "linea",
    "ligne",
    "linie",
    "arm",
    "braco",
    "brazo",
    "bras",
    "group",
    "grupo",
    "groupe",
    "gruppe",
    "cohort",
    "coorte",
    "kohorte",
    "cohorte",
    "sample",
    "amostra",
    "muestra",
    "echantillon",
    "probe",
    "variant",
    "variante",
    "trial",
    "study",
    "estudo",
    "estudio",
    "etude",
    "studie",
    "run",
    "test",
    "teste",
    "prueba",
    "essai",
    "versuch",
    "experiment",
    "experimento",
    "experience",
    "scenario",
    "cenario",
    "escenario",
    "szenario",
    "option",
    "opcao",
    "opcion",
    "week",
    "semana",
    "semaine",
    "woche",
    "kw",
    "wk",
    "w",
];
/// A street word as listed (`street`, `rua`, `platz`), not a compound ending in one.
pub(crate) fn is_street_word(folded: &str) -> bool {
    ENGLISH_STREET_WORDS.contains(&folded) || STREET_WORDS.contains(&folded)
}

/// English street words: common words in lower case (`by the close of 2018`), a street's
/// only capitalised (`Maple Close 4`).
pub(crate) const ENGLISH_STREET_WORDS: &[&str] = &[
    "street",
    "st",
    "road",
    "rd",
    "avenue",
    "ave",
    "drive",
    "dr",
    "lane",
    "ln",
    "boulevard",
    "blvd",
    "way",
    "place",
    "square",
    "court",
    "ct",
    "terrace",
    "close",
    "route",
];
/// Other languages', written in lower case in a street's name too (`na rua Augusta 1500`).
const STREET_WORDS: &[&str] = &[
    "av", "rua", "avenida", "travessa", "alameda", "praca", "rodovia", "estrada", "calle", "avda",
    "paseo", "plaza", "carrera", "camino", "rue", "bd", "chemin", "allee", "impasse", "quai",
    "strasse", "str", "weg", "platz", "gasse", "ring",
];
const YEAR_PREPS: &[&str] = &[
    "in",
    "since",
    "during",
    "until",
    "till",
    "by",
    "from",
    "through",
    "before",
    "after",
    "of",
    "for",
    "to",
    "em",
    "desde",
    "durante",
    "ate",
    "de",
    "do",
    "no",
    "entre",
    "im",
    "seit",
    "bis",
    "von",
    "vor",
    "nach",
    "ab",
    "en",
    "depuis",
    "pendant",
    "jusqu",
    "avant",
    "apres",
    "hasta",
    "antes",
    "despues",
    "para",
    "year",
    "ano",
    "jahr",
    "annee",
    "fy",
    "end",
    "early",
    "late",
    "mid",
    "fim",
    "final",
    "inicio",
    "ende",
    "anfang",
    "fin",
    "debut",
    "fiscal",
    "exercice",
    "exercicio",
    "ejercicio",
    "geschaftsjahr",
    "kontrolljahr",
    "safra",
    "campana",
    "season",
    "temporada",
    "saison",
    "the",
    "o",
    "a",
    "el",
    "la",
    "le",
    "der",
    "die",
    "das",
    "dem",
    "den",
];
const LEVEL_PREPS: &[&str] = &[
    "to", "at", "para", "a", "hasta", "jusqu", "auf", "bis",
    // `a` with an article (`bajó al 76 %`, `passé au`, `subiu ao`).
    "al", "au", "aux", "ao",
];
const STOP_WORDS: &[&str] = &[
    // en
    "the",
    "a",
    "an",
    "of",
    "in",
    "on",
    "at",
    "for",
    "to",
    "from",
    "by",
    "with",
    "and",
    "or",
    "but",
    "as",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "has",
    "have",
    "had",
    "it",
    "its",
    "this",
    "that",
    "these",
    "those",
    "which",
    "who",
    "whom",
    "whose",
    "what",
    "there",
    "their",
    "they",
    "them",
    "he",
    "she",
    "his",
    "her",
    "we",
    "our",
    "you",
    "your",
    "than",
    "then",
    "also",
    "into",
    "per",
    "each",
    "all",
    "any",
    "both",
    "after",
    "before",
    "over",
    "while",
    "when",
    "where",
    "not",
    "no",
    "so",
    "such",
    "about",
    "up",
    "out",
    "only",
    "more",
    "most",
    "other",
    "same",
    "one",
    "two",
    "three",
    "would",
    "will",
    "can",
    "could",
    "may",
    "did",
    "does",
    "do",
    "versus",
    "vs",
    "against",
    "compared",
    "with",
    "total",
    "average",
    "mean",
    "value",
    "values",
    "figure",
    "amount",
    "level",
    "came",
    "stood",
    "reached",
    "recorded",
    "reported",
    "showed",
    "posted",
    "had",
    // pt
    "o",
    "os",
    "as",
    "um",
    "uma",
    "uns",
    "umas",
    "de",
    "do",
    "da",
    "dos",
    "das",
    "em",
    "no",
    "na",
    "nos",
    "nas",
    "por",
    "pelo",
    "pela",
    "para",
    "com",
    "sem",
    "e",
    "ou",
    "mas",
    "que",
    "se",
    "foi",
    "foram",
    "era",
    "eram",
    "ser",
    "ficou",
    "ficaram",
    "teve",
    "tem",
    "tinha",
    "seu",
    "sua",
    "seus",
    "suas",
    "este",
    "esta",
    "esse",
    "essa",
    "ao",
    "aos",
    "entre",
    "sobre",
    "contra",
    "ja",
    "tambem",
    "mais",
    "menos",
    "cada",
    "todo",
    "toda",
    "total",
    "media",
    "valor",
    "chegou",
    "registrou",
    "atingiu",
    // es
    "el",
    "los",
    "las",
    "del",
    "al",
    "y",
    "en",
    "con",
    "sin",
    "fue",
    "fueron",
    "es",
    "son",
    "su",
    "sus",
    "lo",
    "le",
    "les",
    "este",
    "esta",
    "ese",
    "esa",
    "un",
    "una",
    "unos",
    "unas",
    "tambien",
    "frente",
    "hasta",
    "desde",
    "segun",
    "registro",
    "alcanzo",
    // fr
    "le",
    "la",
    "les",
    "des",
    "du",
    "au",
    "aux",
    "un",
    "une",
    "et",
    "ou",
    "en",
    "dans",
    "sur",
    "pour",
    "par",
    "avec",
    "sans",
    "est",
    "sont",
    "etait",
    "ete",
    "a",
    "ont",
    "ce",
    "cette",
    "ces",
    "son",
    "sa",
    "ses",
    "leur",
    "leurs",
    "qui",
    "que",
    "dont",
    "ne",
    "pas",
    "plus",
    "contre",
    "entre",
    "soit",
    "atteint",
    "affiche",
    // de
    "der",
    "die",
    "das",
    "den",
    "dem",
    "des",
    "ein",
    "eine",
    "einer",
    "eines",
    "einem",
    "einen",
    "und",
    "oder",
    "aber",
    "im",
    "in",
    "am",
    "an",
    "auf",
    "aus",
    "bei",
    "mit",
    "nach",
    "von",
    "vom",
    "zu",
    "zum",
    "zur",
    "fur",
    "ist",
    "sind",
    "war",
    "waren",
    "wurde",
    "wurden",
    "hat",
    "hatte",
    "sich",
    "als",
    "auch",
    "nicht",
    "wie",
    "lag",
    "betrug",
    "erreichte",
    "insgesamt",
    "gegenuber",
];
const CONJ_WORDS: &[&str] = &[
    "and",
    "but",
    "while",
    "whereas",
    "whilst",
    "versus",
    "vs",
    "than",
    "compared",
    "against",
    "e",
    "mas",
    "enquanto",
    "porem",
    "contra",
    "und",
    "aber",
    "wahrend",
    "wohingegen",
    "gegenuber",
    "et",
    "mais",
    "tandis",
    "alors",
    "y",
    "pero",
    "mientras",
    "frente",
    "quand",
    "cuando",
    "quando",
    "wenn",
    "sowie",
    "ou",
    "or",
    "oder",
    "o",
];
const COUNT_WORDS: &[&str] = &[
    "cycles",
    "patients",
    "participants",
    "subjects",
    "people",
    "persons",
    "users",
    "customers",
    "clients",
    "employees",
    "workers",
    "staff",
    "students",
    "respondents",
    "cases",
    "samples",
    "specimens",
    "units",
    "items",
    "products",
    "orders",
    "records",
    "entries",
    "tests",
    "trials",
    "runs",
    "visits",
    "sessions",
    "events",
    "deaths",
    "births",
    "households",
    "vehicles",
    "cars",
    "devices",
    "machines",
    "animals",
    "tickets",
    "transactions",
    "requests",
    "calls",
    "downloads",
    "errors",
    "failures",
    "defects",
    "incidents",
    "accidents",
    "beds",
    "doses",
    "pieces",
    "parts",
    "boxes",
    "pallets",
    "containers",
    "shipments",
    "jobs",
    "members",
    "votes",
    "applications",
    "applicants",
    "complaints",
    "visitors",
    "passengers",
    "flights",
    "homes",
    "houses",
    "buildings",
    "stores",
    "locations",
    "shops",
    "sites",
    "trees",
    "hours",
    "fans",
    "spectators",
    "roles",
    "people",
    "pacientes",
    "participantes",
    "pessoas",
    "usuarios",
    "clientes",
    "funcionarios",
    "trabalhadores",
    "alunos",
    "estudantes",
    "casos",
    "amostras",
    "unidades",
    "itens",
    "produtos",
    "pedidos",
    "registros",
    "testes",
    "ensaios",
    "visitas",
    "eventos",
    "mortes",
    "obitos",
    "domicilios",
    "veiculos",
    "defeitos",
    "falhas",
    "escolas",
    "toneladas",
    "empregados",
    "cooperados",
    "inscritos",
    "personas",
    "empleados",
    "muestras",
    "pruebas",
    "defectos",
    "viviendas",
    "trenes",
    "camiones",
    "becas",
    "patienten",
    "teilnehmer",
    "personen",
    "mitarbeiter",
    "mitarbeitende",
    "beschaftigte",
    "kunden",
    "falle",
    "proben",
    "einheiten",
    "stuck",
    "ereignisse",
    "fahrzeuge",
    "reklamationen",
    "sendungen",
    "anlagen",
    "personnes",
    "salaries",
    "employes",
    "etudiants",
    "eleves",
    "echantillons",
    "unites",
    "commandes",
    "essais",
    "visites",
    "evenements",
    "deces",
    "logements",
    "abonnes",
];

/// Months by folded name (full names; abbreviations only inside dates, see [`month_abbrev`]).
const MONTHS: &[(&str, u8)] = &[
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("janeiro", 1),
    ("fevereiro", 2),
    ("marco", 3),
    ("abril", 4),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("agosto", 8),
    ("setembro", 9),
    ("outubro", 10),
    ("novembro", 11),
    ("dezembro", 12),
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("janvier", 1),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("decembre", 12),
    ("januar", 1),
    ("februar", 2),
    ("marz", 3),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("dezember", 12),
];

/// The month a folded full name names.
pub(crate) fn month(folded: &str) -> Option<u8> {
    static MAP: Table<u8> = OnceLock::new();
    lookup(&MAP, MONTHS, folded)
}

/// Days of the week by folded name, Monday first.
const WEEKDAYS: &[(&str, u8)] = &[
    ("monday", 1),
    ("tuesday", 2),
    ("wednesday", 3),
    ("thursday", 4),
    ("friday", 5),
    ("saturday", 6),
    ("sunday", 7),
    ("segunda", 1),
    ("terca", 2),
    ("quarta", 3),
    ("quinta", 4),
    ("sexta", 5),
    ("sabado", 6),
    ("domingo", 7),
    ("lunes", 1),
    ("martes", 2),
    ("miercoles", 3),
    ("jueves", 4),
    ("viernes", 5),
    ("lundi", 1),
    ("mardi", 2),
    ("mercredi", 3),
    ("jeudi", 4),
    ("vendredi", 5),
    ("samedi", 6),
    ("dimanche", 7),
    ("montag", 1),
    ("dienstag", 2),
    ("mittwoch", 3),
    ("donnerstag", 4),
    ("freitag", 5),
    ("samstag", 6),
    ("sonnabend", 6),
    ("sonntag", 7),
];

/// A day of the week by its folded name (`terça-feira`, `Dienstag`, `mardi`, `Mondays`).
pub(crate) fn weekday(folded: &str) -> Option<u8> {
    static MAP: Table<u8> = OnceLock::new();
    let w = folded.strip_suffix("-feira").unwrap_or(folded);
    lookup(&MAP, WEEKDAYS, w).or_else(|| {
        w.strip_suffix('s')
            .filter(|w| w.ends_with("day"))
            .and_then(|w| lookup(&MAP, WEEKDAYS, w))
    })
}

/// A day's abbreviation (`Seg`, `Tue`, `Mi.`), trusted only as a whole label (a table's
/// column): short words that are also other words (`Do`, `Sat`, `Mar`) elsewhere.
pub(crate) fn weekday_abbrev(folded: &str) -> Option<u8> {
    match folded.trim_end_matches('.') {
        "mon" | "seg" | "lun" | "mo" => Some(1),
        "tue" | "tues" | "ter" | "mar" | "di" => Some(2),
        "wed" | "qua" | "mie" | "mer" | "mi" => Some(3),
        "thu" | "thur" | "thurs" | "qui" | "jue" | "jeu" | "do" => Some(4),
        "fri" | "sex" | "vie" | "ven" | "fr" => Some(5),
        "sat" | "sab" | "sam" | "sa" => Some(6),
        "sun" | "dom" | "dim" | "so" => Some(7),
        _ => None,
    }
}

/// A month's abbreviation (`Mar`, `fev`, `Okt`), only trusted next to a day or a year.
pub(crate) fn month_abbrev(folded: &str) -> Option<u8> {
    let w = folded.trim_end_matches('.');
    month(w).or(match w {
        "jan" | "janv" | "ene" => Some(1),
        "feb" | "fev" | "fevr" => Some(2),
        "mar" => Some(3),
        "apr" | "abr" | "avr" => Some(4),
        "jun" => Some(6),
        "jul" | "juil" => Some(7),
        "aug" | "ago" => Some(8),
        "sep" | "sept" | "set" => Some(9),
        "oct" | "okt" | "out" => Some(10),
        "nov" => Some(11),
        "dec" | "dez" | "dic" => Some(12),
        _ => None,
    })
}

/// Units written as words, folded, with their symbol.
const UNIT_WORDS: &[(&str, &str)] = &[
    ("kubikmeter", "m³"),
    ("quadratmeter", "m²"),
    ("kilocalories", "kcal"),
    ("kilocalorie", "kcal"),
    ("quilocalorias", "kcal"),
    ("kilocalorias", "kcal"),
    ("kilokalorien", "kcal"),
    ("dozen", "doz"),
    ("dozens", "doz"),
    ("duzia", "doz"),
    ("duzias", "doz"),
    ("docena", "doz"),
    ("docenas", "doz"),
    ("douzaine", "doz"),
    ("douzaines", "doz"),
    ("dutzend", "doz"),
    ("nmi", "nmi"),
    ("seemeile", "nmi"),
    ("seemeilen", "nmi"),
    ("knot", "kn"),
    ("knots", "kn"),
    ("knoten", "kn"),
    ("nudos", "kn"),
    ("noeuds", "kn"),
    ("minute", "min"),
    ("minutes", "min"),
    ("mins", "min"),
    ("minuto", "min"),
    ("minutos", "min"),
    ("minuten", "min"),
    ("hour", "h"),
    ("hours", "h"),
    ("hr", "h"),
    ("hrs", "h"),
    ("hora", "h"),
    ("horas", "h"),
    ("stunde", "h"),
    ("stunden", "h"),
    ("std", "h"),
    ("heure", "h"),
    ("heures", "h"),
    ("second", "s"),
    ("seconds", "s"),
    ("sec", "s"),
    ("secs", "s"),
    ("segundo", "s"),
    ("segundos", "s"),
    ("sekunde", "s"),
    ("sekunden", "s"),
    ("seconde", "s"),
    ("secondes", "s"),
    ("millisecond", "ms"),
    ("milliseconds", "ms"),
    ("milissegundos", "ms"),
    ("millisekunden", "ms"),
    ("millisecondes", "ms"),
    ("milisegundos", "ms"),
    ("day", "d"),
    ("days", "d"),
    ("dia", "d"),
    ("dias", "d"),
    ("tag", "d"),
    ("tage", "d"),
    ("tagen", "d"),
    ("jour", "d"),
    ("jours", "d"),
    ("week", "wk"),
    ("weeks", "wk"),
    ("semanas", "wk"),
    ("semaines", "wk"),
    ("wochen", "wk"),
    ("month", "mo"),
    ("months", "mo"),
    ("meses", "mo"),
    ("mois", "mo"),
    ("monate", "mo"),
    ("monaten", "mo"),
    ("year", "yr"),
    ("years", "yr"),
    ("anos", "yr"),
    ("ans", "yr"),
    ("annees", "yr"),
    ("jahre", "yr"),
    ("jahren", "yr"),
    ("kilogram", "kg"),
    ("kilograms", "kg"),
    ("kilo", "kg"),
    ("kilos", "kg"),
    ("quilo", "kg"),
    ("quilos", "kg"),
    ("quilograma", "kg"),
    ("quilogramas", "kg"),
    ("kilogramm", "kg"),
    ("kilogramme", "kg"),
    ("kilogrammes", "kg"),
    ("kilogramo", "kg"),
    ("kilogramos", "kg"),
    ("gram", "g"),
    ("grams", "g"),
    ("grama", "g"),
    ("gramas", "g"),
    ("gramm", "g"),
    ("gramme", "g"),
    ("grammes", "g"),
    ("gramo", "g"),
    ("gramos", "g"),
    ("milligram", "mg"),
    ("milligrams", "mg"),
    ("miligrama", "mg"),
    ("miligramas", "mg"),
    ("milligramm", "mg"),
    ("milligramme", "mg"),
    ("milligrammes", "mg"),
    ("miligramo", "mg"),
    ("miligramos", "mg"),
    ("meter", "m"),
    ("meters", "m"),
    // German datives (`mit 2,5 Metern pro Sekunde`, `nach 40 Kilometern`).
    ("metern", "m"),
    ("kilometern", "km"),
    ("zentimetern", "cm"),
    ("millimetern", "mm"),
    ("metre", "m"),
    ("metres", "m"),
    ("metro", "m"),
    ("metros", "m"),
    ("kilometer", "km"),
    ("kilometers", "km"),
    ("kilometre", "km"),
    ("kilometres", "km"),
    ("quilometro", "km"),
    ("quilometros", "km"),
    ("kilometro", "km"),
    ("kilometros", "km"),
    ("centimeter", "cm"),
    ("centimeters", "cm"),
    ("centimetre", "cm"),
    ("centimetres", "cm"),
    ("centimetro", "cm"),
    ("centimetros", "cm"),
    ("zentimeter", "cm"),
    ("millimeter", "mm"),
    ("millimeters", "mm"),
    ("millimetre", "mm"),
    ("millimetres", "mm"),
    ("milimetro", "mm"),
    ("milimetros", "mm"),
    ("liter", "L"),
    ("liters", "L"),
    ("litre", "L"),
    ("litres", "L"),
    ("litro", "L"),
    ("litros", "L"),
    ("milliliter", "mL"),
    ("milliliters", "mL"),
    ("millilitre", "mL"),
    ("millilitres", "mL"),
    ("mililitro", "mL"),
    ("mililitros", "mL"),
    ("ton", "t"),
    ("tons", "t"),
    ("tonne", "t"),
    ("tonnes", "t"),
    ("tonelada", "t"),
    ("toneladas", "t"),
    ("tonnen", "t"),
    ("degree", "°"),
    ("degrees", "°"),
    ("grau", "°"),
    ("graus", "°"),
    ("grad", "°"),
    ("degre", "°"),
    ("degres", "°"),
    ("grado", "°"),
    ("grados", "°"),
    ("celsius", "°C"),
    ("fahrenheit", "°F"),
    ("percent", "%"),
    ("pct", "%"),
    ("porcento", "%"),
    ("prozent", "%"),
    ("pourcent", "%"),
    ("percentage", "pp"),
    ("kilowatt", "kW"),
    ("kilowatts", "kW"),
    ("quilowatt", "kW"),
    ("quilowatts", "kW"),
    ("megawatt", "MW"),
    ("gigawatt", "GW"),
    ("gigawatts", "GW"),
    ("megawatts", "MW"),
    ("watt", "W"),
    ("watts", "W"),
    ("volt", "V"),
    ("volts", "V"),
    ("megapascal", "MPa"),
    ("megapascals", "MPa"),
    ("kilonewton", "kN"),
    ("kilonewtons", "kN"),
    ("newton", "N"),
    ("newtons", "N"),
    ("hectare", "ha"),
    ("hectares", "ha"),
    ("hectarea", "ha"),
    ("hectareas", "ha"),
    ("hektar", "ha"),
    // Imperial units and other languages' names of them (`pés`, `pieds`, `polegadas`), and the
    // litre's prefixed forms: a quantity in feet is not one in metres, nor hectolitres litres.
    // (Those that are also common nouns are units only after a number: `unit_word_after_number`.)
    ("feet", "ft"),
    ("pes", "ft"),
    ("pieds", "ft"),
    ("inch", "in"),
    ("inches", "in"),
    ("polegada", "in"),
    ("polegadas", "in"),
    ("pulgada", "in"),
    ("pulgadas", "in"),
    ("pouces", "in"),
    ("gallon", "gal"),
    ("gallons", "gal"),
    ("galao", "gal"),
    ("galoes", "gal"),
    ("galon", "gal"),
    ("galones", "gal"),
    ("gallone", "gal"),
    ("gallonen", "gal"),
    ("yards", "yd"),
    ("jarda", "yd"),
    ("jardas", "yd"),
    ("yarda", "yd"),
    ("yardas", "yd"),
    ("acre", "ac"),
    ("acres", "ac"),
    ("ounce", "oz"),
    ("ounces", "oz"),
    ("onca", "oz"),
    ("oncas", "oz"),
    ("onza", "oz"),
    ("onzas", "oz"),
    ("hectolitre", "hL"),
    ("hectolitres", "hL"),
    ("hectoliter", "hL"),
    ("hectoliters", "hL"),
    ("hectolitro", "hL"),
    ("hectolitros", "hL"),
    ("hektoliter", "hL"),
    ("hektolitern", "hL"),
    ("centilitre", "cL"),
    ("centilitres", "cL"),
    ("centiliter", "cL"),
    ("centiliters", "cL"),
    ("centilitro", "cL"),
    ("centilitros", "cL"),
    ("zentiliter", "cL"),
    ("decilitre", "dL"),
    ("decilitres", "dL"),
    ("deciliter", "dL"),
    ("deciliters", "dL"),
    ("decilitro", "dL"),
    ("decilitros", "dL"),
    ("deziliter", "dL"),
    ("kilowattstunden", "kWh"),
    ("kilowattstunde", "kWh"),
    ("megawattstunden", "MWh"),
    ("gigawattstunden", "GWh"),
    ("kilowattheures", "kWh"),
    ("megawattheures", "MWh"),
    ("gigawattheures", "GWh"),
    ("decibels", "dB"),
    ("decibel", "dB"),
    ("points", "pt"),
    ("point", "pt"),
    ("pts", "pt"),
    ("pontos", "pt"),
    ("puntos", "pt"),
    ("punkte", "pt"),
    ("prozentpunkte", "pp"),
    ("prozentpunkten", "pp"),
    ("teu", "TEU"),
    ("lademeter", "ldm"),
    ("lademetern", "ldm"),
    ("euro", "EUR"),
    ("euros", "EUR"),
    ("dollar", "USD"),
    ("dollars", "USD"),
    ("dolar", "USD"),
    ("dolares", "USD"),
    ("real", "BRL"),
    ("reais", "BRL"),
    ("franken", "CHF"),
    ("francs", "CHF"),
    ("franc", "CHF"),
    ("francos", "CHF"),
    ("pound", "GBP"),
    ("pounds", "GBP"),
    ("sterling", "GBP"),
    ("libras", "GBP"),
    // (A peso whose country is not named is Mexico's, the most written. Not `peso`: folded,
    // it is also `pesó`, weighed.)
    ("pesos", "MXN"),
    ("soles", "PEN"),
    ("yen", "JPY"),
    ("yens", "JPY"),
    ("yuan", "CNY"),
    ("renminbi", "CNY"),
    ("rupee", "INR"),
    ("rupees", "INR"),
    ("rupia", "INR"),
    ("rupias", "INR"),
    ("roupie", "INR"),
    ("roupies", "INR"),
    ("rupien", "INR"),
    ("zloty", "PLN"),
    ("zlotys", "PLN"),
    ("zloties", "PLN"),
    ("zlote", "PLN"),
    ("kronor", "SEK"),
    ("rand", "ZAR"),
];

/// Scale words (folded), as powers of ten.
const SCALE_WORDS: &[(&str, i8)] = &[
    ("thousand", 3),
    ("thousands", 3),
    ("mil", 3),
    ("mille", 3),
    ("milliers", 3),
    ("milhares", 3),
    ("miles", 3),
    ("tausend", 3),
    ("tsd", 3),
    ("k", 3),
    ("million", 6),
    ("millions", 6),
    // India's (`INR 4.2 crore` is 42 million; a lakh is 100,000).
    ("lakh", 5),
    ("lakhs", 5),
    ("crore", 7),
    ("crores", 7),
    ("milhao", 6),
    ("milhoes", 6),
    ("mi", 6),
    ("mn", 6),
    ("millon", 6),
    ("millones", 6),
    ("millionen", 6),
    ("million", 6),
    ("mio", 6),
    ("billion", 9),
    ("billions", 9),
    ("bilhao", 9),
    ("bilhoes", 9),
    ("bi", 9),
    ("bn", 9),
    ("milliard", 9),
    ("milliards", 9),
    ("milliarde", 9),
    ("milliarden", 9),
    ("mrd", 9),
    ("md", 9),
    ("millardo", 9),
    ("millardos", 9),
    ("trillion", 12),
    ("trillions", 12),
    ("trilhao", 12),
    ("trilhoes", 12),
    ("tri", 12),
    ("billon", 12),
    ("billones", 12),
    ("billionen", 12),
];

#[derive(Default, Clone, Copy)]
struct Entry {
    flags: u32,
}

fn table() -> &'static HashMap<&'static str, u32, ahash::RandomState> {
    static TABLE: OnceLock<HashMap<&'static str, u32, ahash::RandomState>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: HashMap<&'static str, Entry, ahash::RandomState> = HashMap::default();
        let mut set = |words: &[&'static str], f: u32| {
            for w in words {
                t.entry(w).or_default().flags |= f;
            }
        };
        set(NEG_WORDS, flag::NEG);
        set(POS_WORDS, flag::POS);
        set(APPROX_WORDS, flag::APPROX);
        set(REF_WORDS, flag::REF);
        set(STREET_WORDS, flag::STREET);
        set(ENGLISH_STREET_WORDS, flag::STREET);
        set(YEAR_PREPS, flag::YEAR_PREP);
        set(LEVEL_PREPS, flag::LEVEL_PREP);
        set(STOP_WORDS, flag::STOP);
        set(CONJ_WORDS, flag::CONJ);
        set(COUNT_WORDS, flag::COUNT);
        set(COST_WORDS, flag::COST);
        set(SHARE_WORDS, flag::SHARE);
        set(
            &[
                "week", "weeks", "semana", "semanas", "semaine", "semaines", "woche", "wochen",
                "kw", "wk", "sem",
            ],
            flag::WEEK,
        );
        set(
            &[
                "quarter",
                "quarters",
                "trimestre",
                "trimestres",
                "quartal",
                "quartale",
                "tri",
            ],
            flag::QUARTER,
        );
        set(
            &[
                "year",
                "fy",
                "ano",
                "jahr",
                "annee",
                "exercice",
                "exercicio",
                "ejercicio",
                "geschaftsjahr",
                "gj",
            ],
            flag::YEAR_WORD,
        );
        t.into_iter().map(|(k, e)| (k, e.flags)).collect()
    })
}

/// A unit written as a word (`minutes`, `Stunden`, `quilos`), with its symbol.
pub(crate) fn unit_word(folded: &str) -> Option<&'static str> {
    static MAP: Table<&'static str> = OnceLock::new();
    lookup(&MAP, UNIT_WORDS, folded)
}

/// A unit word that is also a common noun (`Wembley yard`, `Apple pie`, `der Zoll` the customs,
/// `le pied`): a unit right after a number (`45 yard`, `18 pies`, `15 Zoll`), never a
/// header's last word.
pub(crate) fn unit_word_after_number(folded: &str) -> Option<&'static str> {
    Some(match folded {
        "foot" | "pe" | "pie" | "pies" | "pied" | "fuss" => "ft",
        "yard" => "yd",
        "pol" | "pouce" | "zoll" => "in",
        _ => return None,
    })
}

/// A scale word as a power of ten. `fr` reads `billion` as 10¹² (the long scale).
pub(crate) fn scale_word(word: &str, long_scale: bool) -> Option<i32> {
    let folded = fold(word.trim_end_matches('.'));
    let n = scale_word_folded(&folded)?;
    Some(if n == 9 && long_scale && folded.starts_with("billion") {
        12
    } else {
        n
    })
}

/// [`scale_word`] of a word already folded (no `fr` long scale).
pub(crate) fn scale_word_folded(folded: &str) -> Option<i32> {
    static MAP: Table<i8> = OnceLock::new();
    lookup(&MAP, SCALE_WORDS, folded).map(i32::from)
}

/// A word table read as a hash map, built on first use: the tables are asked about every word of
/// every text, and a scan of a few hundred pairs per word was a tenth of indexing's time.
type Table<V> = OnceLock<HashMap<&'static str, V, ahash::RandomState>>;

/// The value `table` gives `key` (its first entry, as a scan would find it).
fn lookup<V: Copy>(
    map: &'static Table<V>,
    table: &'static [(&'static str, V)],
    key: &str,
) -> Option<V> {
    map.get_or_init(|| {
        let mut m = HashMap::with_capacity_and_hasher(
            table.len(),
            ahash::RandomState::with_seeds(1, 2, 3, 4),
        );
        for &(k, v) in table.iter().rev() {
            m.insert(k, v);
        }
        m
    })
    .get(key)
    .copied()
}

/// [`currency_word`] of a word whose folded form is at hand.
pub(crate) fn currency_word_folded(raw: &str, folded: &str) -> Option<&'static str> {
    if raw.len() == 3 && raw.bytes().all(|c| c.is_ascii_uppercase()) {
        return currency_word(raw);
    }
    unit_word(folded).filter(|u| is_currency_code(u))
}

/// Whether a unit is a currency's code (`EUR`), not a unit's symbol.
/// A period's noun in the singular (folded), as the unit a quantity is per: `d`, `h`, `wk`,
/// `mo`, `yr` (`día`, `Stunde`, `semaine`, `month`, `Jahr`).
pub(crate) fn period_word(folded: &str) -> Option<&'static str> {
    Some(match folded {
        "dia" | "day" | "jour" | "tag" => "d",
        "hora" | "hour" | "heure" | "stunde" => "h",
        "semana" | "week" | "semaine" | "woche" => "wk",
        "mes" | "month" | "mois" | "monat" => "mo",
        "ano" | "year" | "an" | "annee" | "jahr" => "yr",
        _ => return None,
    })
}

/// Whether a unit measures a physical quantity: not a share, points, or money (`°C`, `m/s`
/// yes; `%`, `pp`, `$`, `EUR` no).
pub(crate) fn is_measure(unit: &str) -> bool {
    !matches!(unit, "%" | "pp" | "pt" | "$") && currency_word(unit).is_none()
}

/// A word that introduces what a figure is compared with (`than`, `vs`, `frente a`,
/// `gegenüber`, `par rapport à`; folded): what follows it is a comparison's base.
pub(crate) fn comparison_word(folded: &str) -> bool {
    matches!(
        folded,
        "vs" | "versus"
            | "than"
            | "compared"
            | "respecto"
            | "relacao"
            | "rapport"
            | "gegenuber"
            | "frente"
            | "over"
            | "contra"
            | "comparacao"
            | "comparacion"
            | "comparaison"
            | "vergleich"
    )
}

pub(crate) fn is_currency_code(unit: &str) -> bool {
    // (Every code is three capitals: most units fail before the list is read.)
    currency_code(unit).is_some()
}

const CURRENCY_CODES: &[&str] = &[
    "USD", "EUR", "BRL", "CHF", "GBP", "JPY", "CAD", "AUD", "NZD", "MXN", "PLN", "CZK", "HUF",
    "SEK", "NOK", "DKK", "INR", "CNY", "ARS", "CLP", "COP", "ZAR", "HKD", "SGD", "TWD", "KRW",
    "PEN", "UYU", "TRY", "THB", "IDR", "MYR", "ILS", "AED", "SAR", "EGP", "NGN", "KES", "VND",
    "MAD", "TND", "DZD", "QAR", "KWD", "BGN", "RON", "ISK", "UAH", "RSD", "BOB", "PYG", "CRC",
];

/// The ISO code `word` spells, as the table holds it (`COP`, `PEN`).
pub(crate) fn currency_code(word: &str) -> Option<&'static str> {
    if word.len() != 3 || !word.bytes().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    CURRENCY_CODES.iter().copied().find(|c| *c == word)
}

/// An ordinal written as a word, up to the fourth (`second`, `segundo`, `troisième`,
/// `zweiten`), folded: which quarter a `quarter` after it is.
pub(crate) fn ordinal_word(folded: &str) -> Option<u8> {
    Some(match folded {
        "first" | "primeiro" | "primeira" | "primer" | "primero" | "primera" | "premier"
        | "premiere" | "erste" | "ersten" | "erstes" | "erster" | "erstem" => 1,
        "second" | "segundo" | "segunda" | "deuxieme" | "seconde" | "zweite" | "zweiten"
        | "zweites" | "zweiter" | "zweitem" => 2,
        "third" | "terceiro" | "terceira" | "tercer" | "tercero" | "tercera" | "troisieme"
        | "dritte" | "dritten" | "drittes" | "dritter" | "drittem" => 3,
        "fourth" | "quarto" | "quarta" | "cuarto" | "cuarta" | "quatrieme" | "vierte"
        | "vierten" | "viertes" | "vierter" | "viertem" => 4,
        _ => return None,
    })
}

/// A currency named by a word or a code (`euros`, `Franken`, `CAD`), as its code.
pub(crate) fn currency_word(word: &str) -> Option<&'static str> {
    if word.len() == 3 && word.bytes().all(|c| c.is_ascii_uppercase()) {
        if let Some(c) = CURRENCY_CODES.iter().find(|c| **c == word) {
            return Some(c);
        }
    }
    unit_word(&fold(word)).filter(|u| is_currency_code(u))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_of_the_week_in_every_language() {
        assert_eq!(weekday(&fold("terça-feira")), Some(2));
        assert_eq!(weekday(&fold("Mittwoch")), Some(3));
        assert_eq!(weekday(&fold("miércoles")), Some(3));
        assert_eq!(weekday("sundays"), Some(7));
        assert_eq!(weekday("mardi"), Some(2));
        assert_eq!(weekday("march"), None);
        assert_eq!(weekday_abbrev("seg"), Some(1));
        assert_eq!(weekday_abbrev("di."), Some(2));
        assert_eq!(weekday_abbrev("month"), None);
    }

    #[test]
    fn words_are_found_folded() {
        assert_eq!(fold("Prejuízo"), "prejuizo");
        assert_eq!(fold("Straße"), "strasse");
        assert!(flags(&fold("Verlust")) & flag::NEG != 0);
        assert!(flags(&fold("diminuição")) & flag::NEG != 0);
        assert!(flags("steigt") & flag::POS != 0);
        assert!(flags("sinkt") & flag::NEG != 0);
        assert!(flags("about") & flag::APPROX != 0);
        assert!(flags(&fold("página")) & flag::REF != 0);
        assert!(flags(&fold("Bahnhofstrasse")) & flag::STREET != 0);
        assert_eq!(unit_word("stunden"), Some("h"));
        assert_eq!(scale_word("Milliarden", false), Some(9));
        assert_eq!(scale_word("billion", true), Some(12));
        assert_eq!(currency_word("Franken"), Some("CHF"));
        assert_eq!(month(&fold("março")), Some(3));
        assert_eq!(month_abbrev("okt."), Some(10));
        assert!(flags("the") & flag::STOP != 0 && flags("porto") & flag::STOP == 0);
    }
}

//! The layout: a text's structure — tables (markdown, CSV, TSV, semicolon rows), labelled lines
//! and lists (`Lisbon: 84 staff; Porto: 61 staff`, `- 20,000 km: 1.2 mm`), headings and
//! captions, prose — and, for each number, its frame and what the structure binds it to.
//!
//! A binding is a label among alternatives: a cell's row among the table's rows and its column
//! among the columns; a list item's label among the list's labels; in prose, the place, the
//! period, the code or the condition in force where the number is (by type: a new year replaces
//! the year, a new name the name) and the words of its clause. Labels are the document's own
//! words, read here: no table of domain words.
//!
//! Evidence and answers are read the same way; what differs is what is kept. For evidence, each
//! binding is a label in a dimension (`Bind::dim`) — the index knows its alternatives. For an
//! answer, each binding is a word or name near the number with a weight (explicit labels 1, prose
//! decaying with distance), to compare with an evidence number's labels.

use super::decimal::Decimal;
use super::frame::{self, Frame, Kind, Polarity, Spec, Trivial};
use super::lex::{self, Form, Lexed, Mode, Num, Sign, Tok, TokKind, P};
use super::words::{self, flag};
use crate::policy::grounding::Locale;
use compact_str::{format_compact, CompactString};
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;
use std::sync::Arc;

/// A label's atom (`w:porto`, `y:2021`, `n:40000e0|km`): short, kept inline (no allocation per
/// word read).
pub(crate) type Atom = CompactString;

/// Whose text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Evidence,
    Answer,
}

/// One thing a number is bound to.
#[derive(Debug, Clone)]
pub(crate) struct Bind {
    /// The dimension whose labels are the alternatives (evidence).
    pub dim: u64,
    /// The label: atoms (`w:porto`, `y:2021`, `n:40000e0|km`, `c:B`, `d:2024-03-11`), shared:
    /// a line's, a row's or a section's binding is cloned for each of its numbers.
    pub atoms: Rc<[Atom]>,
    /// How strongly an answer binds it (1 for an explicit label; less, the farther in prose).
    pub weight: f32,
    /// Which mention in the answer it comes from (one date is several atoms: counted once).
    pub mention: u32,
    /// A heading's or a caption's: it frames, it does not exclude (`Budget 2025` does not make
    /// a 2024 figure under it a 2025 one).
    pub title: bool,
    /// The words of a prose clause: a weaker binding than a label, which the answer must
    /// contradict more clearly.
    pub soft: bool,
    /// A table row's name: its rows are the alternatives an answer names most plainly, so
    /// that a weaker mention of another row's name tells them apart.
    pub row: bool,
    /// Where an answer's word is named, against the number's own clause.
    pub reach: Reach,
    /// The label as written (`Variant B`, `inbound_teu`), for diagnostics; none when the
    /// binding has no one text (shared with the evidence's index: `Arc`).
    pub text: Option<Arc<str>>,
}

impl Bind {
    /// A table row's name, in `dim`.
    pub(crate) fn row_label(dim: u64, atoms: Rc<[Atom]>, text: Option<Arc<str>>) -> Bind {
        Bind {
            row: true,
            ..Bind::label(dim, atoms, text)
        }
    }

    /// An explicit label of the number's own, in `dim`, as written when it has one text.
    pub(crate) fn label(dim: u64, atoms: impl Into<Rc<[Atom]>>, text: Option<Arc<str>>) -> Bind {
        Bind {
            dim,
            atoms: atoms.into(),
            weight: 1.0,
            mention: 0,
            title: false,
            soft: false,
            row: false,
            reach: Reach::Own,
            text,
        }
    }
}

/// Where an answer names a word bound to a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Reach {
    /// In the number's own clause, before it (`Lkw zahlen 88,70 €`); an evidence's binding.
    #[default]
    Own,
    /// After the number (`655 quarantined emails`): what it counts, more than whose it is.
    After,
    /// Before the number's own clause (an earlier clause's label, the sentence's subject or
    /// opening phrase): it yields to what the own clause names.
    Carried,
}

/// A number read in its document.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub num: Num,
    pub frame: Frame,
    pub binds: Vec<Bind>,
    /// The atom this number is when it labels (`n:401e0`, `y:2021`, `n:12e1|°C`).
    pub atom: Option<Atom>,
    /// The word right after it, folded (`staff` in `84 staff`): what it counts.
    pub noun: Option<CompactString>,
    /// The capitalised word right before a bare integer, folded (`kestrel` of `Kestrel 2400
    /// axial fan`): a name the number may be part of.
    pub name: Option<CompactString>,
}

/// What an answer's reader may ask of the evidence.
pub(crate) struct Hints<'a> {
    /// The evidence holds this atom as a label (`n:401e0`): an answer's number in a label's place
    /// is that label.
    pub label: &'a dyn Fn(&str) -> bool,
    /// The evidence counts this folded word (`staff` after `84`): a year-shaped number before it
    /// is a count.
    pub count_noun: &'a dyn Fn(&str) -> bool,
    /// The evidence states this value as a quantity: an answer's small count of it is checked
    /// (`7 não conformidades` against another date's 7), not skipped.
    pub states: &'a dyn Fn(Decimal) -> bool,
    /// The evidence binds a number to this atom (`w:forfait`): a word an answer writes right
    /// after a year-shaped number names what it counts (`se vendieron 2023 forfaits`).
    pub binds: &'a dyn Fn(&str) -> bool,
    /// A label of the evidence counts this noun by this value (`Leather repairs to 12 folios`):
    /// an answer's `repairs to 12 folios` names that label.
    pub label_count: &'a dyn Fn(Decimal, &str) -> bool,
    /// The decimal mark the evidence writes (`Some(false)`: a comma): an answer that shows none
    /// of its own is read by it (`alongamento de 1,047` against a table of decimal commas).
    pub convention: Option<bool>,
}

/// Hints that know nothing (for evidence).
pub(crate) fn no_hints() -> Hints<'static> {
    Hints {
        label: &|_| false,
        count_noun: &|_| false,
        states: &|_| false,
        binds: &|_| false,
        label_count: &|_, _| false,
        convention: None,
    }
}

/// How a text is read.
pub(crate) struct Config<'a> {
    pub locale: Locale,
    pub role: Role,
    /// Distinguishes this text's dimensions from other sources'.
    pub salt: u64,
    /// Bindings every number of the text has (a JSON string's keys).
    pub base: &'a [Bind],
    /// A unit, currency or scale stated for the whole text (a JSON key's).
    pub spec: Spec,
    pub hints: &'a Hints<'a>,
}

/// Reads `text`, handing each number to `sink`.
pub(crate) fn read(text: &str, cfg: &Config, sink: &mut dyn FnMut(Item)) {
    let doc = Doc::new(text, cfg);
    doc.run(sink);
}

/// How a text writes numeric dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DateOrder {
    DayFirst,
    MonthFirst,
    Unknown,
}

impl DateOrder {
    /// The atom prefix of a date read in this order (`dd:` day first, `dm:` month first): a
    /// text whose slash dates could be read either way (`05/03/2025` with no other cue) holds
    /// both readings under both prefixes, and an answer's date matches the reading its own
    /// language writes (`3 de maio de 2025`: the day-first one, `03/05/2025`).
    fn reading_prefix(self) -> Option<&'static str> {
        match self {
            DateOrder::DayFirst => Some("dd"),
            DateOrder::MonthFirst => Some("dm"),
            DateOrder::Unknown => None,
        }
    }
}

/// The scope of one kind of label in prose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Ty {
    Year,
    Date,
    Month,
    Quarter,
    Week,
    Code,
    Name,
    /// A condition in this unit (`at 120 °C`).
    Cond(&'static str),
    /// A thing numbered (`site 401`, `arm 2`): the noun's stem hash.
    Ref(u32),
}

impl Ty {
    fn temporal(self) -> bool {
        matches!(
            self,
            Ty::Year | Ty::Date | Ty::Month | Ty::Quarter | Ty::Week
        )
    }
    fn key(self) -> u64 {
        match self {
            Ty::Year => 1,
            Ty::Date => 2,
            Ty::Month => 3,
            Ty::Quarter => 4,
            Ty::Week => 5,
            Ty::Code => 6,
            Ty::Name => 7,
            Ty::Cond(u) => 8 ^ hash_str(u) << 4,
            Ty::Ref(h) => 9 ^ u64::from(h) << 4,
        }
    }
}

struct Doc<'a> {
    text: &'a str,
    cfg: &'a Config<'a>,
    dollar: &'static str,
    german: bool,
    order: DateOrder,
    /// The decimal mark the whole text shows (`Some(true)`: a dot), for the numbers a region
    /// leaves ambiguous.
    convention: Option<bool>,
    /// A French text: a plain space groups digits (`18 460`).
    french: bool,
    /// Portuguese, not Spanish: `o` is no conjunction.
    portuguese: bool,
    /// Labels already read: a list's segment labels and a table's cells repeat (`resistência`,
    /// `custo`), and are read once.
    labels: std::cell::RefCell<HashMap<Box<str>, Vec<LabelRead>, ahash::RandomState>>,
    /// A label's spec and whether it names a fall, read once per label text.
    specs: std::cell::RefCell<HashMap<Box<str>, LabelSense, ahash::RandomState>>,
    /// Token buffers of regions read and done with: a document's lines and cells are lexed
    /// one after another, into buffers already grown.
    spare: std::cell::RefCell<Vec<Lexed>>,
}

/// A label's text and the unit of its column, if it is a table cell.
/// A label's atoms, read with the unit of its column (if a table cell): looked up by the text
/// alone, so that a hit allocates nothing.
type LabelRead = (Option<Option<&'static str>>, Rc<[Atom]>);

/// A line of the text and its shape.
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    /// End, without the line break.
    end: usize,
    shape: Option<(u8, u16)>,
}

/// The heading or caption in force: its words bind what follows; its spec states units.
#[derive(Debug, Clone, Default)]
struct Section {
    atoms: Vec<Atom>,
    spec: Spec,
    negative: bool,
    /// A list item's value or a table cell: parentheses around a number are accounting's
    /// minus (`Net loss: (2,904)`).
    value: bool,
    /// Its label names an outflow (`Staff costs  (780)`): a negative amount is one by
    /// presentation.
    outflow: bool,
    /// A statement's row that states no result (`Arena lease | (1,450)`, not `Operating
    /// result | (412)`): an amount in parentheses is an outflow by presentation.
    paren_outflow: bool,
}

const HEADER: u8 = 0;
/// A table whose columns are set apart by runs of two or more spaces (a report's text export:
/// `Fachhandel   2'310   2'480`).
const SPACED: u8 = 1;

/// How strongly the phrase an answer's sentence opens with binds its numbers: a mention,
/// whatever the distance (the phrase frames the sentence).
const OPENING_WEIGHT: f32 = 0.4;
/// Possessive determiners: the thing they refer to is what the sentence named before.
const POSSESSIVES: &[&str] = &[
    "its", "their", "his", "sua", "seu", "suas", "seus", "su", "sus", "sa", "ses", "leur", "leurs",
    "seine", "seiner", "seinen", "seinem", "ihre", "ihrer", "ihren", "ihrem",
    // Of it, of them (`164 l Wasser, davon 46 l Frischwasser`, `dont 38 %`).
    "davon", "dont", "wovon", "thereof", "deles", "delas",
];
/// Prepositions that open a framing phrase (`On wet rail`, `Na carteira arrojada`, `Sur le site
/// de Nantes`, `Auf Linie B`), folded.
const OPENING_PREPOSITIONS: &[&str] = &[
    "on", "in", "at", "for", "under", "across", "within", "over", "sur", "dans", "pour", "chez",
    "au", "aux", "a", "en", "em", "no", "na", "nos", "nas", "para", "com", "sob", "bei", "auf",
    "im", "fur", "unter", "an", "am", "con", "bajo", "durante", "entre",
];
/// Articles and determiners that end a framing phrase written without a comma once it has a
/// word (`On wet rail | the train …`, `Na carteira arrojada | o fundo …`).
const PHRASE_ENDS: &[&str] = &[
    "the", "a", "an", "this", "its", "their", "our", "le", "la", "les", "l", "un", "une", "o",
    "os", "as", "um", "uma", "el", "los", "las", "der", "die", "das", "den", "dem", "des", "ein",
    "eine", "es", "il", "we", "they", "it",
];

/// How a word places a period against the one named before (`the following week`, `semana
/// anterior`, `le trimestre suivant`): one after, one before, or (`last`, `letzte`: the one
/// before or the final one) somewhere else (0).
fn period_shift(folded: &str) -> Option<i64> {
    match folded {
        "next" | "following" | "subsequent" | "proxima" | "proximo" | "seguinte" | "siguiente"
        | "suivante" | "suivant" | "nachste" | "nachsten" | "folgende" | "folgenden" => Some(1),
        "previous" | "prior" | "preceding" | "anterior" | "precedente" | "precedent" | "vorige"
        | "vorigen" | "vorherige" | "vorherigen" | "before" | "earlier" | "antes" | "fruher"
        | "avant" | "davor" | "zuvor" => Some(-1),
        // (`im Jahr darauf`, `im Jahr danach`.)
        "darauf" | "danach" => Some(1),
        // (`a year later`, `un año después`, `ein Jahr später`.)
        "later" | "despues" | "depois" | "spater" | "apres" => Some(1),
        "last" | "final" | "ultima" | "ultimo" | "pasada" | "pasado" | "derniere" | "dernier"
        | "letzte" | "letzten" => Some(0),
        _ => None,
    }
}

/// Moves the year of the labels a number inherits (`y:2024` to `to(2024)`); whether any had
/// one.
fn move_years(binds: &mut [Bind], to: impl Fn(i64) -> i64) -> bool {
    let mut any = false;
    for b in binds.iter_mut() {
        if b.atoms.iter().any(|a| a.starts_with("y:")) {
            any = true;
            b.atoms = b
                .atoms
                .iter()
                .map(
                    |a| match a.strip_prefix("y:").and_then(|y| y.parse::<i64>().ok()) {
                        Some(y) => format_compact!("y:{}", to(y)),
                        None => a.clone(),
                    },
                )
                .collect();
        }
    }
    any
}

/// The last year-shaped number of `text` (`2024` of `Receita 2024: R$ 3,2 milhões; `).
fn last_year(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let mut end = b.len();
    while end >= 4 {
        let start = end - 4;
        let bounded = !b.get(end).is_some_and(u8::is_ascii_digit)
            && (start == 0 || !b[start - 1].is_ascii_digit());
        let digits = b[start..end].iter().all(u8::is_ascii_digit);
        if bounded && digits && (&b"1900"[..]..=&b"2100"[..]).contains(&&b[start..end]) {
            return text[start..end].parse().ok();
        }
        end -= 1;
    }
    None
}

/// Whether token `k` names the year before or after the one in force (`Vorjahr`, `year`
/// beside `later` or `previous`), and by how many.
fn year_shift_at(lx: &Lexed, toks: &[Tok], k: usize) -> Option<i64> {
    let TokKind::Word { folded, flags, .. } = toks[k].kind else {
        return None;
    };
    if let Some(shift) = year_shift_word(&lx.folded[folded.0 as usize..folded.1 as usize]) {
        return Some(shift);
    }
    if flags & flag::YEAR_WORD == 0
        || toks
            .get(k + 1)
            .is_some_and(|x| matches!(x.kind, TokKind::Num(_)))
    {
        return None;
    }
    [k.wrapping_sub(1), k + 1].iter().find_map(|&j| {
        let TokKind::Word { folded, .. } = toks.get(j)?.kind else {
            return None;
        };
        period_shift(&lx.folded[folded.0 as usize..folded.1 as usize]).filter(|s| *s != 0)
    })
}

/// Where the run of capitalised words that ends a label starts (`Cider sold in Bristol`: at
/// `Bristol`; `Bath`: 0), when it ends with one.
fn trailing_name(label: &str) -> Option<usize> {
    let label = label.trim_end();
    let mut at = None;
    let mut end = label.len();
    while let Some(space) = label[..end].rfind(char::is_whitespace) {
        if !label[space + 1..end].starts_with(char::is_uppercase) {
            return at;
        }
        at = Some(space + 1);
        end = space;
    }
    label.starts_with(char::is_uppercase).then_some(0)
}

/// Whether the ordinal at token `t` numbers a quarter: its noun follows (`4º trimestre`, `3.
/// Quartal`), or was left out after an earlier quarter's in the sentence (`No 1º trimestre … e no
/// 2º voltou ao azul`, `au 3e`).
fn quarter_ordinal(lx: &Lexed, t: usize) -> bool {
    let quarter = |k: usize| next_word(lx, k).is_some_and(|w| words::flags(w) & flag::QUARTER != 0);
    quarter(t)
        || (t.saturating_sub(32)..t)
            .rev()
            .take_while(|&k| !matches!(lx.toks[k].kind, TokKind::Punct(P::Stop | P::Line)))
            .any(|k| {
                matches!(lx.toks[k].kind,
                    TokKind::Num(id) if lx.nums[id as usize].form == Form::Ordinal)
                    && quarter(k)
            })
}

/// Whether the capitalised word opening a sentence at `t` is a common word by its form, the
/// modifier of the noun after it (`Operating revenue`, `Automotive leather`, `Unplanned
/// downtime`, `Quality index`, `Capital expenditure`): an English adjective's or a participle's
/// ending, before a lower-case content word. Not a name (`Lisbon had`, `Ardmore Bay carried`).
fn modifier_before_noun(lx: &Lexed, t: usize, folded: &str) -> bool {
    const ENDINGS: &[&str] = &[
        "ing", "ive", "ity", "ment", "ed", "ous", "al", "ary", "ion", "ual", "ble",
    ];
    folded.len() > 4
        && ENDINGS.iter().any(|e| folded.ends_with(e))
        && matches!(lx.toks.get(t + 1).map(|x| x.kind),
            Some(TokKind::Word { flags, cap: false, upper: false, .. })
                if flags & flag::STOP == 0)
}

/// Whether the token at `t` follows a comparison's word, with its preposition (`vs 2023`,
/// `frente a 2024`, `compared with 2023`, `im Vergleich zu 2023`): a base, not the claim's.
fn after_comparison(lx: &Lexed, t: usize) -> bool {
    let word = |k: usize| word_at(lx, k);
    t > 0 && word(t - 1).is_some_and(words::comparison_word)
        || t > 1
            && word(t - 2).is_some_and(words::comparison_word)
            && matches!(
                word(t - 1),
                Some("a" | "to" | "with" | "zu" | "al" | "ao" | "com" | "con" | "avec" | "mit")
            )
}

/// Whether `over` at token `k` spans a period (`over the year`, `over the past decade`, `over
/// the summer`), not a level it is above.
fn over_a_period(lx: &Lexed, k: usize) -> bool {
    word_at(lx, k) == Some("over")
        && matches!(
            word_at(lx, k + 1),
            Some("the" | "a" | "an" | "this" | "its")
        )
        && word_at(lx, k + 2).is_some_and(|w| {
            words::flags(w) & flag::YEAR_WORD != 0
                || words::period_word(w).is_some()
                || matches!(
                    w,
                    "past"
                        | "last"
                        | "course"
                        | "period"
                        | "decade"
                        | "quarter"
                        | "season"
                        | "summer"
                        | "winter"
                        | "spring"
                        | "autumn"
                )
        })
}

/// Whether `down`/`up` at token `k` is a verb's particle (`put down`, `shut down`, `set up`),
/// not a direction (`down 3%`, `sales were down`, `went up to`, `edged down`).
fn phrasal_particle(lx: &Lexed, k: usize) -> bool {
    // The verbs whose particle it is: they put, set, write or take something, and move nothing.
    const VERBS: &[&str] = &[
        "put", "puts", "putting", "shut", "shuts", "shutting", "set", "sets", "setting", "laid",
        "lay", "lays", "wrote", "write", "writes", "written", "broke", "break", "breaks", "broken",
        "took", "take", "takes", "taken", "pick", "picks", "picked", "signed", "sign", "signs",
        "built", "build", "builds", "made", "make", "makes", "filled", "fill", "fills", "drew",
        "draw", "draws", "drawn", "stocked", "stock", "stocks", "held", "hold", "holds", "locked",
        "noted", "jotted", "tied", "wound", "teed", "bottled", "boiled", "hunkered", "knocked",
    ];
    k.checked_sub(1)
        .and_then(|p| word_at(lx, p))
        .is_some_and(|prev| VERBS.contains(&prev))
}

/// Whether a comparison's word stands within the three words before token `k` (`más que el
/// año anterior`, `than the previous year`, `par rapport à l'année précédente`, `gegenüber dem
/// Vorjahr`): what `k` names is the base compared with.
fn compared_with(lx: &Lexed, k: usize) -> bool {
    (k.saturating_sub(3)..k).any(|j| {
        word_at(lx, j).is_some_and(|w| {
            words::comparison_word(w)
                || matches!(w, "que" | "als" | "against" | "comparado" | "comparacion")
        })
    })
}

/// A German noun of the period before or after the one in force (`Vorjahr`, `Vorsaison`,
/// `Vormonats`, `Folgejahr`).
fn shifted_period_noun(folded: &str) -> bool {
    let Some(rest) = folded
        .strip_prefix("vor")
        .or_else(|| folded.strip_prefix("folge"))
    else {
        return false;
    };
    let rest = rest.trim_end_matches('s');
    let rest = rest
        .strip_suffix("e")
        .filter(|r| r.ends_with("jahr"))
        .unwrap_or(rest);
    matches!(
        rest,
        "jahr" | "saison" | "monat" | "woche" | "quartal" | "periode" | "tag" | "halbjahr"
    )
}

/// A word that names the year before or after the one in force by itself (`Vorjahr`).
fn year_shift_word(folded: &str) -> Option<i64> {
    match folded {
        "vorjahr" | "vorjahres" | "vorjahrs" => Some(-1),
        "folgejahr" | "folgejahres" => Some(1),
        _ => None,
    }
}

/// The prefix of a statistic's atom (`w:~max`): a word, which qualifies only its own clause's
/// number.
const STATISTIC: &str = "w:~";

/// Words after a number that may bind it as plain words (`84 staff on site`).
const AFTER_WORDS: usize = 6;
/// Words after a number of an answer's within which a label still binds it.
const AFTER_LABEL_WORDS: usize = 14;

/// Where a number's clause is: its first token, its id (sentence << 16 | clause), and the weak
/// words its sentence started with (the subject later clauses may lack).
struct Clause<'a> {
    start: usize,
    id: u32,
    subject: &'a [(Atom, usize)],
    /// The words of the prepositional phrase its sentence opens with (an answer's).
    opening: &'a [(Atom, usize)],
}

impl<'a> Doc<'a> {
    fn new(text: &'a str, cfg: &'a Config<'a>) -> Self {
        let language = Language::of(text);
        let convention = if cfg.locale == Locale::Auto {
            // The evidence's convention for an answer that leans its way (`A variante A teve
            // alongamento de 1,047` against a table of decimal commas).
            let lean = language.lean();
            let (shown, grouped) = lex::numbers_convention(text);
            shown
                .or_else(|| language.decimal())
                .or(cfg
                    .hints
                    .convention
                    .filter(|dot| if *dot { lean < 0 } else { lean > 0 }))
                .or(grouped)
        } else {
            None
        };
        Doc {
            text,
            cfg,
            dollar: dollar_of(text),
            german: language.german,
            french: language.french,
            portuguese: portuguese(text),
            // Those who write decimal commas write the day first (`02/01/2024, 81,7 GW`).
            order: match date_order(text) {
                DateOrder::Unknown
                    if convention == Some(false)
                        || matches!(cfg.locale, Locale::Pt | Locale::Fr)
                        || language.decimal() == Some(false) =>
                {
                    DateOrder::DayFirst
                }
                // A British text writes the day first; another English one, the month
                // (`on 10/2/2024`: 2 October). A few words tell English apart.
                DateOrder::Unknown if text.contains('£') => DateOrder::DayFirst,
                DateOrder::Unknown if language.english() => DateOrder::MonthFirst,
                // Only American English writes the month first: a text whose words lean to
                // any other language, however few (`Embarques de concentrado: 12/04/2024 …`,
                // `Vacinação lote A: 05/03/2025`), writes the day first.
                DateOrder::Unknown if language.lean() > 0 => DateOrder::DayFirst,
                o => o,
            },
            convention,
            labels: Default::default(),
            specs: Default::default(),
            spare: Default::default(),
        }
    }

    /// [`label_atoms`], read once per label text.
    /// (Shared: a list's item labels repeat on every line, and a binding holds them as is.)
    fn label_of(&self, text: &str, unit: Option<Option<&'static str>>) -> Rc<[Atom]> {
        if let Some(reads) = self.labels.borrow().get(text) {
            if let Some((_, atoms)) = reads.iter().find(|(u, _)| *u == unit) {
                return atoms.clone();
            }
        }
        let atoms: Rc<[Atom]> = label_atoms(text, self, unit).into();
        let mut labels = self.labels.borrow_mut();
        if labels.len() < 4096 {
            labels
                .entry(text.into())
                .or_default()
                .push((unit, atoms.clone()));
        }
        atoms
    }

    /// [`frame::spec_of`], read once per label text.
    fn spec_of(&self, text: &str) -> Spec {
        self.label_spec(text).spec
    }

    /// What a label says of its values ([`LabelSense`]): list items and rows repeat their
    /// labels, read once.
    fn label_spec(&self, text: &str) -> LabelSense {
        if let Some(&found) = self.specs.borrow().get(text) {
            return found;
        }
        let words = label_sense_words(text);
        let found = LabelSense {
            spec: frame::spec_of(text),
            fall: words.direction == Some(true),
            outflow: words.outflow,
            share: words.share,
            year_shift: words.year_shift,
        };
        let mut specs = self.specs.borrow_mut();
        if specs.len() < 4096 {
            specs.insert(text.into(), found);
        }
        found
    }

    /// Reads the ambiguous numbers of one region by the document's convention; a text whose
    /// convention nothing shows reads a comma before three digits as grouping.
    fn settle(&self, lexed: &mut Lexed, text: &str) {
        match self.convention {
            Some(dot) => lex::settle_by(&mut lexed.nums, dot),
            None => lex::settle_commas(&mut lexed.nums, text),
        }
    }

    fn dim(&self, what: u64, at: usize) -> u64 {
        mix(mix(self.cfg.salt, what), at as u64)
    }

    fn run(&self, sink: &mut dyn FnMut(Item)) {
        let text = self.text;
        let lines = shapes(text);
        let mut section = Section::default();
        let mut sections_seen = 0u64;
        let mut k = 0;
        // Consecutive text lines are read together (a paragraph, a list block).
        let mut block: Vec<Line> = Vec::new();
        // A one-line block a blank line ended: a table right after it is captioned by it
        // (`Betriebskosten 2023 (in CHF 1'000)`, a blank line, the table).
        let mut title: Option<Line> = None;
        while k < lines.len() {
            let line = lines[k];
            let blank = text[line.start..line.end].trim().is_empty();
            if let Some(shape) = line.shape.filter(|s| s.0 != HEADER) {
                let mut e = k + 1;
                while e < lines.len() && lines[e].shape == Some(shape) {
                    e += 1;
                }
                let first = if k > 0
                    && shape.0 == b','
                    && lines[k - 1].shape == Some((HEADER, shape.1))
                    && block.last().is_some_and(|l| l.start == lines[k - 1].start)
                {
                    block.pop();
                    k - 1
                } else {
                    k
                };
                // (Rows of one pipe, `AT | 41,2`, are a table three lines or more.)
                if e - first >= if shape == (b'|', 1) { 3 } else { 2 } {
                    // The line just before a table is its caption.
                    let adjacent = block.last().copied();
                    let caption = adjacent.or(title.take());
                    self.text_block(&block, &mut section, &mut sections_seen, sink);
                    block.clear();
                    let mut cap = caption.map(|c| self.caption(c)).unwrap_or_default();
                    // A caption may give each column its unit (`distance in km, HSR in m`).
                    let pairs = caption
                        .map(|c| frame::spec_pairs(&self.text[c.start..c.end]))
                        .unwrap_or_default();
                    // A title a blank line sets apart states the table's money for every
                    // column (`(in CHF 1'000)`), not a unit (`Precipitação (mm) e dias de
                    // chuva`), nor what one column's words say (`presupuesto en miles`).
                    if adjacent.is_none() {
                        cap.spec = if pairs.is_empty() && cap.spec.currency.is_some() {
                            Spec {
                                currency: cap.spec.currency,
                                scale: cap.spec.scale,
                                ..Spec::default()
                            }
                        } else {
                            Spec::default()
                        };
                    }
                    // (One pair that names a column of this table is that column's: `importe en
                    // miles de euros` over `Distrito | Multas | Importe`.)
                    let header = &self.text[lines[first].start..lines[first].end];
                    let names_column = pairs.len() == 1
                        && header
                            .split(|c: char| !c.is_alphanumeric())
                            .filter(|w| !w.is_empty())
                            .any(|w| pairs[0].0.iter().any(|p| *p == words::fold(w)));
                    let table_section = Section {
                        atoms: section.atoms.as_slice().into(),
                        spec: if names_column || pairs.len() >= 2 {
                            // (The caption, read as the heading above, set the section's: not
                            // the other columns', nor, when it gives columns theirs, any's.)
                            let mut spec = section.spec;
                            if spec.currency == cap.spec.currency {
                                spec.currency = None;
                            }
                            if spec.scale == cap.spec.scale {
                                spec.scale = 0;
                            }
                            if spec.unit == cap.spec.unit {
                                spec.unit = None;
                            }
                            spec
                        } else {
                            cap.spec.over(section.spec)
                        },
                        negative: false,
                        value: false,
                        outflow: false,
                        paren_outflow: false,
                    };
                    self.table(&lines[first..e], shape.0, &table_section, &pairs, sink);
                    k = e;
                    continue;
                }
            }
            if blank {
                self.text_block(&block, &mut section, &mut sections_seen, sink);
                if !block.is_empty() {
                    // (Or a block's last line without a number: `Durchmesser Ø in mm, Bruchkraft
                    // in kN, Dehnung bei Bruch in %` under the report's title.)
                    let last = block[block.len() - 1];
                    let plain = !self.text[last.start..last.end]
                        .bytes()
                        .any(|c| c.is_ascii_digit());
                    title = (block.len() == 1 || plain).then_some(last);
                }
                block.clear();
            } else {
                title = None;
                block.push(line);
            }
            k += 1;
        }
        self.text_block(&block, &mut section, &mut sections_seen, sink);
    }

    /// A heading's or caption's atoms and spec.
    fn caption(&self, line: Line) -> Section {
        let t = &self.text[line.start..line.end];
        let atoms = label_atoms(t, self, None);
        Section {
            atoms,
            spec: frame::spec_of(t),
            // A heading that introduces its values (`Mittlere Senkung des systolischen Drucks:`)
            // names their direction.
            negative: t.trim_end().ends_with(':') && direction_outside_parens(t) == Some(true),
            value: false,
            outflow: false,
            paren_outflow: false,
        }
    }

    /// A run of text lines: headings, labelled lines (lists), and prose paragraphs.
    fn text_block(
        &self,
        lines: &[Line],
        section: &mut Section,
        seen: &mut u64,
        sink: &mut dyn FnMut(Item),
    ) {
        let mut k = 0;
        while k < lines.len() {
            let line = lines[k];
            let t = &self.text[line.start..line.end];
            let kind = match classify(t) {
                LineKind::Labelled
                    if k == 0
                        && title_line(t, lines.get(1).map(|l| &self.text[l.start..l.end])) =>
                {
                    LineKind::Heading
                }
                kind => kind,
            };
            match kind {
                LineKind::Heading => {
                    // A heading's own numbers (a year, a count) are read too: nothing is
                    // skipped unread.
                    let binds = self.section_binds(section, *seen);
                    self.prose(line.start..line.end, &binds, section, None, sink);
                    *seen += 1;
                    let mut s = self.caption(line);
                    s.spec = s.spec.over(section.spec);
                    *section = s;
                    k += 1;
                }
                LineKind::Labelled => {
                    let mut e = k + 1;
                    while e < lines.len()
                        && classify(&self.text[lines[e].start..lines[e].end]) == LineKind::Labelled
                    {
                        e += 1;
                    }
                    let dim = self.dim(0x11_57, lines[k].start);
                    let rows = record_lines(self.text, &lines[k..e]);
                    for (l, (row_title, segs)) in lines[k..e].iter().zip(rows) {
                        // A later sentence with a label of its own (`2016: … fell by 775.2 mn
                        // USD. 2018: budget balance, a decline of $29.0m.`) is a line of its
                        // own: the first label is not its.
                        let mut start = l.start;
                        for cut in sentence_cuts(&self.text[l.start..l.end]) {
                            let piece = Line {
                                start,
                                end: l.start + cut,
                                ..*l
                            };
                            self.labelled(piece, dim, (row_title, None), section, *seen, sink);
                            start = l.start + cut + 2;
                        }
                        // (The whole line's segments, read by `record_lines`, are its own.)
                        let segs = segs.filter(|_| start == l.start);
                        let rest = Line { start, ..*l };
                        self.labelled(rest, dim, (row_title, segs), section, *seen, sink);
                    }
                    k = e;
                }
                LineKind::Prose => {
                    let mut e = k + 1;
                    while e < lines.len()
                        && classify(&self.text[lines[e].start..lines[e].end]) == LineKind::Prose
                    {
                        e += 1;
                    }
                    let range = lines[k].start..lines[e - 1].end;
                    let binds = self.section_binds(section, *seen);
                    // A paragraph that opens with a run-in heading stating its money
                    // (`Finance (EUR thousands). Revenue 1,942; …`) states it for the paragraph.
                    match run_in_spec(&self.text[range.clone()]) {
                        Some(spec) => {
                            let mut own = section.clone();
                            own.spec = spec.over(section.spec);
                            // (Its parentheses are accounting's: `EBITDA (118)`.)
                            own.value = true;
                            self.prose(range, &binds, &own, None, sink);
                        }
                        None => self.prose(range, &binds, section, None, sink),
                    }
                    k = e;
                }
            }
        }
    }

    /// What a section binds its numbers to.
    fn section_binds(&self, section: &Section, seen: u64) -> Vec<Bind> {
        let mut binds = self.cfg.base.to_vec();
        if !section.atoms.is_empty() {
            binds.push(Bind {
                dim: self.dim(0x5ec7, 0),
                atoms: section.atoms.as_slice().into(),
                weight: 0.7,
                mention: 0,
                title: true,
                soft: false,
                row: false,
                reach: Reach::Own,
                text: None,
            });
        }
        let _ = seen;
        binds
    }

    /// A labelled line: `Lisbon: 84 staff`, `- 20,000 km: 1.2 mm`, `Brake wear — 20,000 km: 1.2
    /// mm; 40,000 km: 2.4 mm`, `Arm A (n=64): TEAE 41 (64.1%); grade ≥3 6 (9.4%)`.
    fn labelled(
        &self,
        line: Line,
        dim: u64,
        (row_title, segs): (bool, Option<Vec<Segment>>),
        section: &Section,
        seen: u64,
        sink: &mut dyn FnMut(Item),
    ) {
        let t = &self.text[line.start..line.end];
        let Some((label_end, value_start)) = label_split(t) else {
            let binds = self.section_binds(section, seen);
            self.prose(line.start..line.end, &binds, section, None, sink);
            return;
        };
        let label_text = t[..label_end].trim_start_matches(['-', '*', '•', '#', ' ', '>', '\t']);
        let label_abs = line.start + (label_end - label_text.len())..line.start + label_end;
        let mut binds = self.section_binds(section, seen);
        let label = self.label_of(label_text, None);
        let sense = self.label_spec(label_text);
        let (label_spec, label_fall) = (sense.spec, sense.fall);
        let mut spec = label_spec.over(section.spec);
        // A share's value is a fraction, not an amount in the caption's unit (`part du vrac :
        // 0,27` under `Répartition du trafic (tonnes)`).
        if label_spec.unit.is_none() && sense.share {
            spec.unit = None;
        }
        // A heading that names a fall (`Mean systolic reduction:`) names it for its lines too.
        let negative = section.negative || label_fall;
        // The label's own numbers (a condition, a date, a count in parentheses) are evidence too,
        // bound to the list.
        self.label_numbers(label_abs, &binds, section, sink);
        let value = line.start + value_start..line.end;
        // Segments of the value part with labels of their own (`Lisbon: 84; Porto: 61`).
        let segments = segs.unwrap_or_else(|| segments(&self.text[value.clone()]));
        // `Amostra A: 41,8 MPa; amostra B: 38,2 MPa`: the line's label is its first item's, not
        // a title over all of them.
        // Only when a later item is labelled the same way (`Porto: 61`): a line's label over
        // items that name themselves by their words (`Milchleistung 2024: 9.412 kg pro Kuh;
        // Herdengröße 86 Kühe`) is a title over all of them.
        // Nor when the line is a record of a block (`- Turno de tarde: 412.300 envíos; tasa de
        // rechazo: 2,1%` over `- Turno de noche: …; tasa de rechazo: 3,0%`): its items are the
        // row's, their labels its columns.
        let first_item = segments.len() >= 2
            && !row_title
            && segments[0].0.is_none()
            && segments[1..]
                .iter()
                .any(|(l, v)| l.as_ref().is_some_and(|l| l.end < v.start));
        // A first item with a measure of its own (`Encadernação em couro: prazo médio 14 dias;
        // encadernação em tecido: 8 dias`): the line's label is that item's when a later item's
        // label is a thing of the same kind, beside its siblings, not a title over them.
        // (Parallel: the sibling's label opens with the line label's first word and differs
        // after it, `encadernação em tecido` beside `Encadernação em couro`; not a part of a
        // titled thing, `Schleuse Uelzen II: … Wasserverbrauch je Schleusung`. Nor when the
        // first item's own label is one of those things: `Wartezeit je Schalter — Schalter
        // Nord: 14 min; Schalter Süd: 9 min` is titled.)
        // (Each label's first word, as written, and how many words follow it: compared without
        // folding first, most lines' labels differ at once.)
        fn head_word(text: &str) -> (&str, usize) {
            let mut ws = text
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()));
            (ws.next().unwrap_or(""), ws.count())
        }
        let same_word = |a: &str, b: &str| {
            a.eq_ignore_ascii_case(b)
                || a.len() == b.len() && !a.is_ascii() && *words::fold(a) == *words::fold(b)
        };
        let parallel_first = !first_item
            && segments.len() >= 2
            && !row_title
            && t[label_end..value_start].contains(':')
            && {
                let (line_head, line_rest) = head_word(label_text);
                line_rest >= 1
                    && line_head.len() > 3
                    && segments[0].0.as_ref().is_some_and(|l| {
                        let own = head_word(&self.text[value.start + l.start..value.start + l.end]);
                        !same_word(own.0, line_head)
                    })
                    && segments[1..].iter().any(|(l, _)| {
                        l.as_ref().is_some_and(|l| {
                            let (head, rest) =
                                head_word(&self.text[value.start + l.start..value.start + l.end]);
                            rest >= 1 && same_word(head, line_head)
                        })
                    })
            };
        let mut first_label = None;
        // (A later item labelled by a year's place alone, `Receita 2024: …; ano anterior: …`,
        // is the first item's measure in another year.)
        let line_label: Rc<[Atom]> = if first_item {
            label.clone()
        } else {
            Rc::from([])
        };
        // Later items labelled by a period or a code alone (`Voos no 1º tri: 41; 2º tri: 118;
        // 3º tri: 132; total do ano: 328`): the first label's words are a title over all of
        // them, its period the first item's.
        let titled = first_item
            && label.iter().any(|a| a.starts_with("w:"))
            && label.iter().any(|a| !a.starts_with("w:"))
            && segments[1..].iter().all(|(l, _)| {
                l.as_ref().is_none_or(|l| {
                    let text = &self.text[value.start + l.start..value.start + l.end];
                    let atoms = self.label_of(text, None);
                    // (A total's or a statistic's item among them: `total do ano: 328`.)
                    !atoms.is_empty()
                        && (atoms.iter().any(|a| a.starts_with(STATISTIC))
                            || atoms.iter().all(|a| !a.starts_with("w:")))
                })
            });
        // Later items labelled by a name alone (`Cider sold in Bristol: 41,200 L; Bath: 18,900
        // L`): the first label's words before its name are a title over all of them.
        let named_at = (first_item && !titled)
            .then(|| trailing_name(label_text))
            .flatten()
            .filter(|_| {
                segments[1..].iter().all(|(l, _)| {
                    l.as_ref().is_none_or(|l| {
                        let text = &self.text[value.start + l.start..value.start + l.end];
                        trailing_name(text.trim()) == Some(0)
                    })
                })
            });
        if titled {
            let (title, own): (Vec<Atom>, Vec<Atom>) =
                label.iter().cloned().partition(|a| a.starts_with("w:"));
            binds.push(Bind::label(dim, title, Some(label_text.trim().into())));
            first_label = Some(own.into());
        } else if let Some(at) = named_at.filter(|&at| at > 0) {
            let title = self.label_of(&label_text[..at], None);
            binds.push(Bind::label(dim, title, Some(label_text.trim().into())));
            first_label = Some(self.label_of(&label_text[at..], None));
        } else if first_item {
            first_label = Some(label.clone());
        } else if parallel_first {
            // (Read with the first item, below, beside its own measure's words.)
        } else if !label.is_empty() {
            binds.push(Bind::label(
                dim,
                label.clone(),
                Some(label_text.trim().into()),
            ));
        }
        // (A first item's label signs that item alone: `Umsatzausfall: 214.000 €; Mehrkosten
        // Umleitung: 38.500 €`.)
        let sub = Section {
            atoms: Vec::new(),
            spec: std::mem::take(&mut spec),
            negative: if first_item {
                section.negative
            } else {
                negative
            },
            value: true,
            outflow: sense.outflow,
            paren_outflow: false,
        };
        if segments.len() >= 2 {
            let seg_dim = self.dim(0x5e6, value.start);
            for (k, (seg_label, seg)) in segments.into_iter().enumerate() {
                let mut b = Vec::with_capacity(binds.len() + 2);
                b.extend_from_slice(&binds);
                if parallel_first && k == 0 {
                    b.push(Bind::label(
                        seg_dim,
                        label.clone(),
                        Some(label_text.trim().into()),
                    ));
                }
                let abs = value.start + seg.start..value.start + seg.end;
                if let Some(l) = seg_label {
                    let l_abs = value.start + l.start..value.start + l.end;
                    let mut atoms = self.label_of(&self.text[l_abs.clone()], None);
                    let function_words = atoms.is_empty();
                    let seg_sense = self.label_spec(&self.text[l_abs.clone()]);
                    let seg_fall = seg_sense.fall;
                    let mut seg_spec = seg_sense.spec.over(sub.spec);
                    if seg_sense.spec.unit.is_none() && seg_sense.share {
                        seg_spec.unit = None;
                    }
                    let seg_negative = sub.negative || seg_fall;
                    let seg_text: Arc<str> = self.text[l_abs.clone()].trim().into();
                    self.label_numbers(l_abs.clone(), &b, section, sink);
                    // (`2024: … ; Vorjahr: Überschuss 87.000 €`: the year before the line's;
                    // `Receita 2024: …; ano anterior: …`: before the year its line named.)
                    if let Some(shift) = seg_sense.year_shift {
                        if !move_years(&mut b, |y| y + shift) {
                            let before = &self.text[line.start..l_abs.start];
                            if let Some(y) = last_year(before) {
                                let year = format_compact!("y:{}", y + shift);
                                if line_label.iter().any(|a| a.starts_with("y:")) {
                                    let mut moved = atoms.to_vec();
                                    for a in line_label.iter() {
                                        let a = if a.starts_with("y:") { &year } else { a };
                                        if !moved.contains(a) {
                                            moved.push(a.clone());
                                        }
                                    }
                                    moved.sort();
                                    atoms = moved.into();
                                }
                                b.push(Bind::label(self.dim(Ty::Year.key(), 0), [year], None));
                            }
                        }
                    }
                    if !atoms.is_empty() {
                        b.push(Bind::label(seg_dim, atoms, Some(seg_text)));
                    }
                    let s = Section {
                        spec: seg_spec,
                        negative: seg_negative,
                        outflow: sub.outflow || seg_sense.outflow,
                        ..sub.clone()
                    };
                    // A street before its number (`Calle Colón 60, 3.ª planta`) is read with it:
                    // an address, not a value labelled `Calle Colón`.
                    let label_text = &self.text[l_abs.clone()];
                    let value_text = self.text[abs.clone()].trim();
                    let street = !value_text.is_empty()
                        && value_text.bytes().all(|c| c.is_ascii_digit())
                        && !label_text.bytes().any(|c| c.is_ascii_digit())
                        && label_text
                            .split(|c: char| !c.is_alphabetic())
                            .filter(|w| !w.is_empty())
                            .any(|w| words::flags(&words::fold(w)) & flag::STREET != 0);
                    // A label of function words alone (`bei 16 kn 3,4 t/Tag`: `bei`) binds
                    // nothing: it is read with its value, where it makes a condition.
                    let abs = if street || function_words {
                        l_abs.start..abs.end
                    } else {
                        abs
                    };
                    self.prose(abs, &b, &s, None, sink);
                } else {
                    let first = first_label.take();
                    let own_sign = first.is_some() && negative;
                    if let Some(atoms) = first.filter(|a| !a.is_empty()) {
                        b.push(Bind::label(seg_dim, atoms, Some(label_text.trim().into())));
                    }
                    if own_sign {
                        let s = Section {
                            negative: true,
                            ..sub.clone()
                        };
                        self.prose(abs, &b, &s, None, sink);
                    } else {
                        self.prose(abs, &b, &sub, None, sink);
                    }
                }
            }
        } else {
            self.prose(value, &binds, &sub, None, sink);
        }
    }

    /// A table: rows under a header, cells read on their own.
    fn table(
        &self,
        lines: &[Line],
        delimiter: u8,
        section: &Section,
        pairs: &[(Vec<String>, Spec)],
        sink: &mut dyn FnMut(Item),
    ) {
        let text = self.text;
        let cell_locale = match (self.cfg.locale, delimiter) {
            (Locale::Auto, b';') => Locale::Pt,
            // (A comma table of a text that writes decimal commas, whose every dot stands
            // before three digits, groups with them: `Serra Alta,3.905,4.412` under `(R$ mil)`.)
            (Locale::Auto, b',') if self.convention != Some(false) || !dots_group(text, lines) => {
                Locale::En
            }
            (l, _) => l,
        };
        let mut rows: Vec<Vec<Range<usize>>> = Vec::new();
        for line in lines {
            let row = cells(text, line, delimiter);
            if row.iter().all(|r| {
                text[r.clone()]
                    .trim()
                    .chars()
                    .all(|c| matches!(c, '-' | ':' | ' ' | '='))
            }) {
                continue;
            }
            rows.push(row);
        }
        if rows.is_empty() {
            return;
        }
        let header: Option<Vec<Range<usize>>> =
            (!rows[0].iter().any(|r| data(&text[r.clone()]))).then(|| rows[0].clone());
        let body = &rows[usize::from(header.is_some())..];
        let ncols = rows.iter().map(Vec::len).max().unwrap_or(0);
        // Columns that label rows: the first, and any mostly holding words.
        // A column of dates labels its rows as a column of names does (`J10 | 2025-04-19 |
        // 97.150`: the row of 19 April).
        let date_col = |c: usize| {
            let mut cells = body
                .iter()
                .filter_map(|row| row.get(c))
                .map(|r| text[r.clone()].trim());
            cells.clone().any(|t| !t.is_empty()) && cells.all(|t| t.is_empty() || date_shape(t))
        };
        let label_col: Vec<bool> = (0..ncols)
            .map(|c| {
                c == 0 || date_col(c) || {
                    let (mut words, mut all) = (0, 0);
                    for row in body {
                        if let Some(r) = row.get(c) {
                            let t = text[r.clone()].trim();
                            if !t.is_empty() {
                                all += 1;
                                words += usize::from(
                                    !t.starts_with(|ch: char| {
                                        ch.is_ascii_digit()
                                            || matches!(ch, '-' | '−' | '+' | '(' | '.')
                                    }) && !t.starts_with(['$', '€', '£']),
                                );
                            }
                        }
                    }
                    all > 0 && words * 2 > all
                }
            })
            .collect();
        let head_text = |c: usize| -> &str {
            header
                .as_ref()
                .and_then(|h| h.get(c))
                .map_or("", |r| text[r.clone()].trim())
        };
        let col_specs: Vec<Spec> = (0..ncols)
            .map(|c| {
                let head = head_text(c);
                let folded: Vec<String> = head
                    .split_whitespace()
                    .map(|w| words::fold(w).into_owned())
                    .collect();
                // The caption's column whose words the header shares most (`average trip
                // length in hours` over `Avg. trip`), when no other shares as many.
                // (A word written whole counts twice a shared beginning: `Bruchkraft in kN` over
                // `Bruchkraft`, not `Dehnung bei Bruch in %`.)
                let shared = |ws: &[String]| {
                    ws.iter()
                        .map(|w| {
                            if folded.iter().any(|h| h == w) {
                                2
                            } else if folded.iter().any(|h| {
                                h.len() >= 5
                                    && w.len() >= 5
                                    && h.as_bytes()[..5] == w.as_bytes()[..5]
                            }) {
                                1
                            } else {
                                0
                            }
                        })
                        .sum::<usize>()
                };
                let best = pairs.iter().map(|(ws, _)| shared(ws)).max().unwrap_or(0);
                let from_caption = match pairs.iter().filter(|(ws, _)| shared(ws) == best).count() {
                    1 if best > 0 => pairs
                        .iter()
                        .find(|(ws, _)| shared(ws) == best)
                        .map(|(_, spec)| *spec)
                        .unwrap_or_default(),
                    _ => Spec::default(),
                };
                // A column of counts (`Volumes`, `Pacientes`, `Alter`) is not in the caption's
                // money or time (`montants en k€`, `Zeiten in Minuten`).
                if count_header(head) {
                    return frame::spec_of(head);
                }
                frame::spec_of(head).over(from_caption).over(section.spec)
            })
            .collect();
        // A column of units (`Unité: €/MWh, CHF/MWh, £/MWh`) gives each row's numbers theirs.
        let unit_col: Option<usize> = (1..ncols).find(|&c| {
            !body.is_empty()
                && body.iter().all(|row| {
                    row.get(c)
                        .is_some_and(|r| unit_cell(text[r.clone()].trim()).is_some())
                })
        });
        // A column a year's place names (`Prior year`, `Vorjahr`) under a caption's year
        // (`Segment results FY2024`) is that year moved.
        let caption_year = section
            .atoms
            .iter()
            .find_map(|a| a.strip_prefix("y:")?.parse::<i64>().ok());
        let col_atoms: Vec<Rc<[Atom]>> = (0..ncols)
            .map(|c| {
                let mut atoms = label_atoms(head_text(c), self, None);
                if let (Some(y), Some(shift)) =
                    (caption_year, self.label_spec(head_text(c)).year_shift)
                {
                    atoms.push(format_compact!("y:{}", y + shift));
                    atoms.sort();
                }
                atoms.into()
            })
            .collect();
        // A header of months' abbreviations (`Jan;Feb;Mär`, `ene | feb | mar`): months, where
        // a word alone could be a weekday's (`Mär`, `mar`).
        let month_of = |c: usize| words::month_abbrev(&words::fold(head_text(c)));
        let month_header = ncols >= 3
            && (1..ncols).all(|c| head_text(c).is_empty() || month_of(c).is_some())
            && (1..ncols).filter(|&c| month_of(c).is_some()).count() >= 2;
        let col_atoms: Vec<Rc<[Atom]>> = if month_header {
            (0..ncols)
                .map(|c| match month_of(c).filter(|_| c > 0) {
                    Some(m) => Rc::from([format_compact!("m:{m}")]),
                    None => col_atoms[c].clone(),
                })
                .collect()
        } else {
            col_atoms
        };
        let col_texts: Vec<Arc<str>> = (0..ncols).map(|c| head_text(c).into()).collect();
        let col_negative: Vec<bool> = (0..ncols)
            .map(|c| direction_outside_parens(head_text(c)) == Some(true))
            .collect();
        let first = lines[0].start;
        let row_dim = self.dim(0x7ab1e, first);
        let col_dim = self.dim(0xc01, first);
        let sec_binds = self.section_binds(section, 0);
        // The header's own numbers (`n=203`) are evidence.
        if let Some(h) = &header {
            for r in h {
                self.cell(
                    r.clone(),
                    cell_locale,
                    &sec_binds,
                    Spec::default(),
                    (false, false, false),
                    sink,
                );
            }
        }
        // A first column of months' abbreviations (`jan;fev;mar;…;ago`): rows of months, where
        // a word alone could be a weekday's (`mar`) or no month at all (`ago`).
        let row_month = |row: &Vec<Range<usize>>| {
            row.first()
                .and_then(|r| words::month_abbrev(&words::fold(text[r.clone()].trim())))
        };
        let col0_months = body.len() >= 3 && body.iter().all(|row| row_month(row).is_some());
        // A first column of years is a row of years; of integers under an id, ids.
        let col0_years = body.iter().all(|row| {
            row.first()
                .is_some_and(|r| year_text(text[r.clone()].trim()).is_some())
        });
        for row in body {
            let mut row_atoms: Vec<Atom> = Vec::new();
            let mut row_text = String::new();
            let mut row_negative = false;
            let mut row_outflow = false;
            // (Whether its label names a result: `Operating result`, `Net income/(cost)`.)
            let mut row_states_result = false;
            // A row label may state its own unit or scale (`Diluted EPS ($)`, `Employees
            // (thousands)`): it overrides the caption's for that row.
            let mut row_spec = Spec::default();
            for (c, r) in row.iter().enumerate() {
                if !label_col.get(c).copied().unwrap_or(false) {
                    continue;
                }
                let t = text[r.clone()].trim();
                if !t.is_empty() {
                    if !row_text.is_empty() {
                        row_text.push(' ');
                    }
                    row_text.push_str(t);
                }
                if row_spec.is_empty() && !t.bytes().any(|b| b.is_ascii_digit()) {
                    row_spec = self.spec_of(t);
                    // A one-word label in letters names the row (`day` and `night` shifts), not
                    // its unit; its money and scale stay (`CAD`, `TEUR`), as does a symbol's
                    // or a key's unit (`%`, `revenue_eur_m`).
                    if t.chars().all(char::is_alphabetic) {
                        row_spec.unit = None;
                    }
                }
                let spec = col_specs.get(c).copied().unwrap_or_default();
                match row_month(row).filter(|_| c == 0 && col0_months) {
                    Some(m) => row_atoms.push(format_compact!("m:{m}")),
                    None => row_atoms.extend(self.label_of(t, Some(spec.unit)).iter().cloned()),
                }
                row_negative |= direction_outside_parens(t) == Some(true);
                // (A row of costs, `Player salaries | (4,312)`: its parentheses are
                // presentation.)
                row_outflow |= self.label_spec(t).outflow;
                row_states_result |= result_label(t);
                // A condition (`100` under `Temperature (°C)`, `50 mg`) is a quantity too; an id
                // or a year labels only.
                // (A name with a size, `Andamio 6 m`, is a label: its `m` is metres, whatever
                // money the caption states.)
                if c == 0
                    && !col0_years
                    && (spec.unit.is_some() || has_unit(t))
                    && !t.starts_with(char::is_alphabetic)
                {
                    self.cell(
                        r.clone(),
                        cell_locale,
                        &sec_binds,
                        spec,
                        (false, false, false),
                        sink,
                    );
                } else {
                    // A label cell's numbers (an id, a year, a name's digits) label.
                    self.label_numbers(r.clone(), &sec_binds, section, sink);
                }
            }
            let row_label: Option<(Rc<[Atom]>, Arc<str>)> =
                (!row_atoms.is_empty()).then(|| (row_atoms.into(), row_text.into()));
            for (c, r) in row.iter().enumerate() {
                if label_col.get(c).copied().unwrap_or(false) {
                    continue;
                }
                let mut binds = sec_binds.clone();
                if let Some((row_atoms, row_text)) = &row_label {
                    binds.push(Bind::row_label(
                        row_dim,
                        row_atoms.clone(),
                        Some(row_text.clone()),
                    ));
                }
                if let Some(a) = col_atoms.get(c).filter(|a| !a.is_empty()) {
                    binds.push(Bind::label(col_dim, a.clone(), col_texts.get(c).cloned()));
                }
                let mut spec = col_specs.get(c).copied().unwrap_or_default();
                if !row_spec.is_empty() {
                    spec = Spec {
                        currency: row_spec
                            .currency
                            .or(spec.currency.filter(|_| row_spec.unit.is_none())),
                        scale: row_spec.scale,
                        unit: row_spec.unit,
                        per: row_spec.per,
                    };
                }
                if let Some(u) = unit_col
                    .and_then(|u| row.get(u))
                    .and_then(|r| unit_cell(text[r.clone()].trim()))
                {
                    spec = u.over(spec);
                }
                let negative = section.negative
                    || row_negative
                    || col_negative.get(c).copied().unwrap_or(false);
                self.cell(
                    r.clone(),
                    cell_locale,
                    &binds,
                    spec,
                    (
                        negative,
                        row_outflow,
                        row_label.is_some() && !row_states_result,
                    ),
                    sink,
                );
            }
        }
    }

    /// One table cell's numbers.
    /// An empty token buffer (a spare one when there is one: regions are read one after
    /// another, and a region's reading may read another).
    fn lexed(&self) -> Lexed {
        let mut lx = self.spare.borrow_mut().pop().unwrap_or_default();
        lx.clear();
        lx
    }

    /// Gives back a buffer [`Doc::lexed`] handed out.
    fn done(&self, lx: Lexed) {
        self.spare.borrow_mut().push(lx);
    }

    fn cell(
        &self,
        range: Range<usize>,
        locale: Locale,
        binds: &[Bind],
        spec: Spec,
        (negative, outflow, paren_outflow): (bool, bool, bool),
        sink: &mut dyn FnMut(Item),
    ) {
        let mut lexed = self.lexed();
        lex::lex(
            &self.text[range.clone()],
            Mode { locale, cell: true },
            &mut lexed,
        );
        self.settle(&mut lexed, &self.text[range.clone()]);
        shift(&mut lexed, range.start);
        let section = Section {
            atoms: Vec::new(),
            spec,
            negative,
            value: true,
            outflow,
            paren_outflow,
        };
        self.bind_tokens(&lexed, binds, &section, true, Some(&[]), sink);
    }

    /// A label's own numbers: a condition (`+20 °C:`), a date, a year, a count after `=`
    /// (`n=151`) are read as quantities or dates; a bare integer names (`Zephyr 1200`).
    fn label_numbers(
        &self,
        range: Range<usize>,
        binds: &[Bind],
        section: &Section,
        sink: &mut dyn FnMut(Item),
    ) {
        let text = self.text;
        // The caption's money, scale and unit are its values', not its labels' (`7-night` under
        // `all amounts USD`).
        // (Its bindings are given: the section's atoms are not read again.)
        let section = &Section {
            atoms: Vec::new(),
            spec: Spec::default(),
            ..*section
        };
        self.prose(range, binds, section, Some(&[]), &mut |item: Item| {
            let bare = item.frame.kind == Kind::Quantity
                && item.num.plain
                && item.frame.unit.is_none()
                && item.num.integer()
                && !text[..item.num.span.start].trim_end().ends_with('=');
            if bare {
                let v = item.frame.readings.first();
                sink(Item {
                    frame: Frame {
                        kind: Kind::Trivial(Trivial::Label),
                        ..item.frame
                    },
                    atom: Some(value_atom("n:", v, None)),
                    ..item
                });
            } else {
                sink(item);
            }
        });
    }

    /// A stretch of prose (a paragraph, a list's value, a label's own numbers).
    fn prose(
        &self,
        range: Range<usize>,
        binds: &[Bind],
        section: &Section,
        only_numbers: Option<&[Bind]>,
        sink: &mut dyn FnMut(Item),
    ) {
        // Only numbers are read out of prose, and every number has an ASCII digit: a stretch
        // without one (a list item's label, a heading) yields nothing, and is not lexed.
        if range.start >= range.end
            || !self.text.as_bytes()[range.clone()]
                .iter()
                .any(u8::is_ascii_digit)
        {
            return;
        }
        let mut lexed = self.lexed();
        let mode = Mode {
            locale: self.cfg.locale,
            cell: self.french,
        };
        lex::lex(&self.text[range.clone()], mode, &mut lexed);
        self.settle(&mut lexed, &self.text[range.clone()]);
        if self.portuguese {
            for tok in &mut lexed.toks {
                if let TokKind::Word { folded, flags, .. } = &mut tok.kind {
                    if &lexed.folded[folded.0 as usize..folded.1 as usize] == "o" {
                        *flags &= !flag::CONJ;
                    }
                }
            }
        }
        shift(&mut lexed, range.start);
        self.bind_tokens(&lexed, binds, section, false, only_numbers, sink);
        self.done(lexed);
    }

    /// Reads the tokens of one region: each number's frame, and what binds it (the region's
    /// structural bindings, plus, in prose, the scope and the clause).
    fn bind_tokens(
        &self,
        lx: &Lexed,
        binds: &[Bind],
        section: &Section,
        cell: bool,
        only_numbers: Option<&[Bind]>,
        sink: &mut dyn FnMut(Item),
    ) {
        let role = self.cfg.role;
        let toks = &lx.toks;
        let mut scope: Vec<ScopeEntry> = Vec::new();
        let mut sentence = 0u32;
        // Clauses within a sentence (a comma, a semicolon, a conjunction): a label named in an
        // earlier clause binds less than one in the number's own.
        let mut clause = 0u32;
        let mut numbers_in_sentence = 0u32;
        // The weak words before a sentence's first quantity: its subject, for the later ones.
        let mut subject: Vec<(Atom, usize)> = Vec::new();
        // An answer's sentence that opens with a prepositional phrase (`On wet rail the train
        // stopped in …`, `Na carteira arrojada, …`): its words, read once per sentence.
        let mut opening: Vec<(Atom, usize)> = Vec::new();
        let mut sentence_start = 0usize;
        // The name a sentence's list is headed by (`Zona Oeste: Loja A 296, Loja B 341.`).
        let mut head: Vec<Atom> = Vec::new();
        // The previous quantity's direction in words and where it was, for an ellipsis (`fell
        // 52.3% on the drug and 3.1% on placebo`).
        let mut last_direction: Option<(Polarity, usize, Option<&'static str>)> = None;
        // The last amount of money written with a scale word (`1,18 millones de euros`), for
        // a parallel one that leaves its currency out (`, frente a 1,095 millones`).
        let mut last_money: Option<(&'static str, usize)> = None;
        let mut clause_start = 0usize;
        let mut last_number: Option<usize> = None;
        let mut skip_until = 0usize;
        // Dates written with month names: the tokens they cover, and their atoms.
        let dates = month_dates(lx, self.order);
        let in_date = |t: usize| date_covering(&dates, t).is_some();
        let counts = TokCounts::new(lx);
        let mut pending_name: Vec<Atom> = Vec::new();
        let mut name_at = 0usize;
        // Names written in one stretch (no comma, colon or clause between) belong together
        // (`In Graz wurden Überstunden von …`); after a break, a new name replaces the old
        // (`Lisbon: 84, Porto: 61`).
        let mut name_chunk = false;
        let mut name_owned = false;
        // The last quantity of the clause: labels named after it are its (`$5.1M in 2023, and
        // $6.2M in 2024`; `€1.85 per share, paid on 2025-07-03; 78.4% …`), not the next clause's.
        let mut clause_quantity: Option<usize> = None;
        // The name in force when the clause's first quantity was read ([`restore_name`]).
        let mut name_at_quantity: Option<ScopeEntry> = None;
        // A condition with no quantity measured under it yet.
        let mut pending_condition: Option<usize> = None;
        // Whether the clause so far has a colon (`Fistula share: 0.68;`).
        let mut clause_colon = false;
        // Parentheses: a label inside them (`(Q2: 7,905; +3.9%)`, `(2023 : 1 702)`, `(12 Mill
        // Lane, opened 1998)`) labels only what is there; what it replaced is restored after.
        let mut depth = 0u32;
        // (depth, type, what it replaced, whether it introduced with a colon: then it ends at its
        // item's `;` or `,` too)
        let mut aside: Vec<(u32, Ty, Vec<ScopeEntry>, bool)> = Vec::new();
        // The pending name ends (one place for the loop's several ends of a name).
        macro_rules! end_pending_name {
            () => {
                end_name(
                    &mut scope,
                    (&mut pending_name, &head),
                    (&mut name_chunk, &mut name_owned),
                    self.german,
                    (last_number, name_at),
                    sentence << 16 | clause,
                )
            };
        }
        for (t, tok) in toks.iter().enumerate() {
            // (Found by a binary search: a region may hold many dates.)
            if let Some((_, atoms)) = date_covering(&dates, t).filter(|(r, _)| r.start == t) {
                set_scope(
                    &mut scope,
                    Ty::Date,
                    atoms.clone(),
                    t,
                    sentence << 16 | clause,
                );
            }
            match tok.kind {
                TokKind::Punct(p) => {
                    if !pending_name.is_empty() {
                        end_pending_name!();
                    }
                    if !matches!(p, P::Open | P::Close | P::Slash) {
                        name_chunk = false;
                    }
                    if p == P::Colon {
                        clause_colon = true;
                    }
                    match p {
                        P::Open => depth += 1,
                        P::Close | P::Semi | P::Comma
                            if aside.last().is_some_and(|(d, _, _, item)| {
                                *d == depth && (*item || p == P::Close)
                            }) =>
                        {
                            while aside.last().is_some_and(|(d, _, _, item)| {
                                *d == depth && (*item || p == P::Close)
                            }) {
                                let Some((_, ty, saved, _)) = aside.pop() else {
                                    break;
                                };
                                scope.retain(|(t, ..)| *t != ty);
                                scope.extend(saved);
                            }
                            if p == P::Close {
                                aside.retain(|(d, ..)| *d < depth);
                                depth = depth.saturating_sub(1);
                            }
                        }
                        P::Close => depth = depth.saturating_sub(1),
                        _ => {}
                    }
                    if matches!(p, P::Stop | P::Line | P::Semi | P::Pipe | P::Tab) {
                        // A hard break: what was named after the last quantity was its.
                        clause_quantity = clause_quantity.or(last_number);
                        drop_postposed(&mut scope, &mut clause_quantity);
                    } else if p == P::Comma && numbers_in_sentence > 0 {
                        drop_postposed(&mut scope, &mut clause_quantity);
                        restore_name(&mut scope, &mut name_at_quantity);
                    }
                    match p {
                        P::Stop | P::Line => {
                            pending_condition = None;
                            clause_colon = false;
                            sentence += 1;
                            clause = 0;
                            numbers_in_sentence = 0;
                            subject.clear();
                            opening.clear();
                            head.clear();
                            sentence_start = t + 1;
                            last_direction = None;
                            clause_start = t + 1;
                            last_number = None;
                            scope.retain(|(ty, ..)| ty.temporal());
                        }
                        P::Semi | P::Pipe | P::Tab => {
                            // (A condition named before a semicolon measured nothing after it.)
                            pending_condition = None;
                            // A name that a colon made its item's label (`Fistula share: 0.68;
                            // graft share: 0.07`) labels that item only.
                            if p == P::Semi && clause_colon {
                                scope.retain(|(ty, _, at, _)| {
                                    !(*ty == Ty::Name && *at >= clause_start)
                                });
                            }
                            clause_colon = false;
                            clause_start = t + 1;
                            last_number = None;
                            clause += 1;
                        }
                        // The comma after an introductory phrase (`In 2023, …`, `Em Brennan, …`)
                        // keeps its label in the clause that follows.
                        P::Comma if numbers_in_sentence > 0 => clause += 1,
                        // A name before the colon that opens a sentence's list heads the list:
                        // the names of its items replace one another, not it.
                        // (Not a name whose value follows its colon: `Loja Centro: 412
                        // pedidos; loja Norte: 318` are items, not a head over them.)
                        P::Colon
                            if numbers_in_sentence == 0
                                && role == Role::Evidence
                                && !matches!(
                                    toks.get(t + 1).map(|x| x.kind),
                                    Some(TokKind::Num(_))
                                ) =>
                        {
                            head = scope
                                .iter()
                                .find(|(ty, ..)| *ty == Ty::Name)
                                .map(|(_, atoms, ..)| atoms.clone())
                                .unwrap_or_default();
                        }
                        _ => {}
                    }
                }
                TokKind::Word {
                    folded,
                    flags,
                    cap,
                    upper,
                } => {
                    let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                    let initial = sentence_initial(toks, t, clause_start);
                    let raw = &self.text[tok.span.clone()];
                    if flags & flag::CONJ != 0 && !cap {
                        // A name right before the conjunction ends there (`268 t of Alaria and
                        // 116 t of dulse`): postposed to the last quantity, it is dropped with
                        // the clause's other labels.
                        if !pending_name.is_empty() && clause_quantity.is_some() {
                            end_pending_name!();
                        }
                        drop_postposed(&mut scope, &mut clause_quantity);
                        restore_name(&mut scope, &mut name_at_quantity);
                        clause_start = t + 1;
                        name_chunk = false;
                        clause += 1;
                    }
                    // `… 53,870 in 2024, when returns totalled 1,476`: the year a relative
                    // `when` follows is the clause's.
                    let year_before = matches!(w, "when" | "cuando" | "quando" | "quand")
                        && t >= 2
                        && matches!(toks[t - 1].kind, TokKind::Punct(P::Comma))
                        && matches!(toks[t - 2].kind,
                            TokKind::Num(id) if lx.nums[id as usize].year_shaped);
                    if year_before {
                        let year = &self.text[toks[t - 2].span.clone()];
                        set_scope(
                            &mut scope,
                            Ty::Year,
                            vec![format_compact!("y:{year}")],
                            t,
                            sentence << 16 | clause,
                        );
                    }
                    if in_date(t) {
                        continue;
                    }
                    // `im zweiten Quartal`, `the third quarter`, `primer trimestre`.
                    if let Some(q) = quarter_by_word(lx, t) {
                        set_scope(
                            &mut scope,
                            Ty::Quarter,
                            vec![format_compact!("q:{q}")],
                            t,
                            sentence << 16 | clause,
                        );
                        continue;
                    }
                    if let Some(m) = words::month(w)
                        .filter(|_| w != "may" || cap)
                        .filter(|_| flags & flag::NOT_MONTH == 0)
                    {
                        if w != "march" || cap {
                            set_scope(
                                &mut scope,
                                Ty::Month,
                                vec![format_compact!("m:{m}")],
                                t,
                                sentence << 16 | clause,
                            );
                            continue;
                        }
                    }
                    // (A code in capitals opens a sentence as a name: `EN-ES jobs came to`.)
                    // (Nor German's function words, capitalised where a sentence opens: `Seit
                    // 1952 hat die Gießerei …`.)
                    // (A compass point or a position after a name is part of it: `Pirineo
                    // central`, `Costa Brava sur`, `Rhône aval`, `Yellowstone north`.)
                    let modifier = !pending_name.is_empty()
                        && matches!(toks[t - 1].kind, TokKind::Word { .. })
                        && NAME_MODIFIERS.contains(&w);
                    let name = modifier
                        || (cap || upper)
                            && !(initial && flags & flag::STOP != 0 && !upper)
                            && !(self.german && !upper && GERMAN_FUNCTION_WORDS.contains(&w))
                            && (upper || !initial || !self.initial_modifier(lx, t, w))
                            && raw.chars().count() >= 2;
                    // A German noun of the period before (`(Vorjahr 388,1 Mio. EUR)`, `im
                    // Vorjahr noch 8.900 €`) says when, not whose: no name; and in a clause of
                    // its own, the names before it are another period's (not in the aside of a
                    // figure: `Die Erlöse kletterten auf 2,84 Mio. € (Vorjahr 2,61 Mio. €)`).
                    if name && shifted_period_noun(w) {
                        let aside = t > 0 && matches!(toks[t - 1].kind, TokKind::Punct(P::Open));
                        if !aside {
                            pending_name.clear();
                            scope.retain(|(ty, ..)| *ty != Ty::Name);
                        }
                        continue;
                    }
                    if name {
                        if pending_name.is_empty() {
                            name_at = t;
                            name_owned = last_number.is_some() && last_number == t.checked_sub(1);
                        }
                        if let Some(a) = word_atom(w, raw) {
                            pending_name.push(a);
                        }
                    } else if !(pending_name.is_empty() || flags & flag::STOP != 0 && w.len() <= 3)
                    {
                        end_pending_name!();
                    }
                    // A code: one capital letter after a word (`arm B`, `variante C`), or
                    // labelling what follows (`(A: 41.8 MPa, B: 44.2 MPa)`).
                    if raw.len() == 1 && upper && t > 0 {
                        let after_word =
                            !initial && matches!(toks[t - 1].kind, TokKind::Word { .. });
                        let labels = matches!(toks[t - 1].kind, TokKind::Punct(P::Open | P::Comma))
                            && matches!(
                                toks.get(t + 1).map(|x| x.kind),
                                Some(TokKind::Punct(P::Colon))
                            );
                        // (A letter after its noun is that noun's: `Testfahrt A` stays in
                        // force beside `Prototyp E3`.)
                        let ty = match word_at(lx, t - 1).filter(|_| after_word) {
                            Some(noun) => Ty::Ref(hash_str(noun) as u32),
                            None => Ty::Code,
                        };
                        if after_word || labels {
                            set_scope(
                                &mut scope,
                                ty,
                                vec![format_compact!("c:{raw}")],
                                t,
                                sentence << 16 | clause,
                            );
                        }
                    }
                }
                TokKind::Num(id) => {
                    if !pending_name.is_empty() {
                        end_pending_name!();
                    }
                    let num = &lx.nums[id as usize];
                    if t < skip_until {
                        // A telephone number's other groups.
                        self.emit_trivial(lx, t, num, Trivial::Phone, None, sink);
                        continue;
                    }
                    let class = self.classify_number(
                        lx,
                        t,
                        num,
                        cell,
                        in_date(t) || range_start_day(lx, t, &in_date),
                        section,
                    );
                    match class {
                        Class::Label(ty, atoms) => {
                            // A label right after a quantity is that quantity's (`84.1 F1`, `$5.1M
                            // in 2023`): it does not carry on to the next one.
                            // A label before a colon labels what follows (`(2023: R$ 95,1
                            // milhões)`).
                            // (Its period may follow before the colon: `(Q2 2024: 79,150 t)`.)
                            let introduces = matches!(
                                toks.get(t + 1).map(|x| x.kind),
                                Some(TokKind::Punct(P::Colon))
                            ) || matches!(toks.get(t + 1).map(|x| x.kind),
                                    Some(TokKind::Num(id)) if lx.nums[id as usize].year_shaped)
                                && matches!(
                                    toks.get(t + 2).map(|x| x.kind),
                                    Some(TokKind::Punct(P::Colon))
                                );
                            // (Not after a condition: `At 40 km/h HX-2 measured 17.6 N`
                            // names what was measured under it.)
                            let postposed = !introduces
                                && pending_condition != last_number
                                && last_number.is_some_and(|q| {
                                    // (not after `and`: `$4.8M and in 2023 $5.1M`).
                                    toks[q + 1..t].iter().all(|x| match x.kind {
                                        TokKind::Word { flags, .. } => {
                                            flags & flag::STOP != 0 && flags & flag::CONJ == 0
                                        }
                                        TokKind::Punct(P::Open) => true,
                                        _ => false,
                                    }) && t - q <= 3
                                });
                            // (Nor a period a comparison's word introduces: `2024 vs 2023:
                            // −6,3%` is 2024's change against 2023.)
                            let base_period =
                                ty.is_some_and(|ty| ty.temporal()) && after_comparison(lx, t);
                            if let Some(ty) = ty.filter(|_| !postposed && !base_period) {
                                if depth > 0 {
                                    let saved =
                                        scope.iter().filter(|(t, ..)| *t == ty).cloned().collect();
                                    aside.push((depth, ty, saved, introduces));
                                }
                                set_scope(
                                    &mut scope,
                                    ty,
                                    atoms.clone(),
                                    t,
                                    sentence << 16 | clause,
                                );
                            }
                            // A label's number names no quantity: an answer skips it; evidence
                            // remembers it as a label.
                            self.emit_trivial(
                                lx,
                                t,
                                num,
                                trivial_of(num, &atoms),
                                atoms.first().cloned(),
                                sink,
                            );
                        }
                        Class::Skip(why) => {
                            self.emit_trivial(lx, t, num, why, None, sink);
                            if why == Trivial::Phone {
                                skip_until = phone_end(lx, t);
                            }
                        }
                        Class::Quantity { condition } => {
                            // Two conditions in a row with words between: the second is what
                            // was measured under the first (`a 100.000 km chegou a 64 minutos`).
                            let condition = condition.filter(|_| {
                                pending_condition.is_none_or(|c| {
                                    // Joined by `and`, a comma, a preposition (`at 120
                                    // °C and at 30 bar`); not by a verb.
                                    toks[c + 1..t].iter().all(|x| match x.kind {
                                        TokKind::Word { flags, folded, .. } => {
                                            flags & flag::CONJ != 0
                                                || CONDITION_PREPS.contains(
                                                    &&lx.folded
                                                        [folded.0 as usize..folded.1 as usize],
                                                )
                                        }
                                        TokKind::Punct(P::Comma) => true,
                                        _ => false,
                                    })
                                })
                            });
                            pending_condition = condition.map(|_| t);
                            let mut frame = self.frame(lx, t, num, section, cell);
                            if numbers_in_sentence == 0 {
                                subject = sentence_subject(lx, t, clause_start, self.text);
                                if role == Role::Answer {
                                    opening = opening_phrase(lx, sentence_start, t, self.text);
                                }
                            }
                            if frame.polarity == Polarity::Neutral && num.sign == Sign::None {
                                // Only to a parallel quantity, of the same measure (not `fell
                                // by 18.5% compared with the 23 °C baseline`).
                                if let Some((p, at, unit)) = last_direction {
                                    // (or a change restated as a percentage: `dropped by
                                    // 290,000 litres, or 8.5%`).
                                    let parallel =
                                        frame::units_per_agree((unit, None), (frame.unit, None))
                                            || frame.unit == Some("%");
                                    if parallel && ellipsis(lx, at, t) {
                                        frame.polarity = p;
                                    }
                                }
                            }
                            if frame.unit.is_none() && num.scaled {
                                if let Some((currency, at)) = last_money {
                                    // (A scale alone after money in the sentence is that
                                    // money, the item's noun between: `sumaron 22,31 millones
                                    // de euros y la amortización 9,48 millones`.)
                                    if (ellipsis(lx, at, t) || item_after(lx, at, t))
                                        && !counted_after(lx, t, self.text)
                                    {
                                        frame.unit = Some(currency);
                                    }
                                }
                            }
                            last_money = frame
                                .unit
                                .filter(|u| num.scaled && words::is_currency_code(u))
                                .map(|u| (u, t));
                            if matches!(frame.polarity, Polarity::MinusWord | Polarity::Plus) {
                                last_direction = Some((frame.polarity, t, frame.unit));
                            } else {
                                last_direction = None;
                            }
                            let mut all = binds.to_vec();
                            // An answer's condition (`96 defectos a 140 °C`) binds the other
                            // numbers; the words around it are theirs.
                            // (Alone in its clause, a condition is stated of what its clause
                            // names: `…, with the summit at −6 °C`.)
                            let answer_condition = role == Role::Answer
                                && condition.is_some()
                                && (quantity_in_clause(lx, t, clause_start) || !thing_at(lx, t));
                            if only_numbers.is_none() && !answer_condition {
                                let at = Clause {
                                    start: clause_start,
                                    id: sentence << 16 | clause,
                                    subject: &subject,
                                    opening: &opening,
                                };
                                let marks = Marks {
                                    dates: &dates,
                                    counts: &counts,
                                };
                                self.scope_binds(lx, t, &scope, &at, &marks, &mut all);
                                // (The thing a lone condition is stated of names it as a label
                                // does: `the summit at −6 °C`, `a piscina externa a 24 °C`.)
                                if role == Role::Answer && condition.is_some() && thing_at(lx, t) {
                                    let k = t - 2;
                                    let raw = &self.text[toks[k].span.clone()];
                                    if let Some(a) = word_at(lx, k).and_then(|w| word_atom(w, raw))
                                    {
                                        all.push(Bind {
                                            weight: 0.8,
                                            ..Bind::label(0, [a], None)
                                        });
                                    }
                                }
                            }
                            // A year of the number's own clause or aside replaces the year its
                            // line's label gave it (`Rescues in 2024: 163 (2023: 141)`: 141 is
                            // 2023's).
                            if role == Role::Evidence {
                                own_year_over_label(&mut all, binds.len());
                            }
                            let atom = Some(number_atom(&frame));
                            let noun = next_word(lx, t).map(CompactString::from);
                            let name = name_before(num, frame.unit, self.text);
                            sink(Item {
                                num: num.clone(),
                                frame: frame.clone(),
                                binds: all,
                                atom: atom.clone(),
                                noun,
                                name,
                            });
                            if let Some(u) = condition {
                                let v = frame.readings.first();
                                set_scope(
                                    &mut scope,
                                    Ty::Cond(u),
                                    vec![condition_atom(num, v, u)],
                                    t,
                                    sentence << 16 | clause,
                                );
                            }
                            last_number = Some(t);
                            // (An answer's: evidence names its later clauses itself.)
                            if clause_quantity.is_none() && role == Role::Answer {
                                name_at_quantity =
                                    scope.iter().find(|(ty, ..)| *ty == Ty::Name).cloned();
                            }
                            clause_quantity = Some(t);
                            numbers_in_sentence += 1;
                            // A quantity ends a stretch of names: a noun after it heads the
                            // next one (`Bei einem Umsatz von CHF 1'940'000 resultierte ein
                            // Verlust von CHF 57'300`).
                            name_chunk = false;
                        }
                    }
                    let _ = role;
                }
            }
        }
        let _ = last_number;
    }

    /// What binds the number at token `t` in prose: for evidence, the scope in force (by type)
    /// and its clause's words; for an answer, the atoms around it, weighted by distance.
    fn scope_binds(
        &self,
        lx: &Lexed,
        t: usize,
        scope: &[(Ty, Vec<Atom>, usize, u32)],
        clause: &Clause,
        marks: &Marks,
        out: &mut Vec<Bind>,
    ) {
        let (dates, counts) = (marks.dates, marks.counts);
        let (clause_start, sentence, subject) = (clause.start, clause.id, clause.subject);
        let opening = clause.opening;
        let toks = &lx.toks;
        // What follows in the clause, up to the next number: postposed labels (`$5.1M in 2023`,
        // `44.2 MPa (variant B)`) and words.
        let mut after: Vec<(Ty, Atom, usize)> = Vec::new();
        let mut after_words: Vec<(Atom, usize)> = Vec::new();
        // A parenthesis opened right after the number is its own (`9% (canastra), 7% (serro)`):
        // its words are not the next number's.
        let own_aside = own_paren(toks, t);
        // (Unless it holds a number of its own, which its words name: `168 HV (desvio padrão de
        // 4,2 HV)`.)
        let aside_holds_number = own_aside.clone().any(|k| {
            matches!(toks.get(k).map(|x| x.kind), Some(TokKind::Num(id))
                if lx.nums[id as usize].form == Form::Number)
        });
        // The words just before the next quantity are its own: those nearer to it than to this
        // one (`64 accessible spaces out of 860` keeps `accessible spaces`), or all of a phrase
        // ending in `of` that leads to it (`plus a call-out rate of $195`); not this one's own
        // parenthesis, nor the word right after it.
        // What a number is of, right after it (`87,4% da capacidade instalada de 1,28 bilhão`):
        // its own, though it names the next number too.
        let of_phrase = matches!(toks.get(t + 1).map(|x| x.kind),
            Some(TokKind::Word { folded, .. })
                if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                    "of" | "de" | "da" | "do" | "du" | "des" | "del" | "der"));
        let give_to_next = |after_words: &mut Vec<(Atom, usize)>, k: usize| {
            let led = leads_to(lx, k);
            after_words.retain(|(_, at)| {
                let near = counts.words(*at..k) <= 4
                    && *at != t + 1
                    && !(of_phrase && *at <= t + 3)
                    && (led || counts.words(*at + 1..k) <= counts.words(t + 1..*at));
                !near || own_aside.contains(at) && !aside_holds_number
            });
        };
        // What the number is per, read with it (`£14.50 a metre`).
        let own_per = match toks[t].kind {
            TokKind::Num(id) => lx.nums[id as usize].per,
            _ => None,
        };
        let mut k = t + 1;
        let mut seen_words = 0;
        // An answer names the thing a number is of further on than evidence does (`came to
        // 50.0 MPa according to the figures reported for variant A`): past the first words, a
        // label (a name, a month, a code, a numbered thing) still binds; plain words do not.
        let horizon = if self.cfg.role == Role::Answer {
            AFTER_LABEL_WORDS
        } else {
            AFTER_WORDS
        };
        let mut paren_open = None;
        while k < toks.len() && seen_words < horizon {
            match toks[k].kind {
                TokKind::Punct(P::Stop | P::Semi | P::Line | P::Pipe | P::Tab | P::Comma) => break,
                TokKind::Punct(P::Open) => paren_open = Some(k),
                // A parenthesis that labels its own number (`2,386,400 (Q4 2024: 2,201,900)`):
                // what it names before its colon is that number's.
                TokKind::Punct(P::Colon) if paren_open.is_some() => {
                    let o = paren_open.unwrap_or(k);
                    after.retain(|(_, _, at)| *at < o);
                    after_words.retain(|(_, at)| *at < o);
                    break;
                }
                TokKind::Punct(_) => {}
                TokKind::Num(id) => {
                    let n = &lx.nums[id as usize];
                    // `… le 22 février 2025`: a date with its month's name.
                    if let Some((range, atoms)) = date_covering(dates, k) {
                        for a in atoms {
                            after.push((Ty::Date, a.clone(), k));
                        }
                        k = range.end.max(k + 1);
                        continue;
                    }
                    // What the number is per (`4,2/10 à J+1`): part of it, not the next one.
                    if n.form == Form::Number && denominator(lx, k, n, self.text) {
                        k += 1;
                        continue;
                    }
                    if n.form == Form::Number
                        && n.unit.is_some()
                        && !condition_unit(n.unit.unwrap_or_default())
                        && !self.variant_unit(n)
                    {
                        // The words just before the next quantity are its own (`218,4 M€ pour un
                        // loyer annuel de 11,2 M€`).
                        give_to_next(&mut after_words, k);
                        // So are the labels nearer to it than to this one, or opening a
                        // parenthesis (`412,6 Mio. EUR (Vorjahr 388,1 Mio. EUR)`; not `2.022
                        // neue PV-Anlagen mit zusammen 31,4 MWp`).
                        let words = |r: Range<usize>| counts.words(r);
                        let opened = |at: usize| counts.opens(t + 1..at) > 0;
                        after.retain(|(_, _, at)| {
                            let (to_next, to_this) = (words(*at + 1..k), words(t + 1..*at));
                            !(to_next < to_this || to_next <= to_this && opened(*at))
                        });
                        break;
                    }
                    // `en semaine 15`, `in week 12`, `for site 401`: a numbered thing after it;
                    // so is one in its own parenthesis (`71% (Screen 1)`).
                    if let Some((w, f, true)) = prev_word(lx, k, self.text) {
                        let numbered = f & (flag::WEEK | flag::QUARTER | flag::REF) != 0
                            || n.plain
                                && n.unit.is_none()
                                && own_aside.contains(&k)
                                && f & flag::STOP == 0
                            || n.plain
                                && self.numbered_by_evidence(lx, k, w, f, n.readings.first());
                        if numbered && n.unit.is_none() {
                            let v = n.readings.first();
                            if f & flag::WEEK != 0 {
                                after.push((Ty::Week, format_compact!("wk:{}", plain_value(v)), k));
                            } else if f & flag::QUARTER != 0 {
                                after.push((
                                    Ty::Quarter,
                                    format_compact!("q:{}", plain_value(v)),
                                    k,
                                ));
                            } else {
                                let w = prev_word(lx, k, self.text).map_or("", |(w, _, _)| w);
                                let r = Ty::Ref(hash_str(w) as u32);
                                after.push((r, value_atom("n:", v, None), k));
                                after.push((r, format_compact!("r:{}:{}", stem(w), key(v)), k));
                            }
                            k += 1;
                            continue;
                        }
                    }
                    // `18,1 mmHg bei 25 mg`, `35 min at 120 °C`: a condition after it.
                    if let Some(u) = n.unit.filter(|u| condition_unit(u) || self.variant_unit(n)) {
                        if condition_place(lx, k, self.text) || self.variant_unit(n) {
                            let v = n.readings.first();
                            after.push((Ty::Cond(u), condition_atom(n, v, u), k));
                            k += 1;
                            continue;
                        }
                    }
                    match n.form {
                        Form::Date => {
                            for a in date_atoms(&self.text[n.span.clone()], self.order) {
                                after.push((Ty::Date, a, k));
                            }
                        }
                        // `… im 3. Quartal 2024`, `en el 2.º trimestre`.
                        Form::Ordinal if quarter_ordinal(lx, k) => {
                            let q = n.readings.first().magnitude().plain();
                            after.push((Ty::Quarter, format_compact!("q:{q}"), k));
                        }
                        Form::Identifier => {
                            let code = &self.text[n.code.clone()];
                            for a in code_atoms(code) {
                                after.push((code_type(code), a, k));
                            }
                        }
                        _ if n.year_shaped => after.push((
                            Ty::Year,
                            format_compact!("y:{}", &self.text[n.digits.clone()]),
                            k,
                        )),
                        _ => {
                            // Another quantity: the words just before it are its own (`88.5
                            // with a weight of 2.25`).
                            if n.form == Form::Number {
                                give_to_next(&mut after_words, k);
                                // And a label that introduces it (`412 cas pour 100 000
                                // habitants (semaine 5 : 365)`).
                                let words = |r: Range<usize>| counts.words(r);
                                after.retain(|(_, _, at)| {
                                    !(matches!(
                                        toks.get(*at + 1).map(|x| x.kind),
                                        Some(TokKind::Punct(P::Colon))
                                    ) && words(*at + 1..k) <= words(t + 1..*at))
                                });
                            }
                            break;
                        }
                    }
                }
                TokKind::Word {
                    folded,
                    flags,
                    cap,
                    upper,
                } => {
                    seen_words += 1;
                    let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                    // (A threshold's `than` goes on to its condition: `377 were older than 90
                    // days`.)
                    let threshold = (1..=2).any(|d| {
                        matches!(toks.get(k + d).map(|x| x.kind), Some(TokKind::Num(_)))
                            && threshold_before(lx, k + d)
                    });
                    if threshold {
                        k += 1;
                        continue;
                    }
                    if flags & flag::CONJ != 0 && !cap {
                        break;
                    }
                    // What follows a comparison is its base, not the number's subject (`−1,7 %
                    // respecto a 2023`, `vs Q2`, `gegenüber Vorjahr`).
                    if (words::comparison_word(w)
                        || matches!(
                            w,
                            "ggu"
                                | "from"
                                | "since"
                                | "desde"
                                | "sobre"
                                | "seit"
                                | "depuis"
                                | "contre"
                                | "vor"
                                | "after"
                                | "apres"
                                | "nach"
                                | "tras"
                                | "apos"
                                | "antes"
                                | "before"
                                | "avant"
                        ))
                        && !(w == "from" && source_after(lx, k))
                        // (`21,4 MPa nach 28 Tagen`, `80 cm over 72 hours`: a time after or over
                        // which it was measured, its condition, read below.)
                        && !((AFTER_PREPS.contains(&w) || WINDOW_PREPS.contains(&w))
                            && duration_at(lx, k + 1))
                    {
                        break;
                    }
                    let raw = &self.text[toks[k].span.clone()];
                    // In evidence, a capitalised word right after the number, ending its clause,
                    // is the noun it counts (`arbeiten 1240 Beschäftigte.`), not a name after it
                    // that would stand for the place named before.
                    let counted_noun = self.cfg.role == Role::Evidence
                        && cap
                        && !upper
                        && k == t + 1
                        && toks.get(k + 1).is_none_or(|x| {
                            matches!(
                                x.kind,
                                TokKind::Punct(P::Stop | P::Line | P::Semi | P::Comma)
                            )
                        });
                    // Months are lower case in most languages (`em julho`, `en août`); `may`
                    // and `march` are months only capitalised, as before a number.
                    if let Some(q) = quarter_by_word(lx, k) {
                        after.push((Ty::Quarter, format_compact!("q:{q}"), k));
                    } else if let Some(m) =
                        words::month(w).filter(|_| cap || !matches!(w, "may" | "march"))
                    {
                        after.push((Ty::Month, format_compact!("m:{m}"), k));
                    } else if per_word(w)
                        || per_word(word_at(lx, k.wrapping_sub(1)).unwrap_or(""))
                        || own_per.is_some() && words::unit_word(w) == own_per
                    {
                        // What it is per is no subject of it (`$0.13 per word`, `38.900 € pro
                        // Instrument`, `£14.50 a metre`).
                    } else if (cap || upper) && !counted_noun {
                        if let Some(a) = word_atom(w, raw) {
                            after.push((Ty::Name, a, k));
                        }
                    } else if (flags & flag::STOP == 0 || words::statistic(w).is_some())
                        && seen_words <= AFTER_WORDS
                    {
                        if let Some(a) = word_atom(w, raw) {
                            after_words.push((a, k));
                        }
                    }
                }
            }
            k += 1;
        }
        // The clause's words before the number, back to the previous number or the clause's
        // start.
        let mut before_words: Vec<(Atom, usize, bool)> = Vec::new();
        let mut comma = false;
        let mut k = t;
        // A number opening a parenthesis (`… randomizados (480 na população ITT)`) is an aside:
        // the words before it are the main clause's.
        // A number alone in its parenthesis is the value of what comes before (`y también la
        // de más bajadas (3.480)`).
        let aside = t > 0
            && matches!(toks[t - 1].kind, TokKind::Punct(P::Open))
            && !matches!(
                toks.get(t + 1).map(|x| x.kind),
                Some(TokKind::Punct(P::Close))
            );
        // Whether a word other than an approximation's stands between the number and the
        // nearest comma before it.
        let mut words_after_comma = false;
        // The quantity a comparison's base follows, when its words were read as the base's.
        let mut compared: Option<usize> = None;
        while !aside && k > clause_start && before_words.len() < 8 {
            k -= 1;
            match toks[k].kind {
                // A level after a change (`debt fell by NOK 57 million to NOK 640 million`):
                // the change's words are the level's too.
                TokKind::Num(_)
                    if k + 2 == t
                        && matches!(toks[k + 1].kind, TokKind::Word { flags, .. }
                            if flags & flag::LEVEL_PREP != 0)
                        && before_words.is_empty() =>
                {
                    before_words.clear();
                }
                // A comparison's base right after the quantity compared (`operating profit rose
                // to £11.8m from £9.6m`): that quantity's words name it too.
                // (Of the same measure: `171.6 t from 46,310 fish` names a source.)
                TokKind::Num(id)
                    if self.cfg.role == Role::Answer
                        && same_measure(lx, id, t)
                        && toks[k + 1..t]
                            .iter()
                            .all(|x| matches!(x.kind, TokKind::Word { .. }))
                        && comparison_base(lx, t) =>
                {
                    compared = Some(k);
                }
                // A date, an ordinal or a code names; it ends no clause (`Phishing campaigns on
                // the 7th and 17th led to 412 and 655 quarantined emails`).
                TokKind::Num(id)
                    if self.cfg.role == Role::Answer
                        && matches!(
                            lx.nums[id as usize].form,
                            Form::Date | Form::Ordinal | Form::Identifier
                        ) => {}
                TokKind::Num(id) => {
                    // The word right after the previous number is what that number counts (`18
                    // goles en 2.710 minutos`): not this number's. (A year counts nothing:
                    // `kamen 2024 zusammen auf 311'100`.)
                    let n = &lx.nums[id as usize];
                    if let Some((_, at, _)) = before_words.last() {
                        if *at == k + 1 && !(n.year_shaped && n.form == Form::Number) {
                            before_words.pop();
                        }
                    }
                    // A statistic after it, up to a comma, is its (`1 250 peaux au total,
                    // dont 610 de vache`): not this number's.
                    if n.form == Form::Number && !n.year_shaped {
                        before_words.retain(|(a, _, before_comma)| {
                            !(*before_comma && a.starts_with(STATISTIC))
                        });
                    }
                    break;
                }
                // A comma with no word between it and the number but an approximation's
                // (`e o perfil arrojado do Plano CD, 6,37%`, `a Lakeshore, cerca de 13 km`)
                // elides a verb: the words before it are the number's. Not one a word of its
                // own follows (`ont été admis, soit 88,4 %`: a restatement).
                TokKind::Punct(P::Comma) => comma = comma || words_after_comma,
                // The parenthesis it stands in, after a label of its own (`412 Kühe gesömmert
                // (Vorjahr: 396)`): the words before it are the main clause's number's.
                TokKind::Punct(P::Open) if words_after_comma => break,
                // The previous number's own parenthesis (`9% (canastra), 7%`): not ours.
                TokKind::Punct(P::Close)
                    if (k.saturating_sub(12)..k)
                        .rev()
                        .find(|&o| matches!(toks[o].kind, TokKind::Punct(P::Open)))
                        .is_some_and(|o| own_paren(toks, o.wrapping_sub(1)).start == o) =>
                {
                    break;
                }
                TokKind::Punct(_) => {}
                TokKind::Word {
                    folded,
                    flags,
                    cap,
                    upper,
                } => {
                    let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                    // `1,913,480 bottles packed out of 2,098,100 melted`: what comes before `out
                    // of` is the part's, not the whole's.
                    if w == "out" && word_at(lx, k + 1) == Some("of") {
                        break;
                    }
                    if !comma && flags & flag::APPROX == 0 && !matches!(w, "de" | "of" | "di") {
                        words_after_comma = true;
                    }
                    let raw = &self.text[toks[k].span.clone()];
                    // (A sentence's capitalised first word that modifies the noun after it is a
                    // plain word: `Lighting drew 96,800 kWh`.)
                    let strong = upper
                        || cap
                            && !(sentence_initial(toks, k, 0) && self.initial_modifier(lx, k, w));
                    // The noun of a code (`bloco D`, `arm B`) names the thing, not the measure.
                    // So does the noun before a name (`loja Norte: 318`), as `Loja Centro` is a
                    // name: in evidence, when a colon follows the name.
                    let code_noun = matches!(
                        toks.get(k + 1).map(|x| x.kind),
                        Some(TokKind::Word { upper: true, .. })
                    ) && self.text[toks[k + 1].span.clone()].chars().count() == 1
                        || self.cfg.role == Role::Evidence
                            && matches!(
                                toks.get(k + 1).map(|x| x.kind),
                                Some(TokKind::Word { cap: true, .. })
                            )
                            && matches!(
                                toks.get(k + 2).map(|x| x.kind),
                                Some(TokKind::Punct(P::Colon))
                            );
                    let statistic = words::statistic(w).is_some();
                    // (A statistic is one whatever its case: `Average daily utilisation …`.)
                    // (A period's noun is its number's: `semanas 10 y 12` names weeks by them.)
                    let period_noun = period_noun(toks, k, flags);
                    // (`sur` is French's `on`, and Spanish's south: `y el sur, el 21 %`.)
                    let stop = flags & flag::STOP != 0 && (w != "sur" || self.french);
                    if (statistic || !stop && !strong) && !code_noun && !period_noun {
                        if let Some(a) = word_atom(w, raw) {
                            before_words.push((a, k, comma));
                        }
                    } else if both_of(lx, k) {
                        // `the two engines logged 218 h`: both of them, a total.
                        before_words.push((Atom::from("w:~total"), k, comma));
                    }
                }
            }
        }
        let words_between = |a: usize, b: usize| -> f32 {
            let (a, b) = (a.min(b), a.max(b));
            counts.words_and_numbers(a..b) as f32
        };
        let decay = |d: f32| 1.0 / (1.0 + d / 5.0);
        match self.cfg.role {
            Role::Evidence => {
                // A number its label places a year before or after the one in force (`(Vorjahr
                // 388,1 Mio. EUR)`, `prior year: 1,204`) is that year's, not the scope's.
                let shifted_year = (t.saturating_sub(6)..t)
                    .rev()
                    .take_while(|&k| {
                        !matches!(
                            toks[k].kind,
                            TokKind::Num(_)
                                | TokKind::Punct(
                                    P::Stop | P::Line | P::Semi | P::Comma | P::Pipe | P::Tab
                                )
                        )
                    })
                    .find_map(|k| year_shift_at(lx, toks, k))
                    .and_then(|shift| {
                        let year_of = |atoms: &[Atom]| {
                            atoms
                                .iter()
                                .find_map(|a| a.strip_prefix("y:")?.parse::<i64>().ok())
                        };
                        scope
                            .iter()
                            .filter(|(ty, _, at, _)| *ty == Ty::Year && *at < t)
                            .max_by_key(|(_, _, at, _)| *at)
                            .and_then(|(_, atoms, _, _)| year_of(atoms))
                            // (Or its line's label's: `Ergebnis 2024: … (Vorjahr CHF 95'000)`.)
                            .or_else(|| out.iter().find_map(|b| year_of(&b.atoms)))
                            .map(|y| y + shift)
                    });
                if let Some(y) = shifted_year {
                    // The labels it has already (its line's, its segment's) are the year in
                    // force's: their year is the moved one.
                    move_years(out, |_| y);
                    out.push(Bind::label(
                        self.dim(Ty::Year.key(), 0),
                        [format_compact!("y:{y}")],
                        None,
                    ));
                }
                // By type: the scope's label, unless a label of that type follows the number.
                for (ty, atoms, at, _) in scope {
                    if after.iter().any(|(aty, _, _)| aty == ty)
                        || shifted_year.is_some() && matches!(ty, Ty::Year | Ty::Date)
                    {
                        continue;
                    }
                    out.push(Bind {
                        dim: self.dim(ty.key(), 0),
                        atoms: atoms.as_slice().into(),
                        weight: 1.0,
                        mention: 0,
                        title: false,
                        soft: false,
                        row: false,
                        reach: Reach::Own,
                        text: Some(label_words(lx, *at, self.text).into()),
                    });
                }
                // A type's labels after the number are one binding (`… in 2023 and 2024`).
                let mut seen: Vec<(Ty, Vec<Atom>)> = Vec::new();
                for (ty, a, _) in &after {
                    match seen.iter_mut().find(|(t, _)| t == ty) {
                        Some((_, atoms)) => atoms.push(a.clone()),
                        None => seen.push((*ty, vec![a.clone()])),
                    }
                }
                for (ty, atoms) in seen {
                    out.push(Bind::label(self.dim(ty.key(), 0), atoms, None));
                }
                let mut measure: Vec<Atom> = before_words
                    .iter()
                    .filter(|(_, _, c)| !c)
                    .map(|(a, _, _)| a.clone())
                    .take(5)
                    .collect();
                // An item whose verb is left out names its subject before a comma (`garrafas
                // retornáveis, por 29%; e chope, por 13%`): those words are its own.
                if measure.is_empty() {
                    measure = before_words
                        .iter()
                        .filter(|(_, _, c)| *c)
                        .map(|(a, _, _)| a.clone())
                        .take(5)
                        .collect();
                }
                // And the word it counts (`at 84 sites`), or what it is of (`87,4% da
                // capacidade`).
                if let Some((a, at)) = after_words.first() {
                    if (*at == t + 1 || of_phrase && *at == t + 2) && !measure.contains(a) {
                        measure.push(a.clone());
                    }
                }
                // The words of its own parenthesis name it (`9% (canastra)`); not when the
                // parenthesis holds a number of its own, which they name (`99.12% (target
                // 99.00%)`).
                let aside: Vec<Atom> = after_words
                    .iter()
                    .filter(|(_, at)| own_aside.contains(at) && !aside_holds_number)
                    .map(|(a, _)| a.clone())
                    .take(4)
                    .collect();
                if !aside.is_empty() {
                    out.push(Bind::label(self.dim(0xa51de, 0), aside, None));
                }
                if !measure.is_empty() {
                    out.push(Bind {
                        dim: self.dim(0x3ea5, 0),
                        atoms: measure.into(),
                        weight: 1.0,
                        mention: 0,
                        title: false,
                        soft: true,
                        row: false,
                        reach: Reach::Own,
                        text: None,
                    });
                }
            }
            Role::Answer => {
                // The number's own clause: back to the last comma, stop, semicolon, conjunction
                // or quantity (`für Pkw 11,50 €, Lkw zahlen 88,70 €`: `Lkw zahlen`; a date or a
                // year is a label of the clause, not the end of another). Bounded: a clause
                // longer than that is its own beyond the bound.
                let alone = matches!(
                    toks.get(t + 1).map(|x| x.kind),
                    Some(TokKind::Punct(P::Close))
                );
                let clause_back = |t: usize| {
                    (t.saturating_sub(64)..t)
                        .rev()
                        .find(|&k| match toks[k].kind {
                            // (A code or a date names; it ends no clause: `C1 Cabernet (5.2
                            // ha)`.)
                            TokKind::Num(id) => {
                                let n = &lx.nums[id as usize];
                                n.form == Form::Number
                                    && !n.year_shaped
                                    && date_covering(dates, k).is_none()
                            }
                            // (An aside opens a clause of its own: `~39 minutes on average
                            // (worst case 112 minutes)`.)
                            // (Not a number alone in its parenthesis: `la de más salidas
                            // (3.620)`.)
                            TokKind::Punct(p) => {
                                matches!(
                                    p,
                                    P::Comma | P::Semi | P::Stop | P::Line | P::Pipe | P::Tab
                                ) || p == P::Open && !(k + 1 == t && alone)
                            }
                            TokKind::Word { flags, cap, .. } => flags & flag::CONJ != 0 && !cap,
                        })
                        .map_or(t.saturating_sub(64), |k| k + 1)
                };
                let own_start = clause_back(t);
                // A relative clause is about the noun its comma follows (`9.815 raciones de
                // comida, que generaron 85.720 €`): that noun phrase is the clause's own.
                let pronoun = |k: usize| {
                    matches!(toks[k].kind, TokKind::Word { folded, .. }
                        if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                            "que" | "which" | "who" | "qui" | "die" | "der" | "das" | "welche"
                                | "cuyo" | "cuya" | "cujo" | "cuja" | "dont"))
                };
                let comma = |k: usize| matches!(toks[k].kind, TokKind::Punct(P::Comma));
                // (The pronoun may have ended the clause search itself: `which` joins.)
                // A comparison's base right after the quantity compared (`operating profit rose
                // to £11.8m from £9.6m`, `subiu para 41 % contra 38 %`): the same thing's other
                // value, named by that quantity's clause.
                let own_start = if own_start >= 1
                    && own_start <= t
                    && matches!(toks[own_start - 1].kind, TokKind::Num(id) if same_measure(lx, id, t))
                    && (own_start..t).all(|k| !matches!(toks[k].kind, TokKind::Punct(_)))
                    && comparison_base(lx, t)
                {
                    clause_back(own_start - 1)
                } else {
                    own_start
                };
                let (relative, own_start) = if own_start >= 2
                    && own_start < t
                    && comma(own_start - 1)
                    && pronoun(own_start)
                {
                    (true, own_start)
                } else if own_start >= 3 && pronoun(own_start - 1) && comma(own_start - 2) {
                    (true, own_start - 1)
                } else {
                    (false, own_start)
                };
                let own_start = if relative {
                    (own_start.saturating_sub(12)..own_start - 1)
                        .rev()
                        .find(|&k| {
                            matches!(
                                toks[k].kind,
                                TokKind::Num(_)
                                    | TokKind::Punct(
                                        P::Comma | P::Semi | P::Stop | P::Line | P::Open
                                    )
                            )
                        })
                        .map_or(own_start, |k| k + 1)
                } else {
                    own_start
                };
                let mut push = |a: &str, weight: f32, at: usize| {
                    out.push(Bind {
                        dim: 0,
                        atoms: Rc::from([Atom::from(a)]),
                        weight,
                        mention: at as u32 + 1,
                        title: false,
                        soft: false,
                        row: false,
                        reach: if at < own_start {
                            Reach::Carried
                        } else if at > t {
                            Reach::After
                        } else {
                            Reach::Own
                        },
                        text: None,
                    });
                };
                // The unit the number is written with, as a word (`2.710 minutos`), names its
                // measure; so does the word it counts right after it (`18 goles`).
                if let TokKind::Num(id) = toks[t].kind {
                    let n = &lx.nums[id as usize];
                    let tail = &self.text[n.digits.end.min(n.span.end)..n.span.end];
                    // (Not what it is per: `18 h per week` names hours, not weeks.)
                    let tail = tail
                        .split(|c: char| c == '/' || c.is_ascii_digit())
                        .next()
                        .unwrap_or(tail);
                    for w in tail
                        .split(|c: char| !c.is_alphabetic())
                        .take_while(|w| !per_word(&words::fold(w)))
                        .filter(|w| {
                            let f = words::fold(w);
                            // (Not a unit that spells a statistic: `14 min` is minutes.)
                            w.chars().count() > 2
                                && words::flags(&f) & flag::STOP == 0
                                && words::statistic(&f).is_none()
                        })
                    {
                        if let Some(a) = word_atom(&words::fold(w), w) {
                            push(&a, 0.8, t);
                        }
                    }
                }
                if let Some((a, at)) = after_words.first() {
                    if *at == t + 1 {
                        push(a, 0.8, *at);
                    }
                }
                // The labels in force: the nearer clause, the stronger; a type named right after
                // the number is that type's (`… 87.8% for matchday 13`); a comparison's base is
                // another period's (`up 3.7 points from 41.2%`).
                let base = comparison_base(lx, t);
                let whole =
                    t >= 2 && word_at(lx, t - 1) == Some("of") && word_at(lx, t - 2) == Some("out");
                // A possessive in the number's own clause (`but its on-time rate of 88.6%`,
                // `e a sua taxa`) points back to what its sentence named, however far.
                let possessive = (own_start..t).any(|k| {
                    matches!(toks[k].kind, TokKind::Word { folded, .. }
                        if POSSESSIVES.contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
                });
                // A period its own clause names by its place, not its number (`the following
                // week's 297`, `au trimestre suivant`): an earlier clause's week or quarter
                // moved by one, or (`the last week's 612`: the final one?) none.
                // (Its clause: before the number, and after it to the clause's end: `contra
                // 1.120 na semana seguinte`.)
                let clause_end = (t + 1..toks.len().min(t + 10))
                    .find(|&k| {
                        matches!(
                            toks[k].kind,
                            TokKind::Num(_)
                                | TokKind::Punct(
                                    P::Comma | P::Semi | P::Stop | P::Line | P::Pipe | P::Tab
                                )
                        )
                    })
                    .unwrap_or(toks.len().min(t + 10));
                let other_period = |f: u32| -> Option<i64> {
                    (own_start..clause_end).filter(|&k| k != t).find_map(|k| {
                        let period = matches!(toks[k].kind,
                            TokKind::Word { flags, .. } if flags & f != 0)
                            && !toks.get(k + 1).is_some_and(|x| {
                                matches!(x.kind, TokKind::Num(_))
                                    && self.text[toks[k].span.end..x.span.start].trim().is_empty()
                            });
                        if !period {
                            return None;
                        }
                        [k.wrapping_sub(1), k + 1].iter().find_map(|&j| {
                            let TokKind::Word { folded, .. } = toks.get(j)?.kind else {
                                return None;
                            };
                            period_shift(&lx.folded[folded.0 as usize..folded.1 as usize])
                        })
                    })
                };
                let (week_shift, quarter_shift) =
                    (other_period(flag::WEEK), other_period(flag::QUARTER));
                // A year named by its place (`a year later`, `l'année suivante`, `im Vorjahr`,
                // `e, um ano depois, 688`): the year an earlier clause named, moved by one. (Its
                // phrase may stand before the clause's comma, back to the last number.)
                let year_shift = {
                    let from = (t.saturating_sub(12)..t)
                        .rev()
                        .find(|&k| match toks[k].kind {
                            TokKind::Num(_) => true,
                            TokKind::Punct(p) => matches!(p, P::Stop | P::Line | P::Semi),
                            TokKind::Word { flags, .. } => flags & flag::CONJ != 0,
                        })
                        .map_or(t.saturating_sub(12), |k| k + 1);
                    // (Not a comparison's base: `un 8,3 % más que el año anterior` is this
                    // year's change, counted from the year before.)
                    (from.min(own_start)..clause_end)
                        .filter(|&k| k != t && !compared_with(lx, k))
                        .find_map(|k| year_shift_at(lx, toks, k))
                };
                // The year it is counted from: the last one named before the clause.
                let shifted_year = year_shift.and_then(|shift| {
                    scope
                        .iter()
                        .filter(|(ty, _, at, _)| {
                            matches!(ty, Ty::Year | Ty::Date) && *at < own_start
                        })
                        .max_by_key(|(_, _, at, _)| *at)
                        .and_then(|(_, atoms, _, _)| {
                            atoms
                                .iter()
                                .find_map(|a| a.strip_prefix("y:")?.parse::<i64>().ok())
                        })
                        // (Or the last year its sentence wrote: `91.400 pasajeros en 2022 y un
                        // año después …`.)
                        .or_else(|| {
                            (t.saturating_sub(64)..own_start).rev().find_map(|k| {
                                let TokKind::Num(id) = toks[k].kind else {
                                    return None;
                                };
                                let n = &lx.nums[id as usize];
                                n.year_shaped
                                    .then(|| self.text[n.digits.clone()].parse().ok())?
                            })
                        })
                        .map(|y| y + shift)
                });
                // The period named last before the clause, in its sentence (`in week 22`, `Q2`):
                // the one a `following` or `previous` one is counted from.
                // (Bounded, as the own clause is: a sentence of many periods stays linear.)
                let last_period = |quarter: bool| -> Option<i64> {
                    (t.saturating_sub(64)..t)
                        .rev()
                        .take_while(|&k| !matches!(toks[k].kind, TokKind::Punct(P::Stop | P::Line)))
                        .find_map(|k| {
                            let TokKind::Num(id) = toks[k].kind else {
                                return None;
                            };
                            let n = &lx.nums[id as usize];
                            if quarter {
                                if let Some((q, _)) = quarter_code(&self.text[n.code.clone()]) {
                                    return Some(i64::from(q));
                                }
                            }
                            let want = if quarter { flag::QUARTER } else { flag::WEEK };
                            let prev = &toks[k.checked_sub(1)?];
                            let named = matches!(prev.kind,
                                TokKind::Word { flags, .. } if flags & want != 0)
                                && self.text[prev.span.end..n.span.start].trim().is_empty();
                            named.then(|| plain_value(n.readings.first()).parse().ok())?
                        })
                };
                for (ty, atoms, at, s) in scope {
                    if *at < own_start
                        && (*ty == Ty::Week && week_shift.is_some()
                            || *ty == Ty::Quarter && quarter_shift.is_some()
                            || matches!(ty, Ty::Year | Ty::Date) && shifted_year.is_some())
                    {
                        continue;
                    }
                    // A condition after the number in its clause is its own, however many
                    // words its phrase has (`et 16,8 m³/s à la pression de 55 bar`).
                    let overridden = after.iter().any(|(aty, _, k)| {
                        aty == ty
                            && (*aty != Ty::Name || !self.german && *s != sentence)
                            && (matches!(aty, Ty::Cond(_)) || words_between(t, *k) <= 3.0)
                    });
                    // (The whole after `out of` is no named part's: `Night work accounted for
                    // 1,146 boardings out of 3,920`.)
                    if overridden || base && ty.temporal() || whole && *ty == Ty::Name {
                        continue;
                    }
                    // (A semicolon parts clauses as a full stop does: `…, o EBITDA ficou
                    // negativo …; o caixa fechou o ano em R$ 21,3 milhões`.)
                    let far = if *s == sentence {
                        1.0
                    } else if *s >> 16 == sentence >> 16 && counts.semicolons(*at..t) == 0 {
                        0.7
                    } else {
                        0.5
                    };
                    let w = if possessive && *s >> 16 == sentence >> 16 {
                        far
                    } else {
                        far / (1.0 + words_between(*at, t) / 12.0)
                    };
                    for a in atoms {
                        push(a, w, *at);
                    }
                }
                for (_, a, at) in &after {
                    push(a, 0.9 * decay(words_between(t, *at)), *at);
                }
                if let Some(y) = shifted_year {
                    push(&format_compact!("y:{y}"), 0.9, t);
                }
                for (shift, quarter, prefix) in
                    [(week_shift, false, "wk"), (quarter_shift, true, "q")]
                {
                    // (Looked for only where a word places a period.)
                    let Some(shift @ (-1 | 1)) = shift else {
                        continue;
                    };
                    if let Some(n) = last_period(quarter).filter(|n| n + shift > 0) {
                        push(&format_compact!("{prefix}:{}", n + shift), 0.9, t);
                    }
                }
                // Two words the evidence writes as one (`farm gate` and `farmgate_usd_t`,
                // `Lager bestand` and `Lagerbestand`) are that word too.
                let compound = |k: usize| -> Option<Atom> {
                    let (a, b) = (word_at(lx, k)?, word_at(lx, k + 1)?);
                    let content =
                        |w: &str| w.chars().count() >= 3 && words::flags(w) & flag::STOP == 0;
                    if !content(a) || !content(b) {
                        return None;
                    }
                    let joined = format_compact!("{a}{b}");
                    word_atom(&joined, &joined).filter(|atom| (self.cfg.hints.binds)(atom))
                };
                let compounds: Vec<(Atom, usize, f32)> = before_words
                    .iter()
                    .map(|(_, at, comma)| (*at, if *comma && !relative { 0.6 } else { 1.0 }))
                    .chain(after_words.iter().map(|(_, at)| (*at, 0.8)))
                    .filter_map(|(at, f)| {
                        compound(at).map(|a| (a, at, f * 0.5 * decay(words_between(at, t))))
                    })
                    .collect();
                for (a, at, w) in &compounds {
                    push(a, *w, *at);
                }
                for (a, at, comma) in &before_words {
                    // (The antecedent of a relative clause is no earlier clause's.)
                    // (A compared quantity's words are as near the base as they are to it.)
                    let from = compared.filter(|&c| *at < c).unwrap_or(t);
                    let w = 0.5
                        * decay(words_between(*at, from))
                        * if *comma && !relative { 0.6 } else { 1.0 };
                    // A statistic qualifies its number as a label does (`averaged 1.0 m³/s`),
                    // and only its own clause's (`averaged 11,840 spectators, …, and took in
                    // €2.31 million`).
                    let statistic = a.starts_with(STATISTIC);
                    // (Unless the clause is the number alone, its phrase before a comma
                    // opening the sentence or clause: `; au total, 620 pianos`; not a phrase
                    // after another number, `11,392 students in total, 6,412 of them`.)
                    let opens = || {
                        (at.saturating_sub(12)..*at)
                            .rev()
                            .take_while(|&k| {
                                !matches!(toks[k].kind, TokKind::Punct(P::Stop | P::Semi | P::Line))
                            })
                            .all(|k| !matches!(toks[k].kind, TokKind::Num(_)))
                    };
                    if statistic && *at < own_start && (own_start < t || !opens()) {
                        continue;
                    }
                    let w = if statistic { w * 1.6 } else { w };
                    push(a, w, *at);
                }
                // `121,9 m² de área privativa`, `4.2 days of dwell time`: what follows `of` right
                // after the number is what it measures.
                let of = matches!(toks.get(t + 1).map(|x| x.kind),
                    Some(TokKind::Word { folded, .. })
                        if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                            "de" | "of" | "d" | "do" | "da" | "del" | "des" | "du" | "der"));
                // (And a compound the `of` phrase goes on with: `38,2 t de cortiça de
                // reprodução`.)
                let of_chain = |at: usize| {
                    of && (t + 1..at).all(|k| match toks[k].kind {
                        TokKind::Word { flags, folded, .. } => {
                            flags & flag::STOP == 0
                                || matches!(
                                    &lx.folded[folded.0 as usize..folded.1 as usize],
                                    "de" | "of" | "d" | "do" | "da" | "del" | "des" | "du" | "der"
                                )
                        }
                        _ => false,
                    }) && at - t <= 5
                };
                for (a, at) in &after_words {
                    let w = if of && words_between(t, *at) <= 3.0 || of_chain(*at) {
                        0.7
                    } else {
                        0.4
                    };
                    // A statistic or a flow's direction after it qualifies it as before it
                    // (`3 120 palettes ont été expédiées`).
                    let w = if a.starts_with(STATISTIC) { w * 1.6 } else { w };
                    push(a, w * decay(words_between(t, *at)), *at);
                }
                // A statistic over parts the clause counts (`the three specimens averaged 505
                // MPa`, `os três portêineres fizeram em média 29`): computed, unless the evidence
                // states that statistic.
                if let Some(stat) = parts_statistic(lx, own_start, t) {
                    push(&format_compact!("{PARTS}{stat}"), 1.0, t);
                }
                if let Some(period) = period_average(lx, own_start, t) {
                    push(&format_compact!("{PERIOD_PARTS}{period}"), 1.0, t);
                }
                // The sentence's subject words (`A soja ocupou … e produziu 8.432 t`): more
                // strongly when the clause names no subject of its own (its verb alone).
                // A clause that names its own (`Parks spent …`, `mientras la hidráulica
                // aumentó …`) takes none.
                // Content words of the clause before the number, past any earlier number
                // (`and gross margin widened by 90 basis points to 35.0%`).
                let own_words = counts.content_words(clause_start.min(t)..t);
                let own_name = scope
                    .iter()
                    .any(|(ty, _, at, _)| *ty == Ty::Name && *at >= clause_start && *at < t);
                if own_words <= 1 && !own_name {
                    for (a, at) in subject {
                        if *at < clause_start && !a.starts_with(STATISTIC) {
                            push(a, 0.35, *at);
                        }
                    }
                }
                // The phrase the sentence opens with frames every number in it, however far
                // (`On wet rail the R-212 train came to a stop in 1 120 m`).
                for (a, at) in opening {
                    push(a, OPENING_WEIGHT, *at);
                }
            }
        }
    }

    /// What the number at token `t` is.
    fn classify_number(
        &self,
        lx: &Lexed,
        t: usize,
        num: &Num,
        cell: bool,
        in_month_date: bool,
        section: &Section,
    ) -> Class {
        let text = self.text;
        let _ = section;
        if in_month_date {
            return Class::Skip(Trivial::Date);
        }
        match num.form {
            Form::Date => {
                return Class::Label(
                    Some(Ty::Date),
                    date_atoms(&text[num.span.clone()], self.order),
                )
            }
            Form::Time => return Class::Skip(Trivial::Time),
            Form::Ordinal => {
                // `4º trimestre`, `3. Quartal`, `1er trimestre`: a quarter.
                if quarter_ordinal(lx, t) {
                    let q = num.readings.first().magnitude().plain();
                    return Class::Label(Some(Ty::Quarter), vec![format_compact!("q:{q}")]);
                }
                return Class::Skip(Trivial::Ordinal);
            }
            Form::ListMarker => return Class::Skip(Trivial::ListMarker),
            Form::Citation => return Class::Skip(Trivial::Citation),
            Form::Identifier => {
                let code = &text[num.code.clone()];
                let ty = code_type(code);
                return Class::Label(Some(ty), code_atoms(code));
            }
            Form::Number => {}
        }
        if denominator(lx, t, num, text) {
            return Class::Skip(Trivial::Denominator);
        }
        // A window of time counted back from now (`in the last 30 days`, `over the past 12
        // months`, `nos últimos 90 dias`, `in den letzten 6 Monaten`): when the figures were,
        // not a figure.
        if let Some(u) = num
            .unit
            .filter(|u| matches!(*u, "d" | "wk" | "mo" | "yr" | "h"))
        {
            let window = t
                .checked_sub(1)
                .and_then(|p| word_at(lx, p))
                .is_some_and(|w| {
                    matches!(
                        w,
                        "last" | "past" | "ultimos" | "ultimas" | "letzten" | "vergangenen"
                    )
                });
            if window {
                return Class::Label(None, vec![value_atom("n:", num.readings.first(), Some(u))]);
            }
        }
        let prev = prev_word(lx, t, text);
        let bare = num.unit.is_none() && !num.scaled;
        // A standard's number and its part or year (`ISO 10545-4`, `DIN EN 13501-1`, `UNE-EN
        // 197-1`, `ISO 9001:2015`): a reference, never a measurement.
        if num.plain && num.sign == Sign::None && standard_number(lx, t, text) {
            return Class::Skip(Trivial::Label);
        }
        // The end of a range of periods (`semanas 10 y 12`, `weeks 10 to 12`).
        if bare
            && t >= 2
            && period_range(lx, t - 2)
            && prev_word(lx, t - 2, text)
                .is_some_and(|(_, f, adjacent)| adjacent && f & (flag::WEEK | flag::QUARTER) != 0)
        {
            return Class::Skip(Trivial::Label);
        }
        // A weekday's day of the month (`del miércoles 19`, `on Friday 14`): a date.
        if bare
            && num.plain
            && num.sign == Sign::None
            && prev.is_some_and(|(w, _, adjacent)| adjacent && words::weekday(w).is_some())
            && (1.0..=31.0).contains(&num.readings.first().magnitude().to_f64())
        {
            // It names its weekday, as a date label does (a row dated `2025-03-19`).
            let wd = prev.and_then(|(w, _, _)| words::weekday(w));
            return Class::Label(
                Some(Ty::Date),
                wd.map(|d| vec![format_compact!("wd:{d}")])
                    .unwrap_or_default(),
            );
        }
        // A telephone number.
        if num.sign == Sign::Plus && num.plain && phone_end(lx, t) > t + 2 {
            return Class::Skip(Trivial::Phone);
        }
        // One written in groups of digits that no grouping writes (`971 72 24 90`, `(11)
        // 3456-7800`: groups other than three after the first, nine digits or more), with or
        // without its word.
        if num.plain && num.sign == Sign::None {
            // (Counted as the run is walked: every plain number asks, and most are alone.)
            let (mut groups, mut digits, mut fits, mut odd) = (0, 0, true, false);
            for k in t..phone_end(lx, t) {
                if let TokKind::Num(id) = lx.toks[k].kind {
                    let n = &lx.nums[id as usize];
                    let len = n.digits.len();
                    fits &= n.plain && (2..=4).contains(&len);
                    odd |= groups > 0 && len != 3;
                    groups += 1;
                    digits += len;
                }
            }
            if groups >= 3 && digits >= 9 && fits && odd {
                return Class::Skip(Trivial::Phone);
            }
        }
        // One a telephone's word introduces (`Tel. 965 320 114`, `tél. 02 40 73 18 65`,
        // `Fone: 11 3456-7788`): its groups are one number, none of them a quantity.
        // (`Fone: (11) 3456-7788`: an area code in parentheses; the word may be a list's label,
        // read apart from its value: the text before the number is looked at.)
        if num.plain
            && phone_word_before(text, num.span.start)
            && (phone_end(lx, t) > t + 1 || num.digits.len() >= 6)
        {
            return Class::Skip(Trivial::Phone);
        }
        // One written in dashed groups (`1-800-555-0142`, `555.201.3344`).
        if num.sign == Sign::None && num.plain && dashed_phone(&text[num.span.start..]) {
            return Class::Skip(Trivial::Phone);
        }
        // A national number in groups of digits that opens with its trunk zero (`0161 496
        // 0730`, `020 7946 0958`): no quantity opens with a zero.
        if num.sign == Sign::None
            && num.plain
            && text[num.digits.clone()].starts_with('0')
            && num.digits.len() >= 2
        {
            let end = phone_end(lx, t);
            let digits: usize = (t..end)
                .map(|k| match lx.toks[k].kind {
                    TokKind::Num(id) => lx.nums[id as usize].digits.len(),
                    _ => 0,
                })
                .sum();
            // (`01 42 68 53 00`: five pairs.)
            let groups = end - t;
            if groups >= 4 || groups == 3 && num.digits.len() >= 3 || groups >= 2 && digits >= 9 {
                return Class::Skip(Trivial::Phone);
            }
        }
        // A street number or a postal code.
        // (Not a number before a noun its evidence counts: `die Waschstrasse 12 Wäschen`.)
        let counts_noun = next_word(lx, t)
            .is_some_and(|w| self.cfg.role == Role::Answer && (self.cfg.hints.count_noun)(w));
        if bare && num.integer() && !counts_noun && address(lx, t, text, self.german) {
            return Class::Skip(Trivial::Address);
        }
        // A year, unless the number counts something (`2021 hours`, `2018 Beschäftigte`).
        // A table's value cell holds a value of its column (`| 14/12/2025 | 1926 |`).
        if num.year_shaped && !(cell && section.value) && !self.counted(lx, t) {
            let y = &text[num.digits.clone()];
            // (An older year, `Silbermann (1766)`, `construção de 1698`, is a date of its
            // thing's history: no period the figures around it are of.)
            if y < "1900" {
                return Class::Skip(Trivial::Year);
            }
            return Class::Label(Some(Ty::Year), vec![format_compact!("y:{y}")]);
        }
        let value = num.readings.first();
        // A confidence interval's level (`IC 95%`, `95% CI`, `95%-KI`): a label.
        if num.unit == Some("%") {
            let ci = |w: &str| {
                matches!(
                    w,
                    "ci" | "ic"
                        | "ki"
                        | "confidence"
                        | "intervalo"
                        | "intervalle"
                        | "konfidenzintervall"
                )
            };
            if prev.is_some_and(|(w, _, gap)| gap && ci(w)) || next_word(lx, t).is_some_and(ci) {
                return Class::Label(None, vec![value_atom("n:", value, None)]);
            }
        }
        // After a reference or a numbered thing (`p. 212`, `§ 4.3`, `order no. 48213`, `week
        // 12`, `site 401`): a label.
        if bare && num.sign == Sign::None {
            if let Some((word, wflags)) = prev.filter(|(_, _, gap)| *gap).map(|(w, f, _)| (w, f)) {
                // `pro Woche 31 Behandlungen`, `per week 40`: a rate's period, not week 31.
                let rate = wflags & flag::WEEK != 0 && per_before_prev_word(lx, t, text);
                // `Harbour depot: 14 forklifts`: a label's colon, then a count of things.
                let colon = text[..num.span.start].trim_end().ends_with(':');
                // (a plural ending its phrase: `4471 remains open` is a ticket that remains.)
                let ends_phrase = !matches!(
                    lx.toks.get(t + 2).map(|x| x.kind),
                    Some(TokKind::Word { .. })
                );
                let count = colon
                    && next_word(lx, t).is_some_and(|w| {
                        words::flags(w) & flag::COUNT != 0
                            || ends_phrase
                                && w.len() > 3
                                && w.ends_with('s')
                                && words::month(w).is_none()
                    });
                // A range of periods (`semanas 10 y 12`, `weeks 10 to 12`) names the span, not
                // one of them: its ends label nothing alone.
                if wflags & (flag::WEEK | flag::QUARTER) != 0 && period_range(lx, t) {
                    return Class::Skip(Trivial::Label);
                }
                // A quarter is one of four, a week one of 53, and a period an ordinal word
                // named already numbers nothing after it (`im zweiten Quartal 5.120 Einheiten`).
                let n = value.to_f64();
                let out_of_range = wflags & flag::QUARTER != 0
                    && (!(1.0..=4.0).contains(&n)
                        || t >= 2 && quarter_by_word(lx, t - 2).is_some())
                    || wflags & flag::WEEK != 0 && !(1.0..=53.0).contains(&n);
                // (A thing is numbered by an integer or a section's dotted levels, `Section
                // 4.2`; `nota 4,6` is a score.)
                if wflags & (flag::REF | flag::WEEK | flag::QUARTER) != 0
                    && !rate
                    && !count
                    && !out_of_range
                    && (num.integer() || !text[num.span.clone()].contains(','))
                {
                    let ty = if wflags & flag::WEEK != 0 {
                        Ty::Week
                    } else if wflags & flag::QUARTER != 0 {
                        Ty::Quarter
                    } else {
                        Ty::Ref(hash_str(word) as u32)
                    };
                    let atoms = if ty == Ty::Week {
                        vec![format_compact!("wk:{}", plain_value(value))]
                    } else if ty == Ty::Quarter {
                        vec![format_compact!("q:{}", plain_value(value))]
                    } else {
                        // `batch 12`: a thing of its kind; `batch 13` is another.
                        vec![
                            value_atom("n:", value, None),
                            format_compact!("r:{}:{}", stem(word), key(value)),
                        ]
                    };
                    return Class::Label(Some(ty), atoms);
                }
            }
            // `§ 4.3`, `# 12`, and the numero sign (`nº 2317`, `N° 88`).
            // The sign is a word of its own: `plano. 1200` is a sentence's end and a number.
            let before = text[..num.span.start].trim_end();
            let sign_word = |s: &str| {
                before
                    .strip_suffix(s)
                    .is_some_and(|rest| !rest.ends_with(|c: char| c.is_alphanumeric()))
            };
            if before.ends_with(['§', '#'])
                || [
                    "nº", "Nº", "n°", "N°", "no.", "No.", "Nr.", "nr.", "n.º", "N.º", "n.°", "N.°",
                    "núm.", "Núm.",
                ]
                .into_iter()
                .any(sign_word)
            {
                return Class::Label(None, vec![value_atom("n:", value, None)]);
            }
            // A name with digits (`Vortex 900`, `Store 118`, `Gate 17`): a capitalised word
            // glued by a space to an integer, in a label's place.
            // A numbered thing right before its value, no colon between (`Linie 1 3.720;
            // Linie 2 4.460`, `Kiln 3 1,240 °C`): the thing's number.
            if num.integer() && num.plain && value.to_f64() < 1000.0 {
                if let Some((w, _, true)) = prev {
                    let capital = matches!(lx.toks[t - 1].kind, TokKind::Word { cap: true, .. });
                    let value_next = matches!(lx.toks.get(t + 1).map(|x| x.kind),
                        Some(TokKind::Num(id)) if lx.nums[id as usize].form == Form::Number)
                        && text
                            .get(num.span.end..lx.toks[t + 1].span.start)
                            .is_some_and(|gap| gap.chars().all(|c| c == ' '));
                    if capital && value_next && !shifted_period_noun(w) {
                        return Class::Label(
                            Some(Ty::Ref(hash_str(w) as u32)),
                            vec![
                                value_atom("n:", value, None),
                                format_compact!("r:{}:{}", stem(w), key(value)),
                            ],
                        );
                    }
                }
            }
            if num.integer() && num.plain {
                if let Some((w, _, true)) = prev {
                    // (`Vormonat 231` is last month's count: a period, not a name.)
                    if !shifted_period_noun(w) && self.model_name(lx, t) {
                        return Class::Label(Some(Ty::Code), vec![value_atom("n:", value, None)]);
                    }
                }
            }
        }
        // An answer's number in a label's place that the evidence holds as a label.
        if self.cfg.role == Role::Answer && bare && num.integer() && num.plain {
            let atom = value_atom("n:", value, None);
            // A count a label of the evidence states with the noun after it (`repairs to 12
            // folios` against `Leather repairs to 12 folios: USD 2,340`): that label, which binds
            // the answer's value beside it.
            if next_word(lx, t).is_some_and(|noun| (self.cfg.hints.label_count)(value, noun)) {
                return Class::Label(Some(Ty::Code), vec![atom]);
            }
            if let Some((word, flags, true)) = prev {
                if self.numbered_by_evidence(lx, t, word, flags, value) {
                    return Class::Label(
                        Some(Ty::Ref(hash_str(word) as u32)),
                        vec![atom, format_compact!("r:{}:{}", stem(word), key(value))],
                    );
                }
                // After `de`, the noun it numbers follows (`o pacote de 7 noites`, `e o de 4
                // noites` against `Pacote 7 noites: 2.940`): a variant, typed by that noun.
                // (Not a noun the evidence counts: `plantilla de 276 empleados` is a count.)
                let noun = next_word(lx, t).filter(|w| {
                    words::flags(w) & (flag::STOP | flag::COUNT) == 0
                        && !(self.cfg.hints.count_noun)(w)
                        && word_atom(w, w).is_some_and(|a| (self.cfg.hints.binds)(&a))
                });
                if matches!(word, "de" | "of" | "du" | "del" | "do" | "da") {
                    if let Some(noun) = noun.filter(|_| (self.cfg.hints.label)(&atom)) {
                        return Class::Label(Some(variant_type(noun)), vec![atom]);
                    }
                }
            }
            if (self.cfg.hints.label)(&atom) && label_place(lx, t, self.german) {
                return Class::Label(Some(Ty::Code), vec![atom]);
            }
            // After an article, a number the evidence holds as a label and states as no value
            // (`les passes au 120 et au 220` against `Carbure grain 120 : 3,0 h`): that label.
            let article = prev.is_some_and(|(w, _, _)| {
                matches!(
                    w,
                    "au" | "aux" | "al" | "ao" | "the" | "le" | "la" | "el" | "o"
                )
            });
            if article && (self.cfg.hints.label)(&atom) && !(self.cfg.hints.states)(value) {
                return Class::Label(Some(Ty::Code), vec![atom]);
            }
            // A title with its number after `of`/`del` (`Verano del 85`, `Summer of 69`),
            // named mid-sentence by its capital, that the evidence holds as a label.
            let titled = t >= 2
                && matches!(lx.toks[t - 1].kind, TokKind::Word { folded, .. }
                    if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                        "of" | "de" | "del" | "da" | "do" | "du" | "des" | "der" | "di"))
                && matches!(lx.toks[t - 2].kind, TokKind::Word { cap: true, .. })
                && !sentence_initial(&lx.toks, t - 2, 0);
            if titled && (self.cfg.hints.label)(&atom) {
                return Class::Label(Some(Ty::Code), vec![atom]);
            }
            // A number joined to its noun by a hyphen names a variant (`a 5-day guided hike`,
            // `the 7-night Western sailing`, `3-Tage-Pass`) that the evidence labels so.
            let rest = &text[num.span.end..];
            if let Some(noun) = rest
                .strip_prefix('-')
                .filter(|r| r.starts_with(char::is_alphabetic))
            {
                let noun: String = noun.chars().take_while(|c| c.is_alphabetic()).collect();
                if (self.cfg.hints.label)(&atom) {
                    return Class::Label(Some(variant_type(&words::fold(&noun))), vec![atom]);
                }
            }
        }
        // A small count: a bare integer up to 10 the evidence does not state (`five readings`,
        // `2 vagas` counted from a list).
        if self.cfg.role == Role::Answer
            && bare
            && num.plain
            && num.sign == Sign::None
            && value.exp == 0
            && (0..=10).contains(&value.mant)
            && !cell
            && !(self.cfg.hints.states)(value)
        {
            return Class::Skip(Trivial::SmallCount);
        }
        // A condition other numbers are bound to: a quantity in a unit of conditions, after
        // `at`/`a`/`bei`, or labelling (`+20 °C: 142 J`, `10 mg arm`).
        let condition = num
            .unit
            .filter(|u| condition_unit(u) || opening_condition(lx, t, u))
            .filter(|_| condition_place(lx, t, text))
            .or_else(|| num.unit.filter(|_| self.variant_unit(num)));
        Class::Quantity { condition }
    }

    /// An answer's word and the integer after it that the evidence labels with both (`alcance
    /// 2` against a key `alcance_2_tco2e`, `nave 4` against `nave 4: 3.025 t`): a numbered
    /// thing, whatever the word. Not when a counted noun follows (`Patienten 839 Patienten`
    /// counts).
    fn numbered_by_evidence(
        &self,
        lx: &Lexed,
        t: usize,
        word: &str,
        flags: u32,
        value: Decimal,
    ) -> bool {
        let counts = next_word(lx, t).is_some_and(|w| {
            (self.cfg.hints.count_noun)(w)
                || words::unit_word(w).is_some()
                || words::flags(w) & flag::COUNT != 0
        });
        self.cfg.role == Role::Answer
            && !counts
            && flags & flag::STOP == 0
            && word.len() > 2
            && value.exp == 0
            && word_atom(word, word).is_some_and(|a| (self.cfg.hints.binds)(&a))
            && (self.cfg.hints.label)(&value_atom("n:", value, None))
    }

    /// Whether the capitalised word opening a sentence at `t` modifies the noun after it
    /// (`Operating revenue`): a plain word, no name ([`modifier_before_noun`]; not in German,
    /// whose nouns are all capitalised).
    fn initial_modifier(&self, lx: &Lexed, t: usize, folded: &str) -> bool {
        !self.german && modifier_before_noun(lx, t, folded)
    }

    /// An amount of money that names a kind of thing, after a noun and `de`/`of` (`monedas de 2
    /// €`, `pièces de 1 €`, `notes of £5`): a denomination, when the evidence labels by it.
    fn denomination(&self, num: &Num) -> bool {
        let mut before = self.text[..num.span.start]
            .trim_end()
            .rsplit(|c: char| !c.is_alphabetic());
        let joint = before.next().map(words::fold);
        let noun = before.next().map(words::fold);
        matches!(
            joint.as_deref(),
            Some("de" | "of" | "da" | "do" | "des" | "du" | "von")
        ) && noun.is_some_and(|n| {
            n.chars().count() > 3
                && words::flags(&n) & flag::STOP == 0
                && !STATING_VERBS.contains(&&*n)
        })
    }

    /// An answer's quantity the evidence writes in its labels (`el forfait de 6 días cuesta …`
    /// against `Forfait 6 días: 262`, `on 12 nm` against `12 nm: 94.2%`): a variant, which
    /// the numbers near it are of, as of a condition.
    fn variant_unit(&self, num: &Num) -> bool {
        let Some(u) = num.unit else {
            return false;
        };
        self.cfg.role == Role::Answer
            && !matches!(u, "%" | "pp" | "pt")
            && (words::currency_word(u).is_none() || self.denomination(num))
            && (self.cfg.hints.label)(&value_atom("n:", num.readings.first(), Some(u)))
    }

    /// A year-shaped number that counts: a unit follows, or a counted noun (in German, only a
    /// capitalised one: `2018 Beschäftigte`, not `2024 beschäftigte der Standort`).
    fn counted(&self, lx: &Lexed, t: usize) -> bool {
        // A hyphenated modifier stands between a count and its noun (`2022 on-call hours`,
        // `2024 full-time staff`): the noun after it says.
        if let Some(noun) = after_compound(&self.text[lx.toks[t].span.end..]) {
            let folded = words::fold(noun);
            if words::unit_word(&folded).is_some()
                || words::flags(&folded) & flag::COUNT != 0
                || self.cfg.role == Role::Answer && (self.cfg.hints.count_noun)(&folded)
            {
                return true;
            }
        }
        let Some(w) = next_word(lx, t) else {
            return false;
        };
        if words::unit_word(w).is_some() {
            return true;
        }
        let cap = matches!(
            lx.toks.get(t + 1).map(|x| x.kind),
            Some(TokKind::Word { cap: true, .. })
        );
        if self.german && !cap {
            return false;
        }
        let flags = words::flags(w);
        if flags & flag::COUNT != 0 {
            return true;
        }
        // In an answer, after a plural article and before a noun the evidence counts (`depois
        // das 2022 arrobas tiradas`): a year takes no plural article.
        if self.cfg.role == Role::Answer
            && t > 0
            && matches!(
                word_at(lx, t - 1),
                Some("das" | "dos" | "las" | "los" | "les" | "des" | "these" | "those")
            )
            && (self.cfg.hints.count_noun)(w)
        {
            return true;
        }
        // In an answer, a participle between the count and its noun (`from 2019 registered
        // members`, `2022 harvested arrobas`): the noun after it says, as after a hyphenated
        // modifier.
        if self.cfg.role == Role::Answer
            && !self.german
            && (w.ends_with("ed") || w.ends_with("ados") || w.ends_with("idos"))
            && word_at(lx, t + 2).is_some_and(|n| {
                words::unit_word(n).is_some()
                    || words::flags(n) & flag::COUNT != 0
                    || (self.cfg.hints.count_noun)(n)
            })
        {
            return true;
        }
        // In an answer, right after a year and a comma, before a noun (`Em 2019, 2019
        // embarcações visitantes`): the year was said; this counts.
        if self.cfg.role == Role::Answer
            && flags & (flag::STOP | flag::CONJ | flag::YEAR_WORD) == 0
            && words::month(w).is_none()
            && w.chars().count() > 2
            && t >= 2
            && matches!(lx.toks[t - 1].kind, TokKind::Punct(P::Comma))
            && {
                // (The same year: `2019, 2019 embarcações`.)
                let digits = |k: usize| match lx.toks[k].kind {
                    TokKind::Num(id) if lx.nums[id as usize].year_shaped => {
                        self.text.get(lx.nums[id as usize].digits.clone())
                    }
                    _ => None,
                };
                digits(t - 2).is_some() && digits(t - 2) == digits(t)
            }
        {
            return true;
        }
        // In an answer, a level reached or a total before it, and a noun after it (`chegou a
        // 2023 salas`, `grew to 2022 berths`, `insgesamt 2024 Umleitungen`): a count.
        if self.cfg.role == Role::Answer
            && flags & (flag::STOP | flag::CONJ | flag::YEAR_WORD) == 0
            && words::month(w).is_none()
            && w.chars().count() > 2
            // (A plural: `a 2025 budget` is the year's.)
            && (w.ends_with('s') || self.german && cap)
            && t.checked_sub(1).is_some_and(|p| {
                matches!(lx.toks[p].kind, TokKind::Word { flags, folded, .. }
                    if flags & flag::LEVEL_PREP != 0
                        || words::statistic(&lx.folded[folded.0 as usize..folded.1 as usize])
                            == Some("total"))
            })
            // (Not the end of a range of years: `From 2019 to 2023 sales grew`.)
            && !t.checked_sub(2).is_some_and(|p| {
                matches!(lx.toks[p].kind, TokKind::Num(id) if lx.nums[id as usize].year_shaped)
            })
        {
            return true;
        }
        if self.cfg.role == Role::Answer && (self.cfg.hints.count_noun)(w) {
            // Unless a date's preposition stands before it (`in 2021 revenue`).
            return prev_word(lx, t, self.text).is_none_or(|(_, f, _)| f & flag::YEAR_PREP == 0);
        }

        // In an answer, a word the evidence binds its numbers to, right after a year-shaped
        // number that a content word of the clause comes before (`se vendieron 2023 forfaits`,
        // `drilled 2015 wells`): what the number counts. Not after a date's preposition or an
        // article (`in 2021 revenue`, `the 2023 budget`), nor first in its sentence.
        if self.cfg.role == Role::Answer
            && flags & (flag::STOP | flag::CONJ) == 0
            && words::month(w).is_none()
            && word_atom(w, w).is_some_and(|a| (self.cfg.hints.binds)(&a))
        {
            // (A verb may be a function word here: `registrou`, `chegou`; in German a noun
            // may be the place: `gab es im Besucherstollen 2019 Führungen`.) A possessive is
            // a determiner, as an article is (`the line's 2024 revenue`).
            let before = self.text[..lx.toks[t].span.start].trim_end();
            if before.ends_with("'s") || before.ends_with("’s") {
                return false;
            }
            return matches!(
                t.checked_sub(1).map(|p| lx.toks[p].kind),
                Some(TokKind::Word { flags, folded, cap, upper: false })
                    if (!cap || self.german)
                        && flags & (flag::YEAR_PREP | flag::YEAR_WORD | flag::CONJ) == 0
                        && !{
                            let p = &lx.folded[folded.0 as usize..folded.1 as usize];
                            PHRASE_ENDS.contains(&p) || OPENING_PREPOSITIONS.contains(&p)
                        }
            );
        }
        false
    }

    /// `Vortex 900 fan`, `Gate 17 entrance`, `Store 118)`: a capitalised word and an integer,
    /// followed by a word that is not a unit or a count, or by a label's separator.
    fn model_name(&self, lx: &Lexed, t: usize) -> bool {
        let toks = &lx.toks;
        let Some(p) = t.checked_sub(1) else {
            return false;
        };
        let TokKind::Word { cap, flags, .. } = toks[p].kind else {
            return false;
        };
        if !cap || flags & (flag::STOP | flag::YEAR_PREP) != 0 {
            return false;
        }
        // German capitalises every noun: a noun and its number (`Herdengröße 86 Kühe`) name
        // a thing only when a lower-case word, a verb, follows (`Atlas 450 meldete`).
        let german_noun = self.german && p > 0;
        let raw = &self.text[toks[p].span.clone()];
        if raw.chars().count() < 3 {
            return false;
        }
        match toks.get(t + 1).map(|x| x.kind) {
            Some(TokKind::Word {
                flags, folded, cap, ..
            }) => {
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                // `Sprints 48 Sprints`: the word it counts, said twice.
                let before = &self.text[toks[p].span.clone()];
                let same = stem(w) == stem(&words::fold(before));
                !(same || german_noun && cap)
                    && flags & (flag::COUNT | flag::CONJ) == 0
                    && words::unit_word(w).is_none()
                    && !(self.cfg.hints.count_noun)(w)
            }
            Some(TokKind::Punct(P::Dash | P::Colon | P::Close)) => !german_noun,
            // `Audiences de la veille — Info 24` ending its line.
            Some(TokKind::Punct(P::Line)) | None => !german_noun,
            // `For Aurora 1200, noise level …`: a name after a word, before a comma.
            Some(TokKind::Punct(P::Comma)) => {
                !german_noun
                    && p > 0
                    && matches!(toks[p - 1].kind, TokKind::Word { flags, .. } if flags & flag::STOP != 0)
            }
            _ => false,
        }
    }

    fn emit_trivial(
        &self,
        lx: &Lexed,
        t: usize,
        num: &Num,
        why: Trivial,
        atom: Option<Atom>,
        sink: &mut dyn FnMut(Item),
    ) {
        sink(Item {
            num: num.clone(),
            frame: Frame {
                readings: num.readings,
                kind: Kind::Trivial(why),
                unit: num.unit,
                per: num.per,
                polarity: Polarity::Neutral,
                approx: false,
                fraction: false,
            },
            binds: Vec::new(),
            atom,
            noun: next_word(lx, t).map(CompactString::from),
            name: name_before(num, num.unit, self.text),
        });
    }

    /// The frame of a quantity: its unit (its own, else its column's, caption's or key's), its
    /// currency and scale from there, its direction, whether it is approximate or a fraction.
    fn frame(&self, lx: &Lexed, t: usize, num: &Num, section: &Section, cell: bool) -> Frame {
        let spec = section.spec.over(self.cfg.spec);
        let mut readings = num.readings;
        let mut unit = num.unit.map(|u| if u == "$" { self.dollar } else { u });
        // Under a money caption, `m` after an amount is millions (`615 m` under `(EUR)`), as
        // after a currency sign; `k`, thousands.
        if let (Some(c), Some(u @ ("m" | "K" | "k"))) = (spec.currency, unit) {
            if !num.scaled && spec.unit.is_none() {
                readings = readings.map(|d| d.shifted(if u == "m" { 6 } else { 3 }));
                unit = Some(if c == "$" { self.dollar } else { c });
            }
        }
        // (Money per a unit its key says: `farmgate_usd_t`.)
        let spec_per = spec.per.filter(|_| unit.is_none());
        if unit.is_none() {
            unit = spec.unit.or(spec
                .currency
                .map(|c| if c == "$" { self.dollar } else { c }));
            if spec.scale != 0 && (spec.currency.is_some() || spec.unit.is_some()) {
                readings = readings.map(|d| d.shifted(spec.scale));
            } else if spec.scale != 0 && !num.scaled {
                readings = readings.map(|d| d.shifted(spec.scale));
            }
        } else if spec.scale != 0 && spec.currency.is_some() && unit == spec.currency && !num.scaled
        {
            // `€ 3,905` under `(k€)`.
            readings = readings.map(|d| d.shifted(spec.scale));
        }
        let mut polarity = match num.sign {
            Sign::Minus => Polarity::MinusSign,
            Sign::Plus => Polarity::Plus,
            // `(2,317)` alone in a cell or a value; not `41 (64.1%)`, a count's share beside it.
            Sign::None
                if num.paren
                    && (cell && !lx.toks[..t].iter().any(|x| matches!(x.kind, TokKind::Num(_)))
                        || after_label(lx, t)
                        // (an amount: grouped, decimal or money; `Vacancies (12)` beside
                        // `Staff 140` is an aside)
                        || statement_line(lx, t)
                            && (!num.plain
                                || unit.is_some_and(|u| words::currency_word(u).is_some()))
                        || section.value && after_year(lx, t)
                        // (`EBITDA (118); net loss (264)` under a run-in money heading)
                        || section.value
                            && !cell
                            && num.unit.is_none()
                            && before_parens(lx, t)
                                .is_some_and(|p| matches!(lx.toks[p].kind, TokKind::Word { .. }))
                        || section.value
                            && lx.toks[..t]
                                .iter()
                                .all(|x| matches!(x.kind, TokKind::Punct(_)))) =>
            {
                readings = readings.map(|d| Decimal {
                    mant: -d.mant.abs(),
                    ..d
                });
                Polarity::MinusSign
            }
            Sign::None => direction(lx, t),
        };
        if polarity == Polarity::Neutral && section.negative {
            polarity = Polarity::MinusWord;
        }
        // An outflow's line: the sign is presentation (`Staff costs (488)`).
        if polarity == Polarity::MinusSign
            && self.cfg.role == Role::Evidence
            && (section.outflow || cost_line(lx, t) || section.paren_outflow && num.paren)
        {
            polarity = Polarity::Outflow;
        }
        let approx = approximate(lx, t, self.text);
        let fraction = unit.is_none()
            && num.readings.iter().all(|d| {
                let f = d.to_f64().abs();
                f > 0.0 && f <= 1.0 && d.exp < 0
            });
        // `96 kg de ração por dia`, `12 t of feed per day`: the period after what is measured.
        let per = num.per.or(spec_per).or_else(|| match unit {
            Some(_) => per_after_noun(lx, t),
            None => per_after_count(lx, t),
        });
        Frame {
            readings,
            kind: Kind::Quantity,
            unit,
            per,
            polarity,
            approx,
            fraction,
        }
    }
}

/// A period a quantity is per, after the noun it measures (`96 kg de ração por dia`, `12 t of
/// feed per day`, `5 L de lait par jour`): `of` and one or two words, then `per` and a period.
fn per_after_noun(lx: &Lexed, t: usize) -> Option<&'static str> {
    if !matches!(
        word_at(lx, t + 1),
        Some("de" | "of" | "do" | "da" | "du" | "d")
    ) {
        // German names the measured thing without `of` (`6,2 t Trockenfutter pro Stunde`).
        let noun = word_at(lx, t + 1)
            .is_some_and(|w| w.chars().count() > 2 && words::flags(w) & flag::STOP == 0);
        if noun && matches!(word_at(lx, t + 2), Some("pro" | "je" | "per")) {
            return period_unit(word_at(lx, t + 3)?);
        }
        return None;
    }
    for k in [t + 3, t + 4] {
        if matches!(
            word_at(lx, k),
            Some("por" | "per" | "pro" | "par" | "je" | "a")
        ) {
            return period_unit(word_at(lx, k + 1)?);
        }
        // (Only words between: `de ração`.)
        word_at(lx, k)?;
    }
    None
}

/// The capitalised word right before number `t`, one blank away, when the number is a bare
/// integer (`Kestrel 2400`, `Vortex 900`): the name it may be part of, folded. Not a month's
/// (`März 2024`) nor a word an abbreviation's dot ends.
fn name_before(num: &Num, unit: Option<&str>, text: &str) -> Option<CompactString> {
    // (Or a model's number with one decimal: `Sierra 0.9`, `Atlas 3.0`.)
    let digits = text.get(num.digits.clone())?;
    let one_decimal = digits.len() == 3 && digits.as_bytes()[1] == b'.';
    if num.digits.len() < 2 || unit.is_some() || !(num.plain && num.integer() || one_decimal) {
        return None;
    }
    // (A name's number is followed by a word, an aside or a dash: `Kestrel 2400 axial fan`,
    // `HydraMax 900 (two-pressure station)`, `Sierra 0.9 — plumín de acero`; not `Sample 12:`.)
    let after = text.get(num.span.end..)?;
    if !after.strip_prefix(' ').is_some_and(|r| {
        r.starts_with(|c: char| c.is_alphabetic() || c == '(') || r.starts_with(['—', '–'])
    }) {
        return None;
    }
    // (Read from the text: the name may be a label the number's segment was split from.)
    let before = text.get(..num.span.start)?.strip_suffix(' ')?;
    let word = lex::last_word(before);
    let start = before.len() - word.len();
    if !word.starts_with(char::is_uppercase)
        || word.chars().count() < 3
        || before[..start].ends_with(|c: char| c.is_alphanumeric())
    {
        return None;
    }
    // (A model's number has two digits or more; a thing numbered is no name: `Plant 2`,
    // `Site 14`.)
    let w = words::fold(word);
    let not_name = flag::STOP | flag::YEAR_WORD | flag::WEEK | flag::QUARTER | flag::REF;
    (words::month(&w).is_none() && words::weekday(&w).is_none() && words::flags(&w) & not_name == 0)
        .then(|| CompactString::from(w.as_ref()))
}

/// The quarter an ordinal word at token `k` names before a quarter's noun (`zweiten Quartal`,
/// `third quarter`, `primer trimestre`).
fn quarter_by_word(lx: &Lexed, k: usize) -> Option<u8> {
    let q = words::ordinal_word(word_at(lx, k)?)?;
    let next = word_at(lx, k + 1)?;
    (words::flags(next) & flag::QUARTER != 0).then_some(q)
}

/// A word that says what a quantity is per (`per`, `pro`, `je`, `por`).
fn per_word(w: &str) -> bool {
    matches!(w, "per" | "por" | "pro" | "je" | "pour" | "each" | "every")
}

/// The prefix of the atom an answer's number gets when its clause counts parts and names a
/// statistic of them (`parts:avg`): not an evidence atom, a question to the lookup.
pub(crate) const PARTS: &str = "parts:";

/// The prefix of the atom an answer's number gets when it is an average per a period
/// (`periods:avg`): a question to the lookup, as [`PARTS`] is.
pub(crate) const PERIOD_PARTS: &str = "periods:";

/// Whether the number at `t` is an average per a period its clause `from..` names (`una media
/// de 150 visitantes por día`, `em média 15 h de estúdio por semana`, `averaged 42 calls a
/// day`): a statistic over the periods, which one period's value does not state.
fn period_average(lx: &Lexed, from: usize, t: usize) -> Option<&'static str> {
    const AFTER: usize = 6;
    let end = (t + 1 + AFTER).min(lx.toks.len());
    let average = (from..end)
        .filter(|&k| k != t)
        .any(|k| word_at(lx, k).and_then(words::statistic) == Some("avg"));
    if !average {
        return None;
    }
    (t + 1..end).find_map(|k| {
        word_at(lx, k)
            .filter(|w| matches!(*w, "a" | "an" | "par") || per_word(w))
            .and_then(|_| word_at(lx, k + 1).and_then(period_unit))
            .filter(|u| matches!(*u, "d" | "wk" | "mo"))
    })
}

/// The statistic (`avg`, `total`) a clause `from..t` names over parts it counts (`the three
/// specimens averaged`, `los tres turnos envasaron de media`, `die drei Häuser kamen im
/// Mittel auf`).
fn parts_statistic(lx: &Lexed, from: usize, t: usize) -> Option<&'static str> {
    let counts_parts = (from..t).any(|k| {
        let count = match lx.toks[k].kind {
            TokKind::Num(id) => {
                let n = &lx.nums[id as usize];
                n.plain && (2.0..=20.0).contains(&n.readings.first().to_f64())
            }
            TokKind::Word { .. } => matches!(
                word_at(lx, k),
                Some(
                    "two"
                        | "three"
                        | "four"
                        | "five"
                        | "six"
                        | "seven"
                        | "eight"
                        | "nine"
                        | "ten"
                        | "dois"
                        | "duas"
                        | "tres"
                        | "quatro"
                        | "cinco"
                        | "dos"
                        | "cuatro"
                        | "deux"
                        | "trois"
                        | "quatre"
                        | "cinq"
                        | "zwei"
                        | "drei"
                        | "vier"
                        | "funf"
                        | "beiden"
                )
            ),
            _ => false,
        };
        count
            && word_at(lx, k + 1)
                .is_some_and(|w| w.chars().count() > 2 && words::flags(w) & flag::STOP == 0)
    });
    if !counts_parts {
        return None;
    }
    (from..t).find_map(|k| {
        let w = word_at(lx, k)?;
        match words::statistic(w)? {
            s @ ("avg" | "total") => Some(s),
            _ => None,
        }
    })
}

/// Whether the word at `k` is `two` after a definite article (`the two engines`, `los dos
/// almacenes`, `les deux chambres`, `os dois galpões`, `die zwei Bäder`): both, together.
fn both_of(lx: &Lexed, k: usize) -> bool {
    matches!(
        word_at(lx, k),
        Some("two" | "dos" | "deux" | "dois" | "duas" | "zwei")
    ) && k > 0
        && matches!(
            word_at(lx, k - 1),
            Some("the" | "los" | "las" | "les" | "os" | "as" | "die" | "these" | "those")
        )
}

/// A period a count is per, right after the noun it counts (`180 carros/dia`, `2,400 jars an
/// hour`, `14 Instrumente pro Monat`, `1 250 barquettes par jour`).
fn per_after_count(lx: &Lexed, t: usize) -> Option<&'static str> {
    let noun = word_at(lx, t + 1)?;
    if words::flags(noun) & (flag::STOP | flag::CONJ) != 0 {
        return None;
    }
    let per = match lx.toks.get(t + 2)?.kind {
        TokKind::Punct(P::Slash) => true,
        TokKind::Word { .. } => matches!(
            word_at(lx, t + 2),
            Some("por" | "per" | "pro" | "par" | "je" | "a" | "an" | "al" | "each" | "every")
        ),
        _ => false,
    };
    if !per {
        return None;
    }
    period_unit(word_at(lx, t + 3)?)
}

/// A period's noun as the unit a quantity is per.
fn period_unit(word: &str) -> Option<&'static str> {
    match word {
        "d" => Some("d"),
        "h" => Some("h"),
        w => words::period_word(w),
    }
}

/// What a label says of its values: their currency, scale and unit, whether it names a fall
/// (`Mean systolic reduction`), an outflow (`Staff costs`) or a share (`part du vrac`).
#[derive(Debug, Clone, Copy)]
struct LabelSense {
    spec: Spec,
    fall: bool,
    outflow: bool,
    share: bool,
    /// The years it moves the year in force by (`Vorjahr`: −1).
    year_shift: Option<i64>,
}

/// A label in force: its type, atoms, token and clause.
type ScopeEntry = (Ty, Vec<Atom>, usize, u32);

/// What a number is, to the binder.
enum Class {
    /// Not a quantity: a label of this scope type (its atoms), or none.
    Label(Option<Ty>, Vec<Atom>),
    Skip(Trivial),
    /// A quantity; a condition of its unit (other numbers are bound to it).
    Quantity {
        condition: Option<&'static str>,
    },
}

fn trivial_of(num: &Num, atoms: &[Atom]) -> Trivial {
    match num.form {
        Form::Date => Trivial::Date,
        Form::Identifier => Trivial::Identifier,
        _ if atoms.first().is_some_and(|a| a.starts_with("y:")) => Trivial::Year,
        _ => Trivial::Label,
    }
}

/// Units in which a number is a condition other numbers depend on.
/// The words that put a quantity as a condition (`at 120 °C`, `bei 25 mg`, `après 24 h`).
const CONDITION_PREPS: &[&str] = &[
    "at", "a", "à", "bei", "aos", "ao", "with", "con", "mit", "avec", "under", "after", "apres",
    "apos", "nach", "tras", "despues",
];

/// The prepositions that put a quantity as a condition wherever the phrase stands (`at the
/// 324 m level`, `à la pression de 55 bar`, `bei einer Drehzahl von 1.800 U/min`).
const AT_PREPS: &[&str] = &["at", "a", "bei", "aos", "ao", "under"];

/// Units of the quantities experiments are run under (`at 120 °C`, `bei 25 mg`), which may
/// condition other numbers wherever they stand; another measure conditions only as a sentence's
/// opening phrase (see [`opening_condition`]).
pub(crate) const CONDITION_UNITS: &[&str] = &[
    "°C", "°F", "K", "km", "m", "mg", "g", "kg", "mg/kg", "µg", "µg/kg", "h", "min", "d", "wk",
    "mo", "yr", "bar", "rpm", "V", "kV", "W", "kW", "MW", "mm", "cm", "mL", "L", "km/h", "mph",
    "m/s", "kn",
];

fn condition_unit(unit: &str) -> bool {
    CONDITION_UNITS.contains(&unit)
}

/// A quantity of any measure (not a share, not money) that opens its sentence after a
/// preposition and a comma closes (`A 250 MPa, o corpo de prova durou 31.500 ciclos`, `Bei
/// 40 GB, …`): a condition, the way `at 120 °C` is one anywhere.
fn opening_condition(lx: &Lexed, t: usize, unit: &str) -> bool {
    let toks = &lx.toks;
    let measure = words::is_measure(unit);
    let prep = t.checked_sub(1).filter(|&k| {
        matches!(toks[k].kind, TokKind::Word { folded, .. }
            if CONDITION_PREPS.contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
    });
    measure
        && prep.is_some_and(|k| sentence_initial(toks, k, 0))
        && matches!(
            toks.get(t + 1).map(|x| x.kind),
            Some(TokKind::Punct(P::Comma))
        )
}

/// A pending name ends: the noun a number counts (`86 Kühe`) is that number's and is dropped;
/// any other is flushed ([`flush_name`]).
fn end_name(
    scope: &mut Vec<ScopeEntry>,
    (pending, head): (&mut Vec<Atom>, &[Atom]),
    (chunk, owned): (&mut bool, &mut bool),
    german: bool,
    (last_quantity, at): (Option<usize>, usize),
    sentence: u32,
) {
    if std::mem::take(owned) {
        pending.clear();
    } else {
        flush_name(
            scope,
            (pending, head),
            chunk,
            german,
            last_quantity,
            at,
            sentence,
        );
    }
}

/// A stretch of capitalised words ends: it is the name in force, or joins the name of its
/// stretch. `pending` holds its words; `head`, the name its sentence's list is headed by.
fn flush_name(
    scope: &mut Vec<ScopeEntry>,
    (pending, head): (&mut Vec<Atom>, &[Atom]),
    chunk: &mut bool,
    german: bool,
    last_quantity: Option<usize>,
    at: usize,
    sentence: u32,
) {
    let atoms = std::mem::take(pending);
    // Names with no quantity between them are one subject (`In Iberia, EBITDA margin was …`);
    // German nouns, always.
    let _ = german;
    let merge = scope
        .iter()
        .any(|(ty, _, named, _)| *ty == Ty::Name && last_quantity.is_none_or(|q| *named > q));
    if *chunk || merge {
        if let Some(s) = scope.iter_mut().find(|(t, ..)| *t == Ty::Name) {
            for a in atoms {
                if !s.1.contains(&a) {
                    s.1.push(a);
                }
            }
            s.2 = at;
            return;
        }
    }
    // A new name in a list keeps the list's head (`Zona Oeste: …, Loja B 341`).
    let mut atoms = atoms;
    for a in head.iter().rev() {
        if !atoms.contains(a) {
            atoms.insert(0, a.clone());
        }
    }
    set_scope(scope, Ty::Name, atoms, at, sentence);
    *chunk = true;
}

/// The words of a label that starts at token `at`, as written, for diagnostics: a code with the
/// word before it (`Variant B`), a name up to the next mark or number (`Kestrel Bay`).
fn label_words(lx: &Lexed, at: usize, text: &str) -> String {
    let toks = &lx.toks;
    let Some(first) = toks.get(at) else {
        return String::new();
    };
    let mut start = first.span.start;
    if let (Some(p), TokKind::Word { upper: true, .. }) = (at.checked_sub(1), first.kind) {
        if first.span.len() == 1 && matches!(toks[p].kind, TokKind::Word { .. }) {
            start = toks[p].span.start;
        }
    }
    let mut end = first.span.end;
    for tok in toks.iter().skip(at + 1).take(3) {
        match tok.kind {
            TokKind::Word { cap: true, .. } | TokKind::Word { upper: true, .. } => {
                end = tok.span.end
            }
            _ => break,
        }
    }
    text.get(start..end).unwrap_or_default().to_string()
}

/// At a clause's end, the labels named after its last quantity leave the scope.
fn drop_postposed(scope: &mut Vec<ScopeEntry>, clause_quantity: &mut Option<usize>) {
    if let Some(q) = clause_quantity.take() {
        scope.retain(|(_, _, at, _)| *at <= q);
    }
}

/// After a clause's postposed labels are dropped: the name in force when its quantity was read,
/// when a name after the quantity had taken its place (`Voi runs 950 vehicles in Zurich and logs
/// 148,500 trips`: Voi's).
fn restore_name(scope: &mut Vec<ScopeEntry>, saved: &mut Option<ScopeEntry>) {
    if let Some(name) = saved.take() {
        if !scope.iter().any(|(ty, ..)| *ty == Ty::Name) {
            scope.push(name);
        }
    }
}

fn set_scope(scope: &mut Vec<ScopeEntry>, ty: Ty, atoms: Vec<Atom>, at: usize, sentence: u32) {
    if atoms.is_empty() {
        return;
    }
    scope.retain(|(t, ..)| *t != ty);
    scope.push((ty, atoms, at, sentence));
}

/// Whether token `t` starts a sentence (nothing but punctuation since the clause began at a
/// sentence's start).
fn sentence_initial(toks: &[lex::Tok], t: usize, _clause_start: usize) -> bool {
    let mut k = t;
    while k > 0 {
        k -= 1;
        match toks[k].kind {
            TokKind::Punct(P::Stop | P::Line | P::Colon | P::Semi | P::Pipe | P::Tab) => {
                return true
            }
            TokKind::Punct(P::Dash | P::Open) => continue,
            TokKind::Punct(_) => return false,
            _ => return false,
        }
    }
    true
}

/// The word before token `t`, its flags, and whether only blanks, `.`, `#`, `º`, `°`, `:` lie
/// between (`p. 212`, `nº 23`, `Nr. 5`).
fn prev_word<'l>(lx: &'l Lexed, t: usize, text: &str) -> Option<(&'l str, u32, bool)> {
    let mut k = t;
    while k > 0 {
        k -= 1;
        match lx.toks[k].kind {
            TokKind::Word { folded, flags, .. } => {
                let gap = text.get(lx.toks[k].span.end..lx.toks[t].span.start)?;
                let adjacent = gap.len() <= 4
                    && gap
                        .chars()
                        .all(|c| c.is_whitespace() || matches!(c, '.' | '#' | 'º' | '°' | ':'));
                return Some((
                    &lx.folded[folded.0 as usize..folded.1 as usize],
                    flags,
                    adjacent,
                ));
            }
            TokKind::Punct(P::Stop | P::Colon) if k + 1 == t => continue,
            _ => return None,
        }
    }
    None
}

/// The folded word right after number token `t` (only blanks between).
/// Whether the number at `t` is the first day of a range whose last day starts a date written
/// with its month (`entre el 12 y el 19 de febrero`, `vom 12. bis 16. August`, `from 19 to 21
/// July`): a day, not a quantity.
fn range_start_day(lx: &Lexed, t: usize, in_date: &dyn Fn(usize) -> bool) -> bool {
    let TokKind::Num(id) = lx.toks[t].kind else {
        return false;
    };
    let n = &lx.nums[id as usize];
    let day = n.unit.is_none()
        && n.readings.iter().all(|d| {
            let (m, e) = d.canonical();
            (e == 0 && (1..=31).contains(&m)) || (e == 1 && (1..=3).contains(&m))
        });
    let joins = |k: usize| match lx.toks.get(k).map(|x| x.kind) {
        Some(TokKind::Punct(P::Dash)) => true,
        Some(TokKind::Word { folded, .. }) => matches!(
            &lx.folded[folded.0 as usize..folded.1 as usize],
            "to" | "and"
                | "through"
                | "y"
                | "al"
                | "a"
                | "hasta"
                | "au"
                | "et"
                | "bis"
                | "und"
                | "ate"
                | "e"
        ),
        _ => false,
    };
    let word_is = |k: usize, set: &[&str]| {
        matches!(lx.toks.get(k).map(|x| x.kind), Some(TokKind::Word { folded, .. })
            if set.contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
    };
    // `12. bis 16. August`: the first day's dot; `el 12 y el 19`: the second day's article.
    let mut k = t + 1;
    if matches!(
        lx.toks.get(k).map(|x| x.kind),
        Some(TokKind::Punct(P::Stop))
    ) {
        k += 1;
    }
    if !joins(k) {
        return false;
    }
    k += 1;
    if word_is(k, &["el", "la", "le", "o", "the", "den", "dem", "zum"]) {
        k += 1;
    }
    day && matches!(lx.toks.get(k).map(|x| x.kind), Some(TokKind::Num(_))) && in_date(k)
}

/// Whether the word before the number's previous word says "per" (`pro Woche 31`, `per week
/// 40`, `por semana 12`).
fn per_before_prev_word(lx: &Lexed, t: usize, text: &str) -> bool {
    let Some(k) = (0..t)
        .rev()
        .find(|&k| matches!(lx.toks[k].kind, TokKind::Word { .. }))
    else {
        return false;
    };
    prev_word(lx, k, text).is_some_and(|(w, _, _)| {
        matches!(
            w,
            "per" | "pro" | "por" | "par" | "je" | "each" | "every" | "cada" | "chaque" | "jede"
        )
    })
}

/// What a rate is per: a power of ten (10 to a million) after a number and `/` (`4,2/10`,
/// `6,5 L/100 km`), or after `per`, `por (cada)`, `pour`, `je`, `pro`, `auf`, `sur`, `out of`
/// following a quantity in its clause (`0.8 per 1,000 catheter-days`, `412 cas pour 100 000
/// habitants`) — not an amount of money (`vendu pour 100 000 €`).
fn denominator(lx: &Lexed, t: usize, num: &Num, text: &str) -> bool {
    if num.sign != Sign::None || num.scaled || !num.integer() {
        return false;
    }
    if num
        .unit
        .is_some_and(|u| u.len() == 3 && u.bytes().all(|c| c.is_ascii_uppercase()))
    {
        return false;
    }
    let value = num.readings.first().magnitude().canonical();
    if !(value.0 == 1 && (1..=6).contains(&value.1)) {
        return false;
    }
    let Some(p) = t.checked_sub(1) else {
        return false;
    };
    // `4,2/10`: glued to the number before it.
    if lx.toks[p].kind == TokKind::Punct(P::Slash) {
        return p > 0
            && lx.toks[p].span.start == lx.toks[p - 1].span.end
            && lx.toks[p].span.end == lx.toks[t].span.start
            && matches!(lx.toks[p - 1].kind, TokKind::Num(_));
    }
    let Some(w) = word_at(lx, p) else {
        return false;
    };
    let mut k = p;
    let per = match w {
        "per" | "pour" | "je" | "pro" | "auf" | "sur" => true,
        "por" | "par" => true,
        "cada" => {
            k = k.saturating_sub(1);
            matches!(word_at(lx, k), Some("por" | "para" | "de"))
        }
        "of" => {
            k = k.saturating_sub(1);
            matches!(word_at(lx, k), Some("out"))
        }
        _ => false,
    };
    if !per
        || num.unit.is_none()
            && text[num.span.end..]
                .trim_start()
                .starts_with(['€', '$', '£'])
    {
        return false;
    }
    // A quantity before it in its clause, a few tokens back (`2,7 ácaros por 100 abelhas`).
    lx.toks[k.saturating_sub(5)..k]
        .iter()
        .rev()
        .take_while(|x| !matches!(x.kind, TokKind::Punct(P::Stop | P::Semi | P::Colon)))
        .any(|x| matches!(x.kind, TokKind::Num(_)))
}

fn next_word(lx: &Lexed, t: usize) -> Option<&str> {
    word_at(lx, t + 1)
}

/// Whether the word at `k` (of these flags) is a period's noun before its number (`semanas
/// 10 y 12`, `week 12`): the number names the period, the noun binds nothing of its own.
fn period_noun(toks: &[lex::Tok], k: usize, flags: u32) -> bool {
    flags & (flag::WEEK | flag::QUARTER) != 0
        && matches!(toks.get(k + 1).map(|x| x.kind), Some(TokKind::Num(_)))
}

/// The folded word at token `k`, if it is a word.
fn word_at(lx: &Lexed, k: usize) -> Option<&str> {
    match lx.toks.get(k)?.kind {
        TokKind::Word { folded, .. } => Some(&lx.folded[folded.0 as usize..folded.1 as usize]),
        _ => None,
    }
}

/// An answer's number in a label's place: after a word, with no word of its own after it.
fn label_place(lx: &Lexed, t: usize, german: bool) -> bool {
    // An abbreviation in capitals names a thing even when its letters spell a function word
    // (`OS 2317`: ordem de serviço); in German, so does a capitalised noun that spells another
    // language's (`Los 3318`: a lottery ticket, an article in Spanish).
    let noun = |folded: (u32, u32)| {
        german && !GERMAN_FUNCTION_WORDS.contains(&&lx.folded[folded.0 as usize..folded.1 as usize])
    };
    let (after_word, after_noun) = match t.checked_sub(1).map(|p| lx.toks[p].kind) {
        Some(TokKind::Word {
            flags,
            upper,
            cap,
            folded,
        }) => (
            // (A period's noun says when the number was, not what it names: `Vormonat 231`.)
            (flags & flag::STOP == 0 || upper && folded.1 - folded.0 >= 2 || cap && noun(folded))
                && !shifted_period_noun(&lx.folded[folded.0 as usize..folded.1 as usize]),
            cap,
        ),
        _ => (false, false),
    };
    // What follows counts (`14 stores`); in German, after a noun, a lower-case word is the
    // verb (`Auf das Los 5512 entfiel …`), not what it counts; after a verb it is an
    // adjective (`stellte 300 neue Mitarbeiter ein`).
    let counted = matches!(lx.toks.get(t + 1).map(|x| x.kind),
        Some(TokKind::Word { flags, cap, .. })
            if flags & flag::STOP == 0 && (cap || !german || !after_noun));
    after_word && !counted
}

/// German function words, capitalised at a sentence's start (`In`, `Der`, `Am`): no noun.
const GERMAN_FUNCTION_WORDS: &[&str] = &[
    "der", "die", "das", "den", "dem", "des", "ein", "eine", "einer", "einem", "einen", "und",
    "oder", "mit", "von", "vom", "im", "in", "am", "an", "auf", "aus", "bei", "fur", "nach", "zu",
    "zum", "zur", "um", "uber", "unter", "vor", "seit", "bis", "es", "er", "sie", "wir", "ist",
];

/// A number in a condition's place: after `at`, `a`, `à`, `bei`, `aos`, `with`, at a label's
/// start (`+20 °C:`), or naming an arm (`10 mg arm`).
/// Whether a threshold's words stand right before token `t`: `within`, `innerhalb (von)`,
/// `dentro de`, or a comparative and `than`/`als`/`de`/`que` (`older than`, `mais de`, `moins
/// de`, `älter als`).
fn threshold_before(lx: &Lexed, t: usize) -> bool {
    let Some(w) = t.checked_sub(1).and_then(|k| word_at(lx, k)) else {
        return false;
    };
    if matches!(w, "within" | "innerhalb") {
        return true;
    }
    let before = t.checked_sub(2).and_then(|k| word_at(lx, k));
    match w {
        "von" => before == Some("innerhalb"),
        "than" | "als" | "de" | "que" => before.is_some_and(|b| {
            matches!(
                b,
                "older"
                    | "longer"
                    | "more"
                    | "over"
                    | "less"
                    | "under"
                    | "alter"
                    | "langer"
                    | "mehr"
                    | "weniger"
                    | "mais"
                    | "menos"
                    | "mas"
                    | "moins"
                    | "plus"
                    | "dentro"
            )
        }),
        _ => false,
    }
}

/// The words before a duration a quantity was measured over (`over 72 hours`, `durante 6
/// meses`, `pendant 3 semaines`, `während 14 Tagen`).
const WINDOW_PREPS: &[&str] = &["over", "during", "durante", "pendant", "wahrend"];

/// Whether the number at `t` is an amount of rain or snow that a verb of falling states: the
/// verb near it and the precipitation's noun in its clause.
fn precipitation_falls(lx: &Lexed, t: usize) -> bool {
    const FALLS: &[&str] = &[
        "fell", "fall", "falls", "falling", "caiu", "cairam", "caem", "cai", "cayo", "cayeron",
        "caen", "cae", "tombe", "tombes", "tombee", "tombent", "fiel", "fielen", "fallen",
    ];
    const PRECIPITATION: &[&str] = &[
        "rain",
        "rainfall",
        "snow",
        "snowfall",
        "hail",
        "precipitation",
        "chuva",
        "chuvas",
        "neve",
        "granizo",
        "precipitacao",
        "lluvia",
        "lluvias",
        "nieve",
        "precipitacion",
        "pluie",
        "pluies",
        "neige",
        "grele",
        "precipitations",
        "regen",
        "schnee",
        "hagel",
        "niederschlag",
        "neuschnee",
    ];
    let lo = t.saturating_sub(8);
    let hi = (t + 6).min(lx.toks.len());
    // (Within the number's stretch: not across a stop or a semicolon.)
    let start = (lo..t)
        .rev()
        .find(|&k| matches!(lx.toks[k].kind, TokKind::Punct(P::Stop | P::Semi | P::Line)))
        .map_or(lo, |k| k + 1);
    let end = (t + 1..hi)
        .find(|&k| matches!(lx.toks[k].kind, TokKind::Punct(P::Stop | P::Semi | P::Line)))
        .unwrap_or(hi);
    // (Read twice, collected never: most numbers' stretches have no verb of falling.)
    let words = || (start..end).filter_map(|k| word_at(lx, k));
    words().any(|w| FALLS.contains(&w)) && words().any(|w| PRECIPITATION.contains(&w))
}

/// Compass points and positions written in lower case after a name, as part of it (`Pirineo
/// central`, `São Paulo sul`, `Alpes du nord`, `Rhône aval`).
const NAME_MODIFIERS: &[&str] = &[
    "north",
    "south",
    "east",
    "west",
    "central",
    "norte",
    "sur",
    "sul",
    "leste",
    "este",
    "oeste",
    "centro",
    "oriental",
    "occidental",
    "ocidental",
    "nord",
    "sud",
    "est",
    "ouest",
    "amont",
    "aval",
    "alto",
    "alta",
    "bajo",
    "baja",
    "baixo",
    "baixa",
    "superior",
    "inferior",
    "upper",
    "lower",
    "nordeste",
    "noreste",
    "sudeste",
    "sureste",
    "noroeste",
    "sudoeste",
    "suroeste",
];

/// The bodies whose standards are cited by number (`ISO 14001`, `EN 13501`, `NBR 6118`).
const STANDARD_BODIES: &[&str] = &[
    "ISO", "EN", "IEC", "DIN", "NBR", "UNE", "ASTM", "BS", "NF", "ANSI", "IEEE", "SAE", "API",
    "JIS", "ABNT", "CEN", "ETSI", "ITU", "SN", "NZS", "CSA", "UL", "NEN", "UNI", "ÖNORM",
];

/// Whether the number at `t` is a standard's (`ISO 10545`) or its part's or year's, glued to
/// one by a dash or a colon (`-4` of `ISO 10545-4`, `2015` of `ISO 9001:2015`).
fn standard_number(lx: &Lexed, t: usize, text: &str) -> bool {
    let toks = &lx.toks;
    let TokKind::Num(id) = toks[t].kind else {
        return false;
    };
    if lx.nums[id as usize].unit.is_some() {
        return false;
    }
    let start = toks[t].span.start;
    // (A part or a year glued to a standard's number, one step back: not a chain, `1-2-3-…`,
    // walked again from each of its numbers.)
    if let Some(p) = t.checked_sub(1) {
        if matches!(toks[p].kind, TokKind::Num(_))
            && matches!(text.get(toks[p].span.end..start), Some("-" | ":" | "/"))
        {
            let glued_before = p.checked_sub(1).is_some_and(|q| {
                matches!(toks[q].kind, TokKind::Num(_))
                    && matches!(
                        text.get(toks[q].span.end..toks[p].span.start),
                        Some("-" | ":" | "/")
                    )
            });
            return !glued_before && standard_number(lx, p, text);
        }
    }
    let Some(p) = t.checked_sub(1) else {
        return false;
    };
    if !matches!(toks[p].kind, TokKind::Word { .. })
        || !text
            .get(toks[p].span.end..start)
            .is_some_and(|gap| gap.chars().all(char::is_whitespace) && gap.len() <= 2)
    {
        return false;
    }
    let raw = &text[toks[p].span.clone()];
    // (`UNE-EN 197`, `DIN EN 13162`: the last of the bodies names it.)
    let Some(body) = raw
        .rsplit(['-', ' '])
        .next()
        .filter(|b| STANDARD_BODIES.contains(b))
    else {
        return false;
    };
    // (Not Spanish `EN 2024` in a heading written in capitals, `VENTAS EN 2024`: a year; a
    // Eurocode, `EN 1992`, has no capitals before it but a body's.)
    let heading_year = body == "EN"
        && lx.nums[id as usize].year_shaped
        && p.checked_sub(1).is_some_and(|q| {
            let before = &text[toks[q].span.clone()];
            matches!(toks[q].kind, TokKind::Word { upper: true, .. })
                && !STANDARD_BODIES.contains(&before)
        });
    !heading_year
}

/// Whether a thing's noun and a preposition stand right before the number at `t` (`the summit
/// at −6 °C`, `die Halle bei 14 °C`): what the condition is stated of.
fn thing_at(lx: &Lexed, t: usize) -> bool {
    t >= 2
        && matches!(lx.toks[t - 1].kind, TokKind::Word { folded, .. }
            if AT_PREPS.contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
        && matches!(lx.toks[t - 2].kind, TokKind::Word { flags, .. }
            if flags & (flag::STOP | flag::CONJ) == 0 && flags & (flag::NEG | flag::POS) == 0)
}

/// Whether another quantity than the number at `t` stands in its clause: from the clause's
/// start to the next comma, semicolon, stop or conjunction (bounded).
fn quantity_in_clause(lx: &Lexed, t: usize, clause_start: usize) -> bool {
    let quantity = |k: usize| {
        k != t
            && matches!(lx.toks[k].kind, TokKind::Num(id)
                if lx.nums[id as usize].form == Form::Number && !lx.nums[id as usize].year_shaped)
    };
    let ends = |k: usize| match lx.toks[k].kind {
        TokKind::Punct(P::Stop | P::Semi | P::Line | P::Comma) => true,
        TokKind::Word { flags, .. } => flags & flag::CONJ != 0,
        _ => false,
    };
    (clause_start.max(t.saturating_sub(32))..t)
        .rev()
        .take_while(|&k| !ends(k))
        .any(quantity)
        || (t + 1..lx.toks.len().min(t + 32))
            .take_while(|&k| !ends(k))
            .any(quantity)
}

/// The words after which a time is when a quantity was measured (`nach 28 Tagen`, `after 31
/// min`).
const AFTER_PREPS: &[&str] = &["after", "apres", "apos", "nach", "tras", "despues"];

/// Whether token `t` is a number of a duration (`28 Tagen`, `90 days`, `6 meses`).
fn duration_at(lx: &Lexed, t: usize) -> bool {
    matches!(lx.toks.get(t).map(|x| x.kind), Some(TokKind::Num(id))
        if matches!(lx.nums[id as usize].unit, Some("h" | "min" | "d" | "wk" | "mo" | "yr")))
}

fn condition_place(lx: &Lexed, t: usize, text: &str) -> bool {
    let toks = &lx.toks;
    // A duration conditions only after `after` (`nach 24 h`); `a 47 minutos` is reached.
    let duration = duration_at(lx, t);
    if let Some((w, _, _)) = prev_word(lx, t, text) {
        let after_prep = AFTER_PREPS.contains(&w);
        // Whether the quantity before it in its clause is a share (`41% at 30 days`, `80%
        // after 31 min`): a time it was measured at. (Not `equivalentes a 96 horas` after an
        // amount of energy, what it equals, nor `17.200 € tras 240 horas`.)
        // (Asked only of a duration: most numbers are none.)
        let share_before = duration
            && (t.saturating_sub(8)..t)
                .rev()
                .find_map(|k| match toks[k].kind {
                    TokKind::Num(id) => Some(lx.nums[id as usize].unit == Some("%")),
                    TokKind::Punct(P::Stop | P::Semi | P::Line) => Some(false),
                    _ => None,
                })
                == Some(true);
        // A window a quantity was measured over (`80 cm over 72 hours`, `durante 6 meses`),
        // or in, after the quantity (`bajó 1,8 m en 7 días`; not `cured in 22 min`, the value).
        let window = duration && WINDOW_PREPS.contains(&w);
        let in_window = duration && matches!(w, "in" | "en" | "em" | "dans");
        // A time at which a share or level after it in its clause was measured (`41% at 30
        // days`, `18 % a los 3 meses`, `78 % à 5 ans`; not `llegó a 47 minutos`, reached).
        let at_time = duration
            && share_before
            && (AT_PREPS.contains(&w)
                || matches!(w, "los" | "las" | "el" | "la" | "the")
                    && t.checked_sub(2)
                        .and_then(|k| word_at(lx, k))
                        .is_some_and(|p| AT_PREPS.contains(&p)));
        let in_window = in_window || at_time;
        // A threshold conditions too (`older than 90 days`, `within 18 weeks`, `com mais de 12
        // meses`, `en moins de 15 jours`, `älter als 6 Monate`).
        let threshold = duration && threshold_before(lx, t);
        // The end of a range is no condition (`na faixa de 25 a 60 km`, `from 3 to 5 km`).
        // (Nor is a place on another measure's scale after a value, or the time it took: `412
        // km at −10 °C`, `300 km a 0 °C`, `bajó 1,8 m en 7 días`.)
        let range_end = t >= 2
            && matches!(lx.toks[t - 1].kind, TokKind::Word { .. })
            && matches!(lx.toks[t - 2].kind, TokKind::Num(_))
            && !((AT_PREPS.contains(&w) || window || in_window || after_prep && share_before)
                && matches!((lx.toks[t - 2].kind, toks[t].kind), (TokKind::Num(a), TokKind::Num(b))
                    if matches!((lx.nums[a as usize].unit, lx.nums[b as usize].unit),
                        (Some(x), Some(y)) if x != y)));
        if range_end && !threshold {
            return false;
        }
        // German `lag bei`, `liegt bei` states the value (`der Chloridgehalt lag bei 0,18 %,
        // die Karbonatisierungstiefe bei 14 mm`): `bei` after such a verb in its sentence.
        if w == "bei"
            && (t.saturating_sub(24)..t)
                .rev()
                .take_while(|&k| !matches!(lx.toks[k].kind, TokKind::Punct(P::Stop | P::Line)))
                .any(|k| {
                    matches!(lx.toks[k].kind, TokKind::Word { folded, .. }
                    if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                        "lag" | "lagen" | "liegt" | "liegen" | "lage"))
                })
        {
            return false;
        }
        // `jusqu'à 41 m`, `hasta 12 km`, `up to 40 t`: a level reached, not a condition.
        let up_to = t >= 2
            && matches!(lx.toks[t - 2].kind, TokKind::Word { folded, .. }
                if matches!(&lx.folded[folded.0 as usize..folded.1 as usize], "jusqu" | "up"));
        if up_to {
            return false;
        }
        if (CONDITION_PREPS.contains(&w)
            || condition_phrase(lx, t)
            || threshold
            || window
            || in_window)
            && (!duration || after_prep || threshold || window || in_window)
        {
            // A condition conditions another quantity of its sentence (`257 patients at 30
            // mg`); alone it is the quantity (`chegou a 10,0 km`).
            // Another quantity: a number with a unit, or one counting the word after it
            // (`257 patients`); not a date's day, a label's number (`rodada 38`).
            let other = |k: &usize| {
                let TokKind::Num(id) = toks[*k].kind else {
                    return false;
                };
                let n = &lx.nums[id as usize];
                let counts = matches!(toks.get(*k + 1).map(|x| x.kind),
                    Some(TokKind::Word { flags, folded, .. })
                        if flags & flag::STOP == 0
                            && words::month(&lx.folded[folded.0 as usize..folded.1 as usize]).is_none());
                let labelled = prev_word(lx, *k, text)
                    .is_some_and(|(_, f, _)| f & (flag::REF | flag::WEEK | flag::QUARTER) != 0);
                // (Under a threshold, any quantity: `377 were older than 90 days`.)
                *k != t
                    && n.form == Form::Number
                    && !n.year_shaped
                    && (n.unit.is_some() || counts || threshold || !n.integer())
                    && !labelled
            };
            let hard =
                |k: &usize| matches!(toks[*k].kind, TokKind::Punct(P::Stop | P::Line | P::Semi));
            // Within the sentence, and a bounded reach of it: each number looks at most this
            // far, so a sentence of many conditions stays linear.
            const REACH: usize = 48;
            // (Not back across a clause a conjunction opens: `a range of 24 nmi, while
            // Ballycotton's light sits at a focal height of 53 m` states the 53 m; `… en julio y
            // el agua se mantuvo a 26,9 °C`, the 26,9 °C.)
            let new_clause = |k: &usize| {
                matches!(toks[*k].kind, TokKind::Word { flags, cap: false, folded, .. }
                    if flags & flag::CONJ != 0
                        && !matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                            "than" | "que" | "als" | "versus" | "vs" | "compared" | "against"))
            };
            let before = (t.saturating_sub(REACH)..t)
                .rev()
                .take_while(|k| !hard(k) && !new_clause(k))
                .any(|k| other(&k));
            let after = !in_window
                && (t + 1..toks.len().min(t + 1 + REACH))
                    .take_while(|k| !hard(k))
                    .any(|k| other(&k));
            return before || after;
        }
    }
    match toks.get(t + 1).map(|x| x.kind) {
        // (`8 °C — FCR 1,31`: a label before a dash, as before a colon.)
        Some(TokKind::Punct(P::Colon | P::Dash)) => true,
        // An item's opening quantity right before another measure's (`6 Monate 94 %; 24
        // Monate 71 %`, `1 mois 91 %`): its label.
        Some(TokKind::Num(next))
            if t.checked_sub(1).is_none_or(|p| {
                matches!(
                    toks[p].kind,
                    TokKind::Punct(P::Colon | P::Semi | P::Line | P::Comma)
                )
            }) && matches!(toks[t].kind, TokKind::Num(id)
                if lx.nums[next as usize].unit.is_some()
                    && lx.nums[next as usize].unit != lx.nums[id as usize].unit) =>
        {
            true
        }
        Some(TokKind::Word { flags, .. }) => flags & flag::REF != 0,
        _ => false,
    }
}

/// A quantity a phrase names after a preposition and a few words (`Con la dosis de 10 µg la …`,
/// `With the 30 mg dose, …`, `Bei einer Geschwindigkeit von 16 Knoten …`, `Na velocidade de
/// 80 km/h …`, `… à la pression de 55 bar`): a condition, as right after the preposition.
/// Verbs that state a value (`foi de 9.860 kg`, `fue de 412 km`, `was 4.8 mm`, `betrug`): the
/// number after them is what the sentence says, not a condition of it.
const STATING_VERBS: &[&str] = &[
    "foi", "foram", "e", "sao", "era", "eram", "ficou", "ficaram", "sera", "esta", "estava",
    "esteve", "fue", "fueron", "es", "son", "eran", "estuvo", "quedo", "was", "were", "is", "are",
    "been", "est", "etait", "fut", "sont", "ete", "war", "waren", "ist", "sind", "betrug", "lag",
];

fn condition_phrase(lx: &Lexed, t: usize) -> bool {
    const WORDS_BETWEEN: usize = 4;
    // The word before the number joins it to the phrase's noun (`dose of`, `Temperatur von`)
    // or is an article (`With the 100 mg tablet`); a verb there (`Em fevereiro o banco recebeu
    // 49.870 kg`) makes the number what the sentence states, not its condition.
    const JOINS: &[&str] = &[
        "of", "de", "von", "da", "do", "du", "del", "des", "dos", "das", "di", "the", "a", "an",
        "la", "le", "el", "o", "der", "die", "den", "dem", "einer", "einem", "eines", "un", "une",
        "um", "uma",
    ];
    let toks = &lx.toks;
    let joined = t.checked_sub(1).is_some_and(|p| {
        matches!(toks[p].kind, TokKind::Word { folded, .. }
            if JOINS.contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
    });
    if !joined {
        return false;
    }
    let mut k = t;
    for _ in 0..=WORDS_BETWEEN {
        let Some(p) = k.checked_sub(1) else {
            return false;
        };
        k = p;
        let Some(w) = word_at(lx, k) else {
            return false;
        };
        if k + 1 == t {
            continue;
        }
        // A verb that states a value between them makes the number the sentence's value (`A
        // colheita foi de 9.860 kg`, `A distância percorrida é de 412 km`), whatever opens it.
        if STATING_VERBS.contains(&w) {
            return false;
        }
        // Opening the sentence, any preposition (`Na velocidade de 80 km/h …`); anywhere, one
        // of place on a scale (`… rising to 3,475 m³/s at the 324 m design-flood level`, `et
        // 16,8 m³/s à la pression de 55 bar`) — `a` only before an article: in Portuguese it
        // is one too (`a dose de 10 mg`). Not `with` mid-sentence: `umkreist die Erde mit einem
        // Perigäum von 548 km` states the perigee.
        if (CONDITION_PREPS.contains(&w) || OPENING_PREPOSITIONS.contains(&w))
            && sentence_initial(toks, k, 0)
        {
            return true;
        }
        if AT_PREPS.contains(&w)
            && (w != "a" || word_at(lx, k + 1).is_some_and(|n| PHRASE_ENDS.contains(&n)))
        {
            return true;
        }
    }
    false
}

/// Whether number `id` and the number at token `t` measure alike (the same unit, or none).
fn same_measure(lx: &Lexed, id: u32, t: usize) -> bool {
    matches!(lx.toks[t].kind, TokKind::Num(other)
        if lx.nums[id as usize].unit == lx.nums[other as usize].unit)
}

/// A number that a comparison introduces (`from 41.2%`, `than 3.1`, `vs 12`, `versus`): the
/// base compared with, not the subject's value.
fn comparison_base(lx: &Lexed, t: usize) -> bool {
    let mut k = t;
    let mut n = 0;
    while k > 0 && n < 2 {
        k -= 1;
        match lx.toks[k].kind {
            TokKind::Word { folded, .. } => {
                n += 1;
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                if matches!(
                    w,
                    "from"
                        | "than"
                        | "vs"
                        | "versus"
                        | "compared"
                        | "against"
                        | "desde"
                        | "als"
                        | "contra"
                        | "frente"
                        | "contre"
                        | "gegenuber"
                        // Another time than the one in force (`eine Woche zuvor 2340 kg`).
                        | "zuvor"
                        | "vorher"
                        | "earlier"
                        | "before"
                        | "previously"
                        | "prior"
                        | "antes"
                        | "anteriormente"
                        | "avant"
                        | "auparavant"
                ) {
                    return true;
                }
            }
            TokKind::Punct(_) => {}
            TokKind::Num(_) => return false,
        }
    }
    false
}

/// The content words of the prepositional phrase a sentence opens with, when it opens with
/// one and the phrase ends before token `t` (at a comma, or at the article after its first
/// words): `Sur rail humide, …`, `On wet rail the train …`. At most a few tokens are read.
fn opening_phrase(lx: &Lexed, start: usize, t: usize, text: &str) -> Vec<(Atom, usize)> {
    const MOST_TOKENS: usize = 10;
    let toks = &lx.toks;
    let mut k = start;
    while k < t && matches!(toks[k].kind, TokKind::Punct(_)) {
        k += 1;
    }
    if !word_at(lx, k).is_some_and(|w| OPENING_PREPOSITIONS.contains(&w)) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut content = 0;
    for j in k + 1..t.min(k + 1 + MOST_TOKENS) {
        match toks[j].kind {
            TokKind::Punct(P::Comma) => return out,
            TokKind::Punct(P::Open | P::Close | P::Slash) => {}
            TokKind::Punct(_) | TokKind::Num(_) => {
                return if content > 0 { out } else { Vec::new() }
            }
            TokKind::Word {
                folded,
                flags,
                cap,
                upper,
            } => {
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                if content > 0 && PHRASE_ENDS.contains(&w) {
                    return out;
                }
                // A phrase that names a thing (`En la región Sur`, `Sur le site de Nantes`)
                // binds by the name, which the scope holds; its common nouns only say what kind
                // of thing it is, and would bind the sentence to every such thing.
                if cap || upper {
                    return Vec::new();
                }
                if flags & flag::STOP == 0 {
                    content += 1;
                    // (A period's noun before its number is the number's: `Entre las semanas
                    // 10 y 12`.)
                    let period_noun = period_noun(toks, j, flags);
                    if let Some(a) =
                        word_atom(w, &text[toks[j].span.clone()]).filter(|_| !period_noun)
                    {
                        out.push((a, j));
                    }
                }
            }
        }
    }
    // No end before the number, or within the tokens read: no phrase of its own.
    Vec::new()
}

/// The weak words before a sentence's first quantity (its subject), back to the clause start.
fn sentence_subject(lx: &Lexed, t: usize, start: usize, text: &str) -> Vec<(Atom, usize)> {
    let mut out = Vec::new();
    let mut k = t;
    while k > start && out.len() < 4 {
        k -= 1;
        if let TokKind::Word {
            folded,
            flags,
            cap,
            upper,
        } = lx.toks[k].kind
        {
            if flags & flag::STOP == 0 && !cap && !upper {
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                if let Some(a) = word_atom(w, &text[lx.toks[k].span.clone()]) {
                    out.push((a, k));
                }
            }
        }
    }
    out
}

/// Whether a word that may be what the number counts follows it (`1,2 millones de
/// visitantes`, `1.2 million visitors`): a content word, not a participle that says which
/// amount it is (`1,095 millones presupuestados`, `0.9 million budgeted`).
fn counted_after(lx: &Lexed, t: usize, text: &str) -> bool {
    let mut k = t + 1;
    while let Some(tok) = lx.toks.get(k) {
        match tok.kind {
            TokKind::Word { flags, .. } => {
                let w = words::fold(text.get(tok.span.clone()).unwrap_or_default());
                if flags & flag::STOP != 0 {
                    k += 1;
                    continue;
                }
                let participle = ["ado", "ados", "ada", "adas", "ido", "idos", "ida", "idas"]
                    .iter()
                    .chain(&["ed", "ee", "ees"])
                    .any(|s| w.ends_with(s) && w.len() >= s.len() + 3);
                return !participle;
            }
            _ => return false,
        }
    }
    false
}

/// Between two quantities only a conjunction and function words (`… 52.3% on the drug and by
/// 3.1% on placebo`, `11,2 points … contre 7,9`): the second shares the first's direction.
fn ellipsis(lx: &Lexed, from: usize, to: usize) -> bool {
    let mut conj = false;
    // Content words after the conjunction name a new subject or verb (`, and the cabin took
    // 6.5 min`); an ellipsis has none (`and by 3.1% on placebo`, `and £230m in December`).
    let mut content_after = 0;
    for (k, tok) in lx.toks.iter().enumerate().take(to).skip(from + 1) {
        match tok.kind {
            TokKind::Word { flags, folded, .. } => {
                // `and`, or a comparison (`a diminué de 11,2 points … contre 7,9 sous placebo`).
                let versus = matches!(
                    &lx.folded[folded.0 as usize..folded.1 as usize],
                    "vs" | "versus" | "contre" | "contra" | "gegenuber" | "against" | "frente"
                );
                if flags & flag::CONJ != 0 || versus {
                    conj = true;
                    content_after = 0;
                } else if flags & flag::STOP == 0 {
                    content_after += 1;
                    // A content word may name a new direction or subject; only a few words.
                    continue;
                }
            }
            TokKind::Punct(P::Comma) => {}
            TokKind::Punct(_) => return false,
            // A label's number (`… at week 24 and by 3.1%`) is no new quantity.
            TokKind::Num(id) => {
                let labelled = matches!(lx.toks.get(k.wrapping_sub(1)).map(|x| x.kind),
                    Some(TokKind::Word { flags, .. }) if flags & (flag::WEEK | flag::REF | flag::QUARTER) != 0);
                if lx.nums[id as usize].form == Form::Number && !labelled {
                    return false;
                }
            }
        }
    }
    conj && content_after == 0 && to - from <= 12
}

/// Whether number `to` is the next item of a list after `from`: a conjunction, then at most a
/// few words (its noun), no other number or stop between.
fn item_after(lx: &Lexed, from: usize, to: usize) -> bool {
    let between = &lx.toks[from + 1..to];
    to - from <= 8
        && between
            .iter()
            .any(|x| matches!(x.kind, TokKind::Word { flags, .. } if flags & flag::CONJ != 0))
        && between
            .iter()
            .all(|x| matches!(x.kind, TokKind::Word { .. } | TokKind::Punct(P::Comma)))
}

/// The token before number `t` and its opening parentheses (the parenthesis itself may be a
/// token of its own), if any.
fn before_parens(lx: &Lexed, t: usize) -> Option<usize> {
    let mut k = t;
    while k > 0 && matches!(lx.toks[k - 1].kind, TokKind::Punct(P::Open)) {
        k -= 1;
    }
    k.checked_sub(1)
}

/// A number after a label's separator (`Net loss: (2,904)`): accounting's parentheses apply.
fn after_label(lx: &Lexed, t: usize) -> bool {
    // (or first in its region: the value of a list item or a cell)
    before_parens(lx, t).is_none_or(|p| {
        matches!(
            lx.toks[p].kind,
            TokKind::Punct(P::Colon | P::Dash | P::Eq | P::Tab | P::Pipe)
        )
    })
}

/// A number right after a year that labels it in a list's value (`2023 1,420; 2024
/// (2,317)`): accounting's parentheses apply.
fn after_year(lx: &Lexed, t: usize) -> bool {
    before_parens(lx, t).is_some_and(
        |p| matches!(lx.toks[p].kind, TokKind::Num(id) if lx.nums[id as usize].year_shaped),
    )
}

/// A statement's line: a label and a number in parentheses ending its line (`Operating result
/// (17,317)`, `Saldo (130.600)`), among lines of a label and a bare number (`Revenue
/// 1,284,600`). The neighbour decides: a list whose every value is in parentheses (`Sites (12)`)
/// is a list of asides, not of losses.
fn statement_line(lx: &Lexed, t: usize) -> bool {
    const LABEL_WORDS: usize = 12;
    const NEIGHBOURS: usize = 16;
    let toks = &lx.toks;
    let is_line = |k: usize| matches!(toks[k].kind, TokKind::Punct(P::Line));
    // The line of a number in shape — a short label, the number, nothing after it but a closing
    // parenthesis — as (the index of the line break before it, the one after it). Every scan
    // is bounded by a label's length or stops at the first token out of shape, so the check
    // stays linear however long a line is.
    let shape = |num: usize| -> Option<(Option<usize>, Option<usize>)> {
        let mut words = 0;
        let mut k = num;
        while k > 0 && !is_line(k - 1) {
            k -= 1;
            match toks[k].kind {
                TokKind::Word { .. } if words < LABEL_WORDS => words += 1,
                TokKind::Punct(P::Open) if k + 1 == num => {}
                // `Investment return, net  (318)`.
                TokKind::Punct(P::Comma) if words < LABEL_WORDS => {}
                _ => return None,
            }
        }
        if words == 0 {
            return None;
        }
        let mut e = num + 1;
        while e < toks.len() && !is_line(e) {
            if !matches!(toks[e].kind, TokKind::Punct(P::Close)) {
                return None;
            }
            e += 1;
        }
        Some((k.checked_sub(1), (e < toks.len()).then_some(e)))
    };
    let bare = |k: usize| match toks[k].kind {
        TokKind::Num(id) => {
            let n = &lx.nums[id as usize];
            (!n.paren && n.sign == Sign::None && !n.year_shaped).then_some(())
        }
        _ => None,
    };
    let Some((mut up, mut down)) = shape(t) else {
        return false;
    };
    for _ in 0..NEIGHBOURS {
        // The line above: its number is its last token, or the one before a parenthesis.
        if let Some(brk) = up.take() {
            let last = (brk.saturating_sub(2)..brk)
                .rev()
                .find(|&k| matches!(toks[k].kind, TokKind::Num(_)));
            if let Some(k) = last {
                if let Some((u, _)) = shape(k) {
                    if bare(k).is_some() {
                        return true;
                    }
                    up = u;
                }
            }
        }
        // The line below: its number comes after its label's words.
        if let Some(brk) = down.take() {
            let first = (brk + 1..toks.len().min(brk + 2 + LABEL_WORDS + 1))
                .find(|&k| !matches!(toks[k].kind, TokKind::Word { .. } | TokKind::Punct(P::Open)));
            if let Some(k) = first.filter(|&k| matches!(toks[k].kind, TokKind::Num(_))) {
                if let Some((_, d)) = shape(k) {
                    if bare(k).is_some() {
                        return true;
                    }
                    down = d;
                }
            }
        }
    }
    false
}

/// Whether a statement's line names a result, a balance or a change, whose parentheses are a
/// true minus (`Operating result (412)`, `Net finance income/(cost) (38)`, `Saldo`), not an
/// outflow's presentation.
fn result_label(text: &str) -> bool {
    const RESULTS: &[&str] = &[
        "result",
        "net",
        "income",
        "profit",
        "loss",
        "surplus",
        "deficit",
        "ebit",
        "ebitda",
        "margin",
        "balance",
        "change",
        "variance",
        "total",
        "resultado",
        "lucro",
        "prejuizo",
        "saldo",
        "variacao",
        "variacion",
        "neto",
        "liquido",
        "ergebnis",
        "uberschuss",
        "fehlbetrag",
        "gewinn",
        "verlust",
        "resultat",
        "solde",
        "benefice",
        "perte",
        "flow",
        "cash",
        "equity",
        "growth",
        "return",
    ];
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| {
            let w = words::fold(w);
            RESULTS
                .iter()
                .any(|r| *r == w || w.starts_with(r) && r.len() >= 5)
        })
}

/// Drops from the first `structural` bindings (a line's or a section's labels) the years that
/// a year bound in the number's own clause (weight 1) replaces.
fn own_year_over_label(all: &mut [Bind], structural: usize) {
    let structural = structural.min(all.len());
    // (Most labels name no year: nothing to replace, nothing collected.)
    let year = |b: &Bind| b.atoms.iter().any(|a| a.starts_with("y:"));
    if !all[..structural].iter().any(year) || !all[structural..].iter().any(year) {
        return;
    }
    let own: Vec<Atom> = all[structural..]
        .iter()
        .filter(|b| b.weight >= 1.0)
        .flat_map(|b| b.atoms.iter().filter(|a| a.starts_with("y:")).cloned())
        .collect();
    if own.is_empty() {
        return;
    }
    for b in all[..structural].iter_mut() {
        if b.atoms
            .iter()
            .any(|a| a.starts_with("y:") && !own.contains(a))
        {
            let kept: Vec<Atom> = b
                .atoms
                .iter()
                .filter(|a| !a.starts_with("y:") || own.contains(a))
                .cloned()
                .collect();
            b.atoms = kept.into();
        }
    }
}

/// Whether a column's header names a count or an age: a few words, one of them a counted noun
/// that is no unit (`Volumes`, `Employees`, `Pedidos`, `Alter`).
fn count_header(head: &str) -> bool {
    const COUNTS: &[&str] = &[
        "volumes",
        "nombre",
        "nb",
        "quantite",
        "quantites",
        "qty",
        "quantity",
        "anzahl",
        "menge",
        "cantidad",
        "numero",
        "count",
        "crew",
        "age",
        "alter",
        "edad",
        "idade",
        "headcount",
    ];
    let raw: Vec<&str> = head
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    raw.len() <= 3
        && raw.iter().any(|raw| {
            let w = words::fold(raw);
            COUNTS.contains(&&*w)
                || words::flags(&w) & flag::COUNT != 0
                    && words::unit_word(&w).is_none()
                    // (English `salaries` is money; French `salariés` counts people.)
                    && !raw.eq_ignore_ascii_case("salaries")
        })
}

/// Whether the words of a number's line before it name an outflow (`Grants paid to national
/// genebanks  (640)`, `| Staff costs | −488 |`), within a label's length.
fn cost_line(lx: &Lexed, t: usize) -> bool {
    lx.toks[t.saturating_sub(16)..t]
        .iter()
        .rev()
        .take_while(|x| !matches!(x.kind, TokKind::Punct(P::Line | P::Stop | P::Semi)))
        .any(|x| matches!(x.kind, TokKind::Word { flags, .. } if flags & flag::COST != 0))
}

/// The word after a hyphenated compound that starts `rest` (` on-call hours` → `hours`), if
/// the compound is there. Bounded: a compound of a few short parts.
fn after_compound(rest: &str) -> Option<&str> {
    let rest = rest.strip_prefix(' ')?;
    let word_len = |s: &str| s.find(|c: char| !c.is_alphabetic()).unwrap_or(s.len());
    let mut at = word_len(rest);
    let mut parts = 0;
    while parts < 4 && at > 0 && rest[at..].starts_with('-') {
        let next = word_len(&rest[at + 1..]);
        // (A verb and its pronoun is no modifier: `registrou-se horas`.)
        let part = &rest[at + 1..at + 1 + next];
        if next == 0
            || matches!(
                part,
                "se" | "lo"
                    | "la"
                    | "los"
                    | "las"
                    | "le"
                    | "les"
                    | "nos"
                    | "me"
                    | "te"
                    | "lhe"
                    | "lhes"
                    | "o"
                    | "a"
                    | "os"
                    | "as"
                    | "il"
                    | "elle"
                    | "on"
                    | "vous"
            )
        {
            return None;
        }
        at += 1 + next;
        parts += 1;
    }
    if parts == 0 {
        return None;
    }
    let tail = rest[at..].strip_prefix(' ')?;
    let w = &tail[..word_len(tail)];
    (!w.is_empty()).then_some(w)
}

/// Whether a noun phrase's preposition leads to number `k` (`rate of $195`, `taxa de 4,2 %`).
/// (`out of 860` is a base, not a phrase's.)
fn leads_to(lx: &Lexed, k: usize) -> bool {
    k > 0
        && matches!(
            word_at(lx, k - 1),
            Some("of" | "de" | "da" | "do" | "du" | "des" | "del" | "von" | "di" | "at" | "a")
        )
        && !(k > 1 && word_at(lx, k - 2) == Some("out"))
}

/// Whether number `t`, after a period's noun, opens a range of them: `and`, `to`, `y`, `a`,
/// `bis`, `à`, `au`, `–` and another plain number.
fn period_range(lx: &Lexed, t: usize) -> bool {
    let toks = &lx.toks;
    // (A year is the period's own year, `Quartal 2024 — 0.047`; a dash joins a range only
    // glued, `10–12`: with blanks it separates a label from its value.)
    if matches!(toks.get(t).map(|x| x.kind), Some(TokKind::Num(id)) if lx.nums[id as usize].year_shaped)
    {
        return false;
    }
    let joined = match toks.get(t + 1).map(|x| x.kind) {
        Some(TokKind::Word { folded, .. }) => matches!(
            &lx.folded[folded.0 as usize..folded.1 as usize],
            "and" | "to" | "y" | "a" | "e" | "et" | "und" | "bis" | "au" | "al" | "hasta" | "ate"
        ),
        Some(TokKind::Punct(P::Dash)) => {
            toks[t + 1].span.start == toks[t].span.end
                && toks
                    .get(t + 2)
                    .is_some_and(|x| x.span.start == toks[t + 1].span.end)
        }
        _ => false,
    };
    joined
        && matches!(lx.toks.get(t + 2).map(|x| x.kind), Some(TokKind::Num(id))
        if lx.nums[id as usize].form == Form::Number && lx.nums[id as usize].unit.is_none())
}

/// Whether `from` at `k` names a source, not a base: a noun follows it (`$538,900 from
/// concessions`), not a number, a period or an article's period (`from 2023`, `from Q2`, `from
/// the previous year`).
fn source_after(lx: &Lexed, k: usize) -> bool {
    // (An article may stand between: `from the shop`.)
    let article = matches!(lx.toks.get(k + 1).map(|x| x.kind), Some(TokKind::Word { folded, .. })
        if matches!(&lx.folded[folded.0 as usize..folded.1 as usize], "the" | "its" | "their"));
    let k = if article { k + 1 } else { k };
    match lx.toks.get(k + 1).map(|x| x.kind) {
        Some(TokKind::Word { flags, folded, .. }) => {
            let w = &lx.folded[folded.0 as usize..folded.1 as usize];
            flags & (flag::STOP | flag::WEEK | flag::QUARTER | flag::YEAR_WORD) == 0
                && words::month(w).is_none()
                && !matches!(w, "last" | "previous" | "prior")
        }
        _ => false,
    }
}

/// The parenthesis opened right after number `t` (`9% (canastra)`), as a range of tokens;
/// empty when there is none. Bounded: an aside of a few words.
fn own_paren(toks: &[lex::Tok], t: usize) -> Range<usize> {
    let is_num = toks
        .get(t)
        .is_some_and(|x| matches!(x.kind, TokKind::Num(_)));
    if !is_num
        || !matches!(
            toks.get(t + 1).map(|x| x.kind),
            Some(TokKind::Punct(P::Open))
        )
    {
        return 0..0;
    }
    match (t + 2..toks.len().min(t + 14))
        .find(|&k| matches!(toks[k].kind, TokKind::Punct(P::Close | P::Open)))
    {
        Some(k) if matches!(toks[k].kind, TokKind::Punct(P::Close)) => t + 1..k + 1,
        _ => 0..0,
    }
}

/// The direction a German separable verb gives the number at `t`: its stem before the number
/// (`ging`, `nahm`, `stieg`, within a few words) and its particle at the clause's end
/// (`zurück`, `ab`, `zu`, `an`). Both scans are bounded.
fn separable_direction(lx: &Lexed, t: usize) -> Option<Polarity> {
    let toks = &lx.toks;
    // (The level it went to is no change: `auf 3,4 Mio.`.)
    if t > 0
        && matches!(toks[t - 1].kind, TokKind::Word { flags, .. } if flags & flag::LEVEL_PREP != 0)
    {
        return None;
    }
    let stem = toks[t.saturating_sub(8)..t]
        .iter()
        .enumerate()
        .rev()
        .take_while(|(_, x)| {
            !matches!(
                x.kind,
                TokKind::Punct(P::Stop | P::Semi | P::Line | P::Comma)
            )
        })
        .find_map(|(i, _)| {
            let w = word_at(lx, t.saturating_sub(8) + i)?;
            ["ging", "geh", "nahm", "nimmt", "nehm", "stieg", "steig"]
                .iter()
                .find(|s| w.starts_with(*s))
                .copied()
        })?;
    let end = (t + 1..toks.len().min(t + 16))
        .take_while(|&k| {
            !matches!(
                toks[k].kind,
                TokKind::Punct(P::Stop | P::Semi | P::Line | P::Comma)
            )
        })
        .last()?;
    match (stem, word_at(lx, end)?) {
        ("ging" | "geh", "zuruck") | ("nahm" | "nimmt" | "nehm", "ab") => Some(Polarity::MinusWord),
        ("nahm" | "nimmt" | "nehm", "zu") | ("stieg" | "steig", "an") => Some(Polarity::Plus),
        _ => None,
    }
}

/// Whether the word at `k` is joined to a content word by `and` or `/` (`revenue and losses`,
/// `profit/loss`).
fn paired_noun(lx: &Lexed, k: usize) -> bool {
    let toks = &lx.toks;
    let joiner = |j: usize| match toks[j].kind {
        TokKind::Word { flags, .. } => flags & flag::CONJ != 0,
        TokKind::Punct(P::Slash) => true,
        _ => false,
    };
    let content =
        |j: usize| matches!(toks[j].kind, TokKind::Word { flags, .. } if flags & flag::STOP == 0);
    k >= 2 && joiner(k - 1) && content(k - 2)
        || k + 2 < toks.len() && joiner(k + 1) && content(k + 2)
}

/// The direction the words around a number give it: a direction word in its clause within six
/// words before (unless a level's preposition stands between: `fell to 3.1%` states a level), or
/// right after it (`$340,000 loss`).
fn direction(lx: &Lexed, t: usize) -> Polarity {
    let toks = &lx.toks;
    // `bajó de 58,90 a 41,30 €/MWh`, `fell from 12 to 9`: the first of two levels; not a
    // change to a level (`sinkt um 2,91 % auf CHF 2'184`, `a baissé de 2,6 % à 44,1 ct/kg`).
    let unit_of = |k: usize| match toks.get(k).map(|x| x.kind) {
        Some(TokKind::Num(id)) => Some(lx.nums[id as usize].unit),
        _ => None,
    };
    // (Without `from`, the first is the change: `fell 2.4 min to 11.6 min`.)
    let from_before = t > 0
        && matches!(toks[t - 1].kind, TokKind::Word { folded, .. }
            if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                "from" | "de" | "von" | "desde" | "da" | "du" | "des" | "del" | "do"));
    let to_level = matches!(toks.get(t + 1).map(|x| x.kind),
        Some(TokKind::Word { flags, .. }) if flags & flag::LEVEL_PREP != 0)
        && from_before
        && unit_of(t + 2)
            .is_some_and(|next| unit_of(t).flatten() != Some("%") || next == Some("%"));
    if to_level {
        return Polarity::Neutral;
    }
    // A duration something happened in or over is no change (`35 cm of new snow fell in 24
    // hours`, `prices dropped 12% over 6 months`): the verb's direction is the other number's.
    let window = duration_at(lx, t)
        && t.checked_sub(1)
            .and_then(|k| word_at(lx, k))
            .is_some_and(|w| {
                WINDOW_PREPS.contains(&w)
                    || matches!(w, "in" | "em" | "en" | "within" | "innerhalb")
            });
    if window {
        return Polarity::Neutral;
    }
    match words_direction(lx, t) {
        // Rain and snow fall without falling (`Caíram 58 mm de chuva`, `Es fielen 35 cm
        // Schnee`). (Asked only of a fall, not of every number.)
        Polarity::MinusWord if precipitation_falls(lx, t) => Polarity::Neutral,
        p => p,
    }
}

/// [`direction`] from the words before and after the number.
fn words_direction(lx: &Lexed, t: usize) -> Polarity {
    let toks = &lx.toks;
    let unit_of = |k: usize| match toks.get(k).map(|x| x.kind) {
        Some(TokKind::Num(id)) => Some(lx.nums[id as usize].unit),
        _ => None,
    };
    let mut k = t;
    let mut words_seen = 0;
    let mut level = false;
    let mut reached = false;
    let mut von = false;
    while k > 0 && words_seen < 6 {
        k -= 1;
        match toks[k].kind {
            // A label's colon right before the number: the label says (`Jahresfehlbetrag
            // 2023: 4,6 Mio. EUR`).
            TokKind::Punct(P::Colon) if k + 1 == t => {}
            TokKind::Punct(
                P::Stop | P::Semi | P::Line | P::Comma | P::Colon | P::Pipe | P::Tab,
            ) => break,
            // A name's or a date's digits (`HbA1c`, `week 12`) do not stop the reading.
            TokKind::Num(id) if lx.nums[id as usize].form != Form::Number => {}
            TokKind::Num(_) => break,
            TokKind::Punct(_) => {}
            TokKind::Word {
                flags, folded, cap, ..
            } => {
                // Content words only: `redução média da pressão sistólica foi de 22,7`.
                if flags & flag::STOP == 0 {
                    words_seen += 1;
                }
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                if w == "von" {
                    von = true;
                    continue;
                }
                // A comparison's base takes no direction of the change compared (`uma queda
                // forte em relação às 1.987.400 de 2019`).
                // (Not `over` and `than`, which bound a change: `fell by over 4%`, `rose more
                // than 3%`.)
                // (Its own noun right after it still signs it: `after a $202 thousand deficit
                // the year before`.)
                if words::comparison_word(w) && !matches!(w, "over" | "than") && k + 3 >= t {
                    return match toks.get(t + 1).map(|x| x.kind) {
                        Some(TokKind::Word { flags, .. }) if flags & flag::NEG != 0 => {
                            Polarity::MinusWord
                        }
                        Some(TokKind::Word { flags, .. }) if flags & flag::POS != 0 => {
                            Polarity::Plus
                        }
                        _ => Polarity::Neutral,
                    };
                }
                // A change's noun before `at` states its size (`the steepest decline of any
                // line at 5.8%`), not a level it reached.
                if w == "at"
                    && (k.saturating_sub(6)..k).any(|j| {
                        word_at(lx, j).is_some_and(|n| {
                            matches!(
                                n,
                                "decline"
                                    | "drop"
                                    | "fall"
                                    | "decrease"
                                    | "reduction"
                                    | "loss"
                                    | "increase"
                                    | "rise"
                                    | "gain"
                                    | "growth"
                            )
                        })
                    })
                {
                    continue;
                }
                // `von` after a German noun is `of` (`Fehlbetrag von 852 Mio.`), after a verb
                // `from` (`sank von 12 auf 9`).
                if von && !cap {
                    level = true;
                }
                if flags & flag::LEVEL_PREP != 0 || matches!(w, "from" | "desde") {
                    level = true;
                    continue;
                }
                // `down` and `up` after another verb are its particle (`put down 1,150 litres`
                // brewed them, `shut down for 46 h`, `set up 12 sites`): no direction.
                if matches!(w, "down" | "up") && phrasal_particle(lx, k) {
                    continue;
                }
                // A participle before its noun names a thing (`falling number`, `rising
                // damp`, `growing season`): no direction.
                // (Not before an adverb: `falling sharply to 4.1%`.)
                if flags & (flag::NEG | flag::POS) != 0
                    && w.ends_with("ing")
                    && word_at(lx, k + 1).is_some_and(|n| {
                        words::flags(n) & (flag::STOP | flag::CONJ) == 0 && !n.ends_with("ly")
                    })
                {
                    continue;
                }
                // A direction paired with another noun names both (`Total revenue and
                // losses`, `gains/losses`, `Gewinn und Verlust`): no direction.
                if flags & (flag::NEG | flag::POS) != 0 && paired_noun(lx, k) {
                    return Polarity::Neutral;
                }
                if flags & (flag::NEG | flag::POS) != 0 {
                    let sign = if flags & flag::NEG != 0 {
                        Polarity::MinusWord
                    } else {
                        Polarity::Plus
                    };
                    if !level || reached {
                        return sign;
                    }
                    // A level a rise reached (`rose to`, `steigerte … auf`): its sign is what
                    // a noun before the rise names (`the net loss rose to`), else a plain
                    // level. (A fall's word may be the level's noun as well: `network losses
                    // stood at 18.2%` is a loss's level.)
                    // A loss's noun (`o prejuízo líquido chegou a R$ 4,1 milhões`) names the
                    // loss the level is, however the evidence signs it; a fall's verb (`fell to
                    // 4.1%`) names a plain level.
                    if sign == Polarity::MinusWord {
                        let loss_noun = [
                            "loss",
                            "deficit",
                            "prejuizo",
                            "perda",
                            "perdida",
                            "perte",
                            "verlust",
                            "fehlbetrag",
                            "defizit",
                            "shortfall",
                        ]
                        .iter()
                        .any(|n| w.starts_with(n));
                        return if loss_noun {
                            Polarity::LossLevel
                        } else {
                            Polarity::Neutral
                        };
                    }
                    reached = true;
                }
            }
        }
    }
    // A German separable verb: its particle ends the clause (`gingen 2024 um 6,1 % auf 3,4
    // Mio. zurück`, `nahm um 3,8 % ab`, `stieg um 5 % an`).
    if let Some(p) = separable_direction(lx, t) {
        return p;
    }
    // Right after: `$340,000 loss`, `3.2% lower`, `de prejuízo`.
    let mut k = t + 1;
    let mut n = 0;
    while k < toks.len() && n < 2 {
        match toks[k].kind {
            TokKind::Word {
                flags, folded, cap, ..
            } => {
                n += 1;
                // `and` starts another quantity's words (`FEC de 15,44 e perdas de 58,6%`); a
                // capitalised word is what it counts (`28.340 Fällen`), not a direction.
                // (`6 Cent zu tief`: what it counts, then `zu tief`, `zu hoch`.)
                if n == 1 && word_at(lx, k + 1) == Some("zu") {
                    match word_at(lx, k + 2) {
                        Some("tief" | "niedrig") => return Polarity::MinusWord,
                        Some("hoch") => return Polarity::Plus,
                        _ => {}
                    }
                }
                // (Save German's `im Minus`, `im Plus`: `lag mit CHF 48'200 im Minus`.)
                let im = k > 0 && word_at(lx, k - 1) == Some("im");
                match &lx.folded[folded.0 as usize..folded.1 as usize] {
                    "minus" if im => return Polarity::MinusWord,
                    "plus" if im => return Polarity::Plus,
                    _ => {}
                }
                if flags & flag::CONJ != 0 || cap {
                    break;
                }
                // A comparative right after the number: `4,3 % weniger als im Vorjahr`.
                match &lx.folded[folded.0 as usize..folded.1 as usize] {
                    "weniger" | "less" | "fewer" | "lower" | "menos" | "moins" | "niedriger" => {
                        return Polarity::MinusWord
                    }
                    // `6 Cent zu tief`, `2 mm zu hoch`.
                    "tief" | "niedrig" if k > 0 && word_at(lx, k - 1) == Some("zu") => {
                        return Polarity::MinusWord
                    }
                    "hoch" if k > 0 && word_at(lx, k - 1) == Some("zu") => return Polarity::Plus,
                    "mehr" | "more" | "higher" | "hoher" | "mas" => return Polarity::Plus,
                    // A percentage against a target (`3.1% below budget`, `1,8 % abaixo da
                    // meta`, `4,2 % unter Plan`); other numbers are not compared so (`12 under
                    // review`).
                    "below" | "under" | "abaixo" | "debajo" | "dessous" | "unter" | "unterhalb"
                        if matches!(unit_of(t).flatten(), Some("%" | "pp" | "pt")) =>
                    {
                        return Polarity::MinusWord
                    }
                    // (Not `over the year`, `over the past decade`: when, not above what.)
                    "above" | "over" | "acima" | "encima" | "dessus" | "uber" | "oberhalb"
                        if matches!(unit_of(t).flatten(), Some("%" | "pp" | "pt"))
                            && !over_a_period(lx, k) =>
                    {
                        return Polarity::Plus
                    }
                    _ => {}
                }
                // A verb with an object is what the number did (`150 mg cut the relapse
                // rate`), not its direction.
                // (Not a loss's or a gain's noun: `a $202 thousand deficit the year before`.)
                let noun = matches!(
                    &lx.folded[folded.0 as usize..folded.1 as usize],
                    "deficit"
                        | "deficits"
                        | "loss"
                        | "losses"
                        | "surplus"
                        | "shortfall"
                        | "profit"
                        | "profits"
                        | "gain"
                        | "gains"
                );
                let object = !noun
                    && matches!(toks.get(k + 1).map(|x| x.kind),
                    Some(TokKind::Word { folded, .. })
                        if matches!(&lx.folded[folded.0 as usize..folded.1 as usize],
                            "the" | "a" | "an" | "its" | "their" | "o" | "os" | "la" | "las" | "el"
                            | "los" | "le" | "les" | "die" | "der" | "das" | "den"));
                if flags & flag::NEG != 0 && !object {
                    return Polarity::MinusWord;
                }
                if flags & flag::POS != 0 && !object {
                    return Polarity::Plus;
                }
                // The things it counts may stand between (`1,240 units lost;`), when the
                // direction word ends the clause; nothing else (`52% water cut`, `25 mg arm
                // lowered HbA1c`).
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                let counted = n == 1
                    && (flags & flag::COUNT != 0 || w.len() > 3 && w.ends_with('s'))
                    && matches!(toks.get(k + 1).map(|x| x.kind),
                        Some(TokKind::Word { flags, .. })
                            if flags & (flag::NEG | flag::POS) != 0)
                    && !matches!(toks.get(k + 2).map(|x| x.kind), Some(TokKind::Word { .. }));
                if flags & flag::STOP == 0 && !counted {
                    break;
                }
            }
            _ => break,
        }
        k += 1;
    }
    // (A direction right after it decides over a level reached: `swung from a $238,000 profit
    // to a $412,000 loss`.)
    if reached {
        return Polarity::Level;
    }
    Polarity::Neutral
}

/// An approximation word or sign right before the number (`about 4,800`, `cerca de 1.200`,
/// `~35,000`).
fn approximate(lx: &Lexed, t: usize, text: &str) -> bool {
    let start = lx.toks[t].span.start;
    let head = text[..start].trim_end();
    if head.ends_with(['~', '≈', '±']) || head.ends_with("c.") || head.ends_with("ca.") {
        return true;
    }
    let mut k = t;
    let mut n = 0;
    while k > 0 && n < 3 {
        k -= 1;
        match lx.toks[k].kind {
            TokKind::Word { flags, folded, .. } => {
                n += 1;
                if flags & flag::APPROX != 0 {
                    return true;
                }
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                if !matches!(
                    w,
                    "de" | "of"
                        | "du"
                        | "d"
                        | "del"
                        | "da"
                        | "do"
                        | "some"
                        | "em"
                        | "por"
                        | "el"
                        | "la"
                        | "the"
                ) {
                    return false;
                }
            }
            TokKind::Punct(_) => {}
            TokKind::Num(_) => return false,
        }
    }
    false
}

/// A street number (`88 Quay Street`, `Rua das Palmeiras, 1.520`, `Bahnhofstrasse 44`,
/// `Calle Mayor 88`) or a postal code right after one (`44, 8001 Zürich`).
/// Small words inside a street's or a place's name (`Rua da Consolação`, `Rue de la Paix`,
/// `Calle del Prado`, `Avenue of the Americas`).
const NAME_PARTICLES: &[&str] = &[
    "de", "da", "do", "das", "dos", "del", "la", "le", "les", "des", "du", "di", "von", "van",
    "der", "of", "the", "y", "e",
];

fn address(lx: &Lexed, t: usize, text: &str, german: bool) -> bool {
    address_at(lx, t, text, german, false)
}

/// [`address`]; `postal` when `t` is a postal code's candidate after a street number (one
/// level: `1, 2, 3, …` is not a chain of addresses).
fn address_at(lx: &Lexed, t: usize, text: &str, german: bool, postal: bool) -> bool {
    let toks = &lx.toks;
    // A street word within three words after the number (`88 Quay Street`); German writes the
    // number after the street, and capitalises every noun (`7.140 Zuschauer Platz`: a count).
    // Before the street, a house number is plain digits (`7.140 Zuschauer Platz` is a count).
    let plain = matches!(toks[t].kind, TokKind::Num(id) if lx.nums[id as usize].plain);
    let mut k = t + 1;
    let mut n = 0;
    // (`12, quai de la Fosse`, `45, rue Oberkampf`: a comma after the number, before a street
    // word of a language that writes it so — not an English one, `12, road tests`.)
    if plain
        && matches!(toks.get(k).map(|x| x.kind), Some(TokKind::Punct(P::Comma)))
        && matches!(toks.get(k + 1).map(|x| x.kind), Some(TokKind::Word { folded, .. })
            if words::is_street_word(&lx.folded[folded.0 as usize..folded.1 as usize])
                && !words::ENGLISH_STREET_WORDS
                    .contains(&&lx.folded[folded.0 as usize..folded.1 as usize]))
    {
        return true;
    }
    while plain && !german && k < toks.len() && n < 3 {
        match toks[k].kind {
            TokKind::Word { flags, cap, .. } => {
                n += 1;
                if flags & flag::STREET != 0 && street_word(lx, k) {
                    return true;
                }
                if !cap {
                    break;
                }
            }
            _ => break,
        }
        k += 1;
    }
    // A street word within four words before it (a comma allowed), the words between being
    // the street's name (`Rua Augusta 1500`, `Rue de la Paix 12`), not a sentence's
    // (`na praça de Itatiba passam 31.240 veículos`: a verb between, a count).
    let mut k = t;
    let mut n = 0;
    while k > 0 && n < 4 {
        k -= 1;
        match toks[k].kind {
            TokKind::Word { flags, cap, .. } => {
                n += 1;
                if flags & flag::STREET != 0 && street_word(lx, k) {
                    // A street word right before the number, with no name between, numbers a
                    // thing (`Route 5`, `Platz 2`); a street's compound name does not need one
                    // (`Bahnhofstrasse 44`).
                    return n > 1 || !bare_street_word(lx, k);
                }
                let w = &text[toks[k].span.clone()];
                if !cap && !w.chars().all(char::is_numeric) && !NAME_PARTICLES.contains(&w) {
                    return false;
                }
            }
            TokKind::Punct(P::Comma) => {}
            // An abbreviation's dot (`Av. Paulista, 1578`, `Str. 12`).
            TokKind::Punct(P::Stop)
                if k > 0
                    && matches!(toks[k - 1].kind, TokKind::Word { flags, .. }
                        if flags & flag::STREET != 0)
                    && text[toks[k - 1].span.end..toks[k].span.start].is_empty() => {}
            TokKind::Num(id) => {
                // `Bahnhofstrasse 44, 8001 Zürich`: a postal code after a street number.
                let prev = &lx.nums[id as usize];
                let gap = text.get(prev.span.end..toks[t].span.start).unwrap_or("x");
                return !postal && gap.trim() == "," && address_at(lx, k, text, german, true);
            }
            _ => return false,
        }
    }
    false
}

/// Whether the street word at token `k` names a street: English ones are common words in
/// lower case (`by the close of 2018`, `the road to 2030`), and name a street capitalised
/// (`Maple Close 4`, `88 Quay Street`); other languages write theirs in lower case too
/// (`na rua Augusta 1500`).
fn street_word(lx: &Lexed, k: usize) -> bool {
    match lx.toks[k].kind {
        TokKind::Word {
            folded, cap, upper, ..
        } => {
            cap || upper
                || !words::ENGLISH_STREET_WORDS
                    .contains(&&lx.folded[folded.0 as usize..folded.1 as usize])
        }
        _ => false,
    }
}

/// Whether the word at token `k` is a street word alone (`Route`, `rua`), not a street's
/// compound name (`Bahnhofstrasse`).
fn bare_street_word(lx: &Lexed, k: usize) -> bool {
    matches!(lx.toks[k].kind, TokKind::Word { folded, .. }
        if words::is_street_word(&lx.folded[folded.0 as usize..folded.1 as usize]))
}

/// Whether a telephone's word ends the text before `at` (blanks, `(`, `:` and `.` between).
fn phone_word_before(text: &str, at: usize) -> bool {
    let before = text
        .get(at.saturating_sub(24)..at)
        .or_else(|| text.get(..at))
        .unwrap_or_default()
        .trim_end_matches([' ', '(', ':', '.', '\t', '\u{a0}']);
    let word = &before[before
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(0, |(i, c)| i + c.len_utf8())..];
    !word.is_empty() && phone_word(&words::fold(word))
}

/// A word that introduces a telephone number (folded).
fn phone_word(w: &str) -> bool {
    matches!(
        w,
        "tel"
            | "tél"
            | "tele"
            | "telefon"
            | "telefono"
            | "telefone"
            | "phone"
            | "fone"
            | "fax"
            | "mobile"
            | "movil"
            | "celular"
            | "cel"
            | "handy"
            | "whatsapp"
            | "ph"
            | "tlf"
    )
}

/// Where a telephone number that starts at token `t` ends (`+351 21 384 2210`).
/// Whether `s` starts with a telephone number in dashed or dotted groups: three or more
/// groups of one to four digits, ten or eleven digits in all, one separator throughout, and
/// nothing glued after it (`1-800-555-0142`; not a date, `2024-03-15`, whose digits are eight).
fn dashed_phone(s: &str) -> bool {
    let b = s.as_bytes();
    let (mut i, mut groups, mut digits, mut sep) = (0, 0, 0, None);
    loop {
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() && i - start < 5 {
            i += 1;
        }
        let len = i - start;
        if len == 0 || len > 4 {
            return false;
        }
        groups += 1;
        digits += len;
        // (A run of more groups is no phone: stop reading it, so a long run stays linear.)
        if groups > 5 || digits > 11 {
            return false;
        }
        match b.get(i) {
            Some(&c @ (b'-' | b'.')) if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                if *sep.get_or_insert(c) != c {
                    return false;
                }
                i += 1;
            }
            next => {
                let glued = next.is_some_and(|c| c.is_ascii_alphanumeric());
                return groups >= 3 && (10..=11).contains(&digits) && !glued;
            }
        }
    }
}

/// Whether a cell is a numeric date and nothing else: three groups of digits joined by one
/// `-`, `/` or `.` (`2025-04-19`, `19/04/2025`, `19.04.25`), the year first or last.
fn date_shape(t: &str) -> bool {
    let Some(sep) = t.bytes().find(|c| matches!(c, b'-' | b'/' | b'.')) else {
        return false;
    };
    let parts: Vec<&str> = t.split(sep as char).collect();
    let digits = |p: &str| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit());
    match parts[..] {
        [a, b, c] if digits(a) && digits(b) && digits(c) => {
            matches!(
                (a.len(), b.len(), c.len()),
                (4, 1..=2, 1..=2) | (1..=2, 1..=2, 2 | 4)
            )
        }
        _ => false,
    }
}

/// The type of a variant numbered by the noun after its number (`5-day`, `de 7 noites`): one
/// per noun, so that a later variant of it replaces an earlier one.
fn variant_type(folded_noun: &str) -> Ty {
    Ty::Ref(hash_str(&stem(folded_noun)) as u32 ^ 0x4879)
}

fn phone_end(lx: &Lexed, t: usize) -> usize {
    // (A telephone number has a few groups: the scan is bounded, so that a run of numbers is
    // read in linear time.)
    const MOST_TOKENS: usize = 12;
    let mut k = t + 1;
    let mut end = k;
    while k < lx.toks.len().min(t + 1 + MOST_TOKENS) {
        let gap = lx.toks[k].span.start - lx.toks[k - 1].span.end;
        match lx.toks[k].kind {
            TokKind::Num(_) if gap <= 2 => end = k + 1,
            // (`+55 (11) 3456-7788`: an area code's parentheses.)
            TokKind::Punct(P::Open | P::Close) if gap <= 1 => {}
            _ => break,
        }
        k += 1;
    }
    end
}

/// What kind of code an identifier is: a quarter (`Q3`, `T3`, `3T24`, `1Q25`), a week (`S14`,
/// `W18`, `KW16`), or a code.
fn code_type(code: &str) -> Ty {
    if quarter_code(code).is_some() {
        return Ty::Quarter;
    }
    if code.len() == 6 && code[..2].eq_ignore_ascii_case("fy") {
        return Ty::Year;
    }
    let mut l = CompactString::default();
    l.extend(
        code.chars()
            .filter(char::is_ascii_alphabetic)
            .map(|c| c.to_ascii_uppercase()),
    );
    if matches!(l.as_str(), "S" | "W" | "KW" | "CW" | "WK") && code.len() <= 5 {
        Ty::Week
    } else {
        Ty::Code
    }
}

/// A quarter written as a code: `Q3`, `T3` (its number), `3T24`, `1Q25` (its number and year).
fn quarter_code(code: &str) -> Option<(u32, Option<u32>)> {
    let b = code.as_bytes();
    let q = |c: u8| (b'1'..=b'4').contains(&c).then(|| u32::from(c - b'0'));
    let mark = |c: u8| matches!(c, b'Q' | b'T' | b'q');
    match b {
        [m, d] if mark(*m) => Some((q(*d)?, None)),
        [d, m, y1, y2] if mark(*m) && y1.is_ascii_digit() && y2.is_ascii_digit() => Some((
            q(*d)?,
            Some(2000 + u32::from(y1 - b'0') * 10 + u32::from(y2 - b'0')),
        )),
        _ => None,
    }
}

/// An identifier's atoms: the code itself (upper case) and, for a quarter or a week, its number
/// (`S16` is week 16 whatever the language calls weeks).
fn code_atoms(code: &str) -> Vec<Atom> {
    // One code however it is joined: `tier-1`, `tier_1` and `tier1`; `W-01` and `W01`.
    let up: CompactString = code
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | '‑' | '+'))
        .flat_map(char::to_uppercase)
        .collect();
    let mut out = vec![format_compact!("c:{up}")];
    if let Some((q, year)) = quarter_code(code) {
        out.push(format_compact!("q:{q}"));
        if let Some(y) = year {
            out.push(format_compact!("y:{y}"));
        }
        return out;
    }
    let digits = &code[code.trim_end_matches(|c: char| c.is_ascii_digit()).len()..];
    if let Ok(n) = digits.parse::<u64>() {
        if code_type(code) == Ty::Week {
            out.push(format_compact!("wk:{n}"));
        }
    }
    // `FY2023`: a year.
    if up.starts_with("FY") && digits.len() == 4 {
        out.push(format_compact!("y:{digits}"));
    }
    out
}

/// A number as a label atom: its canonical value, with its unit.
pub(crate) fn number_atom(frame: &Frame) -> Atom {
    let v = frame.readings.first().magnitude();
    match frame.unit {
        Some(u) => value_atom("n:", v, Some(u)),
        None => value_atom("n:", v, None),
    }
}

/// A condition's atom, signed as a label's is (`at −10 °C` is `n:-1e1|°C`, not 10 °C).
fn condition_atom(num: &Num, v: Decimal, unit: &str) -> Atom {
    if num.sign == Sign::Minus {
        value_atom("n:-", v, Some(unit))
    } else {
        value_atom("n:", v, Some(unit))
    }
}

fn key(d: Decimal) -> Atom {
    value_atom("", d, None)
}

/// `prefix`, the value's canonical digits and exponent, and `|unit` (`n:40000e0|km`), written by
/// hand: every number of a text becomes one, and `format!` cost a tenth of indexing.
fn value_atom(prefix: &str, d: Decimal, unit: Option<&str>) -> Atom {
    let (m, e) = d.magnitude().canonical();
    let mut out = Atom::new(prefix);
    out.push_str(itoa::Buffer::new().format(m));
    out.push('e');
    out.push_str(itoa::Buffer::new().format(e));
    if let Some(u) = unit {
        out.push('|');
        out.push_str(u);
    }
    out
}

fn plain_value(d: Decimal) -> String {
    d.magnitude().plain()
}

/// A word as an atom: folded and stemmed (`Escritórios` → `w:escrit`), a capital letter or a
/// short all-capitals code as a code (`c:B`, `c:MT`); nothing for a lone small letter.
/// The atom a name's word is as a label holds it (`w:kestre`).
pub(crate) fn name_word_atom(name: &str) -> Option<Atom> {
    word_atom(name, name)
}

fn word_atom(folded: &str, raw: &str) -> Option<Atom> {
    // A day of the week in any language is one label (`terça-feira` and a column `Ter`).
    if let Some(d) = words::weekday(folded) {
        return Some(format_compact!("wd:{d}"));
    }
    // A statistic in any language and spelling is one word (`largest` and `max_claim_usd`,
    // `averaged` and `producao_media`).
    if let Some(s) = words::statistic(folded) {
        return Some(format_compact!("{STATISTIC}{s}"));
    }
    // A scale, a currency or the word `year` says how a number is written or what kind of
    // label follows, not whose it is (`Budget balance (USD millions)`, `im Jahr 2023`).
    if words::flags(folded) & flag::YEAR_WORD != 0
        || words::scale_word_folded(folded).is_some()
        // (`Real` is also what was spent or done, beside `Presupuesto`, `Planejado`: a word.)
        || folded != "real" && words::currency_word_folded(raw, folded).is_some()
    {
        return None;
    }
    let n = raw.chars().count();
    if n == 1 {
        return raw
            .chars()
            .next()
            .filter(|c| c.is_uppercase())
            .map(|c| format_compact!("c:{c}"));
    }
    if n <= 4
        && raw
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
    {
        return Some(format_compact!("c:{raw}"));
    }
    // (Written by hand: every word of a label becomes one.)
    let mut atom = CompactString::const_new("w:");
    atom.push_str(&stem(folded));
    Some(atom)
}

/// A folded word's stem: a plural's `s` dropped, then its first six letters
/// (`liquidado`/`liquidou` → `liquid`, `outbound` → `outbou`).
pub(crate) fn stem(folded: &str) -> CompactString {
    let w = if folded.len() > 3 && folded.ends_with('s') && !folded.ends_with("ss") {
        &folded[..folded.len() - 1]
    } else {
        folded
    };
    // English inflections: `scored` and `score`, `reached` and `reach`; the noun of a verb
    // (`renewal` and `renewed`, `arrival` and `arrived`).
    let w = if w.len() > 5 && w.ends_with("ed") {
        &w[..w.len() - 2]
    } else if w.len() > 6 && (w.ends_with("ing") || w.ends_with("val") || w.ends_with("wal")) {
        &w[..w.len() - if w.ends_with("ing") { 3 } else { 2 }]
    } else {
        w
    };
    let w = if w.len() > 4 && w.ends_with('e') {
        &w[..w.len() - 1]
    } else {
        w
    };
    // (Its first six characters, cut once rather than pushed one by one.)
    let six = w.char_indices().nth(6).map_or(w.len(), |(i, _)| i);
    let s = &w[..six];
    match concept(s) {
        Some(c) => CompactString::const_new(c),
        None => CompactString::from(s),
    }
}

/// The concept a stem names in any of the languages read, for the few a report's figures are
/// most often labelled by: an answer in Portuguese about an English statement (`prejuízo
/// líquido` and `Net loss`, `caixa` and `Cash`) names the same label.
fn concept(stem: &str) -> Option<&'static str> {
    Some(match stem {
        "loss" | "prejui" | "perda" | "perdid" | "pert" | "verlus" | "fehlbe" | "negati" => "loss",
        "revenu" | "receit" | "ingres" | "recett" | "umsatz" => "revenu",
        "profit" | "lucro" | "benefi" | "gewinn" => "profit",
        "cash" | "caixa" | "tresor" => "cash",
        "net" | "liquid" | "neto" | "netto" => "net",
        "cost" | "custo" | "cout" | "coste" | "costo" | "koste" => "cost",
        "sale" | "venda" | "venta" | "vent" | "verkau" => "sale",
        "price" | "preco" | "precio" | "prix" | "preis" => "price",
        "harves" | "colhei" | "cosech" | "recolt" | "ernt" => "harves",
        _ => return None,
    })
}

/// The atoms of a label's text (a table cell, a header, a list label, a JSON key or string):
/// its words, codes, years, dates, months and numbers (with `unit` for a bare number, as a
/// column states it).
fn label_atoms(text: &str, doc: &Doc, unit: Option<Option<&'static str>>) -> Vec<Atom> {
    let mut out = Vec::new();
    if text.trim().is_empty() {
        return out;
    }
    // A header written as a key (`entries_exits_2024_thousands`) is its words and its year,
    // not one code.
    let spaced;
    let text = if !text.contains(' ')
        && text
            .split('_')
            .skip(1)
            .any(|part| year_text(part).is_some())
    {
        spaced = text.replace('_', ", ");
        spaced.as_str()
    } else {
        text
    };
    let mut lx = doc.lexed();
    lex::lex(
        text,
        Mode {
            locale: doc.cfg.locale,
            cell: true,
        },
        &mut lx,
    );
    // A label's numbers read as the document's (`100.000` under `Distância (km)` in a text
    // that writes decimal commas).
    doc.settle(&mut lx, text);
    // A label that is a day's abbreviation alone (a column `Seg`, `Di.`, `Tue`).
    if let [tok] = &lx.toks[..] {
        if let TokKind::Word { folded, .. } = tok.kind {
            if let Some(d) = words::weekday_abbrev(&lx.folded[folded.0 as usize..folded.1 as usize])
            {
                return vec![format_compact!("wd:{d}")];
            }
        }
    }
    let dates = month_dates(&lx, doc.order);
    for (_, atoms) in &dates {
        out.extend(atoms.iter().cloned());
    }
    let covered = |t: usize| date_covering(&dates, t).is_some();
    for (t, tok) in lx.toks.iter().enumerate() {
        if covered(t) {
            continue;
        }
        match tok.kind {
            TokKind::Word {
                folded,
                flags,
                cap,
                upper,
            } => {
                let w = &lx.folded[folded.0 as usize..folded.1 as usize];
                let raw = &text[tok.span.clone()];
                if let Some(m) = words::month(w) {
                    out.push(format_compact!("m:{m}"));
                } else if flags & flag::STOP == 0
                    || (cap && raw.len() > 2)
                    || (cap && raw.len() == 1)
                    // (A code in capitals that spells a function word: `DE-EN`, `EN-ES`.)
                    || (upper && raw.len() == 2)
                    || words::statistic(w).is_some()
                    // (A compass point after a name, also a function word: `Monterrey sur`,
                    // `Lyon est`.)
                    || NAME_MODIFIERS.contains(&w)
                        && t > 0
                        && matches!(lx.toks[t - 1].kind, TokKind::Word { cap: true, .. })
                {
                    if let Some(a) = word_atom(w, raw) {
                        out.push(a);
                    }
                }
            }
            TokKind::Num(id) => {
                let n = &lx.nums[id as usize];
                match n.form {
                    Form::Date => out.extend(date_atoms(&text[n.span.clone()], doc.order)),
                    Form::Identifier => out.extend(code_atoms(&text[n.code.clone()])),
                    Form::Ordinal => {
                        if next_word(&lx, t).is_some_and(|w| words::flags(w) & flag::QUARTER != 0) {
                            out.push(format_compact!(
                                "q:{}",
                                n.readings.first().magnitude().plain()
                            ));
                        }
                    }
                    Form::Time | Form::Citation => {}
                    // (Not a base's: `2024 versus 2023` labels 2024's change.)
                    _ if n.year_shaped => {
                        if !after_comparison(&lx, t) {
                            out.push(format_compact!("y:{}", &text[n.digits.clone()]));
                        }
                    }
                    _ => {
                        let v = n.readings.first();
                        let u = n.unit.or(unit.flatten());
                        let signed = if n.sign == Sign::Minus { "-" } else { "" };
                        // `Semana 16`, `Q 3`, `Batch 12`: a week's, a quarter's, a thing's number.
                        let prev = prev_word(&lx, t, text).filter(|(_, _, gap)| *gap);
                        let f = prev.map_or(0, |(_, f, _)| f);
                        // The label's own word decides, not its column's unit (`Week 21` under
                        // a `Week` column is week 21, not 21 weeks).
                        let own = n.unit.is_none();
                        if own && f & flag::WEEK != 0 {
                            out.push(format_compact!("wk:{}", plain_value(v)));
                        } else if own && f & flag::QUARTER != 0 {
                            out.push(format_compact!("q:{}", plain_value(v)));
                        } else if let Some((w, _, _)) = prev.filter(|_| own && f & flag::REF != 0) {
                            out.push(format_compact!("r:{}:{}", stem(w), key(v)));
                        }
                        out.push(match u {
                            Some(u) => format_compact!("n:{signed}{}|{u}", key(v)),
                            None => value_atom("n:", v, None),
                        });
                        // A numbered thing's number also stands alone (`Site 203`).
                        if u.is_some() || !signed.is_empty() {
                            continue;
                        }
                    }
                }
            }
            TokKind::Punct(_) => {}
        }
    }
    out.sort();
    out.dedup();
    doc.done(lx);
    out
}

/// Whether a label says its numbers are negative (`Net loss`, `Fehlbetrag`, `Pérdidas`), not
/// inside parentheses (`Operating income (loss)` is income or loss).
pub(crate) fn direction_outside_parens(text: &str) -> Option<bool> {
    label_sense_words(text).direction
}

/// What a label's words say, read in one pass (each word folded once): its direction outside
/// parentheses, whether it names an outflow, a share.
struct LabelWords {
    direction: Option<bool>,
    outflow: bool,
    share: bool,
    /// The years it moves the year in force by (`Vorjahr`, `prior year`, `année précédente`).
    year_shift: Option<i64>,
}

fn label_sense_words(text: &str) -> LabelWords {
    let mut out = LabelWords {
        direction: None,
        outflow: false,
        share: false,
        year_shift: None,
    };
    let mut depth = 0;
    let mut word = String::new();
    // The word before, for a year's place in two words (`prior year`, `año anterior`).
    let mut prev: (Option<i64>, bool) = (None, false);
    for c in text.chars().chain(std::iter::once(' ')) {
        match c {
            '(' | '[' => {
                depth += 1;
                word.clear();
            }
            ')' | ']' => {
                depth -= 1;
                word.clear();
            }
            c if c.is_alphabetic() => word.push(c),
            _ => {
                if !word.is_empty() {
                    let folded = words::fold(&word);
                    let f = words::flags(&folded);
                    let year = f & flag::YEAR_WORD != 0;
                    let shift = period_shift(&folded).filter(|s| *s != 0);
                    if out.year_shift.is_none() {
                        out.year_shift = year_shift_word(&folded)
                            .or(prev.0.filter(|_| year))
                            .or(shift.filter(|_| prev.1));
                    }
                    prev = (shift, year);
                    if depth == 0 {
                        if f & flag::NEG != 0 {
                            out.direction = Some(true);
                        } else if f & flag::POS != 0 && out.direction.is_none() {
                            out.direction = Some(false);
                        }
                    }
                    if word.len() > 3 {
                        // (A German compound ends in its noun: `Personalaufwand`.)
                        out.outflow |= f & flag::COST != 0
                            || ["aufwand", "kosten", "ausgaben"]
                                .iter()
                                .any(|n| folded.len() > n.len() + 3 && folded.ends_with(n));
                        out.share |= f & flag::SHARE != 0;
                    }
                }
                word.clear();
            }
        }
    }
    out
}

/// A cell that is a unit alone (`€/MWh`, `kg`, `USD`), as the spec it gives a number.
fn unit_cell(cell: &str) -> Option<Spec> {
    if cell.is_empty() || cell.len() > 16 || cell.bytes().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let probe = format_compact!("1 {cell}");
    let mut lx = Lexed::default();
    lex::lex(
        &probe,
        Mode {
            locale: Locale::Auto,
            cell: true,
        },
        &mut lx,
    );
    let num = lx.nums.first()?;
    if num.span.end < probe.trim_end().len() {
        return None;
    }
    let unit = num.unit?;
    let currency = words::currency_word(unit).is_some() || unit == "$";
    Some(Spec {
        currency: currency.then_some(unit),
        scale: 0,
        unit: (!currency).then_some(unit),
        per: None,
    })
}

fn has_unit(cell: &str) -> bool {
    let mut lx = Lexed::default();
    lex::lex(
        cell,
        Mode {
            locale: Locale::Auto,
            cell: true,
        },
        &mut lx,
    );
    lx.nums.iter().any(|n| n.unit.is_some())
}

/// Dates written with a month's name, as token ranges and atoms: `3 March 2025`, `March 3,
/// 2025`, `3 de março de 2025`, `3. März 2025`, `le 3 mars`, `março/2025`, `March 2025`.
/// What [`Doc::scope_binds`] reads of a block besides its tokens: its month-named dates, and
/// running counts of its tokens.
struct Marks<'m> {
    dates: &'m [(Range<usize>, Vec<Atom>)],
    counts: &'m TokCounts,
}

/// Running counts over a block's tokens, so that the words between two tokens are counted in
/// one step: a count by walking is quadratic over a long clause of numbers.
struct TokCounts {
    /// Before each token (and at the end): words; words and numbers; content words (not stop
    /// words); opening parentheses; semicolons.
    before: Vec<[u32; 5]>,
}

impl TokCounts {
    fn new(lx: &Lexed) -> Self {
        let mut before = Vec::with_capacity(lx.toks.len() + 1);
        let mut c = [0u32; 5];
        before.push(c);
        for tok in &lx.toks {
            match tok.kind {
                TokKind::Word { flags, .. } => {
                    c[0] += 1;
                    c[1] += 1;
                    c[2] += u32::from(flags & flag::STOP == 0);
                }
                TokKind::Num(_) => c[1] += 1,
                TokKind::Punct(P::Open) => c[3] += 1,
                TokKind::Punct(P::Semi) => c[4] += 1,
                TokKind::Punct(_) => {}
            }
            before.push(c);
        }
        TokCounts { before }
    }

    fn count(&self, r: Range<usize>, which: usize) -> usize {
        let at = |i: usize| self.before[i.min(self.before.len() - 1)][which];
        if r.start >= r.end {
            return 0;
        }
        (at(r.end) - at(r.start)) as usize
    }

    fn words(&self, r: Range<usize>) -> usize {
        self.count(r, 0)
    }

    fn words_and_numbers(&self, r: Range<usize>) -> usize {
        self.count(r, 1)
    }

    fn content_words(&self, r: Range<usize>) -> usize {
        self.count(r, 2)
    }

    fn opens(&self, r: Range<usize>) -> usize {
        self.count(r, 3)
    }

    fn semicolons(&self, r: Range<usize>) -> usize {
        self.count(r, 4)
    }
}

/// The month-named date covering token `t`: [`month_dates`] gives them in order and apart, so
/// a binary search finds it (a scan per token is quadratic on a log of dates).
fn date_covering(
    dates: &[(Range<usize>, Vec<Atom>)],
    t: usize,
) -> Option<&(Range<usize>, Vec<Atom>)> {
    let i = dates.partition_point(|(r, _)| r.end <= t);
    dates.get(i).filter(|(r, _)| r.contains(&t))
}

fn month_dates(lx: &Lexed, order: DateOrder) -> Vec<(Range<usize>, Vec<Atom>)> {
    let toks = &lx.toks;
    let mut out = Vec::new();
    let num_at = |k: usize| -> Option<(u64, bool)> {
        let TokKind::Num(id) = toks.get(k)?.kind else {
            return None;
        };
        let n = &lx.nums[id as usize];
        if !(n.plain || n.form == Form::Ordinal) || n.unit.is_some() {
            return None;
        }
        let v = n.readings.first();
        (v.exp == 0 && v.mant >= 0).then_some((v.mant as u64, n.year_shaped))
    };
    let month_at = |k: usize| -> Option<u8> {
        let TokKind::Word { folded, flags, .. } = toks.get(k)?.kind else {
            return None;
        };
        if flags & flag::NOT_MONTH != 0 {
            return None;
        }
        let w = &lx.folded[folded.0 as usize..folded.1 as usize];
        // In English, `out`, `set` and `ago` are words (`Route 5 out of Northgate`, `2 years
        // ago`), not October, September and August.
        if order == DateOrder::MonthFirst && matches!(w, "out" | "set" | "ago") {
            return None;
        }
        words::month_abbrev(w)
    };
    let glue = |k: usize| -> bool {
        matches!(toks.get(k).map(|t| t.kind), Some(TokKind::Word { folded, .. }) if matches!(&lx.folded[folded.0 as usize..folded.1 as usize], "de" | "of" | "del"))
            || matches!(
                toks.get(k).map(|t| t.kind),
                Some(TokKind::Punct(P::Comma | P::Slash | P::Stop))
            )
    };
    let mut k = 0;
    // Where the last date ended: a day is not shared by two (`March 3 April`).
    let mut taken = 0;
    while k < toks.len() {
        let Some(m) = month_at(k) else {
            k += 1;
            continue;
        };
        // A day before: `3 March`, `3 de março`, `3. März`, `1º de fevereiro`.
        let mut start = k;
        let mut day = None;
        let mut b = k;
        if b > 0 && glue(b - 1) {
            b -= 1;
        }
        if b > taken {
            if let Some((d, false)) = num_at(b - 1).filter(|(d, _)| (1..=31).contains(d)) {
                day = Some(d);
                start = b - 1;
            }
        }
        // After: a day (`March 3, 2025`) and a year.
        let mut end = k + 1;
        let mut a = k + 1;
        if day.is_none() {
            if let Some((d, false)) = num_at(a).filter(|(d, _)| (1..=31).contains(d)) {
                day = Some(d);
                a += 1;
                end = a;
            }
        }
        if glue(a) {
            a += 1;
        }
        let mut year = None;
        if let Some((y, true)) = num_at(a) {
            year = Some(y);
            end = a + 1;
        } else if glue(a) {
            if let Some((y, true)) = num_at(a + 1) {
                year = Some(y);
                end = a + 2;
            }
        }
        // A lone abbreviation is not a month (`Mar`, `set`, `out`): only beside a day or a year.
        let full = matches!(toks[k].kind, TokKind::Word { folded, .. } if words::month(&lx.folded[folded.0 as usize..folded.1 as usize]).is_some());
        if day.is_none() && year.is_none() && !full {
            k += 1;
            continue;
        }
        let mut atoms = vec![format_compact!("m:{m}")];
        if let Some(y) = year {
            atoms.push(format_compact!("y:{y}"));
            if let Some(d) = day {
                atoms.push(format_compact!("d:{y:04}-{m:02}-{d:02}"));
                // The reading of a slash date this text's writer would mean.
                if let Some(prefix) = order.reading_prefix() {
                    atoms.push(format_compact!("{prefix}:{y:04}-{m:02}-{d:02}"));
                }
            }
        }
        if let Some(d) = day {
            atoms.push(format_compact!("md:{m:02}-{d:02}"));
        }
        if day.is_some() || year.is_some() {
            out.push((start..end, atoms));
            taken = end;
        }
        k = end.max(k + 1);
    }
    out
}

/// A numeric date's atoms: `d:Y-M-D` (both readings when the day and month could swap and the
/// text does not say its order), `md:M-D`, `y:Y`, `m:M`.
fn date_atoms(s: &str, order: DateOrder) -> Vec<Atom> {
    let parts: Vec<u32> = s
        .split(['-', '/', '.'])
        .filter_map(|p| p.trim().parse().ok())
        .collect();
    let mut out = Vec::new();
    let mut push = |y: u32, m: u32, d: u32, reading: Option<DateOrder>| {
        if (1..=12).contains(&m) && (1..=31).contains(&d) {
            out.push(format_compact!("d:{y:04}-{m:02}-{d:02}"));
            out.push(format_compact!("md:{m:02}-{d:02}"));
            out.push(format_compact!("y:{y}"));
            out.push(format_compact!("m:{m}"));
            if let Some(prefix) = reading.and_then(DateOrder::reading_prefix) {
                out.push(format_compact!("{prefix}:{y:04}-{m:02}-{d:02}"));
            }
        }
    };
    match parts.as_slice() {
        [y, m, d] if *y > 31 => push(*y, *m, *d, None),
        [a, b, y] => {
            let y = if *y < 100 { 2000 + y } else { *y };
            match order {
                _ if *a > 12 => push(y, *b, *a, None),
                _ if *b > 12 => push(y, *a, *b, None),
                DateOrder::DayFirst => push(y, *b, *a, Some(DateOrder::DayFirst)),
                DateOrder::MonthFirst => push(y, *a, *b, Some(DateOrder::MonthFirst)),
                // Both readings, each also as what it is (`dd:` the day-first one, `dm:` the
                // month-first one), for an answer whose language tells which it means.
                DateOrder::Unknown => {
                    push(y, *b, *a, Some(DateOrder::DayFirst));
                    push(y, *a, *b, Some(DateOrder::MonthFirst));
                }
            }
        }
        // A season or a split year (`2023/24`, `2023-24`): its own period.
        [a, b] if (1900..2100).contains(a) && *b < 100 && *b == (a + 1) % 100 => {
            out.push(format_compact!("sn:{a}-{b:02}"));
        }
        // A year and its month (`2024-07`, a monthly record's key).
        [y, m] if (1900..2100).contains(y) && (1..=12).contains(m) && s.contains('-') => {
            out.push(format_compact!("y:{y}"));
            out.push(format_compact!("m:{m}"));
        }
        // A day and a month without a year (`em 25/08`, `le 12/08`).
        [a, b] => {
            let mut day_month = |m: u32, d: u32| {
                if (1..=12).contains(&m) && (1..=31).contains(&d) {
                    out.push(format_compact!("md:{m:02}-{d:02}"));
                    out.push(format_compact!("m:{m}"));
                }
            };
            match order {
                _ if *a > 12 => day_month(*b, *a),
                _ if *b > 12 => day_month(*a, *b),
                DateOrder::MonthFirst => day_month(*a, *b),
                DateOrder::DayFirst => day_month(*b, *a),
                DateOrder::Unknown => {
                    day_month(*b, *a);
                    day_month(*a, *b);
                }
            }
        }
        _ => {}
    }
    out.sort();
    out.dedup();
    out
}

/// How a text orders numeric dates: as it says (`MM/DD/YYYY`, `DD/MM/AAAA`, `JJ/MM`, `TT.MM`),
/// as a date whose first or second part exceeds 12 shows, or as dotted dates are (day first).
fn date_order(text: &str) -> DateOrder {
    for (hint, order) in [
        ("MM/DD", DateOrder::MonthFirst),
        ("mm/dd", DateOrder::MonthFirst),
        // A caption that says whose dates (`Courier log (US dates)`).
        ("US dates", DateOrder::MonthFirst),
        ("U.S. dates", DateOrder::MonthFirst),
        ("US date format", DateOrder::MonthFirst),
        ("month/day/year", DateOrder::MonthFirst),
        ("day/month/year", DateOrder::DayFirst),
        ("DD/MM", DateOrder::DayFirst),
        ("dd/mm", DateOrder::DayFirst),
        ("JJ/MM", DateOrder::DayFirst),
        ("TT.MM", DateOrder::DayFirst),
        ("DD.MM", DateOrder::DayFirst),
    ] {
        if contains(text, hint) {
            return order;
        }
    }
    let b = text.as_bytes();
    // Each separator is a candidate's third byte.
    for sep in memchr::memchr2_iter(b'/', b'.', b) {
        let Some(i) = sep.checked_sub(2).filter(|i| i + 10 <= b.len()) else {
            continue;
        };
        if b[i].is_ascii_digit()
            && b[i + 1].is_ascii_digit()
            && matches!(b[i + 2], b'/' | b'.')
            && b[i + 3].is_ascii_digit()
            && b[i + 4].is_ascii_digit()
            && b[i + 5] == b[i + 2]
            && (i == 0 || !b[i - 1].is_ascii_digit())
        {
            let first = u32::from(b[i] - b'0') * 10 + u32::from(b[i + 1] - b'0');
            let second = u32::from(b[i + 3] - b'0') * 10 + u32::from(b[i + 4] - b'0');
            if b[i + 2] == b'.' || first > 12 {
                return DateOrder::DayFirst;
            }
            if second > 12 {
                return DateOrder::MonthFirst;
            }
        }
    }
    DateOrder::Unknown
}

/// Whether `text` holds `pattern` (a whole document is searched: by `memmem`, not `str::contains`).
fn contains(text: &str, pattern: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), pattern.as_bytes()).is_some()
}

/// Whether `mark` occurs in `text` other than as one amount's own currency: `(all amounts in
/// CAD)`, `Canadian dollars` say what a bare `$` is; `CAD 2,760` and `C$85` beside `$13,960`
/// tell the two apart (a text that writes one dollar's amounts with their code writes the
/// other's bare).
fn names_dollar(text: &str, mark: &str) -> bool {
    memchr::memmem::find_iter(text.as_bytes(), mark.as_bytes()).any(|at| {
        let after = text[at + mark.len()..].trim_start_matches([' ', '\u{a0}']);
        let before = text[..at].trim_end_matches([' ', '\u{a0}']);
        !(after.starts_with(|c: char| c.is_ascii_digit())
            || before.ends_with(|c: char| c.is_ascii_digit()))
    })
}

/// The dollar a bare `$` means in this text: USD, unless the text names one other dollar
/// (`CAD`, `AUD`, …) and no US one.
fn dollar_of(text: &str) -> &'static str {
    if contains(text, "USD")
        || contains(text, "US$")
        || memchr::memchr(b'$', text.as_bytes()).is_none()
    {
        return "USD";
    }
    let mut found = None;
    for (code, marks) in [
        (
            "CAD",
            &["CAD", "C$", "Canadian dollar", "dólares canadienses"][..],
        ),
        ("AUD", &["AUD", "A$", "Australian dollar"][..]),
        ("NZD", &["NZD", "NZ$", "New Zealand dollar"][..]),
        ("MXN", &["MXN", "MX$", "pesos mexicanos"][..]),
        ("HKD", &["HKD", "HK$", "Hong Kong dollar"][..]),
        ("SGD", &["SGD", "S$", "Singapore dollar"][..]),
        ("TWD", &["TWD", "NT$"][..]),
    ] {
        if marks.iter().any(|m| names_dollar(text, m)) {
            if found.is_some() {
                return "USD";
            }
            found = Some(code);
        }
    }
    found.unwrap_or("USD")
}

/// What a text's words say of its language, read once per text.
#[derive(Debug, Clone, Copy)]
struct Language {
    german: bool,
    french: bool,
    /// Votes for decimal commas and for dots ([`language_votes`]; German and French: 3 to 0).
    comma: u32,
    dot: u32,
}

impl Language {
    fn of(text: &str) -> Self {
        let (german, french) = (german(text), french(text));
        let (comma, dot) = if german || french {
            (3, 0)
        } else {
            language_votes(text)
        };
        Language {
            german,
            french,
            comma,
            dot,
        }
    }

    /// How far the text leans to decimal commas (positive) or dots (negative).
    fn lean(self) -> i32 {
        self.comma as i32 - self.dot as i32
    }

    /// The decimal mark the text's language writes, when its numbers do not show it: English
    /// writes a dot; Portuguese, Spanish, French and German a comma (`1.400` is 1400 in
    /// `Ausgaben (Mio. €)`).
    fn decimal(self) -> Option<bool> {
        if self.german || self.french {
            Some(false)
        } else if self.dot >= 3 && self.dot > self.comma * 3 {
            Some(true)
        } else if self.comma >= 2 && self.comma > self.dot * 3 {
            Some(false)
        } else {
            None
        }
    }

    /// An English text, by a few words more than the others' (weaker than [`Self::decimal`]:
    /// enough to order a date's parts).
    fn english(self) -> bool {
        !self.german && !self.french && self.dot >= 1 && self.dot > self.comma
    }
}

/// A text's votes for decimal commas and for dots, by its words: function words of each
/// language, accents, currencies and scale words only one side writes (German and French are
/// told apart before, by [`Language::of`]).
fn language_votes(text: &str) -> (u32, u32) {
    let (mut dot, mut comma, mut accented) = (0u32, 0u32, 0u32);
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphabetic() && c != '$' && c != '€')
        .filter(|w| !w.is_empty())
        .take(600)
        .collect();
    let capital = |w: Option<&&str>| w.is_some_and(|w| w.starts_with(char::is_uppercase));
    for (i, &w) in words.iter().enumerate() {
        // A function word inside a name is the name's language, not the text's (`Herdade do
        // Vale`, `Monte da Serra` in an English report).
        if matches!(
            w,
            "de" | "da" | "do" | "das" | "dos" | "del" | "du" | "des" | "von" | "y"
        ) && i > 0
            && capital(words.get(i - 1))
            && capital(words.get(i + 1))
        {
            continue;
        }
        match w {
            "the" | "and" | "of" | "was" | "were" | "with" | "for" | "to" | "is" | "are"
            | "million" | "billion" | "bn" | "thousand" | "had" | "has" | "on" | "when"
            | "which" | "from" | "by" => dot += 1,
            "de" | "da" | "do" | "em" | "foi" | "que" | "el" | "los" | "las" | "y" | "fue"
            | "le" | "les" | "et" | "des" | "est" | "der" | "die" | "das" | "und" | "mit"
            | "von" | "im" | "mil" | "milliards" | "para" | "en" | "del" | "au" | "du" | "sur"
            | "für" | "bei" | "com" | "dos" | "pelo" | "pela" | "ao" | "uma" => comma += 1,
            // The same opening a sentence, and a few verbs (`Em 05/03/2025 foram curtidas 415
            // peles`).
            "Em" | "No" | "Na" | "En" | "El" | "La" | "Los" | "Las" | "Le" | "Les" | "Die"
            | "Der" | "Das" | "Im" | "foram" | "fueron" | "sont" | "ont" | "wurden" | "teve"
            | "tuvo" => comma += 1,
            // Words only comma-writing languages have.
            "Mio" | "Mrd" | "Tsd" | "milhões" | "bilhões" | "millones" | "reais" | "milhão"
            | "bilhão" => comma += 2,
            // A lower-case word with a Romance accent (`inspeção`, `não`, `según`, `été`), or
            // any word with a letter only Romance languages write (`Devoluções`).
            _ if accented < 4
                && (w.starts_with(char::is_lowercase)
                    && w.contains([
                        'ã', 'õ', 'ç', 'ñ', 'é', 'è', 'ê', 'à', 'â', 'ô', 'ú', 'í', 'ó', 'á',
                    ])
                    || w.contains(['ã', 'õ', 'ç', 'ñ'])) =>
            {
                accented += 1;
                comma += 1;
            }
            _ => {}
        }
    }
    if text.contains("R$") {
        comma += 2;
    }
    // (`k€`, `M€`: French and German writers use them, and English writers in Europe too —
    // `Revenue (k€): 1,104` — a lean, not a language.)
    if text.contains("M€") || text.contains("Md€") || text.contains("k€") {
        comma += 1;
    }
    // French typography: a space before a colon (`11/04/2025 : 1 240 km`).
    if text.contains(" : ") {
        comma += 2;
    }
    // A bare dollar or a pound sign: an English text.
    let b = text.as_bytes();
    let bare_dollar = b
        .iter()
        .enumerate()
        .filter(|&(i, &c)| c == b'$' && (i == 0 || !b[i - 1].is_ascii_alphabetic()))
        .count();
    dot += 3 * (bare_dollar.min(3) + text.matches('£').count().min(3)) as u32;
    (comma, dot)
}

/// Whether a text's first words are more often `ours` than `others` (twice at least).
fn leans_to(text: &str, ours: &[&str], others: &[&str]) -> bool {
    let (mut yes, mut no) = (0, 0);
    for w in text.split(|c: char| !c.is_alphabetic()).take(400) {
        yes += u32::from(ours.contains(&w));
        no += u32::from(others.contains(&w));
    }
    yes >= 2 && yes > no
}

/// Whether a text is Portuguese rather than Spanish: `o` is its article, not `or` (`o caixa
/// fechou o ano em R$ 21,3 milhões` is one clause).
fn portuguese(text: &str) -> bool {
    leans_to(
        text,
        &[
            "o", "do", "da", "em", "no", "na", "uma", "não", "são", "foi", "os", "ao", "pelo",
            "pela", "com",
        ],
        &[
            "el", "del", "en", "los", "las", "una", "y", "fue", "con", "es",
        ],
    )
}

/// Whether a text is French (it groups digits with plain spaces).
fn french(text: &str) -> bool {
    leans_to(
        text,
        &[
            "le", "les", "des", "du", "est", "et", "au", "aux", "sur", "pour", "dans", "une",
            "avec", "été", "à",
        ],
        &[
            "the", "and", "of", "de", "em", "el", "y", "der", "die", "und", "que", "foi", "fue",
            "los", "das",
        ],
    )
}

/// Whether a text is German (its nouns are capitalised: capitals name nothing).
fn german(text: &str) -> bool {
    let mut de = 0;
    let mut other = 0;
    for w in text.split(|c: char| !c.is_alphabetic()).take(400) {
        match w {
            "der" | "die" | "das" | "und" | "mit" | "von" | "im" | "ist" | "wurde" | "wurden"
            | "bei" | "auf" | "für" | "nach" | "einer" | "eine" | "den" | "dem" | "lag" | "des"
            | "zum" | "zur" | "sind" | "hat" | "haben" | "wird" | "auch" | "nicht" | "sich"
            | "über" | "gegenüber" | "je" | "pro" | "gab" | "gibt" | "insgesamt" | "rund"
            | "etwa" | "Im" | "Der" | "Jahr" | "Jahres" | "davon" | "vor" | "sowie" | "beim"
            | "vom" | "zwischen" | "nur" | "noch" => de += 1,
            // A lower-case word with an umlaut or sharp s.
            _ if w.starts_with(char::is_lowercase) && w.contains(['ä', 'ö', 'ü', 'ß']) => {
                de += 1
            }
            "the" | "and" | "of" | "de" | "la" | "le" | "el" | "em" | "do" | "da" | "et" | "y"
            | "was" | "foi" | "fue" | "que" => other += 1,
            _ => {}
        }
    }
    de >= 2 && de > other
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Heading,
    Labelled,
    Prose,
}

/// What a line is: a heading (`# …`, or a short line ending with `:` or holding no number), a
/// labelled line (a label, a separator, then numbers), or prose.
/// A block's first line that names what its list is about (`Gran Teatre del Liceu — La Rambla,
/// 51-59, 08002 Barcelona`, `Brightway Hearing — bookings 1-800-555-0142` over `Aforo: …`
/// lines): a name, a dash and no labelled items, over a line labelled with a colon. A heading:
/// its numbers (an address, a phone, a race's number) label no item of the list.
fn title_line(line: &str, next: Option<&str>) -> bool {
    let dash_label = |t: &str| {
        label_split(t.trim()).filter(|&(end, value)| {
            let sep = &t.trim()[end..value];
            !sep.contains(':') && !sep.contains('=') && !sep.contains('\t')
        })
    };
    let Some((_, value)) = dash_label(line) else {
        return false;
    };
    let colon_next =
        next.is_some_and(|n| classify(n) == LineKind::Labelled && dash_label(n).is_none());
    // Or its value names only a period and a caption over labelled lines (`Northern Seed Trust
    // — Statement of activities, FY2024 (USD thousands; …)` over `Grants paid — (640)`).
    // (Or a statement's short name and its money: `Cooperativa — DRE 2024 (R$ 000)`.)
    let caption_over = || {
        let value = &line.trim()[value..];
        let spec = frame::spec_of(value);
        next.is_some_and(|n| classify(n) == LineKind::Labelled)
            && !quantity_digits(value)
            && (title_words(value)
                || value.contains('(') && spec.currency.is_some() && spec.scale != 0)
            && !spec.is_empty()
    };
    (colon_next || caption_over()) && !line.trim()[value..].contains(':')
}

fn classify(line: &str) -> LineKind {
    let t = line.trim();
    if t.starts_with('#') {
        return LineKind::Heading;
    }
    let has_digit = t.bytes().any(|c| c.is_ascii_digit());
    if t.ends_with(':') && !t[..t.len() - 1].contains(':') {
        return LineKind::Heading;
    }
    if let Some((label_end, value_start)) = label_split(t) {
        let value = &t[value_start..];
        // A value that goes on in sentences is prose that starts with a label (`In Austin:
        // 9,449 h. In Dayton: 757 h.`).
        let sentences = dot_spaces(value).any(|i| {
            let next = value[i + 2..].chars().next().unwrap_or(' ');
            (next.is_uppercase() || next.is_ascii_digit()) && sentence_dot(&value[..i])
        });
        let label = &t[..label_end];
        // (Not a long label that ends stating its values' money or unit: `Pilot launch fund,
        // balance change for 2024 (BRL thousands): (2,317)`.)
        let spec_end = label.trim_end().ends_with(')')
            && label
                .rfind('(')
                .is_some_and(|o| !frame::spec_of(&label[o..]).is_empty());
        let label_sentences = dot_spaces(label).any(|i| sentence_dot(&label[..i]))
            || label.contains(", ") && label.split_whitespace().count() > 6 && !spec_end;
        // (A dash before a statement's name and money is a heading's: `Cooperativa — DRE 2024
        // (R$ 000)`.)
        let dash_caption = !t[label_end..value_start].contains(':')
            && !quantity_digits(value)
            && value.contains('(')
            && {
                let spec = frame::spec_of(value);
                spec.currency.is_some() && spec.scale != 0
            }
            // (A column's, `(presupuesto en miles de euros)`, heads no statement.)
            && frame::spec_pairs(value).is_empty();
        if value.bytes().any(|c| c.is_ascii_digit())
            && (label_end <= 80 || spec_end && label_end <= 160)
            && !sentences
            && !label_sentences
            && !dash_caption
        {
            return LineKind::Labelled;
        }
    }
    if !quantity_digits(t) && t.split_whitespace().count() <= 16 && !t.ends_with(['.', '!', '?']) {
        return LineKind::Heading;
    }
    let _ = has_digit;
    LineKind::Prose
}

/// Whether a labelled line's value reads as a title's words (`Statement of activities,
/// FY2024 (USD thousands)`, `Informe semanal (semana 46)`): several words, a caption in
/// parentheses or a period, and nothing that reads as a value (`Date: 2024-03-01`,
/// `Period: Q3 2024` stay labelled).
/// The spec of a paragraph's run-in heading: a first sentence of a few words, no number, that
/// ends in a parenthesis stating a currency or a scale (`Finance (BRL thousands).`,
/// `Financeiro (R$ mil).`).
fn run_in_spec(paragraph: &str) -> Option<Spec> {
    let head = paragraph.trim_start();
    let dot = head.find(". ").or_else(|| head.find(".\n"))?;
    let head = &head[..dot];
    if !head.ends_with(')')
        || head.split_whitespace().count() > 6
        || head.bytes().any(|c| c.is_ascii_digit() && c != b'0')
    {
        return None;
    }
    let spec = frame::spec_of(head);
    (spec.currency.is_some() || spec.scale != 0).then_some(spec)
}

fn title_words(value: &str) -> bool {
    let words = value
        .split_whitespace()
        .filter(|w| w.chars().next().is_some_and(char::is_alphabetic) && w.len() > 2)
        .count();
    words >= 3 && value.contains('(')
}

/// Whether a line holds a number that may be a quantity: a token with digits that is not a
/// year (`2024`), a season (`2023/24`), a date (`31.12.2024`, `2025-03-04`), a code (`FY2024`,
/// `Q3`, `EP-40`, `HbA1c`), an ordinal (`3º`, `1er`, `3.`) or zeros (`US$ 000`).
fn quantity_digits(t: &str) -> bool {
    t.split(|c: char| c.is_whitespace() || matches!(c, '(' | ')' | '[' | ']' | ',' | ';' | ':'))
        .filter(|w| w.bytes().any(|c| c.is_ascii_digit()))
        .any(|w| {
            let w = w.trim_matches(|c: char| matches!(c, '.' | '"' | '\'' | '—' | '–'));
            let b = w.as_bytes();
            let digits_only = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
            let year = |s: &str| {
                s.len() == 4 && (s.starts_with("19") || s.starts_with("20")) && digits_only(s)
            };
            let parts: Vec<&str> = w.split(['/', '-', '.']).collect();
            let is_year = year(w);
            let season =
                parts.len() == 2 && year(parts[0]) && parts[1].len() == 2 && digits_only(parts[1]);
            let date = parts.len() == 3
                && parts.iter().all(|p| digits_only(p))
                && parts.iter().any(|p| year(p) || p.len() == 2);
            let code = b.first().is_some_and(u8::is_ascii_alphabetic)
                || w.chars().any(|c| c.is_alphabetic()) && !w.ends_with('%');
            let ordinal = w.ends_with(['º', 'ª']);
            // (Zeros alone are a caption's scale: `(US$ 000)`.)
            let zeros = b.iter().all(|c| matches!(c, b'0' | b'.' | b',' | b'\''));
            !(is_year || season || date || code || ordinal || zeros)
        })
}

/// Whether a dot after `head` ends a sentence: after a number or a number and its unit
/// (`625.2 ha.`), a percent, a parenthesis, or a word longer than an abbreviation (`Fig. 7`,
/// `p. 212`, `Nr. 5` do not end one).
fn sentence_dot(head: &str) -> bool {
    if head.ends_with(['%', ')']) {
        return true;
    }
    let mut tokens = head.split_whitespace().rev();
    let last = tokens.next().unwrap_or("");
    let before = tokens.next().unwrap_or("");
    last.chars().any(|c| c.is_ascii_digit())
        || before.chars().last().is_some_and(|c| c.is_ascii_digit())
        || last.chars().filter(|c| c.is_alphabetic()).count() > 4
}

/// Where a labelled line's label ends and its value starts: the first separator (`:`, ` — `,
/// ` – `, ` - `, ` = `, a tab) outside parentheses, with a short label before it.
fn label_split(line: &str) -> Option<(usize, usize)> {
    let b = line.as_bytes();
    let mut depth = 0i32;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b':' if depth == 0 && !b.get(i + 1).is_some_and(u8::is_ascii_digit)
                // `14:30`, `http://`: no separator.
                && b.get(i + 1).is_none_or(|c| *c != b'/') =>
            {
                return short_label(line, i, i + 1);
            }
            b'=' if depth == 0 => return short_label(line, i, i + 1),
            b'\t' if depth == 0 => return short_label(line, i, i + 1),
            b' ' if depth == 0 => {
                for sep in [" — ", " – ", " - ", " -- "] {
                    if line[i..].starts_with(sep) {
                        return short_label(line, i, i + sep.len());
                    }
                }
                // A statement's columns set by spaces (`Change in net assets        (12)`):
                // a run of three or more blanks before the value.
                // (Counted from a run's first blank only: linear however long the run.)
                let first = i > 0 && b[i - 1] != b' ';
                let run = if first {
                    b[i..].iter().take_while(|&&c| c == b' ').count()
                } else {
                    0
                };
                if run >= 3
                    && b.get(i + run).is_some_and(|&c| {
                        c.is_ascii_digit() || matches!(c, b'(' | b'-' | b'+' | b'$' | 0xE2 | 0xC2)
                    })
                {
                    return short_label(line, i, i + run);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn short_label(line: &str, end: usize, value: usize) -> Option<(usize, usize)> {
    let label = line[..end].trim();
    let words = label.split_whitespace().count();
    (words <= 12 && !label.ends_with(['.', '!', '?'])).then_some((end, value))
}

/// Where `. ` occurs in `s` (a sentence may end there): found by the dot, not by a substring
/// searcher built per line.
fn dot_spaces(s: &str) -> impl Iterator<Item = usize> + '_ {
    let b = s.as_bytes();
    memchr::memchr_iter(b'.', b).filter(move |&i| b.get(i + 1) == Some(&b' '))
}

/// For each labelled line of a block, whether it is a record: an item label of its own
/// (`tasa de rechazo`, `waste rate`) is an item label of another line too, so the labels are
/// columns and each line's label is its row's.
fn record_lines(text: &str, lines: &[Line]) -> Vec<(bool, Option<Vec<Segment>>)> {
    if lines.len() < 2 {
        return vec![(false, None); lines.len()];
    }
    // Each item label as a hash of its lower-case letters (no string is built per label).
    let hasher = ahash::RandomState::with_seeds(7, 1, 5, 3);
    let key = |label: &str| {
        use std::hash::{BuildHasher, Hasher};
        let mut h = hasher.build_hasher();
        for c in label.trim().chars().flat_map(char::to_lowercase) {
            h.write_u32(c as u32);
        }
        h.finish()
    };
    let items: Vec<(Vec<u64>, Option<Vec<Segment>>)> = lines
        .iter()
        .map(|l| {
            let t = &text[l.start..l.end];
            let Some((_, value_start)) = label_split(t) else {
                return (Vec::new(), None);
            };
            let value = &t[value_start..];
            // (A value with no separator has no items: most lines, read cheaply.)
            if !value
                .bytes()
                .any(|c| matches!(c, b';' | b'|' | b',' | 0xC2))
            {
                return (Vec::new(), None);
            }
            let segs = segments(value);
            let mut own: Vec<u64> = segs
                .iter()
                .filter_map(|(label, _)| label.clone())
                .map(|r| &value[r])
                .filter(|w| w.chars().any(char::is_alphabetic))
                .map(key)
                .collect();
            own.sort_unstable();
            own.dedup();
            (own, Some(segs))
        })
        .collect();
    // Each label's lines, so that the test is linear in the block.
    let mut lines_of: HashMap<u64, usize> = HashMap::new();
    for (own, _) in &items {
        for &k in own {
            *lines_of.entry(k).or_default() += 1;
        }
    }
    items
        .into_iter()
        .map(|(own, segs)| (own.iter().any(|k| lines_of[k] >= 2), segs))
        .collect()
}

/// A segment of a list's value: its label, if it has one, and its value (relative ranges).
type Segment = (Option<Range<usize>>, Range<usize>);

/// The segments of a list's value part (`84 staff; Porto: 61 staff`, `20,000 km: 1.2 mm;
/// 40,000 km: 2.4 mm`, `on-time 93.4%, damage claims 0.6%`): each with its own label when it
/// has one (the text before its separator, or its words before its first number).
fn segments(value: &str) -> Vec<Segment> {
    let b = value.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut from = 0;
    let mut cuts = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' | b'|' if depth == 0 => cuts.push((i, i + 1)),
            // A middle dot between items (`Tosca 96,1 % · Rigoletto 91,4 %`).
            0xC2 if depth == 0 && b.get(i + 1) == Some(&0xB7) => cuts.push((i, i + 2)),
            // A comma and a blank between labelled items (never inside a number: `1,5`).
            b',' if depth == 0 && b.get(i + 1) == Some(&b' ') => cuts.push((i, i + 2)),
            _ => {}
        }
    }
    // Semicolons separate items, commas the parts of one: an item whose comma parts are not
    // labelled items themselves (`interdição 2024-09-06: 2 h 15 min, 6.100 veículos`) is cut
    // only at its semicolons; one whose parts are (`Mai 410.000 m³, Juni 585.000 m³`), at both.
    if cuts.iter().any(|&(at, _)| b[at] == b';') {
        let mut kept = Vec::with_capacity(cuts.len());
        let mut item_start = 0;
        let mut commas: Vec<(usize, usize)> = Vec::new();
        let ends: Vec<(usize, usize)> = cuts
            .iter()
            .copied()
            .chain(std::iter::once((b.len(), b.len())))
            .collect();
        for (at, next) in ends {
            if at < b.len() && b[at] == b',' {
                commas.push((at, next));
                continue;
            }
            let mut part_from = item_start;
            let mut labelled = 0;
            for &(c, n) in commas.iter().chain(std::iter::once(&(at, at))) {
                labelled += usize::from(piece_label(&value[part_from..c]).is_some());
                part_from = n;
            }
            let parts = commas.len() + 1;
            if parts >= 2 && labelled >= 2 && labelled * 2 >= parts {
                kept.append(&mut commas);
            }
            commas.clear();
            if at < b.len() {
                kept.push((at, next));
            }
            item_start = next;
        }
        cuts = kept;
    }
    cuts.push((b.len(), b.len()));
    for (at, next) in cuts {
        let piece = &value[from..at];
        if piece.trim().is_empty() {
            from = next;
            continue;
        }
        match piece_label(piece) {
            Some((end, start)) => out.push((Some(from..from + end), from + start..at)),
            None => out.push((None, from..at)),
        }
        from = next;
    }
    // Two or more segments only when most have labels of their own.
    let labelled = out.iter().filter(|(l, _)| l.is_some()).count();
    if out.len() >= 2 && labelled * 2 >= out.len() {
        out
    } else {
        vec![(None, 0..value.len())]
    }
}

/// A segment's label: the text before its separator, or its words before its first number
/// (the number's sign and currency are the number's: `Haushaltssaldo EUR -189.900.000`), as
/// (the label's end, the value's start).
fn piece_label(piece: &str) -> Option<(usize, usize)> {
    match label_split(piece) {
        Some((end, start)) if piece[start..].bytes().any(|c| c.is_ascii_digit()) => {
            Some((end, start))
        }
        _ => {
            let digit = number_start(piece);
            piece[..digit]
                .chars()
                .any(char::is_alphabetic)
                .then_some((digit, digit))
        }
    }
}

/// Where a labelled line holds another labelled sentence: the offsets of each `. ` after a
/// sentence with a number, before a short label and its colon (`… 775.2 mn USD. 2018: …`).
fn sentence_cuts(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut cuts = Vec::new();
    let mut depth = 0i32;
    // A digit since the last cut (kept as the scan goes: one pass).
    let mut digit = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => digit = true,
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'.' if depth == 0 && digit && b.get(i + 1) == Some(&b' ') => {
                let rest = &line[i + 2..];
                // The next sentence opens with a label: a few words, then a colon that is no
                // time's (`14:30`).
                let label = rest
                    .find([':', '.', ';', ',', '|', '(', '\n'])
                    .filter(|&k| {
                        rest[k..].starts_with(':')
                            && !rest[k + 1..].starts_with(|c: char| c.is_ascii_digit())
                            && (1..=4).contains(&rest[..k].split_whitespace().count())
                    });
                if label.is_some() {
                    cuts.push(i);
                    digit = false;
                }
            }
            _ => {}
        }
    }
    cuts
}

/// Where the first number of `piece` starts, with the sign and currency written before it.
fn number_start(piece: &str) -> usize {
    // The first digit that starts a number: not one inside a code (`T1 capacidad 1.200 m³`,
    // `Sat-2 perigee 552 km`), which names the item.
    let b = piece.as_bytes();
    let letter = |i: usize| b[i].is_ascii_alphabetic();
    let Some(digit) = (0..b.len()).find(|&i| {
        b[i].is_ascii_digit()
            && !(i > 0 && (letter(i - 1) || b[i - 1].is_ascii_digit()))
            && !(i > 1 && b[i - 1] == b'-' && letter(i - 2))
    }) else {
        return 0;
    };
    // A numbered thing's number before its value (`Linie 1 3.720`, `Kiln 3 1,240 °C`) is its
    // label's: the value's number starts after it.
    let digits_end = digit + b[digit..].iter().take_while(|c| c.is_ascii_digit()).count();
    // (Not a number grouped by spaces: `Nord 1 240`.)
    let next_run = b[(digits_end + 1).min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    let numbered = digits_end - digit <= 3
        && b.get(digits_end) == Some(&b' ')
        && b.get(digits_end + 1).is_some_and(u8::is_ascii_digit)
        && next_run != 3
        && piece[..digit]
            .trim_end()
            .rsplit(' ')
            .next()
            .is_some_and(|w| {
                w.starts_with(char::is_uppercase) && w.chars().all(char::is_alphabetic)
            });
    let digit = if numbered { digits_end + 1 } else { digit };
    let mut at = digit;
    loop {
        let head = piece[..at].trim_end();
        let before = at;
        if let Some(h) = head.strip_suffix(['-', '+', '−', '(']) {
            at = h.len();
        } else if let Some(h) = [
            "R$", "US$", "HK$", "NT$", "NZ$", "CA$", "AU$", "MX$", "C$", "A$", "S$", "$", "€", "£",
            "¥", "₹", "Fr.",
        ]
        .iter()
        .find_map(|sym| head.strip_suffix(sym))
        {
            at = h.len();
        } else {
            let word: String = head
                .chars()
                .rev()
                .take_while(char::is_ascii_uppercase)
                .collect();
            if word.len() == 3
                && words::currency_word(&word.chars().rev().collect::<String>()).is_some()
            {
                at = head.len() - 3;
            }
        }
        if at == before {
            break;
        }
    }
    at
}

/// Shifts a region's lexed spans to the text's offsets.
fn shift(lx: &mut Lexed, by: usize) {
    for t in &mut lx.toks {
        t.span = t.span.start + by..t.span.end + by;
    }
    for n in &mut lx.nums {
        n.span = n.span.start + by..n.span.end + by;
        n.digits = n.digits.start + by..n.digits.end + by;
        n.code = n.code.start + by..n.code.end + by;
    }
}

/// Every line of `text` with its shape (a table row's delimiter and how many times it occurs).
fn shapes(text: &str) -> Vec<Line> {
    let b = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    while start < b.len() {
        let nl = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |n| start + n);
        let mut end = nl;
        if end > start && b[end - 1] == b'\r' {
            end -= 1;
        }
        let line = &b[start..end];
        let clip = |n: usize| n.min(usize::from(u16::MAX)) as u16;
        let pipes = memchr::memchr_iter(b'|', line).count();
        let tabs = memchr::memchr_iter(b'\t', line).count();
        let shape = if pipes >= 1 {
            Some((b'|', clip(pipes)))
        } else if tabs >= 1 {
            Some((b'\t', clip(tabs)))
        } else {
            // Prose writes `, ` and `; `: a line that does is no row (quoted cells aside).
            let (mut semis, mut commas) = (0usize, 0usize);
            let mut spaced_semi = false;
            let mut spaced_comma = false;
            let mut quote = false;
            for (i, &c) in line.iter().enumerate() {
                match c {
                    b'"' => quote = !quote,
                    b';' if !quote => {
                        semis += 1;
                        spaced_semi |= line.get(i + 1) == Some(&b' ');
                    }
                    b',' if !quote => {
                        commas += 1;
                        spaced_comma |= line.get(i + 1) == Some(&b' ');
                    }
                    _ => {}
                }
            }
            let blank = memchr::memchr(b' ', line).is_some();
            if semis > 0 && !spaced_semi && semis >= commas / 2 {
                Some((b';', clip(semis)))
            } else if commas > 0 && !spaced_comma {
                if blank {
                    Some((HEADER, clip(commas)))
                } else {
                    Some((b',', clip(commas)))
                }
            } else {
                None
            }
        };
        lines.push(Line { start, end, shape });
        start = nl + 1;
    }
    // A comma table's rows may hold blanks (`Alto Vale,0.42`): lines of one comma count, next to
    // one another, with a header, are rows.
    let mut k = 0;
    while k < lines.len() {
        if lines[k].shape.is_some_and(|s| s.0 == HEADER) {
            let count = lines[k].shape.map(|s| s.1);
            let mut e = k + 1;
            while e < lines.len()
                && lines[e].shape.map(|s| s.1) == count
                && lines[e].shape.is_some_and(|s| s.0 == HEADER || s.0 == b',')
            {
                e += 1;
            }
            // The run's first line is a header: no cell of it holds a number.
            let header = &text[lines[k].start..lines[k].end];
            let header_ok = !header.split(',').any(data);
            if e - k >= 3 && header_ok {
                for l in &mut lines[k + 1..e] {
                    if let Some(s) = l.shape.as_mut() {
                        s.0 = b',';
                    }
                }
            }
            k = e;
        } else {
            k += 1;
        }
    }
    // A row whose name holds a blank (`Old Market,"3,210","3,054",no,2`) goes on the comma
    // table of the rows before it.
    for k in 1..lines.len() {
        if let (Some((b',', before)), Some((HEADER, count))) = (lines[k - 1].shape, lines[k].shape)
        {
            if before == count {
                lines[k].shape = Some((b',', count));
            }
        }
    }
    // Columns set apart by runs of spaces: three lines or more in a row (a header and two rows)
    // that split into the same number of cells, three or more, with a number in a cell past
    // the first (prose that puts two spaces after a full stop splits into fewer).
    let mut k = 0;
    while k < lines.len() {
        let count = |l: &Line| {
            // (A row's numbers may hold commas: `Dealers   4,120   4,480`.)
            if l.shape.is_some_and(|s| s.0 != HEADER) {
                return 0;
            }
            let n = spaced_count(text, l);
            if n >= 3 {
                n
            } else {
                0
            }
        };
        let n = count(&lines[k]);
        if n == 0 {
            k += 1;
            continue;
        }
        let mut e = k + 1;
        while e < lines.len() && count(&lines[e]) == n {
            e += 1;
        }
        let numbers = lines[k + 1..e].iter().any(|l| {
            spaced_cells(text, l)
                .iter()
                .skip(1)
                .any(|r| data(&text[r.clone()]))
        });
        if e - k >= 3 && numbers {
            for l in &mut lines[k..e] {
                l.shape = Some((SPACED, n.min(usize::from(u16::MAX)) as u16));
            }
        }
        k = e;
    }
    lines
}

/// Whether the lines hold a number with a dot and every such dot stands before exactly three
/// digits (`3.905`, `12.480.000`): dots that group.
fn dots_group(text: &str, lines: &[Line]) -> bool {
    let mut any = false;
    for l in lines {
        let b = &text.as_bytes()[l.start..l.end];
        for (i, _) in b.iter().enumerate().filter(|(_, &c)| c == b'.') {
            if i == 0 || !b[i - 1].is_ascii_digit() {
                continue;
            }
            let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if digits != 3 {
                return false;
            }
            any = true;
        }
    }
    any
}

/// How many cells [`spaced_cells`] finds in a line, without collecting them (every line of a
/// text is asked; most have no run of blanks and are answered at once).
fn spaced_count(text: &str, line: &Line) -> usize {
    if memchr::memmem::find(&text.as_bytes()[line.start..line.end], b"  ").is_none() {
        return usize::from(line.end > line.start);
    }
    spaced_ranges(text, line).count()
}

/// The cells of a line whose columns runs of two or more spaces set apart; a line indented by
/// such a run starts with an empty cell (a header over a column of row names).
fn spaced_cells(text: &str, line: &Line) -> Vec<Range<usize>> {
    spaced_ranges(text, line).collect()
}

/// [`spaced_cells`], one at a time.
fn spaced_ranges<'t>(text: &'t str, line: &Line) -> impl Iterator<Item = Range<usize>> + 't {
    let b = &text.as_bytes()[..line.end];
    let mut end = line.end;
    while end > line.start && matches!(b[end - 1], b' ' | b'\r') {
        end -= 1;
    }
    let (mut from, mut i) = (line.start, line.start);
    let mut done = false;
    std::iter::from_fn(move || {
        while i < end {
            if b[i] == b' ' && b.get(i + 1) == Some(&b' ') {
                let mut j = i;
                while j < end && b[j] == b' ' {
                    j += 1;
                }
                let cell = from..i;
                from = j;
                i = j;
                return Some(cell);
            }
            i += 1;
        }
        if !done && from < end {
            done = true;
            return Some(from..end);
        }
        None
    })
}

/// The cells of a line: byte ranges between delimiters (quotes respected for commas; a markdown
/// row's outer pipes dropped).
fn cells(text: &str, line: &Line, delimiter: u8) -> Vec<Range<usize>> {
    if delimiter == SPACED {
        return spaced_cells(text, line);
    }
    let b = text.as_bytes();
    let end = line.end;
    let mut out = Vec::new();
    let mut from = line.start;
    let mut quote = false;
    for (i, &c) in b.iter().enumerate().take(end).skip(line.start) {
        if c == b'"' && delimiter != b'|' {
            quote = !quote;
        }
        if c == delimiter && !quote {
            out.push(from..i);
            from = i + 1;
        }
    }
    out.push(from..end);
    if delimiter == b'|' {
        out.retain(|r| {
            !(text[r.clone()].trim().is_empty() && (r.start == line.start || r.end == end))
        });
    }
    // Quoted cells: the quotes are no part of the number.
    for r in &mut out {
        let t = &text[r.clone()];
        let trimmed = t.trim();
        if trimmed.len() >= 2 && trimmed.starts_with('"') && trimmed.ends_with('"') {
            let lead = t.len() - t.trim_start().len();
            *r = r.start + lead + 1..r.start + lead + trimmed.len() - 1;
        }
    }
    out
}

/// A cell that holds a measurement (a number that is not a year): the row is data, not a
/// header.
fn data(cell: &str) -> bool {
    let t = cell.trim().trim_matches('"');
    t.starts_with(|c: char| {
        c.is_ascii_digit() || matches!(c, '-' | '−' | '+' | '(' | '$' | '€' | '£')
    }) && year_text(t).is_none()
        && !season_text(t)
        && !t.chars().all(|c| matches!(c, '-' | ':' | ' '))
}

/// A season or split year as a header writes it (`2023/24`, `2023-24`).
fn season_text(t: &str) -> bool {
    let Some((a, b)) = t.split_once(['/', '-']) else {
        return false;
    };
    match (year_text(a), b.parse::<u16>()) {
        (Some(y), Ok(n)) => b.len() == 2 && n == (y + 1) % 100,
        _ => false,
    }
}

fn year_text(t: &str) -> Option<u16> {
    let y: u16 = t.parse().ok().filter(|_| t.len() == 4)?;
    (1900..=2100).contains(&y).then_some(y)
}

fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, c| {
        (h ^ u64::from(c)).wrapping_mul(0x100_0000_01b3)
    })
}

fn mix(a: u64, b: u64) -> u64 {
    (a ^ b.rotate_left(23))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
}

/// The atoms of a short text (a JSON key, an array item's names).
pub(crate) fn text_atoms(text: &str) -> Vec<Atom> {
    let hints = no_hints();
    let cfg = Config {
        locale: Locale::Auto,
        role: Role::Evidence,
        salt: 0,
        base: &[],
        spec: Spec::default(),
        hints: &hints,
    };
    let doc = Doc::new(text, &cfg);
    label_atoms(text, &doc, None)
}

/// A JSON number as an item: its exact digits (a `.` mark), its key's unit, currency and scale;
/// a year when its key names one.
pub(crate) fn json_number(
    digits: &str,
    spec: Spec,
    year_key: bool,
    negative: bool,
) -> Option<Item> {
    let mut lx = Lexed::default();
    lex::lex(
        digits,
        Mode {
            locale: Locale::En,
            cell: true,
        },
        &mut lx,
    );
    let num = lx.nums.into_iter().next()?;
    let value = num.readings.first();
    // A key that names a year holds a year (`"exercice": 2024`, not `"effectif_fin_exercice":
    // 6420`).
    let year_like = value.exp == 0 && (1800..=2200).contains(&value.mant);
    if year_key && year_like {
        return Some(Item {
            frame: Frame {
                readings: num.readings,
                kind: Kind::Trivial(Trivial::Year),
                unit: None,
                per: None,
                polarity: Polarity::Neutral,
                approx: false,
                fraction: false,
            },
            atom: Some(format_compact!("y:{}", value.magnitude().plain())),
            num,
            binds: Vec::new(),
            noun: None,
            name: None,
        });
    }
    let mut readings = num.readings;
    let unit = spec
        .unit
        .or(spec.currency.map(|c| if c == "$" { "USD" } else { c }));
    if spec.scale != 0 {
        readings = readings.map(|d| d.shifted(spec.scale));
    }
    // A key that names a loss or a fall (`mean_systolic_reduction`, `net_loss`) says so of
    // its positive numbers.
    let polarity = if value.mant < 0 {
        Polarity::MinusSign
    } else if negative {
        Polarity::MinusWord
    } else {
        Polarity::Neutral
    };
    let fraction = unit.is_none() && {
        let f = value.to_f64().abs();
        f > 0.0 && f <= 1.0 && value.exp < 0
    };
    Some(Item {
        frame: Frame {
            readings,
            kind: Kind::Quantity,
            unit,
            per: None,
            polarity,
            approx: false,
            fraction,
        },
        atom: None,
        num,
        binds: Vec::new(),
        noun: None,
        name: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> Line {
        Line {
            start: 0,
            end: text.len(),
            shape: None,
        }
    }

    #[test]
    fn spaced_count_is_the_cells_spaced_cells_finds() {
        for text in [
            "Fachhandel   2'310   2'480",
            "                 2023      2024",
            "Revenue rose.  Costs fell.",
            "one cell",
            "trailing  ",
            "a  b  c  ",
            "  indented  x",
        ] {
            let l = line(text);
            assert_eq!(
                spaced_count(text, &l),
                spaced_cells(text, &l).len(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn last_year_reads_digits_only() {
        assert_eq!(last_year("Receita 2024: R$ 3,2 milhões; "), Some(2024));
        assert_eq!(last_year("3,2 mi 2 mil"), None);
        assert_eq!(last_year("12024"), None);
    }
}

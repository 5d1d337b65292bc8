//! The verify stage: numeric grounding of an answer against its evidence, failing closed.
//!
//! Every non-trivial number the answer states (in its text, or in a JSON value's strings and
//! numbers) must be in the evidence: the same quantity in any locale's spelling, or a more
//! precise one the answer rounded. An answer with a number the evidence does not hold is not
//! verified; with [`OnUngrounded::FailClosed`] it is replaced by a blocking message that names
//! the numbers, each with about 30 characters of context.
//!
//! Deterministic and linear: the answer's numbers are extracted in one pass, the evidence's are
//! indexed once ([`Evidence`]), and each answer number is a hash lookup (a binary search when
//! only a rounding can ground it).

mod decimal;
mod evidence;
mod frame;
mod layout;
mod leaves;
mod lex;
mod words;

pub use crate::policy::grounding::{
    Language, Locale, OnUngrounded, PercentForms, SmallCounts, VerifyOptions, Years,
};
pub use evidence::Evidence;

use crate::value::Value;
use crate::Error;
use evidence::{Lookup, Twin};
use frame::Kind;
use layout::{Config, Hints, Item, Role};
use leaves::{walk_leaves, Leaf};
use lex::Readings;
use std::ops::Range;

pub use crate::verdict::{
    CheckedNumber, EvidenceLocation, FailClosed, IssueType, NumberExample, Verdict, Verification,
};

impl IssueType {
    fn explain(self) -> &'static str {
        match self {
            IssueType::NotInEvidence => "not in the evidence",
            IssueType::RoundingMismatch => "the evidence states it less precisely",
            IssueType::UnitMismatch => "the evidence states this value in another unit",
            IssueType::SignMismatch => "the evidence states it with the opposite sign",
            IssueType::CrossVariantMix => "the evidence states this value for another subject",
            IssueType::AmbiguousLocale => {
                "its decimal mark is ambiguous and neither reading is in the evidence"
            }
            IssueType::NoEvidence => "there is no evidence",
            IssueType::LabelNotMeasurement => {
                "the evidence writes it only as a label, an identifier or a year"
            }
        }
    }
}

/// How many unmatched numbers the result and the blocking message show.
pub const UNMATCHED_EXAMPLES: usize = 5;
/// Characters of context on each side of a number.
const CONTEXT_SIDE: usize = 15;

/// Verifies the numbers of a text answer against `evidence`.
///
/// `Err` only for input refused before work (an answer over `max_size`); an ungrounded answer
/// is a [`Verdict`] with `verified: false` (and, failing closed, the blocking message).
pub fn verify(
    answer: &str,
    evidence: &Evidence,
    options: &VerifyOptions,
) -> Result<Verdict, Error> {
    if answer.len() > options.max_size {
        return Err(Error::TooLarge {
            size: answer.len(),
            limit: options.max_size,
        });
    }
    let mut check = Check::new(evidence, options);
    check.text(answer, "", &[], frame::Spec::default());
    let verification = check.finish(evidence);
    Ok(Verdict::of(answer.to_string(), verification, options))
}

/// Verifies the numbers of a JSON value (its strings and numbers; keys are names) against
/// `evidence`: each number carries its JSON Pointer.
pub fn verify_value(
    value: &Value,
    evidence: &Evidence,
    options: &VerifyOptions,
) -> Result<Verification, Error> {
    let mut check = Check::new(evidence, options);
    let mut size = 0usize;
    walk_leaves(value, 0xa5, |item| {
        match &item.leaf {
            Leaf::Text(s) => {
                size += s.len();
                check.text(s, &item.path, &item.binds, item.spec);
            }
            Leaf::Number(digits) => {
                size += digits.len();
                if let Some(mut n) =
                    layout::json_number(digits, item.spec, item.year_key, item.negative)
                {
                    // A small count (`"steps": 3`) the evidence does not state is not checked,
                    // as in text.
                    let v = n.frame.readings.first();
                    let small = n.frame.unit.is_none()
                        && v.exp == 0
                        && (0..=10).contains(&v.mant)
                        && !evidence.states(v);
                    if small {
                        n.frame.kind = frame::Kind::Trivial(frame::Trivial::SmallCount);
                    }
                    n.binds = item.binds.clone();
                    check.item(digits, &item.path, n, &Named::default());
                }
            }
        }
        if size > options.max_size {
            return Err(Error::TooLarge {
                size,
                limit: options.max_size,
            });
        }
        Ok(())
    })?;
    Ok(check.finish(evidence))
}

/// The verify stage of [`crate::parse`]: the value's numbers against the evidence; failing
/// closed, an ungrounded value becomes [`Error::Grounding`].
pub(crate) fn stage(
    value: &Value,
    evidence: &Evidence,
    options: &VerifyOptions,
) -> Result<Verification, Error> {
    let verification = verify_value(value, evidence, options)?;
    if let (OnUngrounded::FailClosed, Some(reason)) =
        (options.on_ungrounded, fail_reason(&verification))
    {
        return Err(Error::Grounding {
            reason,
            message: blocking_message(&verification, options.language),
            verification: Box::new(verification),
        });
    }
    Ok(verification)
}

impl Verdict {
    /// The verdict on `answer` given its `verification`: the answer itself, or (failing closed
    /// and not grounded) the blocking message.
    pub fn of(answer: String, verification: Verification, options: &VerifyOptions) -> Verdict {
        match (options.on_ungrounded, fail_reason(&verification)) {
            (OnUngrounded::FailClosed, Some(reason)) => Verdict {
                output: blocking_message(&verification, options.language),
                fail_closed: Some(FailClosed {
                    reason,
                    stage: "verification",
                }),
                verification,
            },
            _ => Verdict {
                output: answer,
                fail_closed: None,
                verification,
            },
        }
    }
}

/// Why a verification fails, if it does: `no_evidence`; `cross_variant_mix` when every
/// ungrounded number is another subject's value; else `numeric_grounding_failed`.
pub(crate) fn fail_reason(v: &Verification) -> Option<&'static str> {
    if v.verified {
        None
    } else if v.issue_types.contains(&IssueType::NoEvidence) {
        Some("no_evidence")
    } else if v.issue_types == [IssueType::CrossVariantMix] {
        Some("cross_variant_mix")
    } else {
        Some("numeric_grounding_failed")
    }
}

/// The message that replaces a blocked answer: how many numbers, each with its context (and,
/// in a JSON answer, its JSON path), and what to do next, in neutral words whatever the domain.
pub fn blocking_message(v: &Verification, language: Language) -> String {
    let list = v
        .unmatched_examples
        .iter()
        .map(|e| {
            let at = match (e.path.is_empty(), language) {
                (true, _) => String::new(),
                (false, Language::En) => format!(" at {}", e.path),
                (false, Language::Pt) => format!(" em {}", e.path),
            };
            let shown = format!("\"{}\"{at} (…{}…)", e.number, e.context);
            match (&e.evidence_subject, language) {
                (Some(theirs), Language::En) => {
                    format!("{shown} [the evidence gives it to {theirs}]")
                }
                (Some(theirs), Language::Pt) => {
                    format!("{shown} [a evidência o atribui a {theirs}]")
                }
                (None, _) => shown,
            }
        })
        .collect::<Vec<_>>()
        .join("; ");
    let no_evidence = v.issue_types.contains(&IssueType::NoEvidence);
    match (language, no_evidence) {
        (Language::En, true) => "NO EVIDENCE: the answer cannot be verified because no evidence \
             was given.\n\nThe answer was blocked to avoid unverifiable information."
            .to_string(),
        (Language::Pt, true) => "SEM EVIDÊNCIAS: a resposta não pode ser verificada porque \
             nenhuma evidência foi fornecida.\n\nA resposta foi bloqueada para evitar informações \
             não verificáveis."
            .to_string(),
        (Language::En, false) => format!(
            "VERIFICATION FAILED: {} number(s) in the answer do not match the evidence.\n\n\
             Numbers without evidence: {list}\n\n\
             The answer was blocked to avoid unverifiable information.\n\
             Ask for the sources of these numbers.",
            v.unmatched
        ),
        (Language::Pt, false) => format!(
            "VERIFICAÇÃO FALHOU: {} número(s) na resposta não correspondem às evidências.\n\n\
             Números sem evidência: {list}\n\n\
             A resposta foi bloqueada para evitar informações não verificáveis.\n\
             Peça as fontes desses números.",
            v.unmatched
        ),
    }
}

/// One verification in progress.
struct Check<'e> {
    evidence: &'e Evidence,
    options: &'e VerifyOptions,
    numbers: Vec<CheckedNumber>,
    ambiguous: Vec<NumberExample>,
    skipped: usize,
}

/// The names an answer writes as its evidence does (`Kestrel 2400`).
#[derive(Default)]
struct Named {
    digits: Vec<decimal::Decimal>,
    words: Vec<layout::Atom>,
}

impl<'e> Check<'e> {
    fn new(evidence: &'e Evidence, options: &'e VerifyOptions) -> Self {
        Check {
            evidence,
            options,
            numbers: Vec::new(),
            ambiguous: Vec::new(),
            skipped: 0,
        }
    }

    /// A text of the answer, read with its layout; `base`: what its place in a JSON value binds
    /// it to; `spec`: what its key says of its units.
    fn text(&mut self, text: &str, path: &str, base: &[layout::Bind], spec: frame::Spec) {
        let mut items = Vec::new();
        read_against(
            self.evidence,
            text,
            (Role::Answer, self.options.locale),
            base,
            spec,
            &mut |item| items.push(item),
        );
        // Every digit of the answer is read: a number the layout did not hand over is checked
        // as not found (fail closed), never skipped unread.
        let mut covered = vec![false; text.len()];
        for item in &items {
            for r in [&item.num.span, &item.num.code, &item.num.digits] {
                for c in covered.iter_mut().take(r.end.min(text.len())).skip(r.start) {
                    *c = true;
                }
            }
        }
        // The names the answer writes as the evidence does (`Kestrel 2400`): their digits, and
        // their words, which name a thing, not a number's subject (`Oléa 500 traite 350 kg/h`
        // against `Oléa 500 hydraulique, capacité 350 kg/h`, read as items `Oléa` and
        // `capacité`).
        let mut named = Named::default();
        for item in &items {
            let v = item.frame.readings.first();
            let Some(name) = item.name.as_deref() else {
                continue;
            };
            if self.evidence.is_named(name, v) {
                named.digits.push(v.magnitude());
                named.words.extend(layout::name_word_atom(name));
            }
        }
        let first = self.numbers.len();
        for item in items {
            self.item(text, path, item, &named);
        }
        self.shares_with_counts(text, first);
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_digit() && !covered[i] {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_digit() || matches!(b[i], b'.' | b','))
                    && !covered[i]
                {
                    i += 1;
                }
                let span = start..i;
                self.numbers.push(CheckedNumber {
                    at: NumberExample {
                        number: text[span.clone()].to_string(),
                        context: context_of(text, span.clone()),
                        path: path.to_string(),
                        span,
                        subject: None,
                        evidence_subject: None,
                        reason: Some("not_read"),
                    },
                    readings: Vec::new(),
                    unit: None,
                    matched: false,
                    issue: Some(IssueType::NotInEvidence),
                    evidence: None,
                });
                continue;
            }
            i += 1;
        }
    }

    /// A count and its share in parentheses (`16 Patienten (2,9 %)`) are one cell's when the
    /// evidence pairs them (`9 (2,9 %)`): a count grounded elsewhere, whose share the evidence
    /// gives only to other counts, is another row's.
    fn shares_with_counts(&mut self, text: &str, first: usize) {
        for i in first..self.numbers.len().saturating_sub(1) {
            let (count, share) = (&self.numbers[i], &self.numbers[i + 1]);
            if !count.matched || count.unit.is_some() || share.unit.as_deref() != Some("%") {
                continue;
            }
            let Some(between) = text.get(count.at.span.end..share.at.span.start) else {
                continue;
            };
            // (The count's noun may stand between: `52 patients (16.8%)`.)
            let Some(noun) = between.trim_end().strip_suffix('(') else {
                continue;
            };
            if noun.split_whitespace().count() > 2
                || noun
                    .chars()
                    .any(|c| !(c.is_alphabetic() || c.is_whitespace()))
            {
                continue;
            }
            let parse =
                |r: &String| decimal::Decimal::from_plain(r).map(decimal::Decimal::magnitude);
            let counts: Vec<decimal::Decimal> = count.readings.iter().filter_map(parse).collect();
            let partners: Vec<decimal::Decimal> = share
                .readings
                .iter()
                .filter_map(parse)
                .flat_map(|s| self.evidence.share_partners(s))
                .collect();
            if partners.is_empty()
                || partners
                    .iter()
                    .any(|p| counts.iter().any(|c| p.grounds(*c)))
            {
                continue;
            }
            let count = &mut self.numbers[i];
            count.matched = false;
            count.issue = Some(IssueType::CrossVariantMix);
            count.at.reason = Some("wrong_subject");
            count.evidence = None;
        }
    }

    fn item(&mut self, text: &str, path: &str, item: Item, named: &Named) {
        let Item {
            num,
            frame,
            binds,
            atom,
            noun,
            name: own_name,
        } = item;
        match frame.kind {
            Kind::Trivial(why) => {
                let _ = why;
                self.skipped += 1;
                return;
            }
            Kind::Quantity => {}
        }
        // What the answer binds the number to: the evidence's atoms around it, each at its
        // strongest (not the number itself).
        let mut context: Vec<evidence::Mention> = Vec::new();
        for (k, b) in binds.iter().enumerate() {
            // Explicit labels (a JSON key, a table cell's row) are mentions of their own.
            let mention = if b.mention == 0 {
                u32::MAX - k as u32
            } else {
                b.mention
            };
            for a in b.atoms.iter() {
                // (A name's own digits keep its words.)
                if atom.as_deref() == Some(a.as_str())
                    || own_name.is_none() && named.words.contains(a)
                {
                    continue;
                }
                // A condition with its unit (`n:14e1|°C`) is also the bare number a JSON key
                // without a unit holds (`"condition": 140`).
                let bare = a
                    .strip_prefix("n:")
                    .and_then(|v| v.split_once('|'))
                    .map(|(v, _)| format!("n:{v}"));
                let ids = [Some(a.as_str()), bare.as_deref()]
                    .into_iter()
                    .flatten()
                    .filter_map(|a| self.evidence.atom_id(a));
                for id in ids {
                    let m = evidence::Mention {
                        atom: id,
                        weight: b.weight,
                        mention,
                        reach: b.reach,
                    };
                    match context.iter_mut().find(|c| c.atom == id) {
                        Some(c) if c.weight >= b.weight => {}
                        Some(c) => *c = m,
                        None => context.push(m),
                    }
                }
            }
        }
        // Its periods and numbered things, each at its strongest.
        let mut exclusive: Vec<(layout::Atom, f32)> = Vec::new();
        for b in &binds {
            for a in b.atoms.iter() {
                if evidence::exclusive_kind(a).is_none() || atom.as_deref() == Some(a.as_str()) {
                    continue;
                }
                match exclusive.iter_mut().find(|(e, _)| e == a) {
                    Some(e) => e.1 = e.1.max(b.weight),
                    None => exclusive.push((a.clone(), b.weight)),
                }
            }
        }
        let span = num.span.clone();
        let mut at = NumberExample {
            number: text.get(span.clone()).unwrap_or_default().to_string(),
            context: context_of(text, span.clone()),
            path: path.to_string(),
            span,
            subject: None,
            evidence_subject: None,
            reason: None,
        };
        let mut issue = None;
        let mut reason = None;
        let mut evidence = None;
        let mut grounded_readings = 0;
        let readings = frame.readings;
        for reading in readings.iter() {
            let mut f = frame.clone();
            f.readings = Readings::One(reading);
            let mut claim = self
                .evidence
                .frame_of_claim(&f, &context, &exclusive, noun.as_deref());
            // A statistic over parts the answer counts is grounded by that statistic only; an
            // average per a period, by no one period's value.
            let question = |prefix: &str, answers: &[(&str, &'static str)]| {
                binds.iter().flat_map(|b| b.atoms.iter()).find_map(|a| {
                    let asked = a.strip_prefix(prefix)?;
                    answers.iter().find(|(q, _)| *q == asked).map(|(_, v)| *v)
                })
            };
            claim.parts = question(layout::PARTS, &[("avg", "w:~avg"), ("total", "w:~total")]);
            claim.period_parts = question(
                layout::PERIOD_PARTS,
                &[("d", "d"), ("wk", "wk"), ("mo", "mo")],
            );
            // A name's digits with a unit (`Kestrel 2400 … rated at 2400 kW`) are no
            // measurement of the bare number they are in the evidence.
            claim.name_digits = f.unit.is_some()
                && named
                    .digits
                    .iter()
                    .any(|v| v.canonical() == reading.magnitude().canonical());
            match self.ground(&claim, &f) {
                Lookup::Found(id) => {
                    grounded_readings += 1;
                    evidence.get_or_insert_with(|| self.evidence.location(id));
                }
                Lookup::OtherSubject(clash) => {
                    issue = Some(IssueType::CrossVariantMix);
                    reason = Some("wrong_subject");
                    at.subject = (!clash.ours.is_empty()).then_some(clash.ours);
                    at.evidence_subject = (!clash.theirs.is_empty()).then_some(clash.theirs);
                }
                Lookup::OtherSign => {
                    if issue != Some(IssueType::CrossVariantMix) {
                        issue = Some(IssueType::SignMismatch);
                        reason = Some("wrong_sign");
                    }
                }
                Lookup::OtherUnit if issue.is_none() && claim.name_digits => {
                    issue = Some(IssueType::LabelNotMeasurement);
                    reason = Some("label_not_measurement");
                }
                Lookup::OtherUnit => {
                    if issue.is_none() {
                        issue = Some(IssueType::UnitMismatch);
                        reason = Some(unit_reason(frame.unit));
                    }
                }
                Lookup::LessPrecise => {
                    issue.get_or_insert(IssueType::RoundingMismatch);
                    reason.get_or_insert("less_precise");
                }
                Lookup::Absent => {}
            }
        }
        let ambiguous = matches!(readings, Readings::Ambiguous(..));
        let matched = grounded_readings > 0;
        if matched && ambiguous && grounded_readings == 1 {
            self.ambiguous.push(at.clone());
        }
        if matched {
            at.subject = None;
            at.evidence_subject = None;
        }
        let (issue, reason) = if matched {
            (None, None)
        } else if self.evidence.is_empty() {
            (Some(IssueType::NoEvidence), Some("no_evidence"))
        } else if let Some(i) = issue {
            (Some(i), reason)
        } else if readings.iter().any(|r| self.evidence.is_label_value(r)) {
            (
                Some(IssueType::LabelNotMeasurement),
                Some("label_not_measurement"),
            )
        } else if ambiguous {
            (Some(IssueType::AmbiguousLocale), Some("ambiguous_locale"))
        } else {
            (Some(IssueType::NotInEvidence), Some("not_in_evidence"))
        };
        at.reason = reason;
        self.numbers.push(CheckedNumber {
            at,
            readings: readings.iter().map(decimal::Decimal::plain).collect(),
            unit: frame.unit.map(str::to_string),
            matched,
            issue,
            evidence,
        });
    }

    /// One reading against the evidence, and its percentage's fraction (or fraction's
    /// percentage): `62%` is grounded by a fraction `0.62` bound to the same claim, `0.916` by
    /// `91.6%`; `0.62%` is not `0.62`.
    fn ground(&self, claim: &evidence::Claim, f: &frame::Frame) -> Lookup {
        let direct = self.evidence.lookup(claim, Twin::No);
        if matches!(direct, Lookup::Found(_)) || self.options.percent == PercentForms::Distinct {
            return direct;
        }
        let twin = if f.unit == Some("%") {
            let c = evidence::Claim {
                value: claim.value.shifted(-2),
                unit: None,
                ..*claim
            };
            self.evidence.lookup(&c, Twin::FractionOfPercent)
        } else if f.fraction {
            let c = evidence::Claim {
                value: claim.value.shifted(2),
                unit: Some("%"),
                fraction: false,
                ..*claim
            };
            self.evidence.lookup(&c, Twin::PercentOfFraction)
        } else {
            Lookup::Absent
        };
        match (twin, direct) {
            (twin @ Lookup::Found(_), _) => twin,
            (twin @ Lookup::OtherSubject(_), Lookup::Absent | Lookup::OtherUnit) => twin,
            (_, direct) => direct,
        }
    }

    fn finish(self, evidence: &Evidence) -> Verification {
        let unmatched: Vec<&CheckedNumber> = self.numbers.iter().filter(|n| !n.matched).collect();
        let mut issue_types: Vec<IssueType> = unmatched.iter().filter_map(|n| n.issue).collect();
        if evidence.is_empty() {
            issue_types.push(IssueType::NoEvidence);
        }
        issue_types.sort();
        issue_types.dedup();
        let mut issues: Vec<String> = unmatched
            .iter()
            .map(|n| {
                let why = n.issue.unwrap_or(IssueType::NotInEvidence).explain();
                let at = if n.at.path.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", n.at.path)
                };
                let whose = match (&n.at.evidence_subject, &n.at.subject) {
                    (Some(theirs), Some(ours)) => {
                        format!(" (the evidence gives it to {theirs}, not {ours})")
                    }
                    (Some(theirs), None) => format!(" (the evidence gives it to {theirs})"),
                    _ => String::new(),
                };
                format!("\"{}\"{at} (…{}…): {why}{whose}", n.at.number, n.at.context)
            })
            .collect();
        if evidence.is_empty() && unmatched.is_empty() {
            issues.push("there is no evidence to verify the answer against".to_string());
        }
        let unmatched_examples = unmatched
            .iter()
            .take(UNMATCHED_EXAMPLES)
            .map(|n| n.at.clone())
            .collect();
        let matched = self.numbers.len() - unmatched.len();
        Verification {
            verified: unmatched.is_empty() && !evidence.is_empty(),
            issues,
            numbers_extracted: self.numbers.len(),
            matched,
            unmatched: unmatched.len(),
            skipped: self.skipped,
            issue_types,
            unmatched_examples,
            ambiguous: self.ambiguous,
            numbers: self.numbers,
        }
    }
}

/// Which unit failed: a currency, percent against points, or another unit.
fn unit_reason(unit: Option<&str>) -> &'static str {
    match unit {
        Some("%" | "pp" | "pt") => "percent_not_points",
        Some(u) if u.len() == 3 && u.chars().all(|c| c.is_ascii_uppercase()) => "wrong_currency",
        None => "fraction_not_percent",
        _ => "wrong_unit",
    }
}

/// About 30 characters around `span`: up to 15 on each side plus the number, on character
/// boundaries, line breaks and runs of blanks collapsed to one space.
fn context_of(text: &str, span: Range<usize>) -> String {
    let start = text[..span.start]
        .char_indices()
        .rev()
        .nth(CONTEXT_SIDE - 1)
        .map_or(0, |(k, _)| k);
    let end = text[span.end..]
        .char_indices()
        .nth(CONTEXT_SIDE)
        .map_or(text.len(), |(k, _)| span.end + k);
    // One string, blanks collapsed as it is written (no word list in between).
    let mut out = String::with_capacity(end - start);
    let mut blank = false;
    for c in text[start..end].chars() {
        if c.is_whitespace() {
            blank = !out.is_empty();
        } else {
            if blank {
                out.push(' ');
                blank = false;
            }
            out.push(c);
        }
    }
    out
}

/// Reads `text` with the layout reader, told what `evidence` knows: which atoms it holds as
/// labels, which nouns it counts, which values it states, which decimal mark it writes.
fn read_against(
    evidence: &Evidence,
    text: &str,
    (role, locale): (Role, Locale),
    base: &[layout::Bind],
    spec: frame::Spec,
    sink: &mut dyn FnMut(Item),
) {
    let label = |a: &str| evidence.is_label_atom(a);
    let count_noun = |w: &str| evidence.counts(w);
    let states = |v: decimal::Decimal| evidence.states(v);
    let binds = |a: &str| evidence.atom_id(a).is_some();
    let label_count = |v: decimal::Decimal, noun: &str| evidence.is_label_count(v, noun);
    let hints = Hints {
        label: &label,
        count_noun: &count_noun,
        states: &states,
        binds: &binds,
        label_count: &label_count,
        convention: evidence.convention(),
    };
    let cfg = Config {
        locale,
        role,
        salt: 0,
        base,
        spec,
        hints: &hints,
    };
    layout::read(text, &cfg, sink);
}

/// How the verify stage reads a text: each number with its frame and its bindings, one line
/// each (a debugging aid for `examples/verify_one.rs`; not a stable format).
#[doc(hidden)]
pub fn explain(text: &str, answer: bool, evidence: &Evidence) -> Vec<String> {
    let role = if answer { Role::Answer } else { Role::Evidence };
    let mut out = Vec::new();
    read_against(
        evidence,
        text,
        (role, Locale::Auto),
        &[],
        frame::Spec::default(),
        &mut |item| {
            let binds: Vec<String> = item
                .binds
                .iter()
                .map(|b| format!("{:x}:{:.2}:{}", b.dim & 0xffff, b.weight, b.atoms.join("+")))
                .collect();
            out.push(format!(
                "{:?} {:?} {:?} unit={:?} per={:?} pol={:?} approx={} frac={} atom={:?} | {}",
                text.get(item.num.span.clone()).unwrap_or_default(),
                item.frame
                    .readings
                    .iter()
                    .map(decimal::Decimal::plain)
                    .collect::<Vec<_>>(),
                item.frame.kind,
                item.frame.unit,
                item.frame.per,
                item.frame.polarity,
                item.frame.approx,
                item.frame.fraction,
                item.atom,
                binds.join("  ")
            ));
        },
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn evidence(text: &str) -> Evidence {
        let mut e = Evidence::new();
        e.add_text("e", text).unwrap();
        e
    }

    fn verified(answer: &str, ev: &str) -> bool {
        verify(answer, &evidence(ev), &VerifyOptions::default())
            .unwrap()
            .verification
            .verified
    }

    #[test]
    fn same_quantity_in_any_spelling_grounds() {
        assert!(verified("Strength was 41.8 MPa.", "resistência: 41,8 MPa"));
        assert!(verified("Revenue: R$ 1.234,56", "total 1234.56 BRL"));
        assert!(verified("about 12.3 mm", "measured 12.34 mm"));
        assert!(!verified("exactly 12.34 mm", "measured 12.3 mm"));
        assert!(verified("$3.2M in sales", "sales of $3,215,000"));
        assert!(!verified("12.7 kg", "12.7 mm"));
        assert!(verified("1,234 units", "1.234 unidades"));
    }

    #[test]
    fn an_unmatched_number_fails_closed_with_context() {
        let ev = evidence("Sample A: 41.8 MPa. Sample B: 38.2 MPa.");
        let verdict = verify(
            "Sample A reached 41.8 MPa and sample B 39.5 MPa, a clear gain.",
            &ev,
            &VerifyOptions::default().fail_closed(),
        )
        .unwrap();
        let v = &verdict.verification;
        assert!(!v.verified);
        assert_eq!((v.numbers_extracted, v.matched, v.unmatched), (2, 1, 1));
        assert_eq!(v.issue_types, [IssueType::NotInEvidence]);
        assert_eq!(v.unmatched_examples[0].number, "39.5 MPa");
        assert_eq!(
            v.unmatched_examples[0].context,
            "a and sample B 39.5 MPa, a clear gain."
        );
        assert!(verdict
            .output
            .starts_with("VERIFICATION FAILED: 1 number(s)"));
        assert!(verdict.output.contains("39.5 MPa"));
        assert_eq!(
            verdict.fail_closed,
            Some(FailClosed {
                reason: "numeric_grounding_failed",
                stage: "verification"
            })
        );
    }

    #[test]
    fn no_evidence_and_no_numbers() {
        let none = Evidence::new();
        let v = verify("It rose 12.5%.", &none, &VerifyOptions::default()).unwrap();
        assert!(!v.verification.verified);
        assert_eq!(v.verification.issue_types, [IssueType::NoEvidence]);
        let v = verify(
            "Nothing to count here.",
            &evidence("x"),
            &VerifyOptions::default(),
        )
        .unwrap();
        assert!(v.verification.verified);
        assert_eq!(v.verification.numbers_extracted, 0);
    }

    #[test]
    fn context_respects_character_boundaries() {
        let text = "日本語の文章では数値が 12.5 キログラムと書かれている場合があります";
        let found = text.find("12.5").unwrap();
        let c = context_of(text, found..found + 4);
        assert!(c.contains("12.5") && c.chars().count() <= 34);
    }
}

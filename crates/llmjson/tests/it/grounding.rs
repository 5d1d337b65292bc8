//! The grounding-pair generator's scoreboard: labelled evidence/answer pairs
//! (`llmjson-pairs`), judged by `verify` with its default options, scored per class, format and
//! language.
//!
//! The fixed-seed set runs in CI and is ratcheted where round 3 left it: accuracy ≥ 99.4%,
//! recall of "not grounded" ≥ 99.0% (an ungrounded answer delivered is the worst outcome), every
//! class ≥ 95%.
//! `LLMJSON_PAIRS_SEED=<n>` runs another seed and prints every wrong judgement (so does
//! `LLMJSON_PAIRS_SHOW=1` for the fixed seed); `LLMJSON_PAIRS_COUNT` changes the number of pairs.

use llmjson::verify::{verify, Evidence, VerifyOptions};
use llmjson_pairs::{Class, Format, Pair};
use std::collections::BTreeMap;

/// The fixed seed asserted in CI.
const FIXED_SEED: u64 = 20_261_128;

/// The evidence of a pair, given to the verifier as the pair's source says.
pub(crate) fn evidence_of(p: &Pair) -> Evidence {
    let mut e = Evidence::new();
    match p.format.source() {
        "json" => {
            let value = llmjson::parse_value(&p.evidence, &llmjson::Options::default())
                .expect("the generator writes valid JSON");
            e.add_json("evidence", &value.value).unwrap();
        }
        "csv" => {
            e.add_csv("evidence", &p.evidence).unwrap();
        }
        _ => {
            e.add_text("evidence", &p.evidence).unwrap();
        }
    }
    e
}

/// Whether `verify` delivers the pair's answer (judges it grounded).
pub(crate) fn judged_grounded(p: &Pair) -> bool {
    verify(&p.answer, &evidence_of(p), &VerifyOptions::default())
        .expect("answers are small")
        .verification
        .verified
}

#[derive(Default, Clone, Copy)]
struct Tally {
    right: usize,
    total: usize,
    /// Ungrounded pairs, and how many were blocked.
    ungrounded: usize,
    caught: usize,
}

impl Tally {
    fn add(&mut self, p: &Pair, right: bool) {
        self.total += 1;
        self.right += usize::from(right);
        if !p.grounded {
            self.ungrounded += 1;
            self.caught += usize::from(right);
        }
    }
    fn share(a: usize, b: usize) -> f64 {
        if b == 0 {
            100.0
        } else {
            100.0 * a as f64 / b as f64
        }
    }
    fn line(&self, name: &str) -> String {
        format!(
            "{name:<40} {:>5}/{:<5} {:>6.1}%   recall {:>4}/{:<4} {:>6.1}%",
            self.right,
            self.total,
            Tally::share(self.right, self.total),
            self.caught,
            self.ungrounded,
            Tally::share(self.caught, self.ungrounded)
        )
    }
}

#[test]
fn grounding_scoreboard() {
    let seed = std::env::var("LLMJSON_PAIRS_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let count = std::env::var("LLMJSON_PAIRS_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(llmjson_pairs::fixed_count);
    let show = seed.is_some() || std::env::var_os("LLMJSON_PAIRS_SHOW").is_some();
    let seed = seed.unwrap_or(FIXED_SEED);
    let mut by_class: BTreeMap<Class, Tally> = BTreeMap::new();
    let mut by_format: BTreeMap<Format, Tally> = BTreeMap::new();
    let mut by_lang: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_variant: BTreeMap<(Class, &str), Tally> = BTreeMap::new();
    let mut all = Tally::default();
    let (mut tp, mut fp) = (0usize, 0usize);
    for p in llmjson_pairs::generate(seed, count) {
        assert!(!p.answer.is_empty(), "{}: the generator made no pair", p.id);
        let delivered = judged_grounded(&p);
        let right = delivered == p.grounded;
        if !p.grounded && !delivered {
            tp += 1;
        }
        if p.grounded && !delivered {
            fp += 1;
        }
        all.add(&p, right);
        by_class.entry(p.class).or_default().add(&p, right);
        by_format.entry(p.format).or_default().add(&p, right);
        by_lang
            .entry(p.answer_lang.tag())
            .or_default()
            .add(&p, right);
        by_variant
            .entry((p.class, p.variant))
            .or_default()
            .add(&p, right);
        if show && !right {
            println!(
                "WRONG {} {} {} {} {}->{} (labelled {}, judged {})\n  evidence: {:?}\n  answer:   {:?}\n  wrong:    {:?}",
                p.id,
                p.class.name(),
                p.variant,
                p.format.name(),
                p.evidence_lang.tag(),
                p.answer_lang.tag(),
                if p.grounded { "grounded" } else { "not grounded" },
                if delivered { "grounded" } else { "not grounded" },
                p.evidence,
                p.answer,
                p.wrong
            );
        }
    }
    println!("\ngrounding scoreboard, seed {seed}: {}", all.line("all"));
    println!(
        "precision of \"not grounded\" {:.1}%",
        Tally::share(tp, tp + fp)
    );
    println!("\nby class:");
    for c in Class::ALL {
        println!(
            "{}",
            by_class.get(&c).copied().unwrap_or_default().line(c.name())
        );
    }
    println!("\nby class and variant:");
    for ((c, v), t) in &by_variant {
        println!("{}", t.line(&format!("{}/{v}", c.name())));
    }
    println!("\nby evidence format:");
    for (f, t) in &by_format {
        println!("{}", t.line(f.name()));
    }
    println!("\nby answer language:");
    for (l, t) in &by_lang {
        println!("{}", t.line(l));
    }
    // Ratcheted at what round 3 reached (issue 56 asks for 99% in every class and 99.5% recall;
    // the five misses left are answers in another language than the JSON keys or the CSV header
    // they cite, which no frame can tell apart without a dictionary).
    let weak: Vec<String> = by_class
        .iter()
        .filter(|(_, t)| t.right * 100 < t.total * 95)
        .map(|(c, t)| format!("{} {:.1}%", c.name(), Tally::share(t.right, t.total)))
        .collect();
    assert!(
        all.caught * 1000 >= all.ungrounded * 990,
        "recall of not grounded below 99.0%: {}/{}",
        all.caught,
        all.ungrounded
    );
    assert!(
        all.right * 1000 >= all.total * 994,
        "accuracy below 99.4%: {}/{}",
        all.right,
        all.total
    );
    assert!(weak.is_empty(), "classes below 95%: {weak:?}");
}

// ---------------------------------------------------------------------------------------------
// Hand-written pairs: labelled by helpers that never read the verifier (tests/verify/handpairs,
// PROMPT.md there says how). `dev` and `dev2` were used while building round 3; `dev3` and `test`
// were held out then (only their totals were looked at) and their misses read in stop 67, when
// `dev4` was written and used after its first contact; `test2`, written with it, was held out
// until measured at the end of that stop. Stop 68 did the same with `dev5` (used) and `test3`
// (held out). Each set's accuracy and recall of "not
// grounded" are ratcheted at what was reached: a change that loses a pair fails here.

/// A hand-written pair's evidence, as its format says.
fn hand_evidence(p: &serde_json::Value) -> Evidence {
    let text = p["evidence"].as_str().unwrap_or_default();
    let mut e = Evidence::new();
    match p["evidence_format"].as_str() {
        Some("json") => {
            let value = llmjson::parse_value(text, &llmjson::Options::default())
                .expect("hand-written JSON evidence parses");
            e.add_json("evidence", &value.value).unwrap();
        }
        Some("csv") => {
            e.add_csv("evidence", text).unwrap();
        }
        _ => {
            e.add_text("evidence", text).unwrap();
        }
    }
    e
}

/// (right, total, ungrounded caught, ungrounded) on one hand-written set, with its misses.
fn hand_score(name: &str) -> (usize, usize, usize, usize, Vec<String>) {
    let path = format!(
        "{}/../../tests/verify/handpairs/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let (mut right, mut total, mut caught, mut ungrounded) = (0, 0, 0, 0);
    let mut misses = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: serde_json::Value = serde_json::from_str(line).unwrap();
        let grounded = p["grounded"].as_bool().unwrap();
        let answer = p["answer"].as_str().unwrap();
        let verified = verify(answer, &hand_evidence(&p), &VerifyOptions::default())
            .unwrap()
            .verification
            .verified;
        total += 1;
        right += usize::from(verified == grounded);
        if !grounded {
            ungrounded += 1;
            caught += usize::from(!verified);
        }
        if verified != grounded {
            misses.push(p["id"].as_str().unwrap_or_default().to_string());
        }
    }
    (right, total, caught, ungrounded, misses)
}

#[test]
fn hand_written_pairs_stay_at_round_three() {
    // (set, least right, least ungrounded caught) as round 3 left them.
    for (name, least_right, least_caught) in [
        // 248 until stop 70: a key's words label what lies below it among its siblings, and a
        // carried clause (`scored 4.3 at the review …, and earns €68,400`) names `review score`.
        ("dev", 251, 126),
        ("dev2", 199, 102),
        // (Stop 70: Portuguese `é` no longer ends a clause, so `A relação é de 15 alunos por
        // docente (18.600 alunos e 1.240 docentes)` carries `relação` to the aside: one lost.)
        // (Stop 71: `aktiva_mio_eur` is read in millions at last, so `Verpflichtungen betragen
        // 2.480 Mio. EUR` against it is no longer blocked by the scale's accident: that claim
        // is wrong by a synonym, Passiva, which nothing reads. One caught lost, 181 right.)
        ("dev3", 188, 101),
        ("test", 235, 123),
        // Written for stop 67; 175 right and 90 caught before its changes (first contact).
        ("dev4", 194, 100),
        // Written with dev4 and held out until measured at the end of stop 67: 187 and 100,
        // the same as before its changes; 189 and 102 after stop 68's, 193 and 105 after 69's.
        ("test2", 200, 106),
        // Written for stop 68; 159 right and 82 caught before its changes (first contact).
        ("dev5", 177, 91),
        // Written with dev5 and held out until measured at the end of stop 68: 185 and 98
        // before its changes (totals only), 187 and 98 after; 190 and 98 after stop 69's.
        ("test3", 203, 102),
        // Written with test3, held out through stop 68 (199 and 99 at its end: first
        // contact), used to find stop 69's classes: 213 and 108 after them. (t4-0223 was
        // caught by accident until stop 73: Portuguese `o` read as Spanish `or` cut `o dividendo
        // total do ano foi de 3,8 pence` into a clause of its own; its real claim — the year's
        // total is the `full-year dividend` — is read by no rule. One right and one caught lost.)
        ("test4", 218, 109),
        // Written for stop 69; 218 right and 114 caught before its changes (first contact).
        ("dev6", 236, 123),
        // Written with dev6 and held out until measured at the end of stop 69: 209 and 112
        // before its changes (totals only), 212 and 115 after; used to find stop 70's classes:
        // 228 and 121 after them.
        ("test5", 232, 122),
        // Written for stop 70 and held out until measured at its end: 223 and 116 before its
        // changes (totals only), 225 and 117 after; used to find stop 71's classes: 244 and 123
        // after them.
        ("test6", 244, 123),
        // Written for stop 71; 219 right and 110 caught before its changes (first contact).
        ("dev7", 243, 121),
        // Written at the end of stop 70, held out through stop 71 (its totals once on 061ffd6:
        // 227; on stop 71's starting build 227 and 120): 234 and 121 after stop 71's changes.
        // t7-0121 was right by accident (a key `Preis_EUR_kg` read as kilograms blocked `1.150
        // kg`); read as euros per kilogram since stop 72, its German noun `Lager` still takes
        // the cardamom's place as the clause's subject (noticed, left: see docs/verify.md).
        ("test7", 237, 121),
        // Written for stop 71 and held out through it (229 and 120 on its starting build, 230
        // and 120 at its end: totals only); used to find stop 72's classes.
        ("test8", 254, 130),
        // Written at stop 72's start and held out until measured on its starting build (243
        // right: totals only) and on its build before its texts were read (248); used to find
        // stop 72's later classes.
        // (t9-0270 was caught by accident until stop 73: `1.062 t` was blocked for another
        // label's bare numbers; its real miss, `bajó … hasta 2,51 €/kg` a level the prior year's
        // aside states, is read by no rule. One caught lost, two right gained.)
        ("test9", 264, 135),
        // Written during stop 72 and held out through it (245 right on its starting build, 248
        // at its end: totals only); used to find stop 73's classes.
        ("test10", 269, 131),
        // Written at stop 73's start and held out until measured on its starting build (248
        // right) and on its build before its texts were read (249: totals only); used to find
        // stop 73's later classes.
        ("test11", 268, 137),
        // Written during stop 73 and held out through it (252 right on its starting build, 256
        // at its end: totals only); used to find stop 74's classes.
        ("test12", 272, 138),
        // Written at stop 74's start by a helper asked for the long, chained answers models
        // write, and measured before its texts were read (246 right on stop 74's starting
        // build, 247 on 06db35c: totals only); used to find stop 74's later classes.
        ("test14", 262, 137),
        // Written at stop 74's start and held out through it (253 right on its starting build,
        // 253 at its end: totals only); used to find stop 75's classes.
        ("test13", 268, 137),
        // test15 (written at stop 75's start, its texts unread) is held out: its totals only were
        // taken, 261 of 296 right on stop 75's starting build; not ratcheted until its misses
        // are read.
        // (dev3-0045, right until stop 74, is lost: `Phishing campaigns on the 7th and 17th
        // led to 412 and 655 quarantined emails` was bound by the sentence's first word read as
        // a name; read as a plain word since, it binds neither number. One right lost, nine
        // gained elsewhere by the same change.)
    ] {
        let (right, total, caught, ungrounded, misses) = hand_score(name);
        println!(
            "{name}: {right}/{total} right ({:.1}%), {caught}/{ungrounded} ungrounded blocked ({:.1}%)",
            Tally::share(right, total),
            Tally::share(caught, ungrounded)
        );
        assert!(
            right >= least_right && caught >= least_caught,
            "{name}: {right} right (at least {least_right}), {caught} caught (at least \
             {least_caught}); wrong: {misses:?}"
        );
    }
}

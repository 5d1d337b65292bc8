//! The grounding-pair generator's scoreboard: labelled evidence/answer pairs
//! (`llmjson-pairs`), judged by `verify` with its default options, scored per class, format and
//! language.
//!
//! The fixed-seed set runs in CI and must stay at ≥ 99% in every class, with recall of "not
//! grounded" ≥ 99.5% overall (an ungrounded answer delivered is the worst outcome).
//! `LLMJSON_PAIRS_SEED=<n>` runs another seed and prints every wrong judgement (so does
//! `LLMJSON_PAIRS_SHOW=1` for the fixed seed); `LLMJSON_PAIRS_COUNT` changes the number of pairs.

use llmjson::{verify, Evidence, VerifyOptions};
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
    let weak: Vec<String> = by_class
        .iter()
        .filter(|(_, t)| t.right * 100 < t.total * 99)
        .map(|(c, t)| format!("{} {:.1}%", c.name(), Tally::share(t.right, t.total)))
        .collect();
    assert!(
        all.caught * 1000 >= all.ungrounded * 995,
        "recall of not grounded below 99.5%: {}/{}",
        all.caught,
        all.ungrounded
    );
    assert!(weak.is_empty(), "classes below 99%: {weak:?}");
}

//! The fault generator's scoreboard: replies with known faults (`llmjson-faults`), scored by
//! value against what a careful reader takes from them.
//!
//! The fixed-seed set runs in CI and must stay at ≥ 97% exact overall and ≥ 90% in every class.
//! `LLMJSON_FAULT_SEED=<n>` runs another seed and prints every failing case (so does
//! `LLMJSON_FAULT_SHOW=1` for the fixed seed); `LLMJSON_FAULT_COUNT` changes the number of cases.

use crate::corpus::same_value;
use llmjson::{Options, Truncation};
use llmjson_faults::{Case, Fault};
use std::collections::BTreeMap;

/// The fixed seed asserted in CI.
const FIXED_SEED: u64 = 20_261_123;
/// Cases in the fixed set: 60 made for each class.
const FIXED_COUNT: usize = 60 * 41;

fn options(case: &Case) -> Options {
    let options = Options::default();
    if case.truncation_drop {
        options.truncation(Truncation::Drop)
    } else {
        options
    }
}

/// What llmjson makes of a case: `Ok` when it gives the expected value.
fn run(case: &Case) -> Result<(), String> {
    match llmjson::parse(&case.input, &options(case)) {
        Ok(p) if same_value(&p.value, &case.expected) => Ok(()),
        Ok(p) => Err(format!("got {}", p.value)),
        Err(e) => Err(format!("error: {e}")),
    }
}

#[derive(Default, Clone, Copy)]
struct Tally {
    pass: usize,
    total: usize,
    alone_pass: usize,
    alone_total: usize,
}

impl Tally {
    fn share(pass: usize, total: usize) -> f64 {
        if total == 0 {
            100.0
        } else {
            100.0 * pass as f64 / total as f64
        }
    }
}

#[test]
fn fault_scoreboard() {
    let seed = std::env::var("LLMJSON_FAULT_SEED")
        .ok()
        .and_then(|s| s.parse().ok());
    let count = std::env::var("LLMJSON_FAULT_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(FIXED_COUNT);
    let show = seed.is_some() || std::env::var_os("LLMJSON_FAULT_SHOW").is_some();
    let seed = seed.unwrap_or(FIXED_SEED);
    let mut by_class: BTreeMap<&str, Tally> = BTreeMap::new();
    let (mut pass, mut total) = (0, 0);
    for case in llmjson_faults::generate(seed, count) {
        assert!(!case.input.is_empty(), "{}: the generator made no case", case.id);
        let result = run(&case);
        total += 1;
        pass += usize::from(result.is_ok());
        for f in &case.faults {
            let t = by_class.entry(f.name()).or_default();
            t.total += 1;
            t.pass += usize::from(result.is_ok());
            if case.faults.len() == 1 {
                t.alone_total += 1;
                t.alone_pass += usize::from(result.is_ok());
            }
        }
        if let (Err(why), true) = (&result, show) {
            let names: Vec<_> = case.faults.iter().map(|f| f.name()).collect();
            println!(
                "FAIL {} {:?}\n  input:    {:?}\n  expected: {}\n  {why}",
                case.id, names, case.input, case.expected
            );
        }
    }
    println!("\nfault scoreboard, seed {seed}: {pass}/{total} exact ({:.1}%)", Tally::share(pass, total));
    println!("{:<28} {:>14} {:>16}", "class", "all cases", "alone");
    for f in Fault::ALL {
        let t = by_class.get(f.name()).copied().unwrap_or_default();
        println!(
            "{:<28} {:>5}/{:<4} {:>5.1}% {:>5}/{:<4} {:>5.1}%",
            f.name(),
            t.pass,
            t.total,
            Tally::share(t.pass, t.total),
            t.alone_pass,
            t.alone_total,
            Tally::share(t.alone_pass, t.alone_total)
        );
    }
    assert!(total >= 2000 || count < FIXED_COUNT, "the fixed set must hold at least 2,000 cases");
    let weak: Vec<_> = by_class
        .iter()
        .filter(|(_, t)| t.pass * 100 < t.total * 90)
        .map(|(name, t)| format!("{name} {:.1}%", Tally::share(t.pass, t.total)))
        .collect();
    assert!(pass * 100 >= total * 97, "below 97% exact overall");
    assert!(weak.is_empty(), "classes below 90%: {weak:?}");
}

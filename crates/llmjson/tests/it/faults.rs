//! The fault generator's scoreboard: replies with known faults (`llmjson-faults`), scored by
//! value against what a careful reader takes from them.
//!
//! The fixed-seed set runs in CI and must stay at ≥ 97% exact overall and ≥ 95% in every class.
//! Classes come as often as their weight says models make them (`Fault::weight`).
//! `LLMJSON_FAULT_SEED=<n>` runs another seed and prints every failing case (so does
//! `LLMJSON_FAULT_SHOW=1` for the fixed seed); `LLMJSON_FAULT_COUNT` changes the number of cases.

use crate::corpus::same_value;
use llmjson::{Options, RepairKind, Truncation};
use llmjson_faults::{Case, Fault};
use std::collections::BTreeMap;

/// The fixed seed asserted in CI.
const FIXED_SEED: u64 = 20_261_123;
use llmjson_faults::fixed_count;

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
        .unwrap_or_else(fixed_count);
    let show = seed.is_some() || std::env::var_os("LLMJSON_FAULT_SHOW").is_some();
    let seed = seed.unwrap_or(FIXED_SEED);
    let mut by_class: BTreeMap<&str, Tally> = BTreeMap::new();
    let (mut pass, mut total) = (0, 0);
    for case in llmjson_faults::generate(seed, count) {
        assert!(
            !case.input.is_empty(),
            "{}: the generator made no case",
            case.id
        );
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
    println!(
        "\nfault scoreboard, seed {seed}: {pass}/{total} exact ({:.1}%)",
        Tally::share(pass, total)
    );
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
    assert!(
        total >= 2000 || count < fixed_count(),
        "the fixed set must hold at least 2,000 cases"
    );
    let weak: Vec<_> = by_class
        .iter()
        .filter(|(_, t)| t.pass * 100 < t.total * 95)
        .map(|(name, t)| format!("{name} {:.1}%", Tally::share(t.pass, t.total)))
        .collect();
    assert!(pass * 100 >= total * 97, "below 97% exact overall");
    assert!(weak.is_empty(), "classes below 95%: {weak:?}");
    // The fixed set is held to what issue 58 reached (5,211 of 5,220): a ratchet, so that a
    // change that loses cases on it shows here, not in the next measurement.
    if seed == FIXED_SEED && count == fixed_count() {
        assert!(
            pass * 1000 >= total * 998,
            "the fixed seed fell below 99.8% exact: {pass}/{total}"
        );
    }
}

/// Cases for the accounting property, made from seed [`ACCOUNTING_SEED`]
/// (`LLMJSON_ACCOUNTING_COUNT` and `LLMJSON_ACCOUNTING_SEED` change them).
const ACCOUNTING_COUNT: usize = 10_000;
const ACCOUNTING_SEED: u64 = 9;

/// Nothing is lost silently: every word of the faulted document reaches the value, or lies
/// inside the span of a logged repair (a comment removed, a draft skipped, garbage dropped, a
/// cut member dropped, trailing content ignored…). Checked on generated cases, whatever value
/// the parser chose: a wrong reading may fail the scoreboard, but must not hide what it left out.
#[test]
fn every_word_reaches_the_value_or_a_logged_repair() {
    let count = std::env::var("LLMJSON_ACCOUNTING_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(ACCOUNTING_COUNT);
    let seed = std::env::var("LLMJSON_ACCOUNTING_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(ACCOUNTING_SEED);
    let mut failures = Vec::new();
    let mut checked = 0;
    for case in llmjson_faults::generate(seed, count) {
        let Some(document) = case.document.clone() else {
            continue;
        };
        let Ok(parsed) = llmjson::parse(&case.input, &options(&case)) else {
            // A typed error loses nothing silently.
            continue;
        };
        checked += 1;
        let unaccounted = unaccounted_words(&case.input, document, &parsed);
        if !unaccounted.is_empty() {
            failures.push(format!(
                "{} {:?}\n  input: {:?}\n  value: {}\n  log: {:?}\n  lost: {unaccounted:?}",
                case.id,
                case.faults.iter().map(|f| f.name()).collect::<Vec<_>>(),
                case.input,
                parsed.value,
                parsed
                    .repairs
                    .iter()
                    .map(|r| format!("{} {:?}", r.kind, r.span))
                    .collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        checked >= count * 9 / 10 || count < ACCOUNTING_COUNT,
        "only {checked} cases checked"
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} cases lost words without a log line:\n{}",
        failures.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The words of `input[range]` that neither reach `parsed`'s value nor lie inside one of its
/// logged repairs.
fn unaccounted_words<'a>(
    input: &'a str,
    range: std::ops::Range<usize>,
    parsed: &llmjson::Parsed,
) -> Vec<&'a str> {
    let mut kept = std::collections::HashSet::new();
    value_words(&parsed.value, &mut kept);
    // A word may reach the value joined to another (`"José Á" + "lvarez"`).
    let joined: String = kept
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(" ");
    input_words(input, range)
        .filter(|(span, word)| {
            let word = word.to_lowercase();
            !kept.contains(&word)
                && !joined.contains(&word)
                && !parsed
                    .repairs
                    .iter()
                    .any(|r| r.span.start <= span.start && span.end <= r.span.end)
        })
        .map(|(span, _)| &input[span])
        .collect()
}

/// The words of `input[range]`: runs of letters, digits and `_`. An escape (`\n`, `\u00e9`)
/// separates words, as its decoded character does in the value.
fn input_words(
    input: &str,
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = (std::ops::Range<usize>, String)> + '_ {
    let text = &input[range.clone()];
    let mut words = Vec::new();
    let mut start = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            words.push((range.start + s..range.start + i, text[s..i].to_string()));
        }
        if c == '\\' {
            // The escaped character, and a `\u` escape's four hex digits, are not a word.
            if let Some((_, e)) = chars.next() {
                if e == 'u' {
                    for _ in 0..4 {
                        chars.next_if(|(_, h)| h.is_ascii_hexdigit());
                    }
                }
            }
        }
    }
    if let Some(s) = start {
        words.push((range.start + s..range.end, text[s..].to_string()));
    }
    words.into_iter()
}

/// The lowercased words of every key, string and number in `value`.
fn value_words(value: &llmjson::Value, out: &mut std::collections::HashSet<String>) {
    fn add(text: &str, out: &mut std::collections::HashSet<String>) {
        let words = text.split(|c: char| !(c.is_alphanumeric() || c == '_'));
        out.extend(words.filter(|w| !w.is_empty()).map(str::to_lowercase));
    }
    match value {
        llmjson::Value::String(s) => add(s, out),
        // The input may write an exponent without its sign (`6.02e23` is kept as `6.02e+23`).
        llmjson::Value::Number(n) => {
            add(&n.to_string(), out);
            add(&n.to_string().replace("e+", "e"), out);
        }
        llmjson::Value::Bool(b) => add(if *b { "true" } else { "false" }, out),
        llmjson::Value::Null => add("null", out),
        llmjson::Value::Array(items) => items.iter().for_each(|v| value_words(v, out)),
        llmjson::Value::Object(map) => {
            for (k, v) in map {
                add(k, out);
                value_words(v, out);
            }
        }
    }
}

/// A long reply's list `name` (`items`, `steps`) keeps its length (nothing merged or lost),
/// and no more of its entries differ from what they mean than the case has faults.
fn assert_list_kept(case: &llmjson_faults::LargeCase, got: &llmjson::Map, name: &str) {
    let want = case.expected[name].as_array().expect("the expected list");
    let have = got[name]
        .as_array()
        .unwrap_or_else(|| panic!("{}: {name} is not a list", case.id));
    assert_eq!(
        have.len(),
        want.len(),
        "{}: the {name} list changed length (faults {:?})",
        case.id,
        case.faults
    );
    let wrong = have
        .iter()
        .zip(want)
        .filter(|(h, w)| !crate::corpus::same_value(h, w))
        .count();
    assert!(
        wrong <= case.faults.len(),
        "{}: {wrong} of {name} differ, {} faults",
        case.id,
        case.faults.len()
    );
}

/// Large replies (64 KB to 1 MB; `LLMJSON_LARGE_COUNT` runs more of each size): a misreading
/// deep in a long reply may cost the item it is in, never the document. Every member of the
/// document is kept, its `items` list keeps its length, and no more items differ from what
/// they mean than there were faults.
#[test]
fn no_reading_discards_a_long_document() {
    let count: u64 = std::env::var("LLMJSON_LARGE_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let mut exact = 0;
    let mut total = 0;
    for size in [64 << 10, 256 << 10, 1 << 20] {
        for seed in 0..count {
            let case = llmjson_faults::large_case(seed, size);
            let parsed = llmjson::parse(&case.input, &Options::default())
                .unwrap_or_else(|e| panic!("{}: {e} (faults {:?})", case.id, case.faults));
            total += 1;
            let expected = case.expected.as_object().expect("an object");
            let got = parsed.value.as_object().unwrap_or_else(|| {
                panic!(
                    "{}: the document became {:.300}",
                    case.id,
                    parsed.value.to_string()
                )
            });
            for key in expected.keys() {
                assert!(got.contains_key(key), "{}: lost the member {key}", case.id);
            }
            assert_list_kept(&case, got, "items");
            exact += usize::from(crate::corpus::same_value(&parsed.value, &case.expected));
        }
    }
    println!("large replies exact: {exact}/{total}");
}

/// Cases of [`laid_out_plans_lose_nothing_in_silence`] (`LLMJSON_LAYOUT_CASES` runs more).
const LAYOUT_CASES: u32 = 24;

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("LLMJSON_LAYOUT_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(LAYOUT_CASES),
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Any laid-out plan with code holding JSON literals (`large_code_case`, 2-24 KB, alone or
    /// with every local fault), read with the default options: read exactly without faults;
    /// with them, every word of the reply reaches the value or lies inside a logged repair, and
    /// no two objects are read as one (no key read twice). (A step misread is the scoreboard's
    /// business; a silent loss or a merge is this property's.) A reading the guard refuses
    /// loses nothing in silence either.
    #[test]
    fn laid_out_plans_lose_nothing_in_silence(
        seed in proptest::prelude::any::<u64>(),
        size in 2048usize..24 * 1024,
        every_fault in proptest::prelude::any::<bool>(),
    ) {
        let case = llmjson_faults::large_code_case(seed, size, every_fault);
        let Ok(parsed) = llmjson::parse(&case.input, &Options::default()) else {
            proptest::prop_assert!(every_fault, "{}: refused with no fault", case.id);
            return Ok(());
        };
        if !every_fault {
            proptest::prop_assert!(same_value(&parsed.value, &case.expected), "{}", case.id);
        }
        let lost = unaccounted_words(&case.input, 0..case.input.len(), &parsed);
        proptest::prop_assert!(lost.is_empty(), "{}: lost without a log line: {:?}", case.id, lost);
        // No merged siblings: every step has its own keys once, so a key read twice in one
        // object means two steps (or a step and the top level) were read as one.
        proptest::prop_assert!(
            !parsed.repairs.iter().any(|r| r.kind == RepairKind::DuplicateKey),
            "{}: siblings merged",
            case.id
        );
    }
}

/// Laid-out plans with every fault that were misread before issue 36's layout and sibling work
/// (found among 3,400 random ones: steps merged, members moved into a step's `code` or the top
/// level, a key or value running over lines), each read exactly as meant with the default
/// options now.
#[test]
fn laid_out_plans_once_misread_are_read_as_meant() {
    let cases: [(u64, usize); 34] = [
        (10078940314148811585, 2993),
        (5597789094504272861, 2266),
        (8399054018134401870, 8843),
        (2321497434107079452, 2386),
        (6991217196618494727, 2581),
        (8609995700420442982, 6486),
        (2741822193326996283, 7408),
        (9000563524538219488, 3103),
        (516830294958017132, 14642),
        (5755746747057188031, 8866),
        (6166068842017979374, 6390),
        (3172375847231218786, 8751),
        (7370278225181645652, 4027),
        (7717283400180463466, 2562),
        (5997398475456763231, 5701),
        (4170532857750761989, 17674),
        (3246814649516566012, 6644),
        (180531255216629993, 2221),
        (347018816967414559, 2486),
        (1488336297300028213, 2382),
        (6490093866661535563, 7333),
        (8727990652400692030, 3652),
        (2964727075287757238, 3834),
        (6289711144633998522, 17289),
        (8711493998554141100, 15469),
        (7409276172468611091, 7765),
        (6929411735907129551, 14752),
        (4755009964439920206, 5273),
        (7264800263552853581, 11706),
        (2385495587869127453, 2855),
        // Lost in silence before stop 67 (issue 58's label snippets exposed them): an extra
        // `}}` before `owner：“…”,` ended the document; a `",` stutter opened a key whose
        // value swallowed the steps.
        (10915022525572355890, 2185),
        (14180640363742719377, 6683),
        (11718960553400339004, 2093),
        // And (found while fixing those) a value that lost its closing quote before
        // `“steps” = [ # a comment`: it ran on over the whole plan.
        (11718960553400359821, 2093),
    ];
    for (seed, size) in cases {
        let case = llmjson_faults::large_code_case(seed, size, true);
        let parsed = llmjson::parse(&case.input, &Options::default())
            .unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert!(
            same_value(&parsed.value, &case.expected),
            "{}: not read as meant",
            case.id
        );
    }
}

/// Laid-out plans of 64 KB and 1 MB whose steps carry code, every third holding a JSON literal
/// written with its quotes unescaped (`llmjson_faults::large_code_case`): exact alone; with
/// every local fault at once, no step is merged into another or lost, the top-level members stay
/// where they are, and no more steps differ from what they mean than there were faults.
#[test]
fn long_laid_out_plans_with_code_holding_json_keep_every_step() {
    let (mut exact, mut total) = (0, 0);
    for size in [64 << 10, 1 << 20] {
        for seed in 0..2 {
            for every_fault in [false, true] {
                let case = llmjson_faults::large_code_case(seed, size, every_fault);
                let options = Options::default().max_removed_ratio(1.0);
                let parsed = llmjson::parse(&case.input, &options)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.id));
                total += 1;
                let same = crate::corpus::same_value(&parsed.value, &case.expected);
                exact += usize::from(same);
                if !every_fault {
                    assert!(same, "{}: not read as meant", case.id);
                    continue;
                }
                let got = parsed.value.as_object().expect("an object");
                let keys: Vec<&str> = got.iter().map(|(k, _)| k.as_str()).collect();
                assert_eq!(
                    keys,
                    ["objective", "steps", "risks", "open_questions"],
                    "{}: the top-level members moved",
                    case.id
                );
                assert_list_kept(&case, got, "steps");
            }
        }
    }
    println!("laid-out plans with code holding JSON exact: {exact}/{total}");
}

/// The same plans with every local fault, written as a tool call's argument
/// (`llmjson_faults::large_code_case_in_call`: `create_plan({…})`, `[create_plan({…})]`, a name
/// glued to prose, a `<tool_call>` tag): the plan is the answer, exact.
#[test]
fn long_plans_inside_a_call_are_the_call_arguments() {
    for size in [64 << 10, 1 << 20] {
        for seed in 0..3 {
            let case = llmjson_faults::large_code_case_in_call(seed, size);
            let parsed = llmjson::parse(&case.input, &Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}", case.id));
            assert!(
                crate::corpus::same_value(&parsed.value, &case.expected),
                "{}: not read as meant",
                case.id
            );
        }
    }
}

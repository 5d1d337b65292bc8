//! Benchmark helper for `scripts/bench.py`, outside the workspace (the peers are benchmark-only
//! dependencies).
//!
//! - `peers-rs generate DIR`: writes the inputs every tool is timed on, each with the value it
//!   should repair to: `NAME.txt` + `NAME.expected.json`, and `replies.jsonl` (10,000 small
//!   broken replies with their expected values).
//! - `peers-rs run DIR`: times serde_json (on the valid twin), llmjson (value and text),
//!   jsonrepair-rs and llm_json on every input; prints JSON Lines
//!   `{tool, input, seconds, correct}` (best of several rounds).

use serde_json::{json, Value};
use std::path::Path;
use std::time::Instant;

#[path = "../../../crates/llmjson/benches/inputs.rs"]
mod inputs;

const FAMILIES: &[(&str, usize)] = &[
    ("1KB", 1 << 10),
    ("64KB", 64 << 10),
    ("1MB", 1 << 20),
    ("10MB", 10 << 20),
];

fn generate(dir: &Path) {
    std::fs::create_dir_all(dir).expect("output dir");
    for &(label, size) in FAMILIES {
        let valid = inputs::valid(size);
        let files = [
            (format!("valid-{label}"), valid.clone(), valid.clone()),
            (
                format!("broken-{label}"),
                inputs::broken(size),
                inputs::broken_expected(size),
            ),
            (
                format!("all-faults-{label}"),
                inputs::broken_all(size),
                inputs::broken_all_expected(size),
            ),
        ];
        for (name, input, expected) in files {
            std::fs::write(dir.join(format!("{name}.txt")), input).expect("write input");
            std::fs::write(dir.join(format!("{name}.expected.json")), expected)
                .expect("write expected");
        }
    }
    // Small replies: a deterministic mix of faults, 0.5–4 KB each, with their expected values.
    let mut lines = String::new();
    for (reply, expected) in inputs::small_replies_with_expected(10_000) {
        let value: Value = serde_json::from_str(&expected).expect("expected parses");
        // `valid`: the valid twin as written, serde_json's baseline for this reply.
        lines.push_str(&json!({"input": reply, "expected": value, "valid": expected}).to_string());
        lines.push('\n');
    }
    std::fs::write(dir.join("replies.jsonl"), lines).expect("write replies");
}

/// Best time of `rounds` runs of `f`, and its last result.
fn best<T>(rounds: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut last = None;
    for _ in 0..rounds {
        let start = Instant::now();
        let out = f();
        best = best.min(start.elapsed().as_secs_f64());
        last = Some(out);
    }
    (best, last.expect("at least one round"))
}

fn value_of(text: Result<String, String>) -> Option<Value> {
    text.ok().and_then(|t| serde_json::from_str(&t).ok())
}

fn run(dir: &Path) {
    let options = llmjson::Options::default();
    for &(label, size) in FAMILIES {
        let rounds = if size >= 1 << 20 { 3 } else { 20 };
        for family in ["valid", "broken", "all-faults"] {
            let name = format!("{family}-{label}");
            let input = std::fs::read_to_string(dir.join(format!("{name}.txt"))).expect("input");
            let expected_text = std::fs::read_to_string(dir.join(format!("{name}.expected.json")))
                .expect("expected");
            let expected: Value = serde_json::from_str(&expected_text).expect("expected parses");
            let report = |tool: &str, seconds: f64, correct: bool| {
                println!(
                    "{}",
                    json!({"tool": tool, "input": name, "bytes": input.len(), "seconds": seconds, "correct": correct})
                );
            };
            let (t, v) = best(rounds, || {
                serde_json::from_str::<Value>(&expected_text).ok()
            });
            report("serde_json (valid twin)", t, v.as_ref() == Some(&expected));
            let (t, v) = best(rounds, || {
                llmjson::parse(&input, &options).map(|p| p.value).ok()
            });
            // Compared outside the timing, as serde_json (default features) holds numbers.
            report("llmjson (library, value)", t, v.map(|v| Value::from(&v)) == Some(expected.clone()));
            let (t, v) = best(rounds, || {
                llmjson::repair_to_string(&input, &options).map_err(|e| e.to_string())
            });
            report(
                "llmjson (library, text)",
                t,
                value_of(v).as_ref() == Some(&expected),
            );
            let (t, v) = best(rounds, || {
                jsonrepair_rs::jsonrepair(&input).map_err(|e| e.to_string())
            });
            report("jsonrepair-rs", t, value_of(v).as_ref() == Some(&expected));
            let llm_options = llm_json::RepairOptions::default();
            let (t, v) = best(rounds, || {
                llm_json::repair_json(&input, &llm_options).map_err(|e| e.to_string())
            });
            report("llm_json", t, value_of(v).as_ref() == Some(&expected));
        }
    }
    // Per-reply latency over the small replies: median and p99 of the best of 3 rounds.
    let text = std::fs::read_to_string(dir.join("replies.jsonl")).expect("replies");
    let records: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("reply line"))
        .collect();
    // Each reply's text in `field` with its expected value: the broken reply (`input`), or its
    // valid twin (`valid`, serde_json's baseline).
    let pairs = |field: &str| -> Vec<(String, Value)> {
        records
            .iter()
            .map(|v| {
                let text = v[field].as_str().unwrap_or_default().to_string();
                (text, v["expected"].clone())
            })
            .collect()
    };
    let cases = pairs("input");
    let twins = pairs("valid");
    // Only the call is timed; its result is checked after (peers give text, parsed then).
    fn latency<R>(
        cases: &[(String, Value)],
        tool: &str,
        run: &dyn Fn(&str) -> R,
        check: &dyn Fn(R) -> Option<Value>,
    ) {
        let mut times = vec![f64::MAX; cases.len()];
        let mut correct = 0;
        for round in 0..3 {
            for (i, (input, expected)) in cases.iter().enumerate() {
                let start = Instant::now();
                let out = run(input);
                times[i] = times[i].min(start.elapsed().as_secs_f64());
                if round == 0 && check(out).as_ref() == Some(expected) {
                    correct += 1;
                }
            }
        }
        times.sort_by(f64::total_cmp);
        println!(
            "{}",
            json!({"tool": tool, "input": "replies", "median": times[times.len() / 2], "p99": times[times.len() * 99 / 100], "correct": correct, "count": cases.len()})
        );
    }
    latency(
        &twins,
        "serde_json (valid twin)",
        &|s| serde_json::from_str::<Value>(s).ok(),
        &|v| v,
    );
    latency(
        &cases,
        "llmjson (library, value)",
        &|s| llmjson::parse(s, &options).map(|p| p.value).ok(),
        &|v| v.map(|v| Value::from(&v)),
    );
    latency(
        &cases,
        "jsonrepair-rs",
        &|s| jsonrepair_rs::jsonrepair(s).map_err(|e| e.to_string()),
        &value_of,
    );
    let llm_options = llm_json::RepairOptions::default();
    latency(
        &cases,
        "llm_json",
        &|s| llm_json::repair_json(s, &llm_options).map_err(|e| e.to_string()),
        &value_of,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("generate"), Some(dir)) => generate(Path::new(dir)),
        (Some("run"), Some(dir)) => run(Path::new(dir)),
        _ => {
            eprintln!("usage: peers-rs generate DIR | peers-rs run DIR");
            std::process::exit(2);
        }
    }
}

//! Every outcome the parser gives on a fixed body of inputs, one line each: the value and the
//! full repair log (kind, span, path, detail), or the error. A change that should only make the
//! parser faster must leave this output identical; `scripts/outcomes.sh BASE` builds this
//! example at `BASE` and at the working tree and compares the two.
//!
//! ```sh
//! cargo run -q --release -p llmjson --example outcomes > outcomes.jsonl
//! ```
//!
//! The inputs: the fault generator's fixed set for `SEEDS` seeds (default 5: 21,600 cases, each
//! read with the options the scoreboard uses), `LARGE` long replies per size (default 2, 64 KB
//! and 1 MB), the benchmark families at 1 KB and 64 KB, hostile strings at 48 KB (code's calls,
//! quotes and commas, quotes only, a cut string), repeated keys in replies that need repair
//! under each duplicate-key policy (a shape the generator does not write), and every case of the shared corpora
//! (`LLMJSON_CORPORA`, default `../shared/corpora`) read with default options and at level
//! `none`, and a case that has a schema guided by it (as it is, and with salvage and `drop`).

#[path = "../benches/inputs.rs"]
mod inputs;

use base64::Engine;
use llmjson::{DuplicateKeys, Options, RepairLevel, Truncation};
use std::io::Write;

const SEEDS: [u64; 8] = [20_261_123, 4242, 9001, 31337, 7, 99, 2024, 65537];

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// One line: `id`, then the outcome.
fn outcome(out: &mut String, id: &str, input: &str, options: &Options) {
    out.clear();
    out.push_str(id);
    out.push('\t');
    match llmjson::parse(input, options) {
        Ok(parsed) => {
            out.push_str(&parsed.value.to_json());
            out.push('\t');
            llmjson::Repair::write_log_json(&parsed.repairs, out);
        }
        Err(e) => {
            out.push_str("error\t");
            out.push_str(&e.to_string().replace('\n', "\\n"));
        }
    }
    out.push('\n');
}

fn main() -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut w = std::io::BufWriter::new(stdout.lock());
    let mut line = String::new();
    let seeds = env_count("SEEDS", 5).min(SEEDS.len());
    for &seed in &SEEDS[..seeds] {
        for case in llmjson_faults::generate(seed, llmjson_faults::fixed_count()) {
            let options = if case.truncation_drop {
                Options::default().truncation(Truncation::Drop)
            } else {
                Options::default()
            };
            outcome(&mut line, &case.id, &case.input, &options);
            w.write_all(line.as_bytes())?;
        }
    }
    for seed in 0..env_count("LARGE", 2) as u64 {
        for size in [64 << 10, 1 << 20] {
            let case = llmjson_faults::large_case(seed, size);
            let options = Options::default().max_removed_ratio(1.0);
            outcome(&mut line, &case.id, &case.input, &options);
            w.write_all(line.as_bytes())?;
        }
    }
    for size in [1 << 10, 64 << 10] {
        for (family, input) in [
            ("valid", inputs::valid(size)),
            ("broken", inputs::broken(size)),
            ("all", inputs::broken_all(size)),
        ] {
            outcome(
                &mut line,
                &format!("bench-{family}-{size}"),
                &input,
                &Options::default(),
            );
            w.write_all(line.as_bytes())?;
        }
    }
    // Hostile strings (the shapes of tests/it/hostile.rs, at 48 KB): a string of code's calls
    // with unescaped quotes, of quotes and commas, of quotes only; a reply cut in a long string.
    for (name, input) in [
        (
            "calls",
            format!(
                "{{\"content\": \"{}\", \"n\": 1}}",
                "print(\"hi\") ".repeat(4000)
            ),
        ),
        (
            "quotes-and-commas",
            format!(
                "{{\"code\": \"{}\", \"n\": 1}}",
                "say \"hi\" and \"bye\", ".repeat(2400)
            ),
        ),
        ("quotes", format!("{{\"a\": \"{}\"}}", "\"".repeat(48_000))),
        ("cut-string", format!("{{\"a\": \"{}", "x y".repeat(16_000))),
    ] {
        outcome(
            &mut line,
            &format!("hostile-{name}"),
            &input,
            &Options::default(),
        );
        w.write_all(line.as_bytes())?;
    }
    // Shapes the generator does not write: repeated keys in replies that need repair, at every
    // depth and in every convention, under each policy (the parser logs them; a lane must not
    // read them silently).
    let repeated = [
        "{\"a\": 1, \"a\": 2,}",
        "Here: {\"x\": {\"a\": 1, \"a\": 2}, \"b\": 1,}",
        "{\"x\": {'a': 1, 'a': 2,}, \"y\": [{\"k\": 1, \"k\": 1}]}",
        "{a: 1, b: {c: 2, c: 3}, // note\n}",
        "[{\"id\": 1, \"id\": 2}, {'id': 3,},]",
    ];
    for (n, input) in repeated.iter().enumerate() {
        for (tag, policy) in [
            ("last", DuplicateKeys::Last),
            ("first", DuplicateKeys::First),
            ("error", DuplicateKeys::Error),
        ] {
            let options = Options::default().duplicate_keys(policy);
            outcome(&mut line, &format!("repeated-{n}-{tag}"), input, &options);
            w.write_all(line.as_bytes())?;
        }
    }
    let corpora = std::env::var("LLMJSON_CORPORA").unwrap_or_else(|_| "../shared/corpora".into());
    let mut files = 0;
    for file in ["seeds", "jsonrepair", "jsontestsuite", "baml", "realworld"] {
        let Ok(text) = std::fs::read_to_string(format!("{corpora}/{file}.jsonl")) else {
            continue;
        };
        files += 1;
        for (n, row) in text.lines().enumerate() {
            let Ok(row) = serde_json::from_str::<serde_json::Value>(row) else {
                continue;
            };
            let id = format!("{file}/{}", row["id"].as_str().unwrap_or(&n.to_string()));
            let input = match (row["input"].as_str(), row["input_b64"].as_str()) {
                (Some(s), _) => s.to_string(),
                (None, Some(b)) => {
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(b)
                        .unwrap_or_default();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                _ => continue,
            };
            for (tag, options) in [
                ("", Options::default()),
                (" none", Options::default().level(RepairLevel::None)),
            ] {
                outcome(&mut line, &format!("{id}{tag}"), &input, &options);
                w.write_all(line.as_bytes())?;
            }
            // A case with a schema is read guided by it too (the schema stage's choice among
            // the reply's values, coercion, validation, salvage).
            let schema = row["options"]["schema"].clone();
            if let Ok(schema) = llmjson::Schema::new(schema).map(std::sync::Arc::new) {
                for (tag, options) in [
                    (" schema", Options::default()),
                    (
                        " schema drop",
                        Options::default()
                            .invalid_items(llmjson::InvalidItems::Drop)
                            .truncation(Truncation::Drop),
                    ),
                ] {
                    let options = options.schema(schema.clone());
                    outcome(&mut line, &format!("{id}{tag}"), &input, &options);
                    w.write_all(line.as_bytes())?;
                }
            }
        }
    }
    if files == 0 {
        eprintln!("outcomes: no corpora at {corpora} (set LLMJSON_CORPORA): generated cases only");
    }
    w.flush()
}

//! Laid-out plans of 64 KB, 1 MB and 10 MB whose steps carry code holding JSON literals with
//! their quotes unescaped (`llmjson_faults::large_code_case`), alone and with every local fault
//! at once: for each, whether the value is the one meant, how many steps differ, and the time.
//!
//! ```sh
//! cargo run --release -p llmjson --example long_documents [SEEDS]
//! ```

use llmjson::Options;
use std::time::Instant;

fn main() {
    let seeds: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2);
    let options = Options::default().max_size(32 << 20).max_removed_ratio(1.0);
    println!("| plan | size | seed | value | steps wrong | time |");
    println!("|---|---:|---:|---|---:|---:|");
    for every_fault in [false, true] {
        for size in [64 << 10, 1 << 20, 10 << 20] {
            for seed in 0..seeds {
                let case = llmjson_faults::large_code_case(seed, size, every_fault);
                let started = Instant::now();
                let parsed = llmjson::parse(&case.input, &options);
                let elapsed = started.elapsed();
                let (verdict, wrong) = match parsed {
                    Ok(parsed) => {
                        let value = serde_json::Value::from(&parsed.value);
                        let want = case.expected["steps"]
                            .as_array()
                            .cloned()
                            .unwrap_or_default();
                        let have = value["steps"].as_array().cloned().unwrap_or_default();
                        let wrong = have.iter().zip(&want).filter(|(h, w)| h != w).count()
                            + want.len().abs_diff(have.len());
                        let exact = value == case.expected;
                        (if exact { "exact" } else { "differs" }.to_string(), wrong)
                    }
                    Err(e) => (format!("error: {e}"), 0),
                };
                println!(
                    "| {} | {} KB | {seed} | {verdict} | {wrong} | {:.0} ms |",
                    if every_fault {
                        "every fault"
                    } else {
                        "code alone"
                    },
                    case.input.len() / 1024,
                    elapsed.as_secs_f64() * 1000.0
                );
            }
        }
    }
}

//! Laid-out plans of about 64 KB, 1 MB and 10 MB (just under the default size limit) whose steps
//! carry code holding JSON literals with their quotes unescaped
//! (`llmjson_faults::large_code_case`), alone, with every local fault at once, and with every
//! fault inside a tool call (`llmjson_faults::large_code_case_in_call`), read with the
//! default options: for each, whether the value is the one meant, how many steps differ, and
//! the time.
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
    // What a user gets without reading the options: the default guard and size limit.
    let options = Options::default();
    println!("| plan | size | seed | value | steps wrong | time |");
    println!("|---|---:|---:|---|---:|---:|");
    for plan in [Plan::CodeAlone, Plan::EveryFault, Plan::EveryFaultInCall] {
        for size in [64 << 10, 1 << 20, 10 << 20] {
            for seed in 0..seeds {
                let case = under_limit(seed, size, plan, options.max_size);
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
                    match plan {
                        Plan::CodeAlone => "code alone",
                        Plan::EveryFault => "every fault",
                        Plan::EveryFaultInCall => "every fault, in a call",
                    },
                    case.input.len() / 1024,
                    elapsed.as_secs_f64() * 1000.0
                );
            }
        }
    }
}

/// The three plans: code alone, every local fault at once, and every fault with the plan
/// written as a tool call's argument (`create_plan({…})`).
#[derive(Clone, Copy)]
enum Plan {
    CodeAlone,
    EveryFault,
    EveryFaultInCall,
}

/// The plan for `size`, asked smaller until it comes out within `limit` (the generator's
/// faults and layout add to the size it aims at).
fn under_limit(seed: u64, size: usize, plan: Plan, limit: usize) -> llmjson_faults::LargeCase {
    let mut size = size;
    loop {
        let case = match plan {
            Plan::CodeAlone => llmjson_faults::large_code_case(seed, size, false),
            Plan::EveryFault => llmjson_faults::large_code_case(seed, size, true),
            Plan::EveryFaultInCall => llmjson_faults::large_code_case_in_call(seed, size),
        };
        if case.input.len() <= limit {
            return case;
        }
        size = size / 100 * 90;
    }
}

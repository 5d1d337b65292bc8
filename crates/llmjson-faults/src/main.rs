//! `llmjson-faults`: writes generated cases as JSON Lines, for scoring any tool by the same cases.
//!
//! ```sh
//! cargo run -q -p llmjson-faults -- --seed 7 --count 2000 > cases.jsonl
//! ```

use clap::Parser;
use llmjson_faults::Fault;
use std::io::Write;

/// Writes generated faulted replies, one JSON object per line: `id`, `faults`, `input`,
/// `expected`, `options`.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The seed (the same seed always gives the same cases).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many cases (by default the scoreboard's fixed set: 60 rounds of the schedule).
    #[arg(long)]
    count: Option<usize>,
    /// Only cases made for this class (by name; repeatable).
    #[arg(long = "class")]
    classes: Vec<String>,
    /// List the classes and exit.
    #[arg(long)]
    list: bool,
    /// Write the large laid-out case of about this many bytes for the seed instead (one line:
    /// `id`, `faults`, `input`, `expected`).
    #[arg(long)]
    large: Option<usize>,
    /// With --large: the plan whose steps hold code, with every local fault at once.
    #[arg(long)]
    code: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    if args.list {
        for f in Fault::ALL {
            println!("{}", f.name());
        }
        return std::process::ExitCode::SUCCESS;
    }
    if let Some(size) = args.large {
        let case = if args.code {
            llmjson_faults::large_code_case(args.seed, size, true)
        } else {
            llmjson_faults::large_case(args.seed, size)
        };
        let faults: Vec<&str> = case.faults.iter().map(|f| f.name()).collect();
        let line = serde_json::json!({
            "id": case.id,
            "faults": faults,
            "input": case.input,
            "expected": case.expected,
        });
        println!("{line}");
        return std::process::ExitCode::SUCCESS;
    }
    let mut wanted = Vec::new();
    for name in &args.classes {
        match Fault::by_name(name) {
            Some(f) => wanted.push(f),
            None => {
                eprintln!("llmjson-faults: unknown class '{name}' (see --list)");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for case in llmjson_faults::generate(
        args.seed,
        args.count.unwrap_or_else(llmjson_faults::fixed_count),
    ) {
        if !wanted.is_empty() && !wanted.contains(&case.faults[0]) {
            continue;
        }
        if writeln!(out, "{}", case.to_json()).is_err() {
            // A closed pipe (`| head`) is not an error.
            return std::process::ExitCode::SUCCESS;
        }
    }
    let _ = out.flush();
    std::process::ExitCode::SUCCESS
}

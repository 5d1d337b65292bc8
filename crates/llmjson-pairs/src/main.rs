//! `llmjson-pairs`: writes generated grounding pairs as JSON Lines, to score any verifier (or a
//! human) on the same pairs.
//!
//! ```sh
//! cargo run -q -p llmjson-pairs -- --seed 7 --count 1300 > pairs.jsonl
//! ```

use clap::Parser;
use llmjson_pairs::Class;
use std::io::Write;

/// Writes generated grounding pairs, one JSON object per line: `id`, `class`, `variant`,
/// `format`, `source`, `language`, `evidence_language`, `evidence`, `answer`, `grounded`, `wrong`.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// The seed (the same seed always gives the same pairs).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many pairs (by default the scoreboard's fixed set).
    #[arg(long)]
    count: Option<usize>,
    /// Only pairs of this class (by name; repeatable).
    #[arg(long = "class")]
    classes: Vec<String>,
    /// List the classes and exit.
    #[arg(long)]
    list: bool,
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    if args.list {
        for c in Class::ALL {
            println!("{}", c.name());
        }
        return std::process::ExitCode::SUCCESS;
    }
    let mut wanted = Vec::new();
    for name in &args.classes {
        match Class::by_name(name) {
            Some(c) => wanted.push(c),
            None => {
                eprintln!("llmjson-pairs: unknown class '{name}' (see --list)");
                return std::process::ExitCode::from(2);
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let count = args.count.unwrap_or_else(llmjson_pairs::fixed_count);
    for p in llmjson_pairs::generate(args.seed, count) {
        if !wanted.is_empty() && !wanted.contains(&p.class) {
            continue;
        }
        if writeln!(out, "{}", p.to_json()).is_err() {
            return std::process::ExitCode::SUCCESS;
        }
    }
    std::process::ExitCode::SUCCESS
}

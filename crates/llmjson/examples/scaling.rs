//! Measures per-reply latency on the shipped example replies, and how parse time grows with
//! input size per input family: the growth exponent between 1 MB and 8 MB (1.0 is linear).
//! Not a test: run it on a quiet machine.
//!
//! ```sh
//! cargo run --release -p llmjson --example scaling             # parse
//! cargo run --release -p llmjson --example scaling -- --stream # StreamParser, 16-byte chunks
//! ```

use llmjson::Options;
use std::time::{Duration, Instant};

#[path = "../benches/inputs.rs"]
mod inputs;

const MB: usize = 1 << 20;

/// A family: its name and a maker of an input of about the given size.
type Family = (&'static str, fn(usize) -> String);

fn families() -> Vec<Family> {
    vec![
        ("valid plan-like document", inputs::valid),
        (
            "broken: unquoted keys, quotes, comments, literals",
            inputs::broken,
        ),
        (
            "every fault at once, in prose and a fence",
            inputs::broken_all,
        ),
        ("string full of unescaped quotes", |n| {
            format!(
                "{{\"content\": \"{}\", \"n\": 1}}",
                "print(\"hi\") ".repeat(n / 12)
            )
        }),
        ("only quotes in a string", |n| {
            format!("{{\"a\": \"{}\"}}", "\"".repeat(n))
        }),
        ("commas in an array", |n| format!("[{}1]", ",".repeat(n))),
        ("repeated {\"a\": (depth error)", |n| {
            "{\"a\":".repeat(n / 5)
        }),
        ("truncated in a huge string", |n| {
            format!("{{\"a\": \"{}", "x y".repeat(n / 3))
        }),
        ("prose with stray brackets", |n| {
            format!("{}{{\"a\": 1}}", "[note] {name} ".repeat(n / 14))
        }),
        ("unclosed think and fences", |n| {
            "<think>```{//".repeat(n / 13)
        }),
    ]
}

/// The whole input fed to a `StreamParser` in 16-byte chunks, then finished.
fn best_of_streamed(runs: usize, input: &str) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let mut stream = llmjson::StreamParser::new(Options::default()).without_events();
            for piece in input.as_bytes().chunks(16) {
                if stream.feed_bytes(piece).is_err() {
                    break;
                }
            }
            let _ = std::hint::black_box(stream.finish());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn best_of(runs: usize, input: &str) -> Duration {
    let options = Options::default();
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            let _ = std::hint::black_box(llmjson::parse(input, &options));
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn latency() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    files.sort();
    println!(
        "{:<28} {:>7} {:>11} {:>11}",
        "example reply", "bytes", "median", "p99"
    );
    let options = Options::default();
    for path in files {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut times: Vec<Duration> = (0..10_000)
            .map(|_| {
                let start = Instant::now();
                let _ = std::hint::black_box(llmjson::parse(&text, &options));
                start.elapsed()
            })
            .collect();
        times.sort();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!(
            "{name:<28} {:>7} {:>9.1}µs {:>9.1}µs",
            text.len(),
            times[times.len() / 2].as_secs_f64() * 1e6,
            times[times.len() * 99 / 100].as_secs_f64() * 1e6
        );
    }
    println!();
}

fn main() {
    latency();
    let streamed = std::env::args().any(|a| a == "--stream");
    println!(
        "{:<52} {:>10} {:>10} {:>9}",
        if streamed {
            "family (StreamParser, 16-byte chunks)"
        } else {
            "family"
        },
        "1 MB",
        "8 MB",
        "exponent"
    );
    for (name, make) in families() {
        let small = make(MB);
        let large = make(8 * MB);
        let (t1, t8) = if streamed {
            (best_of_streamed(5, &small), best_of_streamed(2, &large))
        } else {
            (best_of(7, &small), best_of(3, &large))
        };
        let ratio = t8.as_secs_f64() / t1.as_secs_f64();
        // Sizes differ a little from exactly 8x: use the real ratio.
        let size_ratio = large.len() as f64 / small.len() as f64;
        let exponent = ratio.ln() / size_ratio.ln();
        println!(
            "{name:<52} {:>8.2}ms {:>8.2}ms {exponent:>9.2}",
            t1.as_secs_f64() * 1e3,
            t8.as_secs_f64() * 1e3
        );
    }
}

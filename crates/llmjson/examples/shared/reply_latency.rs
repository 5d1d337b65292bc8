//! Per-reply latency of `llmjson::parse` on a JSON Lines file of replies (`{"reply": …,
//! "valid": …}`, as `crates/llmjson-node/bench/compare.js` writes them): the best of three calls
//! per reply, after a warm-up round; prints the median and p99 in microseconds, for the replies
//! and for their valid twins, as one JSON object. The Node benchmark runs it so that the Node
//! figures are set against the Rust library's on the same replies in the same run: with the
//! system allocator (`examples/reply_latency.rs`, what a Rust program gets unless it chooses)
//! and with mimalloc (`examples/reply_latency_mimalloc.rs`, what the Node addon, the Python
//! extension and the CLI run the library with).
//!
//! ```sh
//! cargo run -q --release -p llmjson --example reply_latency -- replies.jsonl
//! cargo run -q --release -p llmjson --example reply_latency_mimalloc -- replies.jsonl
//! ```

use llmjson::Options;
use std::time::{Duration, Instant};

fn best_times(texts: &[String]) -> Vec<f64> {
    let options = Options::default();
    for text in texts {
        let _ = llmjson::parse(text, &options);
    }
    let mut best = vec![Duration::MAX; texts.len()];
    for _ in 0..3 {
        for (i, text) in texts.iter().enumerate() {
            let start = Instant::now();
            let _ = std::hint::black_box(llmjson::parse(std::hint::black_box(text), &options));
            best[i] = best[i].min(start.elapsed());
        }
    }
    let mut micros: Vec<f64> = best.iter().map(|d| d.as_secs_f64() * 1e6).collect();
    micros.sort_by(f64::total_cmp);
    micros
}

fn at(sorted: &[f64], q: f64) -> f64 {
    let i = ((sorted.len() as f64 * q) as usize).min(sorted.len().saturating_sub(1));
    sorted.get(i).copied().unwrap_or(0.0)
}

/// Times the replies of the file named by the first argument and prints the figures.
pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: reply_latency FILE.jsonl")?;
    let mut replies = Vec::new();
    let mut twins = Vec::new();
    for line in std::fs::read_to_string(path)?.lines() {
        let record: serde_json::Value = serde_json::from_str(line)?;
        let text = |key: &str| record[key].as_str().map(str::to_owned);
        replies.push(text("reply").ok_or("a record without its reply")?);
        twins.push(text("valid").ok_or("a record without its valid twin")?);
    }
    let broken = best_times(&replies);
    let valid = best_times(&twins);
    println!(
        "{}",
        serde_json::json!({
            "replies": replies.len(),
            "broken": {"median": at(&broken, 0.5), "p99": at(&broken, 0.99)},
            "valid": {"median": at(&valid, 0.5), "p99": at(&valid, 0.99)},
        })
    );
    Ok(())
}

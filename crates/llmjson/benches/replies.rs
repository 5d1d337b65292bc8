//! Per-reply latency over 10,000 small broken replies (0.5–4 KB): median and p99, for llmjson on
//! the broken reply and for serde_json on its valid twin (the baseline of the speed targets), in
//! the same run. Criterion reports means; a latency target is about the distribution, so this
//! bench times each reply.
//!
//! ```sh
//! cargo bench -p llmjson --bench replies
//! ```

use llmjson::Options;
use std::time::{Duration, Instant};

mod inputs;

/// The best of three rounds of `parse` on each input (after a warm-up round), sorted.
fn best_times(inputs: &[&str], parse: impl Fn(&str) -> bool) -> Vec<Duration> {
    for input in inputs {
        assert!(parse(input));
    }
    let mut best = vec![Duration::MAX; inputs.len()];
    for _ in 0..3 {
        for (i, input) in inputs.iter().enumerate() {
            let start = Instant::now();
            let ok = parse(std::hint::black_box(input));
            let t = start.elapsed();
            assert!(ok, "input {i} failed");
            best[i] = best[i].min(t);
        }
    }
    best.sort();
    best
}

fn percentile(sorted: &[Duration], p: usize) -> f64 {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)].as_secs_f64() * 1e6
}

fn main() {
    let pairs = inputs::small_replies_with_expected(10_000);
    let replies: Vec<&str> = pairs.iter().map(|(reply, _)| reply.as_str()).collect();
    let twins: Vec<&str> = pairs.iter().map(|(_, valid)| valid.as_str()).collect();
    let options = Options::default();
    let bytes: usize = replies.iter().map(|r| r.len()).sum();
    let llmjson = best_times(&replies, |r| llmjson::parse(r, &options).is_ok());
    let serde = best_times(&twins, |t| {
        serde_json::from_str::<serde_json::Value>(t).is_ok()
    });
    let total: f64 = llmjson.iter().map(Duration::as_secs_f64).sum();
    println!(
        "10,000 broken replies, {} KB in all: median {:.2} µs, p90 {:.2} µs, p99 {:.2} µs, max {:.2} µs, {:.0} MB/s",
        bytes / 1024,
        percentile(&llmjson, 50),
        percentile(&llmjson, 90),
        percentile(&llmjson, 99),
        llmjson.last().map_or(0.0, |d| d.as_secs_f64() * 1e6),
        bytes as f64 / total / 1e6
    );
    println!(
        "serde_json on their valid twins: median {:.2} µs, p99 {:.2} µs; llmjson / serde_json: median {:.2}×, p99 {:.2}×",
        percentile(&serde, 50),
        percentile(&serde, 99),
        percentile(&llmjson, 50) / percentile(&serde, 50),
        percentile(&llmjson, 99) / percentile(&serde, 99),
    );
}

//! Per-reply latency over 10,000 small broken replies (0.5–4 KB): median and p99. Criterion
//! reports means; a latency target is about the distribution, so this bench times each reply.
//!
//! ```sh
//! cargo bench -p llmjson --bench replies
//! ```

use llmjson::Options;
use std::time::{Duration, Instant};

mod inputs;

fn main() {
    let replies = inputs::small_replies(10_000);
    let options = Options::default();
    let bytes: usize = replies.iter().map(String::len).sum();
    // Warm up, then keep the best of three rounds for each reply (the machine is shared).
    for r in &replies {
        let _ = llmjson::parse(r, &options);
    }
    let mut best = vec![Duration::MAX; replies.len()];
    for _ in 0..3 {
        for (i, r) in replies.iter().enumerate() {
            let start = Instant::now();
            let parsed = llmjson::parse(std::hint::black_box(r), &options);
            let t = start.elapsed();
            assert!(parsed.is_ok(), "reply {i} failed: {:?}", parsed.err());
            best[i] = best[i].min(t);
        }
    }
    best.sort();
    let pct = |p: usize| best[(best.len() * p / 100).min(best.len() - 1)].as_secs_f64() * 1e6;
    let total: f64 = best.iter().map(Duration::as_secs_f64).sum();
    println!(
        "10,000 broken replies, {} KB in all: median {:.2} µs, p90 {:.2} µs, p99 {:.2} µs, max {:.2} µs, {:.0} MB/s",
        bytes / 1024,
        pct(50),
        pct(90),
        pct(99),
        best.last().map_or(0.0, |d| d.as_secs_f64() * 1e6),
        bytes as f64 / total / 1e6
    );
}

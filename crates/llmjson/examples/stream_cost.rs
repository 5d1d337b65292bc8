//! Times replies streamed with the default options (events on, never read) against one
//! `parse` each, best of `RUNS`, for `scripts/bench_stream_default.py`. The replies take turns
//! (a slow moment of a shared machine falls on all of them):
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_cost -- 256 reply-1.txt reply-4.txt
//! ```
//!
//! Prints `[{"one_shot": seconds, "streamed": seconds}, …]`, one per reply.

use llmjson::{Options, StreamParser};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 5;

fn timed(f: impl FnOnce()) -> f64 {
    let started = Instant::now();
    f();
    started.elapsed().as_secs_f64()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let chunk: usize = args.next().and_then(|c| c.parse().ok()).unwrap_or(256);
    let texts: Vec<String> = args
        .map(|path| std::fs::read_to_string(path).expect("readable"))
        .collect();
    let options = Options::default();
    let mut best = vec![(f64::INFINITY, f64::INFINITY); texts.len()];
    for _ in 0..RUNS {
        for (text, (one_shot, streamed)) in texts.iter().zip(&mut best) {
            *one_shot = one_shot.min(timed(|| {
                black_box(llmjson::parse(black_box(text), &options).ok());
            }));
            *streamed = streamed.min(timed(|| {
                let mut stream = StreamParser::new(Options::default());
                for piece in text.as_bytes().chunks(chunk) {
                    stream.feed_bytes(piece).expect("under the limits");
                }
                black_box(stream.finish().ok());
            }));
        }
    }
    let rows: Vec<String> = best
        .iter()
        .map(|(one_shot, streamed)| {
            format!("{{\"one_shot\": {one_shot}, \"streamed\": {streamed}}}")
        })
        .collect();
    println!("[{}]", rows.join(", "));
}

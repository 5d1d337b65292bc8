//! What a streaming UI costs: a reply — a list of 64 KB plans — fed in chunks with the value
//! read after every chunk, against one `parse` of the whole reply, best of `RUNS` each, at
//! 16 KB, 256 KB and 1 MB (issue 59). Read after every chunk:
//! - `feed`: nothing (events on, never read);
//! - `events`: [`StreamParser::events`];
//! - `snapshot`: [`StreamParser::snapshot`], a fresh value each time (16 KB only: quadratic);
//! - `live`: [`StreamParser::live`], the value kept up to date in place.
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_snapshots -- 256
//! ```

use llmjson::{Options, StreamParser};
use std::hint::black_box;
use std::time::Instant;

#[path = "../benches/inputs.rs"]
mod inputs;

const RUNS: usize = 3;

fn timed(f: impl FnOnce()) -> f64 {
    let started = Instant::now();
    f();
    started.elapsed().as_secs_f64()
}

/// A list of 64 KB plans (or one smaller plan) of about `size` bytes.
fn reply(size: usize) -> String {
    let plan = inputs::valid(size.min(64 << 10));
    let n = (size / plan.len()).max(1);
    format!("[{}]", vec![plan; n].join(",\n"))
}

fn streamed(text: &str, chunk: usize, read: &str) -> f64 {
    timed(|| {
        let mut stream = StreamParser::new(Options::default());
        for piece in text.as_bytes().chunks(chunk) {
            stream.feed_bytes(piece).expect("under the limits");
            match read {
                "snapshot" => {
                    black_box(stream.snapshot());
                }
                "live" => {
                    black_box(stream.live().value());
                }
                "events" => {
                    black_box(stream.events());
                }
                _ => {}
            }
        }
        black_box(stream.finish().ok());
    })
}

fn main() {
    let chunk: usize = std::env::args()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(256);
    let options = Options::default();
    let modes = ["feed", "events", "live", "snapshot"];
    if let Ok(mode) = std::env::var("ONLY") {
        // One mode (or `parse`), 1 MB, for a profiler or `/usr/bin/time -v`'s peak memory.
        let text = reply(1 << 20);
        for _ in 0..5 {
            if mode == "idle" {
                // (The process and the reply alone: what the others' peaks are read against.)
            } else if mode == "parse" {
                black_box(llmjson::parse(&text, &Options::default()).ok());
            } else {
                black_box(streamed(&text, chunk, &mode));
            }
        }
        return;
    }
    for size in [16 << 10, 256 << 10, 1 << 20] {
        let text = reply(size);
        let mut one_shot = f64::INFINITY;
        let mut best = [f64::INFINITY; 4];
        for _ in 0..RUNS {
            one_shot = one_shot.min(timed(|| {
                black_box(llmjson::parse(black_box(&text), &options).ok());
            }));
            for (mode, best) in modes.iter().zip(&mut best) {
                if *mode == "snapshot" && size > (16 << 10) {
                    continue; // quadratic today
                }
                *best = best.min(streamed(&text, chunk, mode));
            }
        }
        let cells: Vec<String> = modes
            .iter()
            .zip(best)
            .map(|(mode, t)| format!("{mode} {:.1} ms ({:.2}×)", t * 1e3, t / one_shot))
            .collect();
        println!(
            "{:>5} KB, {chunk} B chunks: one-shot {:.2} ms; {}",
            text.len() >> 10,
            one_shot * 1e3,
            cells.join("; ")
        );
    }
}

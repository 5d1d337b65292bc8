//! Times a reply streamed with the default options (events on, never read) against one
//! `parse`, best of `RUNS` each, for `scripts/bench_stream_default.py`:
//!
//! ```sh
//! cargo run -q --release -p llmjson --example stream_cost -- reply.txt 256
//! ```
//!
//! Prints `{"one_shot": seconds, "streamed": seconds}`.

use llmjson::{Options, StreamParser};
use std::hint::black_box;
use std::time::Instant;

const RUNS: usize = 5;

fn best(mut f: impl FnMut()) -> f64 {
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("a reply file");
    let chunk: usize = args.next().and_then(|c| c.parse().ok()).unwrap_or(256);
    let text = std::fs::read_to_string(path).expect("readable");
    let options = Options::default();
    let one_shot = best(|| {
        black_box(llmjson::parse(black_box(&text), &options).ok());
    });
    let streamed = best(|| {
        let mut stream = StreamParser::new(Options::default());
        for piece in text.as_bytes().chunks(chunk) {
            stream.feed_bytes(piece).expect("under the limits");
        }
        black_box(stream.finish().ok());
    });
    println!("{{\"one_shot\": {one_shot}, \"streamed\": {streamed}}}");
}

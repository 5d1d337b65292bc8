//! Streaming against one-shot parsing: a reply fed in small chunks (the live reader's work plus
//! `finish`'s one parse), and a snapshot against building the value once.
//!
//! ```sh
//! cargo bench -p llmjson --bench stream
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llmjson::{Options, StreamParser};
use std::hint::black_box;

mod inputs;

/// What a caller does with events.
#[derive(Clone, Copy, PartialEq)]
enum Events {
    /// Reads them after every chunk.
    Read,
    /// Leaves the default on and never reads them (what a user who only wants the value gets).
    Unread,
    /// Turns them off.
    Off,
}

fn feed(text: &str, chunk: usize, events: Events) -> llmjson::Parsed {
    let mut stream = StreamParser::new(Options::default());
    if events == Events::Off {
        stream = stream.without_events();
    }
    for piece in text.as_bytes().chunks(chunk) {
        stream.feed_bytes(piece).unwrap();
        if events == Events::Read {
            black_box(stream.events());
        }
    }
    stream.finish().unwrap()
}

fn chunked(c: &mut Criterion) {
    let options = Options::default();
    for (label, size, chunk) in [("100KB", 100 << 10, 4), ("1MB", 1 << 20, 16)] {
        for (family, text) in [
            ("valid", inputs::valid(size)),
            ("broken", inputs::broken(size)),
        ] {
            let mut group = c.benchmark_group(format!("stream/{label}/{family}"));
            group.sample_size(10);
            group.throughput(Throughput::Bytes(text.len() as u64));
            group.bench_function(BenchmarkId::new("one-shot", "parse"), |b| {
                b.iter(|| llmjson::parse(black_box(&text), &options).unwrap())
            });
            group.bench_function(
                BenchmarkId::new(format!("{chunk}B chunks"), "events"),
                |b| b.iter(|| feed(black_box(&text), chunk, Events::Read)),
            );
            group.bench_function(
                BenchmarkId::new(format!("{chunk}B chunks"), "default"),
                |b| b.iter(|| feed(black_box(&text), chunk, Events::Unread)),
            );
            group.bench_function(
                BenchmarkId::new(format!("{chunk}B chunks"), "no events"),
                |b| b.iter(|| feed(black_box(&text), chunk, Events::Off)),
            );
            group.bench_function(BenchmarkId::new("one chunk", "no events"), |b| {
                b.iter(|| feed(black_box(&text), usize::MAX, Events::Off))
            });
            group.finish();
        }
    }
}

fn snapshot(c: &mut Criterion) {
    // 100 KB of a plan, cut inside a step.
    let whole = inputs::valid(200 << 10);
    let mut cut = 100 << 10;
    while !whole.is_char_boundary(cut) {
        cut -= 1;
    }
    let partial = &whole[..cut];
    let options = Options::default();
    let mut stream = StreamParser::new(Options::default()).without_events();
    stream.feed(partial).unwrap();
    let value = stream.snapshot().value.unwrap();
    let mut group = c.benchmark_group("snapshot/100KB");
    group.throughput(Throughput::Bytes(partial.len() as u64));
    group.bench_function("snapshot", |b| b.iter(|| black_box(&stream).snapshot()));
    group.bench_function("build the value once (parse_value of the same text)", |b| {
        b.iter(|| llmjson::parse_value(black_box(partial), &options).unwrap())
    });
    group.bench_function("copy the value (Value::clone)", |b| {
        b.iter(|| black_box(&value).clone())
    });
    group.finish();
}

criterion_group!(benches, chunked, snapshot);
criterion_main!(benches);

//! Criterion benchmarks of the library against serde_json (the physical-limit baseline: it parses
//! only the *valid* version of each document).
//!
//! ```sh
//! cargo bench -p llmjson --bench parse
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llmjson::Options;
use std::hint::black_box;

mod inputs;

const SIZES: &[(&str, usize)] = &[
    ("1KB", 1 << 10),
    ("64KB", 64 << 10),
    ("1MB", 1 << 20),
    ("10MB", 10 << 20),
];

fn documents(c: &mut Criterion) {
    let options = Options::default();
    for &(label, size) in SIZES {
        let valid = inputs::valid(size);
        let broken = inputs::broken(size);
        let all = inputs::broken_all(size);
        let mut group = c.benchmark_group(format!("plan/{label}"));
        if size >= 1 << 20 {
            group.sample_size(10);
        }
        group.throughput(Throughput::Bytes(valid.len() as u64));
        group.bench_function(BenchmarkId::new("serde_json", "valid→value"), |b| {
            b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&valid)).unwrap())
        });
        group.bench_function(BenchmarkId::new("llmjson", "valid→value"), |b| {
            b.iter(|| llmjson::parse(black_box(&valid), &options).unwrap())
        });
        group.bench_function(BenchmarkId::new("llmjson", "valid→text"), |b| {
            b.iter(|| llmjson::repair_to_string(black_box(&valid), &options).unwrap())
        });
        group.bench_function(BenchmarkId::new("llmjson", "broken→value"), |b| {
            b.iter(|| llmjson::parse(black_box(&broken), &options).unwrap())
        });
        group.bench_function(BenchmarkId::new("llmjson", "all-faults→value"), |b| {
            b.iter(|| llmjson::parse(black_box(&all), &options).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, documents);
criterion_main!(benches);

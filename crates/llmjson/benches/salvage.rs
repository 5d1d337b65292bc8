//! What salvage costs: a list of extracted records with a schema, valid (the schema stage's
//! clean path) against the same list with 3% of its records invalid, failing (the default) and
//! salvaged (`InvalidItems::Drop`).
//!
//! ```sh
//! cargo bench -p llmjson --bench salvage
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use llmjson::{InvalidItems, Options, Schema};
use std::hint::black_box;

const SCHEMA: &str = r#"{"type": "object", "required": ["records"], "properties": {"records": {
    "type": "array", "items": {"type": "object", "required": ["id", "name", "score"],
    "properties": {"id": {"type": "integer"}, "name": {"type": "string"},
                   "score": {"type": "number", "minimum": 0}}}}}}"#;

/// A fenced, laid-out reply with `n` records; every 33rd lacks its name when `invalid`.
fn reply(n: usize, invalid: bool) -> String {
    let records: Vec<String> = (0..n)
        .map(|i| {
            if invalid && i % 33 == 7 {
                format!("{{\"id\": {i}, \"score\": {}.5}}", i % 9)
            } else {
                format!(
                    "{{\"id\": {i}, \"name\": \"customer {i}\", \"score\": {}.5}}",
                    i % 9
                )
            }
        })
        .collect();
    format!(
        "The records:\n```json\n{{\n  \"records\": [\n    {}\n  ]\n}}\n```\n",
        records.join(",\n    ")
    )
}

fn salvage(c: &mut Criterion) {
    let schema = std::sync::Arc::new(Schema::from_json(SCHEMA).unwrap());
    let failing = Options::default().schema(schema.clone());
    let dropping = failing.clone().invalid_items(InvalidItems::Drop);
    for n in [100, 10_000] {
        let valid = reply(n, false);
        let invalid = reply(n, true);
        let mut group = c.benchmark_group(format!("salvage/{n} records"));
        if n > 1000 {
            group.sample_size(10);
        }
        group.throughput(Throughput::Bytes(invalid.len() as u64));
        group.bench_function(BenchmarkId::new("valid", "schema"), |b| {
            b.iter(|| llmjson::parse(black_box(&valid), &failing).unwrap())
        });
        group.bench_function(BenchmarkId::new("3% invalid", "fail"), |b| {
            b.iter(|| llmjson::parse(black_box(&invalid), &failing).unwrap_err())
        });
        group.bench_function(BenchmarkId::new("3% invalid", "drop"), |b| {
            b.iter(|| llmjson::parse(black_box(&invalid), &dropping).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, salvage);
criterion_main!(benches);

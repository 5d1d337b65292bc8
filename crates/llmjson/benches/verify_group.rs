//! The verify benchmark's measurements: indexing 1 MB of evidence, verifying a 20 KB answer
//! against it, and both.

use criterion::Criterion;
use llmjson::verify::{verify, Evidence, VerifyOptions};
use std::hint::black_box;

#[path = "verify_inputs.rs"]
mod verify_inputs;
use verify_inputs::{answer_text, evidence_text};

/// The three measurements (shared by the benchmark with the system's allocator and the one
/// with mimalloc, as the CLI, the Python extension and the Node addon run the library).
pub fn bench(c: &mut Criterion) {
    let evidence_src = evidence_text(1 << 20);
    let answer = answer_text(20 << 10);
    let options = VerifyOptions::default();
    let mut evidence = Evidence::new();
    evidence.add_text("report", &evidence_src).unwrap();
    let verdict = verify(&answer, &evidence, &options).unwrap();
    assert!(
        verdict.verification.verified,
        "{:?}",
        verdict.verification.issues.first()
    );

    let mut group = c.benchmark_group("verify 20KB answer, 1MB evidence");
    group.sample_size(20);
    group.bench_function("index the evidence", |b| {
        b.iter(|| {
            let mut e = Evidence::new();
            e.add_text("report", black_box(&evidence_src)).unwrap();
            e
        })
    });
    group.bench_function("verify (evidence indexed)", |b| {
        b.iter(|| verify(black_box(&answer), &evidence, &options).unwrap())
    });
    group.bench_function("index and verify", |b| {
        b.iter(|| {
            let mut e = Evidence::new();
            e.add_text("report", black_box(&evidence_src)).unwrap();
            verify(black_box(&answer), &e, &options).unwrap()
        })
    });
    group.finish();
}

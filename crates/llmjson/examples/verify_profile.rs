//! The verify benchmark's work once, for an instruction counter (the machine is noisy; counts are
//! the steady measure of a change): index the 1 MB report, then verify the 20 KB answer.
//!
//! ```sh
//! cargo build --profile profiling -p llmjson --example verify_profile
//! valgrind --tool=callgrind target/profiling/examples/verify_profile
//! ```
//!
//! `STAGE=index` indexes only; `SIZE` sets the evidence's size in bytes (default 1 MiB).

#[path = "../benches/verify_inputs.rs"]
mod verify_inputs;

fn main() {
    let size = std::env::var("SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 20);
    let evidence_src = verify_inputs::evidence_text(size);
    let answer = verify_inputs::answer_text(20 << 10);
    let mut evidence = llmjson::verify::Evidence::new();
    evidence
        .add_text("report", &evidence_src)
        .expect("the report indexes");
    if std::env::var("STAGE").as_deref() == Ok("index") {
        return;
    }
    let verdict = llmjson::verify::verify(
        &answer,
        &evidence,
        &llmjson::verify::VerifyOptions::default(),
    )
    .expect("the answer verifies");
    assert!(verdict.verification.verified);
}

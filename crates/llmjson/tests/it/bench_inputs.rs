//! The benchmark inputs (`benches/inputs.rs`) give the values they stand for: a benchmark of
//! a wrong answer measures nothing. (`scripts/bench.py` checks the same for every peer.)

#[path = "../../benches/inputs.rs"]
mod inputs;

use crate::support::json;
use llmjson::Options;

#[track_caller]
fn gives(reply: &str, expected: &str) {
    let parsed = llmjson::parse(reply, &Options::default()).expect("the benchmark input parses");
    assert!(
        parsed.value == json(expected),
        "{reply:.200}…\ngave {:.300}…",
        parsed.value.to_string()
    );
}

#[test]
fn each_benchmark_family_gives_its_valid_twin() {
    for size in [1 << 10, 3000, 16 << 10, 64 << 10, 1 << 20] {
        gives(&inputs::broken(size), &inputs::broken_expected(size));
        gives(
            &inputs::broken_all(size),
            &inputs::broken_all_expected(size),
        );
    }
    // The 10 MB inputs take seconds in a debug build: `LLMJSON_BENCH_10MB=1` adds them
    // (scripts/bench.py checks every size's value on every run).
    if std::env::var_os("LLMJSON_BENCH_10MB").is_some() {
        gives(
            &inputs::broken(10 << 20),
            &inputs::broken_expected(10 << 20),
        );
        gives(
            &inputs::broken_all(10 << 20),
            &inputs::broken_all_expected(10 << 20),
        );
    }
    for (reply, expected) in inputs::small_replies_with_expected(60) {
        gives(&reply, &expected);
    }
}

//! Whatever llmjson returns is valid JSON: the value's text is accepted by serde_json and reads
//! back to itself (exact digits), and `repair_to_string` gives the same text. A number past
//! f64's range (`1e400`) is valid JSON that llmjson keeps as written and serde_json refuses
//! ("number out of range"): that refusal alone is accepted, and llmjson's strict level checks
//! the grammar.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, Value};

/// serde_json accepts `json`, or refuses it only for a number past f64's range; llmjson's
/// strict level (no repair at all) reads it.
fn valid_json(json: &str) {
    if let Err(e) = serde_json::from_str::<serde_json::Value>(json) {
        assert!(
            e.to_string().starts_with("number out of range"),
            "serde_json reads the output: {e}"
        );
    }
    llmjson::parse(json, &Options::strict()).expect("the strict level reads the output");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = Options::default();
    if let Ok(parsed) = llmjson::parse(text, &options) {
        let out = parsed.value.to_json();
        valid_json(&out);
        let back: Value = out.parse().expect("output reads back");
        assert_eq!(back, parsed.value);
        assert_eq!(back.to_json(), out);
        let repaired = llmjson::repair_to_string(text, &options).expect("repairs again");
        valid_json(&repaired);
        let again: Value = repaired.parse().expect("repaired text reads back");
        assert_eq!(again, parsed.value);
        for r in &parsed.repairs {
            assert!(r.span.start <= r.span.end && r.span.end <= text.len() + 3);
        }
    }
});

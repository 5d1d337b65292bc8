//! Whatever llmjson returns is valid JSON: the value serialises and parses back to itself, and
//! `repair_to_string` gives text serde_json accepts.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = Options::default();
    if let Ok(parsed) = llmjson::parse(text, &options) {
        let out = serde_json::to_string(&parsed.value).expect("serialises");
        let back: Value = serde_json::from_str(&out).expect("output parses");
        assert_eq!(back, parsed.value);
        let repaired = llmjson::repair_to_string(text, &options).expect("repairs again");
        let again: Value = serde_json::from_str(&repaired).expect("repaired text parses");
        assert_eq!(again, parsed.value);
        for r in &parsed.repairs {
            assert!(r.span.start <= r.span.end && r.span.end <= text.len() + 3);
        }
    }
});

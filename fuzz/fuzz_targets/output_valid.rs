//! Whatever llmjson returns is valid JSON: the value's text is accepted by serde_json and reads
//! back to itself (exact digits), and `repair_to_string` gives the same text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, Value};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let options = Options::default();
    if let Ok(parsed) = llmjson::parse(text, &options) {
        let out = parsed.value.to_json();
        serde_json::from_str::<serde_json::Value>(&out).expect("serde_json reads the output");
        let back: Value = out.parse().expect("output reads back");
        assert_eq!(back, parsed.value);
        assert_eq!(back.to_json(), out);
        let repaired = llmjson::repair_to_string(text, &options).expect("repairs again");
        serde_json::from_str::<serde_json::Value>(&repaired).expect("repaired text parses");
        let again: Value = repaired.parse().expect("repaired text reads back");
        assert_eq!(again, parsed.value);
        for r in &parsed.repairs {
            assert!(r.span.start <= r.span.end && r.span.end <= text.len() + 3);
        }
    }
});

//! On input serde_json accepts, llmjson (at every level) gives the same value with no repairs;
//! at level `none` llmjson accepts nothing serde_json rejects.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, RepairKind, RepairLevel};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match serde_json::from_str::<Value>(text) {
        Ok(expected) => {
            if depth(&expected) > 100 {
                return;
            }
            for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
                let parsed = llmjson::parse(text, &Options::default().level(level))
                    .unwrap_or_else(|e| panic!("valid JSON refused at {level:?}: {e}"));
                // serde_json (default features) holds numbers as f64: compared after the same
                // conversion. llmjson's exact digits must survive its own writer and reader.
                assert_eq!(Value::from(&parsed.value), expected, "value differs at {level:?}");
                let written = parsed.value.to_json();
                let back: llmjson::Value = written.parse().expect("own output reads back");
                assert_eq!(back.to_json(), written);
                assert!(
                    parsed.repairs.iter().all(|r| r.kind == RepairKind::DuplicateKey),
                    "repairs on valid JSON at {level:?}: {:?}",
                    parsed.repairs
                );
            }
        }
        // serde_json (default features) refuses numbers beyond f64's range; they are valid JSON,
        // and llmjson keeps their digits.
        Err(e) if e.to_string().contains("number out of range") => {}
        Err(_) => {
            if let Ok(parsed) = llmjson::parse(text, &Options::strict()) {
                // Level none locates (fences, <think>) before parsing strictly: only then may it
                // accept what serde_json refuses.
                let located = &text[parsed.span.clone()];
                let again: Result<Value, _> = serde_json::from_str(located);
                assert!(
                    again.is_ok()
                        || again.is_err_and(|e| e.to_string().contains("number out of range")),
                    "level none accepted invalid JSON: {located:?}"
                );
            }
        }
    }
});

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

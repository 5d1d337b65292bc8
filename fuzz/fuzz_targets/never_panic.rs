//! Any bytes, any level: llmjson returns a value or a typed error, and never panics or hangs.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, RepairLevel, Truncation};

fuzz_target!(|data: &[u8]| {
    for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
        for truncation in [Truncation::Complete, Truncation::Drop] {
            let options = Options::default().level(level).truncation(truncation);
            let _ = llmjson::parse_bytes(data, &options);
        }
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = llmjson::parse_all(text, &Options::default());
        let _ = llmjson::extract(text, &Options::default());
    }
});

//! Any bytes against a schema: a value that fits it, or a typed error; never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, Schema};
use std::sync::LazyLock;

static OPTIONS: LazyLock<Options> = LazyLock::new(|| {
    let schema = Schema::from_json(
        r#"{"type": "object", "additionalProperties": false, "required": ["steps"],
            "properties": {"steps": {"type": "array", "items": {"anyOf": [
              {"type": "object", "properties": {"id": {"type": "string"},
                "tool": {"enum": ["python", "shell"]}, "n": {"type": "integer", "default": 1}},
                "required": ["id", "n"], "additionalProperties": false},
              {"type": "string"}]}}, "ok": {"type": "boolean"}}}"#,
    )
    .expect("schema compiles");
    Options::default().schema(schema)
});

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = llmjson::parse_bytes(data, &OPTIONS) {
        assert!(OPTIONS.schema.as_ref().unwrap().is_valid(&parsed.value));
    }
});

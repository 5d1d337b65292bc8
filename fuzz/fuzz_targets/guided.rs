//! Any bytes against a schema, failing on an invalid item and salvaging the list: a value that
//! fits it, or a typed error; never a panic or a hang. A salvaged item's span lies in the input.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{InvalidItems, Options, Schema};
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

static SALVAGING: LazyLock<Options> =
    LazyLock::new(|| OPTIONS.clone().invalid_items(InvalidItems::Drop));

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = llmjson::parse_bytes(data, &OPTIONS) {
        assert!(OPTIONS.schema.as_ref().unwrap().is_valid(&parsed.value));
    }
    if let Ok(parsed) = llmjson::parse_bytes(data, &SALVAGING) {
        assert!(OPTIONS.schema.as_ref().unwrap().is_valid(&parsed.value));
        for item in &parsed.dropped {
            assert!(item.span.start <= item.span.end && !item.errors.is_empty());
        }
    }
});

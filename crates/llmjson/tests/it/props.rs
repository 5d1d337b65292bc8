//! Properties: valid JSON round-trips unchanged; any input gives valid JSON or a typed error.

use llmjson::{Options, RepairLevel, Value};
use proptest::prelude::*;

pub fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| llmjson::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        any::<String>().prop_map(Value::String),
        "[a-z\"\\\\{}\\[\\]:,` \n]{0,12}".prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((any::<String>(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Text that looks like broken model output: JSON-ish tokens in random order.
pub fn jsonish_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("{".to_string()),
        Just("}".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("“".to_string()),
        Just("\\".to_string()),
        Just("```json\n".to_string()),
        Just("```".to_string()),
        Just("<think>".to_string()),
        Just("</think>".to_string()),
        Just("/*".to_string()),
        Just("*/".to_string()),
        Just("//".to_string()),
        Just("\n".to_string()),
        Just("True".to_string()),
        Just("null".to_string()),
        Just("...".to_string()),
        Just("+".to_string()),
        Just("(".to_string()),
        Just(")".to_string()),
        "-?[0-9]{0,3}(\\.[0-9]{0,2})?([eE][+-]?[0-9]{0,2})?",
        "[a-zA-Zé日本 ]{1,6}",
        "\\\\u[0-9a-fA-FzZ]{0,4}",
    ];
    prop::collection::vec(token, 0..40).prop_map(|t| t.concat())
}

/// Every successful parse yields a value whose text parses back to the same value.
fn assert_output_is_valid(input: &str, options: &Options) {
    if let Ok(parsed) = llmjson::parse(input, options) {
        let text = parsed.value.to_json();
        // Valid JSON to an independent reader, and exactly the same value read back (digits too).
        // The syntax is checked with `RawValue`, which keeps numbers as text: `1E310` is JSON
        // (llmjson keeps a number's digits), beyond what serde_json's `Value` holds.
        let _: Box<serde_json::value::RawValue> =
            serde_json::from_str(&text).expect("output is JSON");
        if let Ok(independent) = serde_json::from_str::<serde_json::Value>(&text) {
            assert!(crate::corpus::same_value(&parsed.value, &independent));
        }
        let back = llmjson::parse(&text, &Options::default().level(RepairLevel::None))
            .expect("output reads back strictly");
        assert_eq!(back.value.to_json(), text);
        assert!(parsed.span.start <= parsed.span.end && parsed.span.end <= input.len());
        for r in &parsed.repairs {
            assert!(
                r.span.start <= input.len() && r.line >= 1 && r.column >= 1,
                "{r:?}"
            );
        }
        let repaired = llmjson::repair_to_string(input, options).expect("same input repairs");
        let _: Box<serde_json::value::RawValue> =
            serde_json::from_str(&repaired).expect("repaired text is JSON");
        if let Ok(reparsed) = serde_json::from_str::<serde_json::Value>(&repaired) {
            assert!(crate::corpus::same_value(&parsed.value, &reparsed));
        }
    }
}

/// 512 cases per property by default; `PROPTEST_CASES=N` for a longer campaign.
pub fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(512);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn valid_json_comes_out_identical_with_no_repairs(value in json_value(), pretty in any::<bool>()) {
        let text = if pretty {
            value.to_json_pretty()
        } else {
            value.to_json()
        };
        for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
            let parsed = llmjson::parse(&text, &Options::default().level(level));
            let parsed = parsed.unwrap_or_else(|e| panic!("{text}\n{e}"));
            prop_assert_eq!(&parsed.value, &value);
            prop_assert!(parsed.repairs.is_empty(), "{:?}", parsed.repairs);
            prop_assert_eq!(llmjson::repair_to_string(&text, &Options::default()).unwrap(), text.clone());
        }
    }

    #[test]
    fn valid_json_in_a_fence_with_prose_comes_out_identical(value in json_value()) {
        let doc = value.to_json_pretty();
        let reply = format!("Here you go:\n```json\n{doc}\n```\nAnything else?");
        if value.is_object() || value.is_array() {
            let parsed = llmjson::parse(&reply, &Options::default()).unwrap();
            prop_assert_eq!(parsed.value, value);
        }
    }

    #[test]
    fn any_bytes_give_valid_json_or_a_typed_error(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
            let options = Options::default().level(level);
            let _ = llmjson::parse_bytes(&bytes, &options);
            assert_output_is_valid(&String::from_utf8_lossy(&bytes), &options);
        }
    }

    #[test]
    fn any_jsonish_text_gives_valid_json_or_a_typed_error(text in jsonish_text()) {
        for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
            assert_output_is_valid(&text, &Options::default().level(level));
            let _ = llmjson::parse_all(&text, &Options::default().level(level));
        }
    }

    #[test]
    fn every_prefix_of_a_valid_document_parses(value in json_value()) {
        let text = value.to_json();
        if !(value.is_object() || value.is_array()) || text.len() > 400 {
            return Ok(());
        }
        for cut in 1..text.len() {
            if text.is_char_boundary(cut) {
                let prefix = &text[..cut];
                let parsed = llmjson::parse(prefix, &Options::default());
                let parsed = parsed.unwrap_or_else(|e| panic!("{prefix}\n{e}"));
                // One reading beats the cut: a string that runs to the end with the closers
                // of every open container in its text (`{"score: 1}`) lost its closing quote.
                let lost_quote = closes_everything_in_a_string(prefix)
                    && parsed.repairs.iter().any(|r| r.kind == llmjson::RepairKind::MissingEndQuote);
                prop_assert!(
                    lost_quote || crate::truncation::consistent(&parsed.value, &value),
                    "prefix {} gave {}", prefix, parsed.value
                );
            }
        }
    }
}

/// `prefix` (a prefix of compact JSON) ends inside a string whose text ends with a closer for
/// every container open before it.
fn closes_everything_in_a_string(prefix: &str) -> bool {
    let (mut depth, mut in_string, mut escaped, mut open_depth, mut closers) =
        (0, false, false, 0, 0);
    for c in prefix.chars() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            closers = if matches!(c, '}' | ']') {
                closers + 1
            } else if c == ' ' {
                closers
            } else {
                0
            };
            continue;
        }
        match c {
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            '"' => {
                in_string = true;
                open_depth = depth;
                closers = 0;
            }
            _ => {}
        }
    }
    in_string && closers >= open_depth && open_depth > 0
}

/// Schemas that exercise every coercion path: unions, enums, lists, defaults, maps, refs.
const SCHEMAS: &[&str] = &[
    r#"{"type": "object", "properties": {"a": {"type": "integer", "default": 1},
        "b": {"type": "array", "items": {"type": "boolean"}}, "c": {"enum": ["X", "y z"]}},
        "required": ["a"], "additionalProperties": false}"#,
    r##"{"anyOf": [{"type": "number"}, {"type": "array", "items": {"$ref": "#/$defs/s"}},
        {"type": "null"}], "$defs": {"s": {"type": ["string", "null"]}}}"##,
    r#"{"type": "object", "additionalProperties": {"type": "object",
        "properties": {"k": {"const": "K"}}, "required": ["k"]}}"#,
    r#"{"type": "string"}"#,
];

fn schema_options(index: usize) -> Options {
    Options::default().schema(llmjson::Schema::from_json(SCHEMAS[index % SCHEMAS.len()]).unwrap())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn with_a_schema_any_text_gives_a_fitting_value_or_a_typed_error(
        text in jsonish_text(),
        index in 0..SCHEMAS.len(),
    ) {
        let options = schema_options(index);
        if let Ok(parsed) = llmjson::parse(&text, &options) {
            let schema = options.schema.as_ref().unwrap();
            prop_assert!(schema.is_valid(&parsed.value), "{}", parsed.value);
        }
    }

    #[test]
    fn with_a_schema_a_fitting_document_comes_out_untouched(
        value in prop_oneof![
            json_value().prop_filter("a container", |v| v.is_object() || v.is_array()),
            prop::collection::vec(
                prop_oneof![Just(Value::Null), any::<String>().prop_map(Value::String)],
                0..8,
            )
            .prop_map(Value::Array),
        ],
    ) {
        // Any container fits the first schema; the lists also fit the union of the second.
        let open = Options::default()
            .schema(llmjson::Schema::from_json(r#"{"type": ["object", "array"]}"#).unwrap());
        for options in [open, schema_options(1)] {
            if !options.schema.as_ref().unwrap().is_valid(&value) {
                continue;
            }
            let text = value.to_json();
            let parsed = llmjson::parse(&text, &options).unwrap();
            prop_assert_eq!(&parsed.value, &value);
            prop_assert!(parsed.repairs.is_empty());
        }
    }

    #[test]
    fn with_a_schema_any_value_coerces_or_is_refused_with_errors(value in json_value(), index in 0..SCHEMAS.len()) {
        let options = schema_options(index);
        let text = value.to_json();
        match llmjson::parse(&text, &options) {
            Ok(parsed) => prop_assert!(options.schema.as_ref().unwrap().is_valid(&parsed.value)),
            Err(llmjson::Error::Schema { errors, .. }) => prop_assert!(!errors.is_empty()),
            Err(other) => prop_assert!(false, "unexpected error {other}"),
        }
    }

    #[test]
    fn with_salvage_any_text_gives_a_fitting_value_or_a_typed_error(
        text in jsonish_text(),
        index in 0..SCHEMAS.len(),
    ) {
        let options = schema_options(index).invalid_items(llmjson::InvalidItems::Drop);
        if let Ok(parsed) = llmjson::parse(&text, &options) {
            let schema = options.schema.as_ref().unwrap();
            prop_assert!(schema.is_valid(&parsed.value), "{}", parsed.value);
            for item in &parsed.dropped {
                prop_assert!(item.span.end <= text.len() && item.span.start <= item.span.end);
                prop_assert!(!item.errors.is_empty());
            }
        }
    }

    #[test]
    fn salvage_keeps_exactly_the_valid_items_and_names_each_other_by_its_text(
        items in prop::collection::vec(
            prop_oneof![
                any::<i64>().prop_map(|n| Value::Number(n.into())),
                (any::<String>(), any::<bool>()).prop_map(|(a, b)| {
                    let mut map = llmjson::Map::new();
                    map.insert("a".to_string(), Value::String(a));
                    map.insert("b".to_string(), Value::Bool(b));
                    Value::Object(map)
                }),
            ],
            0..24,
        ),
        pretty in any::<bool>(),
    ) {
        let options = Options::default()
            .schema(llmjson::Schema::from_json(r#"{"type": "array", "items": {"type": "integer"}}"#).unwrap())
            .invalid_items(llmjson::InvalidItems::Drop)
            .max_removed_ratio(1.0);
        let list = Value::Array(items.clone());
        let text = if pretty { list.to_json_pretty() } else { list.to_json() };
        let parsed = llmjson::parse(&text, &options).unwrap();
        let kept: Vec<Value> = items.iter().filter(|v| v.is_number()).cloned().collect();
        prop_assert_eq!(&parsed.value, &Value::Array(kept));
        let bad: Vec<usize> = (0..items.len()).filter(|&i| items[i].is_object()).collect();
        let paths: Vec<String> = parsed.dropped.iter().map(|d| d.path.clone()).collect();
        let expected: Vec<String> = bad.iter().map(|i| format!("/{i}")).collect();
        prop_assert_eq!(paths, expected);
        for (item, &i) in parsed.dropped.iter().zip(&bad) {
            let written: Value = text[item.span.clone()].parse().unwrap();
            prop_assert_eq!(&written, &items[i]);
        }
    }
}

/// Found by `every_prefix_of_a_valid_document_parses` on a random seed (stop 79), and there
/// before it: `{"":" a}[}}` (a string cut short) reads as a stray quote, a bare word and 3
/// bytes left out (`{"":"a"}`), where the cut string (`{"":" a}[}}"}`, its quote lost) is the
/// reading the property wants. A decision of the cost table (issue 62's work); kept here,
/// ignored, so that it is not lost.
#[test]
#[ignore = "known: a cut string read as a stray quote and a bare word (issue 62)"]
fn a_cut_string_after_a_space_is_not_a_stray_quote() {
    let parsed = llmjson::parse(r#"{"":" a}[}}"#, &Options::default()).unwrap();
    assert_eq!(parsed.value.to_json(), r#"{"":" a}[}}"}"#);
}

//! The Rust API around the pipeline: text output, typed results, bytes.

use crate::support::json;
use llmjson::{Options, Value};
use serde::Deserialize;

#[derive(Debug, Deserialize, PartialEq)]
struct Step {
    id: String,
    tool: String,
}

#[derive(Debug, Deserialize, PartialEq)]
struct Plan {
    version: String,
    steps: Vec<Step>,
}

#[test]
fn from_str_gives_a_typed_value_from_a_messy_reply() {
    let reply = "Sure:\n```json\n{“version”: \"1.0\", \"steps\":[{\"id\":\"s1\",\"tool\":\"python\",}],}\n```";
    let plan: Plan = llmjson::from_str(reply).unwrap();
    assert_eq!(plan.version, "1.0");
    assert_eq!(
        plan.steps,
        [Step {
            id: "s1".into(),
            tool: "python".into()
        }]
    );
}

#[test]
fn from_str_with_respects_options() {
    let strict = Options::strict();
    assert!(
        llmjson::from_str_with::<Plan>("{\"version\": \"1\", \"steps\": [],}", &strict).is_err()
    );
    let ok: Plan = llmjson::from_str_with("{\"version\": \"1\", \"steps\": []}", &strict).unwrap();
    assert_eq!(ok.version, "1");
}

#[test]
fn repair_to_string_copies_valid_json_and_compacts_repaired_json() {
    let valid = "Here:\n{\n  \"a\": [1, 2],\n  \"b\": \"é\"\n}\nThanks";
    assert_eq!(
        llmjson::repair_to_string(valid, &Options::default()).unwrap(),
        "{\n  \"a\": [1, 2],\n  \"b\": \"é\"\n}"
    );
    let broken = "{'a': [1, 2,], \"b\": None}";
    let out = llmjson::repair_to_string(broken, &Options::default()).unwrap();
    assert_eq!(out, r#"{"a":[1,2],"b":null}"#);
    // Output always parses.
    let _: Value = serde_json::from_str(&out).unwrap();
}

#[test]
fn parse_bytes_matches_parse_on_utf8() {
    let text = "x {\"a\": 1}";
    let from_bytes = llmjson::parse_bytes(text.as_bytes(), &Options::default()).unwrap();
    let from_text = llmjson::parse(text, &Options::default()).unwrap();
    assert_eq!(from_bytes, from_text);
}

#[test]
fn parsed_reports_repair_state() {
    let clean = llmjson::parse("{\"a\": 1}", &Options::default()).unwrap();
    assert!(!clean.is_repaired() && !clean.is_truncated());
    assert_eq!(clean.removed_share(), 0.0);
    let cut = llmjson::parse("{\"a\": [1", &Options::default()).unwrap();
    assert!(cut.is_repaired() && cut.is_truncated());
    assert_eq!(cut.value, json(r#"{"a": [1]}"#));
}

#[test]
fn the_depth_limit_holds_on_every_fast_path() {
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    assert!(!llmjson::is_valid_document(&deep));
    assert!(llmjson::is_valid_document(&format!(
        "{}{}",
        "[".repeat(127),
        "]".repeat(127)
    )));
    // Brackets inside strings are not nesting.
    assert!(llmjson::is_valid_document(&format!(
        "[\"{}\"]",
        "[".repeat(500)
    )));
    let options = llmjson::Options::default();
    assert_eq!(
        llmjson::parse(&deep, &options).unwrap_err().kind(),
        "too_deep"
    );
    assert_eq!(
        llmjson::repair_to_string(&deep, &options)
            .unwrap_err()
            .kind(),
        "too_deep"
    );
    // A higher limit lets it through, by every entry point.
    let options = options.max_depth(300);
    assert_eq!(llmjson::repair_to_string(&deep, &options).unwrap(), deep);
    assert!(llmjson::parse(&deep, &options).is_ok());
}

//! Truncation at any byte: the longest sensible value, under both policies.

use crate::support::{check, check_with, json, kinds, parse_with};
use llmjson::{Options, RepairKind, Truncation, Value};

/// A TechnicalPlan-like reply: nested objects and arrays of objects, unicode, code in strings.
pub const PLAN: &str = r#"{
  "title": "Espaço de projetos",
  "dataModel": {
    "entities": [
      {"name": "User", "fields": [{"name": "id", "type": "uuid"}, {"name": "email", "type": "string", "unique": true}]},
      {"name": "Project", "fields": [{"name": "title", "type": "string"}, {"name": "budget", "type": "decimal", "default": 12.50}]}
    ],
    "relationships": [{"from": "Project", "to": "User", "kind": "many-to-one"}]
  },
  "fileStructure": {"src": {"models": ["user.ts", "project.ts"], "api": {"routes": ["GET /projects", "POST /projects"]}}},
  "snippets": [{"path": "a.py", "content": "print(\"hi\")\nx = {'k': [1, 2]}\n"}],
  "notes": "日本語のメモ: 「重要」",
  "estimate": {"days": 3, "confidence": null, "risks": []}
}"#;

/// `partial` is what a cut-off `original` may become: every member but the last equal, the
/// last one recursively consistent; a cut string a prefix; a cut scalar of the same type.
pub fn consistent(partial: &Value, original: &Value) -> bool {
    match (partial, original) {
        (Value::Object(p), Value::Object(o)) => {
            let mut keys = p.keys().peekable();
            let mut orig_keys = o.keys();
            while let Some(k) = keys.next() {
                // Members come in order: the partial's keys are a prefix of the original's.
                if orig_keys.next() != Some(k) {
                    return false;
                }
                let last = keys.peek().is_none();
                let ok = if last {
                    consistent(&p[k], &o[k])
                } else {
                    p[k] == o[k]
                };
                if !ok {
                    return false;
                }
            }
            true
        }
        (Value::Array(p), Value::Array(o)) => {
            p.len() <= o.len()
                && p.iter().enumerate().all(|(i, v)| {
                    if i + 1 == p.len() {
                        consistent(v, &o[i])
                    } else {
                        *v == o[i]
                    }
                })
        }
        (Value::String(p), Value::String(o)) => o.starts_with(p.as_str()),
        (Value::Number(_), Value::Number(_)) => true,
        (Value::Bool(_), Value::Bool(_)) | (Value::Null, Value::Null) => true,
        _ => false,
    }
}

#[test]
fn a_plan_cut_at_every_byte_keeps_everything_before_the_cut() {
    let original: Value = serde_json::from_str(PLAN).unwrap();
    for policy in [Truncation::Complete, Truncation::Drop] {
        let options = Options::default().truncation(policy);
        for cut in 1..PLAN.len() {
            if !PLAN.is_char_boundary(cut) {
                continue;
            }
            let prefix = &PLAN[..cut];
            let parsed = llmjson::parse(prefix, &options)
                .unwrap_or_else(|e| panic!("cut at {cut} ({policy:?}): {e}\n{prefix}"));
            assert!(
                consistent(&parsed.value, &original),
                "cut at {cut} ({policy:?}) gave {}\nfrom {prefix}",
                parsed.value
            );
            assert!(
                parsed.is_truncated() || parsed.value == original,
                "cut at {cut}"
            );
        }
    }
}

#[test]
fn a_plan_cut_inside_a_nested_array_of_objects() {
    let cut = &PLAN[..PLAN.find("\"type\": \"decimal\"").unwrap() + 12];
    assert!(cut.ends_with("\"type\": \"dec"));
    let complete = parse_with(cut, &Options::default());
    let fields = &complete.value["dataModel"]["entities"][1]["fields"];
    assert_eq!(fields[1], json(r#"{"name": "budget", "type": "dec"}"#));
    assert_eq!(complete.value["dataModel"]["entities"][0]["name"], "User");
    assert!(complete.is_truncated());

    let dropped = parse_with(cut, &Options::default().truncation(Truncation::Drop));
    let fields = &dropped.value["dataModel"]["entities"][1]["fields"];
    assert_eq!(fields[1], json(r#"{"name": "budget"}"#));
    assert!(kinds(&dropped).contains(&RepairKind::DroppedTruncatedMember));
}

#[test]
fn the_seed_cases() {
    let fenced = "Aqui está o plano técnico:\n```json\n{\"dataModel\": {\"entities\": [{\"name\": \"User\", \"fields\": [{\"name\": \"id\", \"type\": \"uuid\"}]}, {\"name\": \"Project\", \"fields\": [{\"name\": \"title\", \"type\": \"str";
    check(
        fenced,
        r#"{"dataModel": {"entities": [{"name": "User", "fields": [{"name": "id", "type": "uuid"}]}, {"name": "Project", "fields": [{"name": "title", "type": "str"}]}]}}"#,
    );
    check_with(
        fenced,
        &Options::default().truncation(Truncation::Drop),
        r#"{"dataModel": {"entities": [{"name": "User", "fields": [{"name": "id", "type": "uuid"}]}, {"name": "Project", "fields": [{"name": "title"}]}]}}"#,
    );
    check("{\"a\": 1, \"b\": [1, 2], \"c", r#"{"a": 1, "b": [1, 2]}"#);
    check("{\"a\": 1, \"b\":", r#"{"a": 1}"#);
    check(
        "{\"steps\": [{\"id\": \"s1\"},",
        r#"{"steps": [{"id": "s1"}]}"#,
    );
}

#[test]
fn partial_numbers_and_literals() {
    check("{\"a\": 2.", r#"{"a": 2.0}"#);
    check("[1e", "[1e0]");
    check("[tru", "[true]");
    check("{\"a\": nul", r#"{"a": null}"#);
    check_with(
        "{\"a\": 1, \"b\": 2.",
        &Options::default().truncation(Truncation::Drop),
        r#"{"a": 1}"#,
    );
    check("{\"s\": \"caf\\u00", r#"{"s": "caf"}"#);
}

#[test]
fn the_log_says_what_was_closed() {
    let parsed = parse_with("{\"a\": [{\"b\": \"x", &Options::default());
    assert_eq!(
        kinds(&parsed),
        [
            RepairKind::ClosedTruncatedString,
            RepairKind::ClosedTruncatedObject,
            RepairKind::ClosedTruncatedArray,
            RepairKind::ClosedTruncatedObject
        ]
    );
    let paths: Vec<_> = parsed.repairs.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(paths, ["/a/0/b", "/a/0", "/a", ""]);
}

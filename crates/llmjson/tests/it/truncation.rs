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

/// Seed 000 with a strict model: a plan cut inside its last step. `drop` removes the cut member
/// (the corpus's expectation); `drop_element` leaves the cut step out whole; with a schema,
/// `drop` falls back to that reading when the member-drop does not validate.
#[test]
fn a_step_cut_off_is_left_out_whole_when_asked_or_when_the_schema_needs_it() {
    let cut = r#"{"steps": [{"id": 1, "tool": "a"}, {"id": 2, "tool": "b"#;
    let member = parse_with(cut, &Options::default().truncation(Truncation::Drop));
    assert_eq!(
        member.value,
        json(r#"{"steps": [{"id": 1, "tool": "a"}, {"id": 2}]}"#)
    );
    let element = parse_with(cut, &Options::default().truncation(Truncation::DropElement));
    assert_eq!(
        element.value,
        json(r#"{"steps": [{"id": 1, "tool": "a"}]}"#)
    );
    assert_eq!(
        kinds(&element),
        [
            RepairKind::DroppedTruncatedMember,
            RepairKind::ClosedTruncatedArray,
            RepairKind::ClosedTruncatedObject
        ]
    );
    assert_eq!(element.repairs[0].path, "/steps/1");
    // Only the outermost cut element goes; nested arrays inside it with it.
    let nested = r#"{"plan": {"steps": [{"x": 1}, {"x": [2, 3"#;
    let dropped = parse_with(
        nested,
        &Options::default().truncation(Truncation::DropElement),
    );
    assert_eq!(dropped.value, json(r#"{"plan": {"steps": [{"x": 1}]}}"#));
    let schema = llmjson::Schema::from_json(
        r#"{"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "object",
            "required": ["id", "tool"], "properties": {"id": {"type": "integer"},
            "tool": {"type": "string"}}}}}}"#,
    )
    .unwrap();
    let options = Options::default()
        .truncation(Truncation::Drop)
        .schema(schema);
    assert_eq!(
        parse_with(cut, &options).value,
        json(r#"{"steps": [{"id": 1, "tool": "a"}]}"#)
    );
}

/// At level `none` a reply that stops after a comma is a cut, not a trailing comma: the
/// feedback advises raising the token limit.
#[test]
fn a_reply_stopping_after_a_comma_is_truncated_at_level_none() {
    for cut in ["[1, 2,", "{\"a\": 1,", "{\"a\": [1,"] {
        let e = llmjson::parse(cut, &Options::strict()).unwrap_err();
        assert!(e.is_truncation(), "{cut}: {e}");
    }
}

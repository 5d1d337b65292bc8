//! Stages "coerce" and "validate": schemas, each coercion, validation reports, candidate
//! choice, schema-guided quotes, typed results.

use crate::support::json;
use llmjson::Value;
use llmjson::{Coercion, Error, Options, Parsed, RepairKind, Schema};

fn schema(document: &str) -> Schema {
    Schema::from_json(document).expect("test schema compiles")
}

fn with(document: &str) -> Options {
    Options::default().schema(schema(document))
}

fn fit(input: &str, document: &str) -> Parsed {
    llmjson::parse(input, &with(document)).unwrap_or_else(|e| panic!("{input:?} should fit: {e}"))
}

fn value(input: &str, document: &str) -> Value {
    fit(input, document).value
}

fn misfit(input: &str, document: &str) -> Vec<String> {
    match llmjson::parse(input, &with(document)) {
        Err(Error::Schema { errors, .. }) => errors.iter().map(ToString::to_string).collect(),
        other => panic!("{input:?} should not fit: {other:?}"),
    }
}

/// The coercion entries of the log, as `kind path: detail`.
fn coercions(parsed: &Parsed) -> Vec<String> {
    parsed
        .repairs
        .iter()
        .filter(|r| r.kind.is_coercion())
        .map(|r| format!("{} {}: {}", r.kind, r.path, r.detail))
        .collect()
}

const INTEGER: &str = r#"{"type": "integer"}"#;
const NUMBER: &str = r#"{"type": "number"}"#;

// ---------------------------------------------------------------------------------------------
// Schemas.

#[test]
fn invalid_schemas_are_refused_with_a_reason() {
    let err = Schema::from_json(r#"{"type": "strnig"}"#).unwrap_err();
    assert_eq!(err.kind(), "invalid_schema");
    assert!(err.to_string().contains("strnig"), "{err}");
    let err = Schema::from_json("{type: string}").unwrap_err();
    assert!(
        err.to_string()
            .starts_with("invalid schema: the schema is not JSON"),
        "{err}"
    );
}

#[test]
fn draft_7_definitions_and_2020_12_defs_are_followed() {
    let draft7 = r##"{"$schema": "http://json-schema.org/draft-07/schema#",
        "definitions": {"n": {"type": "integer"}},
        "type": "object", "properties": {"a": {"$ref": "#/definitions/n"}}, "required": ["a"]}"##;
    assert_eq!(value(r#"{"a": "7"}"#, draft7), json(r#"{"a": 7}"#));
    let draft2020 = r##"{"$defs": {"n": {"type": "integer"}},
        "type": "array", "items": {"$ref": "#/$defs/n"}}"##;
    assert_eq!(value(r#"["1", 2]"#, draft2020), json("[1, 2]"));
}

#[test]
fn one_compiled_schema_serves_many_calls() {
    let shared = std::sync::Arc::new(schema(INTEGER));
    let options = Options::default().schema(std::sync::Arc::clone(&shared));
    for (input, want) in [("1", 1), ("'2'", 2), ("\"3\"", 3)] {
        assert_eq!(llmjson::parse(input, &options).unwrap().value, want);
    }
    assert_eq!(std::sync::Arc::strong_count(&shared), 2);
}

// ---------------------------------------------------------------------------------------------
// Coercions, one by one.

#[test]
fn numeric_strings_become_numbers_where_numbers_are_wanted() {
    for (input, want) in [
        (r#""12""#, "12"),
        (r#""-3""#, "-3"),
        (r#""1,234""#, "1234"),
        (r#""1,234,567""#, "1234567"),
        (r#"" 42 ""#, "42"),
        (r#""**7**""#, "7"),
        (r#""12.0""#, "12"),
    ] {
        assert_eq!(value(input, INTEGER), json(want), "{input}");
    }
    for (input, want) in [
        (r#""3.5""#, "3.5"),
        (r#""1,234.5""#, "1234.5"),
        (r#""$12.50""#, "12.50"),
        (r#""3.5%""#, "3.5"),
        (r#""1/5""#, "0.2"),
        (r#""12.11.""#, "12.11"),
        (r#"".5""#, "0.5"),
    ] {
        assert_eq!(value(input, NUMBER), json(want), "{input}");
    }
}

#[test]
fn percentages_are_divided_only_when_the_schema_rules_the_written_number_out() {
    let ratio = r#"{"type": "number", "maximum": 1}"#;
    assert_eq!(value(r#""35%""#, ratio), json("0.35"));
    assert_eq!(value(r#""35%""#, NUMBER), json("35"));
}

#[test]
fn ambiguous_or_foreign_numbers_are_not_guessed() {
    // `1,5` is 1.5 in half the world and 15 in none of it; `1,23` is no grouping at all.
    for input in [
        r#""1,5""#,
        r#""1,23""#,
        r#""12abc""#,
        r#""1.2.3""#,
        r#""about 5 or 6""#,
    ] {
        let errors = misfit(input, NUMBER);
        assert_eq!(errors.len(), 1, "{input}: {errors:?}");
        assert!(
            errors[0].contains("is a string, not a number"),
            "{errors:?}"
        );
    }
    // An integer is not made from a fraction.
    assert!(misfit(r#""2.5""#, INTEGER)[0].contains("not an integer"));
    assert!(misfit("2.5", INTEGER)[0].contains("not an integer"));
}

#[test]
fn numbers_and_booleans_become_strings_with_their_digits() {
    let strings = r#"{"type": "array", "items": {"type": "string"}}"#;
    let parsed = fit("[1, 2.50, true, 123456789012345678901234567890]", strings);
    assert_eq!(
        parsed.value,
        json(r#"["1", "2.50", "true", "123456789012345678901234567890"]"#)
    );
    assert_eq!(
        coercions(&parsed)[..2],
        [
            "coerced_string /0: the number 1 became a string",
            "coerced_string /1: the number 2.50 became a string",
        ]
    );
}

#[test]
fn yes_no_true_false_strings_become_booleans() {
    let booleans = r#"{"type": "array", "items": {"type": "boolean"}}"#;
    assert_eq!(
        value(r#"["yes", "No", "TRUE", "false", " True. "]"#, booleans),
        json("[true, false, true, false, true]")
    );
    assert!(!misfit(r#"["maybe"]"#, booleans).is_empty());
    assert!(!misfit("[1]", booleans).is_empty(), "1 is not a boolean");
}

#[test]
fn a_lone_value_becomes_a_list_and_a_one_item_list_a_value() {
    let tags = r#"{"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}"#;
    let parsed = fit(r#"{"tags": "urgent"}"#, tags);
    assert_eq!(parsed.value, json(r#"{"tags": ["urgent"]}"#));
    assert_eq!(
        coercions(&parsed),
        ["wrapped_single_value /tags: a lone value became a one-item list"]
    );
    let category = r#"{"enum": ["ONE", "TWO"]}"#;
    assert_eq!(value(r#"["two"]"#, category), json(r#""TWO""#));
    assert_eq!(value(r#"["TWO", "THREE"]"#, category), json(r#""TWO""#));
    assert!(
        !misfit(r#"["ONE", "TWO"]"#, category).is_empty(),
        "two options: ambiguous"
    );
}

#[test]
fn enum_values_match_up_to_case_spacing_and_punctuation() {
    let status =
        r#"{"type": "object", "properties": {"status": {"enum": ["IN_PROGRESS", "DONE"]}}}"#;
    for written in [
        "in progress",
        "In-Progress",
        "in_progress.",
        "**IN PROGRESS**",
    ] {
        let parsed = fit(&format!(r#"{{"status": "{written}"}}"#), status);
        assert_eq!(parsed.value["status"], "IN_PROGRESS", "{written}");
        assert_eq!(parsed.repairs.last().unwrap().kind, RepairKind::MatchedEnum);
    }
    let errors = misfit(r#"{"status": "finished"}"#, status);
    assert_eq!(
        errors,
        ["/status: 'finished' is not one of 'IN_PROGRESS', 'DONE'"]
    );
}

#[test]
fn an_ambiguous_enum_match_is_an_error_not_a_guess() {
    // Two options that differ only in case: only the exact spelling can decide.
    let cased = r#"{"enum": ["One", "ONE"]}"#;
    assert_eq!(value(r#""One""#, cased), json(r#""One""#));
    assert!(!misfit(r#""one""#, cased).is_empty());
    // An answer naming two options.
    let category = r#"{"enum": ["ONE", "TWO"]}"#;
    let err = llmjson::parse("ONE is right, not TWO", &with(category)).unwrap_err();
    assert_eq!(
        err.kind(),
        "schema",
        "prose naming two options gives no answer"
    );
    assert!(err.to_string().contains("ambiguous"), "{err}");
    assert_eq!(value("The answer is two.", category), json(r#""TWO""#));
}

#[test]
fn property_names_match_up_to_case_and_word_separators() {
    let plan = r#"{"type": "object", "properties": {"bookName": {"type": "string"},
        "page_count": {"type": "integer"}, "is-draft": {"type": "boolean"}},
        "additionalProperties": false}"#;
    let parsed = fit(
        r#"{"book_name": "Dune", "PageCount": 412, "isDraft": false}"#,
        plan,
    );
    assert_eq!(
        parsed.value,
        json(r#"{"bookName": "Dune", "page_count": 412, "is-draft": false}"#)
    );
    assert_eq!(
        coercions(&parsed),
        [
            "renamed_key : 'book_name' became 'bookName'",
            "renamed_key : 'PageCount' became 'page_count'",
            "renamed_key : 'isDraft' became 'is-draft'",
        ]
    );
    // A near-miss never overrides the exact name written too.
    let parsed = fit(r#"{"bookName": "Dune", "book_name": "Other"}"#, plan);
    assert_eq!(parsed.value, json(r#"{"bookName": "Dune"}"#));
    assert_eq!(parsed.repairs[0].kind, RepairKind::DroppedUnknownProperty);
}

#[test]
fn missing_required_properties_take_their_default_or_null() {
    let step = r#"{"type": "object", "required": ["id", "retries", "owner"],
        "properties": {"id": {"type": "string"}, "retries": {"type": "integer", "default": 3},
        "owner": {"type": ["string", "null"]}}}"#;
    let parsed = fit(r#"{"id": "s1"}"#, step);
    assert_eq!(
        parsed.value,
        json(r#"{"id": "s1", "retries": 3, "owner": null}"#)
    );
    assert_eq!(
        coercions(&parsed),
        [
            "filled_default : added the missing 'retries' with its default 3",
            "filled_null : added the missing 'owner' as null",
        ]
    );
    // No default, null not allowed: a schema error naming the property.
    let errors = misfit(r#"{"retries": 1}"#, step);
    assert_eq!(errors, ["(root): the required property 'id' is missing"]);
}

#[test]
fn properties_the_schema_forbids_are_dropped_and_logged() {
    let closed = r#"{"type": "object", "properties": {"id": {"type": "string"}},
        "additionalProperties": false}"#;
    let parsed = fit(r#"{"id": "s1", "note": "extra"}"#, closed);
    assert_eq!(parsed.value, json(r#"{"id": "s1"}"#));
    assert_eq!(
        coercions(&parsed),
        ["dropped_unknown_property : removed 'note', which the schema does not allow"]
    );
    // Open objects keep them.
    let open = r#"{"type": "object", "properties": {"id": {"type": "string"}}}"#;
    assert_eq!(
        value(r#"{"id": "s1", "note": "extra"}"#, open),
        json(r#"{"id": "s1", "note": "extra"}"#)
    );
}

#[test]
fn a_scalar_becomes_the_only_property_of_a_wanted_object() {
    let wrapper =
        r#"{"type": "object", "properties": {"foo": {"type": "integer"}}, "required": ["foo"]}"#;
    assert_eq!(value("1214", wrapper), json(r#"{"foo": 1214}"#));
    // Prose is not wrapped: it would hide that the model did not answer.
    assert!(matches!(
        llmjson::parse("My inner string", &with(wrapper)),
        Err(Error::NoJson { .. })
    ));
}

#[test]
fn an_answer_in_prose_gives_the_one_scalar_it_names() {
    let boolean = r#"{"type": "boolean"}"#;
    assert_eq!(value("The answer is **True**", boolean), json("true"));
    assert_eq!(
        value("False.\n\nThe sum of 2 and 2 is 4, not 5.", boolean),
        json("false")
    );
    assert!(llmjson::parse("It is true or false", &with(boolean)).is_err());
    assert_eq!(value("The total is 1,234.", INTEGER), json("1234"));
    assert!(llmjson::parse("Between 3 and 4", &with(INTEGER)).is_err());
    let list = r#"{"type": "array", "items": {"type": "boolean"}}"#;
    assert_eq!(value("The answer is true", list), json("[true]"));
}

#[test]
fn a_string_schema_takes_the_reply_text_when_it_holds_no_json_string() {
    let string = r#"{"type": "string"}"#;
    assert_eq!(value(r#""hello""#, string), json(r#""hello""#));
    let prose = "The output is: {\"hello\": \"world\"}";
    assert_eq!(value(prose, string), Value::String(prose.to_string()));
}

#[test]
fn validate_only_refuses_what_coercion_would_fix() {
    let options = with(INTEGER).coercion(Coercion::ValidateOnly);
    match llmjson::parse(r#""12""#, &options) {
        Err(Error::Schema { errors, value, .. }) => {
            assert_eq!(*value, json(r#""12""#));
            assert_eq!(
                errors[0].to_string(),
                "(root): '12' is a string, not an integer"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(llmjson::parse("12", &options).unwrap().value, 12);
}

#[test]
fn valid_values_are_returned_untouched_without_coercion_entries() {
    let parsed = fit(r#"{"a": "1"}"#, r#"{"type": "object"}"#);
    assert_eq!(parsed.value, json(r#"{"a": "1"}"#));
    assert!(parsed.repairs.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Validation reports.

const PLAN: &str = r#"{
  "type": "object",
  "properties": {
    "objective": {"type": "string"},
    "steps": {"type": "array", "minItems": 1, "items": {
      "type": "object",
      "properties": {
        "id": {"type": "string"},
        "tool": {"enum": ["python", "shell", "browser"]},
        "timeout_s": {"type": "number", "minimum": 1}
      },
      "required": ["id", "tool"],
      "additionalProperties": false
    }}
  },
  "required": ["objective", "steps"],
  "additionalProperties": false
}"#;

#[test]
fn every_violation_is_reported_with_path_keyword_and_a_message_for_the_model() {
    let reply = r#"{"steps": [{"id": "s1", "tool": "pyhton", "timeout_s": 0}, {"tool": "shell"}]}"#;
    let options = with(PLAN).coercion(Coercion::ValidateOnly);
    let Err(Error::Schema { errors, .. }) = llmjson::parse(reply, &options) else {
        panic!("should not validate");
    };
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "(root): the required property 'objective' is missing",
            "/steps/0/tool: 'pyhton' is not one of 'python', 'shell', 'browser'",
            "/steps/0/timeout_s: 0 is less than the minimum of 1",
            "/steps/1: the required property 'id' is missing",
        ]
    );
    let keywords: Vec<&str> = errors.iter().map(|e| e.keyword.as_str()).collect();
    assert_eq!(keywords, ["required", "enum", "minimum", "required"]);
    assert_eq!(errors[1].instance_path, "/steps/0/tool");
    assert_eq!(
        errors[1].schema_path,
        "/properties/steps/items/properties/tool/enum"
    );
}

#[test]
fn schema_validate_lists_errors_for_a_value_built_elsewhere() {
    let plan = schema(PLAN);
    assert!(plan.is_valid(&json(
        r#"{"objective": "x", "steps": [{"id": "a", "tool": "shell"}]}"#
    )));
    let errors = plan
        .validate(&json(r#"{"objective": 1, "steps": [], "x": true}"#))
        .unwrap_err();
    let lines: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "/objective: 1 is an integer, not a string",
            "/steps: the list has fewer than 1 items",
            "(root): the property 'x' is not allowed",
        ]
    );
}

#[test]
fn callers_can_tell_each_failure_apart() {
    let options = with(PLAN);
    let kind = |input: &str| llmjson::parse(input, &options).unwrap_err().kind();
    assert_eq!(kind(""), "empty");
    assert_eq!(kind("I cannot help with that."), "no_json");
    assert_eq!(
        kind(&format!(
            "{{\"objective\": \"x\", /* \"notes\": \"{}\", */ \"steps\": []}}",
            "why ".repeat(40)
        )),
        "repair_rejected"
    );
    assert_eq!(kind(r#"{"objective": "x", "steps": []}"#), "schema");
    let strict = Options::strict().schema(schema(PLAN));
    assert_eq!(
        llmjson::parse("{'objective': 'x'}", &strict)
            .unwrap_err()
            .kind(),
        "syntax"
    );
}

// ---------------------------------------------------------------------------------------------
// Choosing among the reply's values.

#[test]
fn the_value_that_fits_is_chosen_not_merely_the_first() {
    let numbers = r#"{"type": "array", "items": {"type": "integer"}}"#;
    let reply = "```json\n{\"key\": \"value\"}\n```\n\n```json\n[\"1\", \"2\"]\n```";
    assert_eq!(value(reply, numbers), json("[1, 2]"));
    let object =
        r#"{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}"#;
    let reply = "Draft: {\"b\": 1}\nFinal: {\"a\": 2}";
    assert_eq!(value(reply, object), json(r#"{"a": 2}"#));
    // Equally good: the first.
    assert_eq!(value("{\"a\": 1} {\"a\": 2}", object), json(r#"{"a": 1}"#));
}

#[test]
fn several_values_become_the_wanted_list() {
    let list = r#"{"type": "array", "items": {"type": "object", "required": ["key"]}}"#;
    assert_eq!(
        value("prefix {\"key\": 1} text {\"key\": 2} suffix", list),
        json(r#"[{"key": 1}, {"key": 2}]"#)
    );
}

#[test]
fn the_schema_error_is_about_the_best_candidate() {
    let object =
        r#"{"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a", "b"]}"#;
    let errors = misfit("{\"x\": 1} and {\"a\": \"2\"}", object);
    assert_eq!(errors, ["(root): the required property 'b' is missing"]);
}

// ---------------------------------------------------------------------------------------------
// Schema-guided repair: which quotes end a string.

#[test]
fn a_quote_before_a_key_the_schema_does_not_know_is_text() {
    let artifact = r#"{"type": "object", "additionalProperties": false,
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}}}"#;
    // Text whose own quotes look like `", "key": "`: the words after `"fast"` show that it is
    // text, with or without the schema (nothing is lost either way).
    let reply = r#"{"content": "say "hi", "mode": "fast" to me", "path": "a.py"}"#;
    let unguided = llmjson::parse(reply, &Options::default()).unwrap();
    assert_eq!(
        unguided.value,
        json(r#"{"content": "say \"hi\", \"mode\": \"fast\" to me", "path": "a.py"}"#)
    );
    assert_eq!(
        value(reply, artifact),
        json(r#"{"content": "say \"hi\", \"mode\": \"fast\" to me", "path": "a.py"}"#)
    );
    // Valid JSON is taken as written: the unknown member is then dropped, and logged.
    let reply = r#"{"path": "cfg.py", "content": "opts = ", "mode": "fast"}"#;
    let parsed = fit(reply, artifact);
    assert_eq!(
        parsed.value,
        json(r#"{"path": "cfg.py", "content": "opts = "}"#)
    );
    assert_eq!(parsed.repairs[0].kind, RepairKind::DroppedUnknownProperty);
    // A cleanly written extra member is a member (coercion drops it), not text.
    let reply = r#"{"content": "a", "note": 'x', "path": "a.py"}"#;
    assert_eq!(
        value(reply, artifact),
        json(r#"{"content": "a", "path": "a.py"}"#)
    );
    // A key the schema knows does end the string.
    let reply = r#"{"content": "print("hi")", "path": "a.py"}"#;
    assert_eq!(
        value(reply, artifact),
        json(r#"{"content": "print(\"hi\")", "path": "a.py"}"#)
    );
}

#[test]
fn open_schemas_leave_quote_decisions_to_the_syntax() {
    let open = r#"{"type": "object", "properties": {"content": {"type": "string"}}}"#;
    let reply = r#"{"content": "opts = ", "mode": "fast"}"#;
    assert_eq!(value(reply, open)["mode"], "fast");
}

// ---------------------------------------------------------------------------------------------
// Typed results.

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
struct Step {
    id: String,
    tool: Tool,
    retries: u32,
    depends_on: Vec<String>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Tool {
    Python,
    Shell,
}

#[test]
fn typed_results_use_the_types_schema_for_coercion() {
    let reply =
        "```json\n{id: 's1', Tool: 'Python', retries: '2', dependsOn: 's0', note: 'x'}\n```";
    let step: Step = llmjson::from_str_guided(reply).unwrap();
    assert_eq!(
        step,
        Step {
            id: "s1".into(),
            tool: Tool::Python,
            retries: 2,
            depends_on: vec!["s0".into()],
        }
    );
}

#[test]
fn typed_results_report_schema_errors_with_paths() {
    let err = llmjson::from_str_guided::<Step>(r#"{"id": "s1", "tool": "perl", "retries": -1}"#)
        .unwrap_err();
    let Error::Schema { errors, .. } = &err else {
        panic!("{err:?}");
    };
    let paths: Vec<&str> = errors.iter().map(|e| e.instance_path.as_str()).collect();
    assert!(paths.contains(&"/tool"), "{errors:?}");
    assert!(paths.contains(&"/retries"), "{errors:?}");
    assert!(err
        .to_string()
        .contains("the required property 'depends_on' is missing"));
}

#[test]
fn json_written_as_a_string_becomes_the_wanted_container() {
    let call = r#"{"type": "object", "properties": {"name": {"type": "string"},
        "arguments": {"type": "object", "properties": {"city": {"type": "string"},
        "days": {"type": "integer"}}, "required": ["city"]}}}"#;
    // Tool arguments encoded twice, as OpenAI-style tool calls do.
    let reply = r#"{"name": "forecast", "arguments": "{\"city\": \"Lisbon\", \"days\": \"3\"}"}"#;
    let parsed = fit(reply, call);
    assert_eq!(
        parsed.value,
        json(r#"{"name": "forecast", "arguments": {"city": "Lisbon", "days": 3}}"#)
    );
    assert_eq!(
        coercions(&parsed),
        [
            "decoded_json_string /arguments: a string holding JSON became the value it holds",
            "coerced_number /arguments/days: \"3\" became 3",
        ]
    );
    let list = r#"{"type": "array", "items": {"type": "integer"}}"#;
    assert_eq!(value(r#""[1, 2, 3]""#, list), json("[1, 2, 3]"));
    // Where a string is wanted, JSON text stays text.
    let text = r#"{"type": "object", "properties": {"a": {"type": "string"}}}"#;
    assert_eq!(
        value(r#"{"a": "{\"b\": 1}"}"#, text),
        json(r#"{"a": "{\"b\": 1}"}"#)
    );
}

#[test]
fn numbers_inside_json_that_does_not_fit_are_not_an_answer_in_prose() {
    let errors = misfit(r#"{"a": 1}"#, INTEGER);
    assert_eq!(errors, ["(root): {\"a\":1} is an object, not an integer"]);
    // Prose without JSON still is.
    assert_eq!(value("about 1 item", INTEGER), json("1"));
}

#[test]
fn large_documents_are_coerced_to_the_end_and_cyclic_schemas_stop() {
    // 300,000 numeric strings: more nodes than any fixed budget would allow.
    let reply = format!("[{}]", vec!["\"7\""; 300_000].join(","));
    let list = r#"{"type": "array", "items": {"type": "integer"}}"#;
    let parsed = fit(&reply, list);
    assert_eq!(parsed.value.as_array().unwrap().len(), 300_000);
    assert_eq!(parsed.value[299_999], 7);
    // Recursion through items is fine (a tree of integers), and coerces at every depth.
    let tree = r##"{"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "integer"}]}"##;
    assert_eq!(value(r#"[["1"], "2"]"#, tree), json("[[1], 2]"));
}

#[test]
fn a_schema_that_refers_to_itself_in_place_is_refused() {
    // Validating with these would recurse without end (the validator runs out of memory).
    for document in [
        r##"{"anyOf": [{"$ref": "#"}, {"type": "integer"}]}"##,
        r##"{"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}},
            "type": "object", "properties": {"x": {"$ref": "#/$defs/a"}}}"##,
        r##"{"$ref": "#"}"##,
    ] {
        let err = Schema::from_json(document).unwrap_err();
        assert_eq!(err.kind(), "invalid_schema");
        assert!(err.to_string().contains("refers back to itself"), "{err}");
    }
    // Recursion that descends into the value is a normal recursive schema.
    let linked =
        r##"{"type": "object", "properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}}}"##;
    assert_eq!(
        value(r#"{"n": "1", "next": {"n": "2"}}"#, linked),
        json(r#"{"n": 1, "next": {"n": 2}}"#)
    );
}

#[test]
fn bare_json_around_a_fence_is_a_candidate_too() {
    let numbers = r#"{"type": "array", "items": {"type": "integer"}}"#;
    let reply = "```json\n{\"key\": \"value\"}\n```\n\nSorry, I meant: [1, 2, 3,]";
    let parsed = fit(reply, numbers);
    assert_eq!(parsed.value, json("[1, 2, 3]"));
    // Its log points into the reply itself.
    let comma = &parsed.repairs[0];
    assert_eq!(comma.kind, RepairKind::TrailingComma);
    assert_eq!(&reply[comma.span.clone()], ",");
    assert_eq!((comma.line, comma.column), (5, 25));
    let object = r#"{"type": "object", "required": ["a"]}"#;
    let reply = "Draft: {\"a\": 1}\n```json\n[\"not it\"]\n```";
    assert_eq!(value(reply, object), json(r#"{"a": 1}"#));
}

/// `parse_all` (and `repair --all`) with a schema fits and validates every value, not only the
/// first: a value that does not fit is the error.
#[test]
fn every_value_is_fitted_and_validated_with_all() {
    let schema = llmjson::Schema::from_json(
        r#"{"type": "object", "properties": {"version": {"type": "string"}}}"#,
    )
    .unwrap();
    let options = llmjson::Options::default().schema(schema);
    let both = llmjson::parse_all("{\"version\": 1}\nand {\"version\": \"2\"}", &options).unwrap();
    let values: Vec<_> = both.iter().map(|p| p.value.clone()).collect();
    assert_eq!(
        values,
        [
            serde_json::json!({"version": "1"}),
            serde_json::json!({"version": "2"})
        ]
    );
    assert_eq!(both[1].span.start, 19);
    assert!(matches!(
        llmjson::parse_all("{\"version\": 1}\nand {\"version\": [2]}", &options),
        Err(llmjson::Error::Schema { .. })
    ));
}

/// An answer in prose that negates the value it names, or names two, is not read as that
/// value: it is an ambiguity, reported as one (not as "no JSON").
#[test]
fn prose_answers_respect_negation_and_report_ambiguity() {
    let boolean = llmjson::Options::default()
        .schema(llmjson::Schema::from_json(r#"{"type": "boolean"}"#).unwrap());
    let enumerated = llmjson::Options::default().schema(
        llmjson::Schema::from_json(r#"{"enum": ["POSITIVE", "NEGATIVE", "NEUTRAL"]}"#).unwrap(),
    );
    let ambiguous = |text: &str, options: &llmjson::Options| match llmjson::parse(text, options) {
        Err(llmjson::Error::Schema { errors, .. }) => errors[0].message.clone(),
        other => panic!("{text}: {other:?}"),
    };
    assert!(ambiguous("It is not true.", &boolean).contains("negates 'true'"));
    assert!(ambiguous("Yes and no", &boolean).contains("'yes' and 'no'"));
    assert!(ambiguous("It is not positive.", &enumerated).contains("negates 'POSITIVE'"));
    assert!(ambiguous("Positive or negative?", &enumerated).contains("ambiguous"));
    assert_eq!(llmjson::parse("It is true.", &boolean).unwrap().value, true);
    assert_eq!(
        llmjson::parse("It is positive.", &enumerated)
            .unwrap()
            .value,
        "POSITIVE"
    );
    // Naming two, one of them negated, is still two: no guess.
    assert!(ambiguous("Not negative at all: positive.", &enumerated).contains("ambiguous"));
}

/// Each coercion's log entry points at the value it changed, not at where the JSON starts.
#[test]
fn coercions_point_at_the_value_they_changed() {
    let schema = llmjson::Schema::from_json(
        r#"{"type": "object", "properties": {"version": {"type": "string"},
            "steps": {"type": "array", "items": {"type": "object",
            "properties": {"id": {"type": "integer"}}}}}}"#,
    )
    .unwrap();
    let reply =
        "{\"name\": \"x\",\n \"version\": 1,\n \"steps\": [{\"id\": \"7\"}, {\"id\": \"8\"}]}";
    let parsed = llmjson::parse(reply, &llmjson::Options::default().schema(schema)).unwrap();
    let places: Vec<(String, usize, usize, &str)> = parsed
        .repairs
        .iter()
        .map(|r| {
            (
                r.path.clone(),
                r.line,
                r.column,
                &reply[r.span.start..r.span.start + 1],
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            ("/version".to_string(), 2, 13, "1"),
            ("/steps/0/id".to_string(), 3, 19, "\""),
            ("/steps/1/id".to_string(), 3, 32, "\""),
        ]
    );
}

#[test]
fn a_format_the_schema_names_is_checked_and_an_unknown_one_ignored() {
    let contact = r#"{"type": "object", "properties": {
        "email": {"type": "string", "format": "email"},
        "born": {"type": "string", "format": "date"},
        "id": {"type": "string", "format": "uuid"},
        "site": {"type": "string", "format": "uri"},
        "tag": {"type": "string", "format": "our-own-format"}}}"#;
    let good = r#"{"email": "ana@example.com", "born": "1990-04-01",
        "id": "6f1c1c1e-2b6b-4c57-9f0a-4a1e4f3e2b10", "site": "https://example.com/a",
        "tag": "anything"}"#;
    assert_eq!(value(good, contact)["email"], json(r#""ana@example.com""#));
    let errors = misfit(
        r#"{"email": "ana at example", "born": "1990-13-45", "id": "not-a-uuid", "site": "::"}"#,
        contact,
    );
    for path in ["/email", "/born", "/id", "/site"] {
        assert!(
            errors.iter().any(|e| e.starts_with(path)),
            "{path} in {errors:?}"
        );
    }
    assert!(
        errors.iter().any(|e| e.contains("is not a valid email")),
        "{errors:?}"
    );
}

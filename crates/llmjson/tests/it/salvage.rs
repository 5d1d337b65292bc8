//! Salvage with a schema (`InvalidItems::Drop`): the items of a list that fail their item
//! schema are left out and named; the rest comes back. Default stays fail-closed.

use crate::support::json;
use llmjson::{Error, InvalidItems, Options, Parsed, RepairKind, RepairLevel, Schema, Value};

const RECORDS: &str = r#"{
    "type": "object",
    "required": ["records"],
    "properties": {
        "records": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "name", "score"],
                "properties": {
                    "id": {"type": "integer"},
                    "name": {"type": "string"},
                    "score": {"type": "number", "minimum": 0}
                }
            }
        }
    }
}"#;

fn drop_options(document: &str) -> Options {
    Options::default()
        .schema(Schema::from_json(document).expect("schema"))
        .invalid_items(InvalidItems::Drop)
}

/// A laid-out reply with `n` records, those at `bad` indices broken as `breaks` says, and
/// each record's text (to compare spans with).
fn reply(n: usize, bad: &[usize], breaks: impl Fn(usize) -> String) -> (String, Vec<String>) {
    let mut records = Vec::new();
    for i in 0..n {
        records.push(if bad.contains(&i) {
            breaks(i)
        } else {
            format!(
                "{{\"id\": {i}, \"name\": \"record {i}\", \"score\": {}.5}}",
                i % 7
            )
        });
    }
    let text = format!(
        "Here are the records:\n```json\n{{\n  \"records\": [\n    {}\n  ]\n}}\n```\n",
        records.join(",\n    ")
    );
    (text, records)
}

fn missing_name(i: usize) -> String {
    format!("{{\"id\": {i}, \"score\": 1}}")
}

/// As long as a valid record (one byte more): the guard weighs bytes, not items.
fn negative_score(i: usize) -> String {
    format!("{{\"id\": {i}, \"name\": \"record {i}\", \"score\": -1.5}}")
}

fn dropped_paths(parsed: &Parsed) -> Vec<&str> {
    parsed.dropped.iter().map(|d| d.path.as_str()).collect()
}

#[test]
fn a_hundred_records_with_three_invalid_return_ninety_seven_and_name_three() {
    let bad = [3, 41, 99];
    let (text, records) = reply(100, &bad, |i| match i {
        3 => missing_name(i),
        41 => r#"{"id": "forty-one", "name": "x", "score": 2}"#.to_string(),
        _ => format!("{{\"id\": {i}, \"name\": \"last\", \"score\": -4}}"),
    });
    let parsed = llmjson::parse(&text, &drop_options(RECORDS)).expect("salvaged");
    let kept = parsed.value["records"].as_array().expect("list");
    assert_eq!(kept.len(), 97);
    let ids: Vec<i64> = kept.iter().map(|r| r["id"].as_i64().unwrap()).collect();
    let expected: Vec<i64> = (0..100)
        .filter(|i| !bad.contains(i))
        .map(|i| i as i64)
        .collect();
    assert_eq!(ids, expected, "the valid records, in order, untouched");
    assert_eq!(
        dropped_paths(&parsed),
        ["/records/3", "/records/41", "/records/99"]
    );
    for (item, i) in parsed.dropped.iter().zip(bad) {
        assert_eq!(
            &text[item.span.clone()],
            records[i],
            "span of {}",
            item.path
        );
        assert_eq!(item.line, 5 + i, "line of {}", item.path);
        assert_eq!(item.column, 5);
    }
    let errors: Vec<Vec<String>> = parsed
        .dropped
        .iter()
        .map(|d| d.errors.iter().map(ToString::to_string).collect())
        .collect();
    assert_eq!(
        errors,
        [
            vec!["/records/3: the required property 'name' is missing".to_string()],
            vec!["/records/41/id: 'forty-one' is a string, not an integer".to_string()],
            vec!["/records/99/score: -4 is less than the minimum of 0".to_string()],
        ]
    );
    // Each drop is in the log too (so it is counted and explained like any repair), and the
    // dropped text counts as discarded.
    let logged: Vec<(&str, &str)> = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == RepairKind::DroppedInvalidItem)
        .map(|r| (r.path.as_str(), r.detail.as_ref()))
        .collect();
    assert_eq!(
        logged,
        [
            (
                "/records/3",
                "left out: the required property 'name' is missing"
            ),
            (
                "/records/41",
                "left out: 'forty-one' is a string, not an integer"
            ),
            ("/records/99", "left out: -4 is less than the minimum of 0"),
        ]
    );
    assert!(parsed.is_repaired());
    let dropped_bytes: usize = bad.iter().map(|&i| records[i].replace(' ', "").len()).sum();
    assert_eq!(parsed.removed_bytes, dropped_bytes);
}

#[test]
fn the_default_stays_fail_closed() {
    let (text, _) = reply(100, &[3, 41, 99], missing_name);
    let options = Options::default().schema(Schema::from_json(RECORDS).unwrap());
    match llmjson::parse(&text, &options) {
        Err(Error::Schema { errors, .. }) => {
            let paths: Vec<&str> = errors.iter().map(|e| e.instance_path.as_str()).collect();
            assert_eq!(paths, ["/records/3", "/records/41", "/records/99"]);
        }
        other => panic!("expected a schema error, got {other:?}"),
    }
}

#[test]
fn a_list_that_is_mostly_invalid_still_fails_unless_the_guard_is_opened() {
    let bad: Vec<usize> = (0..100).filter(|i| i % 3 != 0).collect();
    let (text, _) = reply(100, &bad, missing_name);
    match llmjson::parse(&text, &drop_options(RECORDS)) {
        Err(Error::Schema { errors, .. }) => assert_eq!(errors.len(), bad.len()),
        other => panic!("expected a schema error, got {other:?}"),
    }
    // A third of the text is over the guard's 30%; a quarter is within it.
    let (text, _) = reply(100, &(0..33).collect::<Vec<_>>(), negative_score);
    assert!(llmjson::parse(&text, &drop_options(RECORDS)).is_err());
    let (text, _) = reply(100, &(0..25).collect::<Vec<_>>(), negative_score);
    let parsed = llmjson::parse(&text, &drop_options(RECORDS)).expect("within the guard");
    assert_eq!(parsed.dropped.len(), 25);
    assert!(
        (0.2..0.3).contains(&parsed.removed_share()),
        "{}",
        parsed.removed_share()
    );
    let open = drop_options(RECORDS).max_removed_ratio(1.0);
    let (text, _) = reply(100, &bad, missing_name);
    let parsed = llmjson::parse(&text, &open).expect("guard off");
    assert_eq!(parsed.value["records"].as_array().unwrap().len(), 34);
    assert_eq!(parsed.dropped.len(), 66);
}

#[test]
fn what_the_repair_discarded_and_what_was_dropped_share_one_guard() {
    // One invalid record, and records the model commented out (data the repair discards):
    // each alone is within the 30% guard, together they are over it.
    let comment = "\"records\": [\n    // {\"id\": 100, \"name\": \"draft one\", \"score\": 1}, {\"id\": 101, \"name\": \"draft two\", \"score\": 1}, {\"id\": 102, \"name\": \"draft 3\", \"score\": 1}, {\"id\": 103, \"name\": \"draft 4\", \"score\": 1},";
    let (with_invalid, _) = reply(10, &[4], negative_score);
    let (valid, _) = reply(10, &[], negative_score);
    let item_only = llmjson::parse(&with_invalid, &drop_options(RECORDS)).expect("item alone");
    let comment_only = llmjson::parse(
        &valid.replace("\"records\": [", comment),
        &drop_options(RECORDS),
    )
    .expect("comment alone");
    assert!(item_only.removed_share() < 0.3 && comment_only.removed_share() < 0.3);
    let item_bytes = item_only.removed_bytes;
    assert!(
        (comment_only.removed_bytes + item_bytes) as f64 / comment_only.located_bytes as f64 > 0.31
    );
    let both = llmjson::parse(
        &with_invalid.replace("\"records\": [", comment),
        &drop_options(RECORDS),
    );
    assert!(matches!(both, Err(Error::Schema { .. })), "{both:?}");
}

#[test]
fn strict_mode_never_salvages() {
    let (text, _) = reply(10, &[4], missing_name);
    let json_only = text
        .trim_start_matches("Here are the records:\n```json\n")
        .trim_end_matches("```\n");
    let options = drop_options(RECORDS).level(RepairLevel::None);
    assert!(matches!(
        llmjson::parse(json_only, &options),
        Err(Error::Schema { .. })
    ));
    let conservative = drop_options(RECORDS).level(RepairLevel::Conservative);
    assert_eq!(
        llmjson::parse(json_only, &conservative)
            .unwrap()
            .dropped
            .len(),
        1
    );
}

#[test]
fn a_valid_list_is_returned_as_it_is() {
    let (text, _) = reply(20, &[], missing_name);
    let salvaging = llmjson::parse(&text, &drop_options(RECORDS)).unwrap();
    let default = llmjson::parse(
        &text,
        &Options::default().schema(Schema::from_json(RECORDS).unwrap()),
    )
    .unwrap();
    assert_eq!(salvaging.value, default.value);
    assert_eq!(salvaging.repairs, default.repairs);
    assert!(salvaging.dropped.is_empty());
}

#[test]
fn broken_replies_are_repaired_then_salvaged() {
    // Trailing commas, single quotes, a Python literal, cut off by the token limit inside the
    // last record: the repair runs first; the invalid record is named with its text.
    let valid: String = (5..15)
        .map(|i| format!("  {{'id': {i}, 'name': 'n{i}', 'score': {i}}},\n"))
        .collect();
    let text = format!("{{'records': [\n  {{'id': 1, 'name': 'a', 'score': 2,}},\n  {{'id': 2, 'score': None}},\n  {{'id': 3, 'name': 'c', 'score': 4}},\n{valid}  {{'id': 4, 'name': 'd', 'sco");
    let text = text.as_str();
    let parsed = llmjson::parse(text, &drop_options(RECORDS)).expect("salvaged");
    let ids: Vec<i64> = parsed.value["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_i64().unwrap())
        .collect();
    assert_eq!(
        ids,
        [1, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14],
        "the cut-off record lacks a required field too"
    );
    assert_eq!(
        parsed.value["records"][0],
        json(r#"{"id": 1, "name": "a", "score": 2}"#)
    );
    assert_eq!(dropped_paths(&parsed), ["/records/1", "/records/13"]);
    assert_eq!(
        &text[parsed.dropped[0].span.clone()],
        "{'id': 2, 'score': None}"
    );
    assert_eq!(
        &text[parsed.dropped[1].span.clone()],
        "{'id': 4, 'name': 'd', 'sco",
        "a record cut off ends where the reply does"
    );
    assert_eq!(
        parsed.dropped[0].errors.len(),
        2,
        "no name, and a null score"
    );
}

#[test]
fn a_bad_item_deep_inside_costs_only_that_item() {
    let schema = r#"{"type": "array", "items": {"type": "object", "required": ["name"],
        "properties": {"name": {"type": "string"}, "tags": {"type": "array", "items": {"type": "string"}}}}}"#;
    let text = r#"[{"name": "a", "tags": ["x", {"y": 1}, "z"]}, {"name": "b"}]"#;
    let parsed = llmjson::parse(text, &drop_options(schema)).expect("salvaged");
    assert_eq!(
        parsed.value,
        json(r#"[{"name": "a", "tags": ["x", "z"]}, {"name": "b"}]"#)
    );
    assert_eq!(dropped_paths(&parsed), ["/0/tags/1"]);
    assert_eq!(&text[parsed.dropped[0].span.clone()], r#"{"y": 1}"#);
}

#[test]
fn a_list_left_shorter_than_allowed_is_not_returned() {
    let schema = r#"{"type": "array", "minItems": 3, "items": {"type": "integer"}}"#;
    // 1 of 12 dropped leaves 11 ≥ 3; with 3 items, the list would be too short.
    let long = "[1, 2, 3, 4, 5, 6, \"seven\", 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]";
    assert_eq!(
        llmjson::parse(long, &drop_options(schema))
            .unwrap()
            .dropped
            .len(),
        1
    );
    let short = "[1, \"two\", 3]";
    assert!(matches!(
        llmjson::parse(short, &drop_options(schema).max_removed_ratio(1.0)),
        Err(Error::Schema { .. })
    ));
}

#[test]
fn coercions_still_apply_and_those_inside_a_dropped_item_are_not_logged() {
    let text = r#"{"records": [{"id": "1", "name": "a", "score": "2.5"}, {"id": "2", "score": "3"}, {"id": 3, "name": "c", "score": 1}, {"id": 4, "name": "d", "score": 1}, {"id": 5, "name": "e", "score": 1}]}"#;
    let parsed = llmjson::parse(text, &drop_options(RECORDS)).expect("salvaged");
    assert_eq!(
        parsed.value["records"][0],
        json(r#"{"id": 1, "name": "a", "score": 2.5}"#)
    );
    let log: Vec<String> = parsed
        .repairs
        .iter()
        .map(|r| format!("{} {}", r.kind, r.path))
        .collect();
    assert_eq!(
        log,
        [
            "coerced_number /records/0/id",
            "coerced_number /records/0/score",
            "dropped_invalid_item /records/1",
        ]
    );
}

#[test]
fn several_values_read_as_one_list_name_the_value_dropped() {
    // A model writing one object per line where a list is wanted.
    let schema = r#"{"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}"#;
    let lines: Vec<String> = (0..12)
        .map(|i| {
            if i == 5 {
                "{\"id\": \"five\"}".to_string()
            } else {
                format!("{{\"id\": {i}}}")
            }
        })
        .collect();
    let text = lines.join("\n");
    let parsed = llmjson::parse(&text, &drop_options(schema)).expect("salvaged");
    assert_eq!(parsed.value.as_array().unwrap().len(), 11);
    assert_eq!(dropped_paths(&parsed), ["/5"]);
    assert_eq!(&text[parsed.dropped[0].span.clone()], lines[5]);
    assert_eq!(parsed.dropped[0].line, 6);
}

#[test]
fn every_value_of_parse_all_is_salvaged_on_its_own() {
    let schema = r#"{"type": "array", "items": {"type": "integer"}}"#;
    let text = "first: [1, 2, \"x\", 4, 5, 6, 7, 8, 9, 10, 11, 12]\nsecond: [13, 14, 15, 16, 17, 18, 19, 20, 21, 22, null]";
    let all = llmjson::parse_all(text, &drop_options(schema)).expect("salvaged");
    assert_eq!(all.len(), 2);
    assert_eq!(dropped_paths(&all[0]), ["/2"]);
    assert_eq!(&text[all[0].dropped[0].span.clone()], "\"x\"");
    assert_eq!(dropped_paths(&all[1]), ["/10"]);
    assert_eq!(&text[all[1].dropped[0].span.clone()], "null");
    let values: Vec<&Value> = all.iter().map(|p| &p.value).collect();
    assert_eq!(values[1].as_array().unwrap().len(), 10);
}

#[test]
fn one_record_per_line_is_never_cut_to_its_first_record() {
    // Where a list is wanted and the reply writes one record per line, the first record alone
    // (wrapped into a list) is not an answer: with one record invalid, the default fails with
    // that record's violation instead of returning the first and losing the rest.
    let schema = r#"{"type": "array", "items": {"type": "object", "required": ["id"], "properties": {"id": {"type": "integer"}}}}"#;
    let options = Options::default().schema(Schema::from_json(schema).unwrap());
    let all_valid = "{\"id\": 1}\n{\"id\": 2}\n{\"id\": 3}";
    assert_eq!(
        llmjson::parse(all_valid, &options).unwrap().value,
        json(r#"[{"id": 1}, {"id": 2}, {"id": 3}]"#)
    );
    let one_bad = "{\"id\": 1}\n{\"id\": \"two\"}\n{\"id\": 3}";
    match llmjson::parse(one_bad, &options) {
        Err(Error::Schema { errors, .. }) => {
            let paths: Vec<&str> = errors.iter().map(|e| e.instance_path.as_str()).collect();
            assert_eq!(paths, ["/1/id"]);
        }
        other => panic!("expected a schema error, got {other:?}"),
    }
    // A lone value is still wrapped when it is all the reply holds.
    assert_eq!(
        llmjson::parse("{\"id\": 1}", &options).unwrap().value,
        json(r#"[{"id": 1}]"#)
    );
}

#[test]
fn text_the_walk_cannot_follow_never_breaks_it() {
    // Found by the fuzzer: the walk that finds spans stepped into a multi-byte character.
    let bytes: &[u8] = &[
        0x28, 0xcb, 0x65, 0x5b, 0x7b, 0x22, 0x73, 0x74, 0x65, 0x70, 0x73, 0xe2, 0x88, 0x92, 0x9a,
        0x3a, 0xb6, 0x22, 0x63, 0x6f, 0x68, 0x54, 0x74, 0x63, 0x69, 0x3a, 0x2c, 0xa2, 0x3a, 0x62,
        0x75, 0x22, 0x3a, 0x20, 0x40, 0xff, 0xff,
    ];
    // The fuzz target's schema (fuzz/fuzz_targets/guided.rs).
    let schema = r#"{"type": "object", "additionalProperties": false, "required": ["steps"],
        "properties": {"steps": {"type": "array", "items": {"anyOf": [
          {"type": "object", "properties": {"id": {"type": "string"},
            "tool": {"enum": ["python", "shell"]}, "n": {"type": "integer", "default": 1}},
            "required": ["id", "n"], "additionalProperties": false},
          {"type": "string"}]}}, "ok": {"type": "boolean"}}}"#;
    for options in [
        Options::default().schema(Schema::from_json(schema).unwrap()),
        drop_options(schema),
    ] {
        let _ = llmjson::parse_bytes(bytes, &options);
        let text = String::from_utf8_lossy(bytes);
        let _ = llmjson::parse(&text, &options);
    }
    let unquoted = "{items: [1, \"x\", 2], ñame: [3, \"y\"], é: 1}";
    let list = r#"{"type": "object", "properties": {"items": {"type": "array", "items": {"type": "integer"}}}}"#;
    let parsed = llmjson::parse(unquoted, &drop_options(list).max_removed_ratio(1.0)).unwrap();
    assert_eq!(dropped_paths(&parsed), ["/items/1"]);
    assert_eq!(&unquoted[parsed.dropped[0].span.clone()], "\"x\"");
}

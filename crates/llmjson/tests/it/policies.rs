//! Policies: repair levels, the safety guard, duplicate keys, limits.

use crate::support::{check_with, error_with, json, kinds, parse_with};
use llmjson::{DuplicateKeys, Error, GuardComments, Options, RepairKind, RepairLevel};

/// One input per repair kind, with the lowest level that accepts it.
const BY_LEVEL: &[(&str, RepairLevel)] = &[
    ("{\"a\": 1}", RepairLevel::None),
    ("```json\n{\"a\": 1}\n```", RepairLevel::None),
    ("{“a”: 1}", RepairLevel::Conservative),
    ("{\"a\": 1 /* c */}", RepairLevel::Conservative),
    ("{\"a\": [1,],}", RepairLevel::Conservative),
    ("{\"a\": \"x\ny\"}", RepairLevel::Conservative),
    ("{\"a\":\u{a0}1}", RepairLevel::Conservative),
    ("{\"a\": {\"b\": 1}", RepairLevel::Conservative),
    (
        "Text before {\"a\": 1} and after",
        RepairLevel::Conservative,
    ),
    ("{\"a\": {\"b\": [1", RepairLevel::Full),
    ("{\"a\": \"x", RepairLevel::Full),
    ("{'a': 1}", RepairLevel::Full),
    ("{a: 1}", RepairLevel::Full),
    ("{\"a\": True}", RepairLevel::Full),
    ("{\"a\": 1 \"b\": 2}", RepairLevel::Full),
    ("{\"a\": \"say \"hi\" now\"}", RepairLevel::Full),
    ("{\"a\": 1]", RepairLevel::Full),
    ("[1, 2, ...]", RepairLevel::Full),
    ("{\"a\": .5}", RepairLevel::Full),
];

#[test]
fn each_level_accepts_exactly_its_repairs() {
    let levels = [
        RepairLevel::None,
        RepairLevel::Conservative,
        RepairLevel::Full,
    ];
    for (input, lowest) in BY_LEVEL {
        for level in levels {
            let result = llmjson::parse(input, &Options::default().level(level));
            assert_eq!(
                result.is_ok(),
                level >= *lowest,
                "{input:?} at level {level:?}: {:?}",
                result.map(|p| p.value)
            );
        }
    }
}

#[test]
fn conservative_repairs_only_cosmetic_kinds() {
    let options = Options::default().level(RepairLevel::Conservative);
    for (input, lowest) in BY_LEVEL {
        if *lowest != RepairLevel::Conservative {
            continue;
        }
        for repair in parse_with(input, &options).repairs {
            assert!(
                repair.kind.min_level() <= RepairLevel::Conservative,
                "{input}: {repair}"
            );
        }
    }
}

#[test]
fn the_guard_counts_commented_out_data_and_skipped_text_only() {
    // A comment holding JSON data counts (its text, not its markers); a small one passes.
    let small = parse_with("{\"a\": 1, /* 3 */ \"b\": 2}", &Options::default());
    assert_eq!(small.removed_bytes, 1);
    assert_eq!(small.located_bytes, 18);
    // Truncation drops are the caller's policy and do not count.
    let cut = parse_with(
        "{\"a\": 1, \"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\":",
        &Options::default(),
    );
    assert_eq!(cut.removed_bytes, 0);
    // A big member commented out of a small object is refused at 0.3, accepted with the
    // guard off.
    let input = format!(
        "{{\"a\": 1, /* \"c\": \"{}\", */ \"b\": 2}}",
        "x".repeat(60)
    );
    assert!(matches!(
        error_with(&input, &Options::default()),
        Error::RepairRejected {
            removed_bytes: 67,
            ..
        }
    ));
    check_with(
        &input,
        &Options::default().max_removed_ratio(1.0),
        r#"{"a": 1, "b": 2}"#,
    );
    // Below the 32-byte floor, ratios on tiny inputs are ignored.
    check_with("[1,/*abcdefghijklmnop*/2]", &Options::default(), "[1, 2]");
}

#[test]
fn prose_comments_are_logged_but_not_counted_unless_every_comment_is() {
    // Models annotate JSON at length: removing prose loses nothing (seed 001's guard read by
    // its purpose). The comment is still in the log, with its span.
    let note = "this value comes from the Q3 report and may change after the audit";
    let input = format!("{{\"a\": 1, // {note}\n \"b\": 2}}");
    let parsed = parse_with(&input, &Options::default());
    assert_eq!(parsed.value, json(r#"{"a": 1, "b": 2}"#));
    assert_eq!(parsed.removed_bytes, 0);
    assert_eq!(kinds(&parsed), [RepairKind::Comment]);
    let comment = &parsed.repairs[0];
    assert_eq!(&input[comment.span.clone()], format!("// {note}"));
    assert_eq!(comment.detail, "removed");
    // The letter of the seed: every comment counts.
    let strict = Options::default().guard_comments(GuardComments::All);
    assert!(matches!(
        error_with(&input, &strict),
        Error::RepairRejected { .. }
    ));
    // A comment that quotes words is still prose; one that holds a member is data.
    let quoted = parse_with(
        "{\"a\": 1, /* the \"id\" must be unique, values: \"x\", \"y\" or \"z\" */ \"b\": 2}",
        &Options::default(),
    );
    assert_eq!(quoted.removed_bytes, 0);
    let data = parse_with(
        "{\"a\": 1,\n  // \"age\": 31,\n  \"b\": 2, \"c\": \"a string long enough to dilute it\"}",
        &Options::default(),
    );
    assert_eq!(data.removed_bytes, "\"age\":31,".len());
    assert_eq!(
        data.repairs[0].detail,
        "removed a comment holding JSON data"
    );
}

#[test]
fn duplicate_key_policies() {
    let input = "{\"a\": 1, \"b\": 0, \"a\": 2}";
    // Valid JSON under the default policy: the last value wins silently, as in serde_json and
    // json.loads (the fast path is serde_json itself).
    let last = parse_with(input, &Options::default());
    assert_eq!(last.value, json(r#"{"a": 2, "b": 0}"#));
    assert_eq!(kinds(&last), []);
    // In a reply that needs repair, llmjson's parser logs the duplicate.
    let repaired = parse_with("Here: {\"a\": 1, \"b\": 0, \"a\": 2,}", &Options::default());
    assert_eq!(repaired.value, json(r#"{"a": 2, "b": 0}"#));
    assert_eq!(
        kinds(&repaired),
        [RepairKind::DuplicateKey, RepairKind::TrailingComma]
    );
    assert_eq!(repaired.repairs[0].path, "/a");
    let first = parse_with(
        input,
        &Options::default().duplicate_keys(DuplicateKeys::First),
    );
    assert_eq!(first.value, json(r#"{"a": 1, "b": 0}"#));
    let err = error_with(
        input,
        &Options::default().duplicate_keys(DuplicateKeys::Error),
    );
    assert!(matches!(err, Error::DuplicateKey { ref key, .. } if key == "a"));
    // Valid JSON with duplicate keys parses at level none, like serde_json.
    assert_eq!(
        parse_with(input, &Options::strict()).value,
        json(r#"{"a": 2, "b": 0}"#)
    );
}

#[test]
fn a_repeated_key_whose_value_differs_counts_as_discarded_data() {
    // In a reply that needs repair, the value a repeated key's policy drops is data thrown
    // away: the guard counts it (a misreading that merges two siblings drops the first one's
    // values this way), and an identical repeat costs nothing.
    let merged = "Here: {\"id\": \"s1\", \"title\": \"Plan the migration of the archive\", \"owner\": \"team-a\", \"id\": \"s2\", \"title\": \"Run the migration of the archive\", \"owner\": \"team-b\",}";
    let err = error_with(merged, &Options::default());
    assert!(matches!(err, Error::RepairRejected { .. }), "{err}");
    let accepted = parse_with(merged, &Options::default().max_removed_ratio(1.0));
    assert_eq!(
        accepted.removed_bytes,
        "\"id\":\"s1\"\"title\":\"Planthemigrationofthearchive\"\"owner\":\"team-a\"".len()
    );
    let same = parse_with(
        "Here: {\"a\": \"a long value that repeats itself word for word\", \"a\": \"a long value that repeats itself word for word\",}",
        &Options::default(),
    );
    assert_eq!(same.removed_bytes, 0);
    assert_eq!(
        kinds(&same),
        [RepairKind::DuplicateKey, RepairKind::TrailingComma]
    );
}

#[test]
fn deep_nesting_is_a_typed_error_not_a_stack_overflow() {
    let deep = "[".repeat(100_000);
    assert!(matches!(
        error_with(&deep, &Options::default()),
        Error::TooDeep { limit: 127, .. }
    ));
    // At the default limit, the output is text serde_json reads back.
    let at_limit = format!("{}{}", "[".repeat(127), "]".repeat(127));
    let text = llmjson::repair_to_string(&format!("{at_limit},"), &Options::default()).unwrap();
    assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok());
    let deep_objects = "{\"a\":".repeat(100_000);
    assert!(matches!(
        error_with(&deep_objects, &Options::default()),
        Error::TooDeep { .. }
    ));
    // The limit has a ceiling: serde_json values drop and serialise recursively.
    let options = Options::default().max_depth(usize::MAX);
    assert_eq!(options.max_depth, llmjson::MAX_DEPTH_CEILING);
    let nested = format!("{}{}", "[".repeat(1000), "]".repeat(1000));
    let parsed = parse_with(&nested, &options);
    assert!(parsed.value.is_array());
    assert!(matches!(
        error_with(&deep, &options),
        Error::TooDeep { limit: 1024, .. }
    ));
}

#[test]
fn options_builder_clamps_values() {
    let options = Options::default().max_removed_ratio(7.0).max_depth(0);
    assert_eq!(options.max_removed_ratio, 1.0);
    assert_eq!(options.max_depth, 1);
    assert_eq!(
        "conservative".parse::<RepairLevel>(),
        Ok(RepairLevel::Conservative)
    );
    assert!("lenient".parse::<RepairLevel>().is_err());
}

/// Strict mode (level `none`, what `LLMJSON_REPAIR=0` forces) is parse-then-validate: the
/// located JSON read as it is, validated, nothing coerced, no other candidate tried.
#[test]
fn strict_mode_validates_without_coercing() {
    let schema = std::sync::Arc::new(
        llmjson::Schema::from_json(
            r#"{"type": "object", "properties": {"version": {"type": "string"}},
                "additionalProperties": false}"#,
        )
        .unwrap(),
    );
    let reply = r#"{"version": 1, "extra": true}"#;
    let fitted = llmjson::parse(reply, &Options::default().schema(schema.clone())).unwrap();
    assert_eq!(fitted.value, serde_json::json!({"version": "1"}));
    let strict = Options::strict().schema(schema);
    match llmjson::parse(reply, &strict) {
        Err(llmjson::Error::Schema { errors, .. }) => assert_eq!(errors.len(), 2),
        other => panic!("{other:?}"),
    }
    // A later value that would fit is not a candidate either.
    let two = "{\"version\": 2}\nor rather {\"version\": \"2\"}";
    assert!(llmjson::parse(two, &strict).is_err());
    assert!(llmjson::parse(r#"{"version": "1"}"#, &strict).is_ok());
}

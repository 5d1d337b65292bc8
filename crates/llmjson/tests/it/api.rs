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

/// Depending on llmjson leaves serde_json as its users know it: no `arbitrary_precision` (an
/// untagged enum holding a float deserialises; `1.50` reads as the f64 1.5) and no
/// `preserve_order` (a `serde_json::Map` iterates in key order). Features unify across a build,
/// so this test, built with the whole workspace, fails if any crate here turns either on.
#[test]
fn serde_json_keeps_its_default_number_and_map_behaviour() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Amount {
        Exact(f64),
        Text(String),
    }
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Line {
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Amount>,
    }
    let line: Line = serde_json::from_str(r#"{"price": 1.50, "note": "x"}"#).unwrap();
    assert_eq!(line.rest["price"], Amount::Exact(1.5));
    let number: serde_json::Value = serde_json::from_str("1.50").unwrap();
    assert_eq!(number.to_string(), "1.5");
    let map: serde_json::Value = serde_json::from_str(r#"{"b": 1, "a": 2}"#).unwrap();
    let keys: Vec<&String> = map.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["a", "b"]);
    // llmjson's own value keeps what serde_json's default drops.
    let ours = llmjson::parse(r#"{"b": 1.50, "a": 2}"#, &Options::default()).unwrap();
    assert_eq!(ours.value.to_string(), r#"{"b":1.50,"a":2}"#);
}

/// A sink of one's own: the strict reader hands it every value in written order, and a sink's
/// refusal stops the read with that refusal.
#[test]
fn a_custom_sink_sees_every_value_in_order_and_can_refuse() {
    use llmjson::sink::{read_valid, Refused, Sink};
    use std::borrow::Cow;
    use std::vec::Drain;

    /// Writes an outline ("{a:[1,x]}") and refuses any string equal to "stop".
    struct Outline;
    impl Sink for Outline {
        type Value = String;
        type Key = String;
        type Error = &'static str;
        fn null(&mut self) -> Result<String, &'static str> {
            Ok("~".into())
        }
        fn bool(&mut self, b: bool) -> Result<String, &'static str> {
            Ok(if b { "T" } else { "F" }.into())
        }
        fn number(&mut self, text: &str, integer: bool) -> Result<String, &'static str> {
            Ok(format!("{text}{}", if integer { "i" } else { "f" }))
        }
        fn string(&mut self, s: Cow<'_, str>) -> Result<String, &'static str> {
            if s == "stop" {
                return Err("stop");
            }
            Ok(s.into_owned())
        }
        fn key(&mut self, k: Cow<'_, str>) -> Result<String, &'static str> {
            Ok(k.into_owned())
        }
        fn array(&mut self, items: Drain<'_, String>) -> Result<String, &'static str> {
            Ok(format!("[{}]", items.collect::<Vec<_>>().join(",")))
        }
        fn object(&mut self, members: Drain<'_, (String, String)>) -> Result<String, &'static str> {
            let parts: Vec<String> = members.map(|(k, v)| format!("{k}:{v}")).collect();
            Ok(format!("{{{}}}", parts.join(",")))
        }
    }
    let text = r#"{"a": [1, -2.5e3, "x\n", null, true], "b": {}, "a": []}"#;
    assert_eq!(
        read_valid(text, 8, &mut Outline),
        Ok("{a:[1i,-2.5e3f,x\n,~,T],b:{},a:[]}".to_string())
    );
    assert_eq!(
        read_valid(r#"["go", "stop"]"#, 8, &mut Outline),
        Err(Refused::Sink("stop"))
    );
    assert_eq!(
        read_valid("[[[1]]]", 2, &mut Outline),
        Err(Refused::Invalid)
    );
    assert_eq!(
        read_valid("[1] [2]", 8, &mut Outline),
        Err(Refused::Invalid)
    );
}

#[test]
fn a_value_parses_strictly_and_says_where_it_is_not_json() {
    let v: Value = " [1, {\"k\": \"v\"}] ".parse().unwrap();
    assert_eq!(v.to_string(), r#"[1,{"k":"v"}]"#);
    let err = "{\"a\": 1,\n \"b\": }".parse::<Value>().unwrap_err();
    let position = err.position().expect("a position");
    assert_eq!((position.line, position.column), (2, 7), "{err}");
    assert!("[1] trailing".parse::<Value>().is_err());
    assert!("Sure: {\"a\": 1}".parse::<Value>().is_err());
    assert!(matches!("".parse::<Value>(), Err(llmjson::Error::Empty)));
}

#[test]
fn parse_value_gives_what_parse_gives_without_the_log_details() {
    // Generated faults of every class, at every level, and the hard inputs the shortcuts meet:
    // the same value or the same error, and the same kinds and spans, as `parse`.
    let levels = [
        Options::default(),
        Options::default().level(llmjson::RepairLevel::Conservative),
        Options::strict(),
    ];
    let mut repaired = 0;
    for case in llmjson_faults::generate(424242, 1200) {
        for options in &levels {
            let full = llmjson::parse(&case.input, options);
            let lean = llmjson::parse_value(&case.input, options);
            match (full, lean) {
                (Ok(full), Ok(lean)) => {
                    assert_eq!(full.value, lean.value, "{}: {:?}", case.id, case.input);
                    let spans: Vec<_> = full
                        .repairs
                        .iter()
                        .map(|r| (r.kind, r.span.clone()))
                        .collect();
                    assert_eq!(spans, lean.repairs, "{}: {:?}", case.id, case.input);
                    assert_eq!(full.is_repaired(), lean.is_repaired());
                    assert_eq!(full.is_truncated(), lean.is_truncated());
                    repaired += usize::from(lean.is_repaired());
                }
                (Err(full), Err(lean)) => assert_eq!(full.to_string(), lean.to_string()),
                (full, lean) => panic!("{}: {full:?} but {lean:?}", case.id),
            }
        }
    }
    assert!(repaired > 1000, "the cases must need repairs: {repaired}");
}

#[test]
fn parse_hinted_gives_what_parse_gives() {
    // The Node package passes what it knows (V8's `JSON.parse` refused the reply) and what it
    // will ask (the log's lines and columns only when the log is read, or no log unless it is
    // read): whatever the reply, a valid document included, the result is `parse`'s once the
    // positions are filled in; without the log, its kinds and spans are the log's.
    let levels = [
        Options::default(),
        Options::default().level(llmjson::RepairLevel::Conservative),
        Options::strict(),
    ];
    let hints = [
        (false, true, false),
        (true, false, false),
        (true, true, false),
        (false, true, true),
        (true, true, true),
    ]
    .map(
        |(refused_whole, positions_later, log_later)| llmjson::bindings::Hints {
            refused_whole,
            positions_later,
            log_later,
        },
    );
    let (mut documents, mut placed, mut unlogged) = (0, 0, 0);
    for case in llmjson_faults::generate(515151, 600) {
        let valid = case.expected.to_string();
        for text in [&case.input, &valid] {
            documents += usize::from(text.trim_start().starts_with(['{', '[']));
            for options in &levels {
                let full = llmjson::parse(text, options);
                for hints in hints {
                    let told = llmjson::bindings::parse_hinted(text, options, hints);
                    match (&full, told) {
                        (Ok(full), Ok(told)) if hints.log_later => {
                            let id = &case.id;
                            let kinds = |p: &llmjson::Parsed| {
                                p.repairs
                                    .iter()
                                    .map(|r| (r.kind, r.span.clone()))
                                    .collect::<Vec<_>>()
                            };
                            assert_eq!(full.value, told.value, "{id} {hints:?}: {text:?}");
                            assert_eq!(kinds(full), kinds(&told), "{id} {hints:?}: {text:?}");
                            assert_eq!(full.is_repaired(), told.is_repaired(), "{id}: {text:?}");
                            assert_eq!(full.is_truncated(), told.is_truncated(), "{id}");
                            assert_eq!(full.span, told.span, "{id}: {text:?}");
                            assert_eq!(full.source, told.source, "{id}: {text:?}");
                            // No path is made: the log's own holds one.
                            unlogged += usize::from(
                                told.repairs
                                    .iter()
                                    .zip(&full.repairs)
                                    .any(|(t, f)| t.path.is_empty() && !f.path.is_empty()),
                            );
                        }
                        (Ok(full), Ok(mut told)) => {
                            if hints.positions_later {
                                placed += usize::from(told.repairs.iter().any(|r| r.line == 0));
                                llmjson::bindings::fill_positions(text, &mut told.repairs);
                            }
                            let id = &case.id;
                            assert_eq!(full.value, told.value, "{id} {hints:?}: {text:?}");
                            assert_eq!(full.repairs, told.repairs, "{id} {hints:?}: {text:?}");
                            assert_eq!(full.span, told.span, "{id}: {text:?}");
                            assert_eq!(full.source, told.source, "{id}: {text:?}");
                        }
                        (Err(full), Err(told)) => assert_eq!(full.to_string(), told.to_string()),
                        (full, told) => panic!("{}: {full:?} but {told:?}", case.id),
                    }
                }
            }
        }
    }
    assert!(
        documents > 600,
        "the cases must hold documents: {documents}"
    );
    assert!(
        unlogged > 300,
        "the paths must be left out without the log: {unlogged}"
    );
    assert!(
        placed > 300,
        "the positions must be left to fill in: {placed}"
    );
}

use super::*;
use serde::Deserialize;
use serde_json::json;

fn sample() -> Value {
    let mut map = Map::new();
    map.insert("z".into(), Value::from(1u8));
    map.insert("a".into(), Value::Number("1.50".parse().unwrap()));
    map.insert("s".into(), Value::String("q\"\\\n\u{1}é".into()));
    map.insert(
        "l".into(),
        Value::from(vec![Value::Null, Value::Bool(false)]),
    );
    map.insert("e".into(), Value::Object(Map::new()));
    map.insert(
        "b".into(),
        Value::Number("123456789012345678901234567890".parse().unwrap()),
    );
    Value::Object(map)
}

#[test]
fn writes_exact_digits_in_key_order() {
    assert_eq!(
        sample().to_string(),
        r#"{"z":1,"a":1.50,"s":"q\"\\\n\u0001é","l":[null,false],"e":{},"b":123456789012345678901234567890}"#
    );
}

#[test]
fn pretty_is_serde_json_s_layout() {
    let v = Value::from(json!({"a": [1, {"b": []}], "c": {}}));
    let ours = format!("{v:#}");
    let theirs = serde_json::to_string_pretty(&json!({"a": [1, {"b": []}], "c": {}})).unwrap();
    assert_eq!(ours, theirs);
}

#[test]
fn strings_escape_as_serde_json_does() {
    for s in [
        "plain",
        "quote\" back\\ nl\n cr\r tab\t bs\u{8} ff\u{c}",
        "\u{0}\u{1f}\u{7f}",
        "日本語 😀",
    ] {
        assert_eq!(Value::from(s).to_json(), serde_json::to_string(s).unwrap());
    }
}

/// JSON for `s`, one character at a time: the rule the word-at-a-time writer must keep.
fn escaped_by_hand(s: &str, ascii: bool) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ascii && !c.is_ascii()) => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn every_character_that_needs_an_escape_is_found_at_every_place_in_a_word() {
    let special = [
        '"', '\\', '\n', '\u{0}', '\u{1f}', '\u{8}', ' ', '~', '\u{7f}', 'é', '😀', '\u{ffff}',
    ];
    for c in special {
        for at in 0..20 {
            for len in [at, 20, 33] {
                let mut s: String = "abcdefghijklmnopqrstuvwxyz0123456789"
                    .chars()
                    .take(len)
                    .collect();
                s.insert(at.min(s.len()), c);
                for ascii in [false, true] {
                    let ours = Value::from(s.as_str()).to_json_styled(crate::Style {
                        pretty: false,
                        ascii,
                    });
                    assert_eq!(ours, escaped_by_hand(&s, ascii), "{s:?} ascii={ascii}");
                }
                assert_eq!(
                    Value::from(s.as_str()).to_json(),
                    serde_json::to_string(&s).unwrap()
                );
            }
        }
    }
}

#[test]
fn serde_json_round_trip_keeps_what_default_serde_json_holds() {
    let j = json!({"b": 1, "a": [true, null, -3, 2.5, "x"], "n": u64::MAX});
    let v = Value::from(j.clone());
    assert_eq!(v, j);
    assert_eq!(serde_json::Value::from(v.clone()), j);
    // Serialize goes through serde's data model: integers exact, floats as f64.
    assert_eq!(serde_json::to_value(&v).unwrap(), j);
}

#[test]
fn numbers_beyond_f64_convert_to_the_nearest_finite() {
    let v = Value::Number("1e400".parse().unwrap());
    assert_eq!(serde_json::Value::from(&v), json!(f64::MAX));
    assert_eq!(v.to_string(), "1e400");
}

#[test]
fn deserialises_typed_values_without_serde_json() {
    #[derive(Deserialize, Debug, PartialEq)]
    enum Kind {
        Plain,
        Wrapped(u8),
        Pair(u8, u8),
        Named { x: i32 },
    }
    #[derive(Deserialize, Debug, PartialEq)]
    struct Step {
        id: String,
        ratio: f64,
        big: u64,
        maybe: Option<bool>,
        missing: Option<bool>,
        kinds: Vec<Kind>,
        by_number: std::collections::BTreeMap<u32, String>,
        #[serde(flatten)]
        rest: std::collections::BTreeMap<String, Value>,
    }
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(untagged)]
    enum Either {
        Float(f64),
        Text(String),
    }
    let v = Value::from(json!({
        "id": "s1", "ratio": 0.25, "big": u64::MAX, "maybe": null,
        "kinds": ["Plain", {"Wrapped": 3}, {"Pair": [1, 2]}, {"Named": {"x": -4}}],
        "by_number": {"7": "seven"},
        "extra": [1.50]
    }));
    let step: Step = crate::from_value(v).unwrap();
    assert_eq!(step.id, "s1");
    assert_eq!(step.big, u64::MAX);
    assert_eq!(step.maybe, None);
    assert_eq!(
        step.kinds,
        [
            Kind::Plain,
            Kind::Wrapped(3),
            Kind::Pair(1, 2),
            Kind::Named { x: -4 }
        ]
    );
    assert_eq!(step.by_number[&7], "seven");
    assert_eq!(step.rest["extra"], Value::from(json!([1.5])));
    let either: Vec<Either> = crate::from_value(Value::from(json!([1.5, "a"]))).unwrap();
    assert_eq!(either, [Either::Float(1.5), Either::Text("a".into())]);
}

#[test]
fn deserialise_errors_say_what_did_not_fit() {
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Pair(u8, u8);
    let err = crate::from_value::<u8>(Value::from("x")).unwrap_err();
    assert!(err.to_string().contains("expected u8"), "{err}");
    assert!(crate::from_value::<Pair>(Value::from(json!([1, 2, 3]))).is_err());
    assert!(crate::from_value::<u64>(Value::Number("1e400".parse().unwrap())).is_err());
}

#[test]
fn value_deserialises_from_serde_json_text() {
    let v: Value = serde_json::from_str(r#"{"b": [1, 2.5, "x", null], "a": true}"#).unwrap();
    assert_eq!(v, json!({"b": [1, 2.5, "x", null], "a": true}));
}

#[test]
fn indexing_and_pointers_never_panic() {
    let v = sample();
    assert_eq!(v["l"][1], false);
    assert!(v["missing"]["deeper"][3].is_null());
    assert!(v[7].is_null());
    assert_eq!(v.pointer("/l/0"), Some(&Value::Null));
    assert_eq!(v.pointer("/l/01"), None);
    assert_eq!(
        v.pointer("/a"),
        Some(&Value::Number("1.5".parse().unwrap()))
    );
    assert_eq!(v.pointer("a"), None);
    assert_eq!(v.pointer(""), Some(&v));
}

#[test]
fn a_layout_is_read_from_the_text_and_the_value_written_in_it_reads_back_the_same() {
    use crate::Layout;
    let compact = Layout::of(r#"{"a":1,"b":[1,2]}"#);
    assert!(!compact.space_after_colon && !compact.space_after_comma && compact.indent.is_none());
    let spaced = Layout::of("{a: 1, b: ['x', 'y: z']}");
    assert!(spaced.space_after_colon && spaced.space_after_comma && spaced.indent.is_none());
    let indented = Layout::of(
        "{\n    \"a\": 1,\n    \"tags\": [\"x\", \"y\"],\n    \"n\": {\n        \"b\": 2\n    }\n}",
    );
    assert_eq!(indented.indent.as_deref(), Some("    "));
    assert!(
        indented.space_after_colon && indented.space_after_comma && indented.inline_scalar_lists
    );
    let tabbed = Layout::of("[\n\t{\"a\": [\n\t\t1\n\t]}\n]");
    assert_eq!(tabbed.indent.as_deref(), Some("\t"));
    assert!(!tabbed.inline_scalar_lists);
    // A colon or a line break inside a string says nothing.
    let quoted = Layout::of("{\"a b\\n: c\":1}");
    assert!(!quoted.space_after_colon && quoted.indent.is_none());
    let value = sample();
    for layout in [compact, spaced, indented, tabbed, quoted] {
        let text = value.to_json_in(&layout);
        assert_eq!(text.parse::<Value>().unwrap(), value, "{layout:?}: {text}");
    }
}

#[test]
fn popping_members_keeps_the_index_right() {
    let mut map = crate::Map::new();
    for i in 0..20 {
        map.insert(format!("k{i}"), Value::from(i));
    }
    map.truncate(14);
    assert_eq!(map.len(), 14);
    assert!(map.get("k14").is_none() && map.get("k13").is_some());
    map.insert("k19".into(), Value::Null);
    assert_eq!(map.get_index(14).map(|(k, _)| k.as_str()), Some("k19"));
    assert_eq!(map.pop().map(|(k, _)| k), Some("k19".into()));
    map.truncate(3);
    assert_eq!(
        map.keys().map(String::as_str).collect::<Vec<_>>(),
        ["k0", "k1", "k2"]
    );
    assert!(map.get("k5").is_none());
}

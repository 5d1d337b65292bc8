//! Shared helpers: one `check` for "this input gives this value".

use llmjson::{Error, Options, Parsed, RepairKind, Value};

pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("bad expectation {text}: {e}"))
}

#[track_caller]
pub fn parse_with(input: &str, options: &Options) -> Parsed {
    llmjson::parse(input, options).unwrap_or_else(|e| panic!("parse failed for {input:?}: {e}"))
}

#[track_caller]
pub fn parse(input: &str) -> Parsed {
    parse_with(input, &Options::default())
}

/// The input gives exactly this value (default options).
#[track_caller]
pub fn check(input: &str, expected: &str) {
    assert_eq!(parse(input).value, json(expected), "input: {input:?}");
}

/// The input gives this value with these options.
#[track_caller]
pub fn check_with(input: &str, options: &Options, expected: &str) {
    assert_eq!(
        parse_with(input, options).value,
        json(expected),
        "input: {input:?}"
    );
}

#[track_caller]
pub fn error_with(input: &str, options: &Options) -> Error {
    match llmjson::parse(input, options) {
        Ok(p) => panic!("expected an error for {input:?}, got {}", p.value),
        Err(e) => e,
    }
}

#[track_caller]
pub fn error(input: &str) -> Error {
    error_with(input, &Options::default())
}

pub fn kinds(parsed: &Parsed) -> Vec<RepairKind> {
    parsed.repairs.iter().map(|r| r.kind).collect()
}

//! Errors: each kind is distinct, says where and why, and reads as plain English.

use crate::support::{error, error_with};
use llmjson::{DuplicateKeys, Error, Options, RepairLevel};

#[test]
fn empty_and_no_json_messages() {
    assert_eq!(
        error("").to_string(),
        "empty response: the input is empty or only whitespace"
    );
    assert_eq!(error("Sorry, no.").to_string(), "no JSON in the response");
    assert_eq!(error("").kind(), "empty");
    assert_eq!(error("Sorry, no.").kind(), "no_json");
}

#[test]
fn size_limit_is_checked_before_parsing() {
    let options = Options::default().max_size(10);
    let err = error_with("{\"a\": \"0123456789\"}", &options);
    assert_eq!(
        err.to_string(),
        "input is 19 bytes, over the limit of 10 bytes (the max_size option raises it)"
    );
    assert!(matches!(
        err,
        Error::TooLarge {
            size: 19,
            limit: 10
        }
    ));
    // Even input that is not JSON at all is refused by size first.
    assert!(matches!(
        error_with(&"x".repeat(11), &options),
        Error::TooLarge { .. }
    ));
}

#[test]
fn depth_limit_error() {
    let deep = format!("{}1{}", "[".repeat(600), "]".repeat(600));
    let err = error(&deep);
    assert_eq!(
        err.to_string(),
        "nesting deeper than 127 levels at line 1 column 128"
    );
    let err = error_with("{\"a\": {\"b\": {}}}", &Options::default().max_depth(2));
    assert!(matches!(err, Error::TooDeep { limit: 2, .. }), "{err}");
}

#[test]
fn syntax_error_at_level_none_has_line_column_offset_and_caret() {
    let input = "{\n  \"version\": \"1.0\",\n  \"steps\": [1, 2,],\n}";
    let err = error_with(input, &Options::strict());
    assert_eq!(
        err.to_string(),
        "trailing comma at line 3 column 17 (byte 38); not repaired at level none\n      \
         \"steps\": [1, 2,],\n                    ^"
    );
    let Error::Syntax(syntax) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        (
            syntax.position.line,
            syntax.position.column,
            syntax.position.offset
        ),
        (3, 17, 38)
    );
    assert_eq!(syntax.message, "trailing comma");
    assert_eq!(err.kind(), "syntax");
}

#[test]
fn an_incomplete_object_at_level_none_is_a_truncation_error() {
    let err = error_with("{\"genre\": \"エンジニア\"", &Options::strict());
    assert_eq!(
        err.to_string(),
        "unexpected end of input inside an object (missing '}') at line 1 column 18 (byte 27); \
         not repaired at level none\n    {\"genre\": \"エンジニア\"\n                          ^"
    );
    assert!(err.is_truncation());
}

#[test]
fn level_none_refuses_text_around_the_json_but_reads_fences() {
    let err = error_with("Result: {\"a\": 1}", &Options::strict());
    assert_eq!(
        err.to_string().lines().next().unwrap(),
        "expected a JSON value at line 1 column 1 (byte 0); not repaired at level none"
    );
    let err = error_with("{\"a\": 1} thanks", &Options::strict());
    assert!(err
        .to_string()
        .starts_with("unexpected text after the JSON value at line 1 column 10"));
    let ok = llmjson::parse("```json\n{\"a\": 1}\n```\nthanks", &Options::strict()).unwrap();
    assert_eq!(ok.value["a"], 1);
}

#[test]
fn conservative_names_the_repair_it_will_not_make() {
    let options = Options::default().level(RepairLevel::Conservative);
    let err = error_with("{'a': 1}", &options);
    assert!(
        err.to_string()
            .starts_with("string in single quotes or backticks at line 1 column 2 (byte 1); not repaired at level conservative"),
        "{err}"
    );
    let err = error_with("{\"a\": {\"b\": [1", &options);
    assert!(err.to_string().starts_with(
        "unexpected end of input with 3 closing brackets missing (level conservative adds at most one)"
    ));
}

#[test]
fn safety_guard_message_gives_the_removed_share() {
    let input = format!(
        "{{\"a\": 1, /* \"c\": \"{}\", */ \"b\": 2}}",
        "x".repeat(200)
    );
    let err = error(&input);
    assert_eq!(
        err.to_string(),
        "repair rejected by the safety guard: it would discard 92.4% of the located JSON text \
         (207 of 224 non-whitespace bytes), over the limit of 30.0%"
    );
    let Error::RepairRejected {
        removed_share,
        limit,
        ..
    } = err
    else {
        panic!()
    };
    assert!(removed_share > 0.9 && (limit - 0.3).abs() < 1e-9);
}

#[test]
fn duplicate_key_error_says_which_and_where() {
    let options = Options::default().duplicate_keys(DuplicateKeys::Error);
    let err = error_with("{\"a\": 1,\n \"a\": 2}", &options);
    assert_eq!(err.to_string(), "duplicate key \"a\" at line 2 column 2");
}

#[test]
fn invalid_utf8_at_level_none() {
    let err = llmjson::parse_bytes(b"{\"a\": \"\xff\"}", &Options::strict()).unwrap_err();
    assert_eq!(err.to_string(), "input is not valid UTF-8 at byte 7");
    let ok = llmjson::parse_bytes(b"{\"a\": \"\xff\"}", &Options::default()).unwrap();
    assert_eq!(ok.value["a"], "\u{fffd}");
    assert_eq!(ok.repairs[0].kind, llmjson::RepairKind::InvalidUtf8);
}

/// Random bytes from a fixed seed (xorshift).
fn noise(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn binary_input_is_refused_as_not_text_at_every_level() {
    // An executable's head with a JSON-looking `[]` inside (what `repair /bin/ls` found).
    let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0".to_vec();
    elf.extend_from_slice(b"GLIBC_2.17 [] __libc_start_main");
    for level in [
        RepairLevel::None,
        RepairLevel::Conservative,
        RepairLevel::Full,
    ] {
        let options = Options::default().level(level);
        let err = llmjson::parse_bytes(&elf, &options).unwrap_err();
        assert_eq!(err.kind(), "binary", "{level:?}");
        assert_eq!(
            err.to_string(),
            "the input is binary, not text (a NUL byte at offset 7)"
        );
        assert_eq!(err.position().map(|p| p.offset), Some(7));
    }
    // Four kilobytes of random bytes: NULs among them.
    let err = llmjson::parse_bytes(&noise(4096, 7), &Options::default()).unwrap_err();
    assert_eq!(err.kind(), "binary", "{err}");
    // Random bytes without a NUL: most are not UTF-8.
    let no_nul: Vec<u8> = noise(4096, 11).into_iter().filter(|&b| b != 0).collect();
    let err = llmjson::parse_bytes(&no_nul, &Options::default()).unwrap_err();
    assert!(
        matches!(err, Error::Binary { nul_at: None, invalid_share } if invalid_share > 0.3),
        "{err:?}"
    );
    assert!(err
        .to_string()
        .starts_with("the input is binary, not text ("));
    assert!(err.to_string().ends_with("% of its bytes are not UTF-8)"));
    // Text holding a NUL, however it came: refused too.
    assert_eq!(error("{\"a\": \"x\0y\"}").kind(), "binary");
    assert_eq!(error("\0").kind(), "binary");
    assert!(llmjson::parse_all("[1] \0", &Options::default()).is_err());
}

#[test]
fn text_in_another_encoding_is_repaired_not_refused() {
    // Latin-1 Portuguese: a few bytes in a hundred are not UTF-8.
    let latin1 =
        b"{\"nome\": \"Jo\xe3o\", \"cidade\": \"S\xe3o Paulo\", \"nota\": \"n\xe3o h\xe1\"}";
    let parsed = llmjson::parse_bytes(latin1, &Options::default()).unwrap();
    assert_eq!(parsed.value["nome"], "Jo\u{fffd}o");
    assert_eq!(parsed.repairs[0].kind, llmjson::RepairKind::InvalidUtf8);
    // The line: a third of the bytes (9 of 25 are refused, 8 of 25 are not).
    let mut third = b"[\"abcdefgh\", \"".to_vec();
    third.extend_from_slice(&[0xff; 9]);
    third.extend_from_slice(b"\"]");
    assert_eq!(third.len(), 25);
    assert_eq!(
        llmjson::parse_bytes(&third, &Options::default())
            .unwrap_err()
            .kind(),
        "binary"
    );
    let mut under = b"[\"abcdefghi\", \"".to_vec();
    under.extend_from_slice(&[0xff; 8]);
    under.extend_from_slice(b"\"]");
    assert_eq!(under.len(), 25);
    assert!(llmjson::parse_bytes(&under, &Options::default()).is_ok());
}

#[test]
fn typed_deserialisation_error_carries_the_path() {
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Step {
        id: String,
        retries: u32,
    }
    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Plan {
        steps: Vec<Step>,
    }
    let err = llmjson::from_str::<Plan>(
        "{\"steps\": [{\"id\": \"a\", \"retries\": 1}, {\"id\": \"b\", \"retries\": \"x\"}]}",
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the JSON does not fit the requested type at /steps/1/retries: invalid type: string \"x\", expected u32"
    );
}

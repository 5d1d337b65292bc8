//! Hostile inputs: each must finish with a value or a typed error. Sizes are bounded so the
//! debug-build test stays quick; timing is measured by `examples/scaling.rs`, never here.

use crate::support::{error, parse};
use llmjson::{Error, Options, RepairLevel};

const MB: usize = 1 << 20;

#[test]
fn a_hundred_thousand_open_brackets() {
    assert!(matches!(error(&"[".repeat(100_000)), Error::TooDeep { .. }));
    assert!(matches!(
        error(&"{\"a\":".repeat(MB / 5)),
        Error::TooDeep { .. }
    ));
}

#[test]
fn a_long_string_full_of_unescaped_quotes() {
    let body = "say \"hi\" and \"bye\", ".repeat(MB / 20);
    let input = format!("{{\"content\": \"{body}\", \"n\": 1}}");
    let parsed = parse(&input);
    assert_eq!(parsed.value["n"], 1);
    assert_eq!(parsed.value["content"].as_str().unwrap().len(), body.len());
    // Code's calls in a string are not a tuple that restates the document (a restart there
    // once threw the document away for `("hi")`).
    let calls = format!(
        "{{\"content\": \"{}\", \"n\": 1}}",
        "print(\"hi\") ".repeat(20_000)
    );
    assert_eq!(parse(&calls).value["n"], 1);
    // Only quotes: each is judged by a bounded look at what follows.
    let quotes = format!("{{\"a\": \"{}\"}}", "\"".repeat(MB));
    assert!(parse(&quotes).value.is_object());
}

#[test]
fn a_megabyte_of_commas() {
    assert!(matches!(error(&",".repeat(MB)), Error::NoJson { .. }));
    let parsed = parse(&format!("[{}1]", ",".repeat(MB)));
    assert_eq!(parsed.value, serde_json::json!([1]));
    // A million extra commas make one log entry, not a million.
    assert_eq!(parsed.repairs.len(), 1);
    assert!(parsed.repairs[0].detail.ends_with(&format!("(x{MB})")));
}

#[test]
fn many_repairs_keep_the_log_bounded() {
    let input = format!("[{}]", "a,".repeat(50_000));
    let parsed = parse(&input);
    assert!(parsed.repairs.len() <= 10_001);
    assert!(parsed
        .repairs
        .last()
        .unwrap()
        .detail
        .contains("more repairs were not logged"));
}

#[test]
fn a_ten_megabyte_valid_document_and_a_huge_fenced_block() {
    let item =
        r#"{"id": 12345, "name": "エンジニア", "tags": ["a", "b"], "code": "print(\"x\")\n"},"#;
    // Just under the 10 MiB default size limit.
    let doc = format!("[{}{{}}]", item.repeat((10 * MB - 64) / item.len()));
    assert!(doc.len() <= llmjson::DEFAULT_MAX_SIZE);
    let parsed = parse(&doc);
    assert!(parsed.repairs.is_empty());
    let reply = format!(
        "Here it is:\n```json\n{}\n```\nDone.",
        &doc[..doc.len() / 2]
    );
    // Half of it in a fence with prose: cut inside the array, so it is completed.
    let fenced = parse(&reply);
    assert!(fenced.is_truncated() && fenced.value.as_array().is_some_and(|a| a.len() > 1000));
}

#[test]
fn the_size_limit_refuses_before_parsing() {
    let big = "x".repeat(llmjson::DEFAULT_MAX_SIZE + 1);
    assert!(matches!(
        llmjson::parse(&big, &Options::default()),
        Err(Error::TooLarge { .. })
    ));
}

#[test]
fn pathological_prose_for_the_locator() {
    // Comments after every brace, think tags, unclosed fences and tool tags, many times over.
    let inputs = [
        "{//".repeat(MB / 3),
        "<think></think>".repeat(MB / 15),
        "<think>".repeat(MB / 7),
        "```".repeat(MB / 3),
        "<tool_call>".repeat(MB / 11),
        "[note] ".repeat(MB / 7),
        "\"a\" ".repeat(MB / 4),
    ];
    for input in &inputs {
        let _ = llmjson::parse(input, &Options::default());
        let _ = llmjson::parse_all(input, &Options::default());
    }
}

/// Fuzz finding (output_valid): 181 open brackets then junk gave a value nested deeper than
/// serde_json reads back. The default depth limit is now serde_json's own.
#[test]
fn fuzz_deep_brackets_then_junk_output_is_readable_by_serde_json() {
    // The finding held NUL bytes: binary, refused before parsing. The same without them.
    let found = format!("\0\n{}\u{1}\0\0h/", "[".repeat(181));
    assert_eq!(
        llmjson::parse(&found, &Options::default())
            .unwrap_err()
            .kind(),
        "binary"
    );
    let input = found.replace('\0', " ");
    for options in [Options::default(), Options::default().max_depth(1024)] {
        match llmjson::parse(&input, &options) {
            Ok(parsed) => {
                assert_eq!(options.max_depth, 1024);
                assert!(parsed.value.is_array());
            }
            Err(Error::TooDeep { limit, .. }) => assert_eq!(limit, 127),
            Err(other) => panic!("{other}"),
        }
    }
}

/// Fuzz finding (output_valid): serde_json's arbitrary-precision numbers travel as an object
/// with one magic key, so while llmjson's value was serde_json's, such an object in a reply came
/// back as a number (`"12"` → 12) and had to be refused. llmjson's own value holds it as the
/// object it is and writes it back unchanged.
#[test]
fn fuzz_serde_json_number_key_is_an_ordinary_key() {
    let input = r#"{"$serde_json::private::Number": "12"}"#;
    let parsed = parse(input);
    assert!(parsed.value.is_object());
    assert_eq!(parsed.value.to_json(), input.replace(": ", ":"));
    let repaired = llmjson::repair_to_string(
        r#"{'a': [{"$serde_json::private::Number": 1}]}"#,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(repaired, r#"{"a":[{"$serde_json::private::Number":1}]}"#);
    let back: serde_json::Value = serde_json::from_str(&repaired).unwrap();
    assert!(back["a"][0].is_object());
}

/// Fuzz finding (differential, after issue 12): serde_json with default features refuses a
/// number beyond f64's range (`445e9444`); it is valid JSON, and llmjson keeps its digits at
/// every level, bare or inside a document.
#[test]
fn fuzz_numbers_beyond_f64_keep_their_digits() {
    for level in [RepairLevel::None, RepairLevel::Full] {
        let options = Options::default().level(level);
        let bare = llmjson::parse("445e9444", &options).unwrap();
        assert_eq!(bare.value.to_json(), "445e9444");
        let inside = llmjson::parse("[-1e400, 2E+999]", &options).unwrap();
        assert_eq!(inside.value.to_json(), "[-1e400,2E+999]");
        assert_eq!(inside.value[0].as_f64(), None);
    }
}

/// Found by the fuzzer: judging whether `(` opens a Python tuple recursed at every level as
/// well as descending, so each further `(` multiplied the work (64 bytes took 22 s). A megabyte
/// of parentheses, nested, in runs and after prose, must finish.
#[test]
fn nested_parentheses_are_judged_in_linear_time() {
    let fuzzed = format!("\n}}, /* {} c */ .c({} *", "\0".repeat(16), "(".repeat(32));
    assert!(llmjson::parse(&fuzzed, &Options::default()).is_err());
    for input in [
        "(".repeat(MB),
        format!(
            "see {}",
            "((((((((((((((((((((((((((((((( x ".repeat(MB / 34)
        ),
        format!("{}1, 2{}", "(".repeat(10_000), ")".repeat(10_000)),
    ] {
        let _ = llmjson::parse(&input, &Options::default());
    }
}

// ---------------------------------------------------------------------------------------------
// The verify stage on hostile evidence and answers: a clear result or a typed error, never a
// panic. (Sizes stay small enough for a debug build; speed is `benches/verify.rs`'s.)

fn verdict(answer: &str, evidence: &str) -> llmjson::verify::Verification {
    let mut e = llmjson::verify::Evidence::new();
    e.add_text("evidence", evidence).unwrap();
    llmjson::verify::verify(answer, &e, &llmjson::verify::VerifyOptions::default())
        .unwrap()
        .verification
}

#[test]
fn verify_on_empty_and_blank_inputs() {
    let v = verdict("", "");
    assert!(!v.verified, "no evidence never verifies");
    assert_eq!(v.numbers_extracted, 0);
    let v = verdict("It was 41.8 MPa.", " \n\t ");
    assert_eq!(v.issue_types, [llmjson::verify::IssueType::NoEvidence]);
    let v = verdict("", "Strength 41.8 MPa.");
    assert!(v.verified && v.numbers_extracted == 0);
}

#[test]
fn verify_on_binary_evidence_is_a_typed_error() {
    let mut e = llmjson::verify::Evidence::new();
    let bytes: Vec<u8> = (0..=255u8).cycle().take(64 << 10).collect();
    assert!(
        e.add_bytes("blob", &bytes).is_err(),
        "bytes that are not UTF-8 are refused"
    );
    // Control characters and odd marks in valid UTF-8 are read, not refused.
    let noise: String = (0u32..0x3000)
        .filter_map(char::from_u32)
        .cycle()
        .take(40_000)
        .collect();
    let v = verdict(&noise, &noise);
    assert_eq!(v.matched + v.unmatched, v.numbers_extracted);
}

#[test]
fn verify_on_ten_megabytes_of_digits() {
    let digits = "7".repeat(10 * MB);
    let mut e = llmjson::verify::Evidence::new();
    // At the default limit the evidence is refused before any work; the answer too.
    assert!(matches!(
        e.add_text("digits", &(digits.clone() + "7")),
        Err(Error::TooLarge { .. })
    ));
    let small = "12 345 678,9 1.234.567 ".repeat(MB / 64);
    e.add_text("groups", &small).unwrap();
    let v = llmjson::verify::verify(
        &small[..4096],
        &e,
        &llmjson::verify::VerifyOptions::default(),
    )
    .unwrap()
    .verification;
    assert_eq!(v.matched + v.unmatched, v.numbers_extracted);
    let err = llmjson::verify::verify(&digits, &e, &llmjson::verify::VerifyOptions::default());
    assert!(matches!(err, Err(Error::TooLarge { .. }) | Ok(_)));
}

#[test]
fn verify_on_ragged_and_degenerate_tables() {
    let ragged = "a,b,c\n1,2\n3,4,5,6,7\n,,\n8\n|x|y|\n|---|\n| 1 | 2 | 3 | 4 |\n;;;\n9;10\n";
    let v = verdict("The b column holds 2, and 7 sits last.", ragged);
    assert_eq!(v.matched + v.unmatched, v.numbers_extracted);
    let mut e = llmjson::verify::Evidence::new();
    e.add_csv("ragged.csv", ragged).unwrap();
    e.add_csv("empty.csv", "").unwrap();
    e.add_csv("header-only.csv", "a;b;c\n").unwrap();
    let v =
        llmjson::verify::verify("b is 2.", &e, &llmjson::verify::VerifyOptions::default()).unwrap();
    assert_eq!(
        v.verification.matched + v.verification.unmatched,
        v.verification.numbers_extracted
    );
    // A table a thousand columns wide, and one a hundred thousand rows long.
    let wide = format!("{}\n{}\n", "h,".repeat(1000), "1,".repeat(1000));
    let long = format!("k,v\n{}", "a,1\n".repeat(100_000));
    let v = verdict("v was 1.", &(wide + &long));
    assert!(v.verified);
}

#[test]
fn verify_on_deep_json_and_pathological_prose() {
    let mut e = llmjson::verify::Evidence::new();
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let value: Result<llmjson::Value, _> = deep.parse();
    if let Ok(value) = value {
        let _ = e.add_json("deep", &value);
    }
    // Every kind of mark the layout reader splits on, repeated.
    let marks = ": ; — – - | ( ) [ ] , . = → % € $ R$ CHF 1 2,5 3.000 4'000 5 6 ".repeat(20_000);
    e.add_text("marks", &marks).unwrap();
    let v = llmjson::verify::verify(
        &marks[..2000],
        &e,
        &llmjson::verify::VerifyOptions::default(),
    )
    .unwrap();
    assert_eq!(
        v.verification.matched + v.verification.unmatched,
        v.verification.numbers_extracted
    );
}

#[test]
fn verify_long_answers_of_the_shapes_that_once_went_quadratic() {
    // Each was quadratic in the answer once (a clause of numbers counted word by word, a
    // value repeated under labels scanned in full, dates scanned per token): at these sizes a
    // quadratic walk takes minutes in a debug build. `examples/verify_linearity.rs` times them.
    let shapes: [(&str, String); 5] = [
        ("digits", "1,2.3 4\u{a0}5-6–7e8%".repeat(5_000)),
        (
            "dates",
            (0..3_000)
                .map(|i| format!("On {} March 2025 the audit found {i} defects; ", 1 + i % 28))
                .collect(),
        ),
        ("lines", (0..10_000).map(|i| format!("{i}\n")).collect()),
        ("colons", (0..10_000).map(|i| format!("a: {i} ")).collect()),
        (
            "words",
            (0..10_000).map(|i| format!("w{} {i} ", i % 7)).collect(),
        ),
    ];
    for (name, text) in shapes {
        let mut e = llmjson::verify::Evidence::new();
        e.add_text(name, &text).unwrap();
        let v =
            llmjson::verify::verify(&text, &e, &llmjson::verify::VerifyOptions::default()).unwrap();
        let v = v.verification;
        assert!(
            v.numbers_extracted > 1000,
            "{name}: {}",
            v.numbers_extracted
        );
        assert_eq!(v.matched + v.unmatched, v.numbers_extracted, "{name}");
        // The answer is its own evidence: every number it states is grounded. (Not asserted
        // for bare lines of integers, where year-shaped lines label the lines after them and
        // the answer reads them as years of other lines: a block, on a text no reply writes.)
        assert!(
            v.verified || name == "lines",
            "{name}: {:?}",
            v.issues.first()
        );
    }
}

/// After a document, blanks that run past the pricing window before a label (`x: {…}`) once
/// sliced the text backwards (found by the laid-out plans property): a value, no panic.
#[test]
fn a_label_beyond_the_pricing_window_after_a_document() {
    for gap in [250, 255, 256, 300, 4096] {
        let text = format!("{{\"a\": 1}},{}x: {{\"b\": 2}}", " ".repeat(gap));
        let parsed = llmjson::parse(&text, &llmjson::Options::default());
        assert!(parsed.is_ok(), "gap {gap}: {parsed:?}");
    }
}

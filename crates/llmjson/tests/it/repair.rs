//! Stage "repair": each repair on its own and in combination, and the repair log.

use crate::support::{check, check_with, json, kinds, parse, parse_with};
use llmjson::{Options, RepairKind, RepairLevel};

#[test]
fn unescaped_quotes_in_source_code_survive() {
    let input =
        r#"{"artifacts":[{"path":"a.py","content":"print("hello")\nx = 'a'"}],"summary":"ok"}"#;
    let parsed = parse(input);
    assert_eq!(
        parsed.value["artifacts"][0]["content"],
        "print(\"hello\")\nx = 'a'"
    );
    assert_eq!(parsed.value["summary"], "ok");
    assert_eq!(kinds(&parsed), [RepairKind::UnescapedQuote]);
    assert_eq!(parsed.repairs[0].path, "/artifacts/0/content");
    assert_eq!(
        parsed.repairs[0].detail,
        "2 quotes inside the string kept as text"
    );
}

#[test]
fn unescaped_quotes_in_html_and_prose() {
    check(
        r#"{"status": "OK", "artifacts": [{"path": "i.html", "content": "<a href="/x" class="btn">Go</a>"}]}"#,
        r#"{"status": "OK", "artifacts": [{"path": "i.html", "content": "<a href=\"/x\" class=\"btn\">Go</a>"}]}"#,
    );
    check(
        r#"{"key": "apple "bee" carrot"}"#,
        r#"{"key": "apple \"bee\" carrot"}"#,
    );
    check(r#"{ "height": "(5'3")" }"#, r#"{"height": "(5'3\")"}"#);
    // A call with several arguments inside an object value is still text.
    check(
        r#"{"code": "f("a", "b")", "n": 1}"#,
        r#"{"code": "f(\"a\", \"b\")", "n": 1}"#,
    );
    // JavaScript concatenation inside a string value is text, not a concatenation.
    check(
        r#"{"js": "s = "a" + "b";", "n": 1}"#,
        r#"{"js": "s = \"a\" + \"b\";", "n": 1}"#,
    );
}

#[test]
fn code_with_dict_literals_and_calls_inside_a_string() {
    // `, "b": ` inside the code looks like a member; the open `{` in the text says it is not.
    check(
        r#"{"path": "a.py", "content": "d = {"a": "x", "b": "y"}\nprint(d["a"], "ok")", "done": true}"#,
        r#"{"path": "a.py", "content": "d = {\"a\": \"x\", \"b\": \"y\"}\nprint(d[\"a\"], \"ok\")", "done": true}"#,
    );
    check(
        r#"["print("a", "b")", "x = f(1, "y")"]"#,
        r#"["print(\"a\", \"b\")", "x = f(1, \"y\")"]"#,
    );
    check(
        r#"{"c": "x = f(g("a"), h[0])", "n": 2}"#,
        r#"{"c": "x = f(g(\"a\"), h[0])", "n": 2}"#,
    );
    // Brackets in prose do not count: the next member is not swallowed.
    check(
        r#"{"a": "see (note", "b": 1,}"#,
        r#"{"a": "see (note", "b": 1}"#,
    );
    check(
        r#"{"msg": "I am sad :(", "b": 1,}"#,
        r#"{"msg": "I am sad :(", "b": 1}"#,
    );
}

#[test]
fn a_missing_end_quote_is_found_by_the_key_that_follows() {
    check(r#"{"a":"b,"c":"d"}"#, r#"{"a": "b", "c": "d"}"#);
    check(
        r#"{"url":"https://x.org/,"id":2}"#,
        r#"{"url": "https://x.org/", "id": 2}"#,
    );
    check(r#"{"time":"12:20}"#, r#"{"time": "12:20"}"#);
    check(r#"["hello,"world"]"#, r#"["hello", "world"]"#);
}

/// A string that lost its closing quote before the end of its container and the start of a
/// sibling ended there: siblings are a shape. Before, the string ran on to the next quote and
/// the sibling's members came back as this object's, its first `note` dropped as a duplicate.
#[test]
fn a_missing_end_quote_is_found_where_the_next_sibling_starts() {
    check(
        r#"[{"id": 1, "note": "it's 'ok}, {'id': 2, "note": "fine"}]"#,
        r#"[{"id": 1, "note": "it's 'ok"}, {"id": 2, "note": "fine"}]"#,
    );
    // Not where code's own brackets close, nor where nothing like a sibling follows.
    check(
        r#"{"code": "if (x) { return '}', '{'; }", "n": 1}"#,
        r#"{"code": "if (x) { return '}', '{'; }", "n": 1}"#,
    );
    check(
        r#"{"code": "f(a}, {b)", "n": 1}"#,
        r#"{"code": "f(a}, {b)", "n": 1}"#,
    );
}

#[test]
fn raw_newlines_and_tabs_in_strings() {
    let parsed = parse("{\"a\": \"line1\nline2\tend\"}");
    assert_eq!(parsed.value, json(r#"{"a": "line1\nline2\tend"}"#));
    assert_eq!(kinds(&parsed), [RepairKind::ControlCharacter]);
    assert_eq!(parsed.repairs[0].detail, "escaped 2 raw control characters");
}

#[test]
fn other_raw_control_characters_are_refused() {
    let err = crate::support::error("{\"a\": \"x\u{1}y\"}");
    assert!(
        err.to_string().contains("raw control character U+0001"),
        "{err}"
    );
    // A NUL byte says the input is not text at all.
    assert_eq!(
        crate::support::error("{\"a\": \"x\u{0}y\"}").kind(),
        "binary"
    );
}

#[test]
fn smart_quotes_as_delimiters_and_inside_text() {
    let parsed = parse("{“version”: “1.0”, \"q\": \"She said “hi” to me\"}");
    assert_eq!(
        parsed.value,
        json(r#"{"version": "1.0", "q": "She said “hi” to me"}"#)
    );
    assert!(kinds(&parsed).iter().all(|k| *k == RepairKind::SmartQuotes));
    check("{‘a’: ‘b’}", r#"{"a": "b"}"#);
}

#[test]
fn python_and_javascript_literals() {
    let parsed = parse("{\"a\": True, \"b\": False, \"c\": None, \"d\": undefined, \"e\": NaN}");
    assert_eq!(
        parsed.value,
        json(r#"{"a": true, "b": false, "c": null, "d": null, "e": null}"#)
    );
    assert_eq!(
        kinds(&parsed),
        [
            RepairKind::PythonLiteral,
            RepairKind::PythonLiteral,
            RepairKind::PythonLiteral,
            RepairKind::JavascriptLiteral,
            RepairKind::JavascriptLiteral
        ]
    );
}

#[test]
fn comments_of_both_kinds() {
    let parsed = parse("{\n  // the plan\n  \"a\": 1, /* inline */ \"b\": 2\n}");
    assert_eq!(parsed.value, json(r#"{"a": 1, "b": 2}"#));
    assert_eq!(kinds(&parsed), [RepairKind::Comment, RepairKind::Comment]);
    check(
        "{\"a\": 1, /* x */ \"b\": [1, // one\n 2]}",
        r#"{"a": 1, "b": [1, 2]}"#,
    );
    check("/* header */ {\"a\": 1} // done", r#"{"a": 1}"#);
}

#[test]
fn missing_and_extra_commas() {
    let parsed = parse("{\"a\": 1\n\"b\": 2}");
    assert_eq!(parsed.value, json(r#"{"a": 1, "b": 2}"#));
    assert_eq!(kinds(&parsed), [RepairKind::MissingComma]);
    check("[1 2 3]", "[1, 2, 3]");
    check("[{} {}]", "[{}, {}]");
    check("[,1,,2,]", "[1, 2]");
    check("{,\"a\": 1,,}", r#"{"a": 1}"#);
}

#[test]
fn trailing_commas() {
    let parsed = parse("{\"a\": [1, 2,\n  ],\n}");
    assert_eq!(parsed.value, json(r#"{"a": [1, 2]}"#));
    assert_eq!(
        kinds(&parsed),
        [RepairKind::TrailingComma, RepairKind::TrailingComma]
    );
    assert_eq!(parsed.repairs[0].path, "/a");
    assert_eq!(parsed.repairs[1].path, "");
}

#[test]
fn single_quotes_and_unquoted_keys() {
    check("{'a': 'b'}", r#"{"a": "b"}"#);
    check(
        "{'message': 'it's working'}",
        r#"{"message": "it's working"}"#,
    );
    check(
        "{name: 'Ana', age: 30, first name: \"x\"}",
        r#"{"name": "Ana", "age": 30, "first name": "x"}"#,
    );
    check("{2: true}", r#"{"2": true}"#);
    check("{注意: なし}", r#"{"注意": "なし"}"#);
}

#[test]
fn unquoted_values() {
    check(
        "{greeting: hello world\nnext: \"line\"}",
        r#"{"greeting": "hello world", "next": "line"}"#,
    );
    check(
        "{url: https://www.example.com/a?b=1}",
        r#"{"url": "https://www.example.com/a?b=1"}"#,
    );
    check(
        "{\"date\": 2024-10-18T18:35:22.229Z}",
        r#"{"date": "2024-10-18T18:35:22.229Z"}"#,
    );
}

#[test]
fn missing_colon_and_missing_value() {
    check(r#"{"a" "b", "c" 2}"#, r#"{"a": "b", "c": 2}"#);
    let parsed = parse(r#"{"a": , "b": 1}"#);
    assert_eq!(parsed.value, json(r#"{"a": null, "b": 1}"#));
    assert_eq!(kinds(&parsed), [RepairKind::MissingValue]);
    check(r#"{"a":}"#, r#"{"a": null}"#);
}

#[test]
fn mismatched_missing_and_extra_closers() {
    check(r#"{"a": 2]"#, r#"{"a": 2}"#);
    check(r#"[{"b": 2]"#, r#"[{"b": 2}]"#);
    check(r#"{"a": [1, 2}, "b": 3}"#, r#"{"a": [1, 2], "b": 3}"#);
    check(r#"[{"i":1{"i":2}]"#, r#"[{"i": 1}, {"i": 2}]"#);
    check(r#"{"a": 1}}]}"#, r#"{"a": 1}"#);
    check(r#"{{"a": 1}}"#, r#"{"a": 1}"#);
    check(r#"{"x": {{"a": 1}}, "y": 2}"#, r#"{"x": {"a": 1}, "y": 2}"#);
}

#[test]
fn numbers_keep_their_exact_digits() {
    let parsed =
        parse("{\"big\": 123456789012345678901234567890, \"f\": 1.10, \"e\": 1E6, \"n\": -0}");
    assert_eq!(parsed.repairs, []);
    let text = parsed.value.to_json();
    // Digits are kept exactly, the exponent as written.
    assert_eq!(
        text,
        r#"{"big":123456789012345678901234567890,"f":1.10,"e":1E6,"n":-0}"#
    );
    // The same through the tolerant path (a repair elsewhere in the document).
    let repaired = parse("{'big': 123456789012345678901234567890, 'e': 1E6, 'n': -0.0}");
    assert_eq!(
        repaired.value.to_json(),
        r#"{"big":123456789012345678901234567890,"e":1E6,"n":-0.0}"#
    );
    check("[.5, +1, 2., 0789]", r#"[0.5, 1, 2.0, "0789"]"#);
}

#[test]
fn key_order_is_preserved() {
    let parsed = parse("{\"z\": 1, \"a\": 2, \"m\": {'y': 1, x: 2}}");
    let keys: Vec<_> = parsed.value.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["z", "a", "m"]);
    let inner: Vec<_> = parsed.value["m"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(inner, ["y", "x"]);
}

#[test]
fn windows_paths_keep_their_backslashes() {
    check(
        r#"{"content": "C:\Users\dev\data.txt"}"#,
        r#"{"content": "C:\\Users\\dev\\data.txt"}"#,
    );
    check(r#"{"p": "C:\users\x"}"#, r#"{"p": "C:\\users\\x"}"#);
}

#[test]
fn escaped_json_and_wrappers() {
    check(r#"{\"a\": \"hello\"}"#, r#"{"a": "hello"}"#);
    check(
        r#"{"_id": ObjectId("123"), "n": NumberLong("2")}"#,
        r#"{"_id": "123", "n": "2"}"#,
    );
    check(r#"{"s": "hello" + " world"}"#, r#"{"s": "hello world"}"#);
    check("[1, 2, ..., 9]", "[1, 2, 9]");
}

#[test]
fn unusual_whitespace_between_tokens() {
    check(
        "\u{feff}{\"a\":\u{a0}1,\u{200b}\"b\":\u{3000}2}",
        r#"{"a": 1, "b": 2}"#,
    );
}

#[test]
fn valid_json_takes_the_fast_path_unchanged() {
    let input = r#"  {"a": [1, 2.50, {"b": null}], "c": "x\"y\u00e9", "d": false}  "#;
    let parsed = parse(input);
    assert!(parsed.repairs.is_empty());
    assert!(!parsed.is_repaired());
    assert_eq!(
        parsed.value,
        serde_json::from_str::<serde_json::Value>(input).unwrap()
    );
    assert_eq!(&input[parsed.span.clone()], input.trim());
    assert_eq!(
        llmjson::repair_to_string(input, &Options::default()).unwrap(),
        input.trim()
    );
}

#[test]
fn repaired_text_is_compact_json() {
    let out = llmjson::repair_to_string("Here: {a: 1, b: [1,2,],}", &Options::default()).unwrap();
    assert_eq!(out, r#"{"a":1,"b":[1,2]}"#);
}

#[test]
fn the_repair_log_has_kind_span_line_column_path_and_detail() {
    let input = "{\n  \"steps\": [\n    {\"id\": \"s1\", \"ok\": True},\n  ]\n}";
    let parsed = parse(input);
    let log: Vec<String> = parsed.repairs.iter().map(|r| r.to_string()).collect();
    assert_eq!(
        log,
        [
            "3:24 python_literal at /steps/0/ok: 'True' became true",
            "3:29 trailing_comma at /steps: removed",
        ]
    );
    let first = &parsed.repairs[0];
    assert_eq!(&input[first.span.clone()], "True");
    let json = serde_json::to_string(first).unwrap();
    assert_eq!(
        json,
        r#"{"kind":"python_literal","span":{"start":38,"end":42},"line":3,"column":24,"path":"/steps/0/ok","detail":"'True' became true"}"#
    );
}

#[test]
fn json_pointer_paths_escape_slash_and_tilde() {
    let parsed = parse(r#"{"a/b": {"c~d": True}}"#);
    assert_eq!(parsed.repairs[0].path, "/a~1b/c~0d");
}

#[test]
fn paths_follow_the_parser_in_and_out_of_containers() {
    // Repairs before, inside and after nested containers, in objects and arrays: each entry
    // names the place it was made, however the containers opened and closed in between.
    let parsed = parse("{a: {x: 1,}, 'b': [True, [None,], {k: False,},], c: [1 2]}");
    let paths: Vec<String> = parsed
        .repairs
        .iter()
        .map(|r| format!("{} {}", r.kind, r.path))
        .collect();
    assert_eq!(
        paths,
        [
            "unquoted_key /a",
            "unquoted_key /a/x",
            "trailing_comma /a",
            "single_quotes /b",
            "python_literal /b/0",
            "python_literal /b/1/0",
            "trailing_comma /b/1",
            "unquoted_key /b/2/k",
            "python_literal /b/2/k",
            "trailing_comma /b/2",
            "trailing_comma /b",
            "unquoted_key /c",
            "missing_comma /c",
        ]
    );
}

#[test]
fn logged_paths_stay_bounded_for_deep_nesting_and_long_keys() {
    let long_key = "k".repeat(300);
    let parsed = parse(&format!("{{\"{long_key}\": True}}"));
    assert_eq!(parsed.repairs[0].path, format!("/{}…", "k".repeat(128)));

    // 40 nested arrays: the first and last 16 segments, with `/…` between.
    let deep = format!("{}True{}", "[".repeat(40), "]".repeat(40));
    let parsed = parse(&deep);
    assert_eq!(
        parsed.repairs[0].path,
        format!("{}/…{}", "/0".repeat(16), "/0".repeat(16))
    );
}

#[test]
fn conservative_plan_with_smart_quotes_comment_and_trailing_comma() {
    let reply = "```json\n{\n  “version”: \"1.0\", // the plan\n  \"steps\": [{\"id\": \"s1\", \"tool\": \"python\"},],\n}\n```";
    let options = Options::default().level(RepairLevel::Conservative);
    let parsed = parse_with(reply, &options);
    assert_eq!(
        parsed.value,
        json(r#"{"version": "1.0", "steps": [{"id": "s1", "tool": "python"}]}"#)
    );
    assert_eq!(
        kinds(&parsed),
        [
            RepairKind::SmartQuotes,
            RepairKind::Comment,
            RepairKind::TrailingComma,
            RepairKind::TrailingComma
        ]
    );
    check_with("{\"a\": {\"b\": 1}", &options, r#"{"a": {"b": 1}}"#);
}

#[test]
fn lone_surrogate_escapes_become_replacement_characters() {
    let parsed = parse(r#"{"a": "x\ud800y", "b": "\udc00", "c": "\ud83d\ude00",}"#);
    assert_eq!(
        parsed.value,
        json(r#"{"a": "x\ufffdy", "b": "\ufffd", "c": "😀"}"#)
    );
    assert_eq!(
        kinds(&parsed),
        [
            RepairKind::InvalidUnicodeEscape,
            RepairKind::InvalidUnicodeEscape,
            RepairKind::TrailingComma
        ]
    );
    // At level none a lone surrogate is an error, as in serde_json.
    assert!(llmjson::parse(r#"["\ud800"]"#, &Options::strict()).is_err());
}

/// A reply cut anywhere inside a `\u` escape, a surrogate pair's low half included, is a cut
/// escape: left out with the cut, never a lone surrogate's U+FFFD (the one decoder every reader
/// asks, `spelling::unicode_escape`; before, a pair cut inside its second half read as a lone
/// high surrogate).
#[test]
fn a_reply_cut_inside_a_unicode_escape_leaves_the_escape_out() {
    for cut in [r"\u26", r"\ud83d", r"\ud83d\", r"\ud83d\u", r"\ud83d\ude0"] {
        let parsed = parse(&format!(r#"{{"a": "smile {cut}"#));
        assert_eq!(parsed.value, json(r#"{"a": "smile"}"#), "{cut}");
        assert!(parsed.is_truncated(), "{cut}");
        assert!(
            !kinds(&parsed).contains(&RepairKind::InvalidUnicodeEscape),
            "{cut}: {:?}",
            kinds(&parsed)
        );
    }
    let whole = parse(r#"{"a": "smile \ud83d\ude00"#);
    assert_eq!(whole.value, json(r#"{"a": "smile 😀"}"#));
    // A cut escape that cannot be the low half: the high surrogate before it is lone.
    let lone = parse(r#"{"a": "smile \ud83d\u00"#);
    assert_eq!(lone.value, json(r#"{"a": "smile \ufffd"}"#));
    assert!(kinds(&lone).contains(&RepairKind::InvalidUnicodeEscape));
}

/// A comment between the value and what goes on like JSON after it is left out with it, in the
/// same log entry (before, the entry began after the comment: its words were lost unlogged).
#[test]
fn a_comment_before_trailing_content_is_left_out_with_it() {
    let parsed = parse(r#"{"a": 1} // optional }"#);
    assert_eq!(parsed.value, json(r#"{"a": 1}"#));
    assert_eq!(parsed.repairs.len(), 1, "{:?}", parsed.repairs);
    let left = &parsed.repairs[0];
    assert_eq!(left.kind, RepairKind::IgnoredTrailingContent);
    assert_eq!((left.span.start, left.span.end), (9, 22));
}

/// What is left out after the value runs on over blank lines inside the brackets it opened (a
/// laid-out step has blank lines too): the log covers all of it, to its last closer. Before,
/// the entry stopped at the first blank line and the rest was lost with no log line (found by
/// the laid-out plans property, where 1.8 KB of a plan went so).
#[test]
fn trailing_content_over_blank_lines_inside_its_brackets_is_logged_whole() {
    for gap in ["\n\n", "\n  \n\n", "\n\t\n"] {
        let input =
            format!("Result:\n{{\"id\": 1, \"name\": \"x\"}}\n\"tags\": [\n\"a\",{gap}\"b\"\n]}}");
        let parsed = parse(&input);
        assert_eq!(parsed.value, json(r#"{"id": 1, "name": "x"}"#));
        let left = parsed
            .repairs
            .iter()
            .find(|r| r.kind == RepairKind::IgnoredTrailingContent)
            .unwrap_or_else(|| panic!("{input:?}: {:?}", parsed.repairs));
        assert_eq!(left.span.end, input.len(), "{input:?}");
    }
}

/// A reply cut after a member whose code holds a JSON literal (`'{"name": "Ana", "ok": true}'`)
/// keeps the whole string: ending the document at the literal's `}` leaves out a `",` that ends
/// its line, which is how JSON ends a member, and now pays for it. Before, the rest of the code
/// and the cut were left out without a log line.
#[test]
fn a_cut_reply_keeps_code_holding_a_json_literal() {
    let code = r#"curl -s -d '{"name": "Ana", "ok": true}' https://api.example.com/v1/users"#;
    let input =
        format!("Here:\n{{\n    \"path\": \"lib/util.rs\",\n    \"content\": \"{code}\",\n   ");
    let parsed = parse(&input);
    assert_eq!(parsed.value["content"].as_str(), Some(code));
}

/// Markdown escapes (`\_`, `\*`, `\#`, `\[`, `\]`, `\>`, `\~`) written by a model that formats
/// for markdown: the character, in keys always, in values unless the string shows maths or
/// other literal backslashes. Cases written for the class: other words, languages, nesting.
#[test]
fn markdown_escapes_become_their_characters_unless_the_backslashes_are_text() {
    let read = [
        (r#"{"user\_id": 7}"#, r#"{"user_id": 7}"#),
        (
            r#"{"file": "report\_final\_v2.pdf"}"#,
            r#"{"file": "report_final_v2.pdf"}"#,
        ),
        (
            r#"{"note": "Use \*bold\* and \#tags"}"#,
            r#"{"note": "Use *bold* and #tags"}"#,
        ),
        (
            r#"{"título": "Relatório \_anual\_ \> 2024"}"#,
            r#"{"título": "Relatório _anual_ > 2024"}"#,
        ),
        (
            r#"{"メモ": "ファイル名は data\_2024.csv です"}"#,
            r#"{"メモ": "ファイル名は data_2024.csv です"}"#,
        ),
        (
            r#"{"steps": [{"cmd": "rm tmp\_\*.log", "why": "\~cleanup"}]}"#,
            r#"{"steps": [{"cmd": "rm tmp_*.log", "why": "~cleanup"}]}"#,
        ),
        (
            "{'action': 'think', 'thought': 'run hello\\_world.sh first'}",
            r#"{"action": "think", "thought": "run hello_world.sh first"}"#,
        ),
    ];
    for (reply, want) in read {
        let parsed = parse(reply);
        assert_eq!(parsed.value, json(want), "{reply}");
        assert!(
            kinds(&parsed).contains(&RepairKind::MarkdownEscape),
            "{reply}: {:?}",
            kinds(&parsed)
        );
    }
    // The backslashes are text: maths, a regular expression, a Windows path.
    let kept = [
        (
            r#"{"formula": "$a\_1 + b\_2$"}"#,
            r#"{"formula": "$a\\_1 + b\\_2$"}"#,
        ),
        (
            r#"{"pattern": "^\d+\_\w+$"}"#,
            r#"{"pattern": "^\\d+\\_\\w+$"}"#,
        ),
        (
            r#"{"path": "C:\Users\_cache"}"#,
            r#"{"path": "C:\\Users\\_cache"}"#,
        ),
    ];
    for (reply, want) in kept {
        let parsed = parse(reply);
        assert_eq!(parsed.value, json(want), "{reply}");
        assert!(
            !kinds(&parsed).contains(&RepairKind::MarkdownEscape),
            "{reply}"
        );
    }
    // In a key the character, whatever the key holds.
    assert_eq!(
        parse(r#"{"col\_\d": 1}"#)
            .value
            .as_object()
            .unwrap()
            .keys()
            .next()
            .unwrap(),
        "col_\\d"
    );
    // Conservative repairs no markdown: the backslash is kept as text, as any bad escape.
    let conservative = Options::default().level(RepairLevel::Conservative);
    assert!(llmjson::parse(r#"{"a": "x\_y"}"#, &conservative).is_err());
}

/// A line break or tab written as an escape between tokens (`\n` as two characters: tool-call
/// arguments quoted once too often) is whitespace; inside a string it stays what JSON says.
#[test]
fn escaped_line_breaks_between_tokens_are_whitespace() {
    for (reply, want) in [
        (
            r#"{"command": "view", "view_range": \n[2142, 2250]\n\n}"#,
            r#"{"command": "view", "view_range": [2142, 2250]}"#,
        ),
        (
            r#"{\n  "nome": "Ana",\n  "idade": 31\n}"#,
            r#"{"nome": "Ana", "idade": 31}"#,
        ),
        (r#"[1,\t2,\r\n3]"#, "[1, 2, 3]"),
        (
            r#"{\n"city": Porto,\n"note": hello world\n}"#,
            r#"{"city": "Porto", "note": "hello world"}"#,
        ),
        (
            r#"{\n\"query\": \"hotels in Porto\",\n\"limit\": 3\n}"#,
            r#"{"query": "hotels in Porto", "limit": 3}"#,
        ),
    ] {
        let parsed = parse(reply);
        assert_eq!(parsed.value, json(want), "{reply}");
        assert!(
            kinds(&parsed).contains(&RepairKind::SpecialWhitespace),
            "{reply}"
        );
    }
    // In a string, `\n` is the line break JSON says, and no repair.
    let parsed = parse(r#"{"text": "a\nb\tc"}"#);
    assert_eq!(parsed.value, json(r#"{"text": "a\nb\tc"}"#));
    assert!(parsed.repairs.is_empty());
}

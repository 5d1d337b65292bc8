//! The decision procedure at ambiguous spots: which quote ends a string, which container a
//! closer closes, whether a `}` ends the document. Each case is one the cost table decides
//! (`src/repair/cost.rs`), and each checks the log as well as the value: a repair the value
//! needed and the log does not show is data changed silently.
//!
//! The first fourteen are the rows of issue 9's table, replies that earlier versions garbled or
//! cut with exit 0.

use crate::support::{json, kinds, parse};
use llmjson::RepairKind::{self, *};

/// `input` gives `expected`, logging exactly the repairs `log` (in order).
#[track_caller]
fn decides(input: &str, expected: &str, log: &[RepairKind]) {
    let parsed = parse(input);
    assert_eq!(parsed.value, json(expected), "input: {input:?}");
    assert_eq!(
        kinds(&parsed),
        log,
        "input: {input:?}\nlog: {:#?}",
        parsed.repairs
    );
}

#[test]
fn a_wrong_closer_closes_the_array_it_stands_for() {
    decides(
        r#"{"tags": ["red", "blue"}, "count": 2, "owner": "ana"}"#,
        r#"{"tags": ["red", "blue"], "count": 2, "owner": "ana"}"#,
        &[MismatchedCloser],
    );
}

#[test]
fn a_doubled_closer_in_an_array_is_stray() {
    decides(
        r#"[{"id": 1}}, {"id": 2}]"#,
        r#"[{"id": 1}, {"id": 2}]"#,
        &[ExtraCloser],
    );
}

#[test]
fn members_after_a_premature_close_are_merged_back() {
    decides(
        r#"{"a": "x"}, "b": "y", "c": "z"}"#,
        r#"{"a": "x", "b": "y", "c": "z"}"#,
        &[ExtraCloser],
    );
}

#[test]
fn a_key_that_lost_its_quote_ends_at_its_colon() {
    decides(
        r#"{"status: "done", "count": 2}"#,
        r#"{"status": "done", "count": 2}"#,
        &[MissingEndQuote],
    );
}

#[test]
fn a_typographic_quote_closes_an_ascii_opened_string() {
    decides(
        r#"{"reason": "prices go up”, "n": 1}"#,
        r#"{"reason": "prices go up", "n": 1}"#,
        &[SmartQuotes],
    );
}

#[test]
fn a_url_in_a_markdown_link_is_text_not_a_comment() {
    decides(
        r#"{"note": "see [docs]("https://example.com/x") first", "ok": true}"#,
        r#"{"note": "see [docs](\"https://example.com/x\") first", "ok": true}"#,
        &[UnescapedQuote],
    );
}

#[test]
fn strings_without_commas_are_separate_elements() {
    decides(
        r#"["a" "b" "c" 1"#,
        r#"["a", "b", "c", 1]"#,
        &[
            MissingComma,
            MissingComma,
            MissingComma,
            ClosedTruncatedArray,
        ],
    );
}

#[test]
fn a_stutter_after_a_value_is_dropped() {
    decides(
        r#"{"when":"07:58",","city":"Lisboa"}"#,
        r#"{"when": "07:58", "city": "Lisboa"}"#,
        // The stutter `",` is one stray run before the key.
        &[DroppedGarbage],
    );
    // So are longer runs of fragments (`"",",`), as a real reply wrote them.
    decides(
        r#"{"data":"2024-10-09","",","dia":"quarta"}"#,
        r#"{"data": "2024-10-09", "dia": "quarta"}"#,
        &[DroppedGarbage],
    );
}

#[test]
fn a_row_that_lost_its_bracket_is_regrouped() {
    decides(
        r#"{"t": [["a", 1, "x"], ["b", 2, "y"], "c", 3, "z"], ["d", 4, "w"]]}"#,
        r#"{"t": [["a", 1, "x"], ["b", 2, "y"], ["c", 3, "z"], ["d", 4, "w"]]}"#,
        &[MissingOpener],
    );
}

#[test]
fn a_label_line_after_members_whose_closer_never_came_ends_the_document() {
    let text = r#"{
"op": "send",
"args": {
    "to": "ana"
}
TOOL OUTPUT {"status": "OK", "id": 7}"#;
    let parsed = llmjson::parse(text, &llmjson::Options::default()).unwrap();
    assert_eq!(
        serde_json::to_value(&parsed.value).unwrap(),
        serde_json::json!({"op": "send", "args": {"to": "ana"}})
    );
}

#[test]
fn a_value_that_lost_its_opening_quote_and_opens_with_an_apostrophe() {
    decides(
        r#"{"name "'O' Brien and sons, Ltd","n":1}"#,
        r#"{"name": "'O' Brien and sons, Ltd", "n": 1}"#,
        &[MissingColon, MissingStartQuote],
    );
}

#[test]
fn code_with_a_format_string_stays_whole() {
    decides(
        r#"{"content": "log("key: %s", k)", "next_actions": ["retry"]}"#,
        r#"{"content": "log(\"key: %s\", k)", "next_actions": ["retry"]}"#,
        &[UnescapedQuote],
    );
}

#[test]
fn code_ending_in_a_raw_newline_keeps_its_last_quote() {
    decides(
        "{\"path\": \"a.py\", \"content\": \"s = \"x\"\n\"}",
        r#"{"path": "a.py", "content": "s = \"x\"\n"}"#,
        &[UnescapedQuote, ControlCharacter],
    );
}

#[test]
fn code_with_a_windows_path_stays_whole() {
    let parsed = parse(r#"{"snippet": "p = "C:\\Users\\me"\nx = 1", "n": 1}"#);
    assert_eq!(parsed.value["snippet"], "p = \"C:\\Users\\me\"\nx = 1");
    assert_eq!(parsed.value["n"], 1);
    assert_eq!(kinds(&parsed), [UnescapedQuote]);
}

#[test]
fn a_key_inside_an_array_closes_the_array() {
    decides(
        r#"{"a": [1, 2, "b": 3}"#,
        r#"{"a": [1, 2], "b": 3}"#,
        &[MissingCloser],
    );
}

#[test]
fn an_abandoned_draft_is_not_the_answer() {
    decides(
        r#"Draft: {"a": [1, 2 -- wait. Final: {"a": [1, 2, 3]}"#,
        r#"{"a": [1, 2, 3]}"#,
        &[AbandonedDraft],
    );
}

#[test]
fn json_in_a_shell_command_is_not_the_answer() {
    decides(
        "```bash\ncurl -d {\"a\": 1}\n```\nResult: {\"real\": 2}",
        r#"{"real": 2}"#,
        &[],
    );
}

// ---------------------------------------------------------------------------------------------
// Beyond the table: the same procedure on spots of other kinds.

#[test]
fn a_doubled_closer_deep_inside_is_stray_and_the_member_after_it_kept() {
    decides(
        r#"[{"a": {"b": 1}}, "done": true}, {"id": 2}]"#,
        r#"[{"a": {"b": 1}, "done": true}, {"id": 2}]"#,
        &[ExtraCloser],
    );
    decides(
        r#"{"a": {"b": [1, 2]], "c": 3}, "d": 4}"#,
        r#"{"a": {"b": [1, 2], "c": 3}, "d": 4}"#,
        &[ExtraCloser],
    );
}

#[test]
fn a_key_that_lost_its_quote_at_the_end_of_the_document_is_kept() {
    // Not a cut: the closers of the whole document follow it.
    decides(
        r#"{"id": 1, "score: -0.001}"#,
        r#"{"id": 1, "score": -0.001}"#,
        &[MissingEndQuote],
    );
    decides(
        r#"[{"a": 1, "active: true}]"#,
        r#"[{"a": 1, "active": true}]"#,
        &[MissingEndQuote],
    );
    // A real cut inside a key drops the key (it has no value yet).
    decides(
        r#"{"id": 1, "sco"#,
        r#"{"id": 1}"#,
        &[DroppedTruncatedMember, ClosedTruncatedObject],
    );
    // So does a cut right after a key that lost its opening quote: `score"` is a key, not
    // a key, a lost colon and a string cut at its start.
    decides(
        "{\"id\": 1,\n  score\"",
        r#"{"id": 1}"#,
        &[DroppedTruncatedMember, ClosedTruncatedObject],
    );
}

#[test]
fn a_line_of_words_after_a_one_line_document_is_prose_not_an_item() {
    // The list lost its closer; the sentence on the next line is not its next item.
    decides(
        "[{\"a\": 1}, {\"b\": 2}\nObrigado pela paciência!",
        r#"[{"a": 1}, {"b": 2}]"#,
        &[MissingCloser],
    );
    // In a document laid out over lines, a line of its own may still be an item.
    let laid_out = parse("[\n  \"a\",\n  \"b\"\n  c d\n]");
    assert_eq!(laid_out.value.as_array().map(Vec::len), Some(3));
}

#[test]
fn a_value_that_lost_its_quote_before_closers_and_prose_ends_there() {
    decides(
        "{\"a\": [\"skip]}\n\nHope this helps!",
        r#"{"a": ["skip"]}"#,
        &[MissingEndQuote],
    );
}

#[test]
fn a_value_that_lost_its_quote_before_a_new_element_ends_before_its_closer() {
    decides(
        r#"[{"a": "x}, {"b": 2}]"#,
        r#"[{"a": "x"}, {"b": 2}]"#,
        &[MissingEndQuote],
    );
    // Blank space between the text and the closer.
    decides(
        "{\"t\": [\n    \"a\",\n    \"b\n  ],\n  \"n\": 1\n}",
        r#"{"t": ["a", "b"], "n": 1}"#,
        &[MissingEndQuote],
    );
}

#[test]
fn a_quote_that_starts_an_indented_line_opens_the_next_key() {
    // The split also leaves no trace of the raw newline it cut off in the log.
    decides(
        "{\"a\": \"José,\n  \"type: \"retry\", \"n\": 1}",
        r#"{"a": "José", "type": "retry", "n": 1}"#,
        &[MissingEndQuote, MissingEndQuote],
    );
}

#[test]
fn python_tuples_become_lists() {
    decides(
        r#"{"tags": ("a", "b"), "n": 1}"#,
        r#"{"tags": ["a", "b"], "n": 1}"#,
        &[PythonLiteral],
    );
}

#[test]
fn numbers_grouped_with_commas_are_one_number() {
    decides(
        r#"{"id": 75,515, "name": "x"}"#,
        r#"{"id": 75515, "name": "x"}"#,
        &[InvalidNumber],
    );
    // Not when the digits after the comma cannot be a group of three.
    decides(r#"[75,51, 2]"#, r#"[75, 51, 2]"#, &[]);
}

#[test]
fn equals_signs_and_arrows_stand_for_colons() {
    decides(
        r#"{"name" = "x", "n" => 2}"#,
        r#"{"name": "x", "n": 2}"#,
        &[MissingColon, MissingColon],
    );
}

#[test]
fn low_and_high_quotes_pair_up() {
    decides(
        r#"{„name“: „Müller“, "n": 1}"#,
        r#"{"name": "Müller", "n": 1}"#,
        &[SmartQuotes, SmartQuotes],
    );
}

#[test]
fn an_object_whose_brace_is_missing_after_prose() {
    decides(
        r#"Here it is: "id": 7, "name": "x"}"#,
        r#"{"id": 7, "name": "x"}"#,
        &[MissingOpener],
    );
    // A quoted word and a colon in prose alone is no object.
    assert!(llmjson::parse(
        r#"The field "name": it holds the user's name."#,
        &Default::default()
    )
    .is_err());
}

#[test]
fn stringified_json_with_unescaped_quotes_stays_one_string() {
    decides(
        r#"{"arguments": "{"query": "x", "limit": 3}"}"#,
        r#"{"arguments": "{\"query\": \"x\", \"limit\": 3}"}"#,
        &[UnescapedQuote],
    );
}

#[test]
fn a_key_that_swallowed_structure_ends_at_its_colon() {
    // A key is a name: brackets and quotes in it are structure it swallowed.
    decides(
        r#"{"citations: [{"id": 1}, {"id": 2}], "n": 1}"#,
        r#"{"citations": [{"id": 1}, {"id": 2}], "n": 1}"#,
        &[MissingEndQuote],
    );
    // Unless its quote is followed by `:`: then the text is the name, whatever it holds.
    decides(r#"{"{:{a{": 1, "b": 2}"#, r#"{"{:{a{": 1, "b": 2}"#, &[]);
}

#[test]
fn closers_the_text_opened_are_its_own() {
    // `]` closes the text's `[`; the `}` that nothing in the text opened ends the document.
    decides(
        r#"{"a": 1, "cache: [2631]}"#,
        r#"{"a": 1, "cache": [2631]}"#,
        &[MissingEndQuote],
    );
    decides(
        r#"{"a": {"b": ",{}}}"#,
        r#"{"a": {"b": ",{}"}}"#,
        &[MissingEndQuote],
    );
}

#[test]
fn a_key_no_split_completes_is_a_cut() {
    decides(
        r#"{"a": 1, "}ab}"#,
        r#"{"a": 1}"#,
        &[DroppedTruncatedMember, ClosedTruncatedObject],
    );
    // A reply that stops after a comma is cut there too.
    decides(
        r#"{"a": [1, 2],"#,
        r#"{"a": [1, 2]}"#,
        &[TrailingComma, ClosedTruncatedObject],
    );
}

#[test]
fn the_layout_says_which_container_a_closer_closes() {
    // The `}` stands in line with the object's opening line: the array lost its `]`.
    decides(
        "{\n  \"a\": {\n    \"b\": [1, 2\n  },\n  \"c\": 3\n}",
        r#"{"a": {"b": [1, 2]}, "c": 3}"#,
        &[MissingCloser],
    );
    // The `}` stands in line with the array's own line: a wrong closer for it.
    decides(
        "{\n  \"a\": [\n    {\"b\": 1},\n    {\"b\": 2}\n  }\n}",
        r#"{"a": [{"b": 1}, {"b": 2}]}"#,
        &[MismatchedCloser],
    );
}

#[test]
fn prose_before_a_non_json_start_is_not_an_empty_answer() {
    // A blank line and then a faulty tuple: a value to read, not a document that ended (as
    // `null`, with nothing logged) before it began.
    let parsed = parse("</think>\n\n(0,]");
    assert_eq!(parsed.value, json("[0]"));
    assert!(!parsed.repairs.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Found with a fault seed never used before (31337) and the accounting property at new seeds.

#[test]
fn a_doubled_closer_the_layout_contradicts_is_stray() {
    // The second `}` would close `retry`, but its line stands further right than `retry`'s, and
    // the members after it (and the `}` in line with `retry`) say `retry` goes on.
    decides(
        "{\n    \"retry\": {\n        \"cache\": {\n            \"a\": 1\n        }},\n        \"server\": null\n    },\n    \"ui\": 2\n}",
        r#"{"retry": {"cache": {"a": 1}, "server": null}, "ui": 2}"#,
        &[ExtraCloser],
    );
}

#[test]
fn a_key_that_lost_its_quote_ends_at_an_equals_sign_too() {
    decides(
        r#"{"text = "Ana Souza", "n" = 1}"#,
        r#"{"text": "Ana Souza", "n": 1}"#,
        &[MissingEndQuote, MissingColon, MissingColon],
    );
}

#[test]
fn a_typographic_quote_before_a_delimiter_ends_the_string() {
    let parsed =
        parse("[\n    \"הפגישה נדחתה למחר”,\n    null,\n    true,\n    “en”,\n    3031\n]");
    assert_eq!(
        parsed.value,
        json(r#"["הפגישה נדחתה למחר", null, true, "en", 3031]"#)
    );
    let parsed =
        parse(r#"{"id": 84326, "name": "Ngozi Okafor“, "city": "Москва", "active": false}"#);
    assert_eq!(
        parsed.value,
        json(r#"{"id": 84326, "name": "Ngozi Okafor", "city": "Москва", "active": false}"#)
    );
}

#[test]
fn a_fenced_list_whose_first_item_looks_odd_is_read_whole() {
    decides(
        "```\n[(3 3), (2, 6)]\n```",
        "[[3, 3], [2, 6]]",
        &[PythonLiteral, MissingComma, PythonLiteral],
    );
}

#[test]
fn a_list_opening_with_a_javascript_literal_is_json_in_prose() {
    let parsed = parse(
        "You can call it like this:\n```js\nfetch(url, {method: \"POST\", body: JSON.stringify({id: 7})})\n```\n\nThe response was:\n[\n  undefined,\n  false,\n  3.14\n]",
    );
    assert_eq!(parsed.value, json("[null, false, 3.14]"));
}

#[test]
fn an_object_missing_its_brace_and_its_first_colon() {
    decides(
        "\n  \"id\" 49872,\n  \"name\": \"x\"\n}",
        r#"{"id": 49872, "name": "x"}"#,
        &[MissingOpener, MissingColon],
    );
}

#[test]
fn a_draft_restated_with_other_quotes_is_still_a_restatement() {
    let parsed = parse(
        "Draft: [\n\t\"Müller\",\n\tnull,\n\t4773\n\nActually, let me fix that:\n[\n\t„Müller“,\n\tnull,\n\t4773,\n\tfalse\n}",
    );
    assert_eq!(parsed.value, json(r#"["Müller", null, 4773, false]"#));
}

// ---------------------------------------------------------------------------------------------
// Issue 23: the forms the generator did not write, and costs that grow with what a reading
// throws away. Each case is one the issue reported, or its nearest generated sibling.

/// `input` gives `expected` (the log is checked by the cases that need it).
#[track_caller]
fn gives(input: &str, expected: &str) {
    let parsed = parse(input);
    assert_eq!(
        parsed.value,
        json(expected),
        "input: {input:?}\nlog: {:#?}",
        parsed.repairs
    );
}

#[test]
fn python_repr_strings_hold_code_json_and_escapes() {
    gives(
        "{'snippet': 'print(\"x\")\\n', 'said': 'He said \"no\"', 'it': 'it\\'s',\n \
         'payload': 'payload = \\'{\"a\": 1}\\'', 'doc': '{\"a\": 1, \"b\": [1, 2]}',\n \
         'path': 'C:\\\\Users\\\\me', 'n': True}",
        r#"{"snippet": "print(\"x\")\n", "said": "He said \"no\"", "it": "it's",
            "payload": "payload = '{\"a\": 1}'", "doc": "{\"a\": 1, \"b\": [1, 2]}",
            "path": "C:\\Users\\me", "n": true}"#,
    );
}

#[test]
fn a_single_quoted_string_holding_json_ends_at_its_own_quote() {
    // The close pays nothing for JSON the text holds whole; before, it paid for every mark
    // and the string ran on to an apostrophe at the end, swallowing the members.
    gives(
        r#"{'payload': '{"a": 1, "b": [1, 2]}', 'server': True, 'note': "it's"}"#,
        r#"{"payload": "{\"a\": 1, \"b\": [1, 2]}", "server": true, "note": "it's"}"#,
    );
}

#[test]
fn a_comment_holding_quotes_is_a_comment() {
    gives(
        "{\n  \"name\": \"Ana\",\n  /* \"age\": 31,\n  \"city\": \"Lisboa\", */\n  \"id\": 7\n}",
        r#"{"name": "Ana", "id": 7}"#,
    );
    gives(
        "{\"a\": 1, // the \"id\" must be unique, values: \"x\", \"y\"\n \"b\": 2}",
        r#"{"a": 1, "b": 2}"#,
    );
}

#[test]
fn a_line_comment_before_a_closer_on_its_line_ends_there() {
    decides(
        r#"{"cfg": {"mode": "fast" // default }, "n": 2}"#,
        r#"{"cfg": {"mode": "fast"}, "n": 2}"#,
        &[Comment],
    );
    gives(r#"[[7, 2, 9 # note ], [3, 8]]"#, "[[7, 2, 9], [3, 8]]");
}

#[test]
fn python_tuples_sets_and_parentheses() {
    gives(r#"(("a", 1), ("b", 2))"#, r#"[["a", 1], ["b", 2]]"#);
    gives("{'red', 'blue'}", r#"["red", "blue"]"#);
    gives(
        "{'x': {'red', 'blue'}, 'n': {1, 2, 3}}",
        r#"{"x": ["red", "blue"], "n": [1, 2, 3]}"#,
    );
    gives(
        r#"{"x": (5), "y": ("a"), "z": (5,)}"#,
        r#"{"x": 5, "y": "a", "z": [5]}"#,
    );
    // A key without its value is not a set.
    assert!(llmjson::parse(r#"{"a","#, &llmjson::Options::default()).is_err());
}

#[test]
fn full_width_punctuation_is_structure_outside_strings_and_text_inside() {
    decides(
        r#"{"名前"："花子"，"年齢"：30}"#,
        r#"{"名前": "花子", "年齢": 30}"#,
        &[
            FullwidthPunctuation,
            FullwidthPunctuation,
            FullwidthPunctuation,
        ],
    );
    gives("{名前：花子，年齢：30}", r#"{"名前": "花子", "年齢": 30}"#);
    gives(r#"{"a"："今天，我们：走"}"#, r#"{"a": "今天，我们：走"}"#);
}

#[test]
fn inline_code_holds_json() {
    gives("`{\"status\": \"ok\"}`", r#"{"status": "ok"}"#);
    gives(
        "Result: `{'name': 'x', 'path': '[{\"id\": 7, \"ok\": true}]'}`.",
        r#"{"name": "x", "path": "[{\"id\": 7, \"ok\": true}]"}"#,
    );
}

#[test]
fn digit_separators_and_the_minus_sign() {
    gives(
        "{\"n\": 250_000, \"t\": \u{2212}12.5, \"u\": \u{2212}1_000.25}",
        r#"{"n": 250000, "t": -12.5, "u": -1000.25}"#,
    );
}

#[test]
fn a_string_that_lost_its_quote_ends_before_the_members_it_would_swallow() {
    gives(
        "{'a': \"Seoul, 'tags': [], 'x': „Mary O'Brien“, 'y': 1}",
        r#"{"a": "Seoul", "tags": [], "x": "Mary O'Brien", "y": 1}"#,
    );
    gives(
        "{'a': \"Seoul, 'tags'：[]，'x'：„Mary O'Brien“，'y'：1}",
        r#"{"a": "Seoul", "tags": [], "x": "Mary O'Brien", "y": 1}"#,
    );
}

#[test]
fn a_restart_pays_for_the_draft_it_discards() {
    // A misreading late in a document does not make dropping everything before it cheap:
    // the key that lost its quote before a full-width colon is read, the members kept.
    let reply = "{\"id\"：27218，\"city\"：\"Paris\"，\"score\"：0.82，notes\"：null，\
                 \"address\"：{\"street\"：\"Rua A\"，\"zip\"：\"1\"}}";
    let parsed = parse(reply);
    assert_eq!(
        parsed.value,
        json(
            r#"{"id": 27218, "city": "Paris", "score": 0.82, "notes": null,
                 "address": {"street": "Rua A", "zip": "1"}}"#
        )
    );
    assert!(!kinds(&parsed).contains(&AbandonedDraft));
    // A draft the final restates, with a comment added and its keys unquoted, is abandoned.
    gives(
        "Draft: {\"entities\": [{\"text\": \"Li\", \"type\": \"low\", \"start\": 175}],\n\n\
         Actually, let me fix that:\n{entities: [{text: \"Li\", type: \"low\", /* see spec */ \
         start: 175, end: 180}], language: \"blue\"}",
        r#"{"entities": [{"text": "Li", "type": "low", "start": 175, "end": 180}],
            "language": "blue"}"#,
    );
}

#[test]
fn prose_after_a_one_line_document_ends_it() {
    gives(
        "{\"id\":69211,\"name\":\"Li Wei\" \"notes\":\"ok\"\nNote: the dates are in UTC.",
        r#"{"id": 69211, "name": "Li Wei", "notes": "ok"}"#,
    );
    // In a laid-out document the next line is more JSON.
    gives(
        "{\n  \"firstName\": \"John\"\n  lastName: Smith",
        r#"{"firstName": "John", "lastName": "Smith"}"#,
    );
}

#[test]
fn a_doubled_closer_in_a_list_of_records_leaves_the_list_open() {
    gives(
        "{\"items\": [{\"id\": 1, \"a\": {\"x\": 1}}}, {\"id\": 2, \"a\": {\"x\": 2}}], \"total\": 2}",
        r#"{"items": [{"id": 1, "a": {"x": 1}}, {"id": 2, "a": {"x": 2}}], "total": 2}"#,
    );
}

/// A member the model commented out is a draft it abandoned: removing it pays per mark as a
/// restart does, not as structure lost by accident. Priced as lost structure, a comment holding
/// four list items cost more than reading the string before it as running on over `", /* "`,
/// which corrupted that string (`"Cairo\", /* "`) and brought the member back.
#[test]
fn a_commented_out_member_does_not_make_the_string_before_it_run_on() {
    use llmjson::Options;
    // The guard off: the reading itself is under test here.
    let no_guard = Options::default().max_removed_ratio(1.0);
    for (input, expected) in [
        (
            r#"{"city": "Cairo", /* "tags": ["python", "Zürich", "Mumbai", "high"], */ "score": -0.001, "active": false}"#,
            r#"{"city": "Cairo", "score": -0.001, "active": false}"#,
        ),
        (
            "{\n  \"name\": \"Mary\",\n  \"city\": \"São Paulo\",\n  /* \"tags\": [\"rejected\", \"failure\", \"search\", \"ja\"], */\n  \"score\": 6.02e23\n}",
            r#"{"name": "Mary", "city": "São Paulo", "score": 6.02e23}"#,
        ),
        (
            "{\n  \"id\": 7,\n  \"description\": \"João Silva\",\n  // \"args\": {\"path\": \"C:\\\\App\\\\config.ini\", \"retries\": 1, \"mode\": \"fast\"},\n  \"done\": true\n}",
            r#"{"id": 7, "description": "João Silva", "done": true}"#,
        ),
    ] {
        let parsed = crate::support::parse_with(input, &no_guard);
        assert_eq!(parsed.value, json(expected), "input: {input:?}");
        assert!(
            kinds(&parsed).iter().all(|k| *k == Comment),
            "input: {input:?}\nlog: {:#?}",
            parsed.repairs
        );
        // By default the guard counts commented-out data as discarded: refused or the same
        // value, never the string run on.
        if let Ok(parsed) = llmjson::parse(input, &Options::default()) {
            assert_eq!(parsed.value, json(expected), "input: {input:?}");
        }
    }
}

/// A string that lost its closing quote at the end of its line, before lines that hold values
/// (a literal, a number), ends at that line's comma: it does not run on over the values to the
/// comma before the next quote.
#[test]
fn an_open_string_at_a_line_end_does_not_swallow_the_values_below_it() {
    decides(
        "[\n    \"Note: the key expires on 2026-12-01,\n    false,\n    \"ファイル\"\n]",
        r#"["Note: the key expires on 2026-12-01", false, "ファイル"]"#,
        &[MissingEndQuote],
    );
    decides(
        "{\"a\": [\n  null,\n  \"Die Lieferung,\n  73,\n  4996\n ],\n \"b\": 1}",
        r#"{"a": [null, "Die Lieferung", 73, 4996], "b": 1}"#,
        &[MissingEndQuote],
    );
    // The same as the last item: nothing but values and the closer follow.
    decides(
        "[\n\t1819,\n\t\"failure,\n\tnull\n]",
        r#"[1819, "failure", null]"#,
        &[MissingEndQuote],
    );
    // A letter with line breaks and its closing quote keeps them.
    gives(
        "{\"letter\": \"Dear Ana,\nthanks for all,\n\", \"b\": 1}",
        r#"{"letter": "Dear Ana,\nthanks for all,\n", "b": 1}"#,
    );
}

/// A stutter (`",`) after a value, before a key whose value opens a laid-out container: the
/// stutter is stray, not the opening of a key `","` whose value string swallows the container
/// and every member under it (found by the laid-out plans property, where the faults after
/// the stutter made swallowing them look cheap; before the fix, 8 of these 12 were read so).
#[test]
fn a_stutter_before_a_laid_out_container_is_stray() {
    let words = [
        [
            "titulo",
            "Relatório trimestral",
            "secoes",
            "nome",
            "Vendas",
            "detalhe",
            "moeda",
        ],
        [
            "auftrag",
            "Lager umziehen",
            "schritte",
            "titel",
            "Regale",
            "skript",
            "sprache",
        ],
        [
            "objet",
            "Migrer les archives",
            "etapes",
            "nom",
            "Copie",
            "code",
            "langage",
        ],
        [
            "goal",
            "Ship the release",
            "tasks",
            "name",
            "Build",
            "script",
            "lang",
        ],
    ];
    for [goal, text, list, name, first, nested, lang] in words {
        for sep in [" => ", ": ", " = "] {
            let reply = format!(
                "{{\n  {goal}\": \"{text}\",\",\n  \"{list}\"{sep}[\n    {{\n      '{name}'{sep}“{first}”，\n      'id'{sep}'T3'，\n      'done'{sep}False，\n      “{nested}”{sep}{{\n        '{lang}'{sep}\"sh,\n        'cmd'{sep}\"x = \\\"y\\\"\\n\"\n      }}}},\n      “owner”{sep}'Ana Souza'，\n      “n”{sep}1200\n    }},\n    {{\n      '{name}'{sep}'Custos',\n      'n'{sep}800\n    }}\n  ]\n}}"
            );
            let parsed = parse(&reply);
            let expected = serde_json::json!({
                goal: text,
                list: [
                    {name: first, "id": "T3", "done": false,
                     nested: {lang: "sh", "cmd": "x = \"y\"\n"},
                     "owner": "Ana Souza", "n": 1200},
                    {name: "Custos", "n": 800}
                ]
            });
            assert_eq!(
                serde_json::to_value(&parsed.value).unwrap(),
                expected,
                "{reply}"
            );
            let log = kinds(&parsed);
            assert!(
                log.contains(&DroppedGarbage) && log.contains(&ExtraCloser),
                "{reply}"
            );
        }
    }
}

/// An extra closer after a step's nested object, then a member whose key is glued to a
/// full-width colon and a typographic quote (`responsable：“Ana Souza”,`): the closer is stray
/// and the member the step's, not a line of prose that ends the document and leaves the rest
/// of the plan out.
#[test]
fn a_member_glued_to_a_full_width_colon_after_an_extra_closer_is_not_prose() {
    for member in [
        "responsable：“Ana Souza”,",
        "担当者：“山田 太郎”,",
        "owner：“Fatima Zahra”,",
    ] {
        let key = member.split('：').next().unwrap();
        let text = format!(
            "{{\n  \"pasos\": [\n    {{\n      \"id\": \"p0\",\n      \"codigo\": {{\n        \"lenguaje\": \"python\",\n        \"fuente\": \"print(1)\"\n      }}}},\n      {member}\n      horas = 3，\n      etiquetas: [\n        \"urgente\",\n        “semanal”\n      ]\n    }},\n    {{\n      \"id\": \"p1\",\n      \"horas\": 5\n    }}\n  ]\n}}"
        );
        let parsed = parse(&text);
        let name = member
            .split('“')
            .nth(1)
            .and_then(|s| s.split('”').next())
            .unwrap();
        let mut step = serde_json::json!({
            "id": "p0",
            "codigo": {"lenguaje": "python", "fuente": "print(1)"},
            "horas": 3,
            "etiquetas": ["urgente", "semanal"]
        });
        step[key] = serde_json::json!(name);
        let expected = serde_json::json!({"pasos": [step, {"id": "p1", "horas": 5}]});
        assert_eq!(
            serde_json::to_value(&parsed.value).unwrap(),
            expected,
            "{member}"
        );
        assert!(kinds(&parsed).contains(&ExtraCloser), "{member}");
    }
}

/// A value that lost its closing quote at the end of its line, before a key whose value opens
/// a laid-out list after a comment (`“etapas” = [ # Mantive a estrutura…`): the string ends at
/// its line, it does not run on over the plan (the text quote before `= [` ends a key). The
/// laid-out plan the property found, in Portuguese (the parser before stop 67 let the string
/// swallow it; with fewer words translated it happened to read it right: a near tie, now not).
#[test]
fn a_string_that_lost_its_quote_before_a_commented_list_ends_at_its_line() {
    let case = llmjson_faults::large_code_case(11718960553400359821, 2093, true);
    let (mut text, mut expected) = (
        case.input.clone(),
        serde_json::to_string(&case.expected).unwrap(),
    );
    for (en, pt) in [
        ("Migrate the archive", "Migrar o arquivo"),
        ("objective", "objetivo"),
        ("steps", "etapas"),
        (
            "I kept the structure you asked for, but I'm not sure about the second step: the tool it uses may not exist in your environment, so you might want to replace it with a shell command.",
            "Mantive a estrutura pedida, mas não tenho certeza do segundo passo: a ferramenta pode não existir no seu ambiente, então talvez seja melhor trocar por um comando de shell.",
        ),
        ("Buy milk and eggs before noon", "Comprar leite e ovos antes do meio-dia"),
        ("owner", "responsavel"),
        ("title", "titulo"),
    ] {
        assert!(text.contains(en), "the generator no longer writes {en:?}");
        text = text.replace(en, pt);
        expected = expected.replace(en, pt);
    }
    let parsed = parse(&text);
    assert_eq!(parsed.value, json(&expected));
}

//! Laid-out documents: where a string's line ends and the next line starts structure at its
//! container's indentation, the layout says where the string ended. Code strings that hold JSON
//! literals with their quotes unescaped, a string that lost its closing quote at the end of its
//! line, an apostrophe read as an opening quote: each must read as the model meant, at any
//! length, and strings that really run over lines must stay whole.

use crate::support::{json, kinds, parse};
use llmjson::{Options, RepairKind};

/// Code holding JSON literals in single quotes, as models write it in `code.snippet` fields,
/// with the JSON's quotes unescaped: Python, JavaScript, SQL and shell.
const SNIPPETS: [&str; 4] = [
    r#"payload = '{"nested": "json in a string", "n": [1, 2, 3]}'\nobj = json.loads(payload)\n"#,
    r#"const cfg = JSON.parse('{"debug": true, "level": "info"}');\nconsole.log(cfg.level);\n"#,
    r#"INSERT INTO events (doc) VALUES ('{"id": 7, "tags": ["a", "b"]}');\n"#,
    r#"curl -d '{"name": "O'Brien", "ok": true}' https://api.example.com/v1\n"#,
];

/// A pretty-printed plan of `steps` steps, every third step's snippet one of [`SNIPPETS`]
/// written with its quotes unescaped; and the value the model meant.
fn plan(steps: usize) -> (String, serde_json::Value) {
    let mut text = String::from("{\n  \"objective\": \"Migrate the archive\",\n  \"steps\": [\n");
    let mut meant = Vec::new();
    for i in 0..steps {
        let (snippet, language) = if i % 3 == 1 {
            (
                SNIPPETS[(i / 3) % 4],
                ["python", "javascript", "sql", "shell"][(i / 3) % 4],
            )
        } else {
            ("print('step')\\n", "python")
        };
        let title = if i % 7 == 3 {
            format!("Step {i} by O'Brien")
        } else {
            format!("Step {i}")
        };
        text.push_str(&format!(
            "    {{\n      \"id\": \"s{i}\",\n      \"title\": \"{title}\",\n      \"done\": {},\n      \
             \"code\": {{\n        \"language\": \"{language}\",\n        \"snippet\": \"{snippet}\"\n      }},\n      \
             \"owner\": \"team-a\",\n      \"tags\": [\n        \"a\",\n        \"b\"\n      ],\n      \"retries\": 1\n    }}{}\n",
            i % 2 == 0,
            if i + 1 < steps { "," } else { "" }
        ));
        meant.push(serde_json::json!({
            "id": format!("s{i}"), "title": title, "done": i % 2 == 0,
            "code": {"language": language, "snippet": snippet.replace("\\n", "\n")},
            "owner": "team-a", "tags": ["a", "b"], "retries": 1,
        }));
    }
    text.push_str("  ],\n  \"risks\": [\n    \"none\"\n  ]\n}\n");
    let meant =
        serde_json::json!({"objective": "Migrate the archive", "steps": meant, "risks": ["none"]});
    (text, meant)
}

#[test]
fn code_holding_json_literals_in_a_laid_out_plan_reads_whole_at_every_length() {
    // 3 steps (about 1 KB), 200 (64 KB), 3,200 (1 MB): every snippet stays one string, no
    // sibling merges, nothing moves into the last step.
    for steps in [3, 200, 3200] {
        let (text, meant) = plan(steps);
        let options = Options::default().max_removed_ratio(1.0);
        let parsed = llmjson::parse(&text, &options).unwrap();
        let value = serde_json::Value::from(&parsed.value);
        assert!(
            value == meant,
            "{steps} steps: {}",
            first_difference(&value, &meant)
        );
        assert!(
            kinds(&parsed)
                .iter()
                .all(|&k| k == RepairKind::UnescapedQuote),
            "{steps} steps: {:?}",
            kinds(&parsed)
                .iter()
                .find(|&&k| k != RepairKind::UnescapedQuote)
        );
    }
}

fn first_difference(got: &serde_json::Value, want: &serde_json::Value) -> String {
    let (Some(got), Some(want)) = (got["steps"].as_array(), want["steps"].as_array()) else {
        return format!("{got}");
    };
    match got.iter().zip(want).position(|(a, b)| a != b) {
        Some(i) => format!("step {i}: {}\n  meant {}", got[i], want[i]),
        None => format!("{} steps, {} meant", got.len(), want.len()),
    }
}

#[test]
fn an_apostrophe_after_a_json_literal_does_not_open_a_string_over_the_next_step() {
    // Without an apostrophe further on to close it, the `'` after `}` once ran over the end of
    // its step and the whole next one (its members came back as duplicates).
    let (text, meant) = plan(3);
    let parsed = parse(&text);
    assert_eq!(parsed.value, json(&meant.to_string()));
}

#[test]
fn a_string_that_lost_its_quote_at_the_end_of_its_line_ends_there() {
    let text = "[\n    {\n        id: 1,\n        address: {\n            street: \"x\",\n            \"zip\": \"rejected\n        }\n    },\n    {\n        id: 2,\n        \"name\": \"Fatima\",\n        \"city\": \"New York\"\n    }\n]";
    let parsed = parse(text);
    assert_eq!(
        parsed.value,
        json(
            r#"[{"id": 1, "address": {"street": "x", "zip": "rejected"}}, {"id": 2, "name": "Fatima", "city": "New York"}]"#
        )
    );
    // One repair for the quote, at the end of the line: no control character in the string.
    let quote: Vec<_> = parsed
        .repairs
        .iter()
        .filter(|r| r.kind == RepairKind::MissingEndQuote)
        .collect();
    assert_eq!(quote.len(), 1);
    assert_eq!((quote[0].line, quote[0].column), (6, 29));
    assert!(!kinds(&parsed).contains(&RepairKind::ControlCharacter));
    // Its line's comma is the member's.
    let text = "{\n  \"tags\": [\n    \"active,\n    false\n  ],\n  \"n\": 1\n}";
    assert_eq!(
        parse(text).value,
        json(r#"{"tags": ["active", false], "n": 1}"#)
    );
    // A key that lost its quote ends at its colon, not at the end of its line.
    let text = "{\n    name: \"Ana\",\n    \"tags: [],\n    score: -2.5\n}";
    assert_eq!(
        parse(text).value,
        json(r#"{"name": "Ana", "tags": [], "score": -2.5}"#)
    );
}

#[test]
fn a_key_that_lost_its_quote_ends_before_a_line_written_with_equals() {
    // The next line's member is written with `=` for `:` (`“title” = …`), as the reply writes
    // its members: a quoted key and `=` start a member (a bare name and `=` start a line of
    // code). Two steps of a long plan the generator wrote with every fault at once.
    let text = "[\n    {\n      'id' = 's153'，\n      “title”：'Step 153: La consegna è prevista per lunedì'，\n      'done'：True，\n      'code'：{\n        “language” = 'python'，\n        'snippet' = \"if x == \\\"a\\\":\\n    return \\\"b\\\"\\n\"\n      }，\n      'owner'：“山田太郎”，\n      “estimate_hours”：17，\n      'tags'：[\n        “browser”，\n        'failure'\n      ]\n    }，\n    {\n      \"id: 's154'，\n      “title” = “Step 154: 데이터베이스 연결을 확인하세요”，\n      'done' = False，\n      “code” = {\n        'language'：'sql'，\n        'snippet': \"INSERT INTO events (doc) VALUES ('{\"id\": 7, \"tags\": [\"a\", \"b\"]}');\"\n      }\n]";
    let parsed = parse(text);
    assert_eq!(parsed.value[1]["id"], "s154");
    assert_eq!(
        parsed.value[1]["title"],
        "Step 154: 데이터베이스 연결을 확인하세요"
    );
    assert_eq!(parsed.value[1]["done"], false);
    assert_eq!(
        parsed.value[1]["code"]["snippet"],
        r#"INSERT INTO events (doc) VALUES ('{"id": 7, "tags": ["a", "b"]}');"#
    );
}

#[test]
fn a_tuple_with_an_item_commented_out_stays_a_list() {
    // `(5)` is a value in parentheses; a tuple that held another item, commented out, is a list.
    let text = "{\n  \"tags\": (\n    # \"en\",\n    \"failure\"\n  ),\n  \"n\": (5)\n}";
    assert_eq!(parse(text).value, json(r#"{"tags": ["failure"], "n": 5}"#));
}

#[test]
fn strings_that_really_run_over_lines_stay_whole() {
    // Code whose lines close its own brackets, and text whose lines look like members: raw
    // line breaks inside strings that do end with their closing quote.
    let text = "{\n  \"code\": \"function f() {\n  return 1;\n}\n\",\n  \"n\": 1\n}";
    assert_eq!(
        parse(text).value,
        json(r#"{"code": "function f() {\n  return 1;\n}\n", "n": 1}"#)
    );
    let text = "{\n  \"config\": \"name: x\nport: 80\n\",\n  \"n\": 1\n}";
    assert_eq!(
        parse(text).value,
        json(r#"{"config": "name: x\nport: 80\n", "n": 1}"#)
    );
    let text = "{\n  \"notes\": \"Dear team,\nthe release is ready.\nThanks!\"\n}";
    assert_eq!(
        parse(text).value,
        json(r#"{"notes": "Dear team,\nthe release is ready.\nThanks!"}"#)
    );
}

/// A list that lost its closer before the next member of the object around it closes there,
/// whether the member's colon is `:`, `：` or another language's `=` (found by
/// `faults::laid_out_plans_lose_nothing_in_silence`: the member was read into the list's last
/// item before).
#[test]
fn a_list_without_its_closer_ends_before_a_member_whatever_its_colon() {
    let expected = r#"{"steps": [{"a": 1}], "risks": ["data loss"], "q": [1]}"#;
    for colon in [":", "：", " ="] {
        let input = format!(
            "{{\n  \"steps\": [\n    {{\n      \"a\": 1\n    }}\n  ,\n  \"risks\"{colon} [\n    \"data loss\"\n  ],\n  \"q\": [1]\n}}"
        );
        let parsed = parse(&input);
        assert_eq!(parsed.value, json(expected), "{input}");
        assert!(
            kinds(&parsed).contains(&RepairKind::MissingCloser),
            "{input}"
        );
    }
    // On one line too, in typographic quotes, and with a bare key (with `:`, or with `=` in a
    // reply that writes `=` for its colons).
    for input in [
        r#"{"steps": [{"a": 1}, "risks" = ["x"], "q": [1]}"#,
        "{\"steps\": [{\"a\": 1}, “risks”：[“x”], \"q\": [1]}",
        r#"{"steps": [{"a": 1}, risks: ["x"], "q": [1]}"#,
        "{\n  steps = [\n    {\n      a = 1\n    }\n  ,\n  risks = [\n    \"x\"\n  ],\n  q = [1]\n}",
    ] {
        assert_eq!(
            parse(input).value,
            json(r#"{"steps": [{"a": 1}], "risks": ["x"], "q": [1]}"#),
            "{input}"
        );
    }
    // Not a list of bare words that holds a colon.
    let parsed = parse(r#"{"urls": [https://x.com, b], "notes": [note: this, that]}"#);
    assert_eq!(
        parsed.value,
        json(r#"{"urls": ["https://x.com", "b"], "notes": ["note: this", "that"]}"#)
    );
    // A comparison is not a colon.
    assert_eq!(
        parse(r#"{"a": ["x" == "y"]}"#).value["a"]
            .as_array()
            .map(Vec::len),
        Some(1)
    );
}

/// A key still open at its first line break lost its closing quote (at its colon), whatever the
/// next line holds: keys are names on one line. Before, `"tags: [` ran on to the next `"` it met,
/// two lines into the next step, and swallowed that step's first members into its name.
#[test]
fn a_key_open_at_its_line_break_ends_at_its_colon() {
    let input = "{\n  \"steps\": [\n    {\n      \"id\": \"s1\",\n      \"tags: [\n        “high”，\n        “green”\n      ]\n    ,\n    {\n      “id” = “s2”，\n      “code” = {\n        “snippet\": \"x\"\n      }\n    }\n  ]\n}";
    let parsed = parse(input);
    assert_eq!(
        parsed.value,
        json(
            r#"{"steps": [{"id": "s1", "tags": ["high", "green"]}, {"id": "s2", "code": {"snippet": "x"}}]}"#
        )
    );
    let quote = parsed
        .repairs
        .iter()
        .find(|r| r.kind == RepairKind::MissingEndQuote)
        .expect("the key's quote");
    assert_eq!((quote.line, quote.column), (5, 12));
}

/// A string whose text closes a bracket it never opened swallowed structure, not code: here
/// `'weekly'` (its closing quote contested in a reply that mixes every quote) must not run on
/// over `]`, `,` and `{` into the next step because the `{` it swallowed "leaves a bracket
/// open" as code does. Before, the next step's members came back into this step's last tag,
/// and its `tags` and `estimate_hours` replaced this step's as duplicate keys.
#[test]
fn a_string_does_not_run_over_a_closer_into_the_next_step() {
    let input = "{\n  \"steps\": [\n    {\n      id = 's8'，\n      'title' = \"Step 8: Use the staging database\"，\n      „done“ = False，\n      \"code\" {\n        “language” = “python”，\n        'snippet' = \"const cfg = JSON.parse('{\\\"debug\\\": true}');\"\n      }，\n      \"owner\" = \"Müller\"，\n      'estimate_hours' = 30，\n      'tags' = [\n        “retry”，\n        'weekly'\n      ]\n    ,\n    {\n      \"id\": “s9”，\n      „title“: \"Step 9: 今天天气很好，我们去公园吧”,\n      „done“ = False，\n      code = {\n        \"language\" = „python“,\n        snippet\": \"def greet(name):\\n    return \\\"Hello, \\\" + name\\n\"\n      }，\n      “owner” = “Li Wei”，\n      'estimate_hours' = 22，\n      “tags” = [\n        # \"approved\",\n        “high”\n      ]\n    }\n  ]\n}";
    let parsed = parse(input);
    assert_eq!(
        parsed.value,
        json(
            r#"{"steps": [
                {"id": "s8", "title": "Step 8: Use the staging database", "done": false,
                 "code": {"language": "python", "snippet": "const cfg = JSON.parse('{\"debug\": true}');"},
                 "owner": "Müller", "estimate_hours": 30, "tags": ["retry", "weekly"]},
                {"id": "s9", "title": "Step 9: 今天天气很好，我们去公园吧", "done": false,
                 "code": {"language": "python", "snippet": "def greet(name):\n    return \"Hello, \" + name\n"},
                 "owner": "Li Wei", "estimate_hours": 22, "tags": ["high"]}
            ]}"#
        )
    );
    assert!(!kinds(&parsed).contains(&RepairKind::DuplicateKey));
}

/// A key open at its line break that runs on pays more than one that ends at its colon: a name
/// never holds a line break. Here the step before lost its `}` and the key `"tags: [` its
/// quote; running on to `id"` (two lines into the next step) cost as little as the split, and
/// the next step's members replaced this one's as duplicate keys, its `code` and `owner` lost.
#[test]
fn a_key_running_over_lines_does_not_merge_the_next_step() {
    let input = "{\n  \"steps\": [\n    {\n      “id”：“s6”,\n      “code”：{\n        “snippet” = \"x = 1\"\n      }},\n      “owner”：“Li Wei”，\n      \"tags: [\n        “retry”，\n        “rejected”\n      ]\n    ,\n    {\n      id\": “s7”，\n      “title”：“Step 7”，\n      “done”：False，\n      “code” = {\n        “snippet”: \"y = 2\"\n      }，\n      “owner” = “Mary O'Brien”，\n      “tags”：[\n        “high”\n      ]\n    }\n  ]\n}";
    let parsed = parse(input);
    assert_eq!(
        parsed.value,
        json(
            r#"{"steps": [
                {"id": "s6", "code": {"snippet": "x = 1"}, "owner": "Li Wei", "tags": ["retry", "rejected"]},
                {"id": "s7", "title": "Step 7", "done": false, "code": {"snippet": "y = 2"},
                 "owner": "Mary O'Brien", "tags": ["high"]}
            ]}"#
        )
    );
    assert!(!kinds(&parsed).contains(&RepairKind::DuplicateKey));
}

/// A value that lost its closing quote at the end of its line, before a member whose key lost
/// its opening quote (`"s23,⏎      title": “…”`): the next line starts a member all the same.
#[test]
fn a_value_ends_at_its_line_before_a_key_that_lost_its_opening_quote() {
    let input = "{\n  \"steps\": [\n    {\n      “id”: \"s23,\n      title\": “Step 23: Fix: retry when the upstream returns 503”，\n      “done”：False\n    },\n    {\n      “id”: \"s24\",\n      \"title\": \"Step 24\"\n    }\n  ]\n}";
    assert_eq!(
        parse(input).value,
        json(
            r#"{"steps": [
                {"id": "s23", "title": "Step 23: Fix: retry when the upstream returns 503", "done": false},
                {"id": "s24", "title": "Step 24"}
            ]}"#
        )
    );
}

/// A closer of the wrong kind in line with the container it ends (`‘code’：{ … ⏎      ],`) is
/// that container's, even where a stray `}` further on (`}},`) would balance the count if
/// it were dropped: the layout says which closer ends what. Before, the `]` was dropped and the
/// step's `owner`, `estimate_hours` and `tags` went into its `code`.
#[test]
fn a_wrong_closer_in_line_with_its_opener_closes_it() {
    let input = "{\n  \"steps\": [\n    {\n      ‘id’：‘s6’，\n      ‘title’: \"Review with Mary\" + \" O'Brien (6)\",\n      ‘done’:: false，\n      ‘code’：{\n        ‘language’：‘python’，\n        ‘snippet’：\"p = \\\"C:\\\\Users\\\\me\\\"\\nx = 1\"\n      ],\n      ‘owner’：‘山田太郎’，\n      ‘estimate_hours’：13，\n      ‘tags’：[\n        ‘python’，\n        ‘approved’\n      ]\n    }},\n    {\n      ‘id’：‘s7’\n    }\n  ]\n}";
    let parsed = parse(input);
    assert_eq!(
        parsed.value,
        json(
            r#"{"steps": [
                {"id": "s6", "title": "Review with Mary O'Brien (6)", "done": false,
                 "code": {"language": "python", "snippet": "p = \"C:\\Users\\me\"\nx = 1"},
                 "owner": "山田太郎", "estimate_hours": 13, "tags": ["python", "approved"]},
                {"id": "s7"}
            ]}"#
        )
    );
    assert!(kinds(&parsed).contains(&RepairKind::MismatchedCloser));
}

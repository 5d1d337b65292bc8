//! Stage "locate": fences, prose, reasoning blocks, wrappers, and which value is chosen.

use crate::support::{check, error, json, parse};
use llmjson::{Error, Options, Source};

#[test]
fn prose_after_and_before_the_json() {
    check(
        "{\"genre\": \"エンジニア\"} 補足説明です",
        r#"{"genre": "エンジニア"}"#,
    );
    check(
        "以下がJSONです: {\"genre\": \"ビジネス\"}",
        r#"{"genre": "ビジネス"}"#,
    );
    check(
        "Sure! Here it is:\n\n{\"a\": [1, 2]}\n\nLet me know if you need anything else.",
        r#"{"a": [1, 2]}"#,
    );
}

#[test]
fn fences_with_any_whitespace_or_none() {
    check("```json {\"genre\": \"経済\"} ```", r#"{"genre": "経済"}"#);
    check("```{\"genre\": \"日常\"}```", r#"{"genre": "日常"}"#);
    check("```json{\"a\": 1}\n```", r#"{"a": 1}"#);
    check("Plan:\n```json\n{\"a\": 1}```\nDone.", r#"{"a": 1}"#);
    check(
        "```json   \n\n  {\"a\": [1, 2]}  \n  ```",
        r#"{"a": [1, 2]}"#,
    );
    check("```JSON\n{\"a\": 1}\n```", r#"{"a": 1}"#);
    check("~~~\n[1, 2]\n~~~", "[1, 2]");
    check("~~~json\n{\"a\": true}\n~~~\n", r#"{"a": true}"#);
}

#[test]
fn the_fence_source_is_reported() {
    let parsed = parse("text\n```json\n{\"a\": 1}\n```");
    assert_eq!(
        parsed.source,
        Source::Fence {
            label: Some("json".into())
        }
    );
    let parsed = parse("{\"a\": 1}");
    assert_eq!(parsed.source, Source::Text);
}

#[test]
fn an_unclosed_fence_at_the_end_of_a_truncated_reply() {
    check("Here:\n```json\n{\"a\": [1, 2", r#"{"a": [1, 2]}"#);
}

#[test]
fn a_fence_inside_a_string_does_not_end_the_value() {
    let reply =
        "```json\n{\"content\": \"# T\\n```python\\nprint(1)\\n```\", \"ok\": true}\n```\nDone";
    check(
        reply,
        r##"{"content": "# T\n```python\nprint(1)\n```", "ok": true}"##,
    );
    // Raw newlines too: the code block inside the string is text.
    let raw = "```json\n{\"content\": \"a\n```python\nx = 1\n```\nb\", \"ok\": 1}\n```";
    check(
        raw,
        r#"{"content": "a\n```python\nx = 1\n```\nb", "ok": 1}"#,
    );
}

#[test]
fn a_fenced_block_is_preferred_over_bare_json() {
    check(
        "Draft: {\"draft\": true}\n```json\n{\"final\": true}\n```",
        r#"{"final": true}"#,
    );
    // A json-labelled fence is preferred over a fence with another label.
    check(
        "```python\nx = {'a': 1}\n```\n```json\n{\"b\": 2}\n```",
        r#"{"b": 2}"#,
    );
    // But a python fence holding the JSON is used when it is the only one.
    check("```python\n{\"a\":\"b\"}\n```", r#"{"a": "b"}"#);
}

#[test]
fn think_blocks_are_skipped_even_when_they_hold_a_draft() {
    check(
        "<think>Draft: {\"genre\": \"未定\"}</think>\n{\"genre\": \"技術\"}",
        r#"{"genre": "技術"}"#,
    );
    check(
        "<thinking>\n```json\n{\"a\": 0}\n```\n</thinking>\n```json\n{\"a\": 1}\n```",
        r#"{"a": 1}"#,
    );
    match error("<think>{\"a\": 1}</think>Sorry, I cannot answer.") {
        Error::NoJson { hint } => assert!(hint.unwrap().contains("<think>")),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn tool_call_and_chat_template_wrappers() {
    check(
        "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"x\"}}\n</tool_call>",
        r#"{"name": "search", "arguments": {"q": "x"}}"#,
    );
    assert_eq!(
        parse("<tool_call>{\"a\": 1}</tool_call>").source,
        Source::ToolCall
    );
    check(
        "<|python_tag|>{\"name\": \"f\", \"parameters\": {}}",
        r#"{"name": "f", "parameters": {}}"#,
    );
    check(
        "Thought: I need the weather.\nAction: weather\nAction Input: {\"city\": \"Lisboa\"}",
        r#"{"city": "Lisboa"}"#,
    );
    check(
        "Calling now. <tool_call>{\"a\": 1}</tool_call> and {\"b\": 2}",
        r#"{"a": 1}"#,
    );
}

#[test]
fn braces_and_quotes_inside_strings_never_count() {
    check(
        r#"{"content": "Use } for closing"}"#,
        r#"{"content": "Use } for closing"}"#,
    );
    check(
        r#"{"content": "Say \"Hello\""}"#,
        r#"{"content": "Say \"Hello\""}"#,
    );
    check(
        r#"Result: {"a": "[{\"x\"]}", "b": 1} trailing"#,
        r#"{"a": "[{\"x\"]}", "b": 1}"#,
    );
}

#[test]
fn nested_three_levels_with_prose_after() {
    check(
        "{\"frontmatter\": {\"title\": \"Test\", \"meta\": {\"depth\": {\"level\": 3}}}, \"normalized_content\": \"# T\"}\n\n以上が正規化結果です。{注意: なし}",
        r##"{"frontmatter": {"title": "Test", "meta": {"depth": {"level": 3}}}, "normalized_content": "# T"}"##,
    );
}

#[test]
fn two_values_in_a_row_give_the_first() {
    check("{\"a\": 1}\n{\"b\": 2}", r#"{"a": 1}"#);
    check("[1] [2]", "[1]");
}

#[test]
fn every_value_on_request() {
    let all = llmjson::parse_all("{\"a\": 1}\n{\"b\": 2} and [3, 4]", &Options::default()).unwrap();
    let values: Vec<_> = all.iter().map(|p| p.value.clone()).collect();
    assert_eq!(
        values,
        vec![json(r#"{"a": 1}"#), json(r#"{"b": 2}"#), json("[3, 4]")]
    );
    let fenced = "```json\n{\"a\": 1}\n```\nbare {\"x\": 0}\n```json\n{\"b\": 2}\n```";
    let all = llmjson::parse_all(fenced, &Options::default()).unwrap();
    let values: Vec<_> = all.iter().map(|p| p.value.clone()).collect();
    assert_eq!(values, vec![json(r#"{"a": 1}"#), json(r#"{"b": 2}"#)]);
    // Spans point at each value's text.
    assert_eq!(&fenced[all[1].span.clone()], "{\"b\": 2}");
    // A fence inside a string of the first value is text, not a block.
    let nested = "{\"c\": \"```json\\n{\\\"x\\\": 1}\\n```\"} and {\"d\": 2}";
    let all = llmjson::parse_all(nested, &Options::default()).unwrap();
    let values: Vec<_> = all.iter().map(|p| p.value.clone()).collect();
    assert_eq!(
        values,
        vec![
            json(r#"{"c": "```json\n{\"x\": 1}\n```"}"#),
            json(r#"{"d": 2}"#)
        ]
    );
}

#[test]
fn top_level_arrays() {
    check(
        "Here are the items: [{\"id\": 1}, {\"id\": 2}]",
        r#"[{"id": 1}, {"id": 2}]"#,
    );
    check("```json\n[\"a\", \"b\"]\n```", r#"["a", "b"]"#);
}

#[test]
fn stray_brackets_in_prose_are_not_the_answer() {
    check(
        "[Note] Placeholders like {name} were filled.\n{\"name\": \"Ana\"}",
        r#"{"name": "Ana"}"#,
    );
    check(
        "As shown in [1] and [2], the answer is {\"x\": 1}",
        r#"{"x": 1}"#,
    );
    check("Fill in {name} and {email}: [\"a@b.c\"]", r#"["a@b.c"]"#);
}

#[test]
fn a_reply_that_is_a_scalar() {
    check("\"just a string\"", r#""just a string""#);
    check("42", "42");
    check("true", "true");
    check("callback_123({\"a\": 1});", r#"{"a": 1}"#);
}

#[test]
fn empty_and_prose_only_replies_are_distinct_errors() {
    assert!(matches!(error(""), Error::Empty));
    assert!(matches!(error("  \n\t "), Error::Empty));
    assert!(matches!(
        error("申し訳ありませんが、その要求にはお応えできません。"),
        Error::NoJson { hint: None }
    ));
    assert!(matches!(
        error("I'm sorry, I can't help with that."),
        Error::NoJson { .. }
    ));
    assert!(matches!(
        error("See [note] and {name}."),
        Error::NoJson { .. }
    ));
}

#[test]
fn extract_returns_the_located_text_untouched() {
    let reply = "Here:\n```json\n{\"a\": 1, /* c */ \"b\": [1,2,],}\n```\nbye";
    let located = llmjson::extract(reply, &Options::default()).unwrap();
    assert_eq!(located.text, "{\"a\": 1, /* c */ \"b\": [1,2,],}");
    assert_eq!(&reply[located.span.clone()], located.text);
}

/// An object whose first key is bare and followed by a full-width colon (`{items：[`) is JSON,
/// after prose or inside a fence: the colon is not part of the key's name. Before, the object
/// was not seen and the first list or object inside it was taken, the rest left out in silence.
#[test]
fn a_bare_key_with_a_full_width_colon_opens_json() {
    let expected = r#"{"items": [{"id": 1, "name": "M"}, {"id": 2, "tags": ["a", "b"]}]}"#;
    let body = "{items：[{id：1，name：\"M\"}，{id：2，tags：[\"a\"，\"b\"]}]}";
    check(&format!("``` json\n{body}\n```"), expected);
    check(&format!("Aqui está o plano:\n{body}"), expected);
    check(&format!("以下がJSONです：{body} 以上です。"), expected);
}

/// A draft list restated as a tuple is abandoned for the tuple (`(true, 0.5)` is Python's
/// list), as it would be for a list; before, the tuple was left out in silence.
#[test]
fn a_draft_restated_as_a_tuple_is_abandoned() {
    let parsed = parse("Draft: [true\nNa verdade, o correto é:\n(true, 0.5)");
    assert_eq!(parsed.value, json("[true, 0.5]"));
    assert_eq!(
        parsed.repairs[0].kind,
        llmjson::RepairKind::AbandonedDraft,
        "{:?}",
        parsed.repairs
    );
}

/// A reply that starts its object's members after prose, with `：` and `，` for `:` and `,`
/// (`"items"：[…`), is an object whose `{` is missing, as with ASCII punctuation; before, the
/// key was not seen and only the list was taken.
#[test]
fn members_after_prose_with_full_width_punctuation() {
    check(
        "The record is below. \"items\"：[{\"id\"：1}]",
        r#"{"items": [{"id": 1}]}"#,
    );
    check(
        "The record is below. \"items\"：1，\"b\"：2}",
        r#"{"items": 1, "b": 2}"#,
    );
}

/// A list whose first item is a Python set of numbers (`[{0, 5}, …]`) is JSON after prose, not
/// a placeholder: before, the set made the list look like prose and a later list was taken.
#[test]
fn a_list_opening_with_a_set_is_json() {
    check(
        "Voici la réponse :\n[{0, 5}, [\"green\", \"blue\"], [1], [2, 5]]",
        r#"[[0, 5], ["green", "blue"], [1], [2, 5]]"#,
    );
    check(
        "以下: [\n  {\n    6,\n    4\n  },\n  [\n    5\n  ]\n]\n\nEspero que ajude!",
        "[[6, 4], [5]]",
    );
    // A placeholder in brackets is still prose.
    assert!(matches!(
        error("See [{1} and {2}] here"),
        Error::NoJson { .. }
    ));
}

/// A list whose first item is a literal followed by `，` is JSON (`[false，…`): before, the
/// full-width comma made it look like prose, and a tuple-like `("bad input: " + str(v))` inside
/// a later string was taken instead, the rest left out unlogged.
#[test]
fn a_list_opening_with_a_literal_and_a_full_width_comma_is_json() {
    check(
        "``` json\n[\n  false，\n  false,\n  \"raise ValueError(\"bad input: \" + str(v))\",\n  \"Größe\"\n]```",
        r#"[false, false, "raise ValueError(\"bad input: \" + str(v))", "Größe"]"#,
    );
}

/// A list of one number laid out over lines (`[⏎    3933],…`) is JSON, not a citation like
/// `[12]`: before, a fenced reply whose list closed early was "no JSON", or lost to a decoy
/// fence's `[1, 2, 3]`.
#[test]
fn a_laid_out_list_of_a_number_is_not_a_citation() {
    let reply = "You can call it like this:\n```bash\necho '[1, 2, 3]' | jq '.[0]'\n```\n\nThe response was:\n```json\n[\n    3933],\n    \"D:\\\\data\\\\q3.csv\"\n]\n```";
    check(reply, r#"[3933, "D:\\data\\q3.csv"]"#);
    assert!(matches!(error("See [12] and [3]."), Error::NoJson { .. }));
}

/// Members written with no braces, as the whole reply or after prose: an object (its `{`
/// logged as `missing_opener`). One member alone too, where it was read as a string holding a
/// quote. Cases written for the class: other words, languages, layouts.
#[test]
fn bare_members_are_an_object_even_one_alone() {
    for (reply, want) in [
        (r#""depth": 10"#, r#"{"depth": 10}"#),
        (r#""status": "done""#, r#"{"status": "done"}"#),
        ("\"count\":3\n", r#"{"count": 3}"#),
        (
            r#""título": "Relatório", "páginas": 12"#,
            r#"{"título": "Relatório", "páginas": 12}"#,
        ),
        (
            "\"名前\": \"太郎\",\n\"年齢\": 30",
            r#"{"名前": "太郎", "年齢": 30}"#,
        ),
        ("Here you go:\n\"city\": \"Lyon\"", r#"{"city": "Lyon"}"#),
        (r#""done": true}"#, r#"{"done": true}"#),
    ] {
        let parsed = crate::support::parse(reply);
        assert_eq!(parsed.value, crate::support::json(want), "{reply:?}");
        assert!(
            crate::support::kinds(&parsed).contains(&llmjson::RepairKind::MissingOpener),
            "{reply:?}"
        );
    }
    // A string alone stays a string, a colon inside it or not.
    for (reply, want) in [(r#""ok""#, r#""ok""#), (r#""a: b""#, r#""a: b""#)] {
        assert_eq!(
            crate::support::parse(reply).value,
            crate::support::json(want),
            "{reply}"
        );
    }
}

#[test]
fn a_key_quoted_in_prose_is_not_the_start_of_members() {
    // Prose that quotes a field and its colon (`The field "name": what users see, …`) before
    // the JSON: the members a reply writes without `{` have their next member on the key's
    // line, not in the JSON a line below.
    check(
        "The column \"sku\": the product code, unique per store. The column \"qty\": units, never negative.\n\n{\"sku\": \"A-1\", \"qty\": 3}",
        r#"{"sku": "A-1", "qty": 3}"#,
    );
    check(
        "Observação: o campo \"prazo\": é sempre em dias úteis, e o campo \"valor\": em reais.\n{\n  \"prazo\": 5,\n  \"valor\": 129.9\n}",
        r#"{"prazo": 5, "valor": 129.9}"#,
    );
    check(
        "注意：\"status\": true は出荷済み、\"eta\": は到着予定日です。\n```json\n{\"status\": true, \"eta\": \"2024-06-01\"}\n```",
        r#"{"status": true, "eta": "2024-06-01"}"#,
    );
    // Replies written apart from the code (a held-out set, stop 78), misread before.
    for (reply, want) in [
        (
            "The field \"name\": this is what users see in the profile header. The field \"handle\": the unique identifier, lowercase only. Filled in from the signup form:\n\n{\n  \"name\": \"Priya Raman\",\n  \"handle\": \"priya.r\",\n  \"role\": \"editor\"\n}",
            "{\"name\": \"Priya Raman\", \"handle\": \"priya.r\", \"role\": \"editor\"}",
        ),
        (
            "Kurz zur Struktur: Der Schlüssel \"kategorie\": entspricht den Budgetkategorien aus Ihrer Vorlage, und \"betrag_eur\": ist immer der Monatsbetrag in Euro (positiv = Ausgabe). Die Daten reichen bis August, weil danach die Kontoauszüge fehlen.\n\n{\n  \"haushalt\": \"Familie Becker\",\n  \"jahr\": 2023,\n  \"ausgaben\": [\n    {\"monat\": \"Januar\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"Januar\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 494.7},\n    {\"monat\": \"Januar\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 132.6},\n    {\"monat\": \"Januar\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"Januar\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 237.95},\n    {\"monat\": \"Februar\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"Februar\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 474.15},\n    {\"monat\": \"Februar\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 141.61},\n    {\"monat\": \"Februar\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"Februar\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 211.79},\n    {\"monat\": \"März\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"März\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 338.66},\n    {\"monat\": \"März\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 230.71},\n    {\"monat\": \"März\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"März\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 236.36},\n    {\"monat\": \"April\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"April\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 299.16},\n    {\"monat\": \"April\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 213.89},\n    {\"monat\": \"April\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"April\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 203.38},\n    {\"monat\": \"Mai\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"Mai\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 320.53},\n    {\"monat\": \"Mai\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 171.59},\n    {\"monat\": \"Mai\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"Mai\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 203.66},\n    {\"monat\": \"Juni\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"Juni\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 554.16},\n    {\"monat\": \"Juni\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 134.11},\n    {\"monat\": \"Juni\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"Juni\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 176.26},\n    {\"monat\": \"Juli\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"Juli\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 505.41},\n    {\"monat\": \"Juli\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 191.7},\n    {\"monat\": \"Juli\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"Juli\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 166.62},\n    {\"monat\": \"August\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150},\n    {\"monat\": \"August\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 411.3},\n    {\"monat\": \"August\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 197.63},\n    {\"monat\": \"August\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95},\n    {\"monat\": \"August\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 191.2}\n  ],\n  \"summe_eur\": 16399.13\n}",
            "{\"haushalt\": \"Familie Becker\", \"jahr\": 2023, \"ausgaben\": [{\"monat\": \"Januar\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"Januar\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 494.7}, {\"monat\": \"Januar\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 132.6}, {\"monat\": \"Januar\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"Januar\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 237.95}, {\"monat\": \"Februar\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"Februar\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 474.15}, {\"monat\": \"Februar\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 141.61}, {\"monat\": \"Februar\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"Februar\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 211.79}, {\"monat\": \"März\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"März\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 338.66}, {\"monat\": \"März\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 230.71}, {\"monat\": \"März\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"März\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 236.36}, {\"monat\": \"April\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"April\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 299.16}, {\"monat\": \"April\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 213.89}, {\"monat\": \"April\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"April\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 203.38}, {\"monat\": \"Mai\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"Mai\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 320.53}, {\"monat\": \"Mai\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 171.59}, {\"monat\": \"Mai\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"Mai\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 203.66}, {\"monat\": \"Juni\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"Juni\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 554.16}, {\"monat\": \"Juni\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 134.11}, {\"monat\": \"Juni\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"Juni\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 176.26}, {\"monat\": \"Juli\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"Juli\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 505.41}, {\"monat\": \"Juli\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 191.7}, {\"monat\": \"Juli\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"Juli\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 166.62}, {\"monat\": \"August\", \"kategorie\": \"Miete\", \"betrag_eur\": 1150}, {\"monat\": \"August\", \"kategorie\": \"Lebensmittel\", \"betrag_eur\": 411.3}, {\"monat\": \"August\", \"kategorie\": \"Mobilität\", \"betrag_eur\": 197.63}, {\"monat\": \"August\", \"kategorie\": \"Versicherungen\", \"betrag_eur\": 95}, {\"monat\": \"August\", \"kategorie\": \"Freizeit\", \"betrag_eur\": 191.2}], \"summe_eur\": 16399.13}",
        ),
        (
            "I've converted the purchase order. Two things to keep in mind: \"backordered\": true means the line ships separately once restocked, and \"warehouse\": is the fulfillment center code, not the customer's location.\n\n{\n  \"po_number\": \"PO-558102\",\n  \"customer\": \"Ridgeway Builders Inc.\",\n  \"requested_delivery\": \"2024-03-29\",\n  \"lines\": [\n    {\"line\": 1, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 9, \"backordered\": false, \"warehouse\": \"ATL-1\"},\n    {\"line\": 2, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 11, \"backordered\": true, \"warehouse\": \"PHX-3\"},\n    {\"line\": 3, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 6, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 4, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 8, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 5, \"sku\": \"HD-1210\", \"name\": \"LED work light\", \"qty\": 9, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 6, \"sku\": \"HD-1333\", \"name\": \"Utility knife\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 7, \"sku\": \"HD-1402\", \"name\": \"Safety glasses\", \"qty\": 3, \"backordered\": true, \"warehouse\": \"PHX-3\"},\n    {\"line\": 8, \"sku\": \"HD-1550\", \"name\": \"Tape measure 25 ft\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 9, \"sku\": \"HD-1618\", \"name\": \"Wood glue 16 oz\", \"qty\": 1, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 10, \"sku\": \"HD-1720\", \"name\": \"Sandpaper assortment\", \"qty\": 7, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 11, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 11, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 12, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 13, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 4, \"backordered\": true, \"warehouse\": \"ATL-1\"},\n    {\"line\": 14, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 12, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 15, \"sku\": \"HD-1210\", \"name\": \"LED work light\", \"qty\": 6, \"backordered\": false, \"warehouse\": \"ATL-1\"},\n    {\"line\": 16, \"sku\": \"HD-1333\", \"name\": \"Utility knife\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 17, \"sku\": \"HD-1402\", \"name\": \"Safety glasses\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 18, \"sku\": \"HD-1550\", \"name\": \"Tape measure 25 ft\", \"qty\": 7, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 19, \"sku\": \"HD-1618\", \"name\": \"Wood glue 16 oz\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 20, \"sku\": \"HD-1720\", \"name\": \"Sandpaper assortment\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"ATL-1\"},\n    {\"line\": 21, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 22, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 12, \"backordered\": false, \"warehouse\": \"PHX-3\"},\n    {\"line\": 23, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"DAL-2\"},\n    {\"line\": 24, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 10, \"backordered\": false, \"warehouse\": \"ATL-1\"}\n  ],\n  \"backordered_lines\": [\n    2,\n    7,\n    13\n  ]\n}\n\nLet me know if you want this split into one shipment per warehouse.",
            "{\"po_number\": \"PO-558102\", \"customer\": \"Ridgeway Builders Inc.\", \"requested_delivery\": \"2024-03-29\", \"lines\": [{\"line\": 1, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 9, \"backordered\": false, \"warehouse\": \"ATL-1\"}, {\"line\": 2, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 11, \"backordered\": true, \"warehouse\": \"PHX-3\"}, {\"line\": 3, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 6, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 4, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 8, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 5, \"sku\": \"HD-1210\", \"name\": \"LED work light\", \"qty\": 9, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 6, \"sku\": \"HD-1333\", \"name\": \"Utility knife\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 7, \"sku\": \"HD-1402\", \"name\": \"Safety glasses\", \"qty\": 3, \"backordered\": true, \"warehouse\": \"PHX-3\"}, {\"line\": 8, \"sku\": \"HD-1550\", \"name\": \"Tape measure 25 ft\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 9, \"sku\": \"HD-1618\", \"name\": \"Wood glue 16 oz\", \"qty\": 1, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 10, \"sku\": \"HD-1720\", \"name\": \"Sandpaper assortment\", \"qty\": 7, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 11, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 11, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 12, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 13, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 4, \"backordered\": true, \"warehouse\": \"ATL-1\"}, {\"line\": 14, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 12, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 15, \"sku\": \"HD-1210\", \"name\": \"LED work light\", \"qty\": 6, \"backordered\": false, \"warehouse\": \"ATL-1\"}, {\"line\": 16, \"sku\": \"HD-1333\", \"name\": \"Utility knife\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 17, \"sku\": \"HD-1402\", \"name\": \"Safety glasses\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 18, \"sku\": \"HD-1550\", \"name\": \"Tape measure 25 ft\", \"qty\": 7, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 19, \"sku\": \"HD-1618\", \"name\": \"Wood glue 16 oz\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 20, \"sku\": \"HD-1720\", \"name\": \"Sandpaper assortment\", \"qty\": 2, \"backordered\": false, \"warehouse\": \"ATL-1\"}, {\"line\": 21, \"sku\": \"HD-1001\", \"name\": \"Cordless drill 20V\", \"qty\": 3, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 22, \"sku\": \"HD-1002\", \"name\": \"Drill bit set, 29 pc\", \"qty\": 12, \"backordered\": false, \"warehouse\": \"PHX-3\"}, {\"line\": 23, \"sku\": \"HD-1040\", \"name\": \"Stud finder\", \"qty\": 4, \"backordered\": false, \"warehouse\": \"DAL-2\"}, {\"line\": 24, \"sku\": \"HD-1107\", \"name\": \"Painter's tape 1.88 in\", \"qty\": 10, \"backordered\": false, \"warehouse\": \"ATL-1\"}], \"backordered_lines\": [2, 7, 13]}",
        ),
    ] {
        check(reply, want);
    }
    // Members that do go on after prose: on the key's line, or after a comma that ends it.
    check(
        "Here it is: \"id\": 7, \"name\": \"x\"}",
        r#"{"id": 7, "name": "x"}"#,
    );
    check(
        "Hier ist die Auswertung: \"konto\": \"DE89 3704\",\n  \"zeitraum\": \"2024-03\"\n}",
        r#"{"konto": "DE89 3704", "zeitraum": "2024-03"}"#,
    );
    // A first value whose string holds raw line breaks.
    check(
        "Here you go: \"body\": \"Dear team,\nthe release is ready.\", \"to\": \"all\"}",
        r#"{"body": "Dear team,\nthe release is ready.", "to": "all"}"#,
    );
}

#[test]
fn a_draft_weighed_in_a_sentence_gives_way_to_the_answer_below_it() {
    // A value inside a sentence that goes on past it, then a value on a later line: the first
    // was weighed (a draft, an example), the second is the answer (logged as a skipped draft).
    check(
        "Eu pensei em {\"nivel\": \"baixo\"} mas o alarme disparou duas vezes.\n\nFinal:\n{\"nivel\": \"alto\", \"disparos\": 2}",
        r#"{"nivel": "alto", "disparos": 2}"#,
    );
    check(
        "我本来想写 {\"status\": \"ok\"}，但日志里有报错。\n结论：\n{\"status\": \"error\", \"code\": 502}",
        r#"{"status": "error", "code": 502}"#,
    );
    check(
        "Die Antwort sähe so aus: [1, 2] – nein, die Liste ist länger.\n[1, 2, 3, 5, 8]",
        "[1, 2, 3, 5, 8]",
    );
    let parsed = parse("Maybe {\"tier\": 1}? No, tier 2.\nFinal:\n{\"tier\": 2}");
    assert!(parsed
        .repairs
        .iter()
        .any(|r| r.kind == llmjson::RepairKind::AbandonedDraft));
    // Two values in one sentence are alternatives: the first (as BAML's tests want); a value
    // in a sentence with nothing after it is the answer.
    check(
        "prefix {\"key\": 1} some random text {\"key\": 2} suffix",
        r#"{"key": 1}"#,
    );
    check(
        "以下がJSONです: {\"genre\": \"ビジネス\"} 補足説明です",
        r#"{"genre": "ビジネス"}"#,
    );
}

#[test]
fn a_schema_of_only_keywords_echoed_before_the_answer_is_skipped() {
    check(
        "Схема:\n```json\n{\"type\": \"object\", \"required\": [\"рейс\"]}\n```\nОтвет:\n{\"рейс\": \"SU1402\"}",
        r#"{"рейс": "SU1402"}"#,
    );
    // Alone, it is the answer (a reply may be asked for a schema).
    check(
        "{\"type\": \"object\", \"required\": [\"id\"]}",
        r#"{"type": "object", "required": ["id"]}"#,
    );
}

#[test]
fn members_may_follow_a_cjk_colon_or_full_stop_without_a_space() {
    check(
        "比赛数据如下：\"主队\": \"上海申花\",\n  \"客队\": \"北京国安\"\n}",
        r#"{"主队": "上海申花", "客队": "北京国安"}"#,
    );
    check(
        "在庫データをまとめました。\"倉庫\": \"大阪\",\n  \"担当\": \"佐藤\"\n}",
        r#"{"倉庫": "大阪", "担当": "佐藤"}"#,
    );
}

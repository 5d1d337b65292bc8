//! The forms real replies hold (issue 58): an echoed template or schema before the answer,
//! wrappers that are not fences, calls around arguments, objects listed without brackets, an
//! object in brackets, `key=value` pairs, half-escaped arguments, arrows for colons, measures
//! left unquoted, markdown escapes. Each case here is written in other words than the
//! generator's (`llmjson-faults` writes the classes; the scoreboard scores them).

use crate::support::kinds;
use llmjson::{Options, RepairKind};
use serde_json::json;

fn value(text: &str) -> serde_json::Value {
    let parsed =
        llmjson::parse(text, &Options::default()).unwrap_or_else(|e| panic!("{text:?}: {e}"));
    serde_json::to_value(&parsed.value).unwrap()
}

fn logged(text: &str, kind: RepairKind) -> bool {
    kinds(&llmjson::parse(text, &Options::default()).unwrap()).contains(&kind)
}

#[test]
fn an_echoed_template_is_skipped_for_the_value_that_fills_it() {
    for text in [
        "Output format: {\"label\": \"string\", \"score\": \"number\"}\nAnswer: {\"label\": \"spam\", \"score\": 0.93}",
        "Formato: {\"rótulo\": \"<texto>\", \"nota\": \"int\"}, preenchido assim: {\"rótulo\": \"ok\", \"nota\": 0.93}",
        "```json\n[{\"label\": \"str\", \"score\": \"float\"}]\n```\n```json\n[{\"label\": \"spam\", \"score\": 0.93}]\n```",
    ] {
        let v = value(text);
        let first = v.get(0).unwrap_or(&v);
        assert!(first.to_string().contains("0.93"), "{text:?} gave {v}");
        assert!(logged(text, RepairKind::SkippedTemplate), "{text:?}");
    }
    // The answer after a label on its own line: the template's last string must not run on
    // into the label (the label costs nothing to leave out; the value after it is another).
    let label_line = "Esquema de saída: {\"cidade\":\"string\",\"notas\":[{\"n\":\"int\"}],\"resumo\":\"...\"}\n\nResposta: {\"cidade\": \"Braga\", \"notas\": [{\"n\": 3}], \"resumo\": \"Chove \\\"muito\\\" em março\"}";
    assert_eq!(
        value(label_line),
        json!({"cidade": "Braga", "notas": [{"n": 3}], "resumo": "Chove \"muito\" em março"})
    );
    // A one-word label between the template and the answer, at the reply's end.
    for text in [
        "Formato: {\"rótulo\": \"<texto>\", \"nota\": \"int\"}, preenchido: {\"rótulo\": \"ok\", \"nota\": 0.93}",
        "Schéma {\"ville\": \"string\", \"jours\": \"number\"}, réponse: {\"ville\": \"Lyon\", \"jours\": 3}",
    ] {
        let v = value(text);
        assert!(v.get("nota").or(v.get("jours")).is_some_and(|n| n.is_number()), "{text:?} gave {v}");
        assert!(logged(text, RepairKind::SkippedTemplate), "{text:?}");
    }
    // A member after a premature closer still pays for the closer it leaves.
    assert_eq!(value("{a: 1}, b: {c: 2}}"), json!({"a": 1, "b": {"c": 2}}));
    // A template alone is what the reply holds.
    assert_eq!(value("{\"label\": \"string\"}"), json!({"label": "string"}));
    // A value whose keys differ does not fill it.
    let other = "Format: {\"label\": \"string\"}\nAlso: {\"weather\": \"sunny\"}";
    assert_eq!(value(other), json!({"label": "string"}));
}

#[test]
fn an_echoed_schema_is_skipped_for_the_instance() {
    let text = "Schema:\n{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\"}}}\n\nThe instance:\n{\"city\": \"Porto\"}";
    assert_eq!(value(text), json!({"city": "Porto"}));
    assert!(logged(text, RepairKind::SkippedSchemaEcho));
    // A schema asked for, alone, is the answer.
    let alone = "{\"$schema\": \"x\", \"type\": \"array\", \"items\": {\"type\": \"integer\"}}";
    assert_eq!(value(alone)["type"], json!("array"));
}

#[test]
fn wrappers_that_are_not_fences() {
    for text in [
        "\"\"\"{\"ok\": true}\"\"\"",
        "'''json\n{\"ok\": true}\n'''",
        "\"\"\"\n```json\n{\"ok\": true}\n```\n\"\"\"\nThat is the output.",
        "``json\n{\"ok\": true}\n``",
        "````\n{\"ok\": true}\n````",
    ] {
        assert_eq!(value(text), json!({"ok": true}), "{text:?}");
    }
    // After an assignment or a label, and with the document's last closer lost.
    for text in [
        "result = '''json\n{\n  \"ok\": true,\n  \"n\": {\n    \"k\": 2\n  }\n\n'''\n",
        "Aqui está:\n\"\"\"\n{\"ok\": true, \"n\": {\"k\": 2}\n\"\"\"\nAté logo",
    ] {
        assert_eq!(value(text), json!({"ok": true, "n": {"k": 2}}), "{text:?}");
    }
    // Members with no braces inside the quotes: every member, the first one too (it was once
    // taken for prose before the JSON and left out unlogged).
    for text in [
        "'''\"peso\": 74 kg, \"ruta\": \"q.sql\"}'''",
        "\"\"\"json\n\"peso\": 74,\n\"ruta\": \"q.sql\"\n\"\"\"",
    ] {
        let v = value(text);
        assert_eq!(v["ruta"], json!("q.sql"), "{text:?}");
        assert!(v.get("peso").is_some(), "{text:?} gave {v}");
    }
    // A JSON fence holding a list that looks like a citation is still the value.
    assert_eq!(value("```json\n[3]\n```"), json!([3]));
}

#[test]
fn calls_around_the_arguments() {
    assert_eq!(
        value("[reserve_table({\"guests\": 4, \"smoking\": False})]"),
        json!({"guests": 4, "smoking": false})
    );
    assert!(logged(
        "[reserve_table({\"guests\": 4})]",
        RepairKind::UnwrappedCall
    ));
    assert_eq!(
        value("I will now run translate(text=\"bom dia\", target=\"en\", formal=True)"),
        json!({"text": "bom dia", "target": "en", "formal": true})
    );
    // Two calls stay two.
    assert_eq!(
        value("[f({\"a\": 1}), g({\"b\": 2})]"),
        json!([{"a": 1}, {"b": 2}])
    );
}

#[test]
fn objects_one_after_another_are_a_list() {
    let text = "Results: {\"sku\": \"A1\", \"qty\": 2}, {\"sku\": \"B7\", \"qty\": 1}";
    assert_eq!(
        value(text),
        json!([{"sku": "A1", "qty": 2}, {"sku": "B7", "qty": 1}])
    );
    assert!(logged(text, RepairKind::WrappedInArray));
    // The reading that kept the first object and left the rest out (a trailing comma, a quote
    // lost in the first object) is not the answer: the list reads them all.
    for text in [
        "```\n{\n  \"sku\": \"A1\",\n  \"qty\": 2,\n},\n{\n  \"sku\": \"B7\",\n  \"qty\": 1\n}\n```",
        "Itens:\n{\"sku\": \"A1, \"qty\": 2}, {\"sku\": \"B7\", \"qty\": 1}",
    ] {
        assert_eq!(
            value(text),
            json!([{"sku": "A1", "qty": 2}, {"sku": "B7", "qty": 1}]),
            "{text:?}"
        );
    }
    // Lines of JSON are not a list: the first value.
    assert_eq!(value("{\"a\": 1}\n{\"b\": 2}"), json!({"a": 1}));
}

#[test]
fn members_without_braces_and_objects_in_brackets() {
    assert_eq!(
        value("Here: \"estado\": \"pronto\", \"tentativas\": 2"),
        json!({"estado": "pronto", "tentativas": 2})
    );
    assert_eq!(
        value("{\"idioma\": [\"código\": \"pt\", \"nível\": \"B2\"], \"n\": 1}"),
        json!({"idioma": {"código": "pt", "nível": "B2"}, "n": 1})
    );
}

#[test]
fn pairs_arrows_and_half_escaped_arguments() {
    assert_eq!(
        value("<tool_call>{action=grep, pattern=\"TODO\", max=20}</tool_call>"),
        json!({"action": "grep", "pattern": "TODO", "max": 20})
    );
    assert_eq!(
        value("{\"peso\">3.5, \"altura\" -> 2}"),
        json!({"peso": 3.5, "altura": 2})
    );
    assert_eq!(
        value("{\"fn\":\"weather\",\"params\\\":{\\\"city\\\":\\\"Oslo\\\"}}"),
        json!({"fn": "weather", "params": {"city": "Oslo"}})
    );
}

#[test]
fn measures_left_unquoted_are_one_string() {
    assert_eq!(
        value("{\"Größe\": 1,75 m, \"Gewicht\": 68 kg, \"Fieber\": 38,2 °C}"),
        json!({"Größe": "1,75 m", "Gewicht": "68 kg", "Fieber": "38,2 °C"})
    );
    // Thousands stay a number.
    assert_eq!(
        value("{\"n\": 12,500, \"m\": 1}"),
        json!({"n": 12500, "m": 1})
    );
}

#[test]
fn markdown_escapes_in_words_but_not_in_maths() {
    assert_eq!(
        value("{\"note\": \"read \\[the guide\\] first\", \"max\\_len\": 3}"),
        json!({"note": "read [the guide] first", "max_len": 3})
    );
    assert_eq!(
        value("{\"m\": \"\\[a^2 + b^2\\]\"}"),
        json!({"m": "\\[a^2 + b^2\\]"})
    );
}

#[test]
fn held_out_shapes_of_the_same_forms() {
    // A sign, and a unit that is one symbol.
    assert_eq!(
        value(r#"{"vento": +0,9 m/s, "体温": 36.8 ℃}"#),
        json!({"vento": "+0,9 m/s", "体温": "36.8 ℃"})
    );
    // Escapes inside escaped brackets are markdown's too.
    assert_eq!(
        value(r#"{"flags": ["\[overdraft\_ok\]"]}"#),
        json!({"flags": ["[overdraft_ok]"]})
    );
    // Laid out, one pair per line.
    assert_eq!(
        value("{\n  origem=GRU,\n  destino=LIS,\n  passageiros=2\n}"),
        json!({"origem": "GRU", "destino": "LIS", "passageiros": 2})
    );
}

#[test]
fn code_that_prints_a_label_ending_in_a_colon_stays_one_string() {
    // `console.log("total:", n)` in a string with raw quotes and line breaks: `"total:", ` is
    // not a key and the next member (issue 58, form 10), also among `=` colons, smart quotes,
    // full-width commas and comments.
    let laid_out = "{\n  id = “s1”，\n  // the step\n  “code” = {\n    lang = “javascript”，\n    “snippet”: \"const n = rows.length;\nconsole.log(\"rows:\", n);\nreturn n;\"\n  }，\n  done = False\n}";
    assert_eq!(
        value(laid_out),
        json!({"id": "s1", "code": {"lang": "javascript", "snippet": "const n = rows.length;\nconsole.log(\"rows:\", n);\nreturn n;"}, "done": false})
    );
    for (text, code) in [
        (
            "{\"code\": \"fmt.Println(\"error:\", err)\", \"lang\": \"go\"}",
            "fmt.Println(\"error:\", err)",
        ),
        (
            "{\n  \"code\": \"print(\"count:\", len(xs))\nprint(\"first:\", xs[0])\",\n  \"lang\": \"python\"\n}",
            "print(\"count:\", len(xs))\nprint(\"first:\", xs[0])",
        ),
    ] {
        assert_eq!(value(text)["code"], json!(code), "{text:?}");
    }
    // A string cut short and glued to the next key is still two members.
    assert_eq!(
        value("{\"title\": \"Uma história que cher\"rating\": 4}"),
        json!({"title": "Uma história que cher", "rating": 4})
    );
}

#[test]
fn a_key_that_holds_an_escaped_quote_is_not_a_half_escaped_one() {
    // Valid JSON whose key holds `\"` (found by the prefix property): the key is whole, and a
    // cut inside it is a cut or a lost quote, not a key closed by `\"`.
    assert_eq!(
        value("{\"\u{1a60}\\\":0}\": null}"),
        json!({"\u{1a60}\":0}": null})
    );
    let cut = "{\"\u{1a60}\\\":0}";
    assert!(!logged(cut, RepairKind::EscapedString), "{cut:?}");
    // The half-escaped form itself: the rest of the member was stringified.
    assert_eq!(
        value("{\"tool\":\"lookup\",\"args\\\":{\\\"id\\\":\\\"A7\\\"}}"),
        json!({"tool": "lookup", "args": {"id": "A7"}})
    );
}

#[test]
fn keyword_arguments_with_no_braces_in_a_tool_call_tag_are_an_object() {
    for (text, want) in [
        (
            "<tool_call>city=\"Porto\", units=metric, days=3</tool_call>",
            json!({"city": "Porto", "units": "metric", "days": 3}),
        ),
        (
            "<tool_call>\n  query: \"hotéis em Lisboa\",\n  limit: 5\n</tool_call>",
            json!({"query": "hotéis em Lisboa", "limit": 5}),
        ),
    ] {
        assert_eq!(value(text), want, "{text:?}");
    }
    // A sentence in the tag is not arguments.
    let prose = "<tool_call>Note: nothing to call</tool_call>";
    assert!(llmjson::parse(prose, &Options::default()).is_err());
}

//! LaTeX written with single backslashes: the escapes JSON shares with LaTeX command names
//! (`\frac`, `\beta`, `\theta`, `\nabla`, `\rho`, `\times`, `\to`) read as the commands, in valid
//! JSON too; real tabs and line breaks unchanged; `latex(false)` and level none keep RFC 8259.

use llmjson::{parse, Options, RepairKind, RepairLevel, Value};

fn read(text: &str, options: &Options) -> (Value, Vec<RepairKind>) {
    let parsed = parse(text, options).unwrap_or_else(|e| panic!("{text}: {e}"));
    (
        parsed.value,
        parsed.repairs.iter().map(|r| r.kind).collect(),
    )
}

fn string(text: &str) -> String {
    let (value, _) = read(text, &Options::default());
    match value {
        Value::Object(map) => match map.values().next() {
            Some(Value::String(s)) => s.clone(),
            other => panic!("{other:?}"),
        },
        Value::String(s) => s,
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_collision_of_the_issue_reads_as_its_command() {
    // As a model writes them: one backslash each, in valid JSON.
    let cases = [
        (
            r#"{"answer": "$\frac{a}{b} + \beta$"}"#,
            r"$\frac{a}{b} + \beta$",
        ),
        (r#"{"answer": "$\alpha + \beta$"}"#, r"$\alpha + \beta$"),
        (r#"{"a": "$\theta = \times 2$"}"#, r"$\theta = \times 2$"),
        (r#"{"a": "$\nabla f \to 0$"}"#, r"$\nabla f \to 0$"),
        (r#"{"a": "$\rho \neq \right)$"}"#, r"$\rho \neq \right)$"),
        (r#"{"a": "\binom{n}{k}"}"#, r"\binom{n}{k}"),
        (r#"{"a": "\(\theta\)"}"#, r"\(\theta\)"),
        (
            r#"{"a": "\[\tau = \sum_i t_i\]"}"#,
            r"\[\tau = \sum_i t_i\]",
        ),
        (
            r#"{"a": "\begin{pmatrix} \theta \end{pmatrix}"}"#,
            r"\begin{pmatrix} \theta \end{pmatrix}",
        ),
        (r#"{"a": "\\alpha and \theta"}"#, r"\alpha and \theta"),
        (
            r#"{"a": "$x$ \texttt{code} \newline \boxplus"}"#,
            r"$x$ \texttt{code} \newline \boxplus",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(string(text), want, "{text}");
        let (_, kinds) = read(text, &Options::default());
        assert!(
            kinds.contains(&RepairKind::LatexEscape),
            "{text}: {kinds:?}"
        );
    }
}

#[test]
fn real_tabs_and_line_breaks_stay() {
    for (text, want) in [
        (r#"{"a": "Name\tScore\nAna\t91"}"#, "Name\tScore\nAna\t91"),
        (r#"{"a": "Send\tto the team"}"#, "Send\tto the team"),
        (r#"{"a": "Fruit\tan apple"}"#, "Fruit\tan apple"),
        (r#"{"a": "line\nline\rline"}"#, "line\nline\rline"),
    ] {
        assert_eq!(string(text), want, "{text}");
        let (_, kinds) = read(text, &Options::default());
        assert!(kinds.is_empty(), "{text}: {kinds:?}");
    }
    // A tab before a command name is a tab where nothing shows maths.
    assert_eq!(string(r#"{"a": "x\tan y"}"#), "x\tan y");
}

#[test]
fn maths_elsewhere_in_the_document_decides_a_lone_symbol() {
    let (value, _) = read(
        r#"{"symbol": "\theta", "formula": "\frac{1}{2}"}"#,
        &Options::default(),
    );
    assert_eq!(
        value.to_json(),
        r#"{"symbol":"\\theta","formula":"\\frac{1}{2}"}"#
    );
}

#[test]
fn with_other_faults_in_fences_and_single_quotes() {
    let text = "Here:\n```json\n{'answer': '$\\frac{a}{b}$', steps: ['\\theta = \\pi/2',],}\n```";
    let (value, kinds) = read(text, &Options::default());
    assert_eq!(
        value.to_json(),
        r#"{"answer":"$\\frac{a}{b}$","steps":["\\theta = \\pi/2"]}"#
    );
    assert!(kinds.contains(&RepairKind::LatexEscape), "{kinds:?}");
    // Cut off inside the formula.
    let (value, _) = read(r#"{"a": "$\frac{1}{2} + \beta"#, &Options::default());
    assert_eq!(value.to_json(), r#"{"a":"$\\frac{1}{2} + \\beta"}"#);
}

#[test]
fn off_and_at_level_none_it_is_rfc_8259s_reading() {
    let text = r#"{"a": "$\frac{a}{b}$"}"#;
    for options in [
        Options::default().latex(false),
        Options::default().level(RepairLevel::None),
    ] {
        let (value, kinds) = read(text, &options);
        let Value::Object(map) = value else { panic!() };
        assert_eq!(
            map["a"],
            Value::String("$\u{c}rac{a}{b}$".into()),
            "a form feed"
        );
        assert!(kinds.is_empty());
    }
    // Conservative reads it (it is cosmetic: the text as written).
    let (value, _) = read(text, &Options::default().level(RepairLevel::Conservative));
    assert_eq!(value.to_json(), r#"{"a":"$\\frac{a}{b}$"}"#);
    // Valid JSON, but not "nothing to repair" under the default options.
    assert!(!llmjson::is_valid_document(text));
    assert!(serde_json::from_str::<serde_json::Value>(text).is_ok());
}

#[test]
fn the_repaired_text_and_the_value_agree() {
    let text = r#"{"a": "$\frac{a}{b}$", "n": [1, 2]}"#;
    let repaired = llmjson::repair_to_string(text, &Options::default()).unwrap();
    assert_eq!(repaired, r#"{"a":"$\\frac{a}{b}$","n":[1,2]}"#);
}

#[test]
fn llmjsons_own_output_reads_back_as_the_same_value() {
    // A real tab before `an apple`, a form feed before `rac{`: written so that no reader takes
    // them for LaTeX.
    for s in [
        "Fruit\tan apple",
        "\u{c}rac{a}{b}",
        "\u{8}eta",
        "x\n\nabla",
        "\ttab",
    ] {
        let text = Value::Object(
            [("a".to_string(), Value::String(s.into()))]
                .into_iter()
                .collect(),
        )
        .to_json();
        let (back, kinds) = read(&text, &Options::default());
        assert_eq!(back.to_json(), text, "{s:?}");
        assert!(kinds.is_empty(), "{s:?}: {kinds:?}");
        let independent: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(independent["a"], s);
    }
    assert_eq!(
        Value::String("Fruit\tan apple".into()).to_json(),
        r#""Fruit\u0009an apple""#
    );
    assert_eq!(Value::String("a\tb".into()).to_json(), r#""a\tb""#);
}

#[test]
fn a_stream_finishes_as_parse_reads_it() {
    let reply = r#"{"answer": "$\frac{a}{b} + \beta$", "table": "Name\tScore\nAna\t91"}"#;
    let once = parse(reply, &Options::default()).unwrap();
    for chunk in [1, 3, 7, 64] {
        let mut stream = llmjson::StreamParser::new(Options::default());
        for piece in reply.as_bytes().chunks(chunk) {
            stream.feed(std::str::from_utf8(piece).unwrap()).unwrap();
        }
        let finished = stream.finish().unwrap();
        assert_eq!(finished.value, once.value, "chunks of {chunk}");
        assert_eq!(finished.repairs, once.repairs);
    }
}

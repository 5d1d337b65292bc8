//! On input serde_json accepts, llmjson (at every level) gives the same value with no repairs,
//! unless the input holds a LaTeX command collision (`\frac`, `\beta`; `\theta` where its
//! string or document shows maths): then, with the `latex` option on (the default) and at a
//! level that repairs, the only repairs are `latex_escape` and the value differs from serde_json's
//! only where a control character JSON's escape made (`\f`, `\b`, `\t`, `\n`, `\r`) became the
//! backslash and letter the model wrote. With `latex` off, or at level `none`, the value is
//! serde_json's exactly. At level `none` llmjson accepts nothing serde_json rejects.
#![no_main]
use libfuzzer_sys::fuzz_target;
use llmjson::{Options, RepairKind, RepairLevel};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match serde_json::from_str::<Value>(text) {
        Ok(expected) => {
            if depth(&expected) > 100 {
                return;
            }
            for level in [RepairLevel::None, RepairLevel::Conservative, RepairLevel::Full] {
                for latex in [false, true] {
                    let options = Options::default().level(level).latex(latex);
                    let parsed = llmjson::parse(text, &options)
                        .unwrap_or_else(|e| panic!("valid JSON refused at {level:?}: {e}"));
                    // llmjson's exact digits must survive its own writer and reader, under the
                    // same options.
                    let written = parsed.value.to_json();
                    let back = llmjson::parse(&written, &options).expect("own output reads back");
                    assert_eq!(back.value.to_json(), written);
                    let as_latex = parsed.repairs.iter().any(|r| r.kind == RepairKind::LatexEscape);
                    assert!(
                        parsed.repairs.iter().all(|r| r.kind == RepairKind::DuplicateKey
                            || r.kind == RepairKind::LatexEscape),
                        "repairs on valid JSON at {level:?}: {:?}",
                        parsed.repairs
                    );
                    // serde_json (default features) holds numbers as f64: compared after the
                    // same conversion.
                    let got = Value::from(&parsed.value);
                    if as_latex {
                        assert!(latex && level != RepairLevel::None, "LaTeX read when off");
                        assert!(latex_twin(&got, &expected), "{got:?} vs {expected:?}");
                    } else {
                        assert_eq!(got, expected, "value differs at {level:?}");
                    }
                }
            }
        }
        // serde_json (default features) refuses numbers beyond f64's range; they are valid JSON,
        // and llmjson keeps their digits.
        Err(e) if e.to_string().contains("number out of range") => {}
        Err(_) => {
            if let Ok(parsed) = llmjson::parse(text, &Options::strict()) {
                // Level none locates (fences, <think>) before parsing strictly: only then may it
                // accept what serde_json refuses.
                let located = &text[parsed.span.clone()];
                let again: Result<Value, _> = serde_json::from_str(located);
                assert!(
                    again.is_ok()
                        || again.is_err_and(|e| e.to_string().contains("number out of range")),
                    "level none accepted invalid JSON: {located:?}"
                );
            }
        }
    }
});

/// `latex` is `rfc` with some of its JSON-escape control characters read as the backslash and
/// letter that were written.
fn latex_twin(latex: &Value, rfc: &Value) -> bool {
    match (latex, rfc) {
        (Value::String(l), Value::String(r)) => {
            let mut l = l.chars().peekable();
            for c in r.chars() {
                let letter = match c {
                    '\u{8}' => 'b',
                    '\u{c}' => 'f',
                    '\n' => 'n',
                    '\r' => 'r',
                    '\t' => 't',
                    _ => {
                        if l.next() != Some(c) {
                            return false;
                        }
                        continue;
                    }
                };
                match l.next() {
                    Some(x) if x == c => {}
                    Some('\\') if l.next() == Some(letter) => {}
                    _ => return false,
                }
            }
            l.next().is_none()
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| latex_twin(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().zip(b).all(|((ka, va), (kb, vb))| {
                    latex_twin(&Value::String(ka.clone()), &Value::String(kb.clone()))
                        && latex_twin(va, vb)
                })
        }
        (a, b) => a == b,
    }
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => 1 + o.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

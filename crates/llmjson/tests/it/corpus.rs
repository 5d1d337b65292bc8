//! The shared corpora (`../shared/corpora`, or `LLMJSON_CORPORA`): seeds, jsonrepair's suite
//! and JSONTestSuite, run in place and scored by value.

use base64::Engine;
use llmjson::{Options, RepairLevel, Truncation};
use serde_json::Value;
use std::path::PathBuf;

pub struct Case {
    pub id: String,
    pub category: String,
    pub input: Vec<u8>,
    pub expected: Option<Value>,
    pub must_fail: bool,
    pub options: Options,
}

pub fn corpora_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("LLMJSON_CORPORA")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpora")
        });
    if dir.join("seeds.jsonl").exists() {
        Some(dir)
    } else if std::env::var("LLMJSON_REQUIRE_CORPORA").as_deref() == Ok("1") {
        panic!(
            "corpora not found at {} and LLMJSON_REQUIRE_CORPORA=1",
            dir.display()
        );
    } else {
        eprintln!(
            "\n!!!!!!!! NOTICE: corpora not found at {}; corpus tests did not run !!!!!!!!\n",
            dir.display()
        );
        None
    }
}

pub fn load(name: &str) -> Option<Vec<Case>> {
    let dir = corpora_dir()?;
    let text = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).expect("readable corpus");
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(case)
            .collect(),
    )
}

fn case(line: &str) -> Case {
    let row: Value = serde_json::from_str(line).expect("corpus line is JSON");
    let input = match (&row["input"], &row["input_b64"]) {
        (Value::String(s), _) => s.as_bytes().to_vec(),
        (_, Value::String(b)) => base64::engine::general_purpose::STANDARD
            .decode(b)
            .expect("base64"),
        _ => Vec::new(),
    };
    let opts = &row["options"];
    let mut options = Options::default();
    if opts["strict"] == true {
        options = options.level(RepairLevel::None);
    }
    if let Some(level) = opts["level"].as_str() {
        options = options.level(level.parse().expect("level"));
    }
    if opts["truncation"] == "drop" {
        options = options.truncation(Truncation::Drop);
    }
    if let Some(r) = opts["max_removed_ratio"].as_f64() {
        options = options.max_removed_ratio(r);
    }
    Case {
        id: row["id"].as_str().unwrap_or_default().to_string(),
        category: row["category"].as_str().unwrap_or_default().to_string(),
        input,
        expected: (row["expected_is_json"] == true).then(|| row["expected_value"].clone()),
        must_fail: row["must_fail"] == true,
        options,
    }
}

/// Values equal, numbers compared by their numeric value (the corpora were written by Python,
/// which normalises `2300e3` to `2300000.0`).
pub fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.to_string() == y.to_string()
                || matches!((x.as_f64(), y.as_f64()), (Some(p), Some(q)) if p == q)
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w)))
        }
        _ => a == b,
    }
}

/// Runs a case: `Ok(())` when llmjson agrees with the expectation, else what it did.
pub fn run(case: &Case) -> Result<(), String> {
    let result = llmjson::parse_bytes(&case.input, &case.options);
    if case.id.starts_with("jsontestsuite/") {
        return match case.category.as_str() {
            "y" => {
                let expected: Value = serde_json::from_slice(&case.input).expect("y parses");
                match result {
                    Ok(p) if p.value == expected => Ok(()),
                    Ok(p) => Err(format!("got {}", p.value)),
                    Err(e) => Err(format!("error: {e}")),
                }
            }
            "n" => match result {
                Err(_) => Ok(()),
                Ok(p) => Err(format!("accepted as {}", p.value)),
            },
            _ => Ok(()),
        };
    }
    match (result, case.must_fail) {
        (Err(_), true) => Ok(()),
        (Ok(p), true) => Err(format!("expected an error, got {}", p.value)),
        (Err(e), false) => Err(format!("error: {e}")),
        (Ok(p), false) => match &case.expected {
            Some(want) if !same_value(&p.value, want) => {
                Err(format!("got {} want {}", p.value, want))
            }
            _ => Ok(()),
        },
    }
}

pub fn score(name: &str) -> Option<(usize, Vec<(String, String)>)> {
    let cases = load(name)?;
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(why) = run(case) {
            failures.push((case.id.clone(), why));
        }
    }
    let total = cases.len();
    println!("{name}: {}/{total} pass", total - failures.len());
    if std::env::var_os("LLMJSON_SHOW_FAILURES").is_some() {
        for (id, why) in &failures {
            println!("  FAIL {id}: {why}");
        }
    }
    Some((total, failures))
}

#[test]
fn seeds_all_pass() {
    let Some((_, failures)) = score("seeds") else {
        return;
    };
    assert!(failures.is_empty(), "seed failures: {failures:#?}");
}

#[test]
fn jsontestsuite_y_parse_like_serde_and_n_are_refused() {
    let Some((_, failures)) = score("jsontestsuite") else {
        return;
    };
    assert!(failures.is_empty(), "JSONTestSuite failures: {failures:#?}");
}

#[test]
fn jsonrepair_suite_at_least_90_percent() {
    let Some((total, failures)) = score("jsonrepair") else {
        return;
    };
    let passed = total - failures.len();
    assert!(
        passed * 100 >= total * 90,
        "jsonrepair: {passed}/{total} pass, below 90%: {failures:#?}"
    );
}

//! Scores `verify` on a file of labelled grounding pairs (JSON Lines): the generator's
//! (`cargo run -p llmjson-pairs`), the hand-labelled sets in `tests/verify/`, or any set kept
//! outside the repository.
//!
//! ```sh
//! cargo run --release -p llmjson --example grounding_pairs -- tests/verify/pairs_dev.jsonl [--show]
//! ```
//!
//! Each line holds `evidence`, `answer`, `grounded`, and how the evidence is given:
//! `evidence_format`, `source` or `format` (`text`, `csv`, `json`); `class` and `language` group the
//! scores. Prints accuracy, precision and recall of "not grounded" overall and per class, and
//! with `--show` every wrong judgement with the verifier's reasons.

use llmjson::verify::{verify, Evidence, VerifyOptions};
use llmjson::Options;
use serde_json::Value;
use std::collections::BTreeMap;

#[derive(Default)]
struct Tally {
    tp: usize,
    fp: usize,
    tn: usize,
    fn_: usize,
}

impl Tally {
    fn add(&mut self, grounded: bool, delivered: bool) {
        match (grounded, delivered) {
            (false, false) => self.tp += 1,
            (true, false) => self.fp += 1,
            (true, true) => self.tn += 1,
            (false, true) => self.fn_ += 1,
        }
    }
    fn line(&self, name: &str) -> String {
        let total = self.tp + self.fp + self.tn + self.fn_;
        let pct = |a: usize, b: usize| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        format!(
            "{name:<20} {:>4} pairs  accuracy {:>5.1}%  precision {:>5.1}%  recall {:>5.1}%  (delivered ungrounded {}, blocked grounded {})",
            total,
            pct(self.tp + self.tn, total),
            pct(self.tp, self.tp + self.fp),
            pct(self.tp, self.tp + self.fn_),
            self.fn_,
            self.fp
        )
    }
}

fn evidence_of(case: &Value) -> Result<Evidence, String> {
    let text = case["evidence"].as_str().ok_or("no evidence")?;
    let source = case["source"]
        .as_str()
        .or(case["evidence_format"].as_str())
        .or(case["format"].as_str())
        .unwrap_or("text");
    let mut e = Evidence::new();
    match source {
        "json" => {
            let v = llmjson::parse_value(text, &Options::default()).map_err(|e| e.to_string())?;
            e.add_json("evidence", &v.value)
                .map_err(|e| e.to_string())?;
        }
        "csv" => {
            e.add_csv("evidence", text).map_err(|e| e.to_string())?;
        }
        _ => {
            e.add_text("evidence", text).map_err(|e| e.to_string())?;
        }
    }
    Ok(e)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = args.iter().any(|a| a == "--show");
    let mut all = Tally::default();
    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_lang: BTreeMap<String, Tally> = BTreeMap::new();
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        let text = std::fs::read_to_string(path).expect("a readable file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: Value = serde_json::from_str(line).expect("a JSON line");
            let grounded = case["grounded"].as_bool().expect("grounded");
            let evidence = match evidence_of(&case) {
                Ok(e) => e,
                Err(why) => {
                    println!("SKIP {}: {why}", case["id"]);
                    continue;
                }
            };
            let answer = case["answer"].as_str().unwrap_or_default();
            let verdict = verify(answer, &evidence, &VerifyOptions::default()).expect("verify");
            let delivered = verdict.verification.verified;
            all.add(grounded, delivered);
            let class = case["class"].as_str().unwrap_or("-").to_string();
            by_class
                .entry(class.clone())
                .or_default()
                .add(grounded, delivered);
            let lang = case["language"].as_str().unwrap_or("-").to_string();
            by_lang.entry(lang).or_default().add(grounded, delivered);
            if show && grounded != delivered {
                println!(
                    "\nWRONG {} [{class}] labelled {}, judged {}\n  evidence: {}\n  answer:   {}\n  expected wrong: {}",
                    case["id"],
                    if grounded { "grounded" } else { "NOT grounded" },
                    if delivered { "grounded" } else { "not grounded" },
                    case["evidence"].as_str().unwrap_or_default().replace('\n', "\n            "),
                    answer,
                    case["wrong"]
                );
                for n in verdict.verification.numbers.iter().filter(|n| !n.matched) {
                    println!(
                        "  unmatched {:?} ({:?}, {}) {:?}",
                        n.at.number,
                        n.issue,
                        n.at.reason.unwrap_or("-"),
                        n.at.context
                    );
                }
            }
        }
    }
    println!("\n{}", all.line("all"));
    for (c, t) in &by_class {
        println!("{}", t.line(c));
    }
    for (l, t) in &by_lang {
        println!("{}", t.line(l));
    }
}

//! Verifies one answer against one evidence text and prints how both were read and the
//! verification (a debugging aid):
//! `cargo run -p llmjson --example verify_one -- EVIDENCE ANSWER [text|json|csv]`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (evidence, answer) = (&args[0], &args[1]);
    let mut e = llmjson::verify::Evidence::new();
    match args.get(2).map(String::as_str) {
        Some("json") => {
            let v = llmjson::parse_value(evidence, &llmjson::Options::default()).unwrap();
            e.add_json("e", &v.value).unwrap();
        }
        Some("csv") => {
            e.add_csv("e", evidence).unwrap();
        }
        _ => {
            e.add_text("e", evidence).unwrap();
            println!("evidence:");
            for l in llmjson::verify::explain(evidence, false, &e) {
                println!("  {l}");
            }
        }
    }
    println!("answer:");
    for l in llmjson::verify::explain(answer, true, &e) {
        println!("  {l}");
    }
    let v = llmjson::verify::verify(
        answer,
        &e,
        &llmjson::verify::VerifyOptions::default().report_only(),
    )
    .unwrap();
    for n in &v.verification.numbers {
        println!(
            "{} {:?} matched={} issue={:?} reason={:?} theirs={:?}",
            n.at.number, n.readings, n.matched, n.issue, n.at.reason, n.at.evidence_subject
        );
    }
    println!("verified: {}", v.verification.verified);
}

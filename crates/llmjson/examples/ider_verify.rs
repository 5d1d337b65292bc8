//! Seed 004's case: an IDER answer quoting a measurement the project's evidence does not hold is
//! blocked (fail closed), with the numbers that had no evidence, their context, and the
//! diagnostics record under the seed's own field names.
//!
//! ```sh
//! cargo run -q -p llmjson --example ider_verify
//! ```

use llmjson::verify::{Evidence, Language, VerifyOptions};
use llmjson::verify_diagnosed;

const EVIDENCE: &str = include_str!("../../../examples/ider/evidence.txt");
const ANSWER: &str = include_str!("../../../examples/ider/answer.txt");

fn main() -> Result<(), llmjson::Error> {
    let mut evidence = Evidence::new();
    evidence.add_text("experimento-12.txt", EVIDENCE)?;
    let options = VerifyOptions::default()
        .fail_closed()
        .language(Language::Pt);
    let (verdict, diagnostics) = verify_diagnosed(ANSWER, &evidence, &options);
    let verdict = verdict?;
    println!("{}\n", verdict.output);
    let v = &verdict.verification;
    println!(
        "verified: {} ({} numbers, {} matched, {} unmatched, {} skipped as trivial)",
        v.verified, v.numbers_extracted, v.matched, v.unmatched, v.skipped
    );
    for example in &v.unmatched_examples {
        println!(
            "  unmatched {:?} in \"…{}…\"",
            example.number, example.context
        );
    }
    let record = serde_json::to_string_pretty(&diagnostics).unwrap_or_default();
    println!("\n_diagnostics: {record}");
    Ok(())
}

//! `llmjson verify`: are the answer's numbers in the evidence? Exit 0 if they are, 1 if not
//! (or the answer was blocked), 2 on a usage error.

use super::{read_input, write_diagnostics};
use crate::args::{ReportArg, VerifyArgs};
use crate::Failure;
use std::io::Write;
use std::time::Instant;

pub fn run(args: &VerifyArgs) -> Result<(), Failure> {
    if args.grounding.evidence.is_empty() {
        return Err(Failure::Usage(
            "verify needs evidence: --evidence FILE...".to_string(),
        ));
    }
    let evidence = args.grounding.evidence()?;
    let options = args.grounding.verify_options();
    let bytes = read_input(args.answer.as_deref(), options.max_size)?;
    let answer = std::str::from_utf8(&bytes).map_err(|e| {
        Failure::Usage(format!(
            "the answer is not UTF-8 (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let start = Instant::now();
    let result = if args.json {
        // The answer is a model's JSON reply: locate and repair it, then check its values.
        llmjson::parse(answer, &llmjson::Options::default()).and_then(|parsed| {
            let verification = llmjson::verify::verify_value(&parsed.value, &evidence, &options)?;
            let text = parsed.value.to_json();
            Ok(llmjson::verify::Verdict::of(text, verification, &options))
        })
    } else {
        llmjson::verify::verify(answer, &evidence, &options)
    };
    let record = llmjson::Diagnostics::of_verify(&result, start.elapsed());
    write_diagnostics(args.diagnostics.as_deref(), &record)?;
    let verdict = result?;
    let mut out = std::io::stdout().lock();
    match args.report {
        ReportArg::Text => {
            out.write_all(verdict.output.as_bytes())?;
            if !verdict.output.ends_with('\n') {
                out.write_all(b"\n")?;
            }
        }
        ReportArg::Json => {
            serde_json::to_writer_pretty(&mut out, &verdict)
                .map_err(|e| Failure::Usage(format!("cannot write the report: {e}")))?;
            out.write_all(b"\n")?;
        }
    }
    out.flush()?;
    let v = &verdict.verification;
    if v.verified {
        return Ok(());
    }
    let mut err = std::io::stderr().lock();
    match &verdict.fail_closed {
        None => {
            for issue in &v.issues {
                writeln!(err, "llmjson: not grounded: {issue}")?;
            }
        }
        // The blocking message is on standard output, in place of the answer: one line here
        // says why the exit is 1.
        Some(blocked) => writeln!(
            err,
            "llmjson: answer blocked ({}): {} of {} numbers are not grounded in the evidence",
            blocked.reason, v.unmatched, v.numbers_extracted
        )?,
    }
    Err(Failure::Silent(1))
}

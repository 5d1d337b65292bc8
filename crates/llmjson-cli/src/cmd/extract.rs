//! `llmjson extract`: print the located JSON text exactly as it appears in the reply.

use super::read_input;
use crate::args::ExtractArgs;
use crate::Failure;

use std::io::Write;

pub fn run(args: &ExtractArgs) -> Result<(), Failure> {
    args.policy.refuse_unused("extract", true, false)?;
    let options = args.policy.options()?;
    let bytes = read_input(args.file.as_deref(), options.max_size)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = std::io::stdout().lock();
    if args.policy.all {
        // JSON Lines: one value per line. A value written over several lines is printed
        // compact (its own text when that is valid JSON, otherwise as repaired).
        for parsed in llmjson::parse_all(&text, &options)? {
            let located = &text[parsed.span.clone()];
            if !located.contains(['\n', '\r']) {
                out.write_all(located.as_bytes())?;
            } else {
                let value = located.parse::<llmjson::Value>().unwrap_or(parsed.value);
                out.write_all(value.to_json().as_bytes())?;
            }
            out.write_all(b"\n")?;
        }
    } else {
        let located = llmjson::extract(&text, &options)?;
        out.write_all(located.text.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

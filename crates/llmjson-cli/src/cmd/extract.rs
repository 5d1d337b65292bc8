//! `llmjson extract`: print the located JSON text exactly as it appears in the reply.

use super::read_input;
use crate::args::ExtractArgs;
use crate::Failure;
use std::io::Write;

pub fn run(args: &ExtractArgs) -> Result<(), Failure> {
    let options = args.policy.options()?;
    let bytes = read_input(args.file.as_deref(), options.max_size)?;
    let text = String::from_utf8_lossy(&bytes);
    let mut out = std::io::stdout().lock();
    if args.policy.all {
        for parsed in llmjson::parse_all(&text, &options)? {
            out.write_all(&text.as_bytes()[parsed.span])?;
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

//! `llmjson repair`: locate, repair, print the JSON on one line (or `--pretty`); with
//! `--stream`, the value so far as the reply arrives, then the final value.

use super::{note_invalid_utf8, parse_recorded, read_recorded, write_diagnostics};
use crate::args::{Every, RepairArgs};
use crate::output::{write_json, write_log};
use crate::Failure;
use llmjson::Value;
use std::io::Write;

pub fn run(args: &RepairArgs) -> Result<(), Failure> {
    repair(args).map_err(|f| f.reported_as(args.errors))
}

fn repair(args: &RepairArgs) -> Result<(), Failure> {
    let options = args.policy.options()?;
    if args.stream {
        return repair_stream(args, options);
    }
    let bytes = read_recorded(
        args.file.as_deref(),
        &options,
        args.policy.diagnostics.as_deref(),
    )?;
    let parsed = if args.all {
        llmjson::parse_all_bytes(&bytes, &options)?
    } else {
        let target = args.policy.diagnostics.as_deref();
        vec![parse_recorded(&bytes, &options, target)?]
    };
    finish(args, parsed)
}

/// Logs, prints the value, applies `--fail-on`.
fn finish(args: &RepairArgs, parsed: Vec<llmjson::Parsed>) -> Result<(), Failure> {
    if args.log {
        let mut err = std::io::stderr().lock();
        for p in &parsed {
            write_log(&mut err, &p.repairs, args.log_format)?;
        }
    }
    if let Some(first) = parsed.first() {
        note_invalid_utf8(&first.repairs, args.log);
    }
    let refused = args
        .policy
        .fail_on
        .and_then(|check| parsed.iter().find_map(|p| check.refuses(p)));
    let value = value_of(parsed, args.all);
    let mut out = std::io::stdout().lock();
    write_json(&mut out, &value, args.pretty, args.ascii)?;
    out.write_all(b"\n")?;
    out.flush()?;
    match refused {
        Some(why) => Err(Failure::Refused(why)),
        None => Ok(()),
    }
}

/// `--stream`: each read is fed as it arrives; the value so far is printed as `--every` says
/// (only when it changed), and the final value — `repair`'s, byte for byte — last.
fn repair_stream(args: &RepairArgs, options: llmjson::Options) -> Result<(), Failure> {
    use std::io::Read;
    // The live view is read from snapshots: events (what the decision procedure settled, a
    // window behind) are not needed.
    let mut stream = llmjson::StreamParser::new(options.clone()).without_events();
    let mut input: Box<dyn Read> = match args.file.as_deref() {
        Some(path) if path != std::path::Path::new("-") => Box::new(
            std::fs::File::open(path)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?,
        ),
        _ => Box::new(std::io::stdin().lock()),
    };
    let mut buf = vec![0u8; 64 << 10];
    let mut last_printed: Option<Value> = None;
    let mut completed: Vec<String> = Vec::new();
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Failure::Usage(format!("cannot read the input: {e}"))),
        };
        let chunk = &buf[..n];
        stream.feed_bytes(chunk)?;
        let due = match args.every {
            Every::Chunk => true,
            Every::Line => chunk.contains(&b'\n'),
            // Read below: a value completed in the live view.
            Every::Value => true,
        };
        if !due {
            continue;
        }
        let snapshot = stream.snapshot();
        let shown = if args.every == Every::Value {
            // What is complete changes only when a value completes (or a repeated key replaces
            // one); only the complete values are shown, never a string still being written.
            if snapshot.complete == completed {
                continue;
            }
            completed.clone_from(&snapshot.complete);
            snapshot.complete_value()
        } else {
            snapshot.value
        };
        if let Some(value) = shown {
            if last_printed.as_ref() != Some(&value) {
                let mut out = std::io::stdout().lock();
                write_json(&mut out, &value, false, args.ascii)?;
                out.write_all(b"\n")?;
                out.flush()?;
                last_printed = Some(value);
            }
        }
    }
    let finished = stream.finish_with_events();
    let record = llmjson::Diagnostics::of_stream(&finished, &options);
    write_diagnostics(args.policy.diagnostics.as_deref(), &record)?;
    finish(args, vec![finished.result?])
}

fn value_of(parsed: Vec<llmjson::Parsed>, all: bool) -> Value {
    if all {
        Value::Array(parsed.into_iter().map(|p| p.value).collect())
    } else {
        parsed
            .into_iter()
            .next()
            .map(|p| p.value)
            .unwrap_or(Value::Null)
    }
}

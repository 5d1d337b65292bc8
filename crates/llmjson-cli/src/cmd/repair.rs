//! `llmjson repair`: locate, repair, print the JSON on one line (or `--pretty`).

use super::{parse_recorded, read_input};
use crate::args::RepairArgs;
use crate::output::{write_json, write_log};
use crate::Failure;
use llmjson::Value;
use std::io::Write;

pub fn run(args: &RepairArgs) -> Result<(), Failure> {
    repair(args).map_err(|f| f.reported_as(args.errors))
}

fn repair(args: &RepairArgs) -> Result<(), Failure> {
    let options = args.policy.options()?;
    let bytes = read_input(args.file.as_deref(), options.max_size)?;
    let parsed = if args.policy.all {
        let text = String::from_utf8_lossy(&bytes);
        if options.level == llmjson::RepairLevel::None && std::str::from_utf8(&bytes).is_err() {
            // Level none refuses bad UTF-8: let the library say where.
            vec![llmjson::parse_bytes(&bytes, &options)?]
        } else {
            llmjson::parse_all(&text, &options)?
        }
    } else {
        let target = args.policy.diagnostics.as_deref();
        vec![parse_recorded(&bytes, &options, target)?]
    };
    if args.log {
        let mut err = std::io::stderr().lock();
        for p in &parsed {
            write_log(&mut err, &p.repairs, args.log_format)?;
        }
    }
    let refused = args
        .policy
        .fail_on
        .and_then(|check| parsed.iter().find_map(|p| check.refuses(p)));
    let value = value_of(parsed, args.policy.all);
    let mut out = std::io::stdout().lock();
    write_json(&mut out, &value, args.pretty, args.ascii)?;
    out.write_all(b"\n")?;
    out.flush()?;
    match refused {
        Some(why) => Err(Failure::Refused(why)),
        None => Ok(()),
    }
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

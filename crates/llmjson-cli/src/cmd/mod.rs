//! One module per subcommand; `run` dispatches.

mod batch;
mod extract;
mod repair;
mod report;
mod validate;
mod verify;

use crate::args::{Cli, Command};
use crate::Failure;
use std::io::{Read, Write};
use std::path::Path;

pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Repair(args) => repair::run(&args),
        Command::Extract(args) => extract::run(&args),
        Command::Validate(args) => validate::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Batch(args) => batch::run(&args),
        Command::Report(args) => report::run(&args),
    }
}

/// Reads the reply from a file, or from standard input for `-` or no file. Reads at most one
/// byte past `max_size`, so an oversized input is refused without reading all of it.
pub fn read_input(file: Option<&Path>, max_size: usize) -> Result<Vec<u8>, Failure> {
    let cap = (max_size as u64).saturating_add(1);
    let mut bytes = Vec::new();
    match file {
        Some(path) if path != Path::new("-") => {
            let file = std::fs::File::open(path)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
            // Refuse an oversized file by its real size, without reading it.
            if let Ok(meta) = file.metadata() {
                if meta.len() > max_size as u64 {
                    return Err(Failure::NoJson(llmjson::Error::TooLarge {
                        size: usize::try_from(meta.len()).unwrap_or(usize::MAX),
                        limit: max_size,
                    }));
                }
            }
            file.take(cap)
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        }
        _ => {
            std::io::stdin()
                .lock()
                .take(cap)
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::Usage(format!("cannot read standard input: {e}")))?;
        }
    }
    // More than the limit arrived on a stream: its real size is unknown (reading on would defeat
    // the limit), so the message says "more than", never a wrong number.
    if bytes.len() > max_size {
        return Err(Failure::Oversized { limit: max_size });
    }
    Ok(bytes)
}

/// [`read_input`] for a command that writes a diagnostics record: an input refused before any
/// parse (over the size limit) still gets its record, as at every other door.
pub fn read_recorded(
    file: Option<&Path>,
    options: &llmjson::Options,
    target: Option<&Path>,
) -> Result<Vec<u8>, Failure> {
    let start = std::time::Instant::now();
    let record = |error: &llmjson::Error| {
        let record = llmjson::Diagnostics::of_error(error, options, start.elapsed());
        write_diagnostics(target, &record)
    };
    match read_input(file, options.max_size) {
        Err(Failure::NoJson(error)) => {
            record(&error)?;
            Err(Failure::NoJson(error))
        }
        Err(Failure::Oversized { limit }) => {
            // Its real size is unknown (reading stopped past the limit): the record says one
            // byte more, the message "more than".
            record(&llmjson::Error::TooLarge {
                size: limit.saturating_add(1),
                limit,
            })?;
            Err(Failure::Oversized { limit })
        }
        other => other,
    }
}

/// Writes a diagnostics record as one JSON line to `target` (standard error for `-`).
pub fn write_diagnostics(
    target: Option<&Path>,
    diagnostics: &llmjson::Diagnostics,
) -> Result<(), Failure> {
    let Some(target) = target else {
        return Ok(());
    };
    let mut line = serde_json::to_string(diagnostics)
        .map_err(|e| Failure::Usage(format!("cannot write the diagnostics: {e}")))?;
    line.push('\n');
    if target == Path::new("-") {
        std::io::stderr().lock().write_all(line.as_bytes())?;
    } else {
        std::fs::write(target, line).map_err(|e| {
            Failure::Usage(format!(
                "cannot write the diagnostics to {}: {e}",
                target.display()
            ))
        })?;
    }
    Ok(())
}

/// Says on standard error that the reply's bytes were not all UTF-8 and were replaced (the
/// `invalid_utf8` repair), unless the repair log, printed with `--log`, says it already.
pub fn note_invalid_utf8(repairs: &[llmjson::Repair], logged: bool) {
    if logged {
        return;
    }
    if let Some(r) = repairs
        .iter()
        .find(|r| r.kind == llmjson::RepairKind::InvalidUtf8)
    {
        let _ = writeln!(
            std::io::stderr(),
            "llmjson: the reply is not UTF-8 (line {}, column {}): its bad bytes became U+FFFD \
             (--strict-utf8 refuses such a reply)",
            r.line,
            r.column
        );
    }
}

/// `parse_bytes`, timed, its diagnostics record written where `--diagnostics` says.
pub fn parse_recorded(
    bytes: &[u8],
    options: &llmjson::Options,
    target: Option<&Path>,
) -> Result<llmjson::Parsed, Failure> {
    let start = std::time::Instant::now();
    let result = llmjson::parse_bytes(bytes, options);
    let record = llmjson::Diagnostics::of_parse(&result, options, start.elapsed());
    write_diagnostics(target, &record)?;
    Ok(result?)
}

//! The `llmjson` command: repair or extract the JSON in a language model's reply.
//!
//! `main` maps errors to exit codes in one place: 0 success, 1 no usable JSON (the library's
//! error, printed once with an `llmjson:` prefix), 2 usage or I/O errors. A closed stdout
//! (broken pipe) is not an error.

mod args;
mod cmd;
mod output;
mod store;

/// The parser allocates a string per key and value and a map per object: mimalloc's small-object
/// paths are much faster than glibc's for that (the library leaves the allocator to its users).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::io::{self, Write};
use std::process::ExitCode;

/// Everything that can stop a command, by exit code.
#[derive(Debug)]
pub enum Failure {
    /// No usable JSON: exit 1.
    NoJson(llmjson::Error),
    /// No usable JSON, reported as JSON Lines on standard output: exit 1.
    NoJsonReported(llmjson::Error),
    /// Bad arguments or unreadable input: exit 2.
    Usage(String),
    /// The same, reported as a JSON line on standard output.
    UsageReported(String),
    /// The schema given is not a valid JSON Schema (or cannot be read): exit 2, kind
    /// `invalid_schema` as at every other door.
    InvalidSchema(String),
    /// The same, reported as a JSON line on standard output.
    InvalidSchemaReported(String),
    /// Writing the output failed.
    Io(io::Error),
    /// The input is larger than the limit (its exact size unknown: reading stopped there).
    Oversized {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The same, reported as JSON Lines on standard output.
    OversizedReported {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The value was printed, but a `--fail-on` check refused it: exit 1 with the reason.
    Refused(&'static str),
    /// Already reported (on standard output or error): exit with this code, printing nothing.
    Silent(u8),
}

impl Failure {
    /// The same failure, reported in `format` (JSON Lines on standard output for `json`).
    pub fn reported_as(self, format: args::LogFormat) -> Failure {
        match (self, format) {
            (Failure::NoJson(e), args::LogFormat::Json) => Failure::NoJsonReported(e),
            (Failure::Oversized { limit }, args::LogFormat::Json) => {
                Failure::OversizedReported { limit }
            }
            (Failure::Usage(m), args::LogFormat::Json) => Failure::UsageReported(m),
            (Failure::InvalidSchema(m), args::LogFormat::Json) => Failure::InvalidSchemaReported(m),
            (other, _) => other,
        }
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<llmjson::Error> for Failure {
    fn from(e: llmjson::Error) -> Self {
        Failure::NoJson(e)
    }
}

fn main() -> ExitCode {
    let cli = args::parse();
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            let (code, message) = match failure {
                Failure::NoJsonReported(e) => {
                    let _ = output::write_error_lines(&mut io::stdout().lock(), &e);
                    return ExitCode::from(1);
                }
                Failure::Silent(code) => return ExitCode::from(code),
                Failure::Refused(why) => (1, why.to_string()),
                Failure::Oversized { limit } => (1, format!("error: {}", oversized(limit))),
                Failure::OversizedReported { limit } => {
                    let line =
                        output::error_line("too_large", &oversized(limit), None, None, None, None);
                    let _ = writeln!(io::stdout().lock(), "{line}");
                    return ExitCode::from(1);
                }
                Failure::UsageReported(m) => {
                    let line = output::error_line("usage", &m, None, None, None, None);
                    let _ = writeln!(io::stdout().lock(), "{line}");
                    return ExitCode::from(2);
                }
                Failure::InvalidSchemaReported(m) => {
                    let line = output::error_line("invalid_schema", &m, None, None, None, None);
                    let _ = writeln!(io::stdout().lock(), "{line}");
                    return ExitCode::from(2);
                }
                Failure::InvalidSchema(m) => (2, m),
                Failure::NoJson(e) => (1, output::error_text(&e)),
                Failure::Usage(m) => (2, m),
                Failure::Io(e) => (2, format!("error: {e}")),
            };
            let _ = writeln!(io::stderr(), "llmjson: {message}");
            ExitCode::from(code)
        }
    }
}

fn oversized(limit: usize) -> String {
    format!(
        "input is more than {limit} bytes, over the limit of {limit} bytes (--max-size raises it)"
    )
}

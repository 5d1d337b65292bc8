//! Command-line arguments (clap derive), and how they become library options.

use crate::Failure;
use clap::{Args, Parser, Subcommand, ValueEnum};
use llmjson::{Coercion, DuplicateKeys, Options, RepairLevel, Schema, Truncation};
use std::path::PathBuf;

/// Turn what a language model wrote into JSON a program can trust.
#[derive(Debug, Parser)]
#[command(name = "llmjson", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Locate the JSON in a reply, repair it, and print it on one line.
    Repair(RepairArgs),
    /// Locate the JSON in a reply and print its text untouched.
    Extract(ExtractArgs),
    /// Check a reply against a JSON Schema (after repair and coercion, unless turned off):
    /// exit 0 when it fits, 1 when it does not (every violation reported), 2 on a usage error
    /// or an unreadable schema.
    Validate(ValidateArgs),
}

#[derive(Debug, Args)]
pub struct RepairArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Print indented JSON instead of one line.
    #[arg(long)]
    pub pretty: bool,
    /// Escape every non-ASCII character as \uXXXX.
    #[arg(long)]
    pub ascii: bool,
    /// Print the repair log to standard error.
    #[arg(long)]
    pub log: bool,
    /// Format of the repair log: `human`, or `json` (one JSON object per line).
    #[arg(long, value_enum, default_value_t = LogFormat::Human)]
    pub log_format: LogFormat,
    /// How to report a failure: `human` (standard error), or `json` (JSON Lines on standard
    /// output, one object per schema violation or one for any other error).
    #[arg(long, value_enum, default_value_t = LogFormat::Human)]
    pub errors: LogFormat,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

#[derive(Debug, Args)]
pub struct ValidateArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// How to report violations: `human` (standard error), or `json` (JSON Lines on standard
    /// output, one object per violation).
    #[arg(long, value_enum, default_value_t = LogFormat::Human)]
    pub errors: LogFormat,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// The reply to read; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub policy: PolicyArgs,
}

/// Options shared by the commands that locate and parse.
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// How much may be repaired. `LLMJSON_REPAIR=0` in the environment forces `none`.
    #[arg(long, value_enum, default_value_t = LevelArg::Full)]
    pub level: LevelArg,
    /// What to do with a value the reply cut off: complete it, or drop the last incomplete member.
    #[arg(long, value_enum, default_value_t = TruncationArg::Complete)]
    pub truncation: TruncationArg,
    /// Refuse a repair that discards more than this share (0–1) of the located JSON text.
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_REMOVED_RATIO, value_parser = ratio)]
    pub max_removed_ratio: f64,
    /// What to do with a key that appears twice in an object.
    #[arg(long, value_enum, default_value_t = DuplicateArg::Last)]
    pub duplicate_keys: DuplicateArg,
    /// Every JSON value in the reply, as one array.
    #[arg(long)]
    pub all: bool,
    /// Refuse inputs larger than this many bytes.
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// Refuse containers nested deeper than this (default: serde_json's own limit).
    #[arg(long, default_value_t = llmjson::DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// A JSON Schema file (drafts 7 and 2020-12): guides the repair, coerces the value to it,
    /// and refuses a value that does not fit.
    #[arg(long, value_name = "FILE")]
    pub schema: Option<PathBuf>,
    /// With a schema: `fit` coerces the value to it first (numeric strings to numbers, enum
    /// case, …); `validate-only` checks the value as repaired.
    #[arg(long, value_enum, default_value_t = CoercionArg::Fit)]
    pub coercion: CoercionArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CoercionArg {
    Fit,
    ValidateOnly,
}

fn ratio(s: &str) -> Result<f64, String> {
    let r: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if (0.0..=1.0).contains(&r) {
        Ok(r)
    } else {
        Err(format!("{r} is not between 0 and 1"))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    None,
    Conservative,
    Full,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TruncationArg {
    Complete,
    Drop,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DuplicateArg {
    Last,
    First,
    Error,
}

/// The kill switch: `LLMJSON_REPAIR=0` (or `false`, `off`, `no`) forces level `none`.
pub fn repair_disabled_by_env() -> bool {
    std::env::var("LLMJSON_REPAIR").is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "0" | "false" | "off" | "no"
        )
    })
}

impl PolicyArgs {
    /// The library options; reads and compiles the schema file, if any (a usage error if it
    /// cannot be read or is not a valid schema).
    pub fn options(&self) -> Result<Options, Failure> {
        let level = if repair_disabled_by_env() {
            RepairLevel::None
        } else {
            match self.level {
                LevelArg::None => RepairLevel::None,
                LevelArg::Conservative => RepairLevel::Conservative,
                LevelArg::Full => RepairLevel::Full,
            }
        };
        let options = Options::default()
            .level(level)
            .truncation(match self.truncation {
                TruncationArg::Complete => Truncation::Complete,
                TruncationArg::Drop => Truncation::Drop,
            })
            .max_removed_ratio(self.max_removed_ratio)
            .duplicate_keys(match self.duplicate_keys {
                DuplicateArg::Last => DuplicateKeys::Last,
                DuplicateArg::First => DuplicateKeys::First,
                DuplicateArg::Error => DuplicateKeys::Error,
            })
            .max_size(self.max_size)
            .max_depth(self.max_depth)
            .coercion(match self.coercion {
                CoercionArg::Fit => Coercion::Fit,
                CoercionArg::ValidateOnly => Coercion::ValidateOnly,
            });
        match &self.schema {
            None => Ok(options),
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    Failure::Usage(format!("cannot read the schema {}: {e}", path.display()))
                })?;
                let schema = Schema::from_json(&text)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
                Ok(options.schema(schema))
            }
        }
    }
}

//! One module per subcommand; `run` dispatches.

mod extract;
mod repair;
mod validate;

use crate::args::{Cli, Command};
use crate::Failure;
use std::io::Read;
use std::path::Path;

pub fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Repair(args) => repair::run(&args),
        Command::Extract(args) => extract::run(&args),
        Command::Validate(args) => validate::run(&args),
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
    Ok(bytes)
}

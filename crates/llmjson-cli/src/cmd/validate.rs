//! `llmjson validate`: does the reply fit the schema? Exit 0 if it does, 1 if not.

use super::read_input;
use crate::args::ValidateArgs;
use crate::Failure;

pub fn run(args: &ValidateArgs) -> Result<(), Failure> {
    let options = args.policy.options()?;
    if options.schema.is_none() {
        return Err(Failure::Usage(
            "validate needs a schema: --schema FILE".to_string(),
        ));
    }
    let bytes = read_input(args.file.as_deref(), options.max_size)?;
    llmjson::parse_bytes(&bytes, &options)
        .map(|_| ())
        .map_err(|e| Failure::NoJson(e).reported_as(args.errors))
}

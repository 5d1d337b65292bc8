//! `llmjson validate`: does the reply fit the schema? Exit 0 if it does, 1 if not.

use super::{note_invalid_utf8, parse_recorded, read_recorded};
use crate::args::ValidateArgs;
use crate::Failure;

pub fn run(args: &ValidateArgs) -> Result<(), Failure> {
    validate(args).map_err(|f| f.reported_as(args.errors))
}

fn validate(args: &ValidateArgs) -> Result<(), Failure> {
    // A validator reports what is there: no coercion unless asked for.
    let options = args
        .policy
        .options_coercing(llmjson::Coercion::ValidateOnly)?;
    if options.schema.is_none() {
        return Err(Failure::Usage(
            "validate needs a schema: --schema FILE".to_string(),
        ));
    }
    let bytes = read_recorded(
        args.file.as_deref(),
        &options,
        args.policy.diagnostics.as_deref(),
    )?;
    let parsed = parse_recorded(&bytes, &options, args.policy.diagnostics.as_deref())?;
    note_invalid_utf8(&parsed.repairs, false);
    match args.policy.fail_on.and_then(|check| check.refuses(&parsed)) {
        Some(why) => Err(Failure::Refused(why)),
        None => Ok(()),
    }
}

//! What the streaming examples share: the generated replies their command line asks for
//! (`[SEED] [COUNT]`, by default seed 4001 and the scoreboard's fixed count), each with the
//! options it was made for.

use llmjson::{Options, Truncation};

/// The replies `[SEED] [COUNT]` names, each with the options its expected value assumes.
pub fn from_args() -> impl Iterator<Item = (llmjson_faults::Case, Options)> {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(4001);
    let count = args
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(llmjson_faults::fixed_count);
    llmjson_faults::generate(seed, count)
        .into_iter()
        .map(|case| {
            let options = if case.truncation_drop {
                Options::default().truncation(Truncation::Drop)
            } else {
                Options::default()
            };
            (case, options)
        })
}

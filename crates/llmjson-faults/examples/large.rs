//! Writes one large case to standard output, and its expected value to standard error: for
//! looking at a failure of the long-document properties by hand.
//!
//! `large <seed> <size>`: [`llmjson_faults::large_case`]; `large code <seed> <size>` and
//! `large code-every-fault <seed> <size>`: [`llmjson_faults::large_code_case`].
fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let family = match args.first().map(String::as_str) {
        Some("code") | Some("code-every-fault") => Some(args.remove(0)),
        _ => None,
    };
    let mut args = args.into_iter();
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let size = args.next().and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let case = match family.as_deref() {
        Some("code") => llmjson_faults::large_code_case(seed, size, false),
        Some(_) => llmjson_faults::large_code_case(seed, size, true),
        None => llmjson_faults::large_case(seed, size),
    };
    print!("{}", case.input);
    eprintln!("{}", case.expected);
}

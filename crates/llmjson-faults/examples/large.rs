//! Writes one large case (`large <seed> <size>`) to standard output, and its expected value to
//! standard error: for looking at a failure of the long-document property by hand.
fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let size = args.next().and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let case = llmjson_faults::large_case(seed, size);
    print!("{}", case.input);
    eprintln!("{}", case.expected);
}

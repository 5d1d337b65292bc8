//! Writes one benchmark input (the same generator as the criterion benches) to standard
//! output, for scripts that time other tools on it (`scripts/bench_stream.py`):
//!
//! ```sh
//! FAMILY=broken SIZE=102400 cargo run -q --release -p llmjson --example bench_input > reply.txt
//! ```
//!
//! `FAMILY`: `valid` (the default), `broken` (convention-written) or `all` (every fault at once);
//! `SIZE`: bytes (default 100 KiB).

#[path = "../benches/inputs.rs"]
mod inputs;

fn main() {
    let size = std::env::var("SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100 << 10);
    let text = match std::env::var("FAMILY").as_deref() {
        Ok("broken") => inputs::broken(size),
        Ok("all") => inputs::broken_all(size),
        _ => inputs::valid(size),
    };
    print!("{text}");
}

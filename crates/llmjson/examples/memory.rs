//! Peak extra memory of one parse of a ~10 MB document, as a multiple of the input size.
//! Linux only (reads VmHWM, the peak resident set, from /proc/self/status); run each mode in its
//! own process, since the peak only grows:
//!
//! ```sh
//! for mode in value text; do for family in valid broken; do
//!   cargo run -q --release -p llmjson --example memory -- $mode $family; done; done
//! ```

use llmjson::Options;

#[path = "../benches/inputs.rs"]
mod inputs;

fn peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map_or("value", String::as_str);
    let family = args.get(2).map_or("valid", String::as_str);
    let input = match family {
        "broken" => inputs::broken(10 << 20)
            .chars()
            .take((10 << 20) - 4096)
            .collect::<String>(),
        _ => inputs::valid((10 << 20) - 4096),
    };
    let Some(before) = peak_kib() else {
        eprintln!("no /proc/self/status: Linux only");
        return;
    };
    let options = Options::default();
    let kept = match mode {
        "text" => llmjson::repair_to_string(&input, &options)
            .map(|s| s.len())
            .unwrap_or(0),
        _ => llmjson::parse(&input, &options)
            .map(|p| p.span.len())
            .unwrap_or(0),
    };
    let after = peak_kib().unwrap_or(before);
    let extra = (after.saturating_sub(before) * 1024) as f64;
    println!(
        "{mode:<5} {family:<6} input {:.1} MB, extra peak {:.1} MB = {:.2}x the input ({kept} bytes kept)",
        input.len() as f64 / 1e6,
        extra / 1e6,
        extra / input.len() as f64
    );
}

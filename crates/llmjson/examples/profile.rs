//! One parse of one benchmark input, for a profiler or an instruction counter. On a shared,
//! noisy machine instruction counts are the steady measure of a change (timings are for
//! `cargo bench` and `scripts/bench.py`):
//!
//! ```sh
//! cargo build --profile profiling -p llmjson --example profile
//! FAMILY=broken valgrind --tool=callgrind target/profiling/examples/profile
//! ```
//!
//! `FAMILY`: `broken` (the default: unquoted keys, quotes, comments, literals), `valid`, `serde`
//! (serde_json on the valid twin), `all` (every
//! fault at once, in prose and a fence), `small` (100 short replies, one parse each) or `file`
//! (the `reply` of every JSON Lines record in the file `REPLIES`, e.g. examples/replies.jsonl);
//! `SIZE`: the input's size in bytes (default 16 KiB); `REPEAT`: parse it this many times (a
//! small input's cost is mostly per parse); `VALUE_ONLY=1`: `llmjson::parse_value` (no log
//! paths or positions) instead of `llmjson::parse`; `NODE=1`: what the Node addon runs
//! (`llmjson::bindings::parse_hinted` with the log's positions left for later, then the value written
//! as JSON; with `LOG_LATER=1`, no log kept, as the addon runs when no caller has read one); `CHUNK=n`: stream it in `n`-byte chunks
//! (`StreamParser`, no events) instead.

#[path = "../benches/inputs.rs"]
mod inputs;

fn main() {
    let options = llmjson::Options::default();
    let size = std::env::var("SIZE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16 << 10);
    let replies = match std::env::var("FAMILY").as_deref() {
        Ok("all") => vec![inputs::broken_all(size)],
        Ok("valid") => vec![inputs::valid(size)],
        Ok("serde") => {
            // The baseline: serde_json building its own value from the valid twin.
            let valid = inputs::valid(size);
            let v: serde_json::Value = serde_json::from_str(&valid).unwrap_or_default();
            println!("{}", v.is_object());
            return;
        }
        Ok("small") => inputs::small_replies(100),
        Ok("file") => {
            let path = std::env::var("REPLIES").unwrap_or_else(|_| "examples/replies.jsonl".into());
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            text.lines()
                .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
                .filter_map(|record| record["reply"].as_str().map(str::to_string))
                .collect()
        }
        _ => vec![inputs::broken(size)],
    };
    let value_only = std::env::var_os("VALUE_ONLY").is_some();
    let node = std::env::var_os("NODE").is_some();
    let hints = llmjson::bindings::Hints {
        refused_whole: false,
        positions_later: true,
        log_later: std::env::var_os("LOG_LATER").is_some(),
    };
    let repeat = std::env::var("REPEAT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1usize);
    if let Some(chunk) = std::env::var("CHUNK")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
    {
        for reply in &replies {
            let mut stream = llmjson::StreamParser::new(options.clone()).without_events();
            for piece in reply.as_bytes().chunks(chunk.max(1)) {
                let _ = stream.feed_bytes(piece);
            }
            println!("{:?}", stream.finish().map(|p| p.repairs.len()));
        }
        return;
    }
    let repairs: usize = replies
        .iter()
        .cycle()
        .take(replies.len() * repeat)
        .map(|r| {
            if value_only {
                llmjson::parse_value(r, &options).map_or(0, |p| p.repairs.len())
            } else if node {
                llmjson::bindings::parse_hinted(r, &options, hints).map_or(0, |p| {
                    let mut json = String::new();
                    p.value.write_json(&mut json);
                    p.repairs.len() + usize::from(json.is_empty())
                })
            } else {
                llmjson::parse(r, &options).map_or(0, |p| p.repairs.len())
            }
        })
        .sum();
    println!("{repairs} repairs");
}

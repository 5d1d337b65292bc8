//! Per-reply latency of `llmjson::parse` with the system allocator (see
//! `examples/shared/reply_latency.rs`).
//!
//! ```sh
//! cargo run -q --release -p llmjson --example reply_latency -- replies.jsonl
//! ```

#[path = "shared/reply_latency.rs"]
mod reply_latency;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    reply_latency::main()
}

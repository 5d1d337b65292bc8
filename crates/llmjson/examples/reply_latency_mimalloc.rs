//! Per-reply latency of `llmjson::parse` with mimalloc as the global allocator, as the Node
//! addon, the Python extension and the CLI run the library (see
//! `examples/shared/reply_latency.rs`).
//!
//! ```sh
//! cargo run -q --release -p llmjson --example reply_latency_mimalloc -- replies.jsonl
//! ```

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "shared/reply_latency.rs"]
mod reply_latency;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    reply_latency::main()
}

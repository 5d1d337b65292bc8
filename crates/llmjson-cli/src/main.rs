//! The `llmjson` command.
fn main() {}

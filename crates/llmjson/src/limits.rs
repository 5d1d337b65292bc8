//! The limits every stage keeps to, and their defaults (a leaf: it imports nothing).

/// The default size limit: 10 MiB.
pub const DEFAULT_MAX_SIZE: usize = 10 * 1024 * 1024;
/// The default nesting limit: serde_json's own (it reads at most 127 levels), so text llmjson
/// returns is always text serde_json reads back.
pub const DEFAULT_MAX_DEPTH: usize = 127;
/// The highest nesting limit allowed. The parser itself has no limit (it keeps its own stack),
/// but `serde_json::Value` is dropped and serialised recursively, so a value nested much deeper
/// would overflow the stack in the caller's code.
pub const MAX_DEPTH_CEILING: usize = 1024;
/// The default safety-guard threshold.
pub const DEFAULT_MAX_REMOVED_RATIO: f64 = 0.3;

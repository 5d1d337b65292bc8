//! Many replies at once: the engine behind `llmjson batch` and Python's `llmjson.batch`.
//!
//! A run reads records ([`Record`]: a JSON Lines line or a whole file), sends each through the
//! library's pipeline in parallel ([`process_all`], rayon, results in input order), and gives
//! one [`Processed`] per record: the value or the failure, the repair log, the diagnostics
//! record, and its share of the [`llmjson::metrics::Metrics`]. A record that cannot be read is
//! that record's failure; the run goes on. I/O (files, the store, the terminal) is the
//! caller's: this crate only reads lines from a `BufRead` with a bound on their length
//! ([`LineReader`]).

mod columns;
mod lines;
mod process;
mod record;
mod shape;

pub use columns::{parse_column, RepairBuffers, ReplyColumn, ResultColumns, StringBuffers};
pub use lines::{Line, LineReader};
pub use process::{
    outcome_of_error_kind, process, process_all, process_and_render, process_and_render_with,
    Context, Failure, Processed, Rendered, EXCERPT_CHARS,
};
pub use record::{Fields, Input, Pending, Record};
pub use shape::Shape;

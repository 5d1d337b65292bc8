//! llmjson turns what a large language model wrote into JSON a program can trust, or says
//! clearly why it cannot.
//!
//! ```text
//! text ─► locate ─► repair ─► (coerce ─► validate ─► verify: later stages)
//!         where is    make it
//!         the JSON?   JSON, and log every change
//! ```
//!
//! ```
//! use llmjson::{Options, RepairKind};
//!
//! let reply = "Here is the plan:\n```json\n{\"steps\": [{\"id\": \"s1\", \"done\": True},]}\n```";
//! let parsed = llmjson::parse(reply, &Options::default())?;
//! assert_eq!(parsed.value["steps"][0]["done"], true);
//! let kinds: Vec<_> = parsed.repairs.iter().map(|r| r.kind).collect();
//! assert_eq!(kinds, [RepairKind::PythonLiteral, RepairKind::TrailingComma]);
//! # Ok::<(), llmjson::Error>(())
//! ```
#![deny(missing_docs)]

mod api;
mod diagnostics;
mod error;
mod limits;
mod locate;
pub mod metrics;
mod options;
mod parsed;
mod pipeline;
mod policy;
mod position;
mod repair;
pub mod retry;
mod schema;
mod settings;
mod spelling;
mod stream;
mod value;
mod verdict;
pub mod verify;

pub use api::{
    extract, from_str, from_str_guided, from_str_guided_with, from_str_with, from_value,
    is_valid_document, parse, parse_all, parse_all_bytes, parse_bytes, parse_decoded, parse_value,
    repair_to_string,
};
pub use diagnostics::{parse_diagnosed, verify_diagnosed, Diagnostics, DroppedRecord};
pub use error::{Error, SchemaError, SyntaxError};
pub use locate::Source;
pub use options::{
    repair_disabled_by_env, Options, DEFAULT_MAX_DEPTH, DEFAULT_MAX_REMOVED_RATIO,
    DEFAULT_MAX_SIZE, KILL_SWITCH_VAR, MAX_DEPTH_CEILING,
};
pub use parsed::{outcome, outcome_counter, DroppedItem, Located, Parsed, ParsedValue, OUTCOMES};
pub(crate) use pipeline::parse_unguided;
pub use pipeline::MIN_GUARDED_BYTES;
pub use policy::{Coercion, DuplicateKeys, GuardComments, InvalidItems, RepairLevel, Truncation};
pub use position::Position;
pub use repair::{Repair, RepairKind};
pub use schema::Schema;
pub use stream::{
    Change, Changes, Event, Finished, FinishedLater, LaterEvents, Live, Provisional, Snapshot,
    StreamParser, StreamStats, DONE_ONLY, PROVISIONAL_LAG,
};
pub use value::serde_impl::DeserializeError;
pub use value::write::{Layout, Style};
pub use value::{Map, Number, NumberError, Value};

/// The strict reader and what it builds into: llmjson's [`Value`] ([`sink::ValueSink`]) or any
/// other representation (the Python package builds Python objects with it).
pub mod sink {
    /// The LaTeX command names (`frac`, `theta`, `nabla`, …) whose first letter JSON reads as an
    /// escape (`\f`, `\t`, `\n`, …), sorted. In a string, a backslash before one of them
    /// followed by a non-letter may be LaTeX written with one backslash, which the repair stage
    /// decides (`Options::latex`); [`read_valid`] refuses such a document rather than read a
    /// form feed. A caller that reads valid JSON with another parser (the Node package with
    /// `JSON.parse`) hands a document holding one to llmjson instead.
    pub use crate::spelling::latex::COLLIDING as LATEX_COLLISIONS;
    pub use crate::value::parse::{read_valid, CheckSink, Refused, Sink, ValueSink};
}

/// What the language packages (Python, Node) use to do less work for the same result: hints
/// for [`parse_hinted`](bindings::parse_hinted) (what the caller already knows, what it will
/// ask), the log's positions filled in when read, UTF-16 offsets for JavaScript strings. A
/// Rust caller needs none of it.
pub mod bindings {
    pub use crate::api::{fill_positions, hints_apply, parse_hinted, Hints};
    pub use crate::position::utf16_len;
}

/// The iterators and entries of [`Map`].
pub mod map {
    pub use crate::value::{Entry, IntoIter, Iter, IterMut, OccupiedEntry, VacantEntry};
}

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

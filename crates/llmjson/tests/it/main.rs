//! Integration tests: one module per capability.

mod api;
mod bench_inputs;
mod corpus;
mod decisions;
mod errors;
mod faults;
mod forms;
mod grounding;
mod hostile;
mod latex;
mod layout;
mod locate;
mod policies;
mod props;
mod repair;
mod retry;
mod salvage;
mod schema;
mod stream;
mod support;
mod truncation;
mod verify;

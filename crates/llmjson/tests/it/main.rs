//! Integration tests: one module per capability.

mod api;
mod corpus;
mod errors;
mod hostile;
mod locate;
mod policies;
mod props;
mod repair;
mod support;
mod truncation;

//! Integration tests: one module per capability.

mod corpus;

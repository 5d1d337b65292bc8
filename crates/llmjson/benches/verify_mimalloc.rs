//! The verify benchmark (`benches/verify.rs`) with mimalloc as the global allocator, as the CLI,
//! the Python extension and the Node addon run the library: the index allocates per label, and
//! the allocator is a fifth of its time under glibc's.
//!
//! ```sh
//! cargo bench -p llmjson --bench verify_mimalloc
//! ```

use criterion::{criterion_group, criterion_main};

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "verify_group.rs"]
mod verify_group;

criterion_group!(benches, verify_group::bench);
criterion_main!(benches);

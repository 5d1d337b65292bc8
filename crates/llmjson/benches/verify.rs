//! The verify stage at the size the issue names: a 20 KB answer against 1 MB of evidence (a lab
//! report with a number every few words). Three measurements: indexing the evidence, verifying
//! against evidence already indexed, and both (what one call on fresh evidence costs).
//!
//! ```sh
//! cargo bench -p llmjson --bench verify
//! ```

use criterion::{criterion_group, criterion_main};

#[path = "verify_group.rs"]
mod verify_group;

criterion_group!(benches, verify_group::bench);
criterion_main!(benches);

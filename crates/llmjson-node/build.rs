//! Sets the linker flags a Node addon needs (its symbols come from the node process).
fn main() {
    napi_build::setup();
}

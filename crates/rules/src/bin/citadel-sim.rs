//! Placeholder: the simulator lands with the engine.
fn main() {}

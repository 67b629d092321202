//! Written orders (§2): the parsed sheet (unchecked, with spans) and the
//! checked orders the engine executes.

pub mod plan;

//! The Hyborean world campaign (rules digest §12): the map of provinces,
//! powers and their players, armies as hidden counters, weekly map turns
//! of written orders resolved all at once, battles when armies meet,
//! sieges, pacification and winter quarters.
//!
//! - [`map`]: the world as a graph of provinces (`campaigns/world/map.toml`).
pub mod battle;
pub mod fog;
pub mod game;
pub mod map;
pub mod orders;
pub mod report;
pub mod resolve;
pub mod secretary;

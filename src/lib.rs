//! umpire: a play-by-email umpire for *Royal Armies of the Hyborean Age*.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.

pub mod adjudicate;
pub mod army;
pub mod campaign;
pub mod case;
pub mod config;
pub mod demo;
pub mod dice;
pub mod mail;
pub mod orders;
pub mod post;
pub mod report;
pub mod rules;
pub mod store;
pub mod table;

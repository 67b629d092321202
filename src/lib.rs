//! umpire: a play-by-email umpire for *Royal Armies of the Hyborean Age*.
//!
//! See `ARCHITECTURE.md` for the map of modules and their invariants.

pub mod case;
pub mod config;
pub mod demo;
pub mod diagnostic;
pub mod dice;
pub mod envelope;
pub mod games;
pub mod mail;
pub mod names;
pub mod pleasantry;
pub mod post;
pub mod report;
pub mod store;

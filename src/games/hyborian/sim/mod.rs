//! The balance lab: generals that play the Hyborean Age by writing orders
//! ([`general`]), and the seeds a simulation's battles come from ([`seed`]),
//! and the counting of their results ([`stats`]).

pub mod battle;
pub mod cli;
pub mod fairness;
pub mod field;
pub mod general;
pub mod replay;
pub mod seed;
pub mod simulate;
pub mod stats;

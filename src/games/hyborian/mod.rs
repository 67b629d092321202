//! *Royal Armies of the Hyborean Age* (1975): the continuous table,
//! simultaneous two-phase turns, and the world campaign.

pub mod adjudicate;
pub mod army;
pub mod campaign;
pub mod case;
pub mod dice;
pub mod identity;
pub mod orders;
pub mod report;
pub mod rules;
pub mod ruleset;
pub mod sim;
pub mod table;

/// The rule set's name in game and case files.
pub const RULESET: &str = "hyborian-age";

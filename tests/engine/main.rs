//! The Hyborean engine: combat, magic, melee orders, morale, movement, its invariants as properties, and the case runner.
//! One test binary for the lot (build time): each file is a module.

#[path = "../support/combat_table.rs"]
mod combat_table;
#[path = "../common/mod.rs"]
mod common;

mod case_runner;
mod combat;
mod magic;
mod melee_orders;
mod morale;
mod movement;
mod properties;
mod reports;

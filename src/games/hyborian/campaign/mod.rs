//! The Hyborean world campaign (rules digest §12): the map of provinces,
//! powers and their players, armies as hidden counters, weekly map turns
//! of written orders resolved all at once, battles when armies meet,
//! sieges, pacification and winter quarters.
//!
//! - [`map`]: the world as a graph of provinces (`campaigns/world/map.toml`).
//! - [`game`]: the campaign's state and the secretary's set-up file.
//! - [`orders`]: campaign mail in its own grammar (`campaign.pest`).
//! - [`resolve`]: one map turn, pure and deterministic (dice via `crate::dice`).
//! - [`battle`]: terrain cards, the table, and battles played by the turn engine.
//! - [`fog`]: what each power may see; [`report`]: its weekly report and map.
//! - [`secretary`]: the mail desk inside the post office (store, identity,
//!   confirmations, reports through the outbox).
//!
//! Architecture invariant: `map`, `game`, `orders`, `resolve`, `battle`,
//! `fog` and `report` do no I/O; only `secretary` touches the store, and
//! only through the post office's transaction.

pub mod battle;
pub mod fog;
pub mod game;
pub mod map;
pub mod orders;
pub mod report;
pub mod resolve;
pub mod secretary;

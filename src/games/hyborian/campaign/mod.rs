//! The Hyborean world campaign (rules digest §12): the map of provinces,
//! powers and their players, armies as hidden counters, weekly map turns
//! of written orders resolved all at once, battles when armies meet,
//! sieges, pacification and winter quarters.
//!
//! - [`map`]: the world as a graph of provinces (`campaigns/world/map.toml`);
//!   [`atlas`]: the same world as regions, frontiers and seas for the map picture.
//! - [`game`]: the campaign's state and the secretary's set-up file.
//! - [`orders`]: campaign mail in its own grammar (`grammar/campaign.pest`).
//! - [`resolve`]: one map turn, pure and deterministic (dice via `crate::dice`).
//! - [`battle`]: terrain cards, the table, and battles played by the turn engine.
//! - [`by_mail`]: a waiting battle as a battle game's scenario, and the
//!   game's last table back as a result.
//! - [`fog`]: what each power may see; [`report`]: its weekly report;
//!   [`picture`]: its map.
//!
//! - [`desk`]: the campaign behind the post office's boundary
//!   ([`crate::games::campaign::CampaignRules`]).
//!
//! The secretary's mail desk (store, identity, confirmations, reports through
//! the outbox) is the post office's: `post::campaign`, which knows the
//! campaign only through that boundary.
//!
//! Architecture invariant: nothing here does I/O, reads the clock or draws
//! OS randomness.

pub mod atlas;
pub mod battle;
pub mod by_mail;
pub mod case;
pub mod correct;
pub mod desk;
pub mod fog;
pub mod game;
pub mod general;
pub mod map;
pub mod orders;
pub mod picture;
pub mod report;
pub mod resolve;

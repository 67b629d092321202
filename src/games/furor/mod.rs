//! *Furor Barbarus*: a two-player hex-and-counter game of the battles of
//! the barbarian kingdoms, with four scenarios (Campus Mauriacus 451,
//! Soissons 486, Tolbiac 496, Vouillé 507). Players move in turn
//! ("I go, you go"); each player-turn is movement then combat.
//!
//! The rule set's modules are named after the book's terms: the [`hex`]
//! grid and the [`map`], the counters on the [`board`], the book's numbers
//! in [`rules`], the [`sequence`] of a turn with [`movement`], zones of
//! control ([`zoc`]), [`charge`]s, [`combat`] with its [`losses`],
//! [`retreat`]s, [`morale`] checks and [`advance`] after combat, the
//! scenarios' [`special`] rules, [`victory`], and the [`case`] runner of
//! `shared/spec/cases-hex.md`. Game [`options`] hold every reading of the
//! book's OPEN points where clubs could differ (`docs/rulings/furor.md`);
//! [`reconstruction`] says which results rest on what the text lost.
//!
//! ```
//! use umpire::games::furor::{hex::Hex, RULESET};
//! assert_eq!(RULESET, "furor-barbarus");
//! let a: Hex = "1705".parse().unwrap();
//! assert_eq!(a.distance("1804".parse().unwrap()), 1);
//! ```

pub mod advance;
pub mod ask;
pub mod board;
pub mod case;
pub mod charge;
pub mod combat;
pub mod error;
pub mod events;
pub mod hex;
pub mod losses;
pub mod map;
pub mod morale;
pub mod movement;
pub mod options;
pub mod orders;
pub mod picture;
mod play;
pub mod reconstruction;
pub mod report;
pub mod retreat;
pub mod rules;
pub mod ruleset;
pub mod scenario;
pub mod sequence;
pub mod sim;
pub mod sparring;
pub mod special;
pub mod victory;
pub mod wording;
pub mod zoc;

/// The rule set's name in game and case files.
pub const RULESET: &str = "furor-barbarus";

//! The balance lab for Furor Barbarus: games of a shipped scenario
//! between scripted generals, to tell a club how the scenario leans
//! (`umpire simulate --game furor`, docs/balance.md).
//!
//! - [`general`]: the generals, who write each player-turn's orders and
//!   their standing reactions as order text in one of two styles;
//! - [`odds`]: what an attack is expected to take, and the chance that
//!   the attacks take the points an army's threshold still needs;
//! - [`game`]: one game from its seed: sheets read by `orders::check`,
//!   player-turns played by `sequence::resolve` ([`game::Outcome`]);
//! - [`simulate`]: many games on every core, counted ([`simulate::Summary`]);
//! - [`replay`]: one game's reports and pictures again;
//! - [`cli`]: the command.
//!
//! Seeds, intervals and styles are shared with the Hyborean Age's lab
//! (`crate::sim`).
//!
//! ```
//! use umpire::games::furor::sim::{game::Matchup, simulate::simulate};
//! use umpire::sim::Style;
//! let m = Matchup::new("campus-mauriacus", [Style::Aggressive; 2], Default::default(), Some(3)).unwrap();
//! let s = simulate(&m, 1, 2, 0, &|| {}).unwrap();
//! assert_eq!(s.refused_orders, 0);
//! println!("{}", s.text());
//! ```
//!
//! Architecture invariant: only [`cli`] does I/O; everything else is a pure
//! function of the matchup and the seeds.

pub mod cli;
pub mod game;
pub mod general;
pub mod odds;
pub mod replay;
pub mod simulate;

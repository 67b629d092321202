//! The balance lab: thousands of battles between scripted generals, to
//! tell a club whether its armies are a fair match (`umpire simulate`,
//! docs/balance.md).
//!
//! - [`general`]: the generals, who write each turn's orders as order text
//!   in one of two styles;
//! - [`field`]: two contenders on a terrain card or a scenario ([`field::Matchup`]);
//! - [`battle`]: one battle from its seed: orders read by `orders::check_side`,
//!   turns played by `adjudicate::resolve_turn`, the table judged by
//!   `army::scenario::assess` ([`battle::Outcome`]);
//! - [`seed`]: battle and turn seeds derived from one master seed (`crate::sim::seed`);
//! - [`simulate`]: many battles on every core, counted ([`simulate::Summary`]);
//! - [`stats`]: Wilson intervals (`crate::sim::stats`);
//! - [`fairness`]: every pairing of nations at equal points;
//! - [`replay`]: one battle's turn reports and pictures again;
//! - [`cli`]: the command.
//!
//! ```
//! use umpire::games::hyborian::sim::field::{Contender, Field, Matchup};
//! use umpire::games::hyborian::sim::general::Style;
//! use umpire::games::hyborian::sim::simulate::simulate;
//! let a = Contender::proposed("Koth", 500, Style::Cautious).unwrap();
//! let b = Contender::proposed("Shem", 500, Style::Aggressive).unwrap();
//! let m = Matchup::new([a, b], Field::Card(None), Default::default(), Some(3)).unwrap();
//! let s = simulate(&m, 1, 2, 0, &|| {}).unwrap();
//! assert_eq!(s.refused_orders, 0);
//! println!("{}", s.text());
//! ```
//!
//! Architecture invariant: only [`cli`] does I/O; everything else is a pure
//! function of the matchup and the seeds.

pub mod battle;
pub mod cli;
pub mod fairness;
pub mod field;
pub mod general;
pub mod replay;
pub mod simulate;

/// Seeds and intervals are shared with every rule set's balance lab.
pub use crate::sim::{seed, stats};

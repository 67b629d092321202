//! *FR! Ancients*: John Hills' and Paul Crozier's amendment sheet that
//! adapts Chipco's *Fantasy Rules!* (FR!) to historical ancient battles
//! (`shared/rules/fr-ancients.md`, the digest; its sections are cited as
//! §N, its open points as O/R/M numbers and our rulings as FA-N in
//! `docs/rulings/fr-ancients.md`).
//!
//! The sheet is not a whole game: it amends base rules that are not ours
//! to ship. So this rule set computes everything the sheet fixes — its
//! tables ([`weapons`], [`grades`], [`abilities`], [`characters`],
//! [`standards`], [`points`], [`lists`]) and the army checker ([`army`]) —
//! and takes the base rules from a club's [`pack`].
//!
//! ```
//! use umpire::games::fr_ancients::{army, lists, weapons::{Scale, Weapon}};
//! assert_eq!(Weapon::HeavyArtillery.range(Scale::Inches), 30.0);
//! assert_eq!(lists::lists().len(), 2);
//! let (text, code) = army::check_cli("a.toml", "ruleset = \"fr-ancients\"\nlist = \"Carthaginian Army\"\npoints = 1000\n");
//! assert_eq!(code, 1, "no general, no standard: {text}");
//! ```

pub mod abilities;
pub mod army;
pub mod case;
pub mod characters;
pub mod demo;
pub mod deployment;
pub mod desk;
pub mod engine;
pub mod events;
pub mod general;
pub mod grades;
pub mod lists;
pub mod new_rules;
pub mod options;
pub mod orders;
pub mod pack;
pub mod part;
pub mod points;
pub mod questions;
pub mod rage;
pub mod report;
pub mod resolve;
pub mod ruleset;
pub mod sequence;
pub mod setup;
pub mod sheet;
pub mod standards;
pub mod start;
pub mod state;
mod steps;
pub mod sweep;
pub mod table;
pub mod troops;
pub mod verdict;
pub mod weapons;

/// Every diagnostic about a text, rendered rustc-style, in order.
pub(crate) fn render_all<K: crate::diagnostic::Severity>(
    ds: &[crate::diagnostic::Diagnostic<K>],
    source: &str,
) -> String {
    ds.iter()
        .map(|d| d.render(source))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The rule set's name in game, army and case files.
pub const RULESET: &str = "fr-ancients";

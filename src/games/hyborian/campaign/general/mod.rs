//! The umpire's general for a campaign power (issue 42): it writes the
//! power's weekly letter — marches, splits, garrisons, sieges and marches
//! called off (`marches`), merges (`merges`), a besieged capital's relief
//! and its garrison's sally (`sallies`), raises with the treasury (`raises`) — as the lines a
//! player would mail, in the campaign's grammar, so they are read and
//! checked like any power's mail. It writes no contract (`hire`, `serve`,
//! `pay`: ruling CA-34).
//!
//! It is given a [`View`] — what the power's own report shows: its armies
//! whole, other powers' only as counters, who holds the provinces it
//! sees — the map and the week's seed, never the [`Campaign`]: it cannot
//! know what the fog hides. Its choices are a pure function of those, its
//! ties broken by a ChaCha stream from the seed (no clock, no hash order).
//!
//! ```
//! use umpire::games::hyborian::campaign::{fog, game::CampaignFile, general, map::World};
//! use umpire::sim::Style;
//! let world = World::hyborea().unwrap();
//! let file = CampaignFile::load(include_str!("../../../../../campaigns/world/the-hour-of-the-dragon.toml")).unwrap();
//! let c = file.start(&world).unwrap();
//! let letter = general::letter(&fog::view(&c, &world, Some("koth")), &world, Style::Aggressive, [7; 32]);
//! assert!(letter.lines().all(|l| l.starts_with("army ") || l.starts_with("raise ")));
//! ```
//!
//! [`Campaign`]: super::game::Campaign

mod doctrine;
mod marches;
mod merges;
mod raises;
mod sallies;
#[cfg(test)]
mod tests;

pub use doctrine::Doctrine;

use super::fog::View;
use super::map::World;
use crate::sim::Style;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The letter the general of `style` writes for the power whose view this
/// is, one order a line (empty: its armies stand). The secretary's view
/// (no power) gets none.
pub fn letter(view: &View<'_>, world: &World, style: Style, seed: [u8; 32]) -> String {
    if view.me.is_none() {
        return String::new();
    }
    let doctrine = Doctrine::of(style);
    let mut rng = ChaCha8Rng::from_seed(seed);
    let mut lines = marches::orders(view, world, doctrine, &mut rng);
    lines.extend(raises::orders(view, world, doctrine, &mut rng));
    lines.iter().map(|l| format!("{l}\n")).collect()
}

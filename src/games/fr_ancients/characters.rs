//! Characters (digest §7): one general (+2/+2/0, a free group move) and
//! sub-generals (each a hero in FR!, +1/+1/0, a free unit move), two for
//! armies up to 1000 points and one more for each further 500 points or
//! part (ruling FA-17; option `sub_general_step`). Numbers:
//! `campaigns/fr-ancients/characters.toml`.
//!
//! ```
//! use umpire::games::fr_ancients::characters::{sub_generals_allowed, Rank};
//! assert_eq!(sub_generals_allowed(1000, 500), 2);
//! assert_eq!(sub_generals_allowed(1001, 500), 3);
//! assert_eq!(sub_generals_allowed(2000, 500), 4);
//! assert_eq!(sub_generals_allowed(3000, 0), 2, "step 0: never more than two");
//! assert_eq!(Rank::General.bonus().rally, 2);
//! ```

use super::grades::Triple;
use super::sheet::{sheet, CharacterRow};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A character's rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rank {
    General,
    SubGeneral,
}

impl Rank {
    fn row(self) -> &'static CharacterRow {
        let c = &sheet().characters;
        match self {
            Rank::General => &c.general,
            Rank::SubGeneral => &c.sub_general,
        }
    }

    pub fn name(self) -> &'static str {
        &self.row().name
    }

    pub fn parse(text: &str) -> Option<Rank> {
        let k = crate::names::key(text);
        [Rank::General, Rank::SubGeneral].into_iter().find(|r| {
            let row = r.row();
            crate::names::key(&row.name) == k || row.also.iter().any(|a| crate::names::key(a) == k)
        })
    }

    /// Melee/Rally/Missile bonus to the unit the character is with.
    pub fn bonus(self) -> Triple {
        Triple::new(self.row().bonus)
    }

    /// "a free group move" or "free unit move".
    pub fn free_move(self) -> &'static str {
        &self.row().free_move
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Sub-generals an army of `points` may have; `step` is the points each
/// further one needs above the sheet's 1000 (0: none more).
pub fn sub_generals_allowed(points: u32, step: u32) -> u32 {
    let row = &sheet().characters.sub_general;
    let base = row.most;
    let up_to = row.most_up_to.unwrap_or(u32::MAX);
    if points <= up_to || step == 0 {
        base
    } else {
        base + (points - up_to).div_ceil(step)
    }
}

/// The sheet's own step (500 points, ruling FA-17).
pub fn default_sub_general_step() -> u32 {
    sheet().characters.sub_general.step.unwrap_or(0)
}

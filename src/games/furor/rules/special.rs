//! The numbers of the scenarios' special rules (§12) and of optional rule
//! 11.1: every die threshold and bonus in one place.
//!
//! ```
//! use umpire::games::furor::rules::special::{chararic_choice, ChararicChoice};
//! assert_eq!(chararic_choice(1), ChararicChoice::Betrays);
//! assert_eq!(chararic_choice(4), ChararicChoice::StaysNeutral);
//! assert_eq!(chararic_choice(6), ChararicChoice::JoinsClovis);
//! ```

use serde::{Deserialize, Serialize};

/// Campus Mauriacus rule 3: how far away the target of a feigned flight may be.
pub const FEIGNED_FLIGHT_REACH: u16 = 3;
/// Rule 3: how many hexes a drawn-out target moves towards the activated unit.
pub const FEIGNED_FLIGHT_PULL: usize = 2;
/// Rule 3: the target's die when it has the feigned-flight mark itself.
pub const FEIGNED_FLIGHT_SKILLED_TARGET: i8 = -1;
/// Rule 3: the target's die when it is impetuous.
pub const FEIGNED_FLIGHT_IMPETUOUS_TARGET: i8 = 1;

/// Rule 6: an impetuous unit tests before it comes this close to an enemy.
pub const IMPETUOUS_NEAR: u16 = 2;
/// Rule 6: it rushes at the enemy on this roll or more.
pub const IMPETUOUS_RUSH_ON: u8 = 5;

/// Vouillé rule 1: the Breton cavalry evades on this roll or more…
pub const BRETON_EVADE_ON: u8 = 5;
/// …moving up to this many hexes.
pub const BRETON_EVADE_HEXES: usize = 2;

/// Soissons rule 1: Chararic's corps is neutral for this many turns, then
/// the Frankish player rolls at the start of each turn.
pub const CHARARIC_NEUTRAL_TURNS: u8 = 2;

/// Soissons rule 1: what Chararic's roll means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChararicChoice {
    /// 1: his corps is Gallo-Roman to the end of the game.
    Betrays,
    /// 2–5.
    StaysNeutral,
    /// 6: his corps is Frankish to the end of the game.
    JoinsClovis,
}

pub fn chararic_choice(roll: u8) -> ChararicChoice {
    match roll {
        1 => ChararicChoice::Betrays,
        6 => ChararicChoice::JoinsClovis,
        _ => ChararicChoice::StaysNeutral,
    }
}

/// Campus Mauriacus rule 5: the roll when a commander is eliminated, as
/// the change to his troops' strength and morale for the following turn.
pub fn commander_loss_effect(roll: u8) -> i8 {
    match roll {
        1 | 2 => -1,
        6 => 1,
        _ => 0,
    }
}

/// Tolbiac rule 1: the Frankish army-morale total that calls the god of Clotilde.
pub const DIVINE_HELP_TRIGGER: u16 = 12;
/// Rule 1: strength for each unit adjacent to (or with) Clovis.
pub const DIVINE_HELP_NEAR_CLOVIS: u8 = 1;
/// Rule 1: strength for Clovis himself.
pub const DIVINE_HELP_CLOVIS: u8 = 2;
/// Rule 1: morale for every Frankish unit.
pub const DIVINE_HELP_MORALE: u8 = 1;

/// Vouillé's variation: what an "Elite strength +1" marker adds.
pub const ELITE_BONUS: u8 = 1;

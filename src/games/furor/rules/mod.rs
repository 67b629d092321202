//! The book as typed data: the six kinds of unit and their marks (§2), the
//! numbers of combat (§6, §9), morale (§9.10) and victory (§10), the
//! Terrain Effects Chart ([`terrain`]), the Combat Results Table
//! ([`crt`]), the scenarios' special-rule numbers ([`special`]) and the
//! reconstructed counter values (R1–R6, R10: [`reconstructed`]). No
//! geometry, no state, no dice.
//!
//! ```
//! use umpire::games::furor::rules::{morale_outcome, MoraleOutcome};
//! assert_eq!(morale_outcome(3, 4), MoraleOutcome::Holds);
//! assert_eq!(morale_outcome(4, 4), MoraleOutcome::Retreats);
//! assert_eq!(morale_outcome(5, 4), MoraleOutcome::LosesStep);
//! ```

pub mod crt;
pub mod reconstructed;
pub mod special;
pub mod terrain;

use serde::{Deserialize, Serialize};
use std::fmt;

/// The six types of unit (§2). The first four are *combat units*.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Infantry,
    MissileInfantry,
    Cavalry,
    MissileCavalry,
    Commander,
    Baggage,
}

impl Kind {
    /// Infantry, cavalry and their missile kinds (§5, §9.3).
    pub fn is_combat(self) -> bool {
        !matches!(self, Kind::Commander | Kind::Baggage)
    }

    /// Units with a range value (§9.3).
    pub fn is_missile(self) -> bool {
        matches!(self, Kind::MissileInfantry | Kind::MissileCavalry)
    }

    /// The name case and scenario files use.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Infantry => "infantry",
            Kind::MissileInfantry => "missile-infantry",
            Kind::Cavalry => "cavalry",
            Kind::MissileCavalry => "missile-cavalry",
            Kind::Commander => "commander",
            Kind::Baggage => "baggage",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The characteristic marks of a counter (§2; used by Campus Mauriacus,
/// and by any board that gives them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// *Possible charge*: may charge (scenario 1 rule 1; the Vouillé Alans).
    Charge,
    /// *Impetuous* (scenario 1 rule 6).
    Impetuous,
    /// *Feigned flight* (scenario 1 rule 3).
    FeignedFlight,
    /// *No penalty in melee*, for mounted missile units (scenario 1 rule 2).
    NoMeleePenalty,
}

impl Mark {
    pub fn name(self) -> &'static str {
        match self {
            Mark::Charge => "charge",
            Mark::Impetuous => "impetuous",
            Mark::FeignedFlight => "feigned-flight",
            Mark::NoMeleePenalty => "no-melee-penalty",
        }
    }
}

/// What a charging cavalry unit adds to its strength in attack (§9.2).
pub const CHARGE_BONUS: u8 = 2;
/// What a missile unit loses in hand-to-hand combat (§9.3).
pub const MISSILE_MELEE_PENALTY: u8 = 1;
/// No modified strength counts below this (§9.3; ruling O20 for every modifier).
pub const STRENGTH_FLOOR: u8 = 1;
/// A commander's bonus to the morale of the units with and around him (§6).
pub const COMMANDER_MORALE_BONUS: u8 = 1;
/// A baggage unit's strength in defence, never modified (§9.4).
pub const BAGGAGE_DEFENCE: u8 = 1;
/// A hex's neighbours reached by a retreat result (§9.8).
pub const RETREAT_HEXES: u8 = 1;

/// Army morale (§10): what an eliminated commander adds beyond his strength.
pub const COMMANDER_LOSS_EXTRA: u16 = 4;
/// Army morale (§10): what an eliminated baggage unit adds beyond its strength.
pub const BAGGAGE_LOSS_EXTRA: u16 = 2;

/// The three outcomes of a morale check (§9.10) and of the test of
/// optional rule 11.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoraleOutcome {
    /// Lower than morale: no effect (11.1: the unit passes).
    Holds,
    /// Equal: retreat one hex (11.1: nothing happens).
    Retreats,
    /// Higher: one step loss.
    LosesStep,
}

/// §9.10: the die against the unit's morale value.
pub fn morale_outcome(roll: u8, morale: u8) -> MoraleOutcome {
    use std::cmp::Ordering::*;
    match roll.cmp(&morale) {
        Less => MoraleOutcome::Holds,
        Equal => MoraleOutcome::Retreats,
        Greater => MoraleOutcome::LosesStep,
    }
}

/// Half movement points: the TEC's road costs 0.5, so every cost is kept
/// as a whole number of halves (digest §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct HalfMp(pub u16);

impl HalfMp {
    pub fn whole(mp: u16) -> HalfMp {
        HalfMp(mp * 2)
    }

    /// As the players count them: 1.5 and not 3 halves.
    pub fn as_mp(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for HalfMp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 % 2 == 0 {
            write!(f, "{}", self.0 / 2)
        } else {
            write!(f, "{}.5", self.0 / 2)
        }
    }
}

impl std::ops::Add for HalfMp {
    type Output = HalfMp;
    fn add(self, o: HalfMp) -> HalfMp {
        HalfMp(self.0 + o.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn morale_table_as_the_digest_reads_it() {
        // Morale 1: 1 retreat, 2–6 loss; morale 4: 1–3 none, 4 retreat,
        // 5–6 loss; morale 6: 6 retreat only; 7+: never any effect.
        let row = |m| (1..=6).map(|r| morale_outcome(r, m)).collect::<Vec<_>>();
        use MoraleOutcome::*;
        assert_eq!(
            row(1),
            [Retreats, LosesStep, LosesStep, LosesStep, LosesStep, LosesStep]
        );
        assert_eq!(
            row(4),
            [Holds, Holds, Holds, Retreats, LosesStep, LosesStep]
        );
        assert_eq!(row(6), [Holds, Holds, Holds, Holds, Holds, Retreats]);
        assert!(row(7).iter().all(|o| *o == Holds));
    }

    #[test]
    fn half_points_read_as_players_count() {
        assert_eq!(HalfMp(3).to_string(), "1.5");
        assert_eq!(HalfMp::whole(4).to_string(), "4");
        assert_eq!(HalfMp(3).as_mp(), 1.5);
    }
}

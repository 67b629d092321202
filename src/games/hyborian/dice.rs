//! The Hyborean Age's rolls as typed keys: what each roll is for, the die
//! the book uses for it, and the case file's text form.
//!
//! ```
//! use umpire::games::hyborian::dice::{DiceKey, Roll};
//! use umpire::games::hyborian::dice::SeededDice;
//! let key: DiceKey = "fire:boss:1".parse().unwrap();
//! assert_eq!(key.to_string(), "fire:boss:1");
//! let v = SeededDice::new([7; 32]).roll(&key).unwrap();
//! assert!((2..=5).contains(&v));
//! ```

pub use crate::dice::{
    Dice, DiceError, DieKind, ModeratorDice, ScriptedDice, SeededDice, AVERAGE_DIE_FACES,
};
use std::fmt;
use std::str::FromStr;

/// What a roll is for; its text form is the case file's dice key.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DiceKey {
    /// `fire:UNIT:P` — UNIT's fire at the end of phase P (average die).
    Fire { unit: String, phase: u8 },
    /// `passfire:UNIT:P` — pass-through fire during phase P (average die).
    PassFire { unit: String, phase: u8 },
    /// `melee:UNIT` — UNIT's melee die this turn (average die).
    Melee { unit: String },
    /// `morale:UNIT:K` — K-th morale test this turn (percentile).
    Morale { unit: String, k: u32 },
    /// `severity:UNIT:K` — severity after the K-th test (percentile).
    Severity { unit: String, k: u32 },
    /// `spell:WIZARD:K` — casting roll of the K-th spell (percentile).
    Spell { wizard: String, k: u32 },
    /// `d6:UNIT:WHAT` — any other die, e.g. `d6:conan:slumber`.
    D6 { unit: String, what: String },
    /// `card:BATTLE:K` — the K-th draw from the campaign's terrain-card deck
    /// for a battle (percentile: the card's number).
    Card { battle: String, k: u32 },
}

impl DiceKey {
    /// Which die this roll uses.
    pub fn kind(&self) -> DieKind {
        match self {
            DiceKey::Fire { .. } | DiceKey::PassFire { .. } | DiceKey::Melee { .. } => {
                DieKind::Average
            }
            DiceKey::Morale { .. }
            | DiceKey::Severity { .. }
            | DiceKey::Spell { .. }
            | DiceKey::Card { .. } => DieKind::Percentile,
            DiceKey::D6 { .. } => DieKind::D6,
        }
    }
}

impl fmt::Display for DiceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiceKey::Fire { unit, phase } => write!(f, "fire:{unit}:{phase}"),
            DiceKey::PassFire { unit, phase } => write!(f, "passfire:{unit}:{phase}"),
            DiceKey::Melee { unit } => write!(f, "melee:{unit}"),
            DiceKey::Morale { unit, k } => write!(f, "morale:{unit}:{k}"),
            DiceKey::Severity { unit, k } => write!(f, "severity:{unit}:{k}"),
            DiceKey::Spell { wizard, k } => write!(f, "spell:{wizard}:{k}"),
            DiceKey::D6 { unit, what } => write!(f, "d6:{unit}:{what}"),
            DiceKey::Card { battle, k } => write!(f, "card:{battle}:{k}"),
        }
    }
}

/// A dice key that is not in the case format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("dice key '{given}' is not in the format: {why} (e.g. fire:boss:1, melee:foot, morale:foot:2, d6:conan:slumber)")]
pub struct ParseDiceKeyError {
    pub given: String,
    pub why: &'static str,
}

fn is_id(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

impl FromStr for DiceKey {
    type Err = ParseDiceKeyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = |why| ParseDiceKeyError {
            given: s.to_string(),
            why,
        };
        let parts: Vec<&str> = s.split(':').collect();
        let (kind, unit) = match parts.as_slice() {
            [kind, unit, ..] if is_id(unit) => (*kind, unit.to_string()),
            [_, _, ..] => return Err(err("the unit id may hold only letters, digits, - and _")),
            _ => return Err(err("expected KIND:UNIT[:N]")),
        };
        let phase = || match parts.as_slice() {
            [_, _, "1"] => Ok(1),
            [_, _, "2"] => Ok(2),
            _ => Err(err("the phase must be 1 or 2")),
        };
        let count = || match parts.as_slice() {
            [_, _, k] => k
                .parse::<u32>()
                .ok()
                .filter(|k| *k >= 1)
                .ok_or(err("the count must be a number from 1")),
            _ => Err(err("expected KIND:UNIT:N")),
        };
        match kind {
            "fire" => Ok(DiceKey::Fire {
                unit,
                phase: phase()?,
            }),
            "passfire" => Ok(DiceKey::PassFire {
                unit,
                phase: phase()?,
            }),
            "melee" if parts.len() == 2 => Ok(DiceKey::Melee { unit }),
            "melee" => Err(err("melee keys are melee:UNIT")),
            "morale" => Ok(DiceKey::Morale { unit, k: count()? }),
            "severity" => Ok(DiceKey::Severity { unit, k: count()? }),
            "spell" => Ok(DiceKey::Spell {
                wizard: unit,
                k: count()?,
            }),
            "card" => Ok(DiceKey::Card {
                battle: unit,
                k: count()?,
            }),
            "d6" => match parts.as_slice() {
                [_, _, what] if is_id(what) => Ok(DiceKey::D6 {
                    unit,
                    what: what.to_string(),
                }),
                _ => Err(err("d6 keys are d6:UNIT:WHAT")),
            },
            _ => Err(err(
                "the kind must be fire, passfire, melee, morale, severity, spell, card or d6",
            )),
        }
    }
}

/// Rolling by typed key on any dice source.
pub trait Roll {
    /// The roll for `key`; the die follows from the key.
    ///
    /// # Errors
    /// Scripted sources fail on a missing or impossible value.
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError>;
}

impl<D: Dice + ?Sized> Roll for D {
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError> {
        self.roll_die(&key.to_string(), key.kind())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip() {
        for k in [
            "fire:boss:1",
            "passfire:a-b:2",
            "melee:foot",
            "morale:foot:2",
            "severity:x:1",
            "spell:thoth:3",
            "d6:conan:slumber",
        ] {
            assert_eq!(k.parse::<DiceKey>().unwrap().to_string(), k);
        }
        for bad in [
            "fire:boss:3",
            "melee:foot:1",
            "morale:foot:0",
            "smite:x:1",
            "fire",
            "d6:x",
            "fire::1",
        ] {
            assert!(bad.parse::<DiceKey>().is_err(), "{bad}");
        }
    }

    #[test]
    fn typed_keys_roll_their_die() {
        let mut d = SeededDice::new([3; 32]);
        for i in 0..50 {
            let v = d
                .roll(&DiceKey::Melee {
                    unit: format!("u{i}"),
                })
                .unwrap();
            assert!(DieKind::Average.can_show(v));
            let v = d
                .roll(&DiceKey::Morale {
                    unit: "u".into(),
                    k: i + 1,
                })
                .unwrap();
            assert!(DieKind::Percentile.can_show(v));
        }
    }
}

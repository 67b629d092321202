//! Dice as data: every roll is asked for by a [`DiceKey`] naming what it is
//! for, and answered by a [`Dice`] source — [`SeededDice`] (a ChaCha20
//! stream per key, so a seed published after the turn lets players check
//! every roll) or [`ScriptedDice`] (a moderator's or a case file's values).
//!
//! ```
//! use umpire::dice::{Dice, DiceKey, ScriptedDice, SeededDice};
//! let key: DiceKey = "fire:boss:1".parse().unwrap();
//! assert_eq!(key.to_string(), "fire:boss:1");
//! let mut seeded = SeededDice::new([7; 32]);
//! let v = seeded.roll(&key).unwrap();
//! assert!((2..=5).contains(&v));
//! let mut scripted = ScriptedDice::new([("fire:boss:1".to_string(), 4)].into());
//! assert_eq!(scripted.roll(&key).unwrap(), 4);
//! assert!(scripted.unused_keys().is_empty());
//! ```

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
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

/// The kinds of die the book uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DieKind {
    /// The average die: faces 2, 3, 3, 4, 4, 5.
    Average,
    /// Percentile dice, written 1–100 (100 is the "00" roll).
    Percentile,
    /// An ordinary six-sided die.
    D6,
}

/// Faces of the average die (§4).
pub const AVERAGE_DIE_FACES: [u8; 6] = [2, 3, 3, 4, 4, 5];

impl DieKind {
    /// Whether `v` is a face this die can show.
    pub fn can_show(self, v: u8) -> bool {
        match self {
            DieKind::Average => (2..=5).contains(&v),
            DieKind::Percentile => (1..=100).contains(&v),
            DieKind::D6 => (1..=6).contains(&v),
        }
    }

    /// How the die's faces are described to people.
    pub fn describe(self) -> &'static str {
        match self {
            DieKind::Average => "an average die shows 2-5",
            DieKind::Percentile => "percentile dice are written 1-100",
            DieKind::D6 => "a d6 shows 1-6",
        }
    }
}

impl DiceKey {
    /// Which die this roll uses.
    pub fn kind(&self) -> DieKind {
        match self {
            DiceKey::Fire { .. } | DiceKey::PassFire { .. } | DiceKey::Melee { .. } => {
                DieKind::Average
            }
            DiceKey::Morale { .. } | DiceKey::Severity { .. } | DiceKey::Spell { .. } | DiceKey::Card { .. } => {
                DieKind::Percentile
            }
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

/// Why a roll could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// A scripted source has no value for this key.
    #[error("dice key {key} needed but not given")]
    Missing { key: String },
    /// A scripted value the die cannot show.
    #[error("dice key {key} = {value}: {}", kind.describe())]
    OutOfRange {
        key: String,
        value: u8,
        kind: DieKind,
    },
}

/// A source of dice rolls.
pub trait Dice {
    /// The roll for `key`; the die kind follows from the key.
    ///
    /// # Errors
    /// Scripted sources fail on a missing or impossible value.
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError>;
}

/// Deterministic dice from a 32-byte seed: each key gets its own ChaCha20
/// stream, seeded by SHA-256 of the seed and the key's text, so a roll
/// depends only on the seed and what it is for, never on the order rolls
/// are asked for.
#[derive(Clone)]
pub struct SeededDice {
    seed: [u8; 32],
}

impl SeededDice {
    pub fn new(seed: [u8; 32]) -> Self {
        SeededDice { seed }
    }

    /// SHA-256 of the seed, as hex: published in one report before the seed
    /// itself is revealed in the next.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.seed))
    }
}

impl Dice for SeededDice {
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError> {
        let mut h = Sha256::new();
        h.update(self.seed);
        h.update(key.to_string().as_bytes());
        let mut rng = ChaCha20Rng::from_seed(h.finalize().into());
        Ok(match key.kind() {
            DieKind::Average => AVERAGE_DIE_FACES[rng.random_range(0..AVERAGE_DIE_FACES.len())],
            DieKind::Percentile => rng.random_range(1..=100),
            DieKind::D6 => rng.random_range(1..=6),
        })
    }
}

/// Dice given in advance by key (case files, moderators' real dice).
#[derive(Debug, Clone, Default)]
pub struct ScriptedDice {
    values: BTreeMap<String, u8>,
    used: BTreeSet<String>,
}

impl ScriptedDice {
    pub fn new(values: BTreeMap<String, u8>) -> Self {
        ScriptedDice {
            values,
            used: BTreeSet::new(),
        }
    }

    /// Keys given but never rolled, sorted.
    pub fn unused_keys(&self) -> Vec<String> {
        self.values
            .keys()
            .filter(|k| !self.used.contains(*k))
            .cloned()
            .collect()
    }
}

impl Dice for ScriptedDice {
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError> {
        let text = key.to_string();
        let value = *self
            .values
            .get(&text)
            .ok_or_else(|| DiceError::Missing { key: text.clone() })?;
        if !key.kind().can_show(value) {
            return Err(DiceError::OutOfRange {
                key: text,
                value,
                kind: key.kind(),
            });
        }
        self.used.insert(text);
        Ok(value)
    }
}

/// Dice a moderator supplied (a club that prefers real dice), falling back
/// to the seeded stream for every key the moderator did not give.
pub struct ModeratorDice {
    given: ScriptedDice,
    seeded: SeededDice,
}

impl ModeratorDice {
    pub fn new(given: BTreeMap<String, u8>, seeded: SeededDice) -> Self {
        ModeratorDice { given: ScriptedDice::new(given), seeded }
    }
}

impl Dice for ModeratorDice {
    fn roll(&mut self, key: &DiceKey) -> Result<u8, DiceError> {
        match self.given.roll(key) {
            Err(DiceError::Missing { .. }) => self.seeded.roll(key),
            other => other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moderator_dice_come_first_and_the_seed_fills_in() {
        let key: DiceKey = "melee:foot".parse().unwrap();
        let other: DiceKey = "melee:horse".parse().unwrap();
        let mut seeded = SeededDice::new([7; 32]);
        let expected = seeded.roll(&other).unwrap();
        let mut d = ModeratorDice::new([("melee:foot".to_string(), 5)].into(), SeededDice::new([7; 32]));
        assert_eq!(d.roll(&key).unwrap(), 5);
        assert_eq!(d.roll(&other).unwrap(), expected);
        let mut bad = ModeratorDice::new([("melee:foot".to_string(), 6)].into(), SeededDice::new([7; 32]));
        assert!(bad.roll(&key).is_err(), "an average die never shows 6");
    }

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
    fn seeded_depends_only_on_seed_and_key() {
        let keys: Vec<DiceKey> = ["fire:a:1", "morale:b:1", "d6:c:x", "melee:d"]
            .iter()
            .map(|k| k.parse().unwrap())
            .collect();
        let mut one = SeededDice::new([1; 32]);
        let forward: Vec<u8> = keys.iter().map(|k| one.roll(k).unwrap()).collect();
        let mut two = SeededDice::new([1; 32]);
        let mut backward: Vec<u8> = keys.iter().rev().map(|k| two.roll(k).unwrap()).collect();
        backward.reverse();
        assert_eq!(forward, backward);
        for (k, v) in keys.iter().zip(&forward) {
            assert!(k.kind().can_show(*v));
        }
        // Different seeds give different streams somewhere in 50 percentile rolls.
        let mut a = SeededDice::new([1; 32]);
        let mut b = SeededDice::new([2; 32]);
        let differ = (1..=50).any(|k| {
            let key = DiceKey::Morale {
                unit: "u".into(),
                k,
            };
            a.roll(&key).unwrap() != b.roll(&key).unwrap()
        });
        assert!(differ);
        assert_eq!(a.commitment().len(), 64);
    }

    #[test]
    fn average_die_covers_its_faces() {
        let mut d = SeededDice::new([9; 32]);
        let seen: BTreeSet<u8> = (1..=200)
            .map(|k| {
                d.roll(&DiceKey::Morale {
                    unit: "u".into(),
                    k,
                })
                .unwrap()
            })
            .collect();
        assert!(seen.len() > 50);
        let avg: BTreeSet<u8> = (0..100)
            .map(|i| {
                d.roll(&DiceKey::D6 {
                    unit: "u".into(),
                    what: format!("t{i}"),
                })
                .unwrap()
            })
            .collect();
        assert_eq!(avg, (1..=6).collect());
    }

    #[test]
    fn scripted_reports_missing_bad_and_unused() {
        let mut d = ScriptedDice::new(
            [
                ("fire:a:1".to_string(), 4),
                ("melee:a".to_string(), 9),
                ("d6:a:x".to_string(), 2),
            ]
            .into(),
        );
        assert_eq!(d.roll(&"fire:a:1".parse().unwrap()), Ok(4));
        assert_eq!(
            d.roll(&"morale:a:1".parse().unwrap())
                .unwrap_err()
                .to_string(),
            "dice key morale:a:1 needed but not given"
        );
        assert!(matches!(
            d.roll(&"melee:a".parse().unwrap()),
            Err(DiceError::OutOfRange { .. })
        ));
        assert_eq!(
            d.unused_keys(),
            vec!["d6:a:x".to_string(), "melee:a".to_string()]
        );
    }
}

//! Dice as data: every roll is asked for by a key naming what it is for
//! (a rule set's text, `fire:boss:1`, `combat:2`) and the die it uses, and
//! answered by a [`Dice`] source — [`SeededDice`] (a ChaCha20 stream per
//! key, so a seed published after the round lets players check every roll),
//! [`ScriptedDice`] (a moderator's or a case file's values), or
//! [`ModeratorDice`] (the moderator's values in front of the seed).
//!
//! Rule sets name their rolls with typed keys of their own (the Hyborean
//! Age's `games::hyborian::dice::DiceKey`) and ask through this trait, so
//! the post office replays any rule set's round from its seed.
//!
//! ```
//! use umpire::games::hyborian::dice::{Dice, DieKind, ScriptedDice, SeededDice};
//! let mut seeded = SeededDice::new([7; 32]);
//! let v = seeded.roll_die("fire:boss:1", DieKind::Average).unwrap();
//! assert!((2..=5).contains(&v));
//! let mut scripted = ScriptedDice::new([("fire:boss:1".to_string(), 4)].into());
//! assert_eq!(scripted.roll_die("fire:boss:1", DieKind::Average).unwrap(), 4);
//! assert!(scripted.unused_keys().is_empty());
//! ```

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// The kinds of die the book uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DieKind {
    /// The average die: faces 2, 3, 3, 4, 4, 5.
    Average,
    /// Percentile dice, written 1–100 (100 is the "00" roll).
    Percentile,
    /// An ordinary six-sided die.
    D6,
    /// Two ordinary dice added: 2-12.
    TwoD6,
    /// An eight-sided die: 1-8.
    D8,
    /// A ten-sided die, written 1-10 (10 is the face marked 0).
    D10,
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
            DieKind::TwoD6 => (2..=12).contains(&v),
            DieKind::D8 => (1..=8).contains(&v),
            DieKind::D10 => (1..=10).contains(&v),
        }
    }

    /// How the die's faces are described to people.
    pub fn describe(self) -> &'static str {
        match self {
            DieKind::Average => "an average die shows 2-5",
            DieKind::Percentile => "percentile dice are written 1-100",
            DieKind::D6 => "a d6 shows 1-6",
            DieKind::TwoD6 => "two d6 add up to 2-12",
            DieKind::D8 => "a d8 shows 1-8",
            DieKind::D10 => "a d10 is written 1-10 (10 for the face marked 0)",
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
    /// The roll of `die` for `key` (the key's text, as case files write it).
    ///
    /// # Errors
    /// Scripted sources fail on a missing or impossible value.
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError>;
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

    /// The seed's commitment ([`seed_hash`] of its hex), as reports
    /// publish it.
    pub fn commitment(&self) -> String {
        seed_hash(&hex::encode(self.seed))
    }
}

/// The commitment to a seed: SHA-256 of its hex text, as hex. A round's
/// report publishes it before the seed itself is revealed in the next, so
/// anyone can check that the dice were fixed before the orders came in.
pub fn seed_hash(hex_seed: &str) -> String {
    hex::encode(Sha256::digest(hex_seed.as_bytes()))
}

impl Dice for SeededDice {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        let mut h = Sha256::new();
        h.update(self.seed);
        h.update(key.as_bytes());
        let mut rng = ChaCha20Rng::from_seed(h.finalize().into());
        Ok(match die {
            DieKind::Average => AVERAGE_DIE_FACES[rng.random_range(0..AVERAGE_DIE_FACES.len())],
            DieKind::Percentile => rng.random_range(1..=100),
            DieKind::D6 => rng.random_range(1..=6),
            DieKind::TwoD6 => rng.random_range(1..=6) + rng.random_range(1..=6),
            DieKind::D8 => rng.random_range(1..=8),
            DieKind::D10 => rng.random_range(1..=10),
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
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        let value = *self.values.get(key).ok_or_else(|| DiceError::Missing {
            key: key.to_string(),
        })?;
        if !die.can_show(value) {
            return Err(DiceError::OutOfRange {
                key: key.to_string(),
                value,
                kind: die,
            });
        }
        self.used.insert(key.to_string());
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
        ModeratorDice {
            given: ScriptedDice::new(given),
            seeded,
        }
    }
}

impl Dice for ModeratorDice {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        match self.given.roll_die(key, die) {
            Err(DiceError::Missing { .. }) => self.seeded.roll_die(key, die),
            other => other,
        }
    }
}

/// Any dice source, with every roll written down in the order rolled, for
/// the report's dice list ("combat:1 = 4").
pub struct Recorded<'a> {
    inner: &'a mut dyn Dice,
    rolls: Vec<(String, u8)>,
}

impl<'a> Recorded<'a> {
    pub fn new(inner: &'a mut dyn Dice) -> Self {
        Recorded {
            inner,
            rolls: Vec::new(),
        }
    }

    /// Every roll as `key = value`, in the order rolled.
    pub fn lines(&self) -> Vec<String> {
        self.rolls
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect()
    }
}

impl Recorded<'_> {
    /// Every roll, in the order rolled.
    pub fn rolls(&self) -> &[(String, u8)] {
        &self.rolls
    }
}

/// Rolls already made and shown, served again for their keys; every other
/// key from the source. A turn played again from its start (Furor
/// Barbarus' `ask_owner`, after the other player's answer) reads its first
/// dice from here, so what was reported happens again.
pub struct Replayed<'a> {
    made: BTreeMap<String, u8>,
    inner: &'a mut dyn Dice,
}

impl<'a> Replayed<'a> {
    pub fn new(made: &[(String, u8)], inner: &'a mut dyn Dice) -> Self {
        Replayed {
            made: made.iter().cloned().collect(),
            inner,
        }
    }
}

impl Dice for Replayed<'_> {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        match self.made.get(key) {
            Some(v) => Ok(*v),
            None => self.inner.roll_die(key, die),
        }
    }
}

impl Dice for Recorded<'_> {
    fn roll_die(&mut self, key: &str, die: DieKind) -> Result<u8, DiceError> {
        let v = self.inner.roll_die(key, die)?;
        self.rolls.push((key.to_string(), v));
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorded_dice_list_every_roll_in_order() {
        let mut seeded = SeededDice::new([1; 32]);
        let mut r = Recorded::new(&mut seeded);
        let a = r.roll_die("combat:2", DieKind::D6).unwrap();
        let b = r.roll_die("combat:1", DieKind::D6).unwrap();
        assert_eq!(
            r.lines(),
            vec![format!("combat:2 = {a}"), format!("combat:1 = {b}")]
        );
    }

    #[test]
    fn replayed_dice_serve_the_rolls_shown_and_the_source_the_rest() {
        let mut first = SeededDice::new([1; 32]);
        let shown = first.roll_die("combat:1", DieKind::D6).unwrap();
        let mut second = SeededDice::new([2; 32]);
        let fresh = second.roll_die("combat:2", DieKind::D6).unwrap();
        let mut second = SeededDice::new([2; 32]);
        let mut r = Replayed::new(&[("combat:1".to_string(), shown)], &mut second);
        assert_eq!(r.roll_die("combat:1", DieKind::D6).unwrap(), shown);
        assert_eq!(r.roll_die("combat:2", DieKind::D6).unwrap(), fresh);
    }

    #[test]
    fn moderator_dice_come_first_and_the_seed_fills_in() {
        let mut seeded = SeededDice::new([7; 32]);
        let expected = seeded.roll_die("melee:horse", DieKind::Average).unwrap();
        let mut d = ModeratorDice::new(
            [("melee:foot".to_string(), 5)].into(),
            SeededDice::new([7; 32]),
        );
        assert_eq!(d.roll_die("melee:foot", DieKind::Average).unwrap(), 5);
        assert_eq!(
            d.roll_die("melee:horse", DieKind::Average).unwrap(),
            expected
        );
        let mut bad = ModeratorDice::new(
            [("melee:foot".to_string(), 6)].into(),
            SeededDice::new([7; 32]),
        );
        assert!(
            bad.roll_die("melee:foot", DieKind::Average).is_err(),
            "an average die never shows 6"
        );
    }

    #[test]
    fn seeded_depends_only_on_seed_and_key() {
        let keys = [
            ("fire:a:1", DieKind::Average),
            ("morale:b:1", DieKind::Percentile),
            ("d6:c:x", DieKind::D6),
            ("defection:1", DieKind::TwoD6),
        ];
        let mut one = SeededDice::new([1; 32]);
        let forward: Vec<u8> = keys
            .iter()
            .map(|(k, d)| one.roll_die(k, *d).unwrap())
            .collect();
        let mut two = SeededDice::new([1; 32]);
        let mut backward: Vec<u8> = keys
            .iter()
            .rev()
            .map(|(k, d)| two.roll_die(k, *d).unwrap())
            .collect();
        backward.reverse();
        assert_eq!(forward, backward);
        for ((_, d), v) in keys.iter().zip(&forward) {
            assert!(d.can_show(*v));
        }
        // Different seeds give different streams somewhere in 50 percentile rolls.
        let mut a = SeededDice::new([1; 32]);
        let mut b = SeededDice::new([2; 32]);
        let differ = (1..=50).any(|k| {
            let key = format!("morale:u:{k}");
            a.roll_die(&key, DieKind::Percentile).unwrap()
                != b.roll_die(&key, DieKind::Percentile).unwrap()
        });
        assert!(differ);
        assert_eq!(a.commitment().len(), 64);
    }

    #[test]
    fn every_die_covers_its_faces() {
        let mut d = SeededDice::new([9; 32]);
        let faces = |d: &mut SeededDice, die: DieKind| -> BTreeSet<u8> {
            (0..400)
                .map(|i| d.roll_die(&format!("t:{i}"), die).unwrap())
                .collect()
        };
        assert_eq!(faces(&mut d, DieKind::D6), (1..=6).collect());
        assert_eq!(faces(&mut d, DieKind::Average), [2, 3, 4, 5].into());
        assert_eq!(faces(&mut d, DieKind::TwoD6), (2..=12).collect());
        assert_eq!(faces(&mut d, DieKind::D8), (1..=8).collect());
        assert_eq!(faces(&mut d, DieKind::D10), (1..=10).collect());
        assert!(faces(&mut d, DieKind::Percentile).len() > 90);
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
        assert_eq!(d.roll_die("fire:a:1", DieKind::Average), Ok(4));
        assert_eq!(
            d.roll_die("morale:a:1", DieKind::Percentile)
                .unwrap_err()
                .to_string(),
            "dice key morale:a:1 needed but not given"
        );
        assert!(matches!(
            d.roll_die("melee:a", DieKind::Average),
            Err(DiceError::OutOfRange { .. })
        ));
        assert_eq!(
            d.unused_keys(),
            vec!["d6:a:x".to_string(), "melee:a".to_string()]
        );
    }
}

//! Seeds: one master seed for a whole simulation, from which every
//! battle's seed is derived, and from a battle's seed every turn's. A
//! battle is replayed from its seed alone, so the seed is what a report
//! prints and what `umpire simulate --replay` takes.
//!
//! Each seed is SHA-256 of its parent and a label, so battles are
//! independent of one another and of the order (or thread) they are
//! played in.
//!
//! ```
//! use umpire::sim::seed::BattleSeed;
//! let a = BattleSeed::of_run(7, 0);
//! assert_eq!(a, BattleSeed::of_run(7, 0));
//! assert_ne!(a, BattleSeed::of_run(7, 1));
//! assert_eq!(a.to_string().parse::<BattleSeed>(), Ok(a));
//! ```

use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

/// The seed of one battle: 32 bytes, written as 64 hex digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BattleSeed(pub [u8; 32]);

fn digest(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update((p.len() as u64).to_le_bytes());
        h.update(p);
    }
    h.finalize().into()
}

impl BattleSeed {
    /// Battle `index` of a simulation with master seed `master`.
    pub fn of_run(master: u64, index: u64) -> Self {
        BattleSeed(digest(&[
            b"umpire simulate",
            &master.to_le_bytes(),
            &index.to_le_bytes(),
        ]))
    }

    /// Battle `index` of the pairing `a` against `b` in a fairness
    /// tournament with master seed `master` at `points`.
    pub fn of_pairing(master: u64, points: u32, a: &str, b: &str, index: u64) -> Self {
        BattleSeed(digest(&[
            b"umpire fairness",
            &master.to_le_bytes(),
            &points.to_le_bytes(),
            a.as_bytes(),
            b.as_bytes(),
            &index.to_le_bytes(),
        ]))
    }

    /// The dice seed of turn `turn` (0 is a scenario's deployment turn).
    pub fn turn(&self, turn: u32) -> [u8; 32] {
        digest(&[b"turn", &self.0, &turn.to_le_bytes()])
    }

    /// The dice seed of what is rolled before the battle: the terrain
    /// card, the table ends, the hours spent deploying.
    pub fn eve(&self) -> [u8; 32] {
        digest(&[b"eve", &self.0])
    }
}

impl fmt::Display for BattleSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&hex::encode(self.0))
    }
}

/// A seed that is not 64 hex digits.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a battle seed: write the 64 hex digits a simulation printed")]
pub struct BadSeed(pub String);

impl FromStr for BattleSeed {
    type Err = BadSeed;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        hex::decode(s.trim())
            .ok()
            .and_then(|v| <[u8; 32]>::try_from(v).ok())
            .map(BattleSeed)
            .ok_or_else(|| BadSeed(s.chars().take(80).collect()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_every_part() {
        let s = BattleSeed::of_pairing(1, 500, "Koth", "Stygia", 3);
        assert_ne!(s, BattleSeed::of_pairing(1, 500, "Stygia", "Koth", 3));
        assert_ne!(s, BattleSeed::of_pairing(1, 1500, "Koth", "Stygia", 3));
        assert_ne!(s, BattleSeed::of_pairing(2, 500, "Koth", "Stygia", 3));
        // Length-prefixed parts: moving a letter between names changes the seed.
        assert_ne!(
            BattleSeed::of_pairing(1, 500, "ab", "c", 0),
            BattleSeed::of_pairing(1, 500, "a", "bc", 0)
        );
        assert_ne!(s.turn(1), s.turn(2));
        assert_ne!(s.turn(0), s.eve());
    }

    #[test]
    fn only_64_hex_digits_are_seeds() {
        assert!("00".parse::<BattleSeed>().is_err());
        assert!("zz".repeat(32).parse::<BattleSeed>().is_err());
        let s = "ab".repeat(32);
        assert_eq!(s.parse::<BattleSeed>().map(|b| b.to_string()), Ok(s));
    }
}

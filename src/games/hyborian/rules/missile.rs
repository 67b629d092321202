//! §6 Missile fire as numbers: the weapons' ranges. (The fire step reads
//! these; movement uses the maximum range to record which archers a moving
//! unit came within range of, for pass-through fire.)
//!
//! ```
//! use umpire::games::hyborian::rules::{missile::max_range, Weapon};
//! assert_eq!(max_range(Weapon::Bow), Some(12.0));
//! assert_eq!(max_range(Weapon::Pike), None);
//! ```

use super::Weapon;

/// Maximum range in inches (§6 table); pikes shoot nothing.
pub fn max_range(w: Weapon) -> Option<f64> {
    match w {
        Weapon::Bow => Some(12.0),
        Weapon::ShemiteBow => Some(15.0),
        Weapon::Crossbow => Some(18.0),
        Weapon::Thrown => Some(3.0),
        Weapon::Pike => None,
    }
}

/// The longest range among a unit's weapons, if it shoots at all.
pub fn longest_range(weapons: &[Weapon]) -> Option<f64> {
    weapons
        .iter()
        .filter_map(|w| max_range(*w))
        .reduce(f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_of_several() {
        assert_eq!(
            longest_range(&[Weapon::Thrown, Weapon::ShemiteBow]),
            Some(15.0)
        );
        assert_eq!(longest_range(&[Weapon::Pike]), None);
        assert_eq!(longest_range(&[]), None);
    }
}

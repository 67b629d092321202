//! Rage and Panic as one state machine (ruling FA-5, O5) and the two
//! move-direction compasses (§5).
//!
//! An elephant that would take a DMZ becomes enraged instead; an enraged
//! elephant that takes a DMZ (it "becomes double DMZ") panics; a panicked
//! unit that takes a DMZ is killed; rallying returns an enraged or panicked
//! unit to normal. A scythed chariot panics when it fails its impact check
//! (or its rally check before impact, rule 9) and is killed by a DMZ while
//! panicked.
//!
//! ```
//! use umpire::games::fr_ancients::rage::{after_dmz, enraged_bearing, secondary_bearing, Turn};
//! use umpire::games::fr_ancients::table::Fury;
//! use umpire::games::fr_ancients::troops::TroopType::{Elephants, Spears};
//! assert_eq!(after_dmz(Elephants, Fury::Calm), Turn::Becomes(Fury::Enraged));
//! assert_eq!(after_dmz(Elephants, Fury::Enraged), Turn::Becomes(Fury::Panicked));
//! assert_eq!(after_dmz(Elephants, Fury::Panicked), Turn::Killed);
//! assert_eq!(after_dmz(Spears, Fury::Calm), Turn::Dmz);
//! assert_eq!(enraged_bearing(3), 90.0, "3 is right");
//! assert_eq!(secondary_bearing(1, 45.0), -45.0, "1-2 left of the arc");
//! ```

use super::options::CompassDie;
use super::sheet::sheet;
use super::table::Fury;
use super::troops::TroopType;
use crate::dice::{Dice, DiceError, DieKind};

/// What one DMZ does to a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// An ordinary level of demoralization.
    Dmz,
    /// Instead of a level, the unit changes state.
    Becomes(Fury),
    /// "killed and removed from play".
    Killed,
}

/// The state machine's step for one DMZ.
pub fn after_dmz(troop: TroopType, fury: Fury) -> Turn {
    match (troop.suffers_rage(), fury) {
        (_, Fury::Panicked) => Turn::Killed,
        (true, Fury::Calm) => Turn::Becomes(Fury::Enraged),
        (true, Fury::Enraged) => Turn::Becomes(Fury::Panicked),
        (false, Fury::Enraged) => Turn::Becomes(Fury::Panicked),
        (false, Fury::Calm) => Turn::Dmz,
    }
}

/// Bearing, clockwise from the unit's facing, of a point of the Enraged
/// Move Direction compass (1 forward, 3 right, 5 rear, 7 left; the even
/// points the diagonals, ruling FA-4).
pub fn enraged_bearing(point: u8) -> f64 {
    let points = &sheet().abilities.enraged_compass.points;
    points[usize::from(point.clamp(1, 8) - 1)]
}

/// Bearing, clockwise from the unit's facing, of the Secondary Move
/// Direction: 1-2 along the left edge of the movement arc, 3-6 forward,
/// 7-8 along its right edge; `arc` is the movement arc's half-angle.
pub fn secondary_bearing(point: u8, arc: f64) -> f64 {
    let c = &sheet().abilities.secondary_compass;
    if c.left.contains(&point) {
        -arc
    } else if c.right.contains(&point) {
        arc
    } else {
        0.0
    }
}

/// The longest run of re-rolls before a compass reads forward (a scripted
/// die that never stops showing 9 cannot hang the engine).
const MAX_REROLLS: u32 = 50;

/// Roll a compass point 1–8: a d10 re-rolling 9 and 0, or a d8; each roll
/// under the next key `next_key` gives (`compass:UNIT:P:1`, `…:2`, …).
/// Returns the point and every roll made.
///
/// # Errors
/// A scripted die without the key.
pub fn roll_compass(
    dice: &mut dyn Dice,
    next_key: &mut dyn FnMut() -> String,
    die: CompassDie,
) -> Result<(u8, Vec<(String, u8)>), DiceError> {
    let mut rolls = Vec::new();
    for _ in 0..MAX_REROLLS {
        let key = next_key();
        let v = match die {
            CompassDie::D10 => dice.roll_die(&key, DieKind::D10)?,
            CompassDie::D8 => dice.roll_die(&key, DieKind::D8)?,
        };
        rolls.push((key, v));
        if v <= 8 {
            return Ok((v, rolls));
        }
    }
    Ok((1, rolls))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn the_whole_machine() {
        use TroopType::*;
        assert_eq!(after_dmz(ScythedChariots, Fury::Calm), Turn::Dmz);
        assert_eq!(after_dmz(ScythedChariots, Fury::Panicked), Turn::Killed);
        for t in [Elephants, ScythedChariots, Spears] {
            assert_eq!(after_dmz(t, Fury::Panicked), Turn::Killed, "{t}");
        }
    }

    #[test]
    fn compass_points() {
        let want = [
            (1, 0.0),
            (2, 45.0),
            (3, 90.0),
            (4, 135.0),
            (5, 180.0),
            (6, 225.0),
            (7, 270.0),
            (8, 315.0),
        ];
        for (p, b) in want {
            assert_eq!(enraged_bearing(p), b);
        }
        for p in 3..=6 {
            assert_eq!(secondary_bearing(p, 45.0), 0.0);
        }
        assert_eq!(secondary_bearing(8, 30.0), 30.0);
    }

    #[test]
    fn nine_and_zero_are_rolled_again() {
        let mut d = ScriptedDice::new(
            [
                ("c:e:1:1".to_string(), 9),
                ("c:e:1:2".to_string(), 10),
                ("c:e:1:3".to_string(), 4),
            ]
            .into(),
        );
        let mut k = 0;
        let mut next = || {
            k += 1;
            format!("c:e:1:{k}")
        };
        let (p, rolls) = roll_compass(&mut d, &mut next, CompassDie::D10).unwrap();
        assert_eq!(p, 4);
        assert_eq!(rolls.len(), 3);
        assert!(d.unused_keys().is_empty());
        let mut d8 = ScriptedDice::new([("c:e:1:1".to_string(), 8)].into());
        let mut first = || "c:e:1:1".to_string();
        assert_eq!(
            roll_compass(&mut d8, &mut first, CompassDie::D8).unwrap().0,
            8
        );
    }
}

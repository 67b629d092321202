//! Missile fire (§6) as data: ranges and long ranges by weapon, the ranks
//! that fire, the arcs, every modifier to the average die, and the 1:20
//! rule that turns kills into casualties.
//!
//! ```
//! use umpire::games::hyborian::rules::fire::{casualties_from_kills, range_of, MissileWeapon};
//! assert_eq!(casualties_from_kills(24), 1); // the book's Bossonians: 24 kills = 1 figure
//! assert_eq!(casualties_from_kills(29), 1);
//! assert_eq!(casualties_from_kills(30), 2); // a remainder of 10 rounds up
//! assert_eq!(range_of(MissileWeapon::Bow, false).max, 12.0);
//! ```

use super::{UnitType, Weapon};

/// What a unit shoots with (§6 table): the weapons of the case format plus
/// horse archers' bows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MissileWeapon {
    Bow,
    ShemiteBow,
    /// Optional: Western kingdoms and Khitai only.
    Crossbow,
    /// Picts, Northern Barbarians, Kushites: javelins and axes.
    Thrown,
}

impl MissileWeapon {
    /// The missile weapon a listed weapon is, if any (pikes are not).
    pub fn of(w: Weapon) -> Option<MissileWeapon> {
        match w {
            Weapon::Bow => Some(MissileWeapon::Bow),
            Weapon::ShemiteBow => Some(MissileWeapon::ShemiteBow),
            Weapon::Crossbow => Some(MissileWeapon::Crossbow),
            Weapon::Thrown => Some(MissileWeapon::Thrown),
            Weapon::Pike => None,
        }
    }

    /// The book's name, for reports.
    pub fn book_name(self) -> &'static str {
        match self {
            MissileWeapon::Bow => "bow",
            MissileWeapon::ShemiteBow => "Shemite bow",
            MissileWeapon::Crossbow => "crossbow",
            MissileWeapon::Thrown => "thrown weapons",
        }
    }
}

/// A weapon's reach in inches (§6 table; the maximum comes from
/// [`super::missile::max_range`], the one place it is written).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Range {
    /// Maximum range.
    pub max: f64,
    /// Fire at targets farther than this is at long range (−1). Thrown
    /// weapons are always at long range (0).
    pub long_over: f64,
}

/// Long range begins over 9 inches for bows and Shemite bows (ruling C-3).
pub const BOW_LONG_OVER: f64 = 9.0;
/// The alternative reading of the Shemite bow's long range (option).
pub const SHEMITE_BOW_LONG_OVER_ALT: f64 = 12.0;
/// Crossbows: long over 12 inches.
pub const CROSSBOW_LONG_OVER: f64 = 12.0;
/// Thrown weapons are always at long range.
pub const THROWN_LONG_OVER: f64 = 0.0;

impl MissileWeapon {
    /// The listed weapon this is.
    pub fn weapon(self) -> Weapon {
        match self {
            MissileWeapon::Bow => Weapon::Bow,
            MissileWeapon::ShemiteBow => Weapon::ShemiteBow,
            MissileWeapon::Crossbow => Weapon::Crossbow,
            MissileWeapon::Thrown => Weapon::Thrown,
        }
    }
}

/// A weapon's range (§6 table); `shemite_long_over_12` is the club option.
pub fn range_of(w: MissileWeapon, shemite_long_over_12: bool) -> Range {
    let max = super::missile::max_range(w.weapon()).unwrap_or(0.0);
    let long_over = match w {
        MissileWeapon::Bow => BOW_LONG_OVER,
        MissileWeapon::ShemiteBow if shemite_long_over_12 => SHEMITE_BOW_LONG_OVER_ALT,
        MissileWeapon::ShemiteBow => BOW_LONG_OVER,
        MissileWeapon::Crossbow => CROSSBOW_LONG_OVER,
        MissileWeapon::Thrown => THROWN_LONG_OVER,
    };
    Range { max, long_over }
}

/// Ranks that fire (§6 "who fires"): bows and crossbows two ranks, thrown
/// weapons one rank, horse archers one rank in line.
pub fn ranks_that_fire(w: MissileWeapon) -> u32 {
    match w {
        MissileWeapon::Bow | MissileWeapon::ShemiteBow | MissileWeapon::Crossbow => {
            FOOT_ARCHER_RANKS
        }
        MissileWeapon::Thrown => THROWN_RANKS,
    }
}

/// Bows fire two ranks deep.
pub const FOOT_ARCHER_RANKS: u32 = 2;
/// Thrown weapons: the front rank only.
pub const THROWN_RANKS: u32 = 1;
/// Horse archers in line: one rank.
pub const HORSE_ARCHER_LINE_RANKS: u32 = 1;
/// Horse archers in column shoot to the side three files deep.
pub const HORSE_ARCHER_COLUMN_SIDE_FILES: u32 = 3;
/// Archers of a mammoth: two per beast (§5, ruling C-9).
pub const MAMMOTH_ARCHERS_PER_BEAST: u32 = 2;
/// Archers of a chariot: one per chariot (§5).
pub const CHARIOT_ARCHERS_PER_CHARIOT: u32 = 1;

/// Crew archers left in a chariot or mammoth unit of `figures` crew (§5):
/// casualties fall one vehicle or beast at a time, and on it in the crew's
/// order — a mammoth loses its spearman, then its two archers, then its
/// mahout; a chariot its spearman, then its archer (ruling C-32). Other
/// units: `None`.
pub fn crew_archers(kind: UnitType, figures: u32) -> Option<u32> {
    let crew = crate::games::hyborian::rules::bases::base(kind).crew;
    let (whole, part) = (figures / crew, figures % crew);
    match kind {
        UnitType::WoollyMammoth => Some(
            whole * MAMMOTH_ARCHERS_PER_BEAST
                + part.saturating_sub(1).min(MAMMOTH_ARCHERS_PER_BEAST),
        ),
        UnitType::HeavyChariot | UnitType::LightChariot => Some(
            crate::games::hyborian::rules::bases::models(kind, figures)
                * CHARIOT_ARCHERS_PER_CHARIOT,
        ),
        _ => None,
    }
}

/// Arcs of fire in degrees either side of the front (§6): foot archers 45°
/// either side; horse archers 45° to the right and 135° to the left.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Arc {
    pub right: f64,
    pub left: f64,
}

pub const FOOT_ARC: Arc = Arc {
    right: 45.0,
    left: 45.0,
};
pub const HORSE_ARCHER_ARC: Arc = Arc {
    right: 45.0,
    left: 135.0,
};

/// Fire passes through gaps greater than this many inches (§6).
pub const FIRE_GAP: f64 = 3.0;
/// Units in woods or swamps are shot at, and shoot out, only within this
/// many inches of the edge (§7).
pub const EDGE_DEPTH: f64 = 3.0;
/// Pass-through fire: archers that moved less than this many inches (§6).
pub const PASS_FIRE_MOVE_LIMIT: f64 = 3.0;

/// The modifiers of §6 to the fire die, each named after the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FireModifier {
    /// Range over 9" (over 12" crossbows); thrown weapons always.
    LongRange,
    /// Firer moved or changed face/formation this turn.
    FirerMoved,
    /// Target moved this turn.
    TargetMoved,
    /// Target uphill of the firer, on a hill or in a swamp (taken once).
    Uphill,
    /// Target in woods.
    Woods,
    /// Firer is Bossonian Archers.
    Bossonian,
    /// Target is infantry 3+ ranks deep and not charging this phase.
    Tortoise,
    /// Firer in fall-back status.
    FallBack,
    /// Target is a wizard (haze).
    Wizard,
    /// Target is mammoths (crew count as uphill).
    Mammoth,
}

impl FireModifier {
    /// The modifier's value on the die.
    pub fn value(self) -> i32 {
        match self {
            FireModifier::Woods => -2,
            FireModifier::Bossonian => 1,
            _ => -1,
        }
    }

    /// Short name for reports and events.
    pub fn name(self) -> &'static str {
        match self {
            FireModifier::LongRange => "long range",
            FireModifier::FirerMoved => "moved",
            FireModifier::TargetMoved => "target moved",
            FireModifier::Uphill => "target uphill",
            FireModifier::Woods => "target in woods",
            FireModifier::Bossonian => "Bossonian",
            FireModifier::Tortoise => "tortoise",
            FireModifier::FallBack => "fall-back",
            FireModifier::Wizard => "wizard's haze",
            FireModifier::Mammoth => "mammoth",
        }
    }
}

/// Infantry this many ranks deep or more form a tortoise against fire.
pub const TORTOISE_RANKS: u32 = 3;

/// Kills per casualty (§6: kills ÷ 20).
pub const KILLS_PER_CASUALTY: u32 = 20;
/// A remainder of this many kills or more rounds up.
pub const ROUND_UP_REMAINDER: u32 = 10;

/// Casualties from kills: ÷ 20, a remainder of 10 or more rounds up (§6).
pub fn casualties_from_kills(kills: u32) -> u32 {
    kills / KILLS_PER_CASUALTY + u32::from(kills % KILLS_PER_CASUALTY >= ROUND_UP_REMAINDER)
}

/// Kills from a die, the sum of modifiers and the figures firing: a
/// modified die below 0 counts 0 (ruling C-4).
pub fn kills(die: u8, modifiers: i32, figures_firing: u32) -> u32 {
    (i32::from(die) + modifiers).max(0) as u32 * figures_firing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_example_and_rounding() {
        let m = [
            FireModifier::FirerMoved,
            FireModifier::Uphill,
            FireModifier::LongRange,
            FireModifier::Bossonian,
        ];
        let sum: i32 = m.iter().map(|x| x.value()).sum();
        assert_eq!(sum, -2);
        assert_eq!(kills(4, sum, 12), 24);
        assert_eq!(casualties_from_kills(24), 1);
        assert_eq!(casualties_from_kills(9), 0);
        assert_eq!(casualties_from_kills(10), 1);
        assert_eq!(casualties_from_kills(60), 3);
        assert_eq!(kills(2, -5, 12), 0);
        assert_eq!(FireModifier::Woods.value(), -2);
    }
}

//! Morale (§5, §8, §9) as data: the base chance by class, every modifier
//! of the §8 table, the severity bands, the loss thresholds, and the
//! distances and losses of falling back and routing.
//!
//! ```
//! use umpire::games::hyborian::rules::morale::{base_chance, severity, MoraleModifier, Severity};
//! use umpire::games::hyborian::rules::Class;
//! assert_eq!(base_chance(Class::B), 85);
//! assert_eq!(MoraleModifier::AttackedInRear.value(), -40);
//! assert_eq!(severity(36), Severity::FallBackTwo);
//! ```

use super::Class;

/// The chance to stand, in percent, before modifiers (§8): A 100, B 85, C 70.
pub fn base_chance(class: Class) -> i32 {
    match class {
        Class::A => 100,
        Class::B => 85,
        Class::C => 70,
    }
}

/// Whether a percentile roll (1–100) fails against an adjusted chance: a
/// roll higher than the chance fails (§8).
pub fn fails(roll: u8, chance: i32) -> bool {
    i32::from(roll) > chance
}

/// The modifiers of the §8 table (and of §5, §9), named after the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoraleModifier {
    /// −5 for each whole 10 % of the original figures lost (carries the steps).
    Losses(u32),
    /// +10 at full strength.
    FullStrength,
    LostMelee,
    WonMelee,
    /// Charging (pre-melee).
    Charging,
    /// Charging downhill (pre-melee).
    ChargingDownhill,
    /// Infantry charged by cavalry (pre-melee).
    InfantryChargedByCavalry,
    /// Charged by mammoths or chariots (pre-melee).
    ChargedByMammothsOrChariots,
    /// Attacked in flank (pre-melee).
    AttackedInFlank,
    /// Attacked in rear (pre-melee).
    AttackedInRear,
    Uphill,
    InWoods,
    FallBackStatus,
    RoutStatus,
    /// A friendly unit fell back past this one (within 6 inches of its path).
    FriendFellBackPast,
    /// A unit routed past within 6 inches.
    RoutedPast,
    HeroWithUnit,
    SuperheroWithUnit,
    CommanderWithUnit,
    /// Infantry broken through by heavy cavalry.
    BrokenThrough,
    /// Magic used on the unit or within 6 inches.
    Magic,
    /// Northern Barbarians facing magic: a further −10.
    NorthernBarbarianMagic,
    /// Trampled by a routing chariot of its own side (§5: "as if broken through").
    Trampled,
    /// Its commander was captured or left the table (§9).
    CommanderLost,
}

impl MoraleModifier {
    /// Percentage points added to the chance.
    pub fn value(self) -> i32 {
        match self {
            MoraleModifier::Losses(steps) => -(LOSS_STEP_PENALTY * steps as i32),
            MoraleModifier::FullStrength
            | MoraleModifier::WonMelee
            | MoraleModifier::Charging
            | MoraleModifier::Uphill
            | MoraleModifier::InWoods
            | MoraleModifier::HeroWithUnit
            | MoraleModifier::CommanderWithUnit => 10,
            MoraleModifier::SuperheroWithUnit => 20,
            MoraleModifier::ChargingDownhill => 5,
            MoraleModifier::LostMelee
            | MoraleModifier::InfantryChargedByCavalry
            | MoraleModifier::ChargedByMammothsOrChariots
            | MoraleModifier::FallBackStatus
            | MoraleModifier::FriendFellBackPast
            | MoraleModifier::BrokenThrough
            | MoraleModifier::Magic
            | MoraleModifier::NorthernBarbarianMagic
            | MoraleModifier::Trampled => -10,
            MoraleModifier::AttackedInFlank
            | MoraleModifier::RoutStatus
            | MoraleModifier::RoutedPast
            | MoraleModifier::CommanderLost => -20,
            MoraleModifier::AttackedInRear => -40,
        }
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            MoraleModifier::Losses(_) => "losses",
            MoraleModifier::FullStrength => "full strength",
            MoraleModifier::LostMelee => "lost the melee",
            MoraleModifier::WonMelee => "won the melee",
            MoraleModifier::Charging => "charging",
            MoraleModifier::ChargingDownhill => "charging downhill",
            MoraleModifier::InfantryChargedByCavalry => "infantry charged by cavalry",
            MoraleModifier::ChargedByMammothsOrChariots => "charged by mammoths or chariots",
            MoraleModifier::AttackedInFlank => "attacked in flank",
            MoraleModifier::AttackedInRear => "attacked in rear",
            MoraleModifier::Uphill => "uphill",
            MoraleModifier::InWoods => "in woods",
            MoraleModifier::FallBackStatus => "fall-back status",
            MoraleModifier::RoutStatus => "rout status",
            MoraleModifier::FriendFellBackPast => "friends fell back past",
            MoraleModifier::RoutedPast => "a unit routed past",
            MoraleModifier::HeroWithUnit => "hero with the unit",
            MoraleModifier::SuperheroWithUnit => "superhero with the unit",
            MoraleModifier::CommanderWithUnit => "commander with the unit",
            MoraleModifier::BrokenThrough => "broken through",
            MoraleModifier::Magic => "magic",
            MoraleModifier::NorthernBarbarianMagic => "Northern Barbarians facing magic",
            MoraleModifier::Trampled => "trampled by chariots",
            MoraleModifier::CommanderLost => "commander lost",
        }
    }
}

/// −5 % for each 10 % of figures lost (§8).
pub const LOSS_STEP_PENALTY: i32 = 5;
/// The size of one loss step, in percent of the original strength.
pub const LOSS_STEP_PERCENT: u32 = 10;

/// Whole 10 % steps of the original strength lost (ruling M-4: whole steps).
pub fn loss_steps(figures: u32, original: u32) -> u32 {
    if original == 0 {
        return 0;
    }
    let lost = original.saturating_sub(figures);
    lost * 100 / (original * LOSS_STEP_PERCENT)
}

/// The loss thresholds that call a test when first reached (§8): 1/3, 1/2, 2/3
/// of the original strength, as (numerator, denominator).
pub const LOSS_THRESHOLDS: [(u32, u32); 3] = [(1, 3), (1, 2), (2, 3)];

/// How many thresholds `lost` of `original` figures has reached.
pub fn thresholds_reached(lost: u32, original: u32) -> usize {
    LOSS_THRESHOLDS
        .iter()
        .filter(|(n, d)| original > 0 && lost * d >= original * n)
        .count()
}

/// What a failed test leads to (§8 severity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// 0–35: fall back one move facing the enemy.
    FallBackOne,
    /// 36–70: fall back two moves facing the enemy.
    FallBackTwo,
    /// 71–100: rout and lose 20 % of the remaining figures.
    Rout,
}

/// Highest roll (1–100, ruling M-2) of each severity band.
pub const SEVERITY_BANDS: [(u8, Severity); 3] = [
    (35, Severity::FallBackOne),
    (70, Severity::FallBackTwo),
    (100, Severity::Rout),
];

/// The severity of a percentile roll written 1–100 (no modifiers, §8).
pub fn severity(roll: u8) -> Severity {
    SEVERITY_BANDS
        .iter()
        .find(|(top, _)| roll <= *top)
        .map_or(Severity::Rout, |(_, s)| *s)
}

impl Severity {
    /// Normal moves made falling back (rout: charge moves).
    pub fn moves(self) -> f64 {
        match self {
            Severity::FallBackOne => 1.0,
            Severity::FallBackTwo | Severity::Rout => 2.0,
        }
    }

    /// Turns of fall-back status that follow (§8).
    pub fn status_turns(self) -> u8 {
        match self {
            Severity::FallBackOne => 1,
            Severity::FallBackTwo => 2,
            Severity::Rout => 0,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Severity::FallBackOne => "fall back one move",
            Severity::FallBackTwo => "fall back two moves",
            Severity::Rout => "rout",
        }
    }
}

/// Figures lost on entering rout, and on routing again: 20 % of those remaining.
pub const ROUT_LOSS_PERCENT: u32 = 20;

/// The 20 % rout loss of `figures` (ruling M-5: to the nearest figure, at least one).
pub fn rout_loss(figures: u32) -> u32 {
    if figures == 0 {
        return 0;
    }
    ((figures * ROUT_LOSS_PERCENT + 50) / 100).max(1)
}

/// A routing unit that fails its rally test routs on at this many times its charge speed.
pub const ROUT_ON_CHARGE_MULTIPLE: f64 = 2.0;
/// Turns of fall-back status after a rally (§8).
pub const RALLY_STATUS_TURNS: u8 = 2;
/// Falling back or routing calls tests on units within this many inches of the path (§8).
pub const NEARBY: f64 = 6.0;
/// Falling back or routing at this angle from straight back after front and
/// flank attacks, and the widest angle from straight back to use a gap (§8).
pub const FALL_BACK_ANGLE: f64 = 45.0;
/// At most this many tests a unit takes in a turn, not counting the rally
/// test at the start of the turn (§8; ruling M-1).
pub const TESTS_PER_TURN: u32 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table() {
        assert_eq!(base_chance(Class::A), 100);
        assert_eq!(base_chance(Class::C), 70);
        assert!(fails(86, 85));
        assert!(!fails(85, 85));
        assert_eq!(severity(1), Severity::FallBackOne);
        assert_eq!(severity(35), Severity::FallBackOne);
        assert_eq!(severity(70), Severity::FallBackTwo);
        assert_eq!(severity(71), Severity::Rout);
        assert_eq!(severity(100), Severity::Rout);
        assert_eq!(loss_steps(24, 24), 0);
        assert_eq!(loss_steps(21, 24), 1); // 12.5 %
        assert_eq!(loss_steps(12, 24), 5);
        assert_eq!(thresholds_reached(8, 24), 1);
        assert_eq!(thresholds_reached(7, 24), 0);
        assert_eq!(thresholds_reached(16, 24), 3);
        assert_eq!(rout_loss(10), 2);
        assert_eq!(rout_loss(7), 1);
        assert_eq!(rout_loss(3), 1);
        assert_eq!(MoraleModifier::Losses(3).value(), -15);
        assert_eq!(MoraleModifier::SuperheroWithUnit.value(), 20);
    }
}

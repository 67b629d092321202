//! Melee (§4, §5) as data: category values, charge and post-charge
//! bonuses, the other modifiers of the melee die, expansion rates by class,
//! heroes' weight, and how a percentage becomes figures.
//!
//! ```
//! use umpire::games::hyborian::rules::melee::{category, charge_bonus, post_charge_bonus};
//! use umpire::games::hyborian::rules::UnitType;
//! assert_eq!(category(UnitType::HeavyCavalry), 4);
//! assert_eq!(charge_bonus(UnitType::WoollyMammoth), 5);
//! assert_eq!(post_charge_bonus(UnitType::MediumInfantry), 0);
//! // A normal die for want of an average one: 1 reads 3, 6 reads 4 (§4).
//! use umpire::games::hyborian::rules::melee::average_from_normal_die;
//! assert_eq!((1..=6).map(average_from_normal_die).collect::<Vec<_>>(), [3, 2, 3, 4, 5, 4]);
//! ```

use super::{Class, UnitType};

/// Category value (§4): light infantry 1, medium 2, heavy 3, light and
/// medium cavalry 3, heavy cavalry 4, chariots and mammoths 5. Single
/// figures: heroes and commanders as heavy foot, wizards as light foot.
pub fn category(kind: UnitType) -> u8 {
    match kind {
        UnitType::LightInfantry | UnitType::Wizard => 1,
        UnitType::MediumInfantry | UnitType::MediumPike => 2,
        UnitType::HeavyInfantry | UnitType::HeavyPike => 3,
        UnitType::Hero | UnitType::Superhero | UnitType::Commander => 3,
        UnitType::MediumCavalry => 3,
        UnitType::HeavyCavalry => 4,
        UnitType::HeavyChariot | UnitType::LightChariot | UnitType::WoollyMammoth => {
            SPECIAL_CATEGORY
        }
    }
}

/// Chariots and mammoths: category 5, "special rules" — no category
/// difference is taken against or by them (ruling C-12).
pub const SPECIAL_CATEGORY: u8 = 5;

/// Charge bonus on the round a unit charges (§4 table, §5).
pub fn charge_bonus(kind: UnitType) -> i32 {
    match kind {
        UnitType::MediumCavalry | UnitType::HeavyCavalry => 2,
        UnitType::LightChariot => 3,
        UnitType::HeavyChariot => 4,
        UnitType::WoollyMammoth => 5,
        _ => 1,
    }
}

/// Post-charge bonus on later rounds of a melee in which the charge bonus
/// was earned (§4 table): infantry 0, everything mounted +1.
pub fn post_charge_bonus(kind: UnitType) -> i32 {
    if kind.is_mounted() {
        1
    } else {
        0
    }
}

/// Figures a class may add to (or take out of) an existing melee per turn
/// (§4 expansion and contraction).
pub fn expansion_rate(class: Class) -> u32 {
    match class {
        Class::A => 6,
        Class::B => 4,
        Class::C => 2,
    }
}

/// Overlap figures counted at each end where one line overlaps the other
/// (§4): 2 foot, 1 horse; none for chariots and mammoths (Appendix III).
pub fn overlap_figures(kind: UnitType) -> u32 {
    if kind.is_cavalry() {
        1
    } else if kind.is_chariot() || kind == UnitType::WoollyMammoth {
        0
    } else {
        2
    }
}

/// The most figures a unit of `figures` can fight with (§5): a mammoth
/// fights as 4 figures while any of its crew lives (ruling C-32); chariots
/// fight as their surviving crew, like everyone else.
pub fn fighting_strength(kind: UnitType, figures: u32) -> u32 {
    if kind == UnitType::WoollyMammoth {
        super::bases::models(kind, figures) * super::bases::base(kind).crew
    } else {
        figures
    }
}

/// Figures a single figure fights as (§4, §9): hero 3, superhero 5.
pub fn single_figure_weight(kind: UnitType) -> u32 {
    match kind {
        UnitType::Hero => 3,
        UnitType::Superhero => 5,
        _ => 1,
    }
}

/// A normal die read as the average die (§4): "any time a 1 is rolled on
/// normal six-sided dice, it is read as a 3 and any roll of a 6 is read as
/// a 4"; the other faces are read as rolled. Index: the d6 face − 1.
pub const NORMAL_DIE_AS_AVERAGE: [u8; 6] = [3, 2, 3, 4, 5, 4];

/// The average-die value of a normal die's face (1–6; out-of-range faces
/// are read as the nearest face).
pub fn average_from_normal_die(d6: u8) -> u8 {
    NORMAL_DIE_AS_AVERAGE[usize::from(d6.clamp(1, 6)) - 1]
}

/// Heavy cavalry breaks through infantry when it inflicts at least this
/// many times the casualties it receives on the first round (§4).
pub const BREAKTHROUGH_RATIO: u32 = 2;
/// Morale of infantry broken through by heavy cavalry (§8 table: −10%).
pub const BROKEN_THROUGH_MORALE: i32 = -10;

/// Cavalry charging infantry this many ranks deep gets no charge bonus.
pub const DEEP_INFANTRY_RANKS: u32 = 3;
/// Percentage per point of the modified die (die × 10 %).
pub const PERCENT_PER_PIP: u32 = 10;
/// Cavalry (and chariots) within this many inches of enemy mammoths: −2.
pub const MAMMOTH_FRIGHT_RANGE: f64 = 6.0;

/// The modifiers of §4 to the melee die, named after the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MeleeModifier {
    /// Lower category subtracts the difference (carries the difference).
    Category(u8),
    /// Charge bonus on the round of the charge (carries the bonus).
    Charge(i32),
    /// Post-charge bonus on later rounds.
    PostCharge(i32),
    /// Infantry meeting a cavalry charge only one rank deep.
    OneRankAgainstCharge,
    Flank,
    Rear,
    /// Fired this turn, then in melee.
    FiredThisTurn,
    FallBack,
    Rout,
    /// Standing on a hill, in woods or a swamp (ruling C-14).
    Terrain,
    /// All troops against mammoths.
    AgainstMammoths,
    /// Cavalry or chariots within 6 inches of enemy mammoths.
    NearMammoths,
    /// Cavalry fighting mammoths: −4 in all (replaces the two −2s).
    CavalryAgainstMammoths,
    /// Infantry against chariots.
    InfantryAgainstChariots,
    /// Cavalry against the Order of the White Hand's dead (§4).
    CavalryAgainstTheDead,
}

impl MeleeModifier {
    /// The value on the die.
    pub fn value(self) -> i32 {
        match self {
            MeleeModifier::Category(d) => -i32::from(d),
            MeleeModifier::Charge(b) | MeleeModifier::PostCharge(b) => b,
            MeleeModifier::Flank => 1,
            MeleeModifier::Rear => 2,
            MeleeModifier::OneRankAgainstCharge
            | MeleeModifier::FiredThisTurn
            | MeleeModifier::FallBack
            | MeleeModifier::Terrain => -1,
            MeleeModifier::Rout | MeleeModifier::AgainstMammoths | MeleeModifier::NearMammoths => {
                -2
            }
            MeleeModifier::InfantryAgainstChariots | MeleeModifier::CavalryAgainstTheDead => -2,
            MeleeModifier::CavalryAgainstMammoths => -4,
        }
    }

    /// Short name for reports.
    pub fn name(self) -> &'static str {
        match self {
            MeleeModifier::Category(_) => "lower category",
            MeleeModifier::Charge(_) => "charge",
            MeleeModifier::PostCharge(_) => "post-charge",
            MeleeModifier::OneRankAgainstCharge => "one rank against a charge",
            MeleeModifier::Flank => "flank attack",
            MeleeModifier::Rear => "rear attack",
            MeleeModifier::FiredThisTurn => "fired this turn",
            MeleeModifier::FallBack => "fall-back",
            MeleeModifier::Rout => "rout",
            MeleeModifier::Terrain => "terrain",
            MeleeModifier::AgainstMammoths => "against mammoths",
            MeleeModifier::NearMammoths => "near mammoths",
            MeleeModifier::CavalryAgainstMammoths => "cavalry against mammoths",
            MeleeModifier::InfantryAgainstChariots => "infantry against chariots",
            MeleeModifier::CavalryAgainstTheDead => "cavalry against the dead",
        }
    }
}

/// How a fraction of a figure is read (§13 OPEN; ruling C-13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FigureRounding {
    /// Half a figure or more counts as one (the 1:20 rule's spirit).
    Nearest,
    /// Fractions are dropped.
    Down,
}

/// Casualties inflicted: (die + modifiers, at least 0) × 10 % of the
/// fighting figures, rounded as the game says.
pub fn casualties(die: u8, modifiers: i32, fighting: u32, rounding: FigureRounding) -> u32 {
    let pct = (i32::from(die) + modifiers).max(0) as u32 * PERCENT_PER_PIP;
    let hundredths = pct * fighting;
    match rounding {
        FigureRounding::Nearest => (hundredths + 50) / 100,
        FigureRounding::Down => hundredths / 100,
    }
}

/// Half of a rank of figures (the second rank of infantry, pikes' extra
/// half ranks): halves round as the game says.
pub fn half(n: u32, rounding: FigureRounding) -> u32 {
    match rounding {
        FigureRounding::Nearest => n.div_ceil(2),
        FigureRounding::Down => n / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_to_figures() {
        // die 4 + 0, 12 fighting: 40 % of 12 = 4.8 → 5 (nearest), 4 (down)
        assert_eq!(casualties(4, 0, 12, FigureRounding::Nearest), 5);
        assert_eq!(casualties(4, 0, 12, FigureRounding::Down), 4);
        assert_eq!(casualties(2, -5, 12, FigureRounding::Nearest), 0);
        assert_eq!(MeleeModifier::Category(2).value(), -2);
        assert_eq!(half(5, FigureRounding::Nearest), 3);
        assert_eq!(half(5, FigureRounding::Down), 2);
        assert_eq!(expansion_rate(Class::B), 4);
        assert_eq!(overlap_figures(UnitType::HeavyCavalry), 1);
    }
}

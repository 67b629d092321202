//! The point system (§11, "Buying an army"): what one figure costs.
//!
//! The book states a rule and then prints a table made from it: light foot
//! 2, medium foot 3, heavy foot 4 (B class); add 1 for a bow or crossbow and
//! 2 for a horse; A class +1, C class −1. Chariots, mammoths, heroes and
//! superheroes have fixed prices. [`figure_cost`] computes from the rule; the
//! test below holds it against the printed table.
//!
//! ```
//! use umpire::games::hyborian::rules::{points::figure_cost, Class, UnitType};
//! // a Bossonian archer: medium foot with a bow, A class
//! assert_eq!(figure_cost(UnitType::MediumInfantry, Class::A, true), Some(5));
//! // the book prints "X": there is no C-class heavy foot
//! assert_eq!(figure_cost(UnitType::HeavyInfantry, Class::C, false), None);
//! ```

use super::{Class, UnitType};

/// B-class light foot, per figure.
pub const LIGHT_FOOT: u32 = 2;
/// B-class medium foot, per figure.
pub const MEDIUM_FOOT: u32 = 3;
/// B-class heavy foot, per figure.
pub const HEAVY_FOOT: u32 = 4;
/// Added for "a bow or crossbow" (thrown weapons and pikes cost nothing).
pub const BOW_OR_CROSSBOW: u32 = 1;
/// Added for a horse.
pub const HORSE: u32 = 2;
/// A light chariot with its crew (Stygia), B class only.
pub const LIGHT_CHARIOT: u32 = 15;
/// A heavy chariot with its crew (Koth), B class only.
pub const HEAVY_CHARIOT: u32 = 20;
/// A woolly mammoth with its crew (Vendhya), C class only.
pub const WOOLLY_MAMMOTH: u32 = 40;
/// A hero costs "five times the cost of an A-class heavy infantryman" on
/// foot, or five A-class heavy cavalry mounted (§9).
pub const HERO_FIGURES: u32 = 5;
/// "The superhero will cost twice as many points as a comparable hero."
pub const SUPERHERO_MULTIPLE: u32 = 2;

/// The weight of a troop type for pricing: light, medium or heavy.
fn weight_cost(kind: UnitType) -> Option<u32> {
    match kind {
        UnitType::LightInfantry => Some(LIGHT_FOOT),
        UnitType::MediumInfantry | UnitType::MediumPike | UnitType::MediumCavalry => {
            Some(MEDIUM_FOOT)
        }
        UnitType::HeavyInfantry | UnitType::HeavyPike | UnitType::HeavyCavalry => Some(HEAVY_FOOT),
        _ => None,
    }
}

/// Points for one figure of a unit (one chariot or mammoth with its crew).
///
/// `bow` is true for figures armed with a bow, Shemite bow or crossbow
/// (horse archers included). Returns `None` where the book prints "X": no
/// C-class heavy foot, chariots only B, mammoths only C, and single figures
/// (heroes, commanders, wizards), which are priced elsewhere.
pub fn figure_cost(kind: UnitType, class: Class, bow: bool) -> Option<u32> {
    match kind {
        UnitType::LightChariot => (class == Class::B).then_some(LIGHT_CHARIOT),
        UnitType::HeavyChariot => (class == Class::B).then_some(HEAVY_CHARIOT),
        UnitType::WoollyMammoth => (class == Class::C).then_some(WOOLLY_MAMMOTH),
        _ => {
            let base = weight_cost(kind)?;
            let heavy_foot = base == HEAVY_FOOT && kind.is_infantry();
            if heavy_foot && class == Class::C {
                return None;
            }
            let horse = if kind.is_cavalry() { HORSE } else { 0 };
            let bow = if bow { BOW_OR_CROSSBOW } else { 0 };
            let b = base + horse + bow;
            Some(match class {
                Class::A => b + 1,
                Class::B => b,
                Class::C => b - 1,
            })
        }
    }
}

/// A hero: five A-class heavy foot, or five A-class heavy cavalry mounted.
pub fn hero_cost(mounted: bool) -> u32 {
    let kind = if mounted {
        UnitType::HeavyCavalry
    } else {
        UnitType::HeavyInfantry
    };
    HERO_FIGURES * figure_cost(kind, Class::A, false).unwrap_or_default()
}

/// A superhero costs twice a comparable hero.
pub fn superhero_cost(mounted: bool) -> u32 {
    SUPERHERO_MULTIPLE * hero_cost(mounted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use UnitType::*;

    /// The table as printed in "Buying an army: the point system" (A, B, C;
    /// `None` where the book prints X), with the type and bow it describes.
    const BOOK_TABLE: [(&str, UnitType, bool, [Option<u32>; 3]); 11] = [
        (
            "Light Archer",
            LightInfantry,
            true,
            [Some(4), Some(3), Some(2)],
        ),
        (
            "Medium Foot",
            MediumInfantry,
            false,
            [Some(4), Some(3), Some(2)],
        ),
        (
            "Medium Archer",
            MediumInfantry,
            true,
            [Some(5), Some(4), Some(3)],
        ),
        ("Heavy Foot", HeavyInfantry, false, [Some(5), Some(4), None]),
        (
            "Heavy Archer",
            HeavyInfantry,
            true,
            [Some(6), Some(5), None],
        ),
        (
            "Medium Cavalry",
            MediumCavalry,
            false,
            [Some(6), Some(5), Some(4)],
        ),
        (
            "Horse Archer",
            MediumCavalry,
            true,
            [Some(7), Some(6), Some(5)],
        ),
        (
            "Heavy Cavalry",
            HeavyCavalry,
            false,
            [Some(7), Some(6), Some(5)],
        ),
        (
            "Light Chariot w/crew",
            LightChariot,
            false,
            [None, Some(15), None],
        ),
        (
            "Heavy Chariot w/crew",
            HeavyChariot,
            false,
            [None, Some(20), None],
        ),
        (
            "Wooly Mammoth w/crew",
            WoollyMammoth,
            false,
            [None, None, Some(40)],
        ),
    ];

    #[test]
    fn the_rule_reproduces_the_printed_table() {
        for (name, kind, bow, row) in BOOK_TABLE {
            for (class, want) in [Class::A, Class::B, Class::C].into_iter().zip(row) {
                assert_eq!(figure_cost(kind, class, bow), want, "{name} {class}");
            }
        }
    }

    #[test]
    fn heroes_and_superheroes_as_printed() {
        assert_eq!((hero_cost(false), hero_cost(true)), (25, 35));
        assert_eq!((superhero_cost(false), superhero_cost(true)), (50, 70));
    }

    #[test]
    fn pikes_cost_nothing_extra() {
        assert_eq!(
            figure_cost(HeavyPike, Class::A, false),
            figure_cost(HeavyInfantry, Class::A, false)
        );
        assert_eq!(figure_cost(MediumPike, Class::B, false), Some(3));
    }

    #[test]
    fn single_figures_are_not_priced_per_figure() {
        for kind in [Commander, Hero, Superhero, Wizard] {
            assert_eq!(figure_cost(kind, Class::A, false), None);
        }
    }
}

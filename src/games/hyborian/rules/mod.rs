//! The book as typed data: troop types, classes, formations, and every
//! number the rules give, in tables named after the book's terms.
//!
//! No I/O, no geometry, no dice. Everything here is a pure function of its
//! arguments so the engine, the order validator and the reports all read the
//! same numbers.

pub mod bases;
pub mod fire;
pub mod formations;
pub mod melee;
pub mod missile;
pub mod morale;
pub mod movement;
pub mod options;
pub mod points;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Troop type codes of Appendix I (and the single figures of §9/§10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum UnitType {
    /// Light infantry ("LI").
    LightInfantry,
    /// Medium infantry ("MI").
    MediumInfantry,
    /// Heavy infantry ("HI").
    HeavyInfantry,
    /// Medium infantry, pike armed ("MIP").
    MediumPike,
    /// Heavy infantry, pike armed ("HIP").
    HeavyPike,
    /// Light or medium cavalry ("MC"; "LC" is read as the same type).
    MediumCavalry,
    /// Heavy cavalry ("HC").
    HeavyCavalry,
    /// Heavy chariots ("HCH", Koth).
    HeavyChariot,
    /// Light chariots ("LCH", Stygia).
    LightChariot,
    /// Woolly mammoths ("WM", Vendhya).
    WoollyMammoth,
    /// The army's commander, a single figure (§9).
    Commander,
    /// A hero, a single figure fighting as 3 (§9).
    Hero,
    /// A superhero, a single figure fighting as 5 (§9).
    Superhero,
    /// A wizard, a single figure (§10).
    Wizard,
}

impl UnitType {
    /// Every type, in the order the book lists them.
    pub const ALL: [UnitType; 14] = [
        UnitType::LightInfantry,
        UnitType::MediumInfantry,
        UnitType::HeavyInfantry,
        UnitType::MediumPike,
        UnitType::HeavyPike,
        UnitType::MediumCavalry,
        UnitType::HeavyCavalry,
        UnitType::HeavyChariot,
        UnitType::LightChariot,
        UnitType::WoollyMammoth,
        UnitType::Commander,
        UnitType::Hero,
        UnitType::Superhero,
        UnitType::Wizard,
    ];

    /// The code used in army lists and case files.
    pub fn code(self) -> &'static str {
        match self {
            UnitType::LightInfantry => "LI",
            UnitType::MediumInfantry => "MI",
            UnitType::HeavyInfantry => "HI",
            UnitType::MediumPike => "MIP",
            UnitType::HeavyPike => "HIP",
            UnitType::MediumCavalry => "MC",
            UnitType::HeavyCavalry => "HC",
            UnitType::HeavyChariot => "HCH",
            UnitType::LightChariot => "LCH",
            UnitType::WoollyMammoth => "WM",
            UnitType::Commander => "commander",
            UnitType::Hero => "hero",
            UnitType::Superhero => "superhero",
            UnitType::Wizard => "wizard",
        }
    }

    /// The book's name for the type, for reports and error messages.
    pub fn book_name(self) -> &'static str {
        match self {
            UnitType::LightInfantry => "light infantry",
            UnitType::MediumInfantry => "medium infantry",
            UnitType::HeavyInfantry => "heavy infantry",
            UnitType::MediumPike => "medium infantry (pike)",
            UnitType::HeavyPike => "heavy infantry (pike)",
            UnitType::MediumCavalry => "light/medium cavalry",
            UnitType::HeavyCavalry => "heavy cavalry",
            UnitType::HeavyChariot => "heavy chariots",
            UnitType::LightChariot => "light chariots",
            UnitType::WoollyMammoth => "woolly mammoths",
            UnitType::Commander => "commander",
            UnitType::Hero => "hero",
            UnitType::Superhero => "superhero",
            UnitType::Wizard => "wizard",
        }
    }

    /// Foot troops (infantry of any weight, including pikes).
    pub fn is_infantry(self) -> bool {
        matches!(
            self,
            UnitType::LightInfantry
                | UnitType::MediumInfantry
                | UnitType::HeavyInfantry
                | UnitType::MediumPike
                | UnitType::HeavyPike
        )
    }

    /// Horsemen (light/medium and heavy cavalry).
    pub fn is_cavalry(self) -> bool {
        matches!(self, UnitType::MediumCavalry | UnitType::HeavyCavalry)
    }

    /// Chariots of either weight.
    pub fn is_chariot(self) -> bool {
        matches!(self, UnitType::HeavyChariot | UnitType::LightChariot)
    }

    /// Mounted troops: cavalry, chariots and mammoths (barred from woods and swamps).
    pub fn is_mounted(self) -> bool {
        self.is_cavalry() || self.is_chariot() || self == UnitType::WoollyMammoth
    }

    /// Single figures that are not units: commanders, heroes, wizards.
    pub fn is_single_figure(self) -> bool {
        matches!(
            self,
            UnitType::Commander | UnitType::Hero | UnitType::Superhero | UnitType::Wizard
        )
    }

    /// Commanders, heroes and superheroes: the figures that join units and
    /// may ride (§9).
    pub fn is_leader(self) -> bool {
        matches!(
            self,
            UnitType::Commander | UnitType::Hero | UnitType::Superhero
        )
    }

    /// Mammoths and chariots never change face as a function: they wheel (§5).
    pub fn wheels_only(self) -> bool {
        self.is_chariot() || self == UnitType::WoollyMammoth
    }
}

impl fmt::Display for UnitType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Error for a type, class, formation, weapon or trait name that is not in the book.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} '{given}' (expected one of: {expected})")]
pub struct UnknownName {
    pub what: &'static str,
    pub given: String,
    pub expected: String,
}

/// Find the item of `all` whose code is `given`, read the way case files and
/// orders write codes: any case, spaces or underscores for hyphens.
fn parse_code<T: Copy>(
    given: &str,
    all: &[T],
    code: fn(T) -> &'static str,
    what: &'static str,
) -> Result<T, UnknownName> {
    let norm = given.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    all.iter()
        .copied()
        .find(|t| code(*t).eq_ignore_ascii_case(&norm))
        .ok_or_else(|| UnknownName {
            what,
            given: given.to_string(),
            expected: all.iter().map(|t| code(*t)).collect::<Vec<_>>().join(" "),
        })
}

impl FromStr for UnitType {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.trim().eq_ignore_ascii_case("LC") {
            return Ok(UnitType::MediumCavalry);
        }
        parse_code(s, &UnitType::ALL, UnitType::code, "unit type")
    }
}

/// Morale class: A elite, B regular, C levy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Class {
    A,
    B,
    C,
}

impl FromStr for Class {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_uppercase().as_str() {
            "A" => Ok(Class::A),
            "B" => Ok(Class::B),
            "C" => Ok(Class::C),
            _ => Err(UnknownName {
                what: "class",
                given: s.to_string(),
                expected: "A B C".into(),
            }),
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The five formations of §1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Formation {
    /// Stands end to end, at most 3 ranks deep.
    Line,
    /// A line bent to keep the unit inside one terrain area.
    PositionalLine,
    /// 4 or more ranks deep.
    Column,
    /// At most 3 figures wide; the only formation that may use a road.
    RoadColumn,
    /// At most 2 ranks, facing outward; no flanks or rear.
    Ring,
}

impl Formation {
    pub const ALL: [Formation; 5] = [
        Formation::Line,
        Formation::PositionalLine,
        Formation::Column,
        Formation::RoadColumn,
        Formation::Ring,
    ];

    /// The name used in case files and canonical orders.
    pub fn code(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::PositionalLine => "positional-line",
            Formation::Column => "column",
            Formation::RoadColumn => "road-column",
            Formation::Ring => "ring",
        }
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Formation {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_code(s, &Formation::ALL, Formation::code, "formation")
    }
}

/// Missile weapons (§6). Pikes are listed here too since the case format does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Weapon {
    Bow,
    ShemiteBow,
    Crossbow,
    Thrown,
    Pike,
}

impl Weapon {
    pub const ALL: [Weapon; 5] = [
        Weapon::Bow,
        Weapon::ShemiteBow,
        Weapon::Crossbow,
        Weapon::Thrown,
        Weapon::Pike,
    ];
    pub fn code(self) -> &'static str {
        match self {
            Weapon::Bow => "bow",
            Weapon::ShemiteBow => "shemite-bow",
            Weapon::Crossbow => "crossbow",
            Weapon::Thrown => "thrown",
            Weapon::Pike => "pike",
        }
    }
}

impl FromStr for Weapon {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_code(s, &Weapon::ALL, Weapon::code, "weapon")
    }
}

/// National special rules the engine understands (Appendix I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Trait {
    Bossonian,
    Pict,
    Kushite,
    BlackAmazon,
    NorthernBarbarian,
    FreeCompany,
    HorseArcher,
    Guard,
    /// The Order of the White Hand's legions of the dead (Appendix II):
    /// never test morale; cavalry fight them at −2.
    Dead,
    /// The White Druids' summoned beasts (Appendix II, "The Calling"):
    /// never test morale and fight until eliminated.
    Beast,
}

impl Trait {
    pub const ALL: [Trait; 10] = [
        Trait::Bossonian,
        Trait::Pict,
        Trait::Kushite,
        Trait::BlackAmazon,
        Trait::NorthernBarbarian,
        Trait::FreeCompany,
        Trait::HorseArcher,
        Trait::Guard,
        Trait::Dead,
        Trait::Beast,
    ];
    pub fn code(self) -> &'static str {
        match self {
            Trait::Bossonian => "bossonian",
            Trait::Pict => "pict",
            Trait::Kushite => "kushite",
            Trait::BlackAmazon => "black-amazon",
            Trait::NorthernBarbarian => "northern-barbarian",
            Trait::FreeCompany => "free-company",
            Trait::HorseArcher => "horse-archer",
            Trait::Guard => "guard",
            Trait::Dead => "dead",
            Trait::Beast => "beast",
        }
    }
}

impl FromStr for Trait {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_code(s, &Trait::ALL, Trait::code, "trait")
    }
}

/// The two movement phases of a turn (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Phase {
    One,
    Two,
}

impl Phase {
    pub fn number(self) -> u8 {
        match self {
            Phase::One => 1,
            Phase::Two => 2,
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "phase {}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for t in UnitType::ALL {
            assert_eq!(t.code().parse::<UnitType>().unwrap(), t);
        }
        for f in Formation::ALL {
            assert_eq!(f.code().parse::<Formation>().unwrap(), f);
        }
        assert_eq!("LC".parse::<UnitType>().unwrap(), UnitType::MediumCavalry);
        assert!("XX".parse::<UnitType>().is_err());
    }
}

pub mod magic;

//! Base sizes (Appendix III): how much table a figure takes.
//!
//! Every infantry figure has 15 mm of frontage and a stand 1 inch deep;
//! cavalry 20 mm and 2 inches; chariots 45 mm and 3 inches (one per stand);
//! woolly mammoths 60 mm and 4 inches (one per stand). Single figures
//! (commanders, heroes, wizards) stand on a foot base.
//!
//! ```
//! use umpire::games::hyborian::rules::{bases::base, UnitType};
//! let b = base(UnitType::HeavyCavalry);
//! assert!((b.frontage - 20.0 / 25.4).abs() < 1e-12);
//! assert_eq!(b.rank_depth, 2.0);
//! ```

use super::UnitType;

/// Millimetres in an inch: the book gives frontages in mm, distances in inches.
pub const MM_PER_INCH: f64 = 25.4;

/// The footprint of one figure (or one chariot, one mammoth) in inches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Base {
    /// Frontage of one figure (model) across the front rank.
    pub frontage: f64,
    /// Depth of one rank.
    pub rank_depth: f64,
    /// Figures of crew carried by one model (chariots, mammoths); 1 otherwise.
    /// Case files and army lists count chariots and mammoths in crew figures.
    pub crew: u32,
}

const INFANTRY: Base = Base {
    frontage: 15.0 / MM_PER_INCH,
    rank_depth: 1.0,
    crew: 1,
};
const CAVALRY: Base = Base {
    frontage: 20.0 / MM_PER_INCH,
    rank_depth: 2.0,
    crew: 1,
};
/// Chariots of both weights carry a crew of 2 (§5).
const CHARIOT: Base = Base {
    frontage: 45.0 / MM_PER_INCH,
    rank_depth: 3.0,
    crew: 2,
};
/// Each mammoth carries 4 crew (§5).
const MAMMOTH: Base = Base {
    frontage: 60.0 / MM_PER_INCH,
    rank_depth: 4.0,
    crew: 4,
};

/// The base of a troop type (single figures stand on a foot base).
pub fn base(kind: UnitType) -> Base {
    if kind.is_cavalry() {
        CAVALRY
    } else if kind.is_chariot() {
        CHARIOT
    } else if kind == UnitType::WoollyMammoth {
        MAMMOTH
    } else {
        INFANTRY
    }
}

/// Models on the table for a number of figures: chariots and mammoths are
/// counted in crew, a partly crewed model still stands.
pub fn models(kind: UnitType, figures: u32) -> u32 {
    figures.div_ceil(base(kind).crew)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appendix_three_sizes() {
        assert!((base(UnitType::MediumInfantry).frontage - 0.5906).abs() < 1e-4);
        assert!((base(UnitType::MediumCavalry).frontage - 0.7874).abs() < 1e-4);
        assert_eq!(base(UnitType::HeavyChariot).rank_depth, 3.0);
        assert_eq!(base(UnitType::WoollyMammoth).rank_depth, 4.0);
        assert_eq!(models(UnitType::WoollyMammoth, 12), 3);
        assert_eq!(models(UnitType::LightChariot, 11), 6);
        assert_eq!(models(UnitType::LightInfantry, 11), 11);
    }
}

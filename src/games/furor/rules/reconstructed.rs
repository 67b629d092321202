//! The reconstructed counter values (digest §13, R1–R6 and R10): what a
//! counter shows when a scenario file does not say. Every value here is a
//! guess the digest reasons out; a club with the real counter sheet
//! replaces them in the scenario files.
//!
//! ```
//! use umpire::games::furor::rules::{reconstructed, Kind};
//! assert_eq!(reconstructed::movement_points(Kind::Cavalry), 6);
//! assert_eq!(reconstructed::reduced_strength(4, reconstructed::ReducedSide::FullMinusOne), Some(3));
//! assert_eq!(reconstructed::reduced_strength(1, reconstructed::ReducedSide::FullMinusOne), None);
//! ```

use super::Kind;
use serde::{Deserialize, Serialize};

/// R5: movement points by kind (O19 gives baggage 2).
pub fn movement_points(kind: Kind) -> u16 {
    match kind {
        Kind::Infantry | Kind::MissileInfantry => 4,
        Kind::Cavalry | Kind::MissileCavalry | Kind::Commander => 6,
        Kind::Baggage => 2,
    }
}

/// R6: the range of missile units, in hexes.
pub fn range(kind: Kind) -> u16 {
    if kind.is_missile() {
        3
    } else {
        0
    }
}

/// R10: a commander's strength.
pub const COMMANDER_STRENGTH: u8 = 2;

/// R3: how the reduced side is drawn from the full one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReducedSide {
    /// Full − 1, the least destructive guess (the default).
    #[default]
    FullMinusOne,
    /// Half the full strength, rounded up (option `reduced_side = "half-up"`).
    HalfUp,
}

/// R3/R4: the reduced strength of a combat unit with this full strength,
/// or `None` for a one-step unit (full strength 1).
pub fn reduced_strength(full: u8, how: ReducedSide) -> Option<u8> {
    (full >= 2).then(|| match how {
        ReducedSide::FullMinusOne => full - 1,
        ReducedSide::HalfUp => full.div_ceil(2),
    })
}

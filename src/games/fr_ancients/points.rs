//! Points (digest §8): the sheet's two methods. *Basic* gives historical
//! options free except VTA (+5), elite (+10) and unsteady (−10); the
//! *guidelines* also charge 5 points for each missile type or ability shown
//! with "?" in the base book's troop table and take 5 off impetuous units.
//! The basic cost of each troop type is the base book's unit table (M15)
//! and comes from a club's pack. Numbers: `campaigns/fr-ancients/points.toml`.
//!
//! ```
//! use umpire::games::fr_ancients::grades::Grade;
//! use umpire::games::fr_ancients::points::{surcharges, Method, Priced};
//! let p = Priced { grade: Some(Grade::Elite), impetuous: true, optional_missiles: 1, optional_abilities: 0 };
//! let basic: i32 = surcharges(Method::Basic, &p).iter().map(|s| s.points).sum();
//! let guide: i32 = surcharges(Method::Guidelines, &p).iter().map(|s| s.points).sum();
//! assert_eq!(basic, 10, "impetuous is free in the basic method (ruling FA-18)");
//! assert_eq!(guide, 10 - 5 + 5);
//! ```

use super::grades::Grade;
use super::sheet::{sheet, Surcharges};
use serde::{Deserialize, Serialize};

/// The sheet's two ways of pricing an army.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// "Points Value Games (Basic!!!)": historical options free.
    #[default]
    Basic,
    /// "If a points system is a must, use the following guidelines".
    Guidelines,
}

impl Method {
    fn table(self) -> &'static Surcharges {
        match self {
            Method::Basic => &sheet().points.basic,
            Method::Guidelines => &sheet().points.guidelines,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Method::Basic => "basic",
            Method::Guidelines => "guidelines",
        }
    }
}

/// What a unit's price depends on besides its troop type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Priced {
    pub grade: Option<Grade>,
    pub impetuous: bool,
    /// Missile types taken that the troop table shows with "?".
    pub optional_missiles: u32,
    /// Abilities taken that the troop table shows with "?".
    pub optional_abilities: u32,
}

/// One surcharge, with the sheet's reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surcharge {
    pub why: &'static str,
    pub points: i32,
}

/// The surcharges of a unit under a method (zero ones left out).
pub fn surcharges(method: Method, p: &Priced) -> Vec<Surcharge> {
    let t = method.table();
    let mut out = Vec::new();
    let mut add = |why, points: i32| {
        if points != 0 {
            out.push(Surcharge { why, points });
        }
    };
    match p.grade {
        Some(Grade::Elite) => add("elite", t.elite),
        Some(Grade::Veteran) => add("veteran/VTA", t.veteran),
        Some(Grade::Unsteady) => add("unsteady", t.unsteady),
        None => {}
    }
    if p.impetuous {
        add("impetuous", t.impetuous);
    }
    if method == Method::Guidelines {
        add(
            "missiles shown with ?",
            t.optional_missile * p.optional_missiles as i32,
        );
        add(
            "abilities shown with ?",
            t.optional_ability * p.optional_abilities as i32,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheets_surcharges() {
        let total = |m, p: &Priced| surcharges(m, p).iter().map(|s| s.points).sum::<i32>();
        let vet = Priced {
            grade: Some(Grade::Veteran),
            ..Priced::default()
        };
        let unsteady = Priced {
            grade: Some(Grade::Unsteady),
            ..Priced::default()
        };
        assert_eq!(total(Method::Basic, &vet), 5);
        assert_eq!(total(Method::Basic, &unsteady), -10);
        let options = Priced {
            optional_missiles: 2,
            optional_abilities: 1,
            ..Priced::default()
        };
        assert_eq!(
            total(Method::Basic, &options),
            0,
            "historical options are free in the basic method"
        );
        assert_eq!(total(Method::Guidelines, &options), 15);
        assert!(surcharges(Method::Basic, &Priced::default()).is_empty());
    }
}

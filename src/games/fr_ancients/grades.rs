//! Grades (digest §4): elite (two +1s, 10 points), veteran or
//! technologically advanced (VTA: one +1, 5 points), unsteady (every enemy
//! causes it fear, −10 points), and the Melee/Rally/Missile [`Triple`]
//! their +1s are spread over (R3). The numbers are
//! `campaigns/fr-ancients/grades.toml`.
//!
//! ```
//! use umpire::games::fr_ancients::grades::{Grade, Triple};
//! let vet = Triple::parse("0/+1/0").unwrap();
//! assert_eq!(vet, Triple { melee: 0, rally: 1, missile: 0 });
//! assert!(Grade::Veteran.fits(vet));
//! assert!(!Grade::Elite.fits(vet), "an elite has two +1s");
//! assert_eq!(Grade::parse("VTA"), Some(Grade::Veteran));
//! ```

use super::sheet::{sheet, GradeRow};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A grade a unit may be "classed as".
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Grade {
    Elite,
    /// Veteran or Technologically Advanced (VTA).
    Veteran,
    Unsteady,
}

/// Melee/Rally/Missile values or bonuses, as the sheet writes them ("+1/+1/0").
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Triple {
    pub melee: i32,
    pub rally: i32,
    pub missile: i32,
}

impl Triple {
    pub const ZERO: Triple = Triple {
        melee: 0,
        rally: 0,
        missile: 0,
    };

    pub fn new([melee, rally, missile]: [i32; 3]) -> Triple {
        Triple {
            melee,
            rally,
            missile,
        }
    }

    /// "+1/+1/0", "0/+1/0", "2/2/0".
    pub fn parse(text: &str) -> Option<Triple> {
        let parts: Vec<i32> = text
            .split('/')
            .map(|p| p.trim().parse::<i32>())
            .collect::<Result<_, _>>()
            .ok()?;
        match parts[..] {
            [m, r, x] if [m, r, x].iter().all(|v| (-9..=9).contains(v)) => {
                Some(Triple::new([m, r, x]))
            }
            _ => None,
        }
    }

    /// The number of +1s (the sum of the positive parts).
    pub fn plus_ones(self) -> i32 {
        [self.melee, self.rally, self.missile]
            .iter()
            .filter(|v| **v > 0)
            .sum()
    }

    pub fn plus(self, o: Triple) -> Triple {
        Triple {
            melee: self.melee + o.melee,
            rally: self.rally + o.rally,
            missile: self.missile + o.missile,
        }
    }
}

impl fmt::Display for Triple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let one = |v: i32| {
            if v > 0 {
                format!("+{v}")
            } else {
                v.to_string()
            }
        };
        write!(
            f,
            "{}/{}/{}",
            one(self.melee),
            one(self.rally),
            one(self.missile)
        )
    }
}

impl Grade {
    pub const ALL: [Grade; 3] = [Grade::Elite, Grade::Veteran, Grade::Unsteady];

    /// The grade's row in `grades.toml`.
    pub fn row(self) -> &'static GradeRow {
        let name = self.name();
        match sheet().grades.grade.iter().find(|r| r.name == name) {
            Some(r) => r,
            None => unreachable!("grades.toml has a row for every grade (tested)"),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Grade::Elite => "Elite",
            Grade::Veteran => "Veteran",
            Grade::Unsteady => "Unsteady",
        }
    }

    /// A grade by name or another spelling ("Elites", "VTA").
    pub fn parse(text: &str) -> Option<Grade> {
        let k = crate::names::key(text);
        Grade::ALL.into_iter().find(|g| {
            let r = g.row();
            crate::names::key(&r.name) == k || r.also.iter().any(|a| crate::names::key(a) == k)
        })
    }

    pub fn suggest(text: &str) -> Option<&'static str> {
        crate::names::closest(text, Grade::ALL.iter().map(|g| (g.name(), g.name())))
    }

    /// Whether a bonus triple is this grade's: elite two +1s, VTA one,
    /// unsteady none; no part above +1 and none below 0.
    pub fn fits(self, bonus: Triple) -> bool {
        let parts = [bonus.melee, bonus.rally, bonus.missile];
        parts.iter().all(|v| (0..=1).contains(v)) && bonus.plus_ones() == self.row().plus_ones
    }

    /// The +1s the grade needs, as the sheet words it.
    pub fn wording(self) -> &'static str {
        match self {
            Grade::Elite => "Elite Status which provides 2 +1's",
            Grade::Veteran => {
                "VTA provides a single +1 in 1 of the unit characteristic (Melee/Rally/Missile)"
            }
            Grade::Unsteady => "Unsteady: all enemy units cause fear to the unit",
        }
    }

    /// Elite missile units add +1 to their fire roll (§3).
    pub fn adds_to_missile_roll(self) -> bool {
        self.row().missile_roll
    }

    /// "All enemy units cause fear to the unit."
    pub fn fears_every_enemy(self) -> bool {
        self.row().all_enemies_cause_fear
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sheets_grades() {
        assert_eq!(Grade::Elite.row().cost, 10);
        assert_eq!(Grade::Veteran.row().cost, 5);
        assert_eq!(Grade::Unsteady.row().cost, -10);
        assert!(Grade::Elite.fits(Triple::parse("+1/+1/0").unwrap()));
        assert!(Grade::Elite.fits(Triple::parse("+1/0/+1").unwrap()));
        assert!(
            !Grade::Elite.fits(Triple::parse("+2/0/0").unwrap()),
            "two +1s, not one +2"
        );
        assert!(Grade::Veteran.fits(Triple::parse("0/0/+1").unwrap()));
        assert!(Grade::Unsteady.fits(Triple::ZERO));
        assert!(Grade::Elite.adds_to_missile_roll() && !Grade::Veteran.adds_to_missile_roll());
        assert!(Grade::Unsteady.fears_every_enemy());
    }

    #[test]
    fn triples_read_and_print_as_the_sheet_writes_them() {
        assert_eq!(Triple::parse("+2/+2/0").unwrap().to_string(), "+2/+2/0");
        assert_eq!(Triple::parse("1/2"), None);
        assert_eq!(Triple::parse("a/b/c"), None);
        assert_eq!(Triple::parse("99/0/0"), None);
    }
}

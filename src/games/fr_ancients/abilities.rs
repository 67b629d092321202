//! The new unit abilities (digest §5) as a closed set, with the sheet's
//! period limits for Roman Battle Drill and the tortoise. Their numbers are
//! `campaigns/fr-ancients/abilities.toml`; what they do on the table is in
//! the steps that use them (fire, movement, melee).
//!
//! Rage and Panic are not abilities a list gives: every elephant can rage,
//! every enraged elephant and scythed chariot can panic ([`super::rage`]).
//!
//! ```
//! use umpire::games::fr_ancients::abilities::{Ability, Drill};
//! assert_eq!(Ability::parse("Shieldwall"), Some(Ability::ShieldWall));
//! // Hannibal's invasion, 218-217 BC: Pass Through only (ruling FA-11).
//! assert_eq!(Drill::Africanus.parts(-218, -217), vec![Ability::PassThrough]);
//! assert_eq!(Drill::Father.parts(-218, -217), vec![Ability::PassThrough, Ability::Maneuverability]);
//! ```

use super::sheet::{sheet, DrillPart};
use serde::{Deserialize, Serialize};
use std::fmt;

/// An ability a list or an army file gives a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ability {
    ShieldWall,
    Tortoise,
    /// "Roman Battle Drill" as a list writes it: Pass Through and/or
    /// Maneuverability by period ([`Drill::parts`]). A unit on the table
    /// carries the parts, never this.
    BattleDrill,
    PassThrough,
    Maneuverability,
    Hoplite,
    Unmanoeuvreable,
    WildCharge,
    Impetuous,
    CauseFear,
    Tribal,
    HeavyArmour,
    Pavisiers,
}

impl Ability {
    pub const ALL: [Ability; 13] = [
        Ability::ShieldWall,
        Ability::Tortoise,
        Ability::BattleDrill,
        Ability::PassThrough,
        Ability::Maneuverability,
        Ability::Hoplite,
        Ability::Unmanoeuvreable,
        Ability::WildCharge,
        Ability::Impetuous,
        Ability::CauseFear,
        Ability::Tribal,
        Ability::HeavyArmour,
        Ability::Pavisiers,
    ];

    /// The name as the sheet writes it, with other spellings.
    fn names(self) -> (&'static str, &'static [String]) {
        let a = &sheet().abilities;
        match self {
            Ability::ShieldWall => (&a.shield_wall.name, &a.shield_wall.also),
            Ability::Tortoise => (&a.tortoise.name, &[]),
            Ability::BattleDrill => (&a.battle_drill.name, &a.battle_drill.also),
            Ability::PassThrough => (
                &a.battle_drill.pass_through.name,
                &a.battle_drill.pass_through.also,
            ),
            Ability::Maneuverability => (
                &a.battle_drill.maneuverability.name,
                &a.battle_drill.maneuverability.also,
            ),
            Ability::Hoplite => (&a.hoplite.name, &a.hoplite.also),
            Ability::Unmanoeuvreable => (&a.unmanoeuvreable.name, &a.unmanoeuvreable.also),
            Ability::WildCharge => (&a.wild_charge.name, &[]),
            Ability::Impetuous => (&a.impetuous.name, &a.impetuous.also),
            Ability::CauseFear => (&a.cause_fear.name, &a.cause_fear.also),
            Ability::Tribal => (&a.tribal.name, &[]),
            Ability::HeavyArmour => (&a.heavy_armour.name, &a.heavy_armour.also),
            Ability::Pavisiers => (&a.pavisiers.name, &a.pavisiers.also),
        }
    }

    pub fn name(self) -> &'static str {
        self.names().0
    }

    /// An ability by its name or another spelling ("Shieldwall", "Hoplites").
    pub fn parse(text: &str) -> Option<Ability> {
        let k = crate::names::key(text);
        Ability::ALL.into_iter().find(|a| {
            let (name, also) = a.names();
            crate::names::key(name) == k || also.iter().any(|s| crate::names::key(s) == k)
        })
    }

    pub fn suggest(text: &str) -> Option<&'static str> {
        crate::names::closest(text, Ability::ALL.iter().map(|a| (a.name(), a.name())))
    }

    /// Skirmishers may not pass through a unit in this formation.
    pub fn bars_skirmishers(self) -> bool {
        let a = &sheet().abilities;
        match self {
            Ability::ShieldWall | Ability::Hoplite => !a.shield_wall.skirmishers_pass,
            Ability::Tortoise => !a.tortoise.skirmishers_pass,
            _ => false,
        }
    }
}

impl fmt::Display for Ability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which Scipio's "entry into the Punic wars" opens Maneuverability (O11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Drill {
    /// Africanus, in Spain from 210 BC (ruling FA-11).
    #[default]
    Africanus,
    /// His father, consul in 218 BC (option `scipio = "father"`).
    Father,
}

impl Drill {
    fn covers(part: &DrillPart, from: i32, to: i32, father: bool) -> bool {
        let start = if father {
            part.father_from_year.unwrap_or(part.from_year)
        } else {
            part.from_year
        };
        // The whole period of the list must lie inside the ability's years.
        from >= start && to <= part.to_year
    }

    /// The parts of Roman Battle Drill a list of these years (negative: BC) has.
    pub fn parts(self, from: i32, to: i32) -> Vec<Ability> {
        let d = &sheet().abilities.battle_drill;
        let mut out = Vec::new();
        if Drill::covers(&d.pass_through, from, to, false) {
            out.push(Ability::PassThrough);
        }
        if Drill::covers(&d.maneuverability, from, to, self == Drill::Father) {
            out.push(Ability::Maneuverability);
        }
        out
    }

    /// Whether one part (Pass Through or Maneuverability) is allowed in these years.
    pub fn allows(self, part: Ability, from: i32, to: i32) -> bool {
        self.parts(from, to).contains(&part)
    }
}

/// "Limited to Roman legions post Marian reform": a list of these years may
/// form tortoise.
pub fn tortoise_allowed(from: i32) -> bool {
    from > sheet().abilities.tortoise.after_year
}

/// Years as people write them: "218 BC", "AD 43".
pub fn year(y: i32) -> String {
    if y < 0 {
        format!("{} BC", -y)
    } else {
        format!("AD {y}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ability_has_a_name_that_reads_back() {
        for a in Ability::ALL {
            assert_eq!(Ability::parse(a.name()), Some(a), "{a}");
        }
        assert_eq!(Ability::parse("Hoplites"), Some(Ability::Hoplite));
        assert_eq!(
            Ability::parse("Roman Battle Drill"),
            Some(Ability::BattleDrill)
        );
        assert_eq!(Ability::suggest("Tortise"), Some("Tortoise"));
    }

    #[test]
    fn battle_drill_by_period() {
        // Early Republic: pass through only; late Republic: maneuverability only.
        assert_eq!(
            Drill::Africanus.parts(-300, -290),
            vec![Ability::PassThrough]
        );
        assert_eq!(
            Drill::Africanus.parts(-60, -50),
            vec![Ability::Maneuverability]
        );
        assert_eq!(
            Drill::Africanus.parts(-206, -202),
            vec![Ability::PassThrough, Ability::Maneuverability]
        );
        assert!(!Drill::Africanus.allows(Ability::Maneuverability, -218, -217));
    }

    #[test]
    fn tortoise_after_marius() {
        assert!(!tortoise_allowed(-218));
        assert!(tortoise_allowed(-58));
        assert_eq!(year(-218), "218 BC");
    }

    #[test]
    fn formations_that_bar_skirmishers() {
        assert!(Ability::ShieldWall.bars_skirmishers() && Ability::Tortoise.bars_skirmishers());
        assert!(!Ability::Tribal.bars_skirmishers());
    }
}

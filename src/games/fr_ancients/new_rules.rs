//! The sheet's "New Rules" that decide who may do what, as pure functions
//! of the facts the table gives: support in terrain (rule 1), withdrawal
//! from melee (rule 2), the charge bonus against light targets (rule 7),
//! counter-charge eligibility (rule 8), the phase tally (rule 10) and
//! wrap-around (rule 11). The engine gathers the facts; these say yes, no
//! (with the sheet's words), or which test decides.
//!
//! ```
//! use umpire::games::fr_ancients::new_rules::{may_wrap, support_in_terrain};
//! use umpire::games::fr_ancients::troops::TroopType::*;
//! use umpire::geometry::Face;
//! assert!(support_in_terrain(Spears, LightInfantry).is_ok());
//! assert!(support_in_terrain(Spears, HandWeapons).is_err());
//! assert!(may_wrap(LightCavalry, Face::Rear).is_ok());
//! assert!(may_wrap(HeavyCavalry, Face::Rear).is_err());
//! ```

use super::questions::Test;
use super::troops::TroopType;
use crate::geometry::Face;

/// Rule 1: "Support rules in terrain operate differently, Line infantry
/// (HW SP PK AR WB EL RB) can only give and receive support from Light
/// Infantry, Light Infantry may support other Light Infantry as usual."
///
/// # Errors
/// The sheet's reason when the support is not allowed in terrain.
pub fn support_in_terrain(supported: TroopType, supporter: TroopType) -> Result<(), String> {
    let light = TroopType::LightInfantry;
    let line_pair = (supported.is_line_infantry() && supporter != light)
        || (supporter.is_line_infantry() && supported != light);
    if line_pair {
        Err(format!(
            "in terrain, line infantry (HW SP PK AR WB EL RB) can only give and receive support from Light Infantry (rule 1): {} cannot support {}",
            supporter, supported
        ))
    } else {
        Ok(())
    }
}

/// What rule 2 says about a unit leaving a melee.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Withdrawal {
    /// It may withdraw, following the Light Cavalry rules (M7, ruling FA-22).
    May,
    /// It may not, and why.
    Not(String),
    /// It may, if the base rules say its enemies are slower (the allowances are not known).
    IfSlower,
}

/// Rule 2: "Skirmishers or Light Infantry that are not contacted in the
/// rear may withdraw from a combat with a slower infantry unit, following
/// the same rules as Light Cavalry." `enemies`: each enemy in contact, its
/// type, and whether it is slower (`None`: not known).
pub fn may_withdraw(
    troop: TroopType,
    contacted_in_rear: bool,
    enemies: &[(TroopType, Option<bool>)],
) -> Withdrawal {
    if !troop.may_withdraw() {
        return Withdrawal::Not(format!(
            "only Skirmishers or Light Infantry may withdraw from melee (rule 2), not {troop}"
        ));
    }
    if contacted_in_rear {
        return Withdrawal::Not("it is contacted in the rear (rule 2)".into());
    }
    if enemies.is_empty() {
        return Withdrawal::Not("it is not in melee".into());
    }
    if let Some((t, _)) = enemies.iter().find(|(t, _)| !t.is_infantry()) {
        return Withdrawal::Not(format!(
            "it fights {t}, not infantry: rule 2 lets it withdraw only from a slower infantry unit"
        ));
    }
    if enemies.iter().any(|(_, slower)| *slower == Some(false)) {
        return Withdrawal::Not("an infantry unit it fights is not slower than it (rule 2)".into());
    }
    if enemies.iter().any(|(_, slower)| slower.is_none()) {
        Withdrawal::IfSlower
    } else {
        Withdrawal::May
    }
}

/// Rule 7: "Units charging a skirmisher, Light Cavalry, Chariot or Camelry
/// unit do not add any charge or Wild Charge bonus but simply use their
/// standard CF. Any bonus because of Missile Weapons still count."
pub fn charge_bonus_counts(target: TroopType) -> bool {
    !target.denies_charge_bonus()
}

/// The facts rule 8 looks at for a unit that might counter-charge a charger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterFacts {
    pub unit: TroopType,
    /// It has a natural charge bonus (`None`: not known without the base table).
    pub natural_bonus: Option<bool>,
    pub demoralized: bool,
    pub in_melee: bool,
    /// The charger comes from within its movement arc.
    pub charger_in_arc: bool,
    pub charger: TroopType,
    /// The charger is directly in front of it (for Deep Pikes).
    pub charger_directly_in_front: bool,
    /// The charger causes fear to it.
    pub charger_causes_fear: bool,
}

/// Rule 8's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CounterCharge {
    /// It may not, and why.
    Not(String),
    /// It may.
    May,
    /// It may if it passes this test (with this modifier); `panics` says a
    /// failure means Panic (scythed chariots), otherwise it stays in place
    /// with a fear check before the melee.
    Test {
        test: Test,
        modifier: i32,
        panics: bool,
    },
    /// The base troop table must say whether it has a natural charge bonus.
    AskBonus,
}

/// Rule 8, counter-charging.
pub fn counter_charge(f: &CounterFacts) -> CounterCharge {
    if f.demoralized {
        return CounterCharge::Not("demoralized units may not charge (step 4)".into());
    }
    if !f.unit.may_charge() {
        return CounterCharge::Not("artillery and baggage may not charge (step 4)".into());
    }
    if f.in_melee {
        return CounterCharge::Not("it is already in melee".into());
    }
    match f.natural_bonus {
        Some(false) => {
            return CounterCharge::Not("only a unit with a 'natural' charge bonus (not one due to missile weapons) may counter charge (rule 8)".into())
        }
        None => return CounterCharge::AskBonus,
        Some(true) => {}
    }
    if !f.charger_in_arc {
        return CounterCharge::Not(
            "the charger does not come from within its movement arc (rule 8)".into(),
        );
    }
    if f.unit == TroopType::DeepPikes && !f.charger_directly_in_front {
        return CounterCharge::Not(
            "Deep Pikes may only counter charge units directly to their front (rule 8)".into(),
        );
    }
    if f.unit.is_infantry() && !f.charger.is_infantry() {
        return CounterCharge::Not(
            "infantry may only counter charge other infantry (rule 8)".into(),
        );
    }
    if f.unit == TroopType::ScythedChariots {
        return CounterCharge::Test {
            test: Test::Impact,
            modifier: 0,
            panics: true,
        };
    }
    if f.unit.is_cavalry() && f.charger == TroopType::Elephants {
        let m = super::sheet::sheet()
            .abilities
            .cause_fear
            .cavalry_charging_elephant;
        return CounterCharge::Test {
            test: Test::CounterCharge,
            modifier: m,
            panics: false,
        };
    }
    if f.charger == TroopType::ScythedChariots || f.charger_causes_fear {
        return CounterCharge::Test {
            test: Test::CounterCharge,
            modifier: 0,
            panics: false,
        };
    }
    CounterCharge::May
}

/// Rule 10 and step 7: what a unit lost this phase scores for the enemy.
/// "1 point per enemy unit demoralized and 2 points for each enemy unit
/// destroyed"; Skirmishers (a double skirmish unit too, ruling FA-16),
/// Rabble and Scythed Chariots only when destroyed, and then 1.
pub fn tally_points(troop: TroopType, destroyed: bool, demoralized: bool) -> u32 {
    match (troop.counts_once(), destroyed, demoralized) {
        (true, true, _) => 1,
        (true, false, _) => 0,
        (false, true, _) => 2,
        (false, false, true) => 1,
        (false, false, false) => 0,
    }
}

/// Rule 11: "Only Light Cavalry, Light Chariots and Light Camelry Units are
/// allowed to wrap around to the rear of a unit aswell as its flank. Other
/// units are restricted to flank wrap arounds."
///
/// # Errors
/// The sheet's words when the wrap is not allowed.
pub fn may_wrap(troop: TroopType, to: Face) -> Result<(), String> {
    match to {
        Face::Flank => Ok(()),
        Face::Rear if troop.wraps_to_rear() => Ok(()),
        Face::Rear => Err(format!(
            "only Light Cavalry, Light Chariots and Light Camelry may wrap around to the rear; {troop} are restricted to flank wrap arounds (rule 11)"
        )),
        Face::Front => Err("a wrap around goes to a flank or the rear (rule 11)".into()),
    }
}

/// Rule 13: "Skirmishers attached to skirmishers make a double skirmish
/// unit" (written `double_skirmish`, one unit), and "Skirmishers may attach
/// to Heavy Cavalry where historically accurate" (a unit `attached_to` its
/// host). Nothing else attaches by the sheet; how attachment works beyond
/// that is the base book's (M11).
///
/// # Errors
/// Why the pair may not attach, in the sheet's words.
pub fn may_attach(unit: TroopType, host: TroopType) -> Result<(), String> {
    match (unit, host) {
        (TroopType::Skirmishers, TroopType::HeavyCavalry) => Ok(()),
        (TroopType::Skirmishers, TroopType::Skirmishers) => Err(
            "Skirmishers attached to Skirmishers make one double skirmish unit: write double_skirmish = true on one unit (rule 13)".into(),
        ),
        (TroopType::Skirmishers, h) => Err(format!(
            "Skirmishers may attach to Heavy Cavalry, not to {h} (rule 13)"
        )),
        (u, _) => Err(format!("only Skirmishers attach to another unit, not {u} (rule 13)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use TroopType::*;

    #[test]
    fn rule_thirteen_attachments() {
        assert!(may_attach(Skirmishers, HeavyCavalry).is_ok());
        assert!(may_attach(Skirmishers, MediumCavalry)
            .unwrap_err()
            .contains("not to Medium Cavalry"));
        assert!(may_attach(Skirmishers, Skirmishers)
            .unwrap_err()
            .contains("double_skirmish"));
        assert!(may_attach(LightInfantry, HeavyCavalry)
            .unwrap_err()
            .contains("only Skirmishers"));
    }

    #[test]
    fn rule_one_in_terrain() {
        assert!(support_in_terrain(LightInfantry, LightInfantry).is_ok());
        assert!(support_in_terrain(HandWeapons, LightInfantry).is_ok());
        assert!(support_in_terrain(LightInfantry, Warband).is_ok());
        assert!(support_in_terrain(Warband, Rabble).is_err());
        assert!(
            support_in_terrain(Elephants, Spears).is_err(),
            "EL count as line infantry (ruling FA-14)"
        );
        assert!(
            support_in_terrain(MediumCavalry, HeavyCavalry).is_ok(),
            "rule 1 says nothing of cavalry"
        );
    }

    #[test]
    fn rule_two_withdrawal() {
        assert_eq!(
            may_withdraw(LightInfantry, false, &[(Spears, Some(true))]),
            Withdrawal::May
        );
        assert_eq!(
            may_withdraw(Skirmishers, false, &[(Spears, None)]),
            Withdrawal::IfSlower
        );
        assert!(matches!(
            may_withdraw(Skirmishers, true, &[(Spears, Some(true))]),
            Withdrawal::Not(_)
        ));
        assert!(matches!(
            may_withdraw(Skirmishers, false, &[(LightCavalry, Some(true))]),
            Withdrawal::Not(_)
        ));
        assert!(matches!(
            may_withdraw(HandWeapons, false, &[(Spears, Some(true))]),
            Withdrawal::Not(_)
        ));
        assert!(matches!(
            may_withdraw(LightInfantry, false, &[(Spears, Some(false))]),
            Withdrawal::Not(_)
        ));
    }

    fn facts(unit: TroopType, charger: TroopType) -> CounterFacts {
        CounterFacts {
            unit,
            natural_bonus: Some(true),
            demoralized: false,
            in_melee: false,
            charger_in_arc: true,
            charger,
            charger_directly_in_front: true,
            charger_causes_fear: false,
        }
    }

    #[test]
    fn rule_eight_counter_charges() {
        assert_eq!(
            counter_charge(&facts(HandWeapons, Warband)),
            CounterCharge::May
        );
        assert!(matches!(
            counter_charge(&facts(HandWeapons, HeavyCavalry)),
            CounterCharge::Not(_)
        ));
        assert_eq!(
            counter_charge(&facts(Elephants, HeavyCavalry)),
            CounterCharge::May,
            "elephants counter charge any unit"
        );
        let pikes = CounterFacts {
            charger_directly_in_front: false,
            ..facts(DeepPikes, Spears)
        };
        assert!(
            matches!(counter_charge(&pikes), CounterCharge::Not(w) if w.contains("directly to their front"))
        );
        assert_eq!(
            counter_charge(&facts(MediumCavalry, Elephants)),
            CounterCharge::Test {
                test: Test::CounterCharge,
                modifier: -2,
                panics: false
            }
        );
        assert_eq!(
            counter_charge(&facts(ScythedChariots, Chariots)),
            CounterCharge::Test {
                test: Test::Impact,
                modifier: 0,
                panics: true
            }
        );
        assert_eq!(
            counter_charge(&facts(HeavyCavalry, ScythedChariots)),
            CounterCharge::Test {
                test: Test::CounterCharge,
                modifier: 0,
                panics: false
            }
        );
        let feared = CounterFacts {
            charger_causes_fear: true,
            ..facts(HeavyCavalry, HeavyCavalry)
        };
        assert!(matches!(
            counter_charge(&feared),
            CounterCharge::Test { modifier: 0, .. }
        ));
        let no_bonus = CounterFacts {
            natural_bonus: Some(false),
            ..facts(HeavyCavalry, HeavyCavalry)
        };
        assert!(
            matches!(counter_charge(&no_bonus), CounterCharge::Not(w) if w.contains("natural"))
        );
        let unknown = CounterFacts {
            natural_bonus: None,
            ..facts(HeavyCavalry, HeavyCavalry)
        };
        assert_eq!(counter_charge(&unknown), CounterCharge::AskBonus);
        let behind = CounterFacts {
            charger_in_arc: false,
            ..facts(HeavyCavalry, HeavyCavalry)
        };
        assert!(
            matches!(counter_charge(&behind), CounterCharge::Not(w) if w.contains("movement arc"))
        );
    }

    #[test]
    fn rule_ten_tally() {
        assert_eq!(tally_points(Spears, true, true), 2);
        assert_eq!(tally_points(Spears, false, true), 1);
        assert_eq!(tally_points(Skirmishers, false, true), 0);
        assert_eq!(tally_points(Rabble, true, false), 1);
        assert_eq!(tally_points(ScythedChariots, true, true), 1);
        assert_eq!(tally_points(Spears, false, false), 0);
    }

    #[test]
    fn rule_eleven_wrap() {
        assert!(
            may_wrap(LightChariots, Face::Rear).is_ok()
                && may_wrap(LightCamelry, Face::Rear).is_ok()
        );
        assert!(may_wrap(Warband, Face::Flank).is_ok());
        assert!(may_wrap(Camelry, Face::Rear).is_err());
    }
}

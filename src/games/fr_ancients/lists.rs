//! Army lists (digest §9): the sheet's two lists for the 2nd Punic War,
//! Hannibal's invasion of northern Italy, as data
//! (`campaigns/fr-ancients/lists/*.toml`), read into typed entries. Roman
//! Battle Drill is expanded by the list's years ([`Drill::parts`]) and
//! Tribal units are impetuous (§5 Tribal).
//!
//! ```
//! use umpire::games::fr_ancients::lists::{list, lists};
//! use umpire::games::fr_ancients::abilities::{Ability, Drill};
//! assert_eq!(lists().len(), 2);
//! let rome = list("Republican Roman Consular Legion").unwrap();
//! assert_eq!(rome.entries.iter().map(|e| e.count).sum::<u32>(), 36);
//! let hastati = rome.entry("Roman Hastati").unwrap();
//! assert_eq!(hastati.abilities_for(Drill::Africanus, rome.years), vec![Ability::PassThrough]);
//! assert_eq!(list("Carthaginian Army").unwrap().entries.iter().map(|e| e.count).sum::<u32>(), 35);
//! ```

use super::abilities::{Ability, Drill};
use super::grades::{Grade, Triple};
use super::points::Method;
use super::troops::TroopType;
use super::weapons::Weapon;
use serde::Deserialize;
use std::sync::OnceLock;

const LISTS: [(&str, &str); 2] = [
    (
        "republican-roman-consular-legion.toml",
        include_str!("../../../campaigns/fr-ancients/lists/republican-roman-consular-legion.toml"),
    ),
    (
        "carthaginian-army.toml",
        include_str!("../../../campaigns/fr-ancients/lists/carthaginian-army.toml"),
    ),
];

/// A list as written (unchecked).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListFile {
    name: String,
    war: String,
    points: u32,
    #[serde(default)]
    method: Method,
    years: [i32; 2],
    entry: Vec<EntryFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    count: u32,
    name: String,
    #[serde(rename = "type")]
    troop: String,
    #[serde(default)]
    weapons: Vec<String>,
    #[serde(default)]
    abilities: Vec<String>,
    grade: Option<String>,
    bonus: Option<[i32; 3]>,
}

/// A checked army list.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmyList {
    pub name: String,
    pub war: String,
    /// The points the list is built to.
    pub points: u32,
    pub method: Method,
    /// First and last year (negative: BC).
    pub years: [i32; 2],
    pub entries: Vec<Entry>,
}

/// One line of a list: "3 x Roman Hastati. Handweapons. Pila Roman Battle Drill. 0/+1/0 Veterans".
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub count: u32,
    pub name: String,
    pub troop: TroopType,
    pub weapons: Vec<Weapon>,
    /// As the list writes them (Roman Battle Drill not yet expanded).
    pub abilities: Vec<Ability>,
    pub grade: Option<Grade>,
    /// The grade's +1s over Melee/Rally/Missile.
    pub bonus: Triple,
}

impl Entry {
    /// The abilities a unit of this entry has on the table: Battle Drill
    /// expanded for the list's years, Impetuous added to Tribal units.
    pub fn abilities_for(&self, drill: Drill, years: [i32; 2]) -> Vec<Ability> {
        let mut out = Vec::new();
        for a in &self.abilities {
            match a {
                Ability::BattleDrill => out.extend(drill.parts(years[0], years[1])),
                other => out.push(*other),
            }
        }
        if out.contains(&Ability::Tribal) && !out.contains(&Ability::Impetuous) {
            out.push(Ability::Impetuous);
        }
        out.sort();
        out.dedup();
        out
    }
}

impl ArmyList {
    /// Read and check a list file.
    ///
    /// # Errors
    /// Malformed TOML, or a type, weapon, ability or grade the sheet does
    /// not know, or a bonus that does not fit its grade.
    pub fn from_toml(file: &str, text: &str) -> Result<ArmyList, String> {
        let raw: ListFile = toml::from_str(text).map_err(|e| format!("{file}: {}", e.message()))?;
        let mut entries = Vec::new();
        for e in raw.entry {
            let at =
                |what: &str, given: &str| format!("{file}: {}: no {what} called '{given}'", e.name);
            let troop = TroopType::parse(&e.troop).ok_or_else(|| at("troop type", &e.troop))?;
            let weapons = e
                .weapons
                .iter()
                .map(|w| Weapon::parse(w).ok_or_else(|| at("weapon", w)))
                .collect::<Result<Vec<_>, _>>()?;
            let abilities = e
                .abilities
                .iter()
                .map(|a| Ability::parse(a).ok_or_else(|| at("ability", a)))
                .collect::<Result<Vec<_>, _>>()?;
            let grade = e
                .grade
                .as_deref()
                .map(|g| Grade::parse(g).ok_or_else(|| at("grade", g)))
                .transpose()?;
            let bonus = e.bonus.map(Triple::new).unwrap_or_default();
            if let Some(g) = grade {
                if !g.fits(bonus) {
                    return Err(format!(
                        "{file}: {}: {bonus} does not fit {g} ({})",
                        e.name,
                        g.wording()
                    ));
                }
            }
            entries.push(Entry {
                count: e.count,
                name: e.name,
                troop,
                weapons,
                abilities,
                grade,
                bonus,
            });
        }
        Ok(ArmyList {
            name: raw.name,
            war: raw.war,
            points: raw.points,
            method: raw.method,
            years: raw.years,
            entries,
        })
    }

    /// The entry of this name (names compared as [`crate::names::key`]s).
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        let k = crate::names::key(name);
        self.entries
            .iter()
            .find(|e| crate::names::key(&e.name) == k)
    }

    /// The closest entry name to a misspelling.
    pub fn suggest(&self, name: &str) -> Option<&str> {
        crate::names::closest(
            name,
            self.entries
                .iter()
                .map(|e| (e.name.as_str(), e.name.as_str())),
        )
    }
}

/// The lists the sheet gives.
pub fn lists() -> &'static [ArmyList] {
    static LOADED: OnceLock<Vec<ArmyList>> = OnceLock::new();
    LOADED.get_or_init(|| {
        LISTS
            .iter()
            .map(|(file, text)| match ArmyList::from_toml(file, text) {
                Ok(l) => l,
                Err(e) => unreachable!("embedded list checked by tests: {e}"),
            })
            .collect()
    })
}

/// A list by name, or the closest name as the error.
///
/// # Errors
/// No list of that name; the error names the closest one, if any.
pub fn list(name: &str) -> Result<&'static ArmyList, Option<&'static str>> {
    let k = crate::names::key(name);
    lists()
        .iter()
        .find(|l| crate::names::key(&l.name) == k)
        .ok_or_else(|| {
            crate::names::closest(
                name,
                lists().iter().map(|l| (l.name.as_str(), l.name.as_str())),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_lists_read() {
        for (file, text) in LISTS {
            ArmyList::from_toml(file, text).unwrap();
        }
    }

    #[test]
    fn the_lists_as_the_sheet_prints_them() {
        let rome = list("republican roman consular legion").unwrap();
        assert_eq!(rome.points, 1000);
        assert_eq!(rome.entries.len(), 13);
        let triarii = rome.entry("Roman Triarii").unwrap();
        assert_eq!(
            (triarii.troop, triarii.grade),
            (TroopType::Spears, Some(Grade::Elite))
        );
        assert_eq!(triarii.bonus.to_string(), "+1/+1/0");
        let celts = rome.entry("Celtic Infantry").unwrap();
        assert_eq!(
            celts.abilities_for(Drill::Africanus, rome.years),
            vec![Ability::Impetuous, Ability::Tribal]
        );
        let carthage = list("Carthaginian Army").unwrap();
        assert_eq!(
            carthage.entry("Balearic Slingers").unwrap().weapons,
            vec![Weapon::BowsSlings]
        );
        assert_eq!(
            carthage.entry("Carthaginian Spearmen").unwrap().abilities,
            vec![Ability::Hoplite]
        );
        assert_eq!(
            carthage.entry("African War Elephants").unwrap().troop,
            TroopType::Elephants
        );
        assert_eq!(list("Carthagenian Army"), Err(Some("Carthaginian Army")));
    }

    #[test]
    fn a_bonus_that_does_not_fit_its_grade_is_refused() {
        let text = "name='x'\nwar='w'\npoints=10\nyears=[-1,-1]\n[[entry]]\ncount=1\nname='a'\ntype='Spears'\ngrade='Elite'\nbonus=[0,1,0]\n";
        assert!(ArmyList::from_toml("x.toml", text)
            .unwrap_err()
            .contains("does not fit Elite"));
    }
}

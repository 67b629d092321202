//! The army file a player writes: a nation, a points limit, and what was
//! bought. It is unchecked input; [`super::check`] judges it.
//!
//! ```toml
//! nation = "Aquilonia"
//! points = 1500
//!
//! [commander]
//! name = "Conan"
//!
//! [[unit]]
//! designation = "Black Dragons"
//! figures = 12
//!
//! [[hero]]
//! name = "Trocero"
//! mounted = true
//!
//! [[wizard]]
//! order = "White Druids"
//! count = 1
//!
//! [[mercenary]]
//! nation = "Free Companies"
//! designation = "Free Company Foot"
//! figures = 24
//! ```

use serde::{Deserialize, Serialize};

use super::ArmyError;

/// An army as bought from a national list.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyFile {
    /// The army's name, for reports ("The Army of the Western Marches").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub nation: String,
    /// The points limit agreed for the battle.
    pub points: u32,
    /// Fighting on home ground (Hyrkanian infantry never leaves Hyrkania).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub home: bool,
    /// The nation the army will fight, when known (White Druids serve
    /// against Stygia).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commander: Option<Commander>,
    #[serde(default, rename = "unit", skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<UnitLine>,
    #[serde(default, rename = "hero", skip_serializing_if = "Vec::is_empty")]
    pub heroes: Vec<Hero>,
    #[serde(default, rename = "superhero", skip_serializing_if = "Vec::is_empty")]
    pub superheroes: Vec<Hero>,
    #[serde(default, rename = "wizard", skip_serializing_if = "Vec::is_empty")]
    pub wizards: Vec<Wizards>,
    #[serde(default, rename = "mercenary", skip_serializing_if = "Vec::is_empty")]
    pub mercenaries: Vec<Mercenary>,
}

/// One unit bought from the army's own national list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitLine {
    /// The designation in the national table ("Aquilonian Knights").
    pub designation: String,
    pub figures: u32,
    /// The unit's own name on the table; default: the designation, numbered
    /// when there are several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Armed with crossbows instead of bows (Western kingdoms only).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub crossbows: bool,
}

/// The army's commander: free, one per army (§9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Commander {
    pub name: String,
    /// The unit he starts attached to (its name in this file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
}

/// A hero or superhero (§9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hero {
    pub name: String,
    /// Mounted heroes serve with cavalry, heroes on foot with infantry.
    #[serde(default)]
    pub mounted: bool,
    /// The unit he serves with (its name in this file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<String>,
}

/// Wizards of one order of Appendix II.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wizards {
    pub order: String,
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

/// A mercenary unit hired from another list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mercenary {
    /// The list it comes from ("Free Companies", "Shem").
    pub nation: String,
    pub designation: String,
    pub figures: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// "1st", "2nd", "3rd", "4th", … "11th", "21st".
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl ArmyFile {
    /// Parse an army file.
    ///
    /// # Errors
    /// [`ArmyError::File`] naming the line and what is wrong.
    pub fn from_toml(path: &str, text: &str) -> Result<ArmyFile, ArmyError> {
        toml::from_str(text).map_err(|e| ArmyError::File {
            path: path.to_string(),
            message: e.to_string(),
        })
    }

    /// The army file as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Every bought unit with its name on the table: the given name, or the
    /// designation with an ordinal when it repeats ("2nd Aquilonians"). The
    /// ordinal leads because orders read a trailing number as a phase
    /// ("Aquilonians 2: move 4" is phase 2 of "Aquilonians").
    pub fn unit_names(&self) -> Vec<String> {
        let lines = self
            .units
            .iter()
            .map(|u| (&u.designation, &u.name))
            .chain(self.mercenaries.iter().map(|m| (&m.designation, &m.name)));
        let all: Vec<_> = lines.collect();
        let mut seen: std::collections::BTreeMap<&str, u32> = Default::default();
        all.iter()
            .map(|(designation, name)| match name {
                Some(n) => n.clone(),
                None => {
                    let repeats = all
                        .iter()
                        .filter(|(d, n)| d == designation && n.is_none())
                        .count();
                    let k = seen.entry(designation.as_str()).or_default();
                    *k += 1;
                    if repeats > 1 {
                        format!("{} {designation}", ordinal(*k))
                    } else {
                        designation.to_string()
                    }
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }

    #[test]
    fn repeated_designations_are_numbered_in_front() {
        let line = |d: &str, name: Option<&str>| UnitLine {
            designation: d.into(),
            figures: 12,
            name: name.map(String::from),
            crossbows: false,
        };
        let army = ArmyFile {
            units: vec![
                line("Aquilonians", None),
                line("Black Dragons", None),
                line("Aquilonians", None),
                line("Aquilonians", Some("Tarantia Foot")),
            ],
            ..ArmyFile::default()
        };
        assert_eq!(
            army.unit_names(),
            [
                "1st Aquilonians",
                "Black Dragons",
                "2nd Aquilonians",
                "Tarantia Foot"
            ]
        );
    }
}

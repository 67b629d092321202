//! National descriptions (Appendix I) as data: each nation's arms (cavalry,
//! foot, archers, or the whole army), their shares of the army, and the unit
//! designations with the percentage band each may fill.
//!
//! The TOML files in `campaigns/nations/` are embedded in the binary, so the
//! lists work from any folder. [`Nation`] is checked as it loads: every type,
//! class, weapon and trait must be the book's, and every unit must be
//! purchasable under §11.

use crate::games::hyborian::rules::points::figure_cost;
use crate::games::hyborian::rules::{Class, Trait, UnitType, Weapon};
use serde::{Deserialize, Serialize};

use super::ArmyError;

/// One nation of Appendix I (or one of the three Northern Barbarian tribes,
/// or the Free Companies).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nation {
    pub name: String,
    /// The group a nation belongs to ("Northern Barbarians").
    #[serde(default)]
    pub group: Option<String>,
    /// The campaign points of Appendix I.
    pub points: u32,
    pub banner: String,
    /// One of the Western kingdoms, which alone may use crossbows (§6, §12).
    #[serde(default)]
    pub western: bool,
    #[serde(default)]
    pub notes: String,
    /// What mercenaries the nation may hire; absent means none ("not stated").
    #[serde(default)]
    pub mercenaries: Mercenaries,
    #[serde(rename = "arm")]
    pub arms: Vec<Arm>,
}

/// Which mercenaries a nation may hire (Appendix I, Free Companies).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Mercenaries {
    /// None, whether the book says so or says nothing: "Only those countries
    /// which can hire mercenary units … may hire independent Free Companies."
    #[default]
    None,
    /// Any mercenary units, up to a percentage of the army (Aquilonia).
    Any { percent: u32 },
    /// Free Companies only, up to a percentage (Argos, Turan, Zamora).
    FreeCompanies { percent: u32 },
    /// Named units only, a number of each (Khauran and Khoraja).
    Listed { units: Vec<ListedMercenary> },
}

/// A mercenary a nation may hire by name.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListedMercenary {
    pub nation: String,
    /// A designation of that nation; absent means any of its units.
    #[serde(default)]
    pub designation: Option<String>,
    pub max_units: u32,
}

/// Which figures a percentage band is "of" (the row labels of Appendix I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArmKind {
    /// "% of Cav".
    Cavalry,
    /// "% of Foot".
    Foot,
    /// "% of Bow" (Northern Barbarian archers).
    Archers,
    /// "% of Army": a whole-army table.
    Army,
}

impl ArmKind {
    /// The row label as the book prints it.
    pub fn label(self) -> &'static str {
        match self {
            ArmKind::Cavalry => "cavalry",
            ArmKind::Foot => "foot",
            ArmKind::Archers => "archers",
            ArmKind::Army => "army",
        }
    }
}

/// A part of the army with its own table: its share of the whole army and
/// its designations.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arm {
    pub of: ArmKind,
    /// Percent of the army's native figures; absent: whatever the other arms
    /// leave ("the balance").
    #[serde(default)]
    pub share: Option<[u32; 2]>,
    /// This arm may only be fielded at home (Hyrkanian infantry).
    #[serde(default)]
    pub home_only: bool,
    #[serde(rename = "unit")]
    pub units: Vec<Designation>,
}

/// Full strength of a unit: one number or a range ("24-30").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Size {
    Exactly(u32),
    Between([u32; 2]),
}

impl Size {
    pub fn min(self) -> u32 {
        match self {
            Size::Exactly(n) => n,
            Size::Between([lo, _]) => lo,
        }
    }
    pub fn max(self) -> u32 {
        match self {
            Size::Exactly(n) => n,
            Size::Between([_, hi]) => hi,
        }
    }
}

impl std::fmt::Display for Size {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Size::Exactly(n) => write!(f, "{n}"),
            Size::Between([lo, hi]) => write!(f, "{lo}-{hi}"),
        }
    }
}

/// Read a type, class, weapon or trait by the code the book and the case
/// files use ("HC", "B", "shemite-bow", "guard").
fn by_code<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr<Err = crate::games::hyborian::rules::UnknownName>,
{
    let s = String::deserialize(d)?;
    s.parse().map_err(serde::de::Error::custom)
}

fn all_by_code<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: std::str::FromStr<Err = crate::games::hyborian::rules::UnknownName>,
{
    Vec::<String>::deserialize(d)?
        .iter()
        .map(|s| s.parse().map_err(serde::de::Error::custom))
        .collect()
}

/// One line of a national table: a unit designation.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Designation {
    pub designation: String,
    #[serde(rename = "type", deserialize_with = "by_code")]
    pub kind: UnitType,
    #[serde(deserialize_with = "by_code")]
    pub class: Class,
    /// Figures per unit (chariots and mammoths: models, each counting one).
    pub figures: Size,
    #[serde(default, deserialize_with = "all_by_code")]
    pub weapons: Vec<Weapon>,
    #[serde(default, deserialize_with = "all_by_code")]
    pub traits: Vec<Trait>,
    /// Percent of the arm's figures.
    #[serde(default)]
    pub percent: Option<[u32; 2]>,
    /// "1 unit": at most one such unit.
    #[serde(default)]
    pub one_unit: bool,
}

impl Designation {
    /// Figures armed with a bow, Shemite bow or crossbow pay for it.
    pub fn has_bow(&self) -> bool {
        self.weapons
            .iter()
            .any(|w| matches!(w, Weapon::Bow | Weapon::ShemiteBow | Weapon::Crossbow))
    }

    /// A guard unit: at most one in an army, whatever its designation.
    pub fn is_guard(&self) -> bool {
        self.traits.contains(&Trait::Guard)
    }

    /// Points per figure (§11).
    pub fn figure_cost(&self) -> u32 {
        figure_cost(self.kind, self.class, self.has_bow()).unwrap_or_default()
    }

    /// The band as the book prints it: "0-50%" or "1 unit".
    pub fn band_text(&self) -> String {
        match (self.one_unit, self.percent) {
            (true, _) => "1 unit".to_string(),
            (false, Some([lo, hi])) => format!("{lo}-{hi}%"),
            (false, None) => "any".to_string(),
        }
    }
}

impl Nation {
    /// Every designation with the arm it belongs to, in the book's order.
    pub fn designations(&self) -> impl Iterator<Item = (&Arm, &Designation)> {
        self.arms
            .iter()
            .flat_map(|a| a.units.iter().map(move |d| (a, d)))
    }

    /// Find a designation by name, ignoring case and punctuation.
    pub fn designation(&self, name: &str) -> Option<(&Arm, &Designation)> {
        let key = crate::names::key(name);
        self.designations()
            .find(|(_, d)| crate::names::key(&d.designation) == key)
    }

    /// Parse and check one nation file.
    ///
    /// # Errors
    /// [`ArmyError::Nation`] when the TOML is malformed or a unit cannot be
    /// bought under §11 (a type/class pair the book prints as "X").
    pub fn from_toml(file: &str, text: &str) -> Result<Nation, ArmyError> {
        let nation: Nation = toml::from_str(text).map_err(|e| ArmyError::Nation {
            file: file.to_string(),
            message: e.to_string(),
        })?;
        let bad_band = |band: Option<[u32; 2]>| band.is_some_and(|[lo, hi]| lo > hi || hi > 100);
        if let Some(arm) = nation.arms.iter().find(|a| bad_band(a.share)) {
            return Err(ArmyError::Nation {
                file: file.to_string(),
                message: format!(
                    "{} share {:?}: a band is low-high within 0-100",
                    arm.of.label(),
                    arm.share
                ),
            });
        }
        for (_, d) in nation.designations() {
            if bad_band(d.percent) || d.figures.min() > d.figures.max() || d.figures.min() == 0 {
                return Err(ArmyError::Nation {
                    file: file.to_string(),
                    message: format!(
                        "{}: bands are low-high within 0-100 and sizes at least 1",
                        d.designation
                    ),
                });
            }
            if figure_cost(d.kind, d.class, d.has_bow()).is_none() {
                return Err(ArmyError::Nation {
                    file: file.to_string(),
                    message: format!(
                        "{}: {} class {} cannot be bought (the point table prints X)",
                        d.designation,
                        d.kind.book_name(),
                        d.class
                    ),
                });
            }
            if d.one_unit == d.percent.is_some() {
                return Err(ArmyError::Nation {
                    file: file.to_string(),
                    message: format!(
                        "{}: give either `percent` or `one_unit = true`",
                        d.designation
                    ),
                });
            }
        }
        Ok(nation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = "name = \"X\"\npoints = 500\nbanner = \"none\"\n[[arm]]\nof = \"army\"\n[[arm.unit]]\ndesignation = \"Foot\"\ntype = \"HI\"\nclass = \"B\"\nfigures = 24\npercent = [0, 100]\n";

    #[test]
    fn a_list_loads_with_the_book_codes() {
        let n = Nation::from_toml("x.toml", MINIMAL).unwrap();
        let (_, d) = n.designation("foot").unwrap();
        assert_eq!(
            (d.kind, d.class, d.figure_cost()),
            (UnitType::HeavyInfantry, Class::B, 4)
        );
        assert_eq!(n.mercenaries, Mercenaries::None);
    }

    #[test]
    fn lists_the_book_cannot_buy_are_refused() {
        let err = Nation::from_toml("x.toml", &MINIMAL.replace("class = \"B\"", "class = \"C\""))
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.toml: Foot: heavy infantry class C cannot be bought (the point table prints X)"
        );
        let err = Nation::from_toml("x.toml", &MINIMAL.replace("type = \"HI\"", "type = \"XX\""))
            .unwrap_err();
        assert!(err.to_string().contains("unknown unit type 'XX'"), "{err}");
        let err =
            Nation::from_toml("x.toml", &MINIMAL.replace("[0, 100]", "[60, 40]")).unwrap_err();
        assert!(err.to_string().contains("bands are low-high"), "{err}");
        let err =
            Nation::from_toml("x.toml", &MINIMAL.replace("percent = [0, 100]", "")).unwrap_err();
        assert!(
            err.to_string()
                .contains("give either `percent` or `one_unit = true`"),
            "{err}"
        );
    }
}

//! The army checker (`umpire army check FILE` for an army file with
//! `ruleset = "fr-ancients"`): an [`ArmyFile`] names a list of
//! [`super::lists`], the units taken from it, a general, sub-generals and
//! the battle standard; [`check`] finds every breach of the sheet, each in
//! the sheet's words, and prices the army by the chosen points method (the
//! base costs come from a pack when the file names one, M15).
//!
//! ```
//! use umpire::games::fr_ancients::army::{check, ArmyFile};
//! let text = r#"
//! ruleset = "fr-ancients"
//! list = "Carthaginian Army"
//! points = 1000
//! [general]
//! name = "Hannibal"
//! with = "Carthaginian Noble Cavalry"
//! [standard]
//! with = "Carthaginian Spearmen 1"
//! [[unit]]
//! entry = "Carthaginian Spearmen"
//! count = 4
//! [[unit]]
//! entry = "Carthaginian Noble Cavalry"
//! "#;
//! let army = ArmyFile::from_toml("hannibal.toml", text).unwrap();
//! let report = check(&army, None);
//! assert!(report.breaches.is_empty(), "{:?}", report.breaches);
//! assert_eq!(report.surcharges, 10, "the nobles are elite");
//! ```

use super::abilities::{year, Ability, Drill};
use super::characters::{default_sub_general_step, sub_generals_allowed, Rank};
use super::grades::{Grade, Triple};
use super::lists::{list, ArmyList, Entry};
use super::pack::Pack;
use super::points::{surcharges, Method, Priced};
use super::troops::TroopType;
use super::weapons::Weapon;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::fmt;

/// An FR! Ancients army file as a player writes it (unchecked).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyFile {
    /// `fr-ancients`.
    pub ruleset: String,
    /// The army's name for reports.
    #[serde(default)]
    pub name: Option<String>,
    /// The list it is taken from ("Republican Roman Consular Legion").
    pub list: String,
    /// The points agreed for the battle.
    pub points: u32,
    /// `basic` or `guidelines`; the list's own method by default.
    #[serde(default)]
    pub method: Option<Method>,
    /// A base-rule pack for the troop costs, relative to the army file.
    #[serde(default)]
    pub pack: Option<String>,
    /// `mobile` or `stationary` (rule 6).
    #[serde(default)]
    pub baggage: Option<String>,
    #[serde(default)]
    pub general: Option<CharacterLine>,
    #[serde(default, rename = "sub_general")]
    pub sub_generals: Vec<CharacterLine>,
    #[serde(default)]
    pub standard: Option<StandardLine>,
    #[serde(default, rename = "unit")]
    pub units: Vec<UnitLine>,
    /// Skirmishers attached to Heavy Cavalry (rule 13).
    #[serde(default, rename = "attachment")]
    pub attachments: Vec<AttachmentLine>,
    /// `scipio = "father"`, `sub_general_step = 500`.
    #[serde(default)]
    pub options: ArmyOptions,
}

/// The options that change what an army may field.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmyOptions {
    /// Which Scipio opens Maneuverability (ruling FA-11).
    #[serde(default)]
    pub scipio: Drill,
    /// Points for each sub-general above two (ruling FA-17).
    #[serde(default)]
    pub sub_general_step: Option<u32>,
}

/// A general or sub-general and the unit they start with.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterLine {
    pub name: String,
    /// The unit's name in this army.
    pub with: String,
}

/// The battle standard and the unit that carries it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandardLine {
    /// "the Legion Standard, Tribal Totem or Army battle flag".
    #[serde(default)]
    pub name: Option<String>,
    pub with: String,
}

/// `[[attachment]] unit = "Balearic Slingers 1"`, `to = "Carthaginian
/// Noble Cavalry"`: "Skirmishers may attach to Heavy Cavalry where
/// historically accurate" (rule 13), the players' choice (ruling FA-55).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentLine {
    /// The Skirmishers' name in this army.
    pub unit: String,
    /// Their host's name in this army.
    pub to: String,
}

/// Units taken from one entry of the list.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitLine {
    pub entry: String,
    #[serde(default = "one")]
    pub count: u32,
    /// The units' own names; default: the entry's name, numbered when there are several.
    #[serde(default)]
    pub names: Vec<String>,
    /// A grade other than the list's ("none" for none).
    #[serde(default)]
    pub grade: Option<String>,
    #[serde(default)]
    pub bonus: Option<[i32; 3]>,
    /// Weapons beyond the list's.
    #[serde(default)]
    pub weapons: Vec<String>,
    /// Abilities beyond the list's (Maneuverability, Tortoise…).
    #[serde(default)]
    pub abilities: Vec<String>,
    /// The troop types these units cause fear to, decided before the game
    /// (§5 Cause Fear; ruling FA-54), or `["all"]`.
    #[serde(default)]
    pub causes_fear_to: Vec<String>,
}

fn one() -> u32 {
    1
}

/// Why an army file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {message}")]
pub struct ArmyFileError {
    pub path: String,
    pub message: String,
}

impl ArmyFile {
    /// Read an army file.
    ///
    /// # Errors
    /// Not TOML, a field of the wrong type or unknown, or another rule set.
    pub fn from_toml(path: &str, text: &str) -> Result<ArmyFile, ArmyFileError> {
        let err = |message: String| ArmyFileError {
            path: path.to_string(),
            message,
        };
        let file: ArmyFile = toml::from_str(text).map_err(|e| err(e.message().to_string()))?;
        if file.ruleset != super::RULESET {
            return Err(err(format!(
                "ruleset is '{}', not '{}'",
                file.ruleset,
                super::RULESET
            )));
        }
        if file.units.iter().any(|u| u.count == 0 || u.count > 100) {
            return Err(err("a unit line's count must be 1 to 100".into()));
        }
        Ok(file)
    }
}

/// One unit of a checked army, as it will stand on the table.
#[derive(Debug, Clone, PartialEq)]
pub struct ArmyUnit {
    pub name: String,
    /// The list entry it comes from.
    pub entry: String,
    pub troop: TroopType,
    pub weapons: Vec<Weapon>,
    pub abilities: Vec<Ability>,
    pub grade: Option<Grade>,
    pub bonus: Triple,
    /// Who it causes fear to, decided before the game (ruling FA-54).
    pub causes_fear: Fear,
    /// The name of the unit it is attached to (rule 13).
    pub attached_to: Option<String>,
}

/// The troop types a unit causes fear to, by the players' choice before the
/// game (§5 Cause Fear: "decide which units cause fear and to whom").
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Fear {
    /// Every enemy unit.
    pub all: bool,
    /// Enemy units of these types.
    pub to: Vec<TroopType>,
}

impl Fear {
    /// Read `causes_fear_to`: troop types (names or codes) or `"all"`.
    ///
    /// # Errors
    /// Each entry that is neither, with the closest type name.
    pub fn read(entries: &[String]) -> Result<Fear, Vec<(String, Option<String>)>> {
        let mut fear = Fear::default();
        let mut bad = Vec::new();
        for e in entries {
            if crate::names::key(e) == "all" {
                fear.all = true;
            } else if let Some(t) = TroopType::parse(e) {
                if !fear.to.contains(&t) {
                    fear.to.push(t);
                }
            } else {
                bad.push((e.clone(), TroopType::suggest(e).map(str::to_string)));
            }
        }
        if bad.is_empty() {
            Ok(fear)
        } else {
            Err(bad)
        }
    }

    /// The types among `to` that no unit of `enemy` is: a choice that can
    /// never matter, most likely a slip (ruling FA-54).
    pub fn absent_from(&self, enemy: &[TroopType]) -> Vec<TroopType> {
        self.to
            .iter()
            .copied()
            .filter(|t| !enemy.contains(t))
            .collect()
    }
}

/// A breach of the sheet, in its words.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Breach {
    /// "'Roman Hastatti' is not an entry of the Republican Roman Consular Legion (did you mean 'Roman Hastati'?)"
    UnknownEntry {
        given: String,
        list: String,
        suggestion: Option<String>,
    },
    /// "4 units of Roman Triarii; the list has 1."
    TooMany {
        entry: String,
        units: u32,
        most: u32,
    },
    /// "Roman Hastati 1: Elite is not in the list …"
    NotHistorical { unit: String, what: String },
    /// "Latin Cavalry 1: +1/+1/0 does not fit Veteran …"
    BonusDoesNotFit {
        unit: String,
        grade: Grade,
        bonus: Triple,
    },
    /// "Roman Hastati 1: Tortoise … post Marian reform …"
    TortoiseBeforeMarius { unit: String, years: [i32; 2] },
    /// "Roman Hastati 1: Maneuverability … 218-217 BC …"
    DrillOutOfPeriod {
        unit: String,
        part: Ability,
        years: [i32; 2],
    },
    /// "The army has no general."
    NoGeneral,
    /// "3 sub-generals; an army of 1000 points may have 2."
    TooManySubGenerals {
        have: u32,
        allowed: u32,
        points: u32,
    },
    /// "General Hannibal is with 'Noble Cavalry', which is not a unit of this army."
    NoSuchUnit {
        who: String,
        unit: String,
        suggestion: Option<String>,
    },
    /// "The army has no battle standard."
    NoStandard,
    /// "1040 points is over the 1000 agreed."
    OverPoints { total: i32, limit: u32 },
    /// "The pack has no cost for Elephants."
    NoCost { troop: TroopType },
    /// "baggage 'moving': stationary or mobile."
    Baggage { given: String },
    /// The army names a unit twice.
    DuplicateName { name: String },
    /// "Numidian Javelinmen 1 may not attach to Numidian Horsemen 1: Skirmishers may attach to Heavy Cavalry, not to Light Cavalry (rule 13)"
    Attachment {
        unit: String,
        to: String,
        why: String,
    },
    /// "Celtic Nobles: causes_fear_to 'Light Infantery' is not a troop type (did you mean 'Light Infantry'?)"
    FearOf {
        unit: String,
        given: String,
        suggestion: Option<String>,
    },
}

impl fmt::Display for Breach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = |s: &Option<String>| {
            s.as_ref()
                .map(|s| format!(" (did you mean '{s}'?)"))
                .unwrap_or_default()
        };
        match self {
            Breach::UnknownEntry { given, list, suggestion } => {
                write!(f, "'{given}' is not an entry of the {list}{}", hint(suggestion))
            }
            Breach::TooMany { entry, units, most } => {
                write!(f, "{units} units of {entry}; the list has {most}")
            }
            Breach::NotHistorical { unit, what } => write!(
                f,
                "{unit}: {what} is not in the list. \"Any option given to a unit must be historically accurate.\" (§4)"
            ),
            Breach::BonusDoesNotFit { unit, grade, bonus } => write!(
                f,
                "{unit}: {bonus} does not fit {grade}: \"{}\" (§4)",
                grade.wording()
            ),
            Breach::TortoiseBeforeMarius { unit, years } => write!(
                f,
                "{unit}: Tortoise is \"limited to Roman legions post Marian reform\" (§5), after {}; this list is {}",
                year(super::sheet::sheet().abilities.tortoise.after_year),
                span(*years)
            ),
            Breach::DrillOutOfPeriod { unit, part, years } => write!(
                f,
                "{unit}: {part} is not in the period of this list ({}): \"Pass through is available to Legions in the early and Mid Republic, Maneuverability is available to units in the mid Republic from the entry of Publius Cornelius Scipio into the Punic wars, and all of the late Republic.\" (§5 Roman Battle Drill; ruling FA-11)",
                span(*years)
            ),
            Breach::NoGeneral => write!(f, "the army has no general: \"1 General. An army may have a single general.\" (§7; every army has one, ruling FA-19)"),
            Breach::TooManySubGenerals { have, allowed, points } => write!(
                f,
                "{have} sub-generals; an army of {points} points may have {allowed}: \"An army may have 2 sub general for armies upto 1000 points, more for bigger armies.\" (§7; one more per 500 points or part, ruling FA-17)"
            ),
            Breach::NoSuchUnit { who, unit, suggestion } => write!(
                f,
                "{who} is with '{unit}', which is not a unit of this army{}: \"Characters may be added to any unit\" of the army (§7)",
                hint(suggestion)
            ),
            Breach::NoStandard => write!(
                f,
                "the army has no battle standard: \"All armies must have a Battle Standard of some description … The Standard must be given to a specified unit in the army\" (rule 15); add [standard] with = \"UNIT\""
            ),
            Breach::OverPoints { total, limit } => {
                write!(f, "{total} points is over the {limit} agreed")
            }
            Breach::NoCost { troop } => write!(
                f,
                "the pack gives no cost for {troop}: its troop table needs a line for every type the army fields (M15)"
            ),
            Breach::Baggage { given } => write!(
                f,
                "baggage '{given}': \"Baggage may be stationery or mobile\" (rule 6): write \"stationary\" or \"mobile\""
            ),
            Breach::DuplicateName { name } => {
                write!(f, "two units are called '{name}': give them different names")
            }
            Breach::Attachment { unit, to, why } => {
                write!(f, "{unit} may not attach to {to}: {why}")
            }
            Breach::FearOf {
                unit,
                given,
                suggestion,
            } => {
                write!(
                    f,
                    "{unit}: causes_fear_to '{given}' is not a troop type of the sheet"
                )?;
                match suggestion {
                    Some(s) => write!(f, " (did you mean '{s}'?)"),
                    None => write!(f, "; write troop types, or \"all\" (§5 Cause Fear)"),
                }
            }
        }
    }
}

fn span([from, to]: [i32; 2]) -> String {
    if from == to {
        year(from)
    } else if from < 0 && to < 0 {
        format!("{}-{} BC", -from, -to)
    } else {
        format!("{}-{}", year(from), year(to))
    }
}

/// One priced unit of the report.
#[derive(Debug, Clone, PartialEq)]
pub struct CostLine {
    pub name: String,
    /// "Hand Weapons; Pila; Pass Through; Veteran 0/+1/0".
    pub what: String,
    /// The troop type's basic cost, when a pack gives it.
    pub base: Option<i32>,
    pub surcharge: i32,
}

/// What [`check`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub list: String,
    pub method: Method,
    pub units: Vec<ArmyUnit>,
    pub lines: Vec<CostLine>,
    /// The sum of every surcharge.
    pub surcharges: i32,
    /// Base costs plus surcharges, when a pack gives the base costs.
    pub total: Option<i32>,
    pub limit: u32,
    /// The characters and the standard, as reports describe them.
    pub notes: Vec<String>,
    pub breaches: Vec<Breach>,
}

/// Check an army against the sheet; `pack` gives the troop types' costs.
pub fn check(army: &ArmyFile, pack: Option<&Pack>) -> Report {
    let mut breaches = Vec::new();
    let Ok(list) = list(&army.list) else {
        unknown_list(army, &mut breaches);
        return Report {
            list: army.list.clone(),
            method: army.method.unwrap_or_default(),
            units: Vec::new(),
            lines: Vec::new(),
            surcharges: 0,
            total: None,
            limit: army.points,
            notes: Vec::new(),
            breaches,
        };
    };
    let method = army.method.unwrap_or(list.method);
    let mut units = Vec::new();
    let mut taken: BTreeMap<String, u32> = BTreeMap::new();
    for line in &army.units {
        let Some(entry) = list.entry(&line.entry) else {
            breaches.push(Breach::UnknownEntry {
                given: line.entry.clone(),
                list: list.name.clone(),
                suggestion: list.suggest(&line.entry).map(str::to_string),
            });
            continue;
        };
        *taken.entry(entry.name.clone()).or_default() += line.count;
        let before = already(&units, entry);
        for i in 0..line.count {
            let name = line.names.get(i as usize).cloned().unwrap_or_else(|| {
                if line.count > 1 || list_count(list, entry) > 1 {
                    format!("{} {}", entry.name, i + 1 + before)
                } else {
                    entry.name.clone()
                }
            });
            units.push(unit_of(
                list,
                entry,
                line,
                name,
                army.options.scipio,
                &mut breaches,
            ));
        }
    }
    for (name, units_taken) in &taken {
        let most = list.entry(name).map_or(0, |e| e.count);
        if *units_taken > most {
            breaches.push(Breach::TooMany {
                entry: name.clone(),
                units: *units_taken,
                most,
            });
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    for u in &units {
        if !seen.insert(crate::names::key(&u.name)) {
            breaches.push(Breach::DuplicateName {
                name: u.name.clone(),
            });
        }
    }
    if let Some(b) = &army.baggage {
        if !matches!(
            crate::names::key(b).as_str(),
            "stationary" | "stationery" | "mobile"
        ) {
            breaches.push(Breach::Baggage { given: b.clone() });
        }
    }
    let mut notes = characters(army, &units, &mut breaches);
    notes.extend(attachments(army, &mut units, &mut breaches));
    let mut lines = Vec::new();
    let mut total_surcharge = 0;
    let mut total = pack.map(|_| 0);
    for u in &units {
        let troop = pack.and_then(|p| p.troop(u.troop));
        if pack.is_some()
            && troop.is_none()
            && !breaches.contains(&Breach::NoCost { troop: u.troop })
        {
            breaches.push(Breach::NoCost { troop: u.troop });
        }
        let priced = Priced {
            grade: u.grade,
            impetuous: u.abilities.contains(&Ability::Impetuous),
            optional_missiles: troop.map_or(0, |t| {
                u.weapons
                    .iter()
                    .filter(|w| t.optional_missiles.contains(w))
                    .count()
            }) as u32,
            optional_abilities: troop.map_or(0, |t| {
                u.abilities
                    .iter()
                    .filter(|a| t.optional_abilities.contains(a))
                    .count()
            }) as u32,
        };
        let s: i32 = surcharges(method, &priced).iter().map(|s| s.points).sum();
        total_surcharge += s;
        let base = troop.map(|t| t.cost);
        if let (Some(t), Some(b)) = (total.as_mut(), base) {
            *t += b + s;
        }
        lines.push(CostLine {
            name: u.name.clone(),
            what: describe(u),
            base,
            surcharge: s,
        });
    }
    if let Some(t) = total {
        if t > army.points as i32 {
            breaches.push(Breach::OverPoints {
                total: t,
                limit: army.points,
            });
        }
    }
    Report {
        list: list.name.clone(),
        method,
        units,
        lines,
        surcharges: total_surcharge,
        total,
        limit: army.points,
        notes,
        breaches,
    }
}

/// The breach for a list that is not the sheet's.
fn unknown_list(army: &ArmyFile, breaches: &mut Vec<Breach>) {
    let suggestion = list(&army.list).err().flatten().map(str::to_string);
    breaches.push(Breach::UnknownEntry {
        given: army.list.clone(),
        list: "sheet's army lists".into(),
        suggestion,
    });
}

fn list_count(list: &ArmyList, entry: &Entry) -> u32 {
    list.entry(&entry.name).map_or(0, |e| e.count)
}

/// Units of this entry already taken (so a second line numbers on).
fn already(units: &[ArmyUnit], entry: &Entry) -> u32 {
    units.iter().filter(|u| u.entry == entry.name).count() as u32
}

/// The unit a line takes from an entry, with the breaches of its options.
fn unit_of(
    list: &ArmyList,
    entry: &Entry,
    line: &UnitLine,
    name: String,
    drill: Drill,
    breaches: &mut Vec<Breach>,
) -> ArmyUnit {
    let listed = entry.abilities_for(drill, list.years);
    let mut abilities = listed.clone();
    for text in &line.abilities {
        let Some(a) = Ability::parse(text) else {
            breaches.push(Breach::NotHistorical {
                unit: name.clone(),
                what: format!("'{text}' (no ability of the sheet)"),
            });
            continue;
        };
        let parts = if a == Ability::BattleDrill {
            vec![Ability::PassThrough, Ability::Maneuverability]
        } else {
            vec![a]
        };
        for part in parts {
            match part {
                Ability::PassThrough | Ability::Maneuverability
                    if entry.abilities.contains(&Ability::BattleDrill)
                        && !drill.allows(part, list.years[0], list.years[1]) =>
                {
                    breaches.push(Breach::DrillOutOfPeriod {
                        unit: name.clone(),
                        part,
                        years: list.years,
                    });
                    continue;
                }
                Ability::PassThrough | Ability::Maneuverability
                    if entry.abilities.contains(&Ability::BattleDrill) => {}
                Ability::Tortoise if !super::abilities::tortoise_allowed(list.years[0]) => {
                    breaches.push(Breach::TortoiseBeforeMarius {
                        unit: name.clone(),
                        years: list.years,
                    });
                    continue;
                }
                _ if !listed.contains(&part) => {
                    breaches.push(Breach::NotHistorical {
                        unit: name.clone(),
                        what: part.name().to_string(),
                    });
                    continue;
                }
                _ => {}
            }
            abilities.push(part);
        }
    }
    abilities.sort();
    abilities.dedup();
    let mut weapons = entry.weapons.clone();
    for text in &line.weapons {
        match Weapon::parse(text) {
            Some(w) if entry.weapons.contains(&w) => {}
            Some(w) => breaches.push(Breach::NotHistorical {
                unit: name.clone(),
                what: w.name().to_string(),
            }),
            None => breaches.push(Breach::NotHistorical {
                unit: name.clone(),
                what: format!("'{text}' (no weapon of the sheet)"),
            }),
        }
        if let Some(w) = Weapon::parse(text) {
            if entry.weapons.contains(&w) && !weapons.contains(&w) {
                weapons.push(w);
            }
        }
    }
    let (grade, bonus) = match &line.grade {
        None => (
            entry.grade,
            line.bonus.map(Triple::new).unwrap_or(entry.bonus),
        ),
        Some(g) if crate::names::key(g) == "none" => (None, Triple::ZERO),
        Some(g) => match Grade::parse(g) {
            Some(grade) => {
                let bonus = line
                    .bonus
                    .map(Triple::new)
                    .unwrap_or(if Some(grade) == entry.grade {
                        entry.bonus
                    } else {
                        Triple::ZERO
                    });
                if Some(grade) != entry.grade {
                    breaches.push(Breach::NotHistorical {
                        unit: name.clone(),
                        what: format!("the grade {grade}"),
                    });
                }
                (Some(grade), bonus)
            }
            None => {
                breaches.push(Breach::NotHistorical {
                    unit: name.clone(),
                    what: format!("'{g}' (no grade of the sheet)"),
                });
                (entry.grade, entry.bonus)
            }
        },
    };
    if let Some(g) = grade {
        if !g.fits(bonus) {
            breaches.push(Breach::BonusDoesNotFit {
                unit: name.clone(),
                grade: g,
                bonus,
            });
        }
    }
    let causes_fear = Fear::read(&line.causes_fear_to).unwrap_or_else(|bad| {
        breaches.extend(bad.into_iter().map(|(given, suggestion)| Breach::FearOf {
            unit: name.clone(),
            given,
            suggestion,
        }));
        Fear::default()
    });
    ArmyUnit {
        name,
        entry: entry.name.clone(),
        troop: entry.troop,
        weapons,
        abilities,
        grade,
        bonus,
        causes_fear,
        attached_to: None,
    }
}

/// Check the general, sub-generals and standard; their descriptions.
fn characters(army: &ArmyFile, units: &[ArmyUnit], breaches: &mut Vec<Breach>) -> Vec<String> {
    let mut notes = Vec::new();
    let find = |who: String, unit: &str, breaches: &mut Vec<Breach>| {
        unit_called(units, who, unit, breaches).map(|i| units[i].name.clone())
    };
    // An army file has room for one general ("An army may have a single general").
    if army.general.is_none() {
        breaches.push(Breach::NoGeneral);
    }
    let people = army
        .general
        .iter()
        .map(|g| (Rank::General, g))
        .chain(army.sub_generals.iter().map(|s| (Rank::SubGeneral, s)));
    for (rank, c) in people {
        if let Some(unit) = find(format!("{rank} {}", c.name), &c.with, breaches) {
            notes.push(format!(
                "{rank} {} with {unit} ({}, a free {} move)",
                c.name,
                rank.bonus(),
                rank.free_move()
            ));
        }
    }
    let step = army
        .options
        .sub_general_step
        .unwrap_or_else(default_sub_general_step);
    let allowed = sub_generals_allowed(army.points, step);
    let have = army.sub_generals.len() as u32;
    if have > allowed {
        breaches.push(Breach::TooManySubGenerals {
            have,
            allowed,
            points: army.points,
        });
    }
    match &army.standard {
        None => breaches.push(Breach::NoStandard),
        Some(s) => {
            let what = s.name.clone().unwrap_or_else(|| "Battle standard".into());
            if let Some(unit) = find(what.clone(), &s.with, breaches) {
                notes.push(format!(
                    "{what} with {unit} (+{} Rally; adjacent units +{} Rally)",
                    super::standards::bearer_rally(),
                    super::standards::adjacent_rally()
                ));
            }
        }
    }
    notes
}

/// The army's unit called `unit` (its index), or a breach naming `who`
/// looked for it, with the closest name.
fn unit_called(
    units: &[ArmyUnit],
    who: String,
    unit: &str,
    breaches: &mut Vec<Breach>,
) -> Option<usize> {
    let k = crate::names::key(unit);
    let found = units.iter().position(|u| crate::names::key(&u.name) == k);
    if found.is_none() {
        let suggestion = crate::names::closest(
            unit,
            units.iter().map(|u| (u.name.as_str(), u.name.clone())),
        );
        breaches.push(Breach::NoSuchUnit {
            who,
            unit: unit.to_string(),
            suggestion,
        });
    }
    found
}

/// The army file's attachments (rule 13), each checked against the sheet
/// and written on its Skirmishers; the notes the report gives them.
fn attachments(army: &ArmyFile, units: &mut [ArmyUnit], breaches: &mut Vec<Breach>) -> Vec<String> {
    let mut notes = Vec::new();
    for a in &army.attachments {
        let who = format!("the attachment of {}", a.unit);
        let (Some(i), Some(h)) = (
            unit_called(units, who.clone(), &a.unit, breaches),
            unit_called(units, who, &a.to, breaches),
        ) else {
            continue;
        };
        let (unit, host) = (units[i].name.clone(), units[h].name.clone());
        let why = match &units[i].attached_to {
            Some(already) => Err(format!("it is attached to {already} already")),
            None => super::new_rules::may_attach(units[i].troop, units[h].troop),
        };
        match why {
            Ok(()) => {
                notes.push(format!("{unit} attached to {host} (rule 13)"));
                units[i].attached_to = Some(host);
            }
            Err(why) => breaches.push(Breach::Attachment {
                unit,
                to: host,
                why,
            }),
        }
    }
    notes
}

/// "Hand Weapons; Pila; Pass Through; Veteran 0/+1/0".
fn describe(u: &ArmyUnit) -> String {
    let mut parts = vec![u.troop.name().to_string()];
    parts.extend(u.weapons.iter().map(|w| w.name().to_string()));
    parts.extend(u.abilities.iter().map(|a| a.name().to_string()));
    if let Some(g) = u.grade {
        parts.push(if g == Grade::Unsteady {
            g.to_string()
        } else {
            format!("{g} {}", u.bonus)
        });
    }
    if u.causes_fear.all {
        parts.push("causes fear to all enemies".into());
    } else if !u.causes_fear.to.is_empty() {
        let to: Vec<&str> = u.causes_fear.to.iter().map(|t| t.name()).collect();
        parts.push(format!("causes fear to {}", to.join(", ")));
    }
    parts.join("; ")
}

/// Checked when the game is made, both armies on the table: every troop
/// type a unit causes fear to must be one the enemy fields (ruling FA-54).
pub fn fear_not_fielded(battle: &super::table::Battle) -> Vec<String> {
    let mut out = Vec::new();
    for u in battle.units.values() {
        let enemy: Vec<TroopType> = battle
            .units
            .values()
            .filter(|e| e.side != u.side)
            .map(|e| e.troop)
            .collect();
        let fear = Fear {
            all: u.causes_fear_to_all,
            to: u.causes_fear_to.clone(),
        };
        for t in fear.absent_from(&enemy) {
            out.push(format!(
                "{}: causes_fear_to '{t}', but the enemy fields no {t}: name a type of its army, or leave it out (§5 Cause Fear, ruling FA-54)",
                u.name
            ));
        }
    }
    out
}

/// The report as `umpire army check` prints it.
pub fn render(path: &str, r: &Report, pack: Option<&Pack>) -> String {
    let mut out = format!(
        "{path}: {} (FR! Ancients), {} points method\n",
        r.list,
        r.method.name()
    );
    if let Some(p) = pack {
        out.push_str(&format!("{}\n", p.banner()));
    }
    for l in &r.lines {
        let base = l.base.map_or("?".to_string(), |b| b.to_string());
        out.push_str(&format!(
            "  {:<32} {:<52} base {:>4} {:>+4}\n",
            l.name, l.what, base, l.surcharge
        ));
    }
    for n in &r.notes {
        out.push_str(&format!("  {n}\n"));
    }
    match r.total {
        Some(t) => out.push_str(&format!("total {t} points of {} (surcharges {:+})\n", r.limit, r.surcharges)),
        None => out.push_str(&format!(
            "surcharges {:+} points; the basic costs are the base book's unit table (M15): name a pack (pack = \"FILE\") to total the army against its {} points\n",
            r.surcharges, r.limit
        )),
    }
    if r.breaches.is_empty() {
        out.push_str("legal: no breaches\n");
    } else {
        out.push_str(&format!("{} breach(es):\n", r.breaches.len()));
        for b in &r.breaches {
            out.push_str(&format!("  - {b}\n"));
        }
    }
    out
}

/// `umpire army check FILE` for an FR! army: the printed report and the
/// exit code (0 legal, 1 breaches, 2 unreadable). Reads the pack the file
/// names, relative to the file.
pub fn check_cli(path: &str, text: &str) -> (String, i32) {
    let army = match ArmyFile::from_toml(path, text) {
        Ok(a) => a,
        Err(e) => return (format!("error: {e}\n"), 2),
    };
    let pack = match &army.pack {
        None => None,
        Some(p) => {
            let at = std::path::Path::new(path)
                .parent()
                .unwrap_or(std::path::Path::new(""))
                .join(p);
            let read = std::fs::read_to_string(&at)
                .map_err(|e| vec![e.to_string()])
                .and_then(|t| Pack::from_toml(&t));
            match read {
                Ok(pack) => Some(pack),
                Err(errors) => {
                    return (
                        format!("error: pack {}: {}\n", at.display(), errors.join("; ")),
                        2,
                    )
                }
            }
        }
    };
    let report = check(&army, pack.as_ref());
    let code = i32::from(!report.breaches.is_empty());
    (render(path, &report, pack.as_ref()), code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn army(extra: &str) -> ArmyFile {
        let text = format!(
            "ruleset = \"fr-ancients\"\nlist = \"Republican Roman Consular Legion\"\npoints = 1000\n{extra}\n\
             [[unit]]\nentry = \"Roman Hastati\"\ncount = 3\n[[unit]]\nentry = \"Roman Cavalry\"\n"
        );
        ArmyFile::from_toml("t.toml", &text).unwrap()
    }

    const CHARACTERS: &str = "[general]\nname = \"Flaminius\"\nwith = \"Roman Cavalry\"\n[standard]\nwith = \"Roman Hastati 2\"\n";

    #[test]
    fn skirmishers_attach_to_heavy_cavalry_and_nothing_else() {
        let velites = "[[unit]]\nentry = \"Roman and Latin Velites\"\ncount = 2\n[[unit]]\nentry = \"Celtic Cavalry\"\n";
        let attach = |unit: &str, to: &str| {
            format!("{CHARACTERS}{velites}[[attachment]]\nunit = \"{unit}\"\nto = \"{to}\"\n")
        };
        let r = check(
            &army(&attach("Roman and Latin Velites 1", "celtic cavalry")),
            None,
        );
        assert!(r.breaches.is_empty(), "{:?}", r.breaches);
        let v = r
            .units
            .iter()
            .find(|u| u.name == "Roman and Latin Velites 1")
            .unwrap();
        assert_eq!(v.attached_to.as_deref(), Some("Celtic Cavalry"));
        assert!(r.notes.contains(
            &"Roman and Latin Velites 1 attached to Celtic Cavalry (rule 13)".to_string()
        ));
        let r = check(
            &army(&attach("Roman and Latin Velites 1", "Roman Cavalry")),
            None,
        );
        assert_eq!(
            r.breaches.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["Roman and Latin Velites 1 may not attach to Roman Cavalry: Skirmishers may attach to Heavy Cavalry, not to Medium Cavalry (rule 13)"]
        );
        let r = check(&army(&attach("Roman Hastati 1", "Celtic Cavalry")), None);
        assert!(
            matches!(&r.breaches[..], [Breach::Attachment { why, .. }] if why.contains("only Skirmishers attach"))
        );
        let r = check(
            &army(&attach("Roman and Latin Velites 3", "Celtic Cavalry")),
            None,
        );
        assert!(
            matches!(&r.breaches[..], [Breach::NoSuchUnit { unit, .. }] if unit == "Roman and Latin Velites 3")
        );
        let twice = format!(
            "{}[[attachment]]\nunit = \"Roman and Latin Velites 1\"\nto = \"Celtic Cavalry\"\n",
            attach("Roman and Latin Velites 1", "Celtic Cavalry")
        );
        let r = check(&army(&twice), None);
        assert!(
            matches!(&r.breaches[..], [Breach::Attachment { why, .. }] if why.contains("already"))
        );
    }

    #[test]
    fn a_legal_army_numbers_its_units() {
        let r = check(&army(CHARACTERS), None);
        assert!(r.breaches.is_empty(), "{:?}", r.breaches);
        let names: Vec<&str> = r.units.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "Roman Hastati 1",
                "Roman Hastati 2",
                "Roman Hastati 3",
                "Roman Cavalry"
            ]
        );
        assert_eq!(r.surcharges, 15, "three veteran units at 5");
        assert_eq!(r.units[0].abilities, vec![Ability::PassThrough]);
        assert_eq!(r.total, None);
    }

    #[test]
    fn characters_and_standard_are_required_and_placed() {
        let r = check(&army(""), None);
        assert!(r.breaches.contains(&Breach::NoGeneral));
        assert!(r.breaches.contains(&Breach::NoStandard));
        let bad = army("[general]\nname = \"F\"\nwith = \"Roman Cavalri\"\n[standard]\nwith = \"Roman Hastati 2\"\n");
        let r = check(&bad, None);
        assert_eq!(
            r.breaches,
            vec![Breach::NoSuchUnit {
                who: "General F".into(),
                unit: "Roman Cavalri".into(),
                suggestion: Some("Roman Cavalry".into())
            }]
        );
    }

    #[test]
    fn sub_generals_above_the_allowance() {
        let subs = "[[sub_general]]\nname=\"a\"\nwith=\"Roman Cavalry\"\n".repeat(3);
        let r = check(&army(&format!("{CHARACTERS}{subs}")), None);
        assert!(r.breaches.contains(&Breach::TooManySubGenerals {
            have: 3,
            allowed: 2,
            points: 1000
        }));
    }

    #[test]
    fn period_options_and_history() {
        let text = format!(
            "ruleset = \"fr-ancients\"\nlist = \"Republican Roman Consular Legion\"\npoints = 1000\n{CHARACTERS}\n\
             [[unit]]\nentry = \"Roman Hastati\"\ncount = 3\nabilities = [\"Maneuverability\", \"Tortoise\"]\ngrade = \"Elite\"\nbonus = [1, 1, 0]\n\
             [[unit]]\nentry = \"Roman Cavalry\"\n[[unit]]\nentry = \"Roman Cavalry\"\n"
        );
        let r = check(&ArmyFile::from_toml("t.toml", &text).unwrap(), None);
        let text_of: Vec<String> = r.breaches.iter().map(|b| b.to_string()).collect();
        assert!(
            text_of
                .iter()
                .any(|t| t
                    .contains("Maneuverability is not in the period of this list (218-217 BC)")),
            "{text_of:?}"
        );
        assert!(
            text_of.iter().any(|t| t.contains("post Marian reform")),
            "{text_of:?}"
        );
        assert!(
            text_of
                .iter()
                .any(|t| t.contains("the grade Elite is not in the list")),
            "{text_of:?}"
        );
        assert!(r.breaches.contains(&Breach::TooMany {
            entry: "Roman Cavalry".into(),
            units: 2,
            most: 1
        }));
        let father = text.replace(
            "points = 1000\n",
            "points = 1000\n[options]\nscipio = \"father\"\n",
        );
        let r = check(&ArmyFile::from_toml("t.toml", &father).unwrap(), None);
        assert!(
            !r.breaches
                .iter()
                .any(|b| matches!(b, Breach::DrillOutOfPeriod { .. })),
            "{:?}",
            r.breaches
        );
    }

    #[test]
    fn priced_with_a_pack() {
        let pack = Pack::stand_in();
        let r = check(&army(CHARACTERS), Some(&pack));
        // Three Hand Weapons at 30 + 5 (veteran), one Medium Cavalry at 40.
        assert_eq!(r.total, Some(3 * 35 + 40));
        let text = render("t.toml", &r, Some(&pack));
        assert!(text.contains("stand-in rules, not FR!"), "{text}");
        assert!(text.contains("total 145 points of 1000"), "{text}");
    }

    #[test]
    fn unknown_entries_suggest() {
        let text = "ruleset = \"fr-ancients\"\nlist = \"Carthaginian Army\"\npoints = 1000\n[[unit]]\nentry = \"Balearic Slinger\"\n";
        let r = check(&ArmyFile::from_toml("t.toml", text).unwrap(), None);
        assert!(
            r.breaches[0]
                .to_string()
                .contains("did you mean 'Balearic Slingers'"),
            "{}",
            r.breaches[0]
        );
        assert!(ArmyFile::from_toml(
            "t.toml",
            "ruleset = \"hyborian-age\"\nlist = \"x\"\npoints = 1\n"
        )
        .is_err());
    }
}

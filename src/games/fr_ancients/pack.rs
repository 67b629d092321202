//! Base-rule packs (`docs/fr-ancients/pack.md`): what the sheet leaves to
//! the base book (§11 M1–M16), as a data file a club fills from its own
//! copy — the troop table (CF, Melee/Rally/Missile, charge bonus, movement,
//! shots, cost, base size, "?" options), the tests, the Bowfire and damage
//! lines, melee and demoralization numbers, the movement and fire arcs,
//! terrain cover and the morale clock's start. The umpire ships no base
//! content: only [`STAND_IN`], a deliberately simple pack for tests and
//! demonstrations, which every report names as "stand-in rules, not FR!".
//!
//! A [`Pack`] is checked ([`Pack::from_toml`]: every number bounded, every
//! troop type named once) and carries the SHA-256 of its text, which every
//! report prints.
//!
//! ```
//! use umpire::games::fr_ancients::pack::{Pack, STAND_IN};
//! use umpire::games::fr_ancients::troops::TroopType;
//! let pack = Pack::from_toml(STAND_IN).unwrap();
//! assert!(pack.stand_in);
//! assert_eq!(pack.name, "stand-in rules, not FR!");
//! assert_eq!(pack.hash.len(), 64);
//! assert_eq!(pack.troop(TroopType::HeavyCavalry).unwrap().cf, 4);
//! assert_eq!(pack.fire_dmz(1, 8), 1);
//! assert_eq!(pack.fire_dmz(1, 7), 0);
//! ```

use super::grades::Triple;
use super::troops::TroopType;
use super::weapons::{Scale, Weapon};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// The stand-in pack (`tests/support/fr-standin-pack.toml`): not FR!.
pub const STAND_IN: &str = include_str!("../../../tests/support/fr-standin-pack.toml");

/// The largest distance a pack may give (inches or cm): a whole table.
const MAX_DISTANCE: f64 = 500.0;
/// The largest CF, value, bonus or cover a pack may give, either sign.
const MAX_VALUE: i32 = 50;
/// The largest cost of one unit.
const MAX_COST: i32 = 10_000;

/// A pack as written (unchecked).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PackFile {
    name: String,
    #[serde(default)]
    stand_in: bool,
    scale: String,
    tests: Tests,
    fire: FireFile,
    melee: Melee,
    demoralization: Demoralization,
    movement: Movement,
    clock: Clock,
    #[serde(default)]
    characters: Characters,
    #[serde(default)]
    terrain: Vec<TerrainRule>,
    troop: Vec<TroopFile>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FireFile {
    arc: f64,
    cover: i32,
    damage_dmz_at: Vec<i32>,
    line: Vec<FireLine>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TroopFile {
    #[serde(rename = "type")]
    troop: String,
    cf: i32,
    values: [i32; 3],
    charge_bonus: i32,
    #[serde(rename = "move")]
    movement: [f64; 2],
    #[serde(default)]
    shots: u32,
    cost: i32,
    base: [f64; 2],
    #[serde(default)]
    options: Vec<String>,
}

/// M1: tests. A test passes when d10 + the unit's Rally + modifiers ≥ `pass_at`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tests {
    pub pass_at: i32,
    /// A captured character escapes on a d10 of at least this.
    pub escape_at: i32,
    /// DMZs a failed fear check gives (M9).
    pub fear_fail_dmz: u8,
}

/// One line of the Bowfire table: for `units` firing together, a modified
/// roll of at least `dmz_at[i]` inflicts i + 1 DMZs.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FireLine {
    pub units: u32,
    pub dmz_at: Vec<i32>,
}

/// M7: melee.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    /// DMZs each unit of the losing side takes.
    pub loss_dmz: u8,
    /// Overlap bonus for striking a flank and a rear.
    pub overlap: [i32; 2],
    /// Bonus for each supporting unit.
    pub support: i32,
}

/// M8: demoralization.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Demoralization {
    /// Levels of DMZ that destroy a unit.
    pub destroyed_at: u8,
    /// A DD unit falls back this many of its own depths.
    pub retreat_depths: f64,
}

/// M4: movement.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// The movement arc: degrees either side of straight ahead, from the front corners.
    pub arc: f64,
    /// Movement a facing change costs.
    pub facing_change: f64,
}

/// M10: the morale clock.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Clock {
    pub start: i32,
    /// The battle ends when a side's clock comes down to this (M14).
    pub ends_at: i32,
}

/// M11: characters.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Characters {
    /// What becomes of a character whose unit is destroyed.
    #[serde(default)]
    pub unit_destroyed: CharacterLoss,
}

/// A character whose unit is destroyed is killed or captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharacterLoss {
    #[default]
    Killed,
    Captured,
}

/// M13: a terrain kind's cover against missile fire.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRule {
    pub kind: String,
    pub cover: i32,
}

/// One line of the troop table (M2, M3, M15).
#[derive(Debug, Clone, PartialEq)]
pub struct Troop {
    pub cf: i32,
    /// Melee/Rally/Missile.
    pub values: Triple,
    /// The natural charge bonus (0: none; counter-charges need one, rule 8).
    pub charge_bonus: i32,
    /// Movement in the open and in terrain.
    pub movement: [f64; 2],
    pub shots: u32,
    pub cost: i32,
    /// One base: width, depth.
    pub base: [f64; 2],
    /// Missile types shown with "?" (5 points each under the guidelines).
    pub optional_missiles: Vec<Weapon>,
    /// Abilities shown with "?".
    pub optional_abilities: Vec<super::abilities::Ability>,
}

/// A checked pack.
#[derive(Debug, Clone, PartialEq)]
pub struct Pack {
    pub name: String,
    /// The test pack: reports say "stand-in rules, not FR!".
    pub stand_in: bool,
    /// SHA-256 of the pack's text, hex.
    pub hash: String,
    /// The column its distances are written in.
    pub scale: Scale,
    pub tests: Tests,
    /// The standard fire arc (degrees from straight ahead, from the front corners).
    pub fire_arc: f64,
    /// Cover's modifier to missile fire (heavy armour counts as in cover).
    pub cover: i32,
    /// The Bowfire table, by number of firing units.
    pub fire_lines: Vec<FireLine>,
    /// The artillery damage roll: at least `damage_dmz_at[i]` inflicts i + 1 DMZs.
    pub damage_dmz_at: Vec<i32>,
    pub melee: Melee,
    pub demoralization: Demoralization,
    pub movement: Movement,
    pub clock: Clock,
    pub characters: Characters,
    pub terrain: BTreeMap<String, i32>,
    pub troops: BTreeMap<TroopType, Troop>,
}

impl Pack {
    /// Read and check a pack.
    ///
    /// # Errors
    /// Every problem found, each naming the field and what to write.
    pub fn from_toml(text: &str) -> Result<Pack, Vec<String>> {
        let raw: PackFile =
            toml::from_str(text).map_err(|e| vec![format!("not a pack: {}", e.message())])?;
        let mut errors = Vec::new();
        let scale = Scale::parse(&raw.scale).unwrap_or_else(|| {
            errors.push(format!(
                "scale '{}': write \"inches\" or \"centimetres\"",
                raw.scale
            ));
            Scale::Inches
        });
        let mut value = |what: String, v: i32| {
            if v.abs() > MAX_VALUE {
                errors.push(format!("{what} = {v}: keep it within ±{MAX_VALUE}"));
            }
        };
        value("tests.pass_at".into(), raw.tests.pass_at);
        value("tests.escape_at".into(), raw.tests.escape_at);
        value("fire.cover".into(), raw.fire.cover);
        for (i, v) in raw.melee.overlap.iter().enumerate() {
            value(format!("melee.overlap[{i}]"), *v);
        }
        value("melee.support".into(), raw.melee.support);
        value("clock.start".into(), raw.clock.start);
        value("clock.ends_at".into(), raw.clock.ends_at);
        let mut troops = BTreeMap::new();
        for t in &raw.troop {
            let Some(kind) = TroopType::parse(&t.troop) else {
                let hint = TroopType::suggest(&t.troop)
                    .map(|s| format!(" (did you mean '{s}'?)"))
                    .unwrap_or_default();
                errors.push(format!(
                    "troop type '{}' is not one the sheet names{hint}",
                    t.troop
                ));
                continue;
            };
            let at = kind.name();
            for (what, v) in [("cf", t.cf), ("charge_bonus", t.charge_bonus)]
                .into_iter()
                .chain([
                    ("values", t.values[0]),
                    ("values", t.values[1]),
                    ("values", t.values[2]),
                ])
            {
                if v.abs() > MAX_VALUE {
                    errors.push(format!("{at}: {what} = {v}: keep it within ±{MAX_VALUE}"));
                }
            }
            if !(0..=MAX_COST).contains(&t.cost) {
                errors.push(format!("{at}: cost = {}: 0 to {MAX_COST}", t.cost));
            }
            for d in t.movement.iter().chain(&t.base) {
                if !(0.0..=MAX_DISTANCE).contains(d) {
                    errors.push(format!("{at}: distance {d} must be 0 to {MAX_DISTANCE}"));
                }
            }
            if t.base.iter().any(|d| *d <= 0.0) {
                errors.push(format!("{at}: a base needs a width and a depth above 0"));
            }
            if t.shots > 10 {
                errors.push(format!("{at}: shots = {}: at most 10", t.shots));
            }
            let mut missiles = Vec::new();
            let mut abilities = Vec::new();
            for o in &t.options {
                if let Some(w) = Weapon::parse(o) {
                    missiles.push(w);
                } else if let Some(a) = super::abilities::Ability::parse(o) {
                    abilities.push(a);
                } else {
                    errors.push(format!(
                        "{at}: option '{o}' is neither a weapon nor an ability of the sheet"
                    ));
                }
            }
            let troop = Troop {
                cf: t.cf,
                values: Triple::new(t.values),
                charge_bonus: t.charge_bonus,
                movement: t.movement,
                shots: t.shots,
                cost: t.cost,
                base: t.base,
                optional_missiles: missiles,
                optional_abilities: abilities,
            };
            if troops.insert(kind, troop).is_some() {
                errors.push(format!("troop type '{at}' is given twice"));
            }
        }
        let mut lines = raw.fire.line;
        lines.sort_by_key(|l| l.units);
        if lines.first().is_none_or(|l| l.units != 1) {
            errors.push("fire.line: the Bowfire table needs a line for 1 unit".into());
        }
        for l in &lines {
            if l.dmz_at.windows(2).any(|w| w[0] >= w[1]) || l.dmz_at.is_empty() {
                errors.push(format!(
                    "fire.line for {} units: dmz_at must rise, e.g. [8, 11]",
                    l.units
                ));
            }
        }
        if raw.fire.damage_dmz_at.windows(2).any(|w| w[0] >= w[1]) {
            errors.push("fire.damage_dmz_at must rise, e.g. [6, 10]".into());
        }
        for (what, a) in [
            ("fire.arc", raw.fire.arc),
            ("movement.arc", raw.movement.arc),
        ] {
            if !(0.0..=180.0).contains(&a) {
                errors.push(format!(
                    "{what} = {a}: degrees from straight ahead, 0 to 180"
                ));
            }
        }
        if !(0.0..=MAX_DISTANCE).contains(&raw.movement.facing_change)
            || !(0.0..=10.0).contains(&raw.demoralization.retreat_depths)
        {
            errors.push("movement.facing_change and demoralization.retreat_depths must be distances of 0 or more".into());
        }
        if raw.demoralization.destroyed_at < 3 {
            errors.push("demoralization.destroyed_at: at least 3 (two levels are the sheet's double demoralization)".into());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Pack {
            name: raw.name,
            stand_in: raw.stand_in,
            hash: hex::encode(Sha256::digest(text.as_bytes())),
            scale,
            tests: raw.tests,
            fire_arc: raw.fire.arc,
            cover: raw.fire.cover,
            fire_lines: lines,
            damage_dmz_at: raw.fire.damage_dmz_at,
            melee: raw.melee,
            demoralization: raw.demoralization,
            movement: raw.movement,
            clock: raw.clock,
            characters: raw.characters,
            terrain: raw
                .terrain
                .into_iter()
                .map(|t| (crate::names::key(&t.kind), t.cover))
                .collect(),
            troops,
        })
    }

    /// The stand-in pack, checked.
    pub fn stand_in() -> Pack {
        match Pack::from_toml(STAND_IN) {
            Ok(p) => p,
            Err(e) => unreachable!("the stand-in pack is checked by tests: {e:?}"),
        }
    }

    /// The troop table's line for a type, if the pack has one.
    pub fn troop(&self, t: TroopType) -> Option<&Troop> {
        self.troops.get(&t)
    }

    /// The line a report prints: name and hash, and the stand-in warning.
    pub fn banner(&self) -> String {
        let short = &self.hash[..16.min(self.hash.len())];
        if self.stand_in {
            format!(
                "Base rules: {} (sha256 {short}…) — stand-in rules, not FR!",
                self.name
            )
        } else {
            format!("Base rules: {} (sha256 {short}…)", self.name)
        }
    }

    /// DMZs a modified missile roll inflicts on the line for `units` firing
    /// together (the highest line at or below `units`).
    pub fn fire_dmz(&self, units: u32, roll: i32) -> u8 {
        let line = self
            .fire_lines
            .iter()
            .rev()
            .find(|l| l.units <= units)
            .or(self.fire_lines.first());
        line.map_or(0, |l| {
            l.dmz_at.iter().filter(|at| roll >= **at).count() as u8
        })
    }

    /// DMZs a modified artillery damage roll inflicts.
    pub fn damage_dmz(&self, roll: i32) -> u8 {
        self.damage_dmz_at.iter().filter(|at| roll >= **at).count() as u8
    }

    /// Cover of a terrain kind (0 when the pack does not name it).
    pub fn terrain_cover(&self, kind: &str) -> i32 {
        self.terrain
            .get(&crate::names::key(kind))
            .copied()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_reads_and_covers_every_type() {
        let p = Pack::stand_in();
        for t in TroopType::ALL {
            assert!(p.troop(t).is_some(), "{t}");
        }
        assert!(p.banner().ends_with("stand-in rules, not FR!"));
        assert_eq!(p.fire_dmz(2, 10), 2);
        assert_eq!(
            p.fire_dmz(5, 6),
            1,
            "more units than lines read the last line"
        );
        assert_eq!(p.damage_dmz(5), 0);
        assert_eq!(p.terrain_cover("Woods"), -2);
    }

    #[test]
    fn bad_packs_say_what_to_fix() {
        let bad = STAND_IN
            .replace("type = \"Camelry\"", "type = \"Camlery\"")
            .replace("pass_at = 11", "pass_at = 900");
        let errors = Pack::from_toml(&bad).unwrap_err();
        assert!(
            errors.iter().any(|e| e.contains("did you mean 'Camelry'")),
            "{errors:?}"
        );
        assert!(
            errors.iter().any(|e| e.starts_with("tests.pass_at = 900")),
            "{errors:?}"
        );
        assert!(Pack::from_toml("name = 1").is_err());
    }

    #[test]
    fn the_hash_is_of_the_text() {
        let p = Pack::stand_in();
        let q = Pack::from_toml(&format!("{STAND_IN}\n# a comment\n")).unwrap();
        assert_ne!(
            p.hash, q.hash,
            "any change to the file changes the hash a report prints"
        );
    }
}

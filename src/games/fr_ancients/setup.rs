//! Reading a table layout — the `[table]`, `[[side]]`, `[[terrain]]`,
//! `[[unit]]` and `[[character]]` sections of a case file or scenario
//! (`docs/fr-ancients/cases.md`) — into a checked [`Battle`]. Unit base
//! values (CF, Melee/Rally/Missile, charge bonus, movement, shots) and
//! base sizes come from the unit, else from the pack's troop table, else
//! (base sizes only) from `[table] base`.
//!
//! ```
//! use umpire::games::fr_ancients::setup::Layout;
//! let text = r#"
//! [table]
//! width = 48.0
//! depth = 48.0
//! base = [1.5, 0.75]
//! [[side]]
//! id = "rome"
//! clock = 10
//! [[side]]
//! id = "carthage"
//! [[unit]]
//! id = "h"
//! side = "rome"
//! name = "Roman Hastati 1"
//! type = "Hand Weapons"
//! files = 4
//! ranks = 2
//! front = [24.0, 10.0]
//! facing = 0
//! "#;
//! let layout: Layout = toml::from_str(text).unwrap();
//! let battle = layout.battle(None).unwrap();
//! assert_eq!(battle.units["h"].width(), 6.0);
//! assert_eq!(battle.side("rome").unwrap().clock(), Some(10));
//! ```

use super::abilities::Ability;
use super::characters::Rank;
use super::grades::{Grade, Triple};
use super::pack::Pack;
use super::table::{
    Area, ArtilleryKind, Battle, Character, CharacterStatus, Formation, Fury, Place, Profile, Side,
    StandardState, Status, Unit,
};
use super::troops::TroopType;
use super::weapons::{Scale, Weapon};
use glam::DVec2;
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The largest table side, in inches or cm.
const MAX_TABLE: f64 = 1_000.0;
/// The most bases across or deep.
const MAX_BASES: u32 = 50;

/// A table layout as written (unchecked).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Layout {
    pub table: TableSetup,
    #[serde(default, rename = "side")]
    pub sides: Vec<SideSetup>,
    #[serde(default)]
    pub terrain: Vec<TerrainSetup>,
    #[serde(default, rename = "unit")]
    pub units: Vec<UnitSetup>,
    #[serde(default, rename = "character")]
    pub characters: Vec<CharacterSetup>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSetup {
    pub width: f64,
    pub depth: f64,
    #[serde(default)]
    pub scale: Option<String>,
    /// A base's width and depth when neither the unit nor the pack gives one.
    #[serde(default)]
    pub base: Option<[f64; 2]>,
    /// The side that plays phase 1 (default: the first `[[side]]`).
    #[serde(default)]
    pub first: Option<String>,
    #[serde(default)]
    pub turn: Option<u32>,
    #[serde(default)]
    pub phase: Option<u8>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSetup {
    pub id: String,
    /// The morale clock's start (the pack's `clock.start` otherwise).
    #[serde(default)]
    pub clock: Option<i32>,
    /// Clock already lost.
    #[serde(default)]
    pub clock_lost: i32,
    /// The unit carrying the battle standard…
    #[serde(default)]
    pub standard: Option<String>,
    /// …or the enemy unit holding it…
    #[serde(default)]
    pub standard_captured_by: Option<String>,
    /// …or where it was left behind…
    #[serde(default)]
    pub standard_left_at: Option<[f64; 2]>,
    /// …or it is lost.
    #[serde(default)]
    pub standard_lost: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainSetup {
    pub kind: String,
    pub points: Vec<[f64; 2]>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitSetup {
    pub id: String,
    pub side: String,
    pub name: String,
    #[serde(rename = "type")]
    pub troop: String,
    #[serde(default)]
    pub weapons: Vec<String>,
    #[serde(default)]
    pub abilities: Vec<String>,
    #[serde(default)]
    pub grade: Option<String>,
    #[serde(default)]
    pub bonus: Option<[i32; 3]>,
    pub files: u32,
    pub ranks: u32,
    #[serde(default)]
    pub base: Option<[f64; 2]>,
    pub front: [f64; 2],
    pub facing: f64,
    #[serde(default)]
    pub dmz: u8,
    #[serde(default)]
    pub fury: Option<String>,
    #[serde(default)]
    pub formation: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
    #[serde(default)]
    pub double_skirmish: bool,
    #[serde(default)]
    pub artillery: Option<String>,
    #[serde(default)]
    pub causes_fear_to: Vec<String>,
    /// The unit it is attached to (rule 13).
    #[serde(default)]
    pub attached_to: Option<String>,
    #[serde(default)]
    pub cf: Option<i32>,
    #[serde(default)]
    pub values: Option<[i32; 3]>,
    #[serde(default)]
    pub charge_bonus: Option<i32>,
    #[serde(default, rename = "move")]
    pub movement: Option<[f64; 2]>,
    #[serde(default)]
    pub shots: Option<u32>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterSetup {
    pub id: String,
    pub side: String,
    pub name: String,
    pub rank: String,
    #[serde(default)]
    pub with: Option<String>,
    #[serde(default)]
    pub status: Option<String>,
}

fn hint(s: Option<&str>) -> String {
    s.map(|s| format!(" (did you mean '{s}'?)"))
        .unwrap_or_default()
}

impl Layout {
    /// The checked battle, with values and bases filled from the pack.
    ///
    /// # Errors
    /// Every problem found, each naming the unit or field and what to write.
    pub fn battle(&self, pack: Option<&Pack>) -> Result<Battle, Vec<String>> {
        let mut errors = Vec::new();
        let t = &self.table;
        if !(1.0..=MAX_TABLE).contains(&t.width) || !(1.0..=MAX_TABLE).contains(&t.depth) {
            errors.push(format!("[table] width and depth must be 1 to {MAX_TABLE}"));
        }
        let scale = match t.scale.as_deref() {
            None => pack.map_or(Scale::Inches, |p| p.scale),
            Some(s) => Scale::parse(s).unwrap_or_else(|| {
                errors.push(format!(
                    "[table] scale '{s}': write \"inches\" or \"centimetres\""
                ));
                Scale::Inches
            }),
        };
        if let Some(p) = pack {
            if p.scale != scale {
                errors.push(format!(
                    "the pack is written for {:?} and the table measures in {:?}: a game uses one column throughout (ruling FA-3)",
                    p.scale, scale
                ));
            }
        }
        if self.sides.len() != 2 {
            errors.push(format!(
                "a battle has two [[side]]s, not {}",
                self.sides.len()
            ));
        }
        let side_ids: BTreeSet<&str> = self.sides.iter().map(|s| s.id.as_str()).collect();
        let mut units = BTreeMap::new();
        for u in &self.units {
            match self.unit(u, pack, t.base, &side_ids, (t.width, t.depth)) {
                Ok(unit) => {
                    if units.insert(u.id.clone(), unit).is_some() {
                        errors.push(format!("unit id '{}' is used twice", u.id));
                    }
                }
                Err(e) => errors.extend(e),
            }
        }
        let ids: Vec<&String> = units.keys().collect();
        for (i, a) in ids.iter().enumerate() {
            for b in &ids[i + 1..] {
                let (ua, ub): (&Unit, &Unit) = (&units[*a], &units[*b]);
                if ua.is_present() && ub.is_present() && ua.footprint().overlaps(&ub.footprint()) {
                    errors.push(format!(
                        "units '{a}' and '{b}' overlap: units may touch but not overlap (step 4)"
                    ));
                }
            }
        }
        for u in units.values() {
            if let Some(host) = &u.attached_to {
                let why = match units.get(host) {
                    None => Err(format!("no unit '{host}'")),
                    Some(h) if h.side != u.side => Err(format!("'{host}' is an enemy")),
                    Some(h) => super::new_rules::may_attach(u.troop, h.troop),
                };
                if let Err(why) = why {
                    errors.push(format!("unit '{}': attached_to: {why}", u.id));
                }
            }
        }
        let sides = self.sides(&units, pack, &mut errors);
        let characters = self.characters(&units, &side_ids, &mut errors);
        let terrain = self
            .terrain
            .iter()
            .filter_map(|a| {
                if a.points.len() < 3 {
                    errors.push(format!("terrain '{}' needs at least 3 points", a.kind));
                    return None;
                }
                Some(Area {
                    kind: a.kind.clone(),
                    points: a.points.iter().map(|p| DVec2::new(p[0], p[1])).collect(),
                })
            })
            .collect();
        let mut sides = sides;
        if let Some(first) = &t.first {
            match sides.iter().position(|s| &s.id == first) {
                Some(i) => sides.swap(0, i),
                None => errors.push(format!("[table] first = '{first}' is not a [[side]]")),
            }
        }
        let phase = t.phase.unwrap_or(1);
        if !(1..=2).contains(&phase) {
            errors.push("[table] phase is 1 or 2".into());
        }
        let turn = t.turn.unwrap_or(1);
        if !(1..=1000).contains(&turn) {
            errors.push("[table] turn is 1 to 1000".into());
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Battle {
            scale,
            width: t.width,
            depth: t.depth,
            terrain,
            sides,
            units,
            characters,
            turn,
            phase,
            over: None,
        })
    }

    fn unit(
        &self,
        u: &UnitSetup,
        pack: Option<&Pack>,
        table_base: Option<[f64; 2]>,
        sides: &BTreeSet<&str>,
        size: (f64, f64),
    ) -> Result<Unit, Vec<String>> {
        let mut errors = Vec::new();
        let at = |m: String| format!("unit '{}': {m}", u.id);
        if !sides.contains(u.side.as_str()) {
            errors.push(at(format!("side '{}' is not a [[side]]", u.side)));
        }
        let troop = TroopType::parse(&u.troop).unwrap_or_else(|| {
            errors.push(at(format!(
                "no troop type '{}'{}",
                u.troop,
                hint(TroopType::suggest(&u.troop))
            )));
            TroopType::Rabble
        });
        let weapons: Vec<Weapon> = u
            .weapons
            .iter()
            .filter_map(|w| {
                let parsed = Weapon::parse(w);
                if parsed.is_none() {
                    errors.push(at(format!("no weapon '{w}'{}", hint(Weapon::suggest(w)))));
                }
                parsed
            })
            .collect();
        let mut weapons = weapons;
        let built_in = match troop {
            TroopType::LightArtillery => Some(Weapon::LightArtillery),
            TroopType::HeavyArtillery => Some(Weapon::HeavyArtillery),
            _ => None,
        };
        if let Some(w) = built_in {
            if !weapons.contains(&w) {
                weapons.push(w);
            }
        }
        let mut abilities = BTreeSet::new();
        for a in &u.abilities {
            match Ability::parse(a) {
                Some(Ability::BattleDrill) => {
                    errors.push(at("write Roman Battle Drill's parts on the table: \"Pass Through\", \"Maneuverability\" (§5)".into()))
                }
                Some(x) => {
                    abilities.insert(x);
                }
                None => errors.push(at(format!("no ability '{a}'{}", hint(Ability::suggest(a))))),
            }
        }
        if abilities.contains(&Ability::Tribal) {
            abilities.insert(Ability::Impetuous);
        }
        let grade = u.grade.as_deref().and_then(|g| {
            let parsed = Grade::parse(g);
            if parsed.is_none() {
                errors.push(at(format!("no grade '{g}'{}", hint(Grade::suggest(g)))));
            }
            parsed
        });
        let bonus = u.bonus.map(Triple::new).unwrap_or_default();
        if let Some(g) = grade {
            if u.bonus.is_some() && !g.fits(bonus) {
                errors.push(at(format!("{bonus} does not fit {g}: {}", g.wording())));
            }
        }
        let base = u
            .base
            .or_else(|| pack.and_then(|p| p.troop(troop)).map(|t| t.base))
            .or(table_base);
        let base = match base {
            Some(b) if b.iter().all(|d| *d > 0.0 && *d <= 50.0) => b,
            Some(_) => {
                errors.push(at(
                    "a base's width and depth must be above 0 and at most 50".into(),
                ));
                [1.0, 1.0]
            }
            None => {
                errors.push(at("base sizes are a base rule (M3): give `base = [width, depth]` on the unit or in [table], or use a pack".into()));
                [1.0, 1.0]
            }
        };
        if !(1..=MAX_BASES).contains(&u.files) || !(1..=MAX_BASES).contains(&u.ranks) {
            errors.push(at(format!("files and ranks are 1 to {MAX_BASES}")));
        }
        let (w, d) = size;
        if !(0.0..=w).contains(&u.front[0])
            || !(0.0..=d).contains(&u.front[1])
            || !u.facing.is_finite()
        {
            errors.push(at(format!(
                "front {:?} is off the {w} x {d} table",
                u.front
            )));
        }
        if u.dmz > 10 {
            errors.push(at("dmz is 0 to 10".into()));
        }
        let fury = match u.fury.as_deref() {
            None | Some("calm") => Fury::Calm,
            Some("enraged") => Fury::Enraged,
            Some("panicked") => Fury::Panicked,
            Some(o) => {
                errors.push(at(format!("fury '{o}': calm, enraged or panicked")));
                Fury::Calm
            }
        };
        let formation = match u.formation.as_deref().map(crate::names::key).as_deref() {
            None | Some("normal") | Some("line") => Formation::Normal,
            Some("shieldwall") => Formation::ShieldWall,
            Some("tortoise") => Formation::Tortoise,
            Some(o) => {
                errors.push(at(format!(
                    "formation '{o}': normal, shieldwall or tortoise"
                )));
                Formation::Normal
            }
        };
        let status = match u.status.as_deref() {
            None | Some("ready") => Status::Ready,
            Some("destroyed") => Status::Destroyed,
            Some("off-table") => Status::OffTable,
            Some(o) => {
                errors.push(at(format!("status '{o}': ready, destroyed or off-table")));
                Status::Ready
            }
        };
        let artillery = match u.artillery.as_deref() {
            None => match troop {
                TroopType::LightArtillery => Some(ArtilleryKind::Ballista),
                TroopType::HeavyArtillery => Some(ArtilleryKind::Ballista),
                _ => None,
            },
            Some("ballista") | Some("field") => Some(ArtilleryKind::Ballista),
            Some("catapult") | Some("siege") => Some(ArtilleryKind::Catapult),
            Some(o) => {
                errors.push(at(format!(
                    "artillery '{o}': ballista, field, catapult or siege (rule 5)"
                )));
                None
            }
        };
        let mut fear_all = false;
        let mut fear_to = Vec::new();
        for f in &u.causes_fear_to {
            if crate::names::key(f) == "all" {
                fear_all = true;
            } else {
                match TroopType::parse(f) {
                    Some(t) => fear_to.push(t),
                    None => errors.push(at(format!(
                        "causes_fear_to '{f}' is not a troop type{}",
                        hint(TroopType::suggest(f))
                    ))),
                }
            }
        }
        if let Some(m) = u.movement {
            if m.iter().any(|d| !(0.0..=200.0).contains(d)) {
                errors.push(at("move is [open, terrain], each 0 to 200".into()));
            }
        }
        for v in [u.cf, u.charge_bonus]
            .into_iter()
            .flatten()
            .chain(u.values.into_iter().flatten())
        {
            if v.abs() > 50 {
                errors.push(at("values are within ±50".into()));
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let profile = Profile {
            cf: u.cf,
            values: u.values.map(Triple::new),
            charge_bonus: u.charge_bonus,
            movement: u.movement,
            shots: u.shots,
        }
        .or_pack(pack, troop);
        let mut unit = Unit::new(
            &u.id,
            &u.side,
            &u.name,
            troop,
            base,
            u.files,
            u.ranks,
            Place::new(u.front[0], u.front[1], u.facing),
        );
        unit.set_place(Place::new(u.front[0], u.front[1], u.facing));
        unit.weapons = weapons;
        unit.abilities = abilities;
        unit.grade = grade;
        unit.bonus = bonus;
        unit.profile = profile;
        unit.dmz = u.dmz;
        unit.fury = fury;
        unit.formation = formation;
        unit.status = status;
        unit.double_skirmish = u.double_skirmish;
        unit.artillery = artillery;
        unit.causes_fear_to = fear_to;
        unit.causes_fear_to_all = fear_all;
        unit.attached_to = u.attached_to.clone();
        Ok(unit)
    }

    fn sides(
        &self,
        units: &BTreeMap<String, Unit>,
        pack: Option<&Pack>,
        errors: &mut Vec<String>,
    ) -> Vec<Side> {
        self.sides
            .iter()
            .map(|s| {
                let given = [s.standard.is_some(), s.standard_captured_by.is_some(), s.standard_left_at.is_some(), s.standard_lost]
                    .iter()
                    .filter(|b| **b)
                    .count();
                if given > 1 {
                    errors.push(format!("side '{}': give one of standard, standard_captured_by, standard_left_at, standard_lost", s.id));
                }
                let check = |id: &str, own: bool, errors: &mut Vec<String>| match units.get(id) {
                    Some(u) if (u.side == s.id) == own => {}
                    Some(_) => errors.push(format!(
                        "side '{}': unit '{id}' is {}",
                        s.id,
                        if own { "not one of its own" } else { "one of its own, not an enemy" }
                    )),
                    None => errors.push(format!("side '{}': no unit '{id}'", s.id)),
                };
                let standard = if let Some(u) = &s.standard {
                    check(u, true, errors);
                    Some(StandardState::With(u.clone()))
                } else if let Some(u) = &s.standard_captured_by {
                    check(u, false, errors);
                    Some(StandardState::CapturedBy(u.clone()))
                } else if let Some(p) = s.standard_left_at {
                    Some(StandardState::LeftBehind(DVec2::new(p[0], p[1])))
                } else if s.standard_lost {
                    Some(StandardState::Lost)
                } else {
                    None
                };
                if s.clock.is_some_and(|c| !(-100..=1000).contains(&c)) || !(0..=1000).contains(&s.clock_lost) {
                    errors.push(format!("side '{}': clock values are -100 to 1000", s.id));
                }
                Side { id: s.id.clone(), clock_start: s.clock.or(pack.and_then(Pack::clock_start)), clock_lost: s.clock_lost, standard, turn_tally: 0 }
            })
            .collect()
    }

    fn characters(
        &self,
        units: &BTreeMap<String, Unit>,
        sides: &BTreeSet<&str>,
        errors: &mut Vec<String>,
    ) -> BTreeMap<String, Character> {
        let mut out = BTreeMap::new();
        for c in &self.characters {
            let at = |m: String| format!("character '{}': {m}", c.id);
            if !sides.contains(c.side.as_str()) {
                errors.push(at(format!("side '{}' is not a [[side]]", c.side)));
            }
            let Some(rank) = Rank::parse(&c.rank) else {
                errors.push(at(format!("rank '{}': general or sub-general", c.rank)));
                continue;
            };
            let status = match c.status.as_deref() {
                None | Some("active") => CharacterStatus::Active,
                Some("captured") => CharacterStatus::Captured,
                Some("killed") => CharacterStatus::Killed,
                Some(o) => {
                    errors.push(at(format!("status '{o}': active, captured or killed")));
                    continue;
                }
            };
            if let Some(w) = &c.with {
                match units.get(w) {
                    Some(u) if u.side == c.side => {}
                    Some(_) => errors.push(at(format!("unit '{w}' is not of its side"))),
                    None => errors.push(at(format!("no unit '{w}'"))),
                }
            } else if status == CharacterStatus::Active {
                errors.push(at("an active character is `with` a unit (§7: characters may be added to any unit)".into()));
            }
            let ch = Character {
                id: c.id.clone(),
                side: c.side.clone(),
                name: c.name.clone(),
                rank,
                with: c.with.clone(),
                status,
            };
            if out.insert(c.id.clone(), ch).is_some() {
                errors.push(at("id used twice".into()));
            }
        }
        out
    }
}

/// A test battle: Rome against Carthage on a `width` × `depth` table of
/// 1.5" × 0.75" bases, with `units` (the layout's `[[unit]]` tables) on it.
#[cfg(test)]
pub(crate) fn test_battle(width: f64, depth: f64, units: &str) -> Battle {
    let text = format!(
        "[table]\nwidth = {width:?}\ndepth = {depth:?}\nbase = [1.5, 0.75]\n[[side]]\nid = \"rome\"\n[[side]]\nid = \"carthage\"\n{units}"
    );
    toml::from_str::<Layout>(&text)
        .expect("a test layout reads")
        .battle(None)
        .expect("a test layout is a battle")
}

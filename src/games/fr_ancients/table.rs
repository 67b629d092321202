//! The battle on the table: two sides with their morale clocks and battle
//! standards, units as rectangles of bases (files × ranks) with a facing,
//! anchored at the centre of the front edge, characters with their units,
//! terrain areas. Geometry is the continuous table's
//! (`crate::geometry`): this module only asks it
//! where a unit is, what it touches and what lies in its arcs.
//!
//! Coordinates are in the game's column (inches or centimetres, R5), x
//! east, y north, origin at the south-west corner; facing is a compass
//! bearing (0 = north, 90 = east).
//!
//! ```
//! use umpire::games::fr_ancients::table::{Place, Unit};
//! use umpire::games::fr_ancients::troops::TroopType;
//! use glam::DVec2;
//! let u = Unit::new("h", "rome", "Hastati", TroopType::HandWeapons, [1.5, 0.75], 4, 2, Place::new(10.0, 10.0, 0.0));
//! assert_eq!((u.width(), u.depth()), (6.0, 1.5));
//! assert!((u.footprint().centre - DVec2::new(10.0, 9.25)).length() < 1e-9);
//! ```

use super::abilities::Ability;
use super::characters::Rank;
use super::grades::{Grade, Triple};
use super::options::Options;
use super::pack::Pack;
use super::troops::TroopType;
use super::weapons::{Scale, Weapon};
use crate::geometry::footprint_meets_polygon;
use crate::geometry::{bearing_of, heading, Edge, Face, Footprint};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

pub type UnitId = String;
pub type SideId = String;
pub type CharacterId = String;

/// How close two footprints must be to be in contact (table units).
pub const CONTACT: f64 = 0.01;

/// Where a unit stands: the centre of its front edge and its facing.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Place {
    pub front: DVec2,
    pub facing: f64,
}

impl Place {
    pub fn new(x: f64, y: f64, facing: f64) -> Place {
        Place {
            front: DVec2::new(x, y),
            facing,
        }
    }

    /// "(12.0, 30.5) facing 90".
    pub fn show(&self) -> String {
        format!(
            "({:.1}, {:.1}) facing {:.0}",
            self.front.x, self.front.y, self.facing
        )
    }
}

/// The Rage and Panic state machine's states (O5, [`super::rage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fury {
    #[default]
    Calm,
    Enraged,
    Panicked,
}

impl Fury {
    pub fn code(self) -> &'static str {
        match self {
            Fury::Calm => "calm",
            Fury::Enraged => "enraged",
            Fury::Panicked => "panicked",
        }
    }
}

/// A unit's formation: the base book's line (M12), or a formation an ability gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formation {
    #[default]
    Normal,
    ShieldWall,
    Tortoise,
}

impl Formation {
    pub fn code(self) -> &'static str {
        match self {
            Formation::Normal => "normal",
            Formation::ShieldWall => "shieldwall",
            Formation::Tortoise => "tortoise",
        }
    }
}

/// Whether a unit is still in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    #[default]
    Ready,
    Destroyed,
    /// Fled off the table (a panicked unit, rule "Panic").
    OffTable,
}

impl Status {
    pub fn code(self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::Destroyed => "destroyed",
            Status::OffTable => "off-table",
        }
    }
}

/// The kinds of artillery rule 5 tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArtilleryKind {
    /// Ballistae and field artillery "can pivot if they did not fire".
    Ballista,
    /// Catapults and siege artillery "may not even pivot once deployed", and
    /// may fire indirect at fortifications.
    Catapult,
}

/// A unit's base values (M2): from the pack's troop table, or written on
/// the unit by a club without a pack. `None`: not known, so the step that
/// needs it asks the game master.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Profile {
    pub cf: Option<i32>,
    /// Melee/Rally/Missile before the grade's +1s.
    pub values: Option<Triple>,
    pub charge_bonus: Option<i32>,
    /// In the open, in terrain.
    pub movement: Option<[f64; 2]>,
    pub shots: Option<u32>,
}

impl Profile {
    /// This profile, its gaps filled from the pack's troop table.
    pub fn or_pack(self, pack: Option<&Pack>, t: TroopType) -> Profile {
        let Some(row) = pack.and_then(|p| p.troop(t)) else {
            return self;
        };
        Profile {
            cf: self.cf.or(Some(row.cf)),
            values: self.values.or(Some(row.values)),
            charge_bonus: self.charge_bonus.or(Some(row.charge_bonus)),
            movement: self.movement.or(Some(row.movement)),
            shots: self.shots.or(Some(row.shots)),
        }
    }
}

/// One unit on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub side: SideId,
    /// The name orders use.
    pub name: String,
    pub troop: TroopType,
    pub weapons: Vec<Weapon>,
    pub abilities: BTreeSet<Ability>,
    pub grade: Option<Grade>,
    /// The grade's +1s over Melee/Rally/Missile.
    pub bonus: Triple,
    pub profile: Profile,
    /// One base: width, depth.
    pub base: [f64; 2],
    pub files: u32,
    pub ranks: u32,
    pub front: DVec2,
    pub facing: f64,
    /// Levels of demoralization (DMZ markers); two are double demoralised (DD).
    pub dmz: u8,
    pub fury: Fury,
    pub formation: Formation,
    pub status: Status,
    /// Two skirmish units attached as one (rule 13).
    pub double_skirmish: bool,
    pub artillery: Option<ArtilleryKind>,
    /// Troop types this unit causes fear to, decided before the game
    /// ("Units that cause fear only do so historically"); `all` for every enemy.
    pub causes_fear_to: Vec<TroopType>,
    pub causes_fear_to_all: bool,
    /// The unit this one is attached to (rule 13: Skirmishers to Heavy
    /// Cavalry): it moves with it, and is left behind in a counter-charge
    /// (rule 8).
    pub attached_to: Option<UnitId>,
}

impl Unit {
    /// A unit with no grade, weapons or abilities, ready, in normal formation.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: &str,
        side: &str,
        name: &str,
        troop: TroopType,
        base: [f64; 2],
        files: u32,
        ranks: u32,
        at: Place,
    ) -> Unit {
        Unit {
            id: id.into(),
            side: side.into(),
            name: name.into(),
            troop,
            weapons: Vec::new(),
            abilities: BTreeSet::new(),
            grade: None,
            bonus: Triple::ZERO,
            profile: Profile::default(),
            base,
            files,
            ranks,
            front: at.front,
            facing: at.facing,
            dmz: 0,
            fury: Fury::Calm,
            formation: Formation::Normal,
            status: Status::Ready,
            double_skirmish: false,
            artillery: None,
            causes_fear_to: Vec::new(),
            causes_fear_to_all: false,
            attached_to: None,
        }
    }

    pub fn width(&self) -> f64 {
        self.files as f64 * self.base[0]
    }

    pub fn depth(&self) -> f64 {
        self.ranks as f64 * self.base[1]
    }

    pub fn place(&self) -> Place {
        Place {
            front: self.front,
            facing: self.facing,
        }
    }

    pub fn set_place(&mut self, p: Place) {
        self.front = p.front;
        self.facing = crate::geometry::normalize_bearing(p.facing);
    }

    pub fn footprint(&self) -> Footprint {
        self.footprint_at(self.place())
    }

    /// Where this unit, attached to a host that goes from `from` to `to`,
    /// stands after it: where it stood beside it (rule 13; ruling FA-55).
    pub fn carried(&self, from: Place, to: Place) -> Place {
        let turn = crate::geometry::turn_between(from.facing, to.facing);
        let offset = crate::geometry::rotate_cw(self.front - from.front, turn);
        Place {
            front: to.front + offset,
            facing: (self.facing + turn).rem_euclid(360.0),
        }
    }

    /// The rectangle the unit would cover at another place.
    pub fn footprint_at(&self, p: Place) -> Footprint {
        Footprint::behind(p.front, p.facing, self.width(), self.depth())
    }

    pub fn is_present(&self) -> bool {
        self.status == Status::Ready
    }

    pub fn has(&self, a: Ability) -> bool {
        self.abilities.contains(&a)
    }

    /// Demoralized: at least one DMZ, or a Rage or Panic marker.
    pub fn is_demoralized(&self) -> bool {
        self.levels() > 0
    }

    /// Levels of demoralization for rallying: DMZs plus one for a Rage or
    /// Panic marker ("Rage and panic markers counts as one level … each").
    pub fn levels(&self) -> u8 {
        let marker = match self.fury {
            Fury::Calm => 0,
            Fury::Enraged => super::sheet::sheet().abilities.rage.marker_levels,
            Fury::Panicked => super::sheet::sheet().abilities.panic.marker_levels,
        };
        self.dmz + marker
    }

    /// Melee/Rally/Missile with the grade's +1s, when the values are known.
    pub fn values(&self) -> Option<Triple> {
        self.profile.values.map(|v| v.plus(self.bonus))
    }

    /// A missile weapon the unit shoots in step 2 (the longest-ranged).
    pub fn missile(&self) -> Option<Weapon> {
        self.weapons
            .iter()
            .copied()
            .filter(|w| w.shoots())
            .max_by(|a, b| a.row().range_in.total_cmp(&b.row().range_in))
    }

    /// The unit's charge bonus, natural or from Wild Charge (not from missiles).
    pub fn natural_charge_bonus(&self) -> Option<i32> {
        let wild = if self.has(Ability::WildCharge) && !wild_charge_built_in(self.troop) {
            super::sheet::sheet().abilities.wild_charge.charge_bonus
        } else {
            0
        };
        self.profile.charge_bonus.map(|b| b + wild)
    }

    /// Whether it wild-charges (the ability, or the types it is built into).
    pub fn wild_charges(&self) -> bool {
        self.has(Ability::WildCharge) || wild_charge_built_in(self.troop)
    }
}

/// "already configured into Warband and Scythed Chariot statistics".
pub fn wild_charge_built_in(t: TroopType) -> bool {
    super::sheet::sheet()
        .abilities
        .wild_charge
        .built_in
        .iter()
        .any(|n| TroopType::parse(n) == Some(t))
}

/// Where a battle standard is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StandardState {
    /// With one of its own army's units.
    With(UnitId),
    /// Held by an enemy unit (rule 15: +1 CF for units fighting it).
    CapturedBy(UnitId),
    /// Marked on the field; the first unit to move over it takes it.
    LeftBehind(DVec2),
    Lost,
}

/// One side: its id, morale clock and battle standard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Side {
    pub id: SideId,
    /// The clock's starting value (the pack's, or the scenario's), if known (M10).
    pub clock_start: Option<i32>,
    /// What the clock has lost so far.
    pub clock_lost: i32,
    pub standard: Option<StandardState>,
    /// Tally points this side has scored in the turn so far (rule 10's per-turn clock).
    pub turn_tally: u32,
}

impl Side {
    /// The clock now, when its start is known.
    pub fn clock(&self) -> Option<i32> {
        self.clock_start.map(|s| s - self.clock_lost)
    }
}

/// What became of a character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CharacterStatus {
    /// With a unit (`Character::with`).
    Active,
    /// Held by the enemy; tries to escape in its side's step 3.
    Captured,
    Killed,
}

/// A general or sub-general (§7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Character {
    pub id: CharacterId,
    pub side: SideId,
    pub name: String,
    pub rank: Rank,
    pub with: Option<UnitId>,
    pub status: CharacterStatus,
}

/// A terrain area: a polygon of some kind ("woods", "hill", "fortification").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Area {
    pub kind: String,
    pub points: Vec<DVec2>,
}

impl Area {
    /// Fortifications, which catapults may shoot indirect at (rule 5).
    pub fn is_fortification(&self) -> bool {
        crate::names::key(&self.kind).starts_with("fortification")
    }
}

/// The battle: table, sides, units, characters, and whose phase it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Battle {
    pub scale: Scale,
    pub width: f64,
    pub depth: f64,
    pub terrain: Vec<Area>,
    /// Exactly two; the first plays phase 1 of every turn.
    pub sides: Vec<Side>,
    pub units: BTreeMap<UnitId, Unit>,
    pub characters: BTreeMap<CharacterId, Character>,
    /// The turn being played, from 1.
    pub turn: u32,
    /// The phase about to be played in this turn: 1 or 2.
    pub phase: u8,
    /// Why the battle ended, once it has.
    pub over: Option<String>,
}

impl Battle {
    /// The side whose phase it is.
    pub fn phasing(&self) -> &SideId {
        &self.sides[usize::from(self.phase == 2)].id
    }

    pub fn side(&self, id: &str) -> Option<&Side> {
        self.sides.iter().find(|s| s.id == id)
    }

    pub fn side_mut(&mut self, id: &str) -> Option<&mut Side> {
        self.sides.iter_mut().find(|s| s.id == id)
    }

    /// The other side.
    pub fn enemy_of(&self, side: &str) -> SideId {
        self.sides
            .iter()
            .find(|s| s.id != side)
            .map(|s| s.id.clone())
            .unwrap_or_default()
    }

    /// The unit a player means by `name` (its name compared as a key, or
    /// its id). Both armies may field units of one name (the Trebia's
    /// Celtic Infantry 1), so a unit of `side` is taken first when `mine`,
    /// an enemy of it first otherwise; the other only when none is.
    pub fn unit_named(&self, name: &str, side: &str, mine: bool) -> Option<&Unit> {
        let k = crate::names::key(name);
        let mut named = self
            .units
            .values()
            .filter(|u| crate::names::key(&u.name) == k || u.id == name);
        let first = named.clone().next();
        named.find(|u| (u.side == side) == mine).or(first)
    }

    /// Units still on the table.
    pub fn present(&self) -> impl Iterator<Item = &Unit> {
        self.units.values().filter(|u| u.is_present())
    }

    /// A unit's name for reports, or its id when unknown.
    pub fn name(&self, id: &str) -> String {
        self.units
            .get(id)
            .map_or_else(|| id.to_string(), |u| u.name.clone())
    }

    /// The distance the sheet gives in inches, in this game's column.
    pub fn inches(&self, d: f64) -> f64 {
        self.scale.of_inches(d)
    }

    /// Whether any part of a rectangle lies in a terrain area (rule 1's "in terrain").
    pub fn in_terrain(&self, f: &Footprint) -> bool {
        self.terrain
            .iter()
            .any(|a| footprint_meets_polygon(f, &a.points))
    }

    /// The terrain kinds a rectangle meets.
    pub fn terrain_kinds(&self, f: &Footprint) -> Vec<&str> {
        self.terrain
            .iter()
            .filter(|a| footprint_meets_polygon(f, &a.points))
            .map(|a| a.kind.as_str())
            .collect()
    }

    /// Whether a rectangle lies wholly on the table.
    pub fn on_table(&self, f: &Footprint) -> bool {
        f.corners().iter().all(|c| {
            c.x >= -CONTACT
                && c.y >= -CONTACT
                && c.x <= self.width + CONTACT
                && c.y <= self.depth + CONTACT
        })
    }

    /// Whether two units are enemies: of different sides, or one is an
    /// elephant gone wild and touching the other (rule "Rage": "consider it
    /// an enemy unit").
    pub fn hostile(&self, a: &Unit, b: &Unit) -> bool {
        a.side != b.side || (a.fury != Fury::Calm || b.fury != Fury::Calm) && self.touching(a, b)
    }

    /// Whether two units' rectangles touch (or overlap).
    pub fn touching(&self, a: &Unit, b: &Unit) -> bool {
        a.id != b.id && a.footprint().distance(&b.footprint()) <= CONTACT
    }

    /// The face of `b` that `a` touches.
    pub fn face_touched(&self, a: &Unit, b: &Unit) -> Face {
        let fb = b.footprint();
        let p = a.footprint().nearest_point(fb.centre);
        fb.arc_of_degrees(p, 45.0).face()
    }

    /// Enemy units in contact with `u`, with the face of `u` each touches.
    pub fn contacts(&self, u: &Unit) -> Vec<(UnitId, Face)> {
        self.present()
            .filter(|o| self.hostile(u, o) && self.touching(u, o))
            .map(|o| (o.id.clone(), self.face_touched(o, u)))
            .collect()
    }

    /// Whether an enemy touches `u`'s front (its "frontal opponent").
    pub fn has_frontal_opponent(&self, u: &Unit) -> bool {
        self.contacts(u).iter().any(|(_, f)| *f == Face::Front)
    }

    pub fn in_melee(&self, u: &Unit) -> bool {
        !self.contacts(u).is_empty()
    }

    /// Whether two units are adjacent (within `adjacent_within`, ruling FA-26).
    pub fn adjacent(&self, a: &Unit, b: &Unit, options: &Options) -> bool {
        a.id != b.id
            && a.footprint().distance(&b.footprint())
                <= self.inches(options.adjacent_within) + CONTACT
    }

    /// Edge-to-edge distance between two units.
    pub fn distance(&self, a: &Unit, b: &Unit) -> f64 {
        a.footprint().distance(&b.footprint())
    }

    /// The characters with a unit.
    pub fn characters_with(&self, unit: &str) -> Vec<&Character> {
        self.characters
            .values()
            .filter(|c| c.status == CharacterStatus::Active && c.with.as_deref() == Some(unit))
            .collect()
    }

    /// The side whose standard a unit carries, if it carries its own.
    pub fn bears_standard(&self, unit: &str) -> bool {
        self.sides
            .iter()
            .any(|s| s.standard == Some(StandardState::With(unit.to_string())))
    }

    /// Sides whose captured standard this unit holds.
    pub fn holds_standard_of(&self, unit: &str) -> Vec<SideId> {
        self.sides
            .iter()
            .filter(|s| s.standard == Some(StandardState::CapturedBy(unit.to_string())))
            .map(|s| s.id.clone())
            .collect()
    }

    /// Whether a point lies in `u`'s arc (`degrees` from straight ahead,
    /// drawn from the front corners; 180: all round) for some part of `t`.
    pub fn in_arc(&self, u: &Unit, t: &Unit, degrees: f64) -> bool {
        if degrees >= 180.0 {
            return true;
        }
        let f = u.footprint();
        let g = t.footprint();
        let mut probes: Vec<DVec2> = g.corners().to_vec();
        probes.push(g.centre);
        probes.push(g.nearest_point(f.front()));
        if degrees > 90.0 {
            // Wider than a half-plane: in arc unless wholly behind the arc's rear lines.
            let back = 180.0 - degrees;
            return probes
                .iter()
                .any(|p| f.arc_of_degrees(*p, back) != Edge::Rear);
        }
        probes
            .iter()
            .any(|p| f.arc_of_degrees(*p, degrees) == Edge::Front)
    }

    /// The bearing from one unit's front centre to a point.
    pub fn bearing_to(u: &Unit, p: DVec2) -> f64 {
        bearing_of(p - u.front)
    }
}

/// A place `distance` along `bearing` from a point, keeping a facing.
pub fn shifted(p: Place, bearing: f64, distance: f64) -> Place {
    Place {
        front: p.front + heading(bearing) * distance,
        facing: p.facing,
    }
}

/// Whether `r` stands directly behind `u`: facing the same way, its front
/// at `u`'s rear edge (within `gap`), and its centre behind `u`'s frontage.
pub fn directly_behind(u: &Unit, r: &Unit, gap: f64) -> bool {
    let same_way = crate::geometry::turn_between(u.facing, r.facing).abs() <= 10.0;
    let rear_centre = u.front - heading(u.facing) * u.depth();
    let offset = r.front - rear_centre;
    let right = crate::geometry::rotate_cw(heading(u.facing), 90.0);
    same_way
        && offset.dot(heading(u.facing)).abs() <= gap + CONTACT
        && offset.dot(right).abs() <= u.width() / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn battle(units: Vec<Unit>) -> Battle {
        Battle {
            scale: Scale::Inches,
            width: 48.0,
            depth: 48.0,
            terrain: Vec::new(),
            sides: ["rome", "carthage"]
                .iter()
                .map(|s| Side {
                    id: s.to_string(),
                    clock_start: Some(10),
                    clock_lost: 0,
                    standard: None,
                    turn_tally: 0,
                })
                .collect(),
            units: units.into_iter().map(|u| (u.id.clone(), u)).collect(),
            characters: BTreeMap::new(),
            turn: 1,
            phase: 1,
            over: None,
        }
    }

    #[test]
    fn contact_faces_and_frontal_opponents() {
        let a = Unit::new(
            "a",
            "rome",
            "A",
            TroopType::HandWeapons,
            [1.0, 1.0],
            4,
            1,
            Place::new(10.0, 10.0, 0.0),
        );
        // b faces south, its front touching a's front.
        let b = Unit::new(
            "b",
            "carthage",
            "B",
            TroopType::Spears,
            [1.0, 1.0],
            4,
            1,
            Place::new(10.0, 10.0, 180.0),
        );
        // c faces west, its front against a's right flank (x = 12).
        let c = Unit::new(
            "c",
            "carthage",
            "C",
            TroopType::Spears,
            [1.0, 1.0],
            1,
            1,
            Place::new(12.0, 9.5, 270.0),
        );
        let bt = battle(vec![a, b, c]);
        let a = &bt.units["a"];
        let mut contacts = bt.contacts(a);
        contacts.sort();
        assert_eq!(
            contacts,
            vec![
                ("b".to_string(), Face::Front),
                ("c".to_string(), Face::Flank)
            ]
        );
        assert!(bt.has_frontal_opponent(a));
        assert!(
            bt.has_frontal_opponent(&bt.units["c"]),
            "c's front is against a's flank"
        );
        let lone = Unit::new(
            "d",
            "rome",
            "D",
            TroopType::Spears,
            [1.0, 1.0],
            1,
            1,
            Place::new(40.0, 40.0, 0.0),
        );
        assert!(!bt.has_frontal_opponent(&lone));
    }

    #[test]
    fn arcs_by_angle() {
        let a = Unit::new(
            "a",
            "rome",
            "A",
            TroopType::Archers,
            [1.0, 1.0],
            4,
            1,
            Place::new(10.0, 10.0, 0.0),
        );
        let ahead = Unit::new(
            "t",
            "carthage",
            "T",
            TroopType::Spears,
            [1.0, 1.0],
            2,
            1,
            Place::new(10.0, 14.0, 180.0),
        );
        let beside = Unit::new(
            "s",
            "carthage",
            "S",
            TroopType::Spears,
            [1.0, 1.0],
            2,
            1,
            Place::new(20.0, 9.5, 270.0),
        );
        let bt = battle(vec![a, ahead, beside]);
        let (a, t, s) = (&bt.units["a"], &bt.units["t"], &bt.units["s"]);
        assert!(bt.in_arc(a, t, 45.0));
        assert!(!bt.in_arc(a, s, 45.0));
        assert!(bt.in_arc(a, s, 180.0), "360° arc");
        assert!(bt.in_arc(a, s, 135.0));
    }
}

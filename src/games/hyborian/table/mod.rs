//! The battlefield: units as blocks of figures with a facing, terrain
//! areas, table edges. This file holds the state as data; geometry
//! (footprints, arcs, contacts) lives in the sibling modules.
//!
//! Coordinates are inches, x east, y north, origin at the south-west
//! corner. Facing is a compass bearing in degrees (0 = north, 90 = east).

pub mod geometry;
pub mod positional;
pub mod setup;
pub mod terrain;

use crate::games::hyborian::rules::magic::Spell;
use crate::games::hyborian::rules::{Class, Formation, Trait, UnitType, Weapon};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What a spell is cast at: a unit, a point, or a line (a wall of fire).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SpellTarget {
    Unit(UnitId),
    Point(DVec2),
    Line(DVec2, DVec2),
}

/// A unit's short, stable id (case files' `id`, the store's key).
pub type UnitId = String;
/// A side's id (`aquilonia`, `nemedia`…).
pub type SideId = String;

/// What state a unit is in (§8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Ready,
    /// Fall-back status with this many turns left.
    FallBack(u8),
    Rout,
    Eliminated,
    Surrendered,
    OffTable,
    Captured,
}

impl Status {
    /// The case-file word for the status (`fall-back`, `rout`…).
    pub fn code(&self) -> &'static str {
        match self {
            Status::Ready => "ready",
            Status::FallBack(_) => "fall-back",
            Status::Rout => "rout",
            Status::Eliminated => "eliminated",
            Status::Surrendered => "surrendered",
            Status::OffTable => "off-table",
            Status::Captured => "captured",
        }
    }

    /// Still on the table and able to act.
    pub fn is_present(&self) -> bool {
        matches!(self, Status::Ready | Status::FallBack(_) | Status::Rout)
    }
}

/// One unit (or single figure) on the table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    pub id: UnitId,
    pub side: SideId,
    /// The name orders use ("Black Dragons").
    pub name: String,
    /// The unit's number in its army list, for orders that name units by number.
    pub number: u32,
    pub kind: UnitType,
    pub class: Class,
    /// Figures now (chariots, mammoths: crew figures).
    pub figures: u32,
    /// Original strength.
    pub original: u32,
    pub weapons: Vec<Weapon>,
    pub traits: Vec<Trait>,
    pub formation: Formation,
    /// Figures across the front rank.
    pub files: u32,
    /// Ranks deep.
    pub ranks: u32,
    /// Centre of the front edge (the pivot for face and formation changes).
    pub front: DVec2,
    /// Compass bearing in degrees, 0 = north.
    pub facing: f64,
    pub status: Status,
    pub in_melee_with: BTreeSet<UnitId>,
    /// Leaders and heroes: the unit they are with.
    pub attached_to: Option<UnitId>,
    /// Wizards: spell points left.
    pub spell_points: Option<u32>,
    /// Commanders and heroes: rides a horse (§9: a commander moves at 24
    /// inches mounted, 12 on foot).
    #[serde(default)]
    pub mounted: bool,
}

impl Unit {
    pub fn has_weapon(&self, w: Weapon) -> bool {
        self.weapons.contains(&w)
    }
    pub fn has_trait(&self, t: Trait) -> bool {
        self.traits.contains(&t)
    }
}

/// Kinds of terrain area (§7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TerrainKind {
    /// A hill of 1 or 2 contours.
    Hill {
        contours: u8,
    },
    Woods,
    Swamp,
    /// A road: `points` is a polyline of this width in inches.
    Road {
        width: f64,
    },
    /// A river: deep water, crossed as the game's `rivers` option says
    /// (§12: "their affect must be ruled upon by the group"; ruling T-1).
    River,
    /// A stream: shallow water, crossed as the `streams` option says.
    Stream,
    /// A ford: a strip across a river or stream where it is crossed, at half
    /// speed (ruling T-2).
    Ford,
    /// A bridge: a strip across a river or stream crossed as dry ground.
    Bridge,
}

impl TerrainKind {
    /// Rivers and streams: the water that fords and bridges cross.
    pub fn is_watercourse(&self) -> bool {
        matches!(self, TerrainKind::River | TerrainKind::Stream)
    }

    /// Rivers, streams, fords and bridges: the terrain of the rivers
    /// ruling (T-1), which is neither rough ground nor cover.
    pub fn is_water(&self) -> bool {
        matches!(
            self,
            TerrainKind::River | TerrainKind::Stream | TerrainKind::Ford | TerrainKind::Bridge
        )
    }
}

/// A terrain area: a polygon (or, for roads, a polyline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Terrain {
    pub kind: TerrainKind,
    pub points: Vec<DVec2>,
}

/// The whole battlefield at one moment.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// East-west size in inches.
    pub width: f64,
    /// North-south size in inches.
    pub depth: f64,
    pub terrain: Vec<Terrain>,
    /// Every unit, keyed by id so iteration order is fixed.
    pub units: BTreeMap<UnitId, Unit>,
    /// The turn about to be played (1-based; 0 is a scenario's deployment turn).
    pub turn: u32,
    /// Units that earned a charge bonus in the melee they are still in: they
    /// get the post-charge bonus on its later rounds (§4).
    #[serde(default)]
    pub charge_bonus_earned: BTreeSet<UnitId>,
    /// Figures each unit fought with against each opponent in the last round
    /// of a melee still going on: later rounds expand from it (§4).
    #[serde(default)]
    pub melee_figures: BTreeMap<UnitId, BTreeMap<UnitId, u32>>,
    /// What morale carries from turn to turn (§8, §9).
    #[serde(default)]
    pub morale: MoraleState,
    /// The set-up turn (turn 0) only: each side's deployment zone, as the
    /// south-west and north-east corners of a rectangle.
    #[serde(default)]
    pub deployment_zones: BTreeMap<SideId, [DVec2; 2]>,
    /// Spells written with the last turn's orders, to take effect at the
    /// start of this turn's phase 1 (§10), in the order written.
    #[serde(default)]
    pub pending_spells: Vec<PendingSpell>,
    /// Lasting magic on the table (walls, fire, tremors, rain, shields,
    /// ghosts, sleepers), each with the turns it has left.
    #[serde(default)]
    pub effects: Vec<Effect>,
    /// Special spells cast once per battle, by caster (the Calling).
    #[serde(default)]
    pub once_cast: BTreeSet<(UnitId, Spell)>,
}

/// A spell written with a turn's orders (§10): it takes effect at the
/// start of phase 1 of the next turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PendingSpell {
    pub caster: UnitId,
    pub spell: Spell,
    pub target: SpellTarget,
    /// The turn it was written in.
    pub written: u32,
}

/// A lasting effect of magic (§10, Appendix II).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    pub kind: EffectKind,
    /// Turns it still lasts, counting the present one; counted down at the
    /// end of each turn, and at 0 it is spent (removed when the next turn
    /// begins). `None` lasts until something ends it.
    pub turns_left: Option<u32>,
    /// The wizard whose spell made it.
    pub caster: UnitId,
}

impl Effect {
    /// Still acting: an effect whose last turn has been played stays on
    /// the table (for the picture of that turn) until the next turn begins.
    pub fn is_active(&self) -> bool {
        self.turns_left != Some(0)
    }
}

/// What a lasting effect is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EffectKind {
    /// Shield of Air: no missile touches this wizard.
    ShieldOfAir { wizard: UnitId },
    /// Wind Demon: this unit's arrows turn back on it.
    WindDemon { unit: UnitId },
    /// Rain Demon: rain over the square foot centred here.
    Rain { centre: DVec2 },
    /// Earth-Shaker: no one charges across this line.
    Tremors { from: DVec2, to: DVec2 },
    /// Wall of Fire: blocks missiles, stops charges.
    WallOfFire { from: DVec2, to: DVec2 },
    /// Woods alight along `from`–`to`, burning within `reach` inches of it.
    WoodsFire {
        woods: usize,
        from: DVec2,
        to: DVec2,
        reach: f64,
    },
    /// A landslide off a hill: the new ground (drawn for a turn).
    Landslide { points: Vec<DVec2> },
    /// A phantom or summoned unit (ghosts; the Calling's beasts hunt `prey`).
    Summoned { unit: UnitId, prey: Option<UnitId> },
    /// Black Slumber: the hero sleeps.
    Slumber { hero: UnitId },
    /// Helm of Darkness: the commander is blind and cannot move.
    Blinded { commander: UnitId },
}

/// Morale state that outlives a turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MoraleState {
    /// Units that friends falling back or routing passed through this turn:
    /// they cannot charge in phase 1 of the next turn (§8).
    #[serde(default)]
    pub no_charge_in_phase1: BTreeSet<UnitId>,
    /// Leaders' standing orders for the unit they are with should it rout
    /// (§9): `true` stays with it, `false` leaves it. Absent: heroes stay,
    /// commanders leave (ruling M-16).
    #[serde(default)]
    pub stay_with_rout: BTreeMap<UnitId, bool>,
    /// Routing units that failed their rally test: they rout on every turn,
    /// without testing again, until they leave the table (§8).
    #[serde(default)]
    pub routing_on: BTreeSet<UnitId>,
}

impl Table {
    /// The sides present, sorted.
    pub fn sides(&self) -> BTreeSet<SideId> {
        self.units.values().map(|u| u.side.clone()).collect()
    }

    /// Units of one side, in id order.
    pub fn units_of<'a>(&'a self, side: &'a str) -> impl Iterator<Item = &'a Unit> + 'a {
        self.units.values().filter(move |u| u.side == side)
    }
}

//! Checked orders: what the engine executes. Produced by validating a
//! parsed order sheet against the table; every unit reference is resolved
//! to a [`UnitId`] and every number is within the rules.
//!
//! The written forms in the docs are the canonical ones the confirmation
//! echoes back.

use crate::games::hyborian::rules::magic::Spell;
use crate::games::hyborian::rules::{Formation, Phase};
use crate::games::hyborian::table::SpellTarget;
use crate::games::hyborian::table::UnitId;
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every unit's checked orders for one turn, all sides together.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnOrders {
    pub units: BTreeMap<UnitId, UnitOrders>,
}

impl TurnOrders {
    /// Add one side's orders (unit ids are unique across sides).
    pub fn merge(&mut self, other: TurnOrders) {
        self.units.extend(other.units);
    }
}

/// One unit's orders for the turn. A unit with no entry stands fast.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UnitOrders {
    /// The function performed in phase 1, if any.
    pub phase1: Option<Function>,
    /// The function performed in phase 2, if any.
    pub phase2: Option<Function>,
    /// "evade if charged": light infantry's conditional order (§6).
    pub evade_if_charged: bool,
    /// Archery needs no order; this only restrains or directs it.
    pub fire: FireOrder,
    /// "fire in phase 2": the turn's volley is kept for the end of this
    /// phase (§6); `None` shoots at the first chance.
    #[serde(default)]
    pub volley_phase: Option<Phase>,
    /// Leaders, heroes and commanders.
    pub leader: Option<LeaderOrder>,
    /// Leaders: the standing order to stay with (true) or leave (false)
    /// their unit should it rout (§9); it holds until changed.
    #[serde(default)]
    pub stay_with_rout: Option<bool>,
    /// Wizards: spells written this turn (they take effect next turn).
    pub spells: Vec<SpellOrder>,
    /// The set-up turn only: where the unit is placed.
    pub deploy: Option<Deployment>,
    /// A unit in melee: how it changes the figures it fights with this turn
    /// (§4). `None`: the umpire's default — expand by the class's whole
    /// rate and lap around the enemy's ends.
    #[serde(default)]
    pub melee: Option<MeleeOrders>,
}

/// "expand 4", "contract 2", "lap around": a unit in melee says how it
/// changes the figures it fights with this turn (§4 "all expending and
/// contracting of formations in melee is limited to ... a set number of
/// figures per turn"). A unit that writes any of them does only what it
/// writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeleeOrders {
    /// Figures to bring into the melee this turn (at most the class's rate).
    pub expand: u32,
    /// Figures to take out of it this turn (at most the class's rate).
    pub contract: u32,
    /// Lap around the enemy's ends (from the second round).
    pub lap: bool,
}

/// "deploy at (30, 6) facing 0 in line 3 ranks": placing a unit in the
/// set-up turn (table turn 0) where a scenario asks for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deployment {
    /// Centre of the front edge.
    pub at: DVec2,
    /// Compass bearing; `None` keeps the scenario's facing.
    pub facing: Option<f64>,
    /// `None` keeps the scenario's formation.
    pub formation: Option<FormationChange>,
}

impl UnitOrders {
    pub fn function(&self, phase: Phase) -> Option<&Function> {
        match phase {
            Phase::One => self.phase1.as_ref(),
            Phase::Two => self.phase2.as_ref(),
        }
    }
}

/// One of the three functions of §2 (or a charge, which is a move).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Function {
    /// "move 6", "move full", "wheel left 30 then move 6", "forced march".
    Move(Move),
    /// "face right 90", "face about", "face 270", "face Black Dragons".
    Face(FaceChange),
    /// "form line 3 ranks", "form column 4 wide", "form road column", "form ring".
    Formation(FormationChange),
    /// Cavalry only: "face about and form column 3 wide" as one function.
    FaceAndFormation(FaceChange, FormationChange),
    /// "charge Nemedian Knights", "charge 90", "charge Knights with breakthrough".
    Charge(Charge),
    /// "hold": the unit stands and does nothing this phase.
    Hold,
    /// "break off": medium cavalry's split move (§3). In phase 2 after a
    /// phase-1 charge it is made after the melee round; in phase 1 (melee
    /// begun in phase 2 of last turn) it is made at once. Either way: a free
    /// turn-about, then away with what is left of the full allowance.
    BreakOff,
}

/// A move order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Move {
    /// A wheel made at the start of the move (uses up to half the move).
    pub wheel: Option<Wheel>,
    pub direction: Direction,
    pub distance: Distance,
    /// Forced march (§3): road column, never within 24" of the enemy.
    pub forced_march: bool,
    /// Move along the road (road column on a road).
    pub along_road: bool,
}

/// How far.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Distance {
    /// The full allowance.
    Full,
    Inches(f64),
}

/// Which way a move goes, relative to the unit's facing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Direction {
    Forward,
    /// Straight back without changing face (foot: 2 inches).
    Back,
    /// Obliquely, up to 45 degrees either side of straight ahead.
    Oblique {
        hand: Hand,
        degrees: f64,
    },
    /// Toward a point or unit (the engine wheels/obliques as allowed).
    Toward(Target),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Hand {
    Left,
    Right,
}

/// A wheel: one end moves farther than the other.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Wheel {
    pub hand: Hand,
    pub angle: WheelAngle,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WheelAngle {
    Degrees(f64),
    /// "wheel left to face Black Dragons".
    ToFace(Target),
}

/// Something on the table to aim at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Target {
    Unit(UnitId),
    Point(DVec2),
}

/// A change of facing about the centre of the front rank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FaceChange {
    Turn {
        hand: Hand,
        degrees: f64,
    },
    About,
    /// To a compass bearing in degrees.
    Bearing(f64),
    ToFace(Target),
}

/// A change of formation about the centre of the front rank.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormationChange {
    pub formation: Formation,
    /// Line and ring: ranks deep, if written.
    pub ranks: Option<u32>,
    /// Column and road column: figures wide, if written.
    pub files: Option<u32>,
}

/// A charge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Charge {
    pub target: ChargeTarget,
    /// "sweep right 30 then charge …": the wheel the charge begins with, in
    /// degrees (positive to the right); `None` lets the umpire choose it.
    #[serde(default)]
    pub sweep: Option<f64>,
    /// "with breakthrough" (heavy cavalry; medium may write it).
    pub breakthrough: bool,
    /// Medium cavalry split move: break off after one round of melee.
    pub break_off: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ChargeTarget {
    Unit(UnitId),
    /// A compass bearing in degrees.
    Bearing(f64),
    /// Straight ahead.
    Forward,
}

/// Restraint or direction of archery (§6 needs no order to fire).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub enum FireOrder {
    #[default]
    AtWill,
    Hold,
    /// Shoot at this unit when it is a legal target.
    Prefer(UnitId),
}

/// Orders for leaders, heroes and commanders (§9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum LeaderOrder {
    Join(UnitId),
    Leave,
    MoveTo(DVec2),
}

/// A spell written this turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpellOrder {
    pub spell: Spell,
    pub target: SpellTarget,
}

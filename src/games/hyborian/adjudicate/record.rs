//! What happened to each unit this turn, for the steps that come after
//! movement: fire needs distance moved, changes of face or formation,
//! charges and the paths units took (pass-through fire); melee needs who
//! touched whom, on which face, and whether it was a charge.

use crate::games::hyborian::rules::Phase;
use crate::games::hyborian::table::UnitId;
use crate::geometry::Face;
use glam::DVec2;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Every unit's record for one turn, by id.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TurnRecord {
    pub units: BTreeMap<UnitId, UnitRecord>,
}

impl TurnRecord {
    /// The record of a unit (created empty on first use).
    pub fn unit_mut(&mut self, id: &str) -> &mut UnitRecord {
        self.units.entry(id.to_string()).or_default()
    }

    /// The record of a unit, if anything happened to it.
    pub fn unit(&self, id: &str) -> Option<&UnitRecord> {
        self.units.get(id)
    }
}

/// One unit's turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct UnitRecord {
    pub phase1: PhaseRecord,
    pub phase2: PhaseRecord,
    /// Contacts with enemy units, in the order they happened.
    pub contacts: Vec<Contact>,
    /// Made contact with a charge this turn (the case format's
    /// `charge_contact`); the charge bonus may still be denied by the melee
    /// rules (depth of infantry, terrain).
    pub charge_contact: bool,
    /// Earned a charge bonus in a melee round this turn (§4; the case
    /// format's `charged`).
    pub charge_bonus: bool,
    /// Shot at the end of this phase (§6: one volley a turn by default;
    /// −1 in melee after firing).
    pub fired: Option<Phase>,
    /// How this unit's melee round went (for the morale step).
    pub melee: Option<MeleeResult>,
    /// Morale tests other steps owe this unit (a spell cast at or near it,
    /// infantry broken through…): the morale step takes them at its next
    /// test point, with their modifiers, in the order they were called.
    pub morale_calls: Vec<MoraleCall>,
}

/// A morale test (or a modifier to one) that a step other than the morale
/// step found due: the shared hook between magic, melee and morale.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoraleCall {
    pub cause: MoraleCause,
    /// Percentage points added to the unit's chance (−10 → −10%).
    pub modifier: i32,
}

/// Why a test was called (the report names it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum MoraleCause {
    /// A spell cast at this unit or within 6 inches of it (§10).
    Magic { caster: UnitId, spell: String },
    /// Heavy cavalry broke through this infantry (§4).
    BrokenThrough { by: UnitId },
    /// Trampled by a chariot or mammoth of its own side (§5).
    Trampled { by: UnitId },
}

/// Winner and loser of a melee round (§4): more casualties inflicted than
/// suffered wins, fewer loses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeleeResult {
    Won,
    Lost,
    Drawn,
}

impl UnitRecord {
    pub fn phase(&self, p: Phase) -> &PhaseRecord {
        match p {
            Phase::One => &self.phase1,
            Phase::Two => &self.phase2,
        }
    }

    pub fn phase_mut(&mut self, p: Phase) -> &mut PhaseRecord {
        match p {
            Phase::One => &mut self.phase1,
            Phase::Two => &mut self.phase2,
        }
    }

    /// Moved or changed face/formation in either phase (the firer's −1, §6).
    pub fn moved_this_turn(&self) -> bool {
        [&self.phase1, &self.phase2]
            .iter()
            .any(|p| p.moved || p.changed_face || p.changed_formation)
    }
}

/// One unit's phase.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PhaseRecord {
    /// Inches of movement made (wheels counted on the outer flank, as the
    /// rules count them; a change of face or formation counts 0 here).
    pub distance: f64,
    /// Moved (advanced, fell back, wheeled, charged or evaded).
    pub moved: bool,
    pub changed_face: bool,
    pub changed_formation: bool,
    /// Moved as a charge this phase.
    pub charging: bool,
    /// Terrain areas (indices into `Table::terrain`) it charged out of from
    /// their edge this phase: they do not deny its charge bonus (§7).
    pub charged_out_of: Vec<usize>,
    /// Evaded a charge this phase (§6: cannot fire this turn).
    pub evaded: bool,
    /// The front centre along the way, with the clock reading, from the
    /// start to the end of the phase (for pass-through fire).
    pub path: Vec<PathPoint>,
    /// Enemy missile units whose maximum range this unit came within while
    /// it moved this phase (candidates for pass-through fire; arcs, sight
    /// and the archers' own movement are for the fire step to judge).
    pub came_in_range_of: BTreeMap<UnitId, InRange>,
    /// Friends this unit passed through (evading).
    pub passed_through: BTreeSet<UnitId>,
    /// Friends that passed through this unit (it cannot charge this phase; a
    /// light unit cannot fire).
    pub passed_through_by: BTreeSet<UnitId>,
}

/// A point of a unit's path.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PathPoint {
    /// Clock reading (inches on the shared clock, or the fraction of the
    /// phase on the proportional clock).
    pub clock: f64,
    pub front: DVec2,
    pub facing: f64,
}

/// When a moving unit first came within an archer unit's range, how close
/// it came, and how far it stood when the phase began.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct InRange {
    /// Clock reading when it first came within range.
    pub clock: f64,
    /// Closest it came (inches, edge to edge) while moving.
    pub closest: f64,
    /// Distance (edge to edge) when the phase began, before anyone moved.
    /// A unit that never came closer than this was moving away (§6).
    pub from: f64,
}

impl InRange {
    /// It moved away from the archers: it never came closer to them than
    /// it stood at the start of the phase (§6 "moving away from the archer
    /// unit").
    pub fn moving_away(&self) -> bool {
        self.closest >= self.from - 1e-6
    }
}

/// A contact with an enemy unit.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Contact {
    pub phase: Phase,
    /// The enemy touched.
    pub other: UnitId,
    /// Which face of `other` this unit touched.
    pub face: Face,
    /// This unit made the contact (closed on the other).
    pub striker: bool,
    /// This unit was charging when contact was made.
    pub charging: bool,
    pub clock: f64,
}

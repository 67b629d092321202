//! A Hyborean unit's [`Pose`] on the table (front centre, facing,
//! formation, files × ranks) and the rectangle it covers, built on the
//! shared [`crate::geometry`]. What only the Hyborean Age's formations
//! decide lives here: a ring faces outward all round.
//!
//! ```
//! use umpire::games::hyborian::rules::{Formation, UnitType};
//! use umpire::games::hyborian::table::geometry::Pose;
//! use umpire::geometry::{Edge, Face};
//! use glam::DVec2;
//! let ring = Pose { front: DVec2::ZERO, facing: 0.0, formation: Formation::Ring, files: 16, ranks: 2 };
//! let f = ring.footprint(UnitType::MediumInfantry);
//! assert!((f.half_width - f.half_depth).abs() < 1e-12, "a ring is a square");
//! assert_eq!(Formation::Ring.face_at(Edge::Rear), Face::Front);
//! ```

use crate::games::hyborian::rules::bases::{base, models};
use crate::games::hyborian::rules::{Formation, UnitType};
use crate::games::hyborian::table::Unit;
use crate::geometry::{
    bearing_of, normalize_bearing, rotate_cw, turn_between, Edge, Face, Footprint, EPSILON,
};
use glam::DVec2;
use serde::{Deserialize, Serialize};

/// Within this distance (inches) two units, a figure and a unit, or a
/// leader and an enemy are in base contact: one contact distance for
/// melee, leaders and the face a charger struck.
pub const CONTACT: f64 = 0.05;

/// Where a unit stands and how it is drawn up.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Pose {
    /// Centre of the front edge.
    pub front: DVec2,
    /// Compass bearing the unit faces.
    pub facing: f64,
    pub formation: Formation,
    pub files: u32,
    pub ranks: u32,
}

impl Pose {
    /// The rectangle this pose covers for a unit of `kind`.
    pub fn footprint(&self, kind: UnitType) -> Footprint {
        let b = base(kind);
        let (width, depth) = match self.formation {
            // A ring faces outward on all four sides: a square whose outer
            // edge holds the front rank, deep enough for its ranks.
            Formation::Ring => {
                let side = (self.files as f64 * b.frontage / 4.0)
                    .max(2.0 * self.ranks as f64 * b.rank_depth);
                (side, side)
            }
            _ => (
                self.files as f64 * b.frontage,
                self.ranks as f64 * b.rank_depth,
            ),
        };
        Footprint::behind(self.front, self.facing, width, depth)
    }

    /// The pose after wheeling `turn` degrees (positive right) about the
    /// inner front corner (§3), the outer flank travelling frontage ×
    /// angle: the same arithmetic as the engine's wheel leg, step for
    /// step, so that a wheel checked here is the wheel the engine makes.
    pub fn wheeled(&self, kind: UnitType, turn: f64) -> Pose {
        let fp = self.footprint(kind);
        let frontage = 2.0 * fp.half_width;
        let side = if turn >= 0.0 { fp.right() } else { -fp.right() };
        let pivot = self.front + side * fp.half_width;
        let travelled = frontage * turn.abs().to_radians();
        let phi = if frontage > 0.0 {
            (travelled / frontage).to_degrees() * turn.signum()
        } else {
            0.0
        };
        Pose {
            front: pivot + rotate_cw(self.front - pivot, phi),
            facing: normalize_bearing(self.facing + phi),
            ..*self
        }
    }

    /// The wheel (degrees, positive right) that points the unit at `aim`,
    /// found by a few fixed-point steps (the pivot moves the front centre).
    pub fn wheel_toward(&self, kind: UnitType, aim: DVec2) -> f64 {
        let mut turn = turn_between(self.facing, bearing_of(aim - self.front));
        for _ in 0..4 {
            let p = self.wheeled(kind, turn);
            if p.front.distance(aim) < EPSILON {
                break;
            }
            turn += turn_between(p.facing, bearing_of(aim - p.front));
            turn = turn.clamp(-180.0, 180.0);
        }
        turn
    }
}

/// Files and ranks that `figures` take in a formation, given one of them
/// (chariots and mammoths are counted in models).
pub fn files_and_ranks(
    kind: UnitType,
    figures: u32,
    files: Option<u32>,
    ranks: Option<u32>,
) -> (u32, u32) {
    let n = models(kind, figures).max(1);
    match (files, ranks) {
        (Some(f), _) => {
            let f = f.clamp(1, n);
            (f, n.div_ceil(f))
        }
        (None, Some(r)) => {
            let r = r.clamp(1, n);
            (n.div_ceil(r), r)
        }
        (None, None) => (n, 1),
    }
}

impl Unit {
    /// The unit's current pose.
    pub fn pose(&self) -> Pose {
        Pose {
            front: self.front,
            facing: self.facing,
            formation: self.formation,
            files: self.files,
            ranks: self.ranks,
        }
    }

    /// Move the unit to a pose.
    pub fn set_pose(&mut self, p: Pose) {
        self.front = p.front;
        self.facing = normalize_bearing(p.facing);
        self.formation = p.formation;
        self.files = p.files;
        self.ranks = p.ranks;
    }

    /// The rectangle the unit covers now.
    pub fn footprint(&self) -> Footprint {
        self.pose().footprint(self.kind)
    }
}

impl Formation {
    /// The face an edge of a unit in this formation belongs to: a ring
    /// has fronts all round (§4).
    pub fn face_at(self, edge: Edge) -> Face {
        match self {
            Formation::Ring => Face::Front,
            _ => edge.face(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_fronts_all_round_and_a_line_has_flanks() {
        assert_eq!(Formation::Ring.face_at(Edge::Rear), Face::Front);
        assert_eq!(Formation::Line.face_at(Edge::Right), Face::Flank);
        assert_eq!(Formation::Column.face_at(Edge::Rear), Face::Rear);
    }

    #[test]
    fn ring_is_a_square() {
        let p = Pose {
            front: DVec2::ZERO,
            facing: 0.0,
            formation: Formation::Ring,
            files: 16,
            ranks: 2,
        };
        let f = p.footprint(UnitType::MediumInfantry);
        assert!((f.half_width - f.half_depth).abs() < 1e-12);
        assert!(f.half_width >= 2.0);
    }

    #[test]
    fn files_and_ranks_derivation() {
        assert_eq!(
            files_and_ranks(UnitType::MediumInfantry, 24, None, Some(3)),
            (8, 3)
        );
        assert_eq!(
            files_and_ranks(UnitType::MediumInfantry, 25, None, Some(3)),
            (9, 3)
        );
        assert_eq!(
            files_and_ranks(UnitType::MediumInfantry, 24, Some(4), None),
            (4, 6)
        );
        assert_eq!(
            files_and_ranks(UnitType::WoollyMammoth, 12, None, Some(1)),
            (3, 1)
        );
    }
}

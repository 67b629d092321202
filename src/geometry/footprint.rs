//! A rectangle on the table (a unit's [`Footprint`]), its four [`Edge`]s
//! and the [`Face`] something touches: overlap, distance, containment and
//! the arcs that decide which edge was struck.

use super::{heading, lines::point_segment_distance, TOUCH};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which face of a unit something touches (§4 flank and rear; the arcs are
/// ruled in docs/rulings/engine.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Face {
    Front,
    Flank,
    Rear,
}

impl Face {
    pub fn code(self) -> &'static str {
        match self {
            Face::Front => "front",
            Face::Flank => "flank",
            Face::Rear => "rear",
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One of the four edges of a footprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edge {
    Front,
    Right,
    Rear,
    Left,
}

impl Edge {
    /// The face an edge belongs to on a plain rectangle (a rule set whose
    /// formations face all round, as the Hyborean ring, says so itself).
    pub fn face(self) -> Face {
        match self {
            Edge::Front => Face::Front,
            Edge::Rear => Face::Rear,
            Edge::Left | Edge::Right => Face::Flank,
        }
    }
}

/// A unit's rectangle on the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Footprint {
    pub centre: DVec2,
    /// Unit vector the unit faces.
    pub ahead: DVec2,
    pub half_width: f64,
    pub half_depth: f64,
}

impl Footprint {
    /// The rectangle of `width` × `depth` whose front edge is centred on
    /// `front`, facing `bearing`.
    pub fn behind(front: DVec2, bearing: f64, width: f64, depth: f64) -> Footprint {
        let ahead = heading(bearing);
        Footprint {
            centre: front - ahead * (depth / 2.0),
            ahead,
            half_width: width / 2.0,
            half_depth: depth / 2.0,
        }
    }

    /// Unit vector to the unit's right.
    pub fn right(&self) -> DVec2 {
        DVec2::new(self.ahead.y, -self.ahead.x)
    }

    /// Centre of the front edge.
    pub fn front(&self) -> DVec2 {
        self.centre + self.ahead * self.half_depth
    }

    /// Corners: front-left, front-right, rear-right, rear-left.
    pub fn corners(&self) -> [DVec2; 4] {
        let a = self.ahead * self.half_depth;
        let r = self.right() * self.half_width;
        [
            self.centre + a - r,
            self.centre + a + r,
            self.centre - a + r,
            self.centre - a - r,
        ]
    }

    /// Radius of the circle about the centre that holds the rectangle.
    pub fn radius(&self) -> f64 {
        libm::hypot(self.half_width, self.half_depth)
    }

    /// The two ends of an edge, going round the unit clockwise (front-left
    /// to front-right, and so on): right to left as seen from outside.
    pub fn edge(&self, e: Edge) -> (DVec2, DVec2) {
        let [fl, fr, rr, rl] = self.corners();
        match e {
            Edge::Front => (fl, fr),
            Edge::Right => (fr, rr),
            Edge::Rear => (rr, rl),
            Edge::Left => (rl, fl),
        }
    }

    /// Outward unit normal of an edge.
    pub fn normal(&self, e: Edge) -> DVec2 {
        match e {
            Edge::Front => self.ahead,
            Edge::Right => self.right(),
            Edge::Rear => -self.ahead,
            Edge::Left => -self.right(),
        }
    }

    fn extent(&self, axis: DVec2) -> f64 {
        self.half_width * self.right().dot(axis).abs()
            + self.half_depth * self.ahead.dot(axis).abs()
    }

    /// How deep the two rectangles overlap along their best separating
    /// axis (negative: the gap between them along that axis).
    pub fn penetration(&self, other: &Footprint) -> f64 {
        let d = other.centre - self.centre;
        [self.ahead, self.right(), other.ahead, other.right()]
            .into_iter()
            .map(|axis| self.extent(axis) + other.extent(axis) - d.dot(axis).abs())
            .fold(f64::INFINITY, f64::min)
    }

    /// True when the rectangles share area (touching is not overlapping).
    pub fn overlaps(&self, other: &Footprint) -> bool {
        let reach = self.radius() + other.radius();
        self.centre.distance_squared(other.centre) < reach * reach
            && self.penetration(other) > TOUCH
    }

    /// Whether a point lies strictly inside the rectangle.
    pub fn contains(&self, p: DVec2) -> bool {
        let d = p - self.centre;
        d.dot(self.right()).abs() < self.half_width && d.dot(self.ahead).abs() < self.half_depth
    }

    /// The point of the rectangle (edge or inside) nearest to `p`.
    pub fn nearest_point(&self, p: DVec2) -> DVec2 {
        let d = p - self.centre;
        let x = d.dot(self.right()).clamp(-self.half_width, self.half_width);
        let y = d.dot(self.ahead).clamp(-self.half_depth, self.half_depth);
        self.centre + self.right() * x + self.ahead * y
    }

    /// Whether the segment `a`–`b` passes through the rectangle's inside
    /// (grazing an edge or a corner does not count).
    pub fn crosses_segment(&self, a: DVec2, b: DVec2) -> bool {
        // Clip the segment against the rectangle's slabs in its own frame.
        let (pa, pb) = (a - self.centre, b - self.centre);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (axis, half) in [
            (self.right(), self.half_width),
            (self.ahead, self.half_depth),
        ] {
            let (s, e) = (pa.dot(axis), pb.dot(axis));
            let half = half - TOUCH;
            let dir = e - s;
            if dir.abs() < 1e-12 {
                if s.abs() >= half {
                    return false;
                }
                continue;
            }
            let (mut lo, mut hi) = ((-half - s) / dir, (half - s) / dir);
            if lo > hi {
                std::mem::swap(&mut lo, &mut hi);
            }
            t0 = t0.max(lo);
            t1 = t1.min(hi);
            if t0 >= t1 {
                return false;
            }
        }
        true
    }

    /// Shortest distance between the two rectangles (0 if they meet).
    pub fn distance(&self, other: &Footprint) -> f64 {
        if self.penetration(other) >= 0.0 {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for (a, b) in [(self, other), (other, self)] {
            for p in a.corners() {
                for e in [Edge::Front, Edge::Right, Edge::Rear, Edge::Left] {
                    let (s, t) = b.edge(e);
                    best = best.min(point_segment_distance(p, s, t));
                }
            }
        }
        best
    }

    /// Which edge's arc a point lies in. Outside the rectangle the arcs are
    /// bounded by lines at 45° from the corners; inside, the nearest edge.
    pub fn arc_of(&self, p: DVec2) -> Edge {
        self.arc_of_degrees(p, 45.0)
    }

    /// [`Footprint::arc_of`] with the lines from the corners at `degrees`
    /// from straight ahead (or back): each rule set says its own (the
    /// Hyborean Age's 30° or 45°; 90° makes the front arc a half-plane).
    pub fn arc_of_degrees(&self, p: DVec2, degrees: f64) -> Edge {
        let slope = libm::tan(degrees.clamp(0.0, 90.0).to_radians());
        let d = p - self.centre;
        let x = d.dot(self.right());
        let ahead = d.dot(self.ahead) - self.half_depth; // > 0: ahead of the front edge
        let behind = -d.dot(self.ahead) - self.half_depth; // > 0: behind the rear edge
        let beside = x.abs() - self.half_width; // > 0: beyond a flank
        let flank = if x >= 0.0 { Edge::Right } else { Edge::Left };
        if ahead <= 0.0 && behind <= 0.0 && beside <= 0.0 {
            // inside: nearest edge
            let mut best = (-ahead, Edge::Front);
            for cand in [(-behind, Edge::Rear), (-beside, flank)] {
                if cand.0 < best.0 {
                    best = cand;
                }
            }
            return best.1;
        }
        if ahead >= 0.0 && beside <= ahead * slope {
            Edge::Front
        } else if behind >= 0.0 && beside <= behind * slope {
            Edge::Rear
        } else {
            flank
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, facing: f64, w: f64, d: f64) -> Footprint {
        Footprint::behind(DVec2::new(x, y), facing, w, d)
    }

    #[test]
    fn overlap_touch_and_rotation() {
        let a = rect(0.0, 0.0, 0.0, 4.0, 2.0);
        assert!(
            !a.overlaps(&rect(0.0, 2.0, 0.0, 4.0, 2.0)),
            "touching front to rear"
        );
        assert!(a.overlaps(&rect(0.0, 1.9, 0.0, 4.0, 2.0)));
        assert!(!a.overlaps(&rect(4.0, 0.0, 0.0, 4.0, 2.0)), "side by side");
        // A diamond whose corner just misses the corner of `a`.
        let diamond = rect(3.5, 1.5, 45.0, 1.0, 1.0);
        assert_eq!(a.overlaps(&diamond), a.penetration(&diamond) > TOUCH);
        assert!(a.contains(DVec2::new(1.9, -1.9)));
        assert!(!a.contains(DVec2::new(2.1, -1.0)));
    }

    #[test]
    fn distance_between_rectangles() {
        let a = rect(0.0, 0.0, 0.0, 4.0, 2.0);
        let b = rect(10.0, 0.0, 90.0, 2.0, 2.0); // front centre (10,0), body to the west: x in [8,10]
        assert!((a.distance(&b) - 6.0).abs() < 1e-9);
        assert_eq!(a.distance(&rect(1.0, 1.0, 0.0, 4.0, 2.0)), 0.0);
    }

    #[test]
    fn narrower_arcs_widen_the_flanks() {
        let a = rect(0.0, 0.0, 0.0, 4.0, 2.0); // x in [-2,2], y in [-2,0]
                                               // 3 ahead of the front, 2.2 beyond the right flank: 36° from straight ahead.
        let p = DVec2::new(4.2, 3.0);
        assert_eq!(a.arc_of_degrees(p, 45.0), Edge::Front);
        assert_eq!(a.arc_of_degrees(p, 30.0), Edge::Right);
        let q = DVec2::new(3.5, 3.0); // 27°: front either way
        assert_eq!(a.arc_of_degrees(q, 30.0), Edge::Front);
        let r = DVec2::new(-4.2, -5.0); // 3 behind the rear, 2.2 beyond the left flank
        assert_eq!(a.arc_of_degrees(r, 45.0), Edge::Rear);
        assert_eq!(a.arc_of_degrees(r, 30.0), Edge::Left);
    }

    #[test]
    fn arcs_cut_at_45_degrees_from_the_corners() {
        let a = rect(0.0, 0.0, 0.0, 4.0, 2.0); // x in [-2,2], y in [-2,0]
        assert_eq!(a.arc_of(DVec2::new(0.0, 5.0)), Edge::Front);
        assert_eq!(a.arc_of(DVec2::new(4.9, 3.0)), Edge::Front);
        assert_eq!(a.arc_of(DVec2::new(5.1, 3.0)), Edge::Right);
        assert_eq!(a.arc_of(DVec2::new(-3.0, -1.0)), Edge::Left);
        assert_eq!(a.arc_of(DVec2::new(0.0, -3.0)), Edge::Rear);
        assert_eq!(a.arc_of(DVec2::new(3.1, -3.0)), Edge::Right);
        assert_eq!(
            a.arc_of(DVec2::new(0.0, -0.1)),
            Edge::Front,
            "inside near the front"
        );
        assert_eq!(Edge::Right.face(), Face::Flank);
        assert_eq!(Edge::Rear.face(), Face::Rear);
    }

    #[test]
    fn arcs_at_any_angle_and_segments_through_rectangles() {
        let a = rect(0.0, 0.0, 0.0, 4.0, 2.0); // x in [-2,2], y in [-2,0]
        let p = DVec2::new(4.2, 3.0);
        assert_eq!(a.arc_of_degrees(p, 45.0), a.arc_of_degrees(p, 45.0));
        assert_eq!(
            a.arc_of_degrees(DVec2::new(10.0, 0.5), 90.0),
            Edge::Front,
            "90°: everything ahead of the front line"
        );
        assert_eq!(a.arc_of_degrees(DVec2::new(10.0, 0.5), 45.0), Edge::Right);
        assert!(a.crosses_segment(DVec2::new(-5.0, -1.0), DVec2::new(5.0, -1.0)));
        assert!(
            !a.crosses_segment(DVec2::new(-5.0, 0.0), DVec2::new(5.0, 0.0)),
            "along the front edge grazes"
        );
        assert!(!a.crosses_segment(DVec2::new(3.0, 3.0), DVec2::new(5.0, -5.0)));
        assert!(
            a.crosses_segment(DVec2::new(0.0, -1.0), DVec2::new(0.5, -1.5)),
            "wholly inside"
        );
        assert_eq!(a.nearest_point(DVec2::new(5.0, 5.0)), DVec2::new(2.0, 0.0));
        assert_eq!(
            a.nearest_point(DVec2::new(0.5, -1.0)),
            DVec2::new(0.5, -1.0)
        );
    }
}

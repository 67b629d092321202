//! Relative orders turned into places: `advance N`, `wheel left|right N`,
//! `turn left|right|about` and `follow UNIT`, for one unit or a group. Each
//! gives the place the unit ends at; the checker then checks and plans it
//! as an ordinary move to that place, so the engine plays it unchanged.
//!
//! A wheel pivots on the front corner it turns towards (ruling FA-59): a
//! right wheel keeps the front-right corner still and swings the left
//! forward. A group wheels as one body on the outer front corner of its
//! line.

use crate::games::fr_ancients::table::{Place, Unit};
use crate::geometry::{heading, normalize_bearing, rotate_cw};
use glam::DVec2;

/// `advance N`: straight ahead by `distance` (table units), facing kept.
pub fn advance(at: Place, distance: f64) -> Place {
    Place {
        front: at.front + heading(at.facing) * distance,
        facing: at.facing,
    }
}

/// Turn `at` by `degrees` (clockwise positive) about `pivot`.
fn about(at: Place, pivot: DVec2, degrees: f64) -> Place {
    Place {
        front: pivot + rotate_cw(at.front - pivot, degrees),
        facing: normalize_bearing(at.facing + degrees),
    }
}

/// The front corner a unit (or a group's line) wheels on: the right one
/// for a right wheel.
fn corner(u: &Unit, right: bool) -> DVec2 {
    let [left, rightc, ..] = u.footprint().corners();
    if right {
        rightc
    } else {
        left
    }
}

/// The signed turn of a wheel: clockwise for a right wheel.
pub fn signed(right: bool, degrees: f64) -> f64 {
    if right {
        degrees
    } else {
        -degrees
    }
}

/// `wheel right|left N` of one unit.
pub fn wheel(u: &Unit, right: bool, degrees: f64) -> Place {
    about(u.place(), corner(u, right), signed(right, degrees))
}

/// The places of a group's units after a wheel as one body, pivoting on
/// the outer front corner of the line: the front corner furthest to the
/// side it turns towards, as the first unit faces.
pub fn group_wheel(units: &[Unit], right: bool, degrees: f64) -> Vec<Place> {
    let Some(first) = units.first() else {
        return Vec::new();
    };
    let side = first.footprint().right() * if right { 1.0 } else { -1.0 };
    let pivot = units
        .iter()
        .map(|u| corner(u, right))
        .fold(corner(first, right), |best, c| {
            if c.dot(side) > best.dot(side) {
                c
            } else {
                best
            }
        });
    units
        .iter()
        .map(|u| about(u.place(), pivot, signed(right, degrees)))
        .collect()
}

/// `follow LEADER`: the follower keeps its place relative to the leader,
/// whose order takes it from `from` to `to`.
pub fn follow(follower: Place, from: Place, to: Place) -> Place {
    let turn = to.facing - from.facing;
    let offset = rotate_cw(follower.front - from.front, turn);
    Place {
        front: to.front + offset,
        facing: normalize_bearing(follower.facing + turn),
    }
}

/// How far ahead of `from`, along its facing, a place stands: the order
/// in which a group or a follower moves (the foremost first, so no unit
/// steps into one that has not yet moved on).
pub fn ahead_of(from: Place, p: Place) -> f64 {
    (p.front - from.front).dot(heading(from.facing))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fr_ancients::troops::TroopType;

    fn unit(id: &str, x: f64, y: f64, facing: f64) -> Unit {
        Unit::new(
            id,
            "rome",
            id,
            TroopType::HandWeapons,
            [1.5, 0.75],
            4,
            1,
            Place::new(x, y, facing),
        )
    }

    fn near(a: Place, x: f64, y: f64, facing: f64) {
        assert!(
            (a.front - DVec2::new(x, y)).length() < 1e-9 && (a.facing - facing).abs() < 1e-9,
            "{} is not ({x}, {y}) facing {facing}",
            a.show()
        );
    }

    #[test]
    fn an_advance_goes_straight_ahead() {
        near(advance(Place::new(30.0, 20.0, 0.0), 6.0), 30.0, 26.0, 0.0);
        near(advance(Place::new(30.0, 20.0, 90.0), 6.0), 36.0, 20.0, 90.0);
    }

    #[test]
    fn a_wheel_pivots_on_the_front_corner_it_turns_towards() {
        // 6" wide facing north at (30, 20): the right corner is (33, 20).
        let u = unit("a", 30.0, 20.0, 0.0);
        near(wheel(&u, true, 90.0), 33.0, 23.0, 90.0);
        near(wheel(&u, false, 90.0), 27.0, 23.0, 270.0);
        // The pivot does not move.
        let w = wheel(&u, true, 45.0);
        let f = u.footprint_at(w).corners();
        assert!((f[1] - DVec2::new(33.0, 20.0)).length() < 1e-9);
    }

    #[test]
    fn a_group_wheels_as_one_body_on_its_outer_corner() {
        let line = [unit("a", 30.0, 20.0, 0.0), unit("b", 36.5, 20.0, 0.0)];
        let ps = group_wheel(&line, true, 90.0);
        // The pivot is b's front-right corner (39.5, 20).
        near(ps[1], 39.5, 23.0, 90.0);
        near(ps[0], 39.5, 29.5, 90.0);
    }

    #[test]
    fn a_follower_keeps_its_place_behind_its_leader() {
        let from = Place::new(30.0, 20.0, 0.0);
        let behind = Place::new(30.0, 18.0, 0.0);
        near(follow(behind, from, advance(from, 6.0)), 30.0, 24.0, 0.0);
        let turned = Place::new(30.0, 20.0, 90.0);
        near(follow(behind, from, turned), 28.0, 20.0, 90.0);
        assert!(ahead_of(from, behind) < 0.0);
    }
}

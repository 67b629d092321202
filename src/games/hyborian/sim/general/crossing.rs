//! The way over deep water: where a river stands between a unit and the
//! enemy it marches on, the general sends it by a ford or a bridge
//! (rulings T-1, T-2) — to the near end of the crossing, straight over,
//! and out the far side — instead of marching it to the bank to stand
//! there.
//!
//! A crossing is a ford or bridge that lies over a river or stream. Its
//! way over is a straight line through its middle along which a strip as
//! wide as the unit touches no water the unit may not enter; of the
//! bearings that do, the general takes the one nearest the way it is
//! going. The water is read as rulings T-1 set it by default (a river
//! impassable, a stream fordable): the general sees the table, not the
//! game's options, and a club's fordable river only makes its detour
//! unneeded, never illegal.

use super::view::View;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Terrain, TerrainKind, Unit};
use crate::geometry::{bearing_of, heading, turn_between, Footprint};
use glam::DVec2;

/// Bearings tried for the way over a crossing, every this many degrees.
const BEARING_STEP: f64 = 10.0;
/// The near end stands this far outside the crossing (inches), so the
/// unit stands clear of the water when it turns onto the way over.
const CLEARANCE: f64 = 0.5;
/// A unit this close to the near end (inches) goes on over.
const AT_THE_END: f64 = 1.5;
/// The straight way counts as open only when a strip this many inches
/// wider on each side than the unit keeps out of deep water: the wheel
/// that starts a move swings the unit's flanks off the straight line.
const MARGIN: f64 = 1.0;
/// Shooters stop short of water by whole steps of this many inches.
const BANK_STEP: f64 = 0.5;

/// A way over deep water for one unit: the point to stand on before
/// crossing and the point to make for on the far side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Crossing {
    pub near: DVec2,
    pub far: DVec2,
}

impl View<'_> {
    /// Whether the ground holds water a unit may not enter.
    pub fn deep(&self, fp: &Footprint) -> bool {
        let o = GameOptions::default();
        matches!(
            water_under(&self.table.terrain, fp, o.rivers, o.streams),
            Water::Barred(_)
        )
    }

    /// Where water (a river, a stream, a ford) lies on the straight way
    /// from `u` to `t`, `d` inches at most: the inches the unit can go
    /// before it (whole half inches), or `None` when the way is dry or
    /// the unit already stands in water.
    pub fn to_bank(&self, u: &Unit, t: &Unit, d: f64) -> Option<f64> {
        let wet = |fp: &Footprint| {
            self.table
                .terrain
                .iter()
                .any(|w| w.kind.is_watercourse() && w.area_meets(fp))
        };
        let bearing = bearing_of(t.footprint().centre - u.front);
        if wet(&u.footprint()) || !wet(&View::strip(u, bearing, d)) {
            return None;
        }
        let steps = (d / BANK_STEP).floor() as u32;
        let dry = (1..=steps)
            .take_while(|i| !wet(&View::strip(u, bearing, f64::from(*i) * BANK_STEP)))
            .last()
            .unwrap_or(0);
        Some(f64::from(dry) * BANK_STEP)
    }

    /// Where `u` should head for to reach `aim` when deep water bars the
    /// straight way (by [`MARGIN`]): the near end of the best crossing, or its far end
    /// once the way over is open. `None` when the way is open or no
    /// crossing leads over.
    pub fn waypoint(&self, u: &Unit, aim: DVec2) -> Option<DVec2> {
        if !self.table.terrain.iter().any(|t| t.kind.is_watercourse()) {
            return None;
        }
        let way = |to: DVec2| View::strip(u, bearing_of(to - u.front), u.front.distance(to));
        let mut straight = way(aim);
        straight.half_width += MARGIN;
        if !self.deep(&straight) {
            return None;
        }
        let c = self.best_crossing(u, aim)?;
        if !self.deep(&way(c.far)) || u.front.distance(c.near) < AT_THE_END {
            Some(c.far)
        } else {
            Some(c.near)
        }
    }

    /// The crossing that makes the shortest way from `u` to `aim`, its ends
    /// turned so that the near one can be reached without wading.
    fn best_crossing(&self, u: &Unit, aim: DVec2) -> Option<Crossing> {
        let going = bearing_of(aim - u.front);
        self.table
            .terrain
            .iter()
            .filter(|t| matches!(t.kind, TerrainKind::Ford | TerrainKind::Bridge))
            .filter_map(|t| self.way_over(t, u, going))
            .filter_map(|c| {
                let dry = |p: DVec2| {
                    !self.deep(&View::strip(
                        u,
                        bearing_of(p - u.front),
                        u.front.distance(p),
                    ))
                };
                match (dry(c.near), dry(c.far)) {
                    (true, _) => Some(c),
                    (false, true) => Some(Crossing {
                        near: c.far,
                        far: c.near,
                    }),
                    (false, false) => None,
                }
            })
            .min_by(|a, b| {
                let length = |c: &Crossing| u.front.distance(c.near) + c.far.distance(aim);
                length(a).total_cmp(&length(b))
            })
    }

    /// The way over crossing `t` for a unit as wide and deep as `u`, on
    /// the bearing nearest `going` (either way along it), if any: a strip
    /// through the crossing's middle that meets the water but none the
    /// unit may not enter.
    fn way_over(&self, t: &Terrain, u: &Unit, going: f64) -> Option<Crossing> {
        let fp = u.footprint();
        let (width, depth) = (2.0 * fp.half_width, 2.0 * fp.half_depth);
        let (lo, hi) = t.points.iter().fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(*p), hi.max(*p)),
        );
        let middle = (lo + hi) / 2.0;
        let reach = t
            .points
            .iter()
            .map(|p| p.distance(middle))
            .fold(0.0, f64::max)
            + CLEARANCE;
        let steps = (180.0 / BEARING_STEP) as u32;
        (0..steps)
            .map(|i| f64::from(i) * BEARING_STEP)
            .filter(|b| {
                let ahead = heading(*b);
                let strip = Footprint::behind(
                    middle + ahead * (reach + depth),
                    *b,
                    width,
                    2.0 * reach + depth,
                );
                let wet = self
                    .table
                    .terrain
                    .iter()
                    .any(|w| w.kind.is_watercourse() && w.area_meets(&strip));
                wet && !self.deep(&strip)
            })
            .map(|b| {
                let turn = turn_between(going, b);
                if turn.abs() <= 90.0 {
                    (b, turn.abs())
                } else {
                    (b + 180.0, 180.0 - turn.abs())
                }
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(b, _)| Crossing {
                near: middle - heading(b) * reach,
                far: middle + heading(b) * (reach + depth),
            })
    }
}

//! The way over deep water: where a river stands between a unit and the
//! enemy it marches on, the general sends it by a ford or a bridge
//! (rulings T-1, T-2) — to the near end of the crossing, straight over,
//! and out the far side — instead of marching it to the bank to stand
//! there.
//!
//! A crossing is a ford or bridge that lies over a river or stream. Its
//! way over is a straight line through its middle along which a strip as
//! wide as the unit touches no water the unit may not enter; of the
//! bearings that do, the general takes the straightest — the middle of
//! the widest run of them — whatever enemy the unit marches on. Units go
//! over one at a time: foot archers first, to cover the others from the
//! far bank, then the faster ([`View::gives_way`]). The water is read as
//! rulings T-1 set it by default (a river impassable, a stream fordable):
//! the general sees the table, not the game's options, and a club's
//! fordable river only makes its detour unneeded, never illegal.

use super::troops::{role, Role};
use super::view::View;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Status, Terrain, TerrainKind, Unit};
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
/// Two near ends this close (inches) are the same crossing's.
const SAME_END: f64 = 2.0;
/// Shooters stop short of water by whole steps of this many inches.
const BANK_STEP: f64 = 0.5;

/// Where a unit heads on its way over deep water: `to`, and the near end
/// of its crossing while it has still to reach it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Way {
    pub to: DVec2,
    pub near: Option<DVec2>,
}

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
    /// straight way (by [`MARGIN`]), from where it stands or from where a
    /// change of face toward `aim` sets it back to (§2): the near end of
    /// the best crossing, or its far end once the way over is open.
    /// `None` when the way is open or no crossing leads over.
    pub fn waypoint(&self, u: &Unit, aim: DVec2) -> Option<Way> {
        if !self.table.terrain.iter().any(|t| t.kind.is_watercourse()) {
            return None;
        }
        let way = |to: DVec2| View::strip(u, bearing_of(to - u.front), u.front.distance(to));
        let (faced, bearing) = View::faced_toward(u, aim);
        let open = [
            way(aim),
            View::strip_from(u, faced, bearing, faced.distance(aim)),
        ]
        .into_iter()
        .all(|mut straight| {
            straight.half_width += MARGIN;
            !self.deep(&straight)
        });
        if open {
            return None;
        }
        let c = self.best_crossing(u, aim)?;
        if !self.deep(&way(c.far)) || u.front.distance(c.near) < AT_THE_END {
            Some(Way {
                to: c.far,
                near: None,
            })
        } else {
            Some(Way {
                to: c.near,
                near: Some(c.near),
            })
        }
    }

    /// Whether `u`, making for `near`, the near end of a crossing, lets a
    /// friend go over first: one that goes before it — foot archers first,
    /// to cover the crossing with their bows from the far bank, then the
    /// faster (§3 allowances; horse before foot at the same pace) — that
    /// makes for the same end and can be there no more than a turn after
    /// it. Over a ford the slow would hold up everyone behind them.
    pub fn gives_way(&self, u: &Unit, near: DVec2) -> bool {
        let turns = |f: &Unit| f.front.distance(near) / View::move_allowance(f).max(1.0);
        let pace = |f: &Unit| {
            let covers = matches!(role(f), Role::Archers(_));
            (covers, View::move_allowance(f), f.kind.is_mounted())
        };
        let mine = turns(u);
        self.mine.iter().any(|f| {
            f.id != u.id
                && f.status == Status::Ready
                && f.in_melee_with.is_empty()
                && !f.kind.is_single_figure()
                && pace(f) > pace(u)
                && turns(f) <= mine + 1.0
                && self
                    .nearest(f, |_| true)
                    .and_then(|(e, _)| self.waypoint(f, e.footprint().centre))
                    .and_then(|w| w.near)
                    .is_some_and(|n| n.distance(near) <= SAME_END)
        })
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

    /// The way over crossing `t` for a unit as wide and deep as `u`, if
    /// any: a strip through the crossing's middle that meets the water
    /// but none the unit may not enter. Of the bearings that fit, the
    /// general takes the straightest way over — the middle of the widest
    /// run of them — whatever enemy it marches on, so that a unit whose
    /// nearest enemy changes does not shift from one end to another; the
    /// end away from `going` is the near one.
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
        let fits: Vec<bool> = (0..STEPS)
            .map(|i| {
                let b = f64::from(i) * BEARING_STEP;
                let strip = Footprint::behind(
                    middle + heading(b) * (reach + depth),
                    b,
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
            .collect();
        let b = straightest(&fits)?;
        let b = if turn_between(going, b).abs() <= 90.0 {
            b
        } else {
            b + 180.0
        };
        Some(Crossing {
            near: middle - heading(b) * reach,
            far: middle + heading(b) * (reach + depth),
        })
    }
}

/// Bearings of a way over (a line: either way along it), every
/// [`BEARING_STEP`] degrees from 0 to 180.
const STEPS: u32 = (180.0 / BEARING_STEP) as u32;

/// The bearing (0–180) in the middle of the longest run of bearings that
/// fit (`fits[i]`: the bearing `i` steps from 0), the run going round
/// from 170 to 0; `None` when none fits.
fn straightest(fits: &[bool]) -> Option<f64> {
    let n = fits.len();
    if fits.iter().all(|f| *f) {
        return Some(0.0);
    }
    // Runs start just after a bearing that does not fit.
    let start = (0..n).find(|i| !fits[*i])?;
    let mut best: Option<(usize, usize)> = None;
    let mut run: Option<(usize, usize)> = None;
    for k in 1..=n {
        let i = (start + k) % n;
        run = match (fits[i], run) {
            (true, Some((first, len))) => Some((first, len + 1)),
            (true, None) => Some((start + k, 1)),
            (false, _) => None,
        };
        if let Some(r) = run.filter(|r| best.is_none_or(|b| r.1 > b.1)) {
            best = Some(r);
        }
    }
    let (first, len) = best?;
    let mid = first as f64 + (len as f64 - 1.0) / 2.0;
    Some((mid * BEARING_STEP).rem_euclid(180.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_straightest_way_is_the_middle_of_the_widest_run() {
        let at = |ok: &[usize]| {
            let fits: Vec<bool> = (0..STEPS as usize).map(|i| ok.contains(&i)).collect();
            straightest(&fits)
        };
        assert_eq!(at(&[]), None);
        assert_eq!(at(&[3, 4, 5]), Some(40.0));
        assert_eq!(at(&[16, 17, 0, 1, 2]), Some(0.0));
        assert_eq!(at(&[17, 0, 1, 2, 8]), Some(5.0));
        assert_eq!(at(&[17, 0]), Some(175.0));
    }
}

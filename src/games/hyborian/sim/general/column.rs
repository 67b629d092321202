//! The column over a crossing: where several units must take the same
//! ford or bridge ([`super::crossing`]), the general sends them over in
//! order of strength — the horse that charges first, the heaviest
//! leading, then the foot, the shooters last — and never piecemeal. The
//! units wait on the near bank, one behind the other on the crossing's
//! line and out of the enemy's bow range, until the column has gathered
//! (or the doctrine's patience with stragglers is spent); then each goes
//! over as soon as the one ahead of it is on its way.
//!
//! [`columns`] says which units wait this turn, and where; the others go
//! on as [`View::waypoint`] leads them.

use super::crossing::{Crossing, AT_THE_END};
use super::doctrine::Doctrine;
use super::troops::{role, Role};
use super::troops::{Ctx, ALIGNED};
use super::view::View;
use super::write::Sheet;
use crate::games::hyborian::adjudicate::route::faced;
use crate::games::hyborian::rules::melee::category;
use crate::games::hyborian::rules::{Class, Trait};
use crate::games::hyborian::table::{Status, Unit};
use crate::geometry::{bearing_of, normalize_bearing, point_segment_distance, turn_between};
use glam::DVec2;
use std::collections::BTreeMap;

/// The head of the column waits this far short of the near end (inches),
/// so that it is not yet on its way over.
const HEAD_BACK: f64 = AT_THE_END + 0.5;
/// A unit this close to its waiting place (inches) stands at it.
const PLACED: f64 = 0.6;
/// Rounds of working out where a change of face's set-back leaves a unit.
const SETBACK_ROUNDS: usize = 4;
/// Waiting units stand this far apart, one behind the other (inches).
const COLUMN_GAP: f64 = 1.0;
/// A waiting place is moved back from the enemy's bows by steps of this
/// many inches…
const BACK_STEP: f64 = 1.0;
/// …at most this far.
const BACK_MOST: f64 = 24.0;

/// Where a unit waits in its column: the place, and the bearing of the
/// crossing's line it stands facing along.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Wait {
    pub place: DVec2,
    pub bearing: f64,
}

impl Wait {
    fn of(c: &Crossing, place: DVec2) -> Wait {
        Wait {
            place,
            bearing: normalize_bearing(bearing_of(c.far - c.near).round()),
        }
    }

    /// The unit stands at its place, facing along the crossing's line.
    fn holds(&self, u: &Unit) -> bool {
        u.front.distance(self.place) <= PLACED
            && turn_between(u.facing, self.bearing).abs() <= ALIGNED
    }
}

/// A unit in a column: its crossing and its place in the order.
struct Member<'a> {
    unit: &'a Unit,
    crossing: Crossing,
}

/// The units that wait on the near bank this turn, and the place each
/// waits at. `garrison`: the unit holding the scenario's ground, which
/// goes its own way.
pub(super) fn columns<'a>(
    view: &View<'a>,
    doctrine: &Doctrine,
    garrison: Option<&str>,
) -> BTreeMap<&'a str, Wait> {
    let summoned = view.summoned();
    let mut by_crossing: BTreeMap<usize, Vec<Member<'a>>> = BTreeMap::new();
    for &u in &view.mine {
        let free = !u.kind.is_single_figure()
            && u.status == Status::Ready
            && u.in_melee_with.is_empty()
            && !u.has_trait(Trait::Beast)
            && !summoned.contains(u.id.as_str())
            && garrison != Some(u.id.as_str());
        let Some((enemy, _)) = view.nearest(u, |_| true).filter(|_| free) else {
            continue;
        };
        if let Some((i, crossing)) = view.crossing_on_way(u, enemy.footprint().centre) {
            by_crossing
                .entry(i)
                .or_default()
                .push(Member { unit: u, crossing });
        }
    }
    let mut waiting = BTreeMap::new();
    for mut column in by_crossing.into_values() {
        column.sort_by_key(|m| strength(m.unit));
        waiting.extend(wait_places(view, doctrine, &column));
    }
    waiting
}

/// The order of march over a crossing: horse that charges before foot,
/// foot before shooters; within each, the heavier, the better and the
/// larger first; then the army list.
fn strength(
    u: &Unit,
) -> (
    u8,
    std::cmp::Reverse<u8>,
    u8,
    std::cmp::Reverse<u32>,
    u32,
    &str,
) {
    let arm = match role(u) {
        Role::Horse | Role::Wheelers => 0,
        Role::Foot => 1,
        Role::Archers(_) => 2,
        Role::HorseArchers(_) => 3,
    };
    let grade = match u.class {
        Class::A => 0,
        Class::B => 1,
        Class::C => 2,
    };
    (
        arm,
        std::cmp::Reverse(category(u.kind)),
        grade,
        std::cmp::Reverse(u.figures),
        u.number,
        u.id.as_str(),
    )
}

/// Whether the unit stands on the line of its crossing: on its way over.
fn on_the_way(m: &Member) -> bool {
    point_segment_distance(m.unit.front, m.crossing.near, m.crossing.far) < AT_THE_END
}

/// The waiting places of one column, in its order of march: the units
/// not yet on their way, each behind the one before it; the first of
/// them goes when a unit ahead is on its way or the column has gathered.
fn wait_places<'a>(
    view: &View<'a>,
    doctrine: &Doctrine,
    column: &[Member<'a>],
) -> Vec<(&'a str, Wait)> {
    let started = column.iter().any(on_the_way);
    let mut back = HEAD_BACK;
    let places: Vec<(&Member, Wait)> = column
        .iter()
        .filter(|m| !on_the_way(m))
        .map(|m| {
            let place = out_of_bowshot(view, &m.crossing, back);
            back += 2.0 * m.unit.footprint().half_depth + COLUMN_GAP;
            (m, Wait::of(&m.crossing, place))
        })
        .collect();
    // Shooters may
    // stay on the bank to shoot over the water: it does not wait for them.
    let gathered = view.table.turn >= doctrine.column_wait
        || places.iter().all(|(m, p)| {
            matches!(role(m.unit), Role::Archers(_) | Role::HorseArchers(_))
                || m.unit.front.distance(p.place) <= View::move_allowance(m.unit)
        });
    // The head goes from its place, facing along the crossing's line, so
    // that its way over stays on the crossing.
    let goes = started || gathered;
    places
        .into_iter()
        .enumerate()
        .filter(|(k, (m, w))| !(*k == 0 && goes && w.holds(m.unit)))
        .map(|(_, (m, p))| (m.unit.id.as_str(), p))
        .collect()
}

/// The place `back` inches short of the crossing's near end on its line,
/// moved further back until no enemy bow reaches it.
fn out_of_bowshot(view: &View, c: &Crossing, back: f64) -> DVec2 {
    let axis = (c.far - c.near).normalize_or_zero();
    let mut d = back;
    while under_the_bow(view, c.near - axis * d) && d < back + BACK_MOST {
        d += BACK_STEP;
    }
    c.near - axis * d
}

/// Whether an enemy shooter's range reaches the point.
fn under_the_bow(view: &View, p: DVec2) -> bool {
    view.enemies
        .iter()
        .any(|(e, fp)| View::archers(e).is_some_and(|r| View::point_gap(fp, p) <= r))
}

/// Where a unit facing `from` should stand so that a change of face to
/// `w.bearing` — made about the front centre and set back along the old
/// facing (§2, `route::faced`) — leaves its front on its place.
fn before_facing(u: &Unit, w: &Wait) -> DVec2 {
    let mut at = w.place;
    for _ in 0..SETBACK_ROUNDS {
        let mut pose = u.pose();
        pose.front = at;
        if at.distance(u.front) > PLACED {
            pose.facing = normalize_bearing(bearing_of(at - u.front));
        }
        at = w.place + (at - faced(pose, u.kind, w.bearing).front);
    }
    at
}

impl Ctx<'_, '_> {
    /// A waiting unit's orders: to its place in the column, arriving where
    /// a change of face to the crossing's line leaves it on the place;
    /// there, that change of face; then stand.
    pub(super) fn wait_in_column(&self, u: &Unit, t: &Unit, w: &Wait) -> Sheet {
        if w.holds(u) {
            return self.hold_facing_along(u, t, w);
        }
        let before = before_facing(u, w);
        if u.front.distance(before) <= PLACED || u.front.distance(w.place) <= PLACED {
            return self.hold_facing_along(u, t, w);
        }
        self.make_for(u, t, before)
    }

    fn hold_facing_along(&self, u: &Unit, t: &Unit, w: &Wait) -> Sheet {
        let ahead = u.front + crate::geometry::heading(w.bearing);
        if turn_between(u.facing, w.bearing).abs() > ALIGNED && self.view.room_to_face(u, ahead) {
            Sheet::phase1(format!("face {}", w.bearing))
        } else if turn_between(u.facing, w.bearing).abs() <= ALIGNED {
            Sheet::hold()
        } else {
            self.hold_facing(u, t)
        }
    }
}

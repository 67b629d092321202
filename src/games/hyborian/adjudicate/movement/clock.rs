//! The clock: small steps, each tried, checked for overlaps and committed
//! up to the first moment of touch found by bisection.

use super::body::{advance, breach, first_touch, may_overlap, Body};
use super::contact::{settle_step, touch};
use super::{BISECT, PATH_SPACING, SAME_MOMENT, STEP};
use crate::games::hyborian::adjudicate::record::{InRange, PathPoint};
use crate::games::hyborian::adjudicate::TurnState;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Phase;
use crate::games::hyborian::table::{Table, UnitId};
use crate::geometry::EPSILON;

/// Advance the clock until every plan is done.
pub(super) fn run_clock(
    turn: &mut TurnState,
    options: &GameOptions,
    bodies: &mut [Body],
    phase: Phase,
) {
    let mut clock = 0.0;
    // Each pass either finishes a step or stops a unit or locks a melee; the
    // bound only guards against a geometry bug looping for ever.
    for _ in 0..1_000_000 {
        let max_rate = bodies
            .iter()
            .filter_map(|b| b.motion.as_ref().filter(|m| m.active()).map(|m| m.rate))
            .fold(0.0, f64::max);
        if max_rate == 0.0 {
            break;
        }
        let mut next_clock = clock + STEP / max_rate;
        for m in bodies
            .iter()
            .filter_map(|b| b.motion.as_ref())
            .filter(|m| m.active() && m.plan.is_change())
        {
            let due = clock + (m.plan.budget - m.spent) / m.rate;
            if due > clock + EPSILON && due < next_clock {
                next_clock = due;
            }
        }
        tentative(turn, options, bodies, next_clock - clock);
        let pairs = overlapping_pairs(&turn.table, bodies);
        if pairs.is_empty() {
            commit(bodies, 1.0, clock, next_clock);
            clock = next_clock;
            note_ranges(bodies, clock);
            settle_step(turn, bodies, phase, clock);
            continue;
        }
        let touches: Vec<(usize, usize, f64, f64)> = pairs
            .into_iter()
            .map(|(i, j)| {
                let (lo, hi) = first_touch(bodies, i, j);
                (i, j, lo, hi)
            })
            .collect();
        let first = touches.iter().map(|t| t.2).fold(f64::INFINITY, f64::min);
        let at = clock + first * (next_clock - clock);
        commit(bodies, first, clock, next_clock);
        clock = at;
        note_ranges(bodies, clock);
        let mut moment: Vec<(usize, usize)> = touches
            .iter()
            .filter(|t| t.2 <= first + SAME_MOMENT)
            .map(|t| (t.0, t.1))
            .collect();
        moment.sort_by(|a, b| {
            (&bodies[a.0].id, &bodies[a.1].id).cmp(&(&bodies[b.0].id, &bodies[b.1].id))
        });
        for (i, j) in moment {
            touch(turn, options, bodies, i, j, phase, clock);
        }
    }
}

/// Work out where every moving unit would be at the end of a step and
/// whether that breaks a rule (in which case it halts where the rule bites).
pub(super) fn tentative(turn: &TurnState, options: &GameOptions, bodies: &mut [Body], dt: f64) {
    let table = &turn.table;
    for i in 0..bodies.len() {
        let Some(m) = bodies[i].motion.as_ref().filter(|m| m.active()) else {
            bodies[i].next_fp = bodies[i].fp;
            continue;
        };
        let budget = (dt * m.rate).min(m.plan.budget - m.spent).max(0.0);
        let (s0, spent0) = (m.s, m.spent);
        let (mut next_s, mut next_spent) = advance(table, options, &bodies[i], budget);
        let mut halt = None;
        if !m.plan.is_change() {
            if let Some(h) = breach(table, options, bodies, i, m.plan.pose_at(next_s)) {
                let plan = &bodies[i].motion.as_ref().expect("moving").plan;
                let (mut lo, mut hi) = (0.0, 1.0);
                if breach(table, options, bodies, i, plan.pose_at(s0)).is_some() {
                    hi = 0.0;
                }
                for _ in 0..BISECT {
                    if hi == 0.0 {
                        break;
                    }
                    let mid = (lo + hi) / 2.0;
                    if breach(
                        table,
                        options,
                        bodies,
                        i,
                        plan.pose_at(s0 + mid * (next_s - s0)),
                    )
                    .is_some()
                    {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                next_spent = spent0 + lo * (next_spent - spent0);
                next_s = s0 + lo * (next_s - s0);
                halt = Some(h);
            }
        }
        let kind = bodies[i].kind;
        let m = bodies[i].motion.as_mut().expect("moving");
        m.next_s = next_s;
        m.next_spent = next_spent;
        m.pending_halt = halt;
        bodies[i].next_fp = m.plan.pose_at(next_s).footprint(kind);
    }
}

/// Pairs that would overlap at the end of the step and are not allowed to.
pub(super) fn overlapping_pairs(table: &Table, bodies: &[Body]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for i in 0..bodies.len() {
        for j in i + 1..bodies.len() {
            let (a, b) = (&bodies[i], &bodies[j]);
            if (a.active() || b.active())
                && a.next_fp.overlaps(&b.next_fp)
                && !may_overlap(table, a, b)
            {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// Move every active unit `alpha` of the way through the step.
pub(super) fn commit(bodies: &mut [Body], alpha: f64, clock: f64, next_clock: f64) {
    for b in bodies.iter_mut() {
        let kind = b.kind;
        let Some(m) = b.motion.as_mut().filter(|m| m.active()) else {
            continue;
        };
        m.s += alpha * (m.next_s - m.s);
        m.spent += alpha * (m.next_spent - m.spent);
        if alpha < 1.0 {
            m.pending_halt = None;
        }
        if !m.plan.is_change() {
            b.pose = m.plan.pose_at(m.s);
            b.fp = b.pose.footprint(kind);
            let last = m.path.last().map_or(b.pose.front, |p| p.front);
            if last.distance(b.pose.front) >= PATH_SPACING {
                m.path.push(PathPoint {
                    clock: clock + alpha * (next_clock - clock),
                    front: b.pose.front,
                    facing: b.pose.facing,
                });
            }
        }
        b.next_fp = b.fp;
    }
}

/// Moving units note the enemy archers whose range they are now within.
pub(super) fn note_ranges(bodies: &mut [Body], clock: f64) {
    let archers: Vec<usize> = (0..bodies.len())
        .filter(|a| bodies[*a].range.is_some())
        .collect();
    if archers.is_empty() {
        return;
    }
    for i in 0..bodies.len() {
        if !bodies[i]
            .motion
            .as_ref()
            .is_some_and(|m| !m.plan.is_change() && m.s > 0.0)
        {
            continue;
        }
        let near: Vec<(UnitId, f64, f64)> = archers
            .iter()
            .map(|a| &bodies[*a])
            .filter(|a| a.side != bodies[i].side)
            .filter_map(|a| {
                let d = a.fp.distance(&bodies[i].fp);
                let from = a.start_fp.distance(&bodies[i].start_fp);
                a.range.filter(|r| d <= *r).map(|_| (a.id.clone(), d, from))
            })
            .collect();
        let m = bodies[i].motion.as_mut().expect("moving");
        for (id, d, from) in near {
            let e = m.in_range.entry(id).or_insert(InRange {
                clock,
                closest: d,
                from,
            });
            e.closest = e.closest.min(d);
        }
    }
}

//! Contacts and the end of a step: halts, changes of face or formation,
//! who struck whom and on which face, and closing up to the struck face.

use super::body::{may_overlap, within_table, Body, Motion};
use super::SQUARE_DEGREES;
use crate::games::hyborian::adjudicate::events::{Event, Halt};
use crate::games::hyborian::adjudicate::record::{Contact, PathPoint};
use crate::games::hyborian::adjudicate::TurnState;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::Phase;
use crate::games::hyborian::table::geometry::{Pose, CONTACT};
use crate::games::hyborian::table::UnitId;
use crate::geometry::{bearing_of, turn_between, Edge, Footprint, EPSILON};

/// After a full step: halts take effect, spent plans finish, changes of
/// face or formation whose 3 inches are up are made if there is room.
pub(super) fn settle_step(turn: &mut TurnState, bodies: &mut [Body], phase: Phase, clock: f64) {
    let mut changes: Vec<(usize, Pose, Footprint)> = Vec::new();
    for (i, b) in bodies.iter_mut().enumerate() {
        let Some(m) = b.motion.as_mut().filter(|m| m.active()) else {
            continue;
        };
        if let Some(h) = m.pending_halt.take() {
            m.done = true;
            m.stopped = true;
            let u = &turn.table.units[&b.id];
            turn.events.push(Event::Halted {
                unit: u.id.clone(),
                name: u.name.clone(),
                phase: phase.number(),
                after: m.s,
                reason: h,
            });
            continue;
        }
        let used_up = m.spent >= m.plan.budget - EPSILON || m.s >= m.plan.length() - EPSILON;
        if !used_up {
            continue;
        }
        m.done = true;
        if let Some(to) = m.plan.changed_pose() {
            changes.push((i, to, to.footprint(b.kind)));
        }
    }
    // Changes falling due together are judged together: each needs room
    // clear of every other unit as it stands and as it will stand.
    let verdicts: Vec<Option<UnitId>> = changes
        .iter()
        .map(|(i, _, fp)| {
            let now = bodies
                .iter()
                .enumerate()
                .filter(|(j, o)| {
                    j != i && o.fp.overlaps(fp) && !may_overlap(&turn.table, &bodies[*i], o)
                })
                .map(|(_, o)| o.id.clone());
            let then = changes
                .iter()
                .filter(|(j, _, other)| {
                    j != i
                        && other.overlaps(fp)
                        && !may_overlap(&turn.table, &bodies[*i], &bodies[*j])
                })
                .map(|(j, _, _)| bodies[*j].id.clone());
            now.chain(then).min()
        })
        .collect();
    for ((i, to, fp), blocker) in changes.into_iter().zip(verdicts) {
        let u = &turn.table.units[&bodies[i].id];
        match blocker {
            Some(by) => {
                let by_name = turn.table.units[&by].name.clone();
                turn.events.push(Event::ChangeBlocked {
                    unit: u.id.clone(),
                    name: u.name.clone(),
                    phase: phase.number(),
                    by,
                    by_name,
                });
            }
            None => {
                let b = &mut bodies[i];
                b.pose = to;
                b.fp = fp;
                b.next_fp = fp;
                let m = b.motion.as_mut().expect("moving");
                m.change_made = true;
                m.path.push(PathPoint {
                    clock,
                    front: to.front,
                    facing: to.facing,
                });
            }
        }
    }
    // Evaders remember the last place where they stood clear of friends,
    // and every friend they passed through.
    for i in 0..bodies.len() {
        if bodies[i].motion.as_ref().is_some_and(Motion::evading) {
            let friends: Vec<UnitId> = bodies
                .iter()
                .enumerate()
                .filter(|(j, o)| {
                    *j != i && o.side == bodies[i].side && o.fp.overlaps(&bodies[i].fp)
                })
                .map(|(_, o)| o.id.clone())
                .collect();
            let m = bodies[i].motion.as_mut().expect("moving");
            if friends.is_empty() {
                m.last_clear = m.s;
            }
            m.passed.extend(friends);
        }
    }
}

/// Settle a touch between two units at this moment (§3, §4): friends stop,
/// enemies are locked in melee and the striker closes to even frontage.
pub(super) fn touch(
    turn: &mut TurnState,
    options: &GameOptions,
    bodies: &mut [Body],
    i: usize,
    j: usize,
    phase: Phase,
    clock: f64,
) {
    let p = phase.number();
    if bodies[i].side == bodies[j].side {
        // "A unit that runs into a friend stops there": those closing on the other stop.
        let closing = |a: &Body, b: &Body| {
            a.active() && (a.pose_at(1.0).front - a.pose.front).dot(b.fp.centre - a.fp.centre) > 0.0
        };
        let mut stoppers: Vec<usize> = [(i, j), (j, i)]
            .into_iter()
            .filter(|(a, b)| closing(&bodies[*a], &bodies[*b]))
            .map(|(a, _)| a)
            .collect();
        if stoppers.is_empty() {
            stoppers = [i, j].into_iter().filter(|k| bodies[*k].active()).collect();
        }
        for k in stoppers {
            let other = if k == i { j } else { i };
            let (name, other_name) = (
                turn.table.units[&bodies[k].id].name.clone(),
                turn.table.units[&bodies[other].id].name.clone(),
            );
            let m = bodies[k].motion.as_mut().expect("active");
            m.done = true;
            m.stopped = true;
            turn.events.push(Event::Halted {
                unit: bodies[k].id.clone(),
                name,
                phase: p,
                after: m.s,
                reason: Halt::Friend {
                    unit: bodies[other].id.clone(),
                    name: other_name,
                },
            });
        }
        return;
    }
    // Enemies: who closed on whom.
    let charging = |b: &Body| {
        b.motion
            .as_ref()
            .is_some_and(|m| m.active() && m.charging())
    };
    let moving = |b: &Body| {
        b.motion
            .as_ref()
            .is_some_and(|m| m.active() && !m.plan.is_change())
    };
    let (a, b) = (&bodies[i], &bodies[j]);
    let edge_on_b =
        b.fp.arc_of_degrees(striking_point(&a.fp, &b.fp), options.arcs.degrees());
    let edge_on_a =
        a.fp.arc_of_degrees(striking_point(&b.fp, &a.fp), options.arcs.degrees());
    // Who closed on whom; `None` when neither can be told from the other
    // (both moving, both striking fronts or both flanks): then neither closes up.
    let hits_side = |e: Edge| e != Edge::Front;
    let striker_is_a = match (charging(a), charging(b), moving(a), moving(b)) {
        (true, false, _, _) => Some(true),
        (false, true, _, _) => Some(false),
        (_, _, true, false) => Some(true),
        (_, _, false, true) => Some(false),
        _ => match (hits_side(edge_on_b), hits_side(edge_on_a)) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        },
    };
    let (s, d) = if striker_is_a == Some(false) {
        (j, i)
    } else {
        (i, j)
    };
    let was_charging = [charging(&bodies[s]), charging(&bodies[d])];
    let was_moving = [moving(&bodies[s]), moving(&bodies[d])];
    let struck = bodies[d].fp.arc_of_degrees(
        striking_point(&bodies[s].fp, &bodies[d].fp),
        options.arcs.degrees(),
    );
    let face_of_d = bodies[d].pose.formation.face_at(struck);
    let face_of_s = bodies[s].pose.formation.face_at(
        bodies[s]
            .fp
            .arc_of_degrees(bodies[d].fp.centre, options.arcs.degrees()),
    );
    // Both stop; a change not yet made is lost (§3 prorating).
    for k in [s, d] {
        if let Some(m) = bodies[k].motion.as_mut().filter(|m| m.active()) {
            m.done = true;
            m.stopped = true;
            if m.plan.is_change() {
                let u = &turn.table.units[&bodies[k].id];
                turn.events.push(Event::ChangeCaught {
                    unit: u.id.clone(),
                    name: u.name.clone(),
                    phase: p,
                });
            }
        }
    }
    if striker_is_a.is_some() {
        close_up(turn, bodies, s, d, struck);
    }
    let (sid, did) = (bodies[s].id.clone(), bodies[d].id.clone());
    turn.table
        .units
        .get_mut(&sid)
        .expect("on table")
        .in_melee_with
        .insert(did.clone());
    turn.table
        .units
        .get_mut(&did)
        .expect("on table")
        .in_melee_with
        .insert(sid.clone());
    let mutual = striker_is_a.is_none();
    for (k, other, face, striker, charging) in [
        (s, &did, face_of_d, true, was_charging[0]),
        (d, &sid, face_of_s, mutual, was_charging[1]),
    ] {
        let rec = turn.record.unit_mut(&bodies[k].id);
        rec.contacts.push(Contact {
            phase,
            other: other.clone(),
            face,
            striker,
            charging,
            clock,
        });
        rec.charge_contact |= charging;
    }
    for (k, other, face, charging, moving) in [
        (s, d, face_of_d, was_charging[0], true),
        (
            d,
            s,
            face_of_s,
            was_charging[1],
            was_moving[1] && was_moving[0],
        ),
    ] {
        if !moving {
            continue;
        }
        let (u, o) = (
            &turn.table.units[&bodies[k].id],
            &turn.table.units[&bodies[other].id],
        );
        let after = bodies[k].motion.as_ref().map_or(0.0, |m| m.s);
        turn.events.push(Event::Contact {
            unit: u.id.clone(),
            name: u.name.clone(),
            phase: p,
            other: o.id.clone(),
            other_name: o.name.clone(),
            face,
            charging,
            after,
        });
    }
}

/// Points along the front edge sampled to find the part that touches.
pub(super) const FRONT_SAMPLES: usize = 16;

/// The point that decides which face of the other the striker struck
/// (ruling E-7): the middle of the part of its front edge that touches the
/// other, or its front centre when its front does not touch. A line whose
/// front lies only partly against the other's front (an overlap at one
/// end) has struck that front, wherever its own centre is.
pub(super) fn striking_point(striker: &Footprint, other: &Footprint) -> glam::DVec2 {
    let (l, r) = striker.edge(Edge::Front);
    let touching: Vec<glam::DVec2> = (0..=FRONT_SAMPLES)
        .map(|k| l + (r - l) * (k as f64 / FRONT_SAMPLES as f64))
        .filter(|p| other.nearest_point(*p).distance(*p) <= CONTACT)
        .collect();
    if touching.is_empty() {
        striker.front()
    } else {
        touching.iter().copied().sum::<glam::DVec2>() / touching.len() as f64
    }
}

/// "Closing to even frontage" (§4): "when an attacking unit strikes another
/// unit on an angle ... the attacker is allowed a final sweep to make for
/// even frontage". A striker that struck on an angle swings flush against
/// the face it struck, its front centre as near its point of contact as the
/// face allows (centred when it is wider). One that struck square is not
/// moved sideways: only the final sweep of an angled charge may do that, so
/// an overlap at one end stays at one end ("may count on either or both
/// ends"). It is not made if it would put the striker on top of a third
/// unit, or off the table.
pub(super) fn close_up(turn: &TurnState, bodies: &mut [Body], s: usize, d: usize, struck: Edge) {
    if !turn.table.units[&bodies[s].id].in_melee_with.is_empty() {
        return;
    }
    let dfp = bodies[d].fp;
    let (a, b) = dfp.edge(struck);
    let len = a.distance(b);
    if len <= 0.0 {
        return;
    }
    let along = (b - a) / len;
    let width = 2.0 * bodies[s].fp.half_width;
    let flush = bearing_of(-dfp.normal(struck));
    let square = turn_between(bodies[s].pose.facing, flush).abs() <= SQUARE_DEGREES;
    let t = (bodies[s].pose.front - a).dot(along);
    let t = if square {
        t
    } else if width <= len {
        t.clamp(width / 2.0, len - width / 2.0)
    } else {
        len / 2.0
    };
    // Square or swept, the front edge ends on the face's line.
    let pose = Pose {
        front: a + along * t,
        facing: flush,
        ..bodies[s].pose
    };
    let fp = pose.footprint(bodies[s].kind);
    let crowded = bodies.iter().enumerate().any(|(k, o)| {
        k != s && k != d && o.fp.overlaps(&fp) && !may_overlap(&turn.table, &bodies[s], o)
    });
    if !crowded && within_table(&turn.table, &fp) {
        bodies[s].pose = pose;
        bodies[s].fp = fp;
        bodies[s].next_fp = fp;
    }
}

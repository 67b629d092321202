//! Simultaneous movement (§3): every unit's plan is played out on one
//! clock. The clock advances in small steps; when a step would make two
//! units overlap, the moment of first touch is found by bisection and the
//! contacts of that moment are settled together, so who touched whom first
//! depends on time alone, never on the order units are stored in.
//!
//! Architecture invariant: the movement step reads the table and the
//! orders and writes only poses, melee locks, the turn record and events.

mod body;
mod clock;
mod contact;

use super::events::{Event, Refusal};
use super::record::PathPoint;
use super::route::{
    ground_allows_charge, plan_break_off, plan_evade, plan_function, Context, Plan, PlanKind,
};
use super::TurnState;
use crate::games::hyborian::orders::plan::{ChargeTarget, Function, TurnOrders};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Phase, UnitType};
use crate::games::hyborian::table::geometry::Pose;
use crate::games::hyborian::table::{Status, Table, Unit, UnitId};
use crate::geometry::EPSILON;
pub(crate) use body::within_table;
use body::{body, Body};
use clock::run_clock;
use std::collections::{BTreeMap, BTreeSet};

/// Largest movement (inches) any unit makes in one clock step.
const STEP: f64 = 0.2;

/// Bisection rounds when finding a moment of contact or of a halt.
const BISECT: usize = 30;

/// Contacts closer together in time than this (fraction of a step) are simultaneous.
const SAME_MOMENT: f64 = 1e-6;

/// Spacing of recorded path points (inches).
const PATH_SPACING: f64 = 0.5;

/// A striker within this many degrees of flush struck square: it needs no
/// final sweep and is not moved sideways (§4).
const SQUARE_DEGREES: f64 = 1.0;

/// Play out one movement phase.
pub(crate) fn phase(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    phase: Phase,
) {
    let p = phase.number();
    turn.events.push(Event::PhaseBegan { phase: p });
    // "Should an evading light unit interpenetrate units behind it, such
    // units may not charge in the same phase as the evasion takes place"
    // (§6). Who is passed through is known only once the phase is played:
    // a friend that charged and was passed through loses its charge, and
    // the phase is played again from its start without it.
    let (table, record, events) = (turn.table.clone(), turn.record.clone(), turn.events.len());
    let mut barred: BTreeSet<UnitId> = BTreeSet::new();
    for _ in 0..=table.units.len() {
        let mut bodies = plan_phase(turn, orders, options, phase, &barred);
        run_clock(turn, options, &mut bodies, phase);
        finish(turn, &mut bodies, phase);
        let newly: Vec<UnitId> = turn
            .record
            .units
            .iter()
            .filter(|(id, r)| {
                let ph = r.phase(phase);
                ph.charging && !ph.passed_through_by.is_empty() && !barred.contains(*id)
            })
            .map(|(id, _)| id.clone())
            .collect();
        if newly.is_empty() {
            return;
        }
        barred.extend(newly);
        turn.table = table.clone();
        turn.record = record.clone();
        turn.events.truncate(events);
    }
}

/// Build every unit's plan at the start of the phase (§3), including the
/// evades that enemy charges set off (§6).
fn plan_phase(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    phase: Phase,
    barred: &BTreeSet<UnitId>,
) -> Vec<Body> {
    let table = &turn.table;
    let p = phase.number();
    let able = |u: &Unit| {
        u.status == Status::Ready && u.in_melee_with.is_empty() && u.attached_to.is_none()
    };
    let function_of = |id: &str| orders.units.get(id).and_then(|o| o.function(phase));
    // Who is charged this phase (forced marches are cut back; evaders run).
    let mut charged: BTreeMap<UnitId, UnitId> = BTreeMap::new();
    for u in table
        .units
        .values()
        .filter(|u| able(u) && !barred.contains(&u.id))
    {
        if let Some(Function::Charge(c)) = function_of(&u.id) {
            if let ChargeTarget::Unit(t) = &c.target {
                // A charge the ground forbids is a move (§7): no one evades it.
                if ground_allows_charge(table, u, c) {
                    charged.entry(t.clone()).or_insert_with(|| u.id.clone());
                }
            }
        }
    }
    let charged_ids: BTreeSet<UnitId> = charged.keys().cloned().collect();
    let ctx = Context {
        table,
        options,
        phase: p,
        charged: &charged_ids,
    };
    let mut bodies = Vec::new();
    let mut broke_off = Vec::new();
    for u in table
        .units
        .values()
        .filter(|u| u.status.is_present() && u.attached_to.is_none())
    {
        let mut plan = None;
        let evader = orders.units.get(&u.id).is_some_and(|o| o.evade_if_charged)
            && u.kind == UnitType::LightInfantry;
        match (function_of(&u.id), charged.get(&u.id)) {
            (_, Some(charger)) if evader && able(u) => {
                turn.events.push(Event::Evaded {
                    unit: u.id.clone(),
                    name: u.name.clone(),
                    phase: p,
                    charger: charger.clone(),
                    charger_name: table.units[charger].name.clone(),
                });
                plan = Some(plan_evade(u, charger));
            }
            (None | Some(Function::Hold), _) => {}
            (Some(Function::BreakOff), _)
                if phase == Phase::One
                    && u.kind == UnitType::MediumCavalry
                    && !u.in_melee_with.is_empty() =>
            {
                plan = Some(plan_break_off(u));
                broke_off.push(u.id.clone());
            }
            (Some(Function::BreakOff), _) if phase == Phase::Two => {}
            // "charge … then break off; phase 2 move 8": made after the melee round.
            (Some(Function::Move(_)), _)
                if phase == Phase::Two
                    && !u.in_melee_with.is_empty()
                    && matches!(function_of(&u.id).and(orders.units.get(&u.id).and_then(|o| o.phase1.as_ref())),
                        Some(Function::Charge(c)) if c.break_off) => {}
            (Some(_), _) if !u.in_melee_with.is_empty() => {
                turn.events.push(refused(u, p, Refusal::InMelee))
            }
            (Some(_), _) if matches!(u.status, Status::FallBack(_)) => {
                turn.events.push(refused(u, p, Refusal::FallBackStatus))
            }
            (Some(_), _) if u.status == Status::Rout => {
                turn.events.push(refused(u, p, Refusal::Routing))
            }
            (Some(Function::Charge(_)), _)
                if phase == Phase::One && table.morale.no_charge_in_phase1.contains(&u.id) =>
            {
                turn.events
                    .push(refused(u, p, Refusal::PassedThroughLastTurn))
            }
            (Some(Function::Charge(_)), _) if barred.contains(&u.id) => {
                turn.events
                    .push(refused(u, p, Refusal::PassedThroughByEvader))
            }
            (Some(f), _) => match plan_function(&ctx, u, f, &mut turn.events) {
                Ok(pl) => plan = pl,
                Err(why) => turn.events.push(refused(u, p, why)),
            },
        }
        if let Some(pl) = &plan {
            if let PlanKind::Charge {
                target,
                wheel,
                denied,
                out_of,
            } = &pl.kind
            {
                let target_name = target.as_ref().map(|t| table.units[t].name.clone());
                turn.events.push(match denied {
                    None => Event::ChargeBegun {
                        unit: u.id.clone(),
                        name: u.name.clone(),
                        phase: p,
                        target: target.clone(),
                        target_name,
                        bearing: pl.legs.last().map_or(u.facing, |l| l.end().facing),
                        wheel: *wheel,
                    },
                    Some(why) => Event::ChargeDenied {
                        unit: u.id.clone(),
                        name: u.name.clone(),
                        phase: p,
                        target: target.clone(),
                        target_name,
                        why: *why,
                    },
                });
                turn.record.unit_mut(&u.id).phase_mut(phase).charged_out_of = out_of.clone();
            }
        }
        bodies.push(body(table, options, u, plan));
    }
    // Breaking off ends the melee for both sides.
    for id in broke_off {
        end_melees(turn, &id);
        let u = &turn.table.units[&id];
        turn.events.push(Event::BrokeOff {
            unit: id.clone(),
            name: u.name.clone(),
            phase: phase.number(),
        });
    }
    bodies
}

/// A unit ceases to be in melee with anyone (breaking off, breaking through).
pub(crate) fn end_melees(turn: &mut TurnState, id: &str) {
    let Some(u) = turn.table.units.get_mut(id) else {
        return;
    };
    for p in std::mem::take(&mut u.in_melee_with) {
        if let Some(o) = turn.table.units.get_mut(&p) {
            o.in_melee_with.remove(id);
        }
    }
}

/// A move made after the melee round (§3 medium cavalry's split move, §4
/// heavy-cavalry breakthrough): `unit`, `plan`, and the enemy it may ride
/// through.
pub(crate) struct AfterMelee {
    pub unit: UnitId,
    pub plan: Plan,
    pub through: Option<UnitId>,
}

/// Play out moves made after the melee round on one clock, every other unit
/// standing; contacts lock melees (and are recorded) as in a phase. The
/// moves are written to the phase-2 record, after phase 2's own.
pub(crate) fn after_melee(turn: &mut TurnState, options: &GameOptions, moves: Vec<AfterMelee>) {
    let mut moves: BTreeMap<UnitId, AfterMelee> =
        moves.into_iter().map(|m| (m.unit.clone(), m)).collect();
    let mut bodies: Vec<Body> = turn
        .table
        .units
        .values()
        .filter(|u| u.status.is_present() && u.attached_to.is_none())
        .map(|u| {
            let m = moves.remove(&u.id);
            let through = m.as_ref().and_then(|m| m.through.clone());
            let mut b = body(&turn.table, options, u, m.map(|m| m.plan));
            b.passes_through = through;
            b
        })
        .collect();
    let from = turn.events.len();
    run_clock(turn, options, &mut bodies, Phase::Two);
    finish(turn, &mut bodies, Phase::Two);
    // Riding on through broken infantry is no charge at a target: meeting
    // nobody is not a missed charge.
    let mut k = from;
    while k < turn.events.len() {
        if matches!(turn.events[k], Event::ChargeMissed { .. }) {
            turn.events.remove(k);
        } else {
            k += 1;
        }
    }
}

fn refused(u: &Unit, phase: u8, why: Refusal) -> Event {
    Event::NotCarriedOut {
        unit: u.id.clone(),
        name: u.name.clone(),
        phase,
        why,
    }
}

/// Write the phase's outcome to the table, the record and the events.
fn finish(turn: &mut TurnState, bodies: &mut [Body], phase: Phase) {
    let p = phase.number();
    // Evaders do not end on top of friends: they stop where they last stood clear.
    for i in 0..bodies.len() {
        let overlapping_friend = bodies
            .iter()
            .enumerate()
            .any(|(j, o)| j != i && o.side == bodies[i].side && o.fp.overlaps(&bodies[i].fp));
        let kind = bodies[i].kind;
        if let Some(m) = bodies[i].motion.as_ref().filter(|m| m.evading()) {
            let mut passed = m.passed.clone();
            for pt in m.path.iter() {
                let here = Pose {
                    front: pt.front,
                    facing: pt.facing,
                    ..bodies[i].pose
                }
                .footprint(kind);
                for o in bodies.iter().filter(|o| {
                    o.id != bodies[i].id && o.side == bodies[i].side && o.fp.overlaps(&here)
                }) {
                    passed.insert(o.id.clone());
                }
            }
            let m = bodies[i].motion.as_mut().expect("evading");
            if overlapping_friend {
                m.s = m.last_clear;
                bodies[i].pose = m.plan.pose_at(m.s);
                bodies[i].fp = bodies[i].pose.footprint(kind);
            }
            for o in &passed {
                turn.record
                    .unit_mut(o)
                    .phase_mut(phase)
                    .passed_through_by
                    .insert(bodies[i].id.clone());
            }
            turn.record
                .unit_mut(&bodies[i].id)
                .phase_mut(phase)
                .passed_through = passed;
        }
    }
    for b in bodies.iter_mut() {
        let Some(m) = b.motion.as_mut() else { continue };
        let unit = turn.table.units.get_mut(&b.id).expect("on table");
        unit.set_pose(b.pose);
        let (id, name) = (unit.id.clone(), unit.name.clone());
        if m.path
            .last()
            .is_none_or(|l| l.front != b.pose.front || l.facing != b.pose.facing)
        {
            m.path.push(PathPoint {
                clock: m.path.last().map_or(0.0, |l| l.clock),
                front: b.pose.front,
                facing: b.pose.facing,
            });
        }
        let rec = turn.record.unit_mut(&b.id).phase_mut(phase);
        // Appended: a move after the melee round adds to phase 2's record.
        rec.path.append(&mut m.path);
        rec.came_in_range_of.append(&mut m.in_range);
        match &m.plan.kind {
            PlanKind::Change {
                face,
                formation,
                bent_to,
            } => {
                if m.change_made {
                    rec.changed_face = *face;
                    rec.changed_formation = *formation;
                    if *formation {
                        turn.events.push(Event::ChangedFormation {
                            unit: id.clone(),
                            name: name.clone(),
                            phase: p,
                            formation: b.pose.formation,
                            files: b.pose.files,
                            ranks: b.pose.ranks,
                            bent_to: *bent_to,
                        });
                    }
                    if *face {
                        turn.events.push(Event::ChangedFace {
                            unit: id,
                            name,
                            phase: p,
                            from: m.plan.start.facing,
                            to: b.pose.facing,
                        });
                    }
                }
            }
            kind => {
                rec.distance += m.s;
                rec.moved |= m.s > EPSILON;
                rec.charging |= matches!(kind, PlanKind::Charge { denied: None, .. });
                rec.evaded |= matches!(kind, PlanKind::Evade { .. });
                let contact = turn
                    .record
                    .units
                    .get(&b.id)
                    .is_some_and(|r| r.contacts.iter().any(|c| c.phase == phase));
                match kind {
                    PlanKind::Move { wheel, .. } if m.s > EPSILON => {
                        let share = match m.plan.legs.first() {
                            Some(leg @ super::route::Leg::Wheel { .. }) => {
                                (m.s / leg.length()).min(1.0)
                            }
                            _ => 0.0,
                        };
                        let cut_short = share > 0.0 && share < 1.0 - EPSILON;
                        turn.events.push(Event::Moved {
                            unit: id,
                            name,
                            phase: p,
                            distance: m.s,
                            wheel: wheel * share,
                            wheel_ordered: cut_short.then_some(*wheel),
                        });
                    }
                    PlanKind::Charge {
                        denied: Some(_), ..
                    } if m.s > EPSILON => {
                        turn.events.push(Event::Moved {
                            unit: id,
                            name,
                            phase: p,
                            distance: m.s,
                            wheel: 0.0,
                            wheel_ordered: None,
                        });
                    }
                    PlanKind::Charge { denied: None, .. } if !contact && !m.stopped => {
                        turn.events.push(Event::ChargeMissed {
                            unit: id,
                            name,
                            phase: p,
                            distance: m.s,
                        });
                    }
                    PlanKind::Evade { .. } | PlanKind::BreakOff => turn.events.push(Event::Moved {
                        unit: id,
                        name,
                        phase: p,
                        distance: m.s,
                        wheel: 0.0,
                        wheel_ordered: None,
                    }),
                    _ => {}
                }
            }
        }
    }
    place_attached(&mut turn.table);
}

/// Attached commanders and heroes ride at the rear of their unit (§9).
pub(crate) fn place_attached(table: &mut Table) {
    let attached: Vec<(UnitId, UnitId)> = table
        .units
        .values()
        .filter_map(|u| u.attached_to.clone().map(|to| (u.id.clone(), to)))
        .collect();
    for (leader, to) in attached {
        let Some(host) = table.units.get(&to) else {
            continue;
        };
        let fp = host.footprint();
        let (front, facing) = (fp.centre - fp.ahead * fp.half_depth, host.facing);
        let l = table.units.get_mut(&leader).expect("listed");
        l.front = front;
        l.facing = facing;
    }
}

//! Simultaneous movement (§3): every unit's plan is played out on one
//! clock. The clock advances in small steps; when a step would make two
//! units overlap, the moment of first touch is found by bisection and the
//! contacts of that moment are settled together, so who touched whom first
//! depends on time alone, never on the order units are stored in.
//!
//! Architecture invariant: the movement step reads the table and the
//! orders and writes only poses, melee locks, the turn record and events.

use super::events::{Event, Halt, Refusal};
use super::record::{Contact, InRange, PathPoint};
use super::route::{
    ground_allows_charge, plan_break_off, plan_evade, plan_function, Context, Plan, PlanKind,
};
use super::TurnState;
use crate::games::hyborian::orders::plan::{ChargeTarget, Function, TurnOrders};
use crate::games::hyborian::rules::missile::longest_range;
use crate::games::hyborian::rules::movement::{FORCED_MARCH_CLEARANCE, ROUGH_SPEED};
use crate::games::hyborian::rules::options::{Clock, GameOptions};
use crate::games::hyborian::rules::{Phase, Trait, UnitType};
use crate::games::hyborian::table::geometry::{Pose, CONTACT};
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Status, Table, TerrainKind, Unit, UnitId};
use crate::geometry::{bearing_of, turn_between, Edge, Footprint, EPSILON, TOUCH};
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

/// A unit moving this phase and how far along its plan it is.
struct Motion {
    plan: Plan,
    /// Allowance spent per clock unit.
    rate: f64,
    /// Inches along the plan.
    s: f64,
    /// Inches of allowance spent (rough terrain costs double).
    spent: f64,
    done: bool,
    /// The move was stopped by a halt, a friend or a contact.
    stopped: bool,
    /// Set when a step's end breaks a rule (edge, terrain, 24 inches).
    pending_halt: Option<Halt>,
    next_s: f64,
    next_spent: f64,
    /// Started wholly on the table (the edge halts only such units).
    on_table: bool,
    /// Evaders: last progress at which no friend was overlapped.
    last_clear: f64,
    /// Evaders: friends overlapped on the way (§6).
    passed: BTreeSet<UnitId>,
    change_made: bool,
    path: Vec<PathPoint>,
    /// Enemy missile units whose range it has come within.
    in_range: BTreeMap<UnitId, InRange>,
}

impl Motion {
    fn charging(&self) -> bool {
        matches!(self.plan.kind, PlanKind::Charge { denied: None, .. })
    }
    fn evading(&self) -> bool {
        matches!(self.plan.kind, PlanKind::Evade { .. })
    }
    fn active(&self) -> bool {
        !self.done
    }
}

/// A unit on the table during the phase.
struct Body {
    id: UnitId,
    side: String,
    kind: UnitType,
    /// Not slowed by one-contour hills (light foot, Picts, Kushites, §7).
    sure_footed: bool,
    /// Longest missile range, for units that shoot (§6).
    range: Option<f64>,
    pose: Pose,
    fp: Footprint,
    next_fp: Footprint,
    /// The footprint when the phase began (distances "moving away", §6).
    start_fp: Footprint,
    motion: Option<Motion>,
    /// The enemy this unit rides through (heavy-cavalry breakthrough, §4).
    passes_through: Option<UnitId>,
}

impl Body {
    fn active(&self) -> bool {
        self.motion.as_ref().is_some_and(Motion::active)
    }

    fn pose_at(&self, alpha: f64) -> Pose {
        match &self.motion {
            Some(m) if m.active() => m.plan.pose_at(m.s + alpha * (m.next_s - m.s)),
            _ => self.pose,
        }
    }
}

/// Speed factor for a footprint: half in hills, woods and swamps (§7), and
/// in fords and fordable water (ruling T-2).
fn terrain_factor(table: &Table, options: &GameOptions, body: &Body, fp: &Footprint) -> f64 {
    let slowed = table.terrain.iter().any(|t| {
        let slows = match t.kind {
            TerrainKind::Hill { contours: 1 } => {
                !body.sure_footed || options.gentle_hills_slow_light_foot
            }
            TerrainKind::Hill { .. } | TerrainKind::Woods | TerrainKind::Swamp => true,
            TerrainKind::Road { .. } => false,
            // Water is judged as a whole below (fords and bridges cross it).
            TerrainKind::River | TerrainKind::Stream | TerrainKind::Ford | TerrainKind::Bridge => {
                false
            }
        };
        slows && t.area_meets(fp)
    }) || water_under(&table.terrain, fp, options.rivers, options.streams)
        == Water::Slowed;
    if slowed {
        ROUGH_SPEED
    } else {
        1.0
    }
}

/// Whether a footprint lies wholly on the table.
pub(crate) fn within_table(table: &Table, fp: &Footprint) -> bool {
    fp.corners().iter().all(|c| {
        c.x >= -TOUCH && c.y >= -TOUCH && c.x <= table.width + TOUCH && c.y <= table.depth + TOUCH
    })
}

/// The rule a pose would break, if any: the table edge, terrain the unit
/// may not enter, a forced march within 24 inches of the enemy.
fn breach(
    table: &Table,
    options: &GameOptions,
    bodies: &[Body],
    i: usize,
    pose: Pose,
) -> Option<Halt> {
    let b = &bodies[i];
    let m = b.motion.as_ref()?;
    let fp = pose.footprint(b.kind);
    if m.on_table && !within_table(table, &fp) {
        return Some(Halt::TableEdge);
    }
    if b.kind.is_mounted() {
        if let Some(t) = table.terrain.iter().find(|t| {
            matches!(t.kind, TerrainKind::Woods | TerrainKind::Swamp) && t.area_meets(&fp)
        }) {
            return Some(Halt::Terrain {
                terrain: t.name().to_string(),
            });
        }
    }
    if let Water::Barred(name) = water_under(&table.terrain, &fp, options.rivers, options.streams) {
        return Some(Halt::Terrain {
            terrain: name.to_string(),
        });
    }
    if m.charging() {
        if let Some(what) = super::spells::charge_barrier(table, &fp) {
            return Some(Halt::Magic {
                what: what.to_string(),
            });
        }
    }
    if matches!(
        m.plan.kind,
        PlanKind::Move {
            forced_march: true,
            ..
        }
    ) {
        if let Some(e) = bodies
            .iter()
            .find(|e| e.side != b.side && e.fp.distance(&fp) < FORCED_MARCH_CLEARANCE)
        {
            return Some(Halt::EnemyNear {
                unit: e.id.clone(),
                name: table.units[&e.id].name.clone(),
            });
        }
    }
    None
}

/// Tentative progress for one unit over a step that gives it `budget`
/// inches of allowance, with the speed changing where it enters or leaves
/// rough ground.
fn advance(table: &Table, options: &GameOptions, body: &Body, budget: f64) -> (f64, f64) {
    let m = body.motion.as_ref().expect("moving");
    if m.plan.is_change() {
        return (m.s + budget, m.spent + budget);
    }
    let len = m.plan.length();
    let factor = |s: f64| {
        terrain_factor(
            table,
            options,
            body,
            &m.plan.pose_at(s).footprint(body.kind),
        )
    };
    let f0 = factor(m.s);
    let full = (m.s + budget * f0).min(len);
    if factor(full) == f0 {
        return (full, m.spent + (full - m.s) / f0);
    }
    let (mut lo, mut hi) = (m.s, full);
    for _ in 0..BISECT {
        let mid = (lo + hi) / 2.0;
        if factor(mid) == f0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let f1 = factor(hi);
    let used = (hi - m.s) / f0;
    let next = (hi + (budget - used).max(0.0) * f1).min(len);
    (next, m.spent + used + (next - hi) / f1)
}

/// Units that may overlap without it being a contact: melee partners, and
/// an evader passing through friends (§6).
fn may_overlap(table: &Table, a: &Body, b: &Body) -> bool {
    if table.units[&a.id].in_melee_with.contains(&b.id) {
        return true;
    }
    if a.passes_through.as_ref() == Some(&b.id) || b.passes_through.as_ref() == Some(&a.id) {
        return true;
    }
    let evading = |x: &Body| x.motion.as_ref().is_some_and(Motion::evading);
    a.side == b.side && (evading(a) || evading(b))
}

/// First moment (fraction of the step) two bodies overlap: `(last clear, first overlapping)`.
fn first_touch(bodies: &[Body], i: usize, j: usize) -> (f64, f64) {
    let (a, b) = (&bodies[i], &bodies[j]);
    let overlap = |t: f64| {
        a.pose_at(t)
            .footprint(a.kind)
            .overlaps(&b.pose_at(t).footprint(b.kind))
    };
    if overlap(0.0) {
        return (0.0, 0.0);
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..BISECT {
        let mid = (lo + hi) / 2.0;
        if overlap(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    (lo, hi)
}

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

/// A unit on the table for the clock, moving along `plan` if it has one.
fn body(table: &Table, options: &GameOptions, u: &Unit, plan: Option<Plan>) -> Body {
    let pose = plan.as_ref().map_or(u.pose(), |pl| pl.start);
    let fp = pose.footprint(u.kind);
    let motion = plan.map(|plan| {
        let rate = match options.clock {
            Clock::SharedInch => 1.0,
            Clock::Proportional => plan.allowance.max(EPSILON),
        };
        let done = plan.length() <= EPSILON;
        Motion {
            rate,
            s: 0.0,
            spent: 0.0,
            done,
            stopped: false,
            pending_halt: None,
            next_s: 0.0,
            next_spent: 0.0,
            on_table: within_table(table, &fp),
            last_clear: 0.0,
            passed: BTreeSet::new(),
            change_made: false,
            in_range: BTreeMap::new(),
            path: vec![PathPoint {
                clock: 0.0,
                front: pose.front,
                facing: pose.facing,
            }],
            plan,
        }
    });
    let sure_footed = u.kind == UnitType::LightInfantry
        || u.has_trait(Trait::Pict)
        || u.has_trait(Trait::Kushite);
    let range = longest_range(&u.weapons);
    Body {
        id: u.id.clone(),
        side: u.side.clone(),
        kind: u.kind,
        sure_footed,
        range,
        pose,
        fp,
        next_fp: fp,
        start_fp: u.footprint(),
        motion,
        passes_through: None,
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

/// Advance the clock until every plan is done.
fn run_clock(turn: &mut TurnState, options: &GameOptions, bodies: &mut [Body], phase: Phase) {
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
fn tentative(turn: &TurnState, options: &GameOptions, bodies: &mut [Body], dt: f64) {
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
fn overlapping_pairs(table: &Table, bodies: &[Body]) -> Vec<(usize, usize)> {
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
fn commit(bodies: &mut [Body], alpha: f64, clock: f64, next_clock: f64) {
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
fn note_ranges(bodies: &mut [Body], clock: f64) {
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

/// After a full step: halts take effect, spent plans finish, changes of
/// face or formation whose 3 inches are up are made if there is room.
fn settle_step(turn: &mut TurnState, bodies: &mut [Body], phase: Phase, clock: f64) {
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
fn touch(
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
const FRONT_SAMPLES: usize = 16;

/// The point that decides which face of the other the striker struck
/// (ruling E-7): the middle of the part of its front edge that touches the
/// other, or its front centre when its front does not touch. A line whose
/// front lies only partly against the other's front (an overlap at one
/// end) has struck that front, wherever its own centre is.
fn striking_point(striker: &Footprint, other: &Footprint) -> glam::DVec2 {
    let (l, r) = striker.edge(Edge::Front);
    let touching: Vec<glam::DVec2> = (0..=FRONT_SAMPLES)
        .map(|k| l + (r - l) * (k as f64 / FRONT_SAMPLES as f64))
        .filter(|p| super::ground::nearest_point(other, *p).distance(*p) <= CONTACT)
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
fn close_up(turn: &TurnState, bodies: &mut [Body], s: usize, d: usize, struck: Edge) {
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
            PlanKind::Change { face, formation } => {
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
                        let wheel_made = match m.plan.legs.first() {
                            Some(leg @ super::route::Leg::Wheel { .. }) => {
                                wheel * (m.s / leg.length()).min(1.0)
                            }
                            _ => 0.0,
                        };
                        turn.events.push(Event::Moved {
                            unit: id,
                            name,
                            phase: p,
                            distance: m.s,
                            wheel: wheel_made,
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

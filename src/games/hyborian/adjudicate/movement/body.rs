//! The bodies on the clock: a unit's footprint and how far along its plan it
//! is, how fast it goes over the ground, and when two bodies first touch.

use super::BISECT;
use crate::games::hyborian::adjudicate::events::Halt;
use crate::games::hyborian::adjudicate::record::{InRange, PathPoint};
use crate::games::hyborian::adjudicate::route::{self, Plan, PlanKind};
use crate::games::hyborian::rules::missile::longest_range;
use crate::games::hyborian::rules::movement::{FORCED_MARCH_CLEARANCE, ROUGH_SPEED};
use crate::games::hyborian::rules::options::{Clock, GameOptions};
use crate::games::hyborian::rules::UnitType;
use crate::games::hyborian::table::geometry::Pose;
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Table, TerrainKind, Unit, UnitId};
use crate::geometry::{Footprint, EPSILON, TOUCH};
use std::collections::{BTreeMap, BTreeSet};

/// A unit moving this phase and how far along its plan it is.
pub(super) struct Motion {
    pub(super) plan: Plan,
    /// Allowance spent per clock unit.
    pub(super) rate: f64,
    /// Inches along the plan.
    pub(super) s: f64,
    /// Inches of allowance spent (rough terrain costs double).
    pub(super) spent: f64,
    pub(super) done: bool,
    /// The move was stopped by a halt, a friend or a contact.
    pub(super) stopped: bool,
    /// Set when a step's end breaks a rule (edge, terrain, 24 inches).
    pub(super) pending_halt: Option<Halt>,
    pub(super) next_s: f64,
    pub(super) next_spent: f64,
    /// Started wholly on the table (the edge halts only such units).
    pub(super) on_table: bool,
    /// Evaders: last progress at which no friend was overlapped.
    pub(super) last_clear: f64,
    /// Evaders: friends overlapped on the way (§6).
    pub(super) passed: BTreeSet<UnitId>,
    pub(super) change_made: bool,
    pub(super) path: Vec<PathPoint>,
    /// Enemy missile units whose range it has come within.
    pub(super) in_range: BTreeMap<UnitId, InRange>,
}

impl Motion {
    pub(super) fn charging(&self) -> bool {
        matches!(self.plan.kind, PlanKind::Charge { denied: None, .. })
    }
    pub(super) fn evading(&self) -> bool {
        matches!(self.plan.kind, PlanKind::Evade { .. })
    }
    pub(super) fn active(&self) -> bool {
        !self.done
    }
}

/// A unit on the table during the phase.
pub(super) struct Body {
    pub(super) id: UnitId,
    pub(super) side: String,
    pub(super) kind: UnitType,
    /// Not slowed by one-contour hills (light foot, Picts, Kushites, §7).
    pub(super) sure_footed: bool,
    /// Longest missile range, for units that shoot (§6).
    pub(super) range: Option<f64>,
    pub(super) pose: Pose,
    pub(super) fp: Footprint,
    pub(super) next_fp: Footprint,
    /// The footprint when the phase began (distances "moving away", §6).
    pub(super) start_fp: Footprint,
    pub(super) motion: Option<Motion>,
    /// The enemy this unit rides through (heavy-cavalry breakthrough, §4).
    pub(super) passes_through: Option<UnitId>,
}

impl Body {
    pub(super) fn active(&self) -> bool {
        self.motion.as_ref().is_some_and(Motion::active)
    }

    pub(super) fn pose_at(&self, alpha: f64) -> Pose {
        match &self.motion {
            Some(m) if m.active() => m.plan.pose_at(m.s + alpha * (m.next_s - m.s)),
            _ => self.pose,
        }
    }
}

/// Speed factor for a footprint: half in hills, woods and swamps (§7), and
/// in fords and fordable water (ruling T-2).
pub(super) fn terrain_factor(
    table: &Table,
    options: &GameOptions,
    body: &Body,
    fp: &Footprint,
) -> f64 {
    let slowed = route::slowed(table, options, body.sure_footed, fp);
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
pub(super) fn breach(
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
        if let Some(what) = crate::games::hyborian::adjudicate::spells::charge_barrier(table, &fp) {
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
pub(super) fn advance(
    table: &Table,
    options: &GameOptions,
    body: &Body,
    budget: f64,
) -> (f64, f64) {
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
pub(super) fn may_overlap(table: &Table, a: &Body, b: &Body) -> bool {
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
pub(super) fn first_touch(bodies: &[Body], i: usize, j: usize) -> (f64, f64) {
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

/// A unit on the table for the clock, moving along `plan` if it has one.
pub(super) fn body(table: &Table, options: &GameOptions, u: &Unit, plan: Option<Plan>) -> Body {
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
    let sure_footed = route::sure_footed(u);
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

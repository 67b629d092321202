//! Movement routes (plans): what each unit will do in a phase, fixed at the start
//! of the phase (§3: a charge's path is planned before anyone moves), as a
//! sequence of legs measured in inches of movement.
//!
//! A leg is a straight move, a wheel about a front corner (its length is
//! the outer flank's arc), a stretch of road, or a change of face or
//! formation (3 inches of movement, made all at once when its time is up).

use super::events::{Event, NoCharge, Refusal};
use crate::games::hyborian::orders::plan::{
    Charge, ChargeTarget, Direction, Distance, FaceChange, FormationChange, Function, Hand, Move,
    Target, WheelAngle,
};
use crate::games::hyborian::rules::formations::{
    formation_fits, COLUMN_MIN_RANKS, LINE_MAX_RANKS, RING_MAX_RANKS, ROAD_COLUMN_MAX_FILES,
};
use crate::games::hyborian::rules::movement::{
    self as movement, allowance, Pace, CHANGE_COST, FOOT_STEP_BACK, OBLIQUE_MAX_DEGREES,
    TERRAIN_EDGE_BAND, WHEEL_SHARE,
};
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Formation, UnitType};
use crate::games::hyborian::table::geometry::{files_and_ranks, Pose};
use crate::games::hyborian::table::positional::bent;
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Table, TerrainKind, Unit, UnitId};
use crate::geometry::Footprint;
use crate::geometry::{bearing_of, heading, normalize_bearing, rotate_cw, turn_between};
use crate::geometry::{point_at_station, polyline_length, station_on_polyline};
use glam::DVec2;

/// Wheels smaller than this are not made (degrees).
const NO_WHEEL: f64 = movement::WHEEL_TOLERANCE;

/// One stretch of a plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Leg {
    /// Straight along a bearing, facing unchanged (forward, oblique, back).
    Straight {
        from: Pose,
        bearing: f64,
        length: f64,
    },
    /// Wheel by `turn` degrees (positive right) about the inner front corner.
    Wheel {
        from: Pose,
        pivot: DVec2,
        turn: f64,
        frontage: f64,
    },
    /// Along a road polyline from station `start`, `sense` = ±1.
    Road {
        from: Pose,
        line: Vec<DVec2>,
        start: f64,
        sense: f64,
        length: f64,
    },
    /// A change of face and/or formation: the unit keeps `from` until the
    /// change's 3 inches are spent, then stands as `to`.
    Change { from: Pose, to: Pose },
}

impl Leg {
    /// Inches of movement the leg takes.
    pub fn length(&self) -> f64 {
        match self {
            Leg::Straight { length, .. } | Leg::Road { length, .. } => *length,
            Leg::Wheel { turn, frontage, .. } => frontage * turn.abs().to_radians(),
            Leg::Change { .. } => CHANGE_COST,
        }
    }

    /// Pose after `s` inches of this leg (a change shows its old pose; the
    /// engine applies the new one when its time comes).
    pub fn pose_at(&self, s: f64) -> Pose {
        match self {
            Leg::Straight { from, bearing, .. } => Pose {
                front: from.front + heading(*bearing) * s,
                ..*from
            },
            Leg::Wheel {
                from,
                pivot,
                turn,
                frontage,
            } => {
                let phi = if *frontage > 0.0 {
                    (s / frontage).to_degrees() * turn.signum()
                } else {
                    0.0
                };
                Pose {
                    front: *pivot + rotate_cw(from.front - *pivot, phi),
                    facing: normalize_bearing(from.facing + phi),
                    ..*from
                }
            }
            Leg::Road {
                from,
                line,
                start,
                sense,
                ..
            } => {
                let (p, dir) = point_at_station(line, start + sense * s);
                Pose {
                    front: p,
                    facing: bearing_of(dir * *sense),
                    ..*from
                }
            }
            Leg::Change { from, .. } => *from,
        }
    }

    /// Pose at the end of the leg.
    pub fn end(&self) -> Pose {
        match self {
            Leg::Change { to, .. } => *to,
            _ => self.pose_at(self.length()),
        }
    }
}

/// What kind of plan (for the record and the reports).
#[derive(Debug, Clone, PartialEq)]
pub enum PlanKind {
    Move {
        forced_march: bool,
        wheel: f64,
    },
    Charge {
        target: Option<UnitId>,
        wheel: f64,
        /// Written as a charge but no charge (§7): a move at the normal rate.
        denied: Option<NoCharge>,
        /// Terrain areas (indices into `Table::terrain`) the unit charges out
        /// of from their edge (§7): they do not cost it its charge bonus.
        out_of: Vec<usize>,
    },
    Change {
        face: bool,
        formation: bool,
        /// A positional line bent back to keep within this terrain (§1;
        /// ruling E-4).
        bent_to: Option<&'static str>,
    },
    /// Evading the charge of this unit (§6).
    Evade {
        from: UnitId,
    },
    /// Medium cavalry breaking off from melee (§3).
    BreakOff,
}

/// A unit's plan for one phase.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub kind: PlanKind,
    /// Pose at the start (an evader has already turned about, for free).
    pub start: Pose,
    pub legs: Vec<Leg>,
    /// Inches of allowance the plan may spend.
    pub budget: f64,
    /// The unit's allowance for the phase (sets its pace on the proportional clock).
    pub allowance: f64,
}

impl Plan {
    /// Total inches of movement in the legs.
    pub fn length(&self) -> f64 {
        self.legs.iter().map(Leg::length).sum()
    }

    /// Pose after `s` inches along the plan.
    pub fn pose_at(&self, s: f64) -> Pose {
        let mut left = s;
        for leg in &self.legs {
            let l = leg.length();
            if left <= l {
                return leg.pose_at(left.max(0.0));
            }
            left -= l;
        }
        self.legs.last().map_or(self.start, |l| match l {
            Leg::Change { from, .. } => *from,
            other => other.end(),
        })
    }

    pub fn is_change(&self) -> bool {
        matches!(self.kind, PlanKind::Change { .. })
    }

    /// The pose a change ends in.
    pub fn changed_pose(&self) -> Option<Pose> {
        match self.legs.as_slice() {
            [Leg::Change { to, .. }] => Some(*to),
            _ => None,
        }
    }
}

/// Pose after wheeling `turn` degrees (positive right) about the inner front corner.
pub fn wheel_leg(from: Pose, kind: UnitType, turn: f64) -> Leg {
    let fp = from.footprint(kind);
    let frontage = 2.0 * fp.half_width;
    let side = if turn >= 0.0 { fp.right() } else { -fp.right() };
    Leg::Wheel {
        from,
        pivot: from.front + side * fp.half_width,
        turn,
        frontage,
    }
}

/// The wheel (degrees, positive right) that points the unit at `aim`
/// ([`Pose::wheel_toward`], which the order checker uses too).
pub fn wheel_toward(from: Pose, kind: UnitType, aim: DVec2) -> f64 {
    from.wheel_toward(kind, aim)
}

/// Largest wheel (degrees) that costs no more than `max_cost` inches on the outer flank.
fn wheel_limit(from: Pose, kind: UnitType, max_cost: f64) -> f64 {
    let frontage = 2.0 * from.footprint(kind).half_width;
    movement::wheel_costing(frontage, max_cost)
}

/// Change of face about the front centre (§2), set back so that no part of
/// the unit stands forward of its old front edge: a change of face may not
/// bring the unit closer to the enemy. An about-face thus puts the new
/// front where the rear rank stood.
pub fn faced(from: Pose, kind: UnitType, bearing: f64) -> Pose {
    let turned = Pose {
        facing: normalize_bearing(bearing),
        ..from
    };
    let ahead = heading(from.facing);
    let forward = turned
        .footprint(kind)
        .corners()
        .iter()
        .map(|c| (*c - from.front).dot(ahead))
        .fold(0.0, f64::max);
    Pose {
        front: turned.front - ahead * forward,
        ..turned
    }
}

/// New files and ranks for a change of formation (§1 limits; the
/// defaults when the order gives no figure are ruled in docs/rulings/engine.md).
pub fn reformed(from: Pose, unit: &Unit, change: &FormationChange) -> Result<Pose, Refusal> {
    let n = crate::games::hyborian::rules::bases::models(unit.kind, unit.figures);
    let (files, ranks) = match change.formation {
        Formation::Line | Formation::PositionalLine => {
            let r = change.ranks.unwrap_or(from.ranks.min(LINE_MAX_RANKS));
            files_and_ranks(unit.kind, unit.figures, None, Some(r))
        }
        Formation::Column => {
            let f = change
                .files
                .unwrap_or((n / COLUMN_MIN_RANKS).clamp(1, from.files.max(1)));
            files_and_ranks(unit.kind, unit.figures, Some(f), None)
        }
        Formation::RoadColumn => {
            let f = change.files.unwrap_or(ROAD_COLUMN_MAX_FILES);
            files_and_ranks(unit.kind, unit.figures, Some(f), None)
        }
        Formation::Ring => files_and_ranks(
            unit.kind,
            unit.figures,
            None,
            Some(change.ranks.unwrap_or(RING_MAX_RANKS)),
        ),
    };
    formation_fits(change.formation, files, ranks).map_err(|_| Refusal::FormationDoesNotFit)?;
    Ok(Pose {
        formation: change.formation,
        files,
        ranks,
        ..from
    })
}

/// The bearing a face change turns the unit to.
fn face_bearing(table: &Table, from: Pose, change: &FaceChange) -> Result<f64, Refusal> {
    Ok(match change {
        FaceChange::Turn {
            hand: Hand::Right,
            degrees,
        } => from.facing + degrees,
        FaceChange::Turn {
            hand: Hand::Left,
            degrees,
        } => from.facing - degrees,
        FaceChange::About => from.facing + 180.0,
        FaceChange::Bearing(b) => *b,
        FaceChange::ToFace(t) => bearing_of(target_point(table, t)? - from.front),
    })
}

/// Where a target stands: a point, or the centre of a unit.
fn target_point(table: &Table, t: &Target) -> Result<DVec2, Refusal> {
    match t {
        Target::Point(p) => Ok(*p),
        Target::Unit(id) => table
            .units
            .get(id)
            .filter(|u| u.status.is_present())
            .map(|u| u.footprint().centre)
            .ok_or(Refusal::NoSuchTarget),
    }
}

/// The road the unit's front centre stands on, if any.
fn road_under(table: &Table, p: DVec2) -> Option<&[DVec2]> {
    table
        .terrain
        .iter()
        .find(|t| t.road_holds(p))
        .map(|t| t.points.as_slice())
}

/// Everything planning needs to know besides the unit and its order.
pub struct Context<'a> {
    pub table: &'a Table,
    pub options: &'a GameOptions,
    pub phase: u8,
    /// Units some enemy charges this phase (a forced march is cut back).
    pub charged: &'a std::collections::BTreeSet<UnitId>,
}

fn wheel_for(
    ctx: &Context,
    unit: &Unit,
    from: Pose,
    angle: &WheelAngle,
    hand: Hand,
) -> Result<f64, Refusal> {
    Ok(match angle {
        WheelAngle::Degrees(d) if hand == Hand::Right => d.abs(),
        WheelAngle::Degrees(d) => -d.abs(),
        WheelAngle::ToFace(t) => wheel_toward(from, unit.kind, target_point(ctx.table, t)?),
    })
}

/// Plan a move order (§3). Returns the plan and any event about limits.
fn plan_move(
    ctx: &Context,
    unit: &Unit,
    m: &Move,
    events: &mut Vec<Event>,
) -> Result<Plan, Refusal> {
    let start = unit.pose();
    let road = road_under(ctx.table, start.front);
    let road_column = start.formation == Formation::RoadColumn;
    if m.forced_march && !road_column {
        return Err(Refusal::ForcedMarchNeedsRoadColumn);
    }
    let on_road = road.is_some() && m.along_road;
    let horse_archer = unit.has_trait(crate::games::hyborian::rules::Trait::HorseArcher)
        && ctx.options.horse_archer_column_bonus;
    let budget = if m.forced_march && !ctx.charged.contains(&unit.id) {
        allowance(
            unit.kind,
            start.formation,
            Pace::ForcedMarch { on_road },
            horse_archer,
        )
    } else {
        // A forced march that is charged is cut back to the normal column move (§3).
        allowance(
            unit.kind,
            start.formation,
            if on_road && !m.forced_march {
                Pace::OnRoad
            } else {
                Pace::Normal
            },
            horse_archer,
        )
    };
    let mut legs = Vec::new();
    let mut pose = start;
    let mut wheel = 0.0;
    if let Some(w) = &m.wheel {
        let ordered = wheel_for(ctx, unit, start, &w.angle, w.hand)?;
        let limit = wheel_limit(start, unit.kind, budget * WHEEL_SHARE);
        wheel = ordered.clamp(-limit, limit);
        if (ordered - wheel).abs() > NO_WHEEL {
            events.push(Event::WheelCut {
                unit: unit.id.clone(),
                name: unit.name.clone(),
                phase: ctx.phase,
                ordered,
                made: wheel,
            });
        }
        if wheel.abs() >= NO_WHEEL {
            let leg = wheel_leg(start, unit.kind, wheel);
            pose = leg.end();
            legs.push(leg);
        } else {
            wheel = 0.0;
        }
    }
    let spent: f64 = legs.iter().map(Leg::length).sum();
    let left = (budget - spent).max(0.0);
    let wanted = |cap: f64| match m.distance {
        Distance::Full => cap,
        Distance::Inches(d) => d.clamp(0.0, cap),
    };
    if m.along_road {
        if let Some(line) = road {
            let s0 = station_on_polyline(pose.front, line);
            let (_, dir) = point_at_station(line, s0);
            let sense = if dir.dot(heading(pose.facing)) >= 0.0 {
                1.0
            } else {
                -1.0
            };
            let room = if sense > 0.0 {
                polyline_length(line) - s0
            } else {
                s0
            };
            legs.push(Leg::Road {
                from: pose,
                line: line.to_vec(),
                start: s0,
                sense,
                length: wanted(left).min(room),
            });
            return Ok(Plan {
                kind: PlanKind::Move {
                    forced_march: m.forced_march,
                    wheel,
                },
                start,
                legs,
                budget,
                allowance: budget,
            });
        }
    }
    let (bearing, length) = match &m.direction {
        Direction::Forward => (pose.facing, wanted(left)),
        Direction::Back if movement::may_step_back(unit.kind) => {
            (pose.facing + 180.0, wanted(left.min(FOOT_STEP_BACK)))
        }
        Direction::Back => return Err(Refusal::StepBackFootOnly),
        Direction::Oblique { hand, degrees } => {
            let d = degrees.abs().min(OBLIQUE_MAX_DEGREES);
            (
                if *hand == Hand::Right {
                    pose.facing + d
                } else {
                    pose.facing - d
                },
                wanted(left),
            )
        }
        Direction::Toward(t) => {
            let aim = target_point(ctx.table, t)?;
            let turn = turn_between(pose.facing, bearing_of(aim - pose.front));
            if turn.abs() <= OBLIQUE_MAX_DEGREES || m.wheel.is_some() {
                (
                    pose.facing + turn.clamp(-OBLIQUE_MAX_DEGREES, OBLIQUE_MAX_DEGREES),
                    wanted(left).min(pose.front.distance(aim)),
                )
            } else {
                let limit = wheel_limit(pose, unit.kind, budget * WHEEL_SHARE);
                wheel = wheel_toward(pose, unit.kind, aim).clamp(-limit, limit);
                let leg = wheel_leg(pose, unit.kind, wheel);
                pose = leg.end();
                let left = (budget - leg.length()).max(0.0);
                legs.push(leg);
                (pose.facing, wanted(left).min(pose.front.distance(aim)))
            }
        }
    };
    if length > 0.0 {
        legs.push(Leg::Straight {
            from: pose,
            bearing: normalize_bearing(bearing),
            length,
        });
    }
    Ok(Plan {
        kind: PlanKind::Move {
            forced_march: m.forced_march,
            wheel,
        },
        start,
        legs,
        budget,
        allowance: budget,
    })
}

/// Plan a charge (§3): a wheel of at most half the charge move toward the
/// target's nearest face (or the bearing), then straight on for the rest.
/// A charge the ground forbids (§7, [`charge_ground`]) is planned the same
/// way at the unit's normal rate, and marked `denied`.
fn plan_charge(
    ctx: &Context,
    unit: &Unit,
    charge: &Charge,
    events: &mut Vec<Event>,
) -> Result<Plan, Refusal> {
    let target = &charge.target;
    let target_unit = match target {
        ChargeTarget::Unit(id) => {
            let t = ctx
                .table
                .units
                .get(id)
                .filter(|u| u.status.is_present())
                .ok_or(Refusal::NoSuchTarget)?;
            if !movement::may_charge(unit.kind, t.kind) {
                return Err(Refusal::InfantryCannotChargeCavalry);
            }
            Some(t)
        }
        _ => None,
    };
    let path = charge_path(unit, charge, target_unit, Pace::Charge);
    let (denied, out_of) = charge_ground(ctx.table, unit, target_unit, &path);
    let (legs, wheel, budget) = match denied {
        Some(_) => charge_path(unit, charge, target_unit, Pace::Normal),
        None => path,
    };
    if let Some(ordered) = charge.sweep.filter(|o| (o - wheel).abs() > NO_WHEEL) {
        events.push(Event::WheelCut {
            unit: unit.id.clone(),
            name: unit.name.clone(),
            phase: ctx.phase,
            ordered,
            made: wheel,
        });
    }
    Ok(Plan {
        kind: PlanKind::Charge {
            target: target_unit.map(|t| t.id.clone()),
            wheel,
            denied,
            out_of,
        },
        start: unit.pose(),
        legs,
        budget,
        allowance: budget,
    })
}

/// The legs of a charge at `pace`: the written sweep, or a wheel toward the
/// aim, within half the distance, then straight on. Returns the legs, the
/// wheel and the distance.
fn charge_path(
    unit: &Unit,
    charge: &Charge,
    target_unit: Option<&Unit>,
    pace: Pace,
) -> (Vec<Leg>, f64, f64) {
    charge_path_from(unit.pose(), unit.kind, charge, target_unit, pace)
}

/// The way a charge written without a sweep at `target` runs from `start`
/// at the charge pace (§3), and the inches it may run: what a general
/// reads to judge whether a charge would land.
pub fn charge_legs(start: Pose, kind: UnitType, target: &Unit) -> (Vec<Leg>, f64) {
    let charge = Charge {
        target: ChargeTarget::Unit(target.id.clone()),
        sweep: None,
        breakthrough: false,
        break_off: false,
    };
    let (legs, _, budget) = charge_path_from(start, kind, &charge, Some(target), Pace::Charge);
    (legs, budget)
}

/// [`charge_path`] from a pose.
fn charge_path_from(
    start: Pose,
    kind: UnitType,
    charge: &Charge,
    target_unit: Option<&Unit>,
    pace: Pace,
) -> (Vec<Leg>, f64, f64) {
    let budget = allowance(kind, start.formation, pace, false);
    let limit = wheel_limit(start, kind, budget * WHEEL_SHARE);
    let wanted = match (&charge.target, target_unit) {
        // The sweep as written (ruling E-30).
        _ if charge.sweep.is_some() => charge.sweep.unwrap_or_default(),
        (ChargeTarget::Bearing(b), _) => turn_between(start.facing, *b),
        // Straight ahead when that strikes the target: a charge wheels only
        // to reach it, never to centre on it (§4 overlaps "on either or
        // both ends").
        (ChargeTarget::Unit(_), Some(t)) if reaches_straight(start, kind, budget, t) => 0.0,
        (ChargeTarget::Unit(_), Some(t)) => {
            let fp = t.footprint();
            let (a, b) = fp.edge(fp.arc_of(start.front));
            wheel_toward(start, kind, (a + b) / 2.0)
        }
        _ => 0.0,
    };
    let wheel = if wanted.abs() < NO_WHEEL {
        0.0
    } else {
        wanted.clamp(-limit, limit)
    };
    let mut legs = Vec::new();
    let mut pose = start;
    if wheel != 0.0 {
        let leg = wheel_leg(start, kind, wheel);
        pose = leg.end();
        legs.push(leg);
    }
    let left = budget - legs.iter().map(Leg::length).sum::<f64>();
    legs.push(Leg::Straight {
        from: pose,
        bearing: pose.facing,
        length: left.max(0.0),
    });
    (legs, wheel, budget)
}

/// Whether a unit running straight ahead `distance` inches from `start`
/// would strike `target` where it stands.
fn reaches_straight(start: Pose, kind: UnitType, distance: f64, target: &Unit) -> bool {
    let fp = start.footprint(kind);
    let swept = crate::geometry::Footprint::behind(
        start.front + heading(start.facing) * distance,
        start.facing,
        2.0 * fp.half_width,
        2.0 * fp.half_depth + distance,
    );
    let tfp = target.footprint();
    // Ahead of the front, not beside it: the swept ground beyond the front edge.
    let ahead = crate::geometry::Footprint::behind(
        start.front + heading(start.facing) * distance,
        start.facing,
        2.0 * fp.half_width,
        distance,
    );
    swept.overlaps(&tfp) && ahead.overlaps(&tfp)
}

/// Whether a written charge at `target` is a charge the ground allows (§7):
/// only such a charge sets off an evade.
pub fn ground_allows_charge(table: &Table, unit: &Unit, charge: &Charge) -> bool {
    let target_unit = match &charge.target {
        ChargeTarget::Unit(id) => table.units.get(id),
        _ => None,
    };
    let path = charge_path(unit, charge, target_unit, Pace::Charge);
    charge_ground(table, unit, target_unit, &path).0.is_none()
}

/// Spacing of the poses at which a charge's way is checked for terrain (inches).
const ROUTE_STEP: f64 = 0.5;

/// Troops a one-contour hill does not slow (§7): light foot, Picts, Kushites.
pub fn sure_footed(u: &Unit) -> bool {
    use crate::games::hyborian::rules::Trait;
    u.kind == UnitType::LightInfantry || u.has_trait(Trait::Pict) || u.has_trait(Trait::Kushite)
}

/// Whether the ground under `fp` halves a unit's pace: hills (a gentle
/// one not for `sure_footed` troops unless the club says so), woods and
/// swamps (§7), fords and fordable water (ruling T-2).
pub fn slowed(table: &Table, options: &GameOptions, sure_footed: bool, fp: &Footprint) -> bool {
    table.terrain.iter().any(|t| {
        let slows = match t.kind {
            TerrainKind::Hill { contours: 1 } => {
                !sure_footed || options.gentle_hills_slow_light_foot
            }
            TerrainKind::Hill { .. } | TerrainKind::Woods | TerrainKind::Swamp => true,
            TerrainKind::Road { .. } => false,
            // Water is judged as a whole below (fords and bridges cross it).
            TerrainKind::River | TerrainKind::Stream | TerrainKind::Ford | TerrainKind::Bridge => {
                false
            }
        };
        slows && t.area_meets(fp)
    }) || water_under(&table.terrain, fp, options.rivers, options.streams) == Water::Slowed
}

/// Light foot, Picts, Kushites and Black Amazons fight and charge in rough
/// ground as in the open (§4, §7 "with the same exceptions"; ruling C-19).
pub(crate) fn rough_ground_troops(u: &Unit) -> bool {
    use crate::games::hyborian::rules::Trait;
    u.kind == UnitType::LightInfantry
        || u.has_trait(Trait::Pict)
        || u.has_trait(Trait::Kushite)
        || u.has_trait(Trait::BlackAmazon)
}

/// What the ground makes of a charge (§7), judged when it is planned: the
/// reason it is no charge, if it is not, and the areas it charges out of
/// from their edge (which keep its bonus). Nobody charges out of a swamp
/// (rough-ground troops may charge a target in the same swamp); others
/// may not charge while in woods unless on their edge, nor into woods or a
/// swamp — the target standing in one, or its way there crossing one
/// (ruling E-29).
pub(crate) fn charge_ground(
    table: &Table,
    unit: &Unit,
    target: Option<&Unit>,
    legs: &(Vec<Leg>, f64, f64),
) -> (Option<NoCharge>, Vec<usize>) {
    let start = unit.footprint();
    let rough = |k: &TerrainKind| matches!(k, TerrainKind::Woods | TerrainKind::Swamp);
    let started_in: Vec<usize> = (0..table.terrain.len())
        .filter(|i| {
            let t = &table.terrain[*i];
            (rough(&t.kind) || matches!(t.kind, TerrainKind::Hill { contours: 2.. }))
                && t.area_meets(&start)
        })
        .collect();
    let at_home = rough_ground_troops(unit);
    let target_fp = target.map(|t| t.footprint());
    for i in &started_in {
        let t = &table.terrain[*i];
        if t.kind == TerrainKind::Swamp {
            let within = at_home && target_fp.is_some_and(|f| t.area_meets(&f));
            if !within {
                return (Some(NoCharge::OutOfSwamp), Vec::new());
            }
        }
    }
    let on_edge =
        |t: &crate::games::hyborian::table::Terrain| t.edge_holds(unit.front, TERRAIN_EDGE_BAND);
    let out_of: Vec<usize> = started_in
        .iter()
        .copied()
        .filter(|i| table.terrain[*i].kind != TerrainKind::Swamp && on_edge(&table.terrain[*i]))
        .filter(|i| target_fp.is_none_or(|f| !table.terrain[*i].area_meets(&f)))
        .collect();
    if at_home {
        return (None, out_of);
    }
    if started_in
        .iter()
        .any(|i| table.terrain[*i].kind == TerrainKind::Woods && !out_of.contains(i))
    {
        return (Some(NoCharge::InWoods), Vec::new());
    }
    let into = |t: &crate::games::hyborian::table::Terrain| {
        if t.kind == TerrainKind::Woods {
            NoCharge::IntoWoods
        } else {
            NoCharge::IntoSwamp
        }
    };
    if let Some(f) = target_fp {
        if let Some(t) = table
            .terrain
            .iter()
            .find(|t| rough(&t.kind) && t.area_meets(&f))
        {
            return (Some(into(t)), Vec::new());
        }
    }
    // The way there: the path until it first touches the target (or all of it).
    let plan = Plan {
        kind: PlanKind::Move {
            forced_march: false,
            wheel: 0.0,
        },
        start: unit.pose(),
        legs: legs.0.clone(),
        budget: legs.2,
        allowance: legs.2,
    };
    let len = plan.length();
    let steps = (len / ROUTE_STEP).ceil() as usize;
    for k in 0..=steps {
        let fp = plan
            .pose_at(len * k as f64 / steps.max(1) as f64)
            .footprint(unit.kind);
        if target_fp.is_some_and(|f| f.distance(&fp) <= 1e-6) {
            break;
        }
        let crossed = table
            .terrain
            .iter()
            .enumerate()
            .find(|(i, t)| rough(&t.kind) && !out_of.contains(i) && t.area_meets(&fp));
        if let Some((_, t)) = crossed {
            return (Some(into(t)), Vec::new());
        }
    }
    (None, out_of)
}

/// Plan a change of face and/or formation (3 inches of movement).
fn plan_change(
    ctx: &Context,
    unit: &Unit,
    face: Option<&FaceChange>,
    formation: Option<&FormationChange>,
) -> Result<Plan, Refusal> {
    let start = unit.pose();
    if face.is_some() && unit.kind.wheels_only() {
        return Err(Refusal::WheelsOnly);
    }
    let mut to = start;
    if let Some(change) = formation {
        to = reformed(to, unit, change)?;
    }
    if let Some(change) = face {
        to = faced(to, unit.kind, face_bearing(ctx.table, start, change)?);
    }
    let bent_to = bent(ctx.table, ctx.options, unit, to).map(|(pose, area)| {
        to = pose;
        area
    });
    let allowance = allowance(unit.kind, start.formation, Pace::Normal, false);
    Ok(Plan {
        kind: PlanKind::Change {
            face: face.is_some(),
            formation: formation.is_some(),
            bent_to,
        },
        start,
        legs: vec![Leg::Change { from: start, to }],
        budget: CHANGE_COST,
        allowance,
    })
}

/// The plan for a unit's written function this phase (`Ok(None)`: it stands).
pub fn plan_function(
    ctx: &Context,
    unit: &Unit,
    f: &Function,
    events: &mut Vec<Event>,
) -> Result<Option<Plan>, Refusal> {
    match f {
        // The medium-cavalry break-off is not a normal move: in phase 1 the
        // phase plans it for a unit in melee; in phase 2 it is made after the
        // melee round.
        Function::Hold | Function::BreakOff => Ok(None),
        Function::Move(m) => plan_move(ctx, unit, m, events).map(Some),
        Function::Charge(c) => plan_charge(ctx, unit, c, events).map(Some),
        Function::Face(fc) => plan_change(ctx, unit, Some(fc), None).map(Some),
        Function::Formation(fm) => plan_change(ctx, unit, None, Some(fm)).map(Some),
        Function::FaceAndFormation(fc, fm) => plan_change(ctx, unit, Some(fc), Some(fm)).map(Some),
    }
}

/// The evade of §6: a free about-face, then the full move straight to the
/// rear (the unit's own line or column allowance).
pub fn plan_evade(unit: &Unit, charger: &UnitId) -> Plan {
    about_and_away(
        unit,
        PlanKind::Evade {
            from: charger.clone(),
        },
    )
}

/// Medium cavalry's break-off at the start of a turn whose melee began in
/// phase 2 of the last (§3 split move): a free turn-about, then away with
/// the full allowance.
pub fn plan_break_off(unit: &Unit) -> Plan {
    about_and_away(unit, PlanKind::BreakOff)
}

/// A free about-face, then the unit's full move straight on.
fn about_and_away(unit: &Unit, kind: PlanKind) -> Plan {
    let start = faced(unit.pose(), unit.kind, unit.facing + 180.0);
    let budget = allowance(unit.kind, start.formation, Pace::Normal, false);
    Plan {
        kind,
        start,
        legs: vec![Leg::Straight {
            from: start,
            bearing: start.facing,
            length: budget,
        }],
        budget,
        allowance: budget,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pose(x: f64, y: f64, facing: f64, files: u32, ranks: u32) -> Pose {
        Pose {
            front: DVec2::new(x, y),
            facing,
            formation: Formation::Line,
            files,
            ranks,
        }
    }

    #[test]
    fn wheel_costs_the_outer_flank_arc() {
        let p = pose(10.0, 10.0, 0.0, 10, 2); // frontage 5.906
        let leg = wheel_leg(p, UnitType::MediumInfantry, 90.0);
        let frontage = 10.0 * 15.0 / 25.4;
        assert!((leg.length() - frontage * std::f64::consts::FRAC_PI_2).abs() < 1e-9);
        let end = leg.end();
        assert!((end.facing - 90.0).abs() < 1e-9);
        // Right wheel pivots on the right front corner; front centre ends half a frontage ahead of it.
        assert!(
            (end.front - DVec2::new(10.0 + frontage / 2.0, 10.0 + frontage / 2.0)).length() < 1e-9
        );
    }

    #[test]
    fn face_change_never_ends_forward_of_the_old_front() {
        let p = pose(10.0, 10.0, 0.0, 10, 2);
        let about = faced(p, UnitType::MediumInfantry, 180.0);
        assert!(
            (about.front - DVec2::new(10.0, 8.0)).length() < 1e-9,
            "{:?}",
            about.front
        );
        let right = faced(p, UnitType::MediumInfantry, 90.0);
        let max_y = right
            .footprint(UnitType::MediumInfantry)
            .corners()
            .iter()
            .map(|c| c.y)
            .fold(f64::MIN, f64::max);
        assert!(max_y <= 10.0 + 1e-9);
        assert!((right.facing - 90.0).abs() < 1e-9);
    }

    /// The order checker weighs wheels with `Pose::wheeled`; it must be
    /// the engine's wheel to the last bit.
    #[test]
    fn a_pose_wheels_exactly_as_the_wheel_leg_ends() {
        let p = pose(10.0, 10.0, 30.0, 8, 2);
        for turn in [-170.0, -45.5, -0.3, 0.0, 12.25, 90.0, 180.0] {
            let leg = wheel_leg(p, UnitType::MediumInfantry, turn).end();
            assert_eq!(p.wheeled(UnitType::MediumInfantry, turn), leg, "{turn}");
        }
    }

    #[test]
    fn wheel_toward_points_the_front_at_the_aim() {
        let p = pose(10.0, 10.0, 0.0, 8, 2);
        let aim = DVec2::new(20.0, 20.0);
        let turn = wheel_toward(p, UnitType::MediumInfantry, aim);
        let end = wheel_leg(p, UnitType::MediumInfantry, turn).end();
        assert!(turn_between(end.facing, bearing_of(aim - end.front)).abs() < 0.01);
    }
}

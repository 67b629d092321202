//! Falling back and routing on the table (§5, §8): the move straight away
//! from the enemy (or up to 45° off it to use a gap), friends passed
//! through, terrain and the table edge, enemies run into, and the friends
//! that mammoths and chariots trample.
//!
//! Architecture invariant: a retreat never ends overlapping another unit
//! outside melee — a unit that would end on a friend carries on until it is
//! clear of it, or goes back to the last place it was clear.

use super::events::{Event, Halt};
use super::losses::take_losses;
use super::movement::within_table;
use super::record::{MoraleCall, MoraleCause};
use super::{roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::rules::bases::models;
use crate::games::hyborian::rules::formations::{
    formation_fits, COLUMN_MIN_RANKS, LINE_MAX_RANKS, ROAD_COLUMN_MAX_FILES,
};
use crate::games::hyborian::rules::melee::{average_from_normal_die, casualties, charge_bonus};
use crate::games::hyborian::rules::morale::FALL_BACK_ANGLE;
use crate::games::hyborian::rules::options::GameOptions;
use crate::games::hyborian::rules::{Formation, UnitType};
use crate::games::hyborian::table::geometry::Pose;
use crate::games::hyborian::table::terrain::{water_under, Water};
use crate::games::hyborian::table::{Table, TerrainKind, Unit, UnitId};
use crate::geometry::{bearing_of, heading, rotate_cw, Footprint, EPSILON};
use glam::DVec2;
use std::collections::BTreeSet;

/// Step along the path (inches).
const STEP: f64 = 0.2;
/// Bisection rounds when finding the moment of touch.
const BISECT: usize = 30;
/// Angles off straight back tried, in order, to find a gap (§8: up to 45°).
const GAP_TRIES: [f64; 7] = [
    0.0,
    15.0,
    -15.0,
    30.0,
    -30.0,
    FALL_BACK_ANGLE,
    -FALL_BACK_ANGLE,
];
/// Farthest a unit carries on past its move to get clear of a friend it
/// would otherwise end on (inches).
const CLEAR_LIMIT: f64 = 48.0;

/// Falling back faces the enemy at the end; routing faces away (§8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Retreating {
    FallBack,
    Rout,
}

/// What became of a retreat.
#[derive(Debug, Clone, Default)]
pub(crate) struct Retreat {
    /// Inches moved.
    pub distance: f64,
    /// The unit's footprints along the way (for the units within 6 inches).
    pub swept: Vec<Footprint>,
    /// A routing unit carried off the edge of the table.
    pub left_table: bool,
}

/// Units that block or are passed: everything present but single figures
/// and the unit itself.
fn others<'a>(table: &'a Table, u: &'a Unit) -> impl Iterator<Item = &'a Unit> + 'a {
    table
        .units
        .values()
        .filter(move |o| o.id != u.id && o.status.is_present() && !o.kind.is_single_figure())
}

/// The footprint of `u` moved `s` inches along `dir` from `start`, turned to `facing`.
fn footprint_at(start: &Footprint, dir: DVec2, s: f64, facing: f64) -> Footprint {
    Footprint {
        centre: start.centre + dir * s,
        ahead: heading(facing),
        ..*start
    }
}

/// Whether the straight path of `distance` along `dir` meets a friend of `u`.
pub(crate) fn path_meets_friend(
    table: &Table,
    u: &Unit,
    dir: DVec2,
    distance: f64,
    facing: f64,
) -> bool {
    path_meets_friend_from(table, u, &u.footprint(), dir, distance, facing)
}

/// [`path_meets_friend`] for the unit drawn up as `start`.
fn path_meets_friend_from(
    table: &Table,
    u: &Unit,
    start: &Footprint,
    dir: DVec2,
    distance: f64,
    facing: f64,
) -> bool {
    let start = *start;
    let friends: Vec<&Unit> = others(table, u).filter(|o| o.side == u.side).collect();
    let steps = (distance / STEP).ceil().max(1.0) as usize;
    (0..=steps).any(|i| {
        let fp = footprint_at(&start, dir, distance * i as f64 / steps as f64, facing);
        friends.iter().any(|f| f.footprint().overlaps(&fp))
    })
}

/// The narrower formations a unit falling back may take for free to use a
/// gap (§8 "the unit falling back is allowed a free formation change to
/// take advantage of such gaps"), widest first: a deeper line (at most 3
/// ranks), then columns, then road columns (at most 3 wide), each formed
/// about the centre of its front rank as every change of formation is.
fn narrower_formations(u: &Unit) -> Vec<Pose> {
    let n = models(u.kind, u.figures).max(1);
    (1..u.files)
        .rev()
        .filter_map(|files| {
            let ranks = n.div_ceil(files);
            let formation = if ranks <= LINE_MAX_RANKS && u.formation == Formation::Line {
                Formation::Line
            } else if files <= ROAD_COLUMN_MAX_FILES {
                Formation::RoadColumn
            } else if ranks >= COLUMN_MIN_RANKS {
                Formation::Column
            } else {
                return None;
            };
            formation_fits(formation, files, ranks).ok()?;
            Some(Pose {
                formation,
                files,
                ranks,
                ..u.pose()
            })
        })
        .collect()
}

/// Terrain the unit may not enter (§7: mounted troops and woods or swamps;
/// water the game makes impassable, ruling T-1).
fn forbidden(table: &Table, options: &GameOptions, u: &Unit, fp: &Footprint) -> Option<String> {
    if let Water::Barred(name) = water_under(&table.terrain, fp, options.rivers, options.streams) {
        return Some(name.to_string());
    }
    if !u.kind.is_mounted() {
        return None;
    }
    table
        .terrain
        .iter()
        .find(|t| matches!(t.kind, TerrainKind::Woods | TerrainKind::Swamp) && t.area_meets(fp))
        .map(|t| t.name().to_string())
}

/// Move unit `id` `distance` inches away along `away` (§8).
///
/// `crew` is the mammoths' crew alive at the moment of failure (what each
/// trampled friend loses, §5). The block slides without turning, so it
/// sweeps no ground beside its path, and turns to face the enemy (or away)
/// where it stops, if there is room to (ruling M-6). Units it overlaps
/// where it starts (its melee opponents) do not stop it.
///
/// # Errors
/// A scripted dice source without a chariot's trampling die.
#[allow(clippy::too_many_arguments)]
pub(crate) fn retreat(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    id: &str,
    away: DVec2,
    distance: f64,
    how: Retreating,
    crew: u32,
) -> Result<Retreat, DiceError> {
    let u = turn.table.units[id].clone();
    let end_facing = match how {
        Retreating::FallBack => bearing_of(-away),
        Retreating::Rout => bearing_of(away),
    };
    let facing = u.facing;
    let former: BTreeSet<UnitId> = others(&turn.table, &u)
        .filter(|o| o.footprint().overlaps(&u.footprint()))
        .map(|o| o.id.clone())
        .collect();
    let mounted_beast = u.kind.is_chariot() || u.kind == UnitType::WoollyMammoth;
    // Straight back, or up to 45° off it, to use a gap (§8), in the
    // unit's formation or — falling back, not routing, and not chariots
    // or mammoths (§5) — in a narrower one, formed for free. Only when no
    // gap exists does it go straight back through the friends behind.
    let mut shapes = vec![u.pose()];
    if how == Retreating::FallBack && !mounted_beast {
        shapes.extend(narrower_formations(&u));
    }
    let (dir, shape) = GAP_TRIES
        .iter()
        .map(|a| rotate_cw(away, *a))
        .find_map(|d| {
            shapes
                .iter()
                .find(|p| {
                    let fp = p.footprint(u.kind);
                    !path_meets_friend_from(&turn.table, &u, &fp, d, distance, u.facing)
                })
                .map(|p| (d, *p))
        })
        .unwrap_or((away, u.pose()));
    if shape != u.pose() {
        turn.events.push(Event::ReformedToFallBack {
            unit: u.id.clone(),
            name: u.name.clone(),
            formation: shape.formation,
            files: shape.files,
            ranks: shape.ranks,
        });
    }
    let start = shape.footprint(u.kind);
    let mut out = Retreat::default();
    let mut passed: BTreeSet<UnitId> = BTreeSet::new();
    let mut trampled: BTreeSet<UnitId> = BTreeSet::new();
    let mut last_clear = 0.0;
    let mut s = 0.0;
    let mut stop: Option<(f64, Option<Halt>)> = None;
    let limit = distance + CLEAR_LIMIT;
    while stop.is_none() {
        let next = (s + STEP).min(limit);
        let fp = footprint_at(&start, dir, next, facing);
        if !within_table(&turn.table, &fp) {
            if how == Retreating::Rout {
                out.left_table = true;
                stop = Some((next, None));
            } else {
                stop = Some((s, Some(Halt::TableEdge)));
            }
            break;
        }
        if let Some(terrain) = forbidden(&turn.table, options, &u, &fp) {
            stop = Some((s, Some(Halt::Terrain { terrain })));
            break;
        }
        let enemy = others(&turn.table, &u)
            .filter(|o| o.side != u.side && !former.contains(&o.id) && o.footprint().overlaps(&fp))
            .map(|o| o.id.clone())
            .next();
        if let Some(e) = enemy {
            let at = touch(
                &turn.table.units[&e].footprint(),
                &start,
                dir,
                facing,
                s,
                next,
            );
            let name = turn.table.units[&e].name.clone();
            turn.events.push(Event::RetreatedInto {
                unit: u.id.clone(),
                name: u.name.clone(),
                other: e.clone(),
                other_name: name,
            });
            lock(&mut turn.table, &u.id, &e);
            stop = Some((at, None));
            break;
        }
        let friends: Vec<UnitId> = others(&turn.table, &u)
            .filter(|o| o.side == u.side && o.footprint().overlaps(&fp))
            .map(|o| o.id.clone())
            .collect();
        if friends.is_empty() {
            last_clear = next;
        }
        let mut blocked = None;
        for f in friends {
            if !mounted_beast {
                passed.insert(f);
                continue;
            }
            if trampled.insert(f.clone()) {
                trample(turn, options, dice, &u, &f, crew, how)?;
            }
            // Mammoths, and chariots falling back, cannot interpenetrate:
            // they stop against the friend (§5). Routing chariots ride over.
            if u.kind == UnitType::WoollyMammoth || how == Retreating::FallBack {
                let at = turn
                    .table
                    .units
                    .get(&f)
                    .map_or(s, |o| touch(&o.footprint(), &start, dir, facing, s, next));
                blocked = Some((at, f));
                break;
            }
        }
        if let Some((at, f)) = blocked {
            let name = turn.table.units[&f].name.clone();
            stop = Some((at, Some(Halt::Friend { unit: f, name })));
            break;
        }
        s = next;
        if s >= distance - EPSILON && last_clear >= s - EPSILON {
            stop = Some((s, None));
        } else if s >= limit - EPSILON {
            stop = Some((last_clear, None));
        }
        out.swept.push(fp);
    }
    let (mut at, halt) = stop.unwrap_or((s, None));
    // Never end on top of a friend: back to the last clear place.
    let overlapping = |table: &Table, at: f64| {
        let fp = footprint_at(&start, dir, at, facing);
        others(table, &u).any(|o| o.side == u.side && o.footprint().overlaps(&fp))
    };
    if !out.left_table && overlapping(&turn.table, at) {
        at = last_clear.min(at);
    }
    out.distance = at;
    let mut end = footprint_at(&start, dir, at, facing);
    out.swept.push(end);
    let turned = footprint_at(&start, dir, at, end_facing);
    if !others(&turn.table, &u).any(|o| o.footprint().overlaps(&turned)) {
        end = turned;
    }
    if let Some(reason) = halt {
        turn.events.push(Event::RetreatStopped {
            unit: u.id.clone(),
            name: u.name.clone(),
            after: at,
            reason,
        });
    }
    for f in &passed {
        let name = turn.table.units[f].name.clone();
        turn.events.push(Event::PassedThrough {
            unit: u.id.clone(),
            name: u.name.clone(),
            through: f.clone(),
            through_name: name,
        });
        turn.table.morale.no_charge_in_phase1.insert(f.clone());
    }
    let pose = Pose {
        front: end.front(),
        facing: bearing_of(end.ahead),
        ..shape
    };
    if let Some(unit) = turn.table.units.get_mut(id) {
        unit.set_pose(pose);
    }
    // A unit that could not get clear of an enemy (stopped against another
    // before it left the one it fought) is still in contact: it stays in
    // melee with every enemy it ends overlapping (ruling M-19).
    if !out.left_table {
        let moved = &turn.table.units[id];
        let fp = moved.footprint();
        let caught: Vec<UnitId> = others(&turn.table, moved)
            .filter(|o| o.side != moved.side && o.footprint().overlaps(&fp))
            .map(|o| o.id.clone())
            .collect();
        for e in caught {
            lock(&mut turn.table, id, &e);
        }
    }
    Ok(out)
}

/// Where along the path (between `lo` and `hi`) the moving footprint first touches `other`.
fn touch(other: &Footprint, start: &Footprint, dir: DVec2, facing: f64, lo: f64, hi: f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    for _ in 0..BISECT {
        let mid = (lo + hi) / 2.0;
        if footprint_at(start, dir, mid, facing).overlaps(other) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    lo
}

/// Two units lock in melee.
fn lock(table: &mut Table, a: &str, b: &str) {
    if let Some(u) = table.units.get_mut(a) {
        u.in_melee_with.insert(b.to_string());
    }
    if let Some(u) = table.units.get_mut(b) {
        u.in_melee_with.insert(a.to_string());
    }
}

/// A mammoth or chariot tramples friend `f` (§5): mammoths kill as many
/// figures as they had crew at the failure; routing chariots inflict what
/// their charge would and call a test at −10 (as if broken through).
fn trample(
    turn: &mut TurnState,
    options: &GameOptions,
    dice: &mut dyn Dice,
    u: &Unit,
    f: &str,
    crew: u32,
    how: Retreating,
) -> Result<(), DiceError> {
    let lost = if u.kind == UnitType::WoollyMammoth {
        crew
    } else if how == Retreating::Rout {
        let d6 = roll(
            dice,
            DiceKey::D6 {
                unit: u.id.clone(),
                what: format!("trample-{f}"),
            },
            &mut turn.events,
        )?;
        let n = casualties(
            average_from_normal_die(d6),
            charge_bonus(u.kind),
            u.figures,
            options.figure_rounding,
        );
        turn.record.unit_mut(f).morale_calls.push(MoraleCall {
            cause: MoraleCause::Trampled { by: u.id.clone() },
            modifier: crate::games::hyborian::rules::morale::MoraleModifier::Trampled.value(),
        });
        n
    } else {
        return Ok(());
    };
    let name = turn.table.units[f].name.clone();
    turn.events.push(Event::Trampled {
        unit: f.to_string(),
        name,
        by: u.id.clone(),
        by_name: u.name.clone(),
        lost,
    });
    take_losses(turn, f, lost);
    Ok(())
}

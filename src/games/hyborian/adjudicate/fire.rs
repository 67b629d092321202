//! Missile fire at the end of a phase (§6, §7): who may shoot, at whom, with
//! how many figures and which modifiers; all volleys of the phase are
//! rolled first and their casualties applied together afterwards.

use super::events::Event;
use super::ground::level;
use super::losses::take_losses;
use super::{roll, TurnState};
use crate::games::hyborian::dice::{Dice, DiceError, DiceKey};
use crate::games::hyborian::orders::plan::{FireOrder, Function, TurnOrders};
use crate::games::hyborian::rules::fire::{
    casualties_from_kills, crew_archers, kills, range_of, ranks_that_fire, Arc, FireModifier,
    MissileWeapon, EDGE_DEPTH, FIRE_GAP, FOOT_ARC, HORSE_ARCHER_ARC,
    HORSE_ARCHER_COLUMN_SIDE_FILES, HORSE_ARCHER_LINE_RANKS, PASS_FIRE_MOVE_LIMIT, TORTOISE_RANKS,
};
use crate::games::hyborian::rules::options::{Archery, GameOptions};
use crate::games::hyborian::rules::{Formation, Phase, Trait, UnitType};
use crate::games::hyborian::table::{Status, Table, TerrainKind, Unit, UnitId};
use crate::geometry::{bearing_of, turn_between, Edge, Footprint, EPSILON};
use crate::geometry::{distance_to_polyline, point_in_polygon};
use std::collections::BTreeMap;

/// One unit's volley, worked out before any casualty is applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Volley {
    pub target: UnitId,
    pub weapon: MissileWeapon,
    pub range: f64,
    pub modifiers: Vec<FireModifier>,
    pub figures_firing: u32,
}

/// Fire at the end of phase `p`: every able missile unit shoots once, in id
/// order; casualties are applied after all the phase's fire is rolled.
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn phase(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    dice: &mut dyn Dice,
    p: Phase,
) -> Result<(), DiceError> {
    let mut losses: BTreeMap<UnitId, u32> = BTreeMap::new();
    let ids: Vec<UnitId> = turn.table.units.keys().cloned().collect();
    for id in ids {
        let Some(v) = volley(turn, orders, options, p, &id) else {
            continue;
        };
        let key = DiceKey::Fire {
            unit: id.clone(),
            phase: p.number(),
        };
        fire_volley(turn, dice, key, &id, &v, p, &mut losses)?;
    }
    apply_losses(turn, losses);
    Ok(())
}

/// The missile weapon a unit shoots with: its longest-ranged (ruling C-6);
/// horse archers shoot bows.
pub fn missile_weapon(u: &Unit) -> Option<MissileWeapon> {
    let listed = u
        .weapons
        .iter()
        .filter_map(|w| MissileWeapon::of(*w))
        .max_by(|a, b| range_of(*a, false).max.total_cmp(&range_of(*b, false).max));
    listed.or_else(|| {
        u.has_trait(Trait::HorseArcher)
            .then_some(MissileWeapon::Bow)
    })
}

/// The volley unit `id` would fire at the end of phase `p`, if it may fire.
pub(crate) fn volley(
    turn: &TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    p: Phase,
    id: &str,
) -> Option<Volley> {
    let table = &turn.table;
    let firer = table.units.get(id)?;
    let weapon = missile_weapon(firer)?;
    let order = orders.units.get(id);
    if !may_shoot(turn, orders, options, p, firer) || !firer.in_melee_with.is_empty() {
        return None;
    }
    let range = range_of(weapon, options.shemite_bow_long_over_12);
    let arc = if firer.has_trait(Trait::HorseArcher) {
        HORSE_ARCHER_ARC
    } else {
        FOOT_ARC
    };
    let fp = firer.footprint();
    let legal = |t: &Unit| -> Option<f64> {
        let tfp = t.footprint();
        let d = fp.distance(&tfp);
        let ok = t.side != firer.side
            && t.status.is_present()
            && t.attached_to.is_none()
            && t.in_melee_with.is_empty()
            && d <= range.max + EPSILON
            && in_arc(firer, &tfp, arc)
            && edge_allows(table, &tfp)
            && clear_line(table, firer, &tfp, options)
            && !super::spells::missiles_blocked(
                table,
                fp.front(),
                tfp.nearest_point(fp.front()),
                &t.id,
            );
        ok.then_some(d)
    };
    let preferred = match order.map(|o| &o.fire) {
        Some(FireOrder::Prefer(t)) => table.units.get(t).and_then(|t| legal(t).map(|d| (d, t))),
        _ => None,
    };
    let (d, target) = preferred.or_else(|| {
        table
            .units
            .values()
            .filter_map(|t| legal(t).map(|d| (d, t)))
            .min_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)))
    })?;
    let modifiers = modifiers(turn, firer, target, d, range.long_over, weapon, p);
    let figures_firing = figures_firing(firer, weapon, &target.footprint(), options);
    Some(Volley {
        target: target.id.clone(),
        weapon,
        range: d,
        modifiers,
        figures_firing,
    })
}

/// Whether a unit may shoot at all this phase (§6): a missile unit, not
/// routing, not a single figure, not holding fire (nor saving its volley
/// for the other phase), not charging this turn,
/// not an evader, not yet fired (one volley a turn, or one a phase), not a
/// light unit passed through this phase, not deep in woods or a swamp.
fn may_shoot(
    turn: &TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    p: Phase,
    firer: &Unit,
) -> bool {
    let order = orders.units.get(&firer.id);
    let rec = turn.record.unit(&firer.id);
    let able = matches!(firer.status, Status::Ready | Status::FallBack(_))
        && firer.attached_to.is_none()
        && !firer.kind.is_single_figure()
        && firer.figures > 0
        && missile_weapon(firer).is_some();
    // "fire in phase 2": the volley waits for its phase (ruling C-31).
    let held =
        order.is_some_and(|o| o.fire == FireOrder::Hold || o.volley_phase.is_some_and(|q| q != p));
    // No unit may fire and charge in the same turn (§6): a charge written
    // for either phase forgoes the turn's archery.
    let charges = order.is_some_and(|o| {
        [&o.phase1, &o.phase2]
            .iter()
            .any(|f| matches!(f, Some(Function::Charge(_))))
    }) || rec
        .is_some_and(|r| r.charge_contact || r.phase1.charging || r.phase2.charging);
    let evaded = rec.is_some_and(|r| r.phase1.evaded || r.phase2.evaded);
    let fired = rec.is_some_and(|r| match options.archery {
        Archery::OncePerTurn => r.fired.is_some(),
        Archery::EachPhase => r.fired == Some(p),
    });
    let passed = rec.is_some_and(|r| !r.phase(p).passed_through_by.is_empty())
        && firer.kind == UnitType::LightInfantry;
    able && !held
        && !charges
        && !evaded
        && !fired
        && !passed
        && edge_allows(&turn.table, &firer.footprint())
}

/// Pass-through fire during phase `p` (§6): archers that moved less than 3
/// inches (or only changed face or formation) shoot at an enemy that came
/// within their range while moving and is no longer a target for the
/// end-of-phase volley — it charged them, or passed through and out of range
/// — but not at one that started in range and moved away beyond it. It is
/// the unit's volley (ruling C-24); casualties are applied together.
///
/// # Errors
/// A scripted dice source without the roll needed.
pub(crate) fn pass_through(
    turn: &mut TurnState,
    orders: &TurnOrders,
    options: &GameOptions,
    dice: &mut dyn Dice,
    p: Phase,
) -> Result<(), DiceError> {
    let mut volleys = Vec::new();
    for firer in turn.table.units.values() {
        let moved = turn
            .record
            .unit(&firer.id)
            .map_or(0.0, |r| r.phase(p).distance);
        if moved >= PASS_FIRE_MOVE_LIMIT || !may_shoot(turn, orders, options, p, firer) {
            continue;
        }
        let Some(weapon) = missile_weapon(firer) else {
            continue;
        };
        let range = range_of(weapon, options.shemite_bow_long_over_12);
        let arc = if firer.has_trait(Trait::HorseArcher) {
            HORSE_ARCHER_ARC
        } else {
            FOOT_ARC
        };
        let fp = firer.footprint();
        let candidate = |t: &Unit| -> Option<f64> {
            let seen = turn
                .record
                .unit(&t.id)?
                .phase(p)
                .came_in_range_of
                .get(&firer.id)?;
            let tfp = t.footprint();
            let charged_us = t.in_melee_with.contains(&firer.id);
            let out_of_range = fp.distance(&tfp) > range.max + EPSILON;
            // "Not … if they are moving away from the archer unit and finish
            // their move beyond the range" (§6).
            let went_away = out_of_range && seen.moving_away();
            let ok = t.side != firer.side
                && t.status.is_present()
                && (charged_us || out_of_range)
                && !went_away
                && (charged_us || t.in_melee_with.is_empty())
                && in_arc(firer, &tfp, arc);
            ok.then_some(seen.closest)
        };
        let preferred = match orders.units.get(&firer.id).map(|o| &o.fire) {
            Some(FireOrder::Prefer(t)) => turn
                .table
                .units
                .get(t)
                .and_then(|t| candidate(t).map(|d| (d, t))),
            _ => None,
        };
        let chosen = preferred.or_else(|| {
            turn.table
                .units
                .values()
                .filter_map(|t| candidate(t).map(|d| (d, t)))
                .min_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)))
        });
        if let Some((d, target)) = chosen {
            let modifiers = modifiers(turn, firer, target, d, range.long_over, weapon, p);
            let figures_firing = figures_firing(firer, weapon, &target.footprint(), options);
            volleys.push((
                firer.id.clone(),
                Volley {
                    target: target.id.clone(),
                    weapon,
                    range: d,
                    modifiers,
                    figures_firing,
                },
            ));
        }
    }
    let mut losses: BTreeMap<UnitId, u32> = BTreeMap::new();
    for (id, v) in volleys {
        let key = DiceKey::PassFire {
            unit: id.clone(),
            phase: p.number(),
        };
        fire_volley(turn, dice, key, &id, &v, p, &mut losses)?;
    }
    apply_losses(turn, losses);
    Ok(())
}

/// Roll one volley's die, report it, and add its casualties to the
/// phase's losses (applied together by [`apply_losses`]).
fn fire_volley(
    turn: &mut TurnState,
    dice: &mut dyn Dice,
    key: DiceKey,
    id: &str,
    v: &Volley,
    p: Phase,
    losses: &mut BTreeMap<UnitId, u32>,
) -> Result<(), DiceError> {
    let die = roll(dice, key, &mut turn.events)?;
    let casualties = shoot(turn, id, v, die, p);
    let victim = super::spells::arrows_land_on(turn, id, &v.target);
    *losses.entry(victim).or_default() += casualties;
    Ok(())
}

/// Apply a phase's summed casualties, after all its fire is rolled (§6).
fn apply_losses(turn: &mut TurnState, losses: BTreeMap<UnitId, u32>) {
    for (id, n) in losses {
        take_losses(turn, &id, n);
    }
}

/// Report one volley and mark the firer as having shot; its casualties.
fn shoot(turn: &mut TurnState, id: &str, v: &Volley, die: u8, p: Phase) -> u32 {
    let sum: i32 = v.modifiers.iter().map(|m| m.value()).sum();
    let k = kills(die, sum, v.figures_firing);
    let casualties = casualties_from_kills(k);
    turn.record.unit_mut(id).fired = Some(p);
    let (firer, target) = (&turn.table.units[id], &turn.table.units[&v.target]);
    turn.events.push(Event::FireResolved {
        firer: id.to_string(),
        firer_name: firer.name.clone(),
        target: v.target.clone(),
        target_name: target.name.clone(),
        phase: p.number(),
        range: v.range,
        modifiers: v
            .modifiers
            .iter()
            .map(|m| (m.name().to_string(), m.value()))
            .collect(),
        die,
        figures_firing: v.figures_firing,
        kills: k,
        casualties,
    });
    casualties
}

/// The §6 modifiers, in the book's order.
fn modifiers(
    turn: &TurnState,
    firer: &Unit,
    target: &Unit,
    d: f64,
    long_over: f64,
    weapon: MissileWeapon,
    p: Phase,
) -> Vec<FireModifier> {
    let table = &turn.table;
    let frec = turn.record.unit(&firer.id);
    let trec = turn.record.unit(&target.id);
    let target_moved = trec.is_some_and(|r| r.phase1.moved || (p == Phase::Two && r.phase2.moved));
    let target_charging = trec.is_some_and(|r| r.phase(p).charging);
    let tfp = target.footprint();
    let swamp = table
        .terrain
        .iter()
        .any(|t| t.kind == TerrainKind::Swamp && t.area_meets(&tfp));
    let woods = table
        .terrain
        .iter()
        .any(|t| t.kind == TerrainKind::Woods && t.area_meets(&tfp));
    let uphill = level(table, &tfp) > level(table, &firer.footprint()) || swamp;
    [
        (
            d > long_over + EPSILON || weapon == MissileWeapon::Thrown,
            FireModifier::LongRange,
        ),
        (
            frec.is_some_and(|r| r.moved_this_turn()),
            FireModifier::FirerMoved,
        ),
        (target_moved, FireModifier::TargetMoved),
        (uphill, FireModifier::Uphill),
        (woods, FireModifier::Woods),
        (firer.has_trait(Trait::Bossonian), FireModifier::Bossonian),
        (
            target.kind.is_infantry() && target.ranks >= TORTOISE_RANKS && !target_charging,
            FireModifier::Tortoise,
        ),
        (
            matches!(firer.status, Status::FallBack(_)),
            FireModifier::FallBack,
        ),
        (target.kind == UnitType::Wizard, FireModifier::Wizard),
        (
            target.kind == UnitType::WoollyMammoth,
            FireModifier::Mammoth,
        ),
    ]
    .into_iter()
    .filter_map(|(on, m)| on.then_some(m))
    .collect()
}

/// Figures that shoot (§5, §6 "who fires").
fn figures_firing(
    u: &Unit,
    weapon: MissileWeapon,
    target: &Footprint,
    options: &GameOptions,
) -> u32 {
    let n = if let Some(archers) = crew_archers(u.kind, u.figures) {
        archers
    } else if u.has_trait(Trait::HorseArcher) {
        let to_side = !matches!(u.footprint().arc_of(target.centre), Edge::Front);
        if matches!(u.formation, Formation::Column | Formation::RoadColumn) && to_side {
            HORSE_ARCHER_COLUMN_SIDE_FILES * u.ranks
        } else {
            HORSE_ARCHER_LINE_RANKS * u.files
        }
    } else {
        ranks_that_fire(weapon) * u.files
    };
    let n = n.min(u.figures);
    if weapon == MissileWeapon::Crossbow {
        // "only half the figures each turn"
        crate::games::hyborian::rules::melee::half(n, options.figure_rounding)
    } else {
        n
    }
}

/// Whether some part of the target lies within the firer's arc, measured
/// from the centre of its front edge (ruling C-5).
fn in_arc(firer: &Unit, target: &Footprint, arc: Arc) -> bool {
    let fp = firer.footprint();
    let origin = fp.front();
    let [a, b, c, d] = target.corners();
    [a, b, c, d, target.centre, target.nearest_point(origin)]
        .into_iter()
        .any(|q| {
            if q.distance(origin) < EPSILON {
                return true;
            }
            let t = turn_between(firer.facing, bearing_of(q - origin));
            t <= arc.right + EPSILON && -t <= arc.left + EPSILON
        })
}

/// Woods and swamps (§7): a unit inside shoots and is shot at only from
/// within 3 inches of the edge (measured from its front centre or its
/// nearest corner to the edge, ruling C-8).
fn edge_allows(table: &Table, f: &Footprint) -> bool {
    table
        .terrain
        .iter()
        .filter(|t| matches!(t.kind, TerrainKind::Woods | TerrainKind::Swamp))
        .all(|t| {
            let mut ring = t.points.clone();
            if let Some(first) = t.points.first() {
                ring.push(*first);
            }
            let [a, b, c, d] = f.corners();
            [a, b, c, d, f.front()].into_iter().any(|q| {
                !point_in_polygon(q, &t.points)
                    || distance_to_polyline(q, &ring) <= EDGE_DEPTH + EPSILON
            })
        })
}

/// No firing over friends (§6): a friend across the line of fire, or two
/// friends on either side of it with a gap of 3 inches or less between them,
/// block it — unless the firer stands a contour above them and they are
/// closer to the firer than to the target.
fn clear_line(table: &Table, firer: &Unit, target: &Footprint, options: &GameOptions) -> bool {
    let fp = firer.footprint();
    let from = fp.front();
    let to = target.nearest_point(from);
    let len = from.distance(to);
    if len < EPSILON {
        return true;
    }
    let line = Footprint::behind(to, bearing_of(to - from), 0.0, len);
    let my_level = level(table, &fp);
    let dir = (to - from) / len;
    let blockers: Vec<(&Unit, Footprint)> = table
        .units
        .values()
        .filter(|u| {
            u.side == firer.side
                && u.id != firer.id
                && u.status.is_present()
                && u.attached_to.is_none()
        })
        .map(|u| (u, u.footprint()))
        .filter(|(_, f)| (f.centre - from).dot(fp.ahead) > 0.0)
        .filter(|(_, f)| !(my_level > level(table, f) && fp.distance(f) < f.distance(target)))
        .collect();
    if blockers.iter().any(|(_, f)| f.distance(&line) <= EPSILON) {
        return false;
    }
    let side = |f: &Footprint| (f.centre - from).perp_dot(dir) > 0.0;
    let narrow = |g: f64| {
        if options.fire_gap_of_three_passes {
            g < FIRE_GAP - EPSILON
        } else {
            g <= FIRE_GAP + EPSILON
        }
    };
    blockers.iter().enumerate().all(|(i, (_, a))| {
        blockers[i + 1..].iter().all(|(_, b)| {
            side(a) == side(b)
                || !narrow(a.distance(b))
                || a.distance(&line) > FIRE_GAP
                || b.distance(&line) > FIRE_GAP
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Footprint;
    use glam::DVec2;

    #[test]
    fn volleys_read_as_sentences() {
        let e = Event::FireResolved {
            firer: "boss".into(),
            firer_name: "Bossonian Archers".into(),
            target: "foot".into(),
            target_name: "Nemedian Spearmen".into(),
            phase: 1,
            range: 10.5,
            modifiers: [
                FireModifier::FirerMoved,
                FireModifier::Uphill,
                FireModifier::LongRange,
                FireModifier::Bossonian,
            ]
            .iter()
            .map(|m| (m.name().to_string(), m.value()))
            .collect(),
            die: 4,
            figures_firing: 12,
            kills: 24,
            casualties: 1,
        };
        assert_eq!(
            e.to_string(),
            "Bossonian Archers shot at Nemedian Spearmen at 10.5 inches: die 4, moved −1, target uphill −1, \
             long range −1, Bossonian +1 = 2; 12 figures firing score 24 kills: 1 casualty at 20 kills a figure."
        );
        let lost = Event::Casualties {
            unit: "foot".into(),
            name: "Nemedian Spearmen".into(),
            lost: 1,
            left: 23,
        };
        assert_eq!(
            lost.to_string(),
            "Nemedian Spearmen lost 1 figure (23 left)."
        );
    }

    #[test]
    fn nearest_point_of_a_rectangle() {
        let f = Footprint::behind(DVec2::new(0.0, 0.0), 0.0, 4.0, 2.0);
        assert!((f.nearest_point(DVec2::new(0.0, 5.0)) - DVec2::new(0.0, 0.0)).length() < 1e-9);
        assert!((f.nearest_point(DVec2::new(5.0, -1.0)) - DVec2::new(2.0, -1.0)).length() < 1e-9);
    }
}
